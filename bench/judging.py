"""The pure part of bench/realmem.py: judgement files merged, the dev/test split, counts, recall, tiers.

No memwarden run happens here, so tests/test_tiers_bench.py checks it on small synthetic TSVs.
The tier policy is :func:`tier`, the one place it is decided; the table realmem.py writes
(src/memwarden/rule_tiers.json) records it in words (POLICY).
"""

from __future__ import annotations

import csv
import json
import math
import re
from collections import Counter
from pathlib import Path

FIELDS = ("repo", "path", "line", "rule", "verdict", "quote", "note")
COUNTS_SUFFIX = "_counts.tsv"
COUNT_FIELDS = ("rule", "split", "found", "true", "false", "debatable", "unjudged")
VERDICTS = ("true", "false", "debatable")
SPLITS = ("dev", "test")
CLAIM_RULE = "negative-claim-without-expiry"
Z = 1.2816  # one-sided 90%
MIN_TEST_PRECISION = 0.9
MIN_LOWER_BOUND = 0.75
# A rule nearly always wrong on real memory, on enough findings to say so, is deprecated as ruff deprecates: not
# even --preview runs it, only its name in `select`. Hiding a rule from --preview asks for more evidence than a
# tier: at 50 judged findings schema-violation (1 of 70) went too, though its findings are wrong on other tools'
# notes and it is the schema check of memwarden's own formats, which the real-memory corpus barely holds.
MAX_UPPER_BOUND = 0.1
MIN_JUDGED_TO_DEPRECATE = 100
POLICY = (
    f"stable when (a) the test half's precision true/(true+false) is at least {MIN_TEST_PRECISION} (or the test "
    f"half has no judged finding of the rule) and (b) the Wilson score lower bound (one-sided 90%, z = {Z}) of "
    f"the dev and test halves' judged findings pooled is at least {MIN_LOWER_BOUND}; deprecated when at least "
    f"{MIN_JUDGED_TO_DEPRECATE} findings are judged, pooled, their Wilson score upper bound is under "
    f"{MAX_UPPER_BOUND}, and so is each half's precision (where any is judged); otherwise preview. Debatable findings count in neither. A rule missing from this table is "
    "preview."
)
_QUOTE = re.compile(r'"([^"]{1,200})')


def quote_of(message: str) -> str:
    found = _QUOTE.search(message)
    return found.group(1)[:60] if found else ""


def read_tsv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return [
            {key: (value or "") for key, value in row.items() if key is not None}
            for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        ]


def judgement_files(bench: Path) -> list[Path]:
    """bench/realmem_judgements.tsv, then bench/judged/*.tsv in name order (not the split or expected-claims files)."""
    first = bench / "realmem_judgements.tsv"
    later = sorted(
        path for path in (bench / "judged").glob("*.tsv")
        if not path.name.startswith(("split", "claims_expected")) and not path.name.endswith(COUNTS_SUFFIX)
    )
    return ([first] if first.exists() else []) + later


def counts_files(bench: Path) -> list[Path]:
    """bench/judged/*_counts.tsv: per-rule, per-split counts judged on another corpus than realmem's
    (bench/repo_claims_real.py --write-counts: the repository-claim rules, judged on whole repositories)."""
    return sorted((bench / "judged").glob(f"*{COUNTS_SUFFIX}"))


def write_counts(path: Path, counts: dict[str, dict[str, Counter]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        handle.write("\t".join(COUNT_FIELDS) + "\n")
        for split in SPLITS:
            for rule in sorted(counts.get(split, {})):
                counter = counts[split][rule]
                handle.write("\t".join([rule, split, *(str(counter[key]) for key in COUNT_FIELDS[2:])]) + "\n")


def read_counts(paths: list[Path]) -> dict[str, dict[str, Counter]]:
    """The counts files summed, per split and rule; a damaged row is a ValueError naming its file and line."""
    counts: dict[str, dict[str, Counter]] = {split: {} for split in SPLITS}
    for path in paths:
        for number, row in enumerate(read_tsv(path), start=2):
            split = row.get("split", "")
            try:
                if split not in SPLITS or not row.get("rule"):
                    raise ValueError(f"split {split!r} is not one of {', '.join(SPLITS)}")
                counter = Counter({key: int(row[key]) for key in COUNT_FIELDS[2:] if row.get(key)})
            except ValueError as error:
                raise ValueError(f"{path}:{number}: not a count row ({error})") from None
            counts[split][row["rule"]] = counts[split].get(row["rule"], Counter()) + counter
    return counts


def add_counts(*parts: dict[str, dict[str, Counter]]) -> dict[str, dict[str, Counter]]:
    """Counts from several corpora, summed per split and rule (the inputs are left as they are)."""
    total: dict[str, dict[str, Counter]] = {split: {} for split in SPLITS}
    for part in parts:
        for split in SPLITS:
            for rule, counter in part.get(split, {}).items():
                total[split][rule] = total[split].get(rule, Counter()) + counter
    return total


def split_files(bench: Path) -> list[Path]:
    return sorted((bench / "judged").glob("split*.tsv"))


def claims_files(bench: Path) -> list[Path]:
    return sorted((bench / "judged").glob("claims_expected*.tsv"))


def read_splits(paths: list[Path]) -> dict[str, str]:
    """repo -> dev or test, from the split files (a repository in none of them is dev)."""
    splits = {}
    for path in paths:
        for row in read_tsv(path):
            if row.get("split") in SPLITS:
                splits[row["repo"]] = row["split"]
    return splits


def split_of(repo: str, splits: dict[str, str]) -> str:
    return splits.get(repo, "dev")


class Judgements:
    """Judged findings, matched by (repo, path, rule, line), else by (repo, path, rule, quote).

    Rows are read in file order; a later verdict for the same finding (same line, or same quote) overrides
    an earlier one. A row with no verdict is not a judgement.
    """

    def __init__(self, rows: list[dict[str, str]]):
        self.by_line: dict[tuple, dict[str, str]] = {}
        self.by_quote: dict[tuple, dict[str, str]] = {}
        for row in rows:
            if row.get("verdict") not in VERDICTS:
                continue
            self.by_line[(row["repo"], row["path"], row["rule"], row["line"])] = row
            if row.get("quote"):
                self.by_quote[(row["repo"], row["path"], row["rule"], row["quote"])] = row

    @classmethod
    def from_files(cls, paths: list[Path]) -> "Judgements":
        return cls([row for path in paths for row in read_tsv(path)])

    def match(self, repo: str, finding: dict) -> dict[str, str] | None:
        row = self.by_line.get((repo, finding["path"], finding["name"], str(finding["line"])))
        quote = quote_of(finding["message"])
        if row is None and quote:
            row = self.by_quote.get((repo, finding["path"], finding["name"], quote))
        return row

    def rows(self) -> list[dict[str, str]]:
        """Every judgement in force (a row overridden on both its keys is gone)."""
        return list({id(row): row for row in [*self.by_line.values(), *self.by_quote.values()]}.values())


TIER_TABLE = Path(__file__).resolve().parent.parent / "src" / "memwarden" / "rule_tiers.json"


def every_rule_args(table: Path = TIER_TABLE) -> list[str]:
    """What a measuring run adds to --preview so that it sees every rule: the deprecated ones named (not even
    --preview runs them, and a rule the measurement no longer sees would lose the counts that deprecated it)."""
    try:
        rules = json.loads(table.read_text(encoding="utf-8")).get("rules", {})
    except (OSError, ValueError):
        return []
    deprecated = sorted(name for name, entry in rules.items() if isinstance(entry, dict) and entry.get("tier") == "deprecated")
    return ["--extend-select", ",".join(deprecated)] if deprecated else []


PART_MARK = "#"  # a part's counts are kept under `rule#part`


def part_of(rule: str, message: str) -> str | None:
    """The part of its rule a finding belongs to, as `rule#part`, or None. secret-in-memory's known-format part is
    told by the label its message starts with (memwarden's own list: src/memwarden/analysis/secrets/patterns.py),
    unless the message puts it in an installed skill."""
    if rule != "secret-in-memory":
        return None
    from memwarden.analysis.secrets.patterns import IN_INSTALLED_SKILL, KNOWN_FORMAT_PART, known_format_labels

    label, _, rest = message.partition(" (sha256:")
    in_part = label in known_format_labels() and IN_INSTALLED_SKILL not in rest.partition(":")[0]
    return f"{rule}{PART_MARK}{KNOWN_FORMAT_PART}" if in_part else None


def count_names(rule: str, message: str) -> list[str]:
    """The names a finding is counted under: its rule, and its part when it belongs to one."""
    part = part_of(rule, message)
    return [rule] if part is None else [rule, part]


def tally(found: dict[str, list[dict]], judgements: Judgements, splits: dict[str, str]):
    """Per split, per rule: a Counter of found, true, false, debatable, unjudged; and the unjudged findings."""
    counts: dict[str, dict[str, Counter]] = {split: {} for split in SPLITS}
    unjudged = []
    for repo, findings in found.items():
        per_rule = counts[split_of(repo, splits)]
        for finding in findings:
            row = judgements.match(repo, finding)
            for name in count_names(finding["name"], finding["message"]):
                counter = per_rule.setdefault(name, Counter())
                counter["found"] += 1
                counter[row["verdict"] if row else "unjudged"] += 1
            if row is None:
                unjudged.append({"repo": repo, "path": finding["path"], "line": str(finding["line"]),
                                 "rule": finding["name"], "verdict": "", "quote": quote_of(finding["message"]),
                                 "note": finding["message"].replace("\t", " ")[:160]})
    return counts, unjudged


def precision(counter: Counter) -> float | None:
    judged = counter["true"] + counter["false"]
    return counter["true"] / judged if judged else None


def wilson_lower_bound(true: int, judged: int, z: float = Z) -> float:
    """The Wilson score interval's lower end for true of judged (0.0 when nothing is judged)."""
    if judged == 0:
        return 0.0
    p = true / judged
    centre = p + z * z / (2 * judged)
    spread = z * math.sqrt(p * (1 - p) / judged + z * z / (4 * judged * judged))
    return (centre - spread) / (1 + z * z / judged)


def wilson_upper_bound(true: int, judged: int, z: float = Z) -> float:
    """The Wilson score interval's upper end for true of judged (1.0 when nothing is judged)."""
    return 1.0 - wilson_lower_bound(judged - true, judged, z) if judged else 1.0


def tier(dev: Counter, test: Counter) -> str:
    """THE tier policy (POLICY in words): stable, preview or deprecated, from a rule's judged counts on each half."""
    test_precision = precision(test)
    pooled_true, pooled_false = dev["true"] + test["true"], dev["false"] + test["false"]
    judged = pooled_true + pooled_false
    held_out_ok = test_precision is None or test_precision >= MIN_TEST_PRECISION
    if held_out_ok and wilson_lower_bound(pooled_true, judged) >= MIN_LOWER_BOUND:
        return "stable"
    # Wrong on each half on its own: one giant repository of false findings in one half deprecates nothing.
    wrong_on_each = all(precision(half) is None or precision(half) < MAX_UPPER_BOUND for half in (dev, test))
    if judged >= MIN_JUDGED_TO_DEPRECATE and wilson_upper_bound(pooled_true, judged) < MAX_UPPER_BOUND and wrong_on_each:
        return "deprecated"
    return "preview"


def _plain(counter: Counter) -> dict[str, int]:
    return {key: counter[key] for key in ("true", "false", "debatable", "found")}


def tier_table(counts: dict[str, dict[str, Counter]], rule_names: list[str], measured: dict,
               parts: dict[str, str] | None = None) -> dict:
    """The table memwarden reads (src/memwarden/rule_tiers.json): every rule, measured or not, and for a rule with
    a part (parts: rule name -> part name) the part's own entry, decided by the same policy."""
    rules = {}
    for name in rule_names:
        rules[name] = _entry(counts, name)
        part = (parts or {}).get(name)
        if part is not None:
            rules[name]["parts"] = {part: _entry(counts, f"{name}{PART_MARK}{part}")}
    return {"measured": measured, "policy": POLICY, "rules": rules}


def _entry(counts: dict[str, dict[str, Counter]], name: str) -> dict:
    dev, test = counts["dev"].get(name, Counter()), counts["test"].get(name, Counter())
    pooled = dev + test
    judged = pooled["true"] + pooled["false"]
    return {
        "tier": tier(dev, test),
        "dev": _plain(dev),
        "test": _plain(test),
        "all": _plain(pooled),
        "precision": _rounded(precision(pooled)),
        "test_precision": _rounded(precision(test)),
        "lower_bound": round(wilson_lower_bound(pooled["true"], judged), 3),
    }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def claim_found(claim: dict[str, str], findings: list[dict]) -> bool:
    """A listed claim is found when a finding of the claim rule is on its line, or quotes it."""
    quote = claim.get("quote", "")[:60]
    for finding in findings:
        if finding["name"] != CLAIM_RULE or finding["path"] != claim["path"]:
            continue
        if str(finding["line"]) == claim.get("line"):
            return True
        said = quote_of(finding["message"])
        if quote and said and (quote.startswith(said) or said.startswith(quote)):
            return True
    return False


def claim_recall(claims: list[dict[str, str]], found: dict[str, list[dict]], splits: dict[str, str]):
    """Per split: (claims found, claims listed, the claims missed), for the repositories that were run."""
    recall = {split: [0, 0, []] for split in SPLITS}
    for claim in claims:
        if claim.get("repo") not in found:
            continue
        entry = recall[split_of(claim["repo"], splits)]
        entry[1] += 1
        if claim_found(claim, found[claim["repo"]]):
            entry[0] += 1
        else:
            entry[2].append(claim)
    return recall

"""negative-claim-without-expiry and stale-statement on the judged dev repositories: precision and recall.

    python bench/claims_dev.py [--checkout DIR ...] [--old] [--rules MW301,MW304] [--show N] [--jobs N]

Each `--checkout` is a tree laid out as this repository is (`bench/judged/` and
`tests/fixtures/realmem/`; a corpus collector's worktree before its batch is merged, or this
repository after). From it this script reads only what the split calls `dev`:

- `bench/judged/split*.tsv`: which repositories are `dev`; no other repository's folder is opened;
- `bench/judged/*_dev.tsv`: verdicts on findings (`true`, `false`, `debatable`), a later file
  overriding an earlier one for the same finding;
- `bench/judged/claims_expected_*_dev.tsv`: every claim a judge says the rule should find.

A file whose name ends in `_test.tsv`, a `FIRST_CONTACT_*` file and a `test` repository are never
read. `--old` adds the old corpus of this repository (`tests/fixtures/realmem/`, judged in
`bench/realmem_judgements.tsv`), without the repositories any split file calls `test` (the judged
batches' test halves live in the same folder). memwarden runs in a scratch copy of each repository
(`check --no-cache --today 2026-11-30`, the two rules selected), as a new user would run it.

Precision = true / (true + false) of the judged findings; recall = expected claims found /
expected claims (the judges' lists and every finding judged true), a claim found when a finding of negative-claim-without-expiry is on its line in its
file (or, its line moved, quotes the same words). Unjudged findings and missed claims are listed.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TODAY = "2026-11-30"
RULES = {"MW301": "negative-claim-without-expiry", "MW304": "stale-statement"}
_QUOTE = re.compile(r'"([^"]{1,200})')


def read_tsv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))


def _dev_file(path: Path) -> bool:
    name = path.name
    return name.endswith("_dev.tsv") and not name.endswith("_test.tsv") and not name.startswith("FIRST_CONTACT")


def dev_sources(checkout: Path) -> tuple[dict[str, Path], list[dict], list[dict]]:
    """(dev repository folders by name, verdict rows, expected-claim rows) of one checkout."""
    judged = checkout / "bench" / "judged"
    fixtures = checkout / "tests" / "fixtures" / "realmem"
    dev: dict[str, Path] = {}
    for split in sorted(judged.glob("split*.tsv")):
        for row in read_tsv(split):
            if row.get("split") == "dev" and (fixtures / row["repo"]).is_dir():
                dev[row["repo"]] = fixtures / row["repo"]
    verdicts, expected = [], []
    for path in sorted(p for p in judged.glob("*.tsv") if _dev_file(p)):
        rows = [r for r in read_tsv(path) if r.get("repo") in dev]
        (expected if path.name.startswith("claims_expected_") else verdicts).extend(rows)
    return dev, verdicts, expected


def test_repositories(judged: Path) -> set[str]:
    """Every repository a split file calls `test`: never run, never read."""
    return {row["repo"] for split in judged.glob("split*.tsv") for row in read_tsv(split) if row.get("split") == "test"}


def old_sources() -> tuple[dict[str, Path], list[dict], list[dict]]:
    # The corpus folder also holds the test halves of the judged batches, merged since the old corpus was
    # all dev: a repository any split file calls `test` is left out.
    fixtures = REPO / "tests" / "fixtures" / "realmem"
    held_out = test_repositories(REPO / "bench" / "judged")
    dev = {p.name: p for p in fixtures.iterdir() if p.is_dir() and not p.name.startswith("_") and p.name not in held_out}
    return dev, read_tsv(REPO / "bench" / "realmem_judgements.tsv"), []


def run(folder: Path, rules: list[str], scratch: Path) -> list[dict]:
    copy = scratch / folder.name
    shutil.copytree(folder, copy, symlinks=True)
    command = [sys.executable, "-m", "memwarden", "check", "--format", "json", "--no-cache", "--exit-zero",
               "--today", TODAY, "--select", ",".join(RULES[r] for r in rules)]
    done = subprocess.run(command, cwd=copy, capture_output=True, text=True, timeout=600)
    try:
        return json.loads(done.stdout)["findings"]
    except (json.JSONDecodeError, KeyError):
        print(f"{folder.name}: exit {done.returncode}: {done.stderr.strip()[:200]}", file=sys.stderr)
        return []


def quote_of(message: str) -> str:
    found = _QUOTE.search(message)
    return found.group(1) if found else ""


def _same_words(a: str, b: str) -> bool:
    a, b = a.strip().rstrip("…").strip(), b.strip().rstrip("…").strip()
    shorter = min(len(a), len(b), 40)
    return shorter >= 12 and (a[:shorter] in b or b[:shorter] in a)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", type=Path, action="append", default=[], help="a tree with bench/judged")
    parser.add_argument("--old", action="store_true", help="add the old corpus and realmem_judgements.tsv")
    parser.add_argument("--rules", default="MW301,MW304")
    parser.add_argument("--show", type=int, default=30, help="how many unjudged findings and misses to list")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    rules = args.rules.split(",")

    sources = [old_sources()] if args.old else []
    sources += [dev_sources(checkout.resolve()) for checkout in args.checkout]
    folders: dict[str, Path] = {}
    verdicts: dict[tuple, dict] = {}
    by_quote: dict[tuple, dict] = {}
    expected: list[dict] = []
    for dev, rows, wanted in sources:
        folders.update(dev)
        for row in rows:
            if row.get("verdict") and row.get("rule") in RULES.values():
                verdicts[(row["repo"], row["path"], row["rule"], row["line"])] = row  # later files override
                if row.get("quote"):
                    by_quote[(row["repo"], row["path"], row["rule"])] = by_quote.get(
                        (row["repo"], row["path"], row["rule"]), []) + [row]
        expected.extend(wanted)

    with tempfile.TemporaryDirectory(prefix="claims-dev-") as scratch, ThreadPoolExecutor(args.jobs) as pool:
        found = dict(zip(folders, pool.map(lambda f: run(f, rules, Path(scratch)), folders.values())))

    # A finding on a line the judges list as an expected claim is a true one, judged or not.
    listed_claims = {(r["repo"], r["path"], r["line"]) for r in expected}
    counts: dict[str, Counter] = {RULES[r]: Counter() for r in rules}
    unjudged, false_alarms = [], []
    for repo, findings in found.items():
        for finding in findings:
            quote = quote_of(finding["message"])
            row = verdicts.get((repo, finding["path"], finding["name"], str(finding["line"])))
            if row is None:
                row = next((r for r in by_quote.get((repo, finding["path"], finding["name"]), [])
                            if _same_words(r["quote"], quote)), None)
            verdict = row["verdict"] if row else "unjudged"
            if row is None and finding["name"] == RULES["MW301"] and (repo, finding["path"], str(finding["line"])) in listed_claims:
                verdict, row = "true", {}
            counts[finding["name"]][verdict] += 1
            where = f"{repo}/{finding['path']}:{finding['line']} {finding['name']}: {quote[:100]}"
            if row is None:
                unjudged.append(where)
            elif verdict == "false":
                false_alarms.append(f"{where}  [{row.get('note', '')[:100]}]")

    print(f"{len(folders)} repositories")
    print(f"{'rule':<32} {'found':>5} {'true':>5} {'false':>5} {'debat':>5} {'unjud':>5} {'precision':>9}")
    for rule, c in counts.items():
        decided = c["true"] + c["false"]
        precision = f"{c['true'] / decided:.3f}" if decided else "-"
        print(f"{rule:<32} {sum(c.values()):>5} {c['true']:>5} {c['false']:>5} {c['debatable']:>5} "
              f"{c['unjudged']:>5} {precision:>9}")

    claim_rule = RULES["MW301"]
    # A finding judged true is a claim the rule should find too: one no longer found is lost recall.
    listed = {(r["repo"], r["path"], r["line"]) for r in expected}
    expected += [r for r in verdicts.values() if r["rule"] == claim_rule and r["verdict"] == "true"
                 and (r["repo"], r["path"], r["line"]) not in listed and r["repo"] in folders]
    def is_found(row: dict) -> bool:
        return any(str(f["line"]) == row["line"] or _same_words(quote_of(f["message"]), row["quote"])
                   for f in found.get(row["repo"], []) if f["name"] == claim_rule and f["path"] == row["path"])

    missed = [row for row in expected if not is_found(row)]
    misses = [f"{row['repo']}/{row['path']}:{row['line']}: {row['quote'][:110]}" for row in missed]
    hits = len(expected) - len(missed)
    if expected:
        print(f"\nrecall of {claim_rule}: {hits} of {len(expected)} expected claims = {hits / len(expected):.3f}")
        # A claim in a file the claims rules do not read (an instruction file, memory memwarden does not
        # discover) is missed by discovery, not by the detector: counted apart.
        from claims_table import prose_by_line

        read = {repo: {path for path, _ in prose_by_line(folders[repo])} for repo in {r["repo"] for r in expected}}
        unread = sum(1 for row in missed if row["path"] not in read[row["repo"]])
        in_read = len(expected) - unread
        print(f"  in the files the rule reads: {hits} of {in_read} = {hits / max(in_read, 1):.3f} "
              f"({unread} expected claims are in files it does not read)")
    for title, lines in (("false findings", false_alarms), ("unjudged findings", unjudged),
                         ("missed expected claims", misses)):
        if lines:
            print(f"\n{len(lines)} {title}:")
            for line in lines[: args.show]:
                print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""memwarden on real memory from public repositories: precision per rule against hand judgements.

    python bench/realmem.py [--split dev|test|all] [--no-preview] [--write-tiers] [--explicit-dirs]
                            [--unjudged N] [--write-unjudged FILE] [--repo NAME]
    python bench/realmem.py --retier

The corpus is tests/fixtures/realmem/<owner>__<name>/, each a repository's memory files at their
own paths (sources, licences and commits in SOURCES.tsv there). memwarden runs in each repository
root as a user would run it (`memwarden check`, JSON, no cache, today fixed at 2026-11-30 so
expiry findings do not drift), with --preview: measuring must see every rule, so every rule runs
unless --no-preview asks for the default (stable) selection only. With --explicit-dirs it is also
given every folder that holds a MEMORY.md or a memory/ folder, the way the first measurement had to
be made when memwarden could not find Claude Code memory from a repository root.

Judgements are read from bench/realmem_judgements.tsv, then from every bench/judged/*.tsv except
split*.tsv and claims_expected*.tsv, in name order; a later row's verdict for the same finding
overrides an earlier one. Every finding is matched by (repo, path, rule, line), or failing that by
(repo, path, rule, quote), where quote is the first "..." in the message (a finding whose line moved
keeps its verdict). Verdicts: true, false, debatable. Precision = true / (true + false).

The split comes from bench/judged/split*.tsv (repo, split, batch); a repository in none is dev.
--split picks the repositories run (default all). The script prints, per split, a table per rule;
the recall of negative-claim-without-expiry against the claims listed in
bench/judged/claims_expected*.tsv (a claim takes its repository's split; it is found when a finding
of that rule is on its line or quotes it); the precision of the default findings (the stable rules of
src/memwarden/rule_tiers.json) and the share of all true findings those rules keep; the judged-true
findings no longer reported (lost); and the findings nobody has judged yet (--write-unjudged appends
those to a TSV with an empty verdict). --write-tiers writes src/memwarden/rule_tiers.json from a run
over both halves with every rule on, by the policy in bench/judging.py (`tier`), the table's only writer,
and regenerates docs/rules.md, which shows the table's numbers. Before the policy decides, it adds the
counts of bench/judged/*_counts.tsv: rules judged on another corpus (the repository-claim rules, judged on
whole repositories by bench/repo_claims_real.py --split all --write-counts). --retier only decides the
shipped table's tiers again from the counts it holds, when the policy changed and no count did.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import judging

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
CORPUS = REPO / "tests" / "fixtures" / "realmem"
TIERS = REPO / "src" / "memwarden" / "rule_tiers.json"
TODAY = "2026-11-30"


def repositories(only: str | None) -> list[Path]:
    names = sorted(p.name for p in CORPUS.iterdir() if p.is_dir() and not p.name.startswith("_"))
    return [CORPUS / name for name in names if only is None or only in name]


def memory_dirs(root: Path) -> list[str]:
    found = set()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        here = Path(dirpath)
        if "MEMORY.md" in filenames:
            found.add(here)
        if "memory" in dirnames:
            found.add(here)
    return sorted(str(p.relative_to(root)) or "." for p in found)


def run_memwarden(root: Path, explicit: bool, preview: bool) -> tuple[list[dict], str]:
    paths = memory_dirs(root) if explicit else []
    command = [sys.executable, "-m", "memwarden", "check", "--format", "json", "--no-cache",
               "--exit-zero", "--today", TODAY, *(["--preview", *judging.every_rule_args()] if preview else []), *paths]
    # A corpus folder is memory copied without its repository's history: git must not take this repository's.
    env = {**os.environ, "GIT_CEILING_DIRECTORIES": str(CORPUS)}
    done = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=600, env=env)
    if done.returncode not in (0, 1):
        return [], f"exit {done.returncode}: {done.stderr.strip()[:200]}"
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError:
        return [], f"not JSON: {done.stdout[:200]!r}"
    seen, findings = set(), []
    for finding in report["findings"]:  # a folder given twice must not count its findings twice
        key = (finding["path"], finding["line"], finding["column"], finding["name"], finding["message"])
        if key not in seen:
            seen.add(key)
            findings.append(finding)
    note = done.stderr.strip().splitlines()[0] if done.stderr.strip() else ""
    return findings, note


def print_table(title: str, per_rule: dict[str, Counter]) -> None:
    print(f"\n{title}\n{'rule':<34} {'found':>5} {'true':>5} {'false':>5} {'debat':>5} {'unjud':>5} {'precision':>9}")
    total: Counter = Counter()
    for rule in sorted(per_rule, key=lambda r: -per_rule[r]["found"]):
        if judging.PART_MARK not in rule:  # a part's row counts its rule's findings again
            total.update(per_rule[rule])
        print(_row(rule, per_rule[rule]))
    print(_row("all", total))


def _row(label: str, c: Counter) -> str:
    shown = judging.precision(c)
    return (f"{label:<34} {c['found']:>5} {c['true']:>5} {c['false']:>5} {c['debatable']:>5} {c['unjudged']:>5} "
            f"{'-' if shown is None else f'{shown:.2f}':>9}")


def stable_names() -> set[str]:
    """The stable rules of the table memwarden ships (what a default run selects)."""
    sys.path.insert(0, str(REPO / "src"))
    from memwarden import registry, tiers
    from memwarden.errors import UsageError

    try:
        table = tiers.read_table(TIERS)
    except UsageError as error:
        print(f"(no stable rules: {error})")
        return set()
    stable = {name for name, tier in table.items() if tier.name == tiers.STABLE}
    # A rule whose part alone is stable runs that part by default: its `rule#part` counts stand for it.
    parts = {r.name: r.part for r in registry.all_rules() if r.part}
    return stable | {f"{name}{judging.PART_MARK}{parts[name]}" for name, tier in table.items()
                     if name in parts and tier.name != tiers.STABLE and tier.part and tier.part.name == tiers.STABLE}


def print_defaults(per_rule: dict[str, Counter], every_rule_ran: bool) -> None:
    stable = stable_names()
    kept = sum((c for rule, c in per_rule.items() if rule in stable), Counter())
    every = sum((c for rule, c in per_rule.items() if judging.PART_MARK not in rule), Counter())
    shown = judging.precision(kept)
    print(f"default findings (stable rules): {kept['found']}, precision "
          f"{'-' if shown is None else f'{shown:.2f}'} ({kept['true']} true, {kept['false']} false); "
          + (f"they keep {kept['true']} of {every['true']} true findings"
             + (f" ({kept['true'] / every['true']:.0%})" if every["true"] else "")
             if every_rule_ran else "the share of true findings they keep needs every rule run (drop --no-preview)"))


def print_recall(recall: dict) -> None:
    for split in judging.SPLITS:
        hit, listed, missed = recall[split]
        if not listed:
            print(f"{split}: no expected claims listed for {judging.CLAIM_RULE}")
            continue
        print(f"{split}: {judging.CLAIM_RULE} recall {hit}/{listed} = {hit / listed:.2f}")
        for claim in missed[:10]:
            print(f"  missed: {claim['repo']}/{claim['path']}:{claim.get('line', '')} {claim.get('quote', '')[:60]}")


def write_tiers(counts, commit: str, also: list[str]) -> None:
    sys.path.insert(0, str(REPO / "src"))
    from memwarden import registry, tiers
    from memwarden.report import rulesdoc

    measured = {"date": dt.date.today().isoformat(), "commit": commit,
                "corpus": "tests/fixtures/realmem", "today": TODAY, "counts_added": also}
    parts = {r.name: r.part for r in registry.all_rules() if r.part}
    table = judging.tier_table(counts, registry.names(), measured, parts)
    TIERS.write_text(json.dumps(table, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    tiers.table.cache_clear()  # docs/rules.md shows the numbers just written
    (REPO / "docs" / "rules.md").write_text(rulesdoc.render(), encoding="utf-8")
    stable = sorted(name for name, entry in table["rules"].items() if entry["tier"] == "stable")
    print(f"\nwrote {TIERS.relative_to(REPO)} and docs/rules.md: stable: {', '.join(stable) or 'none'}")


def retier() -> None:
    """Decide every tier of the shipped table again by today's policy, from the counts it already holds: a change of
    policy, no new measurement (the table's `measured` stays; `retiered` says when the policy was applied)."""
    table = json.loads(TIERS.read_text(encoding="utf-8"))
    for entry in table["rules"].values():
        for decided in (entry, *entry.get("parts", {}).values()):
            decided["tier"] = judging.tier(Counter(decided["dev"]), Counter(decided["test"]))
    table["policy"] = judging.POLICY
    table["measured"]["retiered"] = dt.date.today().isoformat()
    TIERS.write_text(json.dumps(table, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    sys.path.insert(0, str(REPO / "src"))
    from memwarden import tiers
    from memwarden.report import rulesdoc

    tiers.table.cache_clear()
    (REPO / "docs" / "rules.md").write_text(rulesdoc.render(), encoding="utf-8")
    by_tier = Counter(entry["tier"] for entry in table["rules"].values())
    print(f"re-decided {TIERS.relative_to(REPO)} and docs/rules.md: {dict(sorted(by_tier.items()))}")


def head_commit() -> str:
    done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else "unknown"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("dev", "test", "all"), default="all", help="which half to run")
    parser.add_argument("--preview", action=argparse.BooleanOptionalAction, default=True,
                        help="run every rule (the default: measuring must see preview rules too)")
    parser.add_argument("--write-tiers", action="store_true", help="write src/memwarden/rule_tiers.json")
    parser.add_argument("--retier", action="store_true",
                        help="only decide the shipped table's tiers again from its own counts (after a policy change)")
    parser.add_argument("--explicit-dirs", action="store_true", help="also pass every memory folder explicitly")
    parser.add_argument("--unjudged", type=int, default=20, help="how many unjudged findings to list")
    parser.add_argument("--write-unjudged", type=Path, help="append unjudged findings to this TSV")
    parser.add_argument("--repo", help="only repositories whose folder name contains this")
    args = parser.parse_args(argv)
    if args.retier:
        retier()
        return 0
    if args.write_tiers and (args.split != "all" or args.repo or not args.preview):
        parser.error("--write-tiers measures both halves, every repository, every rule: "
                     "drop --split, --repo and --no-preview")

    judgements = judging.Judgements.from_files(judging.judgement_files(BENCH))
    splits = judging.read_splits(judging.split_files(BENCH))
    print(f"splits: {sum(1 for s in splits.values() if s == 'test')} test repositories listed; "
          "a repository in no split file is dev")
    found: dict[str, list[dict]] = {}
    for root in repositories(args.repo):
        if args.split != "all" and judging.split_of(root.name, splits) != args.split:
            continue
        findings, note = run_memwarden(root, args.explicit_dirs, args.preview)
        if note:
            print(f"{root.name}: {note}")
        found[root.name] = findings
    counts, unjudged = judging.tally(found, judgements, splits)

    for split in judging.SPLITS:
        if args.split in (split, "all"):
            print_table(f"{split} half ({sum(1 for r in found if judging.split_of(r, splits) == split)} repositories)",
                        counts[split])
    pooled = {rule: counts["dev"].get(rule, Counter()) + counts["test"].get(rule, Counter())
              for rule in {*counts["dev"], *counts["test"]}}
    print()
    print_defaults(pooled, args.preview)
    claims = [row for path in judging.claims_files(BENCH) for row in judging.read_tsv(path)]
    print_recall(judging.claim_recall(claims, found, splits))

    reported = {id(judgements.match(repo, f)) for repo, findings in found.items() for f in findings}
    true_rows = [r for r in judgements.rows() if r["verdict"] == "true" and r["repo"] in found]
    lost = [r for r in true_rows if id(r) not in reported]
    print(f"\njudged-true findings still reported: {len(true_rows) - len(lost)} of {len(true_rows)}")
    for row in lost[:20]:
        print(f"  lost: {row['repo']}/{row['path']}:{row['line']} {row['rule']} {row['quote'][:50]}")
    if unjudged:
        print(f"\n{len(unjudged)} findings not judged yet:")
        for row in unjudged[: args.unjudged]:
            print(f"  {row['repo']}/{row['path']}:{row['line']} {row['rule']}: {row['note'][:110]}")
    if args.write_unjudged and unjudged:
        new = not args.write_unjudged.exists()
        with args.write_unjudged.open("a", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, judging.FIELDS, delimiter="\t", quoting=csv.QUOTE_NONE, escapechar="\\")
            if new:
                writer.writeheader()
            writer.writerows(unjudged)
    if args.write_tiers:
        # Rules judged on another corpus (the repository-claim rules, on whole repositories) add their counts.
        also = judging.counts_files(BENCH)
        write_tiers(judging.add_counts(counts, judging.read_counts(also)), head_commit(),
                    [str(path.relative_to(REPO)) for path in also])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

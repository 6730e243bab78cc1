"""missing-machine-path, personal-path and personal-data on the judged dev repositories (issue 29).

    python bench/paths_dev.py [--root CHECKOUT]... [--rules a,b] [--list]

Each root is a checkout holding the corpus (tests/fixtures/realmem/<repo>/) and its judgements
(bench/realmem_judgements.tsv, then bench/judged/*_dev.tsv in name order, rejudge_* last: a later
verdict overrides an earlier one). Only repositories whose split is `dev` (bench/judged/split*.tsv)
are run; a held-out (`test`) repository's folder and the *_test.tsv files are never opened. A
repository found in an earlier root is not run again. memwarden runs as bench/realmem.py runs it
(this checkout's code, from each repository root). Prints found/true/false/debatable/unjudged and
precision per rule, then the judged-true findings no longer reported (lost) and, with --list, every
finding with its verdict.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from judging import quote_of  # noqa: E402
from realmem import run_memwarden  # noqa: E402

RULES = ("missing-machine-path", "personal-path", "personal-data")


def dev_repositories(root: Path) -> list[str]:
    splits: dict[str, str] = {}
    for path in sorted((root / "bench" / "judged").glob("split*.tsv")):
        with path.open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE):
                splits[row["repo"]] = row["split"]
    return sorted(repo for repo, split in splits.items() if split == "dev")


def judgement_files(root: Path) -> list[Path]:
    judged = sorted(p for p in (root / "bench" / "judged").glob("*_dev.tsv")
                    if not p.name.startswith(("rejudge", "claims_expected")))
    rejudged = sorted((root / "bench" / "judged").glob("rejudge_*_dev.tsv"))
    return [root / "bench" / "realmem_judgements.tsv", *judged, *rejudged]


def load(paths: list[Path]) -> tuple[dict, dict]:
    by_line: dict = {}
    by_quote: dict = {}
    for path in paths:
        if not path.exists() or path.name.endswith("_test.tsv"):
            continue
        with path.open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE):
                if row.get("verdict") and row.get("rule") in RULES:
                    by_line[(row["repo"], row["path"], row["rule"], row["line"])] = row
                    if row.get("quote"):
                        by_quote[(row["repo"], row["path"], row["rule"], row["quote"])] = row
    return by_line, by_quote


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, action="append", help="a checkout with the corpus (repeatable)")
    parser.add_argument("--rules", default=",".join(RULES), help="the rules to count")
    parser.add_argument("--list", action="store_true", help="print every finding with its verdict")
    args = parser.parse_args(argv)
    roots = args.root or [Path(__file__).resolve().parents[1]]
    rules = set(args.rules.split(","))
    counts: dict[str, Counter] = defaultdict(Counter)
    seen: set[str] = set()
    lost: list[str] = []
    for root in roots:
        by_line, by_quote = load(judgement_files(root))
        for repo in dev_repositories(root):
            folder = root / "tests" / "fixtures" / "realmem" / repo
            if repo in seen or not folder.is_dir():
                continue
            seen.add(repo)
            findings, note = run_memwarden(folder, False)
            if note:
                print(f"{repo}: {note}")
            matched = set()
            for finding in findings:
                if finding["name"] not in rules:
                    continue
                key = (repo, finding["path"], finding["name"])
                row = by_line.get((*key, str(finding["line"]))) or by_quote.get((*key, quote_of(finding["message"])))
                verdict = row["verdict"] if row else "unjudged"
                if row is not None:
                    matched.add(id(row))
                counts[finding["name"]][verdict] += 1
                if args.list:
                    print(f"  {verdict:<9} {repo}/{finding['path']}:{finding['line']} {finding['name']}: "
                          f"{finding['message'][:90]}")
            lost += [f"{r['repo']}/{r['path']}:{r['line']} {r['rule']}" for r in by_line.values()
                     if r["repo"] == repo and r["rule"] in rules and r["verdict"] == "true" and id(r) not in matched]
    print(f"\n{len(seen)} dev repositories")
    print(f"{'rule':<22} {'found':>5} {'true':>5} {'false':>5} {'debat':>5} {'unjud':>5} {'precision':>9}")
    for rule in sorted(rules):
        c = counts[rule]
        decided = c["true"] + c["false"]
        precision = f"{c['true'] / decided:.2f}" if decided else "-"
        print(f"{rule:<22} {sum(c.values()):>5} {c['true']:>5} {c['false']:>5} {c['debatable']:>5} "
              f"{c['unjudged']:>5} {precision:>9}")
    print(f"\njudged-true findings no longer reported: {len(lost)}")
    for line in lost:
        print(f"  lost: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""memwarden on real memory from public repositories: precision per rule against hand judgements.

    python bench/realmem.py [--explicit-dirs] [--unjudged N] [--write-unjudged FILE] [--repo NAME]

The corpus is tests/fixtures/realmem/<owner>__<name>/, each a repository's memory files at their
own paths (sources, licences and commits in SOURCES.tsv there). memwarden runs in each repository
root as a user would run it (`memwarden check`, JSON, no cache, today fixed at 2026-11-30 so
expiry findings do not drift). With --explicit-dirs it is also given every folder that holds a
MEMORY.md or a memory/ folder, the way the first measurement had to be made when memwarden could
not find Claude Code memory from a repository root.

Every finding is matched to bench/realmem_judgements.tsv by (repo, path, rule, line), or failing
that by (repo, path, rule, quote), where quote is the first "..." in the message (a finding whose
line moved keeps its verdict). Verdicts: true, false, debatable. Precision = true / (true + false).
The script prints a table per rule, the judged-true findings no longer reported (lost), and the
findings nobody has judged yet; --write-unjudged appends those to a TSV with an empty verdict.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "tests" / "fixtures" / "realmem"
JUDGEMENTS = Path(__file__).resolve().parent / "realmem_judgements.tsv"
TODAY = "2026-11-30"
FIELDS = ("repo", "path", "line", "rule", "verdict", "quote", "note")
_QUOTE = re.compile(r'"([^"]{1,200})')


def quote_of(message: str) -> str:
    found = _QUOTE.search(message)
    return found.group(1)[:60] if found else ""


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


def run_memwarden(root: Path, explicit: bool) -> tuple[list[dict], str]:
    paths = memory_dirs(root) if explicit else []
    command = [sys.executable, "-m", "memwarden", "check", "--format", "json", "--no-cache",
               "--exit-zero", "--today", TODAY, *paths]
    done = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=600)
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


def load_judgements() -> list[dict[str, str]]:
    if not JUDGEMENTS.exists():
        return []
    with JUDGEMENTS.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--explicit-dirs", action="store_true", help="also pass every memory folder explicitly")
    parser.add_argument("--unjudged", type=int, default=20, help="how many unjudged findings to list")
    parser.add_argument("--write-unjudged", type=Path, help="append unjudged findings to this TSV")
    parser.add_argument("--repo", help="only repositories whose folder name contains this")
    args = parser.parse_args(argv)

    judged = [row for row in load_judgements() if row.get("verdict")]
    by_line = {(r["repo"], r["path"], r["rule"], r["line"]): r for r in judged}
    by_quote = {(r["repo"], r["path"], r["rule"], r["quote"]): r for r in judged if r["quote"]}
    counts: dict[str, Counter] = defaultdict(Counter)
    matched: set[int] = set()
    unjudged: list[dict[str, str]] = []
    roots = repositories(args.repo)
    for root in roots:
        findings, note = run_memwarden(root, args.explicit_dirs)
        if note:
            print(f"{root.name}: {note}")
        for finding in findings:
            quote = quote_of(finding["message"])
            row = by_line.get((root.name, finding["path"], finding["name"], str(finding["line"])))
            if row is None and quote:
                row = by_quote.get((root.name, finding["path"], finding["name"], quote))
            verdict = row["verdict"] if row else "unjudged"
            if row is not None:
                matched.add(id(row))
            counts[finding["name"]][verdict] += 1
            if row is None:
                unjudged.append({"repo": root.name, "path": finding["path"], "line": str(finding["line"]),
                                 "rule": finding["name"], "verdict": "", "quote": quote,
                                 "note": finding["message"].replace("\t", " ")[:160]})

    total: Counter = Counter()
    print(f"\n{'rule':<34} {'found':>5} {'true':>5} {'false':>5} {'debat':>5} {'unjud':>5} {'precision':>9}")
    for rule in sorted(counts, key=lambda r: -sum(counts[r].values())):
        c = counts[rule]
        total.update(c)
        decided = c["true"] + c["false"]
        precision = f"{c['true'] / decided:.2f}" if decided else "-"
        print(f"{rule:<34} {sum(c.values()):>5} {c['true']:>5} {c['false']:>5} {c['debatable']:>5} "
              f"{c['unjudged']:>5} {precision:>9}")
    decided = total["true"] + total["false"]
    overall = f"{total['true'] / decided:.2f}" if decided else "-"
    print(f"{'all':<34} {sum(total.values()):>5} {total['true']:>5} {total['false']:>5} "
          f"{total['debatable']:>5} {total['unjudged']:>5} {overall:>9}")

    in_scope = {r.name for r in roots}
    lost = [r for r in judged if r["verdict"] == "true" and r["repo"] in in_scope and id(r) not in matched]
    kept = sum(1 for r in judged if r["verdict"] == "true" and r["repo"] in in_scope) - len(lost)
    print(f"\njudged-true findings still reported: {kept} of {kept + len(lost)}")
    for row in lost[:20]:
        print(f"  lost: {row['repo']}/{row['path']}:{row['line']} {row['rule']} {row['quote'][:50]}")
    if unjudged:
        print(f"\n{len(unjudged)} findings not judged yet:")
        for row in unjudged[: args.unjudged]:
            print(f"  {row['repo']}/{row['path']}:{row['line']} {row['rule']}: {row['note'][:110]}")
    if args.write_unjudged and unjudged:
        new = not args.write_unjudged.exists()
        with args.write_unjudged.open("a", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, FIELDS, delimiter="\t", quoting=csv.QUOTE_NONE, escapechar="\\")
            if new:
                writer.writeheader()
            writer.writerows(unjudged)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

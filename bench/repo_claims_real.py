#!/usr/bin/env python3
"""Precision of the repository-claim rules on real public repositories (judged batch 5b and later).

Reads bench/judged/repo_claims_sources.tsv (repo, split, licence, commit, commits_in_history,
files, note) and the judged findings bench/judged/repo_claims_*_dev.tsv / *_test.tsv (repo,
commit, path, line, rule, verdict, quote, note), gets a clone of each repository with its full
history at the recorded commit, runs

    python -m memwarden check --preview --no-cache --exit-zero --format json
        --select MW411,MW412,MW413,MW414,MW415,MW416,MW417 --today 2026-12-02 .

from the clone's root (with the Python this script runs under), matches each finding to a
judgement by (repo, path, rule, line), or else by (repo, path, rule, quote), and prints per rule
and split: found / true / false / debatable / unjudged / precision = true / (true + false).

Clones: --clones DIR uses DIR/OWNER__NAME (a full, non-shallow clone); otherwise each repository
is cloned from https://github.com/OWNER/NAME into --cache (default .repo_claims_cache). When the
clone's HEAD is not the recorded commit, a detached worktree at that commit is made in the cache.

--write-unjudged FILE appends the findings no judgement matched, in the judged files' columns,
with an empty verdict, for a judge to fill in.

--split dev|test|all picks the half run (default dev: the test half is held out, run once at the end);
only the chosen half's judged files are read. A stale claim the judge listed as missed
(repo_claims_*_missed_<split>.tsv: repo, commit, path, line, kind, quote, note) that a finding now
reports counts as a true finding (the judge named it stale).

--write-counts [FILE] (only with --split all, every repository and the judged files found by name)
writes the per-rule, per-split found / true / false / debatable / unjudged counts, by rule name, to
FILE (default bench/judged/repo_claims_counts.tsv); bench/realmem.py --write-tiers adds them to its
own counts before the one tier policy (bench/judging.py) decides.

Standard library only.
"""

from __future__ import annotations

import argparse
import collections
import csv
import glob
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import judging  # noqa: E402  (bench/judging.py: the counts file's one reader and writer)

RULES = ["MW411", "MW412", "MW413", "MW414", "MW415", "MW416", "MW417"]
TODAY = "2026-12-02"
HERE = os.path.dirname(os.path.abspath(__file__))
JUDGED = os.path.join(HERE, "judged")
COLUMNS = ["repo", "commit", "path", "line", "rule", "verdict", "quote", "note"]


def read_tsv(path: str) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))


def quote_of(message: str) -> str:
    """The first '...' or "..." in a finding's message, else its first 60 characters."""
    m = re.search(r"'([^']*)'|\"([^\"]*)\"", message)
    if not m:
        return message[:60]
    return m.group(1) if m.group(1) is not None else m.group(2)


def clean(text: str) -> str:
    return text.replace("\t", " ").replace("\n", " ").replace("\r", " ")


def git(*args: str, cwd: str | None = None) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout.strip()


def checkout(repo: str, commit: str, clones: str | None, cache: str) -> str:
    """A directory holding the repository at `commit`, with its full history."""
    if clones:
        base = os.path.join(clones, repo)
        if not os.path.isdir(base):
            raise RuntimeError(f"{repo}: no clone at {base}")
    else:
        base = os.path.join(cache, repo)
        if not os.path.isdir(base):
            owner, name = repo.split("__", 1)
            os.makedirs(cache, exist_ok=True)
            subprocess.run(
                ["git", "clone", "--quiet", f"https://github.com/{owner}/{name}", base],
                check=True,
            )
    if git("rev-parse", "--is-shallow-repository", cwd=base) == "true":
        raise RuntimeError(f"{repo}: {base} is a shallow clone; the history rules need all of it")
    if git("rev-parse", "HEAD", cwd=base) == commit:
        return base
    wt = os.path.join(os.path.abspath(cache), f"{repo}@{commit[:12]}")
    if not os.path.isdir(wt):
        try:
            git("cat-file", "-e", commit + "^{commit}", cwd=base)
        except subprocess.CalledProcessError:
            git("fetch", "--quiet", "origin", cwd=base)
        os.makedirs(os.path.dirname(wt), exist_ok=True)
        git("worktree", "add", "--quiet", "--detach", wt, commit, cwd=base)
    return wt


def run_check(root: str) -> list[dict]:
    cmd = [
        sys.executable, "-m", "memwarden", "check", "--preview", "--no-cache", "--exit-zero",
        "--format", "json", "--select", ",".join(RULES), "--today", TODAY, ".",
    ]
    env = dict(os.environ)
    for var in ("CI", "GITHUB_ACTIONS", "GITLAB_CI"):
        env.pop(var, None)  # run as a user on a machine, as first contact did
    proc = subprocess.run(cmd, cwd=root, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise RuntimeError(f"memwarden failed in {root}: {proc.stderr[-2000:]}")
    return json.loads(proc.stdout)["findings"]


def match(findings: list[dict], judged: list[dict[str, str]]) -> list[tuple[dict, dict | None]]:
    """Pair findings with judgements: first by (path, rule, line), then by (path, rule, quote).

    Each judgement is used once; several findings on one key take the judgements in file order.
    """
    by_line: dict[tuple, collections.deque] = collections.defaultdict(collections.deque)
    for j in judged:
        by_line[(j["path"], j["rule"], j["line"])].append(j)
    pairs: list[list] = []
    for f in findings:
        key = (f["path"], f["code"], str(f["line"]))
        pairs.append([f, by_line[key].popleft() if by_line[key] else None])
    left = [j for q in by_line.values() for j in q]
    by_quote: dict[tuple, collections.deque] = collections.defaultdict(collections.deque)
    for j in left:
        by_quote[(j["path"], j["rule"], j["quote"])].append(j)
    for pair in pairs:
        if pair[1] is None:
            f = pair[0]
            key = (f["path"], f["code"], clean(quote_of(f["message"])))
            if by_quote[key]:
                pair[1] = by_quote[key].popleft()
    return [(f, j) for f, j in pairs]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clones", help="folder holding OWNER__NAME/ clones (full history)")
    ap.add_argument("--cache", default=".repo_claims_cache", help="where to clone when --clones is not given")
    ap.add_argument("--sources", default=os.path.join(JUDGED, "repo_claims_sources.tsv"))
    ap.add_argument("--judged", nargs="*", help="judged TSVs (default: judged/repo_claims_*_dev.tsv and *_test.tsv)")
    ap.add_argument("--repo", action="append", help="only this OWNER__NAME (repeatable)")
    ap.add_argument("--split", choices=["dev", "test", "all"], default="dev",
                    help="which half to run (default dev: the test half is run once, by the lead, at the end)")
    ap.add_argument("--jobs", type=int, default=4)
    ap.add_argument("--write-unjudged", metavar="FILE", help="append unjudged findings here with an empty verdict")
    ap.add_argument("--verbose", action="store_true", help="print every finding with its verdict")
    ap.add_argument("--write-counts", nargs="?", const=os.path.join(JUDGED, "repo_claims_counts.tsv"), metavar="FILE",
                    help="write per-rule, per-split counts for the tier table (needs --split all)")
    args = ap.parse_args()
    if args.write_counts and (args.split != "all" or args.repo or args.judged):
        ap.error("--write-counts measures both halves, every repository, every judged file: "
                 "give --split all and drop --repo and --judged")

    sources = read_tsv(args.sources)
    if args.repo:
        sources = [s for s in sources if s["repo"] in args.repo]
    splits = ["dev", "test"] if args.split == "all" else [args.split]
    sources = [s for s in sources if s["split"] in splits]
    # Only the chosen half's judgements are read, so a dev run never opens the held-out file.
    files = args.judged or sorted(
        f for split in splits for f in glob.glob(os.path.join(JUDGED, f"repo_claims_*_{split}.tsv"))
    )
    missed = [f for f in files if "_missed_" in os.path.basename(f)]
    files = [f for f in files if f not in missed]
    judged_by_repo: dict[str, list[dict[str, str]]] = collections.defaultdict(list)
    for path in files:
        for row in read_tsv(path):
            judged_by_repo[row["repo"]].append(row)
    for path in missed:  # after the verdicts: a finding matches a listed missed claim only when none judged it
        for row in read_tsv(path):
            judged_by_repo[row["repo"]].append({**row, "rule": row["kind"], "verdict": "true"})

    def one(src: dict[str, str]):
        root = checkout(src["repo"], src["commit"], args.clones, args.cache)
        return src, match(run_check(root), judged_by_repo.get(src["repo"], []))

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(one, sources))

    table: dict[tuple[str, str], collections.Counter] = collections.defaultdict(collections.Counter)
    by_name: dict[str, dict[str, collections.Counter]] = {split: {} for split in judging.SPLITS}
    unjudged_rows: list[list[str]] = []
    for src, pairs in results:
        split = src["split"]
        for f, j in pairs:
            verdict = (j or {}).get("verdict", "") or "unjudged"
            counter = by_name[split].setdefault(f["name"], collections.Counter())
            counter["found"] += 1
            counter[verdict] += 1
            for key in ((f["code"], split), (f["code"], "all"), ("all", split), ("all", "all")):
                table[key]["found"] += 1
                table[key][verdict] += 1
            if args.verbose:
                print(f"{src['repo']}\t{f['path']}:{f['line']}\t{f['code']}\t{verdict}\t{f['message'][:100]}")
            if verdict == "unjudged":
                unjudged_rows.append([
                    src["repo"], src["commit"], f["path"], str(f["line"]), f["code"], "",
                    clean(quote_of(f["message"])), clean(f["message"]),
                ])

    print(f"{'rule':<6} {'split':<5} {'found':>5} {'true':>5} {'false':>5} {'debat':>5} {'unjud':>5} {'precision':>9}")
    order = {r: i for i, r in enumerate(RULES + ["all"])}
    for (rule, split) in sorted(table, key=lambda k: (order.get(k[0], 99), {"dev": 0, "test": 1, "all": 2}[k[1]])):
        c = table[(rule, split)]
        decided = c["true"] + c["false"]
        prec = f"{c['true'] / decided:.2f}" if decided else "-"
        print(f"{rule:<6} {split:<5} {c['found']:>5} {c['true']:>5} {c['false']:>5} {c['debatable']:>5} {c['unjudged']:>5} {prec:>9}")
    print(f"repositories: {len(results)}; judged files: {', '.join(os.path.basename(f) for f in files + missed)}")

    if args.write_counts:
        judging.write_counts(Path(args.write_counts), by_name)
        print(f"per-rule counts written to {args.write_counts}")
    if args.write_unjudged and unjudged_rows:
        new = not os.path.exists(args.write_unjudged) or os.path.getsize(args.write_unjudged) == 0
        with open(args.write_unjudged, "a", encoding="utf-8") as fh:
            if new:
                fh.write("\t".join(COLUMNS) + "\n")
            for row in unjudged_rows:
                fh.write("\t".join(row) + "\n")
        print(f"{len(unjudged_rows)} unjudged findings appended to {args.write_unjudged}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

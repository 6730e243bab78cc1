"""`memwarden budget --history` over a long history: a 1,000-commit repository built in one process.

    python bench/budget_history.py [--commits 1000] [--runs 5] [--keep DIR]

Builds a git repository with `git fast-import` (one process, seconds): a Ghost In Shell
MEMORY.md that every commit changes, growing one entry (about 110 characters) a commit and
shelving 40 entries every 50th, so it ends near 24,000 characters (past the budget), with drops along the
way; every third commit also changes a log beside it. Then it prints the median wall time of
--runs whole-process `memwarden budget --history --json` runs, wall and CPU (the goal is under 1 s
for 1,000 commits), and of the same command without --history, so the difference is what the
history costs.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

START = 1_767_225_600  # 2026-01-01T00:00:00Z
HOURS = 3600 * 7  # a commit every 7 hours


def entry(number: int) -> str:
    return (f'- "the deploy said it succeeded for step {number:04d}, so it is done" '
            f"→ [verify step {number:04d}](memory/knowledge/feedback/s{number:04d}.md)\n")


def fast_import_stream(commits: int) -> bytes:
    out = []
    live: list[int] = []
    header = "# Memory Index\n\n## Tier 1\n\n"
    for number in range(1, commits + 1):
        live.append(number)
        if number % 50 == 0:
            live = live[40:]  # shelved: moved out of the startup index
        text = (header + "".join(entry(n) for n in live)).encode("utf-8")
        when = START + number * HOURS
        message = f"memory {number}".encode()
        out.append(b"commit refs/heads/main\n")
        out.append(f"committer Bench <bench@example.invalid> {when} +0000\n".encode())
        out.append(b"data %d\n%s\n" % (len(message), message))
        out.append(b"M 100644 inline MEMORY.md\n")
        out.append(b"data %d\n%s\n" % (len(text), text))
        if number % 3 == 0:
            log = f'{{"id": "ep_{number:08d}", "tags": ["deploy", "bench"]}}\n'.encode() * 3
            out.append(b"M 100644 inline memory/episodic.jsonl\n")
            out.append(b"data %d\n%s\n" % (len(log), log))
        out.append(b"\n")
    return b"".join(out)


def build(root: Path, commits: int) -> None:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True, env=env)
    subprocess.run(["git", "fast-import", "--quiet"], cwd=root, input=fast_import_stream(commits), check=True, env=env)
    subprocess.run(["git", "checkout", "-q", "-f", "main"], cwd=root, check=True, env=env)


def timed(root: Path, args: list[str], runs: int) -> tuple[float, float, str]:
    """Median wall time and median CPU time (user + system, git included: steadier on a busy machine)."""
    walls, cpus, out = [], [], ""
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "memwarden", *args], cwd=root, capture_output=True)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        out = done.stdout.decode()
        if done.returncode not in (0, 1, 2):
            raise SystemExit(f"memwarden {' '.join(args)} failed: {done.stderr.decode()}")
    return statistics.median(walls), statistics.median(cpus), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--commits", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keep", type=Path, help="build the repository here and leave it")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        root = args.keep or Path(scratch) / "repo"
        start = time.perf_counter()
        build(root, args.commits)
        print(f"built {args.commits} commits in {time.perf_counter() - start:.1f} s: {root}", flush=True)
        plain, plain_cpu, _ = timed(root, ["budget", "--preset", "gish", "--json"], args.runs)
        history, history_cpu, out = timed(root, ["budget", "--preset", "gish", "--history", "--json"], args.runs)
        data = json.loads(out)
        sizes = [p["used"] for p in data["history"]]
        print(f"history rows: {len(sizes)}, sizes {min(sizes):,}..{max(sizes):,} (last {sizes[-1]:,}) chars; "
              f"projection {data['projection']}")
        print(f"memwarden budget --preset gish --json            median {plain:.3f} s wall, {plain_cpu:.3f} s CPU "
              f"over {args.runs} runs")
        print(f"memwarden budget --preset gish --history --json  median {history:.3f} s wall, {history_cpu:.3f} s CPU "
              f"over {args.runs} runs (goal < 1 s: {'met' if history < 1 else 'missed'})")


if __name__ == "__main__":
    main()

"""The cold path: a whole-process cold check, and what one note's front matter costs to read.

    python bench/generate.py /tmp/ws1 --scale 1
    python bench/cold_path.py /tmp/ws1 [--src OTHER/src] [--runs 3]
    python bench/cold_path.py WS... --against OTHER/.venv/bin/python [--rules R1,R2] [--preview] [--runs 5]

Prints the median wall and CPU time (CPU is steadier on a busy machine) of --runs whole-process
`memwarden check` runs with no cache, with one worker (MEMWARDEN_JOBS=1) and with the default, then the per-note parse time (every note read the way
`memwarden check` reads it, front matter and all; prose is parsed later, by the rules that need it)
and, for this tree, the same with the libyaml fast path turned off. --src runs another checkout's
source instead (e.g. an older commit unpacked with `git archive`), for before-and-after numbers.

With --against, each workspace's cold check (one worker) runs under this interpreter and another one
(a frozen build's virtualenv), the runs interleaved so both see the same load, and the script prints
the median CPU and wall time of each and their ratio (this / other); --rules adds one line per rule
(`--select RULE`), --preview checks with every rule.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

PARSE = r"""
import sys, time
from pathlib import Path
from memwarden.discover.workspace import open_workspace
from memwarden.documents import load, yamldoc

root = Path(sys.argv[1])
ws = open_workspace(root, None)
notes = [(rel, kind) for rel, kind in ws.files.items() if kind.format == "markdown" and kind.name == "note"]
raws = [(rel, kind, (root / rel).read_bytes()) for rel, kind in notes]
if sys.argv[2] == "round-trip":
    yamldoc.compose_fast = lambda text: None
load(root, raws[0][0], raws[0][1], raws[0][2])  # imports, warm-up
best = None
for _ in range(3):
    start = time.perf_counter()
    for rel, kind, raw in raws:
        assert load(root, rel, kind, raw).ok
    took = time.perf_counter() - start
    best = took if best is None else min(best, took)
print(len(raws), best)
"""


def check_seconds(workspace: str, env: dict, runs: int) -> tuple[float, float]:
    """Median wall time and median CPU time (user + system, workers included) of a cold check."""
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "memwarden", "check", workspace, "--exit-zero", "--format", "json"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
        )
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def side_by_side(workspaces: list[str], other: str, rules: list[str], preview: bool, runs: int) -> None:
    """Cold checks under this interpreter and ``other``, interleaved; medians and ratios."""
    env = {**os.environ, "MEMWARDEN_NO_CACHE": "1", "MEMWARDEN_JOBS": "1"}
    print(f"load {os.getloadavg()[0]:.1f}; medians of {runs}; ratio = this / other (CPU, then wall)")
    for workspace in workspaces:
        for rule in [None, *rules]:
            args = ["check", workspace, "--exit-zero", *(["--preview"] if preview else []),
                    *(["--select", rule] if rule else [])]
            times = {python: ([], []) for python in (sys.executable, other)}
            for python in times:  # untimed: bytecode written, files in the page cache
                subprocess.run([python, "-m", "memwarden", *args], env=env, capture_output=True)
            for _ in range(runs):
                for python, (cpus, walls) in times.items():
                    before = resource.getrusage(resource.RUSAGE_CHILDREN)
                    start = time.perf_counter()
                    subprocess.run([python, "-m", "memwarden", *args], env=env, capture_output=True)
                    walls.append(time.perf_counter() - start)
                    after = resource.getrusage(resource.RUSAGE_CHILDREN)
                    cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
            (this_cpu, this_wall), (other_cpu, other_wall) = (
                (statistics.median(cpus), statistics.median(walls)) for cpus, walls in times.values())
            label = f"{Path(workspace).name}{' --select ' + rule if rule else ''}"
            print(f"{label:<52} this {this_cpu:6.3f} s CPU {this_wall:6.3f} s wall | other {other_cpu:6.3f} s CPU "
                  f"{other_wall:6.3f} s wall | ratio {this_cpu / other_cpu:.2f} CPU, {this_wall / other_wall:.2f} wall")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workspace", nargs="+")
    parser.add_argument("--src", help="a source tree to run instead of the installed memwarden")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--against", metavar="PYTHON", help="another build's interpreter to compare with")
    parser.add_argument("--rules", default="", help="with --against: rules to time one at a time, comma-separated")
    parser.add_argument("--preview", action="store_true", help="with --against: check with every rule")
    args = parser.parse_args()
    if args.against:
        side_by_side(args.workspace, args.against, [r for r in args.rules.split(",") if r], args.preview, args.runs)
        return
    args.workspace = args.workspace[0]
    env = {**os.environ, "MEMWARDEN_NO_CACHE": "1"}
    env.pop("MEMWARDEN_JOBS", None)
    if args.src:
        env["PYTHONPATH"] = str(Path(args.src).resolve())
    one = check_seconds(args.workspace, {**env, "MEMWARDEN_JOBS": "1"}, args.runs)
    default = check_seconds(args.workspace, env, args.runs)
    print(f"cold check, 1 worker:        {one[0]:.2f} s wall, {one[1]:.2f} s CPU (medians of {args.runs})")
    print(f"cold check, default workers: {default[0]:.2f} s wall, {default[1]:.2f} s CPU (medians of {args.runs})")
    modes = ["as-is"] if args.src else ["as-is", "round-trip"]
    for mode in modes:
        done = subprocess.run([sys.executable, "-c", PARSE, args.workspace, mode], env=env,
                              capture_output=True, text=True, check=True)
        count, seconds = done.stdout.split()
        per_note = float(seconds) / int(count) * 1000
        label = "per note (round trip only)" if mode == "round-trip" else "per note"
        print(f"{label + ':':28} {per_note:.3f} ms ({count} notes, best of 3)")


if __name__ == "__main__":
    main()

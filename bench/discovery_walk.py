"""Finding workspaces and their files below a folder: what every check, stats and budget run pays first.

    python bench/discovery_walk.py tests/fixtures/realmem [--runs 5]

Runs `collect` (detection in every folder passed, each workspace's walk) on the folder and prints
the best and median wall time over --runs runs, with the workspaces and files found. Detection
asks every folder whether it holds an agent's rules files (agent_files.py); this keeps
that honest. On the judged corpus (72 repositories, 103 workspaces) the agent files cost about 9%
(median of three alternating rounds of 5 runs: 1.55 s against 1.42 s before, on a loaded 2-core
machine, December 2026): the walk's globs, not the detection. Compare before a change to discovery.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from memwarden.discover.workspace import collect


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        workspaces, _ = collect([args.folder])
        files = sum(len(ws.checked_files) for ws in workspaces)
        times.append(time.perf_counter() - start)
    print(f"{len(workspaces)} workspaces, {files} files; best {min(times) * 1000:.0f} ms, "
          f"median {statistics.median(times) * 1000:.0f} ms over {args.runs} runs")


if __name__ == "__main__":
    main()

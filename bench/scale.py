"""Issue 12, round 3: a cold check at scale, with wall, CPU and peak memory of the parent and its workers.

    python bench/generate.py /tmp/ws100 --scale 100
    python bench/scale.py /tmp/ws100 [--src OTHER/src] [--ignore near-duplicate,conflicting-records,duplicate-fact-key]
                          [--output FILE] [--jobs N]

One whole-process `memwarden check --no-cache --format json` (MEMWARDEN_NO_CACHE=1). Prints one JSON line:
wall seconds; CPU seconds (user + system of the process and every worker); the parent's peak RSS and the
largest worker's peak RSS (``ru_maxrss`` of RUSAGE_SELF and RUSAGE_CHILDREN, read in the checking process as
it exits); and the largest sum of the RSS of the process tree seen by sampling /proc every 0.2 s (the parent
and its workers at the same moment). --src runs another checkout's source (a `git archive` of an older commit)
for before-and-after numbers; --output keeps the report, so two runs' findings can be compared byte for byte.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Runs memwarden's CLI in this process and, as it exits, writes its own and its children's peak RSS.
WRAPPER = r"""
import atexit, json, resource, sys
out = sys.argv.pop(1)
def _report():
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    with open(out, "w") as f:
        json.dump({"parent_kb": own, "worker_kb": children}, f)
atexit.register(_report)
from memwarden.cli.main import main
sys.argv[0] = "memwarden"
main()
"""


def _tree_rss_kb(root_pid: int) -> int:
    """The summed RSS of a process and its descendants, from /proc (0 when it is gone)."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            parents[int(entry)] = int(fields[1])
            rss[int(entry)] = int(fields[21]) * (os.sysconf("SC_PAGE_SIZE") // 1024)
        except (OSError, IndexError, ValueError):
            continue
    total, todo = 0, [root_pid]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo.extend(child for child, parent in parents.items() if parent == pid)
    return total


def measure(workspace: str, src: str | None, ignore: str | None, output: str | None, jobs: str | None) -> dict:
    env = dict(os.environ, MEMWARDEN_NO_CACHE="1")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if src:
        env["PYTHONPATH"] = src
    if jobs:
        env["MEMWARDEN_JOBS"] = jobs
    with tempfile.TemporaryDirectory() as tmp:
        usage_file = Path(tmp) / "usage.json"
        report = output or str(Path(tmp) / "report.json")
        command = [sys.executable, "-c", WRAPPER, str(usage_file), "check", workspace, "--no-cache", "--exit-zero",
                   "--format", "json", "--today", "2026-11-30", "--output", report]
        if ignore:
            command += ["--ignore", ignore]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
        tree_peak = 0
        while process.poll() is None:
            tree_peak = max(tree_peak, _tree_rss_kb(process.pid))
            time.sleep(0.2)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        usage = json.loads(usage_file.read_text()) if usage_file.exists() else {}
        findings = len(json.loads(Path(report).read_text())["findings"]) if Path(report).exists() else None
    return {
        "workspace": workspace,
        "src": src or "installed",
        "ignore": ignore or "",
        "exit": process.returncode,
        "findings": findings,
        "wall_s": round(wall, 1),
        "cpu_s": round(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, 1),
        "parent_peak_mb": round(usage.get("parent_kb", 0) / 1024),
        "worker_peak_mb": round(usage.get("worker_kb", 0) / 1024),
        "tree_peak_mb": round(tree_peak / 1024),
        "load": os.getloadavg()[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("workspace")
    parser.add_argument("--src", help="another checkout's src/ (PYTHONPATH)")
    parser.add_argument("--ignore", help="rules to leave out, as `memwarden check --ignore` takes them")
    parser.add_argument("--output", help="keep the JSON report here")
    parser.add_argument("--jobs", help="MEMWARDEN_JOBS for the run")
    args = parser.parse_args()
    print(json.dumps(measure(args.workspace, args.src, args.ignore, args.output, args.jobs)), flush=True)


if __name__ == "__main__":
    main()

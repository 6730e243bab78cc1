"""Time and peak memory of the coherence rules on a generated workspace.

    python bench/generate.py /tmp/ws100 --scale 100
    python bench/coherence_speed.py /tmp/ws100

Runs `memwarden check --select` on conflicting-records and near-duplicate (the workspace rules
that read every episode and note), then each alone, in a fresh process without the cache, and
prints the wall time, the peak resident memory and the number of findings.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

RULES = ("conflicting-records,near-duplicate", "conflicting-records", "near-duplicate", "missing-provenance")


# A wrapper process per run, so the peak it reports is that run's alone (RUSAGE_CHILDREN only grows).
_WRAPPER = (
    "import resource, subprocess, sys, time; start = time.perf_counter(); "
    "done = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
    "sys.stderr.write(done.stderr); sys.stdout.write(done.stdout); "
    "print('\\n%f %d' % (time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss), file=sys.stderr)"
)


def run(root: Path, rules: str) -> tuple[float, float, int]:
    command = [sys.executable, "-m", "memwarden", "check", "--no-cache", "--format", "json", "--select", rules, "."]
    done = subprocess.run([sys.executable, "-c", _WRAPPER, *command], cwd=root, capture_output=True, text=True)
    wall, peak = done.stderr.strip().splitlines()[-1].split()
    try:
        findings = len(json.loads(done.stdout)["findings"])
    except ValueError:
        raise SystemExit(done.stderr) from None
    return float(wall), int(peak) / 1024, findings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("root", type=Path)
    args = parser.parse_args()
    print(f"{'rules':<40} {'wall s':>7} {'peak MB':>8} {'findings':>9}")
    for rules in RULES:
        wall, peak, count = run(args.root, rules)
        print(f"{rules:<40} {wall:>7.1f} {peak:>8.0f} {count:>9}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

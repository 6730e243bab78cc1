"""Time and peak memory of the coherence rules on a generated workspace.

    python bench/generate.py /tmp/ws100 --scale 100
    python bench/coherence_speed.py /tmp/ws100 [--cli]

First the analysis the two workspace rules run, in this process, phase by phase: reading every
live record (facts, notes, episodes), finding conflicts, finding repeats; with the peak resident
memory after each. Then, with --cli, `memwarden check --no-cache --select` for each rule in a fresh
process, then the whole check with every rule: wall time, peak memory and findings. The CLI time of
a rule alone includes what the engine adds for each of its findings (suppressions, display paths,
and the secret scan of the files whose findings quote them: `Problem.quotes`).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

RULES = ("conflicting-records", "near-duplicate", "missing-provenance")
# A wrapper process per run, so the peak it reports is that run's alone (RUSAGE_CHILDREN only grows).
_WRAPPER = (
    "import resource, subprocess, sys, time; start = time.perf_counter(); "
    "done = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
    "sys.stderr.write(done.stderr); sys.stdout.write(done.stdout); "
    "print('\\n%f %d' % (time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss), file=sys.stderr)"
)


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def in_process(root: Path) -> None:
    from memwarden.analysis import coherence
    from memwarden.discover.workspace import open_workspace

    ws = open_workspace(root)
    print(f"{'phase':<22} {'wall s':>7} {'peak MB':>8} {'count':>8}")
    start = time.perf_counter()
    from memwarden.analysis.superseded import supersession_marks

    marks = {relpath: supersession_marks(ws.document(relpath)) for relpath, kind in ws.files.items() if kind.name == "note"}
    records = coherence.memory_records(ws, marks)
    print(f"{'read records':<22} {time.perf_counter() - start:>7.1f} {peak_mb():>8.0f} {len(records):>8}")
    start = time.perf_counter()
    conflicts = coherence.find_conflicts(records)
    print(f"{'conflicts':<22} {time.perf_counter() - start:>7.1f} {peak_mb():>8.0f} {len(conflicts):>8}")
    start = time.perf_counter()
    repeats = coherence.find_repeats([r for r in records if r.layer in ("episode", "note")], 0.5, 0.8)
    print(f"{'repeats':<22} {time.perf_counter() - start:>7.1f} {peak_mb():>8.0f} {len(repeats):>8}")
    exact = sum(1 for r in repeats if r.exact)
    print(f"  ({exact} word-for-word copies, {len(repeats) - exact} near ones)")


def cli(root: Path, rules: str | None) -> tuple[float, float, int]:
    """(wall s, peak MB, findings) of one `memwarden check --no-cache`, of the given rules or of all."""
    select = ["--select", rules] if rules else []
    command = [sys.executable, "-m", "memwarden", "check", "--no-cache", "--format", "json", *select, "."]
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
    parser.add_argument("--cli", action="store_true", help="also time memwarden check --select for each rule")
    args = parser.parse_args()
    in_process(args.root)
    if args.cli:
        print(f"\n{'memwarden check --select':<40} {'wall s':>7} {'peak MB':>8} {'findings':>9}")
        for rules in (*RULES, None):
            wall, peak, count = cli(args.root, rules)
            print(f"{rules or '(every rule: the whole check)':<40} {wall:>7.1f} {peak:>8.0f} {count:>9}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

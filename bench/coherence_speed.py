"""Time and peak memory of the coherence rules on a generated workspace.

    python bench/generate.py /tmp/ws100 --scale 100
    python bench/coherence_speed.py /tmp/ws1 /tmp/ws10 /tmp/ws100 [--cli] [--no-whole]

Before and after: `git archive START | tar -x -C /tmp/before`, then the same command with
`PYTHONPATH=/tmp/before/src` (both the in-process phases and the CLI runs import memwarden from it).

First the analysis the two workspace rules run, in this process, phase by phase: reading every
live record (facts, notes, episodes), finding conflicts, finding repeats; with the peak resident
memory after each. Then, with --cli, `memwarden check --no-cache --select` for each rule in a fresh
process, then the whole check with every rule (unless --no-whole): wall time, CPU time (user +
system of the process and its workers) and peak memory (the largest process) and findings. The CLI time of
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
    "use = resource.getrusage(resource.RUSAGE_CHILDREN); "
    "print('\\n%f %f %d' % (time.perf_counter() - start, use.ru_utime + use.ru_stime, use.ru_maxrss), file=sys.stderr)"
)


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class Phase:
    """Prints one phase's wall time, CPU time and the process's peak RSS when it ends."""

    def __init__(self, name: str):
        self.name = name

    def __enter__(self):
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc):
        wall, cpu = time.perf_counter() - self.wall, time.process_time() - self.cpu
        print(f"{self.name:<26} {wall:>7.2f} {cpu:>7.2f} {peak_mb():>8.0f} {getattr(self, 'count', ''):>8}")


def in_process(root: Path) -> None:
    """The phases in this process, as the rules run them with no cache: the parse of the logs that other
    workspace rules share (duplicate-id, tags and recognition read the same parsed log), the supersession
    summaries, then the coherence work on top (records, conflicts, repeats)."""
    from memwarden.analysis import coherence
    from memwarden.analysis.superseded import supersession_marks
    from memwarden.discover.profiles import EPISODE_KINDS
    from memwarden.discover.workspace import open_workspace
    from memwarden.engine.cache import summaries_without_cache

    ws = open_workspace(root)
    print(f"{root}: in process")
    print(f"{'phase':<26} {'wall s':>7} {'CPU s':>7} {'peak MB':>8} {'count':>8}")
    with Phase("parse the logs (shared)") as phase:
        logs = [ws.document(relpath) for relpath, kind in sorted(ws.files.items()) if kind.name in EPISODE_KINDS]
        phase.count = sum(len(doc.records) for doc in logs if doc is not None and doc.ok)
    with Phase("supersession summaries") as phase:
        marks = summaries_without_cache(ws, supersession_marks, ("note",))
        phase.count = len(marks)
    total = time.process_time()
    with Phase("read records") as phase:
        records = coherence.memory_records(ws, marks)
        phase.count = len(records)
    with Phase("conflicts") as phase:
        phase.count = len(coherence.find_conflicts(records))
    with Phase("repeats") as phase:
        repeats = coherence.find_repeats([r for r in records if r.layer in ("episode", "note")], 0.5, 0.8)
        phase.count = len(repeats)
    print(f"{'coherence CPU (3 phases)':<26} {'':>7} {time.process_time() - total:>7.2f}")
    exact = sum(1 for r in repeats if r.exact)
    print(f"  ({exact} word-for-word copies, {len(repeats) - exact} near ones)")


def cli(root: Path, rules: str | None) -> tuple[float, float, float, int]:
    """(wall s, CPU s, peak MB, findings) of one `memwarden check --no-cache`, of the given rules or of all."""
    select = ["--select", rules] if rules else []
    command = [sys.executable, "-m", "memwarden", "check", "--no-cache", "--format", "json", *select, "."]
    done = subprocess.run([sys.executable, "-c", _WRAPPER, *command], cwd=root, capture_output=True, text=True)
    wall, cpu, peak = done.stderr.strip().splitlines()[-1].split()
    try:
        findings = len(json.loads(done.stdout)["findings"])
    except ValueError:
        raise SystemExit(done.stderr) from None
    return float(wall), float(cpu), int(peak) / 1024, findings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("roots", type=Path, nargs="+", help="generated workspaces (bench/generate.py)")
    parser.add_argument("--cli", action="store_true", help="also time memwarden check --select for each rule")
    parser.add_argument("--no-whole", action="store_true", help="with --cli, leave out the whole check")
    parser.add_argument("--no-phases", action="store_true", help="only the CLI runs")
    args = parser.parse_args()
    for root in args.roots:
        if not args.no_phases:
            # each workspace's phases in a fresh process, so one's peak is not another's
            done = subprocess.run([sys.executable, __file__, "--phases-only", str(root)], text=True)
            if done.returncode:
                return done.returncode
        if args.cli:
            print(f"{root}: memwarden check --no-cache --select")
            print(f"{'rules':<40} {'wall s':>7} {'CPU s':>7} {'peak MB':>8} {'findings':>9}")
            for rules in (*RULES, ",".join(RULES), *(() if args.no_whole else (None,))):
                wall, cpu, peak, count = cli(root, rules)
                print(f"{rules or '(every rule: the whole check)':<40} {wall:>7.1f} {cpu:>7.1f} {peak:>8.0f} {count:>9}", flush=True)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--phases-only"]:
        in_process(Path(sys.argv[2]))
        sys.exit(0)
    sys.exit(main())

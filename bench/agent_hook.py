"""The agent hook's cost: one whole `memwarden hook` process per payload, as Claude Code runs it.

    python bench/generate.py /tmp/ws1 --scale 1
    python bench/agent_hook.py /tmp/ws1 [--runs 7]

Runs real Claude Code payloads against the workspace (nothing is written: the "after" payloads
name a note already on disk) and prints the median wall and CPU time of each case over --runs
runs: a file that is not memory (the common case: source code), a clean note before and after
a Write, and an Edit of the episodic log before it is made (which compares the log with the
file on disk; the new line repeats the last episode, so it is a duplicate id, which does not block). Target: under 0.3 s for the clean note on a 1x workspace.
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


def payload(event: str, tool: str, tool_input: dict, cwd: Path) -> bytes:
    return json.dumps({
        "session_id": "bench", "transcript_path": str(cwd / "transcript.jsonl"), "cwd": str(cwd),
        "permission_mode": "default", "hook_event_name": event, "tool_name": tool,
        "tool_input": tool_input, "tool_use_id": "toolu_bench",
    }).encode()


def cases(root: Path) -> dict[str, bytes]:
    note = sorted((root / "memory/knowledge/projects").glob("*.md"))[0]
    text = note.read_text(encoding="utf-8")
    log = root / "memory/episodic.jsonl"
    last = log.read_text(encoding="utf-8").splitlines()[-1]
    return {
        "not memory (src/app.py), before Write": payload(
            "PreToolUse", "Write", {"file_path": str(root / "src/app.py"), "content": "print('hi')\n"}, root),
        "clean note, before Write": payload(
            "PreToolUse", "Write", {"file_path": str(note), "content": text}, root),
        "clean note, after Write": payload(
            "PostToolUse", "Write", {"file_path": str(note), "content": text}, root),
        "episodic log, before Edit (append-only)": payload(
            "PreToolUse", "Edit", {"file_path": str(log), "old_string": last, "new_string": last + "\n" + last,
                                   "replace_all": False}, root),
    }


def measure(data: bytes, root: Path, runs: int, env: dict) -> tuple[float, float, int]:
    walls, cpus, code = [], [], 0
    subprocess.run([sys.executable, "-m", "memwarden", "hook"], input=data, cwd=root, env=env, capture_output=True)
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "memwarden", "hook"], input=data, cwd=root, env=env,
                              capture_output=True)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        code = done.returncode
    return statistics.median(walls), statistics.median(cpus), code


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("workspace", type=Path)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    root = args.workspace.resolve()
    # As an installed package runs: bytecode compiled once and cached (here in a temporary folder, so a
    # PYTHONDONTWRITEBYTECODE environment does not make every run compile memwarden from source).
    cache = tempfile.mkdtemp(prefix="memwarden-pycache-")
    env = {**os.environ, "MEMWARDEN_NO_PROGRESS": "1", "PYTHONPYCACHEPREFIX": cache}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    for name, data in cases(root).items():
        wall, cpu, code = measure(data, root, args.runs, env)
        print(f"{name:<42} wall {wall:.3f} s  cpu {cpu:.3f} s  exit {code}")


if __name__ == "__main__":
    main()

"""Issue 24: the inputs that used to hang memwarden, at growing sizes, to show each now scales linearly.

    python bench/hangs.py [--src OTHER/src] [--sizes 1 2 4] [--timeout 120]

Each case builds a workspace in a temporary folder whose size grows with a factor (1, 2, 4 by
default) and times one whole-process `memwarden check` (CPU seconds of the process, user + system)
on it. A linear case doubles its time when its size doubles: the printed ratio t(k)/t(1)/k stays
near 1 (or below, as start-up is shared); a quadratic one grows with k. --src runs another
checkout's source (for before-and-after numbers); a run past --timeout is printed as such.

Cases:
  fixes      one safe fix on each of 10,000 x k episodes, shown with --diff      (was quadratic)
  index      a startup index of 5,000 x k entries past its truncation point      (was quadratic)
  glob       a config glob of '*a' fourteen times, over 200 x k deep paths      (was exponential)
  long-line  a note holding one line of 250,000 x k characters of tokens        (was quadratic)
  fifo       a FIFO where a note is expected (size does not apply; must return)  (used to block)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import string
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _write(root: Path, files: dict[str, str]) -> None:
    for relpath, text in files.items():
        path = root / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def case_fixes(root: Path, k: int) -> list[str]:
    record = '{"ts": "2026-01-01T00:00:00Z", "type": "decision", "summary": "s%d", "tags": ["Alpha", "beta"]}\n'
    _write(root, {"memory/fact.yml": "user:\n  name: A\n",
                  "memory/episodic.jsonl": "".join(record % n for n in range(10000 * k))})
    return ["--select", "unnormalized-tags", "--diff"]


def case_index(root: Path, k: int) -> list[str]:
    entry = '- "The tool said success number {n}, so it is done" → [lesson {n}](memory/knowledge/feedback/lesson.md)'
    _write(root, {
        ".gish/config.yml": "index:\n  max_chars: 600\n  truncate_edge_chars: 800\n",
        "MEMORY.md": "# Memory Index\n\n" + "\n".join(entry.format(n=n) for n in range(5000 * k)) + "\n",
        "memory/knowledge/feedback/lesson.md": "---\nname: lesson\ndescription: a lesson\nmetadata:\n  type: feedback\n"
                                               "  updated: 2026-10-01\n---\n\nBody.\n",
    })
    return ["--select", "index-past-truncation"]


def case_glob(root: Path, k: int) -> list[str]:
    files = {".memwarden.toml": "exclude = ['" + "*a" * 14 + "b']\n", "memory/fact.yml": "user:\n  name: A\n"}
    for n in range(200 * k):
        files[f"memory/{'/'.join(['a' * 8] * 6)}/{n}{'a' * 40}.md"] = "fine\n"
    _write(root, files)
    return ["--select", "unparsable-file"]


def case_long_line(root: Path, k: int) -> list[str]:
    rng = random.Random(1)
    alphabet = string.ascii_letters + string.digits + "_-"
    line = " ".join("".join(rng.choice(alphabet) for _ in range(40)) for _ in range(6100 * k))
    _write(root, {".claude/memory/MEMORY.md": "- [a](a.md) — a\n",
                  ".claude/memory/a.md": "---\nname: a\ndescription: b\ntype: user\n---\n" + line + "\n"})
    return ["--select", "secret-in-memory,negative-claim-without-expiry,stale-statement"]


def case_fifo(root: Path, k: int) -> list[str]:
    _write(root, {".claude/memory/MEMORY.md": "- [a](a.md) — a\n"})
    os.mkfifo(root / ".claude/memory/a.md")
    return ["--select", "orphan-note,near-duplicate,conflicting-records,secret-in-memory"]


CASES = {"fixes": case_fixes, "index": case_index, "glob": case_glob, "long-line": case_long_line, "fifo": case_fifo}


def run_once(build, k: int, src: Path | None, timeout: float) -> float | None:
    """CPU seconds of one `memwarden check` on the case at factor k; None past the timeout."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        extra = build(root, k)
        env = {**os.environ, "MEMWARDEN_NO_CACHE": "1"}
        if src is not None:
            env["PYTHONPATH"] = str(src)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.monotonic()
        try:
            subprocess.run([sys.executable, "-m", "memwarden", "check", "--no-cache", "--exit-zero", *extra],
                           cwd=root, env=env, capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return None
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return cpu if time.monotonic() - started < timeout else None


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, help="another checkout's src/ to run instead of this one")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--case", choices=sorted(CASES), action="append")
    args = parser.parse_args(argv)
    print(f"{'case':<10} " + " ".join(f"{'x' + str(k):>9}" for k in args.sizes) + "   t(k)/t(1)/k")
    rows = {}
    for name in args.case or CASES:
        sizes = [1] if name == "fifo" else args.sizes
        times = [run_once(CASES[name], k, args.src, args.timeout) for k in sizes]
        rows[name] = times
        shown = " ".join(f"{t:>8.2f}s" if t is not None else f"{'>' + str(int(args.timeout)):>8}s" for t in times)
        ratios = " ".join(
            f"{t / times[0] / k:.2f}" if t is not None and times[0] else "-" for t, k in zip(times[1:], sizes[1:])
        )
        print(f"{name:<10} {shown}   {ratios}")
    print(json.dumps({"sizes": args.sizes, "cpu_seconds": rows}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

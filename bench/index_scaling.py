"""`memwarden budget` on a startup index of many link lines: the time must grow with the lines, never their square.

    python bench/index_scaling.py

Each size is a MEMORY.md of `- "x" → [a](a.md)` lines, measured by the real CLI in a subprocess (start-up
included). Before the attack review, IndexDocument.links_on_line filtered every later link for each line:
20,000 lines took 15.4 s, 8,000 took 5 s in that one function.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

SIZES = (5_000, 20_000, 80_000)


def main() -> None:
    previous = None
    for lines in SIZES:
        with tempfile.TemporaryDirectory() as folder:
            Path(folder, "MEMORY.md").write_text('- "x" → [a](a.md)\n' * lines, encoding="utf-8")
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "memwarden", "budget"], cwd=folder, capture_output=True)
            took = time.perf_counter() - start
        ratio = f"  x{took / previous:.1f} for x4 lines" if previous else ""
        print(f"{lines:>7,} index lines  {took:6.2f} s{ratio}")
        previous = took


if __name__ == "__main__":
    main()

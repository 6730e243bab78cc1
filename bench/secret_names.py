"""What reading file and folder names for secrets costs: every path of a workspace, cold and warm.

    python bench/generate.py /tmp/ws10 --scale 10
    python bench/secret_names.py /tmp/ws10 [--names 57000]

Prints, for the workspace's own paths (or --names synthetic note names in the style agents write,
`feedback_<words>_<n>.md`, most of which pass the secrets gate), how many names pass the gate, the
time to read them all in a fresh process (each distinct name once), and the time to show every path
again (the per-name answers kept), per path.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

WORDS = ["deploy", "gates", "pattern", "review", "translation", "rejected", "staging", "token", "cache", "auth"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("workspace", type=Path, nargs="?")
    parser.add_argument("--names", type=int, default=0, help="synthetic note names instead of a workspace")
    args = parser.parse_args()
    from memwarden.analysis.secrets.paths import hide_in_path, read_names
    from memwarden.analysis.secrets.scanner import may_hold_secret

    if args.names:
        paths = [f"memory/knowledge/feedback/feedback_{WORDS[i % 10]}_{WORDS[(i // 10) % 10]}_{i}.md"
                 for i in range(args.names)]
    else:
        from memwarden.discover.workspace import open_workspace

        ws = open_workspace(args.workspace.resolve(), None)
        paths = sorted(ws.checked_files)
    names = {name for path in paths for name in path.split("/")}
    gated = sum(1 for name in names if may_hold_secret(name))
    start = time.perf_counter()
    read_names(paths)  # as secret-in-memory does on its first document
    hidden = sum(1 for path in paths if hide_in_path(path) != path)
    cold = time.perf_counter() - start
    start = time.perf_counter()
    for path in paths:
        hide_in_path(path)
    warm = time.perf_counter() - start
    print(f"{len(paths)} paths, {len(names)} distinct names, {gated} past the gate, {hidden} hidden")
    print(f"cold: {cold:.3f} s ({cold / len(paths) * 1e6:.1f} us a path); "
          f"warm: {warm:.4f} s ({warm / len(paths) * 1e6:.2f} us a path)")


if __name__ == "__main__":
    main()

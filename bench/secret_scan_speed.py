"""The secret scanner's speed on the text a whole-backup `--preview` run reads, against detect-secrets alone.

    python bench/secret_scan_speed.py [--root DIR] [--files N] [--repeat 3] [--src OTHER/src]

A `--preview` run over a backed-up OpenClaw workspace with thousands of installed skills spends most of its time
in the secret scanner (their docs, tests, scripts and configs). This times that scanner alone, in one process:
`scan_texts` over every text file under --root (or, without it, a generated tree of --files skill files: Markdown
docs with code blocks, Python, TypeScript, JSON and YAML with quoted strings, ids and a few keys), best of
--repeat runs. The comparison is detect-secrets itself: every plugin's `analyze_line` on every line of the same
files, as its own scan does (without its filters). Prints one JSON line: files, lines, seconds of each, the
ratio memwarden / detect-secrets, lines per second, and a digest of the detections (file, line, type), so two
builds' findings can be compared: --src times another checkout's `src/` (a `git worktree` of an older commit).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import string
import subprocess
import sys
import time
from pathlib import Path

TEXT_SUFFIXES = {".md": "markdown", ".mdx": "markdown", ".txt": "markdown", ".py": "markdown", ".ts": "markdown",
                 ".js": "markdown", ".sh": "markdown", ".json": "jsonl", ".yaml": "yaml", ".yml": "yaml"}
MAX_BYTES = 1_000_000


def _token(rng: random.Random, alphabet: str, length: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(length))


def generated_files(count: int) -> list[tuple[str, str, str]]:
    """(name, text, format) for ``count`` files shaped like an installed skill's: mostly prose and code, some ids,
    hashes and URLs, and a key in about one file in fifty."""
    rng = random.Random(29)
    alnum = string.ascii_letters + string.digits
    prose = ["Run the script from the skill's folder; it reads the config and writes a report.",
             "The API returns a JSON object with `items` and a `next` cursor for the following page.",
             "If the request fails with 429, wait and retry with exponential backoff.",
             "Set the environment variable before the first run, then restart the gateway."]
    files = []
    for number in range(count):
        kind = number % 5
        lines = []
        for line_number in range(rng.randrange(40, 160)):
            choice = rng.random()
            if kind == 0:  # Markdown docs
                lines.append(rng.choice(prose) if choice < 0.7 else
                             f"- see https://docs.example.com/{_token(rng, string.ascii_lowercase, 8)}/{line_number}")
            elif kind in (1, 2):  # Python and TypeScript
                name = _token(rng, string.ascii_lowercase, 7)
                lines.append(f'    {name} = "{_token(rng, alnum, rng.randrange(4, 30))}"' if choice < 0.4 else
                             f"    return {name}_{line_number}(items, limit={rng.randrange(100)})")
            elif kind == 3:  # JSON
                lines.append(json.dumps({"id": _token(rng, "0123456789abcdef", 32), "name": rng.choice(prose)[:30]}))
            else:  # YAML
                lines.append(f"{_token(rng, string.ascii_lowercase, 6)}: {rng.choice(prose)[:40]}")
        if number % 50 == 7:
            lines.insert(3, f"GITHUB_TOKEN=ghp_{_token(rng, alnum, 36)}")
        suffix = [".md", ".py", ".ts", ".json", ".yaml"][kind]
        files.append((f"skills/s{number // 20}/f{number}{suffix}", "\n".join(lines) + "\n",
                      TEXT_SUFFIXES[suffix]))
    return files


def files_under(root: Path) -> list[tuple[str, str, str]]:
    found = []
    for path in sorted(root.rglob("*")):
        if ".git" in path.parts or path.suffix not in TEXT_SUFFIXES or not path.is_file() or path.is_symlink():
            continue
        raw = path.read_bytes()[:MAX_BYTES]
        if b"\0" in raw[:8192]:
            continue
        found.append((path.relative_to(root).as_posix(), raw.decode("utf-8", "replace"), TEXT_SUFFIXES[path.suffix]))
    return found


def time_memwarden(files, repeat: int) -> tuple[float, str, int]:
    from memwarden.analysis.secrets.scanner import scan_texts

    best, results = float("inf"), []
    for _ in range(repeat):
        start = time.perf_counter()
        results = scan_texts([(text, fmt) for _, text, fmt in files])
        best = min(best, time.perf_counter() - start)
    found = sorted((name, d.line, d.type.slug) for (name, _, _), detections in zip(files, results) for d in detections)
    return best, hashlib.sha256(json.dumps(found).encode()).hexdigest()[:16], len(found)


def time_detect_secrets(files, repeat: int) -> float:
    from detect_secrets.settings import get_plugins, transient_settings

    from memwarden.analysis.secrets import plugins

    best = float("inf")
    with transient_settings(plugins.plugin_config()):
        loaded = get_plugins()
        for _ in range(repeat):
            start = time.perf_counter()
            for name, text, _ in files:
                for number, line in enumerate(text.splitlines(), 1):
                    for plugin in loaded:
                        plugin.analyze_line(filename=name, line=line, line_number=number)
            best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", help="time the text files under this folder (a clone of a whole backup)")
    parser.add_argument("--files", type=int, default=2_000, help="files to generate when no --root (default 2000)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--src", help="another checkout's src/ to time instead of this one")
    args = parser.parse_args()
    if args.src:
        argv = [a for i, a in enumerate(sys.argv[1:]) if a != "--src" and sys.argv[i] != "--src"]
        env = {**os.environ, "PYTHONPATH": str(Path(args.src).resolve())}
        sys.exit(subprocess.run([sys.executable, __file__, *argv], env=env).returncode)
    files = files_under(Path(args.root)) if args.root else generated_files(args.files)
    lines = sum(text.count("\n") + 1 for _, text, _ in files)
    seconds, digest, detections = time_memwarden(files, args.repeat)
    baseline = time_detect_secrets(files, args.repeat)
    import memwarden

    print(json.dumps({
        "source": str(Path(memwarden.__file__).parent), "files": len(files), "lines": lines,
        "memwarden_s": round(seconds, 3), "detect_secrets_s": round(baseline, 3),
        "ratio": round(seconds / baseline, 3) if baseline else None,
        "lines_per_s": round(lines / seconds) if seconds else None,
        "detections": detections, "detections_digest": digest,
    }))


if __name__ == "__main__":
    main()

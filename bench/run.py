"""Benchmarks: wall time and peak memory of memwarden on synthetic workspaces, and side by side
with what a user would otherwise chain (check-jsonschema, detect-secrets-hook, yamllint).

    python bench/run.py                 # 1x and 10x
    python bench/run.py --scales 1 10 100
    python bench/run.py --compare       # also the other tools (installed into bench/.venv-tools)

Prints a table of numbers and ratios against the targets; nothing here is a unit test.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import generate  # noqa: E402

TARGETS = {
    "version": 0.100,
    "hook-3-files@1x": 0.300,
    "check@1x": 1.0,
    "check@100x": 30.0,
    "warm/cold@100x": 0.10,
    "peak-mb@100x": 500,
}
MEASURE = (
    "import resource, subprocess, sys, time, json\n"
    "start = time.perf_counter()\n"
    "done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
    "wall = time.perf_counter() - start\n"
    "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024\n"
    "print(json.dumps({'wall': wall, 'peak_mb': peak, 'exit': done.returncode}))\n"
)


def measure(command: list[str], cwd: Path, env: dict | None = None, repeat: int = 3) -> dict:
    """Best wall time of a few runs, and the peak RSS of the process tree's largest member."""
    best = None
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", MEASURE, *command], cwd=cwd, env=env,
                             capture_output=True, text=True, check=True).stdout
        result = json.loads(out)
        if best is None or result["wall"] < best["wall"]:
            best = result
    return best


def memwarden(*args: str) -> list[str]:
    return [sys.executable, "-m", "memwarden", *args]


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b.invalid",
                        "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@b.invalid"})


def row(name: str, result: dict, target: float | None = None, unit: str = "s") -> None:
    value = result["wall"]
    verdict = ""
    if target is not None:
        verdict = f"target {target:g}{unit}  ratio {value / target:.2f}  {'OK' if value <= target else 'MISS'}"
    print(f"{name:<34} {value:8.3f} s  peak {result['peak_mb']:7.1f} MB  exit {result['exit']}  {verdict}")


def bench_scale(scale: int, work: Path, env: dict, compare: bool) -> None:
    root = work / f"ws-{scale}x"
    if not root.exists():
        info = generate.generate(root, scale)
        git(root, "init", "-q", "-b", "main")
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", "base")
    else:
        info = {}
    print(f"\n== {scale}x workspace {info or ''}")
    cache = root / ".memwarden_cache"
    shutil.rmtree(cache, ignore_errors=True)
    cold = measure(memwarden("check", "--exit-zero", "--no-cache", "."), root, env, repeat=1 if scale >= 100 else 3)
    row(f"check (cold, no cache) @{scale}x", cold, TARGETS.get(f"check@{scale}x"))
    if cold["peak_mb"] and scale >= 100:
        print(f"{'':<34} peak memory target {TARGETS['peak-mb@100x']} MB: "
              f"{'OK' if cold['peak_mb'] <= TARGETS['peak-mb@100x'] else 'MISS'}")
    measure(memwarden("check", "--exit-zero", "."), root, env, repeat=1)  # fill the cache
    warm = measure(memwarden("check", "--exit-zero", "."), root, env)
    row(f"check (warm cache) @{scale}x", warm)
    ratio = warm["wall"] / cold["wall"] if cold["wall"] else 0
    print(f"{'':<34} warm/cold = {ratio:.3f}  (target < {TARGETS['warm/cold@100x']})")
    budget = measure(memwarden("budget", "MEMORY.md"), root, env)
    row(f"budget @{scale}x", budget)
    # The hook on a 3-file staged change.
    notes = sorted((root / "memory" / "knowledge" / "feedback").glob("*.md"))[:2]
    # A session's commit: two notes touched and an episode appended to the log.
    changed = [notes[0], notes[1], root / "memory" / "episodic.jsonl"]
    for path in changed:
        with path.open("a", encoding="utf-8") as handle:
            if path.suffix == ".md":
                handle.write("\nOne more line.\n")
            else:
                record = generate.episode(generate.random.Random(1), 10**7)
                handle.write(generate.json.dumps(record, ensure_ascii=False) + "\n")
    git(root, "add", *[str(p.relative_to(root)) for p in changed])
    relative = [str(p.relative_to(root)) for p in changed]
    # The memwarden hook's entry (.pre-commit-hooks.yaml): secrets are memwarden-secrets' job.
    hook = measure(memwarden("check", "--fix", "--exit-zero", "--ignore", "secret-in-memory,personal-path", *relative),
                   root, env)
    row(f"hook memwarden (3 files) @{scale}x", hook, TARGETS["hook-3-files@1x"] if scale == 1 else None)
    staged = measure(memwarden("check", "--staged", "--exit-zero", "--select",
                               "deleted-record,rewritten-record,deleted-note", "."), root, env)
    row(f"hook append-only (staged) @{scale}x", staged)
    secrets = measure(memwarden("check", "--exit-zero", "--select", "secret-in-memory,personal-path", *relative),
                      root, env)
    row(f"hook secrets (3 files) @{scale}x", secrets)
    git(root, "checkout", "-q", "--", ".")
    git(root, "reset", "-q")
    if compare:
        compare_tools(root, scale, env, cold)


def compare_tools(root: Path, scale: int, env: dict, ours: dict) -> None:
    venv = HERE / ".venv-tools"
    if not (venv / "bin" / "python").exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "check-jsonschema", "yamllint", "detect-secrets"],
                       check=True)
    tools = venv / "bin"
    notes = [str(p.relative_to(root)) for p in (root / "memory").rglob("*.md")]
    yamls = [str(p.relative_to(root)) for p in (root / "memory").rglob("*.yml")]
    schemas = Path(__file__).resolve().parents[1] / "schemas" / "ghost-in-shell"
    chain = {
        "check-jsonschema (fact.yml)": [str(tools / "check-jsonschema"), "--schemafile",
                                        str(schemas / "facts.schema.json"), "memory/fact.yml"],
        "yamllint (yaml files)": [str(tools / "yamllint"), "-d", "relaxed", *yamls],
        "detect-secrets-hook (all files)": [str(tools / "detect-secrets-hook"), "memory/episodic.jsonl", "MEMORY.md",
                                            *yamls, *notes],
    }
    total = 0.0
    print(f"-- side by side @{scale}x (each tool covers only part of memwarden's job)")
    for name, command in chain.items():
        result = measure(command, root, env, repeat=1)
        total += result["wall"]
        row(name, result)
    print(f"{'chain total':<34} {total:8.3f} s   memwarden/chain = {ours['wall'] / total:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scales", type=int, nargs="+", default=[1, 10])
    parser.add_argument("--compare", action="store_true", help="also time check-jsonschema, yamllint, detect-secrets")
    parser.add_argument("--work", type=Path, default=None, help="where workspaces are generated (kept between runs)")
    args = parser.parse_args()
    work = args.work or Path(tempfile.gettempdir()) / "memwarden-bench"
    work.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS",)}
    env["MEMWARDEN_NO_PROGRESS"] = "1"
    print(f"memwarden benchmarks on {os.cpu_count()} cores; workspaces in {work}")
    version = measure(memwarden("--version"), work, env, repeat=5)
    row("memwarden --version", version, TARGETS["version"])
    for scale in args.scales:
        bench_scale(scale, work, env, args.compare)


if __name__ == "__main__":
    main()

"""Issue 12's report, in one process tree: memwarden's hook and cold checks beside the tools a user
would otherwise run, with the issue's goals and how far each measure is from its goal.

    python bench/side_by_side.py [--runs 3] [--scales 1 10] [--work DIR]

Measured, each as the median of --runs whole processes (wall time, and CPU time of the process and
its workers):

- the `memwarden` hook entry (`check --fix`, secrets left to their own hook) on a fresh 3-file change
  (one episode appended, two notes edited) with the cache warm from an earlier run, at each scale;
  every run gets a change of its own;
- a cold full check (`MEMWARDEN_NO_CACHE=1`) of the 1x workspace and of each example workspace;
- on the same files: gish's own `gish knowledge lint` (the anchor in /work/shared/anchors/gish),
  check-jsonschema, yamllint, detect-secrets-hook, claude-memory-lint and memory-lint, installed into
  bench/.venv-tools on first use.

The generated workspaces are fixed once (`check --fix`) and committed, as a workspace that passes
its hook every day is; Python's bytecode is written and each command runs once untimed first, so no
number includes compiling memwarden's sources.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
TOOLS = HERE / ".venv-tools"
GISH = Path("/work/shared/anchors/gish")
sys.path.insert(0, str(HERE))
import generate  # noqa: E402

HOOK_IGNORE = "secret-in-memory,personal-path"  # the memwarden hook's entry: secrets are memwarden-secrets' job
MEMORY_LINT_CONFIG = """version: 1
corpus_root: .
profiles:
  memory:
    include: ["**/*.md"]
    checks:
      frontmatter: true
      links: true
"""


def environment() -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "PYTHONDONTWRITEBYTECODE")}
    env["MEMWARDEN_NO_PROGRESS"] = "1"
    return env


def run(command, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, timeout=1800)


def timed(command, cwd: Path, env: dict, runs: int, before=None) -> dict:
    """Median wall and CPU seconds of ``runs`` runs (``before(index)`` untimed ahead of each, and it may return
    the command to run); one untimed run first."""
    run(command, cwd, env)
    walls, cpus = [], []
    for index in range(runs):
        this = before(index) if before is not None else None
        start_cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        run(this or command, cwd, env)
        walls.append(time.perf_counter() - start)
        end_cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(end_cpu.ru_utime - start_cpu.ru_utime + end_cpu.ru_stime - start_cpu.ru_stime)
    return {"wall": statistics.median(walls), "cpu": statistics.median(cpus), "runs": runs}


def memwarden(*args) -> list[str]:
    return [sys.executable, "-m", "memwarden", *args]


def tool(name: str) -> str | None:
    path = TOOLS / "bin" / name
    return str(path) if path.exists() else None


def install_tools() -> dict[str, str]:
    """Install the other tools into bench/.venv-tools (once); what could not be installed, and why."""
    missing = {}
    if not (TOOLS / "bin" / "python").exists():
        subprocess.run([sys.executable, "-m", "venv", str(TOOLS)], check=True)
    packages = ["check-jsonschema", "yamllint", "detect-secrets", "claude-memory-lint", "memory-lint"]
    if GISH.exists():
        packages.append(str(GISH))
    for package in packages:
        command = package if package != str(GISH) else "gish"
        if tool({"detect-secrets": "detect-secrets-hook", "claude-memory-lint": "cml"}.get(command, command)):
            continue
        result = subprocess.run([str(TOOLS / "bin" / "pip"), "install", "-q", package], capture_output=True, text=True)
        if result.returncode != 0:
            missing[package] = (result.stderr.strip().splitlines() or ["pip failed"])[-1]
    return missing


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def steady_workspace(work: Path, scale: int, env: dict) -> Path:
    """A generated workspace, fixed once and committed: the state a hook sees day after day."""
    root = work / f"ws-{scale}x"
    if not (root / ".git").exists():
        shutil.rmtree(root, ignore_errors=True)
        generate.generate(root, scale)
        run(memwarden("check", "--fix", "--exit-zero", "--no-cache", "."), root, env)
        git(root, "init", "-q", "-b", "main")
        git(root, "add", "-A")
        git(root, "-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "commit", "-q", "-m", "base")
    return root


def change_three_files(root: Path, seed: int) -> list[str]:
    """A session's commit: two notes edited and one episode appended to the log."""
    rng = random.Random(seed)
    notes = sorted((root / "memory" / "knowledge" / "feedback").glob("*.md"))
    changed = rng.sample(notes, 2)
    for note in changed:
        with note.open("a", encoding="utf-8") as handle:
            handle.write(f"\nChecked again in session {seed}.\n")
    with (root / "memory" / "episodic.jsonl").open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(generate.episode(rng, 10**7 + seed), ensure_ascii=False) + "\n")
    return [str(p.relative_to(root)) for p in changed] + ["memory/episodic.jsonl"]


def bench_hook(root: Path, env: dict, runs: int) -> dict:
    """The hook on a fresh change each run, the cache warm from the run before the change."""

    def hook(files: list[str]) -> list[str]:
        return memwarden("check", "--fix", "--exit-zero", "--ignore", HOOK_IGNORE, *files)

    def before(index: int) -> list[str]:
        git(root, "checkout", "-q", "--", ".")
        run(memwarden("check", "--exit-zero", "--ignore", HOOK_IGNORE, "."), root, env)  # the earlier run
        return hook(change_three_files(root, 1000 + index))

    result = timed(before(-1), root, env, runs, before)
    git(root, "checkout", "-q", "--", ".")
    return result


def row(name: str, result: dict | None, note: str = "") -> None:
    if result is None:
        print(f"{name:<58} {'-':>8}   {note}")
        return
    print(f"{name:<58} {result['wall']:7.3f}s {result['cpu']:7.3f}s cpu   {note}")


def ratio(ours: dict, theirs: dict | None) -> str:
    if not theirs or not theirs["wall"]:
        return ""
    return f"memwarden/other: wall {ours['wall'] / theirs['wall']:.2f}, cpu {ours['cpu'] / max(theirs['cpu'], 1e-9):.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--scales", type=int, nargs="+", default=[1, 10])
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "memwarden-side-by-side")
    args = parser.parse_args()
    env = environment()
    args.work.mkdir(parents=True, exist_ok=True)
    missing = install_tools()
    print(f"memwarden side by side on {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; median of {args.runs}")
    for package, why in missing.items():
        print(f"not installed: {package}: {why}")
    print(f"{'measure':<58} {'wall':>8} {'cpu':>8}")

    hooks = {}
    for scale in args.scales:
        root = steady_workspace(args.work, scale, env)
        hooks[scale] = bench_hook(root, env, args.runs)
        row(f"hook, 3-file change, warm cache @{scale}x", hooks[scale],
            "goal < 0.2 s" if scale == 1 else f"goal within 1.3x of 1x: {hooks[scale]['wall'] / hooks[1]['wall']:.2f}x"
            if 1 in hooks else "")

    root = steady_workspace(args.work, 1, env)
    cold_env = {**env, "MEMWARDEN_NO_CACHE": "1"}
    cold = timed(memwarden("check", "--exit-zero", "."), root, cold_env, args.runs)
    row("cold check @1x (MEMWARDEN_NO_CACHE=1)", cold)
    if tool("gish"):
        gish = timed([tool("gish"), "knowledge", "lint", "--workspace", "."], root, env, args.runs)
        row("  gish knowledge lint @1x", gish, ratio(cold, gish) + "  (goal: memwarden no slower)")
    yamls = [str(p.relative_to(root)) for p in sorted((root / "memory").rglob("*.yml"))]
    notes = [str(p.relative_to(root)) for p in sorted((root / "memory").rglob("*.md"))]
    everything = ["MEMORY.md", "memory/episodic.jsonl", *yamls, *notes]
    chain = {
        "check-jsonschema (fact.yml)": [tool("check-jsonschema"), "--schemafile",
                                        str(REPO / "schemas" / "ghost-in-shell" / "facts.schema.json"), *yamls],
        "yamllint (the YAML files)": [tool("yamllint"), "-d", "relaxed", *yamls],
        "detect-secrets-hook (every file)": [tool("detect-secrets-hook"), *everything],
    }
    total = {"wall": 0.0, "cpu": 0.0}
    pair = {"wall": 0.0, "cpu": 0.0}
    for name, command in chain.items():
        if command[0] is None:
            row(f"  {name}", None, "not installed")
            continue
        result = timed(command, root, env, args.runs)
        row(f"  {name} @1x", result)
        for key in total:
            total[key] += result[key]
            if not name.startswith("check-jsonschema"):
                pair[key] += result[key]
    row("  detect-secrets-hook + yamllint @1x", pair, ratio(cold, pair) + "  (goal 0.10)")
    row("  all three @1x", total, ratio(cold, total))

    for example in sorted(p for p in (REPO / "examples").iterdir() if p.is_dir()):
        copy = args.work / f"example-{example.name}"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(example, copy)
        ours = timed(memwarden("check", "--exit-zero", "."), copy, cold_env, args.runs)
        row(f"cold check, examples/{example.name}", ours, "goal < 0.15 s")
        if example.name == "ghost-in-shell" and tool("gish"):
            row("  gish knowledge lint", timed([tool("gish"), "knowledge", "lint", "--workspace", "."], copy, env, args.runs))
        if tool("cml"):
            row("  claude-memory-lint (cml check .)", timed([tool("cml"), "check", "."], copy, env, args.runs))
        if tool("memory-lint"):
            (args.work / "memory-lint.yaml").write_text(MEMORY_LINT_CONFIG, "utf-8")
            row("  memory-lint (front matter, links)", timed(
                [tool("memory-lint"), "--config", str(args.work / "memory-lint.yaml"), "--corpus-root", "."],
                copy, env, args.runs))


if __name__ == "__main__":
    main()

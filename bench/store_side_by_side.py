"""Issue 28's table, in one run: today's build and this one side by side, on natural and templated notes.

    python bench/store_side_by_side.py [--old PYTHON] [--runs 3] [--scales 1 10] [--kinds natural templated]
                                       [--with-100x] [--work DIR] [--only old|new]

``--old`` is the interpreter of the frozen build to compare with (default: /work/wt/base30/.venv/bin/python,
main at 6bf4c84); the new build is this interpreter's memwarden. Each build checks its own copy of every
workspace (their caches never meet). Measured, each the median of --runs whole processes (wall, and CPU
of the process and its workers), with every rule selected (`MEMWARDEN_PREVIEW=1`, as the issue measured;
``--stable``: the stable rules alone, the hook as shipped):

- the hook entry (`check --fix`, secrets left to their own hook) on a fresh 3-file change (two notes edited,
  one episode appended) with the cache warm from a check of the unchanged workspace, at each scale and kind;
- a cold full check (`MEMWARDEN_NO_CACHE=1`) at 1x, beside gish's `knowledge lint` and
  detect-secrets-hook + yamllint when bench/side_by_side.py has installed them into bench/.venv-tools;
- a cold check of each example workspace;
- with --with-100x, one cold check of the 100x templated workspace per build: wall time and peak RSS of the
  largest process (long on a shared machine: the flag keeps it out of a default run).

Templated notes are bench/generate.py's (eight sentences per language recombined: notes share most of
their words, as templated memory does); natural notes replace every note's body and every episode's
content with sentences drawn from a vocabulary of 6,000 words, Zipf-distributed, so few records meet.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
import generate  # noqa: E402
import side_by_side as sbs  # noqa: E402

OLD_PYTHON = Path("/work/wt/base30/.venv/bin/python")
GOALS = {"hook1": 0.2, "hook10": 1.3, "example": 0.15, "cold100_wall": 30.0, "cold100_mb": 400}
_SYLLABLES = ["ka", "lo", "mi", "ter", "sun", "gra", "vel", "pon", "dri", "qua", "ses", "tor", "ben", "lin",
              "cho", "ram", "fe", "zu", "nix", "op", "sta", "wen", "hal", "bri"]


def vocabulary(rng: random.Random, size: int = 6000) -> list[str]:
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words)


def natural_sentence(rng: random.Random, words: list[str], weights: list[float]) -> str:
    chosen = rng.choices(words, weights, k=rng.randint(7, 16))
    return " ".join(chosen).capitalize() + "."


def naturalize(root: Path, seed: int = 11) -> None:
    """Rewrite a generated workspace's note bodies and episode contents in a wide vocabulary."""
    rng = random.Random(seed)
    words = vocabulary(rng)
    weights = [1 / (rank + 1) for rank in range(len(words))]
    for note in sorted((root / "memory" / "knowledge").rglob("note-*.md")):
        text = note.read_text("utf-8")
        head, _, _ = text.rpartition("---\n")
        body = "\n\n".join(" ".join(natural_sentence(rng, words, weights) for _ in range(3)) for _ in range(3))
        note.write_text(f"{head}---\n\n{body}\n", "utf-8")
    log = root / "memory" / "episodic.jsonl"
    out = []
    for line in log.read_text("utf-8").splitlines():
        record = json.loads(line)
        record["content"] = " ".join(natural_sentence(rng, words, weights) for _ in range(2))
        record["title"] = record["content"].split(".")[0][:60]
        out.append(json.dumps(record, ensure_ascii=False))
    log.write_text("\n".join(out) + "\n", "utf-8")


def command(python: Path, *args: str) -> list[str]:
    return [str(python), "-m", "memwarden", *args]


def steady(work: Path, kind: str, scale: int, python: Path, env: dict) -> Path:
    """The generated workspace, fixed once and committed (the state a hook sees day after day)."""
    root = work / f"{kind}-{scale}x"
    if not (root / ".git").exists():
        shutil.rmtree(root, ignore_errors=True)
        generate.generate(root, scale)
        if kind == "natural":
            naturalize(root)
        sbs.run(command(python, "check", "--fix", "--exit-zero", "--no-cache", "."), root, env)
        sbs.git(root, "init", "-q", "-b", "main")
        sbs.git(root, "config", "gc.auto", "0")  # no packing behind the bench's back
        sbs.git(root, "add", "-A")
        sbs.git(root, "-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "commit", "-q", "-m", "base")
    return root


def copy_for(root: Path, build: str) -> Path:
    """A build's own copy of a workspace (its cache apart from the other build's)."""
    copy = root.with_name(f"{root.name}-{build}")
    if not (copy / ".git").exists():
        shutil.rmtree(copy, ignore_errors=True)
        sbs.git(root.parent, "clone", "-q", "--no-hardlinks", str(root), str(copy))
    return copy


def hook(root: Path, python: Path, env: dict, runs: int) -> dict:
    def before(index: int) -> list[str]:
        sbs.git(root, "checkout", "-q", "--", ".")
        sbs.run(command(python, "check", "--exit-zero", "--ignore", sbs.HOOK_IGNORE, "."), root, env)
        files = sbs.change_three_files(root, 1000 + index)
        return command(python, "check", "--fix", "--exit-zero", "--ignore", sbs.HOOK_IGNORE, *files)

    result = sbs.timed(before(-1), root, env, runs, before)
    sbs.git(root, "checkout", "-q", "--", ".")
    return result


_WRAPPER = ("import resource, subprocess, sys, time; start = time.perf_counter(); "
            "subprocess.run(sys.argv[1:], capture_output=True); "
            "use = resource.getrusage(resource.RUSAGE_CHILDREN); "
            "print(time.perf_counter() - start, use.ru_utime + use.ru_stime, use.ru_maxrss)")


def once_with_peak(cmd: list[str], cwd: Path, env: dict) -> dict:
    """One run: wall, CPU and the largest process's peak RSS (ru_maxrss of a wrapper's children)."""
    done = subprocess.run([sys.executable, "-c", _WRAPPER, *cmd], cwd=cwd, env=env, capture_output=True, text=True)
    wall, cpu, peak = done.stdout.split()
    return {"wall": float(wall), "cpu": float(cpu), "mb": int(peak) / 1024, "runs": 1}


def line(name: str, old: dict | None, new: dict | None, goal: str = "") -> None:
    def cell(result):
        if result is None:
            return f"{'-':>17}"
        peak = f" {result['mb']:.0f}MB" if "mb" in result else ""
        return f"{result['wall']:7.3f}/{result['cpu']:.3f}s{peak}"

    # CPU beside wall: on a shared machine the wall time is mostly the others' load
    ratio = f"{new['wall'] / old['wall']:.2f}x/{new['cpu'] / old['cpu']:.2f}x" if old and new and old["wall"] else ""
    print(f"{name:<46} {cell(old):>24} {cell(new):>24} {ratio:>11}  {goal}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", type=Path, default=OLD_PYTHON)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--scales", type=int, nargs="+", default=[1, 10])
    parser.add_argument("--kinds", nargs="+", default=["natural", "templated"], choices=["natural", "templated"])
    parser.add_argument("--with-100x", action="store_true")
    parser.add_argument("--no-cold", action="store_true", help="only the hook rows")
    parser.add_argument("--only", choices=["old", "new"])
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "memwarden-store-side-by-side")
    parser.add_argument("--stable", action="store_true", help="the hook as shipped: the stable rules, no preview")
    args = parser.parse_args()
    env = sbs.environment()
    if args.stable:
        env.pop("MEMWARDEN_PREVIEW", None)
    else:
        env["MEMWARDEN_PREVIEW"] = "1"  # every rule, as the issue measured
    builds = {"old": args.old, "new": Path(sys.executable)}
    if args.only:
        builds = {args.only: builds[args.only]}
    args.work.mkdir(parents=True, exist_ok=True)
    print(f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; median of {args.runs}; "
          f"{'stable rules (as shipped)' if args.stable else 'every rule (MEMWARDEN_PREVIEW=1)'}; "
          f"old {builds.get('old')}, new {builds.get('new')}")
    print(f"{'measure (wall/CPU)':<46} {'old':>24} {'new':>24} {'new/old':>11}  goal")
    maker = Path(sys.executable)
    for kind in args.kinds:
        hooks: dict[int, dict] = {}
        for scale in args.scales:
            base = steady(args.work, kind, scale, maker, env)
            results = {b: hook(copy_for(base, b), python, env, args.runs) for b, python in builds.items()}
            hooks[scale] = results
            goal = "< 0.2 s" if scale == 1 else ""
            if scale != 1 and 1 in hooks:
                goal = "within 1.3x of 1x (wall/CPU): " + ", ".join(
                    f"{b} {results[b]['wall'] / hooks[1][b]['wall']:.2f}x/{results[b]['cpu'] / hooks[1][b]['cpu']:.2f}x"
                    for b in results)
            line(f"hook, 3-file change, warm, {kind} {scale}x", results.get("old"), results.get("new"), goal)
    if args.no_cold:
        return
    cold_env = {**env, "MEMWARDEN_NO_CACHE": "1"}
    base = steady(args.work, "templated", 1, maker, env)
    cold = {b: sbs.timed(command(python, "check", "--exit-zero", "."), copy_for(base, b), cold_env, args.runs)
            for b, python in builds.items()}
    line("cold check, templated 1x", cold.get("old"), cold.get("new"))
    new_or_old = cold.get("new") or cold.get("old")
    if sbs.tool("gish"):
        gish = sbs.timed([sbs.tool("gish"), "knowledge", "lint", "--workspace", "."], base, env, args.runs)
        line("  gish knowledge lint 1x (goal: no slower)", None, gish,
             f"memwarden/gish {new_or_old['wall'] / gish['wall']:.1f}x")
    if sbs.tool("detect-secrets-hook") and sbs.tool("yamllint"):
        yamls = [str(p.relative_to(base)) for p in sorted((base / "memory").rglob("*.yml"))]
        every = ["MEMORY.md", "memory/episodic.jsonl", *yamls,
                 *(str(p.relative_to(base)) for p in sorted((base / "memory").rglob("*.md")))]
        pair = [sbs.timed([sbs.tool("detect-secrets-hook"), *every], base, env, args.runs),
                sbs.timed([sbs.tool("yamllint"), "-d", "relaxed", *yamls], base, env, args.runs)]
        both = {k: pair[0][k] + pair[1][k] for k in ("wall", "cpu")}
        line("  detect-secrets-hook + yamllint 1x", None, both,
             f"memwarden/them {new_or_old['wall'] / both['wall']:.2f} (goal 0.10)")
    for example in sorted(p for p in (REPO / "examples").iterdir() if p.is_dir()):
        copy = args.work / f"example-{example.name}"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(example, copy)
        results = {b: sbs.timed(command(python, "check", "--exit-zero", "."), copy, cold_env, args.runs)
                   for b, python in builds.items()}
        line(f"cold check, examples/{example.name}", results.get("old"), results.get("new"), "goal < 0.15 s")
    if args.with_100x:
        base = steady(args.work, "templated", 100, maker, env)
        results = {b: once_with_peak(command(python, "check", "--exit-zero", "--format", "json", "."),
                                     copy_for(base, b), cold_env) for b, python in builds.items()}
        line("cold check, templated 100x (one run)", results.get("old"), results.get("new"), "goal < 30 s, < 400 MB")


if __name__ == "__main__":
    main()

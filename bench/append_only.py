"""How long the append-only comparison takes on big logs. Prints numbers; asserts nothing.

    python3 bench/append_only.py [--records 10000 100000] [--commits 50]

Each case builds a real git repository in a temp dir: a gish workspace whose
episodic log holds N records (and an archive of N more), commits it, deletes
one line, and times

- `memwarden check --staged --select MW6` as pre-commit runs it (a new process),
- the same with `--base HEAD` on the working tree,
- a hook run when no memory file changed (the common case),
- `memwarden history --base` over a chain of commits that each append records.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RULES = "deleted-record,rewritten-record,deleted-note"
ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, env=ENV, check=True, capture_output=True)


def episode(n: int) -> str:
    return json.dumps({
        "id": f"ep_{n:08d}", "ts": "2026-01-02T10:00:00Z", "type": "decision", "title": f"Decision {n}",
        "content": f"We decided thing {n} because of reason {n}; " + "context " * 20, "tags": ["a", "b"],
        "importance": 6, "fingerprint": f"{n:064x}", "decay_status": "active",
        "retrieval": {"count": 0, "last_accessed": None, "strength": 0.5},
    })


def timed(root: Path, *args: str, repeat: int = 3) -> tuple[float, int]:
    best, code = float("inf"), -1
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "memwarden", *args], cwd=root, capture_output=True, env=ENV)
        best = min(best, time.perf_counter() - start)
        code = done.returncode
    return best, code


def baseline(root: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "memwarden", "--version"], cwd=root, capture_output=True, env=ENV)
    return time.perf_counter() - start


def comparison_only(root: Path, staged: bool) -> tuple[float, int]:
    """The append-only comparison in-process, without start-up or other rules: (seconds, losses)."""
    from memwarden.git import Repo
    from memwarden.analysis import history as append_only
    from memwarden.discover.workspace import open_workspace

    ws = open_workspace(root)
    start = time.perf_counter()
    repo = Repo.discover(root)
    cache: dict = {}
    base = append_only.GitSnapshot(ws, repo, "HEAD", repo.tree_files("HEAD", repo.prefix), cache)
    if staged:
        current = append_only.GitSnapshot(ws, repo, "the index", repo.index_files(repo.prefix), cache)
    else:
        current = append_only.WorktreeSnapshot(ws, repo)
    losses = append_only.Comparison(ws, base, current, append_only.DEFAULT_MUTABLE_FIELDS).losses()
    return time.perf_counter() - start, len(losses)


def bench(records: int, commits: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        git(root, "init", "-q", "-b", "main")
        (root / "memory/_archive").mkdir(parents=True)
        (root / "memory/fact.yml").write_text("schema_version: 1\nidentity:\n  name: bench\narchive: {}\n")
        lines = [episode(n) for n in range(1, records + 1)]
        (root / "memory/episodic.jsonl").write_text("\n".join(lines) + "\n")
        archive = [episode(n) for n in range(records + 1, 2 * records + 1)]
        (root / "memory/_archive/episodic_consolidated.jsonl").write_text("\n".join(archive) + "\n")
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", "initial")
        size = (root / "memory/episodic.jsonl").stat().st_size

        startup = baseline(root)
        unchanged, code_unchanged = timed(root, "check", "--staged", "--select", RULES)
        del lines[records // 2]
        (root / "memory/episodic.jsonl").write_text("\n".join(lines) + "\n")
        git(root, "add", "-A")
        staged, code_staged = timed(root, "check", "--staged", "--select", RULES)
        base, code_base = timed(root, "check", "--base", "HEAD", "--select", RULES)
        alone_staged, lost_staged = comparison_only(root, staged=True)
        alone_base, lost_base = comparison_only(root, staged=False)

        git(root, "checkout", "-q", "--", ".")
        git(root, "reset", "-q", "--hard")
        git(root, "tag", "start")
        for n in range(commits):
            with (root / "memory/episodic.jsonl").open("a") as handle:
                handle.write(episode(3 * records + n) + "\n")
            git(root, "commit", "-q", "-am", f"append {n}")
        history, code_history = timed(root, "history", "--base", "start", repeat=1)

        print(f"{records:>7,} records ({size / 1e6:.1f} MB log, {records:,} more in the archive):")
        print(f"  python + memwarden start-up           {startup * 1000:7.0f} ms")
        print(f"  hook, no memory file changed          {unchanged * 1000:7.0f} ms  exit {code_unchanged}")
        print(f"  hook (--staged), one line deleted     {staged * 1000:7.0f} ms  exit {code_staged}")
        print(f"  CI (--base HEAD), one line deleted    {base * 1000:7.0f} ms  exit {code_base}")
        print(f"  the comparison alone, index vs HEAD   {alone_staged * 1000:7.0f} ms  {lost_staged} lost")
        print(f"  the comparison alone, tree vs HEAD    {alone_base * 1000:7.0f} ms  {lost_base} lost")
        print(f"  history over {commits} appending commits      {history * 1000:7.0f} ms  exit {code_history}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--commits", type=int, default=50)
    args = parser.parse_args()
    for records in args.records:
        bench(records, args.commits)


if __name__ == "__main__":
    main()

"""What the repository-claim rules (MW412-MW417) cost a `memwarden check`, on a repository of a few thousand commits.

    python bench/repo_claims.py [--commits 3000] [--runs 3] [--keep DIR]

Builds a git repository with `git fast-import` (one process): 400 source files under src/, every commit
changing two of them, a rename every 40th commit and a deletion every 60th, and a Claude Code memory
beside it (CLAUDE.md, MEMORY.md and 20 notes) that names paths (some moved or deleted long ago),
scripts, symbols and `scope`s. Then it prints the median wall and CPU time of whole-process checks:

- every preview rule but the repository-claim ones, and every rule, both with `--no-cache` (the
  difference is what the history costs a cold check);
- every rule with the cache, warm (nothing changed: the hook's usual case), and after a new commit
  that touches none of the memory (HEAD moved: the history rules check again, the rest is cached).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from budget_history import timed  # median wall and CPU time of whole-process runs

START = 1_767_225_600  # 2026-01-01T00:00:00Z
FILES = 400
RULES = "MW412,MW413,MW414,MW415,MW416,MW417"
ENV = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


def source(number: int, version: int) -> bytes:
    return (f"def handler_{number:03d}_v{version}(request):\n    return validate_token_{number % 7}(request)\n").encode()


def memory_files() -> dict[str, bytes]:
    notes = {}
    for number in range(20):
        body = (f"---\nname: note {number}\ndescription: about module {number}\ntype: project\n"
                f"scope: src/mod{number:03d}/**\n---\n\n"
                f"Module {number} lives in `src/mod{number:03d}/file.py`.\n"
                f"Its helpers are in `src/mod{number + 200:03d}/`.\n"
                f"Run `npm run build` and `make test`; auth goes through `validate_token_{number % 7}()`.\n")
        notes[f".claude/memory/note_{number:02d}.md"] = body.encode()
    notes[".claude/memory/MEMORY.md"] = "".join(
        f"- [Note {n}](note_{n:02d}.md) — module {n}\n" for n in range(20)).encode()
    notes["CLAUDE.md"] = b"# Project\n\nComponents live in `src/mod001/`. Install with `pnpm install`; tests: `pnpm test`.\n"
    notes["package.json"] = b'{"scripts": {"build": "tsc", "test": "vitest"}}\n'
    notes["Makefile"] = b"test:\n\tpytest\n"
    notes["pnpm-lock.yaml"] = b"lockfileVersion: '9.0'\n"
    return notes


def fast_import_stream(commits: int) -> bytes:
    out = []
    names = {n: f"src/mod{n:03d}/file.py" for n in range(FILES)}

    def blob(path: str, data: bytes) -> None:
        out.append(b"M 100644 inline %s\ndata %d\n%s\n" % (path.encode(), len(data), data))

    for number in range(1, commits + 1):
        message = f"change {number}".encode()
        out.append(b"commit refs/heads/main\n")
        out.append(f"committer Bench <bench@example.invalid> {START + number * 3600} +0000\n".encode())
        out.append(b"data %d\n%s\n" % (len(message), message))
        if number == 1:
            for n, path in names.items():
                blob(path, source(n, 0))
            for path, data in memory_files().items():
                blob(path, data)
        else:
            for n in ((number * 7) % FILES, (number * 13) % FILES):
                if names[n]:
                    blob(names[n], source(n, number))
            if number % 40 == 0:
                n = (number // 40) % FILES
                if names[n]:
                    new = names[n].replace("/file.py", "/moved.py")
                    out.append(b"R %s %s\n" % (names[n].encode(), new.encode()))
                    names[n] = new
            if number % 60 == 0:
                n = 200 + (number // 60) % 200
                if names[n]:
                    out.append(b"D %s\n" % names[n].encode())
                    names[n] = ""
        out.append(b"\n")
    return b"".join(out)


def build(root: Path, commits: int) -> None:
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True, env=ENV)
    subprocess.run(["git", "fast-import", "--quiet"], cwd=root, input=fast_import_stream(commits), check=True, env=ENV)
    subprocess.run(["git", "checkout", "-q", "-f", "main"], cwd=root, check=True, env=ENV)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--commits", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="build the repository here and leave it")
    args = parser.parse_args()
    os.environ["MEMWARDEN_PREVIEW"] = "1"  # the repository-claim rules are preview; every run sees them
    with tempfile.TemporaryDirectory() as scratch:
        root = args.keep or Path(scratch) / "repo"
        start = time.perf_counter()
        build(root, args.commits)
        print(f"built {args.commits} commits in {time.perf_counter() - start:.1f} s: {root}", flush=True)
        commit = 0

        def new_commit():
            nonlocal commit
            commit += 1
            (root / "src" / "unrelated.txt").write_text(f"{commit}\n")
            subprocess.run(["git", "add", "-A"], cwd=root, check=True, env=ENV)
            subprocess.run(["git", "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-q", "-m", f"bench {commit}"],
                           cwd=root, check=True, env=ENV)

        without = ["--ignore", RULES]
        rows = [
            ("cold, without the repository-claim rules", ["check", ".", "--no-cache", *without], None),
            ("cold, with them", ["check", ".", "--no-cache"], None),
            ("cached, nothing changed, without them", ["check", ".", *without], None),
            ("cached, nothing changed, with them", ["check", "."], None),
            ("cached, after a commit, without them", ["check", ".", *without], new_commit),
            ("cached, after a commit, with them", ["check", "."], new_commit),
        ]
        timed(root, ["check", "."], 1)  # fill the cache, for both selections
        timed(root, ["check", ".", "--ignore", RULES], 1)
        for label, command, before in rows:
            if before is None:
                wall, cpu, out = timed(root, command, args.runs)
            else:  # a new commit before each run
                results = []
                for _ in range(args.runs):
                    before()
                    results.append(timed(root, command, 1))
                wall, cpu, out = (statistics.median(r[0] for r in results), statistics.median(r[1] for r in results),
                                  results[-1][2])
            found = {code: out.count(f" {code} ") for code in RULES.split(",")}
            print(f"{label:40s} median {wall:.3f} s wall, {cpu:.3f} s CPU over {args.runs} runs; findings {found}",
                  flush=True)


if __name__ == "__main__":
    main()

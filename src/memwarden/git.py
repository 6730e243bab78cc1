"""Git plumbing through the real ``git`` command: trees, the index, the working tree, commits.

Every call runs ``git`` with an argument list (never a shell), with literal
pathspecs, and reads NUL-separated output, so no file name is ever parsed
wrongly or run as code. Paths here are relative to the repository's top level.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from memwarden.fileio import MAX_FILE_BYTES, read_regular

_BLOB_MODES = ("100644", "100755")  # symlinks (120000) and submodules (160000) hold no memory


class GitError(Exception):
    """git is missing, or refused what we asked: the message says which, in words."""


@dataclass(frozen=True)
class Commit:
    sha: str
    short: str
    parents: tuple[str, ...]
    subject: str

    @property
    def first_parent(self) -> str | None:
        return self.parents[0] if self.parents else None


@dataclass(frozen=True)
class FileChange:
    """A first-parent commit that changed some of the watched files, and their blob ids after it."""

    sha: str
    timestamp: int  # committer date, seconds since the epoch
    blobs: dict[str, str | None]  # path -> blob id after the commit; None when the commit deleted it

    @property
    def short(self) -> str:
        return self.sha[:7]


def _environment(literal_paths: bool = True) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            # a file named '*.md' is that file, not a glob (check-ignore refuses the setting: it reads no globs)
            "GIT_LITERAL_PATHSPECS": "1" if literal_paths else "0",
            "GIT_OPTIONAL_LOCKS": "0",  # reading must never fight a running git for the index lock
            "GIT_TERMINAL_PROMPT": "0",
            "LC_ALL": "C",
            "GIT_PAGER": "cat",
        }
    )
    return env


def run_git(args: list[str], cwd: Path, input: bytes | None = None, check: bool = True,
            literal_paths: bool = True) -> subprocess.CompletedProcess:
    try:
        done = subprocess.run(
            ["git", *args], cwd=cwd, input=input, capture_output=True, env=_environment(literal_paths)
        )
    except FileNotFoundError:
        raise GitError("git is not installed (or not on PATH)") from None
    except OSError as error:
        raise GitError(f"cannot run git: {error.strerror}") from None
    if check and done.returncode != 0:
        raise failure(args, done)
    return done


def failure(args: list[str], done: subprocess.CompletedProcess) -> GitError:
    """The error a failed git command is: its last line of stderr."""
    message = done.stderr.decode("utf-8", "replace").strip().splitlines()
    return GitError(f"git {args[0]} failed: {message[-1] if message else f'exit {done.returncode}'}")


# A Git LFS pointer file (the spec's version line, then sorted keys; we need oid and size).
_LFS_VERSION = b"version https://git-lfs.github.com/spec/v1\n"
_LFS_POINTER = re.compile(
    rb"version https://git-lfs\.github\.com/spec/v1\n(?:[a-z0-9.-]+ [^\n]*\n)*?"
    rb"oid sha256:(?P<oid>[0-9a-f]{64})\n(?:[a-z0-9.-]+ [^\n]*\n)*?size (?P<size>[0-9]{1,15})\n(?:[a-z0-9.-]+ [^\n]*\n)*"
)


class Repo:
    """A working tree of a git repository, reached from a folder inside it."""

    def __init__(self, toplevel: Path, prefix: str = ""):
        self.toplevel = toplevel
        self.prefix = prefix  # the folder we came from, relative to the top level ('' or 'a/b/')
        self._blobs: dict[str, bytes] = {}
        self._lfs_store_list: list[Path] | None = None

    @classmethod
    def discover(cls, path: Path) -> "Repo | None":
        """The repository whose working tree holds path, or None if there is none."""
        done = run_git(["rev-parse", "--show-toplevel", "--show-prefix"], cwd=path, check=False)
        if done.returncode != 0:
            return None
        lines = done.stdout.decode("utf-8", "surrogateescape").split("\n")
        if len(lines) < 2 or not lines[0]:
            return None
        return cls(Path(lines[0]), lines[1])

    def git(self, *args: str, input: bytes | None = None, check: bool = True,
            literal_paths: bool = True) -> subprocess.CompletedProcess:
        return run_git(list(args), cwd=self.toplevel, input=input, check=check, literal_paths=literal_paths)

    # -- refs and commits ------------------------------------------------------
    def resolve(self, ref: str) -> str | None:
        """The commit a ref names, or None if it names none here."""
        if not ref or ref.startswith("-"):
            return None
        done = self.git("rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}", check=False)
        sha = done.stdout.decode("ascii", "replace").strip()
        return sha if done.returncode == 0 and sha else None

    def has_head(self) -> bool:
        return self.resolve("HEAD") is not None

    def is_shallow(self) -> bool:
        done = self.git("rev-parse", "--is-shallow-repository", check=False)
        return done.stdout.strip() == b"true"

    def merge_base(self, a: str, b: str) -> str | None:
        done = self.git("merge-base", "--end-of-options", a, b, check=False)
        sha = done.stdout.decode("ascii", "replace").strip()
        return sha if done.returncode == 0 and sha else None

    def short(self, sha: str) -> str:
        done = self.git("rev-parse", "--short", sha, check=False)
        return done.stdout.decode("ascii", "replace").strip() or sha[:7]

    def commits(self, base: str, head: str = "HEAD", first_parent: bool = True) -> list[Commit]:
        """Commits in base..head, oldest first."""
        args = ["log", "-z", "--reverse", "--format=%H%x1f%h%x1f%P%x1f%s"]
        if first_parent:
            args.append("--first-parent")
        args += ["--end-of-options", f"{base}..{head}"]
        out = self.git(*args).stdout.decode("utf-8", "replace")
        commits = []
        for chunk in out.split("\0"):
            if not chunk.strip():
                continue
            sha, short, parents, subject = (chunk.strip("\n").split("\x1f") + ["", "", ""])[:4]
            commits.append(Commit(sha, short, tuple(parents.split()), subject))
        return commits

    def file_changes(self, paths: list[str], since: str | None = None, head: str = "HEAD") -> list[FileChange]:
        """The first-parent commits (oldest first) that changed any of paths, with each path's blob after it.

        One `git log --first-parent --raw` call: a merge on the first-parent line counts
        with what it changed against its first parent, as the branch saw it.
        """
        if not paths:
            return []
        args = ["log", "-z", "--reverse", "--first-parent", "--diff-merges=first-parent", "--raw", "--no-abbrev",
                "--no-renames", "--format=%x1e%H%x1f%ct", "--end-of-options",
                f"{since}..{head}" if since else head, "--", *paths]
        out = self.git(*args).stdout
        changes: list[FileChange] = []
        for chunk in out.split(b"\x1e")[1:]:
            header, _, raw = chunk.partition(b"\0")
            sha, timestamp = header.decode("ascii").split("\x1f")
            fields = raw.lstrip(b"\n").split(b"\0")  # ":modes ids status", path, ... (NUL-separated with -z)
            blobs: dict[str, str | None] = {}
            for meta, path in zip(fields[0::2], fields[1::2]):
                if not meta.startswith(b":"):
                    continue
                _old_mode, new_mode, _old, new, _status = meta[1:].decode("ascii").split()
                name = path.decode("utf-8", "surrogateescape")
                blobs[name] = new if new_mode in _BLOB_MODES else None
            changes.append(FileChange(sha, int(timestamp), blobs))
        return changes

    # -- listings: top-level path -> blob id -------------------------------------
    def _pathspec(self, under: str) -> list[str]:
        return ["--", under.rstrip("/")] if under else []

    def tree_files(self, treeish: str, under: str = "") -> dict[str, str]:
        """Regular files of a commit or tree (below a folder), path -> blob id."""
        return self._ls_tree(treeish, self._pathspec(under))

    def tree_blobs(self, treeish: str, paths: list[str]) -> dict[str, str]:
        """Those of paths that are regular files of a commit or tree, path -> blob id."""
        return self._ls_tree(treeish, ["--", *paths]) if paths else {}

    def _ls_tree(self, treeish: str, pathspec: list[str]) -> dict[str, str]:
        out = self.git("ls-tree", "-r", "-z", "--full-tree", treeish, *pathspec).stdout
        files: dict[str, str] = {}
        for entry in out.split(b"\0"):
            if not entry:
                continue
            meta, _, path = entry.partition(b"\t")
            mode, kind, sha = meta.decode("ascii").split()
            if kind == "blob" and mode in _BLOB_MODES:
                files[path.decode("utf-8", "surrogateescape")] = sha
        return files

    def index_files(self, under: str = "") -> dict[str, str]:
        """Regular files of the index (what the next commit will hold), path -> blob id.

        During a conflicted merge a path has no stage 0; 'ours' (stage 2) stands in.
        """
        out = self.git("ls-files", "-s", "-z", "--full-name", *self._pathspec(under)).stdout
        files: dict[str, str] = {}
        conflicted: dict[str, str] = {}
        for entry in out.split(b"\0"):
            if not entry:
                continue
            meta, _, path = entry.partition(b"\t")
            mode, sha, stage = meta.decode("ascii").split()
            name = path.decode("utf-8", "surrogateescape")
            if mode not in _BLOB_MODES:
                continue
            if stage == "0":
                files[name] = sha
            elif stage == "2":
                conflicted[name] = sha
        for name, sha in conflicted.items():
            files.setdefault(name, sha)
        return files

    def worktree_files(self, under: str = "") -> list[str]:
        """Files of the working tree git would see: tracked ones still present, and untracked ones not ignored."""
        out = self.git(
            "ls-files", "-z", "--full-name", "--cached", "--others", "--exclude-standard", *self._pathspec(under)
        ).stdout
        seen: dict[str, None] = {}
        for entry in out.split(b"\0"):
            if entry:
                seen.setdefault(entry.decode("utf-8", "surrogateescape"), None)
        return [p for p in seen if os.path.isfile(self.toplevel / p) and not os.path.islink(self.toplevel / p)]

    # -- contents -----------------------------------------------------------------
    def read_blobs(self, shas) -> dict[str, bytes]:
        """The contents of many blobs through one `git cat-file --batch`; cached for this repo."""
        wanted = [sha for sha in dict.fromkeys(shas) if sha not in self._blobs]
        if wanted:
            out = self.git("cat-file", "--batch", input=("\n".join(wanted) + "\n").encode("ascii")).stdout
            position = 0
            for sha in wanted:
                header_end = out.index(b"\n", position)
                header = out[position:header_end].split()
                position = header_end + 1
                if len(header) < 3 or header[1] == b"missing":
                    continue
                size = int(header[2])
                self._blobs[sha] = self.lfs_content(out[position : position + size])
                position += size + 1  # the content is followed by a newline
        return {sha: self._blobs[sha] for sha in shas if sha in self._blobs}

    def lfs_content(self, data: bytes) -> bytes:
        """The file a Git LFS pointer stands for, read from this clone's LFS store; other data as it is.

        Comparing two pointers compares nothing (a log with half its records deleted is "another
        pointer"), so a pointer whose object this clone lacks is an error, never a pass. The store
        is read directly (objects/OID[0:2]/OID[2:4]/OID, checked against the pointer's hash and
        size): no git-lfs process, and never the network.
        """
        pointer = _LFS_POINTER.fullmatch(data) if data.startswith(_LFS_VERSION) and len(data) < 1024 else None
        if pointer is None:
            return data
        oid, size = pointer.group("oid").decode("ascii"), int(pointer.group("size"))
        if size > MAX_FILE_BYTES:
            raise GitError(
                f"a memory file is stored in Git LFS (object {oid[:12]}) at {size:,} bytes, over the "
                f"{MAX_FILE_BYTES:,}-byte limit memwarden reads, so what changed in it cannot be checked"
            )
        for store in self._lfs_stores():
            try:
                # One byte over the pointer's size is enough to see an object that does not match it.
                content = read_regular(store / oid[:2] / oid[2:4] / oid, limit=size + 1)
            except OSError:
                continue
            if len(content) == size and hashlib.sha256(content).hexdigest() == oid:
                return content
        raise GitError(
            f"a memory file is stored in Git LFS (object {oid[:12]}, {size:,} bytes) and this clone does not have "
            "its content, so what changed in it cannot be checked: run `git lfs pull` (in CI: fetch with LFS) first"
        )

    def _lfs_stores(self) -> list[Path]:
        if self._lfs_store_list is None:
            common = self.git("rev-parse", "--git-common-dir", check=False).stdout.decode("utf-8", "surrogateescape").strip()
            stores = []
            configured = self.git("config", "--get", "lfs.storage", check=False).stdout.decode("utf-8", "surrogateescape").strip()
            if configured:
                stores.append((self.toplevel / common / configured) if not Path(configured).is_absolute() else Path(configured))
            if common:
                stores.append(self.toplevel / common / "lfs" / "objects")
            self._lfs_store_list = stores
        return self._lfs_store_list

    def show(self, treeish: str, path: str) -> bytes | None:
        """One file at a commit (`git show REF:path`), or None if it is not there."""
        done = self.git("cat-file", "blob", f"{treeish}:{path}", check=False)
        return done.stdout if done.returncode == 0 else None

    # -- history of the whole tree (the repository-claim rules) ---------------------
    def removals(self) -> "dict[str, Removal]":
        """Every path the history of HEAD deleted or renamed away, with the newest commit that did it.

        One `git log --diff-filter=DR -M --name-status` over all of HEAD's ancestors (merges add
        nothing: a side branch's own commits carry its deletions). A path deleted and added again
        keeps its newest removal; whether it exists now is the caller's question. When an old file
        version cannot be read (a damaged clone, or one fetched with a blob filter), git gives up on
        renames with edits; the log is then read again with exact renames only, which need no contents.
        """
        try:
            out = self._removals_log("-M")
        except GitError:
            out = self._removals_log("-M100%")
        found: dict[str, Removal] = {}
        for chunk in out.split(b"\x1e")[1:]:
            header, _, body = chunk.partition(b"\0")
            sha, timestamp, subject = (header.decode("utf-8", "replace").split("\x1f") + ["", ""])[:3]
            fields = [f.decode("utf-8", "surrogateescape") for f in body.lstrip(b"\n").split(b"\0")]
            position = 0
            while position + 1 < len(fields) and fields[position]:
                renamed = fields[position].startswith("R") and position + 2 < len(fields)
                old = fields[position + 1]
                found.setdefault(old, Removal(old, sha, int(timestamp), subject, fields[position + 2] if renamed else None))
                position += 3 if renamed else 2
        return found

    def _removals_log(self, renames: str) -> bytes:
        return self.git("log", "-z", "--diff-filter=DR", renames, "--name-status", "--format=%x1e%H%x1f%ct%x1f%s",
                        "--end-of-options", "HEAD").stdout

    def touches(self, skip: int = 0, limit: int | None = None) -> "list[Touch]":
        """HEAD's first-parent commits, newest first (past the newest skip, at most limit), with the paths each changed.

        One `git log --first-parent --name-only`: a merge counts with what it brought in against its
        first parent, as the branch saw it; a rename lists both of its names.
        """
        out = self.git("log", "-z", "--first-parent", "--diff-merges=first-parent", "--no-renames", "--name-only",
                       "--format=%x1e%H%x1f%ct%x1f%s", f"--skip={skip}", *([f"-{limit}"] if limit else []),
                       "--end-of-options", "HEAD").stdout
        touches = []
        for chunk in out.split(b"\x1e")[1:]:
            header, _, body = chunk.partition(b"\0")
            sha, timestamp, subject = (header.decode("utf-8", "replace").split("\x1f") + ["", ""])[:3]
            paths = tuple(p.decode("utf-8", "surrogateescape") for p in body.lstrip(b"\n").split(b"\0") if p)
            touches.append(Touch(sha, int(timestamp), subject, paths))
        return touches

    def line_removals(self, words: list[str], counts=lambda path: True,
                      keeps=lambda line, word: True, leave_out: tuple[str, ...] = ()) -> "dict[str, Removal]":
        """For each word, the newest commit of HEAD's history that removed a line holding it (as a whole word)
        from a file counts(path) accepts, a line keeps(line, word) accepts. One `git log -G -p --unified=0` for all the words: only the files
        whose changed lines match are shown, and only those lines. Files whose names end in one of leave_out
        (extensions, any case) are not diffed at all: git's diffs are the cost of the walk, and documentation is
        most of a memory-keeping repository's history. When git stops at a file version it cannot
        read (a damaged clone, or one fetched with a blob filter), the newer commits it showed still count."""
        if not words:
            return {}
        pattern = "(^|[^A-Za-z0-9_])(" + "|".join(words) + ")([^A-Za-z0-9_]|$)"
        # Pathspec magic is ours here (fixed extensions), so the literal-pathspec guard is lifted for this call.
        pathspecs = [".", *(f":(exclude,glob,icase)**/*{extension}" for extension in leave_out)] if leave_out else []
        done = self.git("log", "-G", pattern, "-p", "--unified=0", "--no-color", "--no-ext-diff", "--no-renames",
                        "--format=%x1e%H%x1f%ct%x1f%s", "--end-of-options", "HEAD", "--", *pathspecs,
                        check=False, literal_paths=False)
        out = done.stdout
        if done.returncode != 0 and not out:
            raise failure(["log"], done)
        whole = {word: re.compile(rf"(?<![A-Za-z0-9_]){word}(?![A-Za-z0-9_])".encode()) for word in words}
        found: dict[str, Removal] = {}
        for chunk in out.split(b"\x1e")[1:]:
            header, _, body = chunk.partition(b"\n")
            sha, timestamp, subject = (header.decode("utf-8", "replace").split("\x1f") + ["", ""])[:3]
            counted = False
            for line in body.split(b"\n"):
                if line.startswith(b"--- "):
                    path = line[4:].decode("utf-8", "surrogateescape")
                    counted = path.startswith("a/") and counts(path[2:])
                elif counted and line.startswith(b"-"):
                    for word, regex in whole.items():
                        if word not in found and regex.search(line) and keeps(line, word):
                            found[word] = Removal(word, sha, int(timestamp or 0), subject, None)
            if len(found) == len(words):
                break
        return found

    def subject(self, sha: str) -> str:
        done = self.git("log", "-1", "--format=%s", "--end-of-options", sha, check=False)
        return done.stdout.decode("utf-8", "replace").strip()

    def ignored(self, paths) -> set[str]:
        """Which of the paths (from the top level, not tracked) the working tree's ignore rules ignore today: one
        `git check-ignore --stdin` for all of them. A folder's rule (`dist/`) is matched by the files under it."""
        wanted = [path for path in paths if path and "\0" not in path]
        if not wanted:
            return set()
        done = self.git("check-ignore", "--stdin", "-z", check=False, literal_paths=False,
                        input="\0".join(wanted).encode("utf-8", "surrogateescape"))
        if done.returncode not in (0, 1):  # 1: none is ignored
            raise failure(["check-ignore"], done)
        return {path.decode("utf-8", "surrogateescape") for path in done.stdout.split(b"\0") if path}

    def grep_words(self, words: list[str]) -> dict[str, set[str]]:
        """Which tracked files of the index hold each word, as a whole word (one `git grep -w -F -o`)."""
        if not words:
            return {}
        args = ["grep", "-z", "-I", "-w", "-F", "-o", "--cached", "--full-name"]
        for word in words:
            args += ["-e", word]
        out = self.git(*args, check=False).stdout
        holders: dict[str, set[str]] = {}
        for line in out.split(b"\n"):
            path, _, match = line.partition(b"\0")
            if match:
                holders.setdefault(match.decode("utf-8", "replace"), set()).add(path.decode("utf-8", "surrogateescape"))
        return holders


@dataclass(frozen=True)
class Removal:
    """The newest commit that deleted a path (renamed_to None) or renamed it away, or removed a word."""

    path: str
    sha: str
    timestamp: int
    subject: str
    renamed_to: str | None

    @property
    def short(self) -> str:
        return self.sha[:7]


@dataclass(frozen=True)
class Touch:
    """A first-parent commit and the paths it changed."""

    sha: str
    timestamp: int
    subject: str
    paths: tuple[str, ...]

    @property
    def short(self) -> str:
        return self.sha[:7]


def repository_state(folder: Path) -> str:
    """What a commit, a checkout or staging changes: HEAD's commit and the index file's size and times.

    One `git rev-parse`, for a cache to tell whether what it kept about the history still holds.
    """
    try:
        done = run_git(["rev-parse", "HEAD", "--git-path", "index", "--is-shallow-repository"], cwd=folder, check=False)
    except GitError:
        return "no git"
    lines = done.stdout.decode("utf-8", "surrogateescape").split("\n")
    if len(lines) < 3:
        return "no repository"
    try:
        info = os.stat(folder / lines[1])
        index = f"{info.st_size}:{info.st_mtime_ns}:{info.st_ctime_ns}:{info.st_ino}"
    except OSError:
        index = "no index"
    return f"{lines[0]}|{lines[2]}|{index}"

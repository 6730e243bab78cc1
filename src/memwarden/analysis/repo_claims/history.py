"""The repository a memory file sits in, as the repository-claim rules compare against it: built once a run.

Each question costs one batch call, asked only when a mention needs it: the tracked files (`git ls-files`),
the paths the history removed (`git log --diff-filter=DR -M`), the versions of the manifests (one
`git log --raw` and one `git cat-file --batch`), the first-parent commits and the paths they changed. A
folder with no repository, a repository with no commit, and a shallow clone have nothing to compare
against: every answer is then "unknown", never an error.
"""

from __future__ import annotations

import os
import posixpath
from functools import cached_property
from pathlib import Path

from memwarden.analysis.repo_claims import manifests
from memwarden.analysis.repo_claims.definitions import Definitions
from memwarden.fileio import read_regular
from memwarden.git import GitError, Removal, Repo, Touch, repository_state

MEMO_KEY = "repo-claims:facts"
# Files whose text is documentation, not code: a symbol named there is not defined there.
_DOC_EXTENSIONS = (".md", ".markdown", ".mdx", ".txt", ".rst", ".adoc", ".jsonl", ".json", ".yml", ".yaml", ".lock",
                   ".csv", ".html", ".svg", ".ipynb")
TOUCH_WINDOW = 5000  # first-parent commits read for change-based staleness
MAX_MANIFEST_BYTES = 5_000_000  # a bigger manifest is read cut short, as invalid: it decides nothing
MAX_SYMBOLS_SEARCHED = 300  # symbols no code holds, looked for in the history (one `git log -G`); the rest undecided


class RepositoryAnswers:
    """What git answered about each repository in one state (its top level, HEAD and the index's stat).

    Owned by the run's options (engine.RunOptions.repository_answers): the workspaces of one run share it, so
    a repository holding many memory folders reads its history once, and a long-lived caller (the language
    server) may keep one across checks. Keyed by the state, so a commit, a checkout or staging starts afresh;
    the working tree is always asked live. A few repositories are kept, the oldest dropped first.
    """

    KEPT = 4

    def __init__(self) -> None:
        self._by_state: dict[tuple[str, str], dict] = {}

    def of(self, repo: Repo) -> dict:
        key = (str(repo.toplevel), repository_state(repo.toplevel))
        if key not in self._by_state:
            while len(self._by_state) >= self.KEPT:
                self._by_state.pop(next(iter(self._by_state)))
            self._by_state[key] = {"symbol_removals": {}, "holders": {}, "touches": [], "touches_done": False}
        return self._by_state[key]


class RepoFacts:
    def __init__(self, repo: Repo | None, why: str = "", answers: RepositoryAnswers | None = None):
        self.repo = repo
        self.why = why  # why there is nothing to compare against, when repo is None
        self._answers = (answers or RepositoryAnswers()).of(repo) if repo is not None else {}

    @classmethod
    def open(cls, root: Path, answers: RepositoryAnswers | None = None) -> "RepoFacts":
        try:
            repo = Repo.discover(root)
            if repo is None:
                return cls(None, "not in a git repository")
            if not repo.has_head():
                return cls(None, "the repository has no commit yet")
            if repo.is_shallow():
                return cls(None, "a shallow clone: its history is cut short")
        except GitError as error:
            return cls(None, str(error))
        return cls(repo, answers=answers)

    @property
    def usable(self) -> bool:
        return self.repo is not None

    def relative(self, root: Path, relpath: str) -> str:
        """A workspace path as a path from the repository's top level."""
        assert self.repo is not None
        full = Path(os.path.abspath(root / relpath))
        try:
            return full.relative_to(Path(os.path.abspath(self.repo.toplevel))).as_posix()
        except ValueError:
            return relpath

    # -- the tree now ---------------------------------------------------------------------------
    def _once(self, name: str, read):
        if name not in self._answers:
            self._answers[name] = read()
        return self._answers[name]

    @property
    def tracked(self) -> frozenset[str]:
        def read():
            out = _quietly(lambda: self.repo.git("ls-files", "-z", "--full-name", "--cached").stdout, b"")
            return frozenset(p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p)

        return self._once("tracked", read)

    @property
    def root_files(self) -> tuple[str, ...]:
        """The tracked files at the top level, sorted (where the lockfiles are), listed once a run."""
        return self._once("root_files", lambda: tuple(sorted(path for path in self.tracked if "/" not in path)))

    @property
    def tracked_folders(self) -> frozenset[str]:
        return self._once("tracked_folders", self._folders_of_tracked)

    def _folders_of_tracked(self) -> frozenset[str]:
        folders = set()
        for path in self.tracked:
            folder = posixpath.dirname(path)
            while folder and folder not in folders:
                folders.add(folder)
                folder = posixpath.dirname(folder)
        return frozenset(folders)

    def names_tracked_files(self, path: str) -> bool:
        """Whether a file name written without a folder (`.env.example`, `README.md`) is the name of a tracked file
        somewhere: it names that file wherever it lives (a monorepo's one app, a design folder's README), not a
        path from the top level."""
        if "/" in path.rstrip("/"):
            return False
        names = self._once("tracked_names", lambda: frozenset(posixpath.basename(p) for p in self.tracked))
        return path in names

    def exists(self, path: str) -> bool:
        """Tracked (as a file or a folder of tracked files), or present in the working tree."""
        bare = path.rstrip("/")
        if bare in self.tracked or bare in self.tracked_folders:
            return True
        assert self.repo is not None
        return os.path.lexists(self.repo.toplevel / bare)

    def is_file(self, path: str) -> bool:
        """A tracked file, or a file of the working tree (not a folder)."""
        assert self.repo is not None
        return path in self.tracked or os.path.isfile(self.repo.toplevel / path)

    def existing(self, path: str, note_path: str) -> str | None:
        """The repository path a written path names that exists: from the top level, or from the note's folder or
        any folder above it (a monorepo package's CLAUDE.md writes `src/ui/` for its own); None if none exists."""
        folder = posixpath.dirname(note_path)
        while True:
            candidate = f"{folder}/{path}" if folder else path
            if self.exists(candidate):
                return candidate
            if not folder:
                return None
            folder = posixpath.dirname(folder)

    # -- paths the history removed --------------------------------------------------------------
    @property
    def removals(self) -> dict[str, Removal]:
        assert self.repo is not None
        return self._once("removals", lambda: _quietly(self.repo.removals, {}))

    @property
    def _removed_folders(self) -> dict[str, list[Removal]]:
        return self._once("removed_folders", self._folders_of_removals)

    def _folders_of_removals(self) -> dict[str, list[Removal]]:
        folders: dict[str, list[Removal]] = {}
        for removal in self.removals.values():
            folder = posixpath.dirname(removal.path)
            while folder:
                folders.setdefault(folder, []).append(removal)
                folder = posixpath.dirname(folder)
        return folders

    def removal(self, path: str) -> tuple[Removal, str | None] | None:
        """The newest commit that removed a path the history had (a file, or every file of a folder), with
        where it went when that commit renamed it to a path that exists now; None if the history never had it."""
        bare = path.rstrip("/")
        found = self.removals.get(bare) if not path.endswith("/") else None
        if found is not None:
            moved = found.renamed_to if found.renamed_to and self.exists(found.renamed_to) else None
            return found, moved
        under = self._removed_folders.get(bare)
        if not under:
            return None
        newest = max(under, key=lambda removal: removal.timestamp)
        moved = None
        if newest.renamed_to:
            inside = newest.path[len(bare) + 1 :]
            if newest.renamed_to.endswith("/" + inside):
                candidate = newest.renamed_to[: -len(inside) - 1]
                moved = candidate + "/" if self.exists(candidate) else None
        return newest, moved

    def untracked_on_purpose(self, path: str) -> bool:
        """Whether a removed path was deleted (not renamed: a rename says where it lives now) and the repository's
        ignore rules ignore it today: build output, a local `.mcp.json`. A folder is, when every file the history
        removed under it was. The deleted files are asked about in one `git check-ignore` a run."""
        ignored = self._once("ignored_deletions", lambda: _quietly(lambda: self.repo.ignored(
            sorted(path for path, removal in self.removals.items() if removal.renamed_to is None)), set()))
        bare = path.rstrip("/")
        if bare in self.removals and not path.endswith("/"):
            return bare in ignored
        under = self._removed_folders.get(bare, ())
        return bool(under) and all(removal.path in ignored for removal in under)

    # -- scripts and targets --------------------------------------------------------------------
    def manifests_of(self, runner: str) -> list[str]:
        """The runner's tracked manifests, listed once a run (each command a note gives asks again)."""
        return self._once(f"manifests {runner}",
                          lambda: sorted(path for path in self.tracked if manifests.is_manifest(runner, path)))

    def _manifest_contents(self, runner: str):
        """Each tracked manifest of the runner's content, read now (None for one that cannot be read)."""
        for path in self.manifests_of(runner):
            try:
                yield read_regular(self.repo.toplevel / path, limit=MAX_MANIFEST_BYTES)
            except OSError:
                yield None

    def definitions(self, runner: str) -> frozenset[str] | None:
        """Every name the runner's tracked manifests define (ANYTHING if one cannot be read completely), read once."""
        return self._once(f"definitions {runner}", lambda: self._definitions(runner))

    def _definitions(self, runner: str) -> frozenset[str] | None:
        names: set[str] = set()
        for content in self._manifest_contents(runner):
            defined = manifests.defined(runner, content) if content is not None else manifests.ANYTHING
            if defined is manifests.ANYTHING:
                return manifests.ANYTHING
            names |= defined
        return frozenset(names)

    def own_packages(self) -> frozenset[str]:
        """The names the tracked package.json files publish their packages under (a monorepo's SDKs)."""
        return self._once("own_packages", lambda: frozenset(filter(None, (
            manifests.package_name(content) for content in self._manifest_contents("npm") if content is not None))))

    def binaries(self) -> frozenset[str]:
        """The binaries the dependencies of the tracked package.json files install (`pnpm tsc` runs one)."""
        return self._once("binaries", lambda: frozenset().union(*(
            manifests.provided_binaries(content) for content in self._manifest_contents("npm") if content is not None)))

    def script_removal(self, runner: str, name: str) -> Removal | None:
        return _quietly(lambda: self._script_removal(runner, name), None)

    def _script_removal(self, runner: str, name: str) -> Removal | None:
        """The newest first-parent commit after which no version of the runner's manifests defines name."""
        assert self.repo is not None
        paths = self.manifests_of(runner)
        changes = self.repo.file_changes(paths) if paths else []
        blobs = self.repo.read_blobs({blob for change in changes for blob in change.blobs.values() if blob})
        current: dict[str, bytes | None] = {}  # each manifest's content after the commits so far
        removed: Removal | None = None
        had = False
        for change in changes:  # oldest first
            for path, blob in change.blobs.items():
                current[path] = blobs.get(blob) if blob else None
            has = any(content is not None and name in (manifests.defined(runner, content) or ())
                      for content in current.values())
            if had and not has:
                removed = Removal(name, change.sha, change.timestamp, self.repo.subject(change.sha), None)
            had = has
        return None if had else removed

    # -- symbols --------------------------------------------------------------------------------
    def holders(self, names: list[str]) -> dict[str, set[str]]:
        """Which tracked files hold each name as a whole word (one `git grep` for the names not asked yet)."""
        assert self.repo is not None
        known = self._answers["holders"]
        wanted = [name for name in dict.fromkeys(names) if name not in known]
        if wanted:
            found = _quietly(lambda: self.repo.grep_words(wanted), None)
            if found is None:  # git could not say: every name counts as held, so none is reported
                return {name: known.get(name, {"?"}) for name in names}
            for name in wanted:
                known[name] = found.get(name, set())
        return {name: known[name] for name in names}

    def symbol_removals(self, names: list[str]) -> dict[str, Removal]:
        """For the names asked, the newest commit that removed a line of code defining each (one `git log -G`
        for the names not asked yet, at most MAX_SYMBOLS_SEARCHED of them in all: the rest stay undecided)."""
        assert self.repo is not None
        known = self._answers["symbol_removals"]
        wanted = [name for name in dict.fromkeys(names) if name not in known]
        wanted = wanted[: max(0, MAX_SYMBOLS_SEARCHED - len(known))]
        if wanted:
            found = _quietly(lambda: self.repo.line_removals(wanted, is_code, Definitions(wanted), _DOC_EXTENSIONS), {})
            for name in wanted:
                known[name] = found.get(name)
        return {name: known[name] for name in names if known.get(name) is not None}

    # -- change since a note --------------------------------------------------------------------
    def touches(self):
        """HEAD's first-parent commits with the paths each changed, newest first, up to TOUCH_WINDOW of them:
        read a page at a time (100, then 4 times more each page), so a note changed lately costs one short `git log`."""
        assert self.repo is not None
        read_so_far: list[Touch] = self._answers["touches"]
        position = 0
        while position < TOUCH_WINDOW:
            if position == len(read_so_far) and not self._answers["touches_done"]:
                page = min(max(100, 3 * len(read_so_far)), TOUCH_WINDOW - position)
                read = _quietly(lambda: self.repo.touches(skip=position, limit=page), [])
                read_so_far.extend(read)
                self._answers["touches_done"] = len(read) < page
            if position >= len(read_so_far):
                return
            yield read_so_far[position]
            position += 1

    @cached_property
    def modified(self) -> frozenset[str]:
        """Paths with changes not yet committed, staged or not (one `git status`)."""
        assert self.repo is not None
        out = self.repo.git("status", "--porcelain", "-z", "--untracked-files=no", check=False).stdout
        paths = set()
        entries = out.split(b"\0")
        index = 0
        while index < len(entries):
            entry = entries[index]
            if len(entry) > 3:
                paths.add(entry[3:].decode("utf-8", "surrogateescape"))
                if entry[:1] in (b"R", b"C"):
                    index += 1  # the rename's source follows
            index += 1
        return frozenset(paths)


def _quietly(read, default):
    """What read() gives, or default when git refuses (a damaged repository): nothing to compare against."""
    try:
        return read()
    except GitError:
        return default


def is_code(path: str) -> bool:
    return not path.lower().endswith(_DOC_EXTENSIONS) and "/" + path.lstrip("/") not in ("/CHANGELOG",)


def facts(ctx) -> RepoFacts:
    """The run's one RepoFacts (the memo shares it between the rules of a pass)."""
    ctx.reads_history()
    root = ctx.workspace.root
    return ctx.memo.get(MEMO_KEY, lambda: RepoFacts.open(root, ctx.run.answers()))

"""Finding workspaces and their memory files: discover -> (profile, config) -> files.

A workspace is a folder with memory in it (MEMORY.md, memory/, .gish/, or only
the files an agent loads whole: CLAUDE.md, AGENTS.md, GEMINI.md) or a
memwarden config. A path given on the command line is either inside one (its
workspace is found by walking up) or a folder holding several (found by
walking down, a few levels deep). Below a workspace root, the dot-folders
agents keep memory in (`.claude/memory/`, `.claude/agent-memory/*/`) are
searched too; an agent-instructions workspace owns only its own root files,
so every folder below it is searched.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from memwarden.discover.carried import carried_reason, named_by
from memwarden.discover.links import forget_real_paths, reached_through_symlink, real_path
from memwarden.discover import config as config_module
from memwarden.agent_files import aider_reads, folder_is_no_file, in_agent_dir
from memwarden.discover.config import Config
from memwarden.documents import Document, load
from memwarden.documents.base import UnreadableDocument
from memwarden.discover.globs import matches_any
from memwarden.errors import UsageError
from memwarden.fileio import read_regular
from memwarden.text import shown_path
from memwarden.discover.roots import (  # noqa: F401 (find_nested_roots, is_workspace_root: this module's face too)
    SKIP_DIRS,
    find_nested_roots,
    find_root,
    is_workspace_root,
    memory_folders_within,
    owns_only_its_root,
)
from memwarden.discover.textfiles import is_text_file
from memwarden.discover.profiles import (
    AGENT_INSTRUCTIONS,
    CLAUDE_CODE,
    OPENCLAW,
    PROFILES,
    Kind,
    Profile,
    detect,
    head_text,
    index_linked_notes,
    looks_like_workspace,
    other_text_kind,
    own_agent_workspace,
    own_memory_folder,
    with_instruction_files,
)

# memwarden's own files in a workspace: its config and its baseline of accepted secrets are not memory.
OWN_FILES = {config_module.CONFIG_NAME, ".memwarden-baseline.json"}
# A Claude Code folder's index, whose links name its notes in subfolders (read up to the most it can usefully hold).
INDEX_NAME = "MEMORY.md"
INDEX_LINKS_READ = 1_000_000


@dataclass
class Workspace:
    root: Path
    profile: Profile
    profile_reason: str
    config: Config
    targets: set[str] | None = None  # workspace-relative paths to report on; None = every file
    overlay: dict[str, bytes] = field(default_factory=dict)  # fixed content not yet written
    unclaimed: set[str] = field(default_factory=set)  # files named on the command line that no kind claims
    proposed: set[str] = field(default_factory=set)  # overlay paths holding content not yet written (stdin)
    _files: dict[str, Kind] | None = None
    _other: dict[str, Kind] | None = None
    _docs: dict[str, Document] = field(default_factory=dict)
    _named_other: dict[str, Kind] = field(default_factory=dict)  # add_other's files, kept through a walk made later
    _linked_notes: frozenset[str] | None = None  # Claude Code: the notes in subfolders its index links to

    # -- files ------------------------------------------------------------
    @property
    def files(self) -> dict[str, Kind]:
        """Every memory file of the workspace, workspace-relative path -> kind."""
        if self._files is None:
            self._scan()
        return self._files

    @property
    def other_files(self) -> dict[str, Kind]:
        """Every other text file of the tree (and every one named on the command line): path -> `other-text` kind.

        No kind claims them, so only the rules that guard every file read them (secrets,
        personal paths, parse errors by extension). An agent-instructions workspace owns only
        the files an agent loads whole: the rest of its folder (a repository's) is not memory.
        """
        if self._other is None or self._files is None:
            self._scan()
        return self._other

    @property
    def checked_files(self) -> dict[str, Kind]:
        """Memory files and other text files: every file a run over the whole workspace reads."""
        return {**self.other_files, **self.files}

    def _scan(self) -> None:
        files: dict[str, Kind] = {}
        other: dict[str, Kind] = {}
        for relpath, kind in self._walk():
            (files if kind.memory else other)[relpath] = kind
        self._files, self._other = files, {**other, **self._named_other}

    def add_other(self, relpath: str) -> Kind | None:
        """A file named on the command line that no kind claims: its `other-text` kind, or None (not text, excluded)."""
        if self._excluded(relpath) or not is_text_file(self.root / relpath, relpath):
            return None
        kind = other_text_kind(relpath)
        self._named_other[relpath] = kind  # no walk for it (a hook names a README among its notes)
        if self._other is not None:
            self._other[relpath] = kind
        return kind

    def excluded(self, relpath: str) -> bool:
        """Whether the config's `exclude` names the file (never checked)."""
        return self._excluded(relpath)

    def _excluded(self, relpath: str) -> bool:
        if not self.config.exclude:
            return False
        return matches_any(self.config_relative(relpath), self.config.exclude)

    def config_relative(self, relpath: str) -> str:
        """A workspace path as seen from the config file's folder (where its globs start)."""
        try:
            return (self.root / relpath).relative_to(self.config.base_dir.resolve()).as_posix()
        except ValueError:
            return relpath

    def _walk(self):
        root = self.root
        owns_tree = self.profile.name != AGENT_INSTRUCTIONS.name
        # A folder os.walk cannot list is yielded as a file no kind claims: its files are unknown, and the
        # document says so (unparsable-file), never silently absent.
        unlisted: list[OSError] = []
        for directory, dirnames, filenames in os.walk(root, onerror=unlisted.append):
            yield from self._unlisted(unlisted)
            rel_dir = Path(directory).relative_to(root).as_posix()
            prefix = "" if rel_dir == "." else rel_dir + "/"
            if (prefix and carried_reason(os.path.basename(directory), dirnames + filenames) is not None
                    and not named_by(self.config_relative(rel_dir), self._configured_globs())):
                dirnames[:] = []  # a tree the workspace carries: someone else's text (see discover.carried)
                continue
            kept = []
            for name in sorted(dirnames):
                relpath = prefix + name
                kind = self.profile.classify(relpath)
                if kind is not None and not self._excluded(relpath) and not folder_is_no_file(relpath):
                    yield relpath, kind  # a folder named like a memory file: reported, not read
                    continue
                if name in SKIP_DIRS or (name.startswith(".") and name != ".gish" and not in_agent_dir(relpath)):
                    continue
                if os.path.islink(os.path.join(directory, name)):
                    continue
                if self.profile.name == CLAUDE_CODE.name and own_memory_folder(Path(directory, name)):
                    continue  # another memory folder, its own workspace (a subagent's)
                if self.profile.name == OPENCLAW.name and own_agent_workspace(Path(directory, name)):
                    continue  # another agent's workspace, its own
                kept.append(name)
            dirnames[:] = kept
            for name in sorted(filenames):
                relpath = prefix + name
                if self._excluded(relpath):
                    continue
                kind = self._classify(relpath)
                if kind is not None:
                    yield relpath, kind
                elif in_agent_dir(relpath):
                    continue  # an agent's dot-folder is entered for its rules files only
                elif owns_tree and name not in OWN_FILES and is_text_file(Path(directory, name), relpath):
                    yield relpath, other_text_kind(relpath)
        yield from self._unlisted(unlisted)

    def _configured_globs(self) -> list[str]:
        return [glob for spec in self.config.kinds.values() for glob in spec.get("globs", ())]

    def _unlisted(self, errors: list[OSError]):
        while errors:
            relpath = Path(os.path.relpath(errors.pop(0).filename or ".", self.root)).as_posix()
            if relpath != "." and not relpath.startswith("../") and not self._excluded(relpath):
                yield relpath, other_text_kind(relpath)

    def _classify(self, relpath: str) -> Kind | None:
        """A file's memory kind by its path, and in a Claude Code folder a note in a subfolder its index links to."""
        kind = self.profile.classify(relpath)
        if kind is None and "/" in relpath and relpath in self._index_links():
            kind = self.profile.kind("note")
        return kind

    def _index_links(self) -> frozenset[str]:
        if self._linked_notes is None:
            self._linked_notes = frozenset()
            if self.profile.name == CLAUDE_CODE.name:
                raw = self.overlay.get(INDEX_NAME)
                index = self.root / INDEX_NAME
                if raw is None and _inside(real_path(index), self.root):  # an index linked from outside is not read
                    try:
                        raw = read_regular(index, limit=INDEX_LINKS_READ)
                    except OSError:
                        raw = None
                self._linked_notes = index_linked_notes(head_text(raw[:INDEX_LINKS_READ])) if raw else frozenset()
        return self._linked_notes

    def claims(self, relpath: str) -> Kind | None:
        """The memory kind of a file, decided from its path alone, as the walk would (no walk: a hook is fast)."""
        folders = relpath.split("/")[:-1]
        hidden = any(name.startswith(".") and name != ".gish" for name in folders)
        if any(name in SKIP_DIRS for name in folders) or (hidden and not in_agent_dir(relpath)):
            return None
        kind = self._classify(relpath)
        return None if kind is None or self._excluded(relpath) else kind

    def propose(self, relpath: str, content: bytes) -> Kind | None:
        """Check content as the file at relpath, which it would replace: an overlay, never written.

        The file becomes the run's one target; the append-only rules compare it with the file on
        disk (see memwarden.analysis.history). Returns its kind, None when the config excludes it.
        """
        if self._excluded(relpath):
            return None
        kind = self.claims(relpath)
        if kind is None:
            kind = other_text_kind(relpath)
            self.other_files[relpath] = kind
            self.unclaimed.add(relpath)
        else:
            self.files[relpath] = kind
        self.overlay[relpath] = content
        self.proposed.add(relpath)
        self.forget(relpath)
        self.targets = {relpath}
        return kind

    def kind_of(self, relpath: str) -> Kind | None:
        """The memory kind of a file (None for a file no kind claims: see :meth:`text_kind_of`)."""
        # The walk classifies each file it finds just so: before it has run (a hook naming a few files),
        # a file's kind needs no walk of thousands of notes.
        kind = self._files.get(relpath) if self._files is not None else None
        if kind is None and (self._files is None or relpath not in self._files):
            kind = self._classify(relpath)
            if kind is not None and self._excluded(relpath):
                return None
        return kind

    def text_kind_of(self, relpath: str) -> Kind | None:
        """The kind a run reads a file as: its memory kind, or `other-text` for another text file it checks."""
        return self.kind_of(relpath) or self._named_other.get(relpath) or self.other_files.get(relpath)

    # -- documents --------------------------------------------------------
    def document(self, relpath: str) -> Document | None:
        if relpath in self._docs:
            return self._docs[relpath]
        kind = self.text_kind_of(relpath)
        if kind is None:
            return None
        full = self.root / relpath
        unlisted = _unlisted_folder(full) if not kind.memory else None
        if unlisted is not None:
            doc: Document = UnreadableDocument(
                self.root, relpath, kind, f"cannot read this folder ({unlisted}): the memory files in it are not checked"
            )
        elif not _inside(real := real_path(full), self.root) and not self._committed_beside(real):
            what = "a symlink to a file" if full.is_symlink() else "reached through a symlinked folder that leads"
            doc = UnreadableDocument(self.root, relpath, kind, f"is {what} outside the workspace; not followed")
        else:
            doc = load(self.root, relpath, kind, self.overlay.get(relpath))
        self._docs[relpath] = doc
        return doc

    def _committed_beside(self, target: Path) -> bool:
        """Whether a symlink's target outside the workspace is a file git tracks in the work tree the workspace is
        committed in (`.claude/CLAUDE.md` -> `../AGENTS.md`): the repository's own file, read as the agent reads it.
        An untracked or ignored file there (`.env`), or one in no repository, is still not followed."""
        tree = self.work_tree
        if tree is None or not _inside(target, real_path(tree)):
            return False
        from memwarden.git import GitError, run_git

        try:
            done = run_git(["ls-files", "--error-unmatch", "-z", "--", str(target.relative_to(real_path(tree)))],
                           real_path(tree), check=False)
        except GitError:  # no git here: whether the file is tracked cannot be read, so it is not followed
            return False
        return done.returncode == 0

    def documents(self, *kinds: str) -> list[Document]:
        """Every document of the given kinds (all kinds when none are named)."""
        return [
            doc
            for relpath, kind in sorted(self.files.items())
            if not kinds or kind.name in kinds
            for doc in [self.document(relpath)]
            if doc is not None
        ]

    def target_documents(self) -> list[Document]:
        names = sorted(self.checked_files) if self.targets is None else sorted(self.targets)
        return [doc for relpath in names for doc in [self.document(relpath)] if doc is not None]

    @property
    def loaded(self) -> set[str]:
        """The paths whose documents are parsed and cached now."""
        return set(self._docs)

    def use_files(self, files: dict[str, Kind]) -> None:  # memory files and other text files
        """Take a file listing already made (a worker process need not walk the tree again)."""
        self._files = {relpath: kind for relpath, kind in files.items() if kind.memory}
        self._other = {relpath: kind for relpath, kind in files.items() if not kind.memory} | self._named_other

    @property
    def work_tree(self) -> Path | None:
        """The git work tree the workspace is committed in (the nearest folder up with .git), or None."""
        return work_tree_of(self.root)

    def same_file_as(self, relpath: str) -> str | None:
        """The other checked path of the file a symlink (or a symlinked folder) leads to, or None: CLAUDE.md linked
        to AGENTS.md is one file, which the rules that read every line report once, at its own path."""
        if not reached_through_symlink(self.root, relpath):
            return None
        try:
            own = real_path(self.root / relpath).relative_to(real_path(self.root)).as_posix()
        except ValueError:
            return None
        return own if own != relpath and own in self.checked_files else None

    def is_target(self, relpath: str) -> bool:
        return self.targets is None or relpath in self.targets

    def display_path(self, relpath: str, cwd: Path) -> str:
        """A workspace path as the user sees it: relative to the folder memwarden runs in, a secret its file or
        folder names hold hidden by its marker, escaped to print. Every output that names a file goes through it."""
        from memwarden.analysis.secrets.paths import hide_in_path

        if relpath and relpath != "." and str(cwd) == str(self.root):
            shown = relpath  # run from the workspace root, as hooks and CI are: nothing to work out per file
        else:
            shown = Path(os.path.relpath(self.root / relpath, cwd)).as_posix()
        return shown_path(hide_in_path(shown))

    def forget(self, relpath: str) -> None:
        """Drop a cached document after its content changed."""
        self._docs.pop(relpath, None)
        if relpath == INDEX_NAME:
            self._linked_notes = None  # its links name the notes in subfolders
        if self._files is not None and relpath not in self._files:
            kind = self._classify(relpath)
            if kind is not None:
                self._files[relpath] = kind

    def checks_path(self, path: Path, own_files: bool = True) -> str | None:
        """The workspace path of a file a run reads (a memory file, another text file it checks, and with
        own_files memwarden's config or baseline), when path names one, existing or not; None otherwise."""
        full = Path(os.path.abspath(path))
        resolved = real_path(full)
        for candidate in (full, resolved):
            try:
                relpath = candidate.relative_to(self.root).as_posix()
            except ValueError:
                continue
            if self.kind_of(relpath) is not None or relpath in self.checked_files or (own_files and full.name in OWN_FILES):
                return relpath
        if os.path.exists(resolved):
            for relpath in self.checked_files:
                try:
                    if os.path.samefile(self.root / relpath, resolved):
                        return relpath
                except OSError:
                    continue
        return None

    def current_bytes(self, relpath: str) -> bytes | None:
        if relpath in self.overlay:
            return self.overlay[relpath]
        try:
            return read_regular(self.root / relpath)
        except OSError:
            return None


def _unlisted_folder(path: Path) -> str | None:
    """Why a folder cannot be listed (None when it is no folder, or can be)."""
    if not os.path.isdir(path):
        return None
    try:
        os.listdir(path)
    except OSError as error:
        return error.strerror or type(error).__name__
    return None


def work_tree_of(root: Path) -> Path | None:
    """The nearest folder at or above root with a .git: the git work tree root is committed in, or None."""
    for directory in [root, *root.parents]:
        if (directory / ".git").exists():
            return directory
    return None


def _inside(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
        return True
    except ValueError:
        return False


def _config_only(root: Path, profile_name: str | None, config_file: Path | None) -> bool:
    """A folder that is a workspace by a config alone, which names no profile, and has no memory of its own
    (a repository root after `init`): not a workspace to report, only the place its config applies from."""
    if profile_name is not None or looks_like_workspace(root):
        return False
    return config_module.load(root.resolve(), config_file).profile is None


def open_workspace(root: Path, profile_name: str | None = None, config_file: Path | None = None,
                   config: Config | None = None) -> Workspace:
    """A workspace at root with its config (given, else found) and profile resolved (flag > config > detection)."""
    forget_real_paths()  # links may have changed since this process last looked (the language server, tests)
    root = root.resolve()
    config = config if config is not None else config_module.load(root, config_file)
    name = profile_name or config.profile
    reason = "set on the command line" if profile_name else "set in " + config.label if name else ""
    if name is None:
        name, reason = detect(root)
        if name is None:
            # A folder that is a workspace by its config alone (a repository root after `init`): it owns
            # only the files an agent loads whole; the memory below it is found as its own workspaces.
            name, reason = AGENT_INSTRUCTIONS.name, "nothing detected here: only the files an agent loads whole"
    if name not in PROFILES:
        raise UsageError(f"unknown profile '{name}'; choose one of {', '.join(PROFILES)}")
    profile = with_instruction_files(PROFILES[name], aider_reads(root))
    if config.kinds:
        profile = profile.with_kinds(_config_kinds(profile, config))
    return Workspace(root=root, profile=profile, profile_reason=reason, config=config)


def _config_kinds(profile: Profile, config: Config) -> dict[str, Kind]:
    kinds: dict[str, Kind] = {}
    for name, spec in config.kinds.items():
        existing = profile.kind(name)
        if existing is None and ("globs" not in spec or "format" not in spec):
            raise UsageError(f"{config.label}: kinds.{name} is a new kind: it needs both 'globs' and 'format'")
        schema = spec.get("schema")
        kinds[name] = Kind(
            name=name,
            format=spec.get("format", existing.format if existing else "markdown"),
            globs=tuple(spec.get("globs", existing.globs if existing else ())),
            description=spec.get("description", existing.description if existing else f"custom kind {name}"),
            exclude=tuple(spec.get("exclude", existing.exclude if existing else ())),
            schema_file=str((config.base_dir / schema).resolve()) if schema else None,
        )
    return kinds


def collect(
    paths: list[Path], profile_name: str | None = None, config_file: Path | None = None
) -> tuple[list[Workspace], list[str]]:
    """Workspaces for the command-line paths, and notes about paths that held none."""
    forget_real_paths()  # a new command: links may have changed since the last one this process ran
    workspaces: dict[Path, Workspace] = {}
    targets: dict[Path, set[str] | None] = {}  # None: every file of the workspace
    notes: list[str] = []

    def workspace(root: Path) -> Workspace:
        root = root.resolve()
        if root not in workspaces:
            workspaces[root] = open_workspace(root, profile_name, config_file)
        return workspaces[root]

    def add(ws: Workspace, relpaths: set[str] | None) -> None:
        if relpaths is None or ws.root not in targets:
            targets[ws.root] = relpaths
        elif targets[ws.root] is not None:
            targets[ws.root] |= relpaths

    for given in paths:
        if not given.exists() and not given.is_symlink():
            raise UsageError(f"{given}: no such file or directory")
        path = given.absolute()
        if path.is_dir() and not path.is_symlink():
            root = find_root(path)
            is_root = is_workspace_root(root) and not _config_only(root, profile_name, config_file)
            if (root == path and not is_root) or (root != path and owns_only_its_root(root)):
                # No workspace here, or one that owns only its root files: look below. The agents load the
                # repository's instruction files whatever folder they work in, so a folder below them finds them too.
                nested = find_nested_roots(path)
                if root != path and is_root:
                    add(workspace(root), None)
                elif not nested:
                    notes.append(
                        f"{given}: no memory workspace found "
                        "(no MEMORY.md, memory/, .gish/, CLAUDE.md, AGENTS.md or GEMINI.md)"
                    )
                for found in nested:
                    add(workspace(found), None)
                continue
            ws = workspace(root)
            inner = real_path(path).relative_to(ws.root).as_posix()
            if inner == ".":
                add(ws, None)
                # Memory in the agents' dot-folders below, which the workspace's own walk skips.
                only_dots = ws.profile.name != AGENT_INSTRUCTIONS.name
                for found in find_nested_roots(path, agent_dirs_only=only_dots) + memory_folders_within(path):
                    add(workspace(found), None)
            else:
                inside = {p for p in ws.files if p.startswith(inner + "/")}
                # A folder the workspace's walk skips (.claude/ in a repository) may hold its own.
                nested = [] if inside else find_nested_roots(path)
                for found in nested:
                    add(workspace(found), None)
                if not nested:
                    add(ws, inside)
            continue
        found_root = find_root(path)
        ws = workspace(found_root)
        relpath = _relative_file(path, ws.root, found_root)
        if ws.kind_of(relpath) is None and not ws._excluded(relpath) and path.name not in OWN_FILES:
            # No kind claims it: still checked for secrets, personal paths and parse errors, and counted.
            if ws.add_other(relpath) is not None:
                ws.unclaimed.add(relpath)
        # A file excluded by the config, or not text: nothing to report.
        add(ws, {relpath} if ws.text_kind_of(relpath) is not None else set())
    for root, ws in workspaces.items():
        ws.targets = targets.get(root)
    return list(workspaces.values()), notes


def open_file_workspace(
    path: Path, profile_name: str | None = None, config_file: Path | None = None
) -> tuple[Workspace, str]:
    """The workspace of one file, which need not exist yet (a proposed write), and the file's workspace path."""
    path = path.absolute()
    found_root = find_root(path)
    ws = open_workspace(found_root, profile_name, config_file)
    return ws, _relative_file(path, ws.root, found_root)


def open_proposed(
    path: Path, content: bytes, profile_name: str | None = None, config_file: Path | None = None,
    listing: Callable[[Workspace], dict[str, Kind]] | None = None,
) -> Workspace:
    """The workspace of path with content proposed for the file (`check --stdin-filename`), its one target.

    listing(ws), when given, is the workspace's file listing made earlier (the language server keeps one per
    workspace: a keystroke must not walk a tree of thousands of notes again)."""
    # The folder as the OS resolves it: `../elsewhere/x.md` is no file of the workspace its lexical parents pass.
    path = Path(os.path.realpath(path.absolute().parent)) / path.name
    ws, relpath = open_file_workspace(path, profile_name, config_file)
    if path.is_dir():
        raise UsageError(f"--stdin-filename {shown_path(str(path))}: that is a folder, not a file")
    if listing is not None:
        ws.use_files(dict(listing(ws)))
    if ws.propose(relpath, content) is None:
        ws.targets = set()  # excluded by the config: nothing to report, as when it is named on the command line
    return ws


def _relative_file(path: Path, root: Path, found_root: Path) -> str:
    # Keep a symlink's own name: the link, not its target, is the memory file.
    try:
        return (real_path(path.parent) / path.name).relative_to(root).as_posix()
    except ValueError:
        # Reached through a symlinked folder that leads out: the path as named, below the folder it was found in.
        return Path(os.path.normpath(path)).relative_to(os.path.normpath(found_root.absolute())).as_posix()

"""Where a path really leads: symlinks followed once a check, and a symlink's view of a file the run reads at
its own path (where the rules that read every line report it, once)."""

from __future__ import annotations

import os
from pathlib import Path

_REAL_PATHS: dict[str, Path] = {}  # a check's answers: links do not change while one runs (forgotten at each start)
_REAL_PATHS_KEPT = 200_000


def real_path(path: Path) -> Path:
    """A path with its symlinks followed as far as they go: a loop or a dangling link never raises. Each path is
    resolved once a check (rules ask for the same documents' real paths again and again: thousands of realpath
    calls, each a walk of the path's folders)."""
    key = os.fspath(path)
    found = _REAL_PATHS.get(key)
    if found is None:
        if len(_REAL_PATHS) >= _REAL_PATHS_KEPT:
            _REAL_PATHS.clear()
        found = _REAL_PATHS[key] = Path(os.path.realpath(path))
    return found


def forget_real_paths() -> None:
    """A new check: links may have changed since the last one (the language server lives across many)."""
    _REAL_PATHS.clear()


def reached_through_symlink(root: Path, relpath: str) -> bool:
    """Whether a workspace path is a symlink or lies in a symlinked folder (cheap: no listing is read)."""
    return real_path(root / relpath) != real_path(root) / relpath


def read_at_its_own_path(workspace, doc) -> bool:
    """Whether a document is a symlink's view of a file this run also reads at its own path, where the rules
    that read every line report it (once), or of a file of the repository outside the workspace, which is read
    for what the agent loads but reported where it lives. Asks the workspace (a dependency under the cache) only
    for a symlink."""
    return path_read_at_its_own_path(workspace, doc.relpath, doc.root)


def path_read_at_its_own_path(workspace, relpath: str, root: Path | None = None) -> bool:
    """:func:`read_at_its_own_path` by a workspace path alone (a rule reading summaries has no document)."""
    root = root if root is not None else workspace.root
    if not reached_through_symlink(root, relpath):
        return False
    if not real_path(root / relpath).is_relative_to(real_path(root)):
        return True  # `.claude/CLAUDE.md` -> `../AGENTS.md`: the repository's file, reported where it lives
    own = workspace.same_file_as(relpath)
    return own is not None and workspace.is_target(own)

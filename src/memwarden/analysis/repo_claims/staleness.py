"""Change-based staleness: which commits after a note's last change touched the paths the note is about."""

from __future__ import annotations

from memwarden.globs import matches
from memwarden.git import Touch

_GLOB_CHARACTERS = set("*?[")


def scope_patterns(front: dict | None) -> tuple[str, ...]:
    """The note's `scope` (top level or under `metadata:`): a path or glob, or a list of them, cleaned."""
    if not isinstance(front, dict):
        return ()
    value = front.get("scope")
    if value is None and isinstance(front.get("metadata"), dict):
        value = front["metadata"].get("scope")
    values = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    cleaned = []
    for item in values:
        if isinstance(item, str) and item.strip():
            text = item.strip()
            cleaned.append(text[2:] if text.startswith("./") else text.lstrip("/"))
    return tuple(dict.fromkeys(cleaned))


def covers(pattern: str, path: str) -> bool:
    """Whether a scope pattern (a file, a folder, or a glob) covers a repository path."""
    if _GLOB_CHARACTERS & set(pattern):
        return matches(path, pattern)
    bare = pattern.rstrip("/")
    return path == bare or path.startswith(bare + "/")


def due_touches(repo, note_path: str, patterns: tuple[str, ...]) -> list[Touch]:
    """The first-parent commits after the note's last change that changed a path its patterns cover,
    newest first; none when the note has uncommitted changes or is not committed."""
    if note_path in repo.modified or note_path not in repo.tracked:
        return []
    due = []
    for touch in repo.touches():  # newest first
        if note_path in touch.paths:
            return due
        if any(covers(pattern, path) for path in touch.paths for pattern in patterns):
            due.append(touch)
    return due  # the note's last change is older than the window read: every commit read is after it

"""Change-based staleness: which commits after a note's last change touched the paths the note is about."""

from __future__ import annotations

import posixpath
import re

from memwarden.globs import is_glob, matches
from memwarden.git import Touch
from memwarden.patterns import LazyPattern

_FULL_DATE = LazyPattern(r"(?<!\d)(?:19|20)\d\d[-_.](?:0[1-9]|1[0-2])[-_.](?:0[1-9]|[12]\d|3[01])(?!\d)")
# Words by which a note calls itself a record of the past rather than a description of the code now.
_RECORD_WORDS = LazyPattern(
    r"(?<![a-z])(?:historical|superseded|lessons?[\s_-]+learned|post[\s_-]?mortem|retrospective|journal"
    r"|(?:session|daily|work|dev)[\s_-]?log)(?![a-z])", re.IGNORECASE)
# A folder of files kept for the record (`archive/frontend-v1/CLAUDE.md`), or of copies taken on a day
# (`backups/2026-03-05_0814/IDENTITY.md`, `backup/MEMORY.md`): they describe the layout of their day.
_ARCHIVED = LazyPattern(r"(?:^|/)[._]?(?:archive[sd]?|attic|backups?)(?:/|$)", re.IGNORECASE)
# Claude Code memory types about the people (their preferences, their role), not about the code.
_ABOUT_PEOPLE = frozenset({"feedback", "user"})
_OPENING_CHARACTERS = 160  # how far into its first line a log entry gives its date
# A date the note was last checked at marks it current: "Last verified 2026-05-06", "As of 2026-05-06".
_CHECKED_ON = LazyPattern(r"\b(?:updated|verified|checked|reviewed|confirmed|as of|current as|last)\b[^.\n]{0,20}$",
                         re.IGNORECASE)


# A heading that starts with its day, as a log's entries do (`## 2025-09-10 — CLAUDE.md cross-check`, `### [2026-01-04]`).
_LOG_ENTRY_HEADING = LazyPattern(r"#{1,6}[ \t]*[\[(]?(?:19|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?!\d)")


def scope_patterns(front: dict | None) -> tuple[str, ...]:
    """The note's `scope` (top level or under `metadata:`): a path or glob, or a list of them, cleaned."""
    if not isinstance(front, dict):
        return ()
    value = _front_value(front, "scope")
    values = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    cleaned = []
    for item in values:
        if isinstance(item, str) and item.strip():
            text = item.strip()
            cleaned.append(text[2:] if text.startswith("./") else text.lstrip("/"))
    return tuple(dict.fromkeys(cleaned))


def _front_value(front: dict, key: str):
    value = front.get(key)
    if value is None and isinstance(front.get("metadata"), dict):
        value = front["metadata"].get(key)
    return value


def _opening(body: str) -> tuple[list[str], str]:
    """The headings above a note's first line of prose, and that line (fenced code and blank lines skipped)."""
    headings: list[str] = []
    fenced = False
    for line in body.split("\n"):
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
        elif stripped and not fenced:
            if not stripped.startswith("#"):
                return headings, stripped
            headings.append(stripped)
    return headings, ""


def is_record(note_path: str, front: dict | None, body: str) -> bool:
    """Whether a note records what happened (a dated log entry or daily note, lessons learned, a note that calls
    itself historical or superseded) or how its people like to work: later changes to the paths it names in
    passing do not make it wrong, so the paths it names do not stand in for a scope."""
    front = front if isinstance(front, dict) else {}
    kind = _front_value(front, "type")
    if isinstance(kind, str) and kind.strip().lower() in _ABOUT_PEOPLE:
        return True
    return tells_history(note_path, front, body)


def tells_history(note_path: str, front: dict | None, body: str) -> bool:
    """Whether a note records what happened: a dated log entry or daily note, lessons learned, a note that calls
    itself historical or superseded. What it said was true on its day; a path gone since is no stale claim."""
    stem = posixpath.splitext(posixpath.basename(note_path))[0]
    folder = posixpath.dirname(note_path)
    if _FULL_DATE.search(stem) or _RECORD_WORDS.search(stem) or _ARCHIVED.search(folder) or _FULL_DATE.search(folder):
        return True
    front = front if isinstance(front, dict) else {}
    name = _front_value(front, "name")
    headings, first_line = _opening(body)
    if any(_RECORD_WORDS.search(text) for text in [*headings, first_line, name if isinstance(name, str) else ""]):
        return True
    if headings and _LOG_ENTRY_HEADING.match(headings[0]):
        return True  # `## 2025-09-10 — cross-check`: the note opens on a dated entry of a log
    dated = _FULL_DATE.search(first_line[:_OPENING_CHARACTERS])
    return dated is not None and not _CHECKED_ON.search(first_line[: dated.start()])


def covers(pattern: str, path: str) -> bool:
    """Whether a scope pattern (a file, a folder, or a glob) covers a repository path."""
    if is_glob(pattern):
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

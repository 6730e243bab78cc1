"""Which memory files take part in an append-only comparison, and as what."""

from __future__ import annotations

from dataclasses import dataclass

from memwarden.kinds import EPISODE_KINDS, Kind

ASSOCIATION_KINDS = ("associations",)
FACT_KINDS = ("facts",)
INDEX_KINDS = ("startup-index", "shelf-index")
NOTE_KINDS = ("note",)

ARCHIVE_SEGMENTS = ("_archive", "archive")

_ARCHIVED_JSONL = Kind("archived-records", "jsonl", (), "records in an archive folder")
_ARCHIVED_YAML = Kind("archived-facts", "yaml", (), "facts in an archive folder")
_ARCHIVED_MARKDOWN = Kind("archived-markdown", "index", (), "a note or index in an archive folder")
_FORMAT_OF_SUFFIX = {"jsonl": "jsonl", "yml": "yaml", "yaml": "yaml", "md": "markdown", "markdown": "markdown"}


def in_archive(relpath: str) -> bool:
    """A path inside an archive folder (`memory/_archive/**`, or any `_archive`/`archive` folder)."""
    return any(part.lower() in ARCHIVE_SEGMENTS for part in relpath.split("/")[:-1])


def archive_root(ws) -> str:
    """The folder a workspace archives into."""
    return "_archive" if ws.profile.name == "claude-code" else "memory/_archive"


@dataclass(frozen=True)
class FileRole:
    group: str  # "records", "facts", "index", "notes"
    kind: Kind
    archived: bool  # lives in an archive folder
    associations: bool = False


def file_role(ws, relpath: str) -> FileRole | None:
    kind = ws.kind_of(relpath)
    name = kind.name if kind is not None else None
    if in_archive(relpath):
        # Whatever its kind, a file in an archive folder is archive: read it for what it keeps.
        suffix = relpath.rsplit(".", 1)[-1].lower() if "." in relpath else ""
        fmt = kind.format if kind is not None else _FORMAT_OF_SUFFIX.get(suffix)
        if fmt == "jsonl":
            return FileRole("records", kind or _ARCHIVED_JSONL, True, associations=name in ASSOCIATION_KINDS)
        if fmt == "yaml" and name in (None, *FACT_KINDS):
            return FileRole("facts", kind or _ARCHIVED_YAML, True)
        if fmt in ("markdown", "index"):
            return FileRole("notes", _ARCHIVED_MARKDOWN, True)
        return None
    if name in EPISODE_KINDS:
        return FileRole("records", kind, name == "episode-archive")
    if name in ASSOCIATION_KINDS:
        return FileRole("records", kind, False, associations=True)
    if name in FACT_KINDS:
        return FileRole("facts", kind, False)
    if name in INDEX_KINDS:
        return FileRole("index", kind, False)
    if name in NOTE_KINDS:
        return FileRole("notes", kind, False)
    return None

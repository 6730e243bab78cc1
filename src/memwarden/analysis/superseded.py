"""Which notes are marked superseded: by their own front matter, or by another note's `supersedes`.

A note is superseded when its front matter (at the top or under `metadata:`)
says `superseded_by: <note>` or `status: superseded` / `deprecated`, or when
another note says `supersedes: <note>` (a path relative to that note, a file
name with or without `.md`, a `[[wikilink]]` or a Markdown link).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from memwarden.documents.scan import find_links, has_scheme, resolve_from

SUPERSEDED_STATUSES = frozenset({"superseded", "deprecated"})
_WIKILINK = re.compile(r"^\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]$")
_WORDS = (b"supersed", b"deprecat")


@dataclass(frozen=True)
class Supersession:
    """Why a note counts as superseded, and by what, as its front matter says."""

    key: str  # "superseded_by", "status", "supersedes" (on another note)
    value: str  # the value as written; for "supersedes", the note that says it
    successor: str | None  # the workspace path of the replacing note, when it can be told


def _may_mention(raw: bytes) -> bool:
    # UTF-16/32 files spell the keys with NUL bytes between letters: parse those to be sure.
    lowered = raw.lower()
    return any(word in lowered for word in _WORDS) or raw[:2] in (b"\xff\xfe", b"\xfe\xff") or raw[:4] == b"\x00\x00\xfe\xff"


def _mappings(front) -> list[dict]:
    if not isinstance(front, dict):
        return []
    metadata = front.get("metadata")
    return [front, metadata] if isinstance(metadata, dict) else [front]


def _values(value) -> list[str]:
    if isinstance(value, str):
        return [value.strip()] if value.strip() else []
    if isinstance(value, list):
        return [item.strip() for item in value if isinstance(item, str) and item.strip()]
    return []


def _note_path(notes: dict[str, str], from_note: str, reference: str) -> str | None:
    """The note a front-matter reference names: a relative path, a file name or stem, a wikilink, a link."""
    wiki = _WIKILINK.match(reference)
    if wiki:
        reference = wiki.group(1).strip()
    links = find_links(reference)
    if links:
        reference = links[0].target
    if not reference or has_scheme(reference):
        return None
    base = posixpath.dirname(from_note)
    for candidate in (reference, reference + ".md"):
        resolved = resolve_from(base, candidate)
        if resolved in notes:
            return resolved
    if "/" in reference:
        return None  # a path that leads nowhere names no note
    stem = reference.removesuffix(".md")
    same_stem = [path for path, name in notes.items() if name == stem]
    return same_stem[0] if len(same_stem) == 1 else None


def superseded_notes(ws) -> dict[str, Supersession]:
    """Every note of the workspace marked superseded, by workspace path."""
    notes = {relpath: posixpath.basename(relpath).removesuffix(".md") for relpath, kind in ws.files.items() if kind.name == "note"}
    own: dict[str, Supersession] = {}  # what a note says of itself wins over what another says of it
    by_others: dict[str, Supersession] = {}
    # Only a note whose bytes mention the words can say so: parse just those (a hook stays fast).
    for relpath in sorted(notes):
        if not _may_mention(ws.current_bytes(relpath) or b""):
            continue
        doc = ws.document(relpath)
        if doc is None or not doc.ok:
            continue
        for mapping in _mappings(getattr(doc, "front_matter", None)):
            for reference in _values(mapping.get("superseded_by")):
                own.setdefault(relpath, Supersession("superseded_by", reference, _note_path(notes, relpath, reference)))
            status = mapping.get("status")
            if isinstance(status, str) and status.strip().casefold() in SUPERSEDED_STATUSES:
                own.setdefault(relpath, Supersession("status", status.strip(), None))
            for reference in _values(mapping.get("supersedes")):
                old = _note_path(notes, relpath, reference)
                if old is not None and old != relpath:
                    by_others.setdefault(old, Supersession("supersedes", relpath, relpath))
    return by_others | own

"""Which notes are marked superseded: by their own front matter, or by another note's `supersedes`.

A note is superseded when its front matter (at the top or under `metadata:`)
says `superseded_by: <note>` or `status: superseded` / `deprecated`, or when
another note says `supersedes: <note>` (a path relative to that note, a file
name with or without `.md`, a `[[wikilink]]` or a Markdown link).
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from memwarden.documents.scan import find_links, has_scheme, resolve_from
from memwarden.patterns import LazyPattern

SUPERSEDED_STATUSES = frozenset({"superseded", "deprecated"})
_WIKILINK = LazyPattern(r"^\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]$")
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


def _unwrapped(reference: str) -> str | None:
    """The path or name a front-matter reference holds (a wikilink's or a link's target), None for a URL."""
    wiki = _WIKILINK.match(reference)
    if wiki:
        reference = wiki.group(1).strip()
    links = find_links(reference)
    if links:
        reference = links[0].target
    if not reference or has_scheme(reference):
        return None
    return reference


def _note_path(notes: dict[str, str], from_note: str, reference: str) -> str | None:
    """The note a front-matter reference names: a relative path, a file name or stem, a wikilink, a link."""
    reference = _unwrapped(reference)
    if reference is None:
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


def supersession_marks(doc) -> list | None:
    """What a note's front matter says of supersession, per mapping (top, then `metadata`):
    [superseded_by values, status, supersedes values]; None for a note that says nothing (a summary:
    under the cache an unchanged note is not parsed again)."""
    if doc is None or not doc.ok:
        return None
    marks = []
    for mapping in _mappings(getattr(doc, "front_matter", None)):
        status = mapping.get("status")
        marks.append([_values(mapping.get("superseded_by")), status if isinstance(status, str) else None,
                      _values(mapping.get("supersedes"))])
    return marks if any(by or status or old for by, status, old in marks) else None


supersession_marks.raw_filter = _may_mention  # only a note whose bytes mention the words is parsed


def superseded_notes(ws, marks: dict[str, list | None]) -> dict[str, Supersession]:
    """Every note of the workspace marked superseded, by workspace path, from each note's
    :func:`supersession_marks` (``ctx.summaries(supersession_marks, "note")``)."""
    notes = {relpath: posixpath.basename(relpath).removesuffix(".md") for relpath, kind in ws.files.items() if kind.name == "note"}
    own: dict[str, Supersession] = {}  # what a note says of itself wins over what another says of it
    by_others: dict[str, Supersession] = {}
    for relpath in sorted(notes):
        for superseded_by, status, supersedes in marks.get(relpath) or ():
            for reference in superseded_by:
                own.setdefault(relpath, Supersession("superseded_by", reference, _note_path(notes, relpath, reference)))
            if isinstance(status, str) and status.strip().casefold() in SUPERSEDED_STATUSES:
                own.setdefault(relpath, Supersession("status", status.strip(), None))
            for reference in supersedes:
                old = _note_path(notes, relpath, reference)
                if old is not None and old != relpath:
                    by_others.setdefault(old, Supersession("supersedes", relpath, relpath))
    return by_others | own


SUPERSESSION_KEYS = ("supersedes", "superseded_by")


@dataclass(frozen=True)
class DanglingReference:
    key: str  # supersedes or superseded_by
    value: str  # as written
    path: tuple  # the JSON path of the key's value (a list item's index included)


def dangling_references(ws, doc) -> list[DanglingReference]:
    """The `supersedes` / `superseded_by` values of a note that name no file of the workspace.

    A value names a file when it resolves (from the note's folder or the workspace root, with or
    without `.md`) to a file that exists, or when its stem is the stem of a Markdown file anywhere in
    the workspace, archives included (a superseded note is usually archived). Prose (a value with
    spaces that is no path) and URLs are not references.
    """
    found = []
    front = getattr(doc, "front_matter", None)
    stems = None
    for prefix, mapping in zip(((), ("metadata",)), _mappings(front)):
        for key in SUPERSESSION_KEYS:
            value = mapping.get(key)
            items = [(value, ())] if isinstance(value, str) else (
                [(item, (i,)) for i, item in enumerate(value)] if isinstance(value, list) else [])
            for item, where in items:
                if not isinstance(item, str) or not item.strip():
                    continue
                reference = _unwrapped(item.strip())
                if reference is None or (" " in reference and not reference.endswith(".md")):
                    continue
                if stems is None:
                    stems = {posixpath.basename(p).removesuffix(".md") for p in (*ws.files, *ws.other_files)
                             if p.endswith(".md")}
                if not _names_a_file(ws, doc.relpath, reference, stems):
                    found.append(DanglingReference(key, item.strip(), (*prefix, key, *where)))
    return found


def _names_a_file(ws, from_note: str, reference: str, stems: set[str]) -> bool:
    for base in (posixpath.dirname(from_note), ""):
        for candidate in (reference, reference + ".md"):
            resolved = resolve_from(base, candidate)
            if resolved.startswith("../") or resolved == "..":
                continue
            if resolved in ws.files or resolved in ws.other_files or (ws.root / resolved).is_file():
                return True
    return posixpath.basename(reference).removesuffix(".md") in stems

"""The long-term records of a workspace, as the coherence rules compare them.

A record is an episode, a note or one mapping of a facts file, with its layer, its date and its
place. Archived episodes and facts, and notes marked superseded, are left out: a replaced belief
that says the opposite of its replacement is the history working as it should.

Reading is built for 100,000 episodes and tens of thousands of notes in one process: an
episode's prose comes from its parsed record (its position inside the line is looked up only
for a record that is reported); a note is read from its bytes: its front matter by the documents'
line reader when it is plain (`documents.markdown.plain_front_matter_values`, held to the YAML
reader by tests/test_fast_path.py), else by the document reader; its body as text with code blocks
and HTML comments blanked out. So a workspace rule never holds every note's parsed document. Facts files are few and small:
they go through `expiry.claim_records` as the claims rules read them.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import gc
import re
from dataclasses import dataclass
from typing import Iterator, Protocol

from memwarden.analysis.expiry import (
    EPISODE_TEXT_FIELDS,
    NOTE_DATE_KEYS,
    claim_records,
    date_prefix,
)
from memwarden.analysis.coherence.statements import sentences
from memwarden.analysis.superseded import superseded_notes
from memwarden.decoding import decode
from memwarden.kinds import EPISODE_KINDS
from memwarden.documents import JsonlDocument, MarkdownDocument, Record, load
from memwarden.documents.markdown import front_matter_values, plain_front_matter_values
from memwarden.documents.scan import comment_spans, front_matter_end
from memwarden.patterns import LazyPattern

_FENCE = LazyPattern(r"^[ \t]{0,3}(```|~~~)[^\n]*\n.*?(?:^[ \t]{0,3}\1[^\n]*$|\Z)", re.M | re.S)


class Piece(Protocol):
    """Prose of a record (expiry.TextPiece, an episode's field, a note's text): text, JSON path, locate."""

    text: str
    json_path: str | None

    def locate(self, offset: int, sentence: str) -> tuple[int, int]: ...


@dataclass(frozen=True, slots=True)
class Place:
    path: str
    line: int
    column: int
    json_path: str | None


@dataclass(slots=True)
class MemoryRecord:
    """One record: where it is, its layer ("fact", "note", "episode"), its date, its prose."""

    layer: str
    # Where it is: a fact's place; a note's path (its place is its first line); an episode's log, whose
    # parsed record (the source) has its line. Built when asked: most records are never reported.
    spot: Place | str | JsonlDocument
    date: dt.date | None
    order: int  # reading order across the workspace: files sorted, records in file order
    source: list[Piece] | Record  # its pieces; for an episode, its parsed record, whose fields make them

    @property
    def place(self) -> Place:
        spot = self.spot
        if isinstance(spot, Place):
            return spot
        if isinstance(spot, str):
            return Place(spot, 1, 1, None)
        return Place(spot.relpath, self.source.line, self.source.column, None)

    @property
    def pieces(self) -> list[Piece]:
        source = self.source
        if isinstance(source, list):
            return source
        data = source.data  # an episode: one piece per text field, made now (the text is the log's own)
        return [_EpisodeField(data[name], self.spot, source, name) for name in _text_fields(data)]

    @property
    def when(self) -> tuple:
        """Sort key for "newer": the record's own date, then reading order (a log is appended to)."""
        return (self.date or dt.date.min, self.order)

    def text(self) -> str:
        return "\n".join(piece.text for piece in self.pieces)

    def sentences(self) -> Iterator[tuple[str, Piece, int]]:
        """(sentence, piece, offset in the piece) for each sentence of the record's prose."""
        for piece in self.pieces:
            for sentence, start in sentences(piece.text):
                yield sentence, piece, start

    def locate(self, piece: Piece, start: int) -> Place:
        line, column = piece.locate(start, piece.text[start:])
        return Place(self.place.path, line, column, piece.json_path)


@contextlib.contextmanager
def bulk() -> Iterator[None]:
    """No cyclic garbage collection while hundreds of thousands of small acyclic objects are built.

    CPython's collector walks every live object each time enough new ones pile up; building the
    records of 100,000 episodes set it off hundreds of times and doubled the time to read them.
    The previous setting is restored on the way out, whatever happens.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def memory_records(ws, marks: dict[str, list | None]) -> list[MemoryRecord]:
    """Every live fact, note and episode of the workspace, in reading order; ``marks`` are the notes'
    :func:`~memwarden.analysis.superseded.supersession_marks` (``ctx.summaries``)."""
    with bulk():
        return _memory_records(ws, marks)


def _memory_records(ws, marks: dict[str, list | None]) -> list[MemoryRecord]:
    superseded = superseded_notes(ws, marks)
    found: list[MemoryRecord] = []
    days: dict[dt.date, dt.date] = {}
    for relpath, kind in sorted(ws.files.items()):
        if kind.name == "note":
            if relpath not in superseded:
                record = note_record(ws, relpath, kind, len(found), days)
                if record is not None:
                    found.append(record)
        elif kind.name in EPISODE_KINDS or kind.name == "facts":
            doc = ws.document(relpath)
            if doc is None or not doc.ok:
                continue
            if isinstance(doc, JsonlDocument) and kind.name in EPISODE_KINDS:
                found.extend(episode_records(doc, len(found)))
            elif kind.name == "facts":
                found.extend(fact_records(doc, ws.profile.name, len(found)))
    return found


# -- episodes -------------------------------------------------------------------------------


_FIELD_PATHS = {name: f"$.{name}" for name in EPISODE_TEXT_FIELDS}  # one string each, not one per episode


class _EpisodeField:
    """One text field of an episode; its line and column are looked up only when asked (a reported record)."""

    __slots__ = ("text", "json_path", "_doc", "_record", "_name")

    def __init__(self, text: str, doc: JsonlDocument, record, name: str):
        self.text, self.json_path, self._doc, self._record, self._name = text, _FIELD_PATHS[name], doc, record, name

    def locate(self, offset: int, sentence: str) -> tuple[int, int]:
        span = self._doc.value_span(self._record, (self._name,))
        if span is None:
            return self._record.line, self._record.column
        source = self._doc.text[span[0] : span[1]]
        at = source.find(sentence[:16], offset) if sentence[:16] else -1
        return self._doc.line_col(span[0] + (at if at != -1 else 0))


def _text_fields(data: dict) -> list[str]:
    return [name for name in EPISODE_TEXT_FIELDS if isinstance(data.get(name), str) and data[name].strip()]


def episode_records(doc: JsonlDocument, order: int) -> list[MemoryRecord]:
    """The live episodes of a log (numbered from ``order``): not archived, with some text."""
    found = []
    days: dict[dt.date, dt.date] = {}  # one date object per day
    for record in doc.records:
        data = record.data
        if not record.ok or not isinstance(data, dict):
            continue
        if doc.kind.name == "episode-archive" or data.get("decay_status") == "archived" or data.get("archived") is True:
            continue
        if _text_fields(data):
            date = date_prefix(data.get("ts")) or date_prefix(data.get("date"))
            date = days.setdefault(date, date) if date is not None else None
            found.append(MemoryRecord("episode", doc, date, order + len(found), record))
    return found


# -- notes --------------------------------------------------------------------------------


_NOT_NEWLINE = LazyPattern(r"[^\n]")


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    """The text with each span's characters but its line breaks turned to spaces: offsets and lines stay."""
    parts, at = [], 0
    for start, end in sorted(spans):
        if start < at:
            start = at
        parts.append(text[at:start])
        parts.append(_NOT_NEWLINE.sub(" ", text[start:end]))
        at = max(at, end)
    parts.append(text[at:])
    return "".join(parts)


class _NoteText:
    """A note's description or body: its text and where it starts in the note; lines counted only when
    asked. The note's whole text is not held: the line its piece starts on and the column there are
    kept, and the piece's own line breaks are the note's (blanked code keeps them). A description's
    offsets run over the note's raw text from where the value starts, so that run is kept instead."""

    __slots__ = ("text", "json_path", "_raw", "_line", "_lead")

    def __init__(self, text: str, json_path: str | None, whole: str, base: int):
        self.text, self.json_path = text, json_path
        line_start = whole.rfind("\n", 0, base) + 1
        self._line, self._lead = whole.count("\n", 0, line_start), base - line_start
        raw = whole[base : base + len(text) + 1] if json_path is not None else None
        self._raw = text if raw is not None and raw.startswith(text) and "\n" not in text else raw

    def locate(self, offset: int, sentence: str) -> tuple[int, int]:
        raw = self.text if self._raw is None else self._raw
        inside = raw.rfind("\n", 0, offset)
        if inside == -1:
            return self._line + 1, self._lead + offset + 1
        return self._line + raw.count("\n", 0, offset) + 1, offset - inside


def _front_matter(ws, relpath: str, kind, raw: bytes, text: str) -> tuple[dict | None, int]:
    """(the description and dates of a note's front matter, where the front matter ends); None when it
    does not parse. Plain front matter is read line by line; any other goes through the document reader."""
    end = front_matter_end(text)
    if not end:
        return {}, 0
    inner = text[text.index("\n") + 1 : text.rfind("\n", 0, end - 1) + 1]  # without the '---' lines
    front = plain_front_matter_values(inner, _NOTE_KEYS)
    if front is None:
        doc = load(ws.root, relpath, kind, raw)
        if not doc.ok or not isinstance(doc, MarkdownDocument):
            return None, end  # unparsable-file's to report
        front = front_matter_values(doc.front_matter or {}, _NOTE_KEYS)
    return front, end


_NOTE_KEYS = (*NOTE_DATE_KEYS, "description")


# A log is history, not a standing record: each entry is true of its own time, and a later one that says otherwise
# records a change. Notes with a date in their path (`memory/2026-02-05.md`, `archive/2026-02/`), in a log's folder,
# and OpenClaw's memory/ (daily notes and the trackers and transcripts kept beside them; its curated memory is the
# root's MEMORY.md) are logs. On the dev halves of batches 7-12 they made nearly all of conflicting-records' false
# alarms; near-duplicate still reads them (a daily note that repeats another was judged a true repeat).
_LOG_PATH = LazyPattern(
    r"(?:\A|/)(?:[^/]*\d{4}-\d{2}[^/]*|sessions?|session[-_]transcripts|transcripts|logs?|daily|journal|"
    r"archived?|_archived?|heartbeats?)(?:/|\Z)",
    re.IGNORECASE,
)


def is_log_note(profile: str, relpath: str) -> bool:
    if profile == "openclaw" and "/" in relpath:
        return True
    return bool(_LOG_PATH.search(relpath))


def standing(records: list[MemoryRecord], profile: str) -> list[MemoryRecord]:
    """The records that are no log notes: what conflicting-records compares (a log repeating itself is still a
    near-duplicate)."""
    return [r for r in records if r.layer != "note" or not is_log_note(profile, r.place.path)]


def note_record(ws, relpath: str, kind, order: int, days: dict) -> MemoryRecord | None:
    """The note as a record (``days``: one date object per day, shared by the notes of a run)."""
    raw = ws.current_bytes(relpath)
    if raw is None:
        return None
    text, _, _, error = decode(raw)
    if text is None or error is not None:
        return None
    front, end = _front_matter(ws, relpath, kind, raw, text)
    if front is None:
        return None
    hidden = [m.span() for m in _FENCE.finditer(text, end)]
    hidden += [(start, stop) for start, stop in comment_spans(text) if start >= end]
    body = _blank(text, hidden) if hidden else text
    pieces = []
    description = front.get("description")
    if isinstance(description, str) and description.strip():
        at = text.find(description[:16], 0, end) if end else -1
        pieces.append(_NoteText(description, "$.description", text, max(at, 0)))
    rest = body[end:]
    if rest.strip():
        pieces.append(_NoteText(rest, None, text, end))
    if not pieces:
        return None
    date = next((_date(front.get(k)) for k in NOTE_DATE_KEYS if _date(front.get(k))), None)
    date = days.setdefault(date, date) if date is not None else None
    return MemoryRecord("note", relpath, date, order, pieces)


def _date(value) -> dt.date | None:
    """A front-matter date, kept by the readers as the text written (a timestamp counts by its date)."""
    return date_prefix(value)


# -- facts --------------------------------------------------------------------------------


def fact_records(doc, profile: str, order: int) -> list[MemoryRecord]:
    found = []
    for record in claim_records(doc, profile):
        if record.place.archived or not record.pieces:
            continue
        first = record.pieces[0]
        line, column = first.locate(0, first.text)
        place = Place(doc.relpath, line, column, first.json_path)
        found.append(MemoryRecord("fact", place, record.place.record_date, order + len(found), record.pieces))
    return found

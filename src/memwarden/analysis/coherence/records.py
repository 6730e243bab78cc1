"""The long-term records of a workspace, as the coherence rules compare them.

A record is an episode, a note or one mapping of a facts file (the same records the claims
rules read, from `expiry.claim_records`), with its layer, its date and its place. Archived
episodes and facts, and notes marked superseded, are left out: a replaced belief that says the
opposite of its replacement is the history working as it should.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Iterator

from memwarden.analysis import negation
from memwarden.analysis.expiry import TextPiece, claim_records
from memwarden.analysis.superseded import superseded_notes

RECORD_KINDS = ("facts", "note", "episodic", "episode-archive")


@dataclass(frozen=True)
class Place:
    path: str
    line: int
    column: int
    json_path: str | None


@dataclass
class MemoryRecord:
    """One record: where it is, its layer ("fact", "note", "episode"), its date, its prose."""

    layer: str
    place: Place
    date: dt.date | None
    order: int  # reading order across the workspace: files sorted, records in file order
    pieces: list[TextPiece]

    @property
    def when(self) -> tuple:
        """Sort key for "newer": the record's own date, then reading order (a log is appended to)."""
        return (self.date or dt.date.min, self.order)

    def text(self) -> str:
        return "\n".join(piece.text for piece in self.pieces)

    def sentences(self) -> Iterator[tuple[str, Place]]:
        for piece in self.pieces:
            for start, end in negation.sentences(piece.text):
                sentence = piece.text[start:end].strip()
                if sentence:
                    line, column = piece.locate(start, piece.text[start:end])
                    yield sentence, Place(self.place.path, line, column, piece.json_path)


def memory_records(ws, layers: tuple[str, ...] = ("fact", "note", "episode")) -> list[MemoryRecord]:
    """Every live record of the given layers, in reading order."""
    kinds = [kind for kind in RECORD_KINDS if _layer_of(kind) in layers]
    superseded = superseded_notes(ws) if "note" in layers else {}
    found: list[MemoryRecord] = []
    for doc in sorted(ws.documents(*kinds), key=lambda d: d.relpath):
        if not doc.ok or doc.relpath in superseded:
            continue
        for record in claim_records(doc, ws.profile.name):
            if record.place.archived or not record.pieces:
                continue
            if record.what == "episode" and record.place.record is not None:
                line, column = record.place.record.line, record.place.record.column
                json_path = None
            elif record.what == "note":
                line, column, json_path = 1, 1, None
            else:
                line, column = record.pieces[0].locate(0, record.pieces[0].text)
                json_path = record.pieces[0].json_path
            place = Place(doc.relpath, line, column, json_path)
            found.append(MemoryRecord(record.what, place, record.place.record_date, len(found), record.pieces))
    return found


def _layer_of(kind: str) -> str:
    return {"facts": "fact", "note": "note"}.get(kind, "episode")

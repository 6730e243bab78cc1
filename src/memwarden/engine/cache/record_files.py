"""What the store's record indexes share (engine/cache/repeat_index.py, engine/cache/conflict_index.py): a record's
place in its file, each file's stamp, a file's live records read again (a log's on some lines only), and
the checksum every row carries.

A record's place is its file and ``pos``: a note's is POS_PER_LINE (its one record); an episode's is
``line * POS_PER_LINE + its rank among the records sharing the line``; a fact's, its rank in its facts
file. Places sort as the records are read (files sorted, then records in file order).
"""

from __future__ import annotations

import zlib

from memwarden.analysis.coherence.records import episode_records, fact_records, is_log_note, note_record
from memwarden.analysis.superseded import superseded_notes
from memwarden.engine.cache.incremental import masked, split_lines
from memwarden.engine.cache.store import stored_name as name, stored_relpath as relpath_of
from memwarden.kinds import EPISODE_KINDS

POS_PER_LINE = 1024  # an episode's place: its line, then its rank among the records sharing the line
UNDATED = "0001-01-01"  # date.min: an undated record sorts first, as `MemoryRecord.when` puts it
REBUILD_SHARE = 0.25  # past this share of the rows to answer again, the whole computation is cheaper


class Garbled(Exception):
    """A row whose checksum does not hold, or that names what the workspace does not have: the kept answers
    are dropped and worked out whole."""


def kept_answers(store, schema, meta_table: str, answer):
    """``answer(connection)`` inside a write transaction of its own (an index must read what it writes), kept
    whole; None when the store cannot answer: it cannot write, an SQL error, or a Garbled row (the meta row is
    then dropped, so the next run works the answers out whole and keeps them)."""
    import sqlite3

    connection = store.begin(schema)
    if connection is None:
        return None
    try:
        found = answer(connection)
    except Garbled:
        connection.execute(f"DELETE FROM {meta_table}")  # noqa: S608 (a fixed table name)
        store.end(keep=True)
        return None
    except sqlite3.Error:
        store.end(keep=False)
        return None
    # The answers stand whether or not they are kept; kept they must be whole (one transaction).
    store.end(keep=True)
    return found


def changed_files(db, files_table: str, stamps: dict[str, str]) -> list[str]:
    """The files whose stamp differs from the one their rows were made from, and those gone since."""
    stored = {relpath_of(n): stamp for n, stamp in db.execute(f"SELECT relpath, stamp FROM {files_table}")}
    return sorted({relpath for relpath in stamps if stored.get(relpath) != stamps[relpath]} | (set(stored) - set(stamps)))


def crc(values) -> int:
    """A row's checksum: its values' bytes, each behind its type, joined."""
    parts = []
    for value in values:
        if value is None:
            parts.append(b"n")
        elif isinstance(value, (bytes, memoryview)):
            parts.append(b"b" + bytes(value))
        elif isinstance(value, int):
            parts.append(b"i%d" % value)
        else:
            parts.append(b"s" + str(value).encode("utf-8", "surrogatepass"))
    return zlib.crc32(b"\x1f".join(parts))


def checked(found, width: int) -> tuple:
    """A row as read, its last column the checksum of the ``width`` before it; Garbled when it does not hold."""
    if crc(found[:width]) != found[width]:
        raise Garbled
    return found


def day_of(record) -> str:
    return record.date.isoformat() if record.date is not None else UNDATED


def ranked(records) -> list[tuple[object, int]]:
    """Each record with its place in its file (see the module's docstring)."""
    result, rank = [], {}
    for record in records:
        if record.layer == "note":
            result.append((record, POS_PER_LINE))
            continue
        if record.layer == "fact":
            key = (record.place.path, None)
            rank[key] = rank.get(key, -1) + 1
            result.append((record, rank[key]))
            continue
        key = (record.spot.relpath, record.source.line)
        rank[key] = rank.get(key, -1) + 1
        result.append((record, record.source.line * POS_PER_LINE + rank[key]))
    return result


class RecordFiles:
    """The workspace's files of some layers ("note", "episode", "fact"), read a file (or some log lines) at a time."""

    def __init__(self, incremental, ws, marks, layers: tuple[str, ...], standing_only: bool = False):
        self.inc, self.ws = incremental, ws
        self.superseded = superseded_notes(ws, marks)
        self.kinds = {relpath: kind for relpath, kind in ws.files.items() if _layer(kind.name) in layers
                      and not (standing_only and kind.name == "note" and is_log_note(ws.profile.name, relpath))}
        self._lines: dict[str, list[bytes] | None] = {}

    def stamp(self, relpath: str) -> str:
        """What a file's rows were made from: its kind, its content, whether it is superseded."""
        kind = self.kinds[relpath]
        state = "superseded" if relpath in self.superseded else "live"
        return f"{kind.name} {self.inc.content_hash(relpath) or 'missing'} {state}"

    def stamps(self) -> dict[str, str]:
        return {relpath: self.stamp(relpath) for relpath in self.kinds}

    def is_log(self, relpath: str) -> bool:
        kind = self.kinds.get(relpath)
        return kind is not None and kind.name in EPISODE_KINDS

    def log_lines(self, relpath: str) -> list[bytes] | None:
        """A log's lines as bytes; None when it cannot be read line by line (it is then read whole)."""
        if relpath not in self._lines:
            raw = self.ws.current_bytes(relpath)
            self._lines[relpath] = split_lines(raw) if raw is not None else None
        return self._lines[relpath]

    def records(self, relpath: str, wanted: set[int] | None):
        """The live records of a file (a log's on the ``wanted`` lines, all when None), and the lines read
        ({number: bytes}; None when the log is read whole)."""
        kind = self.kinds.get(relpath)
        if kind is None or relpath in self.superseded:
            return [], {}
        if kind.name == "note":
            record = note_record(self.ws, relpath, kind, 0, {})
            return ([record] if record is not None else []), {}
        if kind.name == "facts":
            doc = self.ws.document(relpath)
            return (fact_records(doc, self.ws.profile.name, 0) if doc is not None and doc.ok else []), {}
        from memwarden.documents import JsonlDocument, load

        lines = self.log_lines(relpath)
        if lines is None or wanted is None:
            doc = self.ws.document(relpath)
            numbered = dict(enumerate(lines, 1)) if lines is not None else None
        else:
            numbered = {n: lines[n - 1] for n in wanted if 0 < n <= len(lines)}
            doc = load(self.ws.root, relpath, kind, masked(lines, set(numbered)))
        if doc is None or not doc.ok or not isinstance(doc, JsonlDocument):
            return [], numbered
        return episode_records(doc, 0), numbered

    def placed(self, keys) -> dict[tuple, object]:
        """The record at each (relpath, pos), read a file at a time (a log's lines only)."""
        by_file: dict[str, set[int]] = {}
        for relpath, pos in keys:
            by_file.setdefault(relpath, set()).add(pos)
        found = {}
        for relpath, places in by_file.items():
            records, _ = self.records(relpath, {pos // POS_PER_LINE for pos in places} if self.is_log(relpath) else None)
            for record, pos in ranked(records):
                if pos in places:
                    found[(relpath, pos)] = record
        return found


def _layer(kind_name: str) -> str | None:
    if kind_name == "note":
        return "note"
    if kind_name == "facts":
        return "fact"
    return "episode" if kind_name in EPISODE_KINDS else None

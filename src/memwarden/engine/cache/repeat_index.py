"""near-duplicate's answers kept in the store and brought up to date by what changed (issue 28, part 2).

`analysis/coherence/duplicates.py` reads a layer's records oldest first (their date, then their
path and place): a record is a copy of the first earlier record with its normal form, else it is
compared with the earlier records its signature's bands meet, the first `BUCKET_KEEP` of each
band that "reached the buckets" (long enough, the first of their normal form, with content),
at most `CHECK` of them, those met in the most bands first. Every one of those facts is a query on
two indexed tables, so a run under the store keeps each record's sketch and answer:

- ``repeat_rows``: a record's layer, place (path, and ``line * POS_PER_LINE + its rank on the
  line`` for an episode), day, normal form's digest, band keys, its line's digest (a log is read
  line by line) and its answer; a log line with no record has a row with no normal form, so the
  next run knows that line was read;
- ``repeat_bands``: (layer, band, day, path, place) for every band of every record, the index a
  band's first members are read from;
- ``repeat_files``: what each file was (kind, content, superseded or not) when its rows were made.

A run finds the files whose stamp changed, the log lines whose bytes changed, and works out which
answers they can change: the changed records' own; those of every record sharing a normal form
with one (which is the first copy may change); and, for a changed record that is (or was) among
the first members of a band, those of every later record of that band. Everything else keeps its
answer. When most of the workspace changed (or nothing is kept yet) the answers are worked out
whole by `find_repeats` and stored. tests/test_repeat_index.py holds the answers to the whole
computation's, after random edits.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from memwarden.analysis.coherence.duplicates import MIN_NORMAL, Sketch, find_repeats, sketch_of
from memwarden.analysis.coherence.records import Place, memory_records
from memwarden.analysis.coherence.relations import repeats
from memwarden.analysis.coherence.normal import normalise
from memwarden.analysis.coherence.sketch import BUCKET_KEEP, CHECK, most_met
from memwarden.analysis.coherence.statements import statement
from memwarden.engine.cache.record_files import (
    POS_PER_LINE,
    REBUILD_SHARE,
    UNDATED,
    Garbled,
    RecordFiles,
    changed_files,
    checked,
    crc,
    day_of as _day,
    kept_answers,
    name as _name,
    ranked as _ranked,
    relpath_of as _relpath,
)
from memwarden.engine.cache.store import code_fingerprint, digest, line_digest
BAND_BYTES = 9  # a band key: the band's number and two 33-bit values (sketch.band_keys)
LAYERS = ("episode", "note")

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS repeat_rows (relpath BLOB NOT NULL, pos INTEGER NOT NULL, layer TEXT NOT NULL,"
    " day TEXT NOT NULL, normal BLOB, bands BLOB, source BLOB NOT NULL, col INTEGER NOT NULL, answer TEXT,"
    " crc INTEGER NOT NULL, PRIMARY KEY (relpath, pos)) WITHOUT ROWID",
    "CREATE INDEX IF NOT EXISTS repeat_by_normal ON repeat_rows (layer, normal, day, relpath, pos)",
    "CREATE TABLE IF NOT EXISTS repeat_bands (layer TEXT NOT NULL, band BLOB NOT NULL, day TEXT NOT NULL,"
    " relpath BLOB NOT NULL, pos INTEGER NOT NULL, PRIMARY KEY (layer, band, day, relpath, pos)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS repeat_files (relpath BLOB PRIMARY KEY, stamp TEXT NOT NULL) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS repeat_meta (key TEXT NOT NULL)",
)


@dataclass(frozen=True, slots=True)
class Row:
    layer: str
    relpath: str
    pos: int
    day: str
    normal: bytes | None  # None: a log line with no record long enough to compare
    bands: tuple[int, ...] | None
    source: bytes  # an episode's line digest (a note's rows are all made again when its stamp changes)
    column: int

    @property
    def key(self) -> tuple:
        return (self.day, self.relpath, self.pos)

    @property
    def line(self) -> int:
        return self.pos // POS_PER_LINE


@dataclass(frozen=True, slots=True)
class KeptRecord:
    """A record as a kept answer names it: its layer and place (what the rule's message needs)."""

    layer: str
    place: Place


@dataclass(frozen=True, slots=True)
class KeptRepeat:
    later: KeptRecord
    earlier: KeptRecord
    exact: bool


def kept_repeats(incremental, ws, marks, threshold: float, containment: float) -> list[KeptRepeat] | None:
    """Every repeat of the workspace's episodes and notes, as `find_repeats` finds them, from the store
    brought up to date; None when the store cannot answer (the rule then works it out whole)."""
    return kept_answers(incremental.store, SCHEMA, "repeat_meta", lambda connection: _Index(
        connection, incremental, ws, marks, threshold, containment, code_fingerprint()).answers())


def _pack(bands) -> bytes | None:
    return None if bands is None else b"".join(band.to_bytes(BAND_BYTES, "big") for band in bands)


def _unpack(blob) -> tuple[int, ...] | None:
    if blob is None:
        return None
    blob = bytes(blob)
    return tuple(int.from_bytes(blob[i : i + BAND_BYTES], "big") for i in range(0, len(blob), BAND_BYTES))


def _checked(found) -> tuple:
    """A row as read (the columns of _COLUMNS), its checksum held."""
    return checked(found, 9)


def _row(found) -> Row:
    relpath, pos, layer, day, normal, bands, source, column = _checked(found)[:8]
    return Row(layer, _relpath(relpath), pos, day, None if normal is None else bytes(normal), _unpack(bands),
               bytes(source), column)


_COLUMNS = "relpath, pos, layer, day, normal, bands, source, col, answer, crc"
_JOINED = ", ".join("r." + column.strip() for column in _COLUMNS.split(","))


def _log_rows(relpath: str, records, lines: dict[int, bytes] | None, sketches) -> list[Row]:
    """The rows of some lines of a log (``lines``: {number: bytes}; None when the log is read whole, not by
    lines): each record's (``sketches``: record -> Sketch), then, for each line that gives no record to
    compare, a row with no normal form, so that a later run knows the line was read."""
    rows, compared = [], set()
    for record, pos in _ranked(records):
        line = record.source.line
        if lines is not None and line not in lines:
            continue
        sketch = sketches(record)
        if sketch.normal is not None:
            compared.add(line)
            rows.append(Row("episode", relpath, pos, _day(record), sketch.normal, sketch.bands,
                            line_digest(lines[line]) if lines is not None else b"", record.source.column))
    for line, text in (lines or {}).items():
        if line not in compared:
            rows.append(Row("episode", relpath, line * POS_PER_LINE + POS_PER_LINE - 1, UNDATED, None, None,
                            line_digest(text), 1))
    return rows


def _key(row: Row | None) -> tuple | None:
    return row.key if row is not None else None


def _sealed(row: Row, answer) -> tuple:
    values = (_name(row.relpath), row.pos, row.layer, row.day, row.normal, _pack(row.bands), row.source, row.column,
              json.dumps(answer) if answer is not None else None)
    return (*values, crc(values))


class _Index:
    def __init__(self, connection, incremental, ws, marks, threshold, containment, code):
        self.db = connection
        self.inc = incremental
        self.ws = ws
        self.threshold, self.containment = threshold, containment
        self.meta = digest("repeat-index", code, threshold, containment, ws.profile.name,
                           [(k.name, k.format, k.globs, k.exclude) for k in ws.profile.kinds])
        self.marks = marks
        self.files = RecordFiles(incremental, ws, marks, LAYERS)
        self.superseded, self.kinds = self.files.superseded, self.files.kinds
        self._first: dict = {}
        self._buckets: dict = {}

    def answers(self) -> list[KeptRepeat]:
        db = self.db
        stored_meta = db.execute("SELECT key FROM repeat_meta").fetchall()
        stamps = self.files.stamps()
        if stored_meta != [(self.meta,)]:
            return self._rebuild(stamps)
        changed = changed_files(db, "repeat_files", stamps)
        if changed and not self._update(changed, stamps):
            return self._rebuild(stamps)
        return self._read_answers()

    # -- the whole computation ----------------------------------------------------------------------
    def _rebuild(self, stamps: dict[str, str]) -> list[KeptRepeat]:
        db = self.db
        for table in ("repeat_rows", "repeat_bands", "repeat_files", "repeat_meta"):
            db.execute(f"DELETE FROM {table}")  # noqa: S608 (a fixed table name)
        records = [r for r in memory_records(self.ws, self.marks) if r.layer in LAYERS]
        sketches: dict[int, Sketch] = {}
        found = find_repeats(records, self.threshold, self.containment,
                             sketched=lambda record, sketch: sketches.__setitem__(id(record), sketch))
        rows: list[Row] = []
        logs: dict[str, list] = {}
        for record in records:
            if record.layer == "note":
                sketch = sketches[id(record)]
                if sketch.normal is not None:
                    rows.append(Row("note", record.place.path, POS_PER_LINE, _day(record), sketch.normal, sketch.bands,
                                    b"", 1))
            else:
                logs.setdefault(record.spot.relpath, []).append(record)
        for relpath, kind in sorted(self.kinds.items()):
            if self.files.is_log(relpath):
                lines = self.files.log_lines(relpath)
                numbered = dict(enumerate(lines, 1)) if lines is not None else None
                rows.extend(_log_rows(relpath, logs.get(relpath, []), numbered, lambda r: sketches[id(r)]))
        place = {id(record): (record.place.path, pos) for record, pos in _ranked(records)}
        answers = {place[id(repeat.later)]: [repeat.exact, *place[id(repeat.earlier)]] for repeat in found}
        self._insert(rows, answers)
        db.executemany("INSERT INTO repeat_files VALUES (?, ?)", [(_name(r), s) for r, s in stamps.items()])
        db.execute("INSERT INTO repeat_meta VALUES (?)", (self.meta,))
        return self._read_answers()

    def _insert(self, rows: list[Row], answers: dict) -> None:
        self.db.executemany(f"INSERT OR REPLACE INTO repeat_rows ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                            [_sealed(r, answers.get((r.relpath, r.pos))) for r in rows])
        self.db.executemany("INSERT OR REPLACE INTO repeat_bands VALUES (?, ?, ?, ?, ?)",
                            [(r.layer, band.to_bytes(BAND_BYTES, "big"), r.day, _name(r.relpath), r.pos)
                             for r in rows if r.normal is not None and r.bands for band in r.bands])

    def _read_answers(self) -> list[KeptRepeat]:
        found = []
        for stored in self.db.execute(f"SELECT {_COLUMNS} FROM repeat_rows WHERE answer IS NOT NULL"):
            name, pos, layer, _, _, _, _, column, answer, _ = _checked(stored)
            try:
                exact, other, other_pos = json.loads(answer)
                if not (isinstance(other, str) and isinstance(other_pos, int)):
                    raise ValueError
            except (TypeError, ValueError) as error:
                raise Garbled from error
            relpath = _relpath(name)
            if relpath not in self.kinds or other not in self.kinds:
                raise Garbled  # a row naming a file this workspace does not have (planted, or left over)
            later = KeptRecord(layer, Place(relpath, pos // POS_PER_LINE, column, None))
            earlier = KeptRecord(layer, Place(other, other_pos // POS_PER_LINE, 1, None))
            found.append(KeptRepeat(later, earlier, bool(exact)))
        found.sort(key=lambda r: (r.later.place.path, r.later.place.line))
        return found

    # -- reading the files --------------------------------------------------------------------------
    def _texts(self, keys) -> dict[tuple, str]:
        """The text of each record named by (relpath, pos), read a file at a time."""
        return {place: record.text() for place, record in self.files.placed(keys).items()}

    # -- bringing the rows up to date ---------------------------------------------------------------
    def _new_rows(self, relpath: str, old: list[Row]) -> tuple[list[Row], list[Row]]:
        """(the old rows that no longer hold, the rows to put in their place) for a file whose stamp changed."""
        kind = self.kinds.get(relpath)
        if kind is None or relpath in self.superseded:
            return old, []
        if kind.name == "note":
            records, _ = self.files.records(relpath, None)
            rows = []
            for record in records:
                sketch, _ = sketch_of(record.text())
                if sketch.normal is not None:
                    rows.append(Row("note", relpath, POS_PER_LINE, _day(record), sketch.normal, sketch.bands, b"", 1))
            return old, rows
        lines = self.files.log_lines(relpath)
        if lines is None:
            wanted = None
        else:
            was = {row.line: row.source for row in old}
            wanted = {n for n, line in enumerate(lines, 1) if was.get(n) != line_digest(line)}
        records, numbered = self.files.records(relpath, wanted)
        rows = _log_rows(relpath, records, numbered, lambda record: sketch_of(record.text())[0])
        gone = [row for row in old if wanted is None or row.line in wanted or row.line > len(lines)]
        return gone, rows

    def _update(self, changed: list[str], stamps: dict[str, str]) -> bool:
        """Bring the rows and the answers up to date; False when so much changed that the whole computation
        costs less (nothing is written then)."""
        db = self.db
        removed: list[Row] = []
        added: list[Row] = []
        for relpath in changed:
            old = [_row(found) for found in db.execute(f"SELECT {_COLUMNS} FROM repeat_rows WHERE relpath = ?",
                                                       (_name(relpath),))]
            gone, fresh = self._new_rows(relpath, old)
            removed.extend(gone)
            added.extend(fresh)
        total = db.execute("SELECT count(*) FROM repeat_rows WHERE normal IS NOT NULL").fetchone()[0]
        touched = [row for row in removed + added if row.normal is not None]
        if len(touched) > max(64, REBUILD_SHARE * total):
            return False
        normals = {(row.layer, row.normal) for row in touched}
        first_before = {n: self._first_of(*n) for n in normals}
        later_than: set[tuple] = set()  # (layer, band, key): every record of the band after key is answered again
        for row in removed:
            later_than |= self._bands_led(row)
        # A normal form whose first copy changes: the old first leaves the buckets, the new one enters.
        led_before = {n: self._bands_led(first) for n, first in first_before.items() if first is not None}
        self._first, self._buckets = {}, {}  # the state changes now
        self._apply(removed, added)
        for row in added:
            later_than |= self._bands_led(row)
        for n, first in first_before.items():
            now = self._first_of(*n)
            if _key(first) != _key(now):
                later_than |= led_before.get(n, set()) | (self._bands_led(now) if now is not None else set())
        again = {(row.relpath, row.pos): row for row in added if row.normal is not None}
        for layer, normal in normals:
            if _key(first_before[(layer, normal)]) == _key(self._first_of(layer, normal)):
                continue  # the same first copy: the others of that normal form still name it
            for found in db.execute(f"SELECT {_COLUMNS} FROM repeat_rows WHERE layer = ? AND normal = ?", (layer, normal)):
                row = _row(found)
                again[(row.relpath, row.pos)] = row
        for layer, band, key in later_than:
            for found in db.execute(
                    f"SELECT {_JOINED} FROM repeat_bands b"
                    " JOIN repeat_rows r ON r.relpath = b.relpath AND r.pos = b.pos"
                    " WHERE b.layer = ? AND b.band = ? AND (b.day, b.relpath, b.pos) > (?, ?, ?)",
                    (layer, band.to_bytes(BAND_BYTES, "big"), key[0], _name(key[1]), key[2])):
                row = _row(found)
                again[(row.relpath, row.pos)] = row
        if len(again) > max(64, REBUILD_SHARE * total):
            return False
        self._answer_again(list(again.values()))
        db.executemany("INSERT OR REPLACE INTO repeat_files VALUES (?, ?)",
                       [(_name(r), stamps[r]) for r in changed if r in stamps])
        db.executemany("DELETE FROM repeat_files WHERE relpath = ?", [(_name(r),) for r in changed if r not in stamps])
        return True

    def _apply(self, removed: list[Row], added: list[Row]) -> None:
        db = self.db
        db.executemany("DELETE FROM repeat_rows WHERE relpath = ? AND pos = ?", [(_name(r.relpath), r.pos) for r in removed])
        db.executemany("DELETE FROM repeat_bands WHERE layer = ? AND band = ? AND day = ? AND relpath = ? AND pos = ?",
                       [(r.layer, band.to_bytes(BAND_BYTES, "big"), r.day, _name(r.relpath), r.pos)
                        for r in removed if r.normal is not None and r.bands for band in r.bands])
        self._insert(added, {})

    # -- the queries: what duplicates.py's loop knows when it reaches a record -----------------------
    def _first_of(self, layer: str, normal: bytes) -> Row | None:
        """The first record (oldest first) with this normal form."""
        if (layer, normal) not in self._first:
            found = self.db.execute(f"SELECT {_COLUMNS} FROM repeat_rows WHERE layer = ? AND normal = ?"
                                    " ORDER BY day, relpath, pos LIMIT 1", (layer, normal)).fetchone()
            self._first[(layer, normal)] = _row(found) if found is not None else None
        return self._first[(layer, normal)]

    def _reaches_buckets(self, row: Row) -> bool:
        first = self._first_of(row.layer, row.normal)
        return bool(row.bands) and first is not None and first.key == row.key

    def _members(self, layer: str, band: int) -> list[Row]:
        """The first BUCKET_KEEP records of a band that reached the buckets (the band's bucket, whole)."""
        if (layer, band) not in self._buckets:
            members = []
            for found in self.db.execute(
                    f"SELECT {_JOINED} FROM repeat_bands b"
                    " JOIN repeat_rows r ON r.relpath = b.relpath AND r.pos = b.pos"
                    " WHERE b.layer = ? AND b.band = ? ORDER BY b.day, b.relpath, b.pos",
                    (layer, band.to_bytes(BAND_BYTES, "big"))):
                row = _row(found)
                if band not in (row.bands or ()):
                    raise Garbled
                if self._reaches_buckets(row):
                    members.append(row)
                    if len(members) == BUCKET_KEEP:
                        break
            self._buckets[(layer, band)] = members
        return self._buckets[(layer, band)]

    def _bands_led(self, row: Row) -> set[tuple]:
        """(layer, band, key) of each band whose bucket holds this record: the later records of those bands
        met it, or may now."""
        if row.normal is None or not row.bands or not self._reaches_buckets(row):
            return set()
        return {(row.layer, band, row.key) for band in row.bands
                if any(member.key == row.key for member in self._members(row.layer, band))}

    def _answer_again(self, rows: list[Row]) -> None:
        answers: dict[tuple, list | None] = {}
        candidates: dict[tuple, list[Row]] = {}
        by_place = {(row.relpath, row.pos): row for row in rows}
        for row in rows:
            place = (row.relpath, row.pos)
            first = self._first_of(row.layer, row.normal)
            answers[place] = None
            if first is not None and first.key < row.key:
                answers[place] = [True, first.relpath, first.pos]
            elif row.bands:
                met = [m for band in row.bands for m in self._members(row.layer, band) if m.key < row.key]
                candidates[place] = most_met(met, CHECK)
        wanted = {place for place in candidates if candidates[place]}
        texts = self._texts(wanted | {(m.relpath, m.pos) for place in wanted for m in candidates[place]})
        said: dict[tuple, object] = {}

        def statement_of(place):
            if place not in said:
                text = texts.get(place)
                said[place] = statement(text, normalise(text)) if text is not None and len(normalise(text)) >= MIN_NORMAL else None
            return said[place]

        for place in sorted(wanted):
            this = statement_of(place)
            if this is None:
                continue
            for member in candidates[place]:
                other = statement_of((member.relpath, member.pos))
                if other is not None and repeats(other, this, self.threshold, self.containment):
                    answers[place] = [False, member.relpath, member.pos]
                    break
        # Only the answer (and the checksum over it) changes: the row and its bands stay as they are.
        sealed = [_sealed(by_place[place], answer) for place, answer in answers.items()]
        self.db.executemany("UPDATE repeat_rows SET answer = ?, crc = ? WHERE relpath = ? AND pos = ?",
                            [(row[8], row[9], row[0], row[1]) for row in sealed])


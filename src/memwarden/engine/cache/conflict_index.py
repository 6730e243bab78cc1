"""conflicting-records' answers kept in the store and brought up to date by what changed (issue 28, part 2).

What decides an answer in `analysis/coherence/conflicts.py`, and how this index asks it:

- The unit is a statement: a normal form with content, whatever records repeat it. Its **order** is
  where its first sentence stands in reading order (file, record place, piece, sentence: ``conflict_said``
  holds every sentence's place, so the first is one indexed query), and what it says is that first
  sentence's statement (its raw text decides names, a lead and a removed clause: a new first sentence
  with other capitals is a new statement).
- A statement is an **owner** of the pairs each pass gives it (`conflicts.py` names them): a band pass
  and a setting pass compare it with the first KEEP (4) / SETTING_KEEP (32) members, in order, of the
  buckets its own buckets meet (`CappedPass.peers`: a band's two polarity classes) that come before it;
  a removal is compared with the first NAME_KEEP (200) plain users of its removed names, the buckets
  taken from the rarest up, ties by the name. Those sizes are counts over the whole workspace: they are
  rows (``conflict_buckets``, one per statement and bucket), counted when a removal is answered. (Before
  this index the ties went in set order, which the hash seed decides: no answer could be kept for it.)
- A pair is reported at the latest sentence of each statement (date, file, place: one indexed query
  each), unless both are in one record; which pass found it first does not change the finding.

A run finds the files whose stamp changed and the log lines whose bytes changed, swaps their sentences,
and works out which statements **moved** (appeared, went, or got another first sentence). Answered
again: each moved statement, in every pass; for a moved statement that is (or was) among the first
members of a bucket, every later statement meeting that bucket, in that pass (the members before any
other statement did not change, so its answer stands); every removal one of whose names a moved plain
statement uses or used, whole (a count may move the order of its buckets; it is not worked out which
orders did). Everything else keeps its answer.
This is exact, not an approximation: tests/test_conflict_index.py holds the answers to the whole
computation's after random edits. When a quarter of the statements would be answered again, or nothing
is kept yet, the answers are worked out whole (`find_conflicts`' passes) and stored.

Every row carries a CRC-32, and ``conflict_tally`` the answers' XOR and the row counts (a row wiped
whole, checksum and all, shows there). A row that does not hold, or names a file the workspace does not
have, is never an answer: the rule works the answers out whole and the next run makes the index again.
"""

from __future__ import annotations

import functools
import hashlib
import json
import operator
import zlib

from memwarden.analysis.coherence import conflicts
from memwarden.analysis.coherence.conflicts import (
    BANDS, NAME_KEEP, SETTINGS, Conflict, Occurrence, compared, conflict_between, gone_keys, removal_partners,
    user_keys,
)
from memwarden.analysis.coherence.records import bulk, memory_records, standing
from memwarden.analysis.coherence.statements import sentences, statement
from memwarden.engine.cache.record_files import (
    POS_PER_LINE, REBUILD_SHARE, Garbled, RecordFiles, changed_files, checked, crc, day_of, kept_answers, name, ranked, relpath_of,
)
from memwarden.engine.cache.store import code_fingerprint, digest, line_digest

LAYERS = ("episode", "note", "fact")
PASSES = ("band", "removal", "setting")  # the order find_conflicts takes pairs in
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS conflict_said (normal BLOB NOT NULL, relpath BLOB NOT NULL, pos INTEGER NOT NULL,"
    " piece INTEGER NOT NULL, at INTEGER NOT NULL, day TEXT NOT NULL, sentence BLOB NOT NULL, crc INTEGER NOT NULL,"
    " PRIMARY KEY (normal, relpath, pos, piece, at)) WITHOUT ROWID",
    "CREATE INDEX IF NOT EXISTS conflict_said_in ON conflict_said (relpath, pos)",
    "CREATE INDEX IF NOT EXISTS conflict_said_latest ON conflict_said (normal, day, relpath, pos, piece, at)",
    "CREATE TABLE IF NOT EXISTS conflict_lines (relpath BLOB NOT NULL, line INTEGER NOT NULL, digest BLOB NOT NULL,"
    " crc INTEGER NOT NULL, PRIMARY KEY (relpath, line)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS conflict_statements (normal BLOB PRIMARY KEY, relpath BLOB NOT NULL,"
    " pos INTEGER NOT NULL, piece INTEGER NOT NULL, at INTEGER NOT NULL, sentence BLOB NOT NULL, keys TEXT NOT NULL,"
    " answer TEXT, crc INTEGER NOT NULL) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS conflict_buckets (pass TEXT NOT NULL, bucket BLOB NOT NULL, relpath BLOB NOT NULL,"
    " pos INTEGER NOT NULL, piece INTEGER NOT NULL, at INTEGER NOT NULL, normal BLOB NOT NULL,"
    " PRIMARY KEY (pass, bucket, relpath, pos, piece, at)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS conflict_files (relpath BLOB PRIMARY KEY, stamp TEXT NOT NULL) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS conflict_meta (key TEXT NOT NULL)",
    # the answers' tally (`_Statement.tally`, XORed) and how many sentence and bucket rows there are: a row wiped
    # whole, checksum and all, is missed by them
    "CREATE TABLE IF NOT EXISTS conflict_tally (tally INTEGER NOT NULL, said INTEGER NOT NULL, buckets INTEGER NOT NULL)",
)
TABLES = ("conflict_said", "conflict_lines", "conflict_statements", "conflict_buckets", "conflict_files", "conflict_meta",
          "conflict_tally")
CAPPED = {"band": BANDS, "setting": SETTINGS}


def kept_conflicts(incremental, ws, marks, similarity: float) -> list[Conflict] | None:
    """Every conflict of the workspace's records, as `find_conflicts` finds them, from the store brought up
    to date; None when the store cannot answer (the rule then works it out whole)."""
    def answer(connection):
        with bulk():
            return _Index(connection, incremental, ws, marks, similarity).answers()

    return kept_answers(incremental.store, SCHEMA, "conflict_meta", answer)


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def _bucket(kind: str, key) -> bytes:
    """A bucket's key as stored: a band's own bytes and the polarity class; any other key's digest."""
    if kind == "band":
        band, cued = key
        return band.to_bytes(9, "big") + (b"\x01" if cued else b"\x00")
    return _digest(key if isinstance(key, str) else repr(key))


def _peers(kind: str, bucket: bytes) -> tuple[bytes, ...]:
    """The buckets whose members a statement entering ``bucket`` is compared with (`CappedPass.peers`)."""
    return (bucket[:9] + b"\x01", bucket[:9] + b"\x00") if kind == "band" else (bucket,)


def _keys_of(said, entered: dict | None = None) -> dict[str, list[str]]:
    """The buckets a statement enters, by pass ("user": a plain statement's names; "gone": a removal's);
    ``entered``: the capped passes' buckets, when known."""
    entered = entered or {kind.name: kind.enters(said) for kind in CAPPED.values()}
    return {"band": [_bucket("band", k).hex() for k in entered["band"]],
            "setting": [_bucket("setting", k).hex() for k in entered["setting"]],
            "user": sorted(_bucket("user", k).hex() for k in user_keys(said)),
            "gone": sorted(_bucket("gone", k).hex() for k in gone_keys(said))}


class _Statement:
    """A statement's row: its normal form's digest, its first sentence's place and digest, buckets, answers."""

    __slots__ = ("normal", "first", "sentence", "keys", "answer")

    def __init__(self, normal: bytes, first: tuple, sentence: bytes, keys: dict, answer: dict):
        self.normal, self.first, self.sentence, self.keys, self.answer = normal, first, sentence, keys, answer

    @property
    def tally(self) -> int:
        """What this row's answer adds to the answers' tally (0: no answer)."""
        return zlib.crc32(self.normal + json.dumps(self.answer, sort_keys=True).encode()) if self.answer else 0

    def sealed(self) -> tuple:
        relpath, pos, piece, at = self.first
        values = (self.normal, name(relpath), pos, piece, at, self.sentence, json.dumps(self.keys, sort_keys=True),
                  json.dumps(self.answer, sort_keys=True) if self.answer else None)
        return (*values, crc(values))

    @classmethod
    def read(cls, found) -> "_Statement":
        normal, relpath, pos, piece, at, sentence, keys, answer = checked(found, 8)[:8]
        try:
            return cls(bytes(normal), (relpath_of(relpath), pos, piece, at), bytes(sentence), json.loads(keys),
                       json.loads(answer) if answer is not None else {})
        except ValueError as error:
            raise Garbled from error


def _path(record) -> str:
    return record.spot.relpath if record.layer == "episode" else record.place.path


def _said_row(normal: bytes, relpath: str, pos: int, piece: int, at: int, day: str, sentence: bytes) -> tuple:
    values = (normal, name(relpath), pos, piece, at, day, sentence)
    return (*values, crc(values))


class _Index:
    def __init__(self, connection, incremental, ws, marks, similarity):
        self.db, self.ws, self.marks, self.similarity = connection, ws, marks, similarity
        self.files = RecordFiles(incremental, ws, marks, LAYERS, standing_only=True)
        self.meta = digest("conflict-index", code_fingerprint(), similarity, ws.profile.name,
                           [(k.name, k.format, k.globs, k.exclude) for k in ws.profile.kinds])
        self._rows: dict[bytes, _Statement | None] = {}
        self._members: dict[tuple, list] = {}
        self._said: dict[str, object] = {}

    def answers(self) -> list[Conflict]:
        db = self.db
        stamps = self.files.stamps()
        if db.execute("SELECT key FROM conflict_meta").fetchall() != [(self.meta,)]:
            return self._rebuild(stamps)
        changed = changed_files(db, "conflict_files", stamps)
        if changed and not self._update(changed, stamps):
            return self._rebuild(stamps)
        return self._read_answers()

    # -- sentences ------------------------------------------------------------------------------------
    def _statement(self, sentence: str):
        if sentence not in self._said:
            self._said[sentence] = statement(sentence)
        return self._said[sentence]

    def _sentences_of(self, records, firsts: dict | None = None) -> list[tuple]:
        """The rows of conflict_said for some records (``firsts``, when given, is told each normal form's first
        statement met, in the records' order)."""
        rows = []
        for record, pos in ranked(records):
            relpath, day = _path(record), day_of(record)
            for index, piece in enumerate(record.pieces):
                for at, (sentence, _) in enumerate(sentences(piece.text)):
                    said = self._statement(sentence)
                    if compared(said):
                        rows.append(_said_row(_digest(said.normal), relpath, pos, index, at, day, _digest(sentence)))
                        if firsts is not None and rows[-1][0] not in firsts:
                            firsts[rows[-1][0]] = (said, rows[-1])
        return rows

    def _line_rows(self, relpath: str, numbered: dict[int, bytes] | None) -> list[tuple]:
        rows = []
        for line, text in (numbered or {}).items():
            values = (name(relpath), line, line_digest(text))
            rows.append((*values, crc(values)))
        return rows

    # -- the whole computation ----------------------------------------------------------------------
    def _rebuild(self, stamps: dict[str, str]) -> list[Conflict]:
        db = self.db
        for table in TABLES:
            db.execute(f"DELETE FROM {table}")  # noqa: S608 (a fixed table name)
        firsts: dict[bytes, tuple] = {}
        said = self._sentences_of(standing(memory_records(self.ws, self.marks), self.ws.profile.name), firsts)
        db.executemany("INSERT INTO conflict_said VALUES (?, ?, ?, ?, ?, ?, ?, ?)", said)
        for relpath in sorted(self.files.kinds):
            if self.files.is_log(relpath):
                lines = self.files.log_lines(relpath)
                db.executemany("INSERT INTO conflict_lines VALUES (?, ?, ?, ?)",
                               self._line_rows(relpath, dict(enumerate(lines, 1)) if lines is not None else None))
        distinct = [said for said, _ in firsts.values()]
        hashes: dict[str, int] = {}
        entered = {said.normal: {kind.name: kind.enters(said, hashes) for kind in CAPPED.values()} for said in distinct}
        answers: dict[bytes, dict] = {}
        found = {"band": conflicts.capped_pairs(BANDS, distinct, self.similarity, lambda s: entered[s.normal]["band"]),
                 "removal": conflicts.removal_pairs(distinct),
                 "setting": conflicts.capped_pairs(SETTINGS, distinct, self.similarity, lambda s: entered[s.normal]["setting"])}
        for kind, pairs in found.items():
            for a, b, how in pairs:
                owner, partner = (b, a)  # the later of a capped pair, the removal of a removal pair
                answers.setdefault(_digest(owner.normal), {}).setdefault(kind, []).append([_digest(partner.normal).hex(), how])
        db.execute("INSERT INTO conflict_tally VALUES (0, ?, 0)", (len(said),))
        del said
        batch = []  # statements are written a few thousand at a time: their bucket rows are many
        for n, (said, row) in firsts.items():
            batch.append(_Statement(n, (relpath_of(row[1]), *row[2:5]), row[6], _keys_of(said, entered.pop(said.normal)),
                                    answers.get(n, {})))
            if len(batch) == 4096:
                self._put(batch, keep=False)
                batch = []
        self._put(batch, keep=False)
        db.executemany("INSERT INTO conflict_files VALUES (?, ?)", [(name(r), s) for r, s in stamps.items()])
        db.execute("INSERT INTO conflict_meta VALUES (?)", (self.meta,))
        return self._read_answers()

    def _put(self, rows: list[_Statement], keep: bool = True) -> None:
        """Write statements' rows and bucket rows, and count them in the tally (``keep``: and hold them for this run)."""
        self.db.executemany("INSERT OR REPLACE INTO conflict_statements VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                            [row.sealed() for row in rows])
        buckets = sorted((kind, bytes.fromhex(key), name(row.first[0]), *row.first[1:], row.normal)
                         for row in rows for kind, keys in row.keys.items() for key in keys)
        self.db.executemany("INSERT INTO conflict_buckets VALUES (?, ?, ?, ?, ?, ?, ?)", buckets)
        self._retally(functools.reduce(operator.xor, (row.tally for row in rows), 0))
        self.db.execute("UPDATE conflict_tally SET buckets = buckets + ?", (len(buckets),))
        if keep:
            self._rows.update((row.normal, row) for row in rows)

    def _drop(self, row: _Statement) -> None:
        self._retally(row.tally)
        self.db.execute("UPDATE conflict_tally SET buckets = buckets - ?", (sum(map(len, row.keys.values())),))
        place = (name(row.first[0]), *row.first[1:])
        self.db.execute("DELETE FROM conflict_statements WHERE normal = ?", (row.normal,))
        self.db.executemany("DELETE FROM conflict_buckets WHERE pass = ? AND bucket = ? AND relpath = ? AND pos = ?"
                            " AND piece = ? AND at = ?",
                            [(kind, bytes.fromhex(key), *place) for kind, keys in row.keys.items() for key in keys])
        self._rows[row.normal] = None

    def _retally(self, change: int) -> None:
        """XOR ``change`` into the answers' tally (SQLite has no XOR: a | b less a & b)."""
        if change:
            self.db.execute("UPDATE conflict_tally SET tally = (tally | ?) - (tally & ?)", (change, change))

    # -- the queries ----------------------------------------------------------------------------------
    def _row(self, normal: bytes) -> _Statement | None:
        if normal not in self._rows:
            found = self.db.execute("SELECT * FROM conflict_statements WHERE normal = ?", (normal,)).fetchone()
            self._rows[normal] = _Statement.read(found) if found is not None else None
        return self._rows[normal]

    def _first_said(self, normal: bytes) -> tuple | None:
        """(place, sentence digest) of a normal form's first sentence in reading order."""
        found = self.db.execute("SELECT * FROM conflict_said WHERE normal = ? ORDER BY relpath, pos, piece, at LIMIT 1",
                                (normal,)).fetchone()
        if found is None:
            return None
        checked(found, 7)
        return (relpath_of(found[1]), *found[2:5]), bytes(found[6])

    def _bucket_members(self, kind: str, bucket: bytes, after: tuple | None = None, limit: int | None = None) -> list:
        """The statements of a bucket in order (those after a place only, or the first ``limit``), each held to
        its row: a bucket row its statement does not name is damage."""
        query = "SELECT relpath, pos, piece, at, normal FROM conflict_buckets WHERE pass = ? AND bucket = ?"
        arguments: tuple = (kind, bucket)
        if after is not None:
            query += " AND (relpath, pos, piece, at) > (?, ?, ?, ?)"
            arguments += (name(after[0]), *after[1:])
        query += " ORDER BY relpath, pos, piece, at" + (f" LIMIT {int(limit)}" if limit is not None else "")
        members = []
        for relpath, pos, piece, at, normal in self.db.execute(query, arguments):
            row = self._row(bytes(normal))
            if row is None or row.first != (relpath_of(relpath), pos, piece, at) or bucket.hex() not in row.keys.get(kind, ()):
                raise Garbled
            members.append(row)
        return members

    def _first_members(self, kind: str, bucket: bytes) -> list[_Statement]:
        if (kind, bucket) not in self._members:
            self._members[(kind, bucket)] = self._bucket_members(kind, bucket, limit=CAPPED[kind].keep)
        return self._members[(kind, bucket)]

    def _leads(self, row: _Statement) -> set[tuple]:
        """(pass, bucket, place) of each capped bucket among whose first members this statement stands: every
        later statement meeting that bucket met it, or may now."""
        return {(kind, bytes.fromhex(key), row.first) for kind in CAPPED for key in row.keys.get(kind, ())
                if any(member.normal == row.normal for member in self._first_members(kind, bytes.fromhex(key)))}

    # -- bringing the rows up to date ---------------------------------------------------------------
    def _changed_sentences(self, relpath: str) -> tuple[set[tuple], set[tuple]]:
        """(the conflict_said rows that no longer hold, the rows to put in their place) of a file whose stamp
        changed: a log's changed lines only, when it reads line by line; any other file whole."""
        db, encoded = self.db, name(relpath)
        old_lines = {line: bytes(checked(found, 3)[2])
                     for found in db.execute("SELECT * FROM conflict_lines WHERE relpath = ?", (encoded,))
                     for line in (found[1],)}
        lines = self.files.log_lines(relpath) if self.files.is_log(relpath) else None
        if lines is None:
            old = set(db.execute("SELECT * FROM conflict_said WHERE relpath = ?", (encoded,)))
            db.execute("DELETE FROM conflict_lines WHERE relpath = ?", (encoded,))
            records, numbered = self.files.records(relpath, None)
        else:
            wanted = {n for n, line in enumerate(lines, 1) if old_lines.get(n) != line_digest(line)}
            gone = {n for n in old_lines if n > len(lines)}
            old = set()
            for line in wanted | gone:
                old.update(db.execute("SELECT * FROM conflict_said WHERE relpath = ? AND pos >= ? AND pos < ?",
                                      (encoded, line * POS_PER_LINE, (line + 1) * POS_PER_LINE)))
            db.executemany("DELETE FROM conflict_lines WHERE relpath = ? AND line = ?", [(encoded, n) for n in gone])
            records, numbered = self.files.records(relpath, wanted)
        db.executemany("INSERT OR REPLACE INTO conflict_lines VALUES (?, ?, ?, ?)", self._line_rows(relpath, numbered))
        old = {tuple(bytes(v) if isinstance(v, memoryview) else v for v in checked(row, 7)) for row in old}
        return old, set(self._sentences_of(records))

    def _update(self, changed: list[str], stamps: dict[str, str]) -> bool:
        """Bring the rows and the answers up to date; False when so much changed that the whole computation
        costs less."""
        db = self.db
        removed, added = set(), set()
        for relpath in changed:
            old, new = self._changed_sentences(relpath)
            removed |= old - new
            added |= new - old
        total = db.execute("SELECT count(*) FROM conflict_statements").fetchone()[0]
        counts = [tuple(db.execute("SELECT count(*) FROM conflict_said").fetchone() +
                        db.execute("SELECT count(*) FROM conflict_buckets").fetchone())]
        if db.execute("SELECT said, buckets FROM conflict_tally").fetchall() != counts:
            raise Garbled  # rows gone (or planted) that no run removed (or wrote)
        touched = {row[0] for row in removed | added}
        if len(touched) > max(64, REBUILD_SHARE * total):
            return False
        before = {normal: self._row(normal) for normal in touched}
        db.executemany("DELETE FROM conflict_said WHERE normal = ? AND relpath = ? AND pos = ? AND piece = ? AND at = ?",
                       [row[:5] for row in removed])
        db.executemany("INSERT INTO conflict_said VALUES (?, ?, ?, ?, ?, ?, ?, ?)", added)
        db.execute("UPDATE conflict_tally SET said = said + ?", (len(added) - len(removed),))
        moved = {}  # a statement that appeared, went, or has another first sentence -> its first sentence now
        for normal in touched:
            now, was = self._first_said(normal), before[normal]
            if (was is None) != (now is None) or (was is not None and (was.first, was.sentence) != now):
                moved[normal] = now
        gone = [before[normal] for normal in moved if before[normal] is not None]
        leads = set().union(*(self._leads(row) for row in gone))  # the buckets as they were: moved rows not yet dropped
        for row in gone:
            self._drop(row)
        firsts = self._read_said({normal: now[0] for normal, now in moved.items() if now is not None})
        fresh = []
        for normal, now in moved.items():
            if now is not None:
                said = firsts[normal]
                if _digest(said.sentence) != now[1] or _digest(said.normal) != normal:
                    raise Garbled  # the sentence found at the first place is not the one its row names
                fresh.append(_Statement(normal, now[0], now[1], _keys_of(said), {}))
        self._members.clear()
        self._put(fresh)
        for row in fresh:
            leads |= self._leads(row)
        again = {kind: {row.normal for row in fresh} for kind in PASSES}
        for kind, bucket, place in leads:
            for peer in _peers(kind, bucket):
                again[kind].update(member.normal for member in self._bucket_members(kind, peer, after=place))
        users = {key for row in [*fresh, *gone] for key in row.keys.get("user", ())}
        for key in users:
            again["removal"].update(member.normal for member in self._bucket_members("gone", bytes.fromhex(key)))
        if sum(map(len, again.values())) > max(64, REBUILD_SHARE * total * len(PASSES)):
            return False
        self._answer_again(again)
        db.executemany("INSERT OR REPLACE INTO conflict_files VALUES (?, ?)", [(name(r), stamps[r]) for r in changed if r in stamps])
        db.executemany("DELETE FROM conflict_files WHERE relpath = ?", [(name(r),) for r in changed if r not in stamps])
        return True

    def _read_said(self, places: dict[bytes, tuple]) -> dict[bytes, object]:
        """The statement of the sentence at each place ((relpath, pos, piece, at)), read a file at a time."""
        records = self.files.placed({(relpath, pos) for relpath, pos, _, _ in places.values()})
        found = {}
        for normal, (relpath, pos, piece, at) in places.items():
            occurrence = _occurrence(records.get((relpath, pos)), piece, at)
            found[normal] = self._statement(occurrence.sentence)
        return found

    def _answer_again(self, again: dict[str, set[bytes]]) -> None:
        rows = {normal: self._row(normal) for normal in set().union(*again.values())}
        rows = {normal: row for normal, row in rows.items() if row is not None}
        tally = {normal: row.tally for normal, row in rows.items()}
        candidates: dict[tuple, list] = {}
        for kind, normals in again.items():
            for normal in normals & rows.keys():
                row = rows[normal]
                if kind in CAPPED:
                    met = [member for key in row.keys.get(kind, ()) for peer in _peers(kind, bytes.fromhex(key))
                           for member in self._first_members(kind, peer) if member.first < row.first]
                    candidates[(kind, normal)] = list({member.normal: member for member in met}.values())
        removals = {normal: rows[normal] for normal in again["removal"] & rows.keys() if rows[normal].keys.get("gone")}
        said = self._read_said({row.normal: row.first for row in removals.values()})
        buckets: dict[bytes, list] = {}
        for normal in removals:
            buckets[normal] = []
            for key in gone_keys(said[normal]):
                encoded = _bucket("user", key)
                count = self.db.execute("SELECT count(*) FROM conflict_buckets WHERE pass = 'user' AND bucket = ?",
                                        (encoded,)).fetchone()[0]
                if count:
                    buckets[normal].append((count, key, self._bucket_members("user", encoded, limit=NAME_KEEP)))
        wanted = {m.normal: m.first for found in candidates.values() for m in found}
        wanted.update((m.normal, m.first) for found in buckets.values() for _, _, members in found for m in members)
        wanted.update((row.normal, row.first) for (_, normal), row in ((key, rows[key[1]]) for key in candidates))
        said.update(self._read_said({n: place for n, place in wanted.items() if n not in said}))
        for (kind, normal), members in candidates.items():
            pass_ = CAPPED[kind]
            rows[normal].answer[kind] = [[member.normal.hex(), how] for member in members
                                         if (how := pass_.check(said[member.normal], said[normal], self.similarity))]
        for normal, found in buckets.items():
            statements = [(count, key, [said[m.normal] for m in members]) for count, key, members in found]
            rows[normal].answer["removal"] = [[_digest(kept.normal).hex(), how]
                                              for kept, _, how in removal_partners(said[normal], statements)]
        for kind, normals in again.items():
            for normal in normals & rows.keys():
                if not rows[normal].answer.get(kind):
                    rows[normal].answer.pop(kind, None)
        self._retally(functools.reduce(operator.xor, (tally[normal] ^ row.tally for normal, row in rows.items()), 0))
        sealed = [row.sealed() for row in rows.values()]
        self.db.executemany("UPDATE conflict_statements SET answer = ?, crc = ? WHERE normal = ?",
                            [(found[7], found[8], found[0]) for found in sealed])

    # -- the answers --------------------------------------------------------------------------------
    def _read_answers(self) -> list[Conflict]:
        pairs: dict[frozenset, tuple] = {}
        rank = {kind: index for index, kind in enumerate(PASSES)}
        tally = 0
        for found in self.db.execute("SELECT * FROM conflict_statements WHERE answer IS NOT NULL"):
            row = _Statement.read(found)
            tally ^= row.tally
            try:
                for kind, partners in row.answer.items():
                    for partner, how in partners:
                        pair = frozenset((row.normal, bytes.fromhex(partner)))
                        if len(pair) != 2 or not isinstance(how, str):
                            raise ValueError
                        if pair not in pairs or rank[kind] < pairs[pair][0]:
                            pairs[pair] = (rank[kind], how)
            except (KeyError, TypeError, ValueError) as error:
                raise Garbled from error  # an answer no run of this index writes
        if self.db.execute("SELECT tally FROM conflict_tally").fetchall() != [(tally,)]:
            raise Garbled  # an answer gone, or one no run wrote
        latest = {}
        for normal in set().union(*pairs) if pairs else ():
            found = self.db.execute("SELECT * FROM conflict_said WHERE normal = ?"
                                    " ORDER BY day DESC, relpath DESC, pos DESC, piece DESC, at DESC LIMIT 1",
                                    (normal,)).fetchone()
            if found is None:
                raise Garbled  # an answer naming a statement no sentence says
            checked(found, 7)
            relpath = relpath_of(found[1])
            if relpath not in self.files.kinds:
                raise Garbled  # a row naming a file this workspace does not have (planted, or left over)
            latest[normal] = ((found[5], relpath, found[2]), (relpath, *found[2:5]), bytes(found[6]))
        records = self.files.placed({place[:2] for _, place, _ in latest.values()})
        occurrences = {}
        for normal, (when, (relpath, pos, piece, at), sentence) in latest.items():
            occurrences[normal] = _occurrence(records.get((relpath, pos)), piece, at)
            if _digest(occurrences[normal].sentence) != sentence:
                raise Garbled
        whens = {id(occurrences[n]): latest[n][0] for n in latest}
        result = []
        for pair, (_, how) in pairs.items():
            a, b = sorted(pair)
            found = conflict_between(occurrences[a], occurrences[b], how, when=lambda o: whens[id(o)])
            if found is not None:
                result.append(found)
        result.sort(key=lambda c: (c.newer.record.place.path, whens[id(c.newer)][1:], c.newer.start))
        return result


def _occurrence(record, piece: int, at: int) -> Occurrence:
    """The sentence at a place of a record read again; Garbled when the record has no such sentence."""
    try:
        text_piece = record.pieces[piece]
        sentence, start = list(sentences(text_piece.text))[at]
    except (AttributeError, IndexError, TypeError) as error:
        raise Garbled from error
    return Occurrence(record, text_piece, start, sentence)

"""Pairs of records that say opposite things: the sentences of every record, bucketed, then compared.

Every sentence of every live record is reduced to a statement (`statements.py`). Sentences
with the same normal form are one statement, read once, however many records repeat them.
Statements are bucketed by their content (MinHash bands, `sketch.py`), so a sentence is compared
only with sentences about the same things; within a bucket a pair is compared only when it can
be a conflict at all (one side with a polarity cue and one without, or two plain statements
with amounts), and only then is the negative-claim detector asked for its verdict. Removals
("BigQuery was phased out") share a name, not wording, with what they contradict: they are
bucketed by the names they remove.

Each pass names a pair's "owner": the later statement of a band or setting pair, the removal of a
removal pair. What an owner is paired with depends only on the statements that precede it and the
buckets it meets (`enters`, `peers`, `removal_partners`): engine/cache/conflict_index.py answers the same
questions from indexed tables, owner by owner, and must agree with this whole computation.
"""

from __future__ import annotations

import itertools
import posixpath
from dataclasses import dataclass
from typing import Callable, Iterable

from memwarden.analysis.coherence.records import MemoryRecord, Piece, Place, bulk
from memwarden.analysis.coherence.relations import (
    CJK_SAME,
    LONGEST,
    REMOVAL,
    VALUE,
    cjk_head,
    conflict,
    han_grams,
    removal,
    setting_value,
)
from memwarden.analysis.coherence.sketch import band_keys, signature
from memwarden.analysis.coherence.statements import Statement, sentences, statement
from memwarden.patterns import LazyPattern

KEEP = 4  # statements kept per band bucket and polarity class: enough to find one counterpart
NAME_KEEP = 200  # plain statements a removal is compared with, through its rarest name
SETTING_KEEP = 32  # statements kept per setting bucket (a leading name and a unit, or a versioned name)
MIN_CONTENT = 2  # a statement with less content is no statement of these passes


@dataclass(frozen=True, slots=True)
class Occurrence:
    record: MemoryRecord
    piece: Piece
    start: int  # the sentence's offset in the piece
    sentence: str

    @property
    def place(self) -> Place:
        return self.record.locate(self.piece, self.start)


@dataclass(frozen=True, slots=True)
class Conflict:
    newer: Occurrence
    older: Occurrence
    how: str  # relations.NEGATION or relations.VALUE


def compared(said: Statement) -> bool:
    """Whether a statement takes part in the passes: enough content, and no heading (a section's name
    claims nothing; "## Phase 1" and "## Phase 2" are two sections, not two values)."""
    return len(said.content) >= MIN_CONTENT and not said.heading


_DAY_IN_NAME = LazyPattern(r"(?<!\d)\d{4}-\d{2}-\d{2}(?!\d)")


def logged_day(record: MemoryRecord) -> str | None:
    """The day a log entry was written: an episode's date, a daily note's (the date its file name
    carries: memory/2026-03-04.md); None for a fact or any other note, which holds until changed."""
    if record.layer == "episode":
        return record.date.isoformat() if record.date is not None else None
    if record.layer == "note":
        found = _DAY_IN_NAME.search(posixpath.basename(record.place.path))
        return found.group() if found else None
    return None


def _apart_in_time(a: MemoryRecord, b: MemoryRecord) -> bool:
    """Two log entries written at two times: of two days, or two daily notes (a day's session summary
    and its heartbeat log are two entries of that day). What changed between them is history."""
    day_a, day_b = logged_day(a), logged_day(b)
    if day_a is None or day_b is None:
        return False
    return day_a != day_b or (a.layer == "note" and b.layer == "note")


def _comparable(a: Statement, b: Statement) -> bool:
    return a.cued != b.cued or (not a.cued and not b.cued and bool(a.values) and bool(b.values))


# -- the two capped passes: a statement enters buckets, and is compared with the first members of the
# buckets its own ones meet that came before it ------------------------------------------------------


@dataclass(frozen=True)
class CappedPass:
    name: str
    keep: int  # members a bucket keeps: the first ones, in reading order
    enters: Callable[[Statement, dict], list]  # the buckets a statement enters (each at most once); a dict of hashes
    peers: Callable[[tuple], tuple]  # the buckets whose members a statement entering this one is compared with
    check: Callable[[Statement, Statement, float], str | None]  # (earlier, later, similarity) -> how, or None


def _band_buckets(found: Statement, hashes: dict | None = None) -> list:
    sig = signature(found.content, hashes)
    return [] if sig is None else [(band, found.cued) for band in band_keys(sig)]


def _band_check(other: Statement, found: Statement, similarity: float) -> str | None:
    return conflict(other, found, similarity) if _comparable(found, other) else None


def _setting_buckets(said: Statement, hashes: dict | None = None) -> list:
    """What a pair giving one setting two values in other words (`relations.setting_value`) must share
    whatever its wording: the leading name (or CJK head) and the unit of its one amount, or a versioned
    name; [] for a statement no such pair holds (cued, no amount, too long)."""
    if said.cued or not said.values or len(said.sentence) > LONGEST:
        return []
    keys = [("version", name) for name, _, _ in said.versioned]
    units = [value for value in said.values if value[1]]
    head = said.lead or cjk_head(said.normal)
    if len(units) == 1 and head:
        keys.append(("unit", head, units[0][1]))
    return list(dict.fromkeys(keys))  # a name versioned twice is one bucket, and takes one place in it


def _setting_check(other: Statement, said: Statement, similarity: float) -> str | None:
    return VALUE if setting_value(other, said) else None


BANDS = CappedPass("band", KEEP, _band_buckets, lambda key: ((key[0], True), (key[0], False)), _band_check)
SETTINGS = CappedPass("setting", SETTING_KEEP, _setting_buckets, lambda key: (key,), _setting_check)
CAPPED = (BANDS, SETTINGS)


def capped_pairs(kind: CappedPass, found_in_order: Iterable[Statement], similarity: float,
                 entered_by=None) -> list[tuple[Statement, Statement, str]]:
    """Each (earlier, later, how) a capped pass finds, statements read in reading order (``entered_by``, when
    given, says which buckets each enters: what `kind.enters` would)."""
    buckets: dict[tuple, list[Statement]] = {}
    pairs = []
    hashes: dict[str, int] = {}  # a word's CRC-32, once a run: words recur from statement to statement
    for found in found_in_order:
        entered = kind.enters(found, hashes) if entered_by is None else entered_by(found)
        compared: set[str] = set()
        for key in entered:
            for peer in kind.peers(key):
                for other in buckets.get(peer, ()):
                    if other.normal in compared:
                        continue
                    compared.add(other.normal)
                    how = kind.check(other, found, similarity)
                    if how:
                        pairs.append((other, found, how))
        for key in entered:
            members = buckets.setdefault(key, [])
            if len(members) < kind.keep:
                members.append(found)
    return pairs


# -- removals: bucketed by the names removed, the rarest names first --------------------------------


def user_keys(said: Statement) -> frozenset:
    """The names and short Han runs by which a removal finds a plain statement that uses them."""
    if said.removal or said.cued:
        return frozenset()
    if len(said.sentence) <= LONGEST:
        return said.names | han_grams(said.normal)
    return said.names


def gone_keys(said: Statement) -> frozenset:
    """What a removal statement says is gone: its names and, since CJK writes a removed thing with no
    capitals, the runs of Han characters of its removed clause."""
    return said.names | han_grams(said.removed_clause) if said.removal else frozenset()


def removal_partners(removed: Statement, buckets: Iterable[tuple[int, str, list]]) -> list[tuple[Statement, Statement, str]]:
    """The pairs a removal makes with plain statements that name what it removes: ``buckets`` holds
    (how many plain statements use the key, the key, its first NAME_KEEP users in reading order) for
    each of its `gone_keys` some statement uses. At most NAME_KEEP users are compared, those of its
    rarest keys first (ties by the key): a name that hundreds of plain records use ("GitHub") is a
    platform, not what one removal is about."""
    ordered = sorted(buckets, key=lambda bucket: (bucket[0], bucket[1]))
    pairs, seen = [], set()
    for kept in itertools.islice(itertools.chain.from_iterable(users for _, _, users in ordered), NAME_KEEP):
        if kept.normal in seen:
            continue
        seen.add(kept.normal)
        if removal(removed, kept):
            pairs.append((kept, removed, REMOVAL))
    return pairs


def removal_pairs(found: list[Statement]) -> list[tuple[Statement, Statement, str]]:
    gone = [s for s in found if s.removal]
    if not gone:
        return []
    wanted = frozenset().union(*(gone_keys(s) for s in gone))
    users: dict[str, list[Statement]] = {}
    for said in found:
        for key in user_keys(said) & wanted:
            users.setdefault(key, []).append(said)
    pairs = []
    for removed in gone:
        pairs.extend(removal_partners(removed, [(len(users[key]), key, users[key][:NAME_KEEP])
                                                for key in gone_keys(removed) if key in users]))
    return pairs


# -- the whole computation ------------------------------------------------------------------------


def statement_pairs(distinct: list[Statement], similarity: float) -> list[tuple[Statement, Statement, str]]:
    """Each pair of distinct statements (in reading order of their first sentence) that contradict each
    other, once, whichever pass finds it first."""
    pairs, known = [], set()
    found = itertools.chain(capped_pairs(BANDS, distinct, similarity), removal_pairs(distinct), capped_pairs(SETTINGS, distinct, similarity))
    for a, b, how in found:
        if frozenset((a.normal, b.normal)) not in known:
            known.add(frozenset((a.normal, b.normal)))
            pairs.append((a, b, how))
    return pairs


def conflict_between(first: Occurrence, second: Occurrence, how: str, when=lambda found: found.record.when) -> Conflict | None:
    """The pair's conflict, the newer record (by ``when``) first; None for a record that corrects itself in
    its own text ("not X; since v2, X"): that is one record; None for two log entries written at two
    times (`_apart_in_time`): a log says what happened when, and a value that changed is history."""
    if first.record is second.record:
        return None
    if _apart_in_time(first.record, second.record):
        return None
    newer, older = (first, second) if when(first) > when(second) else (second, first)
    return Conflict(newer, older, how)


def find_conflicts(records: list[MemoryRecord], similarity: float = CJK_SAME) -> list[Conflict]:
    """Each pair of records with opposite statements, the newer one first."""
    with bulk():
        return _find_conflicts(records, similarity)


def _find_conflicts(records: list[MemoryRecord], similarity: float) -> list[Conflict]:
    # A text that many records repeat word for word (a template, a copied lesson) is cut into
    # sentences once, its latest record speaking for it: its sentences are the same. The texts are
    # read in the order they first appear, so statements are met in reading order, as before.
    latest_piece: dict[str, tuple[tuple, MemoryRecord, Piece]] = {}
    for record in records:
        for index, piece in enumerate(record.pieces):
            seen_piece = latest_piece.get(piece.text)
            if seen_piece is None or (record.when, index) >= seen_piece[0]:
                latest_piece[piece.text] = ((record.when, index), record, piece)
    statements: dict[str, Statement] = {}
    latest: dict[str, tuple[tuple, Occurrence]] = {}
    for text, (when, record, piece) in latest_piece.items():
        for position, (sentence, start) in enumerate(sentences(text)):
            found = statements.get(sentence)
            if found is None:
                found = statements[sentence] = statement(sentence)
            seen = latest.get(found.normal)
            if seen is None or (*when, position) >= seen[0]:
                latest[found.normal] = ((*when, position), Occurrence(record, piece, start, sentence))
    del latest_piece
    distinct: dict[str, Statement] = {}
    for found in statements.values():
        if compared(found) and found.normal not in distinct:
            distinct[found.normal] = found
    result = []
    for a, b, how in statement_pairs(list(distinct.values()), similarity):
        found = conflict_between(latest[a.normal][1], latest[b.normal][1], how)
        if found is not None:
            result.append(found)
    result.sort(key=lambda c: (c.newer.record.place.path, c.newer.record.order, c.newer.start))
    return result

"""Pairs of records that say opposite things: the sentences of every record, bucketed, then compared.

Every sentence of every live record is reduced to a statement (`statements.py`). Sentences
with the same normal form are one statement, read once, however many records repeat them.
Statements are bucketed by their content (MinHash bands, `sketch.py`), so a sentence is compared
only with sentences about the same things; within a bucket a pair is compared only when it can
be a conflict at all (one side with a polarity cue and one without, or two plain statements
with amounts), and only then is the negative-claim detector asked for its verdict. Removals
("BigQuery was phased out") share a name, not wording, with what they contradict: they are
bucketed by the names they remove.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Iterable

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

KEEP = 4  # statements kept per band bucket and polarity class: enough to find one counterpart
NAME_KEEP = 200  # plain statements a removal is compared with, through its rarest name
SETTING_KEEP = 32  # statements kept per setting bucket (a leading name and a unit, or a versioned name)


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


def _comparable(a: Statement, b: Statement) -> bool:
    return a.cued != b.cued or (not a.cued and not b.cued and bool(a.values) and bool(b.values))


def _removals(found: Iterable[Statement], known: set[tuple[str, str]]) -> list[tuple[Statement, Statement, str]]:
    """Removals against plain statements that name the same thing, bucketed by the names removed.

    Only the names of removal statements make buckets, and a removal is compared with at most
    NAME_KEEP plain statements, those of its rarest names first: a name that hundreds of plain
    records use ("GitHub") is a platform, not what one removal is about.
    """
    gone = [s for s in found if s.removal]
    if not gone:
        return []
    wanted = {name for s in gone for name in s.names}
    # a removed thing CJK writes has no capitals: its runs of Han characters are its names here
    grams = {s.normal: han_grams(s.removed_clause) for s in gone}
    wanted_grams = set().union(*grams.values())
    users: dict[str, list[Statement]] = {}
    for s in found:
        if not s.removal and not s.cued:
            for name in s.names & wanted:
                users.setdefault(name, []).append(s)
            if wanted_grams and len(s.sentence) <= LONGEST:
                for gram in han_grams(s.normal) & wanted_grams:
                    users.setdefault(gram, []).append(s)
    pairs = []
    for removed in gone:
        keys = removed.names | grams[removed.normal]
        buckets = sorted((users[key] for key in keys if key in users), key=len)
        seen: set[str] = set()
        for kept in itertools.islice(itertools.chain.from_iterable(buckets), NAME_KEEP):
            if kept.normal in seen or (kept.normal, removed.normal) in known or (removed.normal, kept.normal) in known:
                continue
            seen.add(kept.normal)
            if removal(removed, kept):
                pairs.append((kept, removed, REMOVAL))
    return pairs


def _settings(found: Iterable[Statement], known: set[tuple[str, str]]) -> list[tuple[Statement, Statement, str]]:
    """Plain statements that may give one setting two values in other words (`relations.setting_value`),
    bucketed by what such a pair must share whatever its wording: the leading name (or CJK head) and
    the unit of its one amount, or a versioned name. Each bucket keeps its first SETTING_KEEP members."""
    buckets: dict[tuple, list[Statement]] = {}
    pairs = []
    for said in found:
        if said.cued or not said.values or len(said.sentence) > LONGEST:
            continue
        keys = [("version", name) for name, _, _ in said.versioned]
        units = [value for value in said.values if value[1]]
        head = said.lead or cjk_head(said.normal)
        if len(units) == 1 and head:
            keys.append(("unit", head, units[0][1]))
        compared: set[str] = set()
        for key in keys:
            members = buckets.setdefault(key, [])
            for other in members:
                if other.normal in compared or (other.normal, said.normal) in known or (said.normal, other.normal) in known:
                    continue
                compared.add(other.normal)
                if setting_value(other, said):
                    pairs.append((other, said, VALUE))
            if len(members) < SETTING_KEEP:
                members.append(said)
    return pairs


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
        if len(found.content) >= 2 and found.normal not in distinct:
            distinct[found.normal] = found
    bands: dict[tuple, list[Statement]] = {}
    pairs: list[tuple[Statement, Statement, str]] = []
    hashes: dict[str, int] = {}
    for found in distinct.values():
        sig = signature(found.content, hashes)
        if sig is None:
            continue
        compared: set[str] = set()
        for band in band_keys(sig):
            for cls in (True, False):
                for other in bands.get((band, cls), ()):
                    if other.normal in compared or not _comparable(found, other):
                        continue
                    compared.add(other.normal)
                    how = conflict(other, found, similarity)
                    if how:
                        pairs.append((other, found, how))
            members = bands.setdefault((band, found.cued), [])
            if len(members) < KEEP:
                members.append(found)
    pairs.extend(_removals(distinct.values(), {(a.normal, b.normal) for a, b, _ in pairs}))
    pairs.extend(_settings(distinct.values(), {(a.normal, b.normal) for a, b, _ in pairs}))
    result = []
    for a, b, how in pairs:
        first, second = latest[a.normal][1], latest[b.normal][1]
        if first.record is second.record:
            continue  # a record that corrects itself in its own text ("not X; since v2, X") is one record
        newer, older = (first, second) if first.record.when > second.record.when else (second, first)
        result.append(Conflict(newer, older, how))
    result.sort(key=lambda c: (c.newer.record.place.path, c.newer.record.order, c.newer.start))
    return result

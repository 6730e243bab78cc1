"""Records that say the same thing twice: MinHash candidates, confirmed by their shingles.

Records are read oldest first (their own date, then reading order). A record whose normal form
was seen before is a copy of the first one; any other record is compared with the earlier
records its signature shares a band with, and the first that it repeats (`relations.repeats`)
is named. Each record is compared with at most `sketch.BUCKET_KEEP` records per band, so
100,000 episodes cost a few hundred thousand set comparisons, never all pairs.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass

from memwarden.analysis.coherence.normal import normalise
from memwarden.analysis.coherence.records import MemoryRecord, bulk
from memwarden.analysis.coherence.relations import repeats
from memwarden.analysis.coherence.sketch import Buckets, band_keys, signature
from memwarden.analysis.coherence.statements import Statement, statement


@dataclass(frozen=True, slots=True)
class Repeat:
    later: MemoryRecord
    earlier: MemoryRecord
    exact: bool  # the same text once width, case and spacing are folded


def find_repeats(records: list[MemoryRecord], threshold: float, containment: float, sketched=None) -> list[Repeat]:
    """Each record that repeats an earlier one of its own layer, with the earliest such record.

    ``sketched(record, sketch)``, when given, is told each record's :class:`Sketch` (what the store
    keeps to bring the answers up to date later: engine/cache/repeat_index.py)."""
    with bulk():
        return _find_repeats(records, threshold, containment, sketched)


@dataclass(frozen=True, slots=True)
class Sketch:
    """What decides a record's place among the others: its normal form's digest (None: too short to
    repeat or be repeated) and its signature's band keys (None: no content to compare)."""

    normal: bytes | None
    bands: tuple[int, ...] | None


def sketch_of(text: str, hashes: dict | None = None) -> tuple[Sketch, Statement | None]:
    """A record's sketch and, when it has a normal form long enough, its statement."""
    normal = normalise(text)
    if len(normal) < MIN_NORMAL:
        return Sketch(None, None), None
    said = statement(text, normal)
    sig = signature(said.shingles, hashes)
    return Sketch(_digest(normal), tuple(band_keys(sig)) if sig is not None else None), said


def _find_repeats(records: list[MemoryRecord], threshold: float, containment: float, sketched) -> list[Repeat]:
    found: list[Repeat] = []
    by_layer: dict[str, list[MemoryRecord]] = {}
    for record in records:
        by_layer.setdefault(record.layer, []).append(record)
    for layer_records in by_layer.values():
        found.extend(_repeats_in(sorted(layer_records, key=lambda r: r.when), threshold, containment, sketched))
    found.sort(key=lambda r: (r.later.place.path, r.later.place.line))
    return found


def _repeats_in(records: list[MemoryRecord], threshold: float, containment: float, sketched=None) -> list[Repeat]:
    first_of: dict[bytes, MemoryRecord] = {}  # a digest of each normal form: not the text itself
    normal_of: dict[bytes, bytes] = {}  # a digest of a text as written -> its normal form's digest
    kept: dict[int, MemoryRecord] = {}  # record order -> a record some bucket keeps
    said = _Statements()
    hashes: dict[str, int] = {}
    buckets = Buckets()
    copies: dict[bytes, Sketch] = {}  # (with sketched) an exact copy's sketch, by its normal form
    found = []
    for record in records:
        text = record.text()
        written = _digest(text)
        key, normal = normal_of.get(written), None
        if key is None:  # a text not met before as written: fold it
            normal = normalise(text)
            key = normal_of[written] = _digest(normal) if len(normal) >= MIN_NORMAL else _SHORT
        if key is _SHORT:
            if sketched is not None:
                sketched(record, _NO_SKETCH)
            continue  # "ok", "done": too short to call a repeat
        first = first_of.get(key)
        if first is not None:
            found.append(Repeat(record, first, True))
            if sketched is not None:  # a copy has its original's sketch: the same normal form
                sketched(record, copies[key])
            continue
        if normal is None:
            normal = normalise(text)
        first_of[key] = record
        this = statement(text, normal)
        sig = signature(this.shingles, hashes)
        if sketched is not None:
            copies[key] = Sketch(key, tuple(band_keys(sig)) if sig is not None else None)
            sketched(record, copies[key])
        if sig is None:
            continue
        candidates, is_kept = buckets.add(record.order, sig)
        if is_kept:  # only a record some bucket keeps can be named by a later one: the rest are dropped
            kept[record.order] = record
            said.put(record.order, this)
        for other in candidates:
            other_record = kept[other]
            if repeats(said.get(other_record), this, threshold, containment):
                found.append(Repeat(record, other_record, False))
                break
    return found


_SHORT = b""
MIN_NORMAL = 12  # characters of normal form: "ok", "done" are too short to call a repeat
_NO_SKETCH = Sketch(None, None)


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class _Statements:
    """The statements of the records buckets keep, the most recent `KEEP` of them held, any other
    read again from its record when a later record names it as a candidate: 100,000 records that
    share no band would otherwise each hold their statement to the end."""

    KEEP = 512

    def __init__(self) -> None:
        self._held: OrderedDict[int, Statement] = OrderedDict()

    def put(self, order: int, said: Statement) -> None:
        self._held[order] = said
        if len(self._held) > self.KEEP:
            self._held.popitem(last=False)

    def get(self, record: MemoryRecord) -> Statement:
        said = self._held.get(record.order)
        if said is None:
            text = record.text()
            said = statement(text, normalise(text))
            self.put(record.order, said)
        else:
            self._held.move_to_end(record.order)
        return said

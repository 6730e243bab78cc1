"""Records that say the same thing twice: MinHash candidates, confirmed by their shingles.

Records are read oldest first (their own date, then reading order). A record whose normal form
was seen before is a copy of the first one; any other record is compared with the earlier
records its signature shares a band with, and the first that it repeats (`relations.repeats`)
is named. Each record is compared with at most `sketch.BUCKET_KEEP` records per band, so
100,000 episodes cost a few hundred thousand set comparisons, never all pairs.
"""

from __future__ import annotations

from dataclasses import dataclass

from memwarden.analysis.coherence.normal import normalise
from memwarden.analysis.coherence.records import MemoryRecord, bulk
from memwarden.analysis.coherence.relations import repeats
from memwarden.analysis.coherence.sketch import Buckets, signature
from memwarden.analysis.coherence.statements import statement


@dataclass(frozen=True)
class Repeat:
    later: MemoryRecord
    earlier: MemoryRecord
    exact: bool  # the same text once width, case and spacing are folded


def find_repeats(records: list[MemoryRecord], threshold: float, containment: float) -> list[Repeat]:
    """Each record that repeats an earlier one of its own layer, with the earliest such record."""
    with bulk():
        return _find_repeats(records, threshold, containment)


def _find_repeats(records: list[MemoryRecord], threshold: float, containment: float) -> list[Repeat]:
    found: list[Repeat] = []
    by_layer: dict[str, list[MemoryRecord]] = {}
    for record in records:
        by_layer.setdefault(record.layer, []).append(record)
    for layer_records in by_layer.values():
        found.extend(_repeats_in(sorted(layer_records, key=lambda r: r.when), threshold, containment))
    found.sort(key=lambda r: (r.later.place.path, r.later.place.line))
    return found


def _repeats_in(records: list[MemoryRecord], threshold: float, containment: float) -> list[Repeat]:
    first_of: dict[str, MemoryRecord] = {}
    reduced: dict[int, tuple] = {}  # record order -> (statement, record)
    buckets = Buckets()
    found = []
    for record in records:
        text = record.text()
        normal = normalise(text)
        if len(normal) < 12:
            continue  # "ok", "done": too short to call a repeat
        if normal in first_of:
            found.append(Repeat(record, first_of[normal], True))
            continue
        first_of[normal] = record
        said = statement(text, normal)
        sig = signature(said.shingles)
        if sig is None:
            continue
        candidates, kept = buckets.add(record.order, sig)
        if kept:  # only a record some bucket keeps can be named by a later one: the rest are dropped
            reduced[record.order] = (said, record)
        for other in candidates:
            other_said, other_record = reduced[other]
            if repeats(other_said, said, threshold, containment):
                found.append(Repeat(record, other_record, False))
                break
    return found

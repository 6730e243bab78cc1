"""Finding similar records without comparing every pair: MinHash signatures and LSH bands.

Each record is reduced to a set of shingles (Latin words, CJK character pairs: `statements.py`). Its signature is a
one-permutation MinHash: every shingle is hashed once (CRC-32, stable across runs), falls into
one of `BINS` bins by its hash, and each bin keeps its smallest hash. Two sets' signatures agree
in a bin with a probability close to their Jaccard similarity. Signatures are cut into bands of
`ROWS` bins; records whose band values are equal in any band are candidates, and only candidates
are compared exactly. The cost is linear in the total number of shingles.

A band that a thousand records share (a template repeated by a generator, a boilerplate line)
would make candidates quadratic; each band bucket keeps at most `BUCKET_KEEP` members, the
earliest ones, which is all a "later copy of an earlier record" needs.
"""

from __future__ import annotations

import zlib
from collections import Counter
from typing import Hashable, Iterable

BINS = 32
ROWS = 2  # 16 bands of 2: pairs at Jaccard 0.5 meet with p ~ 0.99, at 0.2 with p ~ 0.5
BUCKET_KEEP = 4
CHECK = 6  # candidates compared exactly per record: the ones that share the most bands
EMPTY = 0xFFFFFFFF + 1


def signature(items: Iterable[str], hashes: dict[str, int] | None = None) -> tuple[int, ...] | None:
    """The MinHash signature of a set of shingles, None for an empty set. ``hashes`` keeps each
    shingle's CRC-32 for the run: words recur from record to record, and a lookup costs less."""
    bins = [EMPTY] * BINS
    seen = False
    if hashes is None:
        hashes = {}
    for item in items:
        value = hashes.get(item)
        if value is None:
            value = hashes[item] = zlib.crc32(item.encode("utf-8"))
        slot = value & _SLOT
        if value < bins[slot]:
            bins[slot] = value
        seen = True
    return tuple(bins) if seen else None


_SLOT = BINS - 1  # BINS is a power of two: value % BINS
assert BINS & _SLOT == 0


def band_keys(sig: tuple[int, ...]) -> list[int]:
    """One int per band of the signature that holds a value (an empty band says nothing about
    similarity): the band's number and its ROWS values packed together, a cheap dict key."""
    keys = []
    for band in range(0, BINS, ROWS):
        key, empty = band, True
        for value in sig[band : band + ROWS]:
            key = (key << 33) | value
            empty = empty and value == EMPTY
        if not empty:
            keys.append(key)
    return keys


def jaccard(a: set, b: set) -> float:
    if not a or not b:
        return 0.0
    common = len(a & b)
    return common / (len(a) + len(b) - common)


class Buckets:
    """Records added in order; each addition returns the earlier records it may be similar to."""

    def __init__(self) -> None:
        self._bands: dict[int, list[Hashable]] = {}

    def add(self, key: Hashable, sig: tuple[int, ...], best: int = CHECK) -> tuple[list[Hashable], bool]:
        """(the earlier keys sharing a band with this one, those sharing the most bands first, at most
        `best`; whether this key was kept in a bucket, to be offered to later ones)."""
        met: list[Hashable] = []
        kept = False
        bands = self._bands
        for band in band_keys(sig):
            members = bands.get(band)
            if members is None:
                bands[band] = [key]
                kept = True
                continue
            met += members
            if len(members) < BUCKET_KEEP:
                members.append(key)
                kept = True
        return most_met(met, best), kept


def most_met(met: list, best: int = CHECK) -> list:
    """The ``best`` keys met most often in ``met`` (the members of each band a record shares, band by band),
    first-met order among equal counts: the candidates a record is compared with."""
    # counted in C; most_common keeps first-met order among equal counts, as a stable sort does
    return [other for other, _ in Counter(met).most_common(best)] if met else []

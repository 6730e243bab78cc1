"""A log's checkpoint: what earlier runs learnt of its unchanged prefix, under one cache entry.

A JSONL log mostly grows at its end. Its lines are cached one by one (engine/incremental.py), but
an append would still read every line's entry; a checkpoint holds the same answers for all the
log's complete lines at once (the record rules' findings by line, and each record summary's values),
with the length and SHA-256 of the bytes they came from. A run whose log still starts with those
bytes reads that one entry and checks only the lines after it; an edit before its end (a rewritten,
removed or truncated line, another line ending) misses it, and the run falls back to the per-line
entries. Only complete lines (ended by a newline) are covered: a last line without one may still grow.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

SHARD = "checkpoints"  # and the bucket of the log's path: the store's shard of its checkpoints
KEEP = 4  # checkpoints kept per log and settings: the newest, then the log's own prefixes, then the rest


@dataclass
class Checkpoint:
    lines: int  # the complete lines it covers, 1..lines
    data: dict  # what it holds of them (its maker's own layout)


def complete_lines(lines: list[bytes]) -> int:
    """How many of a log's lines are complete (end with a newline): all but a last one without."""
    return len(lines) if not lines or lines[-1].endswith(b"\n") else len(lines) - 1


class Prefixes:
    """The SHA-256 of a log's first ``size`` bytes, each worked out once for every checkpoint of the log (the record
    rules' and each summary's ask for the same prefixes), for as long as the log's bytes are the same."""

    def __init__(self) -> None:
        self._raw: bytes | None = None
        self._digests: dict[int, str] = {}

    def digest(self, raw: bytes, size: int) -> str:
        return self.digests(raw, [size])[size]

    def digests(self, raw: bytes, sizes) -> dict[int, str]:
        """{size: digest} for these sizes, the missing ones in one pass over the log."""
        if self._raw is not raw and self._raw != raw:
            self._digests = {}
        self._raw = raw
        hashed, done = hashlib.sha256(), 0
        for size in sorted(set(sizes) - self._digests.keys()):
            hashed.update(memoryview(raw)[done:size])
            done = size
            self._digests[size] = hashed.hexdigest()
        return self._digests


def read(store, key: str, raw: bytes, prefixes: Prefixes) -> Checkpoint | None:
    """The longest of a log's recent checkpoints under ``key`` (see ``Incremental.checkpoint_key``) whose prefix the
    log's bytes still start with; one entry of data read."""
    for size, lines, digest in reversed(_prefixes_of(_points(store.get(key)), raw, prefixes)):
        entry = store.get(data_key(key, digest))
        data = entry[1] if entry is not None else None
        if isinstance(data, dict):
            return Checkpoint(lines, data)
    return None


def write(store, key: str, lines: list[bytes], data: dict, raw: bytes, prefixes: Prefixes) -> None:
    """Keep ``data`` as what is known of the log's complete lines (``lines`` split from ``raw``) now. A few older
    checkpoints stay, those of this log's own prefixes first: a run may see the log as it was before the last
    append (a commit undone, a fix that rewrote the new line), and then the longest prefix it still starts with
    answers."""
    count = complete_lines(lines)
    size = len(raw) if count == len(lines) else len(raw) - len(lines[-1])
    digest = prefixes.digest(raw, size)
    store.put(data_key(key, digest), (), data)
    older = [point for point in _points(store.get(key)) if point[2] != digest]
    ancestors = [point for point in _prefixes_of(older, raw, prefixes) if point[0] <= size]
    kept = [*reversed(ancestors), *(point for point in older if point not in ancestors)]
    store.put(key, (), {"points": [[size, count, digest], *map(list, kept)][:KEEP]})


def _prefixes_of(points: list[tuple[int, int, str]], raw: bytes, prefixes: Prefixes) -> list[tuple[int, int, str]]:
    """The points whose bytes ``raw`` starts with, shortest first."""
    possible = [(size, lines, digest) for size, lines, digest in sorted(points)
                if size <= len(raw) and (not size or raw[size - 1 : size] == b"\n") and raw.count(b"\n", 0, size) == lines]
    digests = prefixes.digests(raw, [size for size, _, _ in possible])
    return [point for point in possible if digests[point[0]] == point[2]]


def data_key(key: str, digest: str) -> str:
    """Where a checkpoint's data lives: a shard of its own per prefix, so a run reads only the one it uses."""
    shard, _, name = key.rpartition("/")
    return f"{shard}-{digest[:24]}/{name}"


def referenced(entries: dict) -> set[str]:
    """The prefix digests (as in :func:`data_key`'s shard names) the checkpoints of an index shard still name."""
    return {point[2][:24] for entry in entries.values() if isinstance(entry, list) and len(entry) == 3
            for point in _points(entry)}


def _points(entry) -> list[tuple[int, int, str]]:
    value = entry[1] if isinstance(entry, list) and len(entry) == 3 else None
    points = value.get("points") if isinstance(value, dict) else None
    if not isinstance(points, list):
        return []
    return [tuple(p) for p in points if isinstance(p, list) and len(p) == 3 and isinstance(p[0], int)
            and isinstance(p[1], int) and isinstance(p[2], str) and p[0] >= 0]

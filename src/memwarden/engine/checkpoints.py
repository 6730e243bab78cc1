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


def read(store, key: str, raw: bytes) -> Checkpoint | None:
    """The longest of a log's recent checkpoints under ``key`` (see ``Incremental.checkpoint_key``) whose prefix the
    log's bytes still start with: one pass of SHA-256 over the log, one entry of data read."""
    for size, lines, digest in reversed(_prefixes_of(_points(store.get(key)), raw)):
        entry = store.get(data_key(key, digest))
        data = entry[1] if entry is not None else None
        if isinstance(data, dict):
            return Checkpoint(lines, data)
    return None


def write(store, key: str, lines: list[bytes], data: dict, raw: bytes | None = None) -> None:
    """Keep ``data`` as what is known of the log's complete lines now. A few older checkpoints stay, those of
    this log's own prefixes first: a run may see the log as it was before the last append (a commit undone, a
    fix that rewrote the new line), and then the longest prefix it still starts with answers."""
    count = complete_lines(lines)
    prefix = b"".join(lines[:count]) if count < len(lines) else raw if raw is not None else b"".join(lines)
    digest = hashlib.sha256(prefix).hexdigest()
    store.put(data_key(key, digest), (), data)
    older = [point for point in _points(store.get(key)) if point[2] != digest]
    ancestors = _prefixes_of(older, prefix)
    kept = [*reversed(ancestors), *(point for point in older if point not in ancestors)]
    store.put(key, (), {"points": [[len(prefix), count, digest], *map(list, kept)][:KEEP]})


def _prefixes_of(points: list[tuple[int, int, str]], raw: bytes) -> list[tuple[int, int, str]]:
    """The points whose bytes ``raw`` starts with, shortest first (one SHA-256 pass over the prefix)."""
    hashed, done, found = hashlib.sha256(), 0, []
    for size, lines, prefix in sorted(points):
        if size > len(raw) or (size and raw[size - 1 : size] != b"\n") or raw.count(b"\n", 0, size) != lines:
            continue
        hashed.update(memoryview(raw)[done:size])
        done = size
        if hashed.hexdigest() == prefix:
            found.append((size, lines, prefix))
    return found


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

"""JSONL records (episodes, archived episodes, associations) and how two of them are the same record.

Records are matched by id, else fingerprint, else their content after parsing,
so a changed key order, re-indentation or the fields the memory system itself
updates never make a record look new.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from memwarden.analysis.history.roles import FileRole
from memwarden.analysis.tags import normalized_tags
from memwarden.documents.base import MAX_DEPTH
from memwarden.documents.jsonl import depth_exceeds
from memwarden.patterns import LazyPattern

# "expires" too: re-verifying a claim moves its date, and memwarden's own fix adds it.
DEFAULT_MUTABLE_FIELDS = ["decay_status", "retrieval", "quality", "linked_to", "archived", "expires"]
# Marking a record archived is archiving, never a rewrite or a loss.
ARCHIVE_MARKERS = ("archived", "decay_status")

# Printable ASCII that JSON writes as itself (no quote, backslash or slash, which may be escaped).
_VERBATIM_RUN = LazyPattern(r"[\x20\x21\x23-\x2e\x30-\x5b\x5d-\x7e]+")
MIN_NEEDLE = 6

_DECODER = json.JSONDecoder()


@dataclass
class JsonRecord:
    path: str
    line: int
    column: int
    source: str  # its text on the line
    data: Any
    archived_file: bool
    associations_file: bool

    def identity(self, field_name: str) -> str | None:
        if isinstance(self.data, dict):
            value = self.data.get(field_name)
            if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value):
                return str(value)
        return None

    @property
    def is_association(self) -> bool:
        return isinstance(self.data, dict) and "src" in self.data and "dst" in self.data and (
            self.associations_file or "type" in self.data
        )


def canonical(value) -> str:
    """One spelling of a JSON value, whatever its key order and spacing."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def digest(text: str) -> str:
    """A short, stable name for some text (identity keys of what was lost)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _line_values(line: str) -> list[tuple[int, int, Any]]:
    """(start, end, value) of each JSON value on a line, up to the first that does not parse.

    A line nested deeper than any memory record is not a record (unparsable-file reports it).
    """
    if depth_exceeds(line, MAX_DEPTH):
        return []
    values = []
    i, n = 0, len(line)
    while i < n:
        while i < n and line[i] in " \t\r":
            i += 1
        if i >= n:
            break
        try:
            value, end = _DECODER.raw_decode(line, i)
        except (ValueError, RecursionError):
            break
        values.append((i, end, value))
        i = end
    return values


def records_on(line: str, relpath: str, number: int, role: FileRole) -> list[JsonRecord]:
    """The records of one (stripped) line of a JSONL file."""
    return [
        JsonRecord(relpath, number, start + 1, line[start:end], value, role.archived, role.associations)
        for start, end, value in _line_values(line)
    ]


def _strings(value, depth=0):
    if isinstance(value, str):
        yield value
    elif depth < MAX_DEPTH and isinstance(value, dict):
        for item in value.values():
            yield from _strings(item, depth + 1)
    elif depth < MAX_DEPTH and isinstance(value, list):
        for item in value:
            yield from _strings(item, depth + 1)


def _needles_of(record: JsonRecord, ignored: set[str]) -> set[str] | None:
    """Text that any line holding this record, or its rewritten self, must contain; None if there is none."""
    data = record.data
    if not isinstance(data, dict):
        return None
    needles: set[str] = set()
    identities = [record.identity("id"), record.identity("fingerprint")]
    if record.is_association:
        identities += [side.get("id") for side in (data.get("src"), data.get("dst")) if isinstance(side, dict)]
    for value in identities:
        if isinstance(value, str) and _VERBATIM_RUN.fullmatch(value):
            needles.add(value)
    # For a match by content alone: the longest verbatim run of its strings (mutable fields may differ).
    kept = {k: v for k, v in data.items() if k not in ignored}
    runs = [run for text in _strings(kept) for run in _VERBATIM_RUN.findall(text)]
    longest = max(runs, key=len, default="")
    if len(longest) < MIN_NEEDLE:
        return None
    needles.add(longest)
    return needles


def needles(records: list[JsonRecord], ignored: set[str]) -> set[str] | None:
    """Text that any line holding one of these records must contain; None if some record has none."""
    found: set[str] = set()
    for record in records:
        own = _needles_of(record, ignored)
        if own is None:
            return None
        found |= own
    return found


def _comparable(data, ignored):
    """A record as compared for rewrites: mutable fields dropped, tags in normal form
    (so the unnormalized-tags fix is not a rewrite)."""
    if not isinstance(data, dict):
        return data
    kept = {k: v for k, v in data.items() if k not in ignored}
    if isinstance(kept.get("tags"), list):
        kept["tags"] = normalized_tags(kept["tags"])
    return kept


def content_key(data, ignored) -> str:
    return canonical(_comparable(data, ignored))


def association_key(data: dict) -> str:
    return canonical([data.get("src"), data.get("dst"), data.get("type")])


def first_difference(before, after, ignored) -> tuple:
    """The JSON path of the first top-level field that changed, () if none did."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return ()
    before, after = _comparable(before, ignored), _comparable(after, ignored)
    for key in list(before) + [k for k in after if k not in before]:
        if key in ignored:
            continue
        if canonical(before.get(key)) != canonical(after.get(key)) or (key in before) != (key in after):
            return (key,)
    return ()


class RecordIndex:
    """The current records by id, fingerprint, content and association key."""

    def __init__(self, ignored: set[str]):
        self.ignored = ignored
        self.contents: set[str] = set()
        self.by_id: dict[str, list[JsonRecord]] = {}
        self.by_fingerprint: dict[str, list[JsonRecord]] = {}
        self.associations: set[str] = set()
        self._keys: dict[int, str] = {}

    def content_of(self, record: JsonRecord) -> str:
        key = self._keys.get(id(record))
        if key is None:
            key = self._keys[id(record)] = content_key(record.data, self.ignored)
        return key

    def add_all(self, records: list[JsonRecord]) -> None:
        for record in records:
            self.add(record)

    def add(self, record: JsonRecord) -> None:
        self.contents.add(content_key(record.data, self.ignored))
        for name, table in (("id", self.by_id), ("fingerprint", self.by_fingerprint)):
            value = record.identity(name)
            if value is not None:
                table.setdefault(value, []).append(record)
        if record.is_association:
            self.associations.add(association_key(record.data))

    def has_content(self, record: JsonRecord) -> bool:
        return self.content_of(record) in self.contents

    def has_association(self, record: JsonRecord) -> bool:
        return association_key(record.data) in self.associations

    def same_identity(self, record: JsonRecord, held_before=frozenset()) -> JsonRecord | None:
        """A current record with this record's id (else fingerprint) whose content is new: one whose
        content the base held already (in `held_before`) is that other record, kept, not this one rewritten."""
        for name, table in (("id", self.by_id), ("fingerprint", self.by_fingerprint)):
            value = record.identity(name)
            if value is not None and value in table:
                for other in table[value]:
                    if self.content_of(other) not in held_before:
                        return other
                return None
        return None

    def identities(self, record: JsonRecord) -> list[JsonRecord]:
        """Every current record that shares this record's id (else fingerprint)."""
        for name, table in (("id", self.by_id), ("fingerprint", self.by_fingerprint)):
            value = record.identity(name)
            if value is not None and value in table:
                return table[value]
        return []

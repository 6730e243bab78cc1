"""One fact key given two different values in two fact files.

A facts file is a mapping; three-layer workspaces split it into domain files (`fact.yml`,
`fact_infra.yml`, ...). When two of them set the same key path (`tools.node.version`) to two
different scalar values, the agent reads whichever it loads last. Dates, expiries and schema
versions are bookkeeping, not facts, and may differ; archived mappings (`archived: true`, gish's
`archive:`) are history.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from memwarden.analysis.expiry import FACT_DATE_KEYS, MAX_DEPTH, date_prefix
from memwarden.analysis.coherence.records import Place
from memwarden.documents import format_json_path

BOOKKEEPING = frozenset(FACT_DATE_KEYS) | {"expires", "archived", "schema_version", "last_reviewed"}


@dataclass(frozen=True)
class FactValue:
    key: tuple
    value: object
    place: Place
    date: dt.date | None
    order: int


@dataclass(frozen=True)
class FactKeyConflict:
    newer: FactValue
    older: FactValue


def _leaves(doc, profile: str, order: int):
    data = doc.data
    if not isinstance(data, dict):
        return

    def walk(value: dict, path: tuple, date, depth: int):
        if depth > MAX_DEPTH or value.get("archived") is True:
            return
        own = next((date_prefix(value.get(k)) for k in FACT_DATE_KEYS if date_prefix(value.get(k))), None) or date
        for key, item in value.items():
            if not isinstance(key, str) or key in BOOKKEEPING or (profile == "ghost-in-shell" and not path and key == "archive"):
                continue
            if isinstance(item, dict):
                yield from walk(item, path + (key,), own, depth + 1)
            elif isinstance(item, (str, int, float, bool)):
                line, column = doc.locate(path + (key,))
                yield FactValue(path + (key,), item, Place(doc.relpath, line, column, format_json_path(path + (key,))), own, order)

    yield from walk(data, (), None, 0)


def fact_key_conflicts(documents, profile: str) -> list[FactKeyConflict]:
    """Each key path set in two facts files to different values, reported once per later file."""
    first: dict[tuple, FactValue] = {}
    found = []
    for order, doc in enumerate(sorted(documents, key=lambda d: d.relpath)):
        if not doc.ok:
            continue
        for leaf in _leaves(doc, profile, order):
            seen = first.get(leaf.key)
            if seen is None:
                first[leaf.key] = leaf
            elif seen.place.path != leaf.place.path and _differ(seen.value, leaf.value):
                a, b = sorted((seen, leaf), key=lambda v: (v.date or dt.date.min, v.order))
                found.append(FactKeyConflict(b, a))
    return found


def _differ(a, b) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return a.strip().casefold() != b.strip().casefold()
    return a != b or type(a) is not type(b)

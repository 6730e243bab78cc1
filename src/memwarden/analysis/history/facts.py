"""The leaves of a facts file, known by their path: a list item by its value or its mapping's id, not its position."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memwarden.analysis.history.records import canonical

IDENTITY_FIELDS = ("id", "key", "name")  # how a mapping in a facts list is known


@dataclass(frozen=True)
class ListItem:
    """A list item in a fact path, known by its value (or its mapping's id), not its position."""

    identity: str

    def __str__(self) -> str:
        return f"[{self.identity}]"


@dataclass
class FactEntry:
    path: tuple  # str keys and ListItem list items
    display: tuple  # the same with list positions, for JSON paths and lines
    value: str  # canonical JSON of the value
    raw: Any
    archived: bool  # inside 'archive:' or under a mapping marked archived: true


def _item_identity(item) -> str:
    if isinstance(item, dict):
        for name in IDENTITY_FIELDS:
            value = item.get(name)
            if isinstance(value, (str, int)) and not isinstance(value, bool):
                return f"{name}={value}"
        return canonical({k: v for k, v in item.items() if k != "archived"})
    return canonical(item)


def fact_entries(data, path=(), display=(), archived=False, top=True):
    """Every leaf of a facts file; a list item is one leaf (a rule, a tag, a mapping with an id)."""
    if isinstance(data, dict):
        archived = archived or data.get("archived") is True
        if not data and not top:
            yield FactEntry(path, display, "{}", data, archived)
        for key, value in data.items():
            inside = archived or (top and key == "archive")
            yield from fact_entries(value, path + (key,), display + (key,), inside, False)
    elif isinstance(data, list):
        if not data:
            yield FactEntry(path, display, "[]", data, archived)
        for position, item in enumerate(data):
            item_archived = archived or (isinstance(item, dict) and item.get("archived") is True)
            yield FactEntry(path + (ListItem(_item_identity(item)),), display + (position,), canonical(item), item,
                            item_archived)
    elif not top:
        yield FactEntry(path, display, canonical(data), data, archived)

"""Where a long-term record says it came from, when, and how sure it is.

The hot/warm/cold article asks every long-term memory for a source, a time and a condition for
review. A gish note has the fields (`metadata.evidence`, `metadata.updated`,
`metadata.confidence`); a Claude Code note (name, description, type) and a three-layer facts
file have none, so the rule is on only for the profiles a user names (ghost-in-shell by default).
The fields are looked for at the top of a note's front matter and under `metadata:`; in a facts
file, in each mapping at the top level (`tools.gh`, `preferences`), or at the top of the file.
"""

from __future__ import annotations

from dataclasses import dataclass

from memwarden.documents import MarkdownDocument, YamlDocument

ASPECTS = ("source", "date", "confidence")


@dataclass(frozen=True)
class Lack:
    missing: tuple[str, ...]  # of ASPECTS, in that order
    where: tuple  # the JSON path of the record (() for a note or a whole file)
    line: int
    column: int


def _has(mappings: list[dict], keys: list[str]) -> bool:
    for mapping in mappings:
        for key in keys:
            value = mapping.get(key)
            if value not in (None, "", [], {}):
                return True
    return False


def _missing(mappings: list[dict], required: list[str], keys: dict[str, list[str]]) -> tuple[str, ...]:
    return tuple(aspect for aspect in ASPECTS if aspect in required and not _has(mappings, keys.get(aspect, [])))


def lacks(doc, required: list[str], keys: dict[str, list[str]]) -> list[Lack]:
    """The records of a note or facts file that lack a required aspect (an empty file holds no record)."""
    if not doc.text.strip():
        return []
    if isinstance(doc, MarkdownDocument) and doc.kind.name == "note":
        front = doc.front_matter if isinstance(doc.front_matter, dict) else {}
        metadata = front.get("metadata")
        missing = _missing([front, metadata if isinstance(metadata, dict) else {}], required, keys)
        return [Lack(missing, (), 1, 1)] if missing else []
    if isinstance(doc, YamlDocument) and doc.kind.name == "facts" and isinstance(doc.data, dict):
        if _missing([doc.data], required, keys) == ():
            return []  # the file as a whole says where it came from
        found = []
        for key, value in doc.data.items():
            if not isinstance(value, dict) or value.get("archived") is True or key in ("archive", "identity"):
                continue
            missing = _missing([value], required, keys)
            if missing:
                line, column = doc.locate((key,))
                found.append(Lack(missing, (key,), line, column))
        return found
    return []

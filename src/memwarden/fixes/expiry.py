"""The edit that adds a missing `expires: <date>` where its record keeps it (analysis/expiry.py finds the place)."""

from __future__ import annotations

from memwarden.analysis.expiry import ExpiryPlace, is_date_shaped
from memwarden.documents import JsonlDocument, MarkdownDocument, YamlDocument
from memwarden.fixes import edits
from memwarden.model import Edit


def add_expires(doc, place: ExpiryPlace, date: str) -> Edit | None:
    """The edit adding `expires` at place.mapping, styled like its siblings; None when there is no safe place."""
    if place.mapping is None:
        return None
    if isinstance(doc, JsonlDocument) and place.record is not None:
        source = place.record.source(doc)
        return edits.json_insert_member(
            source, doc.positions(place.record).spans, place.record.start, "expires", edits.json_string(date, source)
        )
    if isinstance(doc, MarkdownDocument):
        if place.mapping == ():
            return _add_top_level(doc, date)
        spans = doc.front_matter_tree.spans
        return _insert_key(doc, spans, place.mapping, date)
    if isinstance(doc, YamlDocument):
        return _insert_key(doc, doc.tree.spans, place.mapping, date)
    return None


def _insert_key(doc, spans: dict, mapping: tuple, date: str) -> Edit | None:
    return edits.yaml_insert_key(doc.text, spans, mapping, "expires", _yaml_date(date, _date_style(doc, spans, mapping)), doc.newline)


def _add_top_level(doc: MarkdownDocument, date: str) -> Edit | None:
    newline = doc.newline
    if doc.front_matter_lines is None:
        # No front matter at all: open one holding just the date.
        return Edit(0, 0, f"---{newline}expires: {date}{newline}---{newline}")
    spans = doc.front_matter_tree.spans if doc.front_matter_tree is not None else {}
    if () in spans and doc.front_matter:
        return _insert_key(doc, spans, (), date)
    if doc.front_matter == {} and () not in spans:
        closing = doc.line_starts[doc.front_matter_lines[1] - 1]
        return edits.yaml_insert_before_line(doc.text, closing, "expires", date, newline)
    return None


def _date_style(doc, spans: dict, mapping: tuple) -> str | None:
    """Quote the new date like a sibling date is quoted (`updated: "2026-10-01"`), else plain."""
    for _, span in edits.child_spans(spans, mapping):
        if span.style in ("'", '"') and is_date_shaped(doc.text[span.start_offset + 1 : span.end_offset - 1]):
            return span.style
    return None


def _yaml_date(value: str, style: str | None) -> str:
    if style == "'":
        return f"'{value}'"
    if style == '"':
        return f'"{value}"'
    return value

"""The edit that adds a missing `expires: <date>` where its record keeps it (analysis/expiry.py finds the place)."""

from __future__ import annotations

import json

from memwarden.analysis.expiry import ExpiryPlace, is_date_shaped
from memwarden.documents import JsonlDocument, MarkdownDocument, YamlDocument
from memwarden.fixes import edits
from memwarden.model import Edit


def add_expires(doc, place: ExpiryPlace, date: str, validator=None) -> Edit | None:
    """The edit adding `expires` at place.mapping, styled like its siblings; None when there is no safe place.

    With the kind's schema `validator`, a place the schema does not allow (a mapping whose keys or values
    it constrains, such as a strict `tools`) is no safe place: the edit is kept only if it adds no violation.
    """
    edit = _edit(doc, place, date)
    if edit is None or validator is None or _fits_schema(doc, place, edit, validator):
        return edit
    return None


def can_add_expires(doc, place: ExpiryPlace, date: str, validator=None) -> bool:
    """Whether :func:`add_expires` gives an edit, told without building it where that is cheap (an episode).

    An episode's edit adds one member to its object: the record with the edit reads as its data with an
    `expires` member, so the schema is asked about that data. Elsewhere the edit itself decides.
    """
    if not isinstance(doc, JsonlDocument):
        return add_expires(doc, place, date, validator) is not None
    record = place.record
    if place.mapping is None or record is None or not record.ok or not isinstance(record.data, dict):
        return False
    return validator is None or _violations(validator, {**record.data, "expires": date}) <= _violations(validator, record.data)


def _fits_schema(doc, place: ExpiryPlace, edit: Edit, validator) -> bool:
    """Whether the document with the edit has no schema violation that it had not before."""
    from memwarden.documents import load
    from memwarden.fixes.apply import apply_edits

    if isinstance(doc, JsonlDocument):
        if place.record is None:
            return False
        source = place.record.source(doc)
        start = place.record.start
        try:
            after_data = json.loads(apply_edits(source, [Edit(edit.start - start, edit.end - start, edit.replacement)]))
        except ValueError:
            return False
        before_data = place.record.data
    else:
        after = load(doc.root, doc.relpath, doc.kind, doc.encode(apply_edits(doc.text, [edit])))
        if not after.ok:
            return False
        pick = (lambda d: d.front_matter) if isinstance(doc, MarkdownDocument) else (lambda d: d.data)
        before_data, after_data = pick(doc), pick(after)
    return _violations(validator, after_data) <= _violations(validator, before_data)


def _violations(validator, instance) -> set:
    try:
        return {(tuple(map(str, error.absolute_path)), error.validator) for error in validator.iter_errors(instance)}
    except RecursionError:
        return {((), "too deep")}


def _edit(doc, place: ExpiryPlace, date: str) -> Edit | None:
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

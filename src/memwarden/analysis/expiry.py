"""Where each kind of record keeps its `expires`, and the prose that may need one.

Read-only: this module finds records, their claims' text and their expiry
places; the edit that adds a missing date is fixes/expiry.py's.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from memwarden.patterns import LazyPattern
from memwarden.kinds import EPISODE_KINDS
from memwarden.documents import JsonlDocument, MarkdownDocument, Record, YamlDocument, format_json_path

EPISODE_TEXT_FIELDS = ("title", "summary", "content", "detail", "lesson")
# Keys that give a facts mapping its own date, for "expires before the record's own date".
FACT_DATE_KEYS = ("last_updated", "updated", "date", "created", "since", "verified")
NOTE_DATE_KEYS = ("updated", "date", "created")
MAX_DEPTH = 64  # deeper facts are hostile input, not memory

_DATE = LazyPattern(r"(\d{4})-(\d{2})-(\d{2})\Z")
_DATE_PREFIX = LazyPattern(r"(\d{4})-(\d{2})-(\d{2})")
MISSING = object()  # an ExpiryPlace's value when the record has no `expires`


# -- dates --------------------------------------------------------------------------


def _date_of(match: re.Match | None) -> dt.date | None:
    if not match:
        return None
    try:
        return dt.date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError:
        return None


def parse_date(value: Any) -> dt.date | None:
    """A YYYY-MM-DD string as a date, or None."""
    return _date_of(_DATE.match(value.strip())) if isinstance(value, str) else None


def is_date_shaped(text: str) -> bool:
    """Whether text is written YYYY-MM-DD (a real date or not)."""
    return _DATE.match(text) is not None


def date_prefix(value: Any) -> dt.date | None:
    """The date a timestamp or date string starts with."""
    return _date_of(_DATE_PREFIX.match(value.strip())) if isinstance(value, str) else None


def _own_date(mapping: dict) -> dt.date | None:
    return next((date_prefix(mapping.get(k)) for k in FACT_DATE_KEYS if date_prefix(mapping.get(k))), None)


# -- records ----------------------------------------------------------------------------


@dataclass
class ExpiryPlace:
    """The `expires` of one record: where it is (or would go), its value, and its record's date."""

    name: str  # how messages name it: "metadata.expires", "expires"
    value: Any  # MISSING when absent
    location: tuple[int, int]  # the expires key, or the record when it is absent
    json_path: str
    record_date: dt.date | None
    # The mapping an absent `expires` would be added to (in an episode: within its record);
    # None when the record has no safe place for one.
    mapping: tuple | None
    record: Record | None = None  # the episode the place belongs to
    archived: bool = False
    stray: list[tuple[str, Any, tuple[int, int]]] = field(default_factory=list)  # (name, value, location) out of place

    @property
    def present(self) -> bool:
        return self.value is not MISSING or bool(self.stray)

    @property
    def dated(self) -> tuple[Any, tuple[int, int], str] | None:
        """(value, location, json path) of the expiry that dates the record: the one in its place, else one out of place."""
        if self.value is not MISSING:
            return self.value, self.location, self.json_path
        if self.stray:
            name, value, location = self.stray[0]
            return value, location, "$." + name
        return None


@dataclass
class TextPiece:
    """Prose to read for claims, with a way to turn an offset in it into a line and column."""

    text: str
    locate: Callable[[int, str], tuple[int, int]]  # (offset in text, sentence) -> (line, column)
    json_path: str | None
    inline_code: bool = False  # Markdown prose, where inline code reads as a placeholder


@dataclass
class ClaimRecord:
    """A record that may hold claims: its prose and its expiry place."""

    what: str  # "note", "episode", "fact"
    pieces: list[TextPiece]
    place: ExpiryPlace


def _scalar_locator(doc, start: int, end: int):
    """Locate a sentence inside a value whose source text is doc.text[start:end] (quotes and escapes included)."""

    def locate(offset: int, sentence: str) -> tuple[int, int]:
        source = doc.text[start:end]
        probe = sentence[:16]
        # The source is never shorter than the value before the sentence (quotes, escapes and folded
        # line breaks only add characters), so the search starts at the sentence's own offset: two
        # identical sentences in one value each find their own place.
        at = source.find(probe, offset) if probe else -1
        if at == -1 and probe:
            at = source.find(probe)
        return doc.line_col(start + (at if at != -1 else 0))

    return locate


# -- notes ----------------------------------------------------------------------


def _note_record(doc: MarkdownDocument, profile: str) -> ClaimRecord:
    front = doc.front_matter or {}
    spans = doc.front_matter_tree.spans if doc.front_matter_tree is not None else {}
    pieces: list[TextPiece] = []
    description = front.get("description")
    span = spans.get(("description",))
    if isinstance(description, str) and span is not None:
        pieces.append(TextPiece(description, _scalar_locator(doc, span.start_offset, span.end_offset), "$.description"))
    pieces.extend(_prose_pieces(doc))
    metadata = front.get("metadata")
    if profile == "ghost-in-shell":
        inner = metadata if isinstance(metadata, dict) else {}
        value = inner.get("expires", MISSING)
        location = doc.locate(("metadata", "expires")) if value is not MISSING else (
            doc.locate(("metadata",)) if "metadata" in front else (1, 1)
        )
        mapping = ("metadata",) if isinstance(metadata, dict) and ("metadata",) in spans else None
        place = ExpiryPlace("metadata.expires", value, location, "$.metadata.expires", parse_date(inner.get("updated")), mapping)
        if "expires" in front:
            place.stray.append(("expires", front["expires"], doc.locate(("expires",))))
        return ClaimRecord("note", pieces, place)
    return ClaimRecord("note", pieces, _top_or_metadata_place(doc, front, spans, metadata))


def _top_or_metadata_place(doc: MarkdownDocument, front: dict, spans: dict, metadata) -> ExpiryPlace:
    """A claude-code or three-layer note's expiry: at the top, or under `metadata:` when the note uses that layout.

    Recent Claude Code keeps only name and description at the top and everything
    else under `metadata:`, and rewrites the front matter that way: a date added
    at the top of such a note would be moved or dropped, so it goes under
    `metadata:`. A date already at either place counts (metadata's first).
    """
    layered = isinstance(metadata, dict) and ("metadata",) in spans
    inner = metadata if layered else {}
    dated = [front, inner]
    record_date = next((parse_date(m.get(k)) for m in dated for k in NOTE_DATE_KEYS if parse_date(m.get(k))), None)
    if "expires" in inner:
        return ExpiryPlace(
            "metadata.expires", inner["expires"], doc.locate(("metadata", "expires")), "$.metadata.expires",
            record_date, ("metadata",),
        )
    if "expires" in front:
        return ExpiryPlace("expires", front["expires"], doc.locate(("expires",)), "$.expires", record_date, ())
    if layered:
        return ExpiryPlace("metadata.expires", MISSING, doc.locate(("metadata",)), "$.metadata.expires", record_date, ("metadata",))
    # The top of the front matter (fixes/expiry.py opens one when there is none).
    return ExpiryPlace("expires", MISSING, (1, 1), "$.expires", record_date, ())


def _prose_pieces(doc: MarkdownDocument) -> list[TextPiece]:
    """The body's prose, one piece per block (paragraph, list item, table cell); headings and to-do items left out.

    A heading names a topic ("## Not supported yet") and a to-do item ("[ ] find out why X does not
    load") is a plan, not a finding: neither states a claim to date.
    """
    blocks: dict[int, list] = {}
    for span in doc.prose():
        if span.kind in ("heading", "task"):
            continue
        blocks.setdefault(span.block, []).append(span)
    pieces = []
    for spans in blocks.values():
        starts = []
        parts = []
        offset = 0
        for span in spans:
            starts.append(offset)
            parts.append(span.text)
            offset += len(span.text) + 1
        text = "\n".join(parts)

        def locate(position: int, sentence: str, spans=spans, starts=starts):
            index = max(i for i, start in enumerate(starts) if start <= position) if starts else 0
            span = spans[index]
            source = span.source_offset(position - starts[index])
            if source is None:
                return span.line, span.column + (position - starts[index])
            return doc.line_col(source)

        pieces.append(TextPiece(text, locate, None, inline_code=True))
    return pieces


# -- episodes ---------------------------------------------------------------------


def _episode_records(doc: JsonlDocument) -> list[ClaimRecord]:
    found = []
    for record in doc.records:
        if not record.ok or not isinstance(record.data, dict):
            continue
        data = record.data
        pieces = []
        for name in EPISODE_TEXT_FIELDS:
            if isinstance(data.get(name), str):
                span = doc.value_span(record, (name,))
                if span is not None:
                    pieces.append(TextPiece(data[name], _scalar_locator(doc, span[0], span[1]), f"$.{name}"))
        value = data.get("expires", MISSING)
        location = doc.locate(record, ("expires",)) if value is not MISSING else (record.line, record.column)
        record_date = date_prefix(data.get("ts")) or date_prefix(data.get("date"))
        archived = doc.kind.name == "episode-archive" or data.get("decay_status") == "archived" or data.get("archived") is True
        place = ExpiryPlace("expires", value, location, "$.expires", record_date, (), record=record, archived=archived)
        found.append(ClaimRecord("episode", pieces, place))
    return found


# -- facts --------------------------------------------------------------------------


def _fact_claim_records(doc: YamlDocument, profile: str) -> list[ClaimRecord]:
    """One record per mapping that holds string values (and one per string list item, which has no place)."""
    if not isinstance(doc.data, dict):
        return []
    spans = doc.tree.spans
    found: list[ClaimRecord] = []
    by_mapping: dict[tuple, ClaimRecord] = {}

    def mapping_place(path: tuple, mapping: dict, dated_above: ExpiryPlace | None) -> ExpiryPlace:
        if "expires" in mapping:
            where = path + ("expires",)
            return ExpiryPlace("expires", mapping["expires"], doc.locate(where), format_json_path(where), _own_date(mapping), None)
        if dated_above is not None:
            return dated_above
        return ExpiryPlace(
            "expires",
            MISSING,
            doc.locate(path) if path else (1, 1),
            format_json_path(path + ("expires",)),
            _own_date(mapping),
            path if path in spans else None,
        )

    def piece(item: str, span, path: tuple) -> TextPiece:
        return TextPiece(item, _scalar_locator(doc, span.start_offset, span.end_offset), format_json_path(path))

    def walk(value, path: tuple, place: ExpiryPlace | None, depth: int = 0):
        if depth > MAX_DEPTH:
            return
        if isinstance(value, dict):
            if value.get("archived") is True:
                return
            own = mapping_place(path, value, place if place is not None and place.present else None)
            for key, item in value.items():
                if key == "expires":
                    continue
                if isinstance(item, str):
                    span = spans.get(path + (key,))
                    if span is None:
                        continue
                    record = by_mapping.get(path)
                    if record is None:
                        record = by_mapping[path] = ClaimRecord("fact", [], own)
                        found.append(record)
                    record.pieces.append(piece(item, span, path + (key,)))
                else:
                    walk(item, path + (key,), own, depth + 1)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, str):
                    span = spans.get(path + (index,))
                    if span is None:
                        continue
                    dated = place if place is not None and place.present else None
                    item_place = dated or ExpiryPlace(
                        "expires", MISSING, (span.line, span.column), format_json_path(path + (index,)), None, None
                    )
                    found.append(ClaimRecord("fact", [piece(item, span, path + (index,))], item_place))
                else:
                    walk(item, path + (index,), place, depth + 1)

    data = doc.data
    if profile == "ghost-in-shell" and isinstance(data, dict):
        data = {key: value for key, value in data.items() if key != "archive"}
    walk(data, (), None)
    return found


def _fact_expiry_places(doc: YamlDocument, profile: str) -> list[ExpiryPlace]:
    """Every `expires` in a facts file, with the mapping's own date (for expired-claim and invalid-expiry)."""
    places = []

    def walk(value, path: tuple, archived: bool, depth: int = 0):
        if depth > MAX_DEPTH:
            return
        if isinstance(value, dict):
            archived = archived or value.get("archived") is True
            if "expires" in value:
                where = path + ("expires",)
                places.append(
                    ExpiryPlace(
                        "expires", value["expires"], doc.locate(where), format_json_path(where), _own_date(value), None,
                        archived=archived,
                    )
                )
            for key, item in value.items():
                inner_archived = archived or (profile == "ghost-in-shell" and not path and key == "archive")
                walk(item, path + (key,), inner_archived, depth + 1)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, path + (index,), archived, depth + 1)

    walk(doc.data, (), False)
    return places


def claim_records(doc, profile: str) -> list[ClaimRecord]:
    """The records of a note, episode log or facts file that may hold claims (read once per document: the claims
    rules, stats and coherence all ask; a fixing round parses the documents it changed again)."""
    held = doc.__dict__.setdefault("_claim_records", {})
    if profile not in held:
        held[profile] = _claim_records(doc, profile)
    return held[profile]


def _claim_records(doc, profile: str) -> list[ClaimRecord]:
    if isinstance(doc, JsonlDocument) and doc.kind.name in EPISODE_KINDS:
        return _episode_records(doc)
    if isinstance(doc, MarkdownDocument) and doc.kind.name == "note":
        return [_note_record(doc, profile)]
    if isinstance(doc, YamlDocument) and doc.kind.name == "facts":
        return _fact_claim_records(doc, profile)
    return []


def expiry_places(doc, profile: str) -> list[ExpiryPlace]:
    """Every expiry place of a document, archived ones marked, absent ones included."""
    if isinstance(doc, YamlDocument) and doc.kind.name == "facts":
        return _fact_expiry_places(doc, profile)
    return [record.place for record in claim_records(doc, profile)]


# -- dated statements -------------------------------------------------------------------

_MONTHS = {
    name: number
    for number, names in enumerate(
        (("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"),
         ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"), ("october", "oct"),
         ("november", "nov"), ("december", "dec")),
        start=1,
    )
    for name in names
}
_MONTH_NAME = "|".join(sorted(_MONTHS, key=len, reverse=True))
# A date as memory writes it: 2026-03-31, 2026/03/31, 2026-03, March 31, 2026, 31 March 2026, March 2026,
# 2026年3月31日, 2026年3月.


def _date_text(group: str) -> str:
    return (
        rf"(?P<{group}>\d{{4}}[-/.]\d{{1,2}}(?:[-/.]\d{{1,2}})?(?![\d/.-]\d)"
        rf"|(?:{_MONTH_NAME})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
        rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{_MONTH_NAME})\.?,?\s+\d{{4}}"
        rf"|(?:{_MONTH_NAME})\.?,?\s+\d{{4}}"
        r"|\d{4}\s*年\s*\d{1,2}\s*月(?:\s*\d{1,2}\s*日)?"
        r"|\d{4}\s*년\s*\d{1,2}\s*월(?:\s*\d{1,2}\s*일)?)"
    )


# What every alternative of _date_text needs (its year), so what no dated statement lacks (a test checks both).
_YEAR = LazyPattern(r"\d{4}")

# A snapshot: the statement was true on that date. A deadline: it must be looked at again by then.
# Issue 29: the labels CJK memory puts before a date (最終確認: 2026-03-01, 確認日：, 最後確認, 統計至) and
# the Korean forms after one (2026-04-01 기준, 현재, 확인), with a month's end or start (2026年3月末時点).
_SNAPSHOT = LazyPattern(
    r"(?i)\b(?:(?:last\s+)?(?:verified|checked|confirmed|tested|validated|reviewed|re-?verified|re-?checked)"
    r"(?:\s+(?:on|at|as\s+of))?|as\s+of|accurate\s+as\s+of|current\s+as\s+of)\s*:?\s+" + _date_text("d1")
    + r"|(?:截至|截止|統計至|统计至|確認於|确认于|驗證於|验证于|查證於|查证于|檢查於|检查于|"
    r"(?:最終|最后|最後)(?:確認|确认|検証|驗證|验证)(?:日|日期|時間|时间)?\s*[:：]?|"
    r"(?:確認|确认|検証|驗證|验证)(?:日|日期|時間|时间)\s*[:：]?|(?:確認|确认|検証|驗證|验证)\s*[:：])\s*" + _date_text("d2")
    + "|" + _date_text("d3") + r"\s*(?:末|初|上旬|中旬|下旬)?\s*(?:時点|現在|時點|时点|に確認|確認済み|確認|确认|驗證|验证|"
    r"기준|현재|확인|시점)"
)
# A verification of one build, version or commit ("verified 2026-08-20 against v1.0.0-beta.4") stays true of it.
_PINNED_AFTER = LazyPattern(r"\s+(?:against|at commit|@)\s", re.I)
# "As of 2026-03-01 the repo was renamed", "as of 2026-02 we use uv": the date records when something
# changed, a fact of history that does not go stale. Read in the clause after an "as of" snapshot.
_CHANGE_AFTER = LazyPattern(
    r"(?i)[^.;:。；：]{0,80}?\b(?:renamed|moved|migrated|switched|replaced|merged|introduced|added|became|adopted|"
    r"(?:we|I|the team|the project)\s+(?:now\s+)?(?:use|uses|moved|switched|started|began|adopted|dropped|removed)|"
    r"(?:is|are)\s+now\b|now\s+(?:uses?|lives?|runs?|points?)|starts?\s+using|started|began|changed)\b"
)
_DEADLINE = LazyPattern(
    r"(?i)\b(?:review|re-?verify|re-?check|recheck|revisit|re-?evaluate|re-?test|check\s+again)\s+(?:by|before)"
    r"\s*:?\s+" + _date_text("d1")
    + r"|\b(?:valid|good|true|applies)\s+(?:until|through|till)\s*:?\s+" + _date_text("d2")
    + r"|(?:有效期至|有效至|有效期限至|有效到)\s*" + _date_text("d3")
    + "|" + _date_text("d4") + r"\s*(?:前複查|前复查|前重新確認|前重新确认|まで有効|までに再確認|までに見直)"
)


@dataclass(frozen=True)
class DatedStatement:
    """"verified 2026-03-31", "review by 2026-06-01", 「截至 2026 年 3 月」 in a record's prose."""

    start: int  # offset in the piece's text
    end: int
    text: str
    date: dt.date
    deadline: bool  # "review by" / "valid until" (False: a snapshot, "verified" / "as of")


def _text_date(value: str, deadline: bool) -> dt.date | None:
    """The date a statement names; a month alone is its first day for a snapshot, its last for a deadline."""
    value = value.strip()
    numbers = re.findall(r"\d+", value)
    month_name = re.search(_MONTH_NAME, value, re.I)
    try:
        if month_name:
            year = int(next(n for n in numbers if len(n) == 4))
            month = _MONTHS[month_name.group().lower()]
            days = [int(n) for n in numbers if len(n) <= 2]
            day = days[0] if days else None
        else:
            year, month = int(numbers[0]), int(numbers[1])
            day = int(numbers[2]) if len(numbers) > 2 else None
        if day is None:
            if not deadline:
                return dt.date(year, month, 1)
            if (year, month) == (dt.MAXYEAR, 12):
                return dt.date.max
            following = dt.date(year + (month == 12), month % 12 + 1, 1)
            return following - dt.timedelta(days=1)
        return dt.date(year, month, day)
    except (ValueError, StopIteration, IndexError, KeyError):
        return None


# A dated statement holds its year: its words stand a short way before it, its date's tail a short way after.
_BEFORE_YEAR, _AFTER_YEAR = 400, 200


def _around_years(text: str) -> list[tuple[int, int]]:
    """Disjoint spans of the text around each run of four digits: where a dated statement can be.

    The date patterns are long alternations, about a microsecond a character; on a long line of
    tokens or a big note they ran over all of it, though a date can only be where a year is.
    """
    spans: list[list[int]] = []
    for year in _YEAR.finditer(text):
        start, end = max(0, year.start() - _BEFORE_YEAR), min(len(text), year.end() + _AFTER_YEAR)
        if spans and start <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], end)
        else:
            spans.append([start, end])
    return [(start, end) for start, end in spans]


def dated_statements(text: str) -> list[DatedStatement]:
    """The snapshots and deadlines a piece of prose dates itself with, in order."""
    if not _YEAR.search(text):
        return []  # every date _date_text reads holds a year of four digits: most prose has none
    found = []
    windows = _around_years(text)
    for pattern, deadline in ((_SNAPSHOT, False), (_DEADLINE, True)):
        for match in (m for start, end in windows for m in pattern.finditer(text, start, end)):
            if not deadline and match.group().lower().startswith("as of") and _CHANGE_AFTER.match(text, match.end()):
                continue  # "as of 2026-03-01 the repo was renamed": when it changed, not a snapshot
            if not deadline and _PINNED_AFTER.match(text, match.end()):
                continue  # "Verified 2026-08-20 against v1.0.0-beta.4 @ d295c30": true of that build for good
            value = next(v for k, v in match.groupdict().items() if v is not None)
            date = _text_date(value, deadline)
            if date is not None:
                found.append(DatedStatement(match.start(), match.end(), match.group(), date, deadline))
    return sorted(found, key=lambda statement: statement.start)

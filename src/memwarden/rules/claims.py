"""Negative claims must expire: "memory's negative sentences are dated snapshots".

A note that says a tool does not support something, an episode that found
nothing, a fact that something is unavailable: each was true when written and
goes stale without a word. These rules ask for an `expires` date on every such
record, warn when that date has passed, and check that the date is a real one.

Where `expires` lives, by kind:

- gish note (ghost-in-shell `note`): `metadata.expires` in the front matter. A
  top-level `expires` still counts as an expiry (the claim is dated), but
  `invalid-expiry` reports it: gish reads `metadata.expires` only.
- three-layer and claude-code note: a top-level front-matter `expires`.
- episode (`episodic`, `episode-archive`): the record's own `expires` field.
- facts: an `expires` key in the mapping that holds the claim, or in any
  mapping around it. A claim that is a list item has no place of its own for
  an expiry: it is reported without a fix. Archived facts (gish `archive:`, a
  three-layer mapping with `archived: true`) are not read.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from memwarden.discover.profiles import EPISODE_KINDS
from memwarden.documents import JsonlDocument, MarkdownDocument, YamlDocument, format_json_path
from memwarden.documents.markdown import CODE_PLACEHOLDER
from memwarden.fixes import edits as structured
from memwarden.model import Applicability, Edit, Fix, Option, Problem, Severity
from memwarden.analysis.negation import find_claims
from memwarden.registry import rule
from memwarden.text import excerpt

CLAIM_KINDS = ("note", "facts", "episodic", "episode-archive")
EPISODE_TEXT_FIELDS = ("title", "summary", "content", "detail", "lesson")
# Keys that give a facts mapping its own date, for "expires before the record's own date".
FACT_DATE_KEYS = ("last_updated", "updated", "date", "created", "since", "verified")
NOTE_DATE_KEYS = ("updated", "date", "created")
QUOTE_CHARS = 80
DEFAULT_MAX_TTL = 365

_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})\Z")
_DATE_PREFIX = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_MISSING = object()


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


def _date_prefix(value: Any) -> dt.date | None:
    """The date a timestamp or date string starts with."""
    return _date_of(_DATE_PREFIX.match(value.strip())) if isinstance(value, str) else None


def quote(sentence: str, inline_code: bool = False) -> str:
    """The sentence for a message: one line, at most QUOTE_CHARS characters.

    In Markdown prose, inline code was replaced by a placeholder before the
    detector read it; the quote shows it as `…` rather than the placeholder word.
    """
    if inline_code:
        sentence = re.sub(rf"\b{CODE_PLACEHOLDER}\b", "`…`", sentence)
    # A claim's paths and versions are its point, so long runs are not masked here.
    return excerpt(sentence, QUOTE_CHARS, mask_tokens=False)


# -- where a record keeps its expiry ----------------------------------------------


@dataclass
class ExpiryPlace:
    """The `expires` of one record: where it is (or would go), its value, and its record's date."""

    name: str  # how messages name it: "metadata.expires", "expires"
    value: Any  # _MISSING when absent
    location: tuple[int, int]  # the expires key, or the record when it is absent
    json_path: str
    record_date: dt.date | None
    insert: Callable[[str], Edit | None] | None  # the edit adding `expires: <date>`; None when there is no safe place
    archived: bool = False
    stray: list[tuple[str, Any, tuple[int, int]]] = field(default_factory=list)  # (name, value, location) out of place

    @property
    def present(self) -> bool:
        return self.value is not _MISSING or bool(self.stray)


@dataclass
class TextPiece:
    """Prose to read for claims, with a way to turn an offset in it into a line and column."""

    text: str
    locate: Callable[[int, str], tuple[int, int]]  # (offset in text, sentence) -> (line, column)
    json_path: str | None
    inline_code: bool = False  # Markdown prose, where inline code reads as a placeholder


@dataclass
class Entry:
    """A record that may hold claims: its prose and its expiry place."""

    what: str  # "note", "episode", "fact"
    pieces: list[TextPiece]
    place: ExpiryPlace


def _scalar_locator(doc, start: int, end: int):
    """Locate a sentence inside a value whose source text is doc.text[start:end] (quotes and escapes included)."""

    def locate(offset: int, sentence: str) -> tuple[int, int]:
        source = doc.text[start:end]
        probe = sentence[:16]
        at = source.find(probe) if probe else -1
        return doc.line_col(start + (at if at != -1 else 0))

    return locate


def _date_style(doc, spans: dict, mapping_path: tuple) -> str | None:
    """Quote the new date like a sibling date is quoted (`updated: "2026-10-01"`), else plain."""
    for _, span in structured.child_spans(spans, mapping_path):
        if span.style in ("'", '"') and _DATE_PREFIX.fullmatch(doc.text[span.start_offset + 1 : span.end_offset - 1]):
            return span.style
    return None


def _yaml_date(value: str, style: str | None) -> str:
    if style == "'":
        return f"'{value}'"
    if style == '"':
        return f'"{value}"'
    return value


# -- notes ----------------------------------------------------------------------


def _note_entry(doc: MarkdownDocument, profile: str) -> Entry:
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
        value = inner.get("expires", _MISSING)
        location = doc.locate(("metadata", "expires")) if value is not _MISSING else (
            doc.locate(("metadata",)) if "metadata" in front else (1, 1)
        )
        record_date = parse_date(inner.get("updated"))
        insert = None
        if isinstance(metadata, dict) and ("metadata",) in spans:
            style = _date_style(doc, spans, ("metadata",))
            insert = lambda date: structured.yaml_insert_key(  # noqa: E731
                doc.text, spans, ("metadata",), "expires", _yaml_date(date, style), doc.newline
            )
        place = ExpiryPlace("metadata.expires", value, location, "$.metadata.expires", record_date, insert)
        if "expires" in front:
            place.stray.append(("expires", front["expires"], doc.locate(("expires",))))
        return Entry("note", pieces, place)
    value = front.get("expires", _MISSING)
    location = doc.locate(("expires",)) if value is not _MISSING else (1, 1)
    record_date = next((parse_date(front.get(k)) for k in NOTE_DATE_KEYS if parse_date(front.get(k))), None)
    return Entry("note", pieces, ExpiryPlace("expires", value, location, "$.expires", record_date, _note_top_insert(doc, spans)))


def _note_top_insert(doc: MarkdownDocument, spans: dict):
    newline = doc.newline
    if doc.front_matter_lines is None:
        # No front matter at all: open one holding just the date.
        return lambda date: Edit(0, 0, f"---{newline}expires: {date}{newline}---{newline}")
    if () in spans and doc.front_matter is not None and doc.front_matter:
        style = _date_style(doc, spans, ())
        return lambda date: structured.yaml_insert_key(
            doc.text, spans, (), "expires", _yaml_date(date, style), newline
        )
    if doc.front_matter == {} and () not in spans:
        closing = doc.line_starts[doc.front_matter_lines[1] - 1]
        return lambda date: structured.yaml_insert_before_line(doc.text, closing, "expires", date, newline)
    return None


def _prose_pieces(doc: MarkdownDocument) -> list[TextPiece]:
    """The body's prose, one piece per block (paragraph, list item, heading, table cell)."""
    blocks: dict[int, list] = {}
    for span in doc.prose():
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
            return span.line, span.column + (position - starts[index])

        pieces.append(TextPiece(text, locate, None, inline_code=True))
    return pieces


# -- episodes ---------------------------------------------------------------------


def _episode_entries(doc: JsonlDocument) -> list[Entry]:
    entries = []
    for record in doc.records:
        if not record.ok or not isinstance(record.data, dict):
            continue
        data = record.data
        pieces = []
        for name in EPISODE_TEXT_FIELDS:
            if isinstance(data.get(name), str):
                found = doc.value_span(record, (name,))
                if found is not None:
                    pieces.append(TextPiece(data[name], _scalar_locator(doc, found[0], found[1]), f"$.{name}"))
        value = data.get("expires", _MISSING)
        location = doc.locate(record, ("expires",)) if value is not _MISSING else (record.line, record.column)
        record_date = _date_prefix(data.get("ts")) or _date_prefix(data.get("date"))

        def insert(date: str, record=record):
            source = record.source(doc)
            return structured.json_insert_member(
                source, doc.positions(record).spans, record.start, "expires", structured.json_string(date, source)
            )

        archived = doc.kind.name == "episode-archive" or data.get("decay_status") == "archived" or data.get("archived") is True
        place = ExpiryPlace("expires", value, location, "$.expires", record_date, insert, archived=archived)
        entries.append(Entry("episode", pieces, place))
    return entries


# -- facts --------------------------------------------------------------------------


def _fact_entries(doc: YamlDocument, profile: str) -> list[Entry]:
    """One entry per mapping that holds string values (and one per string list item, which has no place)."""
    if not isinstance(doc.data, dict):
        return []
    spans = doc.tree.spans
    entries: list[Entry] = []
    by_mapping: dict[tuple, Entry] = {}

    def mapping_place(path: tuple, mapping: dict, dated_above: ExpiryPlace | None) -> ExpiryPlace:
        if "expires" in mapping:
            return ExpiryPlace(
                "expires",
                mapping["expires"],
                doc.locate(path + ("expires",)),
                format_json_path(path + ("expires",)),
                next((_date_prefix(mapping.get(k)) for k in FACT_DATE_KEYS if _date_prefix(mapping.get(k))), None),
                None,
            )
        if dated_above is not None:
            return dated_above
        style = _date_style(doc, spans, path)
        insert = lambda date: structured.yaml_insert_key(  # noqa: E731
            doc.text, spans, path, "expires", _yaml_date(date, style), doc.newline
        )
        return ExpiryPlace(
            "expires",
            _MISSING,
            doc.locate(path) if path else (1, 1),
            format_json_path(path + ("expires",)),
            next((_date_prefix(mapping.get(k)) for k in FACT_DATE_KEYS if _date_prefix(mapping.get(k))), None),
            insert if path in spans else None,
        )

    def walk(value, path: tuple, place: ExpiryPlace | None, depth: int = 0):
        if depth > 64:
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
                    entry = by_mapping.get(path)
                    if entry is None:
                        entry = by_mapping[path] = Entry("fact", [], own)
                        entries.append(entry)
                    entry.pieces.append(
                        TextPiece(item, _scalar_locator(doc, span.start_offset, span.end_offset), format_json_path(path + (key,)))
                    )
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
                        "expires", _MISSING, (span.line, span.column), format_json_path(path + (index,)), None, None
                    )
                    entries.append(
                        Entry(
                            "fact",
                            [TextPiece(item, _scalar_locator(doc, span.start_offset, span.end_offset), format_json_path(path + (index,)))],
                            item_place,
                        )
                    )
                else:
                    walk(item, path + (index,), place, depth + 1)

    data = doc.data
    if profile == "ghost-in-shell" and isinstance(data, dict):
        data = {key: value for key, value in data.items() if key != "archive"}
    walk(data, (), None)
    return entries


def _fact_expiry_places(doc: YamlDocument, profile: str) -> list[ExpiryPlace]:
    """Every `expires` in a facts file, with the mapping's own date (for expired-claim and invalid-expiry)."""
    places = []

    def walk(value, path: tuple, archived: bool, depth: int = 0):
        if depth > 64:
            return
        if isinstance(value, dict):
            archived = archived or value.get("archived") is True
            if "expires" in value:
                record_date = next((_date_prefix(value.get(k)) for k in FACT_DATE_KEYS if _date_prefix(value.get(k))), None)
                places.append(
                    ExpiryPlace(
                        "expires",
                        value["expires"],
                        doc.locate(path + ("expires",)),
                        format_json_path(path + ("expires",)),
                        record_date,
                        None,
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


def entries_of(doc, profile: str) -> list[Entry]:
    if isinstance(doc, JsonlDocument) and doc.kind.name in EPISODE_KINDS:
        return _episode_entries(doc)
    if isinstance(doc, MarkdownDocument) and doc.kind.name == "note":
        return [_note_entry(doc, profile)]
    if isinstance(doc, YamlDocument) and doc.kind.name == "facts":
        return _fact_entries(doc, profile)
    return []


def expiry_places(doc, profile: str) -> list[ExpiryPlace]:
    if isinstance(doc, YamlDocument) and doc.kind.name == "facts":
        return _fact_expiry_places(doc, profile)
    return [entry.place for entry in entries_of(doc, profile)]


def _max_ttl(ctx) -> int:
    """invalid-expiry's max_ttl, so the fix never writes a date that rule would reject."""
    value = ctx.workspace.config.rules.get("invalid-expiry", {}).get("max_ttl", DEFAULT_MAX_TTL)
    return value if isinstance(value, int) and not isinstance(value, bool) else DEFAULT_MAX_TTL


# -- rules ------------------------------------------------------------------------


@rule(
    code="MW301",
    name="negative-claim-without-expiry",
    severity=Severity.ERROR,
    kinds=CLAIM_KINDS,
    fix=Applicability.SAFE,
    options={"default_ttl": Option(90, int, "days from today that the fix's expires date lies ahead")},
)
def negative_claim_without_expiry(doc, ctx):
    """A note, episode or fact that says something does not exist, is not supported or was not found, with no `expires` date.

    ## What it does
    Reads the prose of notes (front-matter `description` and the body, without
    code blocks, inline code or URLs), the text fields of episodes (`title`,
    `summary`, `content`, `detail`, `lesson`) and every string value of the
    facts, and finds sentences that state a negative about the world: "gh does
    not support draft releases", 「找不到相關資料」, 「该版本没有批量导出功能」,
    「このAPIはページングに対応していない」. Directives ("never run rm -rf",
    「不要刪除」, 「しないでください」), questions, conditions ("if the file
    does not exist") and words that only look negative ("not only", "unless",
    "nonce", 「非常」, 「少ない」) are not claims. English, Traditional and
    Simplified Chinese and Japanese are understood. The finding quotes the
    sentence.

    The expiry goes where each kind keeps it: a gish note's `metadata.expires`;
    a three-layer or claude-code note's top-level `expires`; an episode's
    `expires` field; for facts, the mapping that holds the claim (or one
    around it).

    ## Why
    Memory's negative sentences are dated snapshots. The tool adds the feature
    a month later, the search that found nothing is one query among many, and
    the agent keeps believing the old "no" because nothing tells it to look
    again. An expiry date makes the claim come back for review.

    ## Example
    ```markdown
    ---
    name: gh-drafts
    description: gh does not support listing draft releases
    metadata:
      type: reference
      updated: 2026-03-01
    ---
    ```
    `memory/knowledge/references/gh-drafts.md:3:14: MW301 negative-claim-without-expiry negative claim with no expiry date: "gh does not support listing draft releases"`

    ## Fix safety
    Safe: adds one line, `expires: <today + default_ttl>` (90 days by default,
    never past `invalid-expiry`'s `max_ttl`), as the last key of the mapping
    that keeps the date, indented like its siblings; or, in an episode, one
    `"expires"` member before the closing brace, spaced like the record's own
    members. Comments, quoting, key order, line endings and the BOM are not
    touched, and a second run finds the date and changes nothing. A claim that
    is a list item in the facts has no place for a date and gets no fix.
    """
    ttl = min(ctx.options["default_ttl"], _max_ttl(ctx))
    profile = ctx.workspace.profile.name
    for entry in entries_of(doc, profile):
        if entry.place.present:
            continue
        fix = None
        for piece in entry.pieces:
            for claim in find_claims(piece.text):
                if fix is None and entry.place.insert is not None:
                    base = max(ctx.today, entry.place.record_date or ctx.today)
                    date = (base + dt.timedelta(days=ttl)).isoformat()
                    edit = entry.place.insert(date)
                    if edit is not None:
                        fix = Fix(Applicability.SAFE, f"add {entry.place.name}: {date} ({ttl} days from now)", (edit,))
                line, column = piece.locate(claim.start, claim.sentence)
                if entry.place.insert is None and entry.what == "fact":
                    advice = "a list item has no place for a date: move the claim into a mapping with an `expires`"
                else:
                    advice = f"add `{entry.place.name}` so it is checked again"
                yield Problem(
                    line,
                    column,
                    f'negative claim with no expiry date: "{quote(claim.sentence, piece.inline_code)}" ({advice})',
                    json_path=piece.json_path,
                    fix=fix,
                )


@rule(code="MW302", name="expired-claim", severity=Severity.WARNING, kinds=CLAIM_KINDS)
def expired_claim(doc, ctx):
    """A record whose `expires` date has passed: re-verify it, then move the date or archive it.

    ## What it does
    Compares every `expires` date in the places the claims rules read (a gish
    note's `metadata.expires`, a note's or an episode's `expires`, any
    `expires` in the facts) with today, or with the date given by `--today`.
    Archived records are skipped: they are no longer believed.

    ## Why
    The date was set because the record could go stale. Once it has passed,
    the agent is reading a claim nobody has checked since: the "not supported"
    may be supported now.

    ## Example
    ```markdown
    ---
    name: gh-drafts
    description: gh does not support listing draft releases
    metadata:
      type: reference
      updated: 2025-09-01
      expires: 2025-12-01
    ---
    ```
    With `--today 2026-03-01`:
    `memory/knowledge/references/gh-drafts.md:7:3: MW302 expired-claim expired on 2025-12-01, 90 days ago: re-verify the claim, then move the date or archive the note`

    ## Fix safety
    No fix: only checking the claim again can say whether it still holds.
    """
    profile = ctx.workspace.profile.name
    for place in expiry_places(doc, profile):
        if place.archived:
            continue
        candidates = [(place.value, place.location, place.json_path)] if place.value is not _MISSING else []
        candidates += [(value, location, "$." + name) for name, value, location in place.stray]
        for value, location, json_path in candidates[:1]:
            date = parse_date(value)
            if date is None or date >= ctx.today:
                continue
            days = (ctx.today - date).days
            what = "note" if isinstance(doc, MarkdownDocument) else "record"
            yield Problem(
                location[0],
                location[1],
                f"expired on {date.isoformat()}, {days} day{'s' if days != 1 else ''} ago: "
                f"re-verify the claim, then move the date or archive the {what}",
                json_path=json_path,
            )


@rule(
    code="MW303",
    name="invalid-expiry",
    severity=Severity.ERROR,
    kinds=CLAIM_KINDS,
    options={"max_ttl": Option(DEFAULT_MAX_TTL, int, "how many days ahead an expires date may lie")},
)
def invalid_expiry(doc, ctx):
    """An `expires` that is not a date, comes before the record's own date, or lies more than `max_ttl` days ahead.

    ## What it does
    Checks each `expires`: it must be a real `YYYY-MM-DD` date, not earlier
    than the record's own date (an episode's `ts` or `date`, a note's
    `updated`, a facts mapping's `last_updated`/`updated`/`date`), and not more
    than `max_ttl` days (default 365) after today. In a gish note, an
    `expires` at the top level of the front matter is reported too: gish
    reads `metadata.expires`, so the top-level one is never seen.

    ## Why
    An expiry that cannot be parsed, or that lies years ahead, silences the
    negative-claim check without ever bringing the claim back for review.
    One before the record's own date is a typo that makes the record look
    stale from the day it was written.

    ## Example
    ```json
    {"ts": "2026-03-01T10:00:00+08:00", "summary": "No ARM build exists", "expires": "2099-01-01", "type": "decision", ...}
    ```
    With `--today 2026-03-01`:
    `memory/episodic.jsonl:1:71: MW303 invalid-expiry $.expires 2099-01-01 is 26604 days ahead; at most 365 are allowed (max_ttl)`

    ## Fix safety
    No fix: the right date is the author's to choose.
    """
    max_ttl = ctx.options["max_ttl"]
    profile = ctx.workspace.profile.name
    for place in expiry_places(doc, profile):
        checks = [(place.value, place.location, place.json_path)] if place.value is not _MISSING else []
        checks += [(value, location, "$." + name) for name, value, location in place.stray]
        for name, _, location in place.stray:
            yield Problem(
                location[0],
                location[1],
                f"`{name}` is at the top level of the front matter; gish reads `metadata.expires`, "
                "so move it under `metadata:`",
                json_path="$." + name,
            )
        for value, location, json_path in checks:
            problem = _expiry_problem(value, place.record_date, ctx.today, max_ttl)
            if problem:
                yield Problem(location[0], location[1], f"{json_path} {problem}", json_path=json_path)


def _expiry_problem(value, record_date: dt.date | None, today: dt.date, max_ttl: int) -> str | None:
    if not isinstance(value, str):
        kind = "empty" if value is None else type(value).__name__
        if isinstance(value, (dict, list)):
            kind = "a mapping" if isinstance(value, dict) else "a list"
        return f"is {kind}, not a date (YYYY-MM-DD)"
    shown = value.strip()
    if not _DATE.match(shown):
        # Show the value only when it is short and date-like; anything else could be pasted by mistake.
        echo = f"'{shown}' " if len(shown) <= 32 and re.fullmatch(r"[0-9A-Za-z :/.+-]*", shown) else ""
        return f"{echo}is not a date (YYYY-MM-DD)".replace("  ", " ")
    date = parse_date(shown)
    if date is None:
        return f"{shown} is an impossible date"
    if record_date is not None and date < record_date:
        return f"{shown} is before the record's own date ({record_date.isoformat()})"
    ahead = (date - today).days
    if ahead > max_ttl:
        return f"{shown} is {ahead} days ahead; at most {max_ttl} are allowed (max_ttl)"
    return None


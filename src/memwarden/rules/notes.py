"""The note contract: what Ghost In Shell's `gish knowledge lint` asks of each knowledge note.

note-name-mismatch (MW108), note-type-mismatch (MW109), empty-note (MW110),
feedback-without-why (MW111) and misplaced-governance-key (MW112). The note's
schema (MW102) checks that each field is there and of its type; these check
what a schema cannot see: the file's own name and folder, and the body.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memwarden.documents.scan import comment_spans
from memwarden.model import Problem, Severity
from memwarden.registry import rule
from memwarden.patterns import LazyPattern
from memwarden.text import excerpt_name, quoted

NOTE_KINDS = ("note",)
GISH = "ghost-in-shell"
# note type -> its shelf folder under memory/knowledge/, as gish files them
SHELVES = {"feedback": "feedback", "project": "projects", "reference": "references", "user": "user"}
# fields gish reads under metadata: only (a top-level `expires` is invalid-expiry's, MW303: one finding for one problem)
GOVERNANCE_KEYS = ("type", "tier", "updated", "confidence", "evidence")
# the two lines as people write them: `**Why:**`, `**Why**:`, `**Why.**`, `**Why it matters:**`, `**When to apply:**`,
# a heading, or the same labels in Chinese, Japanese, French, German and Spanish (`**原因：**`, `**適用時機：**`)
_WHY_LABEL = (r"(?:Why(?:\s+(?:it|this)\s+matters)?|Reason|Rationale|原因|理由|為什麼|为什么|なぜ|Pourquoi|Warum"
              r"|Por\s+qu[eé])")
_HOW_LABEL = (r"(?:(?:How|When)\s+to\s+apply(?:\s+it)?|適用時機|適用方式|适用时机|如何應用|如何应用|如何套用|適用方法"
              r"|使い方|Comment\s+l'appliquer|Anwendung|C[oó]mo\s+aplicar(?:lo)?)")
_WHY = LazyPattern(rf"\*\*\s*{_WHY_LABEL}\s*[:.：]?\s*\*\*|^#{{1,6}}[ \t]+{_WHY_LABEL}(?![A-Za-z])",
                   re.IGNORECASE | re.MULTILINE)
_HOW = LazyPattern(rf"\*\*\s*{_HOW_LABEL}(?![A-Za-z])[^*\n]{{0,3}}\*\*|^#{{1,6}}[ \t]+{_HOW_LABEL}(?![A-Za-z])",
                   re.IGNORECASE | re.MULTILINE)


def _shelf(relpath: str) -> str | None:
    """The shelf folder of a gish note: the first folder below memory/knowledge/ (a note may sit deeper)."""
    parts = relpath.split("/")
    return parts[2] if len(parts) > 3 and parts[:2] == ["memory", "knowledge"] else None


def _metadata(doc) -> dict:
    meta = (doc.front_matter or {}).get("metadata")
    return meta if isinstance(meta, dict) else {}


def note_type(doc, profile: str) -> str | None:
    """The note's type: metadata.type, or (Claude Code's older layout) a top-level type."""
    value = _metadata(doc).get("type")
    if value is None and profile != GISH:
        value = (doc.front_matter or {}).get("type")
    return value if isinstance(value, str) else None


def _body_start(doc) -> int:
    """The first non-blank line of the body (the line after the front matter when the body is blank)."""
    start = doc.body_line if doc.has_front_matter else 1
    for number in range(start, doc.line_count + 1):
        if doc.line_text(number).strip():
            return number
    return min(start, max(doc.line_count, 1))


def value_position(doc, path: tuple) -> tuple[int, int]:
    """Line and column of a front-matter value (its key's, or its closest parent's, when it has no span)."""
    span = doc.span(path)
    return (span.line, span.column) if span is not None else doc.locate(path)


# -- note-name-mismatch ------------------------------------------------------------------


@dataclass(frozen=True)
class NameMismatch:
    name: str
    stem: str

    @property
    def message(self) -> str:
        return (f"name {excerpt_name(self.name)!r} is not the file stem {excerpt_name(self.stem)!r}: gish finds a note "
                "by its file name")


@rule(code="MW108", name="note-name-mismatch", severity=Severity.ERROR, kinds=NOTE_KINDS)
def note_name_mismatch(doc, ctx):
    """A Ghost In Shell note whose `name` is not its file name.

    ## What it does
    In a ghost-in-shell workspace, compares a knowledge note's front-matter
    `name` with its file name without `.md`. A missing `name`, or one that is
    not a string, is the schema's to report (`schema-violation`). Claude Code
    notes are not checked: their `name` is a title.

    ## Why
    gish's note contract says the name is the slug: `gish knowledge lint`
    reports the difference as an error, and a tool that looks a note up by
    name and one that opens it by path then disagree about which note it is.

    ## Example
    ```markdown
    <!-- memory/knowledge/feedback/verify-final-state.md -->
    ---
    name: verify-state
    ```
    `MW108 note-name-mismatch name 'verify-state' is not the file stem 'verify-final-state': ...`

    ## Fix safety
    No fix: whether the file or the name is the one to change is the author's call.
    """
    if ctx.workspace.profile.name != GISH or doc.front_matter is None:
        return
    name = doc.front_matter.get("name")
    stem = doc.relpath.rsplit("/", 1)[-1][: -len(".md")] if doc.relpath.endswith(".md") else None
    if isinstance(name, str) and stem is not None and name != stem:
        yield Problem(*value_position(doc, ("name",)), NameMismatch(name, stem).message, json_path="$.name")


# -- note-type-mismatch ------------------------------------------------------------------


@dataclass(frozen=True)
class TypeMismatch:
    type: str
    shelf: str

    @property
    def message(self) -> str:
        return (
            f"metadata.type {quoted(self.type)} belongs on the shelf '{SHELVES[self.type]}/', "
            f"but this note is on {quoted(self.shelf + '/', 60)}"
        )


@rule(code="MW109", name="note-type-mismatch", severity=Severity.ERROR, kinds=NOTE_KINDS)
def note_type_mismatch(doc, ctx):
    """A Ghost In Shell note whose `metadata.type` does not match the shelf folder it is on.

    ## What it does
    In a ghost-in-shell workspace, reads the shelf of a note (the first folder
    below `memory/knowledge/`) and reports a `metadata.type` that belongs on
    another shelf: `feedback` on `feedback/`, `project` on `projects/`,
    `reference` on `references/`, `user` on `user/`. A note in a subfolder of
    its shelf (`feedback/ci/flaky-tests.md`) is on that shelf. A type outside
    the four is the schema's to report (`schema-violation`).

    ## Why
    gish files a note by its type and lists a shelf by folder: a feedback note
    on the projects shelf is missing from every feedback recall, and `gish
    knowledge lint` reports it as an error.

    ## Example
    ```yaml
    # memory/knowledge/projects/verify-final-state.md
    metadata:
      type: feedback
    ```
    `MW109 note-type-mismatch metadata.type 'feedback' belongs on the shelf 'feedback/', but this note is on 'projects/'`

    ## Fix safety
    No fix: moving the note changes every link to it; changing the type may be the right edit instead.
    """
    if ctx.workspace.profile.name != GISH or doc.front_matter is None:
        return
    kind = _metadata(doc).get("type")
    shelf = _shelf(doc.relpath)
    if isinstance(kind, str) and kind in SHELVES and shelf is not None and shelf != SHELVES[kind]:
        yield Problem(*value_position(doc, ("metadata", "type")), TypeMismatch(kind, shelf).message,
                      json_path="$.metadata.type")


# -- empty-note --------------------------------------------------------------------------


@dataclass(frozen=True)
class EmptyNote:
    message = "note has front matter and no body: there is nothing to recall"


def _blank_body(doc) -> bool:
    body = doc.body
    for start, end in reversed(comment_spans(body)):
        body = body[:start] + body[end:]
    return not body.strip()


@rule(code="MW110", name="empty-note", severity=Severity.ERROR, kinds=NOTE_KINDS)
def empty_note(doc, ctx):
    """A note with front matter and no body.

    ## What it does
    Reports a note whose body, after the front matter, holds nothing but
    whitespace and HTML comments. Applies to the notes of every profile. An
    empty file is `schema-violation`'s (it has no front matter either): one
    problem, one finding.

    ## Why
    The index sends the agent to the note, and the note says nothing: the
    lesson was never written, or was lost in an edit. `gish knowledge lint`
    reports it as an error. (A note emptied since the base is also
    `deleted-note`.)

    ## Example
    ```markdown
    ---
    name: verify-final-state
    description: check the final state, not the tool's report
    metadata: {type: feedback, updated: 2026-10-01}
    ---
    ```
    `MW110 empty-note note has front matter and no body: there is nothing to recall`

    ## Fix safety
    No fix: only the author knows what the note was to say.
    """
    if doc.has_front_matter and _blank_body(doc):
        yield Problem(_body_start(doc), 1, EmptyNote.message)


# -- feedback-without-why ----------------------------------------------------------------


@dataclass(frozen=True)
class FeedbackWithoutWhy:
    missing: tuple[str, ...]

    @property
    def message(self) -> str:
        lines = " and ".join(f"'{label}'" for label in self.missing)
        return f"feedback note has no {lines} line: without them the rule cannot be judged or applied"


@rule(code="MW111", name="feedback-without-why", severity=Severity.WARNING, kinds=NOTE_KINDS)
def feedback_without_why(doc, ctx):
    """A feedback note without its `**Why:**` and `**How to apply:**` lines.

    ## What it does
    Reports a note of type `feedback` (`metadata.type`, or a top-level `type`
    in a Claude Code note) whose body lacks a `**Why:**` line, a
    `**How to apply:**` line, or both. The lines count as people write them:
    `**Why**:`, `**Why.**`, `**Why it matters:**`, `**When to apply:**`, a
    `## Why` heading, or the same labels in another language (`**原因：**`,
    `**適用時機：**`, `**Pourquoi :**`, `**Warum:**`); gish itself accepts only
    the first spelling. An empty note is
    `empty-note`'s, not this rule's. Applies to Ghost In Shell and Claude
    Code notes, whose note templates both ask for the two lines.

    ## Why
    A rule without its reason is applied blindly or dropped at the first
    doubt; without the situation it applies to, the agent does not recognise
    the moment. `gish knowledge lint` warns about it.

    ## Example
    ```markdown
    Check the final state where the user will see it.
    ```
    `MW111 feedback-without-why feedback note has no '**Why:**' and '**How to apply:**' line: ...`

    ## Fix safety
    No fix: the reason and the situation are the author's to write.
    """
    if ctx.workspace.profile.name not in (GISH, "claude-code") or doc.front_matter is None:
        return
    if note_type(doc, ctx.workspace.profile.name) != "feedback" or _blank_body(doc):
        return
    body = doc.body
    missing = tuple(label for label, pattern in (("**Why:**", _WHY), ("**How to apply:**", _HOW))
                    if not pattern.search(body))
    if missing:
        yield Problem(_body_start(doc), 1, FeedbackWithoutWhy(missing).message)


# -- misplaced-governance-key ------------------------------------------------------------


@dataclass(frozen=True)
class MisplacedKey:
    key: str
    also_under_metadata: bool

    @property
    def message(self) -> str:
        where = " (metadata has its own, which gish reads)" if self.also_under_metadata else ""
        return f"'{self.key}' belongs under metadata:, not at the top level: gish never reads it there{where}"


@rule(code="MW112", name="misplaced-governance-key", severity=Severity.WARNING, kinds=NOTE_KINDS)
def misplaced_governance_key(doc, ctx):
    """A Ghost In Shell note with `type`, `tier`, `updated`, `confidence` or `evidence` at the top level.

    ## What it does
    In a ghost-in-shell workspace, reports each of the governance keys
    `type`, `tier`, `updated`, `confidence` and `evidence` written at the top
    level of a note's front matter instead of under `metadata:`. A top-level
    `expires` is reported by `invalid-expiry` (MW303), once. Claude Code notes
    are not checked: their older layout keeps `type` at the top.

    ## Why
    gish reads these keys only under `metadata:`: a top-level `updated` never
    dates the note, a top-level `confidence` never weighs it, and `gish
    knowledge lint` warns about each.

    ## Example
    ```yaml
    name: verify-final-state
    confidence: 0.9
    metadata: {type: feedback, updated: 2026-10-01}
    ```
    `MW112 misplaced-governance-key 'confidence' belongs under metadata:, not at the top level: ...`

    ## Fix safety
    No fix: when metadata already has the key, which value is right is the author's call.
    """
    if ctx.workspace.profile.name != GISH or doc.front_matter is None:
        return
    meta = _metadata(doc)
    for key in GOVERNANCE_KEYS:
        if key in doc.front_matter:
            yield Problem(*doc.locate((key,)), MisplacedKey(key, key in meta).message, json_path=f"$.{key}")

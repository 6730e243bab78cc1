"""Tag rules: every entry carries at least two distinct tags, spelled one way."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from memwarden.patterns import LazyPattern
from memwarden.kinds import EPISODE_KINDS
from memwarden.documents import JsonlDocument, MarkdownDocument
from memwarden.fixes import edits as structured
from memwarden.model import Applicability, Edit, Fix, Option, Problem, Severity
from memwarden.analysis.tags import normalize_tag
from memwarden.analysis.tags import normalized_tags as normalized
from memwarden.registry import rule
from memwarden.text import quoted

TAGGED_KINDS = EPISODE_KINDS + ("note",)
# The fields of an episode that say what it is about, in both profiles' spelling.
EPISODE_TEXT_FIELDS = ("title", "summary", "content", "detail", "lesson")
_CJK = LazyPattern(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")




@dataclass
class TagList:
    """One entry's `tags`, where it is, and how to edit it."""

    doc: Any
    record: Any  # a JSONL Record, or None for a note's front matter
    tags: list
    what: str  # "episode" / "note", for messages

    @property
    def location(self) -> tuple[int, int]:
        if self.record is not None:
            return self.doc.locate(self.record, ("tags",))
        return self.doc.locate(("tags",))

    def text(self) -> str:
        """What the entry says, for finding tags it should carry."""
        if self.record is not None:
            return "\n".join(
                self.record.data[name] for name in EPISODE_TEXT_FIELDS if isinstance(self.record.data.get(name), str)
            )
        parts = []
        for key in ("name", "description"):
            if isinstance(self.doc.front_matter.get(key), str):
                parts.append(self.doc.front_matter[key])
        parts.extend(span.text for span in self.doc.prose())
        return "\n".join(parts)

    def append_edit(self, values: list[str]) -> Edit | None:
        if self.record is not None:
            source = self.record.source(self.doc)
            spans = self.doc.positions(self.record).spans
            return structured.json_append_items(source, spans, self.record.start, ("tags",), values)
        spans = self.doc.front_matter_tree.spans
        return structured.yaml_append_items(self.doc.text, spans, ("tags",), values, self.doc.newline)

    def rewrite_edits(self, new_values: list[str | None]) -> list[Edit] | None:
        if self.record is not None:
            source = self.record.source(self.doc)
            spans = self.doc.positions(self.record).spans
            return structured.json_rewrite_items(source, spans, self.record.start, ("tags",), new_values)
        spans = self.doc.front_matter_tree.spans
        return structured.yaml_rewrite_items(self.doc.text, spans, ("tags",), new_values)


def tag_lists(doc) -> list[TagList]:
    """Every `tags` list of a document: each episode's, or a note's front matter's.

    An episode without `tags` is left to schema-violation (the key is required
    there). A note is checked only when it has a `tags` key: notes are found
    through the index, so tags are optional on them, but once given they
    follow the same rules.
    """
    found = []
    if isinstance(doc, JsonlDocument):
        for record in doc.records:
            if record.ok and isinstance(record.data, dict) and isinstance(record.data.get("tags"), list):
                found.append(TagList(doc, record, record.data["tags"], "episode"))
    elif isinstance(doc, MarkdownDocument) and doc.front_matter is not None:
        if isinstance(doc.front_matter.get("tags"), list) and doc.front_matter_tree is not None:
            found.append(TagList(doc, None, doc.front_matter["tags"], "note"))
    return found


# -- vocabulary ----------------------------------------------------------------

@dataclass
class Vocabulary:
    """The workspace's tags: how many entries use each, and how to find each in a text."""

    uses: Counter
    patterns: dict  # tag -> compiled word-boundary pattern, or None for a CJK tag (substring match)

    def mention(self, tag: str, text: str) -> int:
        """Where text mentions the tag (-1 if it does not): a whole word, or for CJK any substring."""
        pattern = self.patterns[tag]
        if pattern is None:
            return text.find(tag)
        match = pattern.search(text)
        return match.start() if match else -1


def vocabulary(ctx) -> Vocabulary:
    """Every normalised tag of the workspace's episodes and notes (built once per run, shared by its rules)."""
    return ctx.memo.get(Vocabulary, lambda: _build_vocabulary(ctx))


def _normalized_tag_lists(doc) -> list[list[str]]:
    """A document's part of the vocabulary: each of its tag lists, normalised (kept per file by the cache)."""
    if not doc.ok:
        return []
    return [list(normalized(entry.tags)) for entry in tag_lists(doc)]


def _tag_lists_by_line(doc, profile) -> dict[int, list[list[str]]]:
    """A log's part of the vocabulary, line by line (kept per record by the cache)."""
    by_line: dict[int, list[list[str]]] = {}
    for entry in tag_lists(doc):
        by_line.setdefault(entry.record.line, []).append(list(normalized(entry.tags)))
    return by_line


def _build_vocabulary(ctx) -> Vocabulary:
    uses: Counter = Counter()
    ws = ctx.workspace
    # Notes (and any kind not read line by line) by summaries, logs by their records', in the order of their paths.
    whole_kinds = tuple(k.name for k in ws.profile.kinds if k.name in TAGGED_KINDS and k.format != "jsonl")
    whole = ctx.summaries(_normalized_tag_lists, *whole_kinds) if whole_kinds else {}
    for relpath, kind in sorted(ws.files.items()):
        if kind.name not in TAGGED_KINDS:
            continue
        if kind.format == "jsonl":
            lines = ctx.record_summaries(_tag_lists_by_line, relpath) or {}
            lists = [tags for line in lines.values() for tags in line]
        else:
            lists = whole.get(relpath, [])
        for tags in lists:
            uses.update(tags)
    patterns = {
        tag: None if _CJK.search(tag) else re.compile(r"(?<![\w-])" + re.escape(tag) + r"(?![\w-])", re.IGNORECASE)
        for tag in uses
    }
    return Vocabulary(uses, patterns)


def suggested_tags(entry: TagList, have: list[str], needed: int, ctx) -> list[str]:
    """Tags other entries already use that this entry's own text mentions, most used first."""
    text = entry.text()
    known = vocabulary(ctx)
    candidates = []
    for tag, uses in known.uses.items():
        if tag in have:
            continue
        at = known.mention(tag, text)
        if at != -1:
            candidates.append((-uses, at, tag))
    candidates.sort()
    return [tag for _, _, tag in candidates[:needed]]


# -- rules ----------------------------------------------------------------------


@rule(
    code="MW201",
    name="too-few-tags",
    severity=Severity.ERROR,
    kinds=TAGGED_KINDS,
    fix=Applicability.UNSAFE,
    options={"min_tags": Option(2, int, "how many distinct tags an entry needs")},
    records=True,
)
def too_few_tags(doc, ctx):
    """An episode, or a note with tags, that has fewer than two distinct tags.

    ## What it does
    Counts an entry's distinct, non-empty tags after normalising them (trimmed,
    lower-cased), so `["Deploy", "deploy"]` is one tag. Episodes need
    `min_tags` (default 2) in both profiles. A note is checked when its front
    matter has a `tags` key: notes are reached through the index, so tags are
    optional there, but a note that has them follows the same rule. An episode
    with no `tags` key at all is schema-violation's finding.

    ## Why
    Recall finds episodes by tag. With a single tag, an entry is found only by
    the one word its writer thought of in that moment; a second tag is the
    other way in that the article behind the three-layer layout asks for.

    ## Example
    ```json
    {"ts": "2026-03-01T10:00:00+08:00", "type": "decision", "summary": "Pinned Node 18 for the deploy image", "tags": ["node"]}
    ```
    `memory/episodic.jsonl:1:107: MW201 too-few-tags episode has 1 distinct tag; at least 2 are needed`

    ## Fix safety
    Unsafe, opt-in (`--fix --unsafe-fixes`): adds tags that other entries of the same
    workspace already use and that this entry's own text mentions (a whole
    word; for Chinese and Japanese tags any occurrence), most used first. It
    never invents a tag, and offers nothing when no such tag fits. Whether a
    mentioned word is really what the entry is about is the author's call.
    """
    min_tags = ctx.options["min_tags"]
    for entry in tag_lists(doc):
        have = normalized(entry.tags)
        if len(have) >= min_tags:
            continue
        count = len(have)
        raw_strings = [t for t in entry.tags if isinstance(t, str) and t.strip()]
        note = " (tags that differ only in case or spaces count once)" if len(raw_strings) > count else ""
        message = (
            f"{entry.what} has {count} distinct tag{'s' if count != 1 else ''}; "
            f"at least {min_tags} are needed{note}"
        )
        fix = None
        additions = suggested_tags(entry, have, min_tags - count, ctx)
        if additions:
            edit = entry.append_edit(additions)
            if edit is not None:
                fix = Fix(
                    Applicability.UNSAFE,
                    f"add {', '.join(quoted(t) for t in additions)} (used elsewhere in this workspace and "
                    f"mentioned in this {entry.what})",
                    (edit,),
                )
        line, column = entry.location
        yield Problem(line, column, message, json_path="$.tags", fix=fix)


@rule(
    code="MW202",
    name="unnormalized-tags",
    severity=Severity.ERROR,
    kinds=TAGGED_KINDS,
    fix=Applicability.SAFE,
    records=True,
)
def unnormalized_tags(doc, ctx):
    """Tags with capitals, surrounding spaces, empty tags, or the same tag twice.

    ## What it does
    Reports an entry's `tags` when a tag is not trimmed and lower-case, is
    empty, or repeats an earlier tag once both are normalised. Tags such as
    `runtime:claude-code` keep their punctuation; only case and surrounding
    space count.

    ## Why
    Tag search compares strings. `Deploy`, `deploy` and `deploy ` are three
    tags to a machine, so each spelling finds a different part of memory,
    and a duplicate makes an entry look better tagged than it is.

    ## Example
    ```json
    {"id": "ep_00000004", "tags": ["Deploy", " ci", "deploy"], ...}
    ```
    `memory/episodic.jsonl:4:23: MW202 unnormalized-tags tags are not normalised: 'Deploy' → 'deploy'; ' ci' → 'ci'; duplicate 'deploy' removed`

    ## Fix safety
    Safe: rewrites only the tags that change and removes duplicates and empty
    tags, keeping the first occurrence and the order. Quoting, list style,
    comments and the rest of the line are left as they are.
    """
    for entry in tag_lists(doc):
        new_values: list[str | None] = []
        changes: list[str] = []
        seen: set[str] = set()
        fixable = True
        for tag in entry.tags:
            if not isinstance(tag, str):
                new_values.append(None)
                fixable = False  # a number or a mapping among the tags: schema-violation's finding; no fix here
                continue
            value = normalize_tag(tag)
            if not value:
                new_values.append(None)
                changes.append("empty tag removed")
            elif value in seen:
                new_values.append(None)
                changes.append(f"duplicate {quoted(value)} removed")
            else:
                seen.add(value)
                new_values.append(value)
                if value != tag:
                    changes.append(f"{quoted(tag)} → {quoted(value)}")
        if not changes:
            continue
        shown = "; ".join(changes[:4]) + (f"; and {len(changes) - 4} more" if len(changes) > 4 else "")
        fix = None
        if fixable:
            edits = entry.rewrite_edits(new_values)
            if edits:
                fix = Fix(Applicability.SAFE, "trim, lower-case and de-duplicate the tags, keeping their order", tuple(edits))
        line, column = entry.location
        yield Problem(line, column, f"tags are not normalised: {shown}", json_path="$.tags", fix=fix)

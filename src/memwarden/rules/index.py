"""Index and triggers: every index line is one symptom-style trigger and one link that resolves.

Which rules apply where:

- ghost-in-shell: the startup index `MEMORY.md` and the shelf indexes
  `memory/knowledge/INDEX_*.md`, with `- "trigger" → [title](path)` lines. All
  seven rules apply (cause-style-trigger to the startup index only).
- claude-code: `MEMORY.md` lines are `- [Title](file.md) — hook`, with no
  quoted trigger by design, so the trigger rules (index-entry-without-trigger,
  cause-style-trigger, one-direction-trigger, duplicate-trigger) stay silent;
  broken-index-link, orphan-note and content-in-index apply, and every memory
  file beside MEMORY.md is a note.
- three-layer and agent-instructions: no index kind, so none apply.

Link targets resolve relative to the index file's folder; URLs and `#anchor`
links are not checked.
"""

from __future__ import annotations

from dataclasses import dataclass

from memwarden.analysis import index_lines
from memwarden.analysis.triggers import classify
from memwarden.documents import IndexDocument
from memwarden.model import Option, Problem, Scope, Severity
from memwarden.registry import rule
from memwarden.text import excerpt

INDEX_KINDS = index_lines.INDEX_KINDS
# Profiles whose index lines carry no quoted trigger, by design.
UNTRIGGERED_PROFILES = {"claude-code"}


def _uses_triggers(ctx) -> bool:
    return ctx.workspace.profile.name not in UNTRIGGERED_PROFILES


def _kind_name(ctx, relpath: str) -> str | None:
    kind = ctx.workspace.profile.classify(relpath)
    return kind.name if kind is not None else None


# -- index-entry-without-trigger ----------------------------------------------------


@dataclass(frozen=True)
class TriggerWithoutArrow:
    message = "the trigger is not followed by an arrow: write it as `\"trigger\" → [title](target)`"


@dataclass(frozen=True)
class UnquotedTrigger:
    message = (
        "the text before the arrow is not quoted, so it is not read as a trigger: "
        "put it in quotes, `\"...\" → [title](target)`"
    )


@dataclass(frozen=True)
class EntryWithoutTrigger:
    title: str

    @property
    def message(self) -> str:
        return (
            f"[{excerpt(self.title, 40)}] has no trigger: start the line with the thought the agent has at the "
            "moment of the mistake, `- \"...\" → [title](target)`"
        )


@rule(code="MW401", name="index-entry-without-trigger", severity=Severity.WARNING, kinds=INDEX_KINDS)
def index_entry_without_trigger(doc, ctx):
    """An index line that links to a note but has no quoted trigger and arrow.

    ## What it does
    In a ghost-in-shell index (MEMORY.md and the `INDEX_*.md` shelves), reports
    a list item with a link to a file of the workspace but no `"trigger" →`
    before the link: no quoted phrase, an unquoted one, or a quoted phrase with
    no arrow (`→` or `->`). Not applied to claude-code's MEMORY.md, whose
    `- [Title](file.md) — hook` lines carry no trigger by design, nor to lines
    that link only to URLs.

    ## Why
    The agent matches what it is thinking against the quoted triggers; a link
    with no trigger is matched by nothing and the note behind it is never read.

    ## Example
    ```markdown
    - [verify the final state](memory/knowledge/feedback/verify-final-state.md)
    ```
    should read
    ```markdown
    - "The tool returned success, so it is done" → [verify the final state](memory/knowledge/feedback/verify-final-state.md)
    ```

    ## Fix safety
    No fix: the trigger is the thought the agent has at the moment of the
    mistake, and only the author knows it.
    """
    if not _uses_triggers(ctx):
        return
    for entry in doc.entries:
        if not index_lines.local_targets(doc, entry):
            continue
        if entry.triggers and entry.arrow:
            continue
        if entry.triggers:
            violation = TriggerWithoutArrow()
        elif entry.arrow:
            violation = UnquotedTrigger()
        else:
            violation = EntryWithoutTrigger(entry.link.title)
        yield Problem(entry.line, entry.column, violation.message)


# -- cause-style-trigger ------------------------------------------------------------------

_KIND_WORDS = {"rule": "a rule", "diagnosis": "a cause", "topic": "a topic"}


@dataclass(frozen=True)
class CauseStyleTrigger:
    trigger: str
    kind: str  # the classifier's: "rule", "diagnosis", "topic"
    advice: str

    @property
    def message(self) -> str:
        # The advice quotes the trigger too: it goes through excerpt like every value from a file.
        return f'trigger "{excerpt(self.trigger, 80)}" names {_KIND_WORDS[self.kind]}, not the symptom: {excerpt(self.advice, 400)}'


@rule(code="MW403", name="cause-style-trigger", severity=Severity.WARNING, kinds=("startup-index",))
def cause_style_trigger(doc, ctx):
    """A startup-index trigger that names a cause, a topic or a rule instead of the symptom.

    ## What it does
    Reads each trigger of each startup-index line that points at a note and
    reports one that states a rule ("never trust exit codes"), a diagnosis
    ("tool reports are unreliable", 「工具回報不可靠」) or a topic ("cache
    issues", 「快取問題」) instead of the thought the agent has at the moment of
    the mistake ("the tool said it succeeded, so it is done", 「工具說成功了，
    應該好了吧」). English, Traditional and Simplified Chinese and Japanese.
    A symptom is what the agent is about to do, a belief it remembers (「我記得它
    不能…」), a puzzled "why here but not there", or an error or a screen it
    quotes ("empty response from /v2/search"); a cause is also a post-mortem
    ("the outage came from…", 「原因は…」), a general question ("can a cached 200
    be trusted?") or a label. The message says which of rule, cause or topic it
    read, and how to rewrite that trigger.
    Lines that point at a shelf index, and the lines of shelf indexes, may name
    a topic: the agent reads those when it already knows what it is looking
    for. Not applied to claude-code (no triggers).

    ## Why
    When the agent needs the reminder, it does not yet suspect the cause; it
    is thinking the symptom. A trigger written as the cause only matches once
    the agent already knows, which is when it no longer needs the note.

    ## Example
    ```markdown
    - "tool reports are unreliable" → [verify the final state](memory/knowledge/feedback/verify-final-state.md)
    ```
    `MEMORY.md:9:3: MW403 cause-style-trigger trigger "tool reports are unreliable" names a cause, not the symptom: the agent does not know this cause yet when it errs; write what it sees or thinks then, e.g. "<what it sees>, so it must be fine"`

    ## Fix safety
    No fix: the classifier is rule-based and can be wrong; the words are the
    author's. Silence a false alarm with `<!-- memwarden: disable-line=cause-style-trigger -->`.
    """
    if not _uses_triggers(ctx):
        return
    for entry in doc.entries:
        kinds = {_kind_name(ctx, resolved) for _, resolved in index_lines.local_targets(doc, entry)}
        if "note" not in kinds or "shelf-index" in kinds:
            continue
        for trigger in entry.triggers:
            verdict = classify(trigger.text)
            if verdict.is_cause:
                yield Problem(entry.line, trigger.column, CauseStyleTrigger(trigger.text, verdict.kind, verdict.advice).message)


# -- one-direction-trigger --------------------------------------------------------------------


@dataclass(frozen=True)
class ReverseMarkerWithOneTrigger:
    message = (
        "this line has the reverse marker but names one direction only: add the other side's symptom, "
        '`"A" **or the reverse** "B" → [...]`'
    )


@dataclass(frozen=True)
class OneDirectionTrigger:
    note_path: str
    declared: bool  # by two_sided: true, else by a reverse marker
    lines: int  # how many index lines point at the note

    @property
    def message(self) -> str:
        why = "two_sided: true" if self.declared else "a reverse marker"
        lines = "its only index line names" if self.lines == 1 else f"its {self.lines} index lines name"
        return (
            f"{self.note_path} is a two-sided failure ({why}) but {lines} one direction: add a trigger for the other, "
            '`"A" **or the reverse** "B" → [...]`'
        )


@rule(code="MW404", name="one-direction-trigger", severity=Severity.WARNING, scope=Scope.WORKSPACE)
def one_direction_trigger(ctx):
    """A two-sided failure whose index lines name only one direction.

    ## What it does
    A note is two-sided when its front matter says `two_sided: true` (at the
    top or under `metadata`) or when any index line uses the reverse marker
    (`**or the reverse**`, 「**或反過來**」, 「**逆に**」) for it. Reports such a
    note when all the index lines that point at it together name fewer than
    two distinct triggers, and reports a line that carries the reverse marker
    but only one trigger. Not applied to claude-code (no triggers).

    ## Why
    Many failures go both ways: a gate that does not block, and a gate that
    blocks wrongly; a check too loose, and too strict. The agent in the second
    situation thinks "it blocked me, but I never passed that flag", which
    matches no line written for the first, though the answer is in the note.

    ## Example
    ```markdown
    - "the gate let it through" **or the reverse** → [gate checks](memory/knowledge/feedback/gate-checks.md)
    ```
    should read
    ```markdown
    - "the gate let it through" **or the reverse** "it blocked me, but I never passed that flag" → [gate checks](...)
    ```

    ## Fix safety
    No fix: the other direction's symptom has to be written by someone who
    knows it.
    """
    if not _uses_triggers(ctx):
        return
    declarations = index_lines.two_sided_declarations(ctx.summaries(index_lines.two_sided_summary, "note"))
    pointing: dict[str, list[tuple[IndexDocument, object]]] = {}
    flagged: set[tuple[str, int]] = set()
    for doc in index_lines.in_reading_order(ctx.documents(*INDEX_KINDS)):
        for entry in doc.entries:
            if entry.reverse and len({index_lines.normalize_trigger(t.text) for t in entry.triggers}) < 2:
                flagged.add((doc.relpath, entry.line))
                yield Problem(entry.line, entry.column, ReverseMarkerWithOneTrigger().message, path=doc.relpath)
            for _, resolved in index_lines.local_targets(doc, entry):
                if resolved in declarations or _kind_name(ctx, resolved) == "note":
                    pointing.setdefault(resolved, []).append((doc, entry))
    for note_path, lines in sorted(pointing.items()):
        declared = declarations.get(note_path, False)
        if not declared and not any(entry.reverse for _, entry in lines):
            continue
        triggers = {index_lines.normalize_trigger(t.text) for _, entry in lines for t in entry.triggers}
        if len(triggers) >= 2 or any((doc.relpath, entry.line) in flagged for doc, entry in lines):
            continue
        doc, entry = lines[0]
        yield Problem(entry.line, entry.column, OneDirectionTrigger(note_path, declared, len(lines)).message, path=doc.relpath)


# -- content-in-index ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class IndexLineTooLong:
    length: int
    limit: int

    @property
    def message(self) -> str:
        return (
            f"this index line is {self.length:,} characters (limit {self.limit}): keep one trigger and one link "
            "here and move the rest into the note"
        )


@dataclass(frozen=True)
class ContentInIndex:
    sentences: int  # in the part that holds the most

    @property
    def message(self) -> str:
        return (
            f"this index line carries content ({self.sentences} sentences in one part): keep one trigger and one link "
            "here and move the rest into the note"
        )


@dataclass(frozen=True)
class ContentWithoutLink:
    line: int
    last_line: int
    unlinked_index: int = 0  # when the index links to no note: its lines of content, all in one finding

    @property
    def message(self) -> str:
        if self.unlinked_index:
            n = self.unlinked_index
            return f"this index links to no note and carries {n} line{'s' * (n > 1)} of content: move the content into notes and keep one line per note here"
        where = "this line carries" if self.line == self.last_line else f"lines {self.line}-{self.last_line} carry"
        return f"{where} content and no link: move it into a note and point to the note with one line here"


@rule(
    code="MW406",
    name="content-in-index",
    severity=Severity.WARNING,
    kinds=INDEX_KINDS,
    options={
        "max_entry_chars": Option(200, int, "the longest an index line may be, in characters, links counted by their titles"),
        "hook_chars": Option(150, int, "claude-code: a linked line this short may hold a hook of several sentences"),
    },
)
def content_in_index(doc, ctx):
    """An index line that carries content instead of pointing to it.

    ## What it does
    Reports an index line (startup or shelf) that holds more than one
    sentence, in a trigger or in the text around the link, or that is longer
    than `max_entry_chars` (200 by default; a link counts by its title, not
    its path). Applies to every profile with an index, claude-code's
    `— hook` text included; there a linked line of at most `hook_chars` (150,
    Claude Code's own guidance for an index line) may hold a hook of short
    sentences ("— Scope must be worktree-relative; needs its own file. See X").

    Text with no link is content too: a run of lines (paragraph, list items,
    table rows) holding two items or two sentences, or a line past
    `max_entry_chars`. Headings, blank lines, comments, code, the preamble
    before the first list, and lines that point (an `@import`, a URL, a file
    path) are not. An index that links to no note gets one finding for the
    whole file, and none when the workspace has no notes (the file is then
    the memory itself, as some agents load a MEMORY.md whole), or when the
    index says its lines without a link are whole rules ("each line below is
    a complete rule", "rules without a note live inline").

    ## Why
    The startup index is paid for in every session and cut at a fixed size.
    Content belongs in the note, read only when a trigger matches; the index
    line is a signpost: one trigger, one link.

    ## Example
    ```markdown
    - "deploy" → [deploy flags](references/deploy-script-flags.md) — use --no-purge for asset-free changes. The CDN caches for ten minutes.

    ## Environment
    - Rate limiting is off by default
    - The API token expires every 30 days
    ```
    `MEMORY.md:4:1: MW406 content-in-index lines 4-5 carry content and no link: move it into a note and point to the note with one line here`

    ## Fix safety
    No fix: what to keep as the trigger and what to move into the note needs
    the author.
    """
    limit = ctx.options["max_entry_chars"]
    short_hooks = ctx.options["hook_chars"] if ctx.workspace.profile.name == "claude-code" else 0
    for entry in doc.entries:
        visible = index_lines.visible_text(entry.text)
        if len(visible) > limit:
            yield Problem(entry.line, entry.column, IndexLineTooLong(len(visible), limit).message)
            continue
        if len(visible) <= short_hooks:
            continue  # a Claude Code index line within its guidance: a short hook, whatever its punctuation
        most = index_lines.most_sentences(entry, visible)
        if most > 1:
            yield Problem(entry.line, entry.column, ContentInIndex(most).message)
    if index_lines.declares_inline_rules(doc):
        return  # the index says its unlinked lines are whole rules: they are what it holds, not content to move
    runs = index_lines.content_runs(doc, limit)
    unlinked = sum(r.lines for r in runs) if not doc.entries else 0
    if unlinked and not any(kind.name == "note" for kind in ctx.workspace.files.values()):
        return  # no notes to move content into: this file is the memory itself, loaded whole
    for run in runs[:1] if unlinked else runs:
        yield Problem(run.line, run.column, ContentWithoutLink(run.line, run.last_line, unlinked).message)


# -- duplicate-trigger --------------------------------------------------------------------------------


@dataclass(frozen=True)
class DuplicateTrigger:
    trigger: str
    first_at: str  # "line 3", or "path:3" in another index
    first_target: str

    @property
    def message(self) -> str:
        return (
            f'trigger "{excerpt(self.trigger, 60)}" is also on {self.first_at}, which points at '
            f"{self.first_target}: the agent follows whichever it reads first; merge the notes or "
            "make each trigger name what tells them apart"
        )


@rule(code="MW407", name="duplicate-trigger", severity=Severity.WARNING, scope=Scope.WORKSPACE)
def duplicate_trigger(ctx):
    """The same trigger on two index lines that point at different notes.

    ## What it does
    Compares the triggers of every line of the startup index and the shelf
    indexes (ignoring case, width, spacing and end punctuation) and reports a
    trigger that already appeared on an earlier line pointing elsewhere (the
    startup index counts as first). Not applied to claude-code (no triggers).

    ## Why
    When one thought matches two lines, the agent follows whichever it reads
    first and never learns the other note exists.

    ## Example
    ```markdown
    - "Zero errors, so the run was clean" → [zero may mean not run](memory/knowledge/feedback/zero-may-mean-not-run.md)
    - "zero errors, so the run was clean" → [check the log tail](memory/knowledge/feedback/log-tail.md)
    ```

    ## Fix safety
    No fix: merge the notes, or make each trigger name the situation that
    tells them apart.
    """
    if not _uses_triggers(ctx):
        return
    seen: dict[str, tuple[str, int, frozenset[str]]] = {}
    for doc in index_lines.in_reading_order(ctx.documents(*INDEX_KINDS)):
        for entry in doc.entries:
            targets = frozenset(resolved for _, resolved in index_lines.local_targets(doc, entry))
            if not targets:
                continue
            for trigger in dict((index_lines.normalize_trigger(t.text), t) for t in entry.triggers).values():
                key = index_lines.normalize_trigger(trigger.text)
                if not key:
                    continue
                first = seen.get(key)
                if first is None:
                    seen[key] = (doc.relpath, entry.line, targets)
                    continue
                first_path, first_line, first_targets = first
                if first_targets & targets:
                    continue
                where = f"line {first_line}" if first_path == doc.relpath else f"{first_path}:{first_line}"
                violation = DuplicateTrigger(trigger.text, where, sorted(first_targets)[0])
                yield Problem(entry.line, trigger.column, violation.message, path=doc.relpath)


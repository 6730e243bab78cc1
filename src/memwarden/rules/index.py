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
- three-layer: no index kind (its routing file only points), so none apply.

Link targets resolve relative to the index file's folder; URLs and `#anchor`
links are not checked.
"""

from __future__ import annotations

import difflib
import posixpath
import re
import unicodedata

from memwarden.documents import IndexDocument
from memwarden.documents.scan import find_links, resolve_link
from memwarden.model import Option, Problem, Scope, Severity
from memwarden.registry import rule
from memwarden.analysis.triggers import classify
from memwarden.text import excerpt

INDEX_KINDS = ("startup-index", "shelf-index")
# Profiles whose index lines carry no quoted trigger, by design.
UNTRIGGERED_PROFILES = {"claude-code"}


def _uses_triggers(ctx) -> bool:
    return ctx.workspace.profile.name not in UNTRIGGERED_PROFILES


def _index_documents(ctx) -> list[IndexDocument]:
    """Every index that parsed: the startup index first, then the shelves in path order."""
    docs = [d for d in ctx.documents(*INDEX_KINDS) if isinstance(d, IndexDocument) and d.ok]
    return sorted(docs, key=lambda d: (d.kind.name != "startup-index", d.relpath))


def _local_targets(doc, entry) -> list[tuple[object, str]]:
    """(link, workspace path) for each link of an entry that names a file here."""
    found = []
    for link in entry.links:
        resolved = resolve_link(doc.relpath, link.target)
        if resolved is not None:
            found.append((link, resolved))
    return found


def _kind_name(ctx, relpath: str) -> str | None:
    kind = ctx.workspace.profile.classify(relpath)
    return kind.name if kind is not None else None


def _target_column(link) -> int:
    return link.column + len(link.title) + 3  # "[" title "](" comes before the target


# -- index-entry-without-trigger ----------------------------------------------------


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
        if not _local_targets(doc, entry):
            continue
        if entry.triggers and entry.arrow:
            continue
        link = entry.link
        if entry.triggers:
            message = "the trigger is not followed by an arrow: write it as `\"trigger\" → [title](target)`"
        elif entry.arrow:
            message = (
                "the text before the arrow is not quoted, so it is not read as a trigger: "
                "put it in quotes, `\"...\" → [title](target)`"
            )
        else:
            message = (
                f"[{excerpt(link.title, 40)}] has no trigger: start the line with the thought the agent has at the "
                "moment of the mistake, `- \"...\" → [title](target)`"
            )
        yield Problem(entry.line, entry.column, message)


# -- broken-index-link ----------------------------------------------------------------

_WINDOWS_PATH = re.compile(r"[A-Za-z]:[\\/]")


def _outside(ctx, resolved: str) -> bool:
    if resolved.startswith("/") or resolved == ".." or resolved.startswith("../"):
        return True
    root = ctx.workspace.root.resolve()
    try:
        (root / resolved).resolve().relative_to(root)
    except ValueError:
        return True
    except (OSError, RuntimeError, ValueError):  # a symlink loop, a name too long: not outside, not a file either
        return False
    return False


def _suggestion(ctx, doc, resolved: str) -> str:
    """A close existing file to link to, as a link from this index."""
    files = [p for p in ctx.workspace.files if p.endswith(".md") and p != doc.relpath]
    name = posixpath.basename(resolved)
    same_name = [p for p in files if posixpath.basename(p) == name]
    close = same_name or difflib.get_close_matches(resolved, files, n=1, cutoff=0.75)
    if not close:
        return ""
    base = posixpath.dirname(doc.relpath) or "."
    return f" (did you mean {posixpath.relpath(close[0], base)}?)"


@rule(code="MW402", name="broken-index-link", severity=Severity.ERROR, kinds=INDEX_KINDS)
def broken_index_link(doc, ctx):
    """An index link whose target does not exist, or lies outside the workspace.

    ## What it does
    Resolves each link of each index line relative to the index file's folder
    (MEMORY.md: the workspace root; a shelf index: `memory/knowledge/`) and
    reports a target that does not exist, a folder, an absolute path, or a path
    (or symlink) that leads outside the workspace. URLs and `#anchor` links are
    not checked. Applies to every profile with an index.

    ## Why
    A trigger that matches and then leads nowhere is worse than none: the agent
    knew it needed the note and got nothing. A link outside the workspace works
    on one machine only, and exposes whatever it points at to every agent that
    reads the index.

    ## Example
    ```markdown
    - "Zero errors, so the run was clean" → [zero](memory/knowledge/feedback/zero-may-mean-not-ran.md)
    ```
    `MEMORY.md:1:45: MW402 broken-index-link ... does not exist (did you mean memory/knowledge/feedback/zero-may-mean-not-run.md?)`

    ## Fix safety
    No fix: a renamed note and a deleted one look the same from here.
    """
    ws = ctx.workspace
    for entry in doc.entries:
        for link in entry.links:
            target = link.target
            if _WINDOWS_PATH.match(target):
                yield Problem(entry.line, _target_column(link), f"'{excerpt(target, 60)}' is an absolute path outside the workspace; link relative to {doc.relpath}")
                continue
            resolved = resolve_link(doc.relpath, target)
            if resolved is None:
                continue
            shown = excerpt(target, 80)
            if _outside(ctx, resolved):
                what = "an absolute path" if resolved.startswith("/") else "outside the workspace"
                yield Problem(
                    entry.line,
                    _target_column(link),
                    f"link target '{shown}' is {what}: it works on one machine at most; "
                    f"keep notes in the workspace and link relative to {posixpath.dirname(doc.relpath) or 'the root'}",
                )
                continue
            full = ws.root / resolved
            try:
                is_file, is_dir = full.is_file(), full.is_dir()
            except (OSError, ValueError):  # a name too long for the file system, say
                is_file = is_dir = False
            if resolved in ws.overlay or is_file:
                continue
            if is_dir:
                message = f"link target '{shown}' is a folder, not a note"
            else:
                where = "" if resolved == target else f" (from {doc.relpath} that is {resolved})"
                message = f"link target '{shown}' does not exist{where}{_suggestion(ctx, doc, resolved)}"
            yield Problem(entry.line, _target_column(link), message)


# -- cause-style-trigger ------------------------------------------------------------------

_KIND_WORDS = {"rule": "a rule", "diagnosis": "a cause", "topic": "a topic"}


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
    `MEMORY.md:9:3: MW403 cause-style-trigger trigger "tool reports are unreliable" names a cause, not the symptom: say what the agent sees or thinks when this bites, e.g. "the tool said it succeeded, so it is done"`

    ## Fix safety
    No fix: the classifier is rule-based and can be wrong; the words are the
    author's. Silence a false alarm with `<!-- memwarden: disable-line=cause-style-trigger -->`.
    """
    if not _uses_triggers(ctx):
        return
    for entry in doc.entries:
        kinds = {_kind_name(ctx, resolved) for _, resolved in _local_targets(doc, entry)}
        if "note" not in kinds or "shelf-index" in kinds:
            continue
        for trigger in entry.triggers:
            verdict = classify(trigger.text)
            if verdict.is_cause:
                yield Problem(
                    entry.line,
                    trigger.column,
                    f'trigger "{excerpt(trigger.text, 80)}" names {_KIND_WORDS[verdict.kind]}, not the symptom: '
                    f"{verdict.advice}",
                )


# -- one-direction-trigger --------------------------------------------------------------------


def _may_declare_two_sided(raw: bytes) -> bool:
    # UTF-16/32 files spell the key with NUL bytes between letters: parse those to be sure.
    return b"two_sided" in raw or raw[:2] in (b"\xff\xfe", b"\xfe\xff") or raw[:4] == b"\x00\x00\xfe\xff"


def _declared_two_sided(note) -> bool:
    data = getattr(note, "front_matter", None)
    if not isinstance(data, dict):
        return False
    metadata = data.get("metadata")
    return data.get("two_sided") is True or (isinstance(metadata, dict) and metadata.get("two_sided") is True)


def normalize_trigger(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(text.split()).strip(" .,;:!?。、，！？…")


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
    # Only a note whose bytes mention two_sided can declare it: parse just those (a hook stays fast).
    ws = ctx.workspace
    notes = {
        relpath: ws.document(relpath)
        for relpath, kind in ws.files.items()
        if kind.name == "note" and _may_declare_two_sided(ws.current_bytes(relpath) or b"")
    }
    pointing: dict[str, list[tuple[IndexDocument, object]]] = {}
    flagged: set[tuple[str, int]] = set()
    for doc in _index_documents(ctx):
        for entry in doc.entries:
            if entry.reverse and len({normalize_trigger(t.text) for t in entry.triggers}) < 2:
                flagged.add((doc.relpath, entry.line))
                yield Problem(
                    entry.line,
                    entry.column,
                    "this line has the reverse marker but names one direction only: add the other side's symptom, "
                    '`"A" **or the reverse** "B" → [...]`',
                    path=doc.relpath,
                )
            for _, resolved in _local_targets(doc, entry):
                if resolved in notes or _kind_name(ctx, resolved) == "note":
                    pointing.setdefault(resolved, []).append((doc, entry))
    for note_path, lines in sorted(pointing.items()):
        note = notes.get(note_path)
        declared = note is not None and note.ok and _declared_two_sided(note)
        if not declared and not any(entry.reverse for _, entry in lines):
            continue
        triggers = {normalize_trigger(t.text) for _, entry in lines for t in entry.triggers}
        if len(triggers) >= 2 or any((doc.relpath, entry.line) in flagged for doc, entry in lines):
            continue
        doc, entry = lines[0]
        why = "two_sided: true" if declared else "a reverse marker"
        count = len(lines)
        yield Problem(
            entry.line,
            entry.column,
            f"{note_path} is a two-sided failure ({why}) but {'its only index line names' if count == 1 else f'its {count} index lines name'} "
            "one direction: add a trigger for the other, "
            '`"A" **or the reverse** "B" → [...]`',
            path=doc.relpath,
        )


# -- orphan-note ---------------------------------------------------------------------------------


def _all_links(doc: IndexDocument):
    """Every link target in an index outside code and comments, list item or not."""
    hidden = doc.hidden_lines
    for number in range(doc.body_line, doc.line_count + 1):
        if number in hidden:
            continue
        line = doc.line_text(number)
        if "](" not in line:
            continue
        for link in find_links(line):
            yield link.target.strip("<>")


@rule(code="MW405", name="orphan-note", severity=Severity.WARNING, scope=Scope.WORKSPACE)
def orphan_note(ctx):
    """A note that no index links to.

    ## What it does
    Collects every link in the startup index and the shelf indexes and
    reports each note that none of them names. In a claude-code workspace,
    every memory file beside MEMORY.md is a note and MEMORY.md is the only
    index. Silent when the workspace has no index at all (`index-missing` says
    so) or when an index cannot be parsed; notes that do not parse, and empty
    ones, are left to the format rules.

    ## Why
    The agent finds notes through the indexes. A note that no index names is
    never read: its lesson is on disk and lost all the same.

    ## Example
    `memory/knowledge/feedback/old-lesson.md:1:1: MW405 orphan-note no index links to this note ...`

    ## Fix safety
    No fix: whether the note deserves a trigger line, a shelf, or the archive is
    the author's call.
    """
    ws = ctx.workspace
    indexes = [d for d in ctx.documents(*INDEX_KINDS)]
    if not indexes or any(not isinstance(d, IndexDocument) or not d.ok for d in indexes):
        return
    linked = set()
    for doc in indexes:
        for target in _all_links(doc):
            resolved = resolve_link(doc.relpath, target)
            if resolved is not None:
                linked.add(resolved)
    claude = ws.profile.name == "claude-code"
    for relpath, kind in sorted(ws.files.items()):
        # Only unlinked notes that will be reported are read: a hook on three files stays fast.
        if kind.name != "note" or relpath in linked or not ctx.is_target(relpath):
            continue
        note = ws.document(relpath)
        if not note.ok or not note.text.strip():
            continue  # a file that does not parse is unparsable-file's; an empty one holds no lesson to lose
        if claude:
            message = (
                "MEMORY.md does not link to this memory file, so the agent never learns it exists: "
                "add a line `- [Title](" + posixpath.basename(note.relpath) + ") — one-line hook`"
            )
        else:
            message = (
                "no index links to this note, so no session will read it: add a trigger line to MEMORY.md "
                "(a mistake the agent would not know it is making) or to a shelf index "
                "memory/knowledge/INDEX_<shelf>.md, or archive the note"
            )
        yield Problem(1, 1, message, path=note.relpath)


# -- content-in-index ---------------------------------------------------------------------------------

_TERMINATOR = re.compile(r"[.!?。！？]+")
_ABBREVIATIONS = {"e.g", "i.e", "etc", "vs", "cf", "approx", "no", "fig", "eg", "ie", "mr", "dr", "st"}
_QUOTED = re.compile(r"\"[^\"\n]*\"|“[^”\n]*”|「[^」\n]*」|『[^』\n]*』")
_WORDY = re.compile(r"[^\W\d_]", re.UNICODE)


def sentence_count(text: str) -> int:
    """How many sentences text holds (a terminator ends one only before a space, a CJK one anywhere)."""
    count = 0
    start = 0
    for match in _TERMINATOR.finditer(text):
        end = match.end()
        ascii_only = match.group(0)[0] in ".!?"
        if ascii_only and end < len(text) and not text[end].isspace():
            continue  # v5.2, file.md, a.b
        if match.group(0).startswith("."):
            word_start = max(text.rfind(" ", start, match.start()), start - 1) + 1
            if text[word_start : match.start()].lower().rstrip(".") in _ABBREVIATIONS:
                continue
        if _WORDY.search(text[start : match.start()]):
            count += 1
        start = end
    if _WORDY.search(text[start:]):
        count += 1
    return count


def _without_comments(text: str) -> str:
    out, cursor = [], 0
    start = text.find("<!--")
    while start != -1:
        end = text.find("-->", start + 4)
        out.append(text[cursor:start])
        cursor = len(text) if end == -1 else end + 3
        start = text.find("<!--", cursor)
    out.append(text[cursor:])
    return "".join(out)


def visible_text(item: str) -> str:
    """The entry as read: links replaced by their titles, HTML comments gone."""
    item = _without_comments(item)
    pieces, cursor = [], 0
    for link in find_links(item):
        pieces.append(item[cursor : link.start])
        pieces.append(link.title)
        cursor = link.end
    pieces.append(item[cursor:])
    return "".join(pieces).strip()


@rule(
    code="MW406",
    name="content-in-index",
    severity=Severity.WARNING,
    kinds=INDEX_KINDS,
    options={"max_entry_chars": Option(200, int, "the longest an index line may be, in characters, links counted by their titles")},
)
def content_in_index(doc, ctx):
    """An index line that carries content instead of pointing to it.

    ## What it does
    Reports an index line (startup or shelf) that holds more than one
    sentence, in a trigger or in the text around the link, or that is longer
    than `max_entry_chars` (200 by default; a link counts by its title, not
    its path). Applies to every profile with an index, claude-code's
    `— hook` text included.

    ## Why
    The startup index is paid for in every session and cut at a fixed size.
    Content belongs in the note, read only when a trigger matches; the index
    line is a signpost: one trigger, one link.

    ## Example
    ```markdown
    - "deploy" → [deploy flags](references/deploy-script-flags.md) — use --no-purge for asset-free changes. The CDN caches for ten minutes.
    ```

    ## Fix safety
    No fix: what to keep as the trigger and what to move into the note needs
    the author.
    """
    limit = ctx.options["max_entry_chars"]
    for entry in doc.entries:
        visible = visible_text(entry.text)
        if len(visible) > limit:
            yield Problem(
                entry.line,
                entry.column,
                f"this index line is {len(visible):,} characters (limit {limit}): keep one trigger and one link "
                "here and move the rest into the note",
            )
            continue
        parts = [t.text for t in entry.triggers] + [_QUOTED.sub(" ", visible)]
        most = max((sentence_count(part) for part in parts), default=0)
        if most > 1:
            yield Problem(
                entry.line,
                entry.column,
                f"this index line carries content ({most} sentences in one part): keep one trigger and one link "
                "here and move the rest into the note",
            )


# -- duplicate-trigger --------------------------------------------------------------------------------


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
    for doc in _index_documents(ctx):
        for entry in doc.entries:
            targets = frozenset(resolved for _, resolved in _local_targets(doc, entry))
            if not targets:
                continue
            for trigger in dict((normalize_trigger(t.text), t) for t in entry.triggers).values():
                key = normalize_trigger(trigger.text)
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
                yield Problem(
                    entry.line,
                    trigger.column,
                    f'trigger "{excerpt(trigger.text, 60)}" is also on {where}, which points at '
                    f"{sorted(first_targets)[0]}: the agent follows whichever it reads first; merge the notes or "
                    "make each trigger name what tells them apart",
                    path=doc.relpath,
                )


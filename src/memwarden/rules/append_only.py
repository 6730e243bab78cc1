"""Append-only rules: deleted-record, rewritten-record and deleted-note.

The comparison itself lives in memwarden.analysis.history and the restore fix
in memwarden.fixes.restore; here each kind of loss becomes a violation that
owns its message, and the three rules share one comparison per run.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import ClassVar, Union

from memwarden.analysis.history import (
    DEFAULT_MUTABLE_FIELDS,
    ChangesSinceBase,
    FactLost,
    IndexEntryLost,
    LineLost,
    Loss,
    NoteLost,
    RecordLost,
    RecordRewritten,
    archive_root,
    changes_since_base,
)
from memwarden.analysis.history.records import JsonRecord
from memwarden.analysis.secrets import format_of, version_text
from memwarden.fixes.restore import Restorer
from memwarden.model import Applicability, Fix, Option, Problem, Scope, Severity
from memwarden.registry import rule
from memwarden.text import excerpt, quoted

# Beyond this many losses in one file, one summary finding stands for the rest.
MAX_LISTED_PER_FILE = 100

# One workspace setting: what counts as the same record must agree across the three rules.
MUTABLE_FIELDS = Option(
    DEFAULT_MUTABLE_FIELDS,
    list,
    "top-level episode fields the memory system itself updates, which may change (one setting shared by "
    "deleted-record, rewritten-record and deleted-note)",
    setting="mutable_fields",
)


def mutable_fields(options) -> list[str]:
    return [str(v) for v in options["mutable_fields"]]


# -- violations: one per kind of loss, each owning its message ---------------------------


def _unreadable(path: str, reason: str | None) -> str:
    return f" ({path} cannot be read now: {reason})" if reason else ""


@dataclass(frozen=True)
class DeletedRecord:
    rule: ClassVar[str] = "deleted-record"
    what: str
    line: int
    base_label: str
    from_archive: bool
    archive_marker: str  # how this profile marks a record archived
    path: str
    unreadable_now: str | None

    @property
    def message(self) -> str:
        return (
            f"{self.what} (line {self.line} at {self.base_label}) was deleted"
            f"{' from the archive' if self.from_archive else ''} and is in no log or archive now: archive it "
            f"instead (move the line to memory/_archive/ or set {self.archive_marker})"
            + _unreadable(self.path, self.unreadable_now)
        )


@dataclass(frozen=True)
class DeletedAssociation:
    rule: ClassVar[str] = "deleted-record"
    what: str
    line: int
    base_label: str
    path: str
    unreadable_now: str | None

    @property
    def message(self) -> str:
        return (
            f"{self.what} (line {self.line} at {self.base_label}) was deleted, not archived: "
            "mark it \"archived\": true instead" + _unreadable(self.path, self.unreadable_now)
        )


@dataclass(frozen=True)
class DeletedFact:
    rule: ClassVar[str] = "deleted-record"
    json_path: str
    line: int
    base_label: str
    gish: bool
    path: str
    unreadable_now: str | None

    @property
    def message(self) -> str:
        advice = "move it under 'archive:'" if self.gish else "keep it and mark it archived: true"
        return (
            f"fact {self.json_path} (line {self.line} at {self.base_label}) was deleted, not archived: {advice}"
            + _unreadable(self.path, self.unreadable_now)
        )


@dataclass(frozen=True)
class DeletedIndexEntry:
    rule: ClassVar[str] = "deleted-record"
    target: str
    line: int
    base_label: str
    path: str
    unreadable_now: str | None

    @property
    def message(self) -> str:
        return (
            f"index entry for {self.target} (line {self.line} at {self.base_label}) was deleted: keep it, move it "
            "to a shelf index, or archive the note it points to" + _unreadable(self.path, self.unreadable_now)
        )


@dataclass(frozen=True)
class DeletedLine:
    """A line of a file that did not parse at the base, compared line by line since it could not be record by record."""

    rule: ClassVar[str] = "deleted-record"
    line: int
    base_label: str
    what: str  # "fact file", "index"
    why: str
    path: str
    unreadable_now: str | None

    @property
    def message(self) -> str:
        return (
            f"line {self.line} of this {self.what} at {self.base_label} is in no file now; the {self.what} did not "
            f"parse there ({excerpt(self.why, 120)}), so it is compared line by line, not record by record: archive "
            "what it held instead of deleting it" + _unreadable(self.path, self.unreadable_now)
        )


@dataclass(frozen=True)
class RewrittenRecord:
    rule: ClassVar[str] = "rewritten-record"
    what: str
    base_label: str
    json_path: str
    mutable_fields: tuple[str, ...]

    @property
    def message(self) -> str:
        allowed = ", ".join(self.mutable_fields) if self.mutable_fields else "none"
        return (
            f"{self.what} was rewritten in place since {self.base_label}: {self.json_path} changed (fields the "
            f"memory system updates may change: {allowed}); keep the original and log a new episode that corrects it"
        )


@dataclass(frozen=True)
class DeletedNote:
    rule: ClassVar[str] = "deleted-note"
    archived: bool  # it was in an archive folder already
    base_label: str
    archive_dir: str

    @property
    def message(self) -> str:
        which = "archived note" if self.archived else "note"
        return (
            f"{which} deleted since {self.base_label} and found nowhere now: archive it instead "
            f"(git mv it into {self.archive_dir}/)"
        )


@dataclass(frozen=True)
class EmptiedNote:
    rule: ClassVar[str] = "deleted-note"
    base_label: str
    archive_dir: str

    @property
    def message(self) -> str:
        return (
            f"note emptied since {self.base_label}: its content is gone; archive it instead "
            f"(move it into {self.archive_dir}/)"
        )


Violation = Union[
    DeletedRecord, DeletedAssociation, DeletedFact, DeletedIndexEntry, DeletedLine, RewrittenRecord, DeletedNote,
    EmptiedNote,
]


@dataclass(frozen=True)
class BackInWorktree:
    """A loss in the index whose record the working tree already has back."""

    lost: Violation

    @property
    def rule(self) -> str:
        return self.lost.rule

    @property
    def message(self) -> str:
        return self.lost.message + "; the working tree has it back: `git add` it"


@dataclass(frozen=True)
class UnlistedLosses:
    """The losses of one file beyond MAX_LISTED_PER_FILE, in one finding."""

    hidden: int
    rewritten: bool
    base_label: str

    @property
    def message(self) -> str:
        what = "rewritten" if self.rewritten else "lost"
        return (
            f"... and {self.hidden:,} more {what} record{'s' if self.hidden != 1 else ''} in this file since "
            f"{self.base_label} (not listed one by one)"
        )


@dataclass(frozen=True)
class RestoreDeleted:
    """The one unsafe fix of deleted-record and deleted-note: everything lost comes back, archived."""

    count: int
    base_label: str
    files: tuple[str, ...]
    staged: bool

    @property
    def fix_title(self) -> str:
        noun = "record" if self.count == 1 else "records"
        where = ", ".join(self.files[:4]) + (f" and {len(self.files) - 4} more" if len(self.files) > 4 else "")
        title = f"restore the {self.count} deleted {noun} from {self.base_label}, marked archived, into {where}"
        if self.staged:
            title += "; the fix writes the working tree: `git add` the restored files"
        return title


def _describe(record: JsonRecord) -> str:
    if record.is_association:
        src, dst = record.data.get("src"), record.data.get("dst")

        def node(value):
            if isinstance(value, dict):
                return excerpt(f"{value.get('kind', '?')}:{value.get('id', '?')}", 80, mask_tokens=False)
            return "?"

        kind = record.data.get("type")
        kind = f" ({kind})" if isinstance(kind, str) and re.fullmatch(r"[\w-]{1,40}", kind) else ""
        return f"association {node(src)} -> {node(dst)}{kind}"
    episode_id = record.identity("id")
    if episode_id is not None and len(episode_id) <= 80:
        return f"episode {quoted(episode_id, 80, mask_tokens=False)}"
    for key in _SUMMARY_KEYS:  # a three-layer episode has no id: its summary says which one it was
        value = record.data.get(key) if isinstance(record.data, dict) else None
        if isinstance(value, str) and value.strip():
            return f"episode {quoted(' '.join(value.split()), 60)}"
    fingerprint = record.identity("fingerprint")
    if fingerprint is not None:
        return f"episode with fingerprint {fingerprint[:12]}"
    return "the record"


_SUMMARY_KEYS = ("summary", "title", "content", "text", "detail")


def rule_of(loss: Loss) -> str:
    """Which append-only rule reports a loss."""
    if isinstance(loss, RecordRewritten):
        return RewrittenRecord.rule
    if isinstance(loss, NoteLost):
        return DeletedNote.rule
    return DeletedRecord.rule


def violation_of(loss: Loss, ws, fields) -> Violation:
    """The violation a loss is, worded for this workspace's profile and mutable fields."""
    gish = ws.profile.name == "ghost-in-shell"
    if isinstance(loss, RecordRewritten):
        return RewrittenRecord(_describe(loss.record), loss.base_label, loss.json_path, tuple(fields))
    if isinstance(loss, RecordLost) and loss.record.is_association:
        return DeletedAssociation(_describe(loss.record), loss.line, loss.base_label, loss.path, loss.unreadable_now)
    if isinstance(loss, RecordLost):
        marker = '"decay_status": "archived"' if gish else '"archived": true'
        return DeletedRecord(
            _describe(loss.record), loss.line, loss.base_label, loss.record.archived_file, marker, loss.path,
            loss.unreadable_now,
        )
    if isinstance(loss, FactLost):
        return DeletedFact(loss.json_path, loss.line, loss.base_label, gish, loss.path, loss.unreadable_now)
    if isinstance(loss, LineLost):
        what = "fact file" if loss.group == "facts" else "index"
        return DeletedLine(loss.line, loss.base_label, what, loss.why, loss.path, loss.unreadable_now)
    if isinstance(loss, IndexEntryLost):
        return DeletedIndexEntry(loss.entry.target, loss.line, loss.base_label, loss.path, loss.unreadable_now)
    if isinstance(loss, NoteLost) and loss.emptied:
        return EmptiedNote(loss.base_label, archive_root(ws))
    if isinstance(loss, NoteLost):
        return DeletedNote(loss.archived, loss.base_label, archive_root(ws))
    raise TypeError(f"no append-only violation for {type(loss).__name__}")


# -- one comparison per run, shared by the three rules ----------------------------------


@dataclass
class _Outcome:
    changes: ChangesSinceBase
    fix: Fix | None  # restores every loss but rewrites, and those the working tree has back


def outcome(ctx) -> _Outcome | None:
    """The one comparison with the base that this run's append-only rules share (None without --base/--staged or a proposed write)."""
    ws = ctx.workspace
    if not ctx.base and not ctx.staged and not ws.proposed:
        return None
    fields = tuple(mutable_fields(ctx.options))
    # Fix rounds change the overlay; each round compares the files as they are then.
    overlay = tuple(sorted((p, hash(b)) for p, b in ws.overlay.items()))
    key = ("append-only", ctx.base, ctx.staged, overlay, fields, ctx.today)
    return ctx.memo.get(key, lambda: _compare(ws, ctx.base, ctx.staged, fields, ctx.today))


def _compare(ws, base_ref: str | None, staged: bool, fields: tuple[str, ...], today) -> _Outcome:
    changes = changes_since_base(ws, base_ref, staged, fields)
    restorable = [
        loss for loss in changes.losses
        if not isinstance(loss, (RecordRewritten, LineLost)) and loss.key not in changes.restored_in_worktree
    ]
    restoration = Restorer(ws, changes.label, today).build(restorable) if restorable else None
    if restoration is None:
        return _Outcome(changes, None)
    title = RestoreDeleted(restoration.count, changes.label, restoration.files, staged).fix_title
    return _Outcome(changes, Fix(Applicability.UNSAFE, title, restoration.edits))


def problems(ctx, rule_name: str):
    compared = outcome(ctx)
    if compared is None:
        return
    ws = ctx.workspace
    fields = mutable_fields(ctx.options)
    fix = compared.fix if rule_name != RewrittenRecord.rule else None
    per_file: Counter = Counter()
    line_counts: dict[str, int] = {}
    for loss in compared.changes.losses:
        if rule_of(loss) != rule_name:
            continue
        per_file[loss.path] += 1
        if per_file[loss.path] > MAX_LISTED_PER_FILE:
            continue
        violation = violation_of(loss, ws, fields)
        loss_fix = fix if not isinstance(loss, LineLost) else None  # the restore fix cannot put such a line back
        if loss.key in compared.changes.restored_in_worktree:
            violation, loss_fix = BackInWorktree(violation), None
        if loss.path not in line_counts:
            line_counts[loss.path] = _line_count(ws, loss.path)
        yield Problem(
            max(1, min(loss.line, line_counts[loss.path])),
            loss.column if isinstance(loss, RecordRewritten) else 1,
            violation.message,
            json_path=loss.json_path,
            fix=loss_fix,
            path=loss.path,
            # It quotes the base version (a deleted record's id, a fact's key): hide that version's secrets too.
            quotes_from=((version_text(compared.changes.base_raw(loss.path)), format_of(loss.path)),),
        )
    for relpath, count in sorted(per_file.items()):
        if count > MAX_LISTED_PER_FILE:
            unlisted = UnlistedLosses(count - MAX_LISTED_PER_FILE, rule_name == RewrittenRecord.rule,
                                      compared.changes.label)
            yield Problem(1, 1, unlisted.message, fix=fix, path=relpath)


def _line_count(ws, relpath: str) -> int:
    """Lines of the file as it is now: a finding about a deleted line points at a line that exists."""
    raw = ws.current_bytes(relpath)
    if raw is None:
        return 1
    return raw.count(b"\n") + (0 if raw.endswith(b"\n") or not raw else 1)


# -- the rules ------------------------------------------------------------------------


@rule(
    code="MW601",
    name="deleted-record",
    severity=Severity.ERROR,
    scope=Scope.WORKSPACE,
    fix=Applicability.UNSAFE,
    options={"mutable_fields": MUTABLE_FIELDS},
    needs_git=True,
)
def deleted_record(ctx):
    """An episode, a fact key, an index entry or an association present at the base is gone, and was not archived.

    ## What it does
    With `--staged` (the pre-commit hook) compares what is staged with HEAD;
    with `--base REF` (CI) compares the working tree with REF, or more exactly
    with the commit where HEAD forked from REF, like `git diff REF...`, so
    records added on REF since are not taken for deletions; with both flags,
    compares what is staged with REF. Without either flag it has nothing to
    compare and reports nothing. It reports every record of the base that is
    now nowhere:

    - an episode of the log or its archive (matched by `id`, else
      `fingerprint`, else its exact content once parsed, so reordered lines,
      re-indented records, another key order or CRLF/LF are not deletions);
    - a fact key (by its JSON path; an item of a list by its value, or its
      `id`/`key`/`name`);
    - an index entry (its link target and triggers; moved to a shelf index, or
      its triggers reworded, is kept);
    - an association (by `src`, `dst` and `type`).

    Archiving is not deleting: a record that now lives in an archive file
    (gish `memory/_archive/`, any `_archive`/`archive` folder, a log rotated
    there), carries `archived: true` or `decay_status: archived`, or moved under
    `archive:` in a gish `fact.yml` passes; so does consolidation, which
    archives its sources and links them from the merged entry.

    A line of a log that did not parse at the base is not a record (see
    `unparsable-file`); a file that does not parse now loses its records, and
    the message says why. A base that cannot be read record by record is
    never a pass: bytes that are not valid UTF-8 are compared as they are, line
    by line, and a fact file or index that did not parse at the base is
    compared line by line (a fact's key line is kept when its key is), each
    line gone reported. With file names on the command line only those files
    are reported: the hook and CI run it on the whole workspace.

    ## Why
    An agent's memory is append-only: it is the record of what was decided and
    learned. An agent tidying its own memory, a bad merge, or a consolidation
    script with a bug can drop records without a word, and nothing else would
    notice until the lesson is needed again.

    ## Example
    ```diff
     {"id": "ep_00000001", "title": "Multi-CLI workspace initialized", ...}
    -{"id": "ep_00000002", "title": "Chose shared memory store pattern", ...}
    ```
    `memory/episodic.jsonl:2:1: MW601 deleted-record episode 'ep_00000002' (line 2 at HEAD) was deleted ...`

    ## Fix safety
    Unsafe (opt-in with `--fix --unsafe-fixes`): restores every deleted record from
    the base, marked archived, so nothing is lost: episodes are appended to
    `memory/_archive/restored.jsonl` with `"decay_status": "archived"` (gish)
    or `"archived": true`, associations get `"archived": true`, fact keys go
    back under `archive:` (gish) or under a mapping marked `archived: true`,
    index lines go to `memory/_archive/INDEX_restored.md`. Review the result:
    the deletion may have been meant, and then the archive is where it belongs.
    With `--staged` the fix writes the working tree; `git add` the restored
    files before committing again.
    """
    yield from problems(ctx, "deleted-record")


@rule(
    code="MW602",
    name="rewritten-record",
    severity=Severity.ERROR,
    scope=Scope.WORKSPACE,
    options={"mutable_fields": MUTABLE_FIELDS},
    needs_git=True,
)
def rewritten_record(ctx):
    """An existing episode's content was changed in place.

    ## What it does
    Compares like `deleted-record` (`--staged` or `--base REF`) and reports an
    episode that is still there by `id` (or `fingerprint`) but whose content
    changed. The fields the memory system itself updates may change: by
    default `decay_status`, `retrieval`, `quality`, `linked_to` and `archived`
    (gish's decay, recall and consolidation write them) and `expires` (a
    re-verified claim gets a new date). Set the list under
    `[tool.memwarden.rules.rewritten-record] mutable_fields`. Tags are
    compared in normal form, so trimming, lower-casing and de-duplicating
    them is not a rewrite.

    ## Why
    An episode is what happened, as it was understood then. Rewriting it
    erases the history of a decision; a correction belongs in a new episode
    that links to the old one, so both the mistake and the lesson survive.

    ## Example
    ```diff
    -{"id": "ep_00000002", "content": "All four CLIs share one episodic.jsonl.", ...}
    +{"id": "ep_00000002", "content": "Each CLI keeps its own log.", ...}
    ```
    `memory/episodic.jsonl:2:1: MW602 rewritten-record episode 'ep_00000002' was rewritten in place since HEAD: $.content changed ...`

    ## Fix safety
    No fix: keeping both versions under one id would make the id ambiguous.
    Restore the original line yourself and log the correction as a new episode.
    """
    yield from problems(ctx, "rewritten-record")


@rule(
    code="MW603",
    name="deleted-note",
    severity=Severity.ERROR,
    scope=Scope.WORKSPACE,
    fix=Applicability.UNSAFE,
    options={"mutable_fields": MUTABLE_FIELDS},
    needs_git=True,
)
def deleted_note(ctx):
    """A note file deleted or emptied instead of archived.

    ## What it does
    Compares like `deleted-record` (`--staged` or `--base REF`) and reports a
    knowledge note (or a note already in an archive folder) that is gone, or
    whose content was emptied. A note moved into an archive folder
    (`memory/_archive/**`, or any `_archive`/`archive` folder) passes, and so
    does a note moved or renamed elsewhere: it is found again by its content,
    its body, its name in the archive, or (like git's rename detection) by
    sharing at least half of its lines.

    ## Why
    A note holds a lesson that cost something to learn, and the index lines
    that point at it are how the agent finds it. Deleting it loses the lesson
    and leaves the index pointing nowhere; archiving it keeps the history.

    ## Example
    ```text
    $ git rm memory/knowledge/feedback/verify-final-state.md
    ```
    `memory/knowledge/feedback/verify-final-state.md:1:1: MW603 deleted-note note deleted since HEAD and found nowhere now ...`

    ## Fix safety
    Unsafe (opt-in with `--fix --unsafe-fixes`): writes the note as it was at the
    base into `memory/_archive/notes/` (`_archive/notes/` for Claude Code),
    so nothing is lost. With `--staged`, `git add` the restored file.
    """
    yield from problems(ctx, "deleted-note")

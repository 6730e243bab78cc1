"""What the index points at: links that resolve, notes that some index reaches, notes not superseded.

broken-index-link (MW402), orphan-note (MW405) and superseded-note-indexed (MW408):
the index family's rules about the targets of its links, beside rules/index.py,
which checks the shape of each index line and its trigger.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from memwarden.analysis import index_lines, recognition, runtime_loaded
from memwarden.analysis.superseded import superseded_notes, supersession_marks
from memwarden.discover.links import read_at_its_own_path
from memwarden.documents import IndexDocument
from memwarden.documents.scan import resolve_link
from memwarden.model import Problem, Scope, Severity
from memwarden.registry import rule
from memwarden.rules.index import INDEX_KINDS
from memwarden.text import excerpt_path, quoted_path


def _target_column(link) -> int:
    return link.target_column or link.column + len(link.title) + 3  # "[" title "](" comes before the target


# -- broken-index-link ----------------------------------------------------------------

@dataclass(frozen=True)
class WindowsPathLink:
    target: str
    index_path: str

    @property
    def message(self) -> str:
        return f"'{excerpt_path(self.target, 60)}' is an absolute path outside the workspace; link relative to {self.index_path}"


@dataclass(frozen=True)
class LinkOutsideWorkspace:
    target: str
    absolute: bool
    folder: str  # the index's folder, "" at the root
    committed: bool = False  # the workspace lies in a git work tree, which the target leaves too

    @property
    def message(self) -> str:
        what = "an absolute path" if self.absolute else f"outside the {'repository' if self.committed else 'workspace'}"
        return (
            f"link target '{excerpt_path(self.target, 80)}' is {what}: it works on one machine at most; "
            f"keep notes in the workspace and link relative to {self.folder or 'the root'}"
        )


@dataclass(frozen=True)
class LinkToFolder:
    target: str

    @property
    def message(self) -> str:
        return f"link target '{excerpt_path(self.target, 80)}' is a folder, not a note"


@dataclass(frozen=True)
class MissingLinkTarget:
    target: str
    resolved: str  # the target as a workspace path
    index_path: str
    suggestion: str | None  # a close existing file, as a link from this index

    @property
    def message(self) -> str:
        where = "" if self.resolved == self.target else f" (from {self.index_path} that is {excerpt_path(self.resolved, 80)})"
        hint = f" (did you mean {excerpt_path(self.suggestion, 80)}?)" if self.suggestion else ""
        return f"link target '{excerpt_path(self.target, 80)}' does not exist{where}{hint}"


@rule(code="MW402", name="broken-index-link", severity=Severity.ERROR, kinds=INDEX_KINDS)
def broken_index_link(doc, ctx):
    """An index link whose target does not exist, or lies outside the workspace.

    ## What it does
    Resolves each link of each index line relative to the index file's folder
    (MEMORY.md: the workspace root; a shelf index: `memory/knowledge/`) and
    reports a target that does not exist, a folder, an absolute path, or a path
    (or symlink) that leads outside the workspace and outside the git work tree
    it is committed in. A memory folder inside a repository (`.claude/memory/`)
    may link to the repository's files (`../../CLAUDE.md`): such a target is
    fine when it exists. URLs and `#anchor` links are not checked. Applies to
    every profile with an index.

    ## Why
    A trigger that matches and then leads nowhere is worse than none: the agent
    knew it needed the note and got nothing. A link outside the repository works
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
            if index_lines.is_windows_path(target):
                yield Problem(entry.line, _target_column(link), WindowsPathLink(target, doc.relpath).message)
                continue
            resolved = resolve_link(doc.relpath, target)
            if resolved is None:
                continue
            if index_lines.leaves_workspace(ws.root, resolved):
                in_repository = index_lines.in_work_tree(ws.root, ws.work_tree, resolved)
                if in_repository is None:
                    violation = LinkOutsideWorkspace(
                        target, resolved.startswith("/"), posixpath.dirname(doc.relpath), ws.work_tree is not None
                    )
                elif index_lines.is_file(ws.work_tree, in_repository):
                    continue  # a file of the repository the memory is committed in
                elif index_lines.is_folder(ws.work_tree, in_repository):
                    violation = LinkToFolder(target)
                else:
                    violation = MissingLinkTarget(target, resolved, doc.relpath, None)
                yield Problem(entry.line, _target_column(link), violation.message)
                continue
            if resolved in ws.overlay or index_lines.is_file(ws.root, resolved):
                continue
            if index_lines.is_folder(ws.root, resolved):
                violation = LinkToFolder(target)
            else:
                suggestion = index_lines.closest_note(ws.files, doc.relpath, resolved)
                violation = MissingLinkTarget(target, resolved, doc.relpath, suggestion)
            yield Problem(entry.line, _target_column(link), violation.message)


# -- orphan-note ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class OrphanNote:
    message = (
        "no index links to this note, so no session will read it: add a trigger line to MEMORY.md "
        "(a mistake the agent would not know it is making) or to a shelf index "
        "memory/knowledge/INDEX_<shelf>.md, or archive the note"
    )


@dataclass(frozen=True)
class UnlinkedMemoryFile:
    """claude-code's orphan: MEMORY.md is its one index, and its lines carry no trigger."""

    name: str  # the file's name, as MEMORY.md would link it

    @property
    def message(self) -> str:
        return (
            "MEMORY.md does not link to this memory file, so the agent never learns it exists: "
            f"add a line `- [Title]({self.name}) — one-line hook`"
        )


@rule(code="MW405", name="orphan-note", severity=Severity.WARNING, scope=Scope.WORKSPACE, reads_history=True)
def orphan_note(ctx):
    """A note that no index links to.

    ## What it does
    Collects every link in the startup index and the shelf indexes and
    reports each note that none of them names. In a claude-code workspace,
    every memory file beside MEMORY.md is a note and MEMORY.md is the only
    index. A folder of files none of which has front matter is
    `unrecognized-file`'s (not notes), so none of them is called an orphan. Silent when the workspace has no index at all (`index-missing` says
    so) or when an index cannot be parsed; notes that do not parse, and empty
    ones, are left to the format rules. A note that Claude Code loads by
    itself is no orphan: one a `SessionStart` or `UserPromptSubmit` hook
    prints into the session (its command in `.claude/settings.json` or
    `settings.local.json` names the file, or a glob that matches it), or one
    a `CLAUDE.md` imports (`@.claude/memory/context.md`).

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
    linked = index_lines.paths_linked_from_indexes(ctx)
    claude = ws.profile.name == "claude-code"
    unlinked = []
    for relpath, kind in sorted(ws.files.items()):
        # Only unlinked notes that will be reported are read: a hook on three files stays fast.
        if kind.name != "note" or relpath in linked or not ctx.is_target(relpath):
            continue
        if recognition.in_bare_note_folder(ctx, relpath):
            continue  # unrecognized-file says these are not notes: never "not a note" and "an orphan note" at once
        note = ws.document(relpath)
        if not note.ok or not note.text.strip():
            continue  # a file that does not parse is unparsable-file's; an empty one holds no lesson to lose
        if read_at_its_own_path(ws, note):
            continue  # a symlink to a note: the note is linked, or reported, at its own path
        unlinked.append(note)
    if not unlinked:
        return
    # A note a session-start hook prints, or CLAUDE.md imports, is loaded with no link. Those files lie outside
    # the memory folder: what was read of them is a dependency of the answer (and which folders are looked in
    # ends at the git work tree, which a checkout or a new repository may move).
    ctx.reads_history()
    found = runtime_loaded.runtime_loaded(ws.root, ws.work_tree, [note.relpath for note in unlinked])
    ctx.reads_outside(found.read, found.resolved)
    for note in unlinked:
        if note.relpath not in found.loaded:
            violation = UnlinkedMemoryFile(posixpath.basename(note.relpath)) if claude else OrphanNote()
            yield Problem(1, 1, violation.message, path=note.relpath)


# -- superseded-note-indexed ----------------------------------------------------------------


@dataclass(frozen=True)
class SupersededNoteIndexed:
    note: str  # the workspace path the line points to
    key: str  # superseded_by, status, supersedes
    value: str  # as the front matter writes it; for supersedes, the note that says it
    successor: str | None  # the replacing note's path, when known

    @property
    def message(self) -> str:
        if self.key == "supersedes":
            why = f"{quoted_path(self.value)} says it supersedes it"
        else:
            why = f"it is marked {self.key}: {quoted_path(self.value)}"
        instead = f"point the line at {quoted_path(self.successor)}" if self.successor else "point the line at the note that replaces it"
        return f"this line sends the agent to {quoted_path(self.note)}, but {why}: {instead}, or drop the line"


@rule(code="MW408", name="superseded-note-indexed", severity=Severity.WARNING, scope=Scope.WORKSPACE)
def superseded_note_indexed(ctx):
    """An index line that points to a note marked superseded.

    ## What it does
    Finds the notes marked superseded: front matter (at the top or under
    `metadata:`) with `superseded_by: <note>`, or `status: superseded` or
    `status: deprecated`, or another note's `supersedes: <note>` (a path
    relative to that note, a file name with or without `.md`, a `[[wikilink]]`
    or a Markdown link). Then reports every line of the startup index and the
    shelf indexes that links to one of them, unless the same line also links
    to the note that replaces it ("old → superseded by new").

    ## Why
    Marking a note superseded tells a reader not to trust it, but the agent
    does not read that far: it follows the index, opens the note, and acts on
    the old lesson. The index line keeps the stale note alive every session.

    ## Example
    ```markdown
    - [Deploy flags](deploy-flags.md) — which flag skips the cache purge
    ```
    with `deploy-flags.md` saying `superseded_by: deploy-flags-v2`:
    `MEMORY.md:1:3: MW408 superseded-note-indexed this line sends the agent to 'deploy-flags.md', but it is marked superseded_by: 'deploy-flags-v2': point the line at 'deploy-flags-v2.md', or drop the line`

    ## Fix safety
    No fix: whether to repoint the line, merge the notes or drop the line is
    the author's call.
    """
    indexes = index_lines.in_reading_order(ctx.documents(*INDEX_KINDS))
    if not indexes:
        return
    superseded = superseded_notes(ctx.workspace, ctx.summaries(supersession_marks, "note"))
    if not superseded:
        return
    for doc in indexes:
        for entry in doc.entries:
            targets = index_lines.local_targets(doc, entry)
            paths = {resolved for _, resolved in targets}
            for link, resolved in targets:
                mark = superseded.get(resolved)
                if mark is None or (mark.successor is not None and mark.successor in paths):
                    continue
                violation = SupersededNoteIndexed(resolved, mark.key, mark.value, mark.successor)
                # It quotes a front matter value of the note, or of the note that supersedes it.
                sources = (resolved,) if mark.successor is None else (resolved, mark.successor)
                yield Problem(entry.line, link.column, violation.message, path=doc.relpath, quotes_from=sources)

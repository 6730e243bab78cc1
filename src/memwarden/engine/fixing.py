"""Applying fixes in rounds until nothing more can be fixed.

Each round takes every fix whose edits do not collide with one already taken
(the rest wait for the next round, after the files are parsed again), refuses
a fix that would leave a file unparsable, and applies a fix to all the files
it touches or to none. Fixed bytes stay in the workspace's overlay; only
:func:`write_changes` touches the disk, all files or none.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from memwarden.decoding import decode
from memwarden.discover.workspace import Workspace
from memwarden.documents import load
from memwarden.fixes.apply import TakenSpans, any_overlap, apply_edits
from memwarden.fixes.write import ChangedOnDisk, ReadAs, write_all_atomic
from memwarden.model import Finding
from memwarden.text import escape_controls

MAX_FIX_ROUNDS = 10


@dataclass
class FileChange:
    relpath: str
    before: bytes | None  # None: the fix created the file
    after: bytes
    stamp: tuple[int, int] | None = None  # (size, mtime in ns) of the file when `before` was read


@dataclass(frozen=True)
class Skipped:
    """A file not written because it changed on disk after memwarden read it."""

    relpath: str
    reason: str
    along: tuple[str, ...] = ()  # files a fix would have changed together with it, not written either

    @property
    def message(self) -> str:
        text = f"{self.relpath} changed on disk while memwarden ran ({self.reason}); skipped it, not fixed"
        if self.along:
            text += f", nor {', '.join(self.along)}, which a fix changes together with it"
        return text + ": run again"


@dataclass
class FixOutcome:
    findings: list[Finding]  # what is left after the last round
    fixed: int = 0
    changes: list[FileChange] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # fixes refused, and why
    applied: list[frozenset[str]] = field(default_factory=list)  # the files of each fix applied


def fix_rounds(
    workspace: Workspace,
    findings: list[Finding],
    recheck: Callable[[], list[Finding]],
    allows: Callable[[Finding], bool],
) -> FixOutcome:
    """Apply the allowed fixes round by round, rechecking the workspace after each round."""
    outcome = FixOutcome(findings)
    originals: dict[str, tuple[bytes | None, tuple[int, int] | None]] = {}
    for _ in range(MAX_FIX_ROUNDS):
        fixable = [f for f in outcome.findings if allows(f)]
        if not fixable:
            break
        applied = _apply_round(workspace, fixable, originals, outcome.errors)
        if not applied:
            break
        outcome.fixed += len(applied)
        outcome.applied += applied
        outcome.findings = recheck()
    for relpath, (before, stamp) in originals.items():
        after = workspace.overlay[relpath]
        if after != before:
            outcome.changes.append(FileChange(relpath, before, after, stamp))
    return outcome


def write_changes(workspace: Workspace, changes: list[FileChange], applied: list[frozenset[str]] = ()) -> list[Skipped]:
    """Write the fixed files, all or nothing, each only if it is unchanged on disk since it was read.

    A file that changed meanwhile (an agent appended to its log during the run) is skipped, and so is
    every file a fix changes together with it: a fix that moves lines between files must never land
    in one file only. The rest are written. Returns what was skipped, and why.
    """
    skipped: list[Skipped] = []
    pending = list(changes)
    while pending:
        files = [(workspace.root / c.relpath, c.after) for c in pending]
        read_as = {workspace.root / c.relpath: ReadAs(c.before, c.stamp) for c in pending}
        try:
            write_all_atomic(files, read_as)
            return skipped
        except ChangedOnDisk as changed:
            relpath = next(c.relpath for c in pending if workspace.root / c.relpath == changed.path)
            group = _linked(relpath, applied)
            along = tuple(sorted(c.relpath for c in pending if c.relpath in group and c.relpath != relpath))
            skipped.append(Skipped(relpath, changed.reason, along))
            pending = [c for c in pending if c.relpath not in group]
    return skipped


def _linked(relpath: str, applied) -> set[str]:
    """The file and every file a fix changed together with it, transitively."""
    group = {relpath}
    grown = True
    while grown:
        grown = False
        for paths in applied:
            if paths & group and not paths <= group:
                group |= paths
                grown = True
    return group


def unified_diff(workspace: Workspace, change: FileChange, cwd: Path) -> str:
    """The change as a unified diff; a diff never shows a secret, whichever rule's fix moved it."""
    from memwarden.analysis.secrets import hide_secrets

    shown = escape_controls(workspace.display_path(change.relpath, cwd))
    kind = workspace.text_kind_of(change.relpath)
    fmt = kind.format if kind is not None else "text"
    before = hide_secrets((change.before or b"").decode("utf-8", "replace"), fmt).splitlines(keepends=True)
    after = hide_secrets(change.after.decode("utf-8", "replace"), fmt).splitlines(keepends=True)
    return "".join(difflib.unified_diff(before, after, f"a/{shown}", f"b/{shown}"))


def _apply_round(workspace: Workspace, fixable: list[Finding], originals: dict, errors: list[str]) -> list[frozenset[str]]:
    """Apply every fix that does not collide with one already taken; the rest wait a round.

    A fix is applied whole or not at all: when one of the files it edits is
    refused, its edits to every other file are dropped too (a fix that moves
    lines from one file to another must never only delete them).
    """
    taken: dict[str, TakenSpans] = {}
    chosen: list[tuple[set[str], list]] = []  # the files each chosen fix touches, and its edits
    for finding in fixable:
        edits = [(edit.path or finding.workspace_path, edit) for edit in finding.fix.edits]
        if any(path in taken and taken[path].collides((e.start, e.end)) for path, e in edits):
            continue
        if not _no_self_overlap(edits):
            continue
        for path, edit in edits:
            taken.setdefault(path, TakenSpans()).add((edit.start, edit.end))
        chosen.append(({path for path, _ in edits}, edits))
    refused: set[str] = set()
    while True:
        per_file: dict[str, list] = {}
        for paths, edits in chosen:
            if paths & refused:
                continue
            for path, edit in edits:
                per_file.setdefault(path, []).append(edit)
        results = {relpath: _fixed_bytes(workspace, relpath, edits, errors) for relpath, edits in per_file.items()}
        newly = {relpath for relpath, result in results.items() if result is None}
        if not newly:
            break
        refused |= newly
    for relpath, (before, stamp, data) in results.items():
        originals.setdefault(relpath, (before, stamp))
        workspace.overlay[relpath] = data
        workspace.forget(relpath)
    return [frozenset(paths) for paths, _ in chosen if not paths & refused]


def _fixed_bytes(workspace: Workspace, relpath: str, edits: list, errors: list[str]):
    """(bytes before, their stamp, bytes after) for one file's edits, or None when the file must not be touched.

    `before` is what the edits were computed from: the bytes the document was read from, not the file
    read again now (what was appended since is not in the edited text, and must not be written over).
    """
    doc = workspace.document(relpath)
    stamp = None
    if relpath in workspace.overlay:
        before = workspace.overlay[relpath]
    elif doc is not None and doc.stamp is not None:
        before, stamp = doc.raw, doc.stamp
    else:
        before = workspace.current_bytes(relpath)
    if before is None and not os.path.lexists(workspace.root / relpath):
        doc = None  # a file the edit creates: nothing there yet, and it must parse once written
    if doc is not None and not doc.ok and doc.kind.format != "jsonl":
        return None  # fixers never touch a file that does not parse
    if doc is not None and not doc.decoded:
        return None  # no text to edit: writing the edits alone would replace what could not be read
    if doc is not None:
        text = doc.text
    elif before is not None:  # a file of no kind (an archive the restore fix appends to): edit its own text
        text, _, bom, error = decode(before)
        if text is None or bom:
            return None
    else:
        text = ""
    new_text = apply_edits(text, edits)
    if doc is not None:
        data = doc.encode(new_text)
    elif before is None:  # a new file: in the encoding its edits ask for (a restored note keeps its own)
        encoding, bom = next((e.creates_as for e in edits if e.creates_as), ("utf-8", b""))
        try:
            data = bom + new_text.encode(encoding, "surrogateescape")
        except UnicodeEncodeError:
            errors.append(f"{relpath}: its text cannot be written in {encoding}; not applied")
            return None
    else:
        data = new_text.encode("utf-8")
    kind = doc.kind if doc is not None else workspace.profile.classify(relpath)
    if kind is not None:
        checked = load(workspace.root, relpath, kind, data)
        was_ok = doc is None or doc.ok
        if was_ok and not checked.ok:
            errors.append(f"{relpath}: a fix would leave the file unparsable ({checked.error.message}); not applied")
            return None
        if checked.ok and kind.format == "jsonl" and _bad_records(checked) > (_bad_records(doc) if doc else 0):
            errors.append(f"{relpath}: a fix would break a record of the log; not applied")
            return None
    return before, stamp, data


def _bad_records(doc) -> int:
    return sum(1 for record in getattr(doc, "records", []) if not record.ok)


def _no_self_overlap(edits) -> bool:
    spans: dict[str, list[tuple[int, int]]] = {}
    for path, edit in edits:
        spans.setdefault(path, []).append((edit.start, edit.end))
    return not any(any_overlap(each) for each in spans.values())

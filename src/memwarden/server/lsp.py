"""`memwarden server`: the Language Server Protocol over stdio (pygls), for editors.

A memory file's findings appear as it is opened, changed and saved: on open and save every rule runs on
the file (the workspace rules too: orphans, duplicates, conflicts, the budget) and a save re-checks the
whole workspace; a change runs the document rules on the unsaved text and keeps the workspace rules'
findings of the last open or save. Each fix is a quick fix (unsafe ones say so), with "fix all safe
problems" for the file. The startup index shows where the agent stops reading (an inlay hint) and its
budget gauge (hover); links and [[wikilinks]] go to their notes, and hovering one shows the note's
description; hovering a finding shows its rule's doc. Nothing is written except by a code action the user
takes, and every message is the engine's, secrets hidden.

Typing never waits behind a slow check: a worker thread runs what answers the user at once (a
keystroke's document rules, hovers, code actions), and a process of its own (`background.py`) the checks
that read the whole workspace (open, save, and the save's whole-workspace check). A check whose text has
been typed over before it starts is skipped, and so is a whole-workspace check a later save has asked for
again. A file too big to check in bounded time and memory gets one diagnostic that says so, and nothing
else; a save walks no folder outside the ones the editor opened, and no code action edits a file there.
"""

from __future__ import annotations

import asyncio
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from memwarden import __version__
from memwarden.decoding import decode
from memwarden.fileio import read_regular
from memwarden.model import Applicability, Finding, Scope, Severity
from memwarden.server import checking
from memwarden.server.background import Background
from memwarden.server.links import gauge_text, link_at, link_target, note_description
from memwarden.server.positions import Lines
from memwarden.text import excerpt

DOCS = "https://github.com/memwarden/memwarden/blob/main/docs/rules.md#"
# A buffer past this size is checked on open and save only, never on every keystroke (the document rules
# take about 2.6 s a megabyte of log with every rule on).
LIVE_LIMIT = 1024 * 1024
# Past this size a file is not checked in the editor at all: a 50 MB log takes minutes and gigabytes with
# every rule on. `memwarden check` still reads it (up to the engine's own limit).
EDITOR_LIMIT = 8 * 1024 * 1024


class MemoryServer(LanguageServer):
    def __init__(self):
        super().__init__("memwarden", __version__)
        self.typing = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memwarden-typing")
        self.background = Background()  # every rule on open and save, and the whole workspace after a save
        self.document_findings: dict[str, list[Finding]] = {}  # uri -> what the last check of its text found
        self.workspace_findings: dict[str, list[Finding]] = {}  # uri -> the workspace rules' findings of the last save
        self.notices: dict[str, list[types.Diagnostic]] = {}  # uri -> why it was not checked (too big, failed)
        self.texts: dict[str, str] = {}  # uri -> the text those findings' positions are in
        self.versions: dict[str, int] = {}  # uri -> that text's version, when the editor has the file open
        self.listings = checking.Listings(EDITOR_LIMIT)  # each workspace's files, walked again after a save
        self.saves: dict[Path, int] = {}  # workspace folder -> how many saves have asked for its check

    async def in_worker(self, function, *args, **kwargs):
        return await asyncio.get_running_loop().run_in_executor(self.typing, lambda: function(*args, **kwargs))

    # -- diagnostics --------------------------------------------------------------------------------------------
    def publish(self, uri: str) -> None:
        text = self.texts.get(uri)
        if text is None:
            text = disk_text(uri)
        lines = Lines(text)
        found = self.document_findings.get(uri, []) + self.workspace_findings.get(uri, [])
        diagnostics = [diagnostic(f, lines, self.related_information(uri, f)) for f in found]
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, version=self.versions.get(uri) if uri in self.texts else None, diagnostics=self.notices.get(uri, []) + diagnostics))

    def related_information(self, uri: str, finding: Finding) -> list[types.DiagnosticRelatedInformation] | None:
        """A finding's other places (the other file of a conflict), for a client that said it shows them."""
        publish = self.client_capabilities.text_document and self.client_capabilities.text_document.publish_diagnostics
        if not (finding.related and finding.workspace_path and publish and publish.related_information):
            return None
        # uri is the finding's file, root/workspace_path: the root is what is left of it without that path.
        root = Path(to_fs_path(uri)).parents[len(Path(finding.workspace_path).parts) - 1]
        related = []
        for place in finding.related:
            other = from_fs_path(str(root / place.workspace_path))
            start, end = Lines(self.texts.get(other) or disk_text(other)).finding_range(place.line, place.column)
            related.append(types.DiagnosticRelatedInformation(
                location=types.Location(uri=other, range=types.Range(start=types.Position(*start),
                                                                      end=types.Position(*end))),
                message=place.label))
        return related

    def publish_only(self, uri: str, text: str, notice: types.Diagnostic) -> None:
        """One diagnostic saying why the file was not checked, in place of its findings."""
        self.document_findings[uri] = []
        self.workspace_findings[uri] = []
        self.notices[uri] = [notice]
        self.texts[uri] = text
        self.versions[uri] = self.version_of(uri)
        self.publish(uri)

    def version_of(self, uri: str) -> int | None:
        document = self.workspace.text_documents.get(uri)
        return document.version if document is not None else None

    async def check_buffer(self, uri: str, from_disk: bool, document_rules_only: bool = False) -> None:
        """Check a file's text: the document rules on the typing worker, every rule in the background (open, save)."""
        if not uri.startswith("file:") or to_fs_path(uri) is None:
            return  # an untitled buffer, or a file of another scheme: no path to know the memory file by
        document = self.workspace.get_text_document(uri)
        text, version = document.source, document.version
        size = max(len(text), disk_size(uri) if from_disk else 0)
        if size > EDITOR_LIMIT:
            self.publish_only(uri, text, too_big(size))
            return
        if document_rules_only and size > LIVE_LIMIT:
            return  # checked on open and save only

        def current() -> bool:  # not typed on since: a check of a newer text would answer
            return self.version_of(uri) in (version, None)

        def document_rules():
            if not current():
                return None
            return checking.check_content(Path(to_fs_path(uri)), content_to_check(uri, text, from_disk),
                                          document_rules_only=True, listings=self.listings).own_findings

        try:
            if document_rules_only:
                findings = await self.in_worker(document_rules)
            else:
                findings = await self.background.run(current, checking.findings_of, Path(to_fs_path(uri)),
                                                     content_to_check(uri, text, from_disk), EDITOR_LIMIT)
        except Exception as error:  # a bad config or input memwarden did not foresee: say so where the user looks
            self.publish_only(uri, text, failure(error))
            return
        if findings is None:
            return
        self.notices.pop(uri, None)
        if not current():
            if not document_rules_only:  # typed on meanwhile: the workspace rules' findings still hold
                self.workspace_findings[uri] = [f for f in findings if f.rule.scope is not Scope.DOCUMENT]
                self.publish(uri)
            return
        self.texts[uri] = text
        self.versions[uri] = version
        if document_rules_only:
            self.document_findings[uri] = findings
        else:
            self.document_findings[uri] = [f for f in findings if f.rule.scope is Scope.DOCUMENT]
            self.workspace_findings[uri] = [f for f in findings if f.rule.scope is not Scope.DOCUMENT]
        self.publish(uri)

    async def check_whole_workspace(self, uri: str) -> None:
        """After a save: every file's findings, the workspace rules' (orphans, duplicates, budget) on all of them.
        Saves in a row ask for one check: one that has not begun when a later save asks again is skipped."""
        folder = Path(to_fs_path(uri)).parent
        if not self.in_workspace_folders(folder):
            return  # a file opened from elsewhere (or through a symlink leading out): no walk of a tree not opened
        self.saves[folder] = asked = self.saves.get(folder, 0) + 1

        try:
            results = await self.background.run(lambda: self.saves.get(folder) == asked,
                                                checking.check_folder, folder, EDITOR_LIMIT)
        except Exception:
            return  # the saved file's own check has said what went wrong
        for root, findings in results or []:
            touched = {u for u in (self.document_findings.keys() | self.workspace_findings.keys())
                       if is_below(u, root)}
            by_uri: dict[str, list[Finding]] = {}
            for finding in findings:
                by_uri.setdefault(from_fs_path(str(root / finding.workspace_path)), []).append(finding)
            open_now = self.open_uris()
            for file_uri in touched | set(by_uri):
                if file_uri in self.notices:
                    continue  # too big, or failed: its notice stands
                found = by_uri.get(file_uri, [])
                self.workspace_findings[file_uri] = [f for f in found if f.rule.scope is not Scope.DOCUMENT]
                if file_uri not in open_now:  # an open file's own findings come from the checks of its text
                    self.document_findings[file_uri] = [f for f in found if f.rule.scope is Scope.DOCUMENT]
                    self.texts.pop(file_uri, None)
                self.publish(file_uri)

    def in_workspace_folders(self, path: Path) -> bool:
        """Whether path is, by its real path, below a folder the editor opened (any, when it opened none)."""
        roots = [to_fs_path(folder.uri) for folder in self.workspace.folders.values()]
        roots += [self.workspace.root_path] if self.workspace.root_path else []
        real = os.path.realpath(path)
        return not roots or any(os.path.commonpath([os.path.realpath(root), real]) == os.path.realpath(root)
                                for root in roots if root)

    def open_uris(self) -> set[str]:
        return set(self.workspace.text_documents)

    def findings_at(self, uri: str, line: int) -> list[Finding]:
        return [f for f in self.document_findings.get(uri, []) + self.workspace_findings.get(uri, [])
                if f.line - 1 == line]


server = MemoryServer()


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
async def did_open(ls: MemoryServer, params: types.DidOpenTextDocumentParams):
    await ls.check_buffer(params.text_document.uri, from_disk=True)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
async def did_change(ls: MemoryServer, params: types.DidChangeTextDocumentParams):
    await ls.check_buffer(params.text_document.uri, from_disk=False, document_rules_only=True)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
async def did_save(ls: MemoryServer, params: types.DidSaveTextDocumentParams):
    ls.listings.forget()  # a file may have been added, renamed or deleted meanwhile
    # Walk the workspace again now, on the typing worker, not in the next keystroke's check.
    asyncio.get_running_loop().run_in_executor(ls.typing, list_files_quietly, params.text_document.uri, ls.listings)
    await ls.check_buffer(params.text_document.uri, from_disk=True)
    await ls.check_whole_workspace(params.text_document.uri)


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: MemoryServer, params: types.DidChangeWatchedFilesParams):
    # Files were added, changed or deleted outside the editor: walk the workspace again at the next check
    # (cheap, so a storm of these, a branch checked out, costs one walk, not one check per file).
    ls.listings.forget()


@server.feature(types.SHUTDOWN)
def shutdown(ls: MemoryServer, params):
    ls.background.stop()  # a check under way must not keep the editor waiting


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: MemoryServer, params: types.DidCloseTextDocumentParams):
    uri = params.text_document.uri
    ls.texts.pop(uri, None)


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, types.CodeActionKind.SourceFixAll]),
)
async def code_action(ls: MemoryServer, params: types.CodeActionParams):
    uri = params.text_document.uri
    document = ls.workspace.get_text_document(uri)
    content = content_to_check(uri, document.source, from_disk=False)
    path = Path(to_fs_path(uri))
    try:
        checked = await ls.in_worker(checking.check_content, path, content, build_fixes=True, listings=ls.listings)
        fixed = await ls.in_worker(checking.check_content, path, content, apply_safe_fixes=True, listings=ls.listings)
    except Exception:
        return []
    first, last = params.range.start.line, params.range.end.line
    actions = []
    for finding in checked.own_findings:
        fix = finding.fix
        if fix is None or not fix.edits or not first <= finding.line - 1 <= last:
            continue
        unsafe = fix.applicability is Applicability.UNSAFE
        actions.append(types.CodeAction(
            title=f"{fix.description} ({finding.rule.name}{', unsafe' if unsafe else ''})",
            kind=types.CodeActionKind.QuickFix,
            is_preferred=not unsafe,
            edit=edits_as_workspace_edit(checked, fix.edits, uri, document.version),
        ))
    if fixed.changes:
        actions.append(types.CodeAction(
            title="Fix all safe problems in this file (memwarden)",
            kind=types.CodeActionKind.SourceFixAll,
            edit=changes_as_workspace_edit(fixed, uri, document.source, document.version),
        ))
    # An edit to another file is written by the editor where that file's real path leads: never out of the
    # folders it opened (a shelf index that is a symlink to a file elsewhere, say).
    return [action for action in actions if all(
        target == uri or ls.in_workspace_folders(Path(to_fs_path(target)))
        for target in edited_uris(action.edit))]


@server.feature(types.TEXT_DOCUMENT_HOVER)
async def hover(ls: MemoryServer, params: types.HoverParams):
    uri, line = params.text_document.uri, params.position.line
    text = ls.workspace.get_text_document(uri).source
    rules = {f.rule.name: f.rule for f in ls.findings_at(uri, line)}
    parts = [rule_doc(rule) for rule in rules.values()]
    try:
        parts += await ls.in_worker(hover_on_links_and_budget, uri, text, params.position, ls.listings)
    except Exception:
        pass
    if not parts:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(parts)))


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
async def definition(ls: MemoryServer, params: types.DefinitionParams):
    uri = params.text_document.uri
    text = ls.workspace.get_text_document(uri).source
    try:
        target = await ls.in_worker(target_under, uri, text, params.position, ls.listings)
    except Exception:
        return None
    if target is None:
        return None
    start = types.Position(line=0, character=0)
    return types.Location(uri=from_fs_path(str(target)), range=types.Range(start=start, end=start))


@server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions())
async def inlay_hint(ls: MemoryServer, params: types.InlayHintParams):
    uri = params.text_document.uri
    text = ls.workspace.get_text_document(uri).source
    try:
        cut = await ls.in_worker(truncation_line, uri, text, ls.listings)
    except Exception:
        return []
    if cut is None:
        return []
    line, label = cut
    return [types.InlayHint(position=types.Position(line=line, character=0), label=label,
                            kind=types.InlayHintKind.Parameter, padding_right=True)]


# -- what the handlers compute off the event loop -------------------------------------------------------------
def content_to_check(uri: str, text: str, from_disk: bool) -> bytes:
    """The bytes to check: the file on disk when the editor shows it as saved (its own encoding and BOM kept,
    or bytes that are not text, which the editor could only show mangled), else the buffer as UTF-8."""
    if from_disk:
        raw = read_bytes(uri)
        if raw is not None:
            decoded = decode(raw)[0]
            if decoded is None or decoded == text:
                return raw
    return text.encode("utf-8", "replace")


def read_bytes(uri: str) -> bytes | None:
    """The file's bytes when it is a regular file (a FIFO named like a note must not block the server)."""
    try:
        return read_regular(to_fs_path(uri), limit=EDITOR_LIMIT + 1)
    except (OSError, ValueError, TypeError):
        return None


def edited_uris(edit: types.WorkspaceEdit) -> set[str]:
    return {change.uri if isinstance(change, types.CreateFile) else change.text_document.uri
            for change in edit.document_changes or []}


def list_files_quietly(uri: str, listings) -> None:
    try:
        checking.propose(Path(to_fs_path(uri)), b"", listings)
    except Exception:  # the next check of the file says what is wrong
        pass


def disk_size(uri: str) -> int:
    try:
        return Path(to_fs_path(uri)).stat().st_size
    except (OSError, ValueError, TypeError):
        return 0


def disk_text(uri: str) -> str:
    raw = read_bytes(uri)
    if raw is None:
        return ""
    text = decode(raw)[0]
    return text if text is not None else raw.decode("utf-8", "replace")


def is_below(uri: str, root: Path) -> bool:
    try:
        Path(to_fs_path(uri)).relative_to(root)
        return True
    except (ValueError, TypeError):
        return False


def diagnostic(finding: Finding, lines: Lines,
               related: list[types.DiagnosticRelatedInformation] | None = None) -> types.Diagnostic:
    start, end = lines.finding_range(finding.line, finding.column)
    severity = types.DiagnosticSeverity.Error if finding.severity is Severity.ERROR else types.DiagnosticSeverity.Warning
    return types.Diagnostic(
        range=types.Range(start=types.Position(*start), end=types.Position(*end)),
        message=f"{finding.message} [{finding.rule.name}]",
        severity=severity,
        code=finding.rule.code,
        code_description=types.CodeDescription(href=DOCS + finding.rule.name),
        source="memwarden",
        data={"name": finding.rule.name, "fix": finding.fix.applicability.value if finding.fix else None},
        related_information=related,
    )


def failure(error: Exception) -> types.Diagnostic:
    start = types.Position(line=0, character=0)
    return types.Diagnostic(
        range=types.Range(start=start, end=start), severity=types.DiagnosticSeverity.Error, source="memwarden",
        message=f"memwarden could not check this file: {excerpt(str(error) or type(error).__name__, 300)}",
    )


def too_big(size: int) -> types.Diagnostic:
    start = types.Position(line=0, character=0)
    return types.Diagnostic(
        range=types.Range(start=start, end=start), severity=types.DiagnosticSeverity.Information, source="memwarden",
        message=f"too big to check in the editor ({size:,} bytes; the limit is {EDITOR_LIMIT:,}): "
                "run `memwarden check` on it",
    )


def rule_doc(rule) -> str:
    return f"**{rule.code} {rule.name}**: {rule.summary}\n\n{rule.doc}\n\n[{rule.name} in the rules reference]({DOCS}{rule.name})"


def _text_of(checked, relpath: str) -> str | None:
    doc = checked.workspace.document(relpath)
    if doc is None or not getattr(doc, "decoded", False):
        return None
    return doc.text


def edits_as_workspace_edit(checked, edits, uri: str, version: int | None) -> types.WorkspaceEdit:
    """A fix's edits (offsets of each file's decoded text) as text edits, a file the fix creates made first."""
    by_path: dict[str, list] = {}
    for edit in edits:
        by_path.setdefault(edit.path or checked.relpath, []).append(edit)
    changes: list = []
    for relpath, file_edits in by_path.items():
        file_uri = from_fs_path(str(checked.workspace.root / relpath))
        text = _text_of(checked, relpath) if (checked.workspace.root / relpath).exists() or relpath == checked.relpath else None
        if text is None:
            changes.append(types.CreateFile(uri=file_uri, options=types.CreateFileOptions(ignore_if_exists=True)))
            text = ""
        lines = Lines(text)
        text_edits = [
            types.TextEdit(range=types.Range(start=types.Position(*lines.position(e.start)),
                                             end=types.Position(*lines.position(e.end))), new_text=e.replacement)
            for e in file_edits
        ]
        identifier = types.OptionalVersionedTextDocumentIdentifier(uri=file_uri, version=version if file_uri == uri else None)
        changes.append(types.TextDocumentEdit(text_document=identifier, edits=text_edits))
    return types.WorkspaceEdit(document_changes=changes)


def changes_as_workspace_edit(fixed, uri: str, buffer: str, version: int | None) -> types.WorkspaceEdit:
    """Safe fixes applied in memory, as each changed file replaced whole (a fix across files stays whole)."""
    changes: list = []
    for change in fixed.changes:
        file_uri = from_fs_path(str(fixed.workspace.root / change.relpath))
        before = buffer if file_uri == uri else ("" if change.before is None else decode(change.before)[0] or "")
        if change.before is None:
            changes.append(types.CreateFile(uri=file_uri, options=types.CreateFileOptions(ignore_if_exists=True)))
        after = decode(change.after)[0]
        if after is None:
            continue
        end = types.Position(*Lines(before).end)
        identifier = types.OptionalVersionedTextDocumentIdentifier(uri=file_uri, version=version if file_uri == uri else None)
        changes.append(types.TextDocumentEdit(text_document=identifier, edits=[
            types.TextEdit(range=types.Range(start=types.Position(line=0, character=0), end=end), new_text=after)
        ]))
    return types.WorkspaceEdit(document_changes=changes)


def _proposed(uri: str, text: str, listings):
    return checking.propose(Path(to_fs_path(uri)), text.encode("utf-8", "replace"), listings)


def target_under(uri: str, text: str, position: types.Position, listings=None) -> Path | None:
    ws, relpath = _proposed(uri, text, listings)
    if relpath is None:
        return None
    found = link_at(text, Lines(text).offset(position.line, position.character))
    target = link_target(ws, relpath, found) if found is not None else None
    return ws.root / target if target is not None else None


def hover_on_links_and_budget(uri: str, text: str, position: types.Position, listings=None) -> list[str]:
    ws, relpath = _proposed(uri, text, listings)
    if relpath is None:
        return []
    parts = []
    found = link_at(text, Lines(text).offset(position.line, position.character))
    if found is not None:
        target = link_target(ws, relpath, found)
        if target is not None:
            parts.append(f"**{excerpt(ws.display_path(target, ws.root), 120)}**: {note_description(ws, target)}")
    measurement = checking.gauge(ws)
    if measurement is not None and relpath in {s.relpath for s in measurement.sources}:
        parts.append(gauge_text(measurement))
    return parts


def truncation_line(uri: str, text: str, listings=None) -> tuple[int, str] | None:
    """(zero-based line, label) of the first line of this file the agent never reads, if any."""
    ws, relpath = _proposed(uri, text, listings)
    measurement = checking.gauge(ws) if relpath is not None else None
    if measurement is None or measurement.worst is None or measurement.worst.first_cut_line is None:
        return None
    worst = measurement.worst
    source, line = worst.first_cut_line
    if measurement.sources[source].relpath != relpath:
        return None
    return line - 1, f"✂ the agent stops reading here ({worst.limit.edge:,} {worst.limit.unit})"


def start() -> None:
    import os

    # One process: a worker forked from this threaded server (the reader thread, the check thread) can
    # inherit a lock another thread held and hang; a check here is one file, or a whole workspace after a save.
    os.environ.setdefault("MEMWARDEN_JOBS", "1")
    server.start_io()
    # The client said exit, or its pipe closed: end now. Leaving through the interpreter's exit joins the
    # checking process's threads, and after the process was killed mid-check one of them can wait forever
    # (a server that never exited was seen once, in a loaded test run); nothing is left to write.
    server.background.stop()
    sys.stdout.flush()
    os._exit(0)


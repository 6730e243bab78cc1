"""What both servers ask of memwarden, in one place: a check of unsaved content as `check --stdin-filename`
runs it (the same rule selection and config), a workspace's check, its safe fixes applied in memory, the
startup index's gauge. Every message comes from the engine, which has hidden the secrets in it already."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from memwarden.discover.workspace import Workspace, collect, find_root, open_proposed
from memwarden.engine import run as engine
from memwarden.engine.fixing import FileChange
from memwarden.discover.profiles import Kind
from memwarden.model import Finding, Scope


@dataclass
class Checked:
    workspace: Workspace
    relpath: str | None  # the file checked, when one was
    findings: list[Finding]
    changes: list[FileChange] = field(default_factory=list)  # safe fixes, applied in memory only

    @property
    def own_findings(self) -> list[Finding]:
        """The findings anchored at the file checked: one only related to it (a conflict's other file) is its own
        file's to show, and its fix that file's to offer."""
        return [f for f in self.findings if self.workspace.is_target(f.workspace_path)]


class Listings:
    """Each workspace's file listing, walked once and kept until forget() (the language server forgets on every
    save): a check on a keystroke must not walk a tree of thousands of notes again. A file over size_limit
    bytes is left out: no rule reads it, the workspace rules neither (a 50 MB log would cost each check minutes)."""

    def __init__(self, size_limit: int | None = None) -> None:
        self._by_root: dict[Path, dict[str, Kind]] = {}
        self.size_limit = size_limit

    def __call__(self, ws: Workspace) -> dict[str, Kind]:
        listing = self._by_root.get(ws.root)  # once: forget() may run on another thread meanwhile
        if listing is None:
            listing = dict(ws.checked_files)
            if self.size_limit is not None:
                listing = {relpath: kind for relpath, kind in listing.items()
                           if _size(ws.root / relpath) <= self.size_limit}
            self._by_root[ws.root] = listing
        return listing

    def forget(self) -> None:
        self._by_root.clear()


def propose(path: Path, content: bytes, listings: Listings | None = None) -> tuple[Workspace, str | None]:
    """The workspace of path with content proposed as that file, and its workspace path (None: excluded)."""
    ws = open_proposed(path, content, listing=listings)
    return ws, next(iter(ws.targets), None) if ws.targets else None


def check_content(path: Path, content: bytes, *, document_rules_only: bool = False, build_fixes: bool = False,
                  select: list[str] | None = None, apply_safe_fixes: bool = False,
                  listings: Listings | None = None) -> Checked:
    """Findings on content as the file at path (which it would replace; nothing is written).

    document_rules_only leaves out the workspace rules (orphans, duplicates, budget): what a keystroke can
    change cheaply. build_fixes gives every fix its edits; apply_safe_fixes applies the safe ones in memory."""
    ws, relpath = propose(path, content, listings)
    run = engine.RunOptions(cwd=ws.root, build_fixes=build_fixes, diff=apply_safe_fixes, select=select)
    if document_rules_only:
        run.select = [rule.name for rule in engine.selected_rules(ws, run) if rule.scope is Scope.DOCUMENT]
    result = engine.check_workspace(ws, run)
    return Checked(ws, relpath, result.findings, result.changes)


def findings_of(path: Path, content: bytes, size_limit: int | None = None) -> list[Finding]:
    """Every rule's findings on content as the file at path (what a language server shows on open and save),
    the workspace's files over size_limit bytes left out."""
    return check_content(path, content, listings=Listings(size_limit)).own_findings


def check_folder(folder: Path, size_limit: int | None = None) -> list[tuple[Path, list[Finding]]]:
    """(root, findings) of each workspace a folder is in, as `memwarden check ROOT` finds them; a file over
    size_limit bytes is left out (the language server says it is too big to check instead)."""
    workspaces, _ = collect([find_root(folder.absolute())])
    checked = []
    for ws in workspaces:
        if size_limit is not None:
            ws.use_files(Listings(size_limit)(ws))
        result = engine.check_workspace(ws, engine.RunOptions(cwd=ws.root))
        checked.append((ws.root, result.findings))
    return checked


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def gauge(ws: Workspace):
    """The startup index's measurement (None when the workspace has none), its quoted entries hidden."""
    from memwarden.report.measures import hide_past_edge, measure_startup_index

    measurement = measure_startup_index(ws)
    if measurement is not None:
        hide_past_edge(measurement)
    return measurement

"""Running rules over workspaces, applying their fixes, and collecting findings.

discover (workspace) -> parse (documents) -> rules -> fixes -> findings for report/.
"""

from __future__ import annotations

import datetime as dt
import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from memwarden import registry
from memwarden.documents import Document, load
from memwarden.fixes.apply import apply_edits, overlaps
from memwarden.fixes.write import write_all_atomic
from memwarden.discover.globs import matches_any
from memwarden.model import Applicability, Finding, Fix, Problem, Rule, RunMemo, Scope, Severity
from memwarden.engine.suppress import Suppressions, directives
from memwarden.discover.workspace import Workspace

MAX_FIX_ROUNDS = 10


@dataclass
class RunOptions:
    select: list[str] | None = None
    ignore: list[str] = field(default_factory=list)
    extend_select: list[str] = field(default_factory=list)
    fix: bool = False
    unsafe_fixes: bool = False
    diff: bool = False
    today: dt.date = field(default_factory=dt.date.today)
    base: str | None = None
    staged: bool = False
    cwd: Path = field(default_factory=Path.cwd)
    # progress(total) -> context manager yielding advance(n); None = no progress display
    progress: Callable | None = None
    use_cache: bool = False

    @property
    def cacheable(self) -> bool:
        # Fixes need real edits, and git comparisons depend on more than the files.
        return self.use_cache and not (self.fix or self.diff or self.base or self.staged)

    def allows(self, fix: Fix | None) -> bool:
        if fix is None:
            return False
        return fix.applicability is Applicability.SAFE or self.unsafe_fixes


class Context:
    """What a rule's check sees: the workspace, its own options, the run's settings."""

    def __init__(self, workspace: Workspace, rule: Rule, run: RunOptions, memo: RunMemo):
        self.workspace = workspace
        self.memo = memo  # shared by every rule of this run
        self.rule = rule
        self.options = workspace.config.rule_options(rule)
        self.today = run.today
        self.base = run.base
        self.staged = run.staged
        self.run = run

    def documents(self, *kinds: str) -> list[Document]:
        return self.workspace.documents(*kinds)

    def is_target(self, relpath: str) -> bool:
        return self.workspace.is_target(relpath)


@dataclass
class FileChange:
    relpath: str
    before: bytes | None
    after: bytes


@dataclass
class WorkspaceResult:
    workspace: Workspace
    findings: list[Finding]
    fixed: int = 0
    changes: list[FileChange] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def selected_rules(workspace: Workspace, run: RunOptions) -> list[Rule]:
    config = workspace.config
    rules = registry.all_rules()
    if run.select is not None:
        chosen = set(registry.resolve(run.select))
    elif config.select is not None:
        chosen = set(config.select)
    else:
        chosen = {r.name for r in rules}
    chosen |= set(registry.resolve(run.extend_select))
    chosen -= set(config.ignore)
    chosen -= set(registry.resolve(run.ignore))
    return [r for r in rules if r.name in chosen]


def _display_path(workspace: Workspace, relpath: str, cwd: Path) -> str:
    return Path(os.path.relpath(workspace.root / relpath, cwd)).as_posix()


class _Checker:
    def __init__(self, workspace: Workspace, run: RunOptions):
        self.workspace = workspace
        self.run = run
        self.rules = selected_rules(workspace, run)
        self.memo = RunMemo()  # rules of this run share what they build through it
        self._suppressions: dict[str, Suppressions] = {}

    def suppressions(self, relpath: str) -> Suppressions | None:
        if relpath not in self._suppressions:
            kind = self.workspace.kind_of(relpath)
            if kind is not None and kind.format == "jsonl":
                return None  # JSONL has no comments, so no directives: never parse a big log to learn that
            doc = self.workspace.document(relpath)
            if doc is None or not doc.decoded:
                return None
            self._suppressions[relpath] = Suppressions(directives(doc), _resolve_quietly)
        return self._suppressions[relpath]

    def ignored_by_config(self, rule: Rule, relpath: str) -> bool:
        config = self.workspace.config
        if not config.per_file_ignores:
            return False
        seen_from_config = self.workspace.config_relative(relpath)
        return any(
            rule.name in names and matches_any(seen_from_config, [glob])
            for glob, names in config.per_file_ignores.items()
        )

    def findings(self) -> list[Finding]:
        self._suppressions.clear()
        ws = self.workspace
        document_rules = [r for r in self.rules if r.scope is Scope.DOCUMENT]
        workspace_rules = [r for r in self.rules if r.scope is Scope.WORKSPACE]
        relpaths = sorted(ws.files) if ws.targets is None else sorted(ws.targets)
        found: list[Finding] = []
        jobs = _jobs(len(relpaths)) if document_rules and not (self.run.fix or self.run.diff) else 1
        if jobs > 1:
            found.extend(self._document_findings_in_parallel(relpaths, jobs))
            found.extend(self._workspace_findings(workspace_rules))
        else:
            found.extend(self._workspace_findings(workspace_rules))
            found.extend(self._document_findings(document_rules, relpaths, self.run.progress))
        found.sort(key=Finding.sort_key)
        return found

    def _workspace_findings(self, rules: list[Rule]) -> list[Finding]:
        found: list[Finding] = []
        for rule in rules:
            for problem in rule.check(Context(self.workspace, rule, self.run, self.memo)):
                self._keep(rule, problem, None, found)
        self._hide_secrets(found, scan=True)
        return found

    def _document_findings(self, rules: list[Rule], relpaths: list[str], progress=None) -> list[Finding]:
        """Document rules, one file at a time (so a big workspace is never all in memory at once)."""
        ws = self.workspace
        found: list[Finding] = []
        if not rules:
            return found
        contexts = {rule.name: Context(ws, rule, self.run, self.memo) for rule in rules}
        held = ws.loaded  # documents a workspace rule already read stay cached
        with (progress(len(relpaths)) if progress else _no_progress()) as advance:
            for relpath in relpaths:
                doc = ws.document(relpath)
                if doc is not None:
                    for rule in rules:
                        if rule.kinds is not None and doc.kind.name not in rule.kinds:
                            continue
                        if not doc.ok and not rule.reads_unparsed:
                            continue
                        for problem in rule.check(doc, contexts[rule.name]):
                            self._keep(rule, problem, doc, found)
                    self._hide_secrets([f for f in found if f.workspace_path == relpath])
                    if relpath not in held and not self.run.fix and not self.run.diff:
                        ws.forget(relpath)
                        self._suppressions.pop(relpath, None)
                advance(1)
        return found

    def _document_findings_in_parallel(self, relpaths: list[str], jobs: int) -> list[Finding]:
        import concurrent.futures
        import multiprocessing

        ws = self.workspace
        chunks = _balanced_chunks(ws, relpaths, jobs * 4)
        spec = (
            str(ws.root), ws.profile.name, str(ws.config.path) if ws.config.path else None,
            {relpath: kind.name for relpath, kind in ws.files.items()}, self.run,
        )
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        found: list[Finding] = []
        context = multiprocessing.get_context(method)
        with concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
            progress = self.run.progress
            with (progress(len(relpaths)) if progress else _no_progress()) as advance:
                futures = {pool.submit(_check_chunk, spec, chunk): len(chunk) for chunk in chunks}
                for future in concurrent.futures.as_completed(futures):
                    found.extend(future.result())
                    advance(futures[future])
        return found

    def _hide_secrets(self, found: list[Finding], scan: bool = False) -> None:
        """Another rule's message may quote a secret: hide every one the secrets rule detects."""
        if not found:
            return
        from memwarden.analysis.secrets import hide_in_findings, prefetch

        if scan and any(r.name == "secret-in-memory" for r in self.rules):
            # Workspace findings may point at files this process has not scanned (workers did).
            docs = [self.workspace.document(p) for p in sorted({f.workspace_path for f in found})]
            prefetch([d for d in docs if d is not None])
        hide_in_findings(self.workspace, found)

    def _keep(self, rule: Rule, problem: Problem, doc: Document | None, found: list[Finding]) -> None:
        relpath = problem.path or (doc.relpath if doc is not None else "")
        if not self.workspace.is_target(relpath):
            return
        if self.ignored_by_config(rule, relpath):
            return
        suppressions = self.suppressions(relpath) if rule.name != "unparsable-file" else None
        if suppressions is not None and suppressions.silenced(rule.name, problem.line):
            return
        found.append(
            Finding(
                rule=rule,
                path=_display_path(self.workspace, relpath, self.run.cwd),
                line=max(problem.line, 1),
                column=max(problem.column, 1),
                message=problem.message,
                severity=problem.severity or rule.severity,
                json_path=problem.json_path,
                fix=problem.fix,
                workspace_path=relpath,
            )
        )


# Below this many files a process pool costs more than it saves.
PARALLEL_MIN_FILES = 300


def _jobs(files: int) -> int:
    configured = os.environ.get("MEMWARDEN_JOBS")
    if configured and configured.isdigit():
        return max(1, int(configured))
    if files < PARALLEL_MIN_FILES:
        return 1
    return min(os.cpu_count() or 1, 8)


class _no_progress:
    def __enter__(self):
        return lambda n: None

    def __exit__(self, *exc):
        return False


def _balanced_chunks(ws: Workspace, relpaths: list[str], count: int) -> list[list[str]]:
    """Split files into chunks of about equal bytes, biggest first, so no worker idles at the end."""
    sizes = []
    for relpath in relpaths:
        try:
            sizes.append((os.path.getsize(ws.root / relpath), relpath))
        except OSError:
            sizes.append((0, relpath))
    chunks: list[list[str]] = [[] for _ in range(max(1, min(count, len(relpaths))))]
    loads = [0] * len(chunks)
    for size, relpath in sorted(sizes, reverse=True):
        smallest = loads.index(min(loads))
        chunks[smallest].append(relpath)
        loads[smallest] += size + 1
    return [chunk for chunk in chunks if chunk]


def _check_chunk(spec, chunk: list[str]) -> list[Finding]:
    """In a worker process: the document rules on some of a workspace's files."""
    from dataclasses import replace

    from memwarden.discover.workspace import open_workspace

    root, profile_name, config_path, files, run = spec
    ws = open_workspace(Path(root), profile_name, Path(config_path) if config_path else None)
    ws.use_files({relpath: ws.profile.kind(name) for relpath, name in files.items() if ws.profile.kind(name)})
    ws.targets = set(chunk)
    checker = _Checker(ws, replace(run, progress=None))
    rules = [r for r in checker.rules if r.scope is Scope.DOCUMENT]
    return checker._document_findings(rules, sorted(chunk))


def _resolve_quietly(name: str) -> set[str]:
    try:
        return registry.resolve([name])
    except KeyError:
        return set()


def check_workspace(workspace: Workspace, run: RunOptions) -> WorkspaceResult:
    checker = _Checker(workspace, run)
    if run.cacheable:
        from memwarden.engine.cache import RunCache

        cache = RunCache(workspace.root)
        key = cache.key(workspace, checker.rules, run)
        by_name = {rule.name: rule for rule in checker.rules}
        cached = cache.load(key, by_name, lambda relpath: _display_path(workspace, relpath, run.cwd))
        if cached is not None:
            return WorkspaceResult(workspace, cached)
        findings = checker.findings()
        cache.store(key, findings)
        return WorkspaceResult(workspace, findings)
    findings = checker.findings()
    result = WorkspaceResult(workspace, findings)
    if not (run.fix or run.diff):
        return result
    originals: dict[str, bytes | None] = {}
    for _ in range(MAX_FIX_ROUNDS):
        fixable = [f for f in findings if run.allows(f.fix)]
        if not fixable:
            break
        applied = _apply_round(workspace, fixable, originals, result.errors)
        if not applied:
            break
        result.fixed += applied
        findings = checker.findings()
    result.findings = findings
    for relpath, before in originals.items():
        after = workspace.overlay[relpath]
        if after != before:
            result.changes.append(FileChange(relpath, before, after))
    if run.fix and not run.diff:
        # All or nothing: a fix that moves lines between files must never land in one file only.
        write_all_atomic([(workspace.root / change.relpath, change.after) for change in result.changes])
    return result


def _apply_round(workspace: Workspace, fixable: list[Finding], originals: dict, errors: list[str]) -> int:
    """Apply every fix that does not collide with one already taken; the rest wait a round.

    A fix is applied whole or not at all: when one of the files it edits is
    refused, its edits to every other file are dropped too (a fix that moves
    lines from one file to another must never only delete them).
    """
    taken: dict[str, list[tuple[int, int]]] = {}
    chosen: list[tuple[set[str], list]] = []  # the files each chosen fix touches, and its edits
    for finding in fixable:
        edits = [(edit.path or finding.workspace_path, edit) for edit in finding.fix.edits]
        if any(overlaps((e.start, e.end), span) for path, e in edits for span in taken.get(path, [])):
            continue
        if not _no_self_overlap(edits):
            continue
        for path, edit in edits:
            taken.setdefault(path, []).append((edit.start, edit.end))
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
    for relpath, (before, data) in results.items():
        originals.setdefault(relpath, before)
        workspace.overlay[relpath] = data
        workspace.forget(relpath)
    return sum(1 for paths, _ in chosen if not paths & refused)


def _fixed_bytes(workspace: Workspace, relpath: str, edits: list, errors: list[str]):
    """(bytes before, bytes after) for one file's edits, or None when the file must not be touched."""
    doc = workspace.document(relpath)
    before = workspace.current_bytes(relpath)
    if before is None and not os.path.lexists(workspace.root / relpath):
        doc = None  # a file the edit creates: nothing there yet, and it must parse once written
    if doc is not None and not doc.ok and doc.kind.format != "jsonl":
        return None  # fixers never touch a file that does not parse
    text = doc.text if doc is not None and doc.decoded else ""
    new_text = apply_edits(text, edits)
    data = doc.encode(new_text) if doc is not None and doc.decoded else new_text.encode("utf-8")
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
    return before, data


def _bad_records(doc) -> int:
    return sum(1 for record in getattr(doc, "records", []) if not record.ok)


def _no_self_overlap(edits) -> bool:
    spans: dict[str, list[tuple[int, int]]] = {}
    for path, edit in edits:
        span = (edit.start, edit.end)
        if any(overlaps(span, other) for other in spans.get(path, [])):
            return False
        spans.setdefault(path, []).append(span)
    return True


def unified_diff(workspace: Workspace, change: FileChange, cwd: Path) -> str:
    shown = _display_path(workspace, change.relpath, cwd)
    from memwarden.analysis.secrets import hide_secrets  # a diff never shows a secret, whichever rule's fix moved it

    kind = workspace.kind_of(change.relpath)
    fmt = kind.format if kind is not None else "text"
    before = hide_secrets((change.before or b"").decode("utf-8", "replace"), fmt).splitlines(keepends=True)
    after = hide_secrets(change.after.decode("utf-8", "replace"), fmt).splitlines(keepends=True)
    return "".join(difflib.unified_diff(before, after, f"a/{shown}", f"b/{shown}"))


def severity_counts(findings: list[Finding]) -> tuple[int, int]:
    errors = sum(1 for f in findings if f.severity is Severity.ERROR)
    return errors, len(findings) - errors

"""Running the selected rules over a workspace and collecting what they find.

discover (workspace) -> parse (documents) -> rules -> findings for report/;
engine/fixing.py applies the fixes and engine/parallel.py spreads a big
workspace's files over processes. Every finding's message is cleared of any
secret found in its file, whichever rules run.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from memwarden import registry, tiers
from memwarden.decoding import decode
from memwarden.discover.globs import matches_any
from memwarden.discover.links import forget_real_paths
from memwarden.discover.workspace import Workspace
from memwarden.documents import Document
from memwarden.engine import parallel, pieces
from memwarden.engine.cache import usable as store_usable
from memwarden.engine.directives import Suppressions, directives
from memwarden.engine.fixing import FileChange, fix_rounds, write_changes
from memwarden.model import Applicability, Finding, Problem, Rule, RunMemo, Scope

if TYPE_CHECKING:
    from memwarden.analysis.repo_claims.history import RepositoryAnswers

SECRET_RULE = "secret-in-memory"  # its options say how the engine scans for secrets to hide


@dataclass
class RunOptions:
    select: list[str] | None = None
    ignore: list[str] = field(default_factory=list)
    extend_select: list[str] = field(default_factory=list)
    # Preview rules on; also MEMWARDEN_PREVIEW=1 (how the test suite checks every rule), or the config's preview.
    preview: bool = field(default_factory=lambda: os.environ.get("MEMWARDEN_PREVIEW", "") not in ("", "0"))
    fix: bool = False
    # Apply only stable rules' fixes: a fix written without asking (the pre-commit hook, the agent hook).
    stable_fixes_only: bool = False
    unsafe_fixes: bool = False
    diff: bool = False
    today: dt.date = field(default_factory=dt.date.today)
    base: str | None = None
    staged: bool = False
    cwd: Path = field(default_factory=Path.cwd)
    # progress(total) -> context manager yielding advance(n); None = no progress display
    progress: Callable | None = None
    use_cache: bool = False  # read and fill the store (engine/cache/store.py)
    # The run is on the machine the memory is written on (the agent hook, not under CI): paths outside the
    # repository can be settled there (missing-machine-path).
    owner_machine: bool = False
    # Build every fix's edits without applying any: the language server offers them as code actions.
    build_fixes: bool = False
    # What git answered about the repositories the run's workspaces sit in (the repository-claim rules'),
    # shared by every workspace and fixing pass of the run; a caller may pass one to share it across runs.
    # Made on first use (answers()): a run no history rule reads never imports the history reader.
    repository_answers: RepositoryAnswers | None = None

    def answers(self) -> RepositoryAnswers:
        """The run's shared answers from git, made on first use."""
        if self.repository_answers is None:
            from memwarden.analysis.repo_claims.history import RepositoryAnswers

            self.repository_answers = RepositoryAnswers()
        return self.repository_answers

    def allows(self, finding: Finding) -> bool:
        """Whether this run applies the finding's fix."""
        fix = finding.fix
        if fix is None or (self.stable_fixes_only and not tiers.is_stable(finding.rule.name)):
            return False
        return fix.applicability is Applicability.SAFE or self.unsafe_fixes


class Context:
    """What a rule's check sees: the workspace, its own options, the run's settings.

    Under the incremental cache the workspace and memo it sees are watched (engine/cache/incremental.py):
    what a rule reads beyond its document becomes a dependency of the findings cached for it.
    """

    def __init__(self, workspace: Workspace, rule: Rule, run: RunOptions, memo: RunMemo, incremental=None, recorder=None,
                 split_logs: set[str] | None = None, part_only: bool = False):
        self._incremental = incremental
        self._recorder = recorder
        self._split_logs = split_logs if split_logs is not None else set()  # logs checked a range at a time
        if recorder is not None:
            from memwarden.engine.cache import WatchedMemo, WatchedWorkspace

            self.workspace = WatchedWorkspace(workspace, recorder)
            self.memo = WatchedMemo(memo, recorder)
        else:
            self.workspace = workspace
            self.memo = memo  # shared by every rule of this pass over the workspace
        self.rule = rule
        self.part_only = part_only  # report only the rule's stable part (Checker.part_only)
        self.options = workspace.config.rule_options(rule)
        self.today = run.today
        self.base = run.base
        self.staged = run.staged
        self.run = run

    @property
    def builds_fixes(self) -> bool:
        """Whether this run applies or shows fixes: only then must a fix carry its edits (else a rule may
        return a fix with none, when telling that it could be fixed is cheaper than building it)."""
        return self.run.fix or self.run.diff or self.run.build_fixes

    def reads_history(self) -> None:
        """Say that what this check finds depends on the repository's HEAD and index (under the cache, a
        dependency: a commit, a checkout or staging makes it check again)."""
        if self._recorder is not None:
            self._recorder.add("git")

    def reads_outside(self, read=(), resolved=()) -> None:
        """Say that what this check finds depends on files outside the workspace: the bytes of those ``read``
        (there or not) and where the paths ``resolved`` lead (under the cache, dependencies: an edit of one,
        staged or not, makes it check again). A few files: each is stat-ed and hashed on every cached run."""
        if self._recorder is not None:
            for path in read:
                self._recorder.add("outside", os.fspath(path))
            for path in resolved:
                self._recorder.add("resolved", os.fspath(path))

    def documents(self, *kinds: str) -> list[Document]:
        return self.workspace.documents(*kinds)

    def is_target(self, relpath: str) -> bool:
        return self.workspace.is_target(relpath)

    def summaries(self, function: Callable, *kinds: str) -> dict:
        """``function(doc)`` (plain JSON values) for every memory file of these kinds (all when none), by path.

        The cheap way for a workspace-wide check to read a little of every document: under the cache each
        summary is kept by its file's content, so an unchanged file is not parsed again.
        """
        if self._incremental is not None:
            return self._incremental.summaries(function, kinds, self._recorder)
        from memwarden.engine.cache import summaries_without_cache

        return summaries_without_cache(self.workspace, function, kinds)

    def kept_repeats(self, marks: dict, threshold: float, containment: float):
        """near-duplicate's repeats from the store, brought up to date by what changed since the last run
        (engine/cache/repeat_index.py); None when the run has no store, or it cannot answer: work them out whole."""
        if self._incremental is None:
            return None
        from memwarden.engine.cache import kept_repeats

        if self._recorder is not None:
            self._recorder.add("files")  # what the store answers reads every record
        return kept_repeats(self._incremental, self._incremental.workspace, marks, threshold, containment)

    def kept_conflicts(self, marks: dict, similarity: float):
        """conflicting-records' record conflicts from the store, brought up to date by what changed since the last
        run (engine/cache/conflict_index.py); None when the run has no store, or it cannot answer: work them out whole."""
        if self._incremental is None:
            return None
        from memwarden.engine.cache import kept_conflicts

        if self._recorder is not None:
            self._recorder.add("files")  # what the store answers reads every record
        return kept_conflicts(self._incremental, self._incremental.workspace, marks, similarity)

    def record_summaries(self, function: Callable, relpath: str, reduce: Callable | None = None):
        """``function(doc, profile)``, a {line: value} of a JSONL log's records, for the log as it is in the
        workspace (None if it does not read as text); under the cache kept line by line, so a rule checking
        only a log's new lines still learns about all of them without parsing the rest. With ``reduce``, the
        value ``reduce(summaries)`` (None stays None), and what a rule finds depends on that value alone."""
        from memwarden.engine.cache import plain_lines

        if self._incremental is not None:
            return self._incremental.record_summaries(function, relpath, self._recorder, reduce)
        ws = self.workspace
        parsed = relpath in ws.loaded and relpath not in self._split_logs  # (a split log's document is one range)
        streamed, result = (False, None) if parsed else pieces.streamed_summaries(ws, function, relpath, self._split_logs, plain_lines)
        if not streamed:  # a small log, or one parsed already: read whole
            doc = ws.document(relpath)
            result = plain_lines(function(doc, ws.profile)) if doc is not None and doc.ok else None
        return reduce(result) if result is not None and reduce is not None else result


@dataclass
class WorkspaceResult:
    workspace: Workspace
    findings: list[Finding]
    fixed: int = 0
    changes: list[FileChange] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def selected_rules(workspace: Workspace, run: RunOptions) -> list[Rule]:
    """The rules a run checks; only their modules are imported.

    By default the stable rules; with preview on (`--preview`, `preview = true`, MEMWARDEN_PREVIEW=1) every
    rule; a rule named exactly in a selection runs either way, and an ignore wins over any selection.
    """
    keys, preview = _selection(workspace, run)
    chosen = registry.resolve(keys, preview)
    chosen |= registry.resolve(run.extend_select, preview)
    chosen -= set(workspace.config.ignore)
    chosen -= set(registry.resolve(run.ignore))
    return registry.rules_named(chosen)


def _selection(workspace: Workspace, run: RunOptions) -> tuple[list[str], bool]:
    config = workspace.config
    keys = run.select if run.select is not None else config.select if config.select is not None else ["ALL"]
    return keys, run.preview or config.preview


def runs_part_only(workspace: Workspace, run: RunOptions, rule: Rule) -> bool:
    """Whether a selected rule with a part runs only that part: no key takes it whole (its name, or a group with
    preview on), so a group took it for its stable part alone."""
    if rule.part is None:
        return False
    keys, preview = _selection(workspace, run)
    return rule.name not in registry.taken_whole([*keys, *run.extend_select], preview)


class Checker:
    """The selected rules of one workspace; each call of :meth:`findings` is one pass over its files."""

    def __init__(self, workspace: Workspace, run: RunOptions, incremental=None):
        from memwarden.analysis.secrets import SecretScans

        self.incremental = incremental  # engine/cache/incremental.py: findings kept per document, record and rule
        self.recorder = None  # what the rules of the current unit of work read, under the incremental cache
        self.keep_all = False  # a workspace rule's findings on files not targeted too (the cache keeps them)
        self.workspace = workspace
        self.run = run
        self.rules = selected_rules(workspace, run)
        # The selected rules that run only their stable part: decided once, read by each context and the store's key.
        self.part_only = frozenset(rule.name for rule in self.rules if runs_part_only(workspace, run, rule))
        secret_options = workspace.config.rule_options(registry.by_name_or_code(SECRET_RULE))
        # Kept across passes: scans are keyed by content, so a fixing round re-scans only what it changed.
        self.secret_scans = SecretScans.from_options(workspace.root, secret_options)
        self.memo = RunMemo()
        self._suppressions: dict[str, Suppressions | None] = {}
        self._shown: dict[str, str] = {}  # display path of each workspace path a finding is in
        self.split_logs: set[str] = set()  # logs whose overlay is now one range of them (engine/pieces.py)

    def suppressions(self, relpath: str) -> Suppressions | None:
        # Asked once for each finding: the answer, None included, is kept (a long note of many findings
        # was read and decoded again for every one of them).
        if relpath not in self._suppressions:
            self._suppressions[relpath] = self._read_suppressions(relpath)
        return self._suppressions[relpath]

    def _read_suppressions(self, relpath: str) -> Suppressions | None:
        kind = self.workspace.text_kind_of(relpath)
        if kind is not None and kind.format == "jsonl":
            return None  # JSONL has no comments, so no directives: never parse a big log to learn that
        if not _may_have_directives(self.workspace.current_bytes(relpath)):
            return None  # no directive in it: never parse a note a workspace rule read as bytes to learn that
        doc = self.workspace.document(relpath)
        if doc is None or not doc.decoded:
            return None
        return Suppressions(directives(doc), _resolve_quietly)

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
        self.start_pass()
        if self.incremental is not None:
            from memwarden.engine.cache import incremental_findings

            found = incremental_findings(self, _check_chunk_cached)
            found.sort(key=Finding.sort_key)
            return found
        ws = self.workspace
        document_rules = [r for r in self.rules if r.scope is Scope.DOCUMENT]
        workspace_rules = [r for r in self.rules if r.scope is Scope.WORKSPACE]
        relpaths = sorted(ws.checked_files) if ws.targets is None else sorted(ws.targets)
        found: list[Finding] = []
        fixing = self.run.fix or self.run.diff  # fixes are edits of whole files: checked whole, here
        sizes = {} if fixing else {r: pieces.splittable(ws, r, document_rules) for r in relpaths}
        jobs = parallel.jobs_for(len(relpaths), any(sizes.values())) if document_rules and not fixing else 1
        units = [u for r in relpaths for u in (pieces.pieces(ws, r, sizes[r], jobs) if sizes.get(r) else [r])]
        if jobs > 1:
            spec = (
                str(ws.root), ws.profile.name, str(ws.config.path) if ws.config.path else None,
                ws.checked_files, self.run,
            )
            _read_before_fork(ws, units)
            # The workspace rules run here while the workers check the files.
            from_workers, here = parallel.run_in_pool(
                _check_chunk, spec, ws.root, units, jobs, self.run.progress,
                meanwhile=lambda: self.workspace_findings(workspace_rules),
            )
            found.extend(from_workers)
            found.extend(here)
        else:
            found.extend(self.workspace_findings(workspace_rules))
            found.extend(self.unit_findings(document_rules, units, self.run.progress))
        found.sort(key=Finding.sort_key)
        return found

    def unit_findings(self, rules: list[Rule], units: list, progress=None) -> list[Finding]:
        """Document rules on files and log ranges, one unit at a time."""
        found: list[Finding] = []
        if not rules:
            return found
        if any(isinstance(unit, pieces.Piece) for unit in units):
            # Each document is scanned for secrets as it is checked: never the whole log at once.
            self.secret_scans.targets_scanned = True
        with (progress(len(units)) if progress else parallel.no_progress()) as advance:
            files: list[str] = []
            for unit in [*units, None]:
                if isinstance(unit, str):
                    files.append(unit)
                    continue
                found.extend(self.document_findings(rules, files, advance=advance))
                files = []
                if unit is not None:
                    found.extend(pieces.check_piece(self, rules, unit))
                    advance(1)
        return found

    def start_pass(self) -> None:
        """A pass sees the files as they are now: nothing a rule built in an earlier pass survives it."""
        self._suppressions.clear()
        self.memo = RunMemo()
        self.secret_scans.share_with(self.memo)
        if self.incremental is not None:
            self.incremental.new_pass()  # a fixing round's files are read as fixed
            self.secret_scans.targets_scanned = True  # each document is scanned when checked, not all up front

    def _context(self, rule: Rule) -> Context:
        return Context(self.workspace, rule, self.run, self.memo, self.incremental, self.recorder, self.split_logs,
                       rule.name in self.part_only)

    def workspace_findings(self, rules: list[Rule]) -> list[Finding]:
        found: list[Finding] = []
        for rule in rules:
            for problem in rule.check(self._context(rule)):
                self._keep(rule, problem, None, found)
        if found:
            # They may point at files this process has not scanned (workers did): scan those in one go.
            docs = [self.workspace.document(p) for p in sorted({f.workspace_path for f in found if f.quotes})]
            self.secret_scans.scan_all([d for d in docs if d is not None])
            self.secret_scans.hide_in(self.workspace, found)
        return found

    def document_findings(self, rules: list[Rule], relpaths: list[str], progress=None, advance=None) -> list[Finding]:
        """Document rules, one file at a time (so a big workspace is never all in memory at once); ``advance(1)``
        after each file, else a ``progress(total)`` context's."""
        ws = self.workspace
        found: list[Finding] = []
        if not rules or not relpaths:
            return found
        contexts = {rule.name: self._context(rule) for rule in rules}
        held = ws.loaded  # documents a workspace rule already read stay cached
        outer = parallel.given(advance) if advance is not None else None
        with (outer or (progress(len(relpaths)) if progress else parallel.no_progress())) as advance:
            for relpath in relpaths:
                doc = ws.document(relpath)
                if doc is not None:
                    first = len(found)
                    for rule in rules:
                        if rule.kinds is not None and doc.kind.name not in rule.kinds:
                            continue
                        if not doc.kind.memory and not rule.any_text:
                            continue  # a file no kind claims: only the rules that guard every file read it
                        if not doc.ok and not rule.reads_unparsed:
                            continue
                        for problem in rule.check(doc, contexts[rule.name]):
                            self._keep(rule, problem, doc, found)
                    self.secret_scans.hide_in(ws, found[first:])
                    if relpath not in held and not self.run.fix and not self.run.diff:
                        ws.forget(relpath)
                        self._suppressions.pop(relpath, None)
                advance(1)
        return found

    def _keep(self, rule: Rule, problem: Problem, doc: Document | None, found: list[Finding]) -> None:
        relpath = problem.path or (doc.relpath if doc is not None else "")
        # Anchored at several files, it concerns each: a hook on any one of them reports it.
        anchors = (relpath, *(r.workspace_path for r in problem.related))
        if not self.keep_all and not any(self.workspace.is_target(path) for path in anchors):
            return
        if self.ignored_by_config(rule, relpath):
            return
        suppressions = self.suppressions(relpath) if rule.name != "unparsable-file" else None
        if suppressions is not None and suppressions.silenced(rule.name, problem.line):
            return
        found.append(
            Finding(
                rule=rule,
                path=self._display_path(relpath),
                line=max(problem.line, 1),
                column=max(problem.column, 1),
                message=problem.message,
                severity=problem.severity or rule.severity,
                json_path=problem.json_path,
                fix=problem.fix,
                workspace_path=relpath,
                quotes=problem.quotes,
                quotes_from=problem.quotes_from,
                related=tuple(replace(r, path=self._display_path(r.workspace_path)) for r in problem.related),
            )
        )


    def _display_path(self, relpath: str) -> str:
        if relpath not in self._shown:  # a workspace rule reports thousands of findings in one log
            self._shown[relpath] = self.workspace.display_path(relpath, self.run.cwd)
        return self._shown[relpath]


def _read_before_fork(ws: Workspace, units: list) -> None:
    """Whether a big log reads as episodes, which schema-violation and invalid-timestamp ask on each of its
    ranges: read here, once, range by range; workers forked from this process inherit it (under spawn they
    read it themselves), and unrecognized-file finds it read."""
    from memwarden.analysis.recognition import LOG_KINDS, episode_flags
    from memwarden.engine.cache import plain_lines

    for unit in units:
        if isinstance(unit, pieces.Piece) and unit.first and ws.text_kind_of(unit.relpath).name in LOG_KINDS:
            pieces.streamed_summaries(ws, episode_flags, unit.relpath, set(), plain_lines)


def _worker_checker(spec, chunk: list[str]) -> Checker:
    """In a worker process: a checker of the workspace the spec names, reporting on the chunk's files."""

    from memwarden.discover.workspace import open_workspace

    root, profile_name, config_path, files, run = spec
    ws = open_workspace(Path(root), profile_name, Path(config_path) if config_path else None)
    ws.use_files(files)
    ws.targets = {unit.relpath if isinstance(unit, pieces.Piece) else unit for unit in chunk}
    return Checker(ws, replace(run, progress=None))


def _check_chunk(spec, chunk: list) -> list[Finding]:
    """In a worker process: the document rules on some of a workspace's files and log ranges."""
    checker = _worker_checker(spec, chunk)
    checker.start_pass()
    # Each file is scanned for secrets as it is checked: a chunk's thousands of notes are never all parsed at once.
    checker.secret_scans.targets_scanned = True
    rules = [r for r in checker.rules if r.scope is Scope.DOCUMENT]
    return checker.unit_findings(rules, sorted(chunk, key=parallel.unit_order))


def _check_chunk_cached(spec, chunk: list[str]) -> list:
    """In a worker process, under the incremental cache: findings and the entries made for them."""
    from memwarden.engine.cache import check_chunk

    return check_chunk(_worker_checker(spec, chunk), chunk)


def _may_have_directives(raw: bytes | None) -> bool:
    """False only when the file's text surely holds no ``memwarden:`` directive (what `directives` looks for first)."""
    if raw is None:
        return True  # unreadable now: the document says why
    text = decode(raw)[0]
    return text is None or "memwarden:" in text


def _resolve_quietly(name: str) -> set[str]:
    try:
        return registry.resolve([name])
    except KeyError:
        return set()


def check_workspace(workspace: Workspace, run: RunOptions) -> WorkspaceResult:
    pieces.forget_streamed()
    forget_real_paths()
    checker = Checker(workspace, run)
    store = None
    # --diff shows and writes nothing; content from stdin is never cached; git comparisons depend on more than files.
    if run.use_cache and not (run.base or run.staged or run.diff or workspace.proposed) and store_usable(workspace.root):
        # --fix reads and fills the store too: an answer whose fix would apply is checked again for real.
        from memwarden.engine.cache import open_store

        store = open_store(checker)
    try:
        return _checked(workspace, run, checker, store)
    finally:
        if store is not None:
            store.close()


def _checked(workspace: Workspace, run: RunOptions, checker: Checker, store) -> WorkspaceResult:
    """discover (done) -> load from the store or parse -> rules -> store -> the result (after fixing)."""
    findings = checker.findings()
    if store is not None:
        store.save()
    if not (run.fix or run.diff):
        return WorkspaceResult(workspace, findings)
    outcome = fix_rounds(workspace, findings, checker.findings, run.allows)
    if store is not None:
        store.save()  # what the rounds checked is keyed by what the fixes made: the next run may reuse it
    if run.fix and not run.diff:
        skipped = write_changes(workspace, outcome.changes, outcome.applied)
        if skipped:
            # Those files keep what is on disk now: report them as they are, and count only the fixes written.
            left_out = {path for item in skipped for path in (item.relpath, *item.along)}
            for relpath in left_out:
                workspace.overlay.pop(relpath, None)
                workspace.forget(relpath)
            outcome.changes = [c for c in outcome.changes if c.relpath not in left_out]
            outcome.fixed = sum(1 for paths in outcome.applied if not paths & left_out)
            outcome.findings = checker.findings()
            outcome.errors += [item.message for item in skipped]
    return WorkspaceResult(workspace, outcome.findings, outcome.fixed, outcome.changes, outcome.errors)

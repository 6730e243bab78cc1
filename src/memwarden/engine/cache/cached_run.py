"""A pass over a workspace that loads from the store (engine/cache/store.py) what it still answers and checks the rest.

Workspace rules are answered per rule, document rules per document, and the rules declared
``records=True`` per line of a JSONL log: the log's rows are read in one query, the lines that
changed are checked in a copy of the log with every other line emptied (so line numbers and
columns stay as they are), and each line's findings are kept in its own row. A cached finding whose fix a ``--fix`` run would
apply is never reused: fixes need real edits, so that unit is checked again.
"""

from __future__ import annotations

import itertools

from memwarden.engine import parallel, pieces
from memwarden.engine.cache.incremental import Incremental, Recorder, masked
from memwarden.engine.cache.store import Store, line_digest, settings_key
from memwarden.model import Applicability, Finding, Fix, RelatedLocation, Scope, Severity

_ABSENT = object()


def open_store(checker) -> Store:
    """The store of a checker's workspace; the checker now reads and fills it."""
    ws = checker.workspace
    store = Store(ws.root)
    # The selected rules' options only (the others' modules need not load); an entry holds findings per rule.
    settings = settings_key(ws, checker.rules, checker.run, checker.part_only)
    checker.incremental = Incremental(store, settings, ws, checker.secret_scans)
    checker.incremental.rules_by_name = {rule.name: rule for rule in checker.rules}
    return store


def finding_record(f: Finding) -> dict:
    """A finding as the store keeps it (plain JSON; the fix's description only: a fixing run recomputes edits)."""
    record = {
        "name": f.rule.name,
        "workspace_path": f.workspace_path,
        "line": f.line,
        "column": f.column,
        "message": f.message,
        "severity": f.severity.value,
        "json_path": f.json_path,
        "fix": [f.fix.applicability.value, f.fix.description] if f.fix else None,
    }
    if f.related:  # most findings have none: their rows stay as they were
        record["related"] = [[r.workspace_path, r.line, r.column, r.label] for r in f.related]
    return record


def finding_from(item, rules_by_name: dict, display) -> Finding | None:
    """A finding read back from the store; None when the item is not one (a garbled entry is a miss)."""
    try:
        rule = rules_by_name.get(item["name"])
        if rule is None:
            return None
        fix = Fix(Applicability(item["fix"][0]), item["fix"][1], ()) if item.get("fix") else None
        related = tuple(RelatedLocation(str(path), int(line), int(column), str(label), display(str(path)))
                        for path, line, column, label in item.get("related") or ())
        return Finding(rule=rule, path=display(item["workspace_path"]), line=int(item["line"]),
                       column=int(item["column"]), message=str(item["message"]), severity=Severity(item["severity"]),
                       json_path=item.get("json_path"), fix=fix, workspace_path=str(item["workspace_path"]),
                       related=related)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return None


def _anchors(item: dict) -> list[str]:
    """The files a stored finding is anchored at (Finding.workspace_paths); a garbled one is a miss later."""
    related = item.get("related")
    others = [str(r[0]) for r in related if isinstance(r, list) and r] if isinstance(related, list) else []
    return [str(item.get("workspace_path", "")), *others]


def incremental_findings(checker, worker) -> list[Finding]:
    """One pass; ``worker(spec, chunk)`` checks a chunk of files in a worker process (see :func:`check_chunk`)."""
    ws = checker.workspace
    found: list[Finding] = []
    for rule in checker.rules:
        if rule.scope is Scope.WORKSPACE:  # one at a time: each rule's entry holds what it read
            found.extend(_workspace_rule(checker, rule))
    document_rules = [r for r in checker.rules if r.scope is Scope.DOCUMENT]
    if not document_rules:
        return found
    relpaths = sorted(ws.checked_files) if ws.targets is None else sorted(ws.targets)
    sizes = {} if checker.run.fix or checker.run.diff else {r: pieces.splittable(ws, r, document_rules) for r in relpaths}
    jobs = parallel.jobs_for(len(relpaths), any(sizes.values())) if not (checker.run.fix or checker.run.diff) else 1
    if jobs > 1:
        # Many files: what the cache answers is read here, the rest checked in worker processes.
        misses = []
        for relpath in relpaths:
            answered = _answered(checker, relpath, document_rules)
            if answered is None:
                misses.append(relpath)
            else:
                found.extend(answered)
        if len(misses) >= parallel.PARALLEL_MIN_FILES or any(sizes.get(r) for r in misses):
            spec = (str(ws.root), ws.profile.name, str(ws.config.path) if ws.config.path else None,
                    ws.checked_files, checker.run)
            # A big log that missed goes to the workers in line ranges (engine/pieces.py).
            units = [u for r in misses for u in (pieces.pieces(ws, r, sizes[r], jobs) if sizes.get(r) else [r])]
            for findings, entries in parallel.run_in_pool(worker, spec, ws.root, units, jobs, checker.run.progress):
                found.extend(findings)
                checker.incremental.store.adopt(entries)
            return found
        relpaths = misses
    with (checker.run.progress(len(relpaths)) if checker.run.progress else _Quiet()) as advance:
        for relpath in relpaths:
            found.extend(_document(checker, relpath, document_rules))
            advance(1)
    return found


def _workspace_rule(checker, rule) -> list[Finding]:
    """A workspace rule's findings. A rule that never asks which files are targets is kept with its findings on
    every file, so a hook on other files reuses them; one that asks is kept for this run's targets."""
    inc, ws = checker.incremental, checker.workspace
    any_targets = inc.workspace_rule_key(any_targets=True) + rule.name
    entry = inc.lookup(any_targets)
    stored = entry[1].get(rule.name) if entry is not None and isinstance(entry[1], dict) else None
    if isinstance(stored, list):
        shown = [f for f in stored if isinstance(f, dict) and any(map(ws.is_target, _anchors(f)))]
        reused = _reuse(checker, shown)
        if reused is not None:
            return reused
    key = inc.workspace_rule_key() + rule.name
    have, _ = _held(checker, inc.lookup(key), [rule])
    if have:
        return have[rule.name]
    checker.keep_all = True  # findings on every file, not only the targets: what the entry keeps
    try:
        fresh, recorder = _watched(checker, lambda: checker.workspace_findings([rule]))
    finally:
        checker.keep_all = False
    targeted = [f for f in fresh if any(map(ws.is_target, f.workspace_paths))]
    if ("targets",) in recorder.deps:
        inc.put(key, recorder, _by_rule([rule], targeted), kind="rule")
    else:
        inc.put(any_targets, recorder, _by_rule([rule], fresh), kind="rule")
    return targeted


def check_chunk(checker, chunk: list[str]) -> list:
    """In a worker process: the document rules on some files, and the cache entries made for them."""
    store = open_store(checker)
    checker.start_pass()
    rules = [r for r in checker.rules if r.scope is Scope.DOCUMENT]
    found = []
    for unit in sorted(chunk, key=parallel.unit_order):
        piece = unit if isinstance(unit, pieces.Piece) else None
        found.extend(_document(checker, piece.relpath if piece else unit, rules, piece))
    return [(found, store.made())]


def _answered(checker, relpath: str, rules) -> list[Finding] | None:
    """A document's findings when the cache holds all of them, else None (nothing is checked here)."""
    ws, inc = checker.workspace, checker.incremental
    kind = ws.text_kind_of(relpath)
    raw = ws.current_bytes(relpath)
    if kind is None or raw is None:
        return None
    lines = _record_lines(inc, raw, kind, rules)
    record_rules = [r for r in rules if r.records] if lines is not None else []
    whole_rules = _whole_rules(rules, record_rules, kind)
    found: list[Finding] = []
    if whole_rules:
        have, _ = _held(checker, inc.lookup(inc.document_key(relpath, kind.name, raw, "whole")), whole_rules)
        if len(have) < len(whole_rules):
            return None
        found.extend(f for findings in have.values() for f in findings)
    if record_rules:
        log = _records_log(inc, relpath, kind, record_rules)
        answered, misses = _line_answers(checker, log, lines, range(1, len(lines) + 1), record_rules, raw)
        if misses:
            return None
        inc.keep_unchanged_lines(log, raw, lines)
        found.extend(answered)
    return found


def _whole_rules(rules, record_rules, kind) -> list:
    """The rules to run on a document whole: not its record rules, nor a rule of other kinds (a log is never parsed
    whole for the note rules, which would find nothing in it)."""
    return [r for r in rules if r not in record_rules and pieces.applies(r, kind)]


class _Quiet:
    def __enter__(self):
        return lambda n: None

    def __exit__(self, *exc):
        return False


def _reuse(checker, stored) -> list[Finding] | None:
    """Cached findings as findings of this run, or None when they cannot serve (garbled, or a fix to apply)."""
    if not isinstance(stored, list):
        return None
    if not stored:
        return []
    by_name = checker.incremental.rules_by_name
    ws, run = checker.workspace, checker.run
    findings = []
    for item in stored:
        finding = finding_from(item, by_name, lambda relpath: ws.display_path(relpath, run.cwd))
        if finding is None or ((run.fix or run.diff) and run.allows(finding)):
            return None
        findings.append(finding)
    return findings


def _watched(checker, work):
    """``work()`` with the checker's rules watched; its findings and what they read."""
    recorder = Recorder()
    checker.recorder = recorder
    try:
        return work(), recorder
    finally:
        checker.recorder = None


def _held(checker, entry, rules) -> tuple[dict, dict]:
    """From a valid entry ({rule name: findings}): the findings of the rules it answers, and its stored value."""
    value = entry[1] if entry is not None and isinstance(entry[1], dict) else {}
    have = {}
    for rule in rules:
        if rule.name in value:
            reused = _reuse(checker, value[rule.name])
            if reused is not None:
                have[rule.name] = reused
    return have, value


def _by_rule(rules, findings) -> dict:
    grouped = {rule.name: [] for rule in rules}
    for finding in findings:
        grouped[finding.rule.name].append(finding_record(finding))
    return grouped


def _cached(checker, key: str, rules, work, relpath: str | None = None, kind: str = "") -> list[Finding]:
    """The rules' findings for one unit: those an entry holds, and the rest computed by ``work(rules)`` and kept."""
    inc = checker.incremental
    entry = inc.lookup(key)
    have, value = _held(checker, entry, rules)
    found = [f for findings in have.values() for f in findings]
    missing = [rule for rule in rules if rule.name not in have]
    if not missing:
        return found
    fresh, recorder = _watched(checker, lambda: work(missing))
    found.extend(fresh)
    if relpath is None or all(f.workspace_path == relpath for f in fresh):
        merged = {**value, **_by_rule(missing, fresh)}
        inc.put(key, recorder, merged, entry[0] if entry is not None else (), kind)
    return found


def _record_lines(inc, raw: bytes, kind, rules) -> list[bytes] | None:
    """A log's lines, when its record rules are to be checked line by line; None: the file is checked whole
    (not plain JSONL, or empty: with no line, a record rule's finding on the file itself, such as a secret
    in its name, would have no line to be kept with)."""
    if kind.format != "jsonl" or not any(r.records for r in rules):
        return None
    return inc.lines_of(raw) or None


def _document(checker, relpath: str, rules, piece: pieces.Piece | None = None) -> list[Finding]:
    """A document's findings; with a piece, only those on the lines of that range of a log (the whole
    document's for the log's first range when it is not read line by line)."""
    ws, inc = checker.workspace, checker.incremental
    kind = ws.text_kind_of(relpath)
    raw = ws.current_bytes(relpath)
    if kind is None or raw is None:  # unreadable or gone: checked (by a log's first range), never cached
        return checker.document_findings(rules, [relpath]) if piece is None or piece.first else []
    lines = _record_lines(inc, raw, kind, rules)
    record_rules = [r for r in rules if r.records] if lines is not None else []
    whole_rules = _whole_rules(rules, record_rules, kind)
    found: list[Finding] = []
    if piece is not None and not piece.first:
        if lines is None:
            return found  # the first range checks it whole
        whole_rules = []  # the first range's to check
    if whole_rules:
        key = inc.document_key(relpath, kind.name, raw, "whole")
        found.extend(_cached(checker, key, whole_rules, lambda todo: checker.document_findings(todo, [relpath]), relpath))
    if record_rules:
        found.extend(_records(checker, relpath, kind, raw, lines, record_rules, piece))
    return found


def _records(checker, relpath: str, kind, raw: bytes, lines: list[bytes], rules, piece=None) -> list[Finding]:
    """The record rules on a log (or one range of it), line by line: the log's rows are read in one query, and only
    the lines whose bytes or dependencies changed are checked, about PIECE_BYTES of them at a time unless fixing
    (so a cold store never parses a big log whole)."""
    inc, run = checker.incremental, checker.run
    log = _records_log(inc, relpath, kind, rules)
    inc.store.cut_log(log, len(lines))
    whole_log = raw if piece is None else None  # a range of the log has no prefix of its own
    found, misses = _line_answers(checker, log, lines, pieces.lines_within(lines, piece), rules, whole_log)
    for batch in ([misses] if run.fix or run.diff else pieces.batches(lines, misses)) if misses else []:
        checked = _check_lines(checker, relpath, kind, raw, lines, rules, log, batch, piece)
        if checked is None:
            return checker.document_findings(rules, [relpath])
        found.extend(checked)
    rows = inc.log_rows(log)
    if piece is None and all(rows.get(n, (None,))[0] == line_digest(lines[n - 1]) for n in misses):
        inc.keep_unchanged_lines(log, raw, lines)  # every line has its row now
    return found


def _records_log(inc, relpath: str, kind, rules) -> str:
    return inc.log_key("records " + ",".join(sorted(rule.name for rule in rules)), relpath, kind.name)


def _line_answers(checker, log: str, lines: list[bytes], numbers, rules, raw: bytes | None = None
                  ) -> tuple[list[Finding], list[int]]:
    """(the findings the log's rows answer, the numbers of the lines to check). Given the log's bytes, its
    unchanged first lines that hold no finding are answered by one digest, not read line by line."""
    inc = checker.incremental
    found: list[Finding] = []
    misses: list[int] = []
    unchanged = inc.unchanged_lines(log, raw) if raw is not None else 0
    if unchanged:
        held = sorted(number for number in inc.log_rows(log) if 1 <= number <= unchanged)
        numbers = itertools.chain(held, range(unchanged + 1, len(lines) + 1))
    for number in numbers:
        answered, value = inc.line_answer(log, number, lines[number - 1])
        if answered and value is None:
            continue  # checked, and nothing found
        have = _held(checker, [None, value], rules)[0] if answered else {}
        if len(have) < len(rules):  # garbled, or a fix this run applies: checked again
            misses.append(number)
        else:
            found.extend(f for findings in have.values() for f in findings)
    return found, misses


def _check_lines(checker, relpath: str, kind, raw: bytes, lines: list[bytes], rules, log: str, misses: list[int],
                 piece) -> list | None:
    """The missed lines checked in a copy of the log with the others emptied, and kept; None when a fix's edits
    cannot be moved back into the log (then it is to be checked whole)."""
    ws, inc, run = checker.workspace, checker.incremental, checker.run
    found: list[Finding] = []
    wanted = set(misses)
    saved = ws.overlay.get(relpath, _ABSENT)
    inc.masked[relpath] = raw
    ws.overlay[relpath] = masked(lines, wanted)
    ws.forget(relpath)
    emptied = ws.document(relpath)
    if emptied is not None and hasattr(emptied, "blank_lines"):
        # The emptied lines are not blank lines of the log: no rule is to report them (nor pay for them).
        emptied.blank_lines = [number for number in emptied.blank_lines if number in wanted]
    try:
        fresh, recorder = _watched(checker, lambda: checker.document_findings(rules, [relpath]))
    finally:
        del inc.masked[relpath]
        if saved is _ABSENT:
            ws.overlay.pop(relpath, None)
        else:
            ws.overlay[relpath] = saved
        ws.forget(relpath)
    by_line: dict[int, list[Finding]] = {number: [] for number in misses}
    kept: list[Finding] = []
    for finding in fresh:
        if finding.workspace_path == relpath and finding.line in by_line:
            by_line[finding.line].append(finding)
            kept.append(finding)
        elif finding.workspace_path != relpath or not 1 <= finding.line <= len(lines):
            if piece is None or piece.first:
                found.append(finding)  # not one changed line's alone: reported (once), not kept
            kept.append(finding)
        # else: on an emptied line, about the emptiness (a blank line): that line's own row holds the truth
    if (run.fix or run.diff) and any(run.allows(f) for f in kept):
        # Edits are offsets into the emptied copy: moved to where their line is in the log, or the log is checked whole.
        if not shift_edits(kept, lines, wanted, relpath):
            return None
    deps = inc.stamped(recorder)
    for number in misses:
        if deps is not None:
            value = _by_rule(rules, by_line[number]) if by_line[number] else None
            inc.put_line(log, number, lines[number - 1], deps, value)
        found.extend(by_line[number])
    return found


def shift_edits(findings, lines: list[bytes], kept: set[int], relpath: str) -> bool:
    """Move the fixes' edits from the emptied copy of a log to the log itself (each within its own line).

    False when an edit does not lie within one kept line: then the log must be checked whole.
    """
    import bisect
    import dataclasses

    starts, shifts = [], []
    position = shift = 0
    for number, line in enumerate(lines, 1):
        text = line.decode("utf-8")
        ending = len(text) - len(text.rstrip("\r\n"))
        starts.append(position)
        shifts.append(shift)
        shown = len(text) if number in kept else ending
        position += shown
        shift += len(text) - shown
    for finding in findings:
        if finding.fix is None or not finding.fix.edits:
            continue
        moved = []
        for edit in finding.fix.edits:
            if edit.path not in (None, relpath):
                moved.append(edit)
                continue
            index = bisect.bisect_right(starts, edit.start) - 1
            end_of_line = starts[index + 1] if index + 1 < len(starts) else position
            if index < 0 or index + 1 not in kept or edit.end > end_of_line:
                return False
            moved.append(dataclasses.replace(edit, start=edit.start + shifts[index], end=edit.end + shifts[index]))
        finding.fix = dataclasses.replace(finding.fix, edits=tuple(moved))
    return True

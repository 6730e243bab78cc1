"""A pass over a workspace that reuses what the incremental cache (engine/incremental.py) still holds.

Workspace rules are answered per rule, document rules per document, and the rules declared
``records=True`` per line of a JSONL log: the lines that changed are checked in a copy of the
log with every other line emptied (so line numbers and columns stay as they are), and each
line's findings are kept under its own key. A cached finding whose fix a ``--fix`` run would
apply is never reused: fixes need real edits, so that unit is checked again.
"""

from __future__ import annotations

import json

from memwarden.engine import checkpoints, parallel, pieces
from memwarden.engine.cache import RunCache, finding_from, finding_record
from memwarden.engine.incremental import Incremental, Recorder, masked
from memwarden.engine.store import Store
from memwarden.model import Finding, Scope

_ABSENT = object()


def open_caches(checker):
    """The run-level cache and the incremental store of a checker's workspace; the checker now uses the store."""
    ws = checker.workspace
    cache = RunCache(ws.root)
    store = Store(cache.dir)
    # The selected rules' options only (the others' modules need not load); an entry holds findings per rule.
    settings = cache.settings_key(ws, checker.rules, checker.run)
    checker.incremental = Incremental(store, settings, ws, cache.file_hashes, checker.secret_scans, cache.forget_hashes)
    checker.incremental.rules_by_name = {rule.name: rule for rule in checker.rules}
    return cache, store


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
        shown = [f for f in stored if isinstance(f, dict) and ws.is_target(str(f.get("workspace_path", "")))]
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
    targeted = [f for f in fresh if ws.is_target(f.workspace_path)]
    if ("targets",) in recorder.deps:
        inc.put(key, recorder, _by_rule([rule], targeted), kind="rule")
    else:
        inc.put(any_targets, recorder, _by_rule([rule], fresh), kind="rule")
    return targeted


def check_chunk(checker, chunk: list[str]) -> list:
    """In a worker process: the document rules on some files, and the cache entries made for them."""
    _, store = open_caches(checker)
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
        answered, misses, known = _record_answers(checker, relpath, kind, raw, lines, record_rules)
        if misses:
            return None
        if known is not None:  # answered line by line: the next run reads them at once
            _write_checkpoint(checker, relpath, kind, raw, lines, record_rules, known)
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
    """The record rules on a log (or one range of it), line by line: only the lines no entry answers for are
    checked, about PIECE_BYTES of them at a time unless fixing (so a cold store never parses a big log whole).
    A whole log is answered from its checkpoint where one holds; a range reads its own lines' entries."""
    inc, run = checker.incremental, checker.run
    if piece is None:
        found, misses, known = _record_answers(checker, relpath, kind, raw, lines, rules)
    else:
        found, misses, known = [], {}, None
        for number in pieces.lines_within(lines, piece):
            entry = inc.lookup(inc.record_key(relpath, kind.name, number, lines[number - 1]))
            have, value = _held(checker, entry, rules)
            if len(have) == len(rules):
                found.extend(f for findings in have.values() for f in findings)
            else:
                misses[number] = (entry, value)
    if not misses:
        if known is not None:
            _write_checkpoint(checker, relpath, kind, raw, lines, rules, known)
        return found
    for batch in [list(misses)] if run.fix or run.diff else pieces.batches(lines, list(misses)):
        checked = _check_lines(checker, relpath, kind, raw, lines, rules, {n: misses[n] for n in batch}, piece, known)
        if checked is None:
            return checker.document_findings(rules, [relpath])
        found.extend(checked)
    if known is not None:  # a line whose reads were not stamped is missing from it: then no checkpoint is written
        _write_checkpoint(checker, relpath, kind, raw, lines, rules, known)
    return found


def _check_lines(checker, relpath: str, kind, raw: bytes, lines: list[bytes], rules, misses: dict, piece, known) -> list | None:
    """The missed lines checked in a copy of the log with the others emptied, and kept (in ``known`` too, for the
    log's next checkpoint); None when a fix's edits cannot be moved back into the log (then it is to be checked
    whole)."""
    ws, inc, run = checker.workspace, checker.incremental, checker.run
    found: list[Finding] = []
    saved = ws.overlay.get(relpath, _ABSENT)
    inc.masked[relpath] = raw
    ws.overlay[relpath] = masked(lines, set(misses))
    ws.forget(relpath)
    emptied = ws.document(relpath)
    if emptied is not None and hasattr(emptied, "blank_lines"):
        # The emptied lines are not blank lines of the log: no rule is to report them (nor pay for them).
        emptied.blank_lines = [number for number in emptied.blank_lines if number in misses]
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
        # else: on an emptied line, about the emptiness (a blank line): that line's own entry holds the truth
    if (run.fix or run.diff) and any(run.allows(f) for f in kept):
        # Edits are offsets into the emptied copy: moved to where their line is in the log, or the log is checked whole.
        if not shift_edits(kept, lines, set(misses), relpath):
            return None
    checked = inc.stamped(recorder)
    for number, (entry, value) in misses.items():
        merged = {**value, **_by_rule(rules, by_line[number])}
        inc.put(inc.record_key(relpath, kind.name, number, lines[number - 1]), recorder, merged,
                entry[0] if entry is not None else ())
        found.extend(by_line[number])
        if known is not None and checked is not None:
            known[number] = (_by_rule(rules, by_line[number]), [[*dep] for dep in checked])
    return found


# -- a log's checkpoint (engine/checkpoints.py) for the record rules ----------------------------------------
def _record_answers(checker, relpath: str, kind, raw: bytes, lines: list[bytes], rules):
    """What the cache answers of a log's lines for the record rules: (findings, misses, known).

    ``misses`` maps each line to check to its per-line entry and value (None and {} when none is read);
    ``known`` maps the answered lines to their findings by rule and their stamped dependencies (what the next
    checkpoint keeps), or is None when a line's answer was not kept whole. With a valid checkpoint, only the
    lines after it (and those whose dependencies changed or whose fix this run applies) are misses, and no
    per-line entry is read; without one, every line's entry is looked up.
    """
    inc = checker.incremental
    found: list[Finding] = []
    misses: dict[int, tuple] = {}
    known: dict | None = {}
    point = checkpoints.read(inc.store, inc.checkpoint_key("records", relpath, kind.name), raw, inc.prefixes)
    if point is not None and _records_checkpoint(point.data, rules):
        deps = point.data["deps"]
        fresh = [inc.valid([[dep]]) for dep in deps]
        known = {number: ({}, []) for number in range(1, min(point.lines, len(lines)) + 1)}
        for indices, spans in point.data["groups"]:
            line_deps = [deps[index] for index in indices]
            valid = all(fresh[index] for index in indices)
            for first, last in spans:
                for number in range(max(first, 1), min(last, point.lines) + 1):
                    if valid:
                        known[number] = ({}, line_deps)
                    else:
                        misses[number] = (None, {})
                        del known[number]
        for text, value in point.data["found"].items():
            number = int(text)
            if number not in known:
                continue
            have, _ = _held(checker, [[], value, ""], rules)
            if len(have) < len(rules):  # garbled, or a fix this run applies: checked again
                misses[number] = (None, {})
                del known[number]
                continue
            found.extend(f for findings in have.values() for f in findings)
            known[number] = (value, known[number][1])
        misses.update((number, (None, {})) for number in range(point.lines + 1, len(lines) + 1))
        return found, misses, known if misses else None  # nothing new: the checkpoint stands as it is
    for number, line in enumerate(lines, 1):
        entry = inc.lookup(inc.record_key(relpath, kind.name, number, line))
        have, value = _held(checker, entry, rules)
        if len(have) == len(rules):
            found.extend(f for findings in have.values() for f in findings)
            if known is not None:
                if any(name not in value for name in (r.name for r in rules)):
                    known = None
                else:
                    known[number] = ({r.name: value[r.name] for r in rules if value[r.name]}, entry[0])
        else:
            misses[number] = (entry, value)
    return found, misses, known


def _records_checkpoint(data: dict, rules) -> bool:
    """Whether a checkpoint's data has the shape :func:`_write_checkpoint` gives it, for (at least) these rules."""
    try:
        return {r.name for r in rules} <= set(data["rules"]) and isinstance(data["found"], dict) \
            and all(isinstance(dep, list) for dep in data["deps"]) \
            and all(isinstance(k, str) and k.isdigit() and isinstance(v, dict) for k, v in data["found"].items()) \
            and all(all(0 <= i < len(data["deps"]) for i in indices) and all(isinstance(a, int) and isinstance(b, int)
                                                                              for a, b in spans)
                    for indices, spans in data["groups"])
    except (KeyError, TypeError, ValueError):
        return False


def _write_checkpoint(checker, relpath: str, kind, raw: bytes, lines: list[bytes], rules, known: dict) -> None:
    """Keep the findings and dependencies of the log's complete lines under one entry: the dependencies once
    each, the lines that share them as runs of numbers, the findings only of the lines that have some."""
    inc = checker.incremental
    covered = checkpoints.complete_lines(lines)
    if any(number not in known for number in range(1, covered + 1)):
        return  # a line not answered here: no checkpoint covers it
    deps: dict[str, int] = {}
    indexed: dict[int, tuple] = {}  # id of a line's list of dependencies (alive in known) -> their indices
    groups: dict[tuple, list] = {}
    found = {}
    for number in range(1, covered + 1):
        value, line_deps = known[number]
        if any(value.values()):
            found[str(number)] = {name: items for name, items in value.items() if items}
        indices = indexed.get(id(line_deps))  # the lines of one run share one list: indexed once
        if indices is None:
            indices = indexed[id(line_deps)] = tuple(sorted(deps.setdefault(json.dumps(dep), len(deps))
                                                            for dep in line_deps))
        spans = groups.setdefault(indices, [])
        if spans and spans[-1][1] == number - 1:
            spans[-1][1] = number
        else:
            spans.append([number, number])
    # Lines with no dependency need no group: they are answered by being covered.
    data = {"rules": sorted(r.name for r in rules), "deps": [json.loads(dep) for dep in deps],
            "groups": [[list(indices), spans] for indices, spans in groups.items() if indices], "found": found}
    checkpoints.write(inc.store, inc.checkpoint_key("records", relpath, kind.name), lines, data, raw, inc.prefixes)


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

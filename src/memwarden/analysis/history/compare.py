"""What the base held that the current state lost: records, facts, index entries and notes.

Only files that changed are parsed, and a JSONL line found verbatim in the
current state is kept without parsing: a 10,000-line log with one deleted line
parses one line on each side first, and the whole log only when something is
missing. What is lost comes back as a Loss; the rules word it.
"""

from __future__ import annotations

import posixpath
from collections import Counter
from dataclasses import dataclass
from typing import Iterable

from memwarden.analysis.history import textdiff
from memwarden.analysis.history.facts import FactEntry, fact_entries
from memwarden.analysis.history.notes import NOTE_SIMILARITY, IndexEntry, NoteShape
from memwarden.analysis.history.records import (
    ARCHIVE_MARKERS,
    JsonRecord,
    RecordIndex,
    association_key,
    canonical,
    content_key,
    digest,
    first_difference,
    needles,
    records_on,
)
from memwarden.analysis.history.snapshots import Snapshot
from memwarden.documents.scan import resolve_from
from memwarden.documents.yamldoc import format_json_path
from memwarden.patterns import LazyPattern


@dataclass(kw_only=True)
class Loss:
    """Something the base held that is gone now, and where a finding about it points."""

    key: str  # the lost thing's identity, the same in every comparison (history uses it)
    path: str  # workspace-relative
    line: int
    column: int
    base_label: str
    unreadable_now: str | None = None  # why its file cannot be read now, when that is how it was lost
    json_path: str | None = None


@dataclass(kw_only=True)
class RecordLost(Loss):
    record: JsonRecord  # an episode or an association, as the base held it


@dataclass(kw_only=True)
class RecordRewritten(Loss):
    record: JsonRecord  # as the base held it
    now: JsonRecord  # the same id, with other content


@dataclass(kw_only=True)
class FactLost(Loss):
    entry: FactEntry


@dataclass(kw_only=True)
class IndexEntryLost(Loss):
    entry: IndexEntry


@dataclass(kw_only=True)
class LineLost(Loss):
    """A line of a file the base held but could not parse, found nowhere now: it cannot be compared
    record by record, so it is compared line by line, and a base that cannot be compared never passes."""

    why: str  # why the base's file could not be parsed
    group: str  # "facts" or "index"


@dataclass(kw_only=True)
class NoteLost(Loss):
    note: NoteShape  # as the base held it
    emptied: bool  # the file is still there, its content is not
    archived: bool  # it was in an archive folder already


_YAML_KEY = LazyPattern(r"(?:-\s+)?(?:[^\s#'\"\[\]{}:-][^:]*?|'[^']*'|\"[^\"]*\"):(?=\s|$)")


def _yaml_key(line: str) -> str | None:
    """`key:` (or `- key:`) of a YAML mapping line, to find it again after its value changed."""
    found = _YAML_KEY.match(line)
    return found.group(0) if found else None


class Comparison:
    """What the base held that the current state lost."""

    def __init__(self, ws, base: Snapshot, current: Snapshot, mutable_fields: Iterable[str]):
        self.ws = ws
        self.base = base
        self.current = current
        self.mutable = tuple(mutable_fields)
        self.ignored = set(self.mutable) | set(ARCHIVE_MARKERS)
        self.current_errors: dict[str, str] = {}
        self.moved_notes: dict[str, str] = {}  # base path -> where the note lives now
        self.archived_notes: set[str] = set()
        self._same: dict[str, bool] = {}
        self.unparsable_base_index: dict[str, str] = {}
        self._group_lines: dict[str, set[str]] = {}

    # -- change detection ---------------------------------------------------------
    def unchanged(self, relpath: str) -> bool:
        if relpath not in self._same:
            before = self.base.signature(relpath)
            self._same[relpath] = before is not None and before == self.current.signature(relpath)
        return self._same[relpath]

    def changed(self, group: str) -> list[str]:
        return [p for p in self.base.paths(group) if not self.unchanged(p)]

    def losses(self) -> list[Loss]:
        found: list[Loss] = []
        changed = {group: self.changed(group) for group in ("records", "facts", "index", "notes")}
        if not any(changed.values()):
            return found
        self.base.prefetch(p for paths in changed.values() for p in paths)
        if changed["notes"] or changed["index"]:
            found += self._notes(changed["notes"])
        if changed["records"]:
            found += self._records(changed["records"])
        if changed["facts"]:
            found += self._facts(changed["facts"])
        if changed["index"]:
            found += self._index()
        return found

    # -- JSONL records: episodes, archives, associations ------------------------------
    def _records(self, changed: list[str]) -> list[Loss]:
        current_paths = self.current.paths("records")
        self.current.prefetch(current_paths)
        texts: dict[str, str] = {}
        for relpath in current_paths:
            text, error = self.current.text(relpath)
            if text is None:
                self.current_errors[relpath] = error or "cannot be read"
                continue
            texts[relpath] = text

        # Only lines of the base that differ from the same file now can be lost; the lines that
        # differ in the current files are where a reformatted or re-keyed record may have gone.
        candidates: list[tuple[str, int, str]] = []
        fresh: list[tuple[str, int, str]] = []
        for relpath in changed:
            old, _ = self.base.text(relpath)
            if old is None:
                continue  # what the base could not read, it did not hold as records
            new = texts.get(relpath)
            if new is None:
                candidates += textdiff.lines_between(old, 0, len(old), relpath)
                continue
            (old_start, old_end), (new_start, new_end) = textdiff.differing_lines(old, new)
            candidates += textdiff.lines_between(old, old_start, old_end, relpath)
            fresh += textdiff.lines_between(new, new_start, new_end, relpath)
        if not candidates:
            return []
        for relpath, text in texts.items():
            if relpath not in self.base.files:
                fresh += textdiff.lines_between(text, 0, len(text), relpath)

        if textdiff.within_budget(len(candidates), texts):
            def still_there(line: str) -> bool:
                return any(textdiff.holds_line(text, line) for text in texts.values())
        else:
            line_sets = [self.current.line_set(relpath) for relpath in texts]

            def still_there(line: str) -> bool:
                return any(line in lines for lines in line_sets)

        suspects: list[JsonRecord] = []
        for relpath, number, line in candidates:
            if not still_there(line):  # a line found byte for byte elsewhere was moved or reordered
                suspects.extend(records_on(line, relpath, number, self.base.roles[relpath]))
        if not suspects:
            return []

        candidate_lines = {line for _, _, line in candidates}
        index = RecordIndex(self.ignored)
        for relpath, number, line in fresh:
            if line not in candidate_lines:
                index.add_all(records_on(line, relpath, number, self.current.roles[relpath]))
        missing = [record for record in suspects if not index.has_content(record)]
        if missing:
            # Then every line that mentions what is still missing (its id, fingerprint, a distinctive
            # string): a moved duplicate, or the same id rewritten. All lines only if that is cheaper.
            wanted = needles(missing, self.ignored)
            mentioned = textdiff.lines_holding(texts, wanted) if wanted is not None else None
            if mentioned is None:
                mentioned = ((p, n, line) for p, text in texts.items() for n, line in textdiff.split_lines(text))
            for relpath, number, line in mentioned:
                index.add_all(records_on(line, relpath, number, self.current.roles[relpath]))
        held = self._held_at_base([r for r in suspects if not index.has_content(r) and index.identities(r)], index)
        losses = []
        for record in suspects:
            loss = self._record_loss(record, index, held)
            if loss is not None:
                losses.append(loss)
        return losses

    def _held_at_base(self, records: list[JsonRecord], index: RecordIndex) -> frozenset[str]:
        """The contents the base held among the records sharing an id (or fingerprint) with these: a current
        record with one of them is that base record kept, not another one rewritten (two records may share an id)."""
        if not records:
            return frozenset()
        wanted = {value for r in records for other in index.identities(r)
                  for value in (other.identity("id"), other.identity("fingerprint")) if value is not None}
        base_paths = self.base.paths("records")
        self.base.prefetch(base_paths)
        texts = {p: text for p in base_paths if (text := self.base.text(p)[0]) is not None}
        lines = textdiff.lines_holding(texts, wanted)
        if lines is None:
            lines = [(p, n, line) for p, text in texts.items() for n, line in textdiff.split_lines(text)]
        current = {index.content_of(other) for r in records for other in index.identities(r)}
        held = set()
        for relpath, number, line in lines:
            for base_record in records_on(line, relpath, number, self.base.roles[relpath]):
                key = content_key(base_record.data, self.ignored)
                if key in current:
                    held.add(key)
        return frozenset(held)

    def _record_loss(self, record: JsonRecord, index: RecordIndex, held_before=frozenset()) -> Loss | None:
        if index.has_content(record):
            return None
        where = dict(path=record.path, line=record.line, column=record.column, base_label=self.base.label,
                     unreadable_now=self.current_errors.get(record.path))
        if record.is_association:
            if index.has_association(record):
                return None
            return RecordLost(key="association:" + digest(association_key(record.data)), record=record, **where)
        rewritten = index.same_identity(record, held_before)
        if rewritten is not None:
            return RecordRewritten(
                key=self._record_key(record),
                path=rewritten.path,
                line=rewritten.line,
                column=rewritten.column,
                base_label=self.base.label,
                json_path=format_json_path(first_difference(record.data, rewritten.data, self.ignored)),
                record=record,
                now=rewritten,
            )
        return RecordLost(key=self._record_key(record), record=record, **where)

    def _record_key(self, record: JsonRecord) -> str:
        for name in ("id", "fingerprint"):
            value = record.identity(name)
            if value is not None:
                return f"record:{name}:{value}"
        return "record:content:" + digest(content_key(record.data, self.ignored))

    # -- facts ----------------------------------------------------------------------
    def _facts(self, changed: list[str]) -> list[Loss]:
        current_paths = self.current.paths("facts")
        self.current.prefetch(current_paths)
        present: set[tuple] = set()
        archived_with_value: set[tuple] = set()
        archived_paths: set[tuple] = set()
        for relpath in current_paths:
            doc = self.current.document(relpath)
            if doc is None or not doc.ok:
                self.current_errors[relpath] = doc.error.message if doc is not None and doc.error else "cannot be read"
                continue
            whole_file_archived = self.current.roles[relpath].archived
            for entry in fact_entries(doc.data):
                for depth in range(1, len(entry.path) + 1):
                    present.add(entry.path[:depth])
                if whole_file_archived or entry.archived:
                    for start in range(len(entry.path)):
                        tail = entry.path[start:]
                        archived_with_value.add((tail, entry.value))
                        if len(tail) >= 2:
                            archived_paths.add(tail)
        losses: list[Loss] = []
        for relpath in changed:
            doc = self.base.document(relpath)
            if doc is None:
                continue
            if not doc.ok:
                losses += self._lines_lost(relpath, "facts", doc.error.message if doc.error else "does not parse")
                continue
            for entry in fact_entries(doc.data):
                if entry.path in present:
                    continue
                tails = [entry.path[start:] for start in range(len(entry.path))]
                if any((tail, entry.value) in archived_with_value or tail in archived_paths for tail in tails):
                    continue
                line, column = doc.locate(entry.display)
                losses.append(
                    FactLost(
                        key=f"fact:{digest(canonical([str(p) for p in entry.path]))}",
                        path=relpath,
                        line=line,
                        column=column,
                        base_label=self.base.label,
                        unreadable_now=self.current_errors.get(relpath),
                        json_path=format_json_path(entry.display),
                        entry=entry,
                    )
                )
        return losses

    # -- files the base could not parse: compared line by line ----------------------------
    def _lines_lost(self, relpath: str, group: str, why: str) -> list[Loss]:
        """The lines of a base file that did not parse which no current file of its group (or archive) holds."""
        text, _ = self.base.text(relpath)
        if text is None:
            return []
        if group not in self._group_lines:
            paths = self.current.paths(group) + (self.current.paths("notes") if group == "index" else [])
            self.current.prefetch(paths)
            kept: set[str] = set()
            for path in paths:
                lines = self.current.line_set(path)
                kept |= lines
                if group == "facts":  # a fact's value may change: its key line is kept if the key is
                    kept |= {key for line in lines if (key := _yaml_key(line))}
            self._group_lines[group] = kept
        kept = self._group_lines[group]
        return [
            LineLost(
                key=f"line:{relpath}:{digest(line)}", path=relpath, line=number, column=1,
                base_label=self.base.label, unreadable_now=self.current_errors.get(relpath), why=why, group=group,
            )
            for number, line in textdiff.split_lines(text)
            if line not in kept and not (group == "facts" and _yaml_key(line) in kept)
        ]

    # -- index entries ---------------------------------------------------------------
    def _index(self) -> list[Loss]:
        base_entries = self._index_entries(self.base, self.base.paths("index"))
        self.current.prefetch(self.current.paths("index"))
        live = self._index_entries(self.current, self.current.paths("index"))
        archived = self._index_entries(
            self.current, [p for p in self.current.paths("notes") if self.current.roles[p].archived]
        )
        live_by_target: dict[str, list[tuple]] = {}
        for entry in live:
            live_by_target.setdefault(entry.target, []).append(entry.triggers)
        archived_targets = Counter(entry.target for entry in archived)
        losses: list[Loss] = []
        for relpath, why in sorted(self.unparsable_base_index.items()):
            losses += self._lines_lost(relpath, "index", why)
        by_target: dict[str, list[IndexEntry]] = {}
        for entry in base_entries:
            by_target.setdefault(entry.target, []).append(entry)
        for target, entries in by_target.items():
            now = self.moved_notes.get(target, target)
            remaining = list(live_by_target.get(now, []))
            unmatched = []
            for entry in entries:  # same triggers first, then any entry for the same note (triggers reworded)
                if entry.triggers in remaining:
                    remaining.remove(entry.triggers)
                else:
                    unmatched.append(entry)
            left_over = len(remaining)
            spare_archived = archived_targets.get(target, 0) + archived_targets.get(now, 0)
            for entry in unmatched:
                if left_over:
                    left_over -= 1
                    continue
                if spare_archived:
                    spare_archived -= 1
                    continue
                if target in self.archived_notes:
                    continue  # the note was archived; its index line goes with it
                losses.append(
                    IndexEntryLost(
                        key=f"index:{target}:{digest(canonical(list(entry.triggers)))}",
                        path=entry.path,
                        line=entry.line,
                        column=entry.column,
                        base_label=self.base.label,
                        unreadable_now=self.current_errors.get(entry.path),
                        entry=entry,
                    )
                )
        return losses

    def _index_entries(self, snapshot: Snapshot, relpaths: list[str]) -> list[IndexEntry]:
        entries = []
        for relpath in relpaths:
            doc = snapshot.document(relpath)
            if doc is None or not doc.ok or not hasattr(doc, "entries"):
                if snapshot is self.current and doc is not None and doc.error is not None:
                    self.current_errors[relpath] = doc.error.message
                if snapshot is self.base and doc is not None and doc.error is not None and not self.unchanged(relpath):
                    self.unparsable_base_index[relpath] = doc.error.message
                continue
            role = snapshot.roles[relpath]
            base_dir = posixpath.dirname(relpath)
            if not role.archived:
                base_dir = self.ws.profile.index_link_base.get(role.kind.name, base_dir)
            for entry in doc.entries:
                link = entry.link
                if link is None:
                    continue
                entries.append(
                    IndexEntry(
                        relpath, entry.line, entry.column, resolve_from(base_dir, link.target),
                        tuple(t.text for t in entry.triggers), doc.line_text(entry.line),
                        [other.target for other in entry.links], base_dir,
                    )
                )
        return entries

    # -- notes -----------------------------------------------------------------------
    def _notes(self, changed: list[str]) -> list[Loss]:
        candidates = [p for p in self.current.paths("notes") if not self.unchanged(p)]
        self.current.prefetch(candidates)
        self.current.prefetch(p for p in changed if p in self.current.files)
        shapes = {p: NoteShape.of(self.current, p) for p in candidates}
        losses: list[Loss] = []
        for relpath in changed:
            base_shape = NoteShape.of(self.base, relpath)
            if base_shape is None or not base_shape.text.strip():
                continue  # an empty or unreadable note held nothing
            emptied = False
            if relpath in self.current.files:
                now = shapes.get(relpath) or NoteShape.of(self.current, relpath)
                if now is None:
                    continue  # unreadable now, not emptied: unparsable-file speaks for it
                emptied = not now.text.strip() or bool(base_shape.body and not now.body)
                if not emptied:
                    continue  # edited: edits are fine
            match = self._find_note(relpath, base_shape, shapes, exclude=relpath)
            if match is not None:
                if self.current.roles[match].archived:
                    self.archived_notes.add(relpath)
                else:
                    self.moved_notes[relpath] = match
                continue
            losses.append(
                NoteLost(
                    key=f"note:{relpath}", path=relpath, line=1, column=1, base_label=self.base.label,
                    note=base_shape, emptied=emptied, archived=self.base.roles[relpath].archived,
                )
            )
        return losses

    def _lines_added(self, relpath: str, now: NoteShape):
        """The body lines the change added to a note that the base already had (None: a new note)."""
        if relpath not in self.base.files:
            return None
        before = NoteShape.of(self.base, relpath)
        return None if before is None else now.lines - before.lines

    def _find_note(self, relpath: str, shape: NoteShape, shapes: dict, exclude: str) -> str | None:
        stem = posixpath.splitext(posixpath.basename(relpath))[0].lower()
        best = None
        for candidate, other in shapes.items():
            if candidate == exclude or other is None:
                continue
            if other.normalized == shape.normalized or (shape.body.strip() and other.body == shape.body):
                return candidate
            if self.current.roles[candidate].archived:
                other_stem = posixpath.splitext(posixpath.basename(candidate))[0].lower()
                if other_stem == stem or other_stem.endswith(("-" + stem, "_" + stem, "." + stem)):
                    best = best or candidate
                    continue
            if best is None and shape.similarity(other, self._lines_added(candidate, other)) >= NOTE_SIMILARITY:
                best = candidate
        return best

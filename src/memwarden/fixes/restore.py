"""Restoring what an append-only comparison found lost: edits on the working tree, everything marked archived.

Episodes and associations are appended to JSONL archives with their archived
marker, fact keys go back as block YAML under a mapping marked archived (gish:
under `archive:`), index lines to an archived index, notes into the archive's
notes folder. The YAML is written here, line by line, so nothing else in the
target file is re-serialised.
"""

from __future__ import annotations

import json
import math
import posixpath
from dataclasses import dataclass

from memwarden.analysis.history import FactLost, IndexEntryLost, Loss, NoteLost, RecordLost, archive_root
from memwarden.analysis.history.facts import ListItem
from memwarden.analysis.history.notes import IndexEntry, NoteShape
from memwarden.analysis.history.records import JsonRecord
from memwarden.analysis.history.roles import FACT_KINDS
from memwarden.documents.base import decode, detect_newline
from memwarden.documents.jsonl import JsonPositions
from memwarden.globs import is_glob
from memwarden.documents.scan import has_scheme, resolve_from
from memwarden.model import Edit
from memwarden.patterns import LazyPattern


@dataclass(frozen=True)
class Restoration:
    edits: tuple[Edit, ...]
    files: tuple[str, ...]  # where the restored records went, in the order they were written
    count: int  # how many records, entries and notes come back


class Restorer:
    """Edits on the working tree that put every lost record back, marked archived."""

    def __init__(self, ws, label: str, today):
        self.ws = ws
        self.label = label
        self.today = today
        self.gish = ws.profile.name == "ghost-in-shell"
        self.edits: list[Edit] = []
        self.files: list[str] = []
        self.count = 0

    def build(self, losses: list[Loss]) -> Restoration | None:
        records = [loss.record for loss in losses if isinstance(loss, RecordLost)]
        facts = [loss for loss in losses if isinstance(loss, FactLost)]
        entries = [loss.entry for loss in losses if isinstance(loss, IndexEntryLost)]
        notes = [loss.note for loss in losses if isinstance(loss, NoteLost)]
        self._records([r for r in records if not r.is_association], "episodes")
        self._records([r for r in records if r.is_association], "associations")
        self._facts(facts)
        self._index(entries)
        self._notes(notes)
        if not self.edits:
            return None
        return Restoration(tuple(self.edits), tuple(self.files), self.count)

    # -- files ------------------------------------------------------------------
    def _current_text(self, relpath: str) -> tuple[str, str] | None:
        """(text, newline) of a working-tree file we may append to; ('', '\\n') if it is new; None if unusable."""
        raw = self.ws.current_bytes(relpath)
        if raw is None:
            if (self.ws.root / relpath).exists():
                return None  # a folder, or unreadable: never write there
            return "", "\n"
        doc = self.ws.document(relpath)
        if doc is not None:
            if not doc.decoded:
                return None
            return doc.text, doc.newline
        text, _, bom, error = decode(raw)
        if text is None or bom:
            return None  # edits on a new kind-less file are written as UTF-8: keep hands off other encodings
        return text, detect_newline(text)

    def _free_path(self, relpath: str, usable=lambda relpath: True) -> tuple[str, str, str] | None:
        stem, dot, suffix = relpath.rpartition(".")
        if not dot:
            stem, suffix = relpath, ""
        for attempt in range(1, 50):
            candidate = relpath if attempt == 1 else f"{stem}-{attempt}.{suffix}" if suffix else f"{stem}-{attempt}"
            found = self._current_text(candidate)
            if found is not None and usable(candidate):
                return candidate, found[0], found[1]
        return None

    def _append(self, relpath: str, text: str, newline: str, lines: list[str], count: int) -> None:
        prefix = newline if text and not text.endswith("\n") else ""
        self.edits.append(Edit(len(text), len(text), prefix + "".join(line + newline for line in lines), path=relpath))
        self.files.append(relpath)
        self.count += count

    # -- episodes and associations -------------------------------------------------
    def _records(self, records: list[JsonRecord], what: str) -> None:
        if not records:
            return
        if what == "associations":
            marker, value = "archived", "true"
            target = next((r.path for r in records if r.associations_file and not r.archived_file), None)
            target = target or _kind_path(self.ws, "associations") or f"{archive_root(self.ws)}/associations.jsonl"
        else:
            marker, value = ("decay_status", '"archived"') if self.gish else ("archived", "true")
            target = f"{archive_root(self.ws)}/restored.jsonl"
        found = self._free_path(target)
        if found is None:
            return
        relpath, text, newline = found
        self._append(relpath, text, newline, [_mark_json(r.source, r.data, marker, value) for r in records], len(records))

    # -- facts ------------------------------------------------------------------------
    def _facts(self, losses: list[FactLost]) -> None:
        if not losses:
            return
        by_file: dict[str, list[FactLost]] = {}
        for loss in losses:
            by_file.setdefault(loss.path, []).append(loss)
        blocks: dict[str, list[tuple[str, list[FactLost]]]] = {}  # target -> [(source file, losses)]
        fallback = f"{archive_root(self.ws)}/facts-restored.yml"
        for source, items in by_file.items():
            target = self._facts_target(source)
            blocks.setdefault(target or fallback, []).append((source, items))
        for target, groups in blocks.items():
            self._facts_into(target, groups, target == fallback)

    def _facts_target(self, source: str) -> str | None:
        candidates = [source] + sorted(p for p, k in self.ws.files.items() if k.name in FACT_KINDS and p != source)
        for relpath in candidates:
            doc = self.ws.document(relpath) if self.ws.current_bytes(relpath) is not None else None
            if doc is not None and doc.ok and isinstance(doc.data, dict) and doc.kind.name in FACT_KINDS:
                root = doc.span(())
                if root is not None and not root.flow:
                    return relpath
        return None

    def _facts_into(self, target: str, groups, is_fallback: bool) -> None:
        stamp = f"restored-{self.today.isoformat()}"
        count = sum(len(items) for _, items in groups)
        if is_fallback:
            found = self._free_path(target)
            if found is None:
                return
            relpath, text, newline = found
            lines = []
            for source, items in groups:
                lines.append(_yaml_key(f"{stamp}-{posixpath.splitext(posixpath.basename(source))[0]}") + ":")
                lines.append("  archived: true")
                lines += _render_facts(items, 1)
            self._append(relpath, text, newline, lines, count)
            return
        doc = self.ws.document(target)
        text, newline = doc.text, doc.newline
        data = doc.data
        if self.gish:
            self._gish_archive_into(doc, target, groups, stamp, count)
            return
        names = _unique_names(stamp, data, groups, target)
        lines = []
        for (source, items), name in zip(groups, names):
            lines.append(_yaml_key(name) + ":")
            lines.append("  archived: true")
            lines += _render_facts(items, 1)
        self._append(target, text, newline, lines, count)

    def _gish_archive_into(self, doc, target: str, groups, stamp: str, count: int) -> None:
        """Under gish's top-level `archive:` mapping, one key per source file."""
        text, newline, data = doc.text, doc.newline, doc.data
        archive = data.get("archive")
        existing = archive if isinstance(archive, dict) else {}
        names = _unique_names(stamp, existing, groups, target)
        span = doc.span(("archive",))
        if "archive" not in data:
            lines = ["archive:"]
            for (source, items), name in zip(groups, names):
                lines.append("  " + _yaml_key(name) + ":")
                lines += _render_facts(items, 2)
            self._append(target, text, newline, lines, count)
            return
        if archive not in (None, {}) and (not isinstance(archive, dict) or span is None or span.flow):
            return  # a list or a one-line flow mapping: no safe place to add a key
        indent = 2
        if isinstance(archive, dict) and archive:
            first = doc.span(("archive", next(iter(archive))))
            indent = (first.key_column or 3) - 1 if first is not None else 2
        key_span = doc.span(("archive",))
        key_offset = key_span.key_offset if key_span is not None and key_span.key_offset is not None else 0
        line_end = text.find("\n", key_offset)
        edits = []
        if archive in (None, {}) and span is not None and span.line == span.key_line:
            value_text = text[span.start_offset : span.end_offset]
            if value_text.strip():
                start = span.start_offset
                while start > 0 and text[start - 1] in " \t":
                    start -= 1
                edits.append(Edit(start, span.end_offset, "", path=target))
        lines = []
        for (source, items), name in zip(groups, names):
            lines.append(" " * indent + _yaml_key(name) + ":")
            lines += _render_facts(items, 0, indent + 2)
        block = "".join(line + newline for line in lines)
        if line_end == -1:
            edits.append(Edit(len(text), len(text), newline + block, path=target))
        else:
            edits.append(Edit(line_end + 1, line_end + 1, block, path=target))
        self.edits.extend(edits)
        self.files.append(target)
        self.count += count

    # -- index entries -------------------------------------------------------------------
    def _index(self, entries: list[IndexEntry]) -> None:
        if not entries:
            return
        relpath = f"{archive_root(self.ws)}/INDEX_restored.md"
        found = self._free_path(relpath)
        if found is None:
            return
        relpath, text, newline = found
        folder = posixpath.dirname(relpath)
        lines = []
        if not text:
            if self.ws.profile.name == "claude-code":
                lines += ["---", "name: INDEX_restored", "description: Index entries memwarden restored, archived",
                          "type: reference", "---", ""]
            lines += ["# Restored index entries", "",
                      f"Index lines deleted since {self.label}, kept here by memwarden (archived).", ""]
        for entry in entries:
            line = entry.source.strip()
            for raw in entry.raw_targets:
                resolved = resolve_from(entry.base_dir, raw)
                if has_scheme(resolved):
                    continue
                moved = posixpath.relpath(resolved, folder or ".")
                line = line.replace(f"]({raw}", f"]({moved}").replace(f"](<{raw}>", f"](<{moved}>")
            lines.append(line)
        self._append(relpath, text, newline, lines, len(entries))

    # -- notes -------------------------------------------------------------------------------
    def _notes(self, notes: list[NoteShape]) -> None:
        root = archive_root(self.ws)
        for note in notes:
            inner = note.relpath[len("memory/"):] if note.relpath.startswith("memory/") else note.relpath
            if inner.startswith(root.split("/")[-1] + "/"):
                inner = inner.split("/", 1)[1]  # an archived note: keep its place in the archive
            inner = inner.removeprefix("notes/")  # memory/notes/x.md goes to _archive/notes/x.md, not notes/notes/
            target = f"{root}/notes/{inner}"
            found = self._free_path(target, usable=lambda p: self.ws.current_bytes(p) is None)
            if found is None:
                continue
            relpath = found[0]
            self.edits.append(Edit(0, 0, note.text, path=relpath, creates_as=note.encoding))
            self.files.append(relpath)
            self.count += 1


def _kind_path(ws, kind_name: str) -> str | None:
    """The one file a kind names, when its glob is a plain path."""
    kind = ws.profile.kind(kind_name)
    if kind is None:
        return None
    for glob in kind.globs:
        if not is_glob(glob):
            return glob
    return None


def _mark_json(source: str, data, key: str, value: str) -> str:
    """The record's own text with one top-level key set (archived marker), everything else as written."""
    if not isinstance(data, dict):
        return source
    try:
        spans = JsonPositions(source).spans
    except (ValueError, IndexError, RecursionError):
        spans = {}
    if (key,) in spans:
        start, end, _ = spans[(key,)]
        return source[:start] + value + source[end:]
    if key in data:  # a duplicate key the position map could not place: rebuild the record
        marked = dict(data)
        marked[key] = json.loads(value)
        return json.dumps(marked, ensure_ascii=False)
    close = source.rstrip().rfind("}")
    if close == -1:
        return source
    before = source[:close].rstrip()
    separator = "" if before.endswith("{") else ", "
    return f"{before}{separator}\"{key}\": {value}{source[close:]}"


# -- the YAML writer: block YAML, one line at a time ---------------------------------------

_PLAIN_KEY = LazyPattern(r"[A-Za-z_][A-Za-z0-9_-]*")
_YAML_WORDS = {"true", "false", "yes", "no", "on", "off", "null", "y", "n"}


def _yaml_key(key) -> str:
    key = str(key)
    if _PLAIN_KEY.fullmatch(key) and key.lower() not in _YAML_WORDS:
        return key
    return json.dumps(key, ensure_ascii=False)


def _yaml_value(value) -> str:
    if isinstance(value, float) and (math.isinf(value) or math.isnan(value)):
        return ".nan" if math.isnan(value) else (".inf" if value > 0 else "-.inf")
    return json.dumps(value, ensure_ascii=False)


def _render_facts(losses: list[FactLost], level: int, indent: int | None = None) -> list[str]:
    """Block YAML for the lost entries of one facts file, nested as they were."""
    tree: dict = {}
    for loss in losses:
        node = tree
        path = loss.entry.path
        last = path[-1]
        parents = path[:-1]
        if not parents and isinstance(last, ListItem):
            parents = ("items",)  # a file whose root is a list: its items go under 'items'
        for part in parents:
            node = node.setdefault(("key", part), {})
        if isinstance(last, ListItem):
            node.setdefault(("items",), []).append(loss.entry.raw)
        else:
            node[("leaf", last)] = loss.entry.raw
    base = indent if indent is not None else level * 2
    return _emit_tree(tree, base)


def _emit_tree(tree: dict, indent: int) -> list[str]:
    pad = " " * indent
    lines = []
    for node_key, value in tree.items():
        if node_key[0] == "items":
            continue
        name = node_key[1]
        if node_key[0] == "leaf":
            lines.append(f"{pad}{_yaml_key(name)}: {_yaml_value(value)}")
            continue
        lines.append(f"{pad}{_yaml_key(name)}:")
        children = {k: v for k, v in value.items() if k[0] != "items"}
        lines += _emit_tree(children, indent + 2)
        for raw in value.get(("items",), []):
            lines.append(f"{pad}  - {_yaml_value(raw)}")
    return lines


def _unique_names(stamp: str, existing: dict, groups, target: str) -> list[str]:
    """Keys for each source file's block that no key of the target mapping already uses."""
    names = []
    taken = set(map(str, existing))
    for source, _ in groups:
        name = stamp if source == target else f"{stamp}-{posixpath.splitext(posixpath.basename(source))[0]}"
        candidate, n = name, 1
        while candidate in taken:
            n += 1
            candidate = f"{name}-{n}"
        taken.add(candidate)
        names.append(candidate)
    return names

"""Append-only memory: what the base held must still be here, or archived.

A comparison reads two snapshots of the workspace through git: the base
(HEAD, a ``--base REF``, a commit's parent) and the current state (the index,
the working tree, a commit). Records are matched by id, else fingerprint,
else their content after parsing, so a reordered log, a re-indented record, a
changed key order or CRLF/LF line endings are not deletions. Only files that
changed are parsed, and a JSONL line found verbatim in the current state is
kept without parsing: a 10,000-line log with one deleted line parses one line
on each side first, and the whole log only when something is missing.
"""

from __future__ import annotations

import hashlib
import json
import math
import posixpath
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable
from urllib.parse import unquote

from memwarden.discover.profiles import EPISODE_KINDS
from memwarden.documents import Document, load
from memwarden.documents.base import MAX_DEPTH, decode
from memwarden.documents.jsonl import depth_exceeds
from memwarden.documents.yamldoc import format_json_path
from memwarden.errors import UsageError
from memwarden.model import Applicability, Edit, Fix, Option, Problem, Scope, Severity
from memwarden.analysis.tags import normalized_tags
from memwarden.discover.profiles import Kind
from memwarden.registry import rule

ASSOCIATION_KINDS = ("associations",)
FACT_KINDS = ("facts",)
INDEX_KINDS = ("startup-index", "shelf-index")
NOTE_KINDS = ("note",)

# "expires" too: re-verifying a claim moves its date, and memwarden's own fix adds it.
DEFAULT_MUTABLE_FIELDS = ["decay_status", "retrieval", "quality", "linked_to", "archived", "expires"]
# Marking a record archived is archiving, never a rewrite or a loss.
ARCHIVE_MARKERS = ("archived", "decay_status")
ARCHIVE_SEGMENTS = ("_archive", "archive")
IDENTITY_FIELDS = ("id", "key", "name")  # how a mapping in a facts list is known

# Beyond this many losses in one file, one summary finding stands for the rest.
MAX_LISTED_PER_FILE = 100
# A note moved with small edits is still the same note (git's rename threshold is 50% too).
NOTE_SIMILARITY = 0.5

_ARCHIVED_JSONL = Kind("archived-records", "jsonl", (), "records in an archive folder")
_ARCHIVED_YAML = Kind("archived-facts", "yaml", (), "facts in an archive folder")
_ARCHIVED_MARKDOWN = Kind("archived-markdown", "index", (), "a note or index in an archive folder")


# -- which files take part ------------------------------------------------------


def in_archive(relpath: str) -> bool:
    """A path inside an archive folder (`memory/_archive/**`, or any `_archive`/`archive` folder)."""
    return any(part.lower() in ARCHIVE_SEGMENTS for part in relpath.split("/")[:-1])


@dataclass(frozen=True)
class FileRole:
    group: str  # "records", "facts", "index", "notes"
    kind: Kind
    archived: bool  # lives in an archive folder
    associations: bool = False


def file_role(ws, relpath: str) -> FileRole | None:
    kind = ws.kind_of(relpath)
    name = kind.name if kind is not None else None
    if in_archive(relpath):
        # Whatever its kind, a file in an archive folder is archive: read it for what it keeps.
        suffix = relpath.rsplit(".", 1)[-1].lower() if "." in relpath else ""
        fmt = kind.format if kind is not None else {"jsonl": "jsonl", "yml": "yaml", "yaml": "yaml",
                                                     "md": "markdown", "markdown": "markdown"}.get(suffix)
        if fmt == "jsonl":
            return FileRole("records", kind or _ARCHIVED_JSONL, True, associations=name in ASSOCIATION_KINDS)
        if fmt == "yaml" and name in (None, *FACT_KINDS):
            return FileRole("facts", kind or _ARCHIVED_YAML, True)
        if fmt in ("markdown", "index"):
            return FileRole("notes", _ARCHIVED_MARKDOWN, True)
        return None
    if name in EPISODE_KINDS:
        return FileRole("records", kind, name == "episode-archive")
    if name in ASSOCIATION_KINDS:
        return FileRole("records", kind, False, associations=True)
    if name in FACT_KINDS:
        return FileRole("facts", kind, False)
    if name in INDEX_KINDS:
        return FileRole("index", kind, False)
    if name in NOTE_KINDS:
        return FileRole("notes", kind, False)
    return None


# -- snapshots ------------------------------------------------------------------


class Snapshot:
    """The workspace's memory files at one point: a commit, the index, or the working tree."""

    def __init__(self, ws, label: str, files: dict[str, str | None]):
        self.ws = ws
        self.label = label
        self.roles: dict[str, FileRole] = {}
        self.files: dict[str, str | None] = {}  # relpath -> blob id (None: read the bytes to compare)
        for relpath, signature in files.items():
            role = file_role(ws, relpath)
            if role is not None:
                self.roles[relpath] = role
                self.files[relpath] = signature
        self._docs: dict[str, Document] = {}
        self._decoded = _Recent()

    def paths(self, group: str) -> list[str]:
        return sorted(p for p, role in self.roles.items() if role.group == group)

    def raw(self, relpath: str) -> bytes | None:
        raise NotImplementedError

    def signature(self, relpath: str) -> str | None:
        """The file's git blob id: equal ids, equal bytes."""
        return self.files.get(relpath)

    def prefetch(self, relpaths: Iterable[str]) -> None:
        pass

    def text(self, relpath: str) -> tuple[str | None, str | None]:
        """(decoded text, why not) of a file."""
        key = self._cache_key(relpath, "text")
        if key not in self._decoded:
            raw = self.raw(relpath)
            if raw is None:
                found = None, "cannot be read"
            else:
                text, _, _, error = decode(raw)
                found = text, (error.message if error else None)
            self._decoded.put(key, found)
        return self._decoded.get(key)

    def line_set(self, relpath: str) -> frozenset[str]:
        """The stripped lines of a file, to ask 'is this line still there?' in one step."""
        key = self._cache_key(relpath, "lines")
        if key not in self._decoded:
            text, _ = self.text(relpath)
            self._decoded.put(key, frozenset(line.strip() for line in text.split("\n")) if text else frozenset())
        return self._decoded.get(key)

    def _cache_key(self, relpath: str, what: str):
        return (relpath, what)

    def document(self, relpath: str) -> Document | None:
        if relpath not in self.roles:
            return None
        if relpath not in self._docs:
            raw = self.raw(relpath)
            if raw is None:
                return None
            self._docs[relpath] = load(self.ws.root, relpath, self.roles[relpath].kind, raw)
        return self._docs[relpath]


class _Recent:
    """The last few decoded files: a history walk reuses each commit's files once, for its child."""

    def __init__(self, size: int = 8):
        self.size = size
        self.items: dict = {}

    def __contains__(self, key) -> bool:
        return key in self.items

    def get(self, key):
        value = self.items.pop(key)
        self.items[key] = value
        return value

    def put(self, key, value) -> None:
        self.items[key] = value
        while len(self.items) > self.size:
            del self.items[next(iter(self.items))]


class GitSnapshot(Snapshot):
    """A commit or the index, read through git; decoded files and documents are shared by blob id."""

    def __init__(self, ws, repo, label: str, listing: dict[str, str], cache: dict):
        prefix = repo.prefix
        files = {path[len(prefix):]: sha for path, sha in listing.items() if path.startswith(prefix)}
        super().__init__(ws, label, files)
        self.repo = repo
        self.cache = cache  # shared by the snapshots of one run: documents by (blob id, kind, path)...
        self._decoded = cache.setdefault("decoded", _Recent())  # ...and the last few decoded files

    def _cache_key(self, relpath: str, what: str):
        return (self.files.get(relpath), what)

    def prefetch(self, relpaths: Iterable[str]) -> None:
        self.repo.read_blobs([self.files[p] for p in relpaths if self.files.get(p)])

    def raw(self, relpath: str) -> bytes | None:
        sha = self.files.get(relpath)
        if sha is None:
            return None
        return self.repo.read_blobs([sha]).get(sha)

    def document(self, relpath: str) -> Document | None:
        sha = self.files.get(relpath)
        role = self.roles.get(relpath)
        if sha is None or role is None:
            return None
        key = (sha, role.kind.name, relpath)
        if key not in self.cache:
            raw = self.raw(relpath)
            if raw is None:
                return None
            self.cache[key] = load(self.ws.root, relpath, role.kind, raw)
        return self.cache[key]


class WorktreeSnapshot(Snapshot):
    """The working tree as memwarden sees it, including fixes not yet written."""

    def __init__(self, ws, repo, label: str = "the working tree"):
        listed = set(repo.worktree_files(repo.prefix)) if repo is not None else set()
        prefix = repo.prefix if repo is not None else ""
        files = {p[len(prefix):] for p in listed if p.startswith(prefix)}
        files |= {p for p in ws.files}
        files |= set(ws.overlay)
        # git keeps a symlink as a link, not the file it names: here too it holds no memory
        present = {
            p: None for p in files
            if p in ws.overlay or ((ws.root / p).is_file() and not (ws.root / p).is_symlink())
        }
        super().__init__(ws, label, present)
        self._raw: dict[str, bytes | None] = {}

    def raw(self, relpath: str) -> bytes | None:
        if relpath not in self._raw:
            self._raw[relpath] = self.ws.current_bytes(relpath) if relpath in self.files else None
        return self._raw[relpath]

    def signature(self, relpath: str) -> str | None:
        if self.files.get(relpath) is None and relpath in self.files:
            raw = self.raw(relpath)
            self.files[relpath] = blob_id(raw) if raw is not None else None
        return self.files.get(relpath)

    def document(self, relpath: str) -> Document | None:
        role = self.roles.get(relpath)
        if role is None:
            return None
        if self.ws.kind_of(relpath) is role.kind:
            return self.ws.document(relpath)  # parsed once for every rule, and sees pending fixes
        return super().document(relpath)


def blob_id(data: bytes) -> str:
    """The id git gives these bytes as a blob (`git hash-object`)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()  # noqa: S324 - git's id, not security


class EmptySnapshot(Snapshot):
    """Before the first commit: nothing to lose."""

    def __init__(self, ws, label: str = "the empty tree"):
        super().__init__(ws, label, {})

    def raw(self, relpath: str) -> bytes | None:
        return None


# -- what a comparison finds ----------------------------------------------------


@dataclass
class Loss:
    rule: str  # deleted-record, rewritten-record, deleted-note
    key: str  # the record's identity, the same in every comparison (history uses it)
    path: str  # where the finding points (workspace-relative)
    line: int
    column: int
    message: str
    json_path: str | None = None
    restore: Any = None  # what the fix puts back


@dataclass
class JsonRecord:
    path: str
    line: int
    column: int
    source: str  # its text on the line
    data: Any
    archived_file: bool
    associations_file: bool

    def identity(self, field_name: str) -> str | None:
        if isinstance(self.data, dict):
            value = self.data.get(field_name)
            if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value):
                return str(value)
        return None

    @property
    def is_association(self) -> bool:
        return isinstance(self.data, dict) and "src" in self.data and "dst" in self.data and (
            self.associations_file or "type" in self.data
        )


def _canonical(value) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


_DECODER = json.JSONDecoder()


def _line_values(line: str) -> list[tuple[int, int, Any]]:
    """(start, end, value) of each JSON value on a line, up to the first that does not parse.

    A line nested deeper than any memory record is not a record (unparsable-file reports it).
    """
    if depth_exceeds(line, MAX_DEPTH):
        return []
    values = []
    i, n = 0, len(line)
    while i < n:
        while i < n and line[i] in " \t\r":
            i += 1
        if i >= n:
            break
        try:
            value, end = _DECODER.raw_decode(line, i)
        except (ValueError, RecursionError):
            break
        values.append((i, end, value))
        i = end
    return values


def _split_lines(text: str) -> list[tuple[int, str]]:
    """(1-based number, stripped text) of each line that holds something."""
    return [(number, stripped) for number, line in enumerate(text.split("\n"), 1) if (stripped := line.strip())]


_CHUNK = 1 << 16


def _common_prefix(a: str, b: str) -> int:
    """Length of the common start of two texts, compared a chunk at a time (C speed)."""
    n = min(len(a), len(b))
    i = 0
    while i < n:
        j = min(i + _CHUNK, n)
        if a[i:j] != b[i:j]:
            while a[i] == b[i]:
                i += 1
            return i
        i = j
    return n


def _common_suffix(a: str, b: str, limit: int) -> int:
    """Length of the common end of two texts, at most limit."""
    la, lb = len(a), len(b)
    i = 0
    while i < limit:
        j = min(i + _CHUNK, limit)
        if a[la - j : la - i] != b[lb - j : lb - i]:
            while a[la - 1 - i] == b[lb - 1 - i]:
                i += 1
            return i
        i = j
    return limit


def _differing_lines(old: str, new: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """The middle spans of whole lines in which two texts differ; the lines around them are the same."""
    prefix = _common_prefix(old, new)
    suffix = _common_suffix(old, new, min(len(old), len(new)) - prefix)
    start = old.rfind("\n", 0, prefix) + 1  # the same offset in new: the prefix is common
    old_end, new_end = len(old) - suffix, len(new) - suffix
    # The common end must start a line in both texts; if not, it starts after its first newline.
    if not all(end == 0 or text[end - 1] == "\n" for text, end in ((old, old_end), (new, new_end))):
        newline = old.find("\n", old_end)
        skip = (newline + 1 - old_end) if newline != -1 else suffix
        old_end, new_end = old_end + skip, new_end + skip
    return (start, max(start, old_end)), (start, max(start, new_end))


def _lines_between(text: str, start: int, end: int, relpath: str) -> list[tuple[str, int, str]]:
    """(path, 1-based number, stripped text) of the non-blank lines in text[start:end]."""
    if start >= end:
        return []
    first = text.count("\n", 0, start) + 1
    return [(relpath, first + offset, stripped)
            for offset, line in enumerate(text[start:end].split("\n")) if (stripped := line.strip())]


def _holds_line(text: str, line: str) -> bool:
    """Whether text has a line that is exactly this one once stripped."""
    at = text.find(line)
    while at != -1:
        line_start = text.rfind("\n", 0, at) + 1
        line_end = text.find("\n", at + len(line))
        line_end = len(text) if line_end == -1 else line_end
        if not text[line_start:at].strip() and not text[at + len(line) : line_end].strip():
            return True
        at = text.find(line, at + 1)
    return False


def _records_on(line: str, relpath: str, number: int, role: "FileRole") -> list[JsonRecord]:
    return [
        JsonRecord(relpath, number, start + 1, line[start:end], value, role.archived, role.associations)
        for start, end, value in _line_values(line)
    ]


# Printable ASCII that JSON writes as itself (no quote, backslash or slash, which may be escaped).
_VERBATIM_RUN = re.compile(r"[\x20\x21\x23-\x2e\x30-\x5b\x5d-\x7e]+")
MIN_NEEDLE = 6
SEARCH_BUDGET = 512 * 1024 * 1024  # characters scanned by str.find before reading every line is cheaper


def _strings(value, depth=0):
    if isinstance(value, str):
        yield value
    elif depth < MAX_DEPTH and isinstance(value, dict):
        for item in value.values():
            yield from _strings(item, depth + 1)
    elif depth < MAX_DEPTH and isinstance(value, list):
        for item in value:
            yield from _strings(item, depth + 1)


def _needles(record: JsonRecord, ignored: set[str]) -> set[str] | None:
    """Text that any line holding this record, or its rewritten self, must contain; None if there is none."""
    data = record.data
    if not isinstance(data, dict):
        return None
    needles: set[str] = set()
    identities = [record.identity("id"), record.identity("fingerprint")]
    if record.is_association:
        identities += [side.get("id") for side in (data.get("src"), data.get("dst")) if isinstance(side, dict)]
    for value in identities:
        if isinstance(value, str) and _VERBATIM_RUN.fullmatch(value):
            needles.add(value)
    # For a match by content alone: the longest verbatim run of its strings (mutable fields may differ).
    kept = {k: v for k, v in data.items() if k not in ignored}
    runs = [run for text in _strings(kept) for run in _VERBATIM_RUN.findall(text)]
    longest = max(runs, key=len, default="")
    if len(longest) < MIN_NEEDLE:
        return None
    needles.add(longest)
    return needles


def _lines_mentioning(texts: dict[str, str], records: list[JsonRecord], ignored: set[str]):
    """(path, line number, stripped line) of every line holding a needle of the records; None: read them all."""
    needles: set[str] = set()
    for record in records:
        found = _needles(record, ignored)
        if found is None:
            return None
        needles |= found
    if len(needles) * sum(len(text) for text in texts.values()) > SEARCH_BUDGET:
        return None
    hits = []
    for relpath, text in texts.items():
        starts: dict[int, int] = {}
        for needle in needles:
            at = text.find(needle)
            while at != -1:
                start = text.rfind("\n", 0, at) + 1
                end = text.find("\n", at)
                end = len(text) if end == -1 else end
                starts.setdefault(start, end)
                at = text.find(needle, end)
        number, counted_to = 1, 0
        for start, end in sorted(starts.items()):
            number += text.count("\n", counted_to, start)
            counted_to = start
            hits.append((relpath, number, text[start:end].strip()))
    return hits


class Comparison:
    """What the base held that the current state lost."""

    def __init__(self, ws, base: Snapshot, current: Snapshot, mutable_fields: Iterable[str]):
        self.ws = ws
        self.base = base
        self.current = current
        self.mutable = tuple(mutable_fields)
        self.ignored = set(self.mutable) | set(ARCHIVE_MARKERS)
        self.gish = ws.profile.name == "ghost-in-shell"
        self.current_errors: dict[str, str] = {}
        self.moved_notes: dict[str, str] = {}  # base path -> where the note lives now
        self.archived_notes: set[str] = set()
        self._same: dict[str, bool] = {}

    @property
    def at(self) -> str:
        return f"at {self.base.label}"

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

    def _why_unreadable(self, relpath: str) -> str:
        reason = self.current_errors.get(relpath)
        return f" ({relpath} cannot be read now: {reason})" if reason else ""

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
                candidates += _lines_between(old, 0, len(old), relpath)
                continue
            (old_start, old_end), (new_start, new_end) = _differing_lines(old, new)
            candidates += _lines_between(old, old_start, old_end, relpath)
            fresh += _lines_between(new, new_start, new_end, relpath)
        if not candidates:
            return []
        for relpath, text in texts.items():
            if relpath not in self.base.files:
                fresh += _lines_between(text, 0, len(text), relpath)

        total = sum(len(text) for text in texts.values())
        if len(candidates) * total <= SEARCH_BUDGET:
            def still_there(line: str) -> bool:
                return any(_holds_line(text, line) for text in texts.values())
        else:
            line_sets = [self.current.line_set(relpath) for relpath in texts]

            def still_there(line: str) -> bool:
                return any(line in lines for lines in line_sets)

        suspects: list[JsonRecord] = []
        for relpath, number, line in candidates:
            if not still_there(line):  # a line found byte for byte elsewhere was moved or reordered
                suspects.extend(_records_on(line, relpath, number, self.base.roles[relpath]))
        if not suspects:
            return []

        candidate_lines = {line for _, _, line in candidates}
        index = _RecordIndex(self.ignored)
        for relpath, number, line in fresh:
            if line not in candidate_lines:
                index.add_all(_records_on(line, relpath, number, self.current.roles[relpath]))
        missing = [record for record in suspects if not index.has_content(record)]
        if missing:
            # Then every line that mentions what is still missing (its id, fingerprint, a distinctive
            # string): a moved duplicate, or the same id rewritten. All lines only if that is cheaper.
            mentioned = _lines_mentioning(texts, missing, self.ignored)
            if mentioned is None:
                mentioned = ((p, n, line) for p, text in texts.items() for n, line in _split_lines(text))
            for relpath, number, line in mentioned:
                index.add_all(_records_on(line, relpath, number, self.current.roles[relpath]))
        losses = []
        for record in suspects:
            loss = self._record_loss(record, index)
            if loss is not None:
                losses.append(loss)
        return losses

    def _record_loss(self, record: JsonRecord, index: "_RecordIndex") -> Loss | None:
        if index.has_content(record):
            return None
        what = self._describe_record(record)
        where = f"line {record.line} {self.at}"
        if record.is_association:
            if index.has_association(record):
                return None
            return Loss(
                "deleted-record",
                "association:" + _digest(_association_key(record.data)),
                record.path,
                record.line,
                record.column,
                f"{what} ({where}) was deleted, not archived: mark it \"archived\": true instead"
                + self._why_unreadable(record.path),
                restore=record,
            )
        rewritten = index.same_identity(record)
        if rewritten is not None:
            changed_path = _first_difference(record.data, rewritten.data, self.ignored)
            where_now = f"{rewritten.path} line {rewritten.line}"
            allowed = ", ".join(self.mutable) if self.mutable else "none"
            return Loss(
                "rewritten-record",
                self._record_key(record),
                rewritten.path,
                rewritten.line,
                rewritten.column,
                f"{what} was rewritten in place since {self.base.label}: "
                f"{format_json_path(changed_path)} changed (fields the memory system updates may change: {allowed}); "
                "keep the original and log a new episode that corrects it",
                json_path=format_json_path(changed_path),
            )
        marker = '"decay_status": "archived"' if self.gish else '"archived": true'
        archive = "memory/_archive/"
        return Loss(
            "deleted-record",
            self._record_key(record),
            record.path,
            record.line,
            record.column,
            f"{what} ({where}) was deleted{' from the archive' if record.archived_file else ''} and is in no "
            f"log or archive now: archive it instead (move the line to {archive} or set {marker})"
            + self._why_unreadable(record.path),
            restore=record,
        )

    def _record_key(self, record: JsonRecord) -> str:
        for name in ("id", "fingerprint"):
            value = record.identity(name)
            if value is not None:
                return f"record:{name}:{value}"
        return "record:content:" + _digest(_content_key(record.data, self.ignored))

    @staticmethod
    def _describe_record(record: JsonRecord) -> str:
        if record.is_association:
            src, dst = record.data.get("src"), record.data.get("dst")

            def node(value):
                if isinstance(value, dict):
                    return f"{value.get('kind', '?')}:{value.get('id', '?')}"
                return "?"

            kind = record.data.get("type")
            kind = f" ({kind})" if isinstance(kind, str) and re.fullmatch(r"[\w-]{1,40}", kind) else ""
            return f"association {node(src)} -> {node(dst)}{kind}"
        episode_id = record.identity("id")
        if episode_id is not None and len(episode_id) <= 80:
            return f"episode '{episode_id}'"
        fingerprint = record.identity("fingerprint")
        if fingerprint is not None:
            return f"episode with fingerprint {fingerprint[:12]}"
        return "the record"

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
            for entry in _fact_entries(doc.data):
                for depth in range(1, len(entry.path) + 1):
                    present.add(entry.path[:depth])
                if whole_file_archived or entry.archived:
                    for start in range(len(entry.path)):
                        tail = entry.path[start:]
                        archived_with_value.add((tail, entry.value))
                        if len(tail) >= 2:
                            archived_paths.add(tail)
        losses = []
        for relpath in changed:
            doc = self.base.document(relpath)
            if doc is None or not doc.ok:
                continue
            for entry in _fact_entries(doc.data):
                if entry.path in present:
                    continue
                tails = [entry.path[start:] for start in range(len(entry.path))]
                if any((tail, entry.value) in archived_with_value or tail in archived_paths for tail in tails):
                    continue
                shown = format_json_path(entry.display)
                line, column = doc.locate(entry.display)
                advice = "move it under 'archive:'" if self.gish else "keep it and mark it archived: true"
                losses.append(
                    Loss(
                        "deleted-record",
                        f"fact:{_digest(_canonical([str(p) for p in entry.path]))}",
                        relpath,
                        line,
                        column,
                        f"fact {shown} (line {line} {self.at}) was deleted, not archived: {advice}"
                        + self._why_unreadable(relpath),
                        json_path=shown,
                        restore=_FactRestore(relpath, entry, doc),
                    )
                )
        return losses

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
        losses = []
        by_target: dict[str, list[_IndexEntry]] = {}
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
                    Loss(
                        "deleted-record",
                        f"index:{target}:{_digest(_canonical(list(entry.triggers)))}",
                        entry.path,
                        entry.line,
                        entry.column,
                        f"index entry for {target} (line {entry.line} {self.at}) was deleted: keep it, move it to "
                        "a shelf index, or archive the note it points to" + self._why_unreadable(entry.path),
                        restore=entry,
                    )
                )
        return losses

    def _index_entries(self, snapshot: Snapshot, relpaths: list[str]) -> list["_IndexEntry"]:
        entries = []
        for relpath in relpaths:
            doc = snapshot.document(relpath)
            if doc is None or not doc.ok or not hasattr(doc, "entries"):
                if snapshot is self.current and doc is not None and doc.error is not None:
                    self.current_errors[relpath] = doc.error.message
                continue
            role = snapshot.roles[relpath]
            base_dir = posixpath.dirname(relpath)
            if not role.archived:
                base_dir = self.ws.profile.index_link_base.get(role.kind.name, base_dir)
            for entry in doc.entries:
                link = entry.link
                if link is None:
                    continue
                target = _resolve_link(base_dir, link.target)
                entries.append(
                    _IndexEntry(
                        relpath, entry.line, entry.column, target, tuple(t.text for t in entry.triggers),
                        doc.line_text(entry.line), [l.target for l in entry.links], base_dir,
                    )
                )
        return entries

    # -- notes -----------------------------------------------------------------------
    def _notes(self, changed: list[str]) -> list[Loss]:
        candidates = [p for p in self.current.paths("notes") if not self.unchanged(p)]
        self.current.prefetch(candidates)
        self.current.prefetch(p for p in changed if p in self.current.files)
        shapes = {p: _NoteShape.of(self.current, p) for p in candidates}
        losses = []
        for relpath in changed:
            base_shape = _NoteShape.of(self.base, relpath)
            if base_shape is None or not base_shape.text.strip():
                continue  # an empty or unreadable note held nothing
            role = self.base.roles[relpath]
            emptied = False
            if relpath in self.current.files:
                now = shapes.get(relpath) or _NoteShape.of(self.current, relpath)
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
            if emptied:
                message = (
                    f"note emptied since {self.base.label}: its content is gone; archive it instead "
                    f"(move it into {self._archive_dir()}/)"
                )
            else:
                which = "archived note" if role.archived else "note"
                message = (
                    f"{which} deleted since {self.base.label} and found nowhere now: archive it instead "
                    f"(git mv it into {self._archive_dir()}/)"
                )
            losses.append(
                Loss("deleted-note", f"note:{relpath}", relpath, 1, 1, message, restore=base_shape)
            )
        return losses

    def _archive_dir(self) -> str:
        return archive_root(self.ws)

    def _find_note(self, relpath: str, shape: "_NoteShape", shapes: dict, exclude: str) -> str | None:
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
            if best is None and shape.similarity(other) >= NOTE_SIMILARITY:
                best = candidate
        return best


class _RecordIndex:
    """The current records by id, fingerprint, content and association key."""

    def __init__(self, ignored: set[str]):
        self.ignored = ignored
        self.contents: set[str] = set()
        self.by_id: dict[str, JsonRecord] = {}
        self.by_fingerprint: dict[str, JsonRecord] = {}
        self.associations: set[str] = set()
        self._keys: dict[int, str] = {}

    def content_of(self, record: JsonRecord) -> str:
        key = self._keys.get(id(record))
        if key is None:
            key = self._keys[id(record)] = _content_key(record.data, self.ignored)
        return key

    def add_all(self, records: list[JsonRecord]) -> None:
        for record in records:
            self.add(record)

    def add(self, record: JsonRecord) -> None:
        self.contents.add(_content_key(record.data, self.ignored))
        for name, table in (("id", self.by_id), ("fingerprint", self.by_fingerprint)):
            value = record.identity(name)
            if value is not None:
                table.setdefault(value, record)
        if record.is_association:
            self.associations.add(_association_key(record.data))

    def has_content(self, record: JsonRecord) -> bool:
        return self.content_of(record) in self.contents

    def has_association(self, record: JsonRecord) -> bool:
        return _association_key(record.data) in self.associations

    def same_identity(self, record: JsonRecord) -> JsonRecord | None:
        for name, table in (("id", self.by_id), ("fingerprint", self.by_fingerprint)):
            value = record.identity(name)
            if value is not None and value in table:
                return table[value]
        return None


def _comparable(data, ignored):
    """A record as compared for rewrites: mutable fields dropped, tags in normal form
    (so the unnormalized-tags fix is not a rewrite)."""
    if not isinstance(data, dict):
        return data
    kept = {k: v for k, v in data.items() if k not in ignored}
    if isinstance(kept.get("tags"), list):
        kept["tags"] = normalized_tags(kept["tags"])
    return kept


def _content_key(data, ignored) -> str:
    return _canonical(_comparable(data, ignored))


def _association_key(data: dict) -> str:
    return _canonical([data.get("src"), data.get("dst"), data.get("type")])


def _first_difference(before, after, ignored) -> tuple:
    if not isinstance(before, dict) or not isinstance(after, dict):
        return ()
    before, after = _comparable(before, ignored), _comparable(after, ignored)
    for key in list(before) + [k for k in after if k not in before]:
        if key in ignored:
            continue
        if _canonical(before.get(key)) != _canonical(after.get(key)) or (key in before) != (key in after):
            return (key,)
    return ()


# -- fact entries ----------------------------------------------------------------


@dataclass(frozen=True)
class _Item:
    """A list item in a fact path, known by its value (or its mapping's id), not its position."""

    identity: str

    def __str__(self) -> str:
        return f"[{self.identity}]"


@dataclass
class _FactEntry:
    path: tuple  # str keys and _Item list items
    display: tuple  # the same with list positions, for JSON paths and lines
    value: str  # canonical JSON of the value
    raw: Any
    archived: bool  # inside 'archive:' or under a mapping marked archived: true


def _item_identity(item) -> str:
    if isinstance(item, dict):
        for name in IDENTITY_FIELDS:
            value = item.get(name)
            if isinstance(value, (str, int)) and not isinstance(value, bool):
                return f"{name}={value}"
        return _canonical({k: v for k, v in item.items() if k != "archived"})
    return _canonical(item)


def _fact_entries(data, path=(), display=(), archived=False, top=True):
    """Every leaf of a facts file; a list item is one leaf (a rule, a tag, a mapping with an id)."""
    if isinstance(data, dict):
        archived = archived or data.get("archived") is True
        if not data and not top:
            yield _FactEntry(path, display, "{}", data, archived)
        for key, value in data.items():
            inside = archived or (top and key == "archive")
            yield from _fact_entries(value, path + (key,), display + (key,), inside, False)
    elif isinstance(data, list):
        if not data:
            yield _FactEntry(path, display, "[]", data, archived)
        for position, item in enumerate(data):
            item_archived = archived or (isinstance(item, dict) and item.get("archived") is True)
            yield _FactEntry(path + (_Item(_item_identity(item)),), display + (position,), _canonical(item), item,
                             item_archived)
    elif not top:
        yield _FactEntry(path, display, _canonical(data), data, archived)


@dataclass
class _FactRestore:
    relpath: str
    entry: _FactEntry
    doc: Document


# -- index entries ----------------------------------------------------------------


@dataclass
class _IndexEntry:
    path: str
    line: int
    column: int
    target: str
    triggers: tuple
    source: str  # the whole line
    raw_targets: list
    base_dir: str


_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def _resolve_link(base_dir: str, target: str) -> str:
    target = target.strip().strip("<>")
    if _SCHEME.match(target):
        return target
    target = unquote(target.split("#", 1)[0].split("?", 1)[0])
    if not target:
        return base_dir
    if target.startswith("/"):
        return posixpath.normpath(target.lstrip("/"))
    return posixpath.normpath(posixpath.join(base_dir, target))


# -- notes ------------------------------------------------------------------------


@dataclass
class _NoteShape:
    relpath: str
    text: str
    body: str  # without front matter, newlines normalised, stripped
    normalized: str
    lines: Counter

    @classmethod
    def of(cls, snapshot: Snapshot, relpath: str) -> "_NoteShape | None":
        text, _ = snapshot.text(relpath)
        if text is None:
            return None
        normalized = text.replace("\r\n", "\n").replace("\r", "\n")
        body = _strip_front_matter(normalized).strip()
        lines = Counter(line.strip() for line in normalized.split("\n") if line.strip())
        return cls(relpath, text, body, normalized.strip(), lines)

    def similarity(self, other: "_NoteShape") -> float:
        total = max(sum(self.lines.values()), sum(other.lines.values()))
        if not total:
            return 0.0
        return sum((self.lines & other.lines).values()) / total


def _strip_front_matter(text: str) -> str:
    if not text.startswith("---"):
        return text
    lines = text.split("\n")
    if lines[0].rstrip() != "---":
        return text
    for number in range(1, len(lines)):
        if lines[number].rstrip() in ("---", "..."):
            return "\n".join(lines[number + 1 :])
    return text


# -- restoring what was lost (the unsafe fix) ---------------------------------------


def archive_root(ws) -> str:
    return "_archive" if ws.profile.name == "claude-code" else "memory/_archive"


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

    def build(self, losses: list[Loss]) -> Fix | None:
        records = [l.restore for l in losses if isinstance(l.restore, JsonRecord)]
        facts = [l.restore for l in losses if isinstance(l.restore, _FactRestore)]
        entries = [l.restore for l in losses if isinstance(l.restore, _IndexEntry)]
        notes = [l.restore for l in losses if isinstance(l.restore, _NoteShape)]
        self._records([r for r in records if not r.is_association], "episodes")
        self._records([r for r in records if r.is_association], "associations")
        self._facts(facts)
        self._index(entries)
        self._notes(notes)
        if not self.edits:
            return None
        noun = "record" if self.count == 1 else "records"
        where = ", ".join(self.files[:4]) + (f" and {len(self.files) - 4} more" if len(self.files) > 4 else "")
        return Fix(
            Applicability.UNSAFE,
            f"restore the {self.count} deleted {noun} from {self.label}, marked archived, into {where}",
            tuple(self.edits),
        )

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
        from memwarden.documents.base import detect_newline

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
    def _facts(self, restores: list[_FactRestore]) -> None:
        if not restores:
            return
        by_file: dict[str, list[_FactRestore]] = {}
        for item in restores:
            by_file.setdefault(item.relpath, []).append(item)
        blocks: dict[str, list[tuple[str, list[_FactRestore]]]] = {}  # target -> [(source file, items)]
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
            return
        names = _unique_names(stamp, data, groups, target)
        lines = []
        for (source, items), name in zip(groups, names):
            lines.append(_yaml_key(name) + ":")
            lines.append("  archived: true")
            lines += _render_facts(items, 1)
        self._append(target, text, newline, lines, count)

    # -- index entries -------------------------------------------------------------------
    def _index(self, entries: list[_IndexEntry]) -> None:
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
                resolved = _resolve_link(entry.base_dir, raw)
                if _SCHEME.match(resolved):
                    continue
                moved = posixpath.relpath(resolved, folder or ".")
                line = line.replace(f"]({raw}", f"]({moved}").replace(f"](<{raw}>", f"](<{moved}>")
            lines.append(line)
        self._append(relpath, text, newline, lines, len(entries))

    # -- notes -------------------------------------------------------------------------------
    def _notes(self, notes: list[_NoteShape]) -> None:
        root = archive_root(self.ws)
        for note in notes:
            inner = note.relpath[len("memory/"):] if note.relpath.startswith("memory/") else note.relpath
            if inner.startswith(root.split("/")[-1] + "/"):
                inner = inner.split("/", 1)[1]  # an archived note: keep its place in the archive
            target = f"{root}/notes/{inner}"
            found = self._free_path(target, usable=lambda p: self.ws.current_bytes(p) is None)
            if found is None:
                continue
            relpath = found[0]
            self.edits.append(Edit(0, 0, note.text, path=relpath))
            self.files.append(relpath)
            self.count += 1


def _kind_path(ws, kind_name: str) -> str | None:
    kind = ws.profile.kind(kind_name)
    if kind is None:
        return None
    for glob in kind.globs:
        if not any(c in glob for c in "*?["):
            return glob
    return None


def _mark_json(source: str, data, key: str, value: str) -> str:
    """The record's own text with one top-level key set (archived marker), everything else as written."""
    if not isinstance(data, dict):
        return source
    from memwarden.documents.jsonl import JsonPositions

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


_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
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


def _render_facts(items: list[_FactRestore], level: int, indent: int | None = None) -> list[str]:
    """Block YAML for the lost entries of one facts file, nested as they were."""
    tree: dict = {}
    for item in items:
        node = tree
        path = item.entry.path
        last = path[-1]
        parents = path[:-1]
        if not parents and isinstance(last, _Item):
            parents = ("items",)  # a file whose root is a list: its items go under 'items'
        for part in parents:
            node = node.setdefault(("key", part), {})
        if isinstance(last, _Item):
            node.setdefault(("items",), []).append(item.entry.raw)
        else:
            node[("leaf", last)] = item.entry.raw
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


# -- running a comparison for a check ------------------------------------------------


@dataclass
class Analysis:
    label: str
    losses: list[Loss]
    staged: bool
    restored_in_worktree: set[str] = field(default_factory=set)
    fix: Fix | None = None


_cache: dict[str, tuple] = {}


def mutable_fields(ws) -> list[str]:
    value = ws.config.rules.get("rewritten-record", {}).get("mutable_fields", DEFAULT_MUTABLE_FIELDS)
    return [str(v) for v in value]


def open_repo(ws, why: str):
    from memwarden.git import GitError, Repo

    try:
        repo = Repo.discover(ws.root)
    except GitError as error:
        raise UsageError(f"{why} needs git: {error}") from None
    if repo is None:
        raise UsageError(f"{why} compares with git history, but {ws.root} is not inside a git working tree")
    return repo


def resolve_base(repo, ref: str) -> tuple[str, str]:
    """(commit, label) to compare with for --base REF: its merge base with HEAD, like `git diff REF...`."""
    if ref.startswith("-"):
        raise UsageError(f"--base {ref!r}: a ref cannot start with '-'")
    sha = repo.resolve(ref)
    if sha is None and not repo.has_head():
        raise UsageError(f"--base {ref}: no such commit: this repository has no commit yet")
    if sha is None:
        shallow = " This clone is shallow." if repo.is_shallow() else ""
        raise UsageError(
            f"--base {ref}: no such commit in this repository.{shallow} CI checkouts are often shallow or fetch "
            "one branch only: fetch more history first (`git fetch --unshallow`, or `git fetch origin "
            "<branch>`; with GitHub's actions/checkout set `fetch-depth: 0`)"
        )
    if not repo.has_head():
        return sha, ref
    base = repo.merge_base(sha, "HEAD")
    if base is None:
        if repo.is_shallow():
            raise UsageError(
                f"--base {ref}: cannot find where HEAD forked from it, because this clone is shallow: fetch "
                "more history (`git fetch --unshallow`; with actions/checkout set `fetch-depth: 0`)"
            )
        return sha, ref  # unrelated histories: compare with the ref itself
    if base == sha:
        return sha, ref
    return base, f"{ref} (merge base {repo.short(base)})"


def analysis_for(ctx) -> Analysis | None:
    base_ref, staged = ctx.base, ctx.staged
    if not base_ref and not staged:
        return None
    ws = ctx.workspace
    fields = mutable_fields(ws)
    overlay = tuple(sorted((p, hash(b)) for p, b in ws.overlay.items()))
    key = (id(ws), base_ref, staged, overlay, tuple(fields), ctx.today)
    cached = _cache.get("last")
    if cached is not None and cached[0] == key and cached[1] is ws:
        return cached[2]
    from memwarden.git import GitError

    flag = "--staged" if staged and not base_ref else "--base"
    repo = open_repo(ws, flag)
    cache: dict = {}
    try:
        if base_ref:
            sha, label = resolve_base(repo, base_ref)
            base = GitSnapshot(ws, repo, label, repo.tree_files(sha, repo.prefix), cache)
        elif repo.has_head():
            base = GitSnapshot(ws, repo, "HEAD", repo.tree_files("HEAD", repo.prefix), cache)
        else:
            base = EmptySnapshot(ws, "the empty tree (no commit yet)")
        if staged:
            current = GitSnapshot(ws, repo, "the index", repo.index_files(repo.prefix), cache)
        else:
            current = WorktreeSnapshot(ws, repo)
        losses = Comparison(ws, base, current, fields).losses() if base.files else []
        analysis = Analysis(base.label, losses, staged)
        if losses and staged:
            # The fix writes the working tree: what is back there already needs only `git add`.
            worktree = WorktreeSnapshot(ws, repo)
            if not _same_files(current, worktree):
                in_worktree = Comparison(ws, base, worktree, fields).losses()
                still_lost = {loss.key for loss in in_worktree}
                analysis.restored_in_worktree = {loss.key for loss in losses if loss.key not in still_lost}
        restorable = [
            loss for loss in losses
            if loss.rule != "rewritten-record" and loss.key not in analysis.restored_in_worktree
        ]
        if restorable:
            analysis.fix = Restorer(ws, base.label, ctx.today).build(restorable)
            if analysis.fix is not None and staged:
                analysis.fix = Fix(
                    analysis.fix.applicability,
                    analysis.fix.description + "; the fix writes the working tree: `git add` the restored files",
                    analysis.fix.edits,
                )
    except GitError as error:
        raise UsageError(str(error)) from None
    _cache["last"] = (key, ws, analysis)
    return analysis


def _same_files(a: Snapshot, b: Snapshot) -> bool:
    """Whether two snapshots hold the same memory files, byte for byte (the index and a fully staged tree)."""
    return set(a.files) == set(b.files) and all(a.signature(p) == b.signature(p) for p in a.files)


def problems(ctx, rule_name: str):
    analysis = analysis_for(ctx)
    if analysis is None:
        return
    ws = ctx.workspace
    per_file: Counter = Counter()
    line_counts: dict[str, int] = {}
    for loss in analysis.losses:
        if loss.rule != rule_name:
            continue
        per_file[loss.path] += 1
        if per_file[loss.path] > MAX_LISTED_PER_FILE:
            continue
        yield _problem(ws, analysis, loss, line_counts)
    for relpath, count in sorted(per_file.items()):
        if count > MAX_LISTED_PER_FILE:
            hidden = count - MAX_LISTED_PER_FILE
            what = "rewritten" if rule_name == "rewritten-record" else "lost"
            yield Problem(
                1,
                1,
                f"... and {hidden:,} more {what} record{'s' if hidden != 1 else ''} in this file since "
                f"{analysis.label} (not listed one by one)",
                fix=analysis.fix if rule_name != "rewritten-record" else None,
                path=relpath,
            )


def _problem(ws, analysis: Analysis, loss: Loss, line_counts: dict[str, int]) -> Problem:
    message = loss.message
    fix = analysis.fix if loss.rule != "rewritten-record" else None
    if loss.key in analysis.restored_in_worktree:
        message += "; the working tree has it back: `git add` it"
        fix = None
    if loss.path not in line_counts:
        line_counts[loss.path] = _line_count(ws, loss.path)
    return Problem(
        max(1, min(loss.line, line_counts[loss.path])),
        loss.column if loss.rule == "rewritten-record" else 1,
        message,
        json_path=loss.json_path,
        fix=fix,
        path=loss.path,
    )


def _line_count(ws, relpath: str) -> int:
    """Lines of the file as it is now: a finding about a deleted line points at a line that exists."""
    raw = ws.current_bytes(relpath)
    if raw is None:
        return 1
    return raw.count(b"\n") + (0 if raw.endswith(b"\n") or not raw else 1)


# -- the rules ------------------------------------------------------------------------


@rule(
    code="MW601",
    name="deleted-record",
    severity=Severity.ERROR,
    scope=Scope.WORKSPACE,
    fix=Applicability.UNSAFE,
    needs_git=True,
)
def deleted_record(ctx):
    """An episode, a fact key, an index entry or an association present at the base is gone, and was not archived.

    ## What it does
    With `--staged` (the pre-commit hook) compares what is staged with HEAD;
    with `--base REF` (CI) compares the working tree with REF, or more exactly
    with the commit where HEAD forked from REF, like `git diff REF...`, so
    records added on REF since are not taken for deletions; with both flags,
    compares what is staged with REF. Without either flag it has nothing to
    compare and reports nothing. It reports every record of the base that is
    now nowhere:

    - an episode of the log or its archive (matched by `id`, else
      `fingerprint`, else its exact content once parsed, so reordered lines,
      re-indented records, another key order or CRLF/LF are not deletions);
    - a fact key (by its JSON path; an item of a list by its value, or its
      `id`/`key`/`name`);
    - an index entry (its link target and triggers; moved to a shelf index, or
      its triggers reworded, is kept);
    - an association (by `src`, `dst` and `type`).

    Archiving is not deleting: a record that now lives in an archive file
    (gish `memory/_archive/`, any `_archive`/`archive` folder, a log rotated
    there), carries `archived: true` or `decay_status: archived`, or moved under
    `archive:` in a gish `fact.yml` passes; so does consolidation, which
    archives its sources and links them from the merged entry.

    A line of a log that did not parse at the base is not a record (see
    `unparsable-file`); a file that does not parse now loses its records, and
    the message says why. With file names on the command line only those files
    are reported: the hook and CI run it on the whole workspace.

    ## Why
    An agent's memory is append-only: it is the record of what was decided and
    learned. An agent tidying its own memory, a bad merge, or a consolidation
    script with a bug can drop records without a word, and nothing else would
    notice until the lesson is needed again.

    ## Example
    ```diff
     {"id": "ep_00000001", "title": "Multi-CLI workspace initialized", ...}
    -{"id": "ep_00000002", "title": "Chose shared memory store pattern", ...}
    ```
    `memory/episodic.jsonl:2:1: MW601 deleted-record episode 'ep_00000002' (line 2 at HEAD) was deleted ...`

    ## Fix safety
    Unsafe (opt-in with `--unsafe-fixes`): restores every deleted record from
    the base, marked archived, so nothing is lost: episodes are appended to
    `memory/_archive/restored.jsonl` with `"decay_status": "archived"` (gish)
    or `"archived": true`, associations get `"archived": true`, fact keys go
    back under `archive:` (gish) or under a mapping marked `archived: true`,
    index lines go to `memory/_archive/INDEX_restored.md`. Review the result:
    the deletion may have been meant, and then the archive is where it belongs.
    With `--staged` the fix writes the working tree; `git add` the restored
    files before committing again.
    """
    yield from problems(ctx, "deleted-record")


@rule(
    code="MW602",
    name="rewritten-record",
    severity=Severity.ERROR,
    scope=Scope.WORKSPACE,
    options={
        "mutable_fields": Option(
            DEFAULT_MUTABLE_FIELDS,
            list,
            "top-level episode fields the memory system itself updates, which may change",
        )
    },
    needs_git=True,
)
def rewritten_record(ctx):
    """An existing episode's content was changed in place.

    ## What it does
    Compares like `deleted-record` (`--staged` or `--base REF`) and reports an
    episode that is still there by `id` (or `fingerprint`) but whose content
    changed. The fields the memory system itself updates may change: by
    default `decay_status`, `retrieval`, `quality`, `linked_to` and `archived`
    (gish's decay, recall and consolidation write them) and `expires` (a
    re-verified claim gets a new date). Set the list under
    `[tool.memwarden.rules.rewritten-record] mutable_fields`. Tags are
    compared in normal form, so trimming, lower-casing and de-duplicating
    them is not a rewrite.

    ## Why
    An episode is what happened, as it was understood then. Rewriting it
    erases the history of a decision; a correction belongs in a new episode
    that links to the old one, so both the mistake and the lesson survive.

    ## Example
    ```diff
    -{"id": "ep_00000002", "content": "All four CLIs share one episodic.jsonl.", ...}
    +{"id": "ep_00000002", "content": "Each CLI keeps its own log.", ...}
    ```
    `memory/episodic.jsonl:2:1: MW602 rewritten-record episode 'ep_00000002' was rewritten in place since HEAD: $.content changed ...`

    ## Fix safety
    No fix: keeping both versions under one id would make the id ambiguous.
    Restore the original line yourself and log the correction as a new episode.
    """
    yield from problems(ctx, "rewritten-record")


@rule(
    code="MW603",
    name="deleted-note",
    severity=Severity.ERROR,
    scope=Scope.WORKSPACE,
    fix=Applicability.UNSAFE,
    needs_git=True,
)
def deleted_note(ctx):
    """A note file deleted or emptied instead of archived.

    ## What it does
    Compares like `deleted-record` (`--staged` or `--base REF`) and reports a
    knowledge note (or a note already in an archive folder) that is gone, or
    whose content was emptied. A note moved into an archive folder
    (`memory/_archive/**`, or any `_archive`/`archive` folder) passes, and so
    does a note moved or renamed elsewhere: it is found again by its content,
    its body, its name in the archive, or (like git's rename detection) by
    sharing at least half of its lines.

    ## Why
    A note holds a lesson that cost something to learn, and the index lines
    that point at it are how the agent finds it. Deleting it loses the lesson
    and leaves the index pointing nowhere; archiving it keeps the history.

    ## Example
    ```text
    $ git rm memory/knowledge/feedback/verify-final-state.md
    ```
    `memory/knowledge/feedback/verify-final-state.md:1:1: MW603 deleted-note note deleted since HEAD and found nowhere now ...`

    ## Fix safety
    Unsafe (opt-in with `--unsafe-fixes`): writes the note as it was at the
    base into `memory/_archive/notes/` (`_archive/notes/` for Claude Code),
    so nothing is lost. With `--staged`, `git add` the restored file.
    """
    yield from problems(ctx, "deleted-note")

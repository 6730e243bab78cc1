"""Incremental checking: findings cached per document, per JSONL record and per workspace rule.

Every entry is keyed by what its findings are computed from (the run's settings digest, the
file's path, kind and content, or for a record its line number and bytes) and carries the
*dependencies* its rules were seen to use beyond that while they ran. A rule never declares
what it reads: its context hands it a watched view of the workspace and of the run's memo, so
any read of other files (``ctx.documents``, ``ctx.workspace.files``...) is recorded, and the
entry is reused only while that dependency still has the digest it had. What nothing narrower
describes depends on every file of the workspace (its content hashes, kept by stat), so a new
rule is never served stale findings even when it knows nothing of the cache.
What lies outside the workspace a rule says it read (``ctx.reads_history``, ``ctx.reads_outside``):
the repository's state, or a few files hashed again on every run (an agent's settings, its CLAUDE.md).

A rule that needs a little of every document (the tags in use, the ids, the links) asks
``ctx.summaries(function, *kinds)``: each document's summary is cached by its content, and a
finding that used them depends only on the summaries' digest, not on every byte. A summary function
with a ``raw_filter`` (a test of the bytes) is not even called on a file that fails it.

The entries live in engine/cache/store.py's database; a missing or garbled one is a miss. It never holds a
secret in clear text: messages are stored after the engine hid the file's secrets in them, and
the summary of a file the secrets scan finds anything in is never stored.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Callable

from memwarden.engine.cache.store import Store, digest, key_of, line_digest, unseal

MAX_FILE_DEPS = 64

# Attributes of the workspace a rule may read without depending on other files: they are in the run key.
LOCAL_ATTRIBUTES = frozenset({"profile", "config"})
# Attributes that depend only on which files exist and their kinds, not on what is in them.
NAME_ATTRIBUTES = frozenset({"files", "other_files", "checked_files", "kind_of", "text_kind_of", "same_file_as"})


def content_digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


class Recorder:
    """The dependencies the rules of one unit of work (a document, a record batch, a workspace rule) used."""

    def __init__(self) -> None:
        self.deps: set[tuple] = set()
        self.captures: list[set] = []  # memo values being built: what their building reads

    def add(self, *dep) -> None:
        self.deps.add(tuple(dep))
        for capture in self.captures:
            capture.add(tuple(dep))


class WatchedWorkspace:
    """The workspace as a rule sees it under the cache: every read beyond the run key is a recorded dependency."""

    def __init__(self, workspace, recorder: Recorder):
        object.__setattr__(self, "_ws", workspace)
        object.__setattr__(self, "_recorder", recorder)

    def __getattr__(self, name):
        value = getattr(self._ws, name)
        recorder = self._recorder
        if name in LOCAL_ATTRIBUTES:
            return value
        if name == "root":
            recorder.add("tree")  # a path under it may be looked at on disk: which files exist matters
        elif name == "is_target":
            recorder.add("targets")
        elif name == "overlay":
            return WatchedOverlay(value, recorder)
        elif name in NAME_ATTRIBUTES:
            recorder.add("names")
        elif name in ("document", "current_bytes"):
            def read(relpath, *args, **kwargs):
                recorder.add("file", relpath)
                return value(relpath, *args, **kwargs)

            return read
        elif name == "documents":
            def read_all(*kinds):
                recorder.add("names")
                docs = value(*kinds)
                for doc in docs:
                    recorder.add("file", doc.relpath)
                return docs

            return read_all
        else:
            recorder.add("files")
        return value

    def __setattr__(self, name, value):
        setattr(self._ws, name, value)


class WatchedOverlay:
    """The fixed content not yet written, as a rule reads it: whether a file is there is which files exist (the tree,
    which counts the overlay's), a file's content is that file; anything else is every file."""

    def __init__(self, overlay: dict, recorder: Recorder):
        self._overlay = overlay
        self._recorder = recorder

    def __contains__(self, relpath) -> bool:
        self._recorder.add("tree")
        return relpath in self._overlay

    def get(self, relpath, default=None):
        self._recorder.add("file", relpath)
        return self._overlay.get(relpath, default)

    def __getitem__(self, relpath):
        self._recorder.add("file", relpath)
        return self._overlay[relpath]

    def __setitem__(self, relpath, content) -> None:
        self._overlay[relpath] = content

    def __iter__(self):
        self._recorder.add("files")
        return iter(self._overlay)

    def __len__(self) -> int:
        self._recorder.add("files")
        return len(self._overlay)

    def __getattr__(self, name):
        self._recorder.add("files")
        return getattr(self._overlay, name)


class WatchedMemo:
    """The run's memo: a value shared under a content key (``local=True``) is no dependency. Any other carries
    what building it read, into every unit of work that uses it (or every file, when that is not known)."""

    def __init__(self, memo, recorder: Recorder):
        self._memo = memo
        self._recorder = recorder

    def get(self, key, build, local: bool = False):
        if local:
            return self._memo.get(key, build, local=True)
        built_by: dict = self._memo.__dict__.setdefault("_built_by", {})
        if key in built_by or self._memo.has(key):
            for dep in built_by.get(key, {("files",)}):
                self._recorder.add(*dep)
            return self._memo.get(key, build)
        capture: set = set()
        self._recorder.captures.append(capture)
        try:
            value = self._memo.get(key, build)
        finally:
            self._recorder.captures.remove(capture)
        built_by[key] = capture
        return value


class Incremental:
    """One run's view of the store: the run key, the current digest of each kind of dependency, the summaries."""

    def __init__(self, store: Store, run_key: str, workspace, secrets):
        self.store = store
        self.run_key = run_key
        self.workspace = workspace
        self._file_hashes = store.file_hashes
        self._file_hash = store.file_hash
        self._file_names = store.file_names
        self._forget_hashes = store.forget_hashes
        self._secrets = secrets
        self._current: dict[tuple, str] = {}
        self._valid_sets: dict = {}  # depset reference -> whether it holds now
        self._logs: dict[str, dict] = {}  # a log's stored rows, read once a pass
        self._prefixes: dict[str, tuple] = {}  # a log's unchanged prefix this pass: (bytes, lines, its digest so far)
        self._summaries: dict[tuple, dict] = {}
        self._record_summaries: dict[tuple, dict] = {}
        self._masked_docs: dict = {}  # the one emptied copy of a log the summaries last read
        self._split: tuple = ()  # the bytes of the log last split into lines, and its lines
        self.rules_by_name = {}  # the run's selected rules, by name (cached findings name theirs)
        self.masked: dict[str, bytes] = {}  # a log being checked line by line: its real bytes (summaries read them)

    def new_pass(self) -> None:
        """Forget what was worked out about the files: a fixing round has changed some (in the overlay)."""
        self._forget_hashes()
        self._current.clear()
        self._valid_sets.clear()
        self._logs.clear()
        self._prefixes.clear()
        self._summaries.clear()
        self._record_summaries.clear()
        self._masked_docs = {}
        self._split = ()

    def content_hash(self, relpath: str) -> str | None:
        """The SHA-256 of a file as this pass reads it: a log's real bytes while it is emptied, a fix's result,
        else the hash kept by stat (read only when the stat changed)."""
        raw = self.masked.get(relpath)
        if raw is None:
            raw = self.workspace.overlay.get(relpath)
        if raw is None:
            known = self._file_hash(relpath)
            if known is not None:
                return known
            raw = self.workspace.current_bytes(relpath)
        return content_digest(raw) if raw is not None else None

    # -- keys ---------------------------------------------------------------------------------------
    def document_key(self, relpath: str, kind: str, raw: bytes, part: str) -> str:
        return key_of(self.run_key, "document", part, relpath, kind, content_digest(raw))

    def log_key(self, what: str, relpath: str, kind: str) -> str:
        """The key of a log's rows of ``what`` (the record rules' findings, or one record summary)."""
        return key_of(self.run_key, "log", what, relpath, kind)

    def workspace_rule_key(self, any_targets: bool = False) -> str:
        ws = self.workspace
        named = "any" if any_targets else sorted(ws.targets) if ws.targets is not None else None
        return digest(self.run_key, "workspace-rules", named)

    def log_rows(self, log: str) -> dict[int, tuple]:
        """A log's stored rows ({line: (digest, depset, value text)}), read in one query once a pass."""
        if log not in self._logs:
            self._logs[log] = self.store.log_lines(log)
        return self._logs[log]

    def unchanged_lines(self, log: str, raw: bytes) -> int:
        """How many first lines of a log are the bytes its rows were made from, each row still holding (0: none
        known). Row 0 holds their size, count and one digest of their bytes: a log that only grew is told
        unchanged by one digest, and only its rows past them (and those holding a finding) are read."""
        if log in self._logs or self.store.made_lines(log):
            return 0  # read or written already this run: the rows as they are
        head = self.store.log_row(log, 0)
        sound, kept = unseal(head[2]) if head is not None else (False, None)
        size, count = (kept.get("bytes"), kept.get("lines")) if sound and isinstance(kept, dict) else (None, None)
        if not (isinstance(size, int) and isinstance(count, int) and 0 < size <= len(raw) and 0 < count):
            return 0
        hasher = hashlib.blake2b(memoryview(raw)[:size], digest_size=16)
        if hasher.digest() != head[0]:
            return 0
        groups = self.store.log_head(log, count)
        if sum(rows for _, rows in groups) != count or not all(self.valid_set(depset) for depset, _ in groups):
            return 0
        self._logs[log] = self.store.log_lines(log, after=count)
        self._prefixes[log] = (size, count, hasher)
        return count

    def keep_unchanged_lines(self, log: str, raw: bytes, lines: list[bytes]) -> None:
        """Every line of the log has its row now: keep the digest of the lines that end (:meth:`unchanged_lines`)."""
        count = len(lines) - (not lines[-1].endswith(b"\n")) if lines else 0
        size = len(raw) - (len(lines[-1]) if count < len(lines) else 0)
        known, _, hasher = self._prefixes.get(log, (0, 0, None))
        if count == 0 or size == known:
            return
        if hasher is None or size < known:
            hasher = hashlib.blake2b(memoryview(raw)[:size], digest_size=16)
        else:
            hasher = hasher.copy()
            hasher.update(memoryview(raw)[known:size])
        self.store.put_line(log, 0, hasher.digest(), [], {"bytes": size, "lines": count})

    def line_answer(self, log: str, number: int, line: bytes, found_digest: bytes | None = None):
        """(True, value) when the log's row for this line holds its bytes and its dependencies hold, else (False, None)."""
        row = self.log_rows(log).get(number)
        if row is None or row[0] != (found_digest or line_digest(line)) or not self.valid_set(row[1]):
            return False, None
        return (True, None) if row[2] is None else unseal(row[2])

    def put_line(self, log: str, number: int, line: bytes, recorder_or_deps, value) -> None:
        deps = self.stamped(recorder_or_deps) if isinstance(recorder_or_deps, Recorder) else recorder_or_deps
        if deps is not None:
            row = self.store.put_line(log, number, line_digest(line), deps, value)
            if log in self._logs:
                self._logs[log][number] = row

    # -- dependencies -------------------------------------------------------------------------------
    def current(self, dep: tuple) -> str | None:
        """The digest a dependency has now (None if it cannot be told: the entry is stale)."""
        if dep in self._current:
            return self._current[dep]
        ws = self.workspace
        kind = dep[0]
        value: str | None
        if kind == "names":
            value = digest(sorted((relpath, k.name) for relpath, k in ws.checked_files.items()))
        elif kind == "targets":
            value = digest(sorted(ws.targets) if ws.targets is not None else None)
        elif kind == "file" and len(dep) == 2:
            value = self.content_hash(dep[1]) or "missing"
        elif kind == "git":
            from memwarden.git import repository_state

            value = digest(repository_state(ws.root))
        elif kind == "outside" and len(dep) == 2 and isinstance(dep[1], str):
            value = outside_digest(dep[1])
        elif kind == "resolved" and len(dep) == 2 and isinstance(dep[1], str):
            value = digest(os.path.realpath(dep[1]))
        elif kind == "tree":
            value = digest(sorted({*self._file_names(), *ws.overlay}))
        elif kind == "files":
            hashes = dict(self._file_hashes())
            hashes.update((relpath, content_digest(raw)) for relpath, raw in ws.overlay.items())  # fixed, unwritten
            value = digest(sorted(hashes.items()))
        elif kind == "record-summaries" and len(dep) == 4:
            function, reduce = summary_function(dep[1]), summary_function(dep[3])
            if function is None or (dep[3] and reduce is None):
                value = None
            else:
                result = self.record_summaries(function, dep[2], None, reduce or None)
                value = digest(sorted(result.items()) if isinstance(result, dict) and not dep[3] else result)
        elif kind == "summaries" and len(dep) == 3:
            function = summary_function(dep[1])
            value = None if function is None else self.summaries_digest(function, tuple(dep[2]))
        else:
            value = None
        self._current[dep] = value
        return value

    def valid_set(self, reference) -> bool:
        """Whether a stored dependency set (by its reference) still holds; worked out once a pass."""
        if reference not in self._valid_sets:
            deps = self.store.deps_of(reference)
            self._valid_sets[reference] = deps is not None and self.valid([deps])
        return self._valid_sets[reference]

    def valid(self, entry) -> bool:
        for dep in entry[0]:
            if not isinstance(dep, list) or len(dep) < 2:
                return False
            if self.current(tuple(tuple(p) if isinstance(p, list) else p for p in dep[:-1])) != dep[-1]:
                return False
        return True

    def stamped(self, recorder: Recorder) -> list[tuple]:
        """The recorded dependencies with their digests now (after the work that used them); past
        :data:`MAX_FILE_DEPS` files read, one dependency on every file stands for them (smaller, as safe)."""
        deps = []
        wanted = recorder.deps
        if sum(1 for dep in wanted if dep[0] == "file") > MAX_FILE_DEPS:
            wanted = {dep for dep in wanted if dep[0] != "file"} | {("files",)}
        for dep in wanted:
            value = self.current(dep)
            if value is None:
                return None
            deps.append((*dep, value))
        return deps

    def lookup(self, key: str):
        """A valid entry's (dependencies, value), or None."""
        entry = self.store.get(key)
        if entry is None or not self.valid_set(entry[3]):
            return None
        return entry

    def put(self, key: str, recorder: Recorder, value, kept_deps=(), kind: str = "") -> None:
        """Store a value with what its work read (and the still valid dependencies of what it was merged with)."""
        deps = self.stamped(recorder)
        if deps is not None:
            kept = (tuple(tuple(p) if isinstance(p, list) else p for p in d) for d in kept_deps)
            self.store.put(key, {*deps, *kept}, value, kind)

    # -- summaries ----------------------------------------------------------------------------------
    def summaries(self, function: Callable, kinds: tuple[str, ...], recorder: Recorder | None) -> dict:
        name = register_summary(function)
        kinds = tuple(sorted(kinds))
        if recorder is not None:
            recorder.add("summaries", name, kinds)
        memo_key = (name, kinds)
        if memo_key not in self._summaries:
            self._summaries[memo_key] = self._build_summaries(name, function, kinds)
        return self._summaries[memo_key]

    def summaries_digest(self, function: Callable, kinds: tuple[str, ...]) -> str:
        return digest(sorted(self.summaries(function, kinds, None).items()))

    def _build_summaries(self, name: str, function: Callable, kinds: tuple[str, ...]) -> dict:
        ws = self.workspace
        held = ws.loaded
        result = {}
        facts = key_of(self.run_key, "summary", name)
        stored = self.store.file_rows(facts)  # every file's row of this function, in one query
        for relpath, kind in sorted(ws.files.items()):
            if kinds and kind.name not in kinds:
                continue
            real = self.masked.get(relpath)
            hashed = self.content_hash(relpath)
            row = f"{kind.name} {hashed}" if hashed is not None else None
            if row is not None and stored.get(relpath, ("",))[0] == row:
                sound, value = unseal(stored[relpath][1])
                if sound:
                    result[relpath] = value
                    continue
            if not _passes_raw_filter(function, real if real is not None else ws.current_bytes(relpath)):
                result[relpath] = None
                if row is not None:
                    self.store.put_file_row(facts, relpath, row, None)
                continue
            if real is not None:
                from memwarden.documents import load

                doc = load(ws.root, relpath, kind, real)
            else:
                doc = ws.document(relpath)
            if not _summarized(doc):
                continue
            value = json.loads(json.dumps(function(doc)))  # as stored: lists, never tuples
            result[relpath] = value
            if row is not None and not self._secrets.of(doc):  # a file with a secret: its summary is never stored
                self.store.put_file_row(facts, relpath, row, value)
            if relpath not in held:
                ws.forget(relpath)
        return result


    def lines_of(self, raw: bytes) -> list[bytes] | None:
        """:func:`split_lines` of a log, split once for every unit of this pass that reads the same bytes."""
        held = self._split
        if not (held and (held[0] is raw or held[0] == raw)):
            self._split = held = (raw, split_lines(raw))
        return held[1]

    def _masked_document(self, relpath: str, kind, raw: bytes, lines: list[bytes], misses: list[int]):
        """The log with all but ``misses`` emptied, parsed once for every summary function that reads those lines."""
        from memwarden.documents import load

        held = self._masked_docs
        if not (held.get("key") == (relpath, tuple(misses)) and (held["raw"] is raw or held["raw"] == raw)):
            doc = load(self.workspace.root, relpath, kind, masked(lines, set(misses)))
            self._masked_docs = held = {"key": (relpath, tuple(misses)), "raw": raw, "doc": doc}
        return held["doc"]

    def record_summaries(self, function: Callable, relpath: str, recorder: Recorder | None, reduce=None):
        """``function(doc, profile)`` ({line: value} for a log's records) kept line by line: only changed lines are
        read. With ``reduce``, ``reduce(summaries)``: what depends on it depends on that value only."""
        name = register_summary(function)
        reduced = register_summary(reduce) if reduce is not None else ""
        if recorder is not None:
            recorder.add("record-summaries", name, relpath, reduced)
        memo_key = (name, relpath)
        if memo_key not in self._record_summaries:
            self._record_summaries[memo_key] = self._build_record_summaries(name, function, relpath)
        result = self._record_summaries[memo_key]
        return reduce(result) if result is not None and reduce is not None else result

    def _build_record_summaries(self, name: str, function: Callable, relpath: str) -> dict | None:
        from memwarden.documents import load

        ws = self.workspace
        kind = ws.text_kind_of(relpath)
        raw = self.masked.get(relpath)
        raw = raw if raw is not None else ws.current_bytes(relpath)
        if kind is None or raw is None or not _inside(ws.root, relpath):
            return None  # gone, or a symlink out of the workspace (its document is unreadable, never parsed)
        lines = self.lines_of(raw)
        if lines is None:
            doc = load(ws.root, relpath, kind, raw)
            return plain_lines(function(doc, ws.profile)) if doc.ok else None
        log = self.log_key(f"summary {name}", relpath, kind.name)
        self.store.cut_log(log, len(lines))
        result, misses = {}, []
        for number, line in enumerate(lines, 1):
            answered, value = self.line_answer(log, number, line)
            if not answered or not (value is None or isinstance(value, list) and len(value) == 1):
                misses.append(number)  # (a value not as stored: garbled, read again)
            elif value is not None:
                result[number] = value[0]
        from memwarden.engine.pieces import batches

        for batch in batches(lines, misses):  # a range of the log at a time: a cold store never parses it whole
            values = plain_lines(function(self._masked_document(relpath, kind, raw, lines, batch), ws.profile))
            for number in batch:
                if number in values:
                    result[number] = values[number]
                if not may_hold_secret(json.dumps(values.get(number))):  # one that might quote a secret: never kept
                    self.put_line(log, number, lines[number - 1], (), [values[number]] if number in values else None)
        return dict(sorted(result.items()))


def outside_digest(path: str) -> str:
    """What a file outside the workspace holds, as a rule reads it (``ctx.reads_outside``): a missing or
    unreadable one (a folder, a FIFO) is told apart from an empty one."""
    from memwarden.fileio import MAX_OUTSIDE_BYTES, read_regular

    try:
        return content_digest(read_regular(path, limit=MAX_OUTSIDE_BYTES))
    except (OSError, ValueError):
        return "unreadable"


def _inside(root: Path, relpath: str) -> bool:
    real, base = os.path.realpath(root / relpath), os.path.realpath(root)
    return real.startswith(base.rstrip(os.sep) + os.sep)


def plain_lines(values: dict) -> dict[int, object]:
    """{line: value} as the cache would give it back (values as JSON reads them, lines as numbers)."""
    return {int(line): value for line, value in json.loads(json.dumps({str(k): v for k, v in values.items()})).items()}


def may_hold_secret(text: str) -> bool:
    from memwarden.analysis.secrets.scanner import may_hold_secret as gate

    return gate(text)


_SUMMARY_FUNCTIONS: dict[str, Callable] = {}


def summary_function(name) -> Callable | None:
    """A summary function by the name an entry recorded (one of memwarden's own module-level functions)."""
    if not isinstance(name, str) or not name:
        return None
    if name not in _SUMMARY_FUNCTIONS and name.startswith("memwarden."):
        import importlib

        module, _, attribute = name.rpartition(".")
        try:
            function = getattr(importlib.import_module(module), attribute)
        except (ImportError, AttributeError, ValueError):
            return None
        if callable(function) and register_summary(function) == name:
            return function
    return _SUMMARY_FUNCTIONS.get(name)


def register_summary(function: Callable) -> str:
    name = f"{function.__module__}.{function.__qualname__}"
    _SUMMARY_FUNCTIONS[name] = function
    return name


def summaries_without_cache(workspace, function: Callable, kinds: tuple[str, ...]) -> dict:
    """What :meth:`Incremental.summaries` returns, read from the documents (no cache in this run)."""
    result = {}
    for relpath, kind in sorted(workspace.files.items()):
        if kinds and kind.name not in kinds:
            continue
        if not _passes_raw_filter(function, workspace.current_bytes(relpath)):
            result[relpath] = None
            continue
        doc = workspace.document(relpath)
        if _summarized(doc):
            result[relpath] = json.loads(json.dumps(function(doc)))
    return result


def _summarized(doc) -> bool:
    """Whether a summary reads the document: not when it is missing or unreadable (a symlink to nothing, a folder
    named like a note), which holds no text and none of its kind's parts; unparsable-file reports it."""
    from memwarden.documents.base import UnreadableDocument

    return doc is not None and not isinstance(doc, UnreadableDocument)


def _passes_raw_filter(function: Callable, raw: bytes | None) -> bool:
    """A summary function may name, as ``raw_filter``, a test of a file's bytes: a file failing it is not
    parsed, and its summary is None (two_sided, supersedes: only a note that spells the key can say it)."""
    test = getattr(function, "raw_filter", None)
    return test is None or test(raw or b"")


# -- JSONL records --------------------------------------------------------------------------------------
def split_lines(raw: bytes) -> list[bytes] | None:
    """A log's lines with their endings, or None when it is not plain UTF-8 JSONL read line by line
    (a BOM, CR-only line ends, bytes that do not decode, a NUL, a file too big to read: all read whole)."""
    from memwarden.documents import MAX_FILE_BYTES

    if raw.startswith(b"\xef\xbb\xbf") or b"\x00" in raw or len(raw) > MAX_FILE_BYTES:
        return None
    if b"\r" in raw and b"\r" in raw.replace(b"\r\n", b""):
        return None  # CR-only line ends: read whole
    try:
        if not raw.isascii():  # ASCII is UTF-8: no 6 MB string made to find out
            raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return raw.splitlines(keepends=True)


def masked(lines: list[bytes], keep: set[int]) -> bytes:
    """The log with every line but those numbered in keep (1-based) emptied, its line ending kept."""
    out = []
    for number, line in enumerate(lines, 1):
        if number in keep:
            out.append(line)
        else:
            out.append(line[len(line.rstrip(b"\r\n")) :])
    return b"".join(out)


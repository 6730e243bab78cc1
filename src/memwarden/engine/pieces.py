"""A big JSONL log checked in line ranges: never all of its parsed records at once in one process.

The rules declared ``records=True`` find on a log exactly what they find on each record alone, so a
log can be checked a range of lines at a time, in a copy with every other line emptied (its line
ending kept: line numbers, columns and the file's newline count stay as they are), as the incremental
cache checks a log's changed lines. A range is a byte range on line boundaries; the ranges of a log
go to worker processes like files do, and each process streams the file to build its copy. A log
that is not plain UTF-8 read line by line (a BOM, CR-only line ends, a NUL, bytes that do not decode,
over the size limit) is checked whole by its first range, the others finding nothing.

What a rule learns about the whole log through ``ctx.record_summaries`` is read the same way, range by
range (:func:`streamed_summaries`), and kept for the process: each summary of a log is built once.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

# A log this big or bigger is checked in ranges; a range holds about PIECE_BYTES of it.
SPLIT_MIN_BYTES = 2 * 1024 * 1024
PIECE_BYTES = 4 * 1024 * 1024
_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class Piece:
    """Bytes ``start`` to ``end`` of a log (both on line boundaries): a unit of work like a file."""

    relpath: str
    start: int
    end: int
    first: bool  # the log's first range: it checks the whole log when the log cannot be read in ranges

    @property
    def size(self) -> int:
        return self.end - self.start


def splittable(workspace, relpath: str, rules) -> int:
    """The size of a log to check in ranges, 0 when it is to be checked whole.

    Only a JSONL file on disk (not content from stdin or a fix), inside the workspace, at least
    SPLIT_MIN_BYTES, every one of whose document rules finds per record.
    """
    kind = workspace.text_kind_of(relpath)
    if kind is None or kind.format != "jsonl" or relpath in workspace.overlay:
        return 0
    applicable = [r for r in rules if applies(r, kind)]
    if not applicable or not all(r.records for r in applicable):
        return 0
    path = workspace.root / relpath
    try:
        if path.is_symlink() or os.path.realpath(path) != os.path.join(os.path.realpath(workspace.root), relpath):
            return 0
        size = path.stat().st_size
    except OSError:
        return 0
    return size if size >= SPLIT_MIN_BYTES else 0


def applies(rule, kind) -> bool:
    """Whether a document rule reads documents of this kind at all (as the engine runs it)."""
    return (rule.kinds is None or kind.name in rule.kinds) and (kind.memory or rule.any_text)


def pieces(workspace, relpath: str, size: int, at_least: int = 1) -> list[Piece]:
    """A log's ranges: about PIECE_BYTES each and at least ``at_least`` of them, each ending on a line end."""
    count = max(at_least, -(-size // PIECE_BYTES))
    cuts = [0]
    try:
        with open(workspace.root / relpath, "rb") as f:
            for k in range(1, count):
                f.seek(max(k * size // count - 1, cuts[-1]))
                f.readline()  # to the end of the line the cut falls in
                at = f.tell()
                if cuts[-1] < at < size:
                    cuts.append(at)
    except OSError:
        pass
    cuts.append(max(size, cuts[-1] + 1))
    return [Piece(relpath, a, b, a == 0) for a, b in zip(cuts, cuts[1:])]


def masked_range(path: Path, start: int, end: int) -> tuple[bytes, int, int] | None:
    """The log at path with every line outside bytes start..end emptied (its line ending kept), and the first
    and last line numbers kept; None when the log is not plain UTF-8 JSONL read line by line."""
    from memwarden.documents import MAX_FILE_BYTES

    out: list[bytes] = []
    first = last = 0
    try:
        with open(path, "rb") as f:
            if os.fstat(f.fileno()).st_size > MAX_FILE_BYTES:
                return None
            offset = 0
            for number, line in enumerate(f, 1):
                if number == 1 and line.startswith(_BOM):
                    return None
                if b"\x00" in line or b"\r" in line[:-2] or line[-2:-1] == b"\r" and line[-1:] != b"\n":
                    return None  # a NUL, or a CR that is not half of a CRLF
                if line[-1:] == b"\r":
                    return None  # a CR-only line end at the end of the file
                try:
                    line.decode("utf-8")
                except UnicodeDecodeError:
                    return None
                if start <= offset < end:
                    out.append(line)
                    first = first or number
                    last = number
                else:
                    out.append(line[len(line.rstrip(b"\r\n")) :])
                offset += len(line)
    except OSError:
        return None
    if not first:
        return None
    return b"".join(out), first, last


def load_range(workspace, relpath: str, start: int, end: int):
    """(document of the masked copy, first line, last line), or None as :func:`masked_range`."""
    from memwarden.documents import load

    masked = masked_range(workspace.root / relpath, start, end)
    if masked is None:
        return None
    content, first, last = masked
    doc = load(workspace.root, relpath, workspace.text_kind_of(relpath), content)
    _keep_blank_lines(doc, first, last)
    return doc, first, last


def _keep_blank_lines(doc, first: int, last: int) -> None:
    # The emptied lines are not blank lines of the log: no rule is to report them (nor pay for them).
    if hasattr(doc, "blank_lines"):
        doc.blank_lines = [number for number in doc.blank_lines if first <= number <= last]


def check_piece(checker, rules, piece: Piece) -> list:
    """The document rules' findings on one range of a log (the whole log when it cannot be read in ranges)."""
    ws = checker.workspace
    relpath = piece.relpath
    masked = masked_range(ws.root / relpath, piece.start, piece.end)
    if masked is None:
        return checker.document_findings(rules, [relpath]) if piece.first else []
    content, first, last = masked
    checker.split_logs.add(relpath)
    ws.overlay[relpath] = content
    ws.forget(relpath)
    try:
        doc = ws.document(relpath)
        if doc is not None:
            _keep_blank_lines(doc, first, last)
        found = checker.document_findings(rules, [relpath])
    finally:
        ws.overlay.pop(relpath, None)
        ws.forget(relpath)
    # A finding on an emptied line is about the emptiness; one on another file is the first range's to report.
    return [f for f in found if (first <= f.line <= last if f.workspace_path == relpath else piece.first)]


# -- what a rule learns about the whole log ------------------------------------------------------

_STREAMED: dict[tuple, dict | None] = {}  # (summary, log, stat): {line: value}, for this process and run


def forget_streamed() -> None:
    """A new run reads the logs again (a worker process forked from it keeps what it had read)."""
    _STREAMED.clear()


def streamed_summaries(workspace, function, relpath: str, split: set[str], plain) -> tuple[bool, dict | None]:
    """(True, ``function(doc, profile)`` over the whole log, read range by range) for a big log on disk;
    (False, None) when the log is to be read whole. ``split``: the logs whose overlay is a range's copy
    (the log on disk is the one to read). ``plain`` makes the values what the cache would give back."""
    path = workspace.root / relpath
    try:
        info = path.stat()
    except OSError:
        return False, None
    if (relpath in workspace.overlay and relpath not in split) or info.st_size < SPLIT_MIN_BYTES:
        return False, None
    key = (getattr(function, "__module__", ""), getattr(function, "__qualname__", repr(function)),
           str(workspace.root), relpath, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
    if key not in _STREAMED:
        if len(_STREAMED) > 32:
            _STREAMED.clear()
        result: dict = {}
        for piece in pieces(workspace, relpath, info.st_size):
            loaded = load_range(workspace, relpath, piece.start, piece.end)
            if loaded is None:
                return False, None
            doc, first, last = loaded
            if not doc.ok:
                return False, None
            for line, value in plain(function(doc, workspace.profile)).items():
                if first <= line <= last:
                    result[line] = value
        _STREAMED[key] = result
    return True, _STREAMED[key]


# -- the incremental cache's misses ---------------------------------------------------------------


def lines_within(lines: list[bytes], piece: Piece | None) -> range:
    """The numbers (1-based) of a log's lines that start within a range (all of them without one)."""
    if piece is None:
        return range(1, len(lines) + 1)
    first, offset = 0, 0
    for number, line in enumerate(lines, 1):
        if offset >= piece.end:
            return range(first or number, number)
        if offset >= piece.start and not first:
            first = number
        offset += len(line)
    return range(first or len(lines) + 1, len(lines) + 1)


def batches(lines: list[bytes], numbers: list[int]) -> list[list[int]]:
    """Line numbers in runs of about PIECE_BYTES of the log, so that many missed lines are checked a
    range at a time rather than all parsed at once."""
    runs: list[list[int]] = [[]]
    size = 0
    for number in numbers:
        if runs[-1] and size >= PIECE_BYTES:
            runs.append([])
            size = 0
        runs[-1].append(number)
        size += len(lines[number - 1])
    return [run for run in runs if run]

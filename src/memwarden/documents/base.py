"""Reading a file into text we can point into, and remembering how to write it back.

Every document keeps its raw bytes, the BOM, the encoding and the newline
style, so a fixer can change a few characters and write back a file that
differs in exactly those bytes. Decoding itself is :mod:`memwarden.decoding`
(discovery reads a file's head with it too); its names are re-exported here.
"""

from __future__ import annotations

import bisect
from pathlib import Path

from memwarden.decoding import ParseError, decode, detect_newline
from memwarden.kinds import Kind

# Deeper than this, a memory file is not a memory file: we stop before any
# recursive walker (ours, jsonschema's) can exhaust the stack.
MAX_DEPTH = 64


class Document:
    """A memory file: its bytes, its text, its kind, and a way to turn offsets into lines."""

    format = "text"
    # (size, mtime in ns) of the file when its bytes were read from disk; None for bytes not read from disk
    # (a fix's result, a git blob). A fix replaces the file only if it is still so (fixes/write.py).
    stamp: tuple[int, int] | None = None

    def __init__(self, root: Path, relpath: str, kind: Kind, raw: bytes):
        self.root = root
        self.relpath = relpath
        self.kind = kind
        self.raw = raw
        text, self.encoding, self.bom, self.error = decode(raw)
        # Old Mac line ends (CR only): read as LF, which keeps every offset (one character for one), and
        # written back as CR by encode(); otherwise the whole file is one line and its front matter unseen.
        self.cr_only = text is not None and "\r" in text and "\n" not in text
        if self.cr_only:
            text = text.replace("\r", "\n")
        self.text: str = text if text is not None else ""
        self.decoded = text is not None
        self.newline = detect_newline(self.text)
        self._line_starts: list[int] | None = None
        if self.error is None:
            self.parse()

    @property
    def path(self) -> Path:
        return self.root / self.relpath

    @property
    def ok(self) -> bool:
        """Parsed cleanly: rules may read it and fixers may touch it."""
        return self.error is None

    def parse(self) -> None:  # overridden by each format
        pass

    # -- positions ---------------------------------------------------------
    @property
    def line_starts(self) -> list[int]:
        if self._line_starts is None:
            starts = [0]
            text = self.text
            index = text.find("\n")
            while index != -1:
                starts.append(index + 1)
                index = text.find("\n", index + 1)
            self._line_starts = starts
        return self._line_starts

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column (in characters) of a text offset."""
        line = bisect.bisect_right(self.line_starts, offset) - 1
        return line + 1, offset - self.line_starts[line] + 1

    def offset(self, line: int, column: int = 1) -> int:
        """Text offset of a 1-based line and column."""
        starts = self.line_starts
        line = max(1, min(line, len(starts)))
        return min(starts[line - 1] + column - 1, len(self.text))

    def line_text(self, line: int) -> str:
        """The text of a 1-based line, without its line ending."""
        starts = self.line_starts
        if not 1 <= line <= len(starts):
            return ""
        end = starts[line] if line < len(starts) else len(self.text)
        return self.text[starts[line - 1] : end].rstrip("\r\n")

    @property
    def line_count(self) -> int:
        n = len(self.line_starts)
        return n - 1 if self.text.endswith("\n") else n

    def encode(self, text: str) -> bytes:
        """Bytes for new text, with this file's BOM, encoding and (CR-only) line ends."""
        if self.cr_only:
            text = text.replace("\r\n", "\r").replace("\n", "\r")
        return self.bom + text.encode(self.encoding)


class UnreadableDocument(Document):
    """A path that matched a kind but is not a readable regular file."""

    def __init__(self, root: Path, relpath: str, kind: Kind, message: str):
        self.root = root
        self.relpath = relpath
        self.kind = kind
        self.raw = b""
        self.text = ""
        self.decoded = False
        self.encoding, self.bom, self.newline = "utf-8", b"", "\n"
        self.cr_only = False
        self._line_starts = None
        self.error = ParseError(message)

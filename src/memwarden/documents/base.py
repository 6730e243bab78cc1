"""Reading a file into text we can point into, and remembering how to write it back.

Every document keeps its raw bytes, the BOM, the encoding and the newline
style, so a fixer can change a few characters and write back a file that
differs in exactly those bytes.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from pathlib import Path

from memwarden.discover.profiles import Kind

_BOMS = (
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)

# Deeper than this, a memory file is not a memory file: we stop before any
# recursive walker (ours, jsonschema's) can exhaust the stack.
MAX_DEPTH = 64


@dataclass(frozen=True)
class ParseError:
    message: str
    line: int = 1
    column: int = 1


def decode(raw: bytes) -> tuple[str | None, str, bytes, ParseError | None]:
    """(text, encoding, bom, error). Text is None when the bytes cannot be read as text."""
    bom = b""
    encoding = "utf-8"
    for mark, name in _BOMS:
        if raw.startswith(mark):
            bom, encoding = mark, name
            break
    body = raw[len(bom):]
    try:
        text = body.decode(encoding)
    except UnicodeDecodeError as error:
        good = body[: error.start]
        line = good.count(b"\n") + 1
        column = len(good[good.rfind(b"\n") + 1 :].decode(encoding, "replace")) + 1
        what = "UTF-8" if encoding == "utf-8" else encoding.upper()
        return None, encoding, bom, ParseError(
            f"invalid {what}: byte 0x{body[error.start]:02x} cannot be decoded", line, column
        )
    nul = text.find("\x00")
    if nul != -1:
        line = text.count("\n", 0, nul) + 1
        column = nul - (text.rfind("\n", 0, nul) + 1) + 1
        return None, encoding, bom, ParseError("NUL byte: this is a binary file, not text", line, column)
    return text, encoding, bom, None


def detect_newline(text: str) -> str:
    crlf = text.count("\r\n")
    return "\r\n" if crlf and crlf >= text.count("\n") - crlf else "\n"


class Document:
    """A memory file: its bytes, its text, its kind, and a way to turn offsets into lines."""

    format = "text"

    def __init__(self, root: Path, relpath: str, kind: Kind, raw: bytes):
        self.root = root
        self.relpath = relpath
        self.kind = kind
        self.raw = raw
        text, self.encoding, self.bom, self.error = decode(raw)
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
        """Bytes for new text, with this file's BOM and encoding."""
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
        self._line_starts = None
        self.error = ParseError(message)

"""Where things are, as the Language Server Protocol counts: zero-based lines split at CR LF, LF or CR, and
columns in UTF-16 code units; memwarden counts one-based lines and columns in characters, and edits in
offsets of a file's decoded text."""

from __future__ import annotations

import bisect
import re

_LINE_END = re.compile(r"\r\n|\n|\r")


class Lines:
    """A text's line starts, to turn offsets and memwarden's positions into the protocol's."""

    def __init__(self, text: str):
        self.text = text
        self.starts = [0] + [match.end() for match in _LINE_END.finditer(text)]

    def line_text(self, line: int) -> str:
        """Line `line` (zero-based) without its line ending; '' past the end."""
        if line >= len(self.starts):
            return ""
        start = self.starts[line]
        end = self.starts[line + 1] if line + 1 < len(self.starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")

    def position(self, offset: int) -> tuple[int, int]:
        """(line, UTF-16 column) of an offset into the text."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self.starts, offset) - 1
        return line, utf16_length(self.text[self.starts[line]:offset])

    def offset(self, line: int, utf16_column: int) -> int:
        """The offset of a protocol position (clamped to the text)."""
        if line >= len(self.starts):
            return len(self.text)
        text = self.line_text(line)
        units = 0
        for index, char in enumerate(text):
            if units >= utf16_column:
                return self.starts[line] + index
            units += 2 if ord(char) > 0xFFFF else 1
        return self.starts[line] + len(text)

    def finding_range(self, line: int, column: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """A finding's one-based line and column as a range from there to the end of its line."""
        row = max(line - 1, 0)
        text = self.line_text(row)
        start = utf16_length(text[: max(column - 1, 0)])
        end = utf16_length(text)
        return (row, start), (row, end if end > start else start + 1)

    @property
    def end(self) -> tuple[int, int]:
        return self.position(len(self.text))


def utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2

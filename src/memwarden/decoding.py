"""Bytes to text: the BOM, the encoding, and why bytes that are not text cannot be read.

A leaf module: documents decode whole files with it, and profile detection
decodes the head of a file, without either importing the other.
"""

from __future__ import annotations

from dataclasses import dataclass

_BOMS = (
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)


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

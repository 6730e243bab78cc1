"""Blobs: runs of the base64 alphabet longer than any token (a session export, an attachment, an image).

The scanner reads a line in overlapping windows and judges a random-looking token whole in one of them. A run
longer than the windows' overlap is no token: cut into windows, each of its pieces would read as one (dev: a
receipt's embedded images, saved search pages). Such a run is decoded instead; when it is text, the text is read
for secrets as any text is (a vendor's key inside a base64 session export), each reported at its own base64.
"""

from __future__ import annotations

from memwarden.analysis.secrets import patterns
from memwarden.analysis.secrets.lines import OVERLAP
from memwarden.patterns import LazyPattern

# A run matched whole, however long, so the search stays linear in the line.
_RUN = LazyPattern(r"[A-Za-z0-9+/_-]+={0,2}")


def is_blob(run: str) -> bool:
    """Whether a run of the base64 alphabet is too long to be judged as a token."""
    return len(run) > OVERLAP


def blobs(line: str):
    """(start, end, text) of each blob of the line that decodes to UTF-8 text."""
    if len(line) <= OVERLAP:
        return
    for match in _RUN.finditer(line):
        if is_blob(match.group(0)):
            text = patterns.base64_decoded_text(match.group(0))
            if text is not None:
                yield match.start(), match.end(), text


def encoded_span(text: str, start: int, end: int, run_length: int) -> tuple[int, int]:
    """Where in its blob the base64 of ``text[start:end]`` lies: four characters for every three bytes, from the
    group that holds the first byte to the one that holds the last (the column a finding points at, and all that a
    message quoting the blob must not show)."""
    first_byte = len(text[:start].encode("utf-8"))
    last_byte = first_byte + len(text[start:end].encode("utf-8"))
    return 4 * (first_byte // 3), min(run_length, 4 * -(-last_byte // 3))

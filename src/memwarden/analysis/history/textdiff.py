"""Line-level text comparison fast enough for a 100,000-line log: where two texts differ, and which lines hold what.

Lines are compared stripped, so CRLF/LF and indentation never count as a change.
"""

from __future__ import annotations

# Characters scanned by str.find before reading every line is cheaper.
SEARCH_BUDGET = 512 * 1024 * 1024
_CHUNK = 1 << 16


def within_budget(searches: int, texts: dict[str, str]) -> bool:
    """Whether this many str.find passes over the texts cost less than reading every line."""
    return searches * sum(len(text) for text in texts.values()) <= SEARCH_BUDGET


def split_lines(text: str) -> list[tuple[int, str]]:
    """(1-based number, stripped text) of each line that holds something."""
    return [(number, stripped) for number, line in enumerate(text.split("\n"), 1) if (stripped := line.strip())]


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


def differing_lines(old: str, new: str) -> tuple[tuple[int, int], tuple[int, int]]:
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


def lines_between(text: str, start: int, end: int, relpath: str) -> list[tuple[str, int, str]]:
    """(path, 1-based number, stripped text) of the non-blank lines in text[start:end]."""
    if start >= end:
        return []
    first = text.count("\n", 0, start) + 1
    return [(relpath, first + offset, stripped)
            for offset, line in enumerate(text[start:end].split("\n")) if (stripped := line.strip())]


def holds_line(text: str, line: str) -> bool:
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


def lines_holding(texts: dict[str, str], needles: set[str]) -> list[tuple[str, int, str]] | None:
    """(path, line number, stripped line) of every line holding a needle; None when reading every line is cheaper."""
    if not within_budget(len(needles), texts):
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

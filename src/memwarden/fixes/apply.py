"""Applying edits that rules propose to a file's text, changing nothing else."""

from __future__ import annotations

import bisect

from memwarden.model import Edit


def overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether two edits would interfere.

    An insertion at either end of a replaced span conflicts with it too: the
    two rules each assumed the text around that point, and one of them is wrong
    now (removing every item of a list and appending one at its end gives
    `[, "x"]`). Conflicting fixes wait for the next round, on re-parsed text.
    """
    if a[0] == a[1] and b[0] <= a[0] <= b[1]:
        return True
    if b[0] == b[1] and a[0] <= b[0] <= a[1]:
        return True
    return a[0] < b[1] and b[0] < a[1]


class TakenSpans:
    """Spans of one file already claimed by fixes, none overlapping another; asks answered in log time.

    A fix round over a log with one fix per record (45,000 of them) asked every new fix against
    every taken span: quadratic. Taken spans never overlap, so sorted by start their ends are in
    order too, and only the neighbours of a new span's place can touch it.
    """

    def __init__(self) -> None:
        self._spans: list[tuple[int, int]] = []

    def collides(self, span: tuple[int, int]) -> bool:
        at = bisect.bisect_left(self._spans, span)
        return any(overlaps(span, self._spans[i]) for i in range(max(at - 2, 0), min(at + 2, len(self._spans))))

    def add(self, span: tuple[int, int]) -> None:
        bisect.insort(self._spans, span)


def any_overlap(spans: list[tuple[int, int]]) -> bool:
    """Whether any two of the spans overlap: sorted, only neighbours need a look."""
    ordered = sorted(spans)
    return any(overlaps(a, b) for a, b in zip(ordered, ordered[1:]))


def apply_edits(text: str, edits: list[Edit]) -> str:
    """Apply non-overlapping edits (offsets into the original text) in one pass."""
    out = []
    cursor = 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        if edit.start < cursor:
            raise ValueError("overlapping edits")
        out.append(text[cursor : edit.start])
        out.append(edit.replacement)
        cursor = edit.end
    out.append(text[cursor:])
    return "".join(out)

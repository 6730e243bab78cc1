"""Applying edits that rules propose to a file's text, changing nothing else."""

from __future__ import annotations

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

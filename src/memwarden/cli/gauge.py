"""The budget gauge as characters: one bar of used against the budget and the edge, and the words of each status.

Shared by `memwarden budget`, its `--history` chart and `memwarden stats`.
"""

from __future__ import annotations

import sys

from memwarden.analysis.budget import OVER, PAST, WITHIN

GAUGE_WIDTH = 40


def can_draw(text: str) -> bool:
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
        return True
    except (UnicodeEncodeError, LookupError):
        return False


def gauge_bar(used: int, limit, width: int = GAUGE_WIDTH, fancy: bool = True, scale: int | None = None) -> str:
    """[████████░░░|░░░] with the budget marked '|'; past the edge, cut cells are '▒' and the edge '┃'.

    The bar's right end is the edge or the size, whichever is more, unless a scale is given
    (rows of one chart share it); the edge is marked whenever it falls inside the bar.
    """
    full, cut, empty, budget_mark, edge_mark = ("█", "▒", "░", "|", "┃") if fancy else ("#", "x", ".", "|", "!")
    scale = scale or max(limit.edge, used, 1)
    cells = []
    for cell in range(width):
        value = (cell + 0.5) * scale / width
        if value < used:
            cells.append(full if value < limit.edge else cut)
        else:
            cells.append(empty)
    budget_cell = min(width - 1, int(limit.max * width / scale))
    cells[budget_cell] = budget_mark
    if scale > limit.edge:
        cells[min(width - 1, int(limit.edge * width / scale))] = edge_mark
    return "[" + "".join(cells) + "]"


STATUS_TEXT = {  # the words and colour of each status in the text report
    WITHIN: ("within budget", "green"),
    OVER: ("over budget: shorten or shelve entries before adding one", "yellow"),
    PAST: ("past the truncation point: the end of the file is never loaded", "red"),
}

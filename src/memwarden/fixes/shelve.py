"""The shelving fix: move entries out of a startup index into a shelf index until it fits its budget.

Used by the unsafe fix of `index-over-budget` and `index-past-truncation`.
What the user marked with ``<!-- memwarden-shelve -->`` moves first, then
the last entries; no entry is ever dropped, links are rewritten relative to
the shelf, and the index gains a pointer line to the shelf.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from dataclasses import dataclass

from memwarden.analysis import budget
from memwarden.analysis.budget import Settings, Source
from memwarden.analysis.triggers import detect_language
from memwarden.discover.startup_index import dir_exists, file_exists
from memwarden.documents import IndexDocument, IndexEntry
from memwarden.documents.scan import resolve_link, split_target
from memwarden.fixes.apply import apply_edits
from memwarden.model import Edit

SHELVE_MARK = "<!-- memwarden-shelve -->"


@dataclass
class ShelvingPlan:
    moved: list[IndexEntry]  # in document order
    edits: list[Edit]  # on the index and the shelf
    shelf: str


def plan_shelving(ws, settings: Settings, source: Source, shelf: str) -> ShelvingPlan | None:
    """Move entries out of a startup index into the shelf until it is within budget; never drop one."""
    doc = source.index
    shelf_kind = ws.profile.kind("shelf-index")
    if not isinstance(doc, IndexDocument) or shelf_kind is None or not shelf_kind.claims(shelf):
        return None
    shelf_path = ws.root / shelf
    if dir_exists(shelf_path) or (shelf_path.is_symlink() and not file_exists(shelf_path)):
        return None
    shelf_doc = ws.document(shelf) if (shelf in ws.overlay or file_exists(shelf_path)) else None
    if shelf_doc is not None and not shelf_doc.ok:
        return None
    shelf_text = shelf_doc.text if shelf_doc is not None else ""

    def eligible(entry) -> bool:
        targets = [resolve_link(doc.relpath, link.target) for link in entry.links]
        local = [t for t in targets if t is not None]
        if not local:
            return False
        return all(ws.profile.classify(t) is None or ws.profile.classify(t).name != "shelf-index" for t in local)

    candidates = [e for e in doc.entries if eligible(e)]
    marked = [e for e in candidates if SHELVE_MARK in doc.line_text(e.line)]
    marked_lines = {e.line for e in marked}
    last_first = [e for e in reversed(candidates) if e.line not in marked_lines]
    points_at_shelf = any(
        resolve_link(doc.relpath, link.target) == shelf for e in doc.entries for link in e.links
    )
    newline = doc.newline
    target = posixpath.relpath(shelf, posixpath.dirname(doc.relpath) or ".")
    words = _SHELF_WORDS[_index_language(doc)]
    pointer = f"- {words['pointer']} → [{words['title']}]({target})"

    # What the user marked always moves; then the last entries, as few as make it fit. Moving one more
    # entry never makes the index longer, so the fewest is found by halving, not by trying each count
    # (which re-measured the whole index once per entry: quadratic in a long index).
    def moved_with(count: int) -> list[IndexEntry]:
        return sorted(marked + last_first[:count], key=lambda e: e.line)

    def edits_for(moved: list[IndexEntry]) -> list[Edit]:
        return _index_edits(doc, moved, None if points_at_shelf else pointer, newline)

    def fits(count: int) -> bool:
        moved = moved_with(count)
        return bool(moved) and budget.fits(apply_edits(doc.text, edits_for(moved)), settings, bom=doc.bom == b"\xef\xbb\xbf")

    low, high = (0 if marked else 1), len(last_first)
    if high < low or not fits(high):
        return None  # even moving every entry would not fit: the prose outside the entries is the problem
    while low < high:
        middle = (low + high) // 2
        if fits(middle):
            high = middle
        else:
            low = middle + 1
    moved = moved_with(high)
    edits = edits_for(moved)
    lines = []
    existing = set(line.strip() for line in shelf_text.splitlines())
    for entry in moved:
        line = _moved_line(doc, entry, shelf)
        if line.strip() not in existing:
            lines.append(line)
    shelf_newline = shelf_doc.newline if shelf_doc is not None and shelf_text else newline
    if shelf_doc is None or not shelf_text:
        header = (
            f"# {words['heading']}{shelf_newline}{shelf_newline}"
            f"{words['intro'].format(index=doc.relpath)}{shelf_newline}{shelf_newline}"
        )
        addition = header + "".join(line + shelf_newline for line in lines)
    else:
        lead = "" if shelf_text.endswith("\n") else shelf_newline
        addition = lead + "".join(line + shelf_newline for line in lines)
    if lines or shelf_doc is None:
        edits.append(Edit(len(shelf_text), len(shelf_text), addition, path=shelf))
    return ShelvingPlan(moved, edits, shelf)


_SHELF_WORDS = {
    "en": {
        "pointer": '"I half remember a lesson about this, but it is not listed here"',
        "title": "overflow shelf",
        "heading": "Overflow shelf",
        "intro": "Entries moved out of {index} to keep it within its load budget. Read when {index} sends you here.",
    },
    "zh-Hant": {
        "pointer": "「好像學過這個教訓，但這裡沒列出來」",
        "title": "溢出書架",
        "heading": "溢出書架",
        "intro": "為了讓 {index} 維持在載入預算內而移到這裡的條目。{index} 指到這裡時再讀。",
    },
    "zh-Hans": {
        "pointer": "「好像学过这个教训，但这里没列出来」",
        "title": "溢出书架",
        "heading": "溢出书架",
        "intro": "为了让 {index} 保持在加载预算内而移到这里的条目。{index} 指到这里时再读。",
    },
    "ja": {
        "pointer": "「この教訓は覚えがあるのに、ここに載っていない」",
        "title": "あふれた分の本棚",
        "heading": "あふれた分の本棚",
        "intro": "{index} を読み込み予算内に収めるため、ここへ移した項目。{index} からここを指されたときに読む。",
    },
}


def _index_language(doc) -> str:
    """The language the index's triggers are written in (most entries win)."""
    counts = Counter(detect_language(t.text) for e in doc.entries for t in e.triggers)
    return counts.most_common(1)[0][0] if counts else "en"


def _index_edits(doc, moved: list, pointer: str | None, newline: str) -> list:
    """Edits that remove the moved lines from the index and, when needed, add the pointer line."""
    text = doc.text
    starts = doc.line_starts

    def span(line: int) -> tuple[int, int]:
        return starts[line - 1], starts[line] if line < len(starts) else len(text)

    runs: list[list[int]] = []  # contiguous moved lines, removed as one edit each
    for entry in moved:
        if runs and runs[-1][-1] + 1 == entry.line:
            runs[-1].append(entry.line)
        else:
            runs.append([entry.line])
    spans = []
    for run in runs:
        start, end = span(run[0])[0], span(run[-1])[1]
        if end == len(text) and not text.endswith("\n") and start > 0:
            start -= 2 if text[:start].endswith("\r\n") else 1  # the file had no final newline: keep it so
        spans.append((start, end))
    anchor = _shelves_anchor(doc, {e.line for e in moved}) if pointer else None
    insert_at = None
    if anchor is not None:
        insert_at = starts[anchor] if anchor < len(starts) else len(text)
        if any(a <= insert_at <= b for a, b in spans):
            insert_at = None  # an insertion touching a removed run would overlap it: the pointer takes the run's place
    edits = []
    for position, (start, end) in enumerate(spans):
        replacement = ""
        if pointer and insert_at is None and position == 0:
            start, end = span(runs[0][0])[0], spans[0][1]
            replacement = pointer + (newline if text[start:end].endswith("\n") else "")
        edits.append(Edit(start, end, replacement))
    if pointer and insert_at is not None:
        lead = "" if insert_at == 0 or text[:insert_at].endswith("\n") else newline
        edits.append(Edit(insert_at, insert_at, lead + pointer + newline))
    return edits


def _shelves_anchor(doc, moving: set[int]) -> int | None:
    """The line after which a shelf pointer goes: the last entry under a 'Shelves' heading, or the heading."""
    heading = re.compile(r"^\s{0,3}#{1,6}\s+.*(?:shel|書架|书架|本棚)", re.I)
    hidden = doc.hidden_lines
    for number in range(doc.body_line, doc.line_count + 1):
        if number in hidden or not heading.match(doc.line_text(number)):
            continue
        anchor = number
        for later in range(number + 1, doc.line_count + 1):
            line = doc.line_text(later)
            if line.lstrip().startswith("#") and later not in hidden:
                break
            if later not in moving and line.lstrip()[:2] in ("- ", "* ", "+ "):
                anchor = later
        return anchor
    return None


def _moved_line(doc, entry, shelf: str) -> str:
    """The entry's line as it reads on the shelf: links rewritten relative to the shelf, the shelve mark gone.

    A reference-style link becomes an inline one: its `[label]: target` line stays in the index it leaves.
    """
    line = doc.line_text(entry.line)
    line_start = doc.line_starts[entry.line - 1]
    shelf_dir = posixpath.dirname(shelf) or "."
    pieces, cursor = [], 0
    for link in doc.links_on_line(entry.line):
        raw = link.target
        target = raw[1:-1] if raw.startswith("<") and raw.endswith(">") else raw
        resolved = resolve_link(doc.relpath, target)
        new = raw
        if resolved is not None and not target.startswith("/"):
            new = posixpath.relpath(resolved, shelf_dir) + split_target(target)[1]
            new = f"<{new}>" if raw != target else new
        start, end = link.start - line_start, link.end - line_start
        if link.label is not None:
            pieces.append(line[cursor:start])
            pieces.append(f"[{link.title}]({new})")
            cursor = end
            continue
        if new == raw:
            continue
        target_at = link.target_start - line_start
        pieces.append(line[cursor:target_at])
        pieces.append(new)
        cursor = target_at + len(raw)
    pieces.append(line[cursor:])
    line = "".join(pieces)
    line = line.replace(" " + SHELVE_MARK, "").replace(SHELVE_MARK, "").rstrip()
    return line.lstrip()

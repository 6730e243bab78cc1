"""The one scanner of Markdown syntax every rule shares: front matter, HTML comments and links.

Everything here is plain, linear-time text scanning: no regex that backtracks,
no Markdown parser. Front matter is a leading ``---`` line closed by ``---`` or
``...``; a comment runs from ``<!--`` to ``-->`` (to the end when unclosed); a
link is ``[title](target)`` with an optional ``"title"``.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from urllib.parse import unquote

_CLOSERS = {'"': '"', "“": "”", "「": "」", "『": "』"}
_WHITESPACE = re.compile(r"\s")
_NOT_WHITESPACE = re.compile(r"\S")


class _Next:
    """Where the next occurrence of a character (or a pattern) is, remembered between calls.

    Scanners ask with starts that only grow, so each cached answer is reused
    until the scan passes it: every search covers new text, and a whole scan
    stays linear however the brackets and quotes are arranged.
    """

    def __init__(self, text: str):
        self.text = text
        self._cache: dict[object, tuple[int, int]] = {}  # key -> (asked from, found at or -1)

    def find(self, key, start: int) -> int:
        asked, found = self._cache.get(key, (-1, -2))
        if found != -2 and asked <= start and (found == -1 or found >= start):
            return found
        if isinstance(key, str):
            found = self.text.find(key, start)
        else:
            match = key.search(self.text, start)
            found = match.start() if match else -1
        self._cache[key] = (start, found)
        return found

    def first(self, start: int, *keys) -> int:
        hits = [pos for pos in (self.find(key, start) for key in keys) if pos != -1]
        return min(hits) if hits else -1


@dataclass(frozen=True)
class LinkMatch:
    start: int
    end: int
    title: str
    target: str  # as written, with the angle brackets of <...> targets


def find_links(text: str) -> list[LinkMatch]:
    """The Markdown links of text: found in linear time (a regex would be quadratic on a line of unclosed brackets).

    The regex tries every '[' again up to the end of the line, so a line of
    100,000 '[' (or '[a](') takes minutes; every '[' between two ']' shares
    one outcome, so this scanner decides each such stretch once.
    """
    nxt = _Next(text)
    length = len(text)
    tails: dict[int, int] = {}  # where a target ends -> where the link ends (-1: no link)

    def tail(at: int) -> int:
        if at not in tails:
            end = -1
            if at < length and text[at] == ")":
                end = at + 1
            elif at < length and text[at].isspace():
                quote = nxt.find(_NOT_WHITESPACE, at)
                if quote != -1 and text[quote] == '"':
                    close = nxt.first(quote + 1, '"', "\n")
                    if close != -1 and text[close] == '"' and text[close + 1 : close + 2] == ")":
                        end = close + 2
            tails[at] = end
        return tails[at]

    found: list[LinkMatch] = []
    cursor = 0
    while True:
        start = text.find("[", cursor)
        if start == -1:
            break
        if start > 0 and text[start - 1] == "!":
            cursor = start + 1
            continue
        close = nxt.first(start + 1, "]", "\n")
        if close == -1:
            break
        if text[close] != "]" or text[close + 1 : close + 2] != "(":
            cursor = close + 1
            continue
        target_start = close + 2
        end = -1
        target = ""
        if text.startswith("<", target_start):
            angle = nxt.first(target_start + 1, ">", "\n")
            if angle != -1 and text[angle] == ">":
                end = tail(angle + 1)
                target = text[target_start : angle + 1]
        if end == -1:
            stop = nxt.first(target_start, ")", _WHITESPACE)
            if stop != -1:
                end = tail(stop)
                target = text[target_start:stop]
        if end == -1:
            cursor = close + 1
            continue
        found.append(LinkMatch(start, end, text[start + 1 : close], target))
        cursor = end
    return found


def find_quoted(text: str) -> list[tuple[int, str]]:
    """(offset, inner text) of each "...", “...”, 「...」, 『...』, in linear time."""
    nxt = _Next(text)
    found = []
    index = 0
    length = len(text)
    while index < length:
        closer = _CLOSERS.get(text[index])
        if closer is not None:
            close = nxt.first(index + 1, closer, "\n")
            if close > index + 1 and text[close] == closer:
                found.append((index, text[index + 1 : close]))
                index = close + 1
                continue
        index += 1
    return found


def comment_spans(text: str) -> list[tuple[int, int]]:
    """Spans of HTML comments, found by plain scanning (linear; an unclosed comment runs to the end)."""
    spans = []
    start = text.find("<!--")
    while start != -1:
        end = text.find("-->", start + 4)
        stop = len(text) if end == -1 else end + 3
        spans.append((start, stop))
        start = text.find("<!--", stop)
    return spans


def front_matter_end(text: str) -> int:
    """Offset just after a leading '---' front-matter block, or 0."""
    lines = text.split("\n")
    if not lines or lines[0].rstrip("\r").rstrip() != "---":
        return 0
    offset = len(lines[0]) + 1
    for line in lines[1:]:
        offset += len(line) + 1
        if line.rstrip("\r").rstrip() in ("---", "..."):
            return min(offset, len(text))
    return 0  # never closed: not front matter


def is_local(target: str) -> bool:
    return bool(target) and not re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", target) and not target.startswith(("#", "//"))


def split_target(target: str) -> tuple[str, str]:
    for mark in ("#", "?"):
        if mark in target:
            cut = target.index(mark)
            return target[:cut], target[cut:]
    return target, ""


def resolve_link(index_relpath: str, target: str) -> str | None:
    """A local link target as a workspace path ('..'-prefixed when it leaves the workspace), or None."""
    if not is_local(target):
        return None
    path, _ = split_target(target)
    if not path:
        return None
    path = unquote(path)
    if path.startswith("/"):
        return posixpath.normpath(path)
    base = posixpath.dirname(index_relpath)
    return posixpath.normpath(posixpath.join(base, path))


_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def has_scheme(target: str) -> bool:
    """Whether a link target is a URL (`https:`, `mailto:`...) rather than a path."""
    return bool(_SCHEME.match(target))


def resolve_from(base_dir: str, target: str) -> str:
    """Where a link target points from a folder: a URL as written, else a normalised workspace path.

    Unlike resolve_link, every target gets an answer (an anchor-only link names
    the folder itself), so two links can be compared by where they point.
    """
    target = target.strip().strip("<>")
    if has_scheme(target):
        return target
    target = unquote(target.split("#", 1)[0].split("?", 1)[0])
    if not target:
        return base_dir
    if target.startswith("/"):
        return posixpath.normpath(target.lstrip("/"))
    return posixpath.normpath(posixpath.join(base_dir, target))


def opens_front_matter(text: str) -> bool:
    """Whether text starts with a '---' line: front matter, closed or not (front_matter_end says which)."""
    return text.split("\n", 1)[0].rstrip("\r").rstrip() == "---"


def comment_end(text: str, start: int) -> int:
    """Where the HTML comment opened at start ends: just after its '-->', or the end of text when unclosed."""
    end = text.find("-->", start + 4)
    return len(text) if end == -1 else end + 3

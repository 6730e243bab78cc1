"""The one scanner of Markdown syntax every rule shares: front matter, HTML comments and links.

Everything here is plain, linear-time text scanning: no regex that backtracks,
no Markdown parser. Front matter is a leading ``---`` line closed by ``---`` or
``...``; a comment runs from ``<!--`` to ``-->`` (to the end when unclosed); a
link is ``[title](target)`` with an optional ``"title"``, ``'title'`` or
``(title)``, or reference-style, ``[title][label]``, ``[label][]`` or ``[label]``
with a ``[label]: target`` definition line; a wikilink is ``[[name]]``. What
lies in a code span, a fenced code block or an HTML comment is no link
(:func:`markdown_links`, :func:`find_wikilinks`).
"""

from __future__ import annotations

import posixpath
import re
from memwarden.patterns import LazyPattern
from dataclasses import dataclass
from urllib.parse import unquote

_CLOSERS = {'"': '"', "“": "”", "「": "」", "『": "』"}
_TITLE_CLOSERS = {'"': '"', "'": "'", "(": ")"}
FENCE = LazyPattern(r"^ {0,3}(`{3,}|~{3,})")
_BLANK_LINE = LazyPattern(r"\n[ \t]*\n")
_BACKTICKS = LazyPattern(r"`+")
# "[label]: target" at the start of a line (up to three spaces in), target bare or in <...>.
_DEFINITION = LazyPattern(r"^ {0,3}\[([^\]\n]+)\]:[ \t]*(<[^>\n]*>|[^\s<]+)", re.M)
_WHITESPACE = LazyPattern(r"\s")
_NOT_WHITESPACE = LazyPattern(r"\S")


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
    target: str  # as written, with the angle brackets of <...> targets; a reference link's, from its definition
    target_start: int = -1  # where the target is written in the text (a reference link: its label)
    label: str | None = None  # a reference-style link's label, normalised


def normalize_label(label: str) -> str:
    """A reference label as Markdown matches it: case and runs of white space ignored."""
    return " ".join(label.split()).casefold()


def find_links(text: str, definitions: dict[str, str] | None = None, skip=()) -> list[LinkMatch]:
    """The Markdown links of text: found in linear time (a regex would be quadratic on a line of unclosed brackets).

    The regex tries every '[' again up to the end of the line, so a line of
    100,000 '[' (or '[a](') takes minutes; every '[' between two ']' shares
    one outcome, so this scanner decides each such stretch once. With
    definitions (label -> target, from :func:`reference_definitions`), the
    reference-style links whose label is defined are links too; a '[' inside
    one of the sorted, disjoint skip spans (code, comments) starts none.
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
                closer = _TITLE_CLOSERS.get(text[quote]) if quote != -1 else None
                if closer is not None:
                    close = nxt.first(quote + 1, closer, "\n")
                    if close != -1 and text[close] == closer and text[close + 1 : close + 2] == ")":
                        end = close + 2
            tails[at] = end
        return tails[at]

    found: list[LinkMatch] = []
    cursor = 0
    skipped = 0  # the first skip span that may still lie ahead
    while True:
        start = text.find("[", cursor)
        if start == -1:
            break
        while skipped < len(skip) and skip[skipped][1] <= start:
            skipped += 1
        if skipped < len(skip) and skip[skipped][0] <= start:
            cursor = skip[skipped][1]
            continue
        if start > 0 and text[start - 1] == "!":
            cursor = start + 1
            continue
        close = nxt.first(start + 1, "]", "\n")
        if close == -1:
            break
        if text[close] != "]" or text[close + 1 : close + 2] != "(":
            reference = _reference(text, nxt, start, close, definitions) if definitions else None
            if reference is not None:
                found.append(reference)
                cursor = reference.end
            else:
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
        found.append(LinkMatch(start, end, text[start + 1 : close], target, target_start))
        cursor = end
    return found


def _reference(text: str, nxt: _Next, start: int, close: int, definitions: dict[str, str]) -> LinkMatch | None:
    """The reference-style link whose text is text[start+1:close], when its label is defined."""
    title = text[start + 1 : close]
    if text.startswith("[", close + 1):  # [title][label], or [label][] (collapsed)
        end = nxt.first(close + 2, "]", "\n")
        if end == -1 or text[end] != "]":
            return None
        label, label_start, end = text[close + 2 : end] or title, close + 2, end + 1
        if label_start == end - 1:
            label_start = start + 1
    elif text.startswith(":", close + 1) or "[" in title or start > 0 and text[start - 1] in "[]":
        return None  # a definition itself, a wikilink's inner brackets
    else:  # [label] (shortcut)
        label, label_start, end = title, start + 1, close + 1
    key = normalize_label(label)
    if key not in definitions:
        return None
    return LinkMatch(start, end, title, definitions[key], label_start, key)


def reference_definitions(text: str, skip=()) -> dict[str, str]:
    """label (normalised) -> target of each `[label]: target` line outside the skip spans; the first one counts."""
    found: dict[str, str] = {}
    for match in _DEFINITION.finditer(text):
        if not inside(skip, match.start()):
            found.setdefault(normalize_label(match.group(1)), match.group(2))
    return found


def inside(spans, offset: int) -> bool:
    """Whether offset lies in one of the sorted, disjoint spans."""
    from bisect import bisect_right

    at = bisect_right(spans, (offset, float("inf"))) - 1
    return at >= 0 and spans[at][0] <= offset < spans[at][1]


def code_spans(text: str, start: int = 0, stop: int | None = None) -> list[tuple[int, int]]:
    """Spans of inline code in text[start:stop]: a run of n backticks up to the next run of exactly n, within a
    paragraph. Linear: each length's runs are visited once, in order."""
    stop = len(text) if stop is None else stop
    runs = [(m.start(), m.end()) for m in _BACKTICKS.finditer(text, start, stop)]
    by_length: dict[int, list[int]] = {}
    for number, (begin, end) in enumerate(runs):
        by_length.setdefault(end - begin, []).append(number)
    pointers = dict.fromkeys(by_length, 0)
    nxt = _Next(text)
    spans = []
    number = 0
    while number < len(runs):
        begin, end = runs[number]
        same = by_length[end - begin]
        while pointers[end - begin] < len(same) and same[pointers[end - begin]] <= number:
            pointers[end - begin] += 1
        closer = same[pointers[end - begin]] if pointers[end - begin] < len(same) else None
        blank = nxt.find(_BLANK_LINE, end)
        if closer is None or blank != -1 and blank < runs[closer][0]:
            number += 1  # no closer in this paragraph: the backticks are literal
            continue
        spans.append((begin, runs[closer][1]))
        number = closer + 1
    return spans


def fence_spans(text: str, start: int = 0) -> list[tuple[int, int]]:
    """Spans of fenced code blocks from start on: from the opening fence line to the end of the closing one (or
    of the text, when never closed)."""
    spans = []
    fence: str | None = None
    opened = 0
    offset = start
    for line in text[start:].split("\n"):
        if fence is not None:
            stripped = line.strip()
            if stripped.startswith(fence) and set(stripped) <= set(fence[0]):
                spans.append((opened, min(offset + len(line) + 1, len(text))))
                fence = None
        else:
            match = FENCE.match(line)
            if match:
                fence, opened = match.group(1), offset
        offset += len(line) + 1
    if fence is not None:
        spans.append((opened, len(text)))
    return spans


def not_link_spans(text: str, start: int = 0) -> list[tuple[int, int]]:
    """Sorted, disjoint spans from start on where no link starts: fenced code, HTML comments, code spans."""
    blocks = fence_spans(text, start)
    spans = list(blocks)
    # Comments and code spans outside the fences, in the stretches between them.
    edges = [start] + [edge for span in blocks for edge in span] + [len(text)]
    for begin, end in zip(edges[::2], edges[1::2]):
        stretch = text[begin:end]
        comments = [(begin + a, begin + b) for a, b in comment_spans(stretch)]
        spans.extend(comments)
        gaps = [begin] + [edge for span in comments for edge in span] + [end]
        for gap_start, gap_end in zip(gaps[::2], gaps[1::2]):
            spans.extend(code_spans(text, gap_start, gap_end))
    return sorted(spans)


def markdown_links(text: str, start: int = 0) -> list[LinkMatch]:
    """Every link of a Markdown text from start on (the body after front matter): inline and reference-style,
    none in a code span, a fenced code block or an HTML comment."""
    skip = not_link_spans(text, start)
    if start:
        skip.insert(0, (0, start))
    return find_links(text, reference_definitions(text, skip), skip)


@dataclass(frozen=True)
class WikiLink:
    start: int
    end: int
    name: str  # the note named, without its |alias or #heading
    embed: bool  # ![[...]]


def find_wikilinks(text: str, start: int = 0) -> list[WikiLink]:
    """The [[wikilinks]] of a Markdown text from start on, none in code or comments (linear: one pass over '[[')."""
    skip = not_link_spans(text, start)
    nxt = _Next(text)
    found = []
    at = text.find("[[", start)
    while at != -1:
        close = nxt.find("]]", at + 2)
        newline = nxt.find("\n", at + 2)
        if close == -1:
            break
        if (newline == -1 or close < newline) and not inside(skip, at):
            inner = text[at + 2 : close]
            name = inner.split("|", 1)[0].split("#", 1)[0].strip()
            if name and "[" not in inner:
                found.append(WikiLink(at, close + 2, name, at > 0 and text[at - 1] == "!"))
            at = text.find("[[", close + 2)
        else:
            at = text.find("[[", at + 2)
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
    if not opens_front_matter(text):
        return 0
    lines = text.split("\n")
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


_SCHEME = LazyPattern(r"^[A-Za-z][A-Za-z0-9+.-]*:")


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


# A line of YAML's structure: a key (`name:`, `allowed-tools:`, `"a b":`), a list item, a flow collection.
_YAML_STRUCTURE_LINE = LazyPattern(r"""(?:[A-Za-z_$][\w$.-]{0,60}|"[^"\n]{0,60}"|'[^'\n]{0,60}')\s*:(?:\s|$)|-(?:\s|$)|[{\[]""")


def opens_front_matter(text: str) -> bool:
    """Whether text starts with a '---' line that opens front matter, closed or not (front_matter_end says which).

    The first line after it that is neither blank nor a `#` line (a YAML comment, or a Markdown heading) says:
    a key, a list item or the closing '---' opens front matter; a sentence (`Texto aqui: coisas.`) means the '---'
    is a Markdown thematic break, as CommonMark reads it, above a note with no front matter."""
    end = text.find("\n")
    if (text if end == -1 else text[:end]).rstrip("\r").rstrip() != "---":
        return False
    while end != -1:  # line by line, without splitting a long file
        start, end = end + 1, text.find("\n", end + 1)
        stripped = (text[start:] if end == -1 else text[start:end]).strip()
        if not stripped or stripped.startswith("#"):
            continue
        return stripped in ("---", "...") or bool(_YAML_STRUCTURE_LINE.match(stripped))
    return True  # nothing but blanks and '#' lines: an empty front matter, never closed


def comment_end(text: str, start: int) -> int:
    """Where the HTML comment opened at start ends: just after its '-->', or the end of text when unclosed."""
    end = text.find("-->", start + 4)
    return len(text) if end == -1 else end + 3

"""Markdown with YAML front matter, and indexes read as entry lines.

mistune gives the body's structure but no positions, so prose is mapped back
to source lines here: a block's first words are found in the source from
where the previous block was found, and soft line breaks count lines from there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from memwarden.documents.base import Document, ParseError
from memwarden.documents.mdc import flat_front_matter, reads_flat_front_matter
from memwarden.documents.scan import (
    FENCE,
    comment_end,
    find_quoted,
    front_matter_end,
    markdown_links,
    opens_front_matter,
)
from memwarden.documents.yamldoc import JsonPath, Span, parse_yaml, plain_is_str
from memwarden.patterns import LazyPattern

_URL = LazyPattern(r"\b(?:https?|ftp|file)://[^\s<>()\[\]]+|\bwww\.[^\s<>()\[\]]+")
CODE_PLACEHOLDER = "CODE"


@dataclass(frozen=True)
class ProseSpan:
    """A piece of prose on one source line: code, URLs and markup removed."""

    text: str
    line: int
    column: int
    block: int  # blocks number paragraphs, headings, list items...: sentences never cross them
    # (offset in text, offset in the document's text) where each inline piece starts, so an offset
    # anywhere in text maps back to its own source character, markup and code spans skipped.
    anchors: tuple[tuple[int, int], ...] = ()
    kind: str = "paragraph"  # "paragraph", "heading", "table_cell", or "task" (a to-do list item)

    def source_offset(self, offset: int) -> int | None:
        """The document offset of text[offset], or None when the span has no anchors."""
        best = None
        for text_offset, source in self.anchors:
            if text_offset > offset:
                break
            best = source + (offset - text_offset)
        return best


class MarkdownDocument(Document):
    format = "markdown"

    # A document that never parsed (its bytes did not decode) has no front matter and its body is all of its
    # (empty) text: a rule that reads every document of a kind reads these, not an attribute that is missing.
    front_matter_failed = False  # (a decoding error is not the front matter's)
    front_matter: dict | None = None
    front_matter_tree = None
    front_matter_lines: tuple[int, int] | None = None
    body_line = 1
    body_offset = 0

    def parse(self) -> None:
        self.front_matter: dict | None = None
        self.front_matter_tree = None
        self.front_matter_lines: tuple[int, int] | None = None  # lines of the opening and closing ---
        self.body_line = 1  # first line of the body
        self.body_offset = 0
        self._prose: list[ProseSpan] | None = None
        self._hidden: set[int] | None = None
        self.front_matter_failed = False  # the error (if any) is the front matter's: never closed, not YAML
        text = self.text
        if not opens_front_matter(text):
            return
        body_offset = front_matter_end(text)
        if not body_offset:
            self.error = ParseError("front matter opened with '---' on line 1 is never closed", 1, 1)
            self.front_matter_failed = True
            return
        start = text.find("\n") + 1
        end = text.rfind("\n", 0, body_offset - 1) + 1  # where the closing '---' line starts
        closing_line = text.count("\n", 0, end) + 1
        data, tree, error = parse_yaml(self, text[start:end], line_offset=1, char_offset=start)
        self.front_matter_tree = tree
        self.front_matter_lines = (1, closing_line)
        self.body_line = closing_line + 1
        self.body_offset = body_offset
        if error is not None and reads_flat_front_matter(self.relpath):
            data = flat_front_matter(text[start:end])
            error = error if data is None else None
            self.front_matter_tree = None if data is not None else tree
        if error is not None:
            self.error = error
            self.front_matter_failed = True
            return
        if data is None:
            data = {}
        if not isinstance(data, dict):
            self.error = ParseError("front matter is not a mapping of keys to values", 2, 1)
            self.front_matter_failed = True
            return
        self.front_matter = data

    @property
    def has_front_matter(self) -> bool:
        return self.front_matter_lines is not None

    @property
    def body(self) -> str:
        return self.text[self.body_offset :]

    def span(self, path: JsonPath) -> Span | None:
        if self.front_matter_tree is None:
            return None
        return self.front_matter_tree.spans.get(tuple(path))

    def locate(self, path: JsonPath) -> tuple[int, int]:
        """Line and column of a front-matter JSON path (its key, else its closest parent)."""
        if self.front_matter_tree is None:
            return 1, 1
        path = tuple(path)
        spans = self.front_matter_tree.spans
        while path not in spans and path:
            path = path[:-1]
        span = spans.get(path)
        if span is None:
            return 2, 1
        if span.key_line is not None:
            return span.key_line, span.key_column
        return span.line, span.column

    # -- lines that are not prose --------------------------------------------
    @property
    def hidden_lines(self) -> set[int]:
        """Lines inside fenced code blocks or HTML comments, and the front matter."""
        if self._hidden is None:
            hidden: set[int] = set()
            if self.front_matter_lines:
                hidden.update(range(self.front_matter_lines[0], self.front_matter_lines[1] + 1))
            fence: str | None = None
            comment_last_line = 0  # the line a comment that spans lines closes on
            for number in range(self.body_line, self.line_count + 1):
                if number <= comment_last_line:
                    hidden.add(number)
                    continue
                line = self.line_text(number)
                if fence is not None:
                    hidden.add(number)
                    stripped = line.strip()
                    if stripped.startswith(fence) and set(stripped) <= set(fence[0]):
                        fence = None
                    continue
                match = FENCE.match(line)
                if match:
                    fence = match.group(1)
                    hidden.add(number)
                    continue
                start = line.find("<!--")
                if start == -1:
                    continue
                line_start = self.line_starts[number - 1]
                stop = comment_end(self.text, line_start + start)
                if stop <= line_start + len(line) and self.text.endswith("-->", 0, stop):
                    continue  # closed on its own line: hides nothing
                comment_last_line = self.line_col(stop - 1)[0]
                if not line[:start].strip():
                    hidden.add(number)
            self._hidden = hidden
        return self._hidden

    # -- prose ------------------------------------------------------------
    def prose(self) -> list[ProseSpan]:
        """The body's prose, a span per source line, in order."""
        if self._prose is None:
            self._prose = self._extract_prose()
        return self._prose

    def _extract_prose(self) -> list[ProseSpan]:
        import mistune

        markdown = mistune.create_markdown(renderer=None, plugins=["table", "strikethrough"])
        try:
            tokens = markdown(_QUOTE_THEN_LIST.sub("\\1\n\n", self.body))
        except (RecursionError, Exception):  # mistune on hostile input: no prose rather than a crash
            return []
        spans: list[ProseSpan] = []
        aligner = _Aligner(self)
        block = 0

        def walk(items):
            nonlocal block
            for token in items or []:
                kind = token.get("type")
                if kind in ("block_code", "block_html", "thematic_break", "blank_line"):
                    continue
                if kind in ("paragraph", "heading", "block_text", "table_cell"):
                    pieces = aligner.block(token.get("children"))
                    if pieces:
                        block += 1
                        spans.extend(_line_spans(self, pieces, block, kind))
                else:
                    walk(token.get("children"))

        walk(tokens)
        return spans


_TASK = LazyPattern(r"^\[[ xX]\]\s")
# mistune gives a list that directly follows a block quote line, then a heading, before the quote (the tree out of
# the source's order, and every block after it aligned to the wrong lines). A list item ends a quote's paragraph
# (it is no lazy continuation line), so a blank line between them, in the text mistune reads only, changes nothing
# else; the aligner still reads the source as written.
_QUOTE_THEN_LIST = LazyPattern(r"^( {0,3}>[^\n]*)\n(?= {0,3}(?:[-*+]|\d{1,9}[.)])[ \t])", re.MULTILINE)


class _Aligner:
    """Finds each inline piece of mistune's tree in the source, moving forward only.

    mistune keeps no positions. The text of an inline token appears verbatim in
    the source (markup, link targets and escapes lie between tokens), so each one
    is looked for from where the previous one ended; a soft break moves to the
    next line. Identical sentences therefore map to their own lines, and a word
    that appears inside markup or a code block earlier is never taken for it.
    """

    def __init__(self, doc: MarkdownDocument):
        self.doc = doc
        self.text = doc.text
        self.cursor = doc.body_offset
        self.hidden = doc.hidden_lines

    def find(self, needle: str) -> int | None:
        """Where needle starts in the source, from the cursor on (outside code blocks), or None."""
        stripped = needle.strip()
        lead = needle.find(stripped[:1]) if stripped else 0
        # The whole piece anywhere ahead; a prefix (an escape or an entity may differ later) only nearby.
        for probe, limit in ((needle, None), (stripped, None), (stripped[:12], 400), (stripped[:4], 120)):
            if not probe:
                continue
            stop = len(self.text) if limit is None else min(len(self.text), self.cursor + limit)
            at = self.text.find(probe, self.cursor, stop)
            while at != -1 and self.doc.line_col(at)[0] in self.hidden:
                at = self.text.find(probe, at + 1, stop)
            if at != -1:
                return at if probe is needle else max(at - lead, 0)
        return None

    def opening_backtick(self) -> int:
        """Where the next code span opens, from the cursor on: a fence line of a code block between
        the previous block and this one ("```" on its own line) is never taken for it."""
        at = self.text.find("`", self.cursor)
        while at != -1 and self.doc.line_col(at)[0] in self.hidden:
            newline = self.text.find("\n", at)
            at = -1 if newline == -1 else self.text.find("`", newline + 1)
        return at

    def block(self, children) -> list[tuple[str, int | None]]:
        """(prose text, source offset or None) pieces of one block; "\n" pieces are line breaks."""
        pieces: list[tuple[str, int | None]] = []
        self.inline(children, pieces)
        return pieces if "".join(text for text, _ in pieces).strip() else []

    def inline(self, children, pieces) -> None:
        for child in children or []:
            kind = child.get("type")
            if kind == "text":
                self.add_text(child.get("raw", ""), pieces)
            elif kind == "codespan":
                at = self.opening_backtick()
                if at != -1:
                    run = len(self.text[at:]) - len(self.text[at:].lstrip("`"))
                    close = self.text.find("`" * run, at + run)
                    self.cursor = close + run if close != -1 else at + run
                pieces.append((CODE_PLACEHOLDER, at if at != -1 else None))
            elif kind in ("softbreak", "linebreak"):
                newline = self.text.find("\n", self.cursor)
                if newline != -1:
                    self.cursor = newline + 1
                pieces.append(("\n", None))
            elif kind in ("image", "inline_html", "block_html"):
                continue
            else:  # emphasis, strong, link (its text, never its URL), strikethrough...
                self.inline(child.get("children"), pieces)

    def add_text(self, raw: str, pieces) -> None:
        at = self.find(raw)
        position = 0
        for url in _URL.finditer(raw):
            if url.start() > position:
                pieces.append((raw[position : url.start()], None if at is None else at + position))
            pieces.append((" ", None if at is None else at + url.start()))
            position = url.end()
        if position < len(raw) or not raw:
            pieces.append((raw[position:], None if at is None else at + position))
        if at is not None:
            self.cursor = at + len(raw)


def _line_spans(doc: MarkdownDocument, pieces, block: int, kind: str) -> list[ProseSpan]:
    """One ProseSpan per source line of a block, each with the anchors of its pieces."""
    lines: list[list[tuple[str, int | None]]] = [[]]
    for text, at in pieces:
        if text == "\n":
            lines.append([])
        else:
            lines[-1].append((text, at))
    if kind == "block_text" and _TASK.match("".join(text for text, _ in pieces).lstrip()):
        kind = "task"
    elif kind == "block_text":
        kind = "paragraph"
    spans: list[ProseSpan] = []
    for line_pieces in lines:
        joined = "".join(text for text, _ in line_pieces)
        stripped = joined.strip()
        if not stripped:
            continue
        lead = len(joined) - len(joined.lstrip())
        anchors = []
        offset = 0
        for text, at in line_pieces:
            if at is not None:
                relative = offset - lead
                if relative >= 0:
                    anchors.append((relative, at))
                elif relative + len(text) > 0:
                    anchors.append((0, at - relative))  # the piece began in the stripped leading space
            offset += len(text)
        if anchors:
            first = anchors[0][1] - anchors[0][0]
            text = doc.text
            while first < len(text) and text[first] in " \t":
                first += 1
            line, column = doc.line_col(first)
        else:
            line, column = (spans[-1].line + 1, 1) if spans else (doc.body_line, 1)
        spans.append(ProseSpan(stripped, line, column, block, tuple(anchors), kind))
    return spans


_LIST_ITEM = LazyPattern(r"^(?P<indent>\s*)(?:[-*+]|\d{1,9}[.)])\s+(?P<item>.*)$")
_ARROW = LazyPattern(r"→|->|⟶|⇒")
REVERSE_MARKER = LazyPattern(r"\*\*\s*or the reverse\s*\*\*|\*\*\s*(?:或反過來|或反过来|反之|逆に)\s*\*\*", re.I)


@dataclass(frozen=True)
class Trigger:
    text: str
    column: int


@dataclass(frozen=True)
class Link:
    title: str
    target: str
    column: int
    target_column: int = 0  # where the target (a reference-style link: its label) is written
    reference: bool = False  # [title][label], its target from a `[label]: target` line


@dataclass
class IndexEntry:
    """One list item of an index that links somewhere."""

    line: int
    text: str  # the item text after the list marker
    column: int  # where the item text starts
    triggers: list[Trigger] = field(default_factory=list)
    reverse: bool = False  # carries the two-sided marker
    arrow: bool = False
    links: list[Link] = field(default_factory=list)
    hook: str = ""  # text after the last link (claude-code's "— hook")

    @property
    def link(self) -> Link | None:
        return self.links[0] if self.links else None


class IndexDocument(MarkdownDocument):
    format = "index"

    def parse(self) -> None:
        super().parse()
        self._entries: list[IndexEntry] | None = None
        self._links = None

    @property
    def links(self):
        """Every link of the body (scan.LinkMatch), inline or reference-style, none in code or comments."""
        if self._links is None:
            self._links = markdown_links(self.text, self.body_offset) if "[" in self.text else []
        return self._links

    def links_on_line(self, number: int) -> list:
        from bisect import bisect_left

        start = self.line_starts[number - 1]
        stop = start + len(self.line_text(number))
        links = self.links
        first = bisect_left(links, start, key=lambda m: m.start)
        # Bisected at both ends: a filter over every later link made an index of n lines cost n² (8,000 lines: 5 s).
        return links[first:bisect_left(links, stop, lo=first, key=lambda m: m.start)]

    @property
    def entries(self) -> list[IndexEntry]:
        if self._entries is None:
            self._entries = list(self._parse_entries())
        return self._entries

    def _parse_entries(self):
        hidden = self.hidden_lines
        for number in range(self.body_line, self.line_count + 1):
            if number in hidden:
                continue
            line = self.line_text(number)
            match = _LIST_ITEM.match(line)
            if not match:
                continue
            item = match.group("item")
            item_column = match.start("item") + 1
            if "[" not in item:
                continue
            line_start = self.line_starts[number - 1]
            offset = line_start + item_column - 1  # where the item starts in the text
            matches = [m for m in self.links_on_line(number) if m.start >= offset]
            links = [
                Link(m.title, m.target.strip("<>"), m.start - line_start + 1, m.target_start - line_start + 1, m.label is not None)
                for m in matches
            ]
            if not links:
                continue
            head = item[: matches[0].start - offset]
            arrow = _ARROW.search(head)
            before_arrow = head[: arrow.start()] if arrow else head
            triggers = [Trigger(inner, item_column + offset) for offset, inner in find_quoted(before_arrow)]
            hook = item[matches[-1].end - offset :].strip().lstrip("—–-:").strip()
            yield IndexEntry(
                line=number,
                text=item,
                column=item_column,
                triggers=triggers,
                reverse=bool(REVERSE_MARKER.search(before_arrow)),
                arrow=arrow is not None,
                links=links,
                hook=hook,
            )


# -- a few front-matter values without building the YAML ------------------------------------------

# A line the fast path reads: blank, a comment, `key: plain value` or `- plain item`. Anything else (a quoted
# or flow or block value, an anchor, a tag, a tab, a multi-line plain scalar, a bad indent) sends the
# whole front matter to the YAML reader, whose reading the fast path must equal (tests/test_fast_path.py).
_PLAIN_KEY = LazyPattern(r"( *)(?:([A-Za-z_][A-Za-z0-9_-]*):(?: +(.*))?|- +(.*))")
_NOT_PLAIN_START = tuple("\"'|>&*![]{}%@`#,:?-")
_FLOW_WORDS = LazyPattern(r"\[ *(?:[A-Za-z0-9_][A-Za-z0-9_.-]*(?: *, *[A-Za-z0-9_][A-Za-z0-9_.-]*)*)? *\]")


def front_matter_values(front: dict, keys: tuple[str, ...], nested: str = "metadata") -> dict:
    """The values of ``keys`` at the top of a parsed front matter or under its ``nested`` mapping (the top wins)."""
    inner = front.get(nested) if isinstance(front.get(nested), dict) else {}
    found = {key: value for key, value in inner.items() if key in keys}
    found.update((key, value) for key, value in front.items() if key in keys)
    return found


def plain_front_matter_values(inner: str, keys: tuple[str, ...], nested: str = "metadata") -> dict | None:
    """What ``front_matter_values`` gives for the front matter ``inner`` (the text between its '---' lines)
    when every line of it is plain, read line by line (a few times faster than composing and building
    the YAML); None when it is not plain enough to be sure, for the YAML reader to read."""
    if "\t" in inner or "\\" in inner:
        return None
    top: dict = {}
    under: dict = {}
    indents = [0]  # open block indentations
    kinds = {0: "map"}  # what each open block holds: "map" (keys) or "seq" (items)
    compact = None  # the indent of items that are a key's value at the key's own indent (`tags:` then `- a`)
    parent = None  # the top-level key the current block belongs to
    open_key = False  # the previous key line had no value: a deeper block may follow
    for line in inner.split("\n"):
        line = line.rstrip("\r").rstrip(" ")
        if not line.lstrip(" ") or line.lstrip(" ").startswith("#"):
            continue
        match = _PLAIN_KEY.fullmatch(line)
        if match is None:
            return None
        indent, key, value = len(match.group(1)), match.group(2), match.group(3) if match.group(2) else match.group(4)
        if indent > indents[-1]:
            if not open_key:
                return None  # a continued plain scalar, or a stray indent
            indents.append(indent)
            kinds[indent] = "map" if key is not None else "seq"
        else:
            while indent < indents[-1]:
                kinds.pop(indents.pop())
            if indent != indents[-1]:
                return None
            if compact is not None and compact > indent:
                compact = None
            if key is None and kinds[indent] == "map":
                if not (open_key or compact == indent):
                    return None  # an item among keys
                compact = indent
            elif key is not None and kinds[indent] == "seq":
                return None  # a key among items
            elif key is not None:
                compact = None
        value = (value or "").split(" #", 1)[0].rstrip(" ")
        open_key = key is not None and not value
        if _FLOW_WORDS.fullmatch(value):
            if key in keys:
                return None  # a list where a text is wanted: the YAML reader's
            value = "[]"  # `evidence: [session]`: a one-line list of plain words, nothing the caller reads
        elif value.startswith(_NOT_PLAIN_START) or ": " in value or value.endswith(":"):
            return None
        if key is None:
            continue
        if indent == 0:
            parent = key
            scope = top
        elif len(indents) == 2 and parent == nested:
            scope = under
        else:
            continue
        if key in scope:
            return None  # a duplicate key: which one counts is the YAML reader's to say
        scope[key] = value
    found = {key: value for key, value in under.items() if key in keys}
    found.update((key, value) for key, value in top.items() if key in keys)
    if not all(value and plain_is_str(value) for value in found.values()):
        return None  # empty, a number, a boolean, null: the YAML reader types it
    if nested in top and top[nested]:
        return None  # `metadata: x` is no mapping to look under
    return found

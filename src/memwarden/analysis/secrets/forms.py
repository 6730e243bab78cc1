"""The other forms a memory file's text is read in, and quoted in: YAML with its escaped line breaks folded,
Markdown as it renders (and characters that show as nothing, such as a zero-width space, dropped).

A message quotes a YAML value as YAML reads it (``"ghp_A\\`` then ``B"`` on the next line is one word) and
Markdown prose as it renders (``ghp_A**B**``, ``A<span></span>B``, ``A<!-- -->B`` and ``ghp\\_A`` read
``ghp_AB``...). The scanner scans those forms too, so what a message quotes has been scanned in the form it is
quoted in. Each form is a line of text and, for each of its characters, the offset in the file's text of the
character it came from, so what is found there maps back to the file's own characters.

Only the lines where a form joins what the raw text keeps apart are given: a form that joins nothing holds no
word the raw scan has not seen, and scanning it again would only cost time on the hot path.
"""

from __future__ import annotations

import html
import re

from memwarden.analysis.secrets.gate import may_hold_secret
from memwarden.patterns import LazyPattern

_TOKEN_CHAR = LazyPattern(r"[A-Za-z0-9+/=_-]")


def joined_lines(text: str, fmt: str):
    """(line, raw offsets) of every line a form of a file of format ``fmt`` joins: YAML's folding in YAML and
    front matter, rendering wherever prose is written in Markdown (notes, indexes, a log's records; not a fact
    file's values). A JSONL log's escapes are JSON's, decoded by the scanner itself."""
    if fmt != "jsonl":
        yield from folded_yaml_lines(text)
    if fmt != "yaml":
        yield from rendered_markdown_lines(text)


def may_join_secret(text: str, fmt: str) -> bool:
    """The text rendered would pass the scanner's gate: a text the gate turns away raw may still hold a token cut
    into pieces too short to pass it. (A folded YAML line needs a backslash, which lets the raw text through.)
    Decided on the whole text in one substitution: this runs on every text the gate turns away."""
    if fmt == "yaml" or not _may_join(text):
        return False
    return may_hold_secret(_MARKUP.sub(lambda match: _rendered(match, match.string), text))


# -- YAML: a double-quoted scalar's escaped line break ---------------------------------------------

_UNESCAPED_QUOTE = LazyPattern(r'(?<!\\)(?:\\\\)*"')


def folded_yaml_lines(text: str):
    """(line, raw offsets) of each run of lines joined by YAML's escaped line break: in a double-quoted scalar, a
    line ending in an odd number of backslashes continues on the next line, that line's indent dropped. Linear:
    each line is read once, the quotes of a run counted as it grows."""
    if "\\\n" not in text and "\\\r\n" not in text:
        return
    run: list[int] | None = None  # the raw offsets of the joined line being built
    quotes = 0
    start = 0
    for line in text.splitlines(keepends=True):
        end = start + len(line.rstrip("\r\n"))
        segment_start = start
        if run is not None:
            segment_start += len(line) - len(line.lstrip(" \t"))
        else:
            quotes = 0
        segment = text[segment_start:end]
        quotes += len(_UNESCAPED_QUOTE.findall(segment))
        trailing = len(segment) - len(segment.rstrip("\\"))
        if trailing % 2 == 1 and quotes % 2 == 1 and end < start + len(line):
            run = [] if run is None else run
            run.extend(range(segment_start, end - 1))  # the escaping backslash reads as nothing
        elif run is not None:
            run.extend(range(segment_start, end))
            run.append(end)
            yield "".join(text[i] for i in run[:-1]), run
            run = None
        start += len(line)
    if run:
        run.append(run[-1] + 1)
        yield "".join(text[i] for i in run[:-1]), run


# -- Markdown as it renders ------------------------------------------------------------------------

# Inline markup that renders to nothing (comments, tags, emphasis, code and link delimiters), or to one
# character (a backslash escape, an entity). A '[' counts only where it opens a link.
_MARKUP = LazyPattern(
    r"(?P<gone><!--.{0,200}?-->|</?[A-Za-z][A-Za-z0-9-]{0,40}(?:\s[^<>\n]{0,200})?/?>|\*+|~~|`+"
    r"|\]\([^()\s]{0,500}\)|\[(?=[^\[\]\n]{1,200}\]\())"
    r"|\\(?P<escaped>[!-/:-@\[-`{-~])"
    r"|(?P<entity>&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});)"
    r"|(?P<underscores>_+)"
    r"|(?P<invisible>[\u00ad\u180e\u200b-\u200d\u2060-\u2064\ufeff]+)"
)
# Underscores alone never join two words (emphasis with '_' opens and closes only at a word's edge).
_MAY_RENDER = LazyPattern(r"[*~`<\\&\]\u00ad\u180e\u200b-\u200d\u2060-\u2064\ufeff]")
# Markup that renders to nothing (or to a character of its own) followed by a token character, where a token
# character stands before it: the only place a rendering can join two runs. A quick test, markup character by
# markup character, before any rendering of a text the gate turned away.
_JOINING_MARKUP = LazyPattern(  # one character or one whole construct a repetition: a run of '*' split no two ways
    r"(?:\*|~~|`|<!--(?:(?!-->).){0,200}-->|</?[A-Za-z][A-Za-z0-9-]{0,40}(?:\s[^<>\n]{0,200})?/?>"
    r"|\\(?=[!-/:-@\[-`{-~])|&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});|\]\([^()\s]{0,500}\)|\["
    r"|[\u00ad\u180e\u200b-\u200d\u2060-\u2064\ufeff])+[A-Za-z0-9+/=_&\\-]"
)
_MARKUP_START = LazyPattern(r"[*~`<\\&\]\[\u00ad\u180e\u200b-\u200d\u2060-\u2064\ufeff]")
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-")


def _may_join(text: str) -> bool:
    for markup in _MARKUP_START.finditer(text):
        at = markup.start()
        if at and text[at - 1] in _TOKEN_CHARS and _JOINING_MARKUP.match(text, at):
            return True
    return False


# Characters that show as nothing: a token split by them reads whole on the screen.
_INVISIBLE = LazyPattern(r"[\u00ad\u180e\u200b-\u200d\u2060-\u2064\ufeff]")


def rendered_markdown_lines(text: str):
    """(line, raw offsets) of each line whose rendering joins two runs of token characters the markup kept apart."""
    start = 0
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        if _MAY_RENDER.search(body):
            rendered = render_markdown_line(body, start, gated=True)
            if rendered is not None:
                yield rendered
        start += len(line)


def render_markdown_line(line: str, base: int = 0, *, gated: bool = False) -> tuple[str, list[int]] | None:
    """A line of Markdown as it renders and the offset (from ``base``) of each character, if the rendering joins
    token characters the raw line keeps apart; else None. With ``gated``, only if a word a join makes (the run of
    non-space characters around it) would pass the scanner's gate: `src/<name>/x.ts` joins, but nothing secret."""
    if not _may_join(line):
        return None  # most lines: built character by character below, the rendering costs more than this test
    out: list[str] = []
    offsets: list[int] = []
    joins: list[int] = []  # where in out a join is
    cursor = 0
    for match in _MARKUP.finditer(line):
        kept = _rendered(match, line)
        if kept == match.group(0):
            continue
        for i in range(cursor, match.start()):
            out.append(line[i])
            offsets.append(base + i)
        before = out[-1] if out else ""
        for char in kept:
            out.append(char)
            offsets.append(base + match.start())
        after = line[match.end()] if match.end() < len(line) else ""
        tail = kept[-1:] if kept else after
        if before and tail and _TOKEN_CHAR.match(before) and _TOKEN_CHAR.match(tail):
            joins.append(len(out))
        cursor = match.end()
    if not joins:
        return None
    for i in range(cursor, len(line)):
        out.append(line[i])
        offsets.append(base + i)
    offsets.append(base + len(line))
    rendered = "".join(out)
    if gated and not any(may_hold_secret(_word_at(rendered, at)) for at in joins):
        return None
    return rendered, offsets


def _word_at(text: str, at: int) -> str:
    """The run of non-space characters around text[at] (or ending at it)."""
    start = at
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    end = at
    while end < len(text) and not text[end].isspace():
        end += 1
    return text[start:end]


def _rendered(match: re.Match, line: str) -> str:
    if match.group("gone") is not None:
        return ""
    if match.group("escaped") is not None:
        return match.group("escaped")
    if match.group("entity") is not None:
        return _INVISIBLE.sub("", html.unescape(match.group("entity")))
    if match.group("invisible") is not None:
        return ""
    run = match.group("underscores")  # emphasis at a word's edge; inside a word ('ghp_A') it is the word's own
    before = line[match.start() - 1] if match.start() else " "
    after = line[match.end()] if match.end() < len(line) else " "
    return "" if not (before.isalnum() and after.isalnum()) else run


# -- the forms of one quoted value -----------------------------------------------------------------


def quoted_forms(raw: str) -> set[str]:
    """What a detected secret's raw characters read as in the other forms: folded as YAML, rendered as Markdown."""
    forms = set()
    for line, _ in folded_yaml_lines(raw if raw.startswith('"') else '"' + raw):
        forms.add(line.lstrip('"'))
    for line in raw.splitlines():
        rendered = render_markdown_line(line)
        if rendered is not None:
            forms.add(rendered[0])
    return {form for form in forms if form and form != raw}

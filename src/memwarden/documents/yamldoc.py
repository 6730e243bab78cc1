"""YAML with a position for every key and value.

A composer turns the file into nodes that carry their marks; we build plain
JSON-like data from those nodes ourselves, so that we can (1) record the line
and column of every key and value by JSON path, (2) see duplicate keys that a
loader would silently collapse, (3) stop an alias bomb before it expands, and
(4) keep timestamps as the strings the user wrote, so an impossible date is an
`invalid-timestamp` finding rather than a crash.

The composer is libyaml's (PyYAML's C parser, about ten times faster) with tags
resolved by YAML 1.2 as ruamel.yaml's round trip resolves them, and marks moved
where the two place them differently. A text whose reading would differ in
any other way, or that libyaml rejects, is composed by ruamel.yaml's pure-Python
round trip, as before, which also words every YAML error; so is every text when
PyYAML has no libyaml. tests/test_fast_path.py holds the two to the same data,
spans, duplicates and errors. Fixes never need ruamel.yaml: they edit the text
at the spans' offsets.
"""

from __future__ import annotations

import bisect
import functools
import math
import re
from dataclasses import dataclass

from memwarden.documents.base import MAX_DEPTH, Document, ParseError
from memwarden.patterns import LazyPattern

# Nodes built from one file, aliases counted each time they are expanded.
MAX_EXPANDED_NODES = 200_000

JsonPath = tuple  # a tuple of str keys and int indexes


@dataclass(frozen=True)
class Span:
    """Where a value sits (1-based lines and columns), and where its key sits."""

    line: int
    column: int
    end_line: int
    end_column: int
    key_line: int | None = None
    key_column: int | None = None
    start_offset: int = 0
    end_offset: int = 0
    key_offset: int | None = None
    style: str | None = None  # quoting style of a scalar: None, "'", '"', "|", ">"
    flow: bool = False  # a flow collection ([a, b] / {a: b})


@dataclass(frozen=True)
class DuplicateKey:
    path: JsonPath
    key: str
    line: int
    column: int
    first_line: int


class _Bomb(Exception):
    pass


class _NotExact(Exception):
    """The fast path met something whose reading depends on the loader: the round trip reads the file."""


def format_json_path(path) -> str:
    out = "$"
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part.isidentifier():
            out += f".{part}"
        else:
            escaped = part.replace("\\", "\\\\").replace("'", "\\'")
            out += f"['{escaped}']"
    return out


def _tag(node) -> str:
    tag = node.tag
    return getattr(tag, "value", None) or str(tag)


def _scalar(node):
    tag, value = _tag(node), node.value
    if node.style == ">" and "\a" in value:
        value = value.replace("\a", "")  # ruamel.yaml's round trip marks where a folded scalar folded
    if tag.endswith(":null"):
        return None
    if tag.endswith(":bool"):
        return value.lower() in ("true", "yes", "on")
    if tag.endswith(":int"):
        digits = value.replace("_", "")
        for base in (10, 0):  # decimal (leading zeros allowed), then 0x / 0o / 0b
            try:
                return int(digits, base)
            except ValueError:
                continue
        return value
    if tag.endswith(":float"):
        lowered = value.lower().replace("_", "")
        if lowered in (".inf", "+.inf"):
            return math.inf
        if lowered == "-.inf":
            return -math.inf
        if lowered == ".nan":
            return math.nan
        try:
            return float(lowered)
        except ValueError:
            return value
    return value  # str, timestamp and any custom tag: the text as written


def _key_text(node) -> str:
    """A mapping key as JSON would spell it."""
    if type(node).__name__ != "ScalarNode":
        return str(node.start_mark)  # a complex key; rare, and never a memory field
    value = _scalar(node)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class SpanTable(dict):
    """JSON path -> Span, that also knows each path's children (built on first ask, again after growth).

    Fixes ask for the children of many paths of one document; keeping the index
    with the table it describes makes that one pass over the table, not one a question.
    """

    _children: dict | None = None
    _children_size = -1

    @property
    def children(self) -> dict[JsonPath, list[JsonPath]]:
        if self._children is None or self._children_size != len(self):
            children: dict[JsonPath, list[JsonPath]] = {}
            for path in self:
                if path:
                    children.setdefault(path[:-1], []).append(path)
            self._children, self._children_size = children, len(self)
        return self._children


class YamlTree:
    """Plain data plus spans, built from one composed YAML node tree."""

    def __init__(self, doc: Document, line_offset: int = 0, char_offset: int = 0):
        self.doc = doc
        self.line_offset = line_offset
        self.char_offset = char_offset
        self.spans: SpanTable = SpanTable()
        self.duplicates: list[DuplicateKey] = []
        self._built = 0
        # libyaml ends a text with no final line break on a line of its own; (index, line, column)
        # of that end as ruamel.yaml places it, on the last line (start_fast sets it)
        self.text_end: tuple[int, int, int] | None = None
        self.fast = False  # built from libyaml's nodes
        self.text = ""  # the text composed, when fast
        self._moved: dict[int, tuple[int, int, int]] = {}  # id(node) -> (index, line, column), when fast
        self._breaks: list[int] | None = None

    def start_fast(self, text: str) -> None:
        """Build from libyaml's nodes of text, placing marks where ruamel.yaml does."""
        self.fast, self.text = True, text
        if text and text[-1] not in "\r\n":
            last_break = max(text.rfind("\n"), text.rfind("\r"))
            breaks = text.count("\n") + text.count("\r") - text.count("\r\n")
            self.text_end = (len(text), breaks, len(text) - last_break - 1)

    def end_fast(self) -> None:
        self.text, self._moved, self._breaks = "", {}, None

    def _span(self, node, key_node=None) -> Span:
        start, end = node.start_mark, node.end_mark
        style = getattr(node, "style", None)
        start_index, start_line, start_column = start.index, start.line, start.column
        end_index, end_line, end_column = end.index, end.line, end.column
        if self.fast:
            moved = self._moved.get(id(node))
            if moved is not None:  # an empty value: start and end are one place
                start_index, start_line, start_column = end_index, end_line, end_column = moved
            elif self.text_end is not None:
                if start_index == self.text_end[0]:
                    start_line, start_column = self.text_end[1], self.text_end[2]
                if end_index == self.text_end[0]:
                    end_line, end_column = self.text_end[1], self.text_end[2]
        return Span(
            line=start_line + 1 + self.line_offset,
            column=start_column + 1,
            end_line=end_line + 1 + self.line_offset,
            end_column=end_column + 1,
            key_line=key_node.start_mark.line + 1 + self.line_offset if key_node is not None else None,
            key_column=key_node.start_mark.column + 1 if key_node is not None else None,
            start_offset=start_index + self.char_offset,
            end_offset=end_index + self.char_offset,
            key_offset=key_node.start_mark.index + self.char_offset if key_node is not None else None,
            style=style or None,  # libyaml says '' for plain, ruamel.yaml None
            flow=bool(getattr(node, "flow_style", False)),
        )

    def _move_empty(self, node, key_node, flow: bool) -> None:
        """Place an empty value after ':' where ruamel.yaml does, not where libyaml does.

        In a block mapping libyaml places it right after the ':', ruamel.yaml at the end of the next
        token (past spaces, comments and line breaks); in a flow mapping the other way round.
        """
        if node.value or node.style or node.tag != _YAML + "null":
            return
        text, at = self.text, node.start_mark.index
        if flow:
            colon = _GAP.match(text, key_node.end_mark.index).end()
            if not text.startswith(":", colon) or _GAP.match(text, colon + 1).end() != at:
                return
            where, gap = colon + 1, text[colon + 1 : at]
        else:
            if not at or text[at - 1] != ":":
                return
            where = _GAP.match(text, at).end()
            gap = text[at:where]
            column = where - (max(text.rfind("\n", 0, where), text.rfind("\r", 0, where)) + 1)
            if (text[where : where + 1] in ("?", ":") and text[where + 1 : where + 2] in ("", " ", "\r", "\n")
                    and column >= key_node.start_mark.column):
                # ruamel.yaml takes the end of the next token, and '? ' or ': ' has a width; left of the key, the
                # mapping ends first, and its end is a token of no width
                where += 1
        if "#" in gap:
            raise _NotExact()  # ruamel.yaml moves the mark with the comment, in ways of its own
        if self._breaks is None:
            self._breaks = [m.end() for m in _BREAK.finditer(text)]
        line = bisect.bisect_right(self._breaks, where)
        self._moved[id(node)] = (where, line, where - (self._breaks[line - 1] if line else 0))

    def build(self, node, path: JsonPath = (), key_node=None, depth: int = 0):
        self._built += 1
        if self._built > MAX_EXPANDED_NODES:
            raise _Bomb()
        if depth > MAX_DEPTH:
            raise RecursionError()
        self.spans.setdefault(path, self._span(node, key_node))
        kind = type(node).__name__
        if kind == "ScalarNode":
            if self.fast and not path and node.style in ("|", ">"):
                raise _NotExact()  # a whole document in a block scalar: '#' in column 1 is text to ruamel.yaml
            return _scalar(node)
        if kind == "SequenceNode":
            return [self.build(item, path + (i,), None, depth + 1) for i, item in enumerate(node.value)]
        if kind == "MappingNode":
            result: dict = {}
            first_seen: dict = {}
            merges = []
            for key_node, value_node in node.value:
                if _tag(key_node).endswith(":merge"):
                    merges.append(value_node)
                    continue
                if self.fast and (
                    type(key_node).__name__ != "ScalarNode"
                    or key_node.start_mark.index == key_node.end_mark.index
                ):
                    # a complex key is named by its mark, which each loader words its own way; an empty
                    # key is placed in a flow mapping where each loader sees fit
                    raise _NotExact()
                key = _key_text(key_node)
                if key in first_seen:
                    self.duplicates.append(
                        DuplicateKey(
                            path + (key,),
                            key,
                            key_node.start_mark.line + 1 + self.line_offset,
                            key_node.start_mark.column + 1,
                            first_seen[key],
                        )
                    )
                    continue  # YAML loaders keep one value; we keep the first and say so
                first_seen[key] = key_node.start_mark.line + 1 + self.line_offset
                if self.fast and value_node.start_mark.index == value_node.end_mark.index:
                    self._move_empty(value_node, key_node, bool(node.flow_style))
                result[key] = self.build(value_node, path + (key,), key_node, depth + 1)
            for merge in merges:
                sources = merge.value if type(merge).__name__ == "SequenceNode" else [merge]
                for source in sources:
                    merged = self.build(source, path, None, depth + 1)
                    if isinstance(merged, dict):
                        for key, value in merged.items():
                            result.setdefault(key, value)
            return result
        return None


# -- composing: libyaml when it can say exactly what ruamel.yaml would, ruamel.yaml otherwise --------

# YAML 1.2's implicit types of a plain scalar, as ruamel.yaml's round-trip resolver has them (first
# character -> [(tag, pattern)], tried in order). Only null, bool, int, float and merge change what
# we build; a timestamp stays the text as written either way.
_YAML = "tag:yaml.org,2002:"
_STR, _SEQ, _MAP = _YAML + "str", _YAML + "seq", _YAML + "map"
_IMPLICIT_12 = (
    (_YAML + "bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    (
        _YAML + "float",
        r"""^(?:
         [-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
        |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
        |[-+]?\.[0-9_]+(?:[eE][-+][0-9]+)?
        |[-+]?\.(?:inf|Inf|INF)
        |\.(?:nan|NaN|NAN))$""",
        "-+0123456789.",
    ),
    (_YAML + "int", r"^(?:[-+]?0b[0-1_]+|[-+]?0o?[0-7_]+|[-+]?[0-9_]+|[-+]?0x[0-9a-fA-F_]+)$", "-+0123456789"),
    (_YAML + "merge", r"^(?:<<)$", "<"),
    (_YAML + "null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
)

_NOT_STR = LazyPattern("|".join(f"(?:{pattern})" for _, pattern, _ in _IMPLICIT_12), re.X)


def plain_is_str(value: str) -> bool:
    """Whether a plain (unquoted) scalar reads as a string in YAML 1.2, as both composers resolve it."""
    return _NOT_STR.match(value) is None


# What libyaml reads otherwise than ruamel.yaml does; a text with any of these is read by the round trip.
_ROUND_TRIP_ONLY = LazyPattern(
    r"""
      [\t\ufeff\u2028\u2029\x85]  # a tab (an error between tokens to ruamel.yaml), a BOM inside the text
                                 # (ruamel.yaml counts it into columns), U+2028, U+2029 and NEL (line
                                 # breaks to libyaml, not to YAML 1.2)
    | ^%                         # a directive: %YAML 1.1 switches the implicit types, %TAG names handles
    | ^\.\.\.                    # a document end: libyaml takes several in a row for one document
    | [|>][-+0-9]*\#             # a block scalar header with a comment and no space before it
    | [|>][-+1-9]*[ ]*(?:\#[^\r\n]*)?(?:\r\n|\r|\n)[ ]+[\r\n]
                                 # a block scalar whose first line holds only spaces (ruamel.yaml refuses
                                 # a later line indented deeper than those)
    | (?:^|[\s\[\]{},])!        # a tag: each loader has its own idea of a tag's characters and of
                                 # what '!' alone means
    | (?:^|[\s\[\]{},])[&*][0-9A-Za-z_-]*[^0-9A-Za-z_\s\[\]{},-]
                                 # an anchor or alias name that libyaml cuts short (it takes letters,
                                 # digits, '-' and '_'; ruamel.yaml all but spaces and flow indicators)
    """,
    re.M | re.X,
)

# What lies between two tokens: spaces, tabs, comments, line breaks.
_GAP = LazyPattern(r"(?:[ \t]*(?:#[^\r\n]*)?(?:\r\n|\r|\n))*[ \t]*(?:#[^\r\n]*)?")
_BREAK = LazyPattern(r"\r\n|\r|\n")


@functools.lru_cache(maxsize=1)
def _fast_loader():
    """A libyaml composer that resolves tags as ruamel.yaml's YAML 1.2 round trip does, or None."""
    try:
        import yaml
        from yaml import nodes
        from yaml._yaml import CParser
    except ImportError:
        return None
    if not getattr(yaml, "__with_libyaml__", False):
        return None
    table: dict[str, list] = {}
    for tag, pattern, firsts in _IMPLICIT_12:
        compiled = re.compile(pattern, re.X)
        for first in firsts:
            table.setdefault(first, []).append((tag, compiled))
    scalar_node, sequence_node = nodes.ScalarNode, nodes.SequenceNode

    class FastComposer(CParser):
        def resolve(self, kind, value, implicit):
            if kind is scalar_node:
                if implicit[0]:
                    for tag, compiled in table.get(value[:1], ()):
                        if compiled.match(value):
                            return tag
                return _STR
            return _SEQ if kind is sequence_node else _MAP

        def descend_resolver(self, current_node, current_index):
            pass

        def ascend_resolver(self):
            pass

    return FastComposer


def compose_fast(text: str):
    """(node tree,) of text through libyaml, or None when only ruamel.yaml reads it exactly.

    None too for text libyaml rejects: the error is then ruamel.yaml's, worded and placed as always.
    """
    composer = _fast_loader()
    if composer is None or _ROUND_TRIP_ONLY.search(text):
        return None
    loader = composer(text)
    try:
        return (loader.get_single_node(),)
    except Exception:  # a YAMLError, or text libyaml cannot take: the round trip reads it and says why
        return None
    finally:
        loader.dispose()


def _built(tree: YamlTree, node):
    return tree.build(node) if node is not None else None


def compose_round_trip(text: str):
    """The node tree of text through ruamel.yaml's round-trip composer (pure Python)."""
    from ruamel.yaml import YAML

    return YAML(typ="rt", pure=True).compose(text)


def parse_yaml(doc: Document, text: str, line_offset: int = 0, char_offset: int = 0, fast: bool = True):
    """(data, tree, error) for YAML text that starts at ``line_offset`` lines into doc.

    libyaml composes when it can (``fast``), ruamel.yaml's round trip when it cannot or finds an
    error: both give nodes with the same marks, tags and styles, so the data, spans and duplicate
    keys built from them are the same (tests/test_fast_path.py checks it). Fixes edit the text at
    the spans' offsets and never need ruamel.yaml's nodes or comments.
    """
    tree = YamlTree(doc, line_offset, char_offset)
    composed = compose_fast(text) if fast else None
    if composed is not None:
        tree.start_fast(text)
        try:
            data = _built(tree, composed[0])
            tree.end_fast()
            return data, tree, None
        except (_Bomb, RecursionError, _NotExact):
            tree = YamlTree(doc, line_offset, char_offset)  # ruamel.yaml says it, as it always has
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    try:
        data = _built(tree, compose_round_trip(text))
    except MarkedYAMLError as error:
        return None, tree, _syntax_error(error, line_offset)
    except _Bomb:
        return None, tree, ParseError(
            f"YAML aliases expand to more than {MAX_EXPANDED_NODES:,} nodes (an alias bomb?)", 1 + line_offset
        )
    except RecursionError:
        return None, tree, ParseError(f"YAML nested deeper than {MAX_DEPTH} levels", 1 + line_offset)
    except YAMLError as error:
        return None, tree, ParseError(f"YAML error: {error}".splitlines()[0], 1 + line_offset)
    return data, tree, None


def _syntax_error(error, line_offset: int = 0) -> ParseError:
    mark = error.problem_mark or error.context_mark
    message = " ".join(str(x) for x in (error.context, error.problem) if x) or "YAML syntax error"
    line = mark.line + 1 + line_offset if mark else 1 + line_offset
    column = mark.column + 1 if mark else 1
    return ParseError(f"YAML syntax error: {message}", line, column)


_SECOND_DOCUMENT = "expected a single document in the stream"


def _stream_error(text: str, first: ParseError) -> ParseError | None:
    """The error of text read as a stream of YAML documents (`---` between them), None when it is a valid one."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError

    try:
        for _ in YAML(typ="rt", pure=True).compose_all(text):
            pass
    except MarkedYAMLError as error:
        return _syntax_error(error)
    except Exception:  # any other YAML error, or nesting too deep: the single-document reading's error stands
        return first
    return None


class YamlDocument(Document):
    format = "yaml"

    def parse(self) -> None:
        self.data, self.tree, error = parse_yaml(self, self.text)
        if error is not None and not self.kind.memory and _SECOND_DOCUMENT in error.message:
            # A file no kind claims, read by its extension: a stream of documents is valid YAML, and its own
            # first error (if any) is the one to report.
            error = _stream_error(self.text, error)
        if error is not None:
            self.error = error

    def span(self, path: JsonPath) -> Span | None:
        return self.tree.spans.get(tuple(path))

    def locate(self, path: JsonPath) -> tuple[int, int]:
        """Line and column for a JSON path: the key if it has one, else the value.

        A path that does not exist (a missing required key) points at the
        closest existing parent.
        """
        path = tuple(path)
        while path not in self.tree.spans and path:
            path = path[:-1]
        span = self.tree.spans.get(path)
        if span is None:
            return 1, 1
        if span.key_line is not None:
            return span.key_line, span.key_column
        return span.line, span.column

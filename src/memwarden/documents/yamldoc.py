"""YAML with a position for every key and value.

ruamel.yaml composes the file into nodes that carry their marks; we build
plain JSON-like data from those nodes ourselves, so that we can (1) record
the line and column of every key and value by JSON path, (2) see duplicate
keys that a loader would silently collapse, (3) stop an alias bomb before it
expands, and (4) keep timestamps as the strings the user wrote, so an
impossible date is an `invalid-timestamp` finding rather than a crash.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from memwarden.documents.base import MAX_DEPTH, Document, ParseError

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

    def _span(self, node, key_node=None) -> Span:
        start, end = node.start_mark, node.end_mark
        style = getattr(node, "style", None)
        return Span(
            line=start.line + 1 + self.line_offset,
            column=start.column + 1,
            end_line=end.line + 1 + self.line_offset,
            end_column=end.column + 1,
            key_line=key_node.start_mark.line + 1 + self.line_offset if key_node is not None else None,
            key_column=key_node.start_mark.column + 1 if key_node is not None else None,
            start_offset=start.index + self.char_offset,
            end_offset=end.index + self.char_offset,
            key_offset=key_node.start_mark.index + self.char_offset if key_node is not None else None,
            style=style if isinstance(style, str) else None,
            flow=bool(getattr(node, "flow_style", False)),
        )

    def build(self, node, path: JsonPath = (), key_node=None, depth: int = 0):
        self._built += 1
        if self._built > MAX_EXPANDED_NODES:
            raise _Bomb()
        if depth > MAX_DEPTH:
            raise RecursionError()
        self.spans.setdefault(path, self._span(node, key_node))
        kind = type(node).__name__
        if kind == "ScalarNode":
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


def parse_yaml(doc: Document, text: str, line_offset: int = 0, char_offset: int = 0):
    """(data, tree, error) for YAML text that starts at ``line_offset`` lines into doc."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    tree = YamlTree(doc, line_offset, char_offset)
    try:
        node = YAML(typ="rt", pure=True).compose(text)
        data = tree.build(node) if node is not None else None
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        message = " ".join(str(x) for x in (error.context, error.problem) if x) or "YAML syntax error"
        line = mark.line + 1 + line_offset if mark else 1 + line_offset
        column = mark.column + 1 if mark else 1
        return None, tree, ParseError(f"YAML syntax error: {message}", line, column)
    except _Bomb:
        return None, tree, ParseError(
            f"YAML aliases expand to more than {MAX_EXPANDED_NODES:,} nodes (an alias bomb?)", 1 + line_offset
        )
    except RecursionError:
        return None, tree, ParseError(f"YAML nested deeper than {MAX_DEPTH} levels", 1 + line_offset)
    except YAMLError as error:
        return None, tree, ParseError(f"YAML error: {error}".splitlines()[0], 1 + line_offset)
    return data, tree, None


class YamlDocument(Document):
    format = "yaml"

    def parse(self) -> None:
        self.data, self.tree, error = parse_yaml(self, self.text)
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

"""Small, byte-careful edits inside YAML mappings and sequences and JSON objects and arrays.

Each helper returns `Edit`s on a document's decoded text, or None when there is
no safe way to make the change (the rule then reports without a fix). They
never re-serialise a whole structure: a new key or item goes in as one
inserted piece of text in the style of its neighbours (indentation, block or
flow style, quoting, separator spacing, the file's own line ending), and an
item is changed or removed by touching only its own characters. Comments,
key order, BOM and line endings are left alone because they are never part of
an edit.

YAML positions come from `YamlTree.spans` (a `Span` per JSON path, offsets into
the document's text, so the same helpers serve a YAML file and a Markdown
front matter); JSON positions from `JsonlDocument.positions(record)`.
"""

from __future__ import annotations

import json
import re

from memwarden.patterns import LazyPattern
from memwarden.documents.yamldoc import SpanTable
from memwarden.model import Edit

# -- YAML scalars --------------------------------------------------------------

_PLAIN_SAFE = LazyPattern(r"[A-Za-z0-9_\u00a0-\U0010ffff][A-Za-z0-9_.\-/+:@\u00a0-\U0010ffff]*")
_YAML_SPECIAL = LazyPattern(
    r"(?i:true|false|yes|no|on|off|y|n|null|~)"
    r"|[-+]?(?:\d[\d_]*)?(?:\.\d*)?(?:[eE][-+]?\d+)?"
    r"|0x[0-9a-fA-F_]+|0o[0-7_]+|0b[01_]+|[-+]?\.(?i:inf|nan)"
    r"|\d{4}-\d{1,2}-\d{1,2}(?:[Tt ].*)?"
    r"|\d+(?::[0-5]?\d)+(?:\.\d*)?"
)


def plain_scalar_ok(value: str) -> bool:
    """True when value can be written as a plain YAML scalar and read back as the same string."""
    return bool(
        value
        and _PLAIN_SAFE.fullmatch(value)
        and not value.endswith(":")
        and "://" not in value
        and not _YAML_SPECIAL.fullmatch(value)
    )


def yaml_scalar(value: str, style: str | None = None) -> str:
    """value as a YAML scalar in the given quoting style (None = plain when safe)."""
    if style == "'" and "\n" not in value and all(ch.isprintable() for ch in value):
        return "'" + value.replace("'", "''") + "'"
    if style is None and plain_scalar_ok(value):
        return value
    return json.dumps(value, ensure_ascii=False)  # a JSON string is a valid YAML double-quoted scalar


class SpanIndex:
    """Children of every path of a span table.

    Building it reads the whole table once; a caller that asks about many paths
    of one document builds it once and passes it to :func:`child_spans`.
    """

    def __init__(self, spans: dict):
        self.spans = spans
        if isinstance(spans, SpanTable):
            self.children = spans.children  # the table keeps its own index: no pass per question
            return
        self.children: dict[tuple, list[tuple]] = {}
        for path in spans:
            if path:
                self.children.setdefault(path[:-1], []).append(path)

    def descendants(self, path: tuple):
        stack = [path]
        while stack:
            current = stack.pop()
            yield current
            stack.extend(self.children.get(current, ()))


def child_spans(spans: dict, path: tuple, index: SpanIndex | None = None) -> list[tuple[tuple, object]]:
    """Direct children of path, in source order, leaving out keys pulled in by a merge (<<)."""
    path = tuple(path)
    parent = spans.get(path)
    if index is None:
        index = SpanIndex(spans)
    found = []
    for child_path in index.children.get(path, ()):
        span = spans[child_path]
        anchor = span.key_offset if span.key_offset is not None else span.start_offset
        if parent is not None and anchor < parent.start_offset:
            continue  # a merged key: it lives at its anchor, not here
        found.append((child_path, span))
    found.sort(key=lambda item: item[1].key_offset if item[1].key_offset is not None else item[1].start_offset)
    return found



def _leaf_end(spans: dict, path: tuple, floor: int, index: SpanIndex) -> int:
    """Where the last text of the node at path ends: the furthest scalar or flow node inside it.

    Block collections end where the next token starts (past comments and blank
    lines), so only their leaves are trusted. Nodes before ``floor`` are aliases
    resolved to their anchor and are ignored.
    """
    end = floor
    for child_path in index.descendants(path):
        span = spans.get(child_path)
        if span is None or span.start_offset < floor:
            continue
        if (span.flow or child_path not in index.children) and span.end_offset > end:
            end = span.end_offset
    return end


def _keeps_trailing_lines(text: str, span) -> bool:
    """A `|+` / `>+` block scalar owns the blank lines after it: nothing may go between them."""
    if span.style not in ("|", ">"):
        return False
    header = text[span.start_offset : span.start_offset + 4]
    return "+" in header.split("\n", 1)[0]


def _line_end(text: str, offset: int) -> int:
    """Offset of the line break (before the CR of a CRLF) that ends the line a node ends on.

    A block scalar ends at the start of the line after it (past its blank
    lines): step back to its last character first.
    """
    if offset > 0 and text[offset - 1] == "\n":
        while offset > 0 and text[offset - 1] in " \t\r\n":
            offset -= 1
    newline = text.find("\n", offset)
    if newline == -1:
        return len(text)
    return newline - 1 if newline > 0 and text[newline - 1] == "\r" else newline


def _indent_of(text: str, offset: int) -> str:
    """Spaces up to offset's column on its line (what a sibling must start with)."""
    line_start = text.rfind("\n", 0, offset) + 1
    return " " * (offset - line_start)


def _flow_separator(text: str, spans_in_order: list, default: str = ", ") -> str:
    """The separator written between the first two items of a flow collection (", " or ",")."""
    if len(spans_in_order) < 2:
        return default
    first, second = spans_in_order[0], spans_in_order[1]
    between = text[first.end_offset : second.key_offset if second.key_offset is not None else second.start_offset]
    if between.strip() == "," and "\n" not in between:
        return between
    return default


def yaml_insert_key(text: str, spans: dict, path: tuple, key: str, value: str, newline: str) -> Edit | None:
    """Add `key: value` (value already YAML) as the last key of the mapping at path."""
    mapping = spans.get(tuple(path))
    if mapping is None:
        return None
    path = tuple(path)
    index = SpanIndex(spans)
    children = [(p, s) for p, s in child_spans(spans, path, index) if isinstance(p[-1], str)]
    if mapping.flow:
        if not children:
            brace = text.find("{", mapping.start_offset, mapping.end_offset)
            if brace == -1:
                return None
            return Edit(brace + 1, brace + 1, f"{key}: {value}")
        _, last = max(children, key=lambda item: item[1].end_offset)
        separator = _flow_separator(text, [s for _, s in children])
        return Edit(last.end_offset, last.end_offset, f"{separator}{key}: {value}")
    if not children:
        return None
    first_key = children[0][1].key_offset
    if first_key is None:
        return None
    last_path, last = children[-1]
    floor = last.key_offset if last.key_offset is not None else last.start_offset
    end = max(_leaf_end(spans, last_path, floor, index), floor)
    if any(
        _keeps_trailing_lines(text, spans[child]) and spans[child].end_offset >= end
        for child in index.descendants(last_path)
    ):
        return None
    at = _line_end(text, end)
    if at == len(text) and any(
        spans[child].style in ("|", ">") for child in [last_path, *index.descendants(last_path)] if child in spans
    ):
        # A block scalar that ends the file with no newline would gain one if a line followed it
        # (its value would change): the new key goes before the last key instead.
        line_start = text.rfind("\n", 0, floor) + 1
        return Edit(line_start, line_start, f"{_indent_of(text, first_key)}{key}: {value}{newline}")
    return Edit(at, at, f"{newline}{_indent_of(text, first_key)}{key}: {value}")


def yaml_insert_before_line(text: str, line_start: int, key: str, value: str, newline: str) -> Edit:
    """Add `key: value` as a new line at line_start (an empty front matter: before its closing ---)."""
    return Edit(line_start, line_start, f"{key}: {value}{newline}")


# -- YAML sequences ------------------------------------------------------------


def _sequence_items(spans: dict, path: tuple) -> list:
    items = []
    index = 0
    while path + (index,) in spans:
        items.append(spans[path + (index,)])
        index += 1
    return items


def _item_style(span) -> str | None:
    return span.style if span.style in ("'", '"') else None


def yaml_append_items(text: str, spans: dict, path: tuple, values: list[str], newline: str) -> Edit | None:
    """Add string items to the end of the YAML sequence at path, in the style of its items."""
    path = tuple(path)
    sequence = spans.get(path)
    if sequence is None or not values:
        return None
    items = _sequence_items(spans, path)
    styles = {_item_style(item) for item in items if item.style in (None, "'", '"')}
    style = styles.pop() if len(styles) == 1 else None
    rendered = [yaml_scalar(value, style) for value in values]
    if sequence.flow:
        if not items:
            bracket = text.find("[", sequence.start_offset, sequence.end_offset)
            if bracket == -1:
                return None
            return Edit(bracket + 1, bracket + 1, ", ".join(rendered))
        last = items[-1]
        if not last.flow and last.style in ("|", ">"):
            return None
        separator = _flow_separator(text, items)
        return Edit(last.end_offset, last.end_offset, "".join(f"{separator}{r}" for r in rendered))
    if not items:
        return None
    last_index = len(items) - 1
    end = _leaf_end(spans, path + (last_index,), items[-1].start_offset, SpanIndex(spans))
    end = max(end, items[-1].end_offset)
    if any(_keeps_trailing_lines(text, item) for item in items[-1:]):
        return None
    dash = text.rfind("-", text.rfind("\n", 0, items[0].start_offset) + 1, items[0].start_offset)
    if dash == -1:
        return None
    indent = _indent_of(text, dash)
    at = _line_end(text, end)
    return Edit(at, at, "".join(f"{newline}{indent}- {r}" for r in rendered))


def yaml_rewrite_items(text: str, spans: dict, path: tuple, new_values: list[str | None]) -> list[Edit] | None:
    """Replace or remove items of the YAML sequence at path: new_values[i] is the new string, or None to drop it.

    Items whose value does not change are not touched. A dropped block item
    takes its whole line with it; a comment on that line stays, on a line of its own.
    """
    path = tuple(path)
    sequence = spans.get(path)
    items = _sequence_items(spans, path)
    if sequence is None or len(items) != len(new_values):
        return None
    edits: list[Edit] = []
    for item, new in zip(items, new_values):
        if new is None or item.flow:
            continue
        if item.style in ("|", ">"):
            return None
        old_text = text[item.start_offset : item.end_offset]
        replacement = yaml_scalar(new, _item_style(item))
        if replacement != old_text:
            edits.append(Edit(item.start_offset, item.end_offset, replacement))
    dropped = [i for i, new in enumerate(new_values) if new is None]
    if not dropped:
        return edits
    if sequence.flow:
        kept = [i for i, new in enumerate(new_values) if new is not None]
        ranges = []
        if not kept:
            ranges.append((items[0].start_offset, items[-1].end_offset))
        else:
            first_kept = kept[0]
            if first_kept > 0:
                ranges.append((items[0].start_offset, items[first_kept].start_offset))
            ranges.extend((items[i - 1].end_offset, items[i].end_offset) for i in dropped if i > first_kept)
        for start, end in ranges:
            if _has_comment(text, start, end):
                return None
            edits.append(Edit(start, end, ""))
        return edits
    if len(dropped) == len(items):
        # A block sequence left with no items reads as null: say [] after the key instead.
        if sequence.key_offset is None:
            return None
        colon = text.find(":", sequence.key_offset)
        rest_end = text.find("\n", colon)
        rest = text[colon + 1 : len(text) if rest_end == -1 else rest_end].strip()
        if colon == -1 or (rest and not rest.startswith("#")):
            return None
        edits.append(Edit(colon + 1, colon + 1, " []"))
    for index in dropped:
        item = items[index]
        line_start = text.rfind("\n", 0, item.start_offset) + 1
        line_end = text.find("\n", item.end_offset)
        line_end = len(text) if line_end == -1 else line_end
        before = text[line_start : item.start_offset]
        after = text[item.end_offset : line_end].rstrip("\r")
        if before.strip() != "-":
            return None  # the item shares its line with something else
        comment = after.strip()
        if comment and not comment.startswith("#"):
            return None
        if comment:
            indent = before[: before.index("-")]
            edits.append(Edit(line_start, line_end - (1 if text[line_end - 1 : line_end] == "\r" else 0), indent + comment))
        else:
            edits.append(Edit(line_start, min(line_end + 1, len(text)), ""))
    return edits


def _has_comment(text: str, start: int, end: int) -> bool:
    """A '#' that starts a YAML comment between start and end (outside quotes)."""
    quote = ""
    for index in range(start, end):
        char = text[index]
        if quote:
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or text[index - 1] in " \t\r\n"):
            return True
    return False


# -- JSON (one record of a JSONL log) -----------------------------------------------


def _ascii_style(source: str) -> bool:
    """Does the record spell non-ASCII characters as \\uXXXX escapes?"""
    if any(ord(char) > 127 for char in source):
        return False
    return "\\u" in source


def json_string(value: str, source: str) -> str:
    return json.dumps(value, ensure_ascii=_ascii_style(source))


def _json_spacing(source: str, spans: dict) -> tuple[str, str]:
    """(separator between members, colon) as the record writes them: ", " / "," and ": " / ":"."""
    members = sorted(
        (span for path, span in spans.items() if len(path) == 1 and span[2] is not None), key=lambda s: s[2]
    )
    colon, separator = ": ", ", "
    if members:
        start, _, key_start = members[0]
        _, key_end = json.JSONDecoder().raw_decode(source, key_start)
        colon = source[key_end:start] or ":"
        if colon.strip() != ":" or "\n" in colon:
            colon = ": "
    if len(members) >= 2:
        between = source[members[0][1] : members[1][2]]
        if between.strip() == "," and "\n" not in between:
            separator = between
    return separator, colon


def json_insert_member(source: str, spans: dict, base: int, key: str, value_json: str) -> Edit | None:
    """Add `"key": value` as the last member of the JSON object whose text is source (at offset base)."""
    root = spans.get(())
    if root is None or not source[root[0] : root[1]].startswith("{"):
        return None
    separator, colon = _json_spacing(source, spans)
    members = [span for path, span in spans.items() if len(path) == 1]
    piece = f"{json.dumps(key, ensure_ascii=_ascii_style(source))}{colon}{value_json}"
    if not members:
        return Edit(base + root[0] + 1, base + root[0] + 1, piece)
    last_end = max(span[1] for span in members)
    return Edit(base + last_end, base + last_end, f"{separator}{piece}")


def _array_items(spans: dict, path: tuple) -> list[tuple[int, int, int | None]]:
    items = []
    index = 0
    while path + (index,) in spans:
        items.append(spans[path + (index,)])
        index += 1
    return items


def json_append_items(source: str, spans: dict, base: int, path: tuple, values: list[str]) -> Edit | None:
    """Add strings to the end of the JSON array at path."""
    path = tuple(path)
    array = spans.get(path)
    if array is None or not source[array[0] : array[1]].startswith("[") or not values:
        return None
    items = _array_items(spans, path)
    rendered = [json_string(value, source) for value in values]
    separator = _json_spacing(source, spans)[0]  # the record's own spacing, until the array shows its own
    if not items:
        return Edit(base + array[0] + 1, base + array[0] + 1, separator.join(rendered))
    if len(items) >= 2:
        between = source[items[0][1] : items[1][0]]
        if between.strip() == "," and "\n" not in between:
            separator = between
    return Edit(base + items[-1][1], base + items[-1][1], "".join(separator + r for r in rendered))


def json_rewrite_items(source: str, spans: dict, base: int, path: tuple, new_values: list[str | None]) -> list[Edit] | None:
    """Replace (new string) or drop (None) items of the JSON array at path, touching only those items."""
    path = tuple(path)
    items = _array_items(spans, path)
    if spans.get(path) is None or len(items) != len(new_values):
        return None
    edits: list[Edit] = []
    for (start, end, _), new in zip(items, new_values):
        if new is None:
            continue
        old = source[start:end]
        try:
            if json.loads(old) == new:
                continue
        except ValueError:
            return None
        edits.append(Edit(base + start, base + end, json_string(new, source)))
    kept = [i for i, new in enumerate(new_values) if new is not None]
    dropped = [i for i, new in enumerate(new_values) if new is None]
    if not dropped:
        return edits
    if not kept:
        edits.append(Edit(base + items[0][0], base + items[-1][1], ""))
        return edits
    first_kept = kept[0]
    if first_kept > 0:
        edits.append(Edit(base + items[0][0], base + items[first_kept][0], ""))
    for index in dropped:
        if index > first_kept:
            edits.append(Edit(base + items[index - 1][1], base + items[index][1], ""))
    return edits

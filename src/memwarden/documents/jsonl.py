"""JSON Lines: one record a line, numbered as read; one bad line never hides the others."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from memwarden.documents.base import MAX_DEPTH, Document, ParseError

_decoder = json.JSONDecoder()
_WHITESPACE = " \t\r\n"


@dataclass
class Record:
    line: int  # 1-based
    column: int  # where this object starts on its line (1-based)
    start: int  # text offset of the object
    end: int  # text offset just past the object
    data: Any = None
    error: ParseError | None = None
    duplicates: list[tuple[tuple, str, int]] = field(default_factory=list)  # (path, key, column)
    shares_line: bool = False  # a second (third...) object on one line

    @property
    def ok(self) -> bool:
        return self.error is None

    def source(self, doc: "JsonlDocument") -> str:
        return doc.text[self.start : self.end]


def _pairs_hook(pairs):
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        _pairs_hook.seen = True
    return dict(pairs)


class NonStandardConstant(ValueError):
    """NaN, Infinity or -Infinity: Python's json reads them, JSON (and most other readers) do not."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


def _reject_constant(name: str):
    raise NonStandardConstant(name)


def _unquoted(text: str):
    """(index, character) of every character of a JSON text outside its strings and their quotes."""
    in_string = escaped = False
    for i, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        else:
            yield i, char


def _outside_strings(text: str, word: str) -> int:
    """Where word first occurs in a JSON text outside its strings (0 when it does not)."""
    return next((i for i, _ in _unquoted(text) if text.startswith(word, i)), 0)


def depth_exceeds(text: str, limit: int) -> bool:
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    for _, char in _unquoted(text):
        if char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


class JsonPositions:
    """Spans of every key and value in one JSON text, by JSON path (built on demand)."""

    def __init__(self, text: str):
        self.text = text
        self.spans: dict[tuple, tuple[int, int, int | None]] = {}  # path -> (start, end, key_start)
        self.duplicates: list[tuple[tuple, str, int]] = []
        self._value(0, (), None, 0)

    def _skip(self, i: int) -> int:
        while i < len(self.text) and self.text[i] in _WHITESPACE:
            i += 1
        return i

    def _value(self, i: int, path: tuple, key_start: int | None, depth: int) -> int:
        i = self._skip(i)
        if depth > MAX_DEPTH:
            raise ValueError("too deep")
        start = i
        char = self.text[i] if i < len(self.text) else ""
        if char == "{":
            i = self._skip(i + 1)
            seen: set[str] = set()
            if self.text[i] == "}":
                i += 1
            else:
                while True:
                    i = self._skip(i)
                    key_at = i
                    key, i = _decoder.raw_decode(self.text, i)
                    i = self._skip(i)
                    i += 1  # ':'
                    if key in seen:
                        self.duplicates.append((path + (key,), key, key_at + 1))
                        i = self._value(i, ("\0dup",) + path + (key,), key_at, depth + 1)
                    else:
                        seen.add(key)
                        i = self._value(i, path + (key,), key_at, depth + 1)
                    i = self._skip(i)
                    if self.text[i] == ",":
                        i += 1
                        continue
                    i += 1  # '}'
                    break
        elif char == "[":
            i = self._skip(i + 1)
            if self.text[i] == "]":
                i += 1
            else:
                index = 0
                while True:
                    i = self._value(i, path + (index,), None, depth + 1)
                    index += 1
                    i = self._skip(i)
                    if self.text[i] == ",":
                        i += 1
                        continue
                    i += 1  # ']'
                    break
        else:
            _, i = _decoder.raw_decode(self.text, i)
        self.spans[path] = (start, i, key_start)
        return i


class JsonlDocument(Document):
    format = "jsonl"

    def parse(self) -> None:
        self.records: list[Record] = []
        self.blank_lines: list[int] = []
        self._positions: dict[int, JsonPositions] = {}
        text = self.text
        line_number = 0
        offset = 0
        while offset < len(text):
            end = text.find("\n", offset)
            end = len(text) if end == -1 else end
            line_number += 1
            self._parse_line(text, offset, end, line_number)
            offset = end + 1

    def _parse_line(self, text: str, start: int, end: int, line_number: int) -> None:
        content_end = end - 1 if end > start and text[end - 1] == "\r" else end
        i = start
        while i < content_end and text[i] in " \t":
            i += 1
        if i >= content_end:
            self.blank_lines.append(line_number)
            return
        first = True
        while i < content_end:
            record = Record(line=line_number, column=i - start + 1, start=i, end=content_end, shares_line=not first)
            segment = text[i:content_end]
            if depth_exceeds(segment, MAX_DEPTH):
                record.error = ParseError(f"JSON nested deeper than {MAX_DEPTH} levels", line_number, record.column)
                self.records.append(record)
                return
            _pairs_hook.seen = False
            try:
                decoder = json.JSONDecoder(object_pairs_hook=_pairs_hook, parse_constant=_reject_constant)
                record.data, consumed = decoder.raw_decode(segment)
            except NonStandardConstant as error:
                column = record.column + _outside_strings(segment, error.name)
                record.error = ParseError(
                    f"invalid JSON: {error.name} is not a JSON value (only Python reads NaN and Infinity; "
                    "write null or a string)", line_number, column,
                )
                self.records.append(record)
                return
            except ValueError as error:
                column = record.column + getattr(error, "pos", 0)
                message = getattr(error, "msg", str(error))
                record.error = ParseError(f"invalid JSON: {message}", line_number, column)
                self.records.append(record)
                return
            except RecursionError:
                record.error = ParseError("JSON nested too deeply", line_number, record.column)
                self.records.append(record)
                return
            record.end = i + consumed
            if _pairs_hook.seen:
                record.duplicates = [
                    (path, key, column + record.column - 1)
                    for path, key, column in self.positions(record).duplicates
                ]
            self.records.append(record)
            i = record.end
            while i < content_end and text[i] in " \t":
                i += 1
            first = False
            if i < content_end and text[i] not in "{[":
                self.records.append(
                    Record(
                        line=line_number,
                        column=i - start + 1,
                        start=i,
                        end=content_end,
                        error=ParseError("invalid JSON: extra data after the record", line_number, i - start + 1),
                        shares_line=True,
                    )
                )
                return

    def positions(self, record: Record) -> JsonPositions:
        key = record.start
        if key not in self._positions:
            self._positions[key] = JsonPositions(self.text[record.start : record.end])
        return self._positions[key]

    def locate(self, record: Record, path) -> tuple[int, int]:
        """Line and column of a JSON path inside a record: its key, else its value.

        A missing path points at the closest existing parent.
        """
        path = tuple(path)
        try:
            spans = self.positions(record).spans
        except (ValueError, IndexError):
            return record.line, record.column
        while path not in spans and path:
            path = path[:-1]
        start, _, key_start = spans.get(path, (0, 0, None))
        return record.line, record.column + (key_start if key_start is not None else start)

    def value_span(self, record: Record, path) -> tuple[int, int] | None:
        """Text offsets of a value inside the document, or None if absent."""
        spans = self.positions(record).spans
        found = spans.get(tuple(path))
        if found is None:
            return None
        return record.start + found[0], record.start + found[1]

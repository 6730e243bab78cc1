"""Parsing ``memwarden:`` directives, and which findings they silence where.

The engine reads them to drop silenced findings; the ``invalid-suppression``
rule (rules/meta.py) reads them to report an unknown action or rule name.
A directive is ``<!-- memwarden: disable=NAME -->`` in Markdown or
``# memwarden: ...`` in YAML.

Actions: ``disable-line`` (this line), ``disable-next-line``, ``disable`` (from
here until ``enable``, or the end of the file) and ``disable-file``. Without
``=NAMES`` an action applies to every rule. JSONL has no comments: use
per-file-ignores or the secrets baseline there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ACTIONS = ("disable-next-line", "disable-line", "disable-file", "disable", "enable")
_DIRECTIVE = {
    "yaml": re.compile(r"#\s*memwarden:\s*(?P<action>[a-z-]+)(?:\s*=\s*(?P<names>[A-Za-z0-9_,\s-]*[A-Za-z0-9_]))?"),
    "markdown": re.compile(
        r"<!--\s*memwarden:\s*(?P<action>[a-z-]+)(?:\s*=\s*(?P<names>[A-Za-z0-9_,\s-]*[A-Za-z0-9_]))?\s*-->"
    ),
}
ALL = "*"


@dataclass(frozen=True)
class Directive:
    line: int
    column: int
    action: str
    names: tuple[str, ...]  # as written; empty = every rule


def directives(doc) -> list[Directive]:
    """Every ``memwarden:`` directive of a document, as written (unknown actions and names too)."""
    patterns = []
    if doc.format == "yaml":
        patterns = [_DIRECTIVE["yaml"]]
    elif doc.format in ("markdown", "index"):
        patterns = [_DIRECTIVE["markdown"], _DIRECTIVE["yaml"]]
    if not patterns or "memwarden:" not in doc.text:
        return []
    found = []
    for number in range(1, doc.line_count + 1):
        line = doc.line_text(number)
        if "memwarden:" not in line:
            continue
        for pattern in patterns:
            for match in pattern.finditer(line):
                names = tuple(n.strip() for n in (match.group("names") or "").split(",") if n.strip())
                found.append(Directive(number, match.start() + 1, match.group("action"), names))
    return found


class Suppressions:
    """Which rule names are silenced on which lines of one document."""

    def __init__(self, items: list[Directive], resolve):
        self._file: set[str] = set()
        self._lines: dict[int, set[str]] = {}
        self._ranges: list[tuple[int, int, set[str]]] = []
        open_ranges: dict[str, int] = {}
        for item in items:
            names = {ALL} if not item.names else {n for name in item.names for n in resolve(name)}
            if item.action == "disable-file":
                self._file |= names
            elif item.action == "disable-line":
                self._lines.setdefault(item.line, set()).update(names)
            elif item.action == "disable-next-line":
                self._lines.setdefault(item.line + 1, set()).update(names)
            elif item.action == "disable":
                for name in names:
                    open_ranges.setdefault(name, item.line)
            elif item.action == "enable":
                for name in list(open_ranges) if ALL in names else names:
                    if name in open_ranges:
                        self._ranges.append((open_ranges.pop(name), item.line, {name}))
        for name, start in open_ranges.items():
            self._ranges.append((start, 10**12, {name}))

    def silenced(self, rule_name: str, line: int) -> bool:
        def hit(names: set[str]) -> bool:
            return rule_name in names or ALL in names

        if hit(self._file) or hit(self._lines.get(line, set())):
            return True
        return any(start <= line <= end and hit(names) for start, end, names in self._ranges)

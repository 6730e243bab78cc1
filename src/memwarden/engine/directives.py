"""Which findings a document's ``memwarden:`` directives silence, on which lines.

The directives are parsed beside the documents (documents/directives.py).
"""

from __future__ import annotations

from memwarden.documents.directives import ALL, Directive, directives  # noqa: F401


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

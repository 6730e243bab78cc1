"""Parsing ``memwarden:`` directives: where a document's comments ask to silence which rules.

The engine reads them to drop silenced findings (engine/directives.py); the
``invalid-suppression`` rule (rules/meta.py) reads them to report an unknown
action or rule name.

A directive is ``<!-- memwarden: disable=NAME -->`` in Markdown or
``# memwarden: ...`` in YAML.

Actions: ``disable-line`` (this line), ``disable-next-line``, ``disable`` (from
here until ``enable``, or the end of the file) and ``disable-file``. Without
``=NAMES`` an action applies to every rule. JSONL has no comments: use
per-file-ignores or the secrets baseline there.
"""

from __future__ import annotations

from memwarden.patterns import LazyPattern
from dataclasses import dataclass

ACTIONS = ("disable-next-line", "disable-line", "disable-file", "disable", "enable")
_DIRECTIVE = {
    "yaml": LazyPattern(r"#\s*memwarden:\s*(?P<action>[a-z-]+)(?:\s*=\s*(?P<names>[A-Za-z0-9_,\s-]*[A-Za-z0-9_]))?"),
    "markdown": LazyPattern(
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

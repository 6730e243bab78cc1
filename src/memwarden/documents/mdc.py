"""Cursor's `.mdc` rule front matter, read as Cursor reads it when it is not valid YAML.

Cursor's own rules write globs unquoted (`globs: *.ts`, `globs: **/*.{ts,tsx}`), which YAML reads as an
alias and rejects; Cursor takes the value as the text after the colon. So an `.mdc` front matter that
YAML cannot parse is read as flat `key: value` lines (`true`/`false` as booleans, `- item` lines as a
list under a key with no value); one line of any other shape leaves the YAML error standing.
"""

from __future__ import annotations

from memwarden.patterns import LazyPattern

_KEY_LINE = LazyPattern(r"([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]+(.*?))?[ \t]*")
_ITEM_LINE = LazyPattern(r"[ \t]*-[ \t]+(.*?)[ \t]*")
_BOOLEANS = {"true": True, "false": False}


def is_cursor_rule(relpath: str) -> bool:
    return relpath.lower().endswith(".mdc")


def flat_front_matter(inner: str) -> dict | None:
    """The front matter (the text between its `---` lines) as Cursor's flat keys, or None when a line is not one."""
    data: dict = {}
    last_key = None
    for line in inner.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        item = _ITEM_LINE.fullmatch(line)
        if item and last_key is not None and isinstance(data[last_key], list):
            data[last_key].append(item.group(1))
            continue
        key = _KEY_LINE.fullmatch(line)
        if key is None or key.group(1) in data:
            return None
        value = key.group(2)
        last_key = key.group(1)
        data[last_key] = [] if not value else _BOOLEANS.get(value, value)
    return data

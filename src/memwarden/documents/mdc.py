"""Agent rule front matter read as its agent reads it when it is not valid YAML: Cursor's `.mdc` rules,
GitHub Copilot's `*.instructions.md` and Windsurf's `.windsurf/rules/*.md`.

Cursor's own rules write globs unquoted (`globs: *.ts`, `globs: **/*.{ts,tsx}`), and so do Copilot's
instructions (`applyTo: **/*.ts`, or several globs joined by commas), which YAML reads as an alias and
rejects; both agents take the value as the text after the colon (Copilot CLI since 1.0.48, "fixed parsing
of unquoted glob patterns in the applyTo field"). Windsurf's rules are written the same way
(`trigger: glob` over `globs: **/*.ts`, unquoted, in every repository of batch 17c that kept them). So such a front matter that YAML cannot parse is read
as flat `key: value` lines (`true`/`false` as booleans, `- item` lines as a list under a key with no
value); one line of any other shape, or a key twice, leaves the YAML error standing.
"""

from __future__ import annotations

from memwarden.patterns import LazyPattern

_KEY_LINE = LazyPattern(r"([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]+(.*?))?[ \t]*")
_ITEM_LINE = LazyPattern(r"[ \t]*-[ \t]+(.*?)[ \t]*")
_BOOLEANS = {"true": True, "false": False}


def reads_flat_front_matter(relpath: str) -> bool:
    """Whether the file's agent reads a front matter YAML rejects as flat lines: a Cursor rule (`.mdc`), a
    Copilot instructions file (`NAME.instructions.md` in or below an `instructions` folder), or a Windsurf rule."""
    lowered = relpath.lower()
    if lowered.endswith(".mdc") or (lowered.endswith(".md") and "/.windsurf/rules/" in "/" + lowered):
        return True
    return lowered.endswith(".instructions.md") and "instructions" in lowered.split("/")[:-1]


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

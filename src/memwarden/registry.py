"""The one table of rules.

A rule is declared once, by decorating its check function with :func:`rule`.
The function's docstring is the user documentation (shown by ``memwarden
explain`` and rendered into docs/rules.md) and must have the sections
``What it does``, ``Why``, ``Example`` and ``Fix safety``.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Callable, Iterable, Mapping

from memwarden.model import Applicability, Option, Rule, Scope, Severity

# The catalog: every module that declares rules. Adding a rule family means adding
# its module here; nothing else lists rules. They are imported on first use (as
# names, since each imports this module for @rule), and one that does not import
# is an error: a renamed module must never quietly take its rules with it.
RULE_MODULES = (
    "memwarden.rules.format",
    "memwarden.rules.timestamps",
    "memwarden.rules.recognition",
    "memwarden.rules.tags",
    "memwarden.rules.claims",
    "memwarden.rules.coherence",
    "memwarden.rules.index",
    "memwarden.rules.index_targets",
    "memwarden.rules.notes",
    "memwarden.rules.note_targets",
    "memwarden.rules.note_links",
    "memwarden.rules.budget",
    "memwarden.rules.append_only",
    "memwarden.rules.shrinkage",
    "memwarden.rules.secrets",
    "memwarden.rules.safety",
    "memwarden.rules.meta",
)

DOC_SECTIONS = ("What it does", "Why", "Example", "Fix safety")

_RULES: dict[str, Rule] = {}
_loaded = False


def rule(
    *,
    code: str,
    name: str,
    severity: Severity,
    scope: Scope = Scope.DOCUMENT,
    kinds: Iterable[str] | None = None,
    fix: Applicability | None = None,
    options: Mapping[str, Option] | None = None,
    needs_git: bool = False,
    reads_unparsed: bool = False,
    any_text: bool = False,
    records: bool = False,
) -> Callable:
    """Declare a rule; the decorated function is its check."""

    def register(check: Callable) -> Callable:
        doc = inspect.cleandoc(check.__doc__ or "")
        summary, _, body = doc.partition("\n")
        declared = Rule(
            code=code,
            name=name,
            severity=severity,
            summary=summary.strip(),
            doc=body.strip(),
            fix=fix,
            scope=scope,
            kinds=frozenset(kinds) if kinds is not None else None,
            options=dict(options or {}),
            check=check,
            needs_git=needs_git,
            reads_unparsed=reads_unparsed,
            any_text=any_text,
            records=records,
        )
        for existing in _RULES.values():
            if existing.code == code and existing.name != name:
                raise RuntimeError(f"rule code {code} used by {existing.name} and {name}")
        _RULES[name] = declared
        return check

    return register


def _load() -> None:
    global _loaded
    if _loaded:
        return
    for module in RULE_MODULES:
        importlib.import_module(module)
    _loaded = True


def all_rules() -> list[Rule]:
    _load()
    return sorted(_RULES.values(), key=lambda r: r.code)


def by_name_or_code(key: str) -> Rule | None:
    _load()
    if key in _RULES:
        return _RULES[key]
    for r in _RULES.values():
        if r.code.lower() == key.lower():
            return r
    return None


def resolve(keys: Iterable[str]) -> set[str]:
    """Rule names for a list of names, codes, code prefixes (``MW1``) or ``ALL``.

    Raises KeyError naming the first key that matches nothing.
    """
    _load()
    names: set[str] = set()
    for key in keys:
        key = key.strip()
        if not key:
            continue
        if key.upper() == "ALL":
            names.update(_RULES)
            continue
        found = by_name_or_code(key)
        if found is not None:
            names.add(found.name)
            continue
        prefixed = {r.name for r in _RULES.values() if r.code.upper().startswith(key.upper())}
        if key.upper().startswith("MW") and prefixed:
            names.update(prefixed)
            continue
        raise KeyError(key)
    return names

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

from memwarden import tiers
from memwarden.model import Applicability, Option, Rule, Scope, Severity

# The catalog: every rule's name and code, and the module that declares it. Adding a rule means adding
# its line here (tests/test_registry_catalog.py compares this table with what the modules declare, and
# prints the lines to paste). The table lets a run import only the modules of the rules it selects,
# and lets names and codes be resolved, suggested and validated without importing any. A module that
# does not import is an error: a renamed module must never quietly take its rules with it.
CATALOG: dict[str, tuple[str, str]] = {
    "unparsable-file": ("MW101", "memwarden.rules.format"),
    "schema-violation": ("MW102", "memwarden.rules.format"),
    "duplicate-key": ("MW103", "memwarden.rules.format"),
    "invalid-timestamp": ("MW104", "memwarden.rules.timestamps"),
    "duplicate-id": ("MW105", "memwarden.rules.format"),
    "malformed-jsonl": ("MW106", "memwarden.rules.format"),
    "unrecognized-file": ("MW107", "memwarden.rules.recognition"),
    "note-name-mismatch": ("MW108", "memwarden.rules.notes"),
    "note-type-mismatch": ("MW109", "memwarden.rules.notes"),
    "empty-note": ("MW110", "memwarden.rules.notes"),
    "feedback-without-why": ("MW111", "memwarden.rules.notes"),
    "misplaced-governance-key": ("MW112", "memwarden.rules.notes"),
    "misnamed-daily-note": ("MW113", "memwarden.rules.openclaw"),
    "leftover-bootstrap": ("MW114", "memwarden.rules.openclaw"),
    "user-directive-metadata": ("MW115", "memwarden.rules.openclaw"),
    "too-few-tags": ("MW201", "memwarden.rules.tags"),
    "unnormalized-tags": ("MW202", "memwarden.rules.tags"),
    "negative-claim-without-expiry": ("MW301", "memwarden.rules.claims"),
    "expired-claim": ("MW302", "memwarden.rules.claims"),
    "invalid-expiry": ("MW303", "memwarden.rules.claims"),
    "stale-statement": ("MW304", "memwarden.rules.claims"),
    "conflicting-records": ("MW305", "memwarden.rules.coherence"),
    "near-duplicate": ("MW306", "memwarden.rules.coherence"),
    "missing-provenance": ("MW307", "memwarden.rules.coherence"),
    "index-entry-without-trigger": ("MW401", "memwarden.rules.index"),
    "broken-index-link": ("MW402", "memwarden.rules.index_targets"),
    "cause-style-trigger": ("MW403", "memwarden.rules.index"),
    "one-direction-trigger": ("MW404", "memwarden.rules.index"),
    "orphan-note": ("MW405", "memwarden.rules.index_targets"),
    "content-in-index": ("MW406", "memwarden.rules.index"),
    "duplicate-trigger": ("MW407", "memwarden.rules.index"),
    "superseded-note-indexed": ("MW408", "memwarden.rules.index_targets"),
    "dangling-supersedes": ("MW409", "memwarden.rules.note_targets"),
    "broken-note-link": ("MW410", "memwarden.rules.note_links"),
    "missing-machine-path": ("MW411", "memwarden.rules.note_targets"),
    "deleted-repo-path": ("MW412", "memwarden.rules.repo_claims"),
    "undefined-script": ("MW413", "memwarden.rules.repo_claims"),
    "wrong-package-manager": ("MW414", "memwarden.rules.repo_claims"),
    "removed-symbol": ("MW415", "memwarden.rules.repo_claims"),
    "changed-since-note": ("MW416", "memwarden.rules.repo_claims"),
    "conflicting-instructions": ("MW417", "memwarden.rules.repo_claims"),
    "index-over-budget": ("MW501", "memwarden.rules.budget"),
    "index-past-truncation": ("MW502", "memwarden.rules.budget"),
    "index-missing": ("MW503", "memwarden.rules.budget"),
    "deleted-record": ("MW601", "memwarden.rules.append_only"),
    "rewritten-record": ("MW602", "memwarden.rules.append_only"),
    "deleted-note": ("MW603", "memwarden.rules.append_only"),
    "shrunk-file": ("MW604", "memwarden.rules.shrinkage"),
    "secret-in-memory": ("MW701", "memwarden.rules.secrets"),
    "personal-path": ("MW702", "memwarden.rules.secrets"),
    "personal-data": ("MW703", "memwarden.rules.secrets"),
    "executable-config": ("MW801", "memwarden.rules.safety"),
    "scratchpad-too-long": ("MW802", "memwarden.rules.safety"),
    "invalid-suppression": ("MW901", "memwarden.rules.meta"),
}

RULE_MODULES = tuple(dict.fromkeys(module for _, module in CATALOG.values()))

DOC_SECTIONS = ("What it does", "Why", "Example", "Fix safety")

_RULES: dict[str, Rule] = {}
_loaded = False
_imported: set[str] = set()


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
    reads_history: bool = False,
    reads_unparsed: bool = False,
    any_text: bool = False,
    records: bool = False,
    part: str | None = None,
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
            reads_history=reads_history,
            reads_unparsed=reads_unparsed,
            any_text=any_text,
            records=records,
            part=part,
        )
        for existing in _RULES.values():
            if existing.code == code and existing.name != name:
                raise RuntimeError(f"rule code {code} used by {existing.name} and {name}")
        _RULES[name] = declared
        return check

    return register


def _import(modules: Iterable[str]) -> None:
    for module in modules:
        if module not in _imported:
            importlib.import_module(module)
            _imported.add(module)


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _import(RULE_MODULES)
    _loaded = True


def all_rules() -> list[Rule]:
    _load()
    return sorted(_RULES.values(), key=lambda r: r.code)


def names() -> list[str]:
    """Every rule's name, in code order, without importing any rule module."""
    return sorted(CATALOG, key=lambda name: CATALOG[name][0])


def rules_named(wanted: Iterable[str]) -> list[Rule]:
    """The declared rules of these names (catalog names), in code order, importing only their modules."""
    wanted = set(wanted)
    _import(sorted({CATALOG[name][1] for name in wanted if name in CATALOG}))
    missing = sorted(name for name in wanted if name in CATALOG and name not in _RULES)
    if missing:  # the catalog and the modules disagree: never run quietly without a rule
        raise RuntimeError(f"rule {missing[0]} is in the catalog but {CATALOG[missing[0]][1]} does not declare it")
    return sorted((_RULES[name] for name in wanted if name in _RULES), key=lambda r: r.code)


def name_of(key: str) -> str | None:
    """The rule name a name or code stands for (None if none), without importing any rule module."""
    if key in CATALOG:
        return key
    upper = key.upper()
    return next((name for name, (code, _) in CATALOG.items() if code.upper() == upper), None)


def by_name_or_code(key: str) -> Rule | None:
    name = name_of(key)
    if name is None:
        return None
    found = rules_named([name])
    return found[0] if found else None


def resolve(keys: Iterable[str], preview: bool = True) -> set[str]:
    """Rule names for a list of names, codes, code prefixes (``MW1``) or ``ALL``; imports no rule module.

    A rule named exactly (name or full code) is always taken; without ``preview``, ``ALL`` and a prefix
    take only stable rules, with it stable and preview ones, never a deprecated one (as ruff selects). Raises KeyError naming the first key that matches nothing.
    """
    chosen: set[str] = set()
    for key in keys:
        key = key.strip()
        if not key:
            continue
        found = name_of(key)
        if found is not None:
            chosen.add(found)
            continue
        grouped = _group(key)
        if grouped is None:
            raise KeyError(key)
        chosen.update(name for name in grouped if tiers.runs_in_a_group(name, preview))
    return chosen


def taken_whole(keys: Iterable[str], preview: bool = True) -> set[str]:
    """The rules a list of keys takes whole: by exact name, or by a group that takes the rule itself (not only its
    stable part). Keys that match nothing are skipped (resolve has said so)."""
    whole: set[str] = set()
    for key in keys:
        key = key.strip()
        found = name_of(key) if key else None
        if found is not None:
            whole.add(found)
            continue
        grouped = _group(key) if key else None
        whole.update(name for name in grouped or () if tiers.runs_whole_in_a_group(name, preview))
    return whole


def _group(key: str) -> set[str] | None:
    """The rules ``ALL`` or a code prefix (``MW3``) stands for; None when the key is neither."""
    if key.upper() == "ALL":
        return set(CATALOG)
    prefixed = {name for name, (code, _) in CATALOG.items() if code.upper().startswith(key.upper())}
    return prefixed if key.upper().startswith("MW") and prefixed else None

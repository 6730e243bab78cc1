"""The small value types every other module speaks: rules, problems, fixes, findings."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"


class Applicability(str, enum.Enum):
    """How sure a fix is: `--fix` applies safe ones, `--unsafe-fixes` adds the rest."""

    SAFE = "safe"
    UNSAFE = "unsafe"


class Scope(str, enum.Enum):
    DOCUMENT = "document"  # check(doc, ctx) runs once per matching, parsed document
    WORKSPACE = "workspace"  # check(ctx) runs once per workspace


@dataclass(frozen=True)
class Edit:
    """Replace ``text[start:end]`` of a file's decoded text with ``replacement``.

    ``path`` is relative to the workspace root; ``None`` means the file the
    finding is in. An edit on a file that does not exist yet creates it, in
    ``creates_as`` (encoding, BOM) when set (a restored note keeps its own), else
    UTF-8 without a BOM.
    """

    start: int
    end: int
    replacement: str
    path: str | None = None
    creates_as: tuple[str, bytes] | None = None


@dataclass(frozen=True)
class Fix:
    applicability: Applicability
    description: str
    edits: tuple[Edit, ...]


@dataclass(frozen=True)
class RelatedLocation:
    """Another place a finding is about (the other file of a conflict): shown beside it, never a finding itself.

    On a Problem, ``workspace_path`` is relative to the workspace root and ``path`` is unset; the engine sets
    ``path`` to it as displayed. A finding is kept when its own file or any related one is a target; only a
    directive at its own place suppresses it.
    """

    workspace_path: str
    line: int
    column: int
    label: str  # a few of the rule's own words: "the other value"
    path: str = ""  # as displayed: relative to the current directory, '/'-separated

    def to_json(self) -> dict:
        return {"path": self.path, "line": self.line, "column": self.column, "label": self.label}


@dataclass
class Problem:
    """What a rule's check yields; the engine binds it to its rule and file."""

    line: int
    column: int
    message: str
    json_path: str | None = None
    fix: Fix | None = None
    path: str | None = None  # workspace-relative; defaults to the checked document
    severity: Severity | None = None  # overrides the rule's default when set
    # False when message, fix and JSON path are made of the rule's own words, paths and numbers only: nothing
    # from a file's content, so the engine need not scan the file for secrets to hide in them.
    quotes: bool = True
    # What else the message quotes, whose secrets are hidden in it too: another file of the workspace (its
    # workspace-relative path), or (text, format) of content no workspace file holds now (a base version).
    quotes_from: tuple = ()
    related: tuple[RelatedLocation, ...] = ()


@dataclass(frozen=True)
class Option:
    """A per-rule option, configurable under ``[tool.memwarden.rules.<name>]``."""

    default: Any
    type: type | tuple[type, ...]
    help: str
    # A value several rules share (one rule's fix must respect another's limit) is a
    # workspace setting: each rule declares the option with the same setting name,
    # any of their tables may set it, and every one of them reads the one value.
    setting: str | None = None


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: Severity
    summary: str
    doc: str
    fix: Applicability | None
    scope: Scope
    kinds: frozenset[str] | None  # document rules: the kinds they read (None = all)
    options: Mapping[str, Option]
    check: Callable[..., Iterable[Problem]]
    needs_git: bool = False
    reads_history: bool = False  # its findings depend on HEAD and the index (the caches key them by both)
    reads_unparsed: bool = False  # also runs on files that failed to parse (fixes still skip them)
    any_text: bool = False  # also runs on text files no kind claims (the `other-text` kind)
    # Its findings on a JSONL log are those on each record alone: the cache re-checks only new or changed lines.
    records: bool = False
    # The part of its findings measured, and tiered, on its own (ruff's stable rule with preview behaviour): when
    # only the part is stable, a run without preview that does not name the rule reports only that part.
    part: str | None = None


@dataclass
class Finding:
    rule: Rule
    path: str  # as displayed: relative to the current directory, '/'-separated
    line: int
    column: int
    message: str
    severity: Severity
    json_path: str | None = None
    fix: Fix | None = None
    workspace_path: str = ""  # relative to the workspace root
    fixed: bool = False
    quotes: bool = True  # as Problem.quotes
    quotes_from: tuple = ()  # as Problem.quotes_from
    related: tuple[RelatedLocation, ...] = ()  # as Problem.related, their paths displayed

    @property
    def workspace_paths(self) -> tuple[str, ...]:
        """The files it is anchored at: its own, then each related location's."""
        return (self.workspace_path, *(r.workspace_path for r in self.related))

    def sort_key(self) -> tuple:
        return (self.path, self.line, self.column, self.rule.code, self.message)

    def to_json(self) -> dict:
        data: dict[str, Any] = {
            "code": self.rule.code,
            "name": self.rule.name,
            "severity": self.severity.value,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "message": self.message,
        }
        if self.json_path is not None:
            data["json_path"] = self.json_path
        if self.fix is not None:
            data["fix"] = {
                "applicability": self.fix.applicability.value,
                "description": self.fix.description,
            }
        if self.related:
            data["related"] = [r.to_json() for r in self.related]
        return data



@dataclass
class Summary:
    files: int = 0
    errors: int = 0
    warnings: int = 0
    fixed: int = 0
    fixable: int = 0
    workspaces: list[dict] = field(default_factory=list)
    unclaimed: int = 0  # files named on the command line that no kind claims (checked by the any-text rules only)


class RunMemo:
    """Results the checks of one run share, built once and dropped with the run.

    The engine makes one per workspace run and hands it to every rule's context,
    so no rule keeps module-level state keyed on objects of another run.
    """

    def __init__(self) -> None:
        self._values: dict = {}

    def get(self, key, build, local: bool = False):
        """The value stored under key, built by ``build()`` the first time it is asked for.

        ``local=True`` says the value answers per content (each file's own text decides its part), so the
        findings of a cached document that read it do not depend on other files.
        """
        if key not in self._values:
            self._values[key] = build()
        return self._values[key]

    def has(self, key) -> bool:
        return key in self._values


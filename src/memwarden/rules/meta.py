"""Suppression comments must name real rules, or they silently suppress nothing."""

from __future__ import annotations

from dataclasses import dataclass

from memwarden import registry
from memwarden.model import Problem, Severity
from memwarden.registry import rule
from memwarden.documents.directives import ACTIONS, directives


@dataclass(frozen=True)
class UnknownSuppressionAction:
    action: str
    suggestion: str  # " (did you mean '...'?)", or ""

    @property
    def message(self) -> str:
        return f"unknown suppression action '{self.action}'{self.suggestion}"


@dataclass(frozen=True)
class UnknownRuleInSuppression:
    name: str
    suggestion: str

    @property
    def message(self) -> str:
        return f"unknown rule '{self.name}'{self.suggestion}"


@rule(code="MW901", name="invalid-suppression", severity=Severity.WARNING, records=True)  # JSONL has no directives
def invalid_suppression(doc, ctx):
    """A `memwarden:` suppression comment with an unknown action or rule name.

    ## What it does
    Checks every `<!-- memwarden: ... -->` (Markdown) and `# memwarden: ...`
    (YAML) comment: the action must be one of `disable`, `enable`,
    `disable-line`, `disable-next-line` or `disable-file`, and every name must
    be a rule name or code.

    ## Why
    A misspelt suppression silences nothing, and the finding it was meant to
    silence keeps failing the hook; or, worse, the author believes a rule is
    off when it is not.

    ## Example
    ```markdown
    <!-- memwarden: disable=too-few-tag -->
    ```
    `MW901 invalid-suppression unknown rule 'too-few-tag' (did you mean 'too-few-tags'?)`

    ## Fix safety
    No fix.
    """
    from memwarden.discover.config import suggest

    names = registry.names()
    for directive in directives(doc):
        if directive.action not in ACTIONS:
            violation = UnknownSuppressionAction(directive.action, suggest(directive.action, ACTIONS))
            yield Problem(directive.line, directive.column, violation.message)
            continue
        for name in directive.names:
            if registry.name_of(name) is None:
                violation = UnknownRuleInSuppression(name, suggest(name, names))
                yield Problem(directive.line, directive.column, violation.message)

"""shrunk-file (MW604): a memory file at half its size or less against the base.

The append-only family's fourth rule, beside rules/append_only.py, on the same
comparison (`--base REF` or `--staged`): those report each lost record, this one
a file that lost much of its text in one change, records or not.
"""

from __future__ import annotations

from dataclasses import dataclass

from memwarden.model import Option, Problem, Scope, Severity
from memwarden.registry import rule
from memwarden.rules.append_only import MUTABLE_FIELDS, outcome


@dataclass(frozen=True)
class ShrunkFile:
    base_size: int
    size: int
    label: str  # the base, as messages name it

    @property
    def message(self) -> str:
        percent = round(100 * self.size / self.base_size)
        return (
            f"file shrank from {self.base_size:,} to {self.size:,} bytes ({percent}% of its size at {self.label}): "
            "check that nothing was lost by accident, or archive what was removed"
        )


@rule(
    code="MW604",
    name="shrunk-file",
    severity=Severity.WARNING,
    scope=Scope.WORKSPACE,
    options={
        "mutable_fields": MUTABLE_FIELDS,
        "min_bytes": Option(400, int, "files smaller than this at the base are not reported"),
        "ratio": Option(0.5, float, "report a file at this fraction of its base size or less"),
    },
    needs_git=True,
)
def shrunk_file(ctx):
    """A memory file that shrank to half its size or less since the base.

    ## What it does
    With `--base REF` or `--staged`, compares each memory file's size with
    the base and warns when it is at `ratio` (0.5) of it or less. Notes,
    fact files and indexes are compared; episode logs and archives are not (a record that leaves a log is
    `deleted-record`'s, and consolidation moves many at once), nor is a file
    emptied or deleted (`deleted-note`, `deleted-record`). Files under
    `min_bytes` (400) at the base are not reported.

    ## Why
    An agent that rewrites a memory file can drop most of it without deleting
    any one thing the other rules track: the prose of a note, the comments
    and long values of a fact file. Halving a file in one change is rarely
    meant. memory-lint's users asked for this check.

    ## Example
    ```text
    $ git diff --stat HEAD -- memory/knowledge/feedback/verify-final-state.md
     memory/knowledge/feedback/verify-final-state.md | 60 +-----
    ```
    `memory/knowledge/feedback/verify-final-state.md:1:1: MW604 shrunk-file file shrank from 4,210 to 1,020 bytes (24% of its size at HEAD): ...`

    ## Fix safety
    No fix: whether the removal was meant is the author's call.
    """
    compared = outcome(ctx)
    if compared is None:
        return
    ratio, min_bytes = ctx.options["ratio"], ctx.options["min_bytes"]
    for shrunk in compared.changes.shrunk:
        if shrunk.base_size >= min_bytes and shrunk.size <= shrunk.base_size * ratio:
            violation = ShrunkFile(shrunk.base_size, shrunk.size, compared.changes.label)
            yield Problem(1, 1, violation.message, path=shrunk.path)

"""An index that still sends the agent to a note marked superseded (MW408, in the index family).

Its own module because rules/index.py sits at the 600-line limit; it reads the
indexes as the other index rules do (analysis/index_lines.py) and the notes'
front matter through analysis/superseded.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from memwarden.analysis import index_lines
from memwarden.analysis.superseded import superseded_notes
from memwarden.model import Problem, Scope, Severity
from memwarden.registry import rule
from memwarden.text import quoted

INDEX_KINDS = ("startup-index", "shelf-index")


@dataclass(frozen=True)
class SupersededNoteIndexed:
    note: str  # the workspace path the line points to
    key: str  # superseded_by, status, supersedes
    value: str  # as the front matter writes it; for supersedes, the note that says it
    successor: str | None  # the replacing note's path, when known

    @property
    def message(self) -> str:
        if self.key == "supersedes":
            why = f"{quoted(self.value, 60)} says it supersedes it"
        else:
            why = f"it is marked {self.key}: {quoted(self.value, 60)}"
        instead = f"point the line at {quoted(self.successor, 60)}" if self.successor else "point the line at the note that replaces it"
        return f"this line sends the agent to {quoted(self.note, 60)}, but {why}: {instead}, or drop the line"


@rule(code="MW408", name="superseded-note-indexed", severity=Severity.WARNING, scope=Scope.WORKSPACE)
def superseded_note_indexed(ctx):
    """An index line that points to a note marked superseded.

    ## What it does
    Finds the notes marked superseded: front matter (at the top or under
    `metadata:`) with `superseded_by: <note>`, or `status: superseded` or
    `status: deprecated`, or another note's `supersedes: <note>` (a path
    relative to that note, a file name with or without `.md`, a `[[wikilink]]`
    or a Markdown link). Then reports every line of the startup index and the
    shelf indexes that links to one of them, unless the same line also links
    to the note that replaces it ("old → superseded by new").

    ## Why
    Marking a note superseded tells a reader not to trust it, but the agent
    does not read that far: it follows the index, opens the note, and acts on
    the old lesson. The index line keeps the stale note alive every session.

    ## Example
    ```markdown
    - [Deploy flags](deploy-flags.md) — which flag skips the cache purge
    ```
    with `deploy-flags.md` saying `superseded_by: deploy-flags-v2`:
    `MEMORY.md:1:3: MW408 superseded-note-indexed this line sends the agent to 'deploy-flags.md', but it is marked superseded_by: 'deploy-flags-v2': point the line at 'deploy-flags-v2.md', or drop the line`

    ## Fix safety
    No fix: whether to repoint the line, merge the notes or drop the line is
    the author's call.
    """
    indexes = index_lines.in_reading_order(ctx.documents(*INDEX_KINDS))
    if not indexes:
        return
    superseded = superseded_notes(ctx.workspace)
    if not superseded:
        return
    for doc in indexes:
        for entry in doc.entries:
            targets = index_lines.local_targets(doc, entry)
            paths = {resolved for _, resolved in targets}
            for link, resolved in targets:
                mark = superseded.get(resolved)
                if mark is None or (mark.successor is not None and mark.successor in paths):
                    continue
                violation = SupersededNoteIndexed(resolved, mark.key, mark.value, mark.successor)
                yield Problem(entry.line, link.column, violation.message, path=doc.relpath)

"""Links in the body of notes: broken-note-link (MW410).

The index family checks where index lines point (rules/index_targets.py); this
rule checks where a note's own links point, with the same scanner and the same
suggestion of a really close file.
"""

from __future__ import annotations

from dataclasses import dataclass

from memwarden.analysis import index_lines
from memwarden.analysis.note_links import dead_links
from memwarden.model import Problem, Severity
from memwarden.registry import rule
from memwarden.text import excerpt_name, excerpt_path


@dataclass(frozen=True)
class MissingNoteLinkTarget:
    target: str  # as written
    resolved: str  # the target as a workspace path
    reference: bool  # a reference-style link, whose target a `[label]: ...` line gives
    suggestion: str | None  # a really close existing file, as a link from this note

    @property
    def message(self) -> str:
        where = "" if self.resolved == self.target else f" (from this note that is {excerpt_path(self.resolved, 80)})"
        via = " (its [label]: line)" if self.reference else ""
        hint = f": did you mean {excerpt_path(self.suggestion, 80)}?" if self.suggestion else ""
        return f"link target '{excerpt_path(self.target, 80)}'{via} does not exist{where}{hint}"


@dataclass(frozen=True)
class UnknownWikilink:
    name: str

    @property
    def message(self) -> str:
        return (
            f"[[{excerpt_name(self.name, 80)}]] names no note: no note here has that file name or `name:`; "
            "fix the name or link the note's path"
        )


@rule(code="MW410", name="broken-note-link", severity=Severity.WARNING, kinds=("note",))
def broken_note_link(doc, ctx):
    """A link in the body of a note that points nowhere.

    ## What it does
    Reads the links of a note's body with the scanner the index rules use:
    inline links (with or without a title, percent-encoded, in `<...>`),
    reference-style links through their `[label]: target` lines, and
    `[[wikilinks]]`. A relative link resolves from the note's folder and is
    fine when a file or folder is there (inside the workspace or the
    repository around it), whatever `#anchor` follows it; one that leads
    nowhere from there is fine too when it leads somewhere from the
    workspace's or the repository's top folder, where agents run and from
    where they write paths. A link to lines of a file, as Cline and Roo
    write it (`agent.py:19-30`), leads where the file does. A wikilink resolves
    by a note's file name or front-matter `name`, case ignored, anywhere in
    the workspace (`[[folder/note]]` by the end of its path). URLs, anchors
    within the note and absolute paths are not checked, and nothing inside
    inline code, a code fence or an HTML comment is a link.

    ## Why
    A note that says "see [the rollback steps](deploy-rollback.md)" hands the
    agent a lesson in two parts; when the second part was renamed or never
    written, the agent follows the link, finds nothing, and acts on half the
    lesson without knowing it.

    ## Example
    ```markdown
    Roll back first; the steps are in [rollback](deploy-rolback.md).
    ```
    `memory/knowledge/feedback/deploy.md:9:37: MW410 broken-note-link link target 'deploy-rolback.md' does not exist (from this note that is memory/knowledge/feedback/deploy-rolback.md): did you mean deploy-rollback.md?`

    ## Fix safety
    No fix: a renamed note and one never written look the same from here.
    """
    ws = ctx.workspace
    for dead in dead_links(doc, ws, ctx.memo):
        line, column = doc.line_col(dead.offset)
        if dead.resolved is None:
            violation = UnknownWikilink(dead.target)
        else:
            suggestion = index_lines.closest_note(ws.files, doc.relpath, dead.resolved)
            violation = MissingNoteLinkTarget(dead.target, dead.resolved, dead.reference, suggestion)
        yield Problem(line, column, violation.message)

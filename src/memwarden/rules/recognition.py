"""Recognition: a file at a memory path whose content is not memory of that kind, reported once."""

from __future__ import annotations

from dataclasses import dataclass

from memwarden.analysis import recognition
from memwarden.model import Problem, Scope, Severity
from memwarden.registry import rule


@dataclass(frozen=True)
class UnrecognizedLog:
    records: int
    episodes: int

    @property
    def message(self) -> str:
        fit = "none" if self.episodes == 0 else f"only {self.episodes}"
        return (
            f"not a recognised memory log: {fit} of its {self.records} records look like episodes "
            "(an episode has mostly episode fields and its time as text, not an epoch number), "
            "so it is not checked as an episode log; "
            "another program's log at a memory path? move it out of memory/, or exclude it in the config"
        )


@dataclass(frozen=True)
class UnrecognizedNoteFolder:
    folder: str  # "" at the workspace root
    notes: int

    @property
    def message(self) -> str:
        where = f"{self.folder}/" if self.folder else "the workspace root"
        return (
            f"not recognised as memory notes: none of the {self.notes} Markdown files in {where} has front matter, "
            "so none is checked as a note; add the '---' block of name and description to each, "
            "or exclude the folder in the config"
        )


@dataclass(frozen=True)
class ShadowedInstructions:
    override: str  # the file Codex reads instead

    @property
    def message(self) -> str:
        return (
            f"never loaded: Codex reads {self.override} in this folder instead of this file; "
            f"merge what this file still says into {self.override}, or delete one of them"
        )


@rule(code="MW107", name="unrecognized-file", severity=Severity.WARNING, scope=Scope.WORKSPACE)
def unrecognized_file(ctx):
    """A file (or a folder of notes) at a memory path whose content is not memory of that kind.

    ## What it does
    Reads the content of the files that sit where the profile expects an
    episodic log (and, in the three-layer profile, any other JSONL file in
    `memory/`), and of the note folders:

    - a JSONL log most of whose records do not look like episodes (a record
      whose keys are mostly ones no episode has, or whose time is a number:
      `ts` or `date` not text, or an epoch `createdAt` and no `ts`) gets one
      finding on its first record, and no schema, timestamp or duplicate-id
      findings;
    - a folder of two or more Markdown notes none of which has front matter
      gets one finding, on its first note, instead of one a note;
    - an `AGENTS.md` beside an `AGENTS.override.md`: Codex reads the override
      in its place, so the AGENTS.md is never loaded (the budget measures the
      override, as Codex does).

    A log that is an episode log with a few bad records is recognised, and
    its bad records are reported by `schema-violation` as before.

    ## Why
    Applications keep their own logs at memory-like paths (`memory/episodic.jsonl`
    written by an agent framework, with epoch-millisecond `createdAt` fields),
    and tools such as Serena keep plain Markdown memories. Checking them
    against a schema they were never written for gives hundreds of false
    findings, and a linter that is wrong that often is switched off.

    ## Example
    ```json
    {"type": "episodic", "sessionId": "monitor", "content": {"mission": "x"}, "createdAt": 1772649613501, "tags": ["a", "b"]}
    ```
    `memory/episodic.jsonl:1:1: MW107 unrecognized-file not a recognised memory log: none of its 7 records look like episodes ...`

    ## Fix safety
    No fix: whether the file belongs elsewhere, or should be excluded, is the
    author's call.
    """
    ws = ctx.workspace
    for relpath, kind in sorted(ws.files.items()):
        if not recognition.is_log(relpath, kind):
            continue
        shape = recognition.shape_in_run(ctx, relpath)
        if shape is None or shape.recognised:
            continue
        violation = UnrecognizedLog(shape.records, shape.episodes)
        yield Problem(shape.first_line, 1, violation.message, path=relpath)
    for relpath, override in recognition.shadowed_instruction_files(ws):
        if ctx.is_target(relpath):
            yield Problem(1, 1, ShadowedInstructions(override).message, path=relpath)
    for folder, notes in sorted(recognition.bare_note_folders(ws).items()):
        shown = next((note for note in notes if ctx.is_target(note)), None)
        if shown is not None:  # on the first note checked in this run
            yield Problem(1, 1, UnrecognizedNoteFolder(folder, len(notes)).message, path=shown)


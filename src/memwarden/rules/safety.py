"""Workspace safety: synced files must not name commands, and scratchpads must stay short."""

from __future__ import annotations

from dataclasses import dataclass

from memwarden.model import Option, Problem, Severity
from memwarden.registry import rule
from memwarden.patterns import LazyPattern

# Keys whose value is a command line to run.
_COMMAND_KEY = LazyPattern(r"(?:^|_)(?:command|cmd|exec|executable)$")
_RUNTIME_SECTIONS = ("executors", "launchers")


def _command_keys(data, path=()):
    if isinstance(data, dict):
        for key, value in data.items():
            if _COMMAND_KEY.search(str(key)) and value not in (None, "", [], {}):
                yield path + (key,)
            else:
                yield from _command_keys(value, path + (key,))


@dataclass(frozen=True)
class CommandInWorkspaceConfig:
    dotted: str  # the key's path, dot-separated

    @property
    def message(self) -> str:
        return (
            f"'{self.dotted}' names a command in the synced workspace config: anyone who can edit "
            "the workspace could run code on every machine that opens it; set it per machine instead"
        )


@dataclass(frozen=True)
class BinariesInRuntimeProfiles:
    named: tuple[tuple[str, str], ...]  # (section, profile name) of each profile that names a binary

    @property
    def message(self) -> str:
        count = len(self.named)
        listed = ", ".join(f"{s}.{n}" for s, n in self.named[:6]) + (" ..." if count > 6 else "")
        return (
            f"{count} runtime profile{'s' if count > 1 else ''} in this synced file name a program "
            f"to start ({listed}): anyone who can edit the workspace chooses what runs on every machine "
            "that opens it; keep binaries in machine-local config"
        )


@rule(
    code="MW801",
    name="executable-config",
    severity=Severity.ERROR,
    kinds=("workspace-config", "runtime-profiles"),
)
def executable_config(doc, ctx):
    """A synced workspace file that names a command to run.

    ## What it does
    Reports a command in a file that travels with the workspace:
    `consolidate.judge_command` (or any `*_command` key) in `.gish/config.yml`,
    and each executor or launcher of `memory/runtime_profiles.yml` that names a
    `binary` to start.

    ## Why
    A workspace is synced between machines and cloned by others. If a file in
    it names a program to run, anyone who can edit the workspace can run code
    on every machine that opens it. Ghost In Shell 5.2 refuses such a config
    for this reason; commands belong in each machine's local settings.
    memwarden itself never runs anything a workspace file names.

    ## Example
    ```yaml
    consolidate:
      judge_command: "python3 judge.py"   # runs on every machine that syncs this
    ```

    ## Fix safety
    No fix: moving the command to a machine-local config is a decision for
    each machine's owner.
    """
    data = doc.data
    if not isinstance(data, dict):
        return
    if doc.kind.name == "workspace-config":
        for path in _command_keys(data):
            line, column = doc.locate(path)
            dotted = ".".join(map(str, path))
            yield Problem(line, column, CommandInWorkspaceConfig(dotted).message, json_path="$." + dotted)
        return
    named = [
        (section, name)
        for section in _RUNTIME_SECTIONS
        if isinstance(data.get(section), dict)
        for name, entry in data[section].items()
        if isinstance(entry, dict) and entry.get("binary")
    ]
    if named:
        # One finding for the file: the risk is the file's, and one per-file ignore accepts it.
        section, name = named[0]
        line, column = doc.locate((section, name, "binary"))
        violation = BinariesInRuntimeProfiles(tuple(named))
        yield Problem(line, column, violation.message, json_path=f"$.{section}.{name}.binary")


@dataclass(frozen=True)
class ScratchpadTooLong:
    lines: int
    limit: int

    @property
    def message(self) -> str:
        return (
            f"scratchpad is {self.lines} lines (limit {self.limit}): move finished tasks' lessons "
            "to the episodic log and clear the rest"
        )


@rule(
    code="MW802",
    name="scratchpad-too-long",
    severity=Severity.WARNING,
    kinds=("scratchpad",),
    options={"max_lines": Option(200, int, "the longest a scratchpad may grow, in lines")},
)
def scratchpad_too_long(doc, ctx):
    """A scratchpad that has grown past its limit (200 lines by default).

    ## What it does
    Counts the lines of the scratchpad and warns once it is longer than
    `max_lines`, pointing at the first line past the limit.

    ## Why
    The scratchpad is short-lived: when a task ends, its lessons move to the
    episodic log and the pad is cleared. Past two or three hundred lines the
    agent's attention is diluted, and the pad has become a second dumping ground.

    ## Example
    A `memory/scratchpad.md` of 340 lines, most of them from finished tasks.

    ## Fix safety
    No fix: promoting lessons to the log and clearing the pad needs judgment.
    """
    limit = ctx.options["max_lines"]
    if doc.line_count > limit:
        yield Problem(limit + 1, 1, ScratchpadTooLong(doc.line_count, limit).message)

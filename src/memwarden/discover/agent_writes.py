"""What an agent is about to write, or has just written, read from its hook payload.

An agent CLI runs a hook command before and after each tool call, with a JSON
payload on stdin. Three shapes are understood, by their documented field names:

- Claude Code: `hook_event_name` PreToolUse / PostToolUse; `tool_name` Write
  (`tool_input.file_path`, `content`), Edit (`old_string`, `new_string`,
  `replace_all`) or MultiEdit (`edits`: a list of those, applied in order).
- Gemini CLI: BeforeTool / AfterTool; `write_file` (`file_path`, `content`) or
  `replace` (`file_path`, `old_string`, `new_string`, `allow_multiple`; older
  releases `expected_replacements`).
- Codex: PreToolUse / PostToolUse for `apply_patch`, the patch in
  `tool_input.command` (`*** Add File:`, `*** Update File:`, `*** Delete File:`).

Before a call, the content it would leave is built from the file on disk the
way the tool builds it (agent_edits for Claude Code and Gemini CLI, codex_patch
for Codex); a call the tool itself would refuse (an `old_string` that is not
there, or not unique) writes nothing, so there is nothing to check; a call whose
result cannot be foreseen (a loose match, a model's correction) carries the
reason in `unsure`, and the hook blocks it.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from dataclasses import dataclass
from pathlib import Path

from memwarden.discover.agent_edits import Unpredictable, claude_edit, gemini_replace
from memwarden.fileio import read_regular

BEFORE, AFTER = "before", "after"
EVENTS = {
    "PreToolUse": BEFORE, "PostToolUse": AFTER,  # Claude Code, Codex
    "BeforeTool": BEFORE, "AfterTool": AFTER,  # Gemini CLI
}
CLAUDE_TOOLS = {"Write", "Edit", "MultiEdit"}
GEMINI_TOOLS = {"write_file", "replace"}
CODEX_TOOLS = {"apply_patch"}
WRITE_TOOLS = CLAUDE_TOOLS | GEMINI_TOOLS | CODEX_TOOLS
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class PayloadError(ValueError):
    """A payload that is not what the agent CLI sends: said in one line, never a traceback."""


@dataclass(frozen=True)
class AgentWrite:
    phase: str  # BEFORE or AFTER
    tool: str
    path: Path  # absolute
    content: bytes | None  # BEFORE: the file as the call would leave it; None: the call writes nothing
    written: tuple[str, ...] | None = None  # AFTER: the text an edit put in (None: the whole file was written)
    moved_to: Path | None = None  # BEFORE, a Codex `*** Move to:`: path is the source the move empties
    unsure: str | None = None  # BEFORE: why memwarden cannot tell what the call would write (it blocks)


def read_payload(data: bytes, default_cwd: Path) -> list[AgentWrite]:
    """The file writes a hook payload announces (none for other events and tools)."""
    try:
        payload = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as error:
        raise PayloadError(f"the hook payload on stdin is not JSON ({error})") from None
    if not isinstance(payload, dict):
        raise PayloadError("the hook payload on stdin is not a JSON object")
    phase = EVENTS.get(payload.get("hook_event_name"))
    tool = payload.get("tool_name")
    if phase is None or tool not in WRITE_TOOLS:
        return []
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, dict):
        raise PayloadError(f"{tool}: tool_input is not an object")
    cwd = payload.get("cwd")
    cwd = Path(cwd) if isinstance(cwd, str) and cwd else default_cwd
    if tool in CODEX_TOOLS:
        return _patch_writes(phase, tool, _string(tool_input, "command", tool), cwd)
    path = cwd / _string(tool_input, "file_path", tool)
    if phase == AFTER:
        return [AgentWrite(phase, tool, path, None, _written(tool, tool_input))]
    try:
        return [AgentWrite(phase, tool, path, _proposed(tool, tool_input, path))]
    except Unpredictable as unsure:
        return [AgentWrite(phase, tool, path, None, unsure=str(unsure))]


def _written(tool: str, tool_input: dict) -> tuple[str, ...] | None:
    """The lines an edit put into the file: its new lines that its old text did not have (the rest is context)."""
    if tool in ("Edit", "replace"):
        edits = [tool_input]
    elif tool == "MultiEdit" and isinstance(tool_input.get("edits"), list):
        edits = [e for e in tool_input["edits"] if isinstance(e, dict)]
    else:
        return None
    lines: list[str] = []
    for edit in edits:
        old, new = edit.get("old_string"), edit.get("new_string")
        if isinstance(old, str) and isinstance(new, str):
            kept = set(old.splitlines())
            lines += [line for line in new.splitlines() if line not in kept]
    return tuple(lines)


def written_lines(text: str, written: tuple[str, ...] | None) -> set[int] | None:
    """The 1-based lines of text that hold what an edit wrote (None: every line, the whole file was written)."""
    if written is None:
        return None
    # Line numbers by bisecting the line starts: counting newlines up to each occurrence made a short piece
    # ("e") in a big log cost occurrences x size.
    starts = [0, *(m.end() for m in re.finditer("\n", text))]
    lines: set[int] = set()
    for piece in written:
        if not piece.strip():
            continue
        at = text.find(piece)
        while at != -1:
            first = bisect_right(starts, at)
            lines.update(range(first, first + piece.count("\n") + 1))
            at = text.find(piece, at + 1)
    return lines


def _string(mapping: dict, key: str, tool: str) -> str:
    value = mapping.get(key)
    if not isinstance(value, str):
        raise PayloadError(f"{tool}: tool_input.{key} is missing or not a string")
    return value


def _read(path: Path, errors: str = "surrogateescape") -> str | None:
    """The file's text as the tool edits it: by default bytes that are not UTF-8 are kept as they are;
    "replace" reads them as U+FFFD (Node's reading), "strict" refuses them (Rust's read_to_string)."""
    try:
        return read_regular(path).decode("utf-8", errors)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as error:
        raise PayloadError(f"cannot read {path.name}: {error.strerror}") from None


def _encode(text: str) -> bytes:
    """The bytes the tool writes; a lone surrogate (JSON allows `\\ud800`) is written as U+FFFD, as
    JavaScript's UTF-8 encoder writes it, so such a payload is still judged, never waved through."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return _LONE_SURROGATE.sub("\ufffd", text).encode("utf-8")


def _proposed(tool: str, tool_input: dict, path: Path) -> bytes | None:
    if tool in ("Write", "write_file"):
        return _encode(_string(tool_input, "content", tool))
    if tool == "replace":
        text = gemini_replace(_read(path, "replace"), _string(tool_input, "old_string", tool),
                              _string(tool_input, "new_string", tool), *_gemini_count(tool_input), path.suffix)
        return None if text is None else _encode(text)
    if tool == "Edit":
        edits = [tool_input]
    else:
        edits = tool_input.get("edits")
        if not isinstance(edits, list) or not edits or not all(isinstance(e, dict) for e in edits):
            raise PayloadError("MultiEdit: tool_input.edits is not a list of edits")
    text = _read(path)
    for edit in edits:  # in order, each on what the one before left; one refused, none is made
        replace_all = edit.get("replace_all", False)
        if not isinstance(replace_all, bool):
            raise PayloadError(f"{tool}: replace_all is not true or false")
        text = claude_edit(text, _string(edit, "old_string", tool), _string(edit, "new_string", tool), replace_all)
        if text is None:
            return None
    return _encode(text)


def _gemini_count(tool_input: dict) -> tuple[bool, int | None]:
    """(allow_multiple, expected_replacements): the current tool's flag, or an older release's count."""
    allow_multiple = tool_input.get("allow_multiple", False)
    if not isinstance(allow_multiple, bool):
        raise PayloadError("replace: tool_input.allow_multiple is not true or false")
    expected = tool_input.get("expected_replacements")
    if expected is not None and (not isinstance(expected, int) or isinstance(expected, bool) or expected < 1):
        raise PayloadError("replace: tool_input.expected_replacements is not a positive integer")
    return allow_multiple, expected


# -- Codex apply_patch ------------------------------------------------------------------

def _patch_writes(phase: str, tool: str, patch: str, cwd: Path) -> list[AgentWrite]:
    from memwarden.discover.codex_patch import PatchRejected, parse_patch, shell_patch, wrapped_paths

    shell = shell_patch(patch)
    if shell is not None:
        patch, folder = shell
        cwd = cwd / folder if folder else cwd
    elif wrapped_paths(patch) and phase == BEFORE:
        # A patch inside a command memwarden does not read (a quoted argument, another shell form): what Codex
        # receives cannot be told, so every file it names is judged unpredictable.
        return [AgentWrite(phase, tool, cwd / name, None, unsure="the patch is wrapped in a shell command memwarden "
                           "does not read") for name in wrapped_paths(patch)]
    try:
        changes = parse_patch(patch)
        if phase == AFTER:
            return [AgentWrite(phase, tool, cwd / (change.move_to or change.path), None, _patch_added(change))
                    for change in changes if change.action != "delete"]
        # Codex works out every file's new content before it writes any: one chunk not found, nothing is written.
        return [write for change in changes for write in _patch_change(phase, tool, change, cwd)]
    except PatchRejected:
        return []


def _patch_added(change) -> tuple[str, ...] | None:
    if change.action != "update":
        return None  # the whole file was written
    return tuple(line for chunk in change.chunks for line in chunk.new if line not in chunk.old)


def _patch_change(phase: str, tool: str, change, cwd: Path) -> list[AgentWrite]:
    from memwarden.discover.codex_patch import PatchRejected, updated_contents

    path = cwd / change.path
    if change.action == "add":
        return [AgentWrite(phase, tool, path, _encode(change.added))]
    if change.action == "delete":
        return [AgentWrite(phase, tool, path, b"")]  # every record in it would be gone: judged as emptied
    try:
        text = _read(path, "strict")
    except UnicodeDecodeError:
        raise PatchRejected("not UTF-8") from None
    if text is None:
        raise PatchRejected("no such file")
    target = cwd / (change.move_to or change.path)
    try:
        written = [AgentWrite(phase, tool, target, _encode(content)) for content in updated_contents(text, change.chunks)]
    except Unpredictable as unsure:
        written = [AgentWrite(phase, tool, target, None, unsure=str(unsure))]
    if change.move_to is not None:
        # A move writes the source's content, updated, at the new path (over whatever is there) and removes
        # the source: both are judged, the source as emptied unless its content stays in memory.
        written.insert(0, AgentWrite(phase, tool, path, b"", moved_to=cwd / change.move_to))
    return written

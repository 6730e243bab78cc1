"""What an agent is about to write, or has just written, read from its hook payload.

An agent CLI runs a hook command before and after each tool call, with a JSON
payload on stdin. Three shapes are understood, by their documented field names:

- Claude Code: `hook_event_name` PreToolUse / PostToolUse; `tool_name` Write
  (`tool_input.file_path`, `content`), Edit (`old_string`, `new_string`,
  `replace_all`) or MultiEdit (`edits`: a list of those, applied in order).
- Gemini CLI: BeforeTool / AfterTool; `write_file` (`file_path`, `content`) or
  `replace` (`file_path`, `old_string`, `new_string`, `expected_replacements`).
- Codex: PreToolUse / PostToolUse for `apply_patch`, the patch in
  `tool_input.command` (`*** Add File:`, `*** Update File:`, `*** Delete File:`).

Before a call, the content it would leave is built from the file on disk the
way the tool builds it; a call the tool itself would refuse (an `old_string`
that is not there, or not unique) writes nothing, so there is nothing to check.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from dataclasses import dataclass
from pathlib import Path

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
    return [AgentWrite(phase, tool, path, _proposed(tool, tool_input, path))]


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


def _read(path: Path) -> str | None:
    """The file's text as the tool edits it; bytes that are not UTF-8 are kept as they are."""
    try:
        return read_regular(path).decode("utf-8", "surrogateescape")
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
    text = _read(path)
    if tool == "replace":
        expected = tool_input.get("expected_replacements", 1)
        if not isinstance(expected, int) or isinstance(expected, bool) or expected < 1:
            raise PayloadError("replace: tool_input.expected_replacements is not a positive integer")
        edits = [(_string(tool_input, "old_string", tool), _string(tool_input, "new_string", tool), expected)]
    elif tool == "Edit":
        edits = [_claude_edit(tool_input, tool)]
    else:
        listed = tool_input.get("edits")
        if not isinstance(listed, list) or not listed or not all(isinstance(e, dict) for e in listed):
            raise PayloadError("MultiEdit: tool_input.edits is not a list of edits")
        edits = [_claude_edit(edit, "MultiEdit") for edit in listed]
    for old, new, count in edits:
        text = apply_edit(text, old, new, count)
        if text is None:
            return None
    return _encode(text)


def _claude_edit(edit: dict, tool: str) -> tuple[str, str, int | None]:
    """(old, new, how many occurrences it needs: 1, or None for replace_all: any number)."""
    replace_all = edit.get("replace_all", False)
    if not isinstance(replace_all, bool):
        raise PayloadError(f"{tool}: replace_all is not true or false")
    return _string(edit, "old_string", tool), _string(edit, "new_string", tool), None if replace_all else 1


def apply_edit(text: str | None, old: str, new: str, count: int | None) -> str | None:
    """text with old replaced by new, as the edit tools do; None when the tool would refuse the edit.

    An empty old string on a file that does not exist creates it. old must occur exactly count
    times (count None: at least once, every occurrence replaced). A file with CRLF line ends is
    matched with the edit's line ends turned to CRLF when it does not match as given.
    """
    if text is None:
        return new if old == "" else None
    if old == "" or old == new:
        return None
    found = text.count(old)
    if found == 0 and "\r\n" in text and "\n" in old:
        old, new = old.replace("\r\n", "\n").replace("\n", "\r\n"), new.replace("\r\n", "\n").replace("\n", "\r\n")
        found = text.count(old)
    if found == 0 or (count is not None and found != count):
        return None
    return text.replace(old, new)


# -- Codex apply_patch ------------------------------------------------------------------

def _patch_writes(phase: str, tool: str, patch: str, cwd: Path) -> list[AgentWrite]:
    writes: list[AgentWrite] = []
    for action, relpath, lines, source in _patch_files(patch):
        path = cwd / relpath
        if phase == BEFORE and source is not None:
            # A move writes the source's content, updated, at path (over whatever is there) and removes
            # the source: both are judged, the source as emptied unless its content stays in memory.
            writes.append(AgentWrite(phase, tool, cwd / source, b"", moved_to=path))
            updated = _apply_hunks(_read(cwd / source), lines)
            writes.append(AgentWrite(phase, tool, path, None if updated is None else _encode(updated)))
            continue
        if phase == AFTER:
            if action != "delete":
                added = tuple(line[1:] for line in lines if line.startswith("+")) if action == "update" else None
                writes.append(AgentWrite(phase, tool, path, None, added))
            continue
        if action == "add":
            content: bytes | None = _encode("".join(line[1:] + "\n" for line in lines))
        elif action == "delete":
            content = b""  # every record in it would be gone: judged as emptied
        else:
            updated = _apply_hunks(_read(path), lines)
            content = None if updated is None else _encode(updated)
        writes.append(AgentWrite(phase, tool, path, content))
    return writes


def _patch_files(patch: str):
    """(action, path, body lines, moved from) for each file of a Codex patch; a `*** Move to:` gives the new
    path, and the old one as moved from (None: no move)."""
    current: list | None = None
    for line in patch.splitlines():
        for marker, action in (("*** Add File: ", "add"), ("*** Update File: ", "update"), ("*** Delete File: ", "delete")):
            if line.startswith(marker):
                if current is not None:
                    yield tuple(current)
                current = [action, line[len(marker):].strip(), [], None]
                break
        else:
            if current is None or line.startswith(("*** Begin Patch", "*** End")):
                continue
            if line.startswith("*** Move to: "):
                current[1], current[3] = line[len("*** Move to: "):].strip(), current[1]
            else:
                current[2].append(line)
    if current is not None:
        yield tuple(current)


def _apply_hunks(text: str | None, lines: list[str]) -> str | None:
    """An `*** Update File` body applied to text: each hunk's context and removed lines, found in order."""
    if text is None:
        return None
    newline = "\r\n" if "\r\n" in text else "\n"
    result = text.split(newline)
    position = 0
    hunks: list[list[str]] = [[]]
    for line in lines:
        if line.startswith("@@"):
            hunks.append([])
        elif line.strip() != "*** End of File":
            hunks[-1].append(line)
    for hunk in (h for h in hunks if h):
        before = [line[1:] for line in hunk if line[:1] in (" ", "-", "")]
        after = [line[1:] for line in hunk if line[:1] in (" ", "+", "")]
        at = _find(result, before, position)
        if at is None:
            return None
        result[at:at + len(before)] = after
        position = at + len(after)
    return newline.join(result)


def _find(lines: list[str], wanted: list[str], start: int) -> int | None:
    if not wanted:
        return len(lines) - 1 if lines and lines[-1] == "" else len(lines)  # a pure addition goes at the end
    for strip in (False, True):  # exact first, then ignoring trailing space, as the patch tool does
        for at in range(start, len(lines) - len(wanted) + 1):
            window = lines[at:at + len(wanted)]
            if window == wanted or (strip and [w.rstrip() for w in window] == [w.rstrip() for w in wanted]):
                return at
    return None

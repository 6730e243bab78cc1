"""Memory files the agent loads by itself every session, with no link to them.

Two ways of Claude Code's. A `SessionStart` or `UserPromptSubmit` hook: Claude Code adds what its
command prints to the session's context (its hooks reference: "stdout is added as context"), so a
command that names a memory file (`cat .claude/memory/context.md`, `cat "$CLAUDE_PROJECT_DIR"/.claude/
memory/*.md`) loads it. And an import in CLAUDE.md: `@path/to/file` outside code, read from the folder
of the file that holds it (or from `~`), loads that file with CLAUDE.md (its memory reference).
Only what the command or the import names is seen: a script the command runs is not read.

The settings are `.claude/settings.json` and `.claude/settings.local.json`, the instructions
`CLAUDE.md`, `CLAUDE.local.md` and `.claude/CLAUDE.md`, in the workspace's folder or a folder above
it, up to the git work tree (or, outside one, up to eight folders), which takes in
`~/.claude/settings.json` and `~/.claude/CLAUDE.md` for a memory folder below `~/.claude/`. A hook's
relative path is read from the folder that holds that `.claude/`, where Claude Code runs a project's
hooks; a glob in a command is matched as the shell expands it (`*` stays within a folder), by the
project's own glob matcher, which never backtracks. A file that cannot be read or parsed names nothing.

The answer says which files outside the memory it read (there or not) and which named paths it followed
to where they lead: under the cache those are what the answer depends on (an unstaged edit counts).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import NamedTuple

from memwarden.documents.scan import code_spans, fence_spans
from memwarden.fileio import MAX_OUTSIDE_BYTES, read_regular
from memwarden.globs import is_glob, matches
from memwarden.patterns import LazyPattern

LOADING_EVENTS = ("SessionStart", "UserPromptSubmit")
SETTINGS_FILES = (".claude/settings.json", ".claude/settings.local.json")
INSTRUCTION_FILES = ("CLAUDE.md", "CLAUDE.local.md", ".claude/CLAUDE.md")
_MAX_FOLDERS_UP = 8
# A word of a command once quotes are gone: what a path can be made of.
_WORD = LazyPattern(r"[^\s<>|;&()`=]+")
_PROJECT_DIR = LazyPattern(r"\$\{?CLAUDE_PROJECT_DIR\}?")
_HOME = LazyPattern(r"\$\{?HOME\}?(?=/)")
# A CLAUDE.md import: '@' at the start of a word, then a path (`@docs/setup.md`, `@~/.claude/mine.md`).
_IMPORT = LazyPattern(r"(?<![\w@`])@(?P<path>[~.\w/-][^\s`()<>\[\]]*)")


def hook_commands(settings: bytes) -> list[str]:
    """The commands of the hooks that load context (SessionStart, UserPromptSubmit) in a settings file."""
    try:
        data = json.loads(settings)
    except (ValueError, RecursionError):
        return []
    hooks = data.get("hooks") if isinstance(data, dict) else None
    if not isinstance(hooks, dict):
        return []
    commands = []
    for event in LOADING_EVENTS:
        groups = hooks.get(event)
        for group in groups if isinstance(groups, list) else ():
            entries = group.get("hooks") if isinstance(group, dict) else None
            for entry in entries if isinstance(entries, list) else ():
                command = entry.get("command") if isinstance(entry, dict) else None
                if isinstance(command, str):
                    commands.append(command)
    return commands


def named_paths(command: str, project: Path) -> list[str]:
    """The absolute paths (globs kept) a hook command names, read from the project folder."""
    home = os.path.expanduser("~")
    found = []
    unquoted = command.replace('"', "").replace("'", "")
    for word in _WORD.findall(_HOME.sub(home, _PROJECT_DIR.sub(str(project), unquoted))):
        if "/" not in word and not word.endswith(".md"):
            continue
        found.append(_absolute(word, project, home))
    return found


def imported_paths(text: str, folder: Path) -> list[str]:
    """The absolute paths a CLAUDE.md imports (`@path`, not in code), read from its folder."""
    if "@" not in text:
        return []
    home = os.path.expanduser("~")
    code = sorted([*fence_spans(text, 0), *code_spans(text, 0)])
    found = []
    for match in _IMPORT.finditer(text):
        if any(start <= match.start() < end for start, end in code):
            continue
        path = match["path"].rstrip(".,;:!?")
        if path.endswith(".md") or "/" in path:
            found.append(_absolute(path, folder, home))
    return found


def _absolute(path: str, folder: Path, home: str) -> str:
    if path.startswith("~/"):
        path = home + path[1:]
    return os.path.normpath(os.path.join(folder, path))


def _folders(root: Path, work_tree: Path | None) -> list[Path]:
    folders = []
    for folder in (root, *root.parents)[:_MAX_FOLDERS_UP + 1]:
        folders.append(folder)
        if work_tree is not None and folder == work_tree:
            break
    return folders


def _read(path: Path) -> bytes | None:
    try:
        return read_regular(path, limit=MAX_OUTSIDE_BYTES)
    except OSError:
        return None


class RuntimeLoaded(NamedTuple):
    loaded: set[str]  # the relpaths a hook prints or a CLAUDE.md imports
    read: list[str]  # the settings and instruction files looked for, there or not
    resolved: list[str]  # the paths (no glob) they name, whose links were followed


def files_read(root: Path, work_tree: Path | None) -> list[str]:
    """The settings and instruction files :func:`loaded_paths` looks for (absolute, there or not)."""
    return [str(folder / name) for folder in _folders(root, work_tree) for name in (*SETTINGS_FILES, *INSTRUCTION_FILES)]


def loaded_paths(root: Path, work_tree: Path | None) -> list[str]:
    """The absolute paths (globs kept) that a hook prints or a CLAUDE.md imports, for a workspace at root."""
    found: list[str] = []
    for folder in _folders(root, work_tree):
        for name in SETTINGS_FILES:
            settings = _read(folder / name)
            for command in hook_commands(settings) if settings else ():
                found += named_paths(command, folder)
        for name in INSTRUCTION_FILES:
            raw = _read(folder / name)
            if raw:
                found += imported_paths(raw.decode("utf-8", "replace"), (folder / name).parent)
    return found


def runtime_loaded(root: Path, work_tree: Path | None, relpaths) -> RuntimeLoaded:
    """The relpaths (of the workspace at root) that a hook prints or a CLAUDE.md imports, and what was read."""
    named = loaded_paths(root, work_tree)
    resolved = sorted({path for path in named if not is_glob(path)})
    patterns = [path if is_glob(path) else os.path.realpath(path) for path in named]
    answer = RuntimeLoaded(set(), files_read(root, work_tree), resolved)
    if not patterns:
        return answer
    real_root = os.path.realpath(root)
    for relpath in relpaths:
        plain = os.path.join(str(root), relpath)
        real = os.path.realpath(plain)
        names = (plain, real, os.path.join(real_root, relpath))
        if any(any(matches(name, p) for name in names) if is_glob(p) else real == p for p in patterns):
            answer.loaded.add(relpath)
    return answer

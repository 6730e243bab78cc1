"""Memory files a Claude Code hook prints into every session: loaded with no link to them.

Claude Code adds what a `SessionStart` or `UserPromptSubmit` hook command prints to the session's
context (its hooks reference: "stdout is added as context"). A command that names a memory file
(`cat .claude/memory/context.md`, `cat "$CLAUDE_PROJECT_DIR"/.claude/memory/*.md`) loads that file,
so no index has to link to it. Only what the command itself names is seen: a script the command runs
is not read, and a file it loads that way is still taken for unlinked.

The settings are the project's `.claude/settings.json` and `.claude/settings.local.json` in the
workspace's folder or a folder above it, up to the git work tree (or, outside one, up to eight
folders), which takes in `~/.claude/settings.json` for a memory folder below `~/.claude/`. A relative
path is read from the folder that holds that `.claude/`, where Claude Code runs a project's hooks.
A settings file that cannot be read or parsed names nothing.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
from pathlib import Path

from memwarden.fileio import read_regular

LOADING_EVENTS = ("SessionStart", "UserPromptSubmit")
SETTINGS_FILES = (".claude/settings.json", ".claude/settings.local.json")
_MAX_SETTINGS_BYTES = 1_000_000
_MAX_FOLDERS_UP = 8
# A word of a command once quotes are gone: what a path can be made of.
_WORD = re.compile(r"[^\s<>|;&()`=]+")
_PROJECT_DIR = re.compile(r"\$\{?CLAUDE_PROJECT_DIR\}?")
_HOME = re.compile(r"\$\{?HOME\}?(?=/)")


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
        if word.startswith("~/"):
            word = home + word[1:]
        found.append(os.path.normpath(os.path.join(project, word)))
    return found


def _settings_folders(root: Path, work_tree: Path | None) -> list[Path]:
    folders = []
    for folder in (root, *root.parents)[:_MAX_FOLDERS_UP + 1]:
        folders.append(folder)
        if work_tree is not None and folder == work_tree:
            break
    return folders


def hook_loaded(root: Path, work_tree: Path | None, relpaths) -> set[str]:
    """The relpaths (of the workspace at root) that a context-loading hook command names."""
    patterns: list[str] = []
    for folder in _settings_folders(root, work_tree):
        for name in SETTINGS_FILES:
            try:
                settings = read_regular(folder / name, limit=_MAX_SETTINGS_BYTES)
            except OSError:
                continue
            for command in hook_commands(settings):
                patterns += [os.path.realpath(path) if not _is_glob(path) else path
                             for path in named_paths(command, folder)]
    if not patterns:
        return set()
    real_root = os.path.realpath(root)
    loaded = set()
    for relpath in relpaths:
        plain = os.path.join(str(root), relpath)
        real = os.path.realpath(plain)
        names = (plain, real, os.path.join(real_root, relpath))
        if any(any(fnmatch.fnmatchcase(name, p) for name in names) if _is_glob(p) else real == p for p in patterns):
            loaded.add(relpath)
    return loaded


def _is_glob(path: str) -> bool:
    return any(mark in path for mark in "*?[")

"""Where workspaces are: the folder a path belongs to, and the memory folders below a folder."""

from __future__ import annotations

from pathlib import Path

from memwarden.discover import config as config_module
from memwarden.discover.profiles import (
    AGENT_DOT_DIRS,
    AGENT_INSTRUCTIONS,
    OTHER_AGENT_DOT_DIRS,
    CLAUDE_CODE,
    OPENCLAW,
    detect,
    looks_like_workspace,
    own_agent_workspace,
    own_memory_folder,
)

SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox", ".mypy_cache"}
NESTED_SEARCH_DEPTH = 4
SEARCHED_DOT_DIRS = AGENT_DOT_DIRS + OTHER_AGENT_DOT_DIRS


def _has_config(directory: Path) -> bool:
    if (directory / config_module.CONFIG_NAME).is_file():
        return True
    pyproject = directory / "pyproject.toml"
    if pyproject.is_file():
        try:
            return "[tool.memwarden" in pyproject.read_text("utf-8", "replace")
        except OSError:
            return False
    return False


def is_workspace_root(directory: Path) -> bool:
    return looks_like_workspace(directory) or _has_config(directory)


def find_root(path: Path) -> Path:
    """The workspace a file or folder belongs to: the nearest folder that looks like one."""
    start = path if path.is_dir() else path.parent
    for directory in [start, *start.parents]:
        if is_workspace_root(directory):
            return directory
        if (directory / ".git").exists():
            break
    return start


def owns_only_its_root(directory: Path) -> bool:
    """A folder whose memory is only the files an agent loads whole (or nothing, with a config): what lies
    below is not its."""
    return detect(directory)[0] in (AGENT_INSTRUCTIONS.name, None)


def memory_folders_within(root: Path) -> list[Path]:
    """The memory folders inside a Claude Code memory folder (a subagent's, with its own MEMORY.md) or an OpenClaw
    workspace (another agent's workspace), which its walk leaves to them."""
    profile = detect(root)[0]
    if profile == CLAUDE_CODE.name:
        return _subagent_folders(root)
    return _agent_workspaces(root) if profile == OPENCLAW.name else []


def _subfolders(folder: Path) -> list[Path]:
    """A folder's subfolders in name order, not through a link; none when it cannot be listed."""
    try:
        return sorted(p for p in folder.iterdir() if p.is_dir() and not p.is_symlink())
    except OSError:
        return []


def _agent_workspaces(root: Path, depth: int = 2) -> list[Path]:
    """Other agents' OpenClaw workspaces below one: `Scribe/`, `agents/kingshot/` (two levels down at most)."""
    found: list[Path] = []
    for child in _subfolders(root):
        if child.name in SKIP_DIRS or child.name.startswith(".") or child.name == "memory":
            continue
        if own_agent_workspace(child):
            found.append(child)
        elif depth > 1:
            found.extend(_agent_workspaces(child, depth - 1))
    return found


def _subagent_folders(root: Path) -> list[Path]:
    return [child for child in _subfolders(root)
            if child.name not in SKIP_DIRS and own_memory_folder(child) and is_workspace_root(child)]


def find_nested_roots(
    directory: Path, depth: int = NESTED_SEARCH_DEPTH, agent_dirs_only: bool = False
) -> list[Path]:
    """Workspaces below a folder (in its agents' dot-folders only, when it is a full workspace itself)."""
    found: list[Path] = []
    for child in _subfolders(directory):
        if child.name in SKIP_DIRS or (child.name.startswith(".") and child.name not in SEARCHED_DOT_DIRS):
            continue
        if agent_dirs_only and child.name not in SEARCHED_DOT_DIRS:
            continue
        profile = detect(child)[0]  # once a folder: is_workspace_root and owns_only_its_root ask the same
        if profile is not None or _has_config(child):
            found.append(child)
            if depth > 1 and profile in (AGENT_INSTRUCTIONS.name, None):
                found.extend(find_nested_roots(child, depth - 1))
            elif depth > 1 and profile == CLAUDE_CODE.name:
                found.extend(_subagent_folders(child))
            elif profile == OPENCLAW.name:
                found.extend(_agent_workspaces(child))
        elif depth > 1:
            found.extend(find_nested_roots(child, depth - 1))
    return found

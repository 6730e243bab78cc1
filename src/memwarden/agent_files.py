"""Every agent's instruction files in a repository: where each agent reads them, how, and their documented limits.

One table (`AGENT_FILES`) declares them; the profiles' `agent-instructions` kind takes its globs, the
walk enters the dot-folders it names, and `memwarden budget` measures the files whose agent documents
a size limit. Each row names the documentation it was read from (docs/agents.md has the table with
the dates). Aider reads no file of its own: only those its `.aider.conf.yml` names under `read:`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from memwarden.globs import is_glob, matches_any
from memwarden.fileio import read_regular

# How an agent loads a file: whole into every session, by its front matter (globs, a description the
# model matches, a trigger), or only when a config names it.
ALWAYS = "always"
BY_FRONT_MATTER = "by front matter"
WHEN_CONFIGURED = "when configured"


@dataclass(frozen=True)
class CharLimit:
    """A documented per-file size limit in characters, past which the agent truncates the file."""

    chars: int
    source: str
    preset: str  # the `memwarden budget` preset that measures it


@dataclass(frozen=True)
class AgentFiles:
    agent: str
    globs: tuple[str, ...]  # repository-relative; a name without '/' is at the root only
    loading: str
    front_matter: str  # the keys the agent reads from it, "" when none
    source: str  # the documentation this row was checked against
    limit: CharLimit | None = None


# Windsurf: "Rules files are limited to 12,000 characters each" (docs.windsurf.com/windsurf/cascade/memories,
# current version; the earlier page said 6,000 each and 12,000 for all rules together).
WINDSURF_LIMIT = CharLimit(12_000, "docs.windsurf.com/windsurf/cascade/memories", "windsurf")

AGENT_FILES: tuple[AgentFiles, ...] = (
    AgentFiles("Cursor", (".cursorrules",), ALWAYS, "", "Cursor rules docs: .cursorrules is the legacy single file"),
    AgentFiles("Cursor", (".cursor/rules/**/*.mdc", ".cursor/rules/**/*.md"), BY_FRONT_MATTER,
               "description, globs, alwaysApply", "Cursor rules docs: .cursor/rules/*.mdc"),
    AgentFiles("GitHub Copilot", (".github/copilot-instructions.md",), ALWAYS, "",
               "docs.github.com/en/copilot/how-tos/configure-custom-instructions-in-your-ide/add-repository-instructions-in-your-ide"),
    AgentFiles("GitHub Copilot", (".github/instructions/**/*.instructions.md",), BY_FRONT_MATTER, "applyTo",
               "docs.github.com/en/copilot/how-tos/configure-custom-instructions-in-your-ide/add-repository-instructions-in-your-ide"),
    AgentFiles("Windsurf", (".windsurfrules",), ALWAYS, "", "docs.codeium.com/windsurf/memories", WINDSURF_LIMIT),
    AgentFiles("Windsurf", (".windsurf/rules/**/*.md",), BY_FRONT_MATTER, "trigger, globs, description",
               "docs.windsurf.com/windsurf/cascade/memories", WINDSURF_LIMIT),
    AgentFiles("Cline", (".clinerules", ".clinerules/**/*.md", ".cline/rules/**/*.md"), ALWAYS, "paths",
               "docs.cline.bot/features/cline-rules/overview, docs.cline.bot/customization/cline-rules"),
    AgentFiles("Roo Code", (".roorules", ".roorules-*", ".roo/rules/**/*.md", ".roo/rules/**/*.txt",
                            ".roo/rules-*/**/*.md", ".roo/rules-*/**/*.txt"), ALWAYS, "",
               "docs.roocode.com/features/custom-instructions"),
    AgentFiles("Zed", (".rules",), ALWAYS, "", "zed.dev/docs/ai/rules"),
    AgentFiles("Amazon Q Developer", (".amazonq/rules/**/*.md",), ALWAYS, "",
               "docs.aws.amazon.com/amazonq/latest/qdeveloper-ug/context-project-rules.html"),
    AgentFiles("JetBrains Junie", (".junie/guidelines.md",), ALWAYS, "",
               "jetbrains.com/help/junie/customize-guidelines.html"),
    AgentFiles("OpenHands", (".openhands/microagents/**/*.md",), BY_FRONT_MATTER, "triggers, agent",
               "docs.openhands.dev/openhands/usage/microagents/microagents-overview"),
    # Replit's Agent writes replit.md itself and reads it into every request ("must be in the root directory").
    AgentFiles("Replit Agent", ("replit.md",), ALWAYS, "", "docs.replit.com/features/project-setup/replit-dot-md"),
)
AIDER_CONFIG = ".aider.conf.yml"
AIDER_SOURCE = "aider.chat/docs/config/aider_conf.html"

AGENT_FILE_GLOBS = tuple(glob for row in AGENT_FILES for glob in row.globs)
# The folders the globs lead into: the walk enters these dot-folders (and reads only the files a kind claims there).
AGENT_FILE_DIRS = tuple(sorted({glob.split("/", 1)[0] for glob in AGENT_FILE_GLOBS if "/" in glob}))


def agent_of(relpath: str) -> AgentFiles | None:
    """The row whose globs name a repository-relative path (a slash-less glob names the root only)."""
    if "/" in relpath and relpath.split("/", 1)[0] not in AGENT_FILE_DIRS:
        return None  # a glob with a folder starts with one of these, written out (the budget asks this of every file)
    for row in AGENT_FILES:
        if any(_root_match(relpath, glob) for glob in row.globs):
            return row
    return None


def _root_match(relpath: str, glob: str) -> bool:
    if "/" not in glob and "/" in relpath:
        return False
    return matches_any(relpath, (glob,))


def folder_is_no_file(relpath: str) -> bool:
    """Whether a folder at a path an agent's rules file could have is just a folder: `.clinerules/` is Cline's
    folder of rules, and a `.rules/` folder is some other tool's, not a misplaced Zed rules file."""
    return agent_of(relpath) is not None


def in_agent_dir(relpath: str) -> bool:
    """Whether a path lies in (or is) a dot-folder an agent's files live in, at the root."""
    return relpath.split("/", 1)[0] in AGENT_FILE_DIRS


def aider_reads(root: Path) -> tuple[str, ...]:
    """The files the root's `.aider.conf.yml` names under `read:` (a name or a list), as root-relative paths.

    Only names inside the root; a config that cannot be read or parsed names nothing (its own problems
    are another rule's to report)."""
    try:
        raw = read_regular(root / AIDER_CONFIG, limit=256_000)
    except OSError:
        return ()
    import yaml

    try:
        data = yaml.safe_load(raw.decode("utf-8", "replace"))
    except (yaml.YAMLError, RecursionError, ValueError):
        return ()
    value = data.get("read") if isinstance(data, dict) else None
    names = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    found = []
    for name in names:
        if not isinstance(name, str) or not name.strip():
            continue
        path = Path(name.strip())
        # A folder is no file to read: as a kind's glob it would be reported as a misplaced memory file.
        if path.is_absolute() or ".." in path.parts or is_glob(name) or (root / path).is_dir():
            continue
        found.append(path.as_posix())
    return tuple(dict.fromkeys(found))


def present(root: Path) -> str | None:
    """The first agent file found at root, or None: one listing of root, then only the folders it holds
    (detection asks this of every folder it passes, so it must stay cheap)."""
    try:
        names = set(os.listdir(root))
    except OSError:
        return None
    for row in AGENT_FILES:
        for glob in row.globs:
            first = glob.split("/", 1)[0]
            if "/" not in glob:
                # Only names that start as the glob does (a folder of thousands of notes is passed on the way up).
                literal = glob[: min((glob.find(mark) for mark in "*?[" if mark in glob), default=len(glob))]
                candidates = (sorted(n for n in names if n.startswith(literal)) if is_glob(glob)
                              else [glob] if glob in names else [])
                hit = next((name for name in candidates if _root_match(name, glob)), None)
                if hit is not None and os.path.isfile(root / hit):
                    return hit
                continue
            if first not in names:
                continue
            if not is_glob(glob):
                if os.path.isfile(root / glob):
                    return glob
                continue
            fixed = []
            for part in glob.split("/"):
                if is_glob(part):
                    break
                fixed.append(part)
            if _holds_match(root, root.joinpath(*fixed), row.globs):
                return glob
    if AIDER_CONFIG in names:
        return next((name for name in aider_reads(root) if os.path.isfile(root / name)), None)
    return None


def _holds_match(root: Path, folder: Path, globs: tuple[str, ...], depth: int = 3) -> bool:
    try:
        children = sorted(folder.iterdir())
    except OSError:
        return False
    for child in children:
        relpath = child.relative_to(root).as_posix()
        if child.is_file() and any(_root_match(relpath, glob) for glob in globs):
            return True
        if depth > 1 and child.is_dir() and not child.is_symlink() and _holds_match(root, child, globs, depth - 1):
            return True
    return False

"""Workspace profiles: which files are memory, of which kind, in which format.

A profile maps globs (relative to the workspace root) to kinds. The first kind
whose globs match a file claims it; files no kind claims are not memory files
and are never guessed at: a text file no kind claims is of the kind
`other-text` (read by its extension: YAML, JSONL, Markdown or plain text),
which only the rules that guard every file take (secrets, personal paths,
parse errors), never the format rules.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
from dataclasses import replace
from pathlib import Path
from urllib.parse import unquote

from memwarden.decoding import decode
from memwarden.discover.carried import project_manifest
from memwarden.agent_files import AGENT_FILE_GLOBS, present as agent_file_present
from memwarden.errors import UsageError
from memwarden.fileio import read_regular
from memwarden.globs import matches_any
from memwarden.patterns import LazyPattern

# The kinds vocabulary lives below every room; its names stay importable from here.
from memwarden.kinds import (  # noqa: F401
    EPISODE_KINDS,
    FORMATS,
    OTHER_LOG_KIND,
    OTHER_TEXT,
    OTHER_TEXT_KINDS,
    PLAIN_MARKDOWN_PROFILES,
    Kind,
    Profile,
    other_text_kind,
)

# The files an agent CLI loads whole at start-up: Claude Code, Codex (Agents.md as spelled on
# case-insensitive file systems, and the override), Gemini CLI. At the workspace root only: one in a
# folder below is found as that folder's own workspace.
AGENT_INSTRUCTION_FILES = ("CLAUDE.md", "AGENTS.md", "Agents.md", "AGENTS.override.md", "GEMINI.md")
# The same files as a chezmoi dotfiles repository keeps them: a template rendered into the real name.
INSTRUCTION_TEMPLATES = tuple(f"{name}.tmpl" for name in AGENT_INSTRUCTION_FILES)
_ROOT_ONLY = ("*/**",)
# Files a repository keeps for people, not memory: never a Claude Code note.
REPOSITORY_META_FILES = tuple(
    f"{stem}{suffix}"
    for stem in (
        "README", "CHANGELOG", "CHANGES", "HISTORY", "CONTRIBUTING", "CONTRIBUTORS", "AUTHORS", "LICENSE",
        "LICENCE", "COPYING", "NOTICE", "SECURITY", "CODE_OF_CONDUCT", "SUPPORT", "GOVERNANCE", "MAINTAINERS",
        "SCHEMA",
    )
    for suffix in (".md", "-*.md", ".*.md", "_*.md")
)
# Dot-folders agents keep memory in; every other dot-folder is skipped when looking for workspaces.
# `.serena/memories/` (Serena), `.learnings/` (an agent's lessons log), and the user-level folders a
# dotfiles repository keeps (`.gemini/GEMINI.md`, `.codex/AGENTS.md`, `.agents/AGENTS.md`, an OpenClaw
# workspace at its default place, `.openclaw/workspace/`).
AGENT_DOT_DIRS = (".claude", ".serena", ".learnings", ".gemini", ".codex", ".agents", ".openclaw")
# Dot-folders other agents keep their files in, where people keep memory beside them: Copilot's `.github/`, Kiro's
# `.kiro/steering/`, Cursor's and Windsurf's folders, Cline's and Roo's. Looked into for memory folders only.
OTHER_AGENT_DOT_DIRS = (".github", ".kiro", ".cursor", ".windsurf", ".cline", ".roo", ".agent")


def agent_instructions(*extra: str) -> Kind:
    """The kind of every agent's instruction files, in every profile (markdown, front matter optional): the
    files an agent CLI loads whole at the root, and the other agents' rules files (`agent_files`)."""
    globs = AGENT_INSTRUCTION_FILES + INSTRUCTION_TEMPLATES + extra + AGENT_FILE_GLOBS
    return Kind(
        "agent-instructions",
        "markdown",
        globs,
        "instructions an agent loads (CLAUDE.md, AGENTS.md, GEMINI.md, .cursor/rules/, .github/copilot-instructions.md ...)",
        # A glob without '/' matches the name at any depth: these are read at the root only.
        exclude=tuple(f"*/**/{glob}" for glob in globs if "/" not in glob),
    )


def with_instruction_files(profile: Profile, names: tuple[str, ...]) -> Profile:
    """The profile with more files of its agent-instructions kind (Aider's `read:` files), at the root when a name has no '/'."""
    kind = profile.kind("agent-instructions")
    if not names or kind is None:
        return profile
    added = tuple(name for name in names if name not in kind.globs)
    exclude = kind.exclude + tuple(f"*/**/{name}" for name in added if "/" not in name)
    return profile.with_kinds({kind.name: replace(kind, globs=kind.globs + added, exclude=exclude)})


GHOST_IN_SHELL = Profile(
    name="ghost-in-shell",
    description="Ghost In Shell 5.x (gish): MEMORY.md, memory/knowledge/, fact.yml, episodic.jsonl",
    kinds=(
        Kind("startup-index", "index", ("MEMORY.md",), "the startup index every session loads"),
        Kind("shelf-index", "index", ("memory/knowledge/INDEX_*.md",), "a shelf index, read on purpose"),
        Kind(
            "note",
            "markdown",
            ("memory/knowledge/*/**/*.md",),
            "a knowledge note on a shelf (or a folder below one): front matter name, description, metadata",
        ),
        Kind("facts", "yaml", ("memory/fact.yml",), "structured facts"),
        Kind("episodic", "jsonl", ("memory/episodic.jsonl",), "the episodic log, one JSON event a line"),
        Kind(
            "episode-archive",
            "jsonl",
            ("memory/_archive/**/*.jsonl",),
            "archived episodes (consolidation, decay)",
        ),
        Kind("associations", "jsonl", ("memory/associations.jsonl",), "weighted links between memories"),
        Kind("workspace-config", "yaml", (".gish/config.yml",), "the synced workspace config"),
        Kind(
            "runtime-profiles",
            "yaml",
            ("memory/runtime_profiles.yml",),
            "executors, runtimes and launchers of each agent CLI",
        ),
        agent_instructions(),
    ),
    index_link_base={"startup-index": "", "shelf-index": "memory/knowledge"},
)

# Layouts people keep: several fact files (memory/facts/*.yml), and the log split by month
# (memory/episodes/2026-01.jsonl). Detected as three-layer memory like the single files.
THREE_LAYER_FACTS = ("memory/fact.yml", "memory/fact_*.yml", "memory/facts/*.yml", "memory/facts/*.yaml")
THREE_LAYER_EPISODES = ("memory/episodic.jsonl", "memory/episodes/*.jsonl")

THREE_LAYER = Profile(
    name="three-layer",
    description="three-layer memory: fact.yml, episodic.jsonl, scratchpad.md and a routing file",
    kinds=(
        Kind("facts", "yaml", THREE_LAYER_FACTS, "structured facts, append-only (one file or several)"),
        Kind("episodic", "jsonl", THREE_LAYER_EPISODES, "the episodic log, one JSON event a line (one file or one a month)"),
        Kind("episode-archive", "jsonl", ("memory/_archive/**/*.jsonl",), "archived episodes"),
        Kind("scratchpad", "markdown", ("memory/scratchpad.md",), "short-lived task notes"),
        Kind("note", "markdown", ("memory/knowledge/**/*.md", "memory/notes/**/*.md"), "a knowledge note"),
        agent_instructions(),
        Kind(
            OTHER_LOG_KIND,
            "jsonl",
            ("memory/*.jsonl",),
            "another JSONL file in memory/: reported when its records are not episodes",
        ),
    ),
)

CLAUDE_CODE = Profile(
    name="claude-code",
    description="Claude Code auto memory: MEMORY.md plus one file per memory",
    kinds=(
        Kind("startup-index", "index", ("MEMORY.md",), "the index Claude Code loads (200 lines, 25,000 UTF-16 units)"),
        agent_instructions(),
        # The memory folder is flat: Claude Code writes and reads notes beside MEMORY.md only, so a
        # file in a subfolder (`_raw/recovered/`, a plugin's `steering/`) is no note of it.
        Kind(
            "note",
            "markdown",
            ("*.md",),
            "one memory beside MEMORY.md: front matter name, description, type",
            exclude=REPOSITORY_META_FILES + AGENT_INSTRUCTION_FILES + _ROOT_ONLY,
        ),
    ),
    index_link_base={"startup-index": ""},
)

# Folders of plain Markdown an agent reads on demand, one topic a file, with no front matter and no
# index: Serena's `.serena/memories/*.md` (written by its write_memory tool), Cline's Memory Bank
# `memory-bank/*.md` (projectbrief.md, productContext.md, activeContext.md, systemPatterns.md,
# techContext.md, progress.md), and a lessons log kept in `.learnings/` (LEARNINGS.md, ERRORS.md).
# The other agents' memory folders are read the same way: `.github/memory/`, `.agents/memory/`, `.cursor/memory/`,
# `.kiro/steering/`, a `memory/` beside AGENTS.md, `.gemini/memory.md`, `.codex/memory.md` and Antigravity's
# `.agent/memory.md` (with the notes kept beside it: decisions.md, known_issues.md ...). The agent reads them on
# demand, by any path,
# so a note in a subfolder (`sessions/2026-04-07.md`) is memory too.
PLAIN_NOTES = Profile(
    name="plain-notes",
    description="Markdown notes without front matter or index: .serena/memories/, memory-bank/, .learnings/, "
                ".github/memory/, .agents/memory/, .cursor/memory/, .kiro/steering/, memory/ beside AGENTS.md",
    kinds=(
        Kind(
            "note",
            "markdown",
            ("*.md",),
            "one memory file of the folder (or a folder below): plain Markdown, front matter optional",
            # the agent's own prompts, skills, workflows and rules in its folder (`.codex/prompts/`, `.codex/skills/`,
            # Antigravity's `.agent/workflows/` and `.agent/rules/`) are instructions
            exclude=REPOSITORY_META_FILES + AGENT_INSTRUCTION_FILES + ("prompts/**", "skills/**", "workflows/**",
                                                                      "rules/**"),
        ),
        agent_instructions(),
    ),
)
# OpenClaw (docs/concepts/agent-workspace.md and src/agents/workspace.ts, openclaw/openclaw at commit
# 004e91311b55, with DEFAULT_BOOTSTRAP_MAX_CHARS 20,000 and DEFAULT_BOOTSTRAP_TOTAL_MAX_CHARS 150,000): the
# bootstrap files it injects into every session, in its order (MEMORY.md, or memory.md without it, only into
# the main private session), BOOT.md run on a gateway restart, and the memory it reads on demand: the daily
# notes memory/YYYY-MM-DD.md (and memory/YYYY-MM-DD-<slug>.md), memory/**/*.md, DREAMS.md.
OPENCLAW_BOOTSTRAP_FILES = ("AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md", "HEARTBEAT.md",
                            "BOOTSTRAP.md")
OPENCLAW_MEMORY_FILES = ("MEMORY.md", "memory.md")
# Files only an OpenClaw workspace has: any of them tells it from a Claude Code folder.
OPENCLAW_MARKERS = ("SOUL.md", "IDENTITY.md", "HEARTBEAT.md", "BOOTSTRAP.md", "BOOT.md", "DREAMS.md")
# What OpenClaw's dreaming writes by itself: a report a phase a day (`memory/dreaming/<phase>/YYYY-MM-DD.md`: light,
# rem, deep, each from one template) and the dream diary DREAMS.md. Nobody edits them; what dreaming keeps, it
# promotes into MEMORY.md, where it is checked.
_DREAMING_OUTPUT = LazyPattern(r"(?:^|/)memory/dreaming/(?:light|rem|deep)/|(?:^|/)DREAMS\.md\Z")


def is_dreaming_output(relpath: str, profile_name: str) -> bool:
    """Whether a file of a workspace of this profile is what OpenClaw's dreaming wrote (only an OpenClaw workspace
    dreams: another agent's `memory/dreaming/` is the owner's own notes)."""
    return profile_name == OPENCLAW.name and _DREAMING_OUTPUT.search(relpath) is not None


OPENCLAW = Profile(
    name="openclaw",
    description="OpenClaw agent workspace: AGENTS.md, SOUL.md, USER.md ... injected at start, MEMORY.md, memory/YYYY-MM-DD.md",
    kinds=(
        Kind(
            "agent-instructions",
            "markdown",
            OPENCLAW_BOOTSTRAP_FILES + ("BOOT.md",) + AGENT_INSTRUCTION_FILES + INSTRUCTION_TEMPLATES,
            "a bootstrap file OpenClaw injects into every session (cut at bootstrapMaxChars)",
            exclude=_ROOT_ONLY,
        ),
        Kind(
            "note",
            "markdown",
            OPENCLAW_MEMORY_FILES + ("DREAMS.md", "memory/**/*.md"),
            "OpenClaw memory: the curated MEMORY.md, the daily notes memory/YYYY-MM-DD.md, DREAMS.md",
        ),
    ),
)

# Cline's Memory Bank core files: any of them names the folder.
MEMORY_BANK_FILES = ("projectbrief.md", "productContext.md", "activeContext.md", "systemPatterns.md",
                     "techContext.md", "progress.md")

AGENT_INSTRUCTIONS = Profile(
    name="agent-instructions",
    description="only the files an agent loads whole: CLAUDE.md, AGENTS.md, GEMINI.md, or a MEMORY.md that indexes nothing",
    kinds=(agent_instructions("MEMORY.md"),),
)

PROFILES: dict[str, Profile] = {
    p.name: p for p in (GHOST_IN_SHELL, THREE_LAYER, CLAUDE_CODE, OPENCLAW, PLAIN_NOTES, AGENT_INSTRUCTIONS)
}


def _first_json_line(path: Path) -> dict:
    try:
        for raw in read_regular(path, limit=1_000_000).splitlines():
            if raw.strip():
                value = json.loads(raw[:100_000])
                return value if isinstance(value, dict) else {}
    except (OSError, ValueError, RecursionError):
        pass
    return {}


def _head(path: Path, size: int = 4096) -> str:
    try:
        raw = read_regular(path, limit=size)
    except OSError:
        return ""
    return head_text(raw)


def head_text(raw: bytes) -> str:
    """The text of a file's first bytes, in whatever encoding it is written (a UTF-16 head cut mid-character is
    cut back to whole characters); undecodable bytes replaced."""
    text = decode(raw[: len(raw) - len(raw) % 4] if raw.startswith((b"\xff\xfe", b"\xfe\xff")) else raw)[0]
    return text if text is not None else raw.decode("utf-8", "replace")


def detect(root: Path) -> tuple[str | None, str]:
    """The profile a workspace root looks like, with the evidence; (None, why) if none."""
    memory = root / "memory"
    if (root / ".gish").is_dir():
        return "ghost-in-shell", ".gish/ is present"
    if (memory / "knowledge").is_dir():
        return "ghost-in-shell", "memory/knowledge/ is present"
    first = _first_json_line(memory / "episodic.jsonl")
    if "fingerprint" in first:
        return "ghost-in-shell", "episodes carry gish 5's fingerprint field"
    facts = _head(memory / "fact.yml")
    if any(line.startswith(("identity:", "schema_version:")) for line in facts.splitlines()):
        return "ghost-in-shell", "memory/fact.yml has gish's identity/schema_version keys"
    if memory.is_dir() and any(
        (memory / name).is_file() for name in ("fact.yml", "episodic.jsonl", "scratchpad.md")
    ):
        return "three-layer", "memory/ holds fact.yml, episodic.jsonl or scratchpad.md"
    split = _split_layout(memory)
    if split:
        return "three-layer", split
    gish_manifests = ("brain_region_manifest.yml", "memory_manifest.yml", "sanctum_registry.yml", "runtime_profiles.yml")
    if any((memory / name).is_file() for name in gish_manifests):
        return "ghost-in-shell", "memory/ holds gish manifests"
    # OpenClaw's own files (SOUL.md, HEARTBEAT.md ...) say more than a JSONL file in memory/: its heartbeat keeps one.
    openclaw = _openclaw_workspace(root)
    if openclaw:
        return OPENCLAW.name, openclaw
    if memory.is_dir() and _has_jsonl(memory):
        return "three-layer", "memory/ holds JSONL logs"
    plain = _plain_notes(root)
    if plain:
        return PLAIN_NOTES.name, plain
    if (root / "MEMORY.md").is_file():
        why = _claude_code_index(root)
        if why:
            return "claude-code", why
        return "agent-instructions", ("MEMORY.md indexes nothing (no links to notes, and no notes beside it but a "
                                      "project's own files): a file loaded whole")
    why = _claude_memory_folder_without_index(root)
    if why:
        return "claude-code", why
    if root.parent.name == "skills" and (root / "SKILL.md").is_file():
        # A skill in a skills folder (`.agents/skills/<name>/`): its AGENTS.md is loaded with the skill, on demand,
        # not at start-up (dev: a vendored skill's 863-line guide reported over a start-up budget).
        return None, "a skill's folder: its files are loaded with the skill, not at start-up"
    present = [name for name in AGENT_INSTRUCTION_FILES + INSTRUCTION_TEMPLATES if (root / name).is_file()]
    if present:
        return "agent-instructions", f"{present[0]} is here and no memory folder"
    rules = agent_file_present(root)
    if rules:
        return "agent-instructions", f"{rules} (an agent's rules) is here and no memory folder"
    return None, "no MEMORY.md, memory/, .gish/, CLAUDE.md, AGENTS.md or GEMINI.md here"


# OpenClaw's default workspace, `~/.openclaw/workspace`; for a named profile `~/.openclaw/workspace-<profile>`
# (docs before 2026) or `~/.openclaw-<profile>/workspace`, and `workspace-<agentId>` for a multi-agent roster.
_OPENCLAW_HOME_WORKSPACE = re.compile(r"workspace(-[\w.-]+)?")
_OPENCLAW_STATE_DIR = re.compile(r"\.openclaw(-[\w.-]+)?")
_DAILY_NOTE = re.compile(r"\d{4}-\d{2}-\d{2}(-[^/]+)?\.md")


# Names a person's own guide may have too (a dotfiles repository's BOOTSTRAP.md walks a new machine through its
# setup): OpenClaw's only beside the AGENTS.md it always writes with them (dev: a chezmoi repository's guide).
_NAMES_OTHERS_USE = frozenset({"BOOTSTRAP.md", "BOOT.md"})


def _openclaw_workspace(root: Path) -> str | None:
    """Why root is an OpenClaw workspace (a file only OpenClaw keeps, or daily notes beside its bootstrap files)."""
    if ".claude" in root.parts:
        return None
    marker = next((name for name in OPENCLAW_MARKERS if (root / name).is_file()
                   and (name not in _NAMES_OTHERS_USE or (root / "AGENTS.md").is_file())), None)
    if marker:
        return f"{marker} is an OpenClaw bootstrap file"
    if _OPENCLAW_HOME_WORKSPACE.fullmatch(root.name) and _OPENCLAW_STATE_DIR.fullmatch(root.parent.name) and any(
        (root / name).is_file() for name in OPENCLAW_BOOTSTRAP_FILES + OPENCLAW_MEMORY_FILES
    ):
        return f"{root.parent.name}/{root.name}/ is OpenClaw's own workspace folder"
    if not any((root / name).is_file() for name in ("AGENTS.md", "MEMORY.md", "USER.md")):
        return None
    try:
        daily = any(_DAILY_NOTE.fullmatch(child.name) for child in (root / "memory").iterdir())
    except OSError:
        return None
    return "memory/ holds OpenClaw daily notes (YYYY-MM-DD.md) beside its bootstrap files" if daily else None


# Memory folders people keep for the agents other than Claude Code, Serena and Cline, found by their place: a
# `memory/` in an agent's dot-folder (`.github/memory/`, `.agents/memory/`, `.cursor/memory/`), Kiro's steering
# files, and a lessons log a hook writes into the agent's folder (`claude/learnings/` in a dotfiles repository).
_AGENT_FOLDERS = frozenset(AGENT_DOT_DIRS + OTHER_AGENT_DOT_DIRS) | {"claude", "codex", "dot_claude", "dot_codex"}
# Memory files kept as one file in an agent's dot-folder (`.gemini/memory.md`, `.cursor/memory.md`).
_DOT_FOLDER_MEMORY_FILES = ("memory.md", "MEMORY.md")


def _plain_notes(root: Path) -> str | None:
    """Why root is a folder of plain notes (Serena, Cline's Memory Bank, a lessons log, the memory folder of
    another agent), or None."""
    # The folder's name first: a hook's file sits in a folder of thousands of notes, listed for nothing.
    parent = root.parent.name
    agent_folder = parent in _AGENT_FOLDERS
    if not (
        root.name in ("memories", ".learnings", "memory-bank", "memory")
        or (root.name == "steering" and parent == ".kiro")
        or (root.name == "learnings" and agent_folder)
        or root.name in (".gemini", ".cursor", ".windsurf", ".codex", ".agent")
    ):
        return None
    try:
        names = {child.name for child in root.iterdir() if child.suffix == ".md" and child.is_file()
                 and not matches_any(child.name, REPOSITORY_META_FILES)}
    except OSError:
        return None
    if not names and agent_folder and root.name in ("memory", "memories"):
        names = _notes_one_folder_down(root)  # notes kept by kind (`feedback/`, `project/`), none at the top
    if not names:
        return None
    if root.name == "memories" and parent == ".serena":
        return "Serena's .serena/memories/"
    if root.name == ".learnings":
        return "a lessons log in .learnings/"
    if root.name == "memory-bank" and names & set(MEMORY_BANK_FILES):
        return "a Cline Memory Bank (memory-bank/ with its core files)"
    if root.name == "steering":
        return "Kiro's steering files (.kiro/steering/)"
    if root.name == "learnings":
        return f"a lessons log in {parent}/learnings/"
    if root.name.startswith("."):
        memory_file = next((name for name in _DOT_FOLDER_MEMORY_FILES if name in names), None)
        return f"{root.name}/{memory_file}, the memory file kept in the agent's folder" if memory_file else None
    # A memory/ with an index, or in Claude Code's folders, is Claude Code's (detected below).
    claude_code = ".claude" in root.parts or parent in ("claude", "dot_claude") or root.parent.parent.name == "projects"
    if root.name in ("memory", "memories") and agent_folder and not claude_code:
        # Another agent's memory folder, with or without a MEMORY.md: that agent loads no index at start-up, so its
        # notes need no Claude Code front matter (dev: Replit's and Codex's folders read as Claude Code's were all
        # false schema-violation findings).
        return f"a memory folder in {parent}/"
    # The memory/ of a workspace above (OpenClaw's daily notes, three-layer or gish memory) is that workspace's.
    if root.name == "memory" and "MEMORY.md" not in names and not claude_code and not _memory_of_the_folder_above(root):
        beside = next((name for name in AGENT_INSTRUCTION_FILES if (root.parent / name).is_file()), None)
        if beside:
            return f"memory/ beside {beside}, notes the agent reads on demand"
        if any(_DAILY_NOTE.fullmatch(name) for name in names):
            return "memory/ holds daily notes (YYYY-MM-DD.md)"
    return None


def _notes_one_folder_down(root: Path) -> set[str]:
    try:
        return {f"{folder.name}/{child.name}" for folder in root.iterdir() if folder.is_dir() and not folder.name.startswith(".")
                for child in folder.iterdir() if child.suffix == ".md" and child.is_file()}
    except OSError:
        return set()


def _memory_of_the_folder_above(memory: Path) -> bool:
    return detect(memory.parent)[0] not in (None, AGENT_INSTRUCTIONS.name)


def _split_layout(memory: Path) -> str | None:
    """Why memory/ is three-layer memory split into files: facts/*.yml or episodes/*.jsonl, or None."""
    for folder, suffixes, what in (("facts", (".yml", ".yaml"), "fact files"), ("episodes", (".jsonl",), "episode logs")):
        try:
            if any(child.suffix in suffixes and child.is_file() for child in (memory / folder).iterdir()):
                return f"memory/{folder}/ holds {what}"
        except OSError:
            continue
    return None


def _has_jsonl(folder: Path) -> bool:
    try:
        return any(child.suffix == ".jsonl" and child.is_file() for child in folder.iterdir())
    except OSError:
        return False


# A subfolder of a Claude Code memory folder with a MEMORY.md of its own is another memory folder, found as its own
# workspace (Claude Code gives each subagent one: `.claude/agent-memory/<agent>/MEMORY.md`), not notes of the folder
# above.
def own_memory_folder(folder: Path) -> bool:
    return (folder / "MEMORY.md").is_file()


# A folder below an OpenClaw workspace that is another agent's workspace (a roster keeps one a agent: `Scribe/`,
# `agents/kingshot/`): its own SOUL.md or IDENTITY.md, and memory of its own (MEMORY.md or memory/). Found as its own
# workspace, not as text files of the folder above. Templates and examples of the files are none.
_NOT_AN_AGENT = re.compile(r"(?i)templates?|examples?|samples?|docs?|fixtures?|tests?|skills?|backups?")


def own_agent_workspace(folder: Path) -> bool:
    if _NOT_AN_AGENT.fullmatch(folder.name):
        return False
    return any((folder / name).is_file() for name in ("SOUL.md", "IDENTITY.md")) and (
        (folder / "MEMORY.md").is_file() or (folder / "memory").is_dir())


# A link of an index to a Markdown file in a subfolder: `[Why](decisions/no-orm.md)`, `(<./a b.md>)`, `(x.md#part)`.
_SUBFOLDER_LINK = re.compile(
    r"\]\((?:<(?![a-z][a-z0-9+.-]*:|#|/)([^<>\n#]*/[^<>\n#]*\.md)(?:#[^>\n]*)?>"
    r"|(?![a-z][a-z0-9+.-]*:|#|/)([^)<>\s#]*/[^)<>\s#]*\.md)(?:#[^)\s]*)?)\)",
    re.IGNORECASE,
)


def index_linked_notes(text: str) -> frozenset[str]:
    """The paths (from the index's folder) of the Markdown files in subfolders an index links to. Claude Code
    reads a note by following the index's link, so a note kept in a folder by topic (`decisions/no-orm.md`) is a
    note; an unlinked file in a subfolder (`_raw/recovered/`, a plugin's `steering/`) is none."""
    found = set()
    for match in _SUBFOLDER_LINK.finditer(text):
        target = posixpath.normpath(unquote(match.group(1) or match.group(2)))
        if "/" in target and not target.startswith("../"):
            found.add(target)
    return frozenset(found)


_LOCAL_MD_LINK = re.compile(r"\]\((?![a-z][a-z0-9+.-]*:|#|/)[^)\s]*\.md[)#\s]", re.IGNORECASE)


def _claude_code_index(root: Path) -> str | None:
    """Why the MEMORY.md at root is a Claude Code memory index, or None when it indexes nothing."""
    if root.name == "memory" or ".claude" in root.parts:
        return f"MEMORY.md in {'a memory/ folder' if root.name == 'memory' else 'a .claude/ folder'}"
    if _has_memory_notes(root) and not _is_project(root):
        # In a project's own folder (Package.swift, an .xcodeproj) the Markdown beside a MEMORY.md is the project's
        # (a HANDOFF.md, docs), not notes it indexes: only its links make it an index (batch 18 dev: a macos/ app).
        return "MEMORY.md with memory notes beside it"
    if _LOCAL_MD_LINK.search(_head(root / "MEMORY.md", 65536)):
        return "MEMORY.md links to notes"
    return None


def _claude_memory_folder_without_index(root: Path) -> str | None:
    """Why root is a Claude Code memory folder that has notes but no MEMORY.md (`.claude/memory/*.md`, which a
    CLAUDE.md points the agent to): its notes are memory all the same, and index-missing says the index is not
    there."""
    if root.name != "memory":
        return None
    if root.parent.name == ".claude":
        where = ".claude/memory/"
    elif root.parent.parent.name == "projects" and root.parent.parent.parent.name in (".claude", "claude", "dot_claude"):
        # The folder Claude Code keeps for a project, `~/.claude/projects/<path>/memory/`, copied into a repository.
        where = "a copied .claude/projects/<path>/memory/"
    else:
        return None
    return f"{where} holds memory notes and no MEMORY.md index" if _has_memory_notes(root) else None


def _is_project(root: Path) -> bool:
    try:
        return project_manifest(os.listdir(root)) is not None
    except OSError:
        return False


def _has_memory_notes(root: Path) -> bool:
    """Whether a folder holds a Markdown file that may be a memory note: not MEMORY.md, nor a repository's or an
    agent's own file (README, LICENSE, CLAUDE.md ...)."""
    try:
        return any(
            child.suffix == ".md" and child.is_file() and child.name != "MEMORY.md"
            and not matches_any(child.name, REPOSITORY_META_FILES + AGENT_INSTRUCTION_FILES)
            for child in root.iterdir()
        )
    except OSError:
        return False


def looks_like_workspace(root: Path) -> bool:
    return detect(root)[0] is not None


def find_kind(name: str, profile_name: str | None) -> tuple[Profile, Kind]:
    """A kind by 'KIND' (in the given or default profile) or 'PROFILE/KIND'."""
    if "/" in name:
        profile_name, name = name.split("/", 1)
    candidates = [PROFILES[profile_name]] if profile_name in PROFILES else list(PROFILES.values())
    if profile_name and profile_name not in PROFILES:
        raise UsageError(f"unknown profile '{profile_name}'; choose one of {', '.join(PROFILES)}")
    for profile in candidates:
        kind = profile.kind(name)
        if kind is not None:
            return profile, kind
    kinds = sorted({f"{p.name}/{k.name}" for p in PROFILES.values() for k in p.kinds})
    raise UsageError(f"unknown kind '{name}'; known kinds: {', '.join(kinds)}")

"""Workspace profiles: which files are memory, of which kind, in which format.

A profile maps globs (relative to the workspace root) to kinds. The first kind
whose globs match a file claims it; files no kind claims are not memory files
and are never guessed at.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path

from memwarden.decoding import decode
from memwarden.discover.globs import matches_any

FORMATS = ("yaml", "jsonl", "markdown", "index")
# The kinds that hold episodes, in every profile: the live log and its archives.
EPISODE_KINDS = ("episodic", "episode-archive")


@dataclass(frozen=True)
class Kind:
    name: str
    format: str  # one of FORMATS; "index" is Markdown read as a list of entries
    globs: tuple[str, ...]
    description: str
    exclude: tuple[str, ...] = ()
    schema_file: str | None = None  # custom kinds: a schema path from the config

    def claims(self, relpath: str) -> bool:
        return matches_any(relpath, self.globs) and not matches_any(relpath, self.exclude)


@dataclass(frozen=True)
class Profile:
    name: str
    description: str
    kinds: tuple[Kind, ...]
    index_link_base: dict[str, str] = field(default_factory=dict)

    def kind(self, name: str) -> Kind | None:
        return next((k for k in self.kinds if k.name == name), None)

    def classify(self, relpath: str) -> Kind | None:
        return next((k for k in self.kinds if k.claims(relpath)), None)

    def with_kinds(self, overrides: dict[str, Kind]) -> "Profile":
        kinds = [overrides.pop(k.name, k) for k in self.kinds]
        kinds.extend(overrides.values())
        return replace(self, kinds=tuple(kinds))


GHOST_IN_SHELL = Profile(
    name="ghost-in-shell",
    description="Ghost In Shell 5.x (gish): MEMORY.md, memory/knowledge/, fact.yml, episodic.jsonl",
    kinds=(
        Kind("startup-index", "index", ("MEMORY.md",), "the startup index every session loads"),
        Kind("shelf-index", "index", ("memory/knowledge/INDEX_*.md",), "a shelf index, read on purpose"),
        Kind(
            "note",
            "markdown",
            ("memory/knowledge/*/*.md",),
            "a knowledge note: front matter name, description, metadata",
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
    ),
    index_link_base={"startup-index": "", "shelf-index": "memory/knowledge"},
)

THREE_LAYER = Profile(
    name="three-layer",
    description="three-layer memory: fact.yml, episodic.jsonl, scratchpad.md and a routing file",
    kinds=(
        Kind("facts", "yaml", ("memory/fact.yml", "memory/fact_*.yml"), "structured facts, append-only"),
        Kind("episodic", "jsonl", ("memory/episodic.jsonl",), "the episodic log, one JSON event a line"),
        Kind("episode-archive", "jsonl", ("memory/_archive/**/*.jsonl",), "archived episodes"),
        Kind("scratchpad", "markdown", ("memory/scratchpad.md",), "short-lived task notes"),
        Kind("note", "markdown", ("memory/knowledge/**/*.md", "memory/notes/**/*.md"), "a knowledge note"),
        Kind("routing", "markdown", ("CLAUDE.md", "AGENTS.md", "GEMINI.md"), "the routing file that only points"),
    ),
)

CLAUDE_CODE = Profile(
    name="claude-code",
    description="Claude Code auto memory: MEMORY.md plus one file per memory",
    kinds=(
        Kind("startup-index", "index", ("MEMORY.md",), "the index Claude Code loads (200 lines, 25,000 UTF-16 units)"),
        Kind("note", "markdown", ("*.md",), "one memory: front matter name, description, type", exclude=("README.md",)),
    ),
    index_link_base={"startup-index": ""},
)

PROFILES: dict[str, Profile] = {p.name: p for p in (GHOST_IN_SHELL, THREE_LAYER, CLAUDE_CODE)}


def _first_json_line(path: Path) -> dict:
    try:
        with path.open("rb") as handle:
            for raw in handle:
                if raw.strip():
                    value = json.loads(raw[:100_000])
                    return value if isinstance(value, dict) else {}
    except (OSError, ValueError, RecursionError):
        pass
    return {}


def _head(path: Path, size: int = 4096) -> str:
    try:
        with path.open("rb") as handle:
            raw = handle.read(size)
    except OSError:
        return ""
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
    gish_manifests = ("brain_region_manifest.yml", "memory_manifest.yml", "sanctum_registry.yml", "runtime_profiles.yml")
    if any((memory / name).is_file() for name in gish_manifests):
        return "ghost-in-shell", "memory/ holds gish manifests"
    if (root / "MEMORY.md").is_file():
        return "claude-code", "MEMORY.md with no memory/ folder beside it"
    return None, "no MEMORY.md, memory/ or .gish/ here"


def looks_like_workspace(root: Path) -> bool:
    return detect(root)[0] is not None

"""Finding and reading a workspace's startup index, and the limits the workspace sets for it.

The measuring itself is pure (:mod:`memwarden.analysis.budget`); this is the
side that touches the disk: gish's ``.gish/config.yml`` limit, the git root,
Codex's chain of AGENTS.md files, the profile's index files, and the
workspace overlay (staged or in-memory contents that win over the disk).
"""

from __future__ import annotations

import os
from pathlib import Path

from memwarden.analysis import budget
from memwarden.analysis.budget import Limit, Measurement, Settings, Source
from memwarden.discover.profiles import Kind
from memwarden.discover.workspace import work_tree_of
from memwarden.documents import IndexDocument, load
from memwarden.globs import is_glob
from memwarden.fileio import read_regular
from memwarden.kinds import CODEX_FILES


def file_exists(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):  # a name too long for the file system is simply not there
        return False


def dir_exists(path: Path) -> bool:
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


# -- the limits ----------------------------------------------------------------------


def gish_limit(root: Path) -> tuple[Limit | None, str | None]:
    """The chars limit from .gish/config.yml, or (None, why not)."""
    path = root / ".gish" / "config.yml"
    if not file_exists(path):
        return None, None
    doc = load(root, ".gish/config.yml", Kind("workspace-config", "yaml", (".gish/config.yml",), "gish config"))
    if not doc.ok or not isinstance(getattr(doc, "data", None), dict):
        return None, ".gish/config.yml cannot be read; the gish defaults are used"
    index = doc.data.get("index")
    if not isinstance(index, dict):
        return None, None
    default = budget.PRESETS["gish"].limits[0]
    values = []
    for key, fallback in (("max_chars", default.max), ("truncate_edge_chars", default.edge)):
        value = _gish_number(index.get(key, fallback))
        if value is None:
            return None, f".gish/config.yml index.{key} is not a positive whole number; the gish defaults are used"
        values.append(value)
    max_chars, edge = values
    if max_chars > edge:
        # gish compares with the edge first, so past the edge is "truncating" whatever the budget says
        return Limit("chars", edge, edge), (
            f".gish/config.yml sets index.max_chars ({max_chars:,}) above index.truncate_edge_chars ({edge:,}); "
            "the edge is the budget: the index is cut there"
        )
    return Limit("chars", max_chars, edge), None


def _gish_number(value) -> int | None:
    """A config number as gish reads it (`int(value)`: `15000` or `"15000"`), if it is a positive whole one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        try:
            value = int(value.strip())
        except ValueError:
            return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return value if isinstance(value, int) and value > 0 else None


def resolve_settings(
    options: dict,
    profile_name: str,
    root: Path,
    *,
    preset: str | None = None,
    unit: str | None = None,
    max_: int | None = None,
    edge: int | None = None,
) -> Settings:
    """The limits to measure with: flags over options over the workspace's gish config over the preset."""
    chosen, explicit = budget.choose_preset(options, profile_name, preset)
    limits, notes = chosen.limits, []
    if chosen.name == "gish":
        from_config, why = gish_limit(root)
        if from_config is not None:
            limits = (from_config,)
        if why:
            notes.append(why)
    return budget.resolve(
        chosen, limits, options, explicit=explicit, notes=notes, unit=unit, max_=max_, edge=edge
    )


# -- the files -----------------------------------------------------------------------


def codex_chain(directory: Path) -> list[Path]:
    """The AGENTS files Codex reads for a working directory: repository root first."""
    directory = directory.resolve()
    top = work_tree_of(directory) or directory
    chain = []
    folders = [directory, *directory.parents]
    folders = folders[: folders.index(top) + 1] if top in folders else [directory]
    for folder in reversed(folders):
        for name in CODEX_FILES:
            candidate = folder / name
            if file_exists(candidate):
                chain.append(candidate)
                break
    return chain


def has_own_agents_file(ws) -> bool:
    """Whether the workspace root holds an AGENTS file of its own (so Codex's chain is its memory too)."""
    return any(file_exists(ws.root / name) or name in ws.overlay for name in CODEX_FILES)


def startup_index_paths(ws) -> list[str]:
    """Where the profile's startup index lives (its globs are plain names at the root)."""
    kind = ws.profile.kind("startup-index")
    names = list(kind.globs) if kind is not None else ["MEMORY.md"]
    return [name for name in names if not is_glob(name)] or ["MEMORY.md"]


def memory_below(root: Path) -> Path:
    """The workspace to measure from a folder that is none (a repository root): the first Claude Code
    memory folder below it (`.claude/memory/`, `agent/`), else the folder itself."""
    from memwarden.discover.profiles import CLAUDE_CODE, detect
    from memwarden.discover.workspace import find_nested_roots, is_workspace_root

    if is_workspace_root(root):
        return root
    return next((found for found in find_nested_roots(root) if detect(found)[0] == CLAUDE_CODE.name), root)


def claude_code_file(ws) -> Path | None:
    """With no AGENTS.md to measure: the file Claude Code loads for this workspace, if any.

    The MEMORY.md of a Claude Code memory folder in the workspace (`agent/`, `.claude/memory/`),
    else a MEMORY.md or CLAUDE.md at the root. None in a claude-code workspace (its preset is that already).
    """
    from memwarden.discover.profiles import CLAUDE_CODE, detect
    from memwarden.discover.workspace import find_nested_roots

    if ws.profile.name == CLAUDE_CODE.name:
        return None
    for folder in find_nested_roots(ws.root):
        if detect(folder)[0] == CLAUDE_CODE.name and file_exists(folder / "MEMORY.md"):
            return folder / "MEMORY.md"
    return next((ws.root / name for name in ("MEMORY.md", "CLAUDE.md", ".claude/CLAUDE.md")
                 if file_exists(ws.root / name)), None)


def rel_to(path: Path, root: Path) -> str:
    return Path(os.path.relpath(path, root)).as_posix()


def locate(ws, settings: Settings, index: Path | None = None) -> tuple[list[Path], list[str]]:
    """The files to measure, and (when none exist) what was looked for."""
    if settings.preset.chain:
        if index is not None:
            index = index.absolute()
            chain = codex_chain(index.parent)
            chain = [p for p in chain if p.parent.resolve() != index.parent.resolve()]
            return (chain + [index] if file_exists(index) else []), [rel_to(index, ws.root)]
        chain = codex_chain(ws.root)
        return chain, [name for name in CODEX_FILES[1:]]
    if index is not None:
        return ([index] if file_exists(index) else []), [rel_to(index.absolute(), ws.root)]
    if settings.preset.per_file:
        return openclaw_bootstrap(ws)
    names = startup_index_paths(ws)
    found = [
        ws.root / name for name in names if name in ws.overlay or file_exists(ws.root / name)
    ]
    return found[:1], names


def openclaw_bootstrap(ws) -> tuple[list[Path], list[str]]:
    """The bootstrap files OpenClaw injects, in its order (MEMORY.md, else memory.md, last), and their names."""
    from memwarden.discover.profiles import OPENCLAW_BOOTSTRAP_FILES, OPENCLAW_MEMORY_FILES

    def present(name: str) -> bool:
        return name in ws.overlay or file_exists(ws.root / name)

    found = [ws.root / name for name in OPENCLAW_BOOTSTRAP_FILES if present(name)]
    memory = next((name for name in OPENCLAW_MEMORY_FILES if present(name)), None)
    if memory is not None:
        found.append(ws.root / memory)
    return found, list(OPENCLAW_BOOTSTRAP_FILES + OPENCLAW_MEMORY_FILES[:1])


def _read(ws, path: Path) -> Source:
    relpath = rel_to(path, ws.root)
    raw = ws.overlay.get(relpath)
    if raw is None:
        raw = read_regular(path)
    return budget.read_source(relpath, raw)


def _as_index(ws, source: Source) -> IndexDocument | None:
    """The file read as an index (its linked list items), or None."""
    doc = ws.document(source.relpath) if not source.relpath.startswith("../") else None
    if not isinstance(doc, IndexDocument):
        kind = Kind("startup-index", "index", (source.relpath,), "measured index")
        doc = load(ws.root, source.relpath, kind, source.text.encode("utf-8"))
    return doc if isinstance(doc, IndexDocument) and doc.ok else None


def measure(ws, settings: Settings, index: Path | None = None) -> Measurement:
    """Find and read the startup index (or the given file) and measure it against the settings."""
    paths, expected = locate(ws, settings, index)
    sources = []
    for path in paths:
        try:
            sources.append(_read(ws, path))
        except OSError:
            continue
    result = Measurement(settings, sources, expected if not sources else [])
    if not sources:
        return result
    for source in sources:
        if not settings.preset.chain and not settings.preset.rules_file:
            source.index = _as_index(ws, source)
        if not source.decoded:
            settings.notes.append(f"{source.relpath} is not valid UTF-8; measured with replacement characters")
    result.gauges = budget.gauges(settings, sources)
    return result


def startup_measurements(ws, options: dict) -> list[Measurement]:
    """Every startup file a workspace root holds, each measured with the preset of the agent that loads it.

    The profile's startup index with the profile's preset (or the configured one); and Codex's
    AGENTS.md chain with `codex` when the root holds an AGENTS file and the profile's preset is
    another, unless a preset is configured (a chosen preset is the only one measured). Only what
    was found is returned. `memwarden check` (the budget rules) and `memwarden budget` both read
    this, so they agree.
    """
    settings = resolve_settings(options, ws.profile.name, ws.root)
    chosen = [settings]
    if not settings.explicit_preset and not settings.preset.chain and has_own_agents_file(ws):
        chosen.append(resolve_settings({}, ws.profile.name, ws.root, preset="codex"))
    found = [m for m in (measure(ws, each) for each in chosen) if m.found]
    if not settings.explicit_preset:
        found.extend(rules_file_measurements(ws))
    return found


def documented_preset(ws, index: Path) -> str | None:
    """The preset of the agent whose rules file index is, when that agent documents a limit (Windsurf), else None."""
    from memwarden.agent_files import agent_of

    try:
        relpath = (Path(os.path.realpath(index.absolute().parent)) / index.name).relative_to(ws.root).as_posix()
    except ValueError:
        return None
    row = agent_of(relpath)
    return row.limit.preset if row is not None and row.limit is not None else None


def rules_file_measurements(ws) -> list[Measurement]:
    """Each agent rules file whose agent documents a size limit (Windsurf's), measured alone against it."""
    from memwarden.agent_files import agent_of

    found = []
    for relpath in sorted(ws.files):
        row = agent_of(relpath)
        if row is None or row.limit is None or ws.files[relpath].name != "agent-instructions":
            continue
        settings = resolve_settings({}, ws.profile.name, ws.root, preset=row.limit.preset)
        measurement = measure(ws, settings, ws.root / relpath)
        if measurement.found:
            found.append(measurement)
    return found

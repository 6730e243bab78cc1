"""`memwarden mcp`: a Model Context Protocol server over stdio (the official SDK), for agents that speak MCP
but have no write hook to run `memwarden hook`.

Every tool reads and none writes (each is annotated read-only): an agent asks before it writes memory
whether the content would pass, after it writes how the memory stands, how much room the startup index has
left, and which records a new note repeats or contradicts. Answers are JSON made from the engine's findings
and the JSON `stats` and `budget --json` print: a secret in the content is never echoed (messages are the
engine's, hidden; paths go through `Workspace.display_path`; the whole answer through `hide_names_in`).

A tool reads only below the folder the server answers for (where it was started, or `--root`): a path
that leads out of it, by `..`, as an absolute path or through a symlink, is refused, and so is content
past the size the language server checks (8 MB). Whatever goes wrong is answered as {"error": ...},
never a traceback, and no error quotes the content it was given.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path

from memwarden import __version__
from memwarden.analysis.secrets.paths import hide_names_in
from memwarden.errors import UsageError
from memwarden.fileio import read_regular
from memwarden.model import Finding
from memwarden.server import checking

# The coherence rules: what a proposed note repeats or contradicts among the records already there.
RELATED_RULES = ["conflicting-records", "near-duplicate"]
SECRET_RULE = "secret-in-memory"

INSTRUCTIONS = (
    "memwarden lints the memory files coding agents keep in git (MEMORY.md and its notes, AGENTS.md, CLAUDE.md, "
    "memory/ logs and facts). Before writing a memory file, call check_memory with the path and the content you "
    "mean to write and fix what it finds; before adding a line to the startup index, call budget_headroom; "
    "before adding a note, call related_records to find one to update instead. All tools are read-only."
)


def _shown(data: dict) -> dict:
    """The answer with every file or folder name that holds a secret hidden, as every CLI output is."""
    return json.loads(hide_names_in(json.dumps(data, ensure_ascii=False)))


def _finding(finding: Finding, ws) -> dict:
    data = finding.to_json()
    data["path"] = ws.display_path(finding.workspace_path, ws.root)
    for shown, place in zip(data.get("related", ()), finding.related):
        shown["path"] = ws.display_path(place.workspace_path, ws.root)
    return data


# Content past this is refused: checking it would take minutes (the language server's limit too).
CONTENT_LIMIT = 8 * 1024 * 1024


def _path(path: str) -> Path:
    """The path a tool was given, absolute, when it leads to a place below the server's folder."""
    if not path or "\0" in path:
        raise UsageError("path: give the memory file's path (absolute, or relative to the server's folder)")
    target = Path(path).expanduser().absolute()
    root = os.path.realpath(Path.cwd())
    if os.path.commonpath([root, os.path.realpath(target)]) != root:
        raise UsageError(f"{target.name or target}: outside the folder this server answers for "
                         "(start it with --root at the folder that holds the memory)")
    return target


def _text(name: str, value: str | None) -> bytes | None:
    if value is None:
        return None
    if len(value) > CONTENT_LIMIT:
        raise UsageError(f"{name}: too big ({len(value):,} characters; the limit is {CONTENT_LIMIT:,})")
    return value.encode("utf-8", "replace")


def _folder(workspace: str) -> Path:
    folder = _path(workspace or ".")
    if not folder.is_dir():
        raise UsageError(f"{folder.name or folder}: not a folder")
    from memwarden.discover.workspace import find_root

    return find_root(folder)


def check_memory(path: str, content: str | None = None) -> dict:
    """Check a memory file as memwarden check does. With content: check that text as the file at path would be
    after the write (nothing is written); without it, the file as it is on disk. Returns the findings (rule code
    and name, severity, line, column, message, and the fix when one exists) and, when the safe fixes change
    the content and no secret is in it, the content with them applied."""
    target = _path(path)
    raw = _text("content", content)
    if raw is None:
        if not target.is_file():
            raise UsageError(f"{target.name}: no such file (pass content to check a file not written yet)")
        if target.stat().st_size > CONTENT_LIMIT:
            raise UsageError(f"{target.name}: too big to check here (run memwarden check on it)")
        raw = read_regular(target, limit=CONTENT_LIMIT)
    checked = checking.check_content(target, raw)
    ws = checked.workspace
    answer: dict = {
        "path": ws.display_path(checked.relpath, ws.root) if checked.relpath else target.name,
        "checked": checked.relpath is not None,
        "findings": [_finding(f, ws) for f in checked.findings],
    }
    if not answer["checked"]:
        answer["note"] = "the workspace's config excludes this file: memwarden does not check it"
    fixable = any(f.fix is not None for f in checked.findings)
    # secret-in-memory may not be selected (a preview rule): fixed content must still never carry one back.
    has_secret = any(f.rule.name == SECRET_RULE for f in checked.findings) or (
        fixable and bool(checking.check_content(target, raw, select=[SECRET_RULE]).findings))
    if fixable and not has_secret:
        fixed = checking.check_content(target, raw, apply_safe_fixes=True)
        mine = [c for c in fixed.changes if c.relpath == checked.relpath]
        if mine:
            answer["fixed_content"] = mine[0].after.decode("utf-8", "replace")
    elif has_secret:
        answer["note"] = "a secret is in this content: write it without the secret (the secret itself is never shown)"
    return _shown(answer)


def memory_stats(workspace: str = ".") -> dict:
    """What the memory holds (as `memwarden stats --json`): records by kind, tags, negative claims and their
    expiry dates, orphan notes no index links to, and the startup index against its budget."""
    from memwarden.discover.workspace import open_workspace
    from memwarden.engine.stats import gather
    from memwarden.report.measures import measure_startup_index, stats_json

    ws = open_workspace(_folder(workspace))
    today = dt.date.today()
    numbers = gather(ws, today, 30)
    return _shown(stats_json(ws, numbers, measure_startup_index(ws), today, 30,
                             lambda relpath: ws.display_path(relpath, ws.root)))


def budget_headroom(workspace: str = ".", addition: str | None = None) -> dict:
    """The startup index (MEMORY.md, or AGENTS.md for Codex) against what the agent loads at start-up, as
    `memwarden budget --json`: used, max, edge (where the agent stops reading), headroom, status. With addition
    (the lines you mean to append), also whether they still fit: `after` measures the index with them."""
    from memwarden.discover.workspace import open_workspace
    from memwarden.report.measures import budget_json

    ws = open_workspace(_folder(workspace))
    measurement = checking.gauge(ws)
    if measurement is None:
        return {"found": False, "note": "no startup index in this workspace"}

    def shown(relpath: str) -> str:
        return ws.display_path(relpath, ws.root)

    answer = dict(budget_json(measurement, shown), found=True)
    added = _text("addition", addition)
    if added:
        last = measurement.sources[-1]
        before = ws.current_bytes(last.relpath) or b""
        joined = before if not before or before.endswith(b"\n") else before + b"\n"
        ws.overlay[last.relpath] = joined + added
        after = checking.gauge(ws)
        worst = after.worst
        answer["after"] = {"used": worst.used, "headroom": worst.headroom, "status": budget_json(after, shown)["status"],
                           "fits": worst.used < worst.limit.max}
    return _shown(answer)


def related_records(path: str, content: str) -> dict:
    """Which records already in the memory a proposed note (or episode, or fact) repeats or contradicts
    (the near-duplicate and conflicting-records rules), so an agent can update a record instead of adding one."""
    target = _path(path)
    checked = checking.check_content(target, _text("content", content) or b"", select=RELATED_RULES)
    ws = checked.workspace
    return _shown({
        "path": ws.display_path(checked.relpath, ws.root) if checked.relpath else target.name,
        "related": [_finding(f, ws) for f in checked.findings],
    })


TOOLS = (check_memory, memory_stats, budget_headroom, related_records)


def build():
    from mcp.types import ToolAnnotations

    from mcp.server.mcpserver import MCPServer

    server = MCPServer("memwarden", instructions=INSTRUCTIONS, version=__version__)
    for tool in TOOLS:
        server.tool(annotations=ToolAnnotations(readOnlyHint=True, destructiveHint=False, openWorldHint=False))(
            _answering(tool))
    return server


def _answering(tool):
    """The tool, with a usage error (a bad path, a bad config) answered as {"error": ...}, never a traceback."""
    import functools

    @functools.wraps(tool)
    def answer(*args, **kwargs):
        try:
            return tool(*args, **kwargs)
        except UsageError as error:
            return {"error": hide_names_in(str(error))}
        except OSError as error:
            return {"error": hide_names_in(f"{error.strerror or type(error).__name__}")}
        except Exception as error:  # memwarden's own failure: its type, never its text (it may quote the content)
            return {"error": f"memwarden could not answer: {type(error).__name__}"}

    return answer


def start() -> None:
    build().run("stdio")

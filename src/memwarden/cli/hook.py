"""`memwarden hook`: guard memory at the moment an agent writes it (Claude Code, Gemini CLI, Codex hooks).

The agent CLI runs it before and after each write tool call with a JSON payload
on stdin (see memwarden.discover.agent_writes). A file that is not memory of a
workspace: exit 0, silent. Before a write: the content the call would leave is
checked as `check --stdin-filename` checks it, and a secret, a deletion or
rewrite of records, or a file that would no longer parse blocks the call
(exit 2; stderr is what the agent reads). After a write: the file's findings,
in a short form the agent can act on (exit 2), with the safe fixes applied
first when the workspace opts in (`[tool.memwarden.agent-hook] fix = true`).

Exit codes follow the agent CLIs: 0 let it through, 2 tell the agent (and
before a call, stop it), 1 memwarden could not judge (shown to the user, the
call goes on: a broken guard must not stop every write).
"""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path

import click

from memwarden.cli.exits import guarded, hidden

EXIT_PASS, EXIT_COULD_NOT_JUDGE, EXIT_TELL_AGENT = 0, 1, 2
# What blocks a write before it is made: what cannot be taken back once the agent has moved on.
BLOCKING_RULES = ("secret-in-memory", "deleted-record", "rewritten-record", "deleted-note", "unparsable-file")
WHAT_TO_DO = {
    "secret-in-memory": "leave the secret out of memory (refer to where it is kept, e.g. an environment variable)",
    "deleted-record": "keep every record; archive one instead of deleting it",
    "rewritten-record": "append a new record instead of changing an old one",
    "deleted-note": "archive the note instead of deleting or emptying it",
    "unparsable-file": "write the file so that it still parses",
}
MAX_SHOWN = 10  # an agent acts on the first few; the rest is one line


@click.command()
@guarded
def hook():
    """Guard memory files as an agent writes them: reads a hook payload (Claude Code, Gemini CLI, Codex) on stdin.

    Install it with `memwarden init --agent claude-code`.
    """
    from memwarden.discover.agent_writes import PayloadError, read_payload

    try:
        writes = read_payload(sys.stdin.buffer.read(), Path.cwd())
        code = EXIT_PASS
        for write in writes:
            code = max(code, _guard(write))
    except PayloadError as error:
        _say(f"memwarden hook: {error}")
        code = EXIT_COULD_NOT_JUDGE
    except Exception as error:  # noqa: BLE001 - a configuration error, a bug: the call goes on, the user is told
        if os.environ.get("MEMWARDEN_DEBUG"):
            raise
        _say(f"memwarden hook: could not check this write: {type(error).__name__}: {error}")
        code = EXIT_COULD_NOT_JUDGE
    sys.exit(code)


def _say(text: str) -> None:
    click.echo("\n".join(hidden(line) for line in text.split("\n")), err=True)


def _guard(write) -> int:
    from memwarden.discover.agent_writes import BEFORE
    from memwarden.discover.workspace import open_file_workspace

    # The folder the tool writes in, as the OS resolves it (`..` after a symlinked folder, a path that
    # climbs out of the project and back): the file's own name is kept (a memory file may be a link).
    path = Path(os.path.realpath(write.path.parent)) / write.path.name
    ws, relpath = open_file_workspace(path)
    kind = _memory_kind(ws, relpath)
    if kind is None:
        real = Path(os.path.realpath(path))
        if real != path:
            # A symlink the tool writes through (it follows links): what it changes is the memory file it leads to.
            return _guard(dataclasses.replace(write, path=real))
        return EXIT_PASS  # not memory: silent
    cwd = _shown_from(ws.root)
    if write.moved_to is not None and _stays_in_memory(ws, write.moved_to):
        return EXIT_PASS  # renamed within memory (into the archive, say): the write at the new path is judged
    if write.phase == BEFORE:
        return _before(ws, relpath, kind, write.content, cwd)
    return _after(ws, relpath, cwd, write.written)


def _memory_kind(ws, relpath: str):
    """The kind of a memory file (None: not memory); a file in an archive folder is memory too, of no format kind
    (an archived note is no note the profile names, but what it keeps is memory, and a secret in it is re-read)."""
    from memwarden.analysis.history.roles import in_archive
    from memwarden.discover.profiles import other_text_kind

    kind = ws.claims(relpath)
    if kind is None and in_archive(relpath) and not ws.excluded(relpath):
        return other_text_kind(relpath)
    return kind


def _stays_in_memory(ws, path: Path) -> bool:
    """Whether a file moved to path is still memory of the workspace ws: a memory file, or in its archive."""
    from memwarden.discover.workspace import open_file_workspace

    there, relpath = open_file_workspace(path)
    return there.root == ws.root and _memory_kind(there, relpath) is not None


def _shown_from(root: Path) -> Path:
    """Where paths are shown from: the project the agent works in, else the workspace root."""
    project = os.environ.get("CLAUDE_PROJECT_DIR") or os.environ.get("GEMINI_PROJECT_DIR")
    return Path(project) if project and os.path.isdir(project) else root


def _before(ws, relpath: str, kind, content: bytes | None, cwd: Path) -> int:
    from memwarden.documents import load
    from memwarden.engine import run as engine

    if content is None:
        return EXIT_PASS  # the tool itself will refuse the call: nothing is written
    on_disk = ws.current_bytes(relpath)
    parsed_before = on_disk is None or load(ws.root, relpath, kind).ok
    lines_before = set(on_disk.splitlines()) if on_disk is not None else set()
    lines_after = content.splitlines()
    ws.propose(relpath, content)
    result = engine.check_workspace(ws, engine.RunOptions(select=list(BLOCKING_RULES), cwd=cwd))

    def this_writes(finding) -> bool:
        """A file broken already, or a secret on a line already there, is not this write's doing."""
        if finding.rule.name == "unparsable-file":
            return parsed_before
        if finding.rule.name == "secret-in-memory":
            return finding.line > len(lines_after) or lines_after[finding.line - 1] not in lines_before
        return True

    blocking = [f for f in result.findings if this_writes(f)]
    if any(f.rule.name == "unparsable-file" for f in blocking):
        # What a file that does not parse holds cannot be compared record by record: say that first and only.
        blocking = [f for f in blocking if f.rule.name in ("unparsable-file", "secret-in-memory")]
    if not blocking:
        return EXIT_PASS
    shown = ws.display_path(relpath, cwd)
    lines = [f"memwarden blocked this write to {shown}:"]
    lines += _listed(blocking, with_fix=False)
    todo = dict.fromkeys(WHAT_TO_DO[f.rule.name] for f in blocking)
    lines.append("To write it: " + "; ".join(todo) + ".")
    _say("\n".join(lines))
    return EXIT_TELL_AGENT


def _after(ws, relpath: str, cwd: Path, written: tuple[str, ...] | None) -> int:
    from memwarden.discover.agent_writes import written_lines
    from memwarden.engine import run as engine

    if not (ws.root / relpath).is_file():
        return EXIT_PASS
    ws.targets = {relpath}
    fix = ws.config.agent_hook_fix
    # The file is written by now: the incremental cache serves the records an append left as they were.
    use_cache = not os.environ.get("MEMWARDEN_NO_CACHE")
    from memwarden.analysis.machine_paths import in_ci

    run = engine.RunOptions(fix=fix, cwd=cwd, use_cache=use_cache, owner_machine=not in_ci(os.environ))
    result = engine.check_workspace(ws, run)
    shown = ws.display_path(relpath, cwd)
    lines = []
    if result.fixed and result.changes:
        lines.append(
            f"memwarden fixed {result.fixed} problem{'s' if result.fixed != 1 else ''} in {shown} "
            "(safe fixes, as this workspace's agent-hook.fix asks): read the file again before editing it."
        )
    findings = [f for f in result.findings if not f.fixed]
    # After an edit, what it wrote: problems older than the edit are the owner's to review, and an agent
    # told of them on every append would rewrite old records (which the hook before a write blocks).
    text = (ws.current_bytes(relpath) or b"").decode("utf-8", "replace")
    mine = written_lines(text, written)
    # One pass (a membership test against the older list was quadratic: 100 s on a 20,000-record log).
    older = [f for f in findings if mine is not None and f.line not in mine]
    findings = [f for f in findings if mine is None or f.line in mine]
    if findings:
        count = f"{len(findings)} problem{'s' if len(findings) != 1 else ''}"
        lines.append(f"memwarden found {count} in {shown}, just written:")
        lines += _listed(findings, with_fix=True)
        if any(f.fix for f in findings):
            lines.append(f"`memwarden check --fix {shown}` applies the safe fixes ([*]); others need review.")
    if older and findings:
        lines.append(f"({len(older)} older problem{'s' if len(older) != 1 else ''} elsewhere in the file "
                     "are not this edit's: leave those records as they are.)")
    for message in result.errors:
        lines.append(f"memwarden: {message}")
    if not lines:
        return EXIT_PASS
    _say("\n".join(lines))
    return EXIT_TELL_AGENT


def _listed(findings, with_fix: bool) -> list[str]:
    lines = []
    for finding in findings[:MAX_SHOWN]:
        line = f"- line {finding.line}: {finding.rule.name} ({finding.severity.value}): {finding.message}"
        if with_fix and finding.fix is not None:
            mark = "[*]" if finding.fix.applicability.value == "safe" else "[unsafe]"
            line += f" {mark} memwarden's fix: {finding.fix.description}"
        lines.append(line)
    if len(findings) > MAX_SHOWN:
        lines.append(f"- and {len(findings) - MAX_SHOWN} more (`memwarden check` lists them all)")
    return lines

"""`memwarden hook`: guard memory at the moment an agent writes it (Claude Code, Gemini CLI, Codex hooks).

The agent CLI runs it before and after each write tool call with a JSON payload
on stdin (see memwarden.discover.agent_writes). A file that is not memory of a
workspace: exit 0, silent. Before a write: the content the call would leave is
checked as `check --stdin-filename` checks it, and a secret, a deletion or
rewrite of records, or a file that would no longer parse blocks the call
(exit 2; stderr is what the agent reads). After a write: the file's findings,
in a short form the agent can act on (exit 2), with the safe fixes applied
first when the workspace opts in (`[tool.memwarden.agent-hook] fix = true`): a stable rule's
only, since nobody reviews them (a preview rule's finding is reported, not fixed).

The content is predicted as each agent's own tool makes it; when memwarden cannot
tell what the tool would write (a loose match, an edit a model would correct) it
blocks (fail closed). An allow marker the write itself adds accepts nothing, and
a message never tells the agent how to accept a secret. memwarden's own settings
(`.memwarden.toml`, `[tool.memwarden]`) and its baseline of accepted secrets are
guarded like memory: a write that changes them is blocked.

Exit codes follow the agent CLIs: 0 let it through, 2 tell the agent (and
before a call, stop it), 1 memwarden could not judge (shown to the user, the
call goes on: a broken guard must not stop every write).
"""

from __future__ import annotations

import dataclasses
import os
import re
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
UNSURE_TODO = "read the file again and give old_string exactly as it is there (once), or write the whole file"
MAX_SHOWN = 10  # an agent acts on the first few; the rest is one line
# memwarden's own configuration: a change to it can switch the guard off, so it is guarded like memory; and
# its baseline of accepted secrets: accepting a secret is the user's call, as an allow marker is.
CONFIG_FILES = (".memwarden.toml", "pyproject.toml")
BASELINE_FILE = ".memwarden-baseline.json"
CONFIG_TODO = ("leave memwarden's settings as they are: what is memory, checked or ignored is the user's to change "
               "(ask them)")


@click.command()
@click.option("--preview", is_flag=True, help="After a write, report the preview rules' findings too.")
@guarded
def hook(preview):
    """Guard memory files as an agent writes them: reads a hook payload (Claude Code, Gemini CLI, Codex) on stdin.

    Install it with `memwarden init --agent claude-code`.
    """
    from memwarden.discover.agent_writes import PayloadError, read_payload

    try:
        writes = read_payload(sys.stdin.buffer.read(), Path.cwd())
        code = EXIT_PASS
        for write in writes:
            code = max(code, _guard(write, preview))
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


def _guard(write, preview: bool) -> int:
    from memwarden.discover.agent_writes import BEFORE
    from memwarden.discover.workspace import open_file_workspace

    # The folder the tool writes in, as the OS resolves it (`..` after a symlinked folder, a path that
    # climbs out of the project and back): the file's own name is kept (a memory file may be a link).
    path = Path(os.path.realpath(write.path.parent)) / write.path.name
    if write.phase == BEFORE and path.name in (*CONFIG_FILES, BASELINE_FILE):
        return _guard_config(write, Path(os.path.realpath(path)))
    ws, relpath = open_file_workspace(path)
    kind = _memory_kind(ws, relpath)
    if kind is None:
        real = Path(os.path.realpath(path))
        if real != path:
            # A symlink the tool writes through (it follows links): what it changes is the memory file it leads to.
            return _guard(dataclasses.replace(write, path=real), preview)
        return EXIT_PASS  # not memory: silent
    cwd = _shown_from(ws.root)
    if write.moved_to is not None and _stays_in_memory(ws, write.moved_to):
        return EXIT_PASS  # renamed within memory (into the archive, say): the write at the new path is judged
    if write.phase == BEFORE and write.unsure is not None:
        return _block(ws.display_path(relpath, cwd), [f"memwarden cannot tell what {write.tool} would write: "
                                                      f"{write.unsure}."], [UNSURE_TODO])
    if write.phase == BEFORE:
        return _before(ws, relpath, kind, write.content, cwd)
    return _after(ws, relpath, cwd, write.written, preview)


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


def _guard_config(write, path: Path) -> int:
    """A write to a file memwarden reads its settings from: blocked when it changes (or breaks) those settings."""
    from memwarden.discover.config import settings_in
    from memwarden.errors import UsageError

    shown = _shown_path(path)
    if write.unsure is not None:
        return _block(shown, [f"memwarden cannot tell what {write.tool} would write: {write.unsure}."], [UNSURE_TODO])
    if write.content is None:
        return EXIT_PASS  # the tool refuses the call: nothing is written
    try:
        on_disk = path.read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        on_disk = None

    def settings(raw: bytes | None):
        if path.name == BASELINE_FILE:
            return raw or None  # any change to what is accepted
        try:
            return settings_in(path.name, raw)
        except UsageError:
            return UsageError  # not TOML: memwarden would stop at it, the guard with it

    before, after = settings(on_disk), settings(write.content)
    if before == after:
        return EXIT_PASS
    what = "makes it unreadable to memwarden" if after is UsageError else "changes memwarden's settings in it"
    return _block(shown, [f"- this write {what}: they decide what is memory and what is checked, "
                          "and a write that changes them switches the guard off"], [CONFIG_TODO])


def _shown_path(path: Path) -> str:
    from memwarden.discover.workspace import open_file_workspace

    ws, relpath = open_file_workspace(path)
    return ws.display_path(relpath, _shown_from(ws.root))


def _block(shown: str, reasons: list[str], todo) -> int:
    _say("\n".join([f"memwarden blocked this write to {shown}:", *reasons, "To write it: " + "; ".join(todo) + "."]))
    return EXIT_TELL_AGENT


def _line_texts(ws, relpath: str, kind, content: bytes):
    """The document content makes, and its lines as the engine numbers them (a CR alone, U+2028 or a
    form feed ends no line: str.splitlines would split there and shift every finding's line)."""
    from memwarden.documents.base import Document

    doc = Document(ws.root, relpath, kind, content)
    return doc, [doc.line_text(n) for n in range(1, len(doc.line_starts) + 1)]


def _without_new_allow_markers(doc, lines: list[str], old_lines: set[str]) -> bytes:
    """content with every allow marker on a line this write adds or changes blanked (same length): a write
    cannot accept its own secret; only a marker already in the file (the user's) counts."""
    from memwarden.analysis.secrets.patterns import ALLOW_MARKER

    if not doc.decoded:
        return doc.raw
    pieces, changed = [], False
    for number, line in enumerate(lines, 1):
        start = doc.line_starts[number - 1]
        end = doc.line_starts[number] if number < len(doc.line_starts) else len(doc.text)
        piece = doc.text[start:end]
        if line not in old_lines and ALLOW_MARKER.search(line):
            # Letters only: a marker that is a YAML key or sits in a JSON string keeps the file's shape.
            piece, changed = ALLOW_MARKER.sub(lambda m: re.sub("[A-Za-z]", "x", m.group()), piece), True
        pieces.append(piece)
    return doc.encode("".join(pieces)) if changed else doc.raw


def _before(ws, relpath: str, kind, content: bytes | None, cwd: Path) -> int:
    from memwarden.documents import load
    from memwarden.engine import run as engine

    if content is None:
        return EXIT_PASS  # the tool itself will refuse the call: nothing is written
    on_disk = ws.current_bytes(relpath)
    parsed_before = on_disk is None or load(ws.root, relpath, kind).ok
    lines_before = set(_line_texts(ws, relpath, kind, on_disk)[1]) if on_disk is not None else set()
    proposed, lines_after = _line_texts(ws, relpath, kind, content)
    ws.propose(relpath, _without_new_allow_markers(proposed, lines_after, lines_before))
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
    todo = dict.fromkeys(WHAT_TO_DO[f.rule.name] for f in blocking)
    return _block(ws.display_path(relpath, cwd), _listed(blocking, with_fix=False), todo)


def _after(ws, relpath: str, cwd: Path, written: tuple[str, ...] | None, preview: bool) -> int:
    from memwarden.discover.agent_writes import written_lines
    from memwarden.engine import run as engine

    if not (ws.root / relpath).is_file():
        return EXIT_PASS
    ws.targets = {relpath}
    fix = ws.config.agent_hook_fix
    # The file is written by now: the incremental cache serves the records an append left as they were.
    use_cache = not os.environ.get("MEMWARDEN_NO_CACHE")
    from memwarden.analysis.machine_paths import in_ci

    # A fix nobody reviews is a stable rule's only: a preview rule's finding is reported, never fixed here.
    run = engine.RunOptions(fix=fix, stable_fixes_only=True, cwd=cwd, use_cache=use_cache,
                            owner_machine=not in_ci(os.environ), **({"preview": True} if preview else {}))
    result = engine.check_workspace(ws, run)
    shown = ws.display_path(relpath, cwd)
    lines = []
    if result.fixed and result.changes:
        lines.append(
            f"memwarden fixed {result.fixed} problem{'s' if result.fixed != 1 else ''} in {shown} "
            "(safe fixes, as this workspace's agent-hook.fix asks): read the file again before editing it."
        )
    # Its own findings: one anchored at another file and only related to this one has that file's lines.
    findings = [f for f in result.findings if not f.fixed and f.workspace_path == relpath]
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
        # An agent is never told how to accept a secret (an allow marker, a baseline): that is the user's call.
        message = finding.message.split(", or accept it", 1)[0] if finding.rule.name == "secret-in-memory" else \
            finding.message
        line = f"- line {finding.line}: {finding.rule.name} ({finding.severity.value}): {message}"
        if with_fix and finding.fix is not None:
            mark = "[*]" if finding.fix.applicability.value == "safe" else "[unsafe]"
            line += f" {mark} memwarden's fix: {finding.fix.description}"
        lines.append(line)
    if len(findings) > MAX_SHOWN:
        lines.append(f"- and {len(findings) - MAX_SHOWN} more (`memwarden check` lists them all)")
    return lines

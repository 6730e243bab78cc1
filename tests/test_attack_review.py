"""Attack review of the features of the day: the hook, --stdin-filename, init --agent, --format gitlab,
stats, budget --history, the incremental cache, the new rules and the secrets gate.

Each test was written to attack one channel or one bypass, through the real CLI in a subprocess on
real files (and real git where history is involved). A test named `test_hole_...` failed on the code
before its fix; a test named `test_held_...` pins an attack that the code already withstood.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import git, run_memwarden, write_files
from test_guard import (
    GISH_BASE, GISH_NOTE, Run, _everywhere, assert_no_crash, assert_no_leak, cache_text, commit, episode, github_token,
    mw,
)

LOG = "memory/episodic.jsonl"
NOTE = "memory/knowledge/tools/n0.md"


def gish(root: Path, extra: dict[str, str | bytes] | None = None) -> Path:
    """A gish workspace with a three-episode log, and extra files."""
    return write_files(root, {**GISH_BASE, LOG: "".join(episode(i) + "\n" for i in (1, 2, 3)), **(extra or {})})


def pre(root: Path, tool: str, tool_input: dict) -> dict:
    return {"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": tool_input, "cwd": str(root)}


def patch(*lines: str) -> dict:
    return {"command": "\n".join(["*** Begin Patch", *lines, "*** End Patch"]) + "\n"}


def hook(payload, cwd: Path) -> Run:
    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode("utf-8")
    return Run(run_memwarden("hook", cwd=cwd, input=data, env={"MEMWARDEN_NO_PROGRESS": "1", "NO_COLOR": "1"}))


def test_held_secrets_in_the_new_output_channels(tmp_path):
    root, by_file = _everywhere(tmp_path / "ws")
    secrets = sorted({v for held in by_file.values() for v in held})
    git(root, "init", "-q", "-b", "main")
    commit(root, "base")
    outputs = {
        "gitlab": mw("check", "--format", "gitlab", ".", cwd=root),
        "stats": mw("stats", cwd=root),
        "stats --json": mw("stats", "--json", cwd=root),
        "budget --history": mw("budget", "--history", cwd=root),
        "budget --history --json": mw("budget", "--history", "--json", cwd=root),
    }
    for name, run in outputs.items():
        assert_no_crash(run)
        assert_no_leak(run.text, secrets, name)


# == the hook: deletion bypasses ==================================================================


def test_hole_codex_move_out_of_memory_is_a_deletion(tmp_path):
    """`*** Update File: memory/episodic.jsonl` + `*** Move to: scratch/old.jsonl` takes the log out of memory:
    it used to pass, judged as a write of scratch/old.jsonl only (read from the destination, which is not there)."""
    root = gish(tmp_path / "ws")
    for source in (LOG, NOTE):
        # A chunk: Codex's parser rejects an Update with none ("Update file hunk ... is empty"), move or not.
        run = hook(pre(root, "apply_patch", patch(f"*** Update File: {source}", "*** Move to: scratch/moved.txt",
                                                  "@@", "+moved")), root)
        assert_no_crash(run)
        assert run.rc == 2 and f"blocked this write to {source}" in run.err, run
        assert "deleted" in run.err, run
    assert (root / LOG).read_text("utf-8").count("\n") == 3  # the hook writes nothing


def test_hole_codex_move_over_a_memory_file_is_judged_with_the_moved_content(tmp_path):
    """A move onto the log replaces it with the source's content: the log's records are gone. It used to pass:
    the hunks were applied to the destination's own content (none here: the log left as it is)."""
    root = gish(tmp_path / "ws", {"scratch/log.jsonl": episode(9) + "\n"})
    run = hook(pre(root, "apply_patch", patch("*** Update File: scratch/log.jsonl", f"*** Move to: {LOG}",
                                              "@@", f"+{episode(10)}")), root)
    assert_no_crash(run)
    assert run.rc == 2 and f"blocked this write to {LOG}" in run.err and "deleted-record" in run.err, run


def test_hole_codex_move_within_memory_passes_and_the_destination_is_judged(tmp_path):
    """Moving a note into the archive is what memwarden asks for: it passes; a secret the move's hunk adds blocks
    (it used to pass: the hunk was applied to the destination, which is not there yet)."""
    root = gish(tmp_path / "ws")
    archived = "memory/_archive/knowledge/tools/n0.md"
    run = hook(pre(root, "apply_patch", patch(f"*** Update File: {NOTE}", f"*** Move to: {archived}",
                                              "@@", " Body.")), root)
    assert (run.rc, run.err) == (0, ""), run
    token = github_token()
    run = hook(pre(root, "apply_patch", patch(f"*** Update File: {NOTE}", f"*** Move to: {archived}",
                                              "@@", " Body.", f"+token {token}")), root)
    assert run.rc == 2 and "secret-in-memory" in run.err, run
    assert_no_leak(run.text, [token], "hook stderr")


def test_hole_a_secret_written_into_the_archive_is_blocked(tmp_path):
    """An archived note is memory the agent may read again, though no kind names `memory/_archive/**/*.md`: a
    Write of a token there used to pass silently, before and after, while `memwarden check` reports it."""
    root = gish(tmp_path / "ws")
    token = github_token()
    archived = "memory/_archive/notes/old.md"
    content = GISH_NOTE.format(name="old").replace("Body.", f"token {token}")
    before = hook(pre(root, "Write", {"file_path": archived, "content": content}), root)
    assert before.rc == 2 and "secret-in-memory" in before.err, before
    write_files(root, {archived: content})
    after = hook({**pre(root, "Write", {"file_path": archived, "content": content}), "hook_event_name": "PostToolUse"},
                 root)
    assert after.rc == 2 and "secret-in-memory" in after.err, after
    for run in (before, after):
        assert_no_leak(run.text, [token], "hook output")
    # source code beside memory stays silent
    code = hook(pre(root, "Write", {"file_path": "src/app.py", "content": f"T = '{token}'\n"}), root)
    assert (code.rc, code.err) == (0, ""), code


def test_hole_a_write_through_a_symlink_to_the_log_is_judged_as_a_write_of_the_log(tmp_path):
    """`src/log.jsonl` -> `memory/episodic.jsonl`: the tool follows the link and overwrites the log. The link's own
    name is no memory, so the write used to pass."""
    root = gish(tmp_path / "ws", {"src/app.py": "x = 1\n"})
    (root / "src" / "log.jsonl").symlink_to(root / LOG)
    run = hook(pre(root, "Write", {"file_path": "src/log.jsonl", "content": episode(1) + "\n"}), root)
    assert_no_crash(run)
    assert run.rc == 2 and f"blocked this write to {LOG}" in run.err and "ep_00000002" in run.err, run


def test_hole_a_lone_surrogate_in_the_payload_does_not_wave_a_deletion_through(tmp_path):
    """JSON may hold `\\ud800`; the agent's runtime writes it as U+FFFD. memwarden used to fail to encode it and exit 1
    ("could not judge"), which lets the call through: a Write that empties the log went by."""
    root = gish(tmp_path / "ws")
    payload = json.dumps(pre(root, "Write", {"file_path": LOG, "content": "\ud800" + episode(1) + "\n"}))
    run = hook(payload.encode("ascii"), root)
    assert_no_crash(run)
    assert run.rc == 2 and f"blocked this write to {LOG}" in run.err, run


def test_hole_a_path_that_climbs_out_of_the_project_is_resolved_as_the_os_resolves_it(tmp_path):
    """`../elsewhere/todo.md` from the project used to be placed in the project by its lexical parents, and the hook
    failed (ValueError, exit 1) on every such write; `..` after a symlinked folder was read the same wrong way."""
    root = gish(tmp_path / "ws", {"src/app.py": "x = 1\n"})
    (tmp_path / "elsewhere").mkdir()
    (root / "src" / "mem").symlink_to(root / "memory")
    outside = hook(pre(root, "Write", {"file_path": "../elsewhere/todo.md", "content": "# todo\n"}), root)
    assert (outside.rc, outside.err) == (0, ""), outside
    # for the OS, src/mem/.. is the root (src/mem is memory/), so this is the log
    through = hook(pre(root, "Write", {"file_path": "src/mem/../memory/episodic.jsonl", "content": episode(1) + "\n"}),
                   root)
    assert through.rc == 2 and f"blocked this write to {LOG}" in through.err, through


# == the cache on disk ==============================================================================


def test_hole_a_cache_file_that_is_a_fifo_or_a_link_to_an_endless_file_is_not_read(tmp_path):
    """A FIFO in place of a cache file hung the run for good; a link to /dev/zero (a repository can commit one) was
    read until the machine ran out of memory. The store's database and its side files are opened only when they are
    regular files (else discarded and rebuilt), and the run reports as it does without the cache."""
    root = gish(tmp_path / "ws", {"memory/fact.yml": f"schema_version: 1\ntoken: {github_token()}\n"})
    first = mw("check", ".", cwd=root)
    assert first.rc == 1 and "secret-in-memory" in first.out, first
    database = root / ".memwarden_cache" / "store.sqlite3"
    assert database.is_file()
    for planted in ("", "-wal", "-shm", "-journal"):
        for fifo in (True, False):
            path = database.with_name(database.name + planted)
            path.unlink(missing_ok=True)
            if fifo:
                os.mkfifo(path)
            else:
                path.symlink_to("/dev/zero")
            again = Run(run_memwarden("check", ".", cwd=root, env={"MEMWARDEN_NO_PROGRESS": "1", "NO_COLOR": "1"}))
            assert_no_crash(again)
            assert (again.rc, again.out) == (first.rc, first.out), (planted, fifo, again)
            assert database.is_file() and not database.is_symlink()


def test_hole_a_symlinked_cache_folder_is_neither_read_nor_written(tmp_path):
    """A committed `.memwarden_cache -> elsewhere` had memwarden write its files (and its .gitignore, through a
    dangling link too) wherever the link leads. Now the run skips the cache, and its report is the same."""
    root = gish(tmp_path / "ws")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (root / ".memwarden_cache").symlink_to(elsewhere)
    plain = mw("check", "--no-cache", ".", cwd=root)
    run = mw("check", ".", cwd=root)
    assert (run.rc, run.out) == (plain.rc, plain.out), run
    assert list(elsewhere.iterdir()) == []
    (root / ".memwarden_cache").unlink()
    (root / ".memwarden_cache").mkdir()
    (root / ".memwarden_cache" / ".gitignore").symlink_to(elsewhere / "planted")
    run = mw("check", ".", cwd=root)
    assert (run.rc, run.out) == (plain.rc, plain.out), run
    assert not (elsewhere / "planted").exists()


# == found in the review, fixed since ==============================================================


def test_hole_a_secret_in_a_file_name_is_reported_and_never_printed(tmp_path):
    """A note named after a token: no rule reported it, and every report printed the path whole (text, json, gitlab,
    sarif, github, stats, the hook after a write, the cache). Every channel: tests/test_secret_names.py."""
    token = github_token()
    root = gish(tmp_path / "ws", {f"memory/knowledge/tools/{token}.md": GISH_NOTE.format(name="x")})
    run = mw("check", "--format", "json", ".", cwd=root)
    assert any(f["name"] == "secret-in-memory" for f in run.json()["findings"]), run
    assert_no_leak(run.text, [token], "check --format json")


def test_hole_stdin_filename_that_climbs_out_of_the_workspace_is_no_internal_error(tmp_path):
    """`check --stdin-filename ../elsewhere/todo.md` from a workspace failed with an internal error (exit 2, a
    ValueError): its lexical parents pass the workspace root. It is checked as the file the OS would name."""
    root = gish(tmp_path / "ws")
    (tmp_path / "elsewhere").mkdir()
    token = github_token()
    run = Run(run_memwarden("check", "--stdin-filename", "../elsewhere/todo.md", cwd=root,
                            input=f"# todo\n\nkey {token}\n".encode("utf-8")))
    assert_no_crash(run)
    assert run.rc == 1 and "secret-in-memory" in run.out, run
    assert_no_leak(run.text, [token], "check --stdin-filename")

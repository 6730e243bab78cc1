"""A message that quotes what another file, or a base version, holds hides that source's secrets too.

Still open after issue 24: a conflict message quoted the other file's value with only its own file's secrets
hidden, and an append-only or `history` message quoted a record, key or entry that only the deleted base
version held. Real git repositories, the real CLI, every output format.
"""

from __future__ import annotations

import json

from conftest import git, write_files
from test_guard import assert_no_crash, assert_no_leak, github_token, mw, password

FORMATS = ("text", "json", "sarif", "github", "gitlab")


def _no_leak_anywhere(root, secrets, *args) -> None:
    for fmt in FORMATS:
        run = mw("check", "--format", fmt, *args, ".", cwd=root)
        assert_no_crash(run)
        assert_no_leak(run.text, secrets, f"check --format {fmt} {' '.join(args)}")


def test_a_conflict_message_hides_the_other_files_secret(tmp_path):
    mine, theirs = password(), password()
    root = write_files(tmp_path / "ws", {
        "CLAUDE.md": "Memory lives in memory/.\n",
        "memory/scratchpad.md": "# Scratch\n",
        "memory/episodic.jsonl": "",
        "memory/fact.yml": f"db:\n  db_password: {theirs}\n",
        "memory/fact_ci.yml": f"db:\n  db_password: {mine}\n  updated: 2026-04-01\n",
    })
    run = mw("check", "--format", "json", "--select", "conflicting-records", ".", cwd=root)
    assert any("memory/fact.yml" in f["message"] for f in run.json()["findings"]), run.text  # the conflict is reported
    _no_leak_anywhere(root, [mine, theirs])


def _committed_then_deleted(tmp_path, base: dict[str, str], now: dict[str, str]):
    root = write_files(tmp_path / "ws", base)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    write_files(root, now)
    return root


GISH = {
    "memory/knowledge/tools/n0.md": "---\nname: n0\ndescription: d\nmetadata:\n  type: feedback\n  updated: 2026-01-01\n---\n\nBody.\n",
    "MEMORY.md": '# Memory\n\n- "the deploy said done but nothing ran" → [n0](memory/knowledge/tools/n0.md)\n',
}


def _episode(i: int, **fields) -> str:
    record = {"id": f"ep_{i:08d}", "ts": f"2026-01-{i:02d}T10:00:00Z", "type": "insight", "summary": "fine", "tags": ["ci"]}
    record.update(fields)
    return json.dumps(record)


def test_an_append_only_message_hides_a_secret_only_the_deleted_base_version_held(tmp_path):
    token, key = github_token(), github_token()
    root = _committed_then_deleted(tmp_path, {
        **GISH,
        "memory/fact.yml": f"schema_version: 1\nidentity:\n  name: Agent\ntools:\n  {key}: 1\n",
        "memory/episodic.jsonl": _episode(1, id=f"ep_{token}") + "\n" + _episode(2) + "\n",
    }, {
        "memory/fact.yml": "schema_version: 1\nidentity:\n  name: Agent\ntools: {}\n",
        "memory/episodic.jsonl": _episode(2) + "\n",
    })
    run = mw("check", "--format", "json", "--base", "HEAD", ".", cwd=root)
    assert {f["path"] for f in run.json()["findings"] if f["name"] == "deleted-record"} >= {
        "memory/fact.yml", "memory/episodic.jsonl"}, run.text
    _no_leak_anywhere(root, [token, key], "--base", "HEAD")


def test_a_history_message_hides_a_secret_only_the_deleted_version_held(tmp_path):
    token = github_token()
    root = _committed_then_deleted(tmp_path, {
        **GISH, "memory/fact.yml": "schema_version: 1\nidentity:\n  name: Agent\n",
        "memory/episodic.jsonl": _episode(1, id=f"ep_{token}") + "\n" + _episode(2) + "\n",
    }, {"memory/episodic.jsonl": _episode(2) + "\n"})
    git(root, "commit", "-q", "-am", "drop the first episode")
    for args in (("history", "--base", "HEAD~1"), ("history", "--base", "HEAD~1", "--format", "json")):
        run = mw(*args, cwd=root)
        assert_no_crash(run)
        assert "deleted" in run.text, run.text
        assert_no_leak(run.text, [token], " ".join(args))


def test_a_superseded_note_message_hides_the_secret_of_the_note_it_quotes(tmp_path):
    """MEMORY.md's finding quotes old.md's `superseded_by:` value."""
    pw = password()
    root = write_files(tmp_path / "ws", {
        "MEMORY.md": "- [Deploy flags](old.md) — which flag skips the purge\n",
        "old.md": f"---\nname: old\ndescription: d\ntype: feedback\nsuperseded_by: https://deploy:{pw}@wiki.internal/new\n---\n\nBody.\n",
    })
    run = mw("check", "--format", "json", ".", cwd=root)
    assert [f["path"] for f in run.json()["findings"] if f["name"] == "superseded-note-indexed"] == ["MEMORY.md"], run.text
    _no_leak_anywhere(root, [pw])

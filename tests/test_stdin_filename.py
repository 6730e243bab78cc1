"""`memwarden check --stdin-filename PATH`: content not written yet, checked as the file at PATH (ruff's convention)."""

from __future__ import annotations

import json
import random
import string
from pathlib import Path

from conftest import git, run_memwarden, write_files
from test_append_only import FACTS, episode, log

_rng = random.Random(20261130)
ENV = {"MEMWARDEN_NO_PROGRESS": "1", "NO_COLOR": "1"}


def github_token() -> str:
    return "ghp" + "_" + "".join(_rng.choice(string.ascii_letters + string.digits) for _ in range(36))


def gish(root: Path, records: int = 3) -> Path:
    return write_files(root, {
        ".gish/config.yml": "index:\n  max_chars: 20000\n",
        "MEMORY.md": "# Memory\n",
        "memory/fact.yml": FACTS,
        "memory/episodic.jsonl": log(*(episode(n) for n in range(1, records + 1))),
    })


def check_stdin(root: Path, path: str, content: str | bytes, *args: str):
    data = content.encode("utf-8") if isinstance(content, str) else content
    done = run_memwarden("check", "--stdin-filename", path, *args, cwd=root, env=ENV, input=data)
    done.out = done.stdout.decode("utf-8", "replace")
    done.err = done.stderr.decode("utf-8", "replace")
    return done


def test_an_appended_episode_passes_and_nothing_is_written(tmp_path):
    root = gish(tmp_path / "ws")
    before = (root / "memory/episodic.jsonl").read_bytes()
    proposed = before.decode() + log(episode(4))
    done = check_stdin(root, "memory/episodic.jsonl", proposed)
    assert done.returncode == 0, done.out + done.err
    assert "(1 file)" in done.out
    assert (root / "memory/episodic.jsonl").read_bytes() == before


def test_a_rewrite_that_drops_a_record_is_a_deletion_without_git(tmp_path):
    root = gish(tmp_path / "ws")  # not a git repository: the file on disk is the base
    proposed = log(episode(1), episode(3), episode(4))
    done = check_stdin(root, "memory/episodic.jsonl", proposed, "--format", "json")
    assert done.returncode == 1, done.err
    findings = json.loads(done.out)["findings"]
    assert [(f["name"], f["path"]) for f in findings] == [("deleted-record", "memory/episodic.jsonl")]
    assert "ep_00000002" in findings[0]["message"] and "the file on disk" in findings[0]["message"]


def test_a_record_changed_in_place_is_a_rewrite(tmp_path):
    root = gish(tmp_path / "ws")
    proposed = log(episode(1), episode(2, content="Something else entirely."), episode(3))
    done = check_stdin(root, "memory/episodic.jsonl", proposed, "--select", "rewritten-record")
    assert done.returncode == 1
    assert "rewritten-record" in done.out and "ep_00000002" in done.out


def test_an_uncommitted_older_deletion_is_not_this_writes_fault_but_base_head_sees_it(tmp_path):
    root = gish(tmp_path / "repo")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    (root / "memory/episodic.jsonl").write_text(log(episode(1), episode(3)), encoding="utf-8")  # earlier, by hand
    proposed = log(episode(1), episode(3), episode(4))
    assert check_stdin(root, "memory/episodic.jsonl", proposed).returncode == 0
    against_head = check_stdin(root, "memory/episodic.jsonl", proposed, "--base", "HEAD")
    assert against_head.returncode == 1 and "ep_00000002" in against_head.out and "HEAD" in against_head.out


def test_a_secret_is_reported_and_never_printed(tmp_path):
    root = gish(tmp_path / "ws")
    token = github_token()
    proposed = (root / "memory/episodic.jsonl").read_text() + log(episode(4, content=f"The CI token is {token} for now."))
    for output in ("text", "json", "sarif", "github"):
        done = check_stdin(root, "memory/episodic.jsonl", proposed, "--format", output)
        assert done.returncode == 1
        assert "secret-in-memory" in done.out or "MW701" in done.out
        for start in range(0, len(token) - 10):
            assert token[start:start + 10] not in done.out + done.err


def test_a_new_file_that_does_not_parse_is_reported_and_not_created(tmp_path):
    root = gish(tmp_path / "ws")
    done = check_stdin(root, "memory/knowledge/projects/new-note.md", "---\nname: [unclosed\n---\nBody.\n")
    assert done.returncode == 1
    assert "memory/knowledge/projects/new-note.md:" in done.out and "unparsable-file" in done.out
    assert not (root / "memory/knowledge/projects").exists()


def test_stdin_content_is_never_cached(tmp_path):
    root = gish(tmp_path / "ws")
    assert run_memwarden("check", cwd=root, env=ENV).returncode == 0  # a cached clean run
    broken = check_stdin(root, "memory/episodic.jsonl", "{not json\n")
    assert broken.returncode == 1
    cache = root / ".memwarden_cache"
    stored = b"".join(p.read_bytes() for p in cache.rglob("*") if p.is_file()) if cache.exists() else b""
    assert b"not json" not in stored
    again = run_memwarden("check", cwd=root, env=ENV)
    assert again.returncode == 0, again.stdout


def test_the_config_exclude_holds_and_options_that_write_are_refused(tmp_path):
    root = gish(tmp_path / "ws")
    (root / ".memwarden.toml").write_text('exclude = ["memory/scratch/**"]\n', encoding="utf-8")
    excluded = check_stdin(root, "memory/scratch/x.yml", "a: [\n")
    assert excluded.returncode == 0 and "MW101" not in excluded.out
    for clash in (["--fix"], ["--diff"], ["--staged"], ["memory/fact.yml"]):
        done = check_stdin(root, "memory/fact.yml", FACTS, *clash)
        assert done.returncode == 2 and "--stdin-filename" in done.err and "Traceback" not in done.err


def test_bytes_that_are_not_utf8_are_a_finding_not_a_crash(tmp_path):
    root = gish(tmp_path / "ws")
    done = check_stdin(root, "memory/fact.yml", b"schema_version: 1\nname: \xff\xfe\x00bad\n")
    assert done.returncode == 1 and "Traceback" not in done.err
    assert "memory/fact.yml:" in done.out

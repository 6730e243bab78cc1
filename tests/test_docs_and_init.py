"""Generated docs match the registry; `memwarden init` never overwrites; the progress bar shows only at a terminal."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import threading

from conftest import REPO

from memwarden import registry
from memwarden.report import rulesdoc


def test_rules_reference_matches_the_registry():
    on_disk = (REPO / "docs" / "rules.md").read_text("utf-8")
    assert on_disk == rulesdoc.render(), "docs/rules.md is stale: run `memwarden rules --format markdown > docs/rules.md`"


def test_every_rule_doc_has_the_four_sections_and_a_unique_code():
    codes = set()
    for rule in registry.all_rules():
        for section in registry.DOC_SECTIONS:
            assert f"## {section}" in rule.doc, f"{rule.name} lacks '## {section}'"
        assert rule.summary and rule.summary.endswith(".")
        assert rule.code not in codes
        codes.add(rule.code)


# The rule catalog's fixed names (SPEC §3): users, configs and reports refer to them.
SPEC_RULE_NAMES = {
    "unparsable-file", "schema-violation", "duplicate-key", "invalid-timestamp", "duplicate-id",
    "malformed-jsonl", "too-few-tags", "unnormalized-tags", "negative-claim-without-expiry", "expired-claim",
    "invalid-expiry", "index-entry-without-trigger", "broken-index-link", "cause-style-trigger",
    "one-direction-trigger", "orphan-note", "content-in-index", "duplicate-trigger", "index-over-budget",
    "index-past-truncation", "index-missing", "deleted-record", "rewritten-record", "deleted-note",
    "secret-in-memory", "personal-path", "executable-config", "scratchpad-too-long",
}


def test_spec_rule_names_are_all_declared():
    assert SPEC_RULE_NAMES - {r.name for r in registry.all_rules()} == set()


def test_every_rule_is_documented_in_the_reference_and_by_explain(cli):
    reference = (REPO / "docs" / "rules.md").read_text("utf-8")
    listing = cli("rules").stdout
    for rule in registry.all_rules():
        assert f"\n## {rule.name}\n" in reference, f"docs/rules.md has no section for {rule.name}"
        assert rule.code in listing and rule.name in listing
        explained = cli("explain", rule.name)
        assert explained.exit_code == 0, explained
        for section in registry.DOC_SECTIONS:
            assert section in explained.stdout, f"`memwarden explain {rule.name}` lacks {section}"


def test_init_writes_a_valid_config_and_never_overwrites(cli, workspace):
    root = workspace({"memory/scratchpad.md": "# pad\n"})
    first = cli("init", cwd=root)
    assert first.exit_code == 0 and "profile three-layer" in first.stdout
    assert "id: memwarden-append-only" in first.stdout
    config = (root / ".memwarden.toml").read_text()
    assert 'profile = "three-layer"' in config
    assert cli("check", ".", cwd=root).exit_code == 0  # the written config is valid
    (root / ".memwarden.toml").write_text("# mine\n")
    again = cli("init", "--pre-commit", cwd=root)
    assert "already exists; left unchanged" in again.stdout
    assert (root / ".memwarden.toml").read_text() == "# mine\n"
    assert "repo: https://github.com/memwarden/memwarden" in (root / ".pre-commit-config.yaml").read_text()
    (root / ".pre-commit-config.yaml").write_text("repos: []\n")
    cli("init", "--pre-commit", cwd=root)
    assert (root / ".pre-commit-config.yaml").read_text() == "repos: []\n"


def _many_notes(workspace, count):
    files = {"MEMORY.md": "- [a](note_0.md) — a\n"}
    for i in range(count):
        files[f"note_{i}.md"] = f"---\nname: n{i}\ndescription: d\ntype: user\n---\nbody {i}\n"
    return workspace(files)


def _run_with_tty_stderr(root, env):
    """Run memwarden with stderr on a pseudo-terminal, the way a person at a terminal would. The terminal is read
    while the run goes on, as a terminal is: a slow run redraws its bar more often, and a pseudo-terminal nobody
    reads fills up and blocks the writer."""
    leader, follower = pty.openpty()
    chunks: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                return
            if not chunk:
                return
            chunks.append(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "memwarden", "check", "--select", "MW101", "."],
            cwd=root, env=env, stdout=subprocess.PIPE, stderr=follower, timeout=120,
        )
    finally:
        os.close(follower)
    reader.join(timeout=10)
    os.close(leader)
    return done, b"".join(chunks).decode("utf-8", "replace")


def test_progress_bar_only_on_a_terminal_and_never_in_ci(workspace):
    root = _many_notes(workspace, 250)
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "GITHUB_ACTIONS", "MEMWARDEN_NO_PROGRESS")}
    done, terminal = _run_with_tty_stderr(root, env)
    assert done.returncode == 0
    assert "Checking" in terminal
    done, terminal = _run_with_tty_stderr(root, {**env, "CI": "true"})
    assert "Checking" not in terminal
    piped = subprocess.run([sys.executable, "-m", "memwarden", "check", "."], cwd=root, env=env,
                           capture_output=True, timeout=120)
    assert b"Checking" not in piped.stderr

"""The hooks, driven by the real pre-commit framework in temp git repositories.

A snapshot of this checkout (the working tree, committed once into a temp repo)
is the hooks' repository. One test tries it with `pre-commit try-repo`, as a
user first would; the others run `pre-commit run HOOK` with a config naming the
snapshot at its commit, as an installed hook runs, so pre-commit builds
memwarden's environment once (try-repo builds a fresh one on every call).
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, git, write_files

HOOK_IDS = ("memwarden", "memwarden-budget", "memwarden-append-only", "memwarden-secrets")
pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

FP = "c" * 64
EPISODE = (
    '{{"id": "ep_{i}", "ts": "2026-01-0{i}T00:00:00Z", "type": "insight", "title": "t{i}", '
    '"content": "Episode {i} body.", "tags": ["alpha", "beta"], "importance": 5, '
    '"fingerprint": "' + FP[:-1] + '{i}", "decay_status": "active", "retrieval": {{"count": 0}}}}'
)
WORKSPACE = {
    "MEMORY.md": "# Memory\n",
    "memory/fact.yml": "schema_version: 1\nidentity:\n  name: Agent\n",
    "memory/episodic.jsonl": "".join(EPISODE.format(i=i) + "\n" for i in (1, 2, 3)),
}


def _pre_commit_env(home: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PRE_COMMIT", "GIT_"))}
    env.update({
        "PRE_COMMIT_HOME": str(home),
        "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.invalid",
        "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.invalid",
        "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
        "MEMWARDEN_NO_PROGRESS": "1",
    })
    env.pop("CI", None)
    return env


@pytest.fixture(scope="session")
def hook_repo(tmp_path_factory):
    """(path, sha, pre-commit home) of a one-commit snapshot of this checkout. The test workers of one run share
    them (made once, under a lock), so pre-commit builds memwarden's environment once a run, not once a worker."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # pytest-N/ is this run's, xdist or not
    with open(shared / "memwarden-hook-repo.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        snapshot, home = shared / "memwarden-snapshot", shared / "pre-commit-home"
        if not (snapshot / ".git").is_dir():
            _snapshot_checkout(snapshot)
            home.mkdir(exist_ok=True)
        sha = git(snapshot, "rev-parse", "HEAD").strip()
        config = shared / "memwarden-pre-commit-config.yaml"
        if not config.exists():
            hooks = "".join(f"      - id: {hook_id}\n" for hook_id in HOOK_IDS)
            config.write_text(f"repos:\n  - repo: {snapshot}\n    rev: {sha}\n    hooks:\n{hooks}", "utf-8")
    return snapshot, sha, home


def _snapshot_checkout(snapshot: Path) -> None:
    """Commit this checkout's files (tracked and new, not ignored) once into a fresh repository at `snapshot`."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO, capture_output=True, check=True,
    ).stdout.decode().split("\0")
    for relpath in filter(None, listed):
        source = REPO / relpath
        if source.is_file():
            target = snapshot / relpath
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    git(snapshot, "init", "-q", "-b", "main")
    git(snapshot, "add", "-A")
    git(snapshot, "commit", "-q", "-m", "snapshot")


def try_repo(hook_repo, cwd: Path, hook: str, *extra: str) -> subprocess.CompletedProcess:
    """`pre-commit try-repo`, as the README tells a user to try the hooks (it builds a fresh environment each time)."""
    snapshot, sha, home = hook_repo
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(snapshot), hook, "--ref", sha, "--color", "never", *extra],
        cwd=cwd, env=_pre_commit_env(home), capture_output=True, text=True, timeout=600,
    )


def run_hook(hook_repo, cwd: Path, hook: str, *extra: str) -> subprocess.CompletedProcess:
    """`pre-commit run HOOK` with a config that names the snapshot at its commit, as an installed hook runs:
    pre-commit keeps the environment it built in the shared home, so each run costs the hook, not an install."""
    _, _, home = hook_repo
    config = home.parent / "memwarden-pre-commit-config.yaml"  # written with the snapshot (see hook_repo)
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", hook, "--config", str(config), "--color", "never", *extra],
        cwd=cwd, env=_pre_commit_env(home), capture_output=True, text=True, timeout=600,
    )


@pytest.fixture
def memory_repo(git_repo):
    return git_repo(WORKSPACE, name="memory-repo")


def test_a_clean_commit_passes(hook_repo, memory_repo):
    write_files(memory_repo, {"memory/episodic.jsonl": "".join(EPISODE.format(i=i) + "\n" for i in (1, 2, 3, 4))})
    git(memory_repo, "add", "-A")
    done = try_repo(hook_repo, memory_repo, "memwarden")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Passed" in done.stdout


def test_a_commit_that_breaks_a_schema_is_blocked(hook_repo, memory_repo):
    write_files(memory_repo, {"memory/fact.yml": "schema_version: 1\nidentity:\n  name: Agent\npreferences:\n  communication: x\n"})
    git(memory_repo, "add", "-A")
    done = run_hook(hook_repo, memory_repo, "memwarden")
    assert done.returncode == 1
    assert "memory/fact.yml:5:3: MW102 schema-violation $.preferences.communication" in done.stdout


def test_a_fixable_commit_is_fixed_and_the_hook_reports_the_file(hook_repo, memory_repo, fixed_tiers):
    claim = EPISODE.format(i=4).replace("Episode 4 body.", "The export API does not support batch export.")
    write_files(memory_repo, {"memory/episodic.jsonl": "".join(EPISODE.format(i=i) + "\n" for i in (1, 2, 3)) + claim + "\n"})
    git(memory_repo, "add", "-A")
    done = run_hook(hook_repo, memory_repo, "memwarden")
    assert done.returncode == 1  # pre-commit fails a hook that modified files
    assert "Fixing memory/episodic.jsonl" in done.stdout
    assert "files were modified by this hook" in done.stdout
    fixed = (memory_repo / "memory" / "episodic.jsonl").read_text().splitlines()
    assert json.loads(fixed[3])["expires"] and fixed[:3] == [EPISODE.format(i=i) for i in (1, 2, 3)]
    git(memory_repo, "add", "-A")
    again = run_hook(hook_repo, memory_repo, "memwarden")
    assert again.returncode == 0, again.stdout


def test_the_hook_never_writes_a_preview_rules_fix_it_reports_it(hook_repo, memory_repo, fixed_tiers):
    """A fix written at commit time is nobody's reviewed choice: a preview rule's (malformed-jsonl) is reported only."""
    write_files(memory_repo, {".memwarden.toml": "preview = true\n"})
    claim = EPISODE.format(i=4).replace("Episode 4 body.", "The export API does not support batch export.")
    broken = EPISODE.format(i=1) + "\n\n" + EPISODE.format(i=2) + "\n" + EPISODE.format(i=3) + "\n" + claim  # blank, no final newline
    write_files(memory_repo, {"memory/episodic.jsonl": broken})
    git(memory_repo, "add", "-A")
    done = run_hook(hook_repo, memory_repo, "memwarden")
    assert done.returncode == 1
    assert "Fixing memory/episodic.jsonl" in done.stdout  # the stable rule's fix (the claim's expiry) is written
    text = (memory_repo / "memory" / "episodic.jsonl").read_text()
    assert json.loads(text.splitlines()[-1])["expires"]
    assert text.startswith(EPISODE.format(i=1) + "\n\n") and not text.endswith("\n")  # the preview fix is not
    assert "MW106 malformed-jsonl" in done.stdout
    git(memory_repo, "add", "-A")
    again = run_hook(hook_repo, memory_repo, "memwarden")
    assert again.returncode == 1 and "Fixing" not in again.stdout and "MW106 malformed-jsonl" in again.stdout


def test_config_excludes_hold_when_pre_commit_passes_file_names(hook_repo, memory_repo):
    write_files(memory_repo, {
        ".memwarden.toml": 'exclude = ["memory/fact.yml"]\n',
        "memory/fact.yml": "identity: [broken, on, purpose]\n",
    })
    git(memory_repo, "add", "-A")
    done = run_hook(hook_repo, memory_repo, "memwarden")
    assert done.returncode == 0, done.stdout


def test_git_commit_is_blocked_by_the_installed_hook(hook_repo, memory_repo):
    snapshot, sha, home = hook_repo
    config = f"repos:\n  - repo: {snapshot}\n    rev: {sha}\n    hooks:\n      - id: memwarden\n"
    write_files(memory_repo, {".pre-commit-config.yaml": config})
    env = _pre_commit_env(home)
    subprocess.run([sys.executable, "-m", "pre_commit", "install"], cwd=memory_repo, env=env, check=True,
                   capture_output=True)
    git(memory_repo, "add", "-A")
    ok = subprocess.run(["git", "commit", "-q", "-m", "add config"], cwd=memory_repo, env=env,
                        capture_output=True, text=True, timeout=600)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    write_files(memory_repo, {"memory/fact.yml": "identity:\n  name: A\n  name: B\n"})
    git(memory_repo, "add", "-A")
    blocked = subprocess.run(["git", "commit", "-q", "-m", "duplicate key"], cwd=memory_repo, env=env,
                             capture_output=True, text=True, timeout=600)
    assert blocked.returncode != 0
    assert "MW103 duplicate-key" in blocked.stdout + blocked.stderr
    assert git(memory_repo, "log", "--oneline").count("\n") == 2


def test_a_commit_that_deletes_an_episode_is_blocked(hook_repo, memory_repo):
    write_files(memory_repo, {"memory/episodic.jsonl": "".join(EPISODE.format(i=i) + "\n" for i in (1, 3))})
    git(memory_repo, "add", "-A")
    done = run_hook(hook_repo, memory_repo, "memwarden-append-only")
    assert done.returncode == 1, done.stdout
    assert "MW601 deleted-record" in done.stdout and "ep_2" in done.stdout


def test_archiving_the_episode_instead_passes(hook_repo, memory_repo):
    write_files(memory_repo, {
        "memory/episodic.jsonl": "".join(EPISODE.format(i=i) + "\n" for i in (1, 3)),
        "memory/_archive/episodic_consolidated.jsonl": EPISODE.format(i=2) + "\n",
    })
    git(memory_repo, "add", "-A")
    done = run_hook(hook_repo, memory_repo, "memwarden-append-only")
    assert done.returncode == 0, done.stdout


def test_a_commit_that_adds_a_secret_is_blocked_and_the_secret_is_not_printed(hook_repo, memory_repo):
    token = "sk-ant-api03-" + "Q7vX2mB9kLp4Rt8WzN3cYh6JdF1sGa5E" * 3 + "AbC-dEf_GhI"
    note = f"Deployed with the key {token} yesterday.\n"
    write_files(memory_repo, {"memory/scratch.md": note, "memory/fact.yml": f"identity:\n  name: Agent\n  key: {token}\n"})
    git(memory_repo, "add", "-A")
    done = run_hook(hook_repo, memory_repo, "memwarden-secrets")
    assert done.returncode == 1, done.stdout
    assert "secret-in-memory" in done.stdout
    assert token not in done.stdout + done.stderr
    assert token[:20] not in done.stdout + done.stderr


def test_budget_hook_fails_past_the_truncation_point(hook_repo, memory_repo):
    index = "# Memory\n" + "".join(f'- "symptom number {i} is here" → [n](memory/n{i}.md)\n' for i in range(600))
    write_files(memory_repo, {"MEMORY.md": index})
    git(memory_repo, "add", "-A")
    done = run_hook(hook_repo, memory_repo, "memwarden-budget")
    assert done.returncode == 1, done.stdout  # pre-commit fails the run; the hook's own code is shown
    assert "exit code: 2" in done.stdout and "past the truncation point" in done.stdout
    write_files(memory_repo, {"MEMORY.md": "# Memory\n" + '- "x is fine" → [n](memory/n.md)\n'})
    git(memory_repo, "add", "-A")
    assert run_hook(hook_repo, memory_repo, "memwarden-budget").returncode == 0


def test_pre_commit_run_all_files_is_the_same_check_in_ci(hook_repo, memory_repo):
    """The documented CI job (docs/ci.md): every hook over every committed file, nothing staged."""
    for hook in ("memwarden", "memwarden-append-only", "memwarden-secrets"):
        done = run_hook(hook_repo, memory_repo, hook, "--all-files")
        assert done.returncode == 0, done.stdout + done.stderr
    write_files(memory_repo, {"memory/fact.yml": "schema_version: 1\nidentity:\n  name: Agent\npreferences:\n  communication: x\n"})
    git(memory_repo, "commit", "-qam", "a broken fact file, committed")
    done = run_hook(hook_repo, memory_repo, "memwarden", "--all-files")
    assert done.returncode == 1
    assert "memory/fact.yml:5:3: MW102 schema-violation" in done.stdout


def test_a_commit_of_one_of_two_disagreeing_files_is_told_of_the_other(hook_repo, git_repo):
    """conflicting-instructions is anchored at both files: pre-commit passes only the staged CLAUDE.md, and the
    finding at AGENTS.md, whose related place CLAUDE.md is, is still reported."""
    repo = git_repo({"AGENTS.md": "Tests: `pnpm test`.\n", "CLAUDE.md": "# Project\n"}, name="two-files")
    write_files(repo, {"CLAUDE.md": "# Project\n\nRun the tests with `npm test`.\n"})
    git(repo, "add", "CLAUDE.md")
    done = run_hook(hook_repo, repo, "memwarden", "--verbose")
    assert "AGENTS.md:1:9: MW417 conflicting-instructions" in done.stdout, done.stdout + done.stderr
    assert "  also at CLAUDE.md:3:21 (the other value)" in done.stdout

"""Shared test helpers: real workspaces in temp dirs, and the real CLI."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"
CORPUS = FIXTURES / "corpus"

# The fixtures and examples are copies of memory without their repositories' history: git must not take
# memwarden's own repository for theirs (the repository-claim rules would compare them with it, and read
# its whole history for every check run in place).
os.environ["GIT_CEILING_DIRECTORIES"] = os.pathsep.join(
    filter(None, [str(FIXTURES), str(REPO / "examples"), os.environ.get("GIT_CEILING_DIRECTORIES", "")])
)


def write_files(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write a workspace: relative path -> text (UTF-8, written as is) or bytes."""
    for relpath, content in files.items():
        path = root / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_bytes(content.encode("utf-8"))
    return root


@pytest.fixture(autouse=True)
def every_rule(monkeypatch):
    """A test of a rule sees it whatever its tier: every test runs with the preview rules on (MEMWARDEN_PREVIEW,
    inherited by the CLI and by every memwarden process a test starts). Tests of the default selection unset it."""
    monkeypatch.setenv("MEMWARDEN_PREVIEW", "1")


TIERS_FOR_TESTS = Path(__file__).resolve().parent / "data" / "tiers_for_tests.json"


@pytest.fixture
def fixed_tiers(monkeypatch):
    """A tier table of the tests' own (negative-claim-without-expiry and orphan-note stable, the rest preview),
    for tests of selection and of the hooks' fixes: the shipped table changes with every measurement."""
    from memwarden import tiers

    monkeypatch.setenv("MEMWARDEN_TIER_TABLE", str(TIERS_FOR_TESTS))
    tiers.table.cache_clear()
    yield
    monkeypatch.delenv("MEMWARDEN_TIER_TABLE")
    tiers.table.cache_clear()


@pytest.fixture
def workspace(tmp_path):
    """make(files) -> a workspace root under tmp_path holding those files."""

    def make(files: dict[str, str | bytes], name: str = "ws") -> Path:
        return write_files(tmp_path / name, files)

    return make


class Result:
    def __init__(self, exit_code: int, stdout: str, stderr: str):
        self.exit_code = exit_code
        self.stdout = stdout
        self.stderr = stderr

    def json(self):
        return json.loads(self.stdout)

    def __repr__(self):
        return f"Result(exit={self.exit_code}, stdout={self.stdout!r}, stderr={self.stderr!r})"


@pytest.fixture
def cli(monkeypatch):
    """cli(*args, cwd=PATH) runs memwarden in-process through click, as a user would."""
    from memwarden.cli.main import main

    def run(*args, cwd: Path | None = None, env: dict | None = None) -> Result:
        monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
        if cwd is not None:
            monkeypatch.chdir(cwd)
        runner = CliRunner()
        result = runner.invoke(main, [str(a) for a in args], env=env, catch_exceptions=False)
        return Result(result.exit_code, result.stdout, result.stderr)

    return run


def run_memwarden(*args, cwd: Path, env: dict | None = None, input: bytes | None = None) -> subprocess.CompletedProcess:
    """Run memwarden as a separate process (python -m memwarden)."""
    full_env = {**os.environ, **(env or {})}
    full_env.pop("GITHUB_ACTIONS", None) if env is None or "GITHUB_ACTIONS" not in env else None
    return subprocess.run(
        [sys.executable, "-m", "memwarden", *map(str, args)],
        cwd=cwd,
        env=full_env,
        capture_output=True,
        input=input,
        timeout=120,
    )


def git(cwd: Path, *args: str) -> str:
    """Run real git in cwd; returns stdout."""
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Test",
        "GIT_AUTHOR_EMAIL": "test@example.invalid",
        "GIT_COMMITTER_NAME": "Test",
        "GIT_COMMITTER_EMAIL": "test@example.invalid",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    done = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {done.stderr}")
    return done.stdout


@pytest.fixture
def git_repo(tmp_path):
    """make(files) -> a real git repository with those files committed on main."""

    def make(files: dict[str, str | bytes] | None = None, name: str = "repo") -> Path:
        root = tmp_path / name
        root.mkdir(parents=True, exist_ok=True)
        git(root, "init", "-q", "-b", "main")
        if files:
            write_files(root, files)
            git(root, "add", "-A")
            git(root, "commit", "-q", "-m", "initial")
        return root

    return make


def bench_generator():
    """bench/generate.py, loaded as a module (the generated workspaces' records and notes)."""
    spec = importlib.util.spec_from_file_location("bench_generate", REPO / "bench" / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def generated(tmp_path, monkeypatch):
    """A small workspace from bench/generate.py (60 episodes, 40 notes of a few sentences: many repeat each
    other), and the generator module, for more records of the same kind."""
    gen = bench_generator()
    monkeypatch.setattr(gen, "EPISODES_1X", 60)
    monkeypatch.setattr(gen, "NOTES_1X", 40)
    root = tmp_path / "gen"
    gen.generate(root, 1)
    return root, gen

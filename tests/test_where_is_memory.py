"""Issue #26, "where is the memory": check, stats, budget and init find the same workspaces and files.

From a repository root and from the memory folder itself, on hand-made layouts, on every example and
on every repository of the judged corpus, both halves (which files are memory, never what is found in
them: nothing here is tuned on a finding). Real files in temp git repositories, through the CLI.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES, REPO

REALMEM = FIXTURES / "realmem"
TODAY = ("--today", "2026-11-30")


def corpus_repositories() -> list[str]:
    return sorted(p.name for p in REALMEM.iterdir() if p.is_dir() and not p.name.startswith("_"))


EXAMPLES = sorted(p.name for p in (REPO / "examples").iterdir() if p.is_dir())


def check_roots(cli, cwd: Path) -> dict[str, str]:
    result = cli("check", "--format", "json", "--no-cache", "--exit-zero", *TODAY, cwd=cwd)
    assert result.exit_code == 0, result
    return {w["root"]: w["profile"] for w in result.json()["summary"]["workspaces"]}


def stats_workspaces(cli, cwd: Path) -> dict[str, tuple[str, list[str]]]:
    result = cli("stats", "--json", *TODAY, cwd=cwd)
    assert result.exit_code == 0, result
    return {w["workspace"]: (w["profile"], w["files"]) for w in result.json()["workspaces"]}


def budget_files(cli, cwd: Path) -> tuple[int, set[str]]:
    result = cli("budget", "--json", cwd=cwd)
    assert result.exit_code in (0, 1, 2, 3), result
    if result.exit_code == 3:
        return 3, set()
    body = result.json()
    measured = body.get("measurements", [body])
    return result.exit_code, {path for m in measured for path in m["files"]}


def agree(cli, root: Path) -> None:
    roots = check_roots(cli, root)
    stats = stats_workspaces(cli, root)
    if roots:
        assert {folder: profile for folder, (profile, _) in stats.items()} == roots
    files = {path for _, listed in stats.values() for path in listed}
    _, measured = budget_files(cli, root)
    # What budget measures is a file of a workspace check and stats found (or an AGENTS.md of the chain above).
    assert {p for p in measured if not p.startswith("../")} <= files | {p for p in measured if p.endswith("AGENTS.md")}
    for folder in roots:
        if folder != ".":
            # Asked from the memory folder itself, each command finds that same workspace.
            assert check_roots(cli, root / folder).get(".") == roots[folder], folder
            assert stats_workspaces(cli, root / folder)["."][0] == roots[folder], folder
    init = cli("init", ".", cwd=root)
    assert init.exit_code == 0, init
    for folder, profile in roots.items():
        if folder != ".":
            assert f"{folder} ({profile})" in init.stdout or f"profile {profile}" in init.stdout, (folder, init.stdout)
    assert check_roots(cli, root) == roots  # the config init wrote changes nothing check finds


def copied(tmp_path: Path, source: Path) -> Path:
    target = tmp_path / source.name
    shutil.copytree(source, target)
    return target


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_command_finds_the_same_memory_in_each_example(cli, tmp_path, name):
    agree(cli, copied(tmp_path, REPO / "examples" / name))


@pytest.mark.parametrize("name", corpus_repositories())
def test_every_command_finds_the_same_memory_in_each_corpus_repository(cli, tmp_path, name):
    agree(cli, copied(tmp_path, REALMEM / name))


NOTE = "---\nname: {n}\ndescription: {n} in a line\ntype: project\n---\n\nThe {n} service runs on port {p}.\n"


def claude_folder(lines: int) -> dict[str, str]:
    index = "# Memory\n\n" + "".join(f"- [Note {i}](n{i}.md) — when note {i} matters\n" for i in range(lines))
    return {".claude/memory/MEMORY.md": index,
            **{f".claude/memory/n{i}.md": NOTE.format(n=f"n{i}", p=8000 + i) for i in range(lines)}}


def test_stats_at_a_repository_root_counts_the_notes_check_finds(cli, git_repo):
    root = git_repo({**claude_folder(3), "src/app.py": "print()\n"})
    result = cli("stats", "--json", *TODAY, cwd=root)
    body = result.json()
    assert (body["profile"], body["records"]["notes"]["total"]) == ("claude-code", 3)
    assert body["records"]["index_entries"]["total"] == 3


def test_budget_at_a_root_measures_every_startup_file_and_exits_with_the_worst(cli, git_repo):
    root = git_repo({"AGENTS.md": "# Agents\n\nRun the tests.\n", **claude_folder(226)})
    result = cli("budget", "--json", cwd=root)
    assert result.exit_code == 2, result
    body = result.json()
    assert [m["files"] for m in body["measurements"]] == [["AGENTS.md"], [".claude/memory/MEMORY.md"]]
    assert [m["preset"] for m in body["measurements"]] == ["codex", "claude-code"]
    assert body["files"] == [".claude/memory/MEMORY.md"] and body["past_edge"]
    text = cli("budget", cwd=root)
    assert "AGENTS.md" in text.stdout and ".claude/memory/MEMORY.md:228" in text.stdout


def test_a_lone_memory_md_is_measured_in_claude_codes_units_never_codex_bytes(cli, git_repo):
    root = git_repo({"notes/MEMORY.md": "記" * 80 + "\n"})
    for args in (("notes/MEMORY.md",), ("--workspace", "notes")):
        result = cli("budget", "--json", *args, cwd=root)
        body = result.json()
        assert body["preset"] == "claude-code", args
        assert {limit["unit"]: limit["used"] for limit in body["limits"]} == {"utf16": 81, "lines": 1}, args


def test_an_agents_md_beside_an_override_is_reported_and_not_measured(cli, git_repo):
    root = git_repo({"AGENTS.md": "# Agents\n\n" + "Run the whole suite before a commit.\n" * 40,
                     "AGENTS.override.md": "# Override\n\nRun only the fast tests.\n"})
    body = cli("budget", "--json", cwd=root).json()
    assert body["files"] == ["AGENTS.override.md"]
    report = cli("check", "--format", "json", "--no-cache", *TODAY, cwd=root).json()
    found = [(f["path"], f["name"]) for f in report["findings"]]
    assert found == [("AGENTS.md", "unrecognized-file")]
    assert "AGENTS.override.md" in report["findings"][0]["message"]


def test_budget_in_a_repository_that_is_no_gish_workspace_never_suggests_gish_init(cli, git_repo):
    root = git_repo({"src/app.py": "print()\n"})
    result = cli("budget", cwd=root)
    assert result.exit_code == 3, result
    assert "gish init" not in result.stderr


@pytest.mark.parametrize("folder", [".openclaw/workspace", ".openclaw/workspace-work"])
def test_an_openclaw_workspace_at_its_default_place_is_found_from_the_root(cli, git_repo, folder):
    # A dotfiles-like repository keeps OpenClaw's own folder; a lone MEMORY.md there is OpenClaw's long-term memory.
    root = git_repo({"AGENTS.md": "# Rules\n\nRun the tests.\n",
                     f"{folder}/MEMORY.md": "# Memory\n\nReach me at alice.smith@gmail.com about the deploy.\n"})
    workspaces = stats_workspaces(cli, root)
    assert workspaces[folder][0] == "openclaw", workspaces
    result = cli("check", "--format", "json", "--exit-zero", ".", cwd=root)
    assert (f"{folder}/MEMORY.md", "personal-data") in {(f["path"], f["name"]) for f in result.json()["findings"]}

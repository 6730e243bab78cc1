"""Layouts people actually have (issue 13, point 4): logs split by month, several fact files, a Claude
Code index in a subfolder, and `memwarden budget` on workspaces without an AGENTS.md. Through the CLI."""

from __future__ import annotations

import json

EPISODE = {"id": "ep_{n}", "ts": "2026-0{m}-01T10:00:00Z", "type": "decision", "summary": "chose {n}", "tags": ["deploy", "ci"]}
CLAUDE_NOTE = "---\nname: Tests\ndescription: use the real database\ntype: user\n---\n\nUse the real database.\n"


def episode(n: int, month: int) -> str:
    return json.dumps({k: (v.format(n=n, m=month) if isinstance(v, str) else v) for k, v in EPISODE.items()}) + "\n"


def report(cli, root, *args):
    result = cli("check", "--format", "json", "--no-cache", *args, cwd=root)
    assert result.exit_code in (0, 1), result
    return result.json()


def test_episode_logs_split_by_month_are_one_log(workspace, cli):
    root = workspace({
        "memory/episodes/2026-01.jsonl": episode(1, 1) + episode(2, 1),
        "memory/episodes/2026-02.jsonl": episode(3, 2) + episode(2, 2) + '{"id": "ep_9", "ts": "2026-02-30T10:00:00Z"}',
    })
    data = report(cli, root)
    assert [w["profile"] for w in data["summary"]["workspaces"]] == ["three-layer"]
    found = sorted((f["path"], f["name"], f["line"]) for f in data["findings"])
    log = "memory/episodes/2026-02.jsonl"
    assert (log, "duplicate-id", 2) in found  # ep_2 is already in January's file
    assert (log, "invalid-timestamp", 3) in found and (log, "malformed-jsonl", 3) in found
    assert not any(path == "memory/episodes/2026-01.jsonl" for path, _, _ in found)


def test_several_fact_files_are_facts(workspace, cli):
    root = workspace({
        "memory/facts/tools.yml": "tools:\n  gh: 2\n  gh: 3\n",
        "memory/facts/people.yaml": "owner: ops\n",
    })
    data = report(cli, root)
    assert [w["profile"] for w in data["summary"]["workspaces"]] == ["three-layer"]
    assert [(f["path"], f["name"]) for f in data["findings"]] == [("memory/facts/tools.yml", "duplicate-key")]


def test_a_claude_code_index_in_a_subfolder_is_found_and_measured(git_repo, cli):
    root = git_repo({
        "CLAUDE.md": "# Project\n",
        "agent/MEMORY.md": "- [Tests](feedback_tests.md) — real database\n- [Gone](gone.md) — missing\n",
        "agent/feedback_tests.md": CLAUDE_NOTE,
    })
    data = report(cli, root)
    assert {w["root"]: w["profile"] for w in data["summary"]["workspaces"]}["agent"] == "claude-code"
    assert [(f["path"], f["name"]) for f in data["findings"]] == [("agent/MEMORY.md", "broken-index-link")]
    budget = cli("budget", "--json", cwd=root).json()
    assert (budget["preset"], budget["files"], budget["exit_code"]) == ("claude-code", ["agent/MEMORY.md"], 0)


def test_budget_from_a_repository_root_measures_claude_code_memory(git_repo, cli):
    index = "".join(f"- [n{i}](n{i}.md) — note {i}\n" for i in range(205))
    files = {".claude/memory/MEMORY.md": index, "src/app.py": "print()\n"}
    files.update({f".claude/memory/n{i}.md": CLAUDE_NOTE for i in range(3)})
    root = git_repo(files)
    result = cli("budget", "--json", cwd=root)
    data = result.json()
    assert (data["preset"], data["exit_code"], result.exit_code) == ("claude-code", 2, 2)
    assert data["files"] == [".claude/memory/MEMORY.md"]


def test_budget_on_three_layer_measures_claude_md_when_there_is_no_agents_md(workspace, cli):
    root = workspace({"memory/fact.yml": "a: 1\n", "CLAUDE.md": "# Rules\n" + "- rule\n" * 230})
    result = cli("budget", "--json", cwd=root)
    data = result.json()
    assert (data["preset"], data["files"], result.exit_code) == ("claude-code", ["CLAUDE.md"], 2)
    text = cli("budget", cwd=root).stdout
    assert "not found" not in text and "claude-code preset" in text


def test_a_gish_log_split_by_month_is_one_config_line(workspace, cli):
    files = {
        ".gish/config.yml": "index: {}\n",
        "MEMORY.md": "# Memory\n",
        "memory/episodes/2026-01.jsonl": episode(1, 1),
        "memory/episodes/2026-02.jsonl": episode(1, 2),
    }
    root = workspace(files)
    assert not [f for f in report(cli, root)["findings"] if f["name"] == "duplicate-id"]  # not gish's layout
    files[".memwarden.toml"] = 'kinds.episodic.globs = ["memory/episodic.jsonl", "memory/episodes/*.jsonl"]\n'
    root = workspace(files, name="configured")
    found = [(f["path"], f["name"]) for f in report(cli, root)["findings"] if f["name"] == "duplicate-id"]
    assert found == [("memory/episodes/2026-02.jsonl", "duplicate-id")]

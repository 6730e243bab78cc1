"""Memory as people really commit it: found from the repository root, recognised by its content.

Issue #19, items 2, 3, 6 and 7 (first point): Claude Code memory in `.claude/memory/`, repositories
with only CLAUDE.md / AGENTS.md / GEMINI.md, the AGENTS.md chain past Codex's 32 KiB, files loaded
whole that have no cut, logs and note folders at memory paths that are not memory of that kind,
and index links to the repository's own files. Real files in temp dirs, through the CLI.
"""

from __future__ import annotations

import json
import os
import random
import string
from pathlib import Path

import pytest

from conftest import FIXTURES, git, write_files

REALMEM = FIXTURES / "realmem"
_random = random.Random(1919)


def github_token() -> str:
    return "ghp" + "_" + "".join(_random.choice(string.ascii_letters + string.digits) for _ in range(36))


NOTE = (
    "---\nname: {name}\ndescription: {name} in one line\ntype: feedback\n---\n\nThe {name} lesson.\n\n"
    "**Why:** it bit once.\n\n**How to apply:** every time.\n"
)


def claude_memory(*names: str, index: str | None = None) -> dict[str, str]:
    """A Claude Code memory folder's files: MEMORY.md linking every note, and the notes."""
    lines = index if index is not None else "".join(f"- [{n}]({n}.md) — {n} hook\n" for n in names)
    return {"MEMORY.md": "# Memory\n\n" + lines, **{f"{n}.md": NOTE.format(name=n) for n in names}}


# The notes of one template differ only in their name: near-duplicate rightly names the later ones.
# The tests of where memory is found leave that rule out.
SAME_TEMPLATE = ("--ignore", "near-duplicate")


def under(folder: str, files: dict[str, str]) -> dict[str, str]:
    return {f"{folder}/{path}": text for path, text in files.items()}


def check(cli, root: Path, *args):
    # The notes here are one template with the name swapped: near-duplicate pairs them, which is not what these tests are about.
    result = cli("check", "--format", "json", "--no-cache", "--today", "2026-11-30", "--ignore", "near-duplicate", *args, cwd=root)
    assert result.exit_code in (0, 1), result
    return result, result.json()


def names(report) -> list[tuple[str, str]]:
    return sorted((f["path"], f["name"]) for f in report["findings"])


def profiles(report) -> dict[str, str]:
    return {w["root"]: w["profile"] for w in report["summary"]["workspaces"]}


# -- finding Claude Code memory from the repository root ---------------------------------


def test_claude_memory_folder_is_found_from_the_repository_root(cli, git_repo):
    files = under(".claude/memory", claude_memory("alpha", "beta"))
    files[".claude/memory/gamma.md"] = NOTE.format(name="gamma")  # not in MEMORY.md
    root = git_repo({**files, "src/app.py": "print()\n"})
    result, report = check(cli, root, *SAME_TEMPLATE)
    assert "no memory workspace found" not in result.stderr
    assert profiles(report) == {".claude/memory": "claude-code"}
    assert names(report) == [(".claude/memory/gamma.md", "orphan-note")]


def test_agent_memory_folders_one_level_further_down_are_found(cli, git_repo):
    big = "# Agent memory\n\n" + "".join(f"- lesson {i}\n" for i in range(230))
    root = git_repo({
        ".claude/agent-memory/reviewer/MEMORY.md": big,
        ".claude/agent-memory/planner/MEMORY.md": "# Planner\n\n- keep plans short\n",
    })
    _, report = check(cli, root)
    assert profiles(report) == {
        ".claude/agent-memory/planner": "claude-code",
        ".claude/agent-memory/reviewer": "claude-code",
    }
    # Claude Code loads the first 200 lines of a subagent's MEMORY.md: the cut is real here.
    assert names(report) == [(".claude/agent-memory/reviewer/MEMORY.md", "index-past-truncation")]


def test_other_dot_folders_stay_skipped(cli, git_repo):
    root = git_repo(under(".cache/memory", claude_memory("alpha")))
    result, report = check(cli, root)
    assert report["summary"]["workspaces"] == []
    assert "no memory workspace found" in result.stderr


def test_claude_memory_is_found_beside_a_root_claude_md_and_from_the_dot_folder(cli, git_repo):
    root = git_repo({"CLAUDE.md": "# Project\n\nRun the tests.\n", **under(".claude/memory", claude_memory("alpha"))})
    (root / ".claude/memory/orphan.md").write_text(NOTE.format(name="orphan"))
    _, report = check(cli, root, *SAME_TEMPLATE)
    assert profiles(report) == {".": "agent-instructions", ".claude/memory": "claude-code"}
    assert names(report) == [(".claude/memory/orphan.md", "orphan-note")]
    # Asked for the dot-folder itself (or the memory folder), the same memory is checked.
    for asked in (".claude", ".claude/memory"):
        _, report = check(cli, root, *SAME_TEMPLATE, asked)
        assert names(report) == [(".claude/memory/orphan.md", "orphan-note")], asked


def test_every_repository_of_the_real_memory_corpus_is_found_from_its_root(cli):
    missing = []
    for repo in sorted(p for p in REALMEM.iterdir() if p.is_dir() and not p.name.startswith("_")):
        result, report = check(cli, repo)
        if not report["summary"]["workspaces"] or "no memory workspace found" in result.stderr:
            missing.append(repo.name)
    assert missing == []


# -- the files an agent loads whole ---------------------------------------------------------


@pytest.mark.parametrize("name", ["CLAUDE.md", "AGENTS.md", "Agents.md", "AGENTS.override.md", "GEMINI.md"])
def test_a_repository_with_only_an_instruction_file_is_checked(cli, git_repo, name):
    token = github_token()
    root = git_repo({name: f"# Rules\n\nUse token {token} for the API.\nLogs are in /home/alice/logs.\n"})
    result, report = check(cli, root)
    assert "no memory workspace found" not in result.stderr
    assert profiles(report) == {".": "agent-instructions"}
    assert names(report) == [(name, "personal-path"), (name, "secret-in-memory")]
    assert token not in result.stdout


@pytest.mark.parametrize(
    "memory",
    [
        {"memory/fact.yml": "user:\n  name: A\n"},  # three-layer
        {".gish/config.yml": "index: {max_chars: 20000}\n", "MEMORY.md": "# Index\n"},  # ghost-in-shell
        {"MEMORY.md": "# Memory\n\n- [a](a.md) — hook\n", "a.md": NOTE.format(name="a")},  # claude-code
    ],
    ids=["three-layer", "ghost-in-shell", "claude-code"],
)
def test_a_root_claude_md_is_checked_beside_any_memory(cli, git_repo, memory):
    root = git_repo({**memory, "CLAUDE.md": f"# Rules\n\nkey {github_token()}\n"})
    _, report = check(cli, root, "--select", "secret-in-memory")
    assert names(report) == [("CLAUDE.md", "secret-in-memory")]


def test_repository_meta_files_are_not_claude_code_notes(cli, workspace):
    root = workspace({
        **claude_memory("alpha"),
        "README.md": "# What this folder is\n",
        "LICENSE.md": "MIT\n",
        "CHANGELOG.md": "## 1.0\n",
        "CONTRIBUTING.md": "Be kind.\n",
        "SECURITY.md": "Mail us.\n",
        "CODE_OF_CONDUCT.md": "Be nice.\n",
        "SCHEMA.md": "# How notes are written here\n",
        "CLAUDE.md": "# Rules\n",
        "AGENTS.md": "# Rules\n",
    })
    _, report = check(cli, root)
    assert profiles(report) == {".": "claude-code"}
    assert report["findings"] == []
    # A note that merely mentions such a word in its name is still a note.
    (root / "readme-style.md").write_text("no front matter\n")
    _, report = check(cli, root)
    assert ("readme-style.md", "orphan-note") in names(report)


# -- budgets: the right preset per file -------------------------------------------------------


def test_an_agents_md_past_32_kib_is_reported_by_check(cli, git_repo):
    body = "".join(f"- rule {i}: keep the build green and the diff small, always.\n" for i in range(600))
    root = git_repo({"AGENTS.md": "# Agents\n\n" + body})
    assert len((root / "AGENTS.md").read_bytes()) > 32_768
    result, report = check(cli, root)
    assert names(report) == [("AGENTS.md", "index-past-truncation")]
    assert "(codex)" in report["findings"][0]["message"]
    assert cli("budget", "--preset", "codex", cwd=root).exit_code == 2  # the command agrees


def test_an_agents_md_beside_claude_code_memory_is_measured_with_codex(cli, git_repo):
    body = "".join(f"- rule {i}: keep the build green and the diff small, always.\n" for i in range(600))
    root = git_repo({**claude_memory("alpha"), "AGENTS.md": "# Agents\n\n" + body})
    _, report = check(cli, root, "--select", "MW5")
    assert names(report) == [("AGENTS.md", "index-past-truncation")]


@pytest.mark.parametrize("name", ["GEMINI.md", "CLAUDE.md"])
def test_files_loaded_whole_get_no_truncation_finding(cli, git_repo, name):
    body = "".join(f"- rule {i}: keep the build green and the diff small, always.\n" for i in range(800))
    root = git_repo({name: "# Rules\n\n" + body})
    _, report = check(cli, root)
    assert report["findings"] == []


def test_a_memory_md_that_indexes_nothing_is_loaded_whole(cli, git_repo):
    prompt = "# [agent] MEMORY SYSTEM\n\n" + "".join(f"Paragraph {i} of the system prompt.\n\n" for i in range(150))
    root = git_repo({"agent/MEMORY.md": prompt, "agent/main.py": "print()\n"})
    _, report = check(cli, root)
    assert profiles(report) == {"agent": "agent-instructions"}
    assert report["findings"] == []
    # The same file with a memory note beside it is a Claude Code index, and its cut is real.
    (root / "agent/lesson.md").write_text(NOTE.format(name="lesson"))
    _, report = check(cli, root)
    assert profiles(report) == {"agent": "claude-code"}
    assert ("agent/MEMORY.md", "index-past-truncation") in names(report)


# -- recognising a format by its content -------------------------------------------------------


def app_record(i: int) -> str:
    return json.dumps({
        "type": "episodic", "sessionId": "monitor", "agent": "monitor", "content": {"mission": "m", "step": i},
        "tags": ["monitor", "report"], "id": f"mem-{i}", "schemaVersion": 1, "createdAt": 1772649613501 + i,
    })


def episode(i: int, **extra) -> str:
    record = {"ts": f"2026-03-{i + 1:02d}T10:00:00+08:00", "type": "decision", "summary": f"Decision {i}",
              "tags": ["tooling", "ci"], **extra}
    return json.dumps(record)


def test_an_application_log_at_the_episode_path_is_one_finding(cli, workspace):
    root = workspace({"memory/episodic.jsonl": "".join(app_record(i) + "\n" for i in range(40))})
    _, report = check(cli, root)
    assert names(report) == [("memory/episodic.jsonl", "unrecognized-file")]
    finding = report["findings"][0]
    assert finding["code"] == "MW107" and finding["severity"] == "warning" and finding["line"] == 1
    assert "none of its 40 records" in finding["message"]


def test_an_episode_log_with_a_few_bad_records_keeps_its_schema_findings(cli, workspace):
    lines = [episode(i) for i in range(8)] + [app_record(1), json.dumps({"ts": "2026-03-20T10:00:00+08:00"})]
    root = workspace({"memory/episodic.jsonl": "\n".join(lines) + "\n"})
    _, report = check(cli, root)
    found = {name for _, name in names(report)}
    assert "unrecognized-file" not in found and "schema-violation" in found


def test_a_gish_log_of_other_records_gives_no_duplicate_ids(cli, workspace):
    records = [json.dumps({"id": "same", "createdAt": 1772649613501, "payload": {"k": i}}) for i in range(5)]
    root = workspace({".gish/config.yml": "index: {max_chars: 20000}\n", "MEMORY.md": "# Index\n",
                      "memory/episodic.jsonl": "\n".join(records) + "\n"})
    _, report = check(cli, root, "--select", "MW1")
    assert names(report) == [("memory/episodic.jsonl", "unrecognized-file")]


def test_another_jsonl_log_in_memory_is_found_and_recognised_by_content(cli, git_repo):
    change_log = [json.dumps({"ts": "2025-09-17T04:25:00Z", "actor": "codex", "summary": "Scaffold", "ref": "PR-1",
                              "artifacts": ["docs/a.md"], "signatures": []}) for _ in range(6)]
    root = git_repo({"memory/log.jsonl": "\n".join(change_log) + "\n", "memory/README.md": "# About\n"})
    result, report = check(cli, root)
    assert "no memory workspace found" not in result.stderr
    assert profiles(report) == {".": "three-layer"}
    assert names(report) == [("memory/log.jsonl", "unrecognized-file")]
    # A second log whose records are episodes is recognised: nothing to say about it.
    (root / "memory/decisions.jsonl").write_text("".join(episode(i) + "\n" for i in range(4)))
    _, report = check(cli, root)
    assert names(report) == [("memory/log.jsonl", "unrecognized-file")]


def test_a_numeric_time_is_not_an_episode_time(cli, workspace):
    records = [json.dumps({"ts": 1772649613 + i, "type": "decision", "summary": "s", "tags": ["a", "b"]}) for i in range(3)]
    root = workspace({"memory/episodic.jsonl": "\n".join(records) + "\n"})
    _, report = check(cli, root)
    assert names(report) == [("memory/episodic.jsonl", "unrecognized-file")]


def test_a_folder_of_notes_without_front_matter_is_one_finding(cli, workspace):
    bare = {f"{n}.md": f"# {n}\n\nPlain text memory about {n}.\n" for n in ("build", "style", "tests")}
    index = "".join(f"- [{n}]({n}) — hook\n" for n in bare)
    root = workspace({"MEMORY.md": "# Memory\n\n" + index, **bare})
    _, report = check(cli, root)
    assert names(report) == [("build.md", "unrecognized-file")]
    assert "none of the 3 Markdown files in the workspace root has front matter" in report["findings"][0]["message"]
    # Given one note only (a pre-commit hook), the folder is still recognised as a whole.
    _, report = check(cli, root, "style.md")
    assert names(report) == [("style.md", "unrecognized-file")]


def test_a_linked_topic_file_without_front_matter_among_notes_is_fine(cli, workspace):
    # Claude Code wrote topic files as plain Markdown before it wrote front matter and reads one through the
    # index's link: an upgraded folder holds both kinds, and the plain one is no schema violation.
    files = claude_memory("alpha", "beta")
    files["MEMORY.md"] += "- [todo](todo.md) — open tasks\n- [Debugging](topics/debugging.md) — flaky tests\n"
    files["todo.md"] = "# Todo\n\n- write tests\n"
    files["topics/debugging.md"] = "# Debugging\n\nRun the suite twice.\n"
    root = workspace(files)
    _, report = check(cli, root)
    assert names(report) == []


def test_an_unlinked_note_without_front_matter_among_others_is_reported_on_its_own(cli, workspace):
    files = claude_memory("alpha", "beta")
    files["todo.md"] = "# Todo\n\n- write tests\n"
    root = workspace(files)
    _, report = check(cli, root)
    assert ("todo.md", "schema-violation") in names(report)
    assert any("no front matter" in f["message"] for f in report["findings"] if f["name"] == "schema-violation")


# -- links to the repository the memory is committed in ------------------------------------------


def test_links_from_a_committed_memory_folder_to_repository_files(cli, git_repo, tmp_path):
    index = (
        "- [rules](../../CLAUDE.md) — the project rules\n"
        "- [gone](../../docs/gone.md) — a moved doc\n"
        "- [elsewhere](../../../outside.md) — another checkout\n"
        "- [docs](../../docs) — the docs folder\n"
    )
    files = under(".claude/memory", claude_memory(index=index))
    root = git_repo({**files, "CLAUDE.md": "# Rules\n", "docs/a.md": "# A\n"})
    (tmp_path / "outside.md").write_text("# Outside\n")
    _, report = check(cli, root, "--select", "broken-index-link")
    messages = {f["line"]: f["message"] for f in report["findings"]}
    assert sorted(messages) == [4, 5, 6]
    assert "does not exist" in messages[4] and "one machine" not in messages[4]
    assert "outside the repository" in messages[5] and "one machine" in messages[5]
    assert "is a folder" in messages[6]


def test_a_link_out_of_a_workspace_that_is_in_no_repository_is_outside(cli, tmp_path):
    write_files(tmp_path / "notes", claude_memory(index="- [rules](../CLAUDE.md) — the rules\n"))
    (tmp_path / "CLAUDE.md").write_text("# Rules\n")
    _, report = check(cli, tmp_path / "notes", "--select", "broken-index-link")
    assert [f["line"] for f in report["findings"]] == [3]
    assert "outside the workspace" in report["findings"][0]["message"]


# -- negative claims need positive evidence (issue #19, batch 2) ---------------------------


def test_only_claims_about_named_things_outside_the_project_are_reported(cli, git_repo):
    # Sentences of the kinds real Claude Code memory holds: the project's design, its rules, its
    # tests, past incidents and judgements around two claims about tools that may change.
    body = "\n\n".join([
        "The config key never resolves when spelled in camelCase; only the dash-case one does.",
        "Filing follow-up issues for bugs is not allowed.",
        "Adding nullable columns does not bump the schema version.",
        "Our deploy script doesn't support rollbacks.",
        "We didn't use the venv, so the install went global.",
        "Once the branch is deleted, the commits are unreachable.",
        "A green CI run is not evidence that the branch builds.",
        "GitHub personal-account repos cannot grant the bot a bypass for branch protection.",
        "The hosted ubuntu-18.04 runner image was removed by GitHub.",
    ]) + "\n"
    note = "---\nname: ci\ndescription: CI notes\nmetadata:\n  type: reference\n---\n\n" + body
    root = git_repo(under(".claude/memory", {"MEMORY.md": "- [CI](ci.md) — CI notes\n", "ci.md": note}))
    _, report = check(cli, root, "--select", "negative-claim-without-expiry")
    found = [(f["line"], f["message"].split('"')[1][:40]) for f in report["findings"]]
    assert found == [
        (22, "GitHub personal-account repos cannot gra"),
        (24, "The hosted ubuntu-18.04 runner image was"),
    ]


# -- Claude Code's memory folder is flat (issue #19, batch 2) ------------------------------


def test_files_in_subfolders_of_a_claude_memory_folder_are_not_notes(cli, git_repo):
    files = under(".claude/memory", claude_memory("alpha"))
    files[".claude/memory/beta.md"] = NOTE.format(name="beta")  # beside MEMORY.md, not linked: an orphan
    # An archive of recovered index lines, a plugin's steering files with their own front matter.
    files[".claude/memory/_raw/recovered/ORIGINAL-MEMORY-INDEX.md"] = "- old line one\n- old line two\n"
    files[".claude/memory/steering/conventions.md"] = "---\nscope: repo\nloaded-by: [sdd-plan]\n---\n\nUse tabs.\n"
    files[".claude/memory/steering/deep/more.md"] = "no front matter at all\n"
    root = git_repo(files)
    _, report = check(cli, root)
    assert names(report) == [(".claude/memory/beta.md", "orphan-note")]
    # Given explicitly, a subfolder file is still not a note of the workspace.
    _, report = check(cli, root, ".claude/memory/steering/conventions.md")
    assert report["findings"] == []


# -- a claim's line after a fenced code block (issue #19, batch 2) ---------------------------


@pytest.mark.parametrize("fence", ["```", "~~~", "````"])
def test_a_paragraph_opening_with_inline_code_after_a_code_block_is_on_its_own_line(cli, workspace, fence):
    # The code span's backtick was looked for from the previous paragraph on, and found in the
    # fence of the code block between them: the finding pointed at the fence's line.
    body = (
        "SPM resolves both packages, and the build fails:\n"
        "\n"
        f"{fence}\n"
        "error: multiple similar targets `MistKit` appear in package 'mistkit'\n"
        f"{fence}\n"
        "\n"
        "`swift build` on Windows ARM64 **does not support** Swift 5.9 —\n"
        "so it is not supported there yet.\n"
    )
    note = "---\nname: spm\ndescription: SPM notes\ntype: reference\n---\n\n" + body
    root = workspace({"MEMORY.md": "- [SPM](spm.md) — SPM notes\n", "spm.md": note})
    _, report = check(cli, root, "--select", "negative-claim-without-expiry")
    assert [(f["line"], f["column"]) for f in report["findings"]] == [(13, 1)]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
def test_an_instruction_file_linked_to_a_committed_file_of_the_repository_is_read(cli, git_repo):
    """`.claude/CLAUDE.md` -> `../AGENTS.md` (one instruction file for every agent): the target lies outside the
    `.claude/` workspace but is a file git tracks in the same repository, so it is read, not refused. A link to a
    file git ignores there (`.env`) or to one outside the repository is still not followed."""
    root = git_repo({".gitignore": "private.md\n", "AGENTS.md": "# Rules\n\nRun the tests before a commit.\n",
                     "private.md": "password: hunter2\n", **under(".claude/memory", claude_memory("style"))})
    (root / ".claude" / "CLAUDE.md").symlink_to("../AGENTS.md")
    (root / ".claude" / "AGENTS.md").symlink_to("../private.md")
    outside = root.parent / "outside.md"
    outside.write_text("# Outside\n")
    (root / ".claude" / "GEMINI.md").symlink_to(outside)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "links")
    _, report = check(cli, root / ".claude", "--select", "unparsable-file")
    refused = sorted(f["path"] for f in report["findings"] if "not followed" in f["message"])
    assert refused == ["AGENTS.md", "GEMINI.md"]
    assert "hunter2" not in json.dumps(report)

"""Issue #26: every layout of agent memory is found from the repository root, with the right kind.

Serena's `.serena/memories/`, Cline's `memory-bank/`, a `.learnings/` lessons log, chezmoi and plain
dotfiles repositories (`dot_claude/CLAUDE.md.tmpl`, `.gemini/GEMINI.md`, `.codex/AGENTS.md`, under
`home/`); and `init` at a repository root never pins a profile detection would not choose.
Real files in temp git repositories, through the CLI.
"""

from __future__ import annotations

from pathlib import Path

import pytest


def check(cli, root: Path, *args):
    result = cli("check", "--format", "json", "--no-cache", "--today", "2026-11-30", *args, cwd=root)
    assert result.exit_code in (0, 1), result
    return result, result.json()


def profiles(report) -> dict[str, str]:
    return {w["root"]: w["profile"] for w in report["summary"]["workspaces"]}


def names(report) -> list[tuple[str, str]]:
    return sorted((f["path"], f["name"]) for f in report["findings"])


PLAIN = "# Style\n\nUse two spaces. The CLI is started with `pnpm dev`.\n"
BRIEF = "# Brief\n\nA code generator for React Query hooks from an OpenAPI file.\n"
CLAIM = "# Progress\n\nThe export endpoint does not support pagination yet.\n"


@pytest.mark.parametrize("folder, files", [
    (".serena/memories", {"style_and_conventions.md": PLAIN, "project_purpose.md": BRIEF, "progress.md": CLAIM}),
    ("memory-bank", {"projectbrief.md": BRIEF, "activeContext.md": PLAIN, "progress.md": CLAIM}),
    (".learnings", {"LEARNINGS.md": PLAIN, "ERRORS.md": CLAIM}),
    # The other agents' memory folders (batches 11 and 12 found each unread).
    (".github/memory", {"MEMORY_NOTES.md": PLAIN, "log.md": CLAIM}),
    (".agents/memory", {"decisions.md": BRIEF, "sessions/2026-04-07_export.md": CLAIM}),
    (".cursor/memory", {"conventions.md": PLAIN, "api.md": CLAIM}),
    (".kiro/steering", {"product.md": BRIEF, "tech.md": CLAIM}),
    (".gemini", {"memory.md": CLAIM, "GEMINI.md": PLAIN}),
    # A Codex project's memory file and the notes its AGENTS.md keeps beside it (batch 17c: 21 of 42 claims unread).
    (".codex", {"memory.md": PLAIN, "known_issues.md": CLAIM, "decisions.md": BRIEF, "AGENTS.md": PLAIN}),
    # Antigravity's folder: a memory file and notes beside its workflows (batches 17c and 18c: read as nothing).
    (".agent", {"memory.md": PLAIN, "golden_params/sol.md": CLAIM, "workflows/audit.md": PLAIN}),
    ("memory", {"architecture.md": BRIEF, "gotchas.md": CLAIM}),
    ("claude/learnings", {"2026-05-01.md": CLAIM}),
    (".agent/memories", {"setup.md": PLAIN, "ci.md": CLAIM}),
    # Notes kept by kind, none at the folder's top (batch 14 dev: a .agent/memory/ of 61 notes read as nothing).
    (".agent/memory", {"feedback/no-cd.md": PLAIN, "project/ci.md": CLAIM}),
    # Another agent's folder with a MEMORY.md: no index that agent loads, so no Claude Code front matter asked.
    (".codex/memory", {"MEMORY.md": "# Memory\n\n- [CI](ci.md)\n", "ci.md": CLAIM}),
    (".agents/memory", {"MEMORY.md": "# Memory\n\n- [CI](ci.md)\n", "ci.md": CLAIM}),
])
def test_plain_markdown_memory_folders_are_found_as_notes_from_the_root(cli, git_repo, folder, files):
    root = git_repo({"CLAUDE.md": "# Project\n\nRun the tests.\n", **{f"{folder}/{k}": v for k, v in files.items()}})
    result, report = check(cli, root)
    assert "no memory workspace found" not in result.stderr
    assert profiles(report) == {".": "agent-instructions", folder: "plain-notes"}
    # Notes without front matter are notes: their claims are read, and no "not a memory note" is said of them.
    claim_path = f"{folder}/{next(k for k, v in files.items() if v is CLAIM)}"
    assert names(report) == [(claim_path, "negative-claim-without-expiry")]


@pytest.mark.parametrize("files", [
    # A source folder named memory/ in a project no agent file names, and a .github/ of templates.
    {"src/memory/design.md": PLAIN, "src/memory/pool.c": "int x;\n"},
    {".github/ISSUE_TEMPLATE/bug.md": PLAIN, ".github/pull_request_template.md": PLAIN},
    {".gemini/settings.md": PLAIN},
    {"memory/README.md": PLAIN, "AGENTS.md": "# Agents\n\nRun the tests.\n"},
    # Markdown one folder down is memory only in an agent's folder.
    {"src/memory/pool/design.md": PLAIN},
])
def test_folders_by_those_names_that_hold_no_memory_are_not_memory(cli, git_repo, files):
    root = git_repo({**files, "src/app.py": "print()\n"})
    result, report = check(cli, root)
    assert [w["profile"] for w in report["summary"]["workspaces"]] in ([], ["agent-instructions"])


@pytest.mark.parametrize("manifest", ["Package.swift", "DesktopVoice.xcodeproj/project.pbxproj", "package.json"])
def test_a_memory_file_in_a_projects_own_folder_indexes_only_what_it_links(cli, git_repo, manifest):
    """A MEMORY.md an agent keeps in an app's folder (Package.swift, Sources/) beside the project's HANDOFF.md is a
    file loaded whole, not a Claude Code index of notes: the project's code and docs are not memory. Linking a note
    still makes it an index."""
    app = {"macos/MEMORY.md": "# Project Memory\n\nThe build signs with the local identity.\n",
           "macos/HANDOFF.md": CLAIM, f"macos/{manifest}": "{}\n",
           "macos/Sources/App.swift": 'let key = "permissionsPrompted"\n'}
    result, report = check(cli, git_repo({"AGENTS.md": "# Agents\n", **app}))
    assert profiles(report)["macos"] == "agent-instructions"
    assert names(report) == []
    linked = {**app, "macos/MEMORY.md": "# Project Memory\n\n- [Handoff](HANDOFF.md): where we left off\n"}
    result, report = check(cli, git_repo({"AGENTS.md": "# Agents\n", **linked}, name="linked"))
    assert profiles(report)["macos"] == "claude-code"


def test_a_bootstrap_guide_makes_no_openclaw_workspace_without_the_agents_md_openclaw_writes(cli, git_repo):
    guide = "# Bootstrap Guide\n\nHow to set up a new machine with these dotfiles.\n"
    result, report = check(cli, git_repo({"BOOTSTRAP.md": guide, "CLAUDE.md": "# Dotfiles\n"}))
    assert profiles(report) == {".": "agent-instructions"}
    result, report = check(cli, git_repo({"BOOTSTRAP.md": guide, "AGENTS.md": "# AGENTS.md - Your Workspace\n"},
                                         name="openclaw"))
    assert profiles(report) == {".": "openclaw"}
    result, report = check(cli, git_repo({"SOUL.md": "# Soul\n", "CLAUDE.md": "# Project\n"}, name="soul"))
    assert profiles(report) == {".": "openclaw"}  # a file only OpenClaw keeps needs nothing beside it


def test_a_skill_in_a_skills_folder_is_no_workspace_of_its_own(cli, git_repo):
    """A vendored skill's AGENTS.md (a long guide loaded with the skill) is not a start-up file with a budget; a
    repository that is a skill, at its top, keeps its AGENTS.md as one."""
    guide = "# Composition patterns\n\n" + "- Prefer composition over props drilling.\n" * 3_000
    root = git_repo({"SOUL.md": "# Soul\n", "AGENTS.md": "# Agents\n",
                     ".agents/skills/composition/SKILL.md": "---\nname: composition\ndescription: d\n---\n",
                     ".agents/skills/composition/AGENTS.md": guide})
    result, report = check(cli, root)
    assert profiles(report) == {".": "openclaw"}
    assert [name for path, name in names(report) if path.startswith(".agents/")] == []
    result, report = check(cli, git_repo({"SKILL.md": "---\nname: s\ndescription: d\n---\n", "AGENTS.md": guide},
                                         name="skill"))
    assert profiles(report) == {".": "agent-instructions"}
    assert ("AGENTS.md", "index-past-truncation") in names(report)


def test_the_agents_own_prompts_and_skills_in_its_folder_are_not_memory(cli, git_repo):
    root = git_repo({"AGENTS.md": "# Agents\n\nKeep .codex/memory.md current.\n", ".codex/memory.md": CLAIM,
                     ".codex/prompts/review.md": CLAIM, ".codex/skills/deploy/SKILL.md": CLAIM,
                     ".agent/memory.md": CLAIM, ".agent/workflows/audit.md": CLAIM, ".agent/rules/style.md": CLAIM})
    result, report = check(cli, root)
    assert profiles(report) == {".": "agent-instructions", ".codex": "plain-notes", ".agent": "plain-notes"}
    assert names(report) == [(".agent/memory.md", "negative-claim-without-expiry"),
                             (".codex/memory.md", "negative-claim-without-expiry")]


def test_daily_notes_in_a_memory_folder_are_memory_without_any_agent_file(cli, git_repo):
    root = git_repo({"memory/2026-05-01.md": CLAIM, "memory/2026-05-02.md": PLAIN, "src/app.py": "print()\n"})
    result, report = check(cli, root)
    assert profiles(report) == {"memory": "plain-notes"}
    assert names(report) == [("memory/2026-05-01.md", "negative-claim-without-expiry")]


def test_a_copied_claude_code_project_memory_folder_is_found(cli, git_repo):
    folder = ".claude/projects/-Users-someone-src-shop/memory"
    root = git_repo({f"{folder}/infra.md": NOTE.format(name="infra", body=TOOL_CLAIM), "src/app.py": "print()\n"})
    result, report = check(cli, root, "--preview")
    assert profiles(report) == {folder: "claude-code"}
    assert (f"{folder}/infra.md", "negative-claim-without-expiry") in names(report)


def test_a_folder_named_memory_bank_without_its_core_files_is_no_memory(cli, git_repo):
    root = git_repo({"memory-bank/notes.md": PLAIN, "src/app.py": "print()\n"})
    result, report = check(cli, root)
    assert report["summary"]["workspaces"] == []


@pytest.mark.parametrize("path", [
    "dot_claude/CLAUDE.md.tmpl", "dot_agents/AGENTS.md", ".gemini/GEMINI.md", ".codex/AGENTS.md",
    "home/.claude/CLAUDE.md", "src/.gemini/GEMINI.md",
])
def test_user_level_instruction_files_in_a_dotfiles_repository_are_found(cli, git_repo, path):
    root = git_repo({path: "# Me\n\nAlways answer in English.\n", "install.sh": "echo\n"})
    result, report = check(cli, root)
    assert "no memory workspace found" not in result.stderr
    folder = path.rsplit("/", 1)[0]
    assert profiles(report) == {folder: "agent-instructions"}
    assert report["summary"]["files"] >= 1


def test_init_at_a_repository_root_pins_no_profile_detection_would_not_choose(cli, git_repo):
    notes = {
        ".claude/memory/MEMORY.md": "# Memory\n\n- [Alpha](alpha.md) — the alpha hook\n",
        ".claude/memory/alpha.md": "---\nname: alpha\ndescription: alpha\ntype: project\n---\n\n"
                                   "The staging cluster does not support IPv6.\n",
    }
    root = git_repo({**notes, "src/app.py": "print()\n"})
    _, before = check(cli, root)
    result = cli("init", ".", cwd=root)
    assert result.exit_code == 0, result
    config = (root / ".memwarden.toml").read_text()
    assert 'profile = "ghost-in-shell"' not in [line.strip() for line in config.splitlines()]
    assert "ghost-in-shell" not in result.stdout
    _, after = check(cli, root)
    assert names(after) == names(before)
    assert ("…", "index-missing") not in names(after)
    assert all(f["name"] != "index-missing" for f in after["findings"])
    assert profiles(after)[".claude/memory"] == "claude-code"


# Claude Code gives each subagent a memory folder of its own (`.claude/agent-memory/<agent>/MEMORY.md`), and
# people keep notes in folders by topic that the index links to (`decisions/no-orm.md`).
NOTE = "---\nname: {name}\ndescription: what {name} is about\ntype: reference\n---\n{body}\n"
TOOL_CLAIM = "The Acme CLI does not support JSON output."


def test_a_subagent_memory_folder_inside_a_memory_folder_is_a_workspace_of_its_own(cli, git_repo):
    root = git_repo({
        "CLAUDE.md": "# Project\n\nRun the tests.\n",
        ".claude/agent-memory/MEMORY.md": "# Shared\n\n- run `npm test` before a commit\n",
        ".claude/agent-memory/coder/MEMORY.md": "# Coder\n\n- [Tools](tools.md): the CLIs we call\n",
        ".claude/agent-memory/coder/tools.md": NOTE.format(name="tools", body=TOOL_CLAIM),
    })
    for where in (root, root / ".claude/agent-memory"):
        result, report = check(cli, where, "--preview")
        assert sorted(profiles(report).values()).count("claude-code") == 2, profiles(report)
        found = [(f["path"], f["name"]) for f in report["findings"]]
        # The subagent's note is read (its claim found), once: its folder is no part of the folder above.
        assert [name for path, name in found if path.endswith("coder/tools.md")] == ["negative-claim-without-expiry"]
        assert not any(name == "unrecognized-file" for _, name in found)


def test_a_note_in_a_subfolder_is_a_note_when_the_index_links_it(cli, git_repo):
    root = git_repo({
        ".claude/memory/MEMORY.md": "# Memory\n\n- [Acme CLI](tools/acme.md): what it can do\n",
        ".claude/memory/tools/acme.md": NOTE.format(name="acme", body=TOOL_CLAIM),
        # Not linked: a raw dump kept beside the notes is no note (its claim is not read).
        ".claude/memory/_raw/old-index.md": "# Old\n\n" + TOOL_CLAIM + "\n",
    })
    result, report = check(cli, root, "--preview")
    claims = sorted(f["path"] for f in report["findings"] if f["name"] == "negative-claim-without-expiry")
    assert claims == [".claude/memory/tools/acme.md"]
    # Named alone (a hook, an editor), the linked note is read the same way.
    result, report = check(cli, root, "--preview", ".claude/memory/tools/acme.md")
    assert [f["name"] for f in report["findings"]] == ["negative-claim-without-expiry"]


def test_unlinking_a_subfolder_note_is_seen_by_a_cached_run(cli, git_repo):
    index = "# Memory\n\n- [Acme CLI](tools/acme.md): what it can do\n"
    root = git_repo({
        ".claude/memory/MEMORY.md": index,
        ".claude/memory/tools/acme.md": NOTE.format(name="acme", body=TOOL_CLAIM),
    })

    def claims() -> list[str]:
        result = cli("check", "--format", "json", "--preview", "--today", "2026-11-30", cwd=root)
        return [f["path"] for f in result.json()["findings"] if f["name"] == "negative-claim-without-expiry"]

    assert claims() == [".claude/memory/tools/acme.md"]
    (root / ".claude/memory/MEMORY.md").write_text("# Memory\n\n- nothing linked now\n", encoding="utf-8")
    assert claims() == []
    (root / ".claude/memory/MEMORY.md").write_text(index, encoding="utf-8")
    assert claims() == [".claude/memory/tools/acme.md"]


@pytest.mark.parametrize("link, linked", [
    ("[a](decisions/no-orm.md)", {"decisions/no-orm.md"}),
    ("[a](./decisions/no-orm.md#why)", {"decisions/no-orm.md"}),
    ("[a](<topic notes/a b.md>)", {"topic notes/a b.md"}),
    ("[a](topic%20notes/a%20b.md)", {"topic notes/a b.md"}),
    ("[a](no-orm.md)", set()),  # beside the index: a note by its place already
    ("[a](../elsewhere/x.md)", set()),  # outside the folder
    ("[a](https://example.com/x/y.md)", set()),
    ("[a](/abs/x.md)", set()),
    ("[a](decisions/no-orm.txt)", set()),
])
def test_which_links_of_an_index_name_notes_in_subfolders(link, linked):
    from memwarden.discover.profiles import index_linked_notes

    assert index_linked_notes(f"# Memory\n\n- {link}: a hook\n") == linked


def test_an_index_written_in_utf16_names_its_subfolder_notes_too(cli, git_repo):
    index = "# Memory\n\n- [Acme CLI](tools/acme.md): what it can do\n"
    root = git_repo({
        ".claude/memory/MEMORY.md": b"\xff\xfe" + index.encode("utf-16-le"),
        ".claude/memory/tools/acme.md": NOTE.format(name="acme", body=TOOL_CLAIM),
    })
    result, report = check(cli, root, "--preview")
    assert ".claude/memory/tools/acme.md" in {f["path"] for f in report["findings"]
                                               if f["name"] == "negative-claim-without-expiry"}


def test_an_index_linked_from_outside_the_workspace_names_no_notes(cli, git_repo, tmp_path):
    # The index is a symlink to a file elsewhere: it is not read (its document says so), and its links make
    # no file of the workspace a note.
    outside = tmp_path / "elsewhere.md"
    outside.write_text("# Memory\n\n- [Acme CLI](tools/acme.md): what it can do\n", encoding="utf-8")
    root = git_repo({".claude/memory/tools/acme.md": NOTE.format(name="acme", body=TOOL_CLAIM)})
    (root / ".claude/memory/MEMORY.md").symlink_to(outside)
    result, report = check(cli, root, "--preview")
    assert not any(f["name"] == "negative-claim-without-expiry" for f in report["findings"]), report["findings"]


def test_a_claude_memory_folder_without_an_index_is_read_as_claude_code_memory(cli, git_repo):
    # A CLAUDE.md that tells the agent to read .claude/memory/, and notes there with no MEMORY.md: the notes are
    # memory all the same (their claims read), and index-missing says what is not there.
    root = git_repo({
        "CLAUDE.md": "# Project\n\nRead the notes in .claude/memory/ before you start.\n",
        ".claude/memory/tools.md": NOTE.format(name="tools", body=TOOL_CLAIM),
        ".claude/memory/handoff.md": NOTE.format(name="handoff", body="Next: ship the export.\n"),
    })
    for where, named in ((root, ()), (root, (".claude/memory/tools.md",)), (root / ".claude/memory", ())):
        result, report = check(cli, where, "--preview", *named)
        assert profiles(report).get(".claude/memory" if where == root else ".") == "claude-code", profiles(report)
        found = [(Path(f["path"]).name, f["name"]) for f in report["findings"]]
        assert ("tools.md", "negative-claim-without-expiry") in found
        assert not any(name == "unrecognized-file" for _, name in found)


def test_a_memory_folder_elsewhere_or_without_notes_is_not_taken_for_one(cli, git_repo):
    root = git_repo({
        "CLAUDE.md": "# Project\n",
        ".claude/memory/notes.txt": "not Markdown\n",  # no note: nothing to read as Claude Code memory
        "docs/memory/design.md": "# Design\n\n" + TOOL_CLAIM + "\n",  # a memory/ folder outside .claude is docs
    })
    result, report = check(cli, root, "--preview")
    assert "claude-code" not in profiles(report).values(), profiles(report)


OPENCLAW_ROOT = {"SOUL.md": "# Soul\n\nCalm.\n", "IDENTITY.md": "- **Name:** Atlas\n", "MEMORY.md": "# Memory\n"}


@pytest.mark.parametrize("folder", ["Scribe", "agents/kingshot"])
def test_another_agents_workspace_below_an_openclaw_workspace_is_its_own(cli, git_repo, folder):
    root = git_repo({**OPENCLAW_ROOT, f"{folder}/SOUL.md": "# Soul\n", f"{folder}/memory/2026-05-01.md": CLAIM,
                     # Templates of the files, with a BOOTSTRAP.md, are no agent's workspace.
                     "templates/SOUL.md": "# Soul\n", "templates/BOOTSTRAP.md": "# Bootstrap\n", "templates/memory/x.md": CLAIM})
    result, report = check(cli, root, "--preview")
    assert profiles(report) == {".": "openclaw", folder: "openclaw"}
    found = names(report)
    assert (f"{folder}/memory/2026-05-01.md", "negative-claim-without-expiry") in found
    # Read once, in its own workspace; nothing of the templates is a finding of an agent.
    assert len([path for path, _ in found if path.startswith(folder)]) == len({p for p in found if p[0].startswith(folder)})
    assert not any(path.startswith("templates/") and name == "leftover-bootstrap" for path, name in found)


@pytest.mark.parametrize("files, profile", [
    ({"SOUL.md": "# Soul\n", "AGENTS.md": "# Agents\n"}, "openclaw"),
    ({"AGENTS.md": "# Agents\n", "USER.md": "# User\n"}, "openclaw"),
    ({"CLAUDE.md": "# C\n", "memory/fact.yml": "a: 1\n", "memory/scratchpad.md": PLAIN}, "three-layer"),
])
def test_a_memory_file_named_alone_belongs_to_the_workspace_above_its_folder(cli, git_repo, files, profile):
    root = git_repo({**files, "memory/2026-05-01.md": CLAIM})
    for args in ((), ("memory/2026-05-01.md",), ("memory",)):
        result, report = check(cli, root, *args)
        assert profiles(report) == {".": profile}, args

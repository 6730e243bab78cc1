"""Issue #26: a file the runtime loads by itself is never an orphan note.

OpenClaw injects its bootstrap files (AGENTS.md, SOUL.md, TOOLS.md, IDENTITY.md, USER.md, HEARTBEAT.md,
BOOTSTRAP.md, MEMORY.md) into every session and reads its daily notes memory/YYYY-MM-DD.md by date; a
Claude Code hook (SessionStart, UserPromptSubmit) whose command names a memory file prints it into the
session, and a CLAUDE.md `@path` import loads the file. None of them is reached through a link, and
none is an orphan. Real files in temp git repositories, through the CLI.
"""

from __future__ import annotations

import json

import pytest

from test_openclaw import WORKSPACE, check

OPENCLAW_LOADED = ("AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md", "HEARTBEAT.md", "BOOTSTRAP.md",
                   "BOOT.md", "MEMORY.md", "DREAMS.md", "memory/2026-11-29.md", "memory/2026-11-30-printer.md")


def orphans(report) -> list[str]:
    return sorted(f["path"] for f in report["findings"] if f["name"] == "orphan-note")


@pytest.mark.parametrize("name", OPENCLAW_LOADED)
def test_no_openclaw_file_is_an_orphan(cli, git_repo, name):
    files = {**WORKSPACE, "BOOTSTRAP.md": "# Bootstrap\n\nAsk who you are.\n", "BOOT.md": "# Boot\n\n- say hi\n",
             "DREAMS.md": "# Dreams\n\n- a sweep\n"}
    root = git_repo(files)
    report = check(cli, root, name, "--select", "orphan-note")
    assert orphans(report) == []


def claude_memory(settings: dict | None, notes=("context.md", "lesson.md")) -> dict:
    note = "---\nname: {n}\ndescription: d\ntype: project\n---\n\nThe build needs node 22.\n"
    files = {".claude/memory/MEMORY.md": "- [Lesson](lesson.md) — the build\n"}
    files.update({f".claude/memory/{n}": note.format(n=n[:-3]) for n in notes})
    if settings is not None:
        files[".claude/settings.json"] = json.dumps(settings)
    return files


def session_start(command: str, event: str = "SessionStart") -> dict:
    return {"hooks": {event: [{"matcher": "startup", "hooks": [{"type": "command", "command": command}]}]}}


def test_a_note_no_index_and_no_hook_names_is_an_orphan(cli, git_repo):
    root = git_repo(claude_memory(None))
    assert orphans(check(cli, root, "--select", "orphan-note")) == [".claude/memory/context.md"]


@pytest.mark.parametrize("command", [
    "cat .claude/memory/context.md",
    'cat "$CLAUDE_PROJECT_DIR"/.claude/memory/context.md',
    "cat ${CLAUDE_PROJECT_DIR}/.claude/memory/context.md 2>/dev/null || true",
    "head -n 50 './.claude/memory/context.md'",
    "cat .claude/memory/*.md",
])
def test_a_note_a_session_start_hook_prints_is_loaded(cli, git_repo, command):
    root = git_repo(claude_memory(session_start(command)))
    assert orphans(check(cli, root, "--select", "orphan-note")) == []


def test_a_user_prompt_hook_loads_its_note_too(cli, git_repo):
    root = git_repo(claude_memory(session_start("cat .claude/memory/context.md", "UserPromptSubmit")))
    assert orphans(check(cli, root, "--select", "orphan-note")) == []


@pytest.mark.parametrize("settings", [
    session_start("cat .claude/memory/other.md"),  # names another file
    session_start("cat .claude/memory/context.md", "PostToolUse"),  # runs after a tool: loads nothing
    {"hooks": "not a table"},
    ["a list"],
])
def test_a_hook_that_names_another_file_or_loads_nothing_changes_nothing(cli, git_repo, settings):
    root = git_repo(claude_memory(settings))
    assert orphans(check(cli, root, "--select", "orphan-note")) == [".claude/memory/context.md"]


def test_a_settings_file_that_does_not_parse_is_no_error(cli, git_repo):
    files = claude_memory(None)
    files[".claude/settings.json"] = '{"hooks": {"SessionStart": [ '
    root = git_repo(files)
    assert orphans(check(cli, root, "--select", "orphan-note")) == [".claude/memory/context.md"]


def test_the_local_settings_count_as_well(cli, git_repo):
    files = claude_memory(None)
    files[".claude/settings.local.json"] = json.dumps(session_start("cat .claude/memory/context.md"))
    root = git_repo(files)
    assert orphans(check(cli, root, "--select", "orphan-note")) == []


def test_the_user_settings_load_a_note_of_the_auto_memory_folder(cli, tmp_path, monkeypatch):
    # ~/.claude/projects/<project>/memory/ is no git work tree: the settings are looked for up to ~/.claude/.
    from conftest import write_files

    home = tmp_path / "home"
    memory = ".claude/projects/-work-app/memory"
    files = {path.replace(".claude/memory", memory): text for path, text in claude_memory(None).items()}
    files[".claude/settings.json"] = json.dumps(session_start(f"cat ~/{memory}/context.md"))
    write_files(home, files)
    monkeypatch.setenv("HOME", str(home))
    root = home / memory
    assert orphans(check(cli, root, "--select", "orphan-note")) == []
    (home / ".claude/settings.json").write_text(json.dumps(session_start(f"cat $HOME/{memory}/*.md")), "utf-8")
    assert orphans(check(cli, root, "--select", "orphan-note")) == []
    (home / ".claude/settings.json").write_text(json.dumps(session_start("cat ~/elsewhere.md")), "utf-8")
    assert orphans(check(cli, root, "--select", "orphan-note")) == ["context.md"]


@pytest.mark.parametrize("name, text", [
    ("CLAUDE.md", "# Project\n\nSee @.claude/memory/context.md for the build.\n"),
    ("CLAUDE.local.md", "Mine: @./.claude/memory/context.md\n"),
    (".claude/CLAUDE.md", "@memory/context.md\n"),  # read from the importing file's folder
])
def test_a_note_claude_md_imports_is_loaded(cli, git_repo, name, text):
    root = git_repo({**claude_memory(None), name: text})
    assert orphans(check(cli, root, "--select", "orphan-note")) == []


@pytest.mark.parametrize("text", [
    "Mail me at dev@.claude/memory/context.md\n",  # an address, not an import
    "`@.claude/memory/context.md` is how to import it\n",  # in code
    "```\n@.claude/memory/context.md\n```\n",
    "See @.claude/memory/other.md\n",
])
def test_what_is_no_import_of_the_note_loads_nothing(cli, git_repo, text):
    root = git_repo({**claude_memory(None), "CLAUDE.md": text})
    assert orphans(check(cli, root, "--select", "orphan-note")) == [".claude/memory/context.md"]


def cached_orphans(cli, root) -> list[str]:
    """The orphans a check with the cache on reports (a second one is served from .memwarden_cache)."""
    result = cli("check", "--format", "json", "--today", "2026-11-30", "--select", "orphan-note", cwd=root)
    assert result.exit_code in (0, 1), result
    return orphans(result.json())


@pytest.mark.parametrize("name, loads, loads_not", [
    (".claude/settings.json", json.dumps(session_start("cat .claude/memory/context.md")),
     json.dumps(session_start("cat .claude/memory/other.md"))),
    (".claude/settings.local.json", json.dumps(session_start("cat .claude/memory/*.md")), "{}"),
    ("CLAUDE.md", "See @.claude/memory/context.md\n", "See the memory.\n"),
])
def test_a_cached_check_follows_an_unstaged_edit_of_what_loads_a_note(cli, git_repo, name, loads, loads_not):
    # Those files lie outside the memory folder: an edit of them, never staged, must still reach the cached answer.
    root = git_repo(claude_memory(None))
    assert cached_orphans(cli, root) == [".claude/memory/context.md"]
    (root / name).write_text(loads, "utf-8")
    assert cached_orphans(cli, root) == []
    assert cached_orphans(cli, root) == []
    (root / name).write_text(loads_not, "utf-8")
    assert cached_orphans(cli, root) == [".claude/memory/context.md"]
    (root / name).unlink()
    assert cached_orphans(cli, root) == [".claude/memory/context.md"]


def test_a_cached_check_follows_a_link_the_hook_names_when_it_is_pointed_elsewhere(cli, git_repo):
    # The hook prints .claude/today.md, a link into the memory: where the link leads decides which note is loaded.
    root = git_repo(claude_memory(session_start("cat .claude/today.md")))
    link = root / ".claude/today.md"
    link.symlink_to("memory/lesson.md")
    assert cached_orphans(cli, root) == [".claude/memory/context.md"]
    link.unlink()
    link.symlink_to("memory/context.md")
    assert cached_orphans(cli, root) == []

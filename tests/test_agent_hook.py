"""`memwarden hook` fed real agent hook payloads, run as the agent CLI runs it: a process, JSON on stdin."""

from __future__ import annotations

import json
import os
import random
import string
from pathlib import Path

import pytest

from conftest import run_memwarden, write_files
from test_append_only import FACTS, NOTE, episode, log

_rng = random.Random(16)


def github_token() -> str:
    return "ghp" + "_" + "".join(_rng.choice(string.ascii_letters + string.digits) for _ in range(36))


def project(tmp_path: Path) -> Path:
    """A repository with a Ghost In Shell workspace at its root, and source code beside it."""
    return write_files(tmp_path / "proj", {
        ".gish/config.yml": "index:\n  max_chars: 20000\n",
        "MEMORY.md": "# Memory\n",
        "memory/fact.yml": FACTS,
        "memory/episodic.jsonl": log(episode(1), episode(2), episode(3)),
        "memory/knowledge/projects/export-limits.md": NOTE,
        "src/app.py": "print('hello')\n",
    })


def claude(root: Path, event: str, tool: str, tool_input: dict, env: dict | None = None):
    """Run the hook as Claude Code does: the payload's documented fields, CLAUDE_PROJECT_DIR set."""
    payload = {
        "session_id": "abc123", "transcript_path": str(root / ".transcript.jsonl"), "cwd": str(root),
        "permission_mode": "default", "hook_event_name": event, "tool_name": tool,
        "tool_input": tool_input, "tool_use_id": "toolu_01",
    }
    if event == "PostToolUse":
        payload["tool_response"] = {"filePath": tool_input.get("file_path"), "success": True}
    return hook(root, payload, {"CLAUDE_PROJECT_DIR": str(root), **(env or {})})


def hook(root: Path, payload: dict | bytes, env: dict | None = None):
    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    done = run_memwarden("hook", cwd=root, input=data, env={"NO_COLOR": "1", **(env or {})})
    done.out = done.stdout.decode("utf-8", "replace")
    done.err = done.stderr.decode("utf-8", "replace")
    return done


def assert_never_echoed(secret: str, *texts: str) -> None:
    joined = "".join(texts)
    for start in range(len(secret) - 10):
        assert secret[start:start + 10] not in joined


# -- before a write: block what cannot be taken back --------------------------------------

def test_write_with_a_secret_is_blocked_and_the_secret_is_never_echoed(tmp_path):
    root = project(tmp_path)
    token = github_token()
    note = root / "memory/knowledge/projects/export-limits.md"
    before = note.read_bytes()
    done = claude(root, "PreToolUse", "Write", {
        "file_path": str(note), "content": NOTE + f"\nThe deploy token is {token}.\n",
    })
    assert done.returncode == 2
    assert "memwarden blocked this write to memory/knowledge/projects/export-limits.md" in done.err
    assert "secret-in-memory" in done.err and "GitHub token" in done.err
    assert_never_echoed(token, done.out, done.err)
    assert note.read_bytes() == before


def test_edit_that_deletes_an_episode_is_blocked(tmp_path):
    root = project(tmp_path)
    line = json.dumps(episode(2)) + "\n"
    done = claude(root, "PreToolUse", "Edit", {
        "file_path": str(root / "memory/episodic.jsonl"), "old_string": line, "new_string": "", "replace_all": False,
    })
    assert done.returncode == 2
    assert "deleted-record" in done.err and "ep_00000002" in done.err
    assert "archive one instead of deleting it" in done.err


def test_multiedit_applies_its_edits_in_order_and_blocks_a_file_that_no_longer_parses(tmp_path):
    root = project(tmp_path)
    facts = str(root / "memory/fact.yml")
    # The second edit matches only what the first one wrote: applied in order, the result is valid YAML.
    ok = claude(root, "PreToolUse", "MultiEdit", {"file_path": facts, "edits": [
        {"old_string": "editor: vim", "new_string": "editor: helix"},
        {"old_string": "editor: helix", "new_string": "editor: helix  # since 2026"},
    ]})
    assert ok.returncode == 0 and ok.err == ""
    broken = claude(root, "PreToolUse", "MultiEdit", {"file_path": facts, "edits": [
        {"old_string": "editor: vim", "new_string": "editor: [vim"},
        {"old_string": '"Go"', "new_string": '"Go', "replace_all": True},
    ]})
    assert broken.returncode == 2 and "unparsable-file" in broken.err and "still parses" in broken.err


def test_an_edit_the_tool_would_refuse_writes_nothing_and_passes(tmp_path):
    root = project(tmp_path)
    facts = str(root / "memory/fact.yml")
    missing = claude(root, "PreToolUse", "Edit", {"file_path": facts, "old_string": "no such text", "new_string": "x"})
    ambiguous = claude(root, "PreToolUse", "Edit", {"file_path": facts, "old_string": "\"Agent\"", "new_string": "{"})
    for done in (missing, ambiguous):
        assert done.returncode == 0 and done.err == "" and done.out == ""


def test_replace_all_edits_every_occurrence(tmp_path):
    root = project(tmp_path)
    done = claude(root, "PreToolUse", "Edit", {
        "file_path": str(root / "memory/fact.yml"), "old_string": '"Agent"', "new_string": '"Agent', "replace_all": True,
    })
    assert done.returncode == 2 and "unparsable-file" in done.err


def test_a_secret_already_on_an_untouched_line_does_not_block_an_append(tmp_path):
    root = project(tmp_path)
    token = github_token()
    log_path = root / "memory/episodic.jsonl"
    log_path.write_text(log(episode(1, content=f"old token {token}"), episode(2)), encoding="utf-8")
    last = json.dumps(episode(2)) + "\n"
    done = claude(root, "PreToolUse", "Edit", {
        "file_path": str(log_path), "old_string": last, "new_string": last + json.dumps(episode(3)) + "\n",
    })
    assert done.returncode == 0, done.err
    assert_never_echoed(token, done.out, done.err)


def test_a_file_that_is_not_memory_passes_silently_whatever_it_holds(tmp_path):
    root = project(tmp_path)
    token = github_token()
    for event in ("PreToolUse", "PostToolUse"):
        done = claude(root, event, "Write", {"file_path": str(root / "src/app.py"), "content": f"KEY = '{token}'\n"})
        assert (done.returncode, done.out, done.err) == (0, "", "")
    other_tool = claude(root, "PreToolUse", "Bash", {"command": "rm -rf memory"})
    assert (other_tool.returncode, other_tool.err) == (0, "")


# -- after a write: tell the agent what to fix -------------------------------------------

BAD_NOTE = NOTE.replace("type: reference", "type: refrence") if "type: reference" in NOTE else None


def written(root: Path, relpath: str, content: str, env: dict | None = None):
    path = root / relpath
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8")  # what Claude Code's Write did
    return claude(root, "PostToolUse", "Write", {"file_path": str(path), "content": content}, env)


def test_after_a_clean_write_the_hook_is_silent(tmp_path):
    root = project(tmp_path)
    done = written(root, "memory/episodic.jsonl", log(episode(1), episode(2), episode(3), episode(4)))
    assert (done.returncode, done.out, done.err) == (0, "", "")


def test_after_a_write_the_findings_reach_the_agent_with_the_fix_memwarden_would_make(tmp_path):
    root = project(tmp_path)
    content = log(episode(1), episode(2), episode(3), episode(4, tags=["Deploy ", "deploy", "ci"]))
    done = written(root, "memory/episodic.jsonl", content)
    assert done.returncode == 2
    assert "memwarden found 1 problem in memory/episodic.jsonl, just written:" in done.err
    assert "- line 4: unnormalized-tags" in done.err and "memwarden's fix:" in done.err
    assert "memwarden check --fix memory/episodic.jsonl" in done.err
    assert (root / "memory/episodic.jsonl").read_text(encoding="utf-8") == content  # not opted in: untouched


def test_safe_fixes_are_applied_after_a_write_only_when_the_workspace_opts_in(tmp_path, fixed_tiers):
    root = project(tmp_path)
    (root / ".memwarden.toml").write_text("[agent-hook]\nfix = true\n", encoding="utf-8")
    claim = episode(4, content="The export API does not support batch export.")
    content = log(episode(1), episode(2), episode(3), claim)
    done = written(root, "memory/episodic.jsonl", content)
    assert done.returncode == 2
    assert "memwarden fixed 1 problem in memory/episodic.jsonl" in done.err and "read the file again" in done.err
    fixed = (root / "memory/episodic.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(fixed[3])["expires"]
    assert fixed[:3] == content.splitlines()[:3]


def test_the_agent_hook_never_applies_a_preview_rules_fix_and_reports_it(tmp_path, fixed_tiers):
    root = project(tmp_path)
    (root / ".memwarden.toml").write_text("preview = true\n[agent-hook]\nfix = true\n", encoding="utf-8")
    content = log(episode(1), episode(2), episode(3), episode(4, tags=["Deploy ", "deploy", "ci"]))
    done = written(root, "memory/episodic.jsonl", content)
    assert done.returncode == 2
    assert "memwarden fixed" not in done.err and "- line 4: unnormalized-tags" in done.err
    assert (root / "memory/episodic.jsonl").read_text(encoding="utf-8") == content


def test_after_a_write_a_secret_is_reported_by_type_and_never_echoed(tmp_path):
    root = project(tmp_path)
    token = github_token()
    done = written(root, "memory/fact.yml", FACTS + f"tokens:\n  ci: {token}\n")
    assert done.returncode == 2 and "secret-in-memory" in done.err
    assert_never_echoed(token, done.out, done.err)


# -- payloads: bad ones, and other agent CLIs --------------------------------------------

@pytest.mark.parametrize("payload", [b"not json", b"[1, 2]", json.dumps(
    {"hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": {"content": "x"}}).encode()])
def test_a_payload_that_is_not_what_claude_code_sends_is_one_line_and_never_blocks(tmp_path, payload):
    root = project(tmp_path)
    done = hook(root, payload)
    assert done.returncode == 1
    assert done.err.startswith("memwarden hook: ") and "Traceback" not in done.err


def test_gemini_cli_write_file_and_replace_payloads(tmp_path):
    root = project(tmp_path)
    token = github_token()
    base = {"session_id": "s", "transcript_path": "/tmp/t.json", "cwd": str(root), "timestamp": "2026-11-30T10:00:00Z"}
    note = str(root / "memory/knowledge/projects/export-limits.md")
    write = hook(root, {**base, "hook_event_name": "BeforeTool", "tool_name": "write_file",
                        "tool_input": {"file_path": note, "content": NOTE + f"\n{token}\n"}})
    assert write.returncode == 2 and "secret-in-memory" in write.err
    assert_never_echoed(token, write.out, write.err)
    line = json.dumps(episode(3)) + "\n"
    replace = hook(root, {**base, "hook_event_name": "BeforeTool", "tool_name": "replace", "tool_input": {
        "file_path": str(root / "memory/episodic.jsonl"), "old_string": line, "new_string": "",
        "expected_replacements": 1}})
    assert replace.returncode == 2 and "deleted-record" in replace.err


def test_codex_apply_patch_payloads(tmp_path):
    root = project(tmp_path)
    token = github_token()
    base = {"session_id": "s", "cwd": str(root), "hook_event_name": "PreToolUse", "tool_name": "apply_patch"}
    add = "*** Begin Patch\n*** Add File: memory/knowledge/projects/new.md\n" + "".join(
        "+" + line + "\n" for line in (NOTE + f"token {token}\n").splitlines()) + "*** End Patch\n"
    added = hook(root, {**base, "tool_input": {"command": add}})
    assert added.returncode == 2 and "secret-in-memory" in added.err
    assert_never_echoed(token, added.out, added.err)
    second = json.dumps(episode(2))
    update = (f"*** Begin Patch\n*** Update File: memory/episodic.jsonl\n@@\n {json.dumps(episode(1))}\n-{second}\n"
              f" {json.dumps(episode(3))}\n*** End Patch\n")
    updated = hook(root, {**base, "tool_input": {"command": update}})
    assert updated.returncode == 2 and "ep_00000002" in updated.err
    source = hook(root, {**base, "tool_input": {"command": "*** Begin Patch\n*** Add File: src/x.py\n+x = 1\n*** End Patch\n"}})
    assert (source.returncode, source.err) == (0, "")


# -- init --agent ------------------------------------------------------------------------

USER_SETTINGS = """{
  "permissions": {"allow": ["Bash(npm test)"], "deny": ["Read(./.env)"]},
  "hooks": {
    "PostToolUse": [
      {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "npx prettier --write", "timeout": 30}]}
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]
  },
  "model": "opus"
}
"""


def test_init_agent_claude_code_merges_into_the_users_settings_once(tmp_path, cli):
    root = project(tmp_path)
    settings = root / ".claude/settings.json"
    write_files(root, {".claude/settings.json": USER_SETTINGS})
    first = cli("init", "--agent", "claude-code", root)
    assert first.exit_code == 0
    assert "added hooks.PreToolUse" in first.stdout and "added hooks.PostToolUse" in first.stdout
    merged = json.loads(settings.read_text(encoding="utf-8"))
    user = json.loads(USER_SETTINGS)
    assert merged["permissions"] == user["permissions"] and merged["model"] == "opus"
    assert merged["hooks"]["Stop"] == user["hooks"]["Stop"]
    assert merged["hooks"]["PostToolUse"][0] == user["hooks"]["PostToolUse"][0]
    ours = {"matcher": "Write|Edit|MultiEdit", "hooks": [{"type": "command", "command": "memwarden hook"}]}
    assert merged["hooks"]["PostToolUse"][1:] == [ours] and merged["hooks"]["PreToolUse"] == [ours]
    after_first = settings.read_bytes()
    second = cli("init", "--agent", "claude-code", root)
    assert second.exit_code == 0 and "left unchanged" in second.stdout
    assert settings.read_bytes() == after_first
    assert not (root / ".memwarden.toml").exists()  # --agent touches only the agent's settings


def test_init_agent_writes_a_new_settings_file_and_refuses_a_malformed_one(tmp_path, cli):
    root = project(tmp_path)
    done = cli("init", "--agent", "claude-code", root)
    assert done.exit_code == 0
    assert json.loads((root / ".claude/settings.json").read_text())["hooks"]["PreToolUse"][0]["matcher"] == (
        "Write|Edit|MultiEdit")
    broken = b'{"hooks": {"PreToolUse": [}\n'
    (root / ".claude/settings.json").write_bytes(broken)
    refused = cli("init", "--agent", "claude-code", root)
    assert refused.exit_code == 2 and "cannot read it as JSON" in refused.stderr and "left unchanged" in refused.stderr
    assert (root / ".claude/settings.json").read_bytes() == broken
    (root / ".claude/settings.json").write_text('{"hooks": []}', encoding="utf-8")
    wrong_shape = cli("init", "--agent", "claude-code", root)
    assert wrong_shape.exit_code == 2 and '"hooks" is not an object' in wrong_shape.stderr


@pytest.mark.parametrize("link", ["the file", "its folder", "a dangling link"])
def test_init_agent_never_writes_through_a_symlink_out_of_the_project(tmp_path, cli, link):
    """`.claude/settings.json` as a symlink to a file outside the project (a committed link can point at the
    user's home), `.claude/` itself linked out, or a dangling link whose target is outside: each is refused
    (exit 2, one line, no traceback), and nothing outside is written or created."""
    root = project(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    target = outside / "settings.json"
    if link == "the file":
        target.write_text(USER_SETTINGS, encoding="utf-8")
        (root / ".claude").mkdir()
        (root / ".claude/settings.json").symlink_to(target)
    elif link == "its folder":
        target.write_text(USER_SETTINGS, encoding="utf-8")
        (root / ".claude").symlink_to(outside, target_is_directory=True)
    else:
        (root / ".claude").mkdir()
        (root / ".claude/settings.json").symlink_to(target)
    before = sorted((p.name, p.read_bytes()) for p in outside.iterdir())
    refused = cli("init", "--agent", "claude-code", root)
    assert refused.exit_code == 2, refused
    assert "symbolic link" in refused.stderr and "does not write through it" in refused.stderr, refused
    assert "Traceback" not in refused.stderr and refused.stderr.count("\n") == 1, refused
    assert sorted((p.name, p.read_bytes()) for p in outside.iterdir()) == before


def test_init_agent_follows_a_symlink_inside_the_project_and_refuses_a_fifo(tmp_path, cli):
    """A settings file linked to another file of the project is merged there (the link stays a link); a FIFO
    in its place is refused at once instead of blocking the read."""
    root = project(tmp_path)
    write_files(root, {"config/claude.json": USER_SETTINGS})
    (root / ".claude").mkdir()
    (root / ".claude/settings.json").symlink_to("../config/claude.json")
    done = cli("init", "--agent", "claude-code", root)
    assert done.exit_code == 0, done
    assert (root / ".claude/settings.json").is_symlink()
    assert json.loads((root / "config/claude.json").read_text())["hooks"]["PreToolUse"][0]["hooks"][0]["command"] == (
        "memwarden hook")
    (root / ".gemini").mkdir()
    os.mkfifo(root / ".gemini/settings.json")
    refused = cli("init", "--agent", "gemini-cli", root)
    assert refused.exit_code == 2 and "not a regular file" in refused.stderr, refused


def test_init_agent_gemini_cli_uses_its_events_and_tool_names(tmp_path, cli):
    root = project(tmp_path)
    assert cli("init", "--agent", "gemini-cli", root).exit_code == 0
    hooks = json.loads((root / ".gemini/settings.json").read_text())["hooks"]
    assert hooks["BeforeTool"][0]["matcher"] == "write_file|replace"
    assert hooks["AfterTool"][0]["hooks"][0]["command"] == "memwarden hook"


def test_init_agent_codex_writes_its_project_hooks_json(tmp_path, cli):
    root = project(tmp_path)
    first = cli("init", "--agent", "codex", root)
    assert first.exit_code == 0 and ".codex/hooks.json" in first.stdout
    hooks = json.loads((root / ".codex/hooks.json").read_text())["hooks"]
    assert hooks["PreToolUse"][0]["matcher"] == "^apply_patch$"
    assert hooks["PostToolUse"][0]["hooks"] == [{"type": "command", "command": "memwarden hook"}]
    assert "left unchanged" in cli("init", "--agent", "codex", root).stdout


def test_init_does_not_pin_agent_instructions_in_a_repository_with_a_claude_md(tmp_path, cli):
    root = write_files(tmp_path / "repo", {"CLAUDE.md": "# Project\nRun the tests.\n", "src/app.py": "x = 1\n"})
    assert cli("init", root).exit_code == 0
    config = (root / ".memwarden.toml").read_text(encoding="utf-8")
    assert 'profile = "agent-instructions"' not in config
    assert not any(line.startswith("profile") for line in config.splitlines())
    write_files(root, {"memory/fact.yml": "schema_version: 1\nidentity:\n  name: A\n"})
    checked = cli("check", root, "--format", "json")
    assert checked.json()["summary"]["workspaces"][0]["profile"] == "ghost-in-shell"


# -- gish: propose -> review -> apply ----------------------------------------------------

def _readme_proposal_loop() -> str:
    from conftest import REPO
    import re

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    return next(b for b in re.findall(r"```bash\n(.*?)```", readme, flags=re.S) if "--stdin-filename" in b)


@pytest.mark.parametrize("name,files,passes,said", [
    ("0001", {"memory/episodic.jsonl": log(episode(1), episode(2), episode(3), episode(4))}, True, None),
    ("0002", {"memory/knowledge/projects/export-limits.md": NOTE + "\nKey: {token}\n"}, False, "secret-in-memory"),
    ("0003", {"memory/episodic.jsonl": log(episode(1), episode(3), episode(4))}, False, "deleted-record"),
    ("0004", {"memory/fact.yml": FACTS.replace("editor: vim", "editor: [vim")}, False, "unparsable-file"),
])
def test_a_gish_proposal_is_checked_before_apply_as_the_readme_shows(tmp_path, name, files, passes, said):
    import os
    import subprocess
    import sys

    root = project(tmp_path)
    token = github_token()
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    write_files(root / ".gish/proposals" / name, {k: v.replace("{token}", token) for k, v in files.items()})
    script = _readme_proposal_loop().replace("cd ~/my-workspace\n", "").replace("0042", name)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", "NO_COLOR": "1"}
    done = subprocess.run(["bash", "-c", script], cwd=root, env=env, capture_output=True, text=True, timeout=120)
    assert (done.returncode == 0) is passes, done.stdout + done.stderr
    assert ("passes: apply it" in done.stdout) is passes
    if said:
        assert said in done.stdout
    assert_never_echoed(token, done.stdout, done.stderr)
    assert {p: p.read_bytes() for p in before} == before  # nothing reached the workspace


def test_after_an_edit_only_what_the_edit_wrote_is_reported(tmp_path):
    root = project(tmp_path)
    log_path = root / "memory/episodic.jsonl"
    old_problem = episode(2, tags=["Deploy", "ci"])  # already there: not this edit's
    log_path.write_text(log(episode(1), old_problem), encoding="utf-8")
    last = json.dumps(old_problem) + "\n"
    appended = json.dumps(episode(3, tags=["CI ", "ci", "cache"])) + "\n"
    log_path.write_text(log(episode(1), old_problem) + appended, encoding="utf-8")  # what Edit did
    done = claude(root, "PostToolUse", "Edit", {
        "file_path": str(log_path), "old_string": last, "new_string": last + appended, "replace_all": False,
    })
    assert done.returncode == 2
    assert "- line 3: unnormalized-tags" in done.err and "- line 2:" not in done.err
    clean_append = json.dumps(episode(4)) + "\n"
    log_path.write_text(log_path.read_text(encoding="utf-8") + clean_append, encoding="utf-8")
    quiet = claude(root, "PostToolUse", "Edit", {
        "file_path": str(log_path), "old_string": appended, "new_string": appended + clean_append,
    })
    assert (quiet.returncode, quiet.err) == (0, "")

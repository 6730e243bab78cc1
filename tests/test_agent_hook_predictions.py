"""The hook judges the edit the agent really applies (issue 24): each case is a write the agent CLI makes
that an earlier hook misread, run as the agent runs the hook (a process, the payload on stdin)."""

from __future__ import annotations

import json
import subprocess

from test_agent_hook import assert_never_echoed, claude, github_token, hook, project
from test_append_only import episode, log

EPISODES = "memory/episodic.jsonl"


def codex(root, patch: str):
    return hook(root, {"session_id": "s", "cwd": str(root), "hook_event_name": "PreToolUse",
                       "tool_name": "apply_patch", "tool_input": {"command": patch}})


def gemini(root, tool_input: dict):
    return hook(root, {"session_id": "s", "transcript_path": "/tmp/t.json", "cwd": str(root),
                       "hook_event_name": "BeforeTool", "tool_name": "replace", "tool_input": tool_input})


def line_of(n: int, **extra) -> str:
    return json.dumps(episode(n, **extra), ensure_ascii=False)


# -- 1. lines numbered as the engine numbers them ---------------------------------------------

def test_a_stray_cr_before_a_new_secret_line_does_not_pass_it_off_as_an_old_line(tmp_path):
    root = project(tmp_path)
    note = root / "memory/knowledge/projects/export-limits.md"
    last = note.read_text(encoding="utf-8").splitlines()[-1] + "\n"
    token = github_token()
    # A CR alone ends no line for the engine; str.splitlines split there and read the token's line as `last`.
    done = claude(root, "PreToolUse", "Edit", {
        "file_path": str(note), "old_string": last, "new_string": "\r" + last + f"The deploy token is {token}.\n"})
    assert done.returncode == 2 and "secret-in-memory" in done.err, done.err
    assert_never_echoed(token, done.out, done.err)


# -- 2. Claude Code: an empty old_string fills an empty or blank file ------------------------

def test_an_edit_with_an_empty_old_string_on_a_blank_note_is_judged_as_a_write(tmp_path):
    root = project(tmp_path)
    token = github_token()
    for name, blank in (("empty.md", ""), ("blank.md", " \n\t\n")):
        note = root / "memory/knowledge/projects" / name
        note.write_text(blank, encoding="utf-8")
        done = claude(root, "PreToolUse", "Edit", {
            "file_path": str(note), "old_string": "", "new_string": f"The deploy token is {token}.\n"})
        assert done.returncode == 2 and "secret-in-memory" in done.err, (name, done.err)
        assert_never_echoed(token, done.out, done.err)


def test_an_edit_with_an_empty_old_string_on_a_file_with_text_is_refused_by_claude_code_and_passes(tmp_path):
    root = project(tmp_path)
    done = claude(root, "PreToolUse", "Edit", {
        "file_path": str(root / EPISODES), "old_string": "", "new_string": "not json\n"})
    assert (done.returncode, done.err) == (0, "")


# -- 3. Claude Code folds curly quotes ----------------------------------------------------------

def test_an_edit_written_with_straight_quotes_deletes_a_record_that_has_curly_ones(tmp_path):
    root = project(tmp_path)
    curly = line_of(2, content="It\u2019s the \u201cexport\u201d limit.")
    (root / EPISODES).write_text(line_of(1) + "\n" + curly + "\n" + line_of(3) + "\n", encoding="utf-8")
    straight = curly.replace("\u2019", "'").replace("\u201c", '"').replace("\u201d", '"')
    done = claude(root, "PreToolUse", "Edit", {
        "file_path": str(root / EPISODES), "old_string": straight + "\n", "new_string": ""})
    assert done.returncode == 2 and "deleted-record" in done.err and "ep_00000002" in done.err, done.err


def test_an_edit_that_matches_only_with_other_whitespace_is_blocked_as_unpredictable(tmp_path):
    root = project(tmp_path)
    loose = line_of(2).replace('", "', '",  "')
    done = claude(root, "PreToolUse", "Edit", {"file_path": str(root / EPISODES), "old_string": loose, "new_string": ""})
    assert done.returncode == 2 and "cannot tell what Edit would write" in done.err, done.err


# -- 4. Codex apply_patch read as Codex reads it ------------------------------------------------

def test_codex_an_indented_update_header_still_deletes(tmp_path):
    root = project(tmp_path)
    done = codex(root, f"*** Begin Patch\n  *** Update File: {EPISODES}\n@@\n-{line_of(2)}\n*** End Patch\n")
    assert done.returncode == 2 and "deleted-record" in done.err and "ep_00000002" in done.err, done.err


def test_codex_a_removed_line_with_extra_indentation_is_found_by_its_trimmed_match(tmp_path):
    root = project(tmp_path)
    done = codex(root, f"*** Begin Patch\n*** Update File: {EPISODES}\n@@\n   {line_of(1)}\n-   {line_of(2)}\n"
                       "*** End Patch\n")
    assert done.returncode == 2 and "deleted-record" in done.err and "ep_00000002" in done.err, done.err


def test_codex_a_line_separator_inside_an_added_line_does_not_split_the_patch(tmp_path):
    root = project(tmp_path)
    added = line_of(4, content="first\u2028 second")
    done = codex(root, f"*** Begin Patch\n*** Update File: {EPISODES}\n@@\n {line_of(1)}\n-{line_of(2)}\n+{added}\n"
                       "*** End Patch\n")
    assert done.returncode == 2 and "deleted-record" in done.err and "ep_00000002" in done.err, done.err


def test_codex_a_patch_codex_rejects_writes_nothing(tmp_path):
    root = project(tmp_path)
    missing = codex(root, f"*** Begin Patch\n*** Update File: {EPISODES}\n@@\n-no such line\n*** End Patch\n")
    unparsed = codex(root, f"*** Update File: {EPISODES}\n@@\n-{line_of(2)}\n")
    for done in (missing, unparsed):
        assert (done.returncode, done.err) == (0, "")


# -- 5. Gemini CLI's loose matching ---------------------------------------------------------------

def test_gemini_a_replace_that_matches_only_with_other_indentation_is_judged_as_gemini_applies_it(tmp_path):
    root = project(tmp_path)
    done = gemini(root, {"file_path": str(root / EPISODES), "old_string": "  " + line_of(2), "new_string": ""})
    assert done.returncode == 2 and "deleted-record" in done.err and "ep_00000002" in done.err, done.err


def test_gemini_a_replace_that_matches_only_more_loosely_is_blocked_as_unpredictable(tmp_path):
    root = project(tmp_path)
    loose = line_of(2).replace('", "', '",  "')  # other spacing inside the line: Gemini's token regex finds it
    done = gemini(root, {"file_path": str(root / EPISODES), "old_string": loose, "new_string": ""})
    assert done.returncode == 2 and "cannot tell what replace would write" in done.err, done.err


def test_gemini_an_exact_replace_is_judged_with_allow_multiple(tmp_path):
    root = project(tmp_path)
    (root / EPISODES).write_text(log(episode(1), episode(2), episode(3)), encoding="utf-8")
    done = gemini(root, {"file_path": str(root / EPISODES), "old_string": line_of(2) + "\n", "new_string": "",
                         "allow_multiple": True})
    assert done.returncode == 2 and "deleted-record" in done.err, done.err


# -- 6. memwarden's own configuration is guarded -------------------------------------------------

def test_a_write_that_changes_memwardens_settings_is_blocked(tmp_path):
    root = project(tmp_path)
    dotfile = claude(root, "PreToolUse", "Write", {
        "file_path": str(root / ".memwarden.toml"), "content": 'exclude = ["memory/**"]\n'})
    assert dotfile.returncode == 2 and "memwarden's settings" in dotfile.err, dotfile.err
    (root / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    pyproject = claude(root, "PreToolUse", "Edit", {
        "file_path": str(root / "pyproject.toml"), "old_string": 'name = "x"\n',
        "new_string": 'name = "x"\n\n[tool.memwarden]\nignore = ["secret-in-memory"]\n'})
    assert pyproject.returncode == 2 and "memwarden's settings" in pyproject.err, pyproject.err
    # The rest of pyproject.toml is not memwarden's: a change there passes.
    other = claude(root, "PreToolUse", "Edit", {
        "file_path": str(root / "pyproject.toml"), "old_string": 'name = "x"', "new_string": 'name = "y"'})
    assert (other.returncode, other.err) == (0, "")


def test_a_write_that_breaks_memwardens_config_file_is_blocked(tmp_path):
    root = project(tmp_path)
    (root / ".memwarden.toml").write_text('select = ["secret-in-memory"]\n', encoding="utf-8")
    done = claude(root, "PreToolUse", "Edit", {
        "file_path": str(root / ".memwarden.toml"), "old_string": "]", "new_string": ""})
    assert done.returncode == 2 and "unreadable" in done.err, done.err


# -- 7. an allow marker the write itself adds accepts nothing --------------------------------------

def test_an_allow_marker_written_by_the_edit_it_judges_accepts_nothing(tmp_path):
    root = project(tmp_path)
    token = github_token()
    note = root / "memory/knowledge/projects/export-limits.md"
    done = claude(root, "PreToolUse", "Edit", {
        "file_path": str(note), "old_string": "**Why:**",
        "new_string": f"Token {token} <!-- memwarden: allow-secret -->\n\n**Why:**"})
    assert done.returncode == 2 and "secret-in-memory" in done.err, done.err
    assert "allow-secret" not in done.err and "baseline" not in done.err
    assert_never_echoed(token, done.out, done.err)


def test_an_allow_marker_the_user_wrote_before_still_accepts_its_line(tmp_path):
    root = project(tmp_path)
    token = github_token()
    note = root / "memory/knowledge/projects/export-limits.md"
    accepted = f"Token {token} <!-- memwarden: allow-secret -->\n"
    note.write_text(note.read_text(encoding="utf-8") + accepted, encoding="utf-8")
    done = claude(root, "PreToolUse", "Edit", {
        "file_path": str(note), "old_string": accepted, "new_string": accepted + "One more line.\n"})
    assert (done.returncode, done.err) == (0, "")


def test_the_block_message_never_tells_the_agent_how_to_accept_a_secret(tmp_path):
    root = project(tmp_path)
    token = github_token()
    note = root / "memory/knowledge/projects/export-limits.md"
    done = claude(root, "PreToolUse", "Write", {"file_path": str(note), "content": f"Token {token}\n"})
    assert done.returncode == 2 and "secret-in-memory" in done.err
    assert "allow-secret" not in done.err and "baseline" not in done.err, done.err


def test_a_write_to_the_baseline_of_accepted_secrets_is_blocked(tmp_path):
    root = project(tmp_path)
    done = claude(root, "PreToolUse", "Write", {
        "file_path": str(root / ".memwarden-baseline.json"), "content": '{"version": 1, "accepted": {}}\n'})
    assert done.returncode == 2 and "memwarden blocked this write to .memwarden-baseline.json" in done.err, done.err


def test_an_allow_marker_that_is_a_yaml_key_is_blanked_without_breaking_the_file(tmp_path):
    root = project(tmp_path)
    token = github_token()
    facts = root / "memory/fact.yml"
    done = claude(root, "PreToolUse", "Edit", {
        "file_path": str(facts), "old_string": "schema_version: 1\n",
        "new_string": f"schema_version: 1\nmemwarden: allow-secret\ndeploy_token: {token}\n"})
    assert done.returncode == 2 and "secret-in-memory" in done.err and "unparsable-file" not in done.err, done.err


def test_codex_a_patch_in_a_shell_heredoc_is_read_as_codex_extracts_it(tmp_path):
    root = project(tmp_path)
    body = f"*** Begin Patch\n*** Update File: episodic.jsonl\n@@\n-{line_of(2)}\n*** End Patch"
    done = codex(root, f"cd memory && apply_patch <<'EOF'\n{body}\nEOF\n")
    assert done.returncode == 2 and "deleted-record" in done.err and "ep_00000002" in done.err, done.err


def test_codex_a_patch_wrapped_in_a_command_memwarden_does_not_read_is_blocked(tmp_path):
    root = project(tmp_path)
    body = f"*** Begin Patch\n*** Update File: {EPISODES}\n@@\n-{line_of(2)}\n*** End Patch"
    done = codex(root, f"apply_patch '{body}'")
    assert done.returncode == 2 and "cannot tell what apply_patch would write" in done.err, done.err
    source = codex(root, "apply_patch '*** Begin Patch\n*** Add File: src/x.py\n+x = 1\n*** End Patch'")
    assert (source.returncode, source.err) == (0, "")


def test_codex_a_move_without_a_chunk_is_rejected_by_codexs_parser_and_passes(tmp_path):
    root = project(tmp_path)
    done = codex(root, f"*** Begin Patch\n*** Update File: {EPISODES}\n*** Move to: scratch/old.jsonl\n*** End Patch\n")
    assert (done.returncode, done.err) == (0, "")

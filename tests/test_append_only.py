"""Append-only rules (deleted-record, rewritten-record, deleted-note) on real git repositories."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from conftest import git, run_memwarden, write_files
from memwarden.analysis.history import snapshots, textdiff

RULES = "deleted-record,rewritten-record,deleted-note"


def episode(n: int, **extra) -> dict:
    record = {
        "id": f"ep_{n:08d}",
        "ts": "2026-01-02T10:00:00Z",
        "type": "decision",
        "title": f"Decision number {n}",
        "content": f"We decided thing {n} because of reason {n}.",
        "tags": ["architecture", "decision"],
        "importance": 6,
        "fingerprint": f"{n:064x}",
        "decay_status": "active",
        "retrieval": {"count": 0, "last_accessed": None, "strength": 0.5},
    }
    record.update(extra)
    return record


def log(*records: dict, newline: str = "\n") -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + newline for r in records)


FACTS = """\
schema_version: 1
identity:
  name: "Agent"   # what the user calls it
  call_as: "Agent"
  language: "en"
  timezone: "UTC"
  last_updated: "2026-01-01"
preferences:
  communication:
    - "Lead with the answer."
  tech_stack:
    - "Python"
    - "Go"
  editor: vim
rules:
  - "Never delete files without explicit confirmation."
  - "Log significant decisions to episodic memory."
archive: {}
"""

NOTE = """\
---
name: verify-final-state
description: A tool's success message is a claim; check the final state
metadata:
  type: feedback
  updated: 2026-10-01
---

Before reporting a write as done, read the result back from where the user
will see it: the live page, the file on disk after hooks ran.

**Why:** a deploy reported success while users still got the cached page.
"""

OTHER_NOTE = """\
---
name: zero-may-mean-not-run
description: Zero errors can mean the step never ran
metadata:
  type: feedback
  updated: 2026-10-01
---

Treat "0 errors" as meaningful only with an end-of-run signal.
"""

MEMORY_MD = """\
# Memory Index

- "The tool said it succeeded, so it is done" → [verify the final state](memory/knowledge/feedback/verify-final-state.md)
- "Zero errors, so the run was clean" → [zero can mean not run](memory/knowledge/feedback/zero-may-mean-not-run.md)
- "Which flags does the deploy script take" → [tools shelf](memory/knowledge/INDEX_tools.md)
"""

SHELF = """\
# Tools shelf

- "Which flags does the deploy script take" → [deploy flags](references/deploy-flags.md)
"""

FLAGS_NOTE = """\
---
name: deploy-flags
description: The deploy script's flags
metadata:
  type: reference
  updated: 2026-10-01
---

`--purge` clears the cache; `--dry-run` prints the plan.
"""


def association(src: str, dst: str, kind: str = "elaborates", **extra) -> dict:
    record = {
        "ts": "2026-01-03T14:30:00Z",
        "src": {"kind": "episode", "id": src},
        "dst": {"kind": "episode", "id": dst},
        "type": kind,
        "weight": 0.6,
    }
    record.update(extra)
    return record


def gish_files(episodes: int = 3) -> dict[str, str]:
    return {
        "MEMORY.md": MEMORY_MD,
        "memory/fact.yml": FACTS,
        "memory/episodic.jsonl": log(*(episode(n) for n in range(1, episodes + 1))),
        "memory/associations.jsonl": log(association("ep_00000002", "ep_00000001"), association("ep_00000003", "ep_00000001")),
        "memory/knowledge/feedback/verify-final-state.md": NOTE,
        "memory/knowledge/feedback/zero-may-mean-not-run.md": OTHER_NOTE,
        "memory/knowledge/INDEX_tools.md": SHELF,
        "memory/knowledge/references/deploy-flags.md": FLAGS_NOTE,
    }


@pytest.fixture
def gish(git_repo):
    """A committed gish workspace at the root of a real git repository."""
    return git_repo(gish_files())


def read(root: Path, relpath: str) -> str:
    return (root / relpath).read_bytes().decode("utf-8")


def write(root: Path, relpath: str, text: str | bytes) -> None:
    write_files(root, {relpath: text})


def drop_line(root: Path, relpath: str, number: int) -> str:
    lines = read(root, relpath).splitlines(keepends=True)
    removed = lines.pop(number - 1)
    write(root, relpath, "".join(lines))
    return removed


def check(cli, root: Path, *args: str):
    """Run the append-only rules through the CLI; returns (exit code, findings, result)."""
    result = cli("check", "--select", RULES, "--format", "json", *args, cwd=root)
    findings = result.json()["findings"] if result.stdout.strip().startswith("{") else []
    return result.exit_code, findings, result


def staged(cli, root: Path, *args: str):
    git(root, "add", "-A")
    return check(cli, root, "--staged", *args)


# -- episodes -------------------------------------------------------------------------


def test_a_deleted_episode_line_fails(gish, cli):
    drop_line(gish, "memory/episodic.jsonl", 2)
    code, findings, _ = staged(cli, gish)
    assert code == 1
    assert [(f["name"], f["code"], f["path"], f["line"]) for f in findings] == [
        ("deleted-record", "MW601", "memory/episodic.jsonl", 2)
    ]
    assert "ep_00000002" in findings[0]["message"] and "at HEAD" in findings[0]["message"]
    assert findings[0]["fix"]["applicability"] == "unsafe"


def test_without_staged_or_base_the_rules_have_nothing_to_compare(gish, cli):
    drop_line(gish, "memory/episodic.jsonl", 2)
    code, findings, _ = check(cli, gish)
    assert (code, findings) == (0, [])


def test_the_same_line_moved_to_the_archive_passes(gish, cli):
    moved = drop_line(gish, "memory/episodic.jsonl", 2)
    write(gish, "memory/_archive/episodic_consolidated.jsonl", moved)
    code, findings, _ = staged(cli, gish)
    assert (code, findings) == (0, [])


def test_a_line_deleted_from_the_archive_fails(git_repo, cli):
    root = git_repo({**gish_files(), "memory/_archive/episodic_consolidated.jsonl": log(episode(9))})
    write(root, "memory/_archive/episodic_consolidated.jsonl", "")
    code, findings, _ = staged(cli, root)
    assert code == 1
    assert [(f["name"], f["path"]) for f in findings] == [("deleted-record", "memory/_archive/episodic_consolidated.jsonl")]
    assert "ep_00000009" in findings[0]["message"] and "from the archive" in findings[0]["message"]


def test_marking_an_episode_archived_in_place_passes(gish, cli):
    records = [episode(1), episode(2, decay_status="archived"), episode(3, archived=True)]
    write(gish, "memory/episodic.jsonl", log(*records))
    code, findings, _ = staged(cli, gish)
    assert (code, findings) == (0, [])


def test_reordered_reindented_rekeyed_and_crlf_lines_pass(gish, cli):
    one, two, three = episode(1), episode(2), episode(3)
    reordered_keys = dict(reversed(list(two.items())))
    text = (
        json.dumps(three, indent=None, separators=(",", ":")) + "\r\n"
        + "  " + json.dumps(reordered_keys, indent=None) + "\r\n"
        + json.dumps(one) + "\r\n"
    )
    write(gish, "memory/episodic.jsonl", text)
    code, findings, _ = staged(cli, gish)
    assert (code, findings) == (0, [])


def test_a_log_rotated_into_an_archive_file_passes(gish, cli):
    (gish / "memory/_archive").mkdir()
    git(gish, "mv", "memory/episodic.jsonl", "memory/_archive/episodic-2026-01.jsonl")
    write(gish, "memory/episodic.jsonl", log(episode(4)))
    code, findings, _ = staged(cli, gish)
    assert (code, findings) == (0, [])


def test_consolidation_that_archives_its_sources_passes(gish, cli):
    sources = [episode(1), episode(2), episode(3)]
    merged = episode(
        100, type="knowledge_digest", title="Consolidation", content="Consolidated: 1; 2; 3",
        linked_to=[s["id"] for s in sources],
    )
    write(gish, "memory/_archive/episodic_consolidated.jsonl", log(*sources))
    write(gish, "memory/episodic.jsonl", log(merged))
    code, findings, _ = staged(cli, gish)
    assert (code, findings) == (0, [])


def test_consolidation_that_drops_its_sources_fails(gish, cli):
    merged = episode(100, type="knowledge_digest", content="Consolidated", linked_to=["ep_00000001", "ep_00000002"])
    write(gish, "memory/episodic.jsonl", log(episode(3), merged))
    code, findings, _ = staged(cli, gish)
    assert code == 1
    assert sorted(f["line"] for f in findings if f["name"] == "deleted-record") == [1, 2]


def test_an_episode_without_id_or_fingerprint_is_matched_by_content(git_repo, cli):
    records = [{"ts": "2026-01-01T00:00:00Z", "type": "decision", "summary": f"s{n}", "detail": "d", "tags": ["a", "b"]}
               for n in range(3)]
    root = git_repo({"memory/episodic.jsonl": log(*records), "memory/scratchpad.md": "notes\n"})
    write(root, "memory/episodic.jsonl", log(records[2], {**records[0], "archived": True}))
    code, findings, _ = staged(cli, root)
    assert code == 1
    assert [(f["name"], f["line"]) for f in findings] == [("deleted-record", 2)]
    assert "archived" in findings[0]["message"] and "true" in findings[0]["message"]


# -- rewritten records ----------------------------------------------------------------------


def test_an_episode_rewritten_in_place_fails_with_its_json_path(gish, cli):
    write(gish, "memory/episodic.jsonl", log(episode(1), episode(2, content="Something else entirely."), episode(3)))
    code, findings, _ = staged(cli, gish)
    assert code == 1
    assert [(f["name"], f["code"], f["line"], f["json_path"]) for f in findings] == [
        ("rewritten-record", "MW602", 2, "$.content")
    ]
    assert "fix" not in findings[0]


def test_fields_the_memory_system_updates_may_change(gish, cli):
    updated = episode(
        2, decay_status="fading", retrieval={"count": 4, "last_accessed": "2026-02-01T00:00:00Z", "strength": 0.8},
        quality={"score": 0.9}, linked_to=["ep_00000001"],
    )
    write(gish, "memory/episodic.jsonl", log(episode(1), updated, episode(3)))
    code, findings, _ = staged(cli, gish)
    assert (code, findings) == (0, [])


def test_mutable_fields_are_configurable(gish, cli):
    write(gish, ".memwarden.toml", '[rules.rewritten-record]\nmutable_fields = ["title"]\n')
    git(gish, "add", ".memwarden.toml")
    git(gish, "commit", "-q", "-m", "config")
    write(gish, "memory/episodic.jsonl", log(episode(1), episode(2, title="Renamed"), episode(3, retrieval={"count": 9})))
    code, findings, _ = staged(cli, gish)
    assert code == 1
    # title is mutable now; retrieval no longer is
    assert [(f["name"], f["line"], f["json_path"]) for f in findings] == [("rewritten-record", 3, "$.retrieval")]


def test_a_bad_mutable_fields_option_is_a_config_error(gish, cli):
    write(gish, ".memwarden.toml", '[rules.rewritten-record]\nmutable_fields = "title"\n')
    result = cli("check", "--staged", cwd=gish)
    assert result.exit_code == 2
    assert "mutable_fields" in result.stderr


# -- facts -------------------------------------------------------------------------------------


def test_a_removed_fact_key_fails(gish, cli):
    write(gish, "memory/fact.yml", FACTS.replace("  editor: vim\n", ""))
    code, findings, _ = staged(cli, gish)
    assert code == 1
    assert [(f["name"], f["path"], f["line"], f["json_path"]) for f in findings] == [
        ("deleted-record", "memory/fact.yml", 14, "$.preferences.editor")
    ]
    assert "archive:" in findings[0]["message"]


def test_a_fact_key_moved_under_archive_passes(gish, cli):
    text = FACTS.replace("  editor: vim\n", "").replace("archive: {}\n", "archive:\n  preferences:\n    editor: vim\n")
    write(gish, "memory/fact.yml", text)
    code, findings, _ = staged(cli, gish)
    assert (code, findings) == (0, [])


def test_a_removed_list_item_fails_and_reordering_passes(gish, cli):
    text = FACTS.replace('    - "Python"\n    - "Go"\n', '    - "Go"\n')
    write(gish, "memory/fact.yml", text)
    code, findings, _ = staged(cli, gish)
    assert code == 1
    assert [(f["line"], f["json_path"]) for f in findings] == [(12, "$.preferences.tech_stack[0]")]
    write(gish, "memory/fact.yml", FACTS.replace('    - "Python"\n    - "Go"\n', '    - "Go"\n    - "Python"\n'))
    code, findings, _ = staged(cli, gish)
    assert (code, findings) == (0, [])


def test_a_changed_fact_value_is_an_update_not_a_deletion(gish, cli):
    write(gish, "memory/fact.yml", FACTS.replace("editor: vim", "editor: emacs").replace('"2026-01-01"', '"2026-03-01"'))
    code, findings, _ = staged(cli, gish)
    assert (code, findings) == (0, [])


def test_three_layer_facts_marked_archived_pass_and_removed_fail(git_repo, cli):
    facts = "decisions:\n  db:\n    choice: postgres\n    why: joins\n  cache:\n    choice: redis\n"
    root = git_repo({"memory/fact.yml": facts, "memory/scratchpad.md": "x\n", "memory/fact_tools.yml": "git: {version: 2}\n"})
    write(root, "memory/fact.yml", facts.replace("    why: joins\n", "    why: joins\n    archived: true\n"))
    assert staged(cli, root)[:2] == (0, [])
    write(root, "memory/fact.yml", "decisions:\n  db:\n    choice: postgres\n    why: joins\n")
    git(root, "rm", "-q", "memory/fact_tools.yml")
    code, findings, _ = staged(cli, root)
    assert code == 1
    assert sorted((f["path"], f["json_path"]) for f in findings) == [
        ("memory/fact.yml", "$.decisions.cache.choice"),
        ("memory/fact_tools.yml", "$.git.version"),
    ]
    assert all("archived: true" in f["message"] for f in findings)


# -- index entries and associations -------------------------------------------------------------


def test_a_deleted_index_entry_fails(gish, cli):
    write(gish, "MEMORY.md", MEMORY_MD.replace(MEMORY_MD.splitlines()[3] + "\n", ""))
    code, findings, _ = staged(cli, gish)
    assert code == 1
    assert [(f["name"], f["path"], f["line"]) for f in findings] == [("deleted-record", "MEMORY.md", 4)]
    assert "zero-may-mean-not-run.md" in findings[0]["message"]


def test_an_index_entry_moved_to_a_shelf_or_reworded_passes(gish, cli):
    line = MEMORY_MD.splitlines()[3]
    write(gish, "MEMORY.md", MEMORY_MD.replace(line + "\n", ""))
    write(gish, "memory/knowledge/INDEX_tools.md",
          SHELF + '- "Zero errors, so it ran" → [zero](feedback/zero-may-mean-not-run.md)\n')
    assert staged(cli, gish)[:2] == (0, [])
    reworded = MEMORY_MD.replace('"The tool said it succeeded, so it is done"', '"It printed OK, so I am done"')
    write(gish, "MEMORY.md", reworded)
    write(gish, "memory/knowledge/INDEX_tools.md", SHELF)
    assert staged(cli, gish)[:2] == (0, [])


def test_a_deleted_association_fails_and_an_archived_one_passes(gish, cli):
    write(gish, "memory/associations.jsonl", log(association("ep_00000002", "ep_00000001")))
    code, findings, _ = staged(cli, gish)
    assert code == 1
    # the deleted last line: the finding points at the file's last line now, the message at the base's
    assert [(f["path"], f["line"]) for f in findings] == [("memory/associations.jsonl", 1)]
    assert "(line 2 at HEAD)" in findings[0]["message"]
    assert "episode:ep_00000003 -> episode:ep_00000001 (elaborates)" in findings[0]["message"]
    write(gish, "memory/associations.jsonl", log(
        association("ep_00000002", "ep_00000001", weight=0.9),
        association("ep_00000003", "ep_00000001", archived=True),
    ))
    assert staged(cli, gish)[:2] == (0, [])


# -- notes ----------------------------------------------------------------------------------------


def test_a_deleted_note_fails(gish, cli):
    git(gish, "rm", "-q", "memory/knowledge/feedback/zero-may-mean-not-run.md")
    code, findings, _ = staged(cli, gish)
    assert code == 1
    assert [(f["name"], f["code"], f["path"], f["line"]) for f in findings] == [
        ("deleted-note", "MW603", "memory/knowledge/feedback/zero-may-mean-not-run.md", 1)
    ]


def test_a_note_renamed_into_an_archive_folder_passes(gish, cli):
    (gish / "memory/_archive/notes").mkdir(parents=True)
    git(gish, "mv", "memory/knowledge/feedback/zero-may-mean-not-run.md", "memory/_archive/notes/zero-may-mean-not-run.md")
    assert staged(cli, gish)[:2] == (0, [])


def test_a_note_archived_by_a_gish_route_with_new_front_matter_passes(gish, cli):
    git(gish, "rm", "-q", "memory/knowledge/feedback/verify-final-state.md")
    routed = NOTE.replace("---\nname:", "---\ndate: 2026-11-01\nslug: verify-final-state\nname:", 1)
    write(gish, "memory/archive/legacy/2026-11-01-verify-final-state.md", routed)
    assert staged(cli, gish)[:2] == (0, [])


def test_a_note_moved_to_another_shelf_passes(gish, cli):
    (gish / "memory/knowledge/references").mkdir(exist_ok=True)
    git(gish, "mv", "memory/knowledge/feedback/zero-may-mean-not-run.md", "memory/knowledge/references/zero.md")
    assert staged(cli, gish)[:2] == (0, [])


def test_an_emptied_note_fails(gish, cli):
    write(gish, "memory/knowledge/feedback/verify-final-state.md", NOTE.split("\n---\n")[0] + "\n---\n")
    code, findings, _ = staged(cli, gish)
    assert code == 1
    assert [(f["name"], f["path"]) for f in findings] == [("deleted-note", "memory/knowledge/feedback/verify-final-state.md")]
    assert "emptied" in findings[0]["message"]
    write(gish, "memory/knowledge/feedback/verify-final-state.md", "")
    assert staged(cli, gish)[0] == 1


def test_an_edited_note_passes(gish, cli):
    write(gish, "memory/knowledge/feedback/verify-final-state.md", NOTE + "\nOne more line of advice.\n")
    assert staged(cli, gish)[:2] == (0, [])


# -- modes: --staged, --base, both; errors ------------------------------------------------------


def test_the_first_commit_of_a_repository_passes(git_repo, cli):
    root = git_repo()
    write_files(root, gish_files())
    code, findings, result = staged(cli, root)
    assert (code, findings) == (0, []), result


def test_staged_compares_the_index_not_the_working_tree(gish, cli):
    drop_line(gish, "memory/episodic.jsonl", 2)  # not staged
    assert check(cli, gish, "--staged")[:2] == (0, [])
    code, findings, _ = check(cli, gish, "--base", "HEAD")  # the working tree
    assert code == 1 and [f["line"] for f in findings] == [2]


def test_base_compares_the_working_tree_with_a_ref(gish, cli):
    git(gish, "checkout", "-q", "-b", "feature")
    drop_line(gish, "memory/episodic.jsonl", 3)
    git(gish, "commit", "-q", "-am", "drop one")
    code, findings, _ = check(cli, gish, "--base", "main")
    assert code == 1 and [(f["line"], "ep_00000003" in f["message"]) for f in findings] == [(2, True)]
    assert "(line 3 at main)" in findings[0]["message"]


def test_base_uses_the_merge_base_so_records_added_on_the_base_branch_are_not_losses(gish, cli):
    git(gish, "checkout", "-q", "-b", "feature")
    git(gish, "checkout", "-q", "main")
    write(gish, "memory/episodic.jsonl", read(gish, "memory/episodic.jsonl") + log(episode(4)))
    git(gish, "commit", "-q", "-am", "main grows")
    git(gish, "checkout", "-q", "feature")
    assert check(cli, gish, "--base", "main")[:2] == (0, [])


def test_base_and_staged_together_compare_the_index_with_the_ref(gish, cli):
    git(gish, "checkout", "-q", "-b", "feature")
    drop_line(gish, "memory/episodic.jsonl", 1)
    git(gish, "commit", "-q", "-am", "drop one")
    write(gish, "memory/episodic.jsonl", log(episode(1), episode(2), episode(3)))  # back, unstaged
    code, findings, _ = check(cli, gish, "--base", "main", "--staged")
    assert code == 1 and [f["line"] for f in findings] == [1]
    assert check(cli, gish, "--base", "main")[:2] == (0, [])


def test_a_missing_base_is_an_error_with_a_hint(gish, cli):
    result = cli("check", "--select", RULES, "--base", "origin/nope", cwd=gish)
    assert result.exit_code == 2
    assert "origin/nope" in result.stderr and "fetch-depth: 0" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_a_shallow_ci_clone_without_the_base_is_an_error_with_exit_2(gish, tmp_path):
    for n in (4, 5):
        write(gish, "memory/episodic.jsonl", read(gish, "memory/episodic.jsonl") + log(episode(n)))
        git(gish, "commit", "-q", "-am", f"add {n}")
    clone = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{gish}", str(clone))
    assert git(clone, "rev-parse", "--is-shallow-repository").strip() == "true"
    done = run_memwarden("check", "--select", RULES, "--base", "HEAD~2", cwd=clone)
    stderr = done.stderr.decode()
    assert done.returncode == 2, stderr
    assert "shallow" in stderr and "git fetch --unshallow" in stderr and "fetch-depth: 0" in stderr
    assert "Traceback" not in stderr
    git(clone, "fetch", "-q", "--unshallow")
    done = run_memwarden("check", "--select", RULES, "--base", "HEAD~2", cwd=clone)
    assert done.returncode == 0, done.stderr.decode()


def test_not_a_git_repository_is_an_error_with_exit_2(workspace, cli):
    root = workspace(gish_files())
    for flags in (["--staged"], ["--base", "main"]):
        result = cli("check", "--select", RULES, *flags, cwd=root)
        assert result.exit_code == 2
        assert "not inside a git working tree" in result.stderr
    assert cli("check", "--select", RULES, cwd=root).exit_code == 0


def test_a_workspace_in_a_subfolder_with_glob_characters_in_its_name(git_repo, cli):
    sub = "agents/mem*[1]"
    root = git_repo({f"{sub}/{path}": text for path, text in gish_files().items()})
    drop_line(root / sub, "memory/episodic.jsonl", 1)
    git(root, "add", "-A")
    code, findings, _ = check(cli, root / sub, "--staged")
    assert code == 1
    assert [(f["path"], f["line"]) for f in findings] == [("memory/episodic.jsonl", 1)]
    code, findings, _ = check(cli, root, "--staged")  # from the repository root: the workspace is found below
    assert code == 1 and findings[0]["path"] == f"{sub}/memory/episodic.jsonl"


def test_the_hook_command_line_blocks_a_deletion(gish):
    """The `memwarden-append-only` hook: what pre-commit runs, as a separate process, no file names."""
    git(gish, "rm", "-q", "memory/knowledge/references/deploy-flags.md")
    done = run_memwarden("check", "--staged", "--select", RULES, cwd=gish)
    out = done.stdout.decode()
    assert done.returncode == 1
    assert "memory/knowledge/references/deploy-flags.md:1:1: MW603 deleted-note" in out


# -- scale ------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["--staged", "--base"])
def test_ten_thousand_record_logs_with_one_deletion_are_caught(git_repo, cli, mode):
    records = [episode(n) for n in range(1, 10_001)]
    root = git_repo({"memory/episodic.jsonl": log(*records), "memory/fact.yml": FACTS})
    write(root, "memory/_archive/episodic_consolidated.jsonl", log(*(episode(n) for n in range(20_001, 30_001))))
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "archive")
    drop_line(root, "memory/episodic.jsonl", 7_321)
    args = ["--staged"] if mode == "--staged" else ["--base", "HEAD"]
    if mode == "--staged":
        git(root, "add", "-A")
    code, findings, _ = check(cli, root, *args)
    assert code == 1
    assert [(f["line"], "ep_00007321" in f["message"]) for f in findings] == [(7_321, True)]


def test_many_losses_in_one_file_are_summarised(git_repo, cli):
    root = git_repo({"memory/episodic.jsonl": log(*(episode(n) for n in range(1, 251))), "memory/fact.yml": FACTS})
    write(root, "memory/episodic.jsonl", "")
    code, findings, _ = staged(cli, root)
    assert code == 1
    assert len(findings) == 101
    assert any("150 more lost records" in f["message"] for f in findings)


# -- the unsafe fix ------------------------------------------------------------------------------


def _delete_one_of_everything(root: Path) -> None:
    drop_line(root, "memory/episodic.jsonl", 2)
    drop_line(root, "memory/associations.jsonl", 1)
    write(root, "memory/fact.yml", read(root, "memory/fact.yml").replace("  editor: vim\n", ""))
    write(root, "MEMORY.md", MEMORY_MD.replace(MEMORY_MD.splitlines()[2] + "\n", ""))
    (root / "memory/knowledge/feedback/zero-may-mean-not-run.md").unlink()


def test_the_unsafe_fix_restores_everything_marked_archived_and_is_idempotent(gish, cli):
    _delete_one_of_everything(gish)
    code, findings, _ = check(cli, gish, "--base", "HEAD")
    assert code == 1 and len(findings) == 5
    assert all(f["fix"]["applicability"] == "unsafe" for f in findings)

    result = cli("check", "--select", RULES, "--base", "HEAD", "--fix", cwd=gish)  # safe fixes only: nothing moves
    assert result.exit_code == 1 and not (gish / "memory/_archive").exists()

    result = cli("check", "--select", RULES, "--base", "HEAD", "--fix", "--unsafe-fixes", cwd=gish)
    assert result.exit_code == 0, result
    restored = [json.loads(line) for line in read(gish, "memory/_archive/restored.jsonl").splitlines()]
    assert [(r["id"], r["decay_status"]) for r in restored] == [("ep_00000002", "archived")]
    assert {k: v for k, v in restored[0].items() if k != "decay_status"} == {
        k: v for k, v in episode(2).items() if k != "decay_status"
    }
    associations = [json.loads(line) for line in read(gish, "memory/associations.jsonl").splitlines()]
    assert associations[-1]["archived"] is True and associations[-1]["src"]["id"] == "ep_00000002"
    facts = read(gish, "memory/fact.yml")
    assert '  name: "Agent"   # what the user calls it\n' in facts  # comments and quoting survive
    assert "archive:\n  restored-" in facts and "editor: \"vim\"" in facts
    assert read(gish, "memory/_archive/notes/knowledge/feedback/zero-may-mean-not-run.md") == OTHER_NOTE
    index = read(gish, "memory/_archive/INDEX_restored.md")
    assert "[verify the final state](../knowledge/feedback/verify-final-state.md)" in index

    snapshot = {p: p.read_bytes() for p in gish.rglob("*") if p.is_file() and ".git" not in p.parts}
    result = cli("check", "--select", RULES, "--base", "HEAD", "--fix", "--unsafe-fixes", cwd=gish)
    assert result.exit_code == 0
    assert {p: p.read_bytes() for p in gish.rglob("*") if p.is_file() and ".git" not in p.parts} == snapshot
    # and the whole restored workspace still parses: no other rule reports a broken file
    result = cli("check", "--select", "unparsable-file,duplicate-key,malformed-jsonl", cwd=gish)
    assert result.exit_code == 0, result.stdout


def test_unsafe_fixes_alone_writes_nothing_it_only_widens_fix_or_diff(gish, cli):
    _delete_one_of_everything(gish)
    snapshot = {p: p.read_bytes() for p in gish.rglob("*") if p.is_file() and ".git" not in p.parts}
    result = cli("check", "--select", RULES, "--base", "HEAD", "--unsafe-fixes", cwd=gish)
    assert result.exit_code == 1 and "Fixing" not in result.stderr
    assert "[*]" in result.stdout  # the findings say the fix is available at this level
    assert {p: p.read_bytes() for p in gish.rglob("*") if p.is_file() and ".git" not in p.parts} == snapshot
    assert not (gish / "memory/_archive").exists()


def test_the_fix_keeps_crlf_in_files_it_appends_to(git_repo, cli):
    files = gish_files()
    files["memory/associations.jsonl"] = files["memory/associations.jsonl"].replace("\n", "\r\n")
    root = git_repo(files)
    write(root, "memory/associations.jsonl", log(association("ep_00000002", "ep_00000001"), newline="\r\n"))
    result = cli("check", "--select", RULES, "--base", "HEAD", "--fix", "--unsafe-fixes", cwd=root)
    assert result.exit_code == 0, result
    raw = (root / "memory/associations.jsonl").read_bytes()
    assert raw.count(b"\r\n") == 2 and raw.count(b"\n") == 2


def test_in_staged_mode_the_fix_writes_the_working_tree_and_asks_for_git_add(gish, cli):
    _delete_one_of_everything(gish)
    git(gish, "add", "-A")
    result = cli("check", "--select", RULES, "--staged", "--fix", "--unsafe-fixes", cwd=gish)
    assert result.exit_code == 1  # the index still lacks them
    assert "git add" in result.stdout and "Fixing memory/_archive/restored.jsonl" in result.stderr
    again = cli("check", "--select", RULES, "--staged", "--fix", "--unsafe-fixes", cwd=gish)
    assert "Fixing" not in again.stderr  # nothing restored twice
    assert read(gish, "memory/_archive/restored.jsonl").count("ep_00000002") == 1
    git(gish, "add", "-A")
    assert staged(cli, gish)[:2] == (0, [])


def test_the_fix_restores_a_claude_code_note(git_repo, cli):
    root = git_repo({
        "MEMORY.md": "- [Foo](foo.md) — why foo matters\n",
        "foo.md": "---\nname: foo\ndescription: d\ntype: user\n---\nThe user prefers foo.\n",
    })
    git(root, "rm", "-q", "foo.md")
    result = cli("check", "--select", RULES, "--staged", "--fix", "--unsafe-fixes", cwd=root)
    assert "Fixing _archive/notes/foo.md" in result.stderr
    assert read(root, "_archive/notes/foo.md").endswith("The user prefers foo.\n")
    git(root, "add", "-A")
    assert staged(cli, root)[:2] == (0, [])


def test_the_restore_fix_does_not_double_the_notes_folder(git_repo, cli):
    """Issue 13.5: a three-layer memory/notes/x.md came back as memory/_archive/notes/notes/x.md."""
    note = "---\nname: deploy\ndescription: d\n---\n\nThe deploy needs the flag.\n"
    root = git_repo({"memory/scratchpad.md": "x\n", "memory/notes/deploy.md": note,
                     "memory/_archive/notes/old.md": note.replace("deploy", "old")})
    git(root, "rm", "-q", "memory/notes/deploy.md", "memory/_archive/notes/old.md")
    result = cli("check", "--select", RULES, "--staged", "--fix", "--unsafe-fixes", cwd=root)
    assert "Fixing memory/_archive/notes/deploy.md" in result.stderr
    assert read(root, "memory/_archive/notes/deploy.md") == note
    assert read(root, "memory/_archive/notes/old.md") == note.replace("deploy", "old")
    assert not (root / "memory/_archive/notes/notes").exists()
    git(root, "add", "-A")
    assert staged(cli, root)[:2] == (0, [])


def test_a_diff_shows_the_restoration_and_writes_nothing(gish, cli):
    drop_line(gish, "memory/episodic.jsonl", 1)
    result = cli("check", "--select", RULES, "--base", "HEAD", "--diff", "--unsafe-fixes", cwd=gish)
    assert result.exit_code == 1
    assert "+++ b/memory/_archive/restored.jsonl" in result.stdout and '"decay_status": "archived"' in result.stdout
    assert not (gish / "memory/_archive").exists()


def test_three_layer_facts_and_episodes_are_restored_with_archived_true(git_repo, cli):
    records = [{"ts": "2026-01-01T00:00:00Z", "type": "decision", "summary": f"s{n}", "detail": "d", "tags": ["a", "b"]}
               for n in range(2)]
    facts = "# domain facts\ndecisions:\n  db: postgres\n  cache: redis\n"
    root = git_repo({"memory/episodic.jsonl": log(*records), "memory/fact.yml": facts, "memory/scratchpad.md": "x\n"})
    write(root, "memory/episodic.jsonl", log(records[0]))
    write(root, "memory/fact.yml", facts.replace("  cache: redis\n", ""))
    result = cli("check", "--select", RULES, "--base", "HEAD", "--fix", "--unsafe-fixes", cwd=root)
    assert result.exit_code == 0, result
    assert json.loads(read(root, "memory/_archive/restored.jsonl"))["archived"] is True
    text = read(root, "memory/fact.yml")
    assert text.startswith("# domain facts\ndecisions:\n  db: postgres\n") and "  archived: true\n" in text


def test_a_deleted_episode_without_an_id_is_named_by_its_summary(git_repo, cli):
    """Issue 13.5: a three-layer episode (no id) was reported as 'the record'."""
    records = [{"ts": f"2026-01-0{n}T00:00:00Z", "type": "decision", "summary": summary, "detail": "d", "tags": ["a", "b"]}
               for n, summary in ((1, "chose postgres"), (2, "cache   in\nredis"))]
    root = git_repo({"memory/episodic.jsonl": log(*records), "memory/scratchpad.md": "x\n"})
    write(root, "memory/episodic.jsonl", log(records[0]))
    code, findings, _ = check(cli, root, "--base", "HEAD")
    assert code == 1
    assert [f["message"].split(" (line")[0] for f in findings] == ["episode 'cache in redis'"]


def test_a_fact_file_that_no_longer_parses_is_reported_not_crashed_on(gish, cli):
    write(gish, "memory/fact.yml", FACTS.replace('  name: "Agent"', '  name: "Agent'))
    code, findings, result = staged(cli, gish)
    assert code == 1
    assert findings and all("cannot be read now" in f["message"] for f in findings)
    assert "Traceback" not in result.stderr


# -- the comparison's shortcuts give the same answers as reading everything --------------------

_lines = st.lists(st.sampled_from(["{}", '{"a": 1}', '{"a": 2}', "x", "", " y ", "\r"]), max_size=12)


@settings(max_examples=400, deadline=None)
@given(_lines, _lines, st.booleans(), st.booleans())
def test_the_lines_outside_the_differing_span_are_the_same_in_both_texts(old_lines, new_lines, old_end, new_end):
    old = "\n".join(old_lines) + ("\n" if old_end else "")
    new = "\n".join(new_lines) + ("\n" if new_end else "")
    (old_start, old_stop), (new_start, new_stop) = textdiff.differing_lines(old, new)
    assert old_start == new_start and old[:old_start] == new[:new_start]
    assert old[old_stop:] == new[new_stop:]
    assert old_start <= old_stop and new_start <= new_stop
    for text, start, stop in ((old, old_start, old_stop), (new, new_start, new_stop)):
        assert start == 0 or text[start - 1] == "\n"  # whole lines only
        assert stop in (0, len(text)) or text[stop - 1] == "\n"
    if old == new:
        assert old[old_start:old_stop] == new[new_start:new_stop]


@pytest.mark.parametrize("budget", [textdiff.SEARCH_BUDGET, 0], ids=["targeted", "read-everything"])
def test_the_targeted_search_and_reading_everything_agree(gish, cli, monkeypatch, budget):
    monkeypatch.setattr(textdiff, "SEARCH_BUDGET", budget)
    many = [episode(n) for n in range(1, 60)]
    write(gish, "memory/episodic.jsonl", log(*many))
    git(gish, "commit", "-q", "-am", "more")
    archived = many.pop(10)
    deleted = many.pop(20)
    many[30] = {**many[30], "content": "rewritten"}
    many.reverse()
    write(gish, "memory/episodic.jsonl", log(*many, newline="\r\n"))
    write(gish, "memory/_archive/old.jsonl", json.dumps(archived, indent=None, separators=(",", ":")) + "\n")
    code, findings, _ = staged(cli, gish)
    assert code == 1
    assert sorted((f["name"], deleted["id"] in f["message"]) for f in findings) == [
        ("deleted-record", True), ("rewritten-record", False)
    ]
    assert [f["json_path"] for f in findings if f["name"] == "rewritten-record"] == ["$.content"]


@pytest.mark.parametrize("data", [b"", b"x", b'{"id": 1}\r\n', "記憶\n".encode("utf-8"), b"\xef\xbb\xbfbom\n"])
def test_blob_ids_are_the_ones_git_gives(tmp_path, data):
    path = tmp_path / "blob"
    path.write_bytes(data)
    assert snapshots.blob_id(data) == git(tmp_path, "hash-object", "--no-filters", str(path)).strip()


def test_memwardens_own_safe_fixes_are_not_rewrites(git_repo, cli):
    """Adding `expires` and normalising tags (the claims and tags fixes) keep an episode the same episode."""
    import json as _json

    episode = {
        "id": "ep_1", "ts": "2026-01-01T00:00:00Z", "type": "discovery", "title": "Export",
        "content": "The export API does not support batch export.", "tags": [" Export", "api", "API"],
        "importance": 5, "fingerprint": "d" * 64, "decay_status": "active", "retrieval": {"count": 0},
    }
    root = git_repo({
        "MEMORY.md": "# Memory\n",
        "memory/fact.yml": "identity:\n  name: A\n",
        "memory/episodic.jsonl": _json.dumps(episode) + "\n",
    })
    fixed = cli("check", "--fix", "--today", "2026-06-01", ".", cwd=root)
    after = _json.loads((root / "memory" / "episodic.jsonl").read_text())
    assert after["tags"] == ["export", "api"] and after["expires"], fixed
    result = cli("check", "--base", "HEAD", "--select", "MW6", "--format", "json", ".", cwd=root)
    assert result.json()["findings"] == [], result.stdout
    # a real rewrite is still caught
    after["content"] = "The export API supports batch export."
    (root / "memory" / "episodic.jsonl").write_text(_json.dumps(after) + "\n")
    result = cli("check", "--base", "HEAD", "--select", "MW6", "--format", "json", ".", cwd=root)
    assert [f["name"] for f in result.json()["findings"]] == ["rewritten-record"]


# -- a base that cannot be parsed is compared line by line (issue 11, item 9) ------------------


def test_a_base_fact_file_that_does_not_parse_is_compared_line_by_line(git_repo, cli):
    broken = "tools:\n  gh: [unclosed\n  deploy: the deploy key lives in the vault\n  ci: runs on push\n"
    root = git_repo({"memory/scratchpad.md": "x\n", "memory/fact.yml": broken})
    # fixing the syntax error keeps every key: nothing is lost
    write(root, "memory/fact.yml", broken.replace("[unclosed", "[closed]"))
    code, findings, _ = staged(cli, root)
    assert (code, findings) == (0, [])
    # dropping a line of it is found, as that line
    write(root, "memory/fact.yml", broken.replace("  ci: runs on push\n", ""))
    code, findings, _ = staged(cli, root)
    assert code == 1 and [(f["name"], f["path"]) for f in findings] == [("deleted-record", "memory/fact.yml")]
    assert "line 4 " in findings[0]["message"] and "did not parse" in findings[0]["message"]
    assert "fix" not in findings[0]  # the restore fix cannot put such a line back


def test_a_base_note_that_is_not_utf8_is_still_a_note(gish, cli):
    write(gish, "memory/knowledge/feedback/verify-final-state.md", NOTE.encode("utf-8") + "caf\xe9\n".encode("latin-1"))
    git(gish, "commit", "-qam", "latin-1 byte")
    (gish / "memory/knowledge/feedback/verify-final-state.md").unlink()
    code, findings, _ = staged(cli, gish)
    assert code == 1 and "deleted-note" in {f["name"] for f in findings}


def test_a_log_with_an_invalid_byte_on_both_sides_reports_only_the_deleted_line(gish, cli):
    lines = read(gish, "memory/episodic.jsonl").splitlines(keepends=True)
    raw = [line.encode("utf-8") for line in lines]
    raw[0] = raw[0].replace(b"thing 1", b"caf\xe9 1")
    write(gish, "memory/episodic.jsonl", b"".join(raw))
    git(gish, "commit", "-qam", "latin-1 byte")
    write(gish, "memory/episodic.jsonl", raw[0] + raw[2])
    code, findings, _ = staged(cli, gish)
    assert code == 1
    assert [(f["name"], f["line"]) for f in findings] == [("deleted-record", 2)]
    assert "ep_00000002" in findings[0]["message"]


# -- records that share an id (issue 11, item 10) -----------------------------------------------


def test_of_two_records_sharing_an_id_the_other_one_rewritten_is_a_rewrite(git_repo, cli):
    first, second = episode(1, title="first"), episode(1, title="second")
    root = git_repo({"memory/scratchpad.md": "x\n", "memory/episodic.jsonl": log(first, second, episode(3))})
    write(root, "memory/episodic.jsonl", log(first, episode(1, title="second, edited"), episode(3)))
    code, findings, _ = staged(cli, root)
    assert code == 1 and [(f["name"], f["line"]) for f in findings] == [("rewritten-record", 2)]
    # deleting the first of the two is a deletion too
    write(root, "memory/episodic.jsonl", log(second, episode(3)))
    code, findings, _ = staged(cli, root)
    assert code == 1 and [(f["name"], f["line"]) for f in findings] == [("deleted-record", 1)]

"""`memwarden history --base REF`: naming the commit that deleted what, on real git repositories."""

from __future__ import annotations

import json

import pytest

from conftest import git, run_memwarden, write_files
from test_append_only import FACTS, episode, gish_files, log


def commit(root, message: str, files: dict | None = None, remove: tuple = ()) -> str:
    if files:
        write_files(root, files)
    for relpath in remove:
        git(root, "rm", "-q", relpath)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)
    return git(root, "rev-parse", "--short", "HEAD").strip()


@pytest.fixture
def repo(git_repo):
    root = git_repo(gish_files())
    git(root, "tag", "base")
    return root


def test_history_names_the_commit_that_deleted_each_record(repo, cli):
    commit(repo, "Add an episode", {"memory/episodic.jsonl": log(*(episode(n) for n in range(1, 5)))})
    culprit = commit(repo, "Tidy the log", {"memory/episodic.jsonl": log(episode(1), episode(3), episode(4))})
    note_culprit = commit(repo, "Remove a stale note", remove=("memory/knowledge/feedback/zero-may-mean-not-run.md",))
    commit(repo, "Unrelated", {"memory/fact.yml": FACTS.replace("editor: vim", "editor: emacs")})

    result = cli("history", "--base", "base", cwd=repo)
    assert result.exit_code == 1, result
    lines = result.stdout.splitlines()
    assert f"{culprit} Tidy the log" in lines
    assert f"{note_culprit} Remove a stale note" in lines
    episode_line = lines[lines.index(f"{culprit} Tidy the log") + 1]
    assert "memory/episodic.jsonl:2:1: MW601 deleted-record episode 'ep_00000002'" in episode_line
    note_line = lines[lines.index(f"{note_culprit} Remove a stale note") + 1]
    assert "MW603 deleted-note" in note_line
    assert "Add an episode" not in result.stdout and "Unrelated" not in result.stdout
    assert "Found 2 records lost at HEAD" in lines[-1] and "4 commits" in lines[-1] and "first-parent" in lines[-1]


def test_history_json_lists_every_commit_with_its_findings(repo, cli):
    first = commit(repo, "Drop ep 3", {"memory/episodic.jsonl": log(episode(1), episode(2))})
    result = cli("history", "--base", "base", "--format", "json", cwd=repo)
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["version"] == 1 and data["first_parent"] is True
    assert data["summary"] == {"commits": 1, "deletions": 1, "lost": 1, "exit_code": 1}
    (ws,) = data["workspaces"]
    (only,) = ws["commits"]
    assert (only["short"], only["subject"]) == (first, "Drop ep 3")
    (finding,) = only["findings"]
    assert finding["name"] == "deleted-record" and finding["code"] == "MW601"
    assert finding["key"] == "record:id:ep_00000003" and finding["lost_at_head"] is True


def test_a_deletion_archived_later_is_shown_but_does_not_fail(repo, cli):
    removed = log(episode(2))
    commit(repo, "Drop ep 2", {"memory/episodic.jsonl": log(episode(1), episode(3))})
    commit(repo, "Archive ep 2 after all", {"memory/_archive/episodic_consolidated.jsonl": removed})
    result = cli("history", "--base", "base", cwd=repo)
    assert result.exit_code == 0, result
    assert "Drop ep 2" in result.stdout and "[restored or archived later]" in result.stdout
    assert "Nothing is lost at HEAD" in result.stdout


def test_archiving_in_the_same_commit_is_not_a_deletion(repo, cli):
    commit(repo, "Archive properly", {
        "memory/episodic.jsonl": log(episode(1), episode(3)),
        "memory/_archive/episodic_consolidated.jsonl": log(episode(2)),
    })
    result = cli("history", "--base", "base", cwd=repo)
    assert result.exit_code == 0
    assert "No record was deleted without being archived (1 commit since base checked, first-parent)." in result.stdout


def test_history_walks_first_parents_and_blames_the_merge_for_a_side_branch(repo, cli):
    git(repo, "checkout", "-q", "-b", "side")
    commit(repo, "Side drops ep 1", {"memory/episodic.jsonl": log(episode(2), episode(3))})
    git(repo, "checkout", "-q", "main")
    commit(repo, "Main grows", {"memory/episodic.jsonl": log(*(episode(n) for n in range(1, 5)))})
    git(repo, "merge", "-q", "--no-edit", "-X", "theirs", "side")
    merge = git(repo, "rev-parse", "--short", "HEAD").strip()
    data = json.loads(cli("history", "--base", "base", "--format", "json", cwd=repo).stdout)
    subjects = [c["subject"] for c in data["workspaces"][0]["commits"]]
    assert "Side drops ep 1" not in subjects  # not on the first-parent line
    blamed = [c for c in data["workspaces"][0]["commits"] if c["findings"]]
    assert [c["short"] for c in blamed] == [merge]
    assert data["summary"]["lost"] == 1


def test_history_of_a_workspace_in_a_subfolder(git_repo, cli):
    root = git_repo({f"team/{p}": t for p, t in gish_files().items()})
    git(root, "tag", "base")
    culprit = commit(root, "Drop ep 1", {"team/memory/episodic.jsonl": log(episode(2), episode(3))})
    result = cli("history", "--base", "base", "team", cwd=root)
    assert result.exit_code == 1
    assert f"{culprit} Drop ep 1" in result.stdout and "team/memory/episodic.jsonl:1:1" in result.stdout


def test_history_errors_exit_2_without_a_traceback(repo, workspace, cli):
    result = cli("history", "--base", "no-such-ref", cwd=repo)
    assert result.exit_code == 2 and "fetch-depth: 0" in result.stderr
    plain = workspace(gish_files())
    result = cli("history", "--base", "main", cwd=plain)
    assert result.exit_code == 2 and "not inside a git working tree" in result.stderr
    result = cli("history", cwd=repo)
    assert result.exit_code == 2 and "--base" in result.stderr  # click: the option is required


def test_history_in_a_shallow_clone_is_an_error_with_a_hint(repo, tmp_path):
    commit(repo, "one more", {"memory/episodic.jsonl": log(*(episode(n) for n in range(1, 5)))})
    clone = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(clone))
    done = run_memwarden("history", "--base", "HEAD~1", cwd=clone)
    assert done.returncode == 2
    stderr = done.stderr.decode()
    assert "shallow" in stderr and "--unshallow" in stderr and "Traceback" not in stderr

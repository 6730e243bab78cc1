"""A commit cannot switch off its own append-only check by changing memwarden's configuration in the same
commit: `check --staged` and `--base` also judge the append-only rules under the configuration at the base."""

from __future__ import annotations

import pytest

from conftest import git
from test_append_only import check, drop_line, gish_files, staged, write

SWITCHES = {
    "exclude": 'exclude = ["memory/episodic.jsonl"]\n',
    "per-file-ignores": '[per-file-ignores]\n"memory/episodic.jsonl" = ["deleted-record"]\n',
    "ignore against --select": 'ignore = ["deleted-record"]\n',
    "profile": 'profile = "claude-code"\n',
    "kinds globs": '[kinds.episodic]\nglobs = ["nowhere/*.jsonl"]\n',
}


def deleted(findings) -> list[tuple]:
    return [(f["name"], f["path"], f["line"]) for f in findings if f["name"] == "deleted-record"]


@pytest.mark.parametrize("switch", list(SWITCHES))
def test_a_config_change_staged_with_a_deletion_does_not_hide_it(git_repo, cli, switch):
    root = git_repo(gish_files())
    drop_line(root, "memory/episodic.jsonl", 2)
    write(root, ".memwarden.toml", SWITCHES[switch])
    code, findings, result = staged(cli, root)
    assert code == 1, result.output
    assert deleted(findings) == [("deleted-record", "memory/episodic.jsonl", 2)]
    assert "configuration at HEAD" in result.stderr


@pytest.mark.parametrize("switch", ["exclude", "ignore against --select"])
def test_a_config_change_in_a_branch_does_not_hide_its_deletion_from_base(git_repo, cli, switch):
    root = git_repo(gish_files())
    git(root, "checkout", "-q", "-b", "topic")
    drop_line(root, "memory/episodic.jsonl", 2)
    (root / "pyproject.toml").write_text('[project]\nname = "m"\n\n[tool.memwarden]\n' + SWITCHES[switch],
                                         encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "tidy memory")
    code, findings, result = check(cli, root, "--base", "main")
    assert code == 1, result.output
    assert deleted(findings) == [("deleted-record", "memory/episodic.jsonl", 2)]


def test_a_configuration_already_at_the_base_is_the_one_that_judges(git_repo, cli):
    root = git_repo({**gish_files(), ".memwarden.toml": SWITCHES["exclude"]})
    drop_line(root, "memory/episodic.jsonl", 2)
    code, findings, result = staged(cli, root)
    assert (code, findings) == (0, []), result.output
    assert "configuration" not in result.stderr

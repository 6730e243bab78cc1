"""A finding anchored at two files (issue 27, part 4): conflicting-instructions (MW417) at its first file, the
other file's line a related location, through the target filter, suppression, the store and every reporter."""

from __future__ import annotations

import json

from jsonschema import Draft4Validator

from conftest import FIXTURES

SARIF_SCHEMA = json.loads((FIXTURES / "sarif-schema-2.1.0.json").read_text("utf-8"))
TOKEN = "ghp_" + "R4nd0mT0k3nV4lu3AbCdEfGhIjKlMnOpQr" + "12"
# AGENTS.md comes first by path: the finding is there, CLAUDE.md's line its related location.
FILES = {"CLAUDE.md": "# Project\n\nRun the tests with `npm test`.\n", "AGENTS.md": "Tests: `pnpm test`.\n"}
MESSAGE = "test command: this file says 'pnpm test', CLAUDE.md:3 says 'npm test'; the agent gets both, settle on one"


def check(cli, root, *args: str):
    return cli("check", *args, "--select", "MW417", cwd=root)


def test_a_check_of_either_file_alone_reports_the_finding_at_its_first_file(git_repo, cli):
    root = git_repo(FILES)
    for target in ("AGENTS.md", "CLAUDE.md", "."):
        data = check(cli, root, target, "--format", "json", "--no-cache").json()
        assert [(f["path"], f["line"], f["column"], f["message"], f["related"]) for f in data["findings"]] == [
            ("AGENTS.md", 1, 9, MESSAGE, [{"path": "CLAUDE.md", "line": 3, "column": 21, "label": "the other value"}])
        ], target


def test_a_file_that_is_neither_leaves_it_out(git_repo, cli):
    root = git_repo({**FILES, "MEMORY.md": "# Memory\n"})
    assert check(cli, root, "MEMORY.md", "--format", "json", "--no-cache").json()["findings"] == []


def test_text_prints_the_related_place_on_a_line_of_its_own(git_repo, cli):
    root = git_repo(FILES)
    lines = check(cli, root, "CLAUDE.md", "--no-cache").stdout.splitlines()
    assert lines[:2] == [f"AGENTS.md:1:9: MW417 conflicting-instructions {MESSAGE}",
                         "  also at CLAUDE.md:3:21 (the other value)"]


def test_a_directive_at_the_first_file_suppresses_it_one_at_the_other_does_not(git_repo, cli):
    directive = "<!-- memwarden: disable-next-line=conflicting-instructions -->\n"
    at_other = git_repo({**FILES, "CLAUDE.md": "# Project\n\n" + directive + "Run the tests with `npm test`.\n"},
                        name="at-other")
    assert len(check(cli, at_other, ".", "--format", "json", "--no-cache").json()["findings"]) == 1
    at_first = git_repo({**FILES, "AGENTS.md": directive + "Tests: `pnpm test`.\n"}, name="at-first")
    assert check(cli, at_first, "CLAUDE.md", "--format", "json", "--no-cache").json()["findings"] == []


def test_a_cached_run_prints_what_an_uncached_one_prints(git_repo, cli):
    root = git_repo(FILES)
    for target in ("AGENTS.md", "CLAUDE.md", "."):
        for fmt in ("json", "text", "sarif"):
            uncached = check(cli, root, target, "--format", fmt, "--no-cache").stdout
            filled = check(cli, root, target, "--format", fmt).stdout
            served = check(cli, root, target, "--format", fmt).stdout
            assert uncached == filled == served, (target, fmt)
    assert (root / ".memwarden_cache").exists(), "the store was not written"


def test_sarif_links_the_message_to_a_related_location_and_is_valid(git_repo, cli):
    root = git_repo(FILES)
    log = json.loads(check(cli, root, "CLAUDE.md", "--format", "sarif", "--no-cache").stdout)
    assert not list(Draft4Validator(SARIF_SCHEMA).iter_errors(log))
    (result,) = log["runs"][0]["results"]
    assert result["message"]["text"] == f"conflicting-instructions: {MESSAGE} ([the other value](1))"
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "AGENTS.md"
    assert result["relatedLocations"] == [{
        "id": 1, "message": {"text": "the other value"},
        "physicalLocation": {"artifactLocation": {"uri": "CLAUDE.md", "uriBaseId": "%SRCROOT%"},
                             "region": {"startLine": 3, "startColumn": 21}},
    }]


def test_sarif_escapes_a_messages_own_square_brackets(workspace, cli):
    # A quoted Markdown link is no link of the report's (SARIF 2.1.0, 3.11.6).
    note = "---\nname: a\ndescription: about a\nmetadata:\n  type: feedback\n  updated: 2026-10-01\n---\n\nBody.\n"
    root = workspace({"MEMORY.md": "- [verify](memory/knowledge/feedback/a.md)\n",
                      "memory/knowledge/feedback/a.md": note})
    log = json.loads(cli("check", ".", "--select", "index-entry-without-trigger", "--format", "sarif", "--no-cache",
                         cwd=root).stdout)
    (text,) = [r["message"]["text"] for r in log["runs"][0]["results"]]
    assert text.startswith("index-entry-without-trigger: \\[verify\\] has no trigger") and "\\[title\\](target)" in text


def test_github_and_gitlab_give_one_entry_whose_fingerprint_does_not_depend_on_the_target(git_repo, cli):
    root = git_repo(FILES)
    github = check(cli, root, "CLAUDE.md", "--format", "github", "--no-cache").stdout.splitlines()
    assert len(github) == 1 and github[0].startswith("::warning file=AGENTS.md,line=1,col=9,")
    prints = set()
    for target in ("AGENTS.md", "CLAUDE.md", "."):
        (issue,) = json.loads(check(cli, root, target, "--format", "gitlab", "--no-cache").stdout)
        assert issue["location"]["path"] == "AGENTS.md"
        prints.add(issue["fingerprint"])
    assert len(prints) == 1


def test_a_secret_in_the_other_files_name_or_value_is_never_shown(git_repo, cli):
    secret_rule = f".cursor/rules/{TOKEN}.mdc"
    # The Cursor rule comes first by path: its name is shown, CLAUDE.md's value is quoted as the other value.
    root = git_repo({"CLAUDE.md": "Components live in `" + TOKEN + "/`.\n",
                     secret_rule: "---\nalwaysApply: true\n---\n\nComponents live in `src/ui/`.\n"})
    for fmt in ("text", "json", "sarif", "github", "gitlab"):
        for target in ("CLAUDE.md", secret_rule):
            result = check(cli, root, target, "--format", fmt, "--no-cache")
            assert result.exit_code == 0 and "MW417" in result.stdout, (fmt, target, result)
            assert TOKEN not in result.stdout + result.stderr, (fmt, target)



def test_the_agent_hook_after_a_write_lists_only_what_is_anchored_at_the_file_written(workspace):
    # The conflict is AGENTS.md's finding, with AGENTS.md's line and "this file" meaning AGENTS.md: told as one
    # of CLAUDE.md's, just written, it would point the agent at the wrong line of the wrong file.
    from test_agent_hook import claude

    root = workspace({"AGENTS.md": "Tests: `pnpm test`.\n", "CLAUDE.md": "# Project\n"})
    content = "# Project\n\nRun the tests with `npm test`.\n"
    (root / "CLAUDE.md").write_text(content)
    done = claude(root, "PostToolUse", "Write", {"file_path": str(root / "CLAUDE.md"), "content": content})
    assert (done.returncode, done.out, done.err) == (0, "", "")

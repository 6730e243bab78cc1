"""Two memory or instruction files that disagree (issue 27, part 4): conflicting-instructions (MW417)."""

from __future__ import annotations

import pytest

from memwarden.analysis.repo_claims.mentions import Scan
from memwarden.analysis.repo_claims.topics import normal_test_command, topics_of


def found(cli, root):
    data = cli("check", str(root), "--select", "MW417", "--format", "json", "--no-cache", cwd=root).json()
    return [(f["path"], f["line"], f["column"], f["message"]) for f in data["findings"]]


def test_two_files_with_different_test_commands_are_one_finding_naming_both(workspace, cli):
    root = workspace({"CLAUDE.md": "# Project\n\nRun the tests with `npm test`.\n",
                      "AGENTS.md": "Tests: `pnpm run test -- --watch=false`.\n"})
    assert found(cli, root) == [("AGENTS.md", 1, 9, "test command: this file says 'pnpm test', CLAUDE.md:3 says "
                                                    "'npm test'; the agent gets both, settle on one")]


def test_package_managers_disagree_across_files(workspace, cli):
    root = workspace({"CLAUDE.md": "Set up: `pnpm install`.\n", "AGENTS.md": "```sh\nyarn add zod\n```\n"})
    assert [(path, message.split(":")[0]) for path, _, _, message in found(cli, root)] == [
        ("AGENTS.md", "JavaScript package manager")]


@pytest.mark.parametrize("claude, agents", [
    ("Run the tests with `pytest -q`.", "Tests: `uv run pytest`."),  # the same runner
    ("Tests: `npm test` or `pnpm test`.", "Tests: `yarn test`."),  # CLAUDE.md compares two itself
    ("We moved from npm to pnpm; `npm install` no longer works.", "`pnpm install`"),  # history, not a claim
    ("Build with `npm run build`.", "Tests: `pnpm test`."),  # a build is no test command
])
def test_agreeing_or_undecided_files_are_not_findings(workspace, cli, claude, agents):
    root = workspace({"CLAUDE.md": claude + "\n", "AGENTS.md": agents + "\n"})
    assert found(cli, root) == []


def test_test_commands_in_one_form():
    assert normal_test_command(("npm", "run", "test")) == "npm test"
    assert normal_test_command(("poetry", "run", "pytest", "-x")) == "pytest"
    assert normal_test_command(("cargo", "test", "--all")) == "cargo test"
    assert normal_test_command(("npm", "run", "build")) is None
    assert [(s.topic, s.value) for s in topics_of(Scan("Testing: `make test`\n", 0))] == [("test command", "make test")]

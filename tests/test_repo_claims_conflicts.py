"""Two memory or instruction files that disagree (issue 27, part 4): conflicting-instructions (MW417)."""

from __future__ import annotations

import pytest

from memwarden.analysis.repo_claims.mentions import Scan
from memwarden.analysis.repo_claims.topics import disagreements, normal_test_command, topics_of


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


# -- a directory's place ---------------------------------------------------------------------------------------
# (file A, file B, whether they disagree on where one kind of thing lives). Precise first: a pair the rule does
# not take is a miss, a pair it takes wrongly a false alarm; the last true rows are misses it accepts.
PLACE_TABLE = [
    ("Components live in `src/ui/`.", "Components are in `app/components/`.", True),
    ("Tests are in `tests/`.", "Tests live in `spec/`.", True),
    ("Put new seeds in `db/seeds/`.", "Seeds go in `seeds/`.", True),
    ("- Fixtures live in tests/fixtures/", "Fixtures are kept in `spec/fixtures/`.", True),
    ("## Layout\n\nAPI routes are located in `src/routes/`.", "API routes live in `app/api/`.", True),
    ("Store screenshots in `docs/img/`.", "Screenshots go in `assets/screenshots/`.", True),
    ("Our hooks live in `src/hooks/`.", "Hooks are in `lib/hooks/`.", True),
    ("Layout: scripts live in `bin/`.", "Scripts are stored in `tools/scripts/`.", True),
    ("E2E tests live in `e2e/`.", "E2E tests are in `tests/e2e/`.", True),
    ("Docs belong in `docs/`.", "Docs live in `site/content/`.", True),
    ("Keep prompts in `prompts/`.", "Prompts are in `.claude/prompts/`.", True),
    ("The models live in `app/models/`.", "Models are under `src/models/`.", True),
    ("Components live in src/ui/.", "Components live in ./app/components", True),
    ("Stories sit in `stories/`.", "Stories reside in `src/stories/`.", True),
    ("Tests live in `test/`.", "Each test lives in `spec/`.", True),
    ("Logs live in `/var/log/app/`.", "Logs live in `~/logs/`.", True),
    ("Put components in `src/ui/` and hooks in `src/hooks/`.", "Components live in `app/`.", True),
    ("1. Components live in `src/ui/`.", "> Components are in `app/components/`.", True),
    ("Documentation is stored in the `docs` folder.", "Documentation lives in `site/`.", True),
    ("Tests should live in `tests/`.", "Tests live in `spec/`.", True),
    ("Components live in `src/ui/`.", "Components live in `src/ui/`.", False),
    ("Place global values in `Globals` module.", "Global values live in `src/globals/`.", False),
    ("Runtime deps must live in `dependencies`.", "Runtime deps must live in `devDependencies`.", False),
    ("Components live in `src/ui/`.", "Hooks live in `src/hooks/`.", False),
    ("Unit tests live in `tests/unit/`.", "E2E tests live in `tests/e2e/`.", False),
    ("Tests live in `tests/`.", "Tests live in `./tests`.", False),
    ("Tests live in `tests/`.", "Tests live in `tests/unit/`.", False),
    ("Components live in `src/ui/`.", "We moved components from `src/ui/`; components are in `app/ui/` now.", False),
    ("Tests live in `tests/`.", "Tests used to live in `spec/`.", False),
    ("Tests live in `tests/`.", "```\nTests live in spec/\n```", False),
    ("Components live in `src/ui/` or `app/ui/`.", "Components live in `app/ui/`.", False),
    ("Config lives in `config/app.yaml`.", "Config lives in `settings/`.", False),
    ("It is in `src/`.", "It is in `lib/`.", False),
    ("Files are in `data/`.", "Files are in `out/`.", False),
    ("Tests for the API live in `tests/api/`.", "The API lives in `server/`.", False),
    ("Tests are in progress.", "Tests live in `spec/`.", False),
    ("Run tests in `tests/`.", "Tests live in `spec/`.", False),
    ("Tests are in `tests/` and `spec/`.", "Tests live in `spec/`.", False),
    ("Components are not in `src/ui/`.", "Components live in `app/components/`.", False),
    ("<!-- Migrations live in `old/` -->", "Migrations live in `db/migrations/`.", False),
    ("Components live in `src/ui/`.", "Tests for components live in `tests/components/`.", False),
    ("The build is in `dist/`.", "The docs are in `dist/docs/`.", False),
    ("Components live in `src/ui/`.", "React components are in `app/components/`.", True),  # two nouns: missed
    ("- **Tests live in** `spec/`", "Tests are in `tests/`.", True),  # emphasis mid-clause: missed
    # "migrat..." is a word of history to every repository claim, the noun too: missed
    ("Put new migrations in `db/migrations/`.", "Migrations go in `migrations/`.", True),
]


def _place_conflict(first: str, second: str) -> bool:
    by_file = {"A.md": topics_of(Scan(first + "\n", 0)), "B.md": topics_of(Scan(second + "\n", 0))}
    return any(a.topic.startswith("where each") for a, _ in disagreements(by_file))


def test_place_table_is_precise_and_its_misses_are_known():
    assert len(PLACE_TABLE) >= 30
    said = [(first, second, truth, _place_conflict(first, second)) for first, second, truth in PLACE_TABLE]
    false_alarms = [(a, b) for a, b, truth, found in said if found and not truth]
    misses = [(a, b) for a, b, truth, found in said if truth and not found]
    taken = sum(1 for *_, found in said if found)
    precision = (taken - len(false_alarms)) / taken if taken else 0.0
    report = f"precision {precision:.2f} ({taken} taken); false alarms {false_alarms}; misses {misses}"
    assert not false_alarms, report
    assert len(misses) <= 3, report
    assert taken >= 18, report


def test_two_files_that_put_one_kind_of_thing_in_two_folders_are_one_finding_anchored_at_both(git_repo, cli):
    root = git_repo({"CLAUDE.md": "# Project\n\nComponents live in `src/ui/`.\n",
                     ".github/copilot-instructions.md": "Where things are.\n\nComponents are in `app/components/`.\n"})
    # Only CLAUDE.md is checked (a hook that staged it alone): the finding at the other file still concerns it.
    data = cli("check", "CLAUDE.md", "--select", "MW417", "--format", "json", "--no-cache", cwd=root).json()
    assert [(f["path"], f["line"], f["column"], f["message"], f["related"]) for f in data["findings"]] == [
        (".github/copilot-instructions.md", 3, 20, "where each component goes: this file says 'app/components/', "
                                                   "CLAUDE.md:3 says 'src/ui/'; the agent gets both, settle on one",
         [{"path": "CLAUDE.md", "line": 3, "column": 21, "label": "the other value"}])]

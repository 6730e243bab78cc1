"""The package manager memory names, against the one the lockfiles show (issue 27, part 1): wrong-package-manager (MW414)."""

from __future__ import annotations

import pytest
from conftest import write_files
from repo_claims_support import findings


@pytest.mark.parametrize("files, memory, expected", [
    ({"pnpm-lock.yaml": "lockfileVersion: '9.0'\n"}, "Install with `npm install`, or `pnpm install`.", ["npm install"]),
    ({"pnpm-lock.yaml": ""}, "```sh\n$ yarn\n$ yarn add zod\n```", ["yarn", "yarn add zod"]),
    ({"pnpm-lock.yaml": ""}, "`npx vitest`, `npm install -g pnpm`, `npm run build`.", []),  # none installs the project
    ({"yarn.lock": "", "package-lock.json": "{}"}, "`pnpm install`", []),  # two lockfiles: undecided
    ({"package.json": "{}"}, "`pnpm install`", []),  # no lockfile: undecided
    ({"uv.lock": "version = 1\n"}, "Set up with `poetry install`; `pip install -e .` works too.", ["poetry install"]),
    ({"poetry.lock": ""}, "`uv sync` then `uv run pytest`", ["uv sync", "uv run pytest"]),
    ({"pnpm-lock.yaml": ""}, "We moved from yarn to pnpm: `yarn install` no longer works.", []),
    ({"web/pnpm-lock.yaml": ""}, "`npm install`", []),  # the root's lockfiles decide
    # a guide for the users of the packages the repository publishes: their projects, not this one
    ({"pnpm-lock.yaml": "", "packages/hooks/package.json": '{"name": "@acme/hooks"}', "package.json": '{"name": "acme"}'},
     "`npm add @acme/hooks@latest`, `yarn add acme @acme/hooks`, `npm add @acme/hooks zod`.", ["npm add @acme/hooks zod"]),
])
def test_commands_against_the_root_lockfiles(git_repo, cli, files, memory, expected):
    root = git_repo(files)
    write_files(root, {"AGENTS.md": memory + "\n"})
    assert [f["message"].split("'")[1] for f in sorted(findings(cli, root, "MW414"), key=lambda f: (f["line"], f["column"]))] == expected


def test_the_message_names_the_lockfile(git_repo, cli):
    root = git_repo({"pnpm-lock.yaml": "", "CLAUDE.md": "Run `npm ci` first.\n"})
    assert [(f["line"], f["column"], f["message"]) for f in findings(cli, root, "MW414")] == [
        (1, 6, "'npm ci' uses npm, but the repository's lockfile pnpm-lock.yaml is pnpm's: the agent would run the "
               "wrong tool")]

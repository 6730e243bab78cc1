"""Commands memory gives, checked against the repository's manifests (issue 27, part 1): undefined-script (MW413)."""

from __future__ import annotations

import json

import pytest
from conftest import write_files
from repo_claims_support import commit_all, findings

from memwarden.analysis.repo_claims import manifests


def found(cli, root, select="MW413"):
    return sorted((f["line"], f["column"], f["message"]) for f in findings(cli, root, select))


def package(**scripts):
    return json.dumps({"name": "app", "scripts": scripts}) + "\n"


def test_a_script_a_commit_removed_is_reported_with_the_manifest_and_the_commit(git_repo, cli):
    root = git_repo({"package.json": package(build="tsc", lint="eslint .")})
    write_files(root, {"package.json": package(build="tsc", check="biome check")})
    sha = commit_all(root, "Replace eslint with biome")
    write_files(root, {"CLAUDE.md": "Before a commit run `npm run lint`, then `npm run build`.\n\n```sh\nnpm test\n```\n"})
    assert found(cli, root) == [
        (1, 22, f"'npm run lint' runs something package.json does not define; commit {sha} (Replace eslint with biome) "
                "removed it"),
        (4, 1, "'npm test' runs something package.json does not define"),
    ]


@pytest.mark.parametrize("files, memory, expected", [
    ({"Makefile": "build:\n\tcc main.c\n.PHONY: test\ntest: build\n\t./run\n"}, "Run `make lint`.", ["make lint"]),
    ({"Makefile": "build:\n\tcc main.c\n"}, "Run `make build` and `make -j4 build`.", []),
    ({"Makefile": "include common.mk\nbuild:\n\tcc\n"}, "Run `make lint`.", []),  # targets from elsewhere
    ({"Makefile": "%:\n\t@echo $@\n"}, "Run `make lint`.", []),  # a pattern rule makes any target
    ({"justfile": "alias t := test\n\ntest *args:\n    pytest {{args}}\n"}, "`just t`, `just test` and `just fmt`.",
     ["just fmt"]),
    ({"Taskfile.yml": "version: '3'\ntasks:\n  ci:\n    aliases: [c]\n    cmds: [echo]\n"}, "`task c`, `task deploy`.",
     ["task deploy"]),
    ({"package.json": package(build="tsc")}, "`pnpm install`, `pnpm build`, `yarn dev`, `pnpm --filter web dev`.",
     ["yarn dev"]),
    ({"package.json": package(), "packages/web/package.json": package(dev="vite")}, "`npm run dev`", []),
    ({"README.md": "no manifest\n"}, "`npm run dev` and `make lint`", []),  # nothing defines scripts here
    ({"package.json": package(build="tsc")}, "`npm run lint` was removed when we moved to biome.", []),
    # run in another project's folder, out of the repository: its manifest is not this one's
    ({"package.json": package(build="tsc")}, "Start: `cd ~/Developer/motion && npm run dev`", []),
    ({"package.json": package(build="tsc")}, "```bash\ncd /Users/kim/apps/toolkit/\nnpm install && npm run setup\n```",
     []),
    ({"package.json": package(build="tsc")}, "```bash\ncd web\nnpm run setup\n```", ["npm run setup"]),
    # planned or asked about, not given as there: "(when implemented)", "add script", "`npm test`?"
    ({"package.json": package(build="tsc")}, "```bash\n# Run unit tests (when implemented)\nnpm run test\n\n"
     "# Run the linter\nnpm run lint\n```", ["npm run lint"]),
    ({"package.json": package(build="tsc")}, "**Run**: `npm run test` (add script to package.json)", []),
    ({"package.json": package(build="tsc")}, "How are unit tests run (`npm test`? `npx vitest`?)", []),
    ({"package.json": package(build="tsc")}, "Run `npm test` before a push.", ["npm test"]),
])
def test_manifests_decide_which_scripts_and_targets_exist(git_repo, cli, files, memory, expected):
    root = git_repo(files)
    write_files(root, {"CLAUDE.md": memory + "\n"})
    assert [message.split("'")[1] for _, _, message in found(cli, root)] == expected


def test_script_calls_read_from_commands():
    assert manifests.script_call(("npm", "run", "build")) == manifests.ScriptCall("npm", "build")
    assert manifests.script_call(("npm", "t")) == manifests.ScriptCall("npm", "test")
    assert manifests.script_call(("npm", "install")) is None
    assert manifests.script_call(("pnpm", "-C", "web", "build")) is None
    assert manifests.script_call(("make", "CC=clang", "all")) is None
    assert manifests.script_call(("bun", "x")) is None


def test_a_placeholder_or_a_binary_a_dependency_installs_is_no_undefined_script(git_repo, cli):
    # pnpm and yarn run a dependency's binary when no script has the name; `pnpm run` runs scripts only.
    manifest = {"name": "app", "scripts": {"build": "tsc"},
                "devDependencies": {"@changesets/cli": "^2", "vitest": "^1", "typescript": "^5", "@types/node": "^20"}}
    root = git_repo({"package.json": json.dumps(manifest) + "\n", "pnpm-lock.yaml": "lockfileVersion: '9.0'\n"})
    write_files(root, {"CLAUDE.md": "Run commands as `pnpm run ...` from the root. Release: `pnpm changeset`.\n"
                                    "Tests: `pnpm vitest run`, `yarn tsc --noEmit`, `pnpm exec eslint .`.\n"
                                    "Not installed: `pnpm prettier --write .`, `pnpm node`, `pnpm run vitest`.\n"})
    assert [message.split("'")[1] for _, _, message in found(cli, root)] == ["pnpm prettier --write .", "pnpm run vitest"]


def test_the_binaries_a_manifest_installs():
    content = json.dumps({"dependencies": {"@biomejs/biome": "1", "eslint": "9"}, "devDependencies": {"@scope/x": "1"},
                          "peerDependencies": {"react": "19"}}).encode()
    assert manifests.provided_binaries(content) == {"biome", "eslint"}
    assert manifests.provided_binaries(b"[1, 2]") == frozenset() == manifests.provided_binaries(b"\xff")
    assert manifests.script_call(("pnpm", "run", "...")) is None

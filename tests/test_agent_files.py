"""Every agent's instruction files (issue 27, part 3): found from the repository root and from any folder
below it, checked for secrets, parsed as their agents read them, measured where a limit is documented,
and read by the repository-claim rules. Real git repositories built in a temp folder, through the CLI."""

from __future__ import annotations

import json
import random
import string

import pytest

from conftest import git, run_memwarden, write_files
from repo_claims_support import commit_all

TODAY = ("--today", "2026-11-30")
_random = random.Random(2707)


def anthropic_key() -> str:
    # Fake but realistic, built by concatenation so no key sits in the source.
    return "sk-ant-" + "api03-" + "".join(_random.choice(string.ascii_letters + string.digits) for _ in range(93)) + "AA"


# Each location an agent reads, with front matter its agent writes where it has one.
LOCATIONS = {
    ".cursorrules": "",
    ".cursor/rules/typescript.mdc": "---\ndescription: TypeScript rules\nglobs: *.ts\nalwaysApply: false\n---\n",
    ".cursor/rules/frontend/components.mdc": "---\nglobs: src/components/**/*.tsx, **/*.{ts,tsx}\nalwaysApply: true\n---\n",
    ".github/copilot-instructions.md": "",
    ".github/instructions/python.instructions.md": '---\napplyTo: "**/*.py"\n---\n',
    ".windsurfrules": "",
    ".windsurf/rules/style.md": "---\ntrigger: always_on\n---\n",
    ".clinerules": "",
    ".clinerules/01-style.md": "",
    ".roorules": "",
    ".roo/rules/01-general.md": "",
    ".roo/rules-code/02-ts.txt": "",
    ".rules": "",
    ".amazonq/rules/cdk-rules.md": "",
    ".junie/guidelines.md": "",
    ".openhands/microagents/repo.md": "",
    ".openhands/microagents/deploy.md": "---\ntriggers:\n- deploy\n---\n",
    "replit.md": "# Overview\n\nA Flask app.\n\n## User Preferences\n\nPreferred communication style: simple language.\n",
}


def secret_findings(cli, cwd) -> list[tuple[str, str]]:
    result = cli("check", "--select", "secret-in-memory", "--format", "json", "--no-cache", "--exit-zero", *TODAY, cwd=cwd)
    assert result.exit_code == 0, result
    return sorted((f["path"], f["name"]) for f in result.json()["findings"])


def stats_files(cli, cwd) -> list[str]:
    result = cli("stats", "--json", *TODAY, cwd=cwd)
    assert result.exit_code == 0, result
    return sorted(path for ws in result.json()["workspaces"] for path in ws["files"])


@pytest.mark.parametrize("relpath", sorted(LOCATIONS))
def test_each_agents_file_is_found_from_the_root_and_from_a_folder_below_with_its_secret_masked(cli, git_repo, relpath):
    key = anthropic_key()
    text = LOCATIONS[relpath] + f"Deploy with the key {key} from the vault.\n"
    if relpath == ".clinerules":
        text = "Use pnpm.\n" + text
    root = git_repo({relpath: text, "src/app.py": "print('hi')\n"})
    assert secret_findings(cli, root) == [(relpath, "secret-in-memory")]
    # From a folder below, the paths are the same files seen from there.
    assert secret_findings(cli, root / "src") == [(f"../{relpath}", "secret-in-memory")]
    assert stats_files(cli, root) == [relpath]
    assert stats_files(cli, root / "src") == [f"../{relpath}"]
    shown = cli("check", "--no-cache", *TODAY, cwd=root / "src")
    assert shown.exit_code == 1 and key not in shown.stdout and key[:20] not in shown.stdout
    assert relpath in shown.stdout


def test_aiders_conventions_file_is_read_only_when_its_config_names_it(cli, git_repo):
    key = anthropic_key()
    root = git_repo({"CONVENTIONS.md": f"Use the key {key}.\n", "docs/STYLE.md": f"Token {key}\n",
                     "src/app.py": "print()\n"})
    assert secret_findings(cli, root) == []
    write_files(root, {".aider.conf.yml": "model: sonnet\nread:\n  - CONVENTIONS.md\n  - docs/STYLE.md\n"})
    assert secret_findings(cli, root) == [("CONVENTIONS.md", "secret-in-memory"), ("docs/STYLE.md", "secret-in-memory")]
    assert secret_findings(cli, root / "src") == [("../CONVENTIONS.md", "secret-in-memory"),
                                                  ("../docs/STYLE.md", "secret-in-memory")]
    write_files(root, {".aider.conf.yml": "read: [CONVENTIONS.md]\n"})
    assert secret_findings(cli, root) == [("CONVENTIONS.md", "secret-in-memory")]


@pytest.mark.parametrize("config", [
    "read: [CONVENTIONS.md\n",  # not YAML
    "- just\n- a list\n",  # not a mapping
    "read: 5\n",
    "read:\n  - ../outside.md\n  - /etc/passwd\n  - docs\n  - '*.md'\n",  # outside, absolute, a folder, a glob
    b"\xff\xfe\x00read",  # not text
])
def test_an_aider_config_that_names_nothing_usable_adds_nothing_and_breaks_nothing(cli, git_repo, config):
    root = git_repo({".github/copilot-instructions.md": "Use pnpm.\n", "CONVENTIONS.md": "Use tabs.\n",
                     "docs/guide.md": "Guide.\n", ".aider.conf.yml": config})
    result = cli("check", "--format", "json", "--no-cache", *TODAY, cwd=root)
    assert result.exit_code == 0, result
    assert stats_files(cli, root) == [".github/copilot-instructions.md"]


def test_a_file_an_agent_does_not_read_there_is_not_taken_for_one(cli, git_repo):
    key = anthropic_key()
    root = git_repo({".github/copilot-instructions.md": "Use pnpm.\n", ".github/workflows/notes.md": f"{key}\n",
                     ".cursor/mcp.json": f'{{"token": "{key}"}}\n', ".windsurf/workflows/release.md": f"{key}\n",
                     ".roo/mcp.json": "{}\n", "docs/rules": f"{key}\n"})
    assert stats_files(cli, root) == [".github/copilot-instructions.md"]
    assert secret_findings(cli, root) == []


def test_a_subprojects_own_rules_file_is_that_folders_workspace(cli, git_repo):
    root = git_repo({".github/copilot-instructions.md": "Use pnpm.\n", "packages/web/.cursorrules": "Use React.\n"})
    result = cli("check", "--format", "json", "--no-cache", *TODAY, cwd=root)
    assert {w["root"]: w["profile"] for w in result.json()["summary"]["workspaces"]} == {
        ".": "agent-instructions", "packages/web": "agent-instructions"}
    assert stats_files(cli, root) == [".github/copilot-instructions.md", "packages/web/.cursorrules"]


def test_clinerules_as_a_folder_is_walked_not_reported_as_a_misplaced_file(cli, git_repo):
    root = git_repo({".clinerules/01-style.md": "Use pnpm.\n", ".clinerules/02-tests.md": "Run the tests.\n",
                     # Other tools' folders of these names are no rules files either.
                     ".rules/lint.json": "{}\n", ".roorules/x.md": "x\n", ".cursorrules/a.txt": "a\n"})
    result = cli("check", "--format", "json", "--no-cache", *TODAY, cwd=root)
    assert result.exit_code == 0, result
    assert result.json()["findings"] == []
    assert stats_files(cli, root) == [".clinerules/01-style.md", ".clinerules/02-tests.md"]


def test_a_cursor_rule_with_unquoted_globs_parses_as_cursor_reads_it(cli, git_repo):
    root = git_repo({
        ".cursor/rules/ts.mdc": "---\ndescription: TS\nglobs: *.ts\nalwaysApply: false\n---\nUse strict mode.\n",
        ".cursor/rules/list.mdc": "---\nglobs:\n  - src/**/*.ts\n  - '*.tsx'\n---\nUse strict mode.\n",
        # Not Cursor's: an unquoted alias in the file of an agent that reads YAML (OpenHands) is YAML's error, reported.
        ".openhands/microagents/py.md": "---\ntriggers: *py\n---\nUse types.\n",
        # A line of no shape Cursor reads stays a parse error in an .mdc too.
        ".cursor/rules/broken.mdc": "---\nglobs: *.ts\n: nothing\n---\nText.\n",
        # Windsurf's rules are written the same way (batch 17c): `globs: **/*` unquoted is read as Windsurf reads it.
        ".windsurf/rules/style.md": "---\ntrigger: glob\nglobs: **/*\n---\nUse strict mode.\n",
        ".windsurf/rules/broken.md": "---\nglobs: **/*\n: nothing\n---\nText.\n",
    })
    result = cli("check", "--format", "json", "--no-cache", *TODAY, cwd=root)
    found = sorted((f["path"], f["name"], f["line"]) for f in result.json()["findings"])
    assert found == [(".cursor/rules/broken.mdc", "unparsable-file", 2),
                     (".openhands/microagents/py.md", "unparsable-file", 2),
                     (".windsurf/rules/broken.md", "unparsable-file", 2)]


# Copilot's applyTo: one glob or several separated by commas (docs.github.com, "Adding repository custom instructions":
# `applyTo: "**/*.ts,**/*.tsx"`); its readers take it unquoted too (Copilot CLI 1.0.48 "fixed parsing of unquoted glob
# patterns in the applyTo field"), where YAML reads `*` as an alias and rejects the front matter.
COPILOT_FRONT_MATTER = [
    ("applyTo: **/*.ts\n", {"applyTo": "**/*.ts"}),
    ('applyTo: "**/*.ts"\n', {"applyTo": "**/*.ts"}),  # quoted: YAML's own reading
    ("applyTo: **/*.ts,**/*.tsx\nexcludeAgent: code-review\n", {"applyTo": "**/*.ts,**/*.tsx", "excludeAgent": "code-review"}),
    ("applyTo:\n  - **/*.py\n  - src/**\n", {"applyTo": ["**/*.py", "src/**"]}),
    ("applyTo: ['*.py', '*.pyi']\n", {"applyTo": ["*.py", "*.pyi"]}),
    ("applyTo: {src,lib}/**/*.ts\n", {"applyTo": "{src,lib}/**/*.ts"}),  # a brace glob, not a YAML mapping
]


@pytest.mark.parametrize("front, data", COPILOT_FRONT_MATTER)
def test_a_copilot_instructions_front_matter_reads_as_copilot_reads_it(tmp_path, front, data):
    from memwarden.discover.profiles import agent_instructions
    from memwarden.documents import load

    relpath = ".github/instructions/code.instructions.md"
    write_files(tmp_path, {relpath: f"---\n{front}---\nUse strict types.\n"})
    doc = load(tmp_path, relpath, agent_instructions())
    assert (doc.ok, doc.front_matter) == (True, data)


@pytest.mark.parametrize("front", ["applyTo: **/*.ts\n: nothing\n", "applyTo: **/*.ts\napplyTo: *.js\n",
                                   "- **/*.ts\n"])
def test_a_copilot_front_matter_of_no_shape_copilot_reads_is_still_a_finding(cli, git_repo, front):
    root = git_repo({".github/instructions/code.instructions.md": f"---\n{front}---\nUse strict types.\n"})
    result = cli("check", "--format", "json", "--no-cache", *TODAY, cwd=root)
    found = [(f["path"], f["name"]) for f in result.json()["findings"]]
    assert found == [(".github/instructions/code.instructions.md", "unparsable-file")]


def test_copilot_instructions_with_unquoted_globs_are_no_parse_error(cli, git_repo):
    files = {f".github/instructions/{n}.instructions.md": f"---\n{front}---\nUse strict types.\n"
             for n, (front, _) in enumerate(COPILOT_FRONT_MATTER)}
    result = cli("check", "--format", "json", "--no-cache", *TODAY, cwd=git_repo(files))
    assert result.exit_code == 0, result
    assert result.json()["findings"] == []


def test_a_secret_in_a_cursor_rules_front_matter_is_found_on_its_line(cli, git_repo):
    key = anthropic_key()
    root = git_repo({".cursor/rules/deploy.mdc": f"---\ndescription: deploy with {key}\nglobs: *.yml\n---\nDeploy.\n"})
    result = cli("check", "--select", "secret-in-memory", "--format", "json", "--no-cache", cwd=root)
    [finding] = result.json()["findings"]
    assert (finding["path"], finding["line"]) == (".cursor/rules/deploy.mdc", 2)
    assert key not in result.stdout


def test_windsurf_rules_are_measured_against_windsurfs_documented_limit(cli, git_repo):
    line = "- Prefer small functions over long ones.\n"  # 41 characters
    root = git_repo({
        ".windsurf/rules/big.md": line * 300,  # 12,300: past 12,000
        ".windsurf/rules/near.md": line * 270,  # 11,070: over the 10,800 budget
        ".windsurfrules": line * 10,
        # Cursor documents no limit: nothing measures its rules.
        ".cursor/rules/long.mdc": "---\nalwaysApply: true\n---\n" + line * 400,
        "src/app.py": "print()\n",
    })
    result = cli("check", "--select", "MW501,MW502", "--format", "json", "--no-cache", *TODAY, cwd=root)
    found = sorted((f["path"], f["name"], f["line"]) for f in result.json()["findings"])
    assert found == [(".windsurf/rules/big.md", "index-past-truncation", 293),
                     (".windsurf/rules/near.md", "index-over-budget", 264)]
    assert all("windsurf" in f["message"] and f.get("fix") is None for f in result.json()["findings"])
    for cwd in (root, root / "src"):
        budget = cli("budget", "--json", cwd=cwd)
        assert budget.exit_code == 2, budget
        body = budget.json()
        assert {m["preset"] for m in body["measurements"]} == {"windsurf"}
        prefix = "" if cwd == root else "../"
        assert sorted(f for m in body["measurements"] for f in m["files"]) == [
            f"{prefix}.windsurf/rules/big.md", f"{prefix}.windsurf/rules/near.md", f"{prefix}.windsurfrules"]


def test_the_repository_claim_rules_read_copilots_instructions(cli, git_repo):
    root = git_repo({"scripts/deploy.sh": "echo deploy\n", "package.json": '{"scripts": {"build": "tsc"}}\n'})
    git(root, "rm", "-q", "scripts/deploy.sh")
    sha = commit_all(root, "Deploy through CI")
    write_files(root, {".github/copilot-instructions.md": "Deploy with `scripts/deploy.sh`.\n\nLint with `npm run lint`.\n"})
    result = cli("check", "--select", "MW412,MW413", "--format", "json", "--no-cache", *TODAY, cwd=root)
    found = sorted((f["path"], f["name"], f["line"]) for f in result.json()["findings"])
    assert found == [(".github/copilot-instructions.md", "deleted-repo-path", 1),
                     (".github/copilot-instructions.md", "undefined-script", 3)]
    assert sha in result.json()["findings"][0]["message"] or sha in result.json()["findings"][1]["message"]


def test_conflicting_instructions_compares_every_agents_files(cli, git_repo):
    root = git_repo({
        "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
        ".cursor/rules/testing.mdc": "---\nalwaysApply: true\n---\nRun the tests with `pnpm test`.\n",
        ".github/copilot-instructions.md": "# Project\n\nRun the tests with `npm test`.\n",
        "src/app.ts": "export {}\n",
    })
    result = cli("check", "--select", "MW417", "--format", "json", "--no-cache", *TODAY, cwd=root / "src")
    [finding] = result.json()["findings"]
    assert finding["path"] == "../.cursor/rules/testing.mdc" and finding["line"] == 4
    assert ".github/copilot-instructions.md:3" in finding["message"]


def test_content_proposed_for_a_cursor_rule_is_checked_as_one(git_repo):
    key = anthropic_key()
    root = git_repo({".cursor/rules/base.mdc": "---\nalwaysApply: true\n---\nUse pnpm.\n", "tools/run.sh": "echo\n"})
    git(root, "rm", "-q", "tools/run.sh")
    commit_all(root, "Drop the old runner")
    proposed = f"---\nglobs: *.ts\n---\nRun `tools/run.sh` first.\nKey {key}\n"
    done = run_memwarden("check", "--stdin-filename", ".cursor/rules/new.mdc", "--format", "json", "--no-cache",
                         cwd=root, env={"NO_COLOR": "1"}, input=proposed.encode())
    body = json.loads(done.stdout)
    # Read as a Cursor rule (the repository-claim rules read instruction files, not other text), never written.
    assert sorted((f["path"], f["name"], f["line"]) for f in body["findings"]) == [
        (".cursor/rules/new.mdc", "deleted-repo-path", 4), (".cursor/rules/new.mdc", "secret-in-memory", 5)]
    assert key.encode() not in done.stdout and not (root / ".cursor/rules/new.mdc").exists()


def test_personal_data_in_an_agents_rules_is_reported_masked(cli, git_repo):
    root = git_repo({".amazonq/rules/ops.md": "Logs: /home/alice/app/logs. On call: +44 20 7946 0958.\n"})
    result = cli("check", "--select", "personal-path,personal-data", "--format", "json", "--no-cache", cwd=root)
    found = sorted((f["path"], f["name"]) for f in result.json()["findings"])
    assert found == [(".amazonq/rules/ops.md", "personal-data"), (".amazonq/rules/ops.md", "personal-path")]
    assert "7946 0958" not in result.stdout


def test_a_cached_check_follows_a_windsurf_rules_file_as_it_grows_and_shrinks(cli, git_repo):
    line = "- Prefer small functions over long ones.\n"
    root = git_repo({".windsurf/rules/big.md": line * 10})

    def past_edge() -> list[str]:
        result = cli("check", "--select", "MW502", "--format", "json", *TODAY, cwd=root)
        return [f["path"] for f in result.json()["findings"]]

    assert past_edge() == []
    write_files(root, {".windsurf/rules/big.md": line * 300})
    assert past_edge() == [".windsurf/rules/big.md"]
    write_files(root, {".windsurf/rules/big.md": line * 10, ".windsurf/rules/other.md": line * 300})
    assert past_edge() == [".windsurf/rules/other.md"]


def test_budget_on_a_windsurf_rules_file_uses_windsurfs_limit(cli, git_repo):
    root = git_repo({".windsurf/rules/big.md": "- Prefer small functions over long ones.\n" * 300})
    for cwd, named in ((root, ".windsurf/rules/big.md"), (root / ".windsurf", "rules/big.md")):
        result = cli("budget", named, "--json", cwd=cwd)
        assert result.exit_code == 2, result
        body = result.json()
        assert (body["preset"], body["unit"], body["used"], body["edge"]) == ("windsurf", "chars", 12_300, 12_000)


def test_every_agent_glob_with_a_folder_starts_with_a_folder_written_out():
    # agent_of turns away a path whose first folder is none of AGENT_FILE_DIRS without matching a glob: that holds
    # only while every glob with a '/' begins with a plain folder name.
    from memwarden import agent_files
    from memwarden.globs import is_glob

    for glob in agent_files.AGENT_FILE_GLOBS:
        if "/" in glob:
            first = glob.split("/", 1)[0]
            assert not is_glob(first) and first in agent_files.AGENT_FILE_DIRS, glob
    for path in (".cursor/rules/a.mdc", "notes/.cursor/rules/a.mdc", ".github/copilot-instructions.md",
                 "docs/.github/copilot-instructions.md", ".roorules-code", "x/.roorules-code", ".windsurf/rules/a.md"):
        slow = next((row for row in agent_files.AGENT_FILES
                     if any(agent_files._root_match(path, glob) for glob in row.globs)), None)
        assert agent_files.agent_of(path) is slow, path

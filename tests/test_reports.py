"""Output formats: the json contract, valid SARIF 2.1.0, escaped GitHub annotations, text."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft4Validator

from memwarden.report import escape_data, escape_property

from conftest import FIXTURES

SARIF_SCHEMA = json.loads((FIXTURES / "sarif-schema-2.1.0.json").read_text("utf-8"))
FILES = {
    "MEMORY.md": "# Memory\n",
    "memory/fact.yml": "identity:\n  name: A\npreferences:\n  communication: 1\n",
    "memory/episodic.jsonl": '{"id": "e1"}\n\n',
    "memory/knowledge/feedback/a,b:c.md": "---\nname: x\ndescription: d\nmetadata: {type: nope, updated: 2026-01-01}\n---\n100% sure\n",
}


@pytest.fixture
def root(workspace):
    return workspace(FILES)


def test_json_contract(cli, root):
    result = cli("check", "--format", "json", ".", cwd=root)
    assert result.exit_code == 1
    report = result.json()
    assert report["version"] == 1
    assert set(report["summary"]) >= {"files", "errors", "warnings", "fixed"}
    for finding in report["findings"]:
        assert {"code", "name", "severity", "path", "line", "column", "message"} <= set(finding)
        assert finding["severity"] in ("error", "warning")
        assert finding["line"] >= 1 and finding["column"] >= 1
        assert "\\" not in finding["path"]
    fixable = [f for f in report["findings"] if "fix" in f]
    assert fixable and all(f["fix"]["applicability"] in ("safe", "unsafe") and f["fix"]["description"] for f in fixable)
    assert any("json_path" in f for f in report["findings"])


def test_sarif_is_valid_sarif_2_1_0(cli, root):
    result = cli("check", "--format", "sarif", ".", cwd=root)
    log = json.loads(result.stdout)
    errors = sorted(Draft4Validator(SARIF_SCHEMA).iter_errors(log), key=str)
    assert not errors, errors[0]
    run = log["runs"][0]
    rule_ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert run["results"], "expected results"
    for res in run["results"]:
        assert rule_ids[res["ruleIndex"]] == res["ruleId"]
        region = res["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] >= 1


def test_sarif_with_no_findings_is_valid(cli, workspace):
    root = workspace({"MEMORY.md": "# Memory\n", "memory/fact.yml": "identity:\n  name: A\n"})
    log = json.loads(cli("check", "--format", "sarif", ".", cwd=root).stdout)
    assert not list(Draft4Validator(SARIF_SCHEMA).iter_errors(log))
    assert log["runs"][0]["results"] == []


@pytest.mark.parametrize("raw, data, prop", [
    ("plain", "plain", "plain"),
    ("100%", "100%25", "100%25"),
    ("a\nb\r\nc", "a%0Ab%0D%0Ac", "a%0Ab%0D%0Ac"),
    ("x:y,z", "x:y,z", "x%3Ay%2Cz"),
])
def test_github_escaping(raw, data, prop):
    assert escape_data(raw) == data
    assert escape_property(raw) == prop


def test_github_format_escapes_properties_and_is_default_under_actions(cli, root):
    result = cli("check", ".", cwd=root, env={"GITHUB_ACTIONS": "true"})
    lines = result.stdout.splitlines()
    assert lines and all(line.startswith(("::error ", "::warning ")) for line in lines)
    assert any("file=memory/knowledge/feedback/a%2Cb%3Ac.md" in line for line in lines)
    for line in lines:
        props, _, message = line.partition("::")[2].partition("::")
        assert "\n" not in message


# -- gitlab ---------------------------------------------------------------------------------------


def _gitlab(cli, root, *args, env=None):
    result = cli("check", "--format", "gitlab", *args, ".", cwd=root, env=env or {})
    assert result.exit_code == 1, result.stderr
    return json.loads(result.stdout)


def test_gitlab_format_is_code_quality_json_as_ruff_writes_it(cli, root):
    issues = _gitlab(cli, root)
    findings = cli("check", "--format", "json", ".", cwd=root).json()["findings"]
    assert isinstance(issues, list) and len(issues) == len(findings)
    for issue, finding in zip(issues, findings):
        assert set(issue) == {"description", "check_name", "fingerprint", "severity", "location"}
        assert issue["check_name"] == finding["code"]
        assert finding["message"] in issue["description"] and issue["description"].startswith(finding["code"])
        assert issue["severity"] == {"error": "major", "warning": "minor"}[finding["severity"]]
        assert issue["location"] == {"path": finding["path"], "lines": {"begin": finding["line"]}}
        assert len(issue["fingerprint"]) == 64 and int(issue["fingerprint"], 16) >= 0
    assert len({i["fingerprint"] for i in issues}) == len(issues)  # GitLab drops issues that share one


def test_gitlab_fingerprints_survive_unrelated_lines_moving(cli, root):
    before = _gitlab(cli, root)
    note = root / "memory/knowledge/feedback/a,b:c.md"
    note.write_text(note.read_text().replace("---\nname", "---\n# moved down\n# twice\nname", 1))
    facts = root / "memory/fact.yml"
    facts.write_text("# a comment on top\n" + facts.read_text())
    after = _gitlab(cli, root)
    moved = {i["fingerprint"]: i["location"]["lines"]["begin"] for i in after}
    assert {i["fingerprint"] for i in before} == set(moved)
    assert any(moved[i["fingerprint"]] != i["location"]["lines"]["begin"] for i in before)  # lines did move


def test_gitlab_paths_are_relative_to_the_gitlab_project(cli, root):
    issues = _gitlab(cli, root / "memory", env={"CI_PROJECT_DIR": str(root)})
    assert issues and all(i["location"]["path"].startswith("memory/") for i in issues)


def test_the_documented_gitlab_job_writes_its_code_quality_report(git_repo):
    import re
    import shlex

    import yaml

    from conftest import REPO, git, run_memwarden

    blocks = re.findall(r"```yaml\n(.*?)```", (REPO / "docs/ci.md").read_text("utf-8"), re.S)
    job = next(yaml.safe_load(b)["memwarden"] for b in blocks if "codequality" in b)
    [command] = [line for line in job["script"] if line.startswith("memwarden check")]
    episodes = "".join(f'{{"id": "e{i}", "ts": "2026-01-0{i}T00:00:00Z", "summary": "s{i}"}}\n' for i in (1, 2))
    root = git_repo({"MEMORY.md": "# Memory\n", "memory/episodic.jsonl": episodes})
    git(root, "branch", "target")
    (root / "memory/episodic.jsonl").write_text(episodes.splitlines(keepends=True)[0])
    git(root, "commit", "-qam", "drop an episode")
    args = shlex.split(command.replace('"origin/$CI_MERGE_REQUEST_TARGET_BRANCH_NAME"', "target"))[1:]
    done = run_memwarden(*args, cwd=root, env={"CI_PROJECT_DIR": str(root)})
    assert done.returncode == 1, done.stderr  # the job fails on the deleted record
    report = json.loads((root / job["artifacts"]["reports"]["codequality"]).read_text("utf-8"))
    assert ("MW601", "memory/episodic.jsonl") in [(i["check_name"], i["location"]["path"]) for i in report]


def test_text_format_and_no_color(cli, root):
    result = cli("check", ".", cwd=root, env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert "\x1b[" not in result.stdout
    first = result.stdout.splitlines()[0]
    path, line, column, rest = first.split(":", 3)
    assert int(line) >= 1 and int(column) >= 1 and rest.lstrip().startswith("MW")
    assert "fixable with --fix" in result.stdout
    colored = cli("check", ".", cwd=root, env={"FORCE_COLOR": "1"})
    assert "\x1b[" in colored.stdout


def test_output_file(cli, root):
    result = cli("check", "--format", "json", "--output", "out/report.json", ".", cwd=root)
    assert result.stdout == ""
    assert json.loads((root / "out" / "report.json").read_text())["version"] == 1


def test_exit_zero_and_quiet(cli, root):
    assert cli("check", "--exit-zero", ".", cwd=root).exit_code == 0
    quiet = cli("check", "-q", ".", cwd=root)
    assert quiet.exit_code == 1 and "Found" not in quiet.stdout and quiet.stdout.strip()
    # quiet prints exactly one line a finding, the same lines the full report starts with
    full = cli("check", ".", cwd=root).stdout.splitlines()
    findings = cli("check", "--format", "json", ".", cwd=root).json()["findings"]
    assert quiet.stdout.splitlines() == full[: len(findings)]
    assert len(quiet.stdout.splitlines()) == len(findings)


def test_rules_explain_schema_commands(cli):
    listing = cli("rules")
    assert listing.exit_code == 0 and "MW101" in listing.stdout and "unparsable-file" in listing.stdout
    as_json = json.loads(cli("rules", "--format", "json").stdout)
    assert {"code", "name", "severity", "fix", "summary"} <= set(as_json[0])
    doc = cli("explain", "malformed-jsonl")
    for section in ("What it does", "Why", "Example", "Fix safety"):
        assert section in doc.stdout
    assert cli("explain", "MW106").stdout == doc.stdout
    missing = cli("explain", "malformed-json")
    assert missing.exit_code == 2 and "did you mean 'malformed-jsonl'" in missing.stderr
    schema = json.loads(cli("schema", "ghost-in-shell/episodic").stdout)
    assert "fingerprint" in schema["required"]
    assert cli("schema", "nope").exit_code == 2

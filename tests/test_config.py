"""Configuration, profiles, selection and inline suppressions."""

from __future__ import annotations

import pytest

BAD_FACTS = "identity:\n  name: A\n  name: B\npreferences:\n  communication: 1\n"


def gish(workspace, files=None, name="ws"):
    return workspace({"MEMORY.md": "# Memory\n", "memory/fact.yml": BAD_FACTS, **(files or {})}, name=name)


def names(result):
    assert result.exit_code in (0, 1), result
    return sorted({f["name"] for f in result.json()["findings"]})


def test_config_in_pyproject_is_found_by_walking_up(cli, workspace):
    root = gish(workspace, {"pyproject.toml": '[tool.memwarden]\nignore = ["duplicate-key"]\n'})
    assert names(cli("check", "--format", "json", "memory/fact.yml", cwd=root)) == ["schema-violation"]
    sub = root / "memory"
    assert names(cli("check", "--format", "json", "fact.yml", cwd=sub)) == ["schema-violation"]


def test_dotfile_config_and_codes(cli, workspace):
    root = gish(workspace, {".memwarden.toml": 'select = ["MW103"]\n'})
    assert names(cli("check", "--format", "json", ".", cwd=root)) == ["duplicate-key"]


def test_cli_select_and_ignore_override(cli, workspace):
    root = gish(workspace)
    assert names(cli("check", "--format", "json", "--select", "schema-violation", ".", cwd=root)) == ["schema-violation"]
    assert names(cli("check", "--format", "json", "--ignore", "MW102,MW103", ".", cwd=root)) == []
    assert names(cli("check", "--format", "json", "--select", "MW1", "--ignore", "MW102", ".", cwd=root)) == ["duplicate-key"]


@pytest.mark.parametrize("config, message", [
    ('[tool.memwarden]\nselekt = ["x"]\n', "unknown key 'selekt' (did you mean 'select'?)"),
    ('[tool.memwarden]\nignore = ["duplicate-keys"]\n', "unknown rule 'duplicate-keys' (did you mean 'duplicate-key'?)"),
    ('[tool.memwarden]\nprofile = "gish"\n', "unknown profile 'gish'"),
    ('[tool.memwarden.rules.scratchpad-too-long]\nmax_line = 3\n', "unknown option 'max_line'"),
    ('[tool.memwarden.rules.scratchpad-too-long]\nmax_lines = "3"\n', "must be an integer"),
    ('[tool.memwarden.rules.no-such-rule]\nx = 1\n', "unknown rule"),
    ('[tool.memwarden.kinds.journal]\nglobs = ["j/*.md"]\n', "needs both 'globs' and 'format'"),
    ('[tool.memwarden\n', "invalid TOML"),
])
def test_config_errors_exit_2_with_a_clear_message(cli, workspace, config, message):
    root = gish(workspace, {"pyproject.toml": config})
    result = cli("check", ".", cwd=root)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_unknown_rule_on_the_command_line_is_exit_2(cli, workspace):
    result = cli("check", "--select", "schema-violations", ".", cwd=gish(workspace))
    assert result.exit_code == 2 and "did you mean 'schema-violation'" in result.stderr


def test_per_file_ignores(cli, workspace):
    root = gish(workspace, {".memwarden.toml": '[per-file-ignores]\n"memory/fact.yml" = ["schema-violation"]\n'})
    assert names(cli("check", "--format", "json", ".", cwd=root)) == ["duplicate-key"]


def test_exclude_holds_even_for_named_files(cli, workspace):
    root = gish(workspace, {".memwarden.toml": 'exclude = ["memory/fact.yml"]\n'})
    result = cli("check", "--format", "json", "memory/fact.yml", "MEMORY.md", cwd=root)
    assert result.json()["findings"] == []
    assert cli("check", "--format", "json", ".", cwd=root).json()["findings"] == []


def test_rule_options_from_config(cli, workspace):
    files = {"memory/scratchpad.md": "# pad\n" + "x\n" * 20}
    root = workspace(files)
    assert names(cli("check", "--format", "json", ".", cwd=root)) == []
    (root / ".memwarden.toml").write_text('[rules.scratchpad-too-long]\nmax_lines = 10\n')
    assert names(cli("check", "--format", "json", ".", cwd=root)) == ["scratchpad-too-long"]


def test_profile_override_and_detection(cli, workspace):
    root = workspace({"MEMORY.md": "- [a](a.md) — hook\n", "a.md": "---\nname: a\ndescription: d\ntype: user\n---\nx\n"})
    report = cli("check", "--format", "json", ".", cwd=root).json()
    assert report["summary"]["workspaces"][0]["profile"] == "claude-code"
    report = cli("check", "--format", "json", "--profile", "ghost-in-shell", ".", cwd=root).json()
    assert report["summary"]["workspaces"][0]["profile"] == "ghost-in-shell"
    (root / ".memwarden.toml").write_text('profile = "three-layer"\n')
    report = cli("check", "--format", "json", ".", cwd=root).json()
    assert report["summary"]["workspaces"][0]["profile"] == "three-layer"


def test_custom_kind_with_its_own_schema(cli, workspace):
    schema = '{"type": "object", "required": ["owner"]}'
    root = gish(workspace, {
        ".memwarden.toml": '[kinds.decision-record]\nglobs = ["decisions/*.yml"]\nformat = "yaml"\nschema = "schemas/decision.json"\n'
                           '[per-file-ignores]\n"memory/*" = ["ALL"]\n',
        "schemas/decision.json": schema,
        "decisions/d1.yml": "title: x\n",
    })
    report = cli("check", "--format", "json", ".", cwd=root).json()
    assert [(f["name"], f["path"]) for f in report["findings"]] == [("schema-violation", "decisions/d1.yml")]


def test_kind_globs_can_be_changed(cli, workspace):
    root = workspace({
        "memory/scratchpad.md": "# pad\n",
        "memory/log/2026.jsonl": '{"a": 1}\n\n',
        ".memwarden.toml": '[kinds.episodic]\nglobs = ["memory/log/*.jsonl"]\n[rules.malformed-jsonl]\n',
    })
    assert "malformed-jsonl" in names(cli("check", "--format", "json", ".", cwd=root))


SUPPRESSED_YAML = """\
identity:
  name: A
  name: B  # memwarden: disable-line=duplicate-key
# memwarden: disable-next-line=MW102
preferences: {communication: 1}
"""


def test_yaml_inline_suppressions(cli, workspace):
    root = gish(workspace, {"memory/fact.yml": SUPPRESSED_YAML})
    assert names(cli("check", "--format", "json", ".", cwd=root)) == []


def test_markdown_suppressions_and_invalid_ones(cli, workspace):
    note = (
        "---\nname: a\ndescription: d\nmetadata:\n  type: feedback\n  updated: 2026-02-30\n---\n"
        "<!-- memwarden: disable=invalid-timestamp -->\n<!-- memwarden: disable=no-such-rule -->\n"
        "<!-- memwarden: silence=invalid-timestamp -->\n"
    )
    root = gish(workspace, {"memory/knowledge/feedback/a.md": note, "memory/fact.yml": "identity: {name: A}\n"})
    result = cli("check", "--format", "json", ".", cwd=root)
    found = [(f["name"], f["line"]) for f in result.json()["findings"] if f["path"].endswith("a.md")]
    # disable= covers the lines after it; the timestamp on line 6 is above it
    assert ("invalid-timestamp", 6) in found
    assert ("invalid-suppression", 9) in found and ("invalid-suppression", 10) in found
    note_top = note.replace("---\nname: a", "---\nname: a  # memwarden: disable-file=invalid-timestamp", 1)
    (root / "memory/knowledge/feedback/a.md").write_text(note_top)
    found = [f["name"] for f in cli("check", "--format", "json", ".", cwd=root).json()["findings"]]
    assert "invalid-timestamp" not in found


def test_disable_holds_until_enable(cli, workspace):
    """`disable=NAME` silences the lines after it until `enable=NAME`; after that the rule reports again."""
    note = (
        "---\nname: a\ndescription: d\nmetadata:\n  type: reference\n  updated: 2026-01-01\n---\n"
        "The export API does not support CSV.\n"  # line 8: reported
        "<!-- memwarden: disable=negative-claim-without-expiry -->\n"
        "The import API does not support XML.\n"  # line 10: silenced
        "<!-- memwarden: enable=negative-claim-without-expiry -->\n"
        "The sync API does not support JSON.\n"  # line 12: reported again
    )
    root = gish(workspace, {"memory/knowledge/references/a.md": note, "memory/fact.yml": "identity: {name: A}\n"})
    result = cli("check", "--format", "json", "--select", "negative-claim-without-expiry", ".", cwd=root)
    lines = sorted(f["line"] for f in result.json()["findings"] if f["path"].endswith("a.md"))
    assert lines == [8, 12]


def test_nested_workspaces_are_found(cli, workspace, tmp_path):
    gish(workspace, name="group/a")
    workspace({"memory/scratchpad.md": "# pad\n"}, name="group/b")
    report = cli("check", "--format", "json", "group", cwd=tmp_path).json()
    assert sorted(w["profile"] for w in report["summary"]["workspaces"]) == ["ghost-in-shell", "three-layer"]
    assert {f["path"].split("/")[1] for f in report["findings"]} == {"a"}


def test_a_folder_with_no_workspace_is_a_warning(cli, tmp_path):
    (tmp_path / "empty").mkdir()
    result = cli("check", "empty", cwd=tmp_path)
    assert result.exit_code == 0 and "no memory workspace found" in result.stderr

"""The real Ghost In Shell workspaces (MIT-licensed data, tests/fixtures/corpus) are read correctly."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft4Validator

from conftest import CORPUS, FIXTURES

WORKSPACES = {
    "examples/multi_cli": "ghost-in-shell",
    "examples/minimal": "ghost-in-shell",
    "tests/fixtures/golden/voidweaver_v4_sample": "ghost-in-shell",
    "tests/fixtures/golden/lgd_legacy": "ghost-in-shell",
    "tests/fixtures/golden/gshell_v5_full": "ghost-in-shell",
    "tests/fixtures/golden/gshell_v5_minimal": "ghost-in-shell",
    "tests/fixtures/golden/legacy_v4_sample": "ghost-in-shell",
    "legacy/v4.1/examples/minimal": "three-layer",
    "legacy/v4.1/examples/multi_cli_memory": "three-layer",
}

# What a careful reader of these files calls real, for the format and safety rules.
EXPECTED_CORE = {
    "examples/multi_cli": [
        ("executable-config", "memory/runtime_profiles.yml", 9, "8 runtime profiles"),
    ],
    "examples/minimal": [("executable-config", "memory/runtime_profiles.yml", 9, "2 runtime profiles")],
    "tests/fixtures/golden/voidweaver_v4_sample": [
        ("schema-violation", "memory/episodic.jsonl", line, "missing required key 'fingerprint'") for line in (1, 2, 3)
    ],
    "tests/fixtures/golden/lgd_legacy": [
        ("schema-violation", "memory/episodic.jsonl", 1, "missing required key 'fingerprint'")
    ],
}


@pytest.mark.parametrize("relative, profile", sorted(WORKSPACES.items()))
def test_profile_detection(cli, relative, profile):
    report = cli("check", "--format", "json", "--exit-zero", CORPUS / relative, cwd=CORPUS).json()
    [workspace] = report["summary"]["workspaces"]
    assert workspace["profile"] == profile


@pytest.mark.parametrize("relative", sorted(WORKSPACES))
def test_core_findings_are_the_real_ones(cli, relative):
    root = CORPUS / relative
    result = cli("check", "--format", "json", "--select", "MW1,MW8", ".", cwd=root)
    found = [(f["name"], f["path"], f["line"], f["message"]) for f in result.json()["findings"]]
    expected = EXPECTED_CORE.get(relative, [])
    assert len(found) == len(expected), found
    for (name, path, line, message), (want_name, want_path, want_line, want_text) in zip(sorted(found), sorted(expected)):
        assert (name, path, line) == (want_name, want_path, want_line)
        assert want_text in message
    assert result.exit_code == (1 if expected else 0)


@pytest.mark.parametrize("output_format", ["text", "json", "sarif", "github"])
def test_every_rule_on_the_whole_corpus_in_every_format(cli, output_format):
    result = cli("check", "--format", output_format, ".", cwd=CORPUS)
    assert result.exit_code == 1, result  # the corpus holds real errors (test_core_findings_are_the_real_ones)
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    if output_format == "json":
        report = result.json()
        assert len(report["summary"]["workspaces"]) == len(WORKSPACES)
        assert all(f["line"] >= 1 for f in report["findings"])
    if output_format == "sarif":
        schema = json.loads((FIXTURES / "sarif-schema-2.1.0.json").read_text("utf-8"))
        assert not list(Draft4Validator(schema).iter_errors(json.loads(result.stdout)))
    if output_format == "text":
        assert "Found" in result.stdout or "All checks passed" in result.stdout

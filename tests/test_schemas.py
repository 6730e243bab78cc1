"""The JSON Schemas in schemas/: well-formed, one per kind, and true to real workspaces.

The real files come from Ghost In Shell (MIT; see tests/fixtures/corpus/SOURCE.md) and are
copied byte for byte under tests/fixtures/corpus/ with their repository paths.
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from ruamel.yaml import YAML

from memwarden.discover.profiles import PROFILES

REPO = Path(__file__).resolve().parents[1]
SCHEMAS = REPO / "schemas"
CORPUS = Path(__file__).resolve().parent / "fixtures" / "corpus"

SCHEMA_FILES = sorted(SCHEMAS.glob("*/*.schema.json"))
KINDS = [(profile.name, kind.name) for profile in PROFILES.values() for kind in profile.kinds]


def schema(profile: str, kind: str) -> dict:
    return json.loads((SCHEMAS / profile / f"{kind}.schema.json").read_text(encoding="utf-8"))


def validator(profile: str, kind: str) -> Draft202012Validator:
    return Draft202012Validator(schema(profile, kind))


def plain(value):
    """YAML timestamps as the ISO strings JSON Schema sees (YAML 1.2 editors read them as strings)."""
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    return value


def load_yaml(relpath: str):
    return plain(YAML(typ="safe").load((CORPUS / relpath).read_text(encoding="utf-8")))


def load_front_matter(relpath: str) -> dict:
    lines = (CORPUS / relpath).read_text(encoding="utf-8").splitlines()
    assert lines[0] == "---"
    end = lines.index("---", 1)
    return plain(YAML(typ="safe").load("\n".join(lines[1:end])))


def load_jsonl(relpath: str) -> list[dict]:
    text = (CORPUS / relpath).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def error_paths(validator: Draft202012Validator, instance) -> list[tuple[list, str]]:
    return [(list(error.absolute_path), error.validator) for error in validator.iter_errors(instance)]


# ------------------------------------------------------------------ the schema files themselves


def test_schema_files_exist():
    assert SCHEMA_FILES


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_schema_is_valid_draft_2020_12(path: Path):
    document = json.loads(path.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(document)
    profile, kind = path.parent.name, path.name.removesuffix(".schema.json")
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert document["$id"] == f"https://memwarden.dev/schemas/{profile}/{kind}.schema.json"
    assert document["title"] and document["description"]


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_schema_examples_validate(path: Path):
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document.get("examples"), "every schema shows at least one example"
    for example in document["examples"]:
        assert error_paths(Draft202012Validator(document), example) == []


@pytest.mark.parametrize(("profile", "kind"), KINDS)
def test_every_kind_has_a_schema(profile: str, kind: str):
    assert (SCHEMAS / profile / f"{kind}.schema.json").is_file()


def test_no_schema_without_a_kind():
    on_disk = {(p.parent.name, p.name.removesuffix(".schema.json")) for p in SCHEMA_FILES}
    assert on_disk == set(KINDS)


# ------------------------------------------------------------------ ghost-in-shell


@pytest.mark.parametrize(
    "relpath",
    [
        "examples/multi_cli/memory/episodic.jsonl",
        "examples/minimal/memory/episodic.jsonl",
        "tests/fixtures/golden/episodic_golden.jsonl",
    ],
)
@pytest.mark.parametrize("kind", ["episodic", "episode-archive"])
def test_gish_episodes_validate(relpath: str, kind: str):
    check = validator("ghost-in-shell", kind)
    for record in load_jsonl(relpath):
        assert error_paths(check, record) == []


def test_gish_v4_episodes_fail_only_for_missing_fingerprint():
    check = validator("ghost-in-shell", "episodic")
    records = load_jsonl("tests/fixtures/golden/voidweaver_v4_sample/memory/episodic.jsonl")
    assert records
    for record in records:
        errors = list(check.iter_errors(record))
        assert [(e.validator, list(e.absolute_path)) for e in errors] == [("required", [])]
        assert "'fingerprint' is a required property" in errors[0].message


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"importance": 11}, ["importance"]),
        ({"importance": "high"}, ["importance"]),
        ({"fingerprint": "ABC"}, ["fingerprint"]),
        ({"decay_status": "gone"}, ["decay_status"]),
        ({"type": "rant"}, ["type"]),
        ({"tags": "setup"}, ["tags"]),
        ({"archived": "yes"}, ["archived"]),
    ],
)
def test_gish_episode_rejects(change: dict, path: list):
    record = load_jsonl("examples/minimal/memory/episodic.jsonl")[0] | change
    assert [p for p, _ in error_paths(validator("ghost-in-shell", "episodic"), record)] == [path]


@pytest.mark.parametrize(
    "relpath", ["tests/fixtures/golden/fact_golden.yml", "examples/minimal/memory/fact.yml"]
)
def test_gish_facts_validate(relpath: str):
    assert error_paths(validator("ghost-in-shell", "facts"), load_yaml(relpath)) == []


def test_gish_facts_accept_a_list_under_tools_as_gish_itself_writes():
    # gish's own multi_cli example keeps `cli_adapters: [claude, gemini, codex, copilot]` under tools.
    facts = load_yaml("examples/multi_cli/memory/fact.yml")
    assert facts["tools"]["cli_adapters"] == ["claude", "gemini", "codex", "copilot"]
    assert error_paths(validator("ghost-in-shell", "facts"), facts) == []
    assert error_paths(validator("ghost-in-shell", "facts"), facts | {"tools": ["gh"]}) == [(["tools"], "type")]


def test_gish_facts_need_identity():
    assert error_paths(validator("ghost-in-shell", "facts"), {"rules": []}) == [([], "required")]


@pytest.mark.parametrize(
    "relpath",
    [
        "examples/multi_cli/memory/knowledge/feedback/verify-final-state.md",
        "examples/multi_cli/memory/knowledge/feedback/zero-may-mean-not-run.md",
        "examples/multi_cli/memory/knowledge/references/deploy-script-flags.md",
    ],
)
def test_gish_notes_validate(relpath: str):
    assert error_paths(validator("ghost-in-shell", "note"), load_front_matter(relpath)) == []


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"description": "two\nlines"}, ["description"]),
        ({"description": "folded block scalar\n"}, ["description"]),
        ({"tags": [1]}, ["tags", 0]),
        ({"metadata": {"type": "feedback"}}, ["metadata"]),
        ({"metadata": {"type": "note", "updated": "2026-10-01"}}, ["metadata", "type"]),
        ({"metadata": {"type": "user", "updated": "1 Oct 2026"}}, ["metadata", "updated"]),
        ({"metadata": {"type": "user", "updated": "2026-10-01", "confidence": 2}}, ["metadata", "confidence"]),
    ],
)
def test_gish_note_rejects(change: dict, path: list):
    front = load_front_matter("examples/multi_cli/memory/knowledge/feedback/verify-final-state.md") | change
    assert {tuple(p) for p, _ in error_paths(validator("ghost-in-shell", "note"), front)} == {tuple(path)}


def test_gish_workspace_config_template_validates():
    config = load_yaml("gshell_memory/templates/identity/config.yml.template")
    assert error_paths(validator("ghost-in-shell", "workspace-config"), config) == []


@pytest.mark.parametrize("value", [0, -5, "20000"])
def test_gish_workspace_config_index_budget_is_a_positive_integer(value):
    config = {"index": {"max_chars": value}}
    paths = [p for p, _ in error_paths(validator("ghost-in-shell", "workspace-config"), config)]
    assert paths == [["index", "max_chars"]]


@pytest.mark.parametrize(
    "relpath",
    [
        "examples/minimal/memory/runtime_profiles.yml",
        "examples/multi_cli/memory/runtime_profiles.yml",
        "legacy/v4.1/examples/multi_cli_memory/memory/runtime_profiles.yml",  # JSON syntax
    ],
)
def test_gish_runtime_profiles_validate(relpath: str):
    assert error_paths(validator("ghost-in-shell", "runtime-profiles"), load_yaml(relpath)) == []


def test_gish_association():
    check = validator("ghost-in-shell", "associations")
    good = {
        "ts": "2026-01-03T14:30:00Z",
        "src": {"kind": "episode", "id": "ep_1"},
        "dst": {"kind": "fact", "id": "rules"},
        "type": "supports",
        "weight": 0.5,
        "evidence": "same incident",
        "created_by": "gish",
    }
    assert error_paths(check, good) == []
    assert [p for p, _ in error_paths(check, good | {"weight": 1.5})] == [["weight"]]
    assert [p for p, _ in error_paths(check, good | {"src": {"kind": "episode"}})] == [["src"]]


@pytest.mark.parametrize("kind", ["startup-index", "shelf-index"])
def test_gish_index_front_matter_is_permissive(kind: str):
    check = validator("ghost-in-shell", kind)
    assert error_paths(check, {}) == []
    assert error_paths(check, {"anything": [1, 2]}) == []


# ------------------------------------------------------------------ three-layer


@pytest.mark.parametrize(
    "relpath",
    [
        "legacy/v4.1/examples/minimal/memory/episodic.jsonl",
        "legacy/v4.1/examples/multi_cli_memory/memory/episodic.jsonl",
    ],
)
@pytest.mark.parametrize("kind", ["episodic", "episode-archive"])
def test_three_layer_legacy_episodes_validate(relpath: str, kind: str):
    check = validator("three-layer", kind)
    records = load_jsonl(relpath)
    assert records
    for record in records:
        assert error_paths(check, record) == []


def test_three_layer_episode_forms():
    check = validator("three-layer", "episodic")
    modern = {
        "ts": "2026-01-02T10:00:00+00:00",
        "type": "lesson",
        "summary": "s",
        "detail": "d",
        "lesson": "l",
        "tags": ["a", "b"],
        "expires": "2026-06-01",
    }
    assert error_paths(check, modern) == []
    assert error_paths(check, modern | {"type": "anything-goes"}) == []
    no_time = {k: v for k, v in modern.items() if k != "ts"}
    assert error_paths(check, no_time) == [([], "anyOf")]
    no_summary = {k: v for k, v in modern.items() if k != "summary"}
    assert error_paths(check, no_summary) == [([], "anyOf")]
    assert error_paths(check, {k: v for k, v in modern.items() if k != "tags"}) == [([], "required")]


@pytest.mark.parametrize(
    "relpath",
    [
        "legacy/v4.1/examples/minimal/memory/fact.yml",
        "legacy/v4.1/examples/multi_cli_memory/memory/fact.yml",
        "legacy/v4.1/examples/multi_cli_memory/memory/fact_governance.yml",
    ],
)
def test_three_layer_facts_validate(relpath: str):
    assert error_paths(validator("three-layer", "facts"), load_yaml(relpath)) == []


def test_three_layer_facts_must_be_a_mapping():
    assert error_paths(validator("three-layer", "facts"), ["a", "b"]) == [([], "type")]


def test_three_layer_note_is_permissive():
    check = validator("three-layer", "note")
    assert error_paths(check, {}) == []
    assert [p for p, _ in error_paths(check, {"tags": "x"})] == [["tags"]]


# ------------------------------------------------------------------ claude-code


def test_claude_code_note():
    check = validator("claude-code", "note")
    good = {"name": "n", "description": "one line", "type": "feedback"}
    assert error_paths(check, good) == []
    assert error_paths(check, good | {"expires": "2026-06-01", "tags": ["x", "y"]}) == []
    assert [p for p, _ in error_paths(check, good | {"type": "fact"})] == [["type"]]
    # type is required once: at the top (older Claude Code) or under metadata (current Claude Code)
    assert error_paths(check, {"name": "n", "description": "d"}) == [([], "anyOf")]
    current = {"name": "n", "description": "d", "metadata": {"node_type": "memory", "type": "project", "originSessionId": "x"}}
    assert error_paths(check, current) == []
    assert error_paths(check, current | {"metadata": {"type": "project", "expires": "2026-06-01"}}) == []
    assert [p for p, _ in error_paths(check, current | {"metadata": {"type": "fact"}})] != []
    assert error_paths(check, {"name": "n", "description": "d", "metadata": {"node_type": "memory"}}) == [([], "anyOf")]


# ------------------------------------------------------------------ the messages a user reads, through the CLI


def _schema_messages(cli, root) -> list[tuple[str, int, str]]:
    result = cli("check", "--select", "schema-violation", "--format", "json", ".", cwd=root)
    return [(f["path"], f["line"], f["message"]) for f in result.json()["findings"]]


def test_claude_code_note_without_type_anywhere_says_where_it_may_be(workspace, cli):
    root = workspace(
        {
            "MEMORY.md": "- [A](a.md) — a\n- [B](b.md) — b\n- [C](c.md) — c\n- [D](d.md) — d\n- [E](e.md) — e\n",
            # neither layout has a type
            "a.md": "---\nname: a\ndescription: d\n---\nbody\n",
            "b.md": "---\nname: b\ndescription: d\nmetadata:\n  node_type: memory\n  originSessionId: x\n---\nbody\n",
            # both layouts, as real Claude Code folders mix them
            "c.md": "---\nname: c\ndescription: d\ntype: feedback\noriginSessionId: x\n---\nbody\n",
            "d.md": "---\nname: d\ndescription: d\nmetadata:\n  node_type: memory\n  type: project\n"
            "  originSessionId: 492e1a7e\n  modified: 2026-07-27T05:30:15.269Z\n---\nbody\n",
            # a wrong type is still named as such, wherever it is
            "e.md": "---\nname: e\ndescription: d\nmetadata:\n  type: projects\n---\nbody\n",
        }
    )
    assert _schema_messages(cli, root) == [
        ("a.md", 2, "$: missing 'type' (at the top or under metadata)"),
        ("b.md", 2, "$: missing 'type' (at the top or under metadata)"),
        ("e.md", 5, "$.metadata.type: 'projects' is not one of: user, feedback, project, reference"),
    ]


def test_claude_code_note_missing_name_and_type_names_both(workspace, cli):
    root = workspace({"MEMORY.md": "- [A](a.md) — a\n", "a.md": "---\ndescription: d\n---\nbody\n"})
    messages = sorted(m for _, _, m in _schema_messages(cli, root))
    assert messages == ["$: missing 'type' (at the top or under metadata)", "$: missing required key 'name'"]


def test_three_layer_episode_without_time_or_summary_names_the_legacy_key_too(workspace, cli):
    root = workspace(
        {
            "memory/episodic.jsonl": '{"type": "lesson", "tags": ["a", "b"], "detail": "d"}\n'
            '{"type": "lesson", "tags": ["a", "b"], "date": "2026-01-02", "title": "t"}\n',
        }
    )
    assert sorted(_schema_messages(cli, root)) == [
        ("memory/episodic.jsonl", 1, "$: missing 'summary' (or the legacy 'title')"),
        ("memory/episodic.jsonl", 1, "$: missing 'ts' (or the legacy 'date')"),
    ]


def test_gish_facts_list_under_tools_is_not_reported(workspace, cli):
    facts = (CORPUS / "examples/multi_cli/memory/fact.yml").read_text(encoding="utf-8")
    root = workspace({"memory/fact.yml": facts, "MEMORY.md": "# Memory Index\n"})
    assert _schema_messages(cli, root) == []


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_an_error_message_sits_only_beside_an_anyof_or_oneof(path: Path):
    """memwarden reads `errorMessage` only there; anywhere else it would be silently ignored."""

    def walk(node):
        if isinstance(node, dict):
            if "errorMessage" in node:
                assert "anyOf" in node or "oneOf" in node, node
                assert isinstance(node["errorMessage"], str) and node["errorMessage"]
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(json.loads(path.read_text(encoding="utf-8")))

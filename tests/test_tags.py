"""too-few-tags and unnormalized-tags, their fixes through the CLI, and the list-editing helpers they use."""

from __future__ import annotations

import difflib
import json
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from memwarden.documents import load
from memwarden.fixes.apply import apply_edits
from memwarden.fixes.edits import json_append_items, json_rewrite_items, yaml_append_items, yaml_rewrite_items
from memwarden.rules.tags import normalized
from memwarden.discover.profiles import Kind

BOM = b"\xef\xbb\xbf"
FINGERPRINT = "0" * 64


def episode(number: int, title: str, content: str, tags, **extra) -> dict:
    """A gish 5 episode with every required field."""
    record = {
        "id": f"ep_{number:08d}",
        "ts": f"2026-03-{number:02d}T10:00:00+08:00",
        "type": "insight",
        "title": title,
        "content": content,
        "tags": tags,
        "importance": 5,
        "fingerprint": FINGERPRINT,
        "decay_status": "active",
        "retrieval": {"count": 0, "last_accessed": None, "strength": 0.5},
    }
    record.update(extra)
    return record


def jsonl(*records, compact: bool = False, newline: str = "\n", ascii_only: bool = False) -> str:
    separators = (",", ":") if compact else (", ", ": ")
    return "".join(json.dumps(r, separators=separators, ensure_ascii=ascii_only) + newline for r in records)


def changes(before: bytes, after: bytes) -> list[tuple[str, list[bytes], list[bytes]]]:
    """The lines that differ, as difflib opcodes (tag, old lines, new lines)."""
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    return [(tag, old[i1:i2], new[j1:j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def findings(result, code: str | None = None) -> list[dict]:
    found = result.json()["findings"]
    return [f for f in found if code is None or f["code"] == code]


def front_matter(data: bytes) -> dict:
    text = data.decode("utf-8-sig").replace("\r\n", "\n")
    assert text.startswith("---\n")
    return YAML(typ="safe").load(text.split("---\n")[1])


# -- too-few-tags ------------------------------------------------------------------


def test_an_episode_with_one_tag_is_reported_at_its_tags_key(workspace, cli):
    root = workspace({"memory/episodic.jsonl": jsonl(episode(1, "Pinned Node", "Pinned Node 18", ["node"]))})
    result = cli("check", "--select", "too-few-tags", "--format", "json", ".", cwd=root)
    assert result.exit_code == 1
    [finding] = findings(result)
    assert finding["name"] == "too-few-tags"
    assert finding["message"] == "episode has 1 distinct tag; at least 2 are needed"
    line = (root / "memory/episodic.jsonl").read_text().splitlines()[0]
    assert finding["line"] == 1 and finding["column"] == line.index('"tags"') + 1
    assert finding["json_path"] == "$.tags"
    assert "fix" not in finding  # nothing in the workspace's vocabulary fits


def test_tags_that_differ_only_in_case_or_space_count_once(workspace, cli):
    root = workspace({"memory/episodic.jsonl": jsonl(episode(1, "t", "c", ["Deploy", " deploy", "DEPLOY "]))})
    result = cli("check", "--select", "MW2", "--format", "json", ".", cwd=root)
    [few] = findings(result, "MW201")
    assert "1 distinct tag" in few["message"] and "count once" in few["message"]
    assert findings(result, "MW202")


def test_two_distinct_tags_pass_and_min_tags_is_configurable(workspace, cli):
    record = episode(1, "t", "c", ["deploy", "node"])
    root = workspace({"memory/episodic.jsonl": jsonl(record)})
    assert cli("check", "--select", "too-few-tags", ".", cwd=root).exit_code == 0
    (root / ".memwarden.toml").write_text("[rules.too-few-tags]\nmin_tags = 3\n")
    result = cli("check", "--select", "too-few-tags", "--format", "json", ".", cwd=root)
    assert [f["message"] for f in findings(result)] == ["episode has 2 distinct tags; at least 3 are needed"]
    (root / ".memwarden.toml").write_text("[rules.too-few-tags]\nmin_tags = 'three'\n")
    bad = cli("check", ".", cwd=root)
    assert bad.exit_code == 2 and "min_tags must be an integer" in bad.stderr


def test_an_episode_without_tags_is_left_to_the_schema_rule(workspace, cli):
    record = episode(1, "t", "c", ["x"])
    del record["tags"]
    root = workspace({"memory/episodic.jsonl": jsonl(record)})
    result = cli("check", "--select", "too-few-tags,schema-violation", "--format", "json", ".", cwd=root)
    assert [f["name"] for f in findings(result)] == ["schema-violation"]


def test_three_layer_episodes_are_checked_too(workspace, cli):
    record = {"ts": "2026-03-01T10:00:00+08:00", "type": "decision", "summary": "Chose X", "tags": ["x"]}
    root = workspace({"memory/episodic.jsonl": jsonl(record), "memory/fact.yml": "user:\n  name: A\n"})
    result = cli("check", "--select", "too-few-tags", "--format", "json", ".", cwd=root)
    assert result.json()["summary"]["workspaces"][0]["profile"] == "three-layer"
    assert len(findings(result, "MW201")) == 1


NOTE = """---
name: deploy-flags
description: Flags the deploy script accepts
metadata:
  type: reference
  updated: 2026-03-01
{tags}---

Body.
"""


def test_a_note_is_checked_only_when_it_has_tags(workspace, cli):
    root = workspace(
        {
            "memory/knowledge/references/deploy-flags.md": NOTE.format(tags="tags: [deploy]\n"),
            "memory/knowledge/references/untagged.md": NOTE.format(tags="").replace("deploy-flags", "untagged"),
        }
    )
    result = cli("check", "--select", "too-few-tags", "--format", "json", ".", cwd=root)
    [finding] = findings(result)
    assert finding["path"].endswith("deploy-flags.md") and finding["message"].startswith("note has 1 distinct tag")
    assert (finding["line"], finding["column"]) == (7, 1)


def test_unsafe_fix_adds_only_workspace_tags_the_entry_mentions(workspace, cli):
    others = [
        episode(1, "Deploy failed", "The deploy hit an API timeout", ["deploy", "api"]),
        episode(2, "Deploy again", "Second deploy", ["deploy", "ci"]),
        episode(3, "Node", "Pinned node", ["node", "api"]),
    ]
    target = episode(4, "Rapid deploy rollback", "We rolled back the deploy on the CI runner; rapid fix.", ["rollback"])
    before = (jsonl(*others) + jsonl(target)).encode()
    root = workspace({"memory/episodic.jsonl": before})

    result = cli("check", "--select", "too-few-tags", "--format", "json", ".", cwd=root)
    [finding] = findings(result)
    assert finding["fix"]["applicability"] == "unsafe"
    assert "'deploy'" in finding["fix"]["description"]

    safe_only = cli("check", "--select", "too-few-tags", "--fix", ".", cwd=root)
    assert safe_only.exit_code == 1
    assert (root / "memory/episodic.jsonl").read_bytes() == before  # an unsafe fix needs --unsafe-fixes

    fixed = cli("check", "--select", "too-few-tags", "--fix", "--unsafe-fixes", ".", cwd=root)
    assert fixed.exit_code == 0, fixed
    after = (root / "memory/episodic.jsonl").read_bytes()
    [(tag, old, new)] = changes(before, after)
    assert tag == "replace" and len(old) == len(new) == 1
    record = json.loads(new[0])
    # "deploy" is used by two other entries, so it comes first; "api" must not match "rapid",
    # and "ci" is added only if still needed (it is not: min_tags is 2).
    assert record["tags"] == ["rollback", "deploy"]
    assert old[0].replace(b'["rollback"]', b'["rollback", "deploy"]') == new[0]
    again = cli("check", "--select", "too-few-tags", "--fix", "--unsafe-fixes", ".", cwd=root)
    assert again.exit_code == 0 and (root / "memory/episodic.jsonl").read_bytes() == after


def test_no_fix_when_no_workspace_tag_appears_in_the_text(workspace, cli):
    root = workspace(
        {
            "memory/episodic.jsonl": jsonl(
                episode(1, "Deploy", "deploy", ["deploy", "api"]),
                episode(2, "Unrelated", "Something about the printer", ["printer"]),
            )
        }
    )
    result = cli("check", "--select", "too-few-tags", "--format", "json", ".", cwd=root)
    [finding] = findings(result)
    assert "fix" not in finding
    fixed = cli("check", "--select", "too-few-tags", "--fix", "--unsafe-fixes", ".", cwd=root)
    assert fixed.exit_code == 1


def test_cjk_tags_match_anywhere_in_the_text_and_keep_the_record_style(workspace, cli):
    before = jsonl(
        episode(1, "部署", "部署腳本", ["部署", "腳本"]),
        episode(2, "部署失敗", "今天部署腳本又失敗了", []),
        compact=True,
        newline="\r\n",
    ).encode()
    root = workspace({"memory/episodic.jsonl": before})
    assert cli("check", "--select", "too-few-tags", "--fix", "--unsafe-fixes", ".", cwd=root).exit_code == 0
    after = (root / "memory/episodic.jsonl").read_bytes()
    [(tag, old, new)] = changes(before, after)
    assert old[0].replace('"tags":[]'.encode(), '"tags":["部署","腳本"]'.encode()) == new[0]
    assert new[0].endswith(b"\r\n")


def test_a_note_gets_tags_in_its_own_list_style(workspace, cli):
    note = NOTE.replace("Body.", "The deploy script takes an env flag.").format(tags="tags:\n  - 'flags'  # first\n")
    other = NOTE.replace("deploy-flags", "other").format(tags="tags: [deploy, scripts]\n")
    root = workspace({"memory/knowledge/references/deploy-flags.md": note, "memory/knowledge/references/other.md": other})
    assert cli("check", "--select", "too-few-tags", "--fix", "--unsafe-fixes", ".", cwd=root).exit_code == 0
    after = (root / "memory/knowledge/references/deploy-flags.md").read_bytes()
    [(tag, old, new)] = changes(note.encode(), after)
    assert tag == "insert" and new == [b"  - 'deploy'\n"]
    assert front_matter(after)["tags"] == ["flags", "deploy"]


# -- unnormalized-tags -------------------------------------------------------------


def test_unnormalized_tags_in_a_jsonl_with_bom_and_crlf_change_only_that_line(workspace, cli):
    good = episode(1, "a", "b", ["deploy", "ci"])
    bad = episode(2, "c", "d", ["Deploy", " CI ", "deploy", "", "Runtime:Claude-Code"])
    before = BOM + jsonl(good, bad, good | {"id": "ep_00000003"}, newline="\r\n", ascii_only=True).encode()
    root = workspace({"memory/episodic.jsonl": before})

    result = cli("check", "--select", "unnormalized-tags", "--format", "json", ".", cwd=root)
    [finding] = findings(result)
    assert finding["line"] == 2 and finding["fix"]["applicability"] == "safe"
    assert "'Deploy' → 'deploy'" in finding["message"] and "duplicate 'deploy' removed" in finding["message"]

    diff = cli("check", "--select", "unnormalized-tags", "--diff", ".", cwd=root)
    assert diff.exit_code == 1 and '+{"id": "ep_00000002"' in diff.stdout
    assert (root / "memory/episodic.jsonl").read_bytes() == before  # --diff writes nothing

    assert cli("check", "--select", "unnormalized-tags", "--fix", ".", cwd=root).exit_code == 0
    after = (root / "memory/episodic.jsonl").read_bytes()
    assert after.startswith(BOM) and after.count(b"\r\n") == 3
    [(tag, old, new)] = changes(before, after)
    assert tag == "replace" and len(new) == 1
    assert json.loads(new[0])["tags"] == ["deploy", "ci", "runtime:claude-code"]
    assert old[0].replace(
        b'["Deploy", " CI ", "deploy", "", "Runtime:Claude-Code"]', b'["deploy", "ci", "runtime:claude-code"]'
    ) == new[0]
    assert cli("check", "--select", "unnormalized-tags", "--fix", ".", cwd=root).exit_code == 0
    assert (root / "memory/episodic.jsonl").read_bytes() == after


def test_unnormalized_tags_in_a_block_list_keep_comments_quotes_and_crlf(workspace, cli):
    note = (
        "\ufeff---\r\n"
        "name: deploy-flags\r\n"
        "description: Flags the deploy script accepts\r\n"
        "metadata:\r\n"
        "  type: reference\r\n"
        "  updated: 2026-03-01\r\n"
        "tags:   # how we find it\r\n"
        "  - 'Deploy'   # main\r\n"
        '  - " scripts"\r\n'
        "  - deploy # again\r\n"
        "  - runtime:Claude-Code\r\n"
        "---\r\n"
        "\r\n"
        "Body.\r\n"
    )
    before = note.encode("utf-8")
    root = workspace({"memory/knowledge/references/deploy-flags.md": before})
    assert cli("check", "--select", "unnormalized-tags", "--fix", ".", cwd=root).exit_code == 0
    after = (root / "memory/knowledge/references/deploy-flags.md").read_bytes()
    assert after.startswith(BOM)
    assert changes(before, after) == [
        (
            "replace",
            [b"  - 'Deploy'   # main\r\n", b'  - " scripts"\r\n', b"  - deploy # again\r\n", b"  - runtime:Claude-Code\r\n"],
            [b"  - 'deploy'   # main\r\n", b'  - "scripts"\r\n', b"  # again\r\n", b"  - runtime:claude-code\r\n"],
        )
    ]
    assert front_matter(after)["tags"] == ["deploy", "scripts", "runtime:claude-code"]
    assert cli("check", "--select", "unnormalized-tags", "--fix", ".", cwd=root).exit_code == 0
    assert (root / "memory/knowledge/references/deploy-flags.md").read_bytes() == after


def test_unnormalized_tags_in_a_flow_list(workspace, cli):
    note = NOTE.format(tags='tags: [Deploy, "deploy", Scripts]  # flow\n')
    root = workspace({"memory/knowledge/references/deploy-flags.md": note})
    assert cli("check", "--select", "MW202", "--fix", ".", cwd=root).exit_code == 0
    after = (root / "memory/knowledge/references/deploy-flags.md").read_bytes()
    assert changes(note.encode(), after) == [
        ("replace", [b'tags: [Deploy, "deploy", Scripts]  # flow\n'], [b"tags: [deploy, scripts]  # flow\n"])
    ]


def test_normalised_tags_are_not_reported(workspace, cli):
    root = workspace({"memory/episodic.jsonl": jsonl(episode(1, "a", "b", ["deploy", "runtime:claude-code"]))})
    assert cli("check", "--select", "MW2", ".", cwd=root).exit_code == 0


@pytest.mark.parametrize("output_format", ["json", "sarif", "github", "text"])
def test_tag_rules_appear_in_every_output_format(workspace, cli, output_format):
    root = workspace({"memory/episodic.jsonl": jsonl(episode(1, "a", "b", ["Deploy"]))})
    result = cli("check", "--select", "MW2", "--format", output_format, ".", cwd=root)
    assert result.exit_code == 1
    if output_format == "sarif":
        run = json.loads(result.stdout)["runs"][0]
        assert {r["ruleId"] for r in run["results"]} == {"MW201", "MW202"}
        assert {"MW201", "MW202"} <= {r["id"] for r in run["tool"]["driver"]["rules"]}
    else:
        assert "too-few-tags" in result.stdout and "unnormalized-tags" in result.stdout


# -- the helpers ------------------------------------------------------------------------


def test_normalized_keeps_first_occurrence_order():
    assert normalized([" B", "a", "b", "", 3, "A "]) == ["b", "a"]


def _yaml(text: str):
    doc = load(Path("/nonexistent"), "x.yml", Kind("facts", "yaml", ("x.yml",), ""), text.encode())
    assert doc.ok, doc.error
    return doc


@pytest.mark.parametrize(
    "text, values, expected",
    [
        ("tags:\n- a\n- b # c\n", ["x y", "true", "2026-01-01"], 'tags:\n- a\n- b # c\n- "x y"\n- "true"\n- "2026-01-01"\n'),
        ("tags:\n  - 'a'\n", ["it's"], "tags:\n  - 'a'\n  - 'it''s'\n"),
        ('tags: ["a"]\n', ["b"], 'tags: ["a", "b"]\n'),
        ("tags: [a,b]\n", ["c"], "tags: [a,b,c]\n"),
        ("tags: []\n", ["b", "c"], "tags: [b, c]\n"),
        ("tags:\n  - a\nnext: 1", ["b"], "tags:\n  - a\n  - b\nnext: 1"),
        ("- tags:\n  - a\n  - b\n", ["c"], None),  # not at ("tags",): no such path
    ],
)
def test_yaml_append_items(text, values, expected):
    doc = _yaml(text)
    edit = yaml_append_items(doc.text, doc.tree.spans, ("tags",), values, doc.newline)
    if expected is None:
        assert edit is None
        return
    out = apply_edits(doc.text, [edit])
    assert out == expected
    assert YAML(typ="safe").load(out)["tags"][-len(values):] == values


@pytest.mark.parametrize(
    "text, values, expected",
    [
        ("tags: [A, a, B, b]\n", ["a", None, "b", None], "tags: [a, b]\n"),
        ("tags: [A, A, B]\n", [None, "a", "b"], "tags: [a, b]\n"),
        ("tags: [A, A]\n", [None, None], "tags: []\n"),
        ("tags:\n  - TRUE\n  - Null\n", ["true", "null"], 'tags:\n  - "true"\n  - "null"\n'),
        ("tags:\n  - A\n  - a\n", ["a", None], "tags:\n  - a\n"),
        ("tags: [A, # why\n  a]\n", ["a", None], None),  # the comment would go with the item: no fix
    ],
)
def test_yaml_rewrite_items(text, values, expected):
    doc = _yaml(text)
    edits = yaml_rewrite_items(doc.text, doc.tree.spans, ("tags",), values)
    if expected is None:
        assert edits is None
        return
    assert apply_edits(doc.text, edits) == expected


def _record(line: str):
    doc = load(Path("/nonexistent"), "x.jsonl", Kind("episodic", "jsonl", ("x.jsonl",), ""), (line + "\n").encode())
    record = doc.records[0]
    return doc, record, record.source(doc), doc.positions(record).spans


@pytest.mark.parametrize(
    "line, values, expected",
    [
        ('{"tags": []}', ["x", "日本"], '{"tags": ["x", "日本"]}'),
        ('{"tags":[],"a":1}', ["x", "y"], '{"tags":["x","y"],"a":1}'),
        ('{"tags": [ "a" , "b" ]}', ["c"], '{"tags": [ "a" , "b" , "c" ]}'),
        ('{"t": "\\u4e0d", "tags": ["a"]}', ["日本"], '{"t": "\\u4e0d", "tags": ["a", "\\u65e5\\u672c"]}'),
    ],
)
def test_json_append_items(line, values, expected):
    doc, record, source, spans = _record(line)
    edit = json_append_items(source, spans, record.start, ("tags",), values)
    assert apply_edits(doc.text, [edit]) == expected + "\n"


@pytest.mark.parametrize(
    "line, values, expected",
    [
        ('{"tags": ["A", "a", "B"]}', ["a", None, "b"], '{"tags": ["a", "b"]}'),
        ('{"tags": ["A", "A", "b"]}', [None, "a", "b"], '{"tags": ["a", "b"]}'),
        ('{"tags":["A","A"]}', [None, None], '{"tags":[]}'),
        ('{"tags": ["\\u00c9"]}', ["é"], '{"tags": ["\\u00e9"]}'),
    ],
)
def test_json_rewrite_items(line, values, expected):
    doc, record, source, spans = _record(line)
    edits = json_rewrite_items(source, spans, record.start, ("tags",), values)
    assert apply_edits(doc.text, edits) == expected + "\n"

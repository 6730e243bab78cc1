"""Documents keep positions: every finding must be able to point at the right line."""

from __future__ import annotations

from pathlib import Path

import pytest

from memwarden.documents import load
from memwarden.discover.profiles import CLAUDE_CODE, GHOST_IN_SHELL, THREE_LAYER

from conftest import CORPUS

MULTI_CLI = CORPUS / "examples" / "multi_cli"


def doc_from(tmp_path: Path, relpath: str, data: bytes, profile=GHOST_IN_SHELL):
    path = tmp_path / relpath
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return load(tmp_path, relpath, profile.classify(relpath))


def test_yaml_keys_and_values_know_their_lines():
    doc = load(MULTI_CLI, "memory/fact.yml", GHOST_IN_SHELL.kind("facts"))
    assert doc.ok
    assert doc.locate(("tools", "cli_adapters")) == (21, 3)
    assert doc.locate(("identity", "timezone")) == (6, 3)
    assert doc.locate(("rules", 1)) == (18, 5)
    # a path that does not exist points at its closest parent
    assert doc.locate(("identity", "missing")) == (2, 1)
    assert doc.data["tools"]["cli_adapters"] == ["claude", "gemini", "codex", "copilot"]


def test_yaml_keeps_timestamps_as_written_and_finds_duplicates(tmp_path):
    doc = doc_from(tmp_path, "memory/fact.yml", b"a: 2026-02-30\nb:\n  c: 1\n  c: 2\n")
    assert doc.ok
    assert doc.data == {"a": "2026-02-30", "b": {"c": 1}}
    [dup] = doc.tree.duplicates
    assert (dup.key, dup.line, dup.column, dup.first_line) == ("c", 4, 3, 3)


def test_yaml_scalars_become_json_types(tmp_path):
    doc = doc_from(tmp_path, "memory/fact.yml", b"i: 010\nh: 0x1f\nf: 1.5\nb: true\nn: null\ns: 'yes'\n")
    assert doc.data == {"i": 10, "h": 31, "f": 1.5, "b": True, "n": None, "s": "yes"}


def test_jsonl_records_are_numbered_and_located():
    doc = load(MULTI_CLI, "memory/episodic.jsonl", GHOST_IN_SHELL.kind("episodic"))
    assert [r.line for r in doc.records] == [1, 2, 3]
    record = doc.records[1]
    line, column = doc.locate(record, ("tags", 1))
    assert line == 2
    assert doc.text[doc.offset(line, column) :].startswith('"decision"')
    key_line, key_column = doc.locate(record, ("importance",))
    assert doc.text[doc.offset(key_line, key_column) :].startswith('"importance"')


def test_one_bad_jsonl_line_hides_nothing(tmp_path):
    data = b'{"id": 1}\n{"id": 2\n\n{"id": 3}{"id": 4}\n'
    doc = doc_from(tmp_path, "memory/episodic.jsonl", data)
    assert doc.ok
    assert [(r.line, r.ok, r.shares_line) for r in doc.records] == [
        (1, True, False),
        (2, False, False),
        (4, True, False),
        (4, True, True),
    ]
    assert doc.blank_lines == [3]
    assert [r.data["id"] for r in doc.records if r.ok] == [1, 3, 4]


def test_jsonl_duplicate_keys_are_located(tmp_path):
    doc = doc_from(tmp_path, "memory/episodic.jsonl", b'{"a": {"b": 1, "b": 2}}\n')
    [(path, key, column)] = doc.records[0].duplicates
    assert (path, key, column) == (("a", "b"), "b", 16)


def test_crlf_and_bom_keep_positions_and_round_trip(tmp_path):
    text = "---\r\nname: x\r\ndescription: y\r\nmetadata:\r\n  type: feedback\r\n  updated: 2026-10-01\r\n---\r\n\r\nBody line.\r\n"
    data = b"\xef\xbb\xbf" + text.encode()
    doc = doc_from(tmp_path, "memory/knowledge/feedback/x.md", data)
    assert doc.ok and doc.bom == b"\xef\xbb\xbf" and doc.newline == "\r\n"
    assert doc.front_matter["metadata"]["type"] == "feedback"
    assert doc.locate(("metadata", "updated")) == (6, 3)
    assert doc.encode(doc.text) == data
    assert [(p.text, p.line) for p in doc.prose()] == [("Body line.", 9)]


def test_utf16_with_bom_is_read_as_text(tmp_path):
    data = "identity:\n  name: 記憶\n".encode("utf-16")
    doc = doc_from(tmp_path, "memory/fact.yml", data)
    assert doc.ok and doc.encoding.startswith("utf-16")
    assert doc.data == {"identity": {"name": "記憶"}}
    assert doc.encode(doc.text) == data


def test_markdown_prose_skips_code_urls_and_comments(tmp_path):
    body = (
        "---\nname: n\ndescription: d\nmetadata: {type: feedback, updated: 2026-01-01}\n---\n"
        "# Title\n\nFirst line with `inline code` and https://example.com/x here.\n"
        "second line of the same paragraph.\n\n```bash\nrm -rf / # not prose\n```\n\n"
        "<!-- a comment\nthat spans -->\n\n- item [link text](http://x.y/z) end\n"
    )
    doc = doc_from(tmp_path, "memory/knowledge/feedback/n.md", body.encode())
    spans = [(p.text, p.line) for p in doc.prose()]
    assert spans == [
        ("Title", 6),
        ("First line with CODE and   here.", 8),
        ("second line of the same paragraph.", 9),
        ("item link text end", 18),
    ]
    assert {11, 12, 13, 15, 16} <= doc.hidden_lines


@pytest.mark.parametrize("body", [
    # mistune puts a list that follows a quote line, then a heading, before the quote in its tree
    "# Garden shed\n\n> Tip: the spare key hides under the `blue pot`.\n- Watering runs at dawn.\n## Weather feed\n"
    "The Brightsky API does not support hourly rain data.\nThe Skyfeed service has no radar layer for our region.\n",
    "> Quoted **advice**.\n1. First step.\n# Next\nOne line.\n",
    "> Plain quote.\n- item one\n- item two\n## Then\nA paragraph\nover two lines.\n",
])
def test_each_prose_span_is_on_its_own_source_line(tmp_path, body):
    doc = doc_from(tmp_path, "memory/knowledge/feedback/n.md", ("---\nname: n\n---\n\n" + body).encode())
    lines = doc.text.split("\n")
    spans = doc.prose()
    assert spans and [p.line for p in spans] == sorted(p.line for p in spans)
    for span in spans:
        assert span.text.split()[0] in lines[span.line - 1], (span.text, span.line)  # markup removed: a word


def test_index_entries_parse_triggers_reverse_marker_and_links():
    doc = load(MULTI_CLI, "MEMORY.md", GHOST_IN_SHELL.kind("startup-index"))
    first, second, shelf = doc.entries
    assert [t.text for t in first.triggers] == [
        "The tool returned success, so it is done",
        "it says it failed, retry the same thing",
    ]
    assert first.reverse and first.arrow
    assert first.link.target == "memory/knowledge/feedback/verify-final-state.md"
    assert not second.reverse and second.line == 11
    assert shelf.link.target == "memory/knowledge/INDEX_tools.md"


def test_claude_code_index_entries_have_hooks_not_triggers(tmp_path):
    doc = doc_from(tmp_path, "MEMORY.md", "- [User role](user_role.md) — data scientist\n".encode(), CLAUDE_CODE)
    [entry] = doc.entries
    assert entry.triggers == [] and not entry.arrow
    assert entry.hook == "data scientist" and entry.link.target == "user_role.md"


def test_entries_inside_code_fences_and_comments_are_not_entries(tmp_path):
    text = "```\n- \"a\" → [x](x.md)\n```\n<!--\n- \"b\" → [y](y.md)\n-->\n- \"c\" → [z](z.md)\n"
    doc = doc_from(tmp_path, "MEMORY.md", text.encode())
    assert [e.line for e in doc.entries] == [7]


@pytest.mark.parametrize("profile, relpath, kind", [
    (GHOST_IN_SHELL, "memory/knowledge/INDEX_tools.md", "shelf-index"),
    (GHOST_IN_SHELL, "memory/knowledge/feedback/a.md", "note"),
    (GHOST_IN_SHELL, "memory/_archive/2026/episodic_consolidated.jsonl", "episode-archive"),
    (GHOST_IN_SHELL, "memory/knowledge/deep/er/a.md", "note"),  # below a shelf folder: a note too, as gish lints it
    (GHOST_IN_SHELL, "memory/knowledge/a.md", None),
    (THREE_LAYER, "memory/fact_tools.yml", "facts"),
    (THREE_LAYER, "AGENTS.md", "agent-instructions"),
    (CLAUDE_CODE, "MEMORY.md", "startup-index"),
    (CLAUDE_CODE, "README.md", None),
    (CLAUDE_CODE, "topic/sub.md", None),  # the memory folder is flat (issue #19)
])
def test_profiles_classify_paths(profile, relpath, kind):
    found = profile.classify(relpath)
    assert (found.name if found else None) == kind

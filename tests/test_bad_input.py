"""Bad input gets a clear finding or a clear error: never a traceback, never a hang."""

from __future__ import annotations

import json
import os

import pytest

from conftest import git, run_memwarden, write_files

GOOD_FACTS = "schema_version: 1\nidentity:\n  name: Agent\n"
GOOD_EPISODE = (
    '{"id": "ep_1", "ts": "2026-01-01T00:00:00Z", "type": "insight", "title": "t", "content": "c", '
    '"tags": ["a", "b"], "importance": 5, "fingerprint": "' + "a" * 64 + '", "decay_status": "active", '
    '"retrieval": {"count": 0}}\n'
)
BILLION_LAUGHS = """\
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
"""


def check_json(root):
    done = run_memwarden("check", "--format", "json", ".", cwd=root)
    stderr = done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in stderr, stderr
    assert done.returncode in (0, 1), stderr
    return json.loads(done.stdout)


def names_at(report, path):
    return sorted({f["name"] for f in report["findings"] if f["path"] == path})


def gish(tmp_path, files):
    base = {"MEMORY.md": "# Memory\n", "memory/fact.yml": GOOD_FACTS}
    base.update(files)
    return write_files(tmp_path / "ws", base)


def test_invalid_utf8_is_a_located_finding(tmp_path):
    root = gish(tmp_path, {"memory/fact.yml": b"identity:\n  name: caf\xe9\n"})
    report = check_json(root)
    [finding] = [f for f in report["findings"] if f["path"] == "memory/fact.yml"]
    assert finding["name"] == "unparsable-file"
    assert (finding["line"], finding["column"]) == (2, 12)
    assert "invalid UTF-8" in finding["message"]


def test_utf16_with_bom_is_read_and_checked(tmp_path):
    facts = "schema_version: 1\nidentity:\n  name: 記憶\npreferences:\n  communication: 1\n"
    root = gish(tmp_path, {"memory/fact.yml": facts.encode("utf-16")})
    report = check_json(root)
    [finding] = [f for f in report["findings"] if f["path"] == "memory/fact.yml"]
    assert (finding["name"], finding["line"], finding["json_path"]) == ("schema-violation", 5, "$.preferences.communication")


def test_crlf_files_are_located_like_lf_files(tmp_path):
    bad = GOOD_EPISODE.replace('"tags": ["a", "b"]', '"tags": "a"').replace("ep_1", "ep_2")
    root = gish(tmp_path, {"memory/episodic.jsonl": (GOOD_EPISODE + bad).replace("\n", "\r\n")})
    report = check_json(root)
    [finding] = [f for f in report["findings"] if f["path"] == "memory/episodic.jsonl"]
    assert (finding["name"], finding["line"], finding["json_path"]) == ("schema-violation", 2, "$.tags")


def test_nul_byte_is_reported_as_binary(tmp_path):
    root = gish(tmp_path, {"memory/knowledge/feedback/a.md": b"---\nname: a\x00\n---\n"})
    report = check_json(root)
    [finding] = [f for f in report["findings"] if f["path"] == "memory/knowledge/feedback/a.md"]
    assert finding["name"] == "unparsable-file" and "NUL" in finding["message"]
    assert finding["line"] == 2


@pytest.mark.parametrize("relpath, expected", [
    ("memory/fact.yml", ["schema-violation"]),
    ("memory/episodic.jsonl", []),
    ("memory/knowledge/feedback/a.md", ["schema-violation"]),
    ("MEMORY.md", []),
])
def test_empty_files(tmp_path, relpath, expected):
    root = gish(tmp_path, {relpath: b""})
    assert names_at(check_json(root), relpath) == expected


def test_ten_megabyte_single_line_jsonl(tmp_path):
    huge = '{"id": "ep_big", "content": "' + "x" * (10 * 1024 * 1024) + '"}'  # no final newline either
    root = gish(tmp_path, {"memory/episodic.jsonl": huge})
    report = check_json(root)
    assert names_at(report, "memory/episodic.jsonl") == ["malformed-jsonl", "schema-violation"]


def test_ten_megabyte_single_line_yaml(tmp_path):
    root = gish(tmp_path, {"memory/fact.yml": "identity: {name: '" + "y" * (10 * 1024 * 1024) + "'}\n"})
    report = check_json(root)
    assert names_at(report, "memory/fact.yml") == []


def test_yaml_alias_bomb_is_refused_without_expanding(tmp_path):
    root = gish(tmp_path, {"memory/fact.yml": BILLION_LAUGHS})
    report = check_json(root)
    [finding] = [f for f in report["findings"] if f["path"] == "memory/fact.yml"]
    assert finding["name"] == "unparsable-file" and "alias" in finding["message"]


def test_json_nested_ten_thousand_levels(tmp_path):
    deep = '{"id": "x", "a": ' + "[" * 10_000 + "]" * 10_000 + "}\n"
    root = gish(tmp_path, {"memory/episodic.jsonl": GOOD_EPISODE + deep + GOOD_EPISODE.replace("ep_1", "ep_2")})
    report = check_json(root)
    findings = [f for f in report["findings"] if f["path"] == "memory/episodic.jsonl"]
    assert [(f["name"], f["line"]) for f in findings] == [("unparsable-file", 2)]
    assert "nested deeper" in findings[0]["message"]


def test_yaml_nested_ten_thousand_levels(tmp_path):
    root = gish(tmp_path, {"memory/fact.yml": "a: " + "[" * 10_000 + "]" * 10_000 + "\n"})
    report = check_json(root)
    [finding] = [f for f in report["findings"] if f["path"] == "memory/fact.yml"]
    assert finding["name"] == "unparsable-file" and "nested" in finding["message"]


def test_symlink_outside_the_workspace_is_not_followed(tmp_path):
    secret = tmp_path / "outside.yml"
    secret.write_text("password: hunter2\n")
    root = gish(tmp_path, {})
    os.symlink(secret, root / "memory" / "fact.yml.tmp")
    (root / "memory" / "fact.yml").unlink()
    os.symlink(secret, root / "memory" / "fact.yml")
    report = check_json(root)
    [finding] = [f for f in report["findings"] if f["path"] == "memory/fact.yml"]
    assert finding["name"] == "unparsable-file" and "outside the workspace" in finding["message"]
    assert "hunter2" not in json.dumps(report)


@pytest.mark.parametrize("layout, unreadable", [
    ({".cursor/rules/style.mdc": "# Style\n\nCall `load_config()` first.\n"}, ".cursor/rules/gone.mdc"),
    ({".claude/memory/MEMORY.md": "- [Deploy](deploy.md): how we deploy\n"}, ".claude/memory/deploy.md"),
    ({"SOUL.md": "# Soul\n", "MEMORY.md": "# Memory\n\nCall `load_config()`.\n"}, "memory/2026-11-30.md"),
    ({".serena/memories/style.md": "# Style\n\nCall `load_config()`.\n"}, ".serena/memories/gone.md"),
    ({"AGENTS.md": "# Agents\n\nCall `load_config()`.\n"}, "CLAUDE.md"),
])
@pytest.mark.parametrize("how", ["dangling symlink", "folder"])
def test_an_unreadable_memory_file_in_a_repository_is_a_finding_for_every_rule(tmp_path, layout, unreadable, how):
    """A memory path that holds no text (a symlink committed to a file never committed, a folder named like a note)
    is unparsable-file's finding, and every rule that reads the repository's code beside it goes on (batch 18c: a
    Cursor rule committed as a symlink to a missing file crashed removed-symbol)."""
    root = write_files(tmp_path / "repo", {**layout, "src/app.py": "def load_config():\n    return {}\n"})
    target = root / unreadable
    target.parent.mkdir(parents=True, exist_ok=True)
    if how == "folder":
        target.mkdir()
        (target / "x.txt").write_text("x\n")
    else:
        os.symlink("missing-file.md", target)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "memory")
    for args in (("--preview",), ("--preview", "--no-cache"), ("--preview", "--select", "ALL,conflicting-records")):
        done = run_memwarden("check", "--format", "json", *args, ".", cwd=root)
        stderr = done.stderr.decode("utf-8", "replace")
        assert done.returncode in (0, 1) and "Traceback" not in stderr and "internal error" not in stderr, stderr
        found = {(f["name"], f["path"]) for f in json.loads(done.stdout)["findings"]}
        if how == "dangling symlink":  # a folder is no file of a kind whose files are found by a glob of files
            assert ("unparsable-file", unreadable) in found


def test_directory_named_like_a_memory_file(tmp_path):
    root = gish(tmp_path, {})
    (root / "memory" / "episodic.jsonl").mkdir()
    report = check_json(root)
    [finding] = [f for f in report["findings"] if f["path"] == "memory/episodic.jsonl"]
    assert finding["name"] == "unparsable-file" and "directory" in finding["message"]


def test_unclosed_front_matter(tmp_path):
    root = gish(tmp_path, {"memory/knowledge/feedback/a.md": "---\nname: a\n\nNo closing line.\n"})
    report = check_json(root)
    [finding] = [f for f in report["findings"] if f["path"] == "memory/knowledge/feedback/a.md"]
    assert finding["name"] == "unparsable-file" and "never closed" in finding["message"]


@pytest.mark.parametrize("text, front_matter", [
    ("---\n# Rotina diária\n\nTexto aqui: coisas: mais coisas.\n\n---\n\nMais texto.\n", False),  # a rule, prose
    ("---\n\n## Objetivo\nFazer isso e aquilo.\n", False),
    ("---\nThe deploy script: run it twice: once to warm.\n---\n", False),
    ("---\nname: a\ndescription: b\n---\n\nBody.\n", True),
    ("---\n# a YAML comment first\nname: a\n---\n\nBody.\n", True),
    ("---\nname: a: b\n---\n\nBody.\n", True),  # front matter YAML rejects: still a finding
    ("---\nname: a\n\nNo closing line.\n", True),
])
def test_a_note_that_opens_with_a_markdown_rule_has_no_front_matter(text, front_matter):
    """'---' then YAML (a key, a list item, the closing line) opens front matter; '---' then a sentence or a
    heading over prose is a thematic break, as CommonMark reads it."""
    from memwarden.documents.scan import opens_front_matter

    assert opens_front_matter(text) is front_matter


def test_a_memory_note_that_opens_with_a_rule_is_no_parse_error(tmp_path):
    text = "---\n# Rotina\n\nPasso 1: abrir o painel: conferir.\nPasso 2: revisar.\n\n---\n\nFim.\n"
    root = gish(tmp_path, {"memory/knowledge/tools/rotina.md": text})
    found = names_at(check_json(root), "memory/knowledge/tools/rotina.md")
    assert "unparsable-file" not in found and "schema-violation" in found  # a gish note without its front matter


def test_yaml_syntax_error_is_located(tmp_path):
    root = gish(tmp_path, {"memory/fact.yml": 'identity:\n  name: "Agent\n'})
    [finding] = [f for f in check_json(root)["findings"] if f["path"] == "memory/fact.yml"]
    assert finding["name"] == "unparsable-file" and finding["line"] >= 2


def test_missing_path_is_a_usage_error(tmp_path):
    done = run_memwarden("check", "no-such-dir", cwd=tmp_path)
    assert done.returncode == 2
    assert b"no such file or directory" in done.stderr and b"Traceback" not in done.stderr

"""shrunk-file (MW604): a memory file at half its size or less against the base, through the CLI and real git."""

from __future__ import annotations

from conftest import git, write_files

LESSON = "".join(f"Line {i} of the lesson about the deploy and the cache.\n" for i in range(20))


def note(body: str) -> str:
    return ("---\nname: a\ndescription: d\nmetadata:\n  type: feedback\n  updated: 2026-10-01\n---\n\n"
            f"{body}\n**Why:** x\n\n**How to apply:** y\n")


FILES = {
    ".gish/config.yml": "index: {}\n",
    "MEMORY.md": '- "the deploy said OK, so it is done" → [a](memory/knowledge/feedback/a.md)\n',
    "memory/knowledge/feedback/a.md": note(LESSON),
    "memory/fact.yml": "identity:\n  name: agent\n" + "".join(f"tool_{i}: version {i} works with the cache\n" for i in range(20)),
    "memory/episodic.jsonl": "".join(
        f'{{"id": "ep_{i}", "ts": "2026-01-0{i}T00:00:00Z", "type": "decision", "content": "{"x" * 200}", "tags": ["a", "b"]}}\n'
        for i in range(1, 4)
    ),
}


def shrunk(cli, root, *args):
    data = cli("check", str(root), "--select", "shrunk-file", "--format", "json", *args, cwd=root).json()
    return [(f["path"], f["severity"]) for f in data["findings"]], data


def test_a_note_halved_since_the_base_is_a_warning(git_repo, cli):
    root = git_repo(FILES)
    write_files(root, {"memory/knowledge/feedback/a.md": note(LESSON[:300])})
    found, data = shrunk(cli, root, "--base", "HEAD")
    assert found == [("memory/knowledge/feedback/a.md", "warning")]
    before, after = len(FILES["memory/knowledge/feedback/a.md"]), len(note(LESSON[:300]))
    assert f"shrank from {before:,} to {after:,} bytes" in data["findings"][0]["message"]
    assert "at HEAD" in data["findings"][0]["message"]
    # staged: only what is in the index counts
    assert shrunk(cli, root, "--staged")[0] == []
    git(root, "add", "-A")
    assert shrunk(cli, root, "--staged")[0] == [("memory/knowledge/feedback/a.md", "warning")]


def test_fact_file_halved_is_reported_and_a_small_trim_is_not(git_repo, cli):
    root = git_repo(FILES)
    facts = FILES["memory/fact.yml"].splitlines(keepends=True)
    write_files(root, {"memory/fact.yml": "".join(facts[:8]), "memory/knowledge/feedback/a.md": note(LESSON[:-60])})
    assert shrunk(cli, root, "--base", "HEAD")[0] == [("memory/fact.yml", "warning")]


def test_logs_emptied_notes_and_small_files_are_other_rules_business(git_repo, cli):
    root = git_repo({**FILES, "memory/knowledge/user/b.md": note("Short.\n").replace("name: a", "name: b")})
    write_files(root, {
        "memory/episodic.jsonl": FILES["memory/episodic.jsonl"].splitlines(keepends=True)[0],  # deleted-record's
        "memory/knowledge/feedback/a.md": "",  # deleted-note's
        "memory/knowledge/user/b.md": "---\nname: b\n---\n",  # under min_bytes at the base
    })
    assert shrunk(cli, root, "--base", "HEAD")[0] == []
    names = {f["name"] for f in cli("check", str(root), "--base", "HEAD", "--format", "json", cwd=root).json()["findings"]}
    assert {"deleted-record", "deleted-note"} <= names


def test_without_a_base_nothing_is_compared_and_options_apply(git_repo, cli):
    root = git_repo(FILES)
    write_files(root, {"memory/knowledge/feedback/a.md": note(LESSON[:700])})
    assert shrunk(cli, root)[0] == []
    assert shrunk(cli, root, "--base", "HEAD")[0] == []  # 70%: above the default ratio
    write_files(root, {".memwarden.toml": "[rules.shrunk-file]\nratio = 0.8\n"})
    assert shrunk(cli, root, "--base", "HEAD")[0] == [("memory/knowledge/feedback/a.md", "warning")]

"""What a note points at (issue 13, point 8): dangling-supersedes (MW409) and missing-machine-path (MW411)."""

from __future__ import annotations

GISH = {".gish/config.yml": "index: {}\n"}


def note(name: str, front: str = "", body: str = "The lesson.\n") -> str:
    return (f"---\nname: {name}\ndescription: one line\nmetadata:\n  type: reference\n  updated: 2026-10-01\n{front}"
            f"---\n\n{body}")


def found(cli, root, select):
    data = cli("check", str(root), "--select", select, "--format", "json", cwd=root).json()
    return sorted((f["path"], f["line"], f["message"]) for f in data["findings"])


def test_supersedes_must_name_a_note_that_exists_somewhere(workspace, cli):
    root = workspace({
        **GISH,
        "memory/knowledge/references/new.md": note("new", "  supersedes: old\n"),
        "memory/_archive/notes/old.md": note("old"),  # archived: still the note it replaced
        "memory/knowledge/references/b.md": note("b", "  supersedes: [[new]]\n"),
        "memory/knowledge/references/c.md": note("c", "  supersedes:\n    - new.md\n    - gone-note\n"),
        "memory/knowledge/references/d.md": note("d", "  superseded_by: memory/knowledge/references/nope.md\n"),
        "memory/knowledge/references/e.md": note("e", "  supersedes: the old way of deploying\n"),
        "memory/knowledge/references/f.md": note("f", "  supersedes: https://example.com/old\n"),
    })
    result = found(cli, root, "dangling-supersedes")
    assert [(path, line) for path, line, _ in result] == [
        ("memory/knowledge/references/c.md", 9),
        ("memory/knowledge/references/d.md", 7),
    ]
    assert "supersedes 'gone-note' names no note" in result[0][2]
    assert "superseded_by 'memory/knowledge/references/nope.md'" in result[1][2]


def test_supersedes_in_claude_code_notes(workspace, cli):
    cc = "---\nname: {n}\ndescription: d\ntype: project\n{extra}---\n\nBody.\n"
    root = workspace({
        "MEMORY.md": "- [a](a.md) a\n- [b](b.md) b\n",
        "a.md": cc.format(n="a", extra="supersedes: b\n"),
        "b.md": cc.format(n="b", extra="supersedes: project_old_api\n"),
    })
    assert [(p, line) for p, line, _ in found(cli, root, "MW409")] == [("b.md", 5)]


def test_absolute_paths_that_do_not_exist_here(workspace, cli, tmp_path):
    real = tmp_path / "real-tool"
    real.mkdir()
    body = (
        "The deploy script is `/opt/memwarden-test-missing/deploy.sh`; it purges the cache.\n"
        f"Logs go to /etc and the tool lives in {real}/bin.\n"  # /etc exists; tmp_path is not a root folder we check
        "Config: /etc/hosts, and /usr/memwarden-test-missing/app.toml.\n"
        "API: POST /v1/chat/completions and https://example.com/opt/x/y.\n"
        "Examples: /opt/<tool>/bin, /path/to/file, /home/alice/x, /tmp/build/x.log, /opt/.../x.\n"
        "```sh\n/opt/memwarden-test-missing/in-a-fence.sh\n```\n"
        "<!-- /opt/memwarden-test-missing/in-a-comment -->\n"
    )
    root = workspace({**GISH, "memory/knowledge/references/paths.md": note("paths", body=body)})
    result = found(cli, root, "missing-machine-path")
    assert [(line, message.split("'")[1]) for _, line, message in result] == [
        (9, "/opt/memwarden-test-missing/deploy.sh"),
        (11, "/usr/memwarden-test-missing/app.toml"),
    ]
    assert "does not exist on this machine" in result[0][2]


def test_paths_outside_notes_are_not_checked(workspace, cli):
    root = workspace({**GISH, "MEMORY.md": "# Index\n\nTool at /opt/memwarden-test-missing/x.sh\n",
                      "memory/fact.yml": "tool: /opt/memwarden-test-missing/x.sh\n"})
    assert found(cli, root, "missing-machine-path") == []

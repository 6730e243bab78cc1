"""What a note points at (issue 13, point 8): dangling-supersedes (MW409) and missing-machine-path (MW411)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import git, run_memwarden, write_files

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


# Paths outside the repository checked on every run, as on the owner's own machine.
ALWAYS = {".memwarden.toml": '[rules.missing-machine-path]\noutside_repository = "always"\n'}


def test_absolute_paths_that_do_not_exist_here(workspace, cli, tmp_path):
    real = tmp_path / "real-tool"
    real.mkdir()
    body = (
        "The deploy script is `/opt/memwarden-test-missing/deploy.sh`; it purges the cache.\n"
        f"Logs go to /etc and the tool lives in {real}/bin.\n"  # /etc exists; tmp_path is not a root folder we check
        "Config: /etc/hosts, and /usr/memwarden-test-missing/app.toml.\n"
        "API: POST /v1/chat/completions and https://example.com/opt/x/y.\n"
        "Examples: /opt/<tool>/bin, /path/to/file, /home/alice/x, /tmp/build/x.log, /opt/.../x, /mnt/c/Users/al/x.\n"
        "```sh\n/opt/memwarden-test-missing/in-a-fence.sh\n```\n"
        "<!-- /opt/memwarden-test-missing/in-a-comment -->\n"
    )
    root = workspace({**GISH, "memory/knowledge/references/paths.md": note("paths", body=body), **ALWAYS})
    result = found(cli, root, "missing-machine-path")
    assert [(line, message.split("'")[1]) for _, line, message in result] == [
        (9, "/opt/memwarden-test-missing/deploy.sh"),
        (11, "/usr/memwarden-test-missing/app.toml"),
    ]
    assert "does not exist on this machine" in result[0][2]


def test_paths_outside_notes_are_not_checked(workspace, cli):
    root = workspace({**GISH, "MEMORY.md": "# Index\n\nTool at /opt/memwarden-test-missing/x.sh\n",
                      "memory/fact.yml": "tool: /opt/memwarden-test-missing/x.sh\n", **ALWAYS})
    assert found(cli, root, "missing-machine-path") == []


# -- missing-machine-path: settled only where the answer is at hand (issue 29) ---------------------


def repository_note(tmp_path, body_for) -> Path:
    """A git repository with a gish workspace, its source, and one note whose body names paths below the root."""
    root = tmp_path / "app"
    write_files(root, {**GISH, "src/deploy.sh": "echo deploy\n"})
    git(root, "init", "-q")
    write_files(root, {"memory/knowledge/references/paths.md": note("paths", body=body_for(root))})
    return root


def test_by_default_only_paths_inside_the_repository_are_reported(tmp_path, cli):
    root = repository_note(tmp_path, lambda root: (
        f"The deploy script is {root}/src/deploy.sh, the old one was {root}/scripts/deploy.sh.\n"
        "The server keeps it in /opt/memwarden-test-missing/deploy.sh and /mnt/c/memwarden-test-missing/x.\n"
    ))
    result = found(cli, root, "missing-machine-path")
    assert [(line, message.split("'")[1]) for _, line, message in result] == [(9, "scripts/deploy.sh")]
    assert "in this repository, which has no such file" in result[0][2]


def test_the_hook_on_the_owners_machine_checks_paths_outside_the_repository(tmp_path):
    body = "The deploy script is `/opt/memwarden-test-missing/deploy.sh`.\n"
    root = repository_note(tmp_path, lambda root: "The lesson.\n")
    relpath = "memory/knowledge/references/paths.md"

    def hook_says(env: dict) -> str:
        path = root / relpath
        path.write_text(note("paths", body=body), "utf-8")
        payload = {"hook_event_name": "PostToolUse", "tool_name": "Write", "cwd": str(root),
                   "tool_input": {"file_path": str(path), "content": path.read_text("utf-8")},
                   "tool_response": {"filePath": str(path), "success": True}}
        done = run_memwarden("hook", cwd=root, input=json.dumps(payload).encode(),
                             env={"CLAUDE_PROJECT_DIR": str(root), "MEMWARDEN_NO_CACHE": "1", **env})
        return done.stdout.decode() + done.stderr.decode()

    on_owner_machine = hook_says({"CI": "", "GITHUB_ACTIONS": "", "GITLAB_CI": ""})
    assert "missing-machine-path" in on_owner_machine and "/opt/memwarden-test-missing/deploy.sh" in on_owner_machine
    assert "missing-machine-path" not in hook_says({"CI": "true", "GITHUB_ACTIONS": "", "GITLAB_CI": ""})
    (root / ".memwarden.toml").write_text('[rules.missing-machine-path]\noutside_repository = "never"\n', "utf-8")
    assert "missing-machine-path" not in hook_says({"CI": "", "GITHUB_ACTIONS": "", "GITLAB_CI": ""})


def test_an_unknown_outside_repository_value_is_a_usage_error(workspace, cli):
    root = workspace({**GISH, "memory/knowledge/references/p.md": note("p", body="At /opt/x/y.\n"),
                      ".memwarden.toml": '[rules.missing-machine-path]\noutside_repository = "sometimes"\n'})
    result = cli("check", str(root), "--select", "missing-machine-path", cwd=root)
    assert result.exit_code == 2
    assert "outside_repository must be one of hook, always, never, not 'sometimes'" in result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr


def test_paths_in_another_checkout_of_the_repository_are_settled_by_it(tmp_path, cli):
    """A devcontainer's /opt/<x>: a path below it that the repository has shows it is this repository elsewhere."""
    elsewhere = "/opt/memwarden-test-checkout"
    root = repository_note(tmp_path, lambda root: (
        f"Drafts: `{elsewhere}/drafts/bisect/index.md` and `{elsewhere}/drafts/worktree/index.md`.\n"
        f"Governance in {elsewhere}/AGENTS.md; the server's copy is /opt/memwarden-test-other/drafts/x/index.md.\n"
    ))
    write_files(root, {"drafts/bisect/index.md": "# bisect\n", "AGENTS.md": "# agents\n"})
    result = found(cli, root, "missing-machine-path")
    assert [(line, message.split("'")[3]) for _, line, message in result] == [(9, "drafts/worktree/index.md")]
    assert f"as '{elsewhere}/drafts/bisect/index.md' shows" in result[0][2]
    # No path below it that the repository has: nothing shows it is the repository, nothing is settled.
    (root / "drafts/bisect/index.md").unlink()
    assert found(cli, root, "missing-machine-path") == []

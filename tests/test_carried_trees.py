"""The trees an agent's workspace carries but did not write are left out of its walk (memwarden.discover.carried).

Each row of the table puts the same personal path (a home that names a person) in one file of an OpenClaw
workspace, and says whether `check` from the workspace root reads that file: memory, the owner's own files and
skills yes; a project or a checkout of its own, build output no. The same file named on the
command line, as pre-commit names a staged file, is always read (the guard leaves nothing out).
"""

from __future__ import annotations

import pytest

HOME = "/home/marguerite/notes/plan.txt"
WORKSPACE = {
    "SOUL.md": "# Soul\n\nCalm and careful.\n",
    "AGENTS.md": "# Agents\n\nRead memory/ first.\n",
    "memory/2026-11-30.md": "# 2026-11-30\n\nSet up the workspace.\n",
}

# (file holding the path, the folder's other files, read by the walk, why)
ROWS = [
    ("memory/2026-11-29.md", {}, True, "a daily note"),
    ("TOOLS.md", {}, True, "a bootstrap file"),
    ("scripts/backup.sh", {}, True, "the owner's script"),
    ("skills/mine/SKILL.md", {}, True, "the owner's own skill"),
    ("skills/mine/run.py", {"skills/mine/SKILL.md": "# Mine\n"}, True, "a script of the owner's own skill"),
    ("tools/fetch.py", {"tools/requirements.txt": "requests\n"}, True, "a requirements list makes no project"),
    ("build/notes.md", {}, True, "a folder named build: people write there"),
    # An installed skill is read: its owner edits it (their key in its config); personal-path knows its author.
    ("skills/weather/SKILL.md", {"skills/weather/_meta.json": '{"slug": "weather"}\n'}, True,
     "a skill installed from a registry (_meta.json)"),
    ("skills/mail/scripts/send.sh", {"skills/mail/SKILL.md": "# Mail\n", "skills/mail/.clawhub/origin.json": "{}\n",
                                     "skills/mail/package.json": "{}\n"}, True, "an installed skill with a package manifest"),
    ("dashboard/src/config.ts", {"dashboard/package.json": '{"name": "dashboard"}\n'}, False, "a project of its own"),
    ("charts/app/templates/deploy.yaml", {"charts/app/Chart.yaml": "name: app\n"}, False, "a vendored Helm chart"),
    ("tool/src/main.rs", {"tool/Cargo.toml": "[package]\nname = 'tool'\n"}, False, "a Rust project"),
    ("upstream/docs/setup.md", {"upstream/.git": "gitdir: ../.git/modules/upstream\n"}, False, "a submodule"),
    ("skills/mine/notes.md", {"skills/.clawhub/lock.json": "{}\n", "skills/mine/SKILL.md": "# Mine\n"}, True,
     "ClawHub's lock beside the skills is no skill"),
    ("backup/memory/infra.md", {"backup/package.json": "{}\n", "backup/SOUL.md": "# Soul\n"}, True,
     "a backed-up workspace whose root was a project"),
    ("memory/2026-11-28.md", {"memory/.git": "gitdir: ../.git/modules/memory\n"}, True, "memory kept as a submodule"),
    ("notes/plan.md", {"notes/package.json": "{}\n", "notes/MEMORY.md": "# Memory\n"}, True,
     "a folder with its own MEMORY.md beside a manifest"),
    ("dist/bundle.js", {}, False, "build output"),
    ("ios/DerivedData/log.txt", {}, False, "Xcode's build output"),
    ("browser/openclaw/user-data/Default/Preferences", {"browser/openclaw/user-data/Local State": "{}\n"}, False,
     "Chromium's user data: the browser's text"),
    ("tools/profile/extensions.json", {"tools/profile/prefs.js": "user_pref('a', 1);\n",
                                        "tools/profile/times.json": "{}\n"}, False, "a Firefox profile"),
    ("browser/notes.md", {"browser/Preferences": "{}\n"}, True, "a file named Preferences alone makes no profile"),
]


def _workspace(git_repo, path: str, others: dict[str, str]):
    files = dict(WORKSPACE)
    files.update(others)
    files[path] = f"# file\n\nSee {HOME} for the plan.\n"
    return git_repo(files)


def _reported(cli, root, *paths) -> set[str]:
    result = cli("check", "--format", "json", "--no-cache", "--exit-zero", "--preview", "--select", "personal-path",
                 *paths, cwd=root)
    assert result.exit_code == 0, result
    return {finding["path"] for finding in result.json()["findings"]}


@pytest.mark.parametrize("path, others, read, why", ROWS, ids=[row[3] for row in ROWS])
def test_the_walk_reads_memory_and_leaves_carried_trees_out(cli, git_repo, path, others, read, why):
    root = _workspace(git_repo, path, others)
    assert (path in _reported(cli, root)) is read, why


@pytest.mark.parametrize("path, others", [(row[0], row[1]) for row in ROWS if not row[2]], ids=[row[3] for row in ROWS if not row[2]])
def test_a_file_named_on_the_command_line_is_read_wherever_it_is(cli, git_repo, path, others):
    root = _workspace(git_repo, path, others)
    assert path in _reported(cli, root, path)


def test_the_workspace_root_is_never_carried(cli, git_repo):
    # A repository that is both a project (package.json at its root) and an OpenClaw workspace is read whole.
    root = _workspace(git_repo, "memory/2026-11-29.md", {"package.json": '{"name": "bot"}\n', "Cargo.toml": ""})
    assert "memory/2026-11-29.md" in _reported(cli, root)


def test_the_summary_counts_only_the_files_read(cli, git_repo):
    root = _workspace(git_repo, "dashboard/src/notes.md", {"dashboard/package.json": "{}\n", "notes/plan.md": "# Plan\n"})
    result = cli("check", "--format", "json", "--no-cache", "--exit-zero", cwd=root)
    assert result.exit_code == 0, result
    assert result.json()["summary"]["files"] == 4  # SOUL.md, AGENTS.md, the daily note, notes/plan.md


def test_a_folder_a_configured_kind_names_is_read_even_as_a_project(cli, git_repo):
    # A VitePress site (site/package.json) that the user's config names as memory is theirs to have read.
    config = '[kinds.lessons]\nglobs = ["site/lessons/*.md"]\nformat = "markdown"\n'
    root = _workspace(git_repo, "site/lessons/deploy.md", {"site/package.json": "{}\n", ".memwarden.toml": config})
    assert "site/lessons/deploy.md" in _reported(cli, root)

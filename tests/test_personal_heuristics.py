"""personal-path and personal-data on labelled tables (issue 29): what names a person, what does not.

Each table row is a line as memory holds it, whether it names a person, and why. The table tests
run the analysis the rules use and, failing, print the table's precision and every false finding
and every miss; the CLI tests run the rules on real files (symlinks included) in temp dirs.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memwarden.analysis.secrets.personal import EMAIL, find_contacts, find_home_paths, is_test_file

HOME_PATHS = [
    # named people
    ("logs in /Users/alice/Library/Logs", True, "macOS home"),
    ("cd /home/bob.smith/.config/app", True, "Linux home"),
    ("C:\\Users\\carol\\AppData\\Roaming", True, "Windows home"),
    ("C:/Users/dave/Desktop/notes.txt", True, "Windows home, forward slashes"),
    ('{"cwd": "C:\\\\Users\\\\erin\\\\src"}', True, "Windows home in JSON"),
    ("the repo is at /mnt/c/Users/frank/Documents/app", True, "WSL's view of a Windows home"),
    ("data in /mnt/d/Users/gina/data", True, "WSL, another drive"),
    ("Git Bash: /c/Users/hank/code", True, "Git Bash's view of a Windows home"),
    ("/cygdrive/c/Users/ivan/x", True, "Cygwin's view of a Windows home"),
    ("file:///home/judy/notes.txt", True, "a file URL"),
    ("run it from /home/talbot/work", True, "a surname that ends in 'bot'"),
    ("/Users/marci/Projects/site", True, "a name that ends in 'ci'"),
    ("cd /home/maria.k/src", True, "a login with a dot and an initial"),
    ("C:\\Users\\Wei\\Desktop", True, "a short Windows login"),
    ("/Users/li.na/Documents/plan.md", True, "a login with a dot, then a file"),
    # nobody's home: CI runners, sandboxes, cloud images, services, the OS, placeholders
    ("/home/runner/work/app/app/src", False, "GitHub Actions runner"),
    ("/github/home/.cache/pip", False, "GitHub Actions container home"),
    ("/root/.cache/pip", False, "the superuser"),
    ("/home/workspace/project/src", False, "a sandbox home"),
    ("/home/daytona/app", False, "a sandbox home"),
    ("/home/claude/repo", False, "an agent sandbox home"),
    ("/home/jovyan/work", False, "Jupyter's image user"),
    ("/home/vscode/.local/bin", False, "dev container user"),
    ("/home/codespace/.npm", False, "Codespaces"),
    ("/home/node/app/index.js", False, "the node image's user"),
    ("/home/ubuntu/deploy", False, "cloud image default user"),
    ("/home/ec2-user/app", False, "cloud image default user"),
    ("/home/azureuser/app", False, "cloud image default user"),
    ("/home/opc/app", False, "Oracle Cloud's default user"),
    ("/home/pi/gateway", False, "Raspberry Pi OS's default user"),
    ("/home/postgres/.psqlrc", False, "a service account"),
    ("/home/appuser/app", False, "a service account"),
    ("/home/svc-deploy/releases", False, "a service account"),
    ("/home/deploy-bot/.ssh", False, "a bot account"),
    ("/home/gitlab-runner/builds", False, "GitLab runner"),
    ("/Users/Shared/app", False, "macOS shared folder"),
    ("C:\\Users\\Public\\Documents", False, "Windows public folder"),
    ("/mnt/c/Users/Default/AppData", False, "Windows default profile through WSL"),
    ("/home/user/.config", False, "placeholder"),
    ("/Users/you/Projects", False, "placeholder"),
    ("/Users/YourName/Projects", False, "placeholder"),
    ("C:\\Users\\USERNAME\\AppData", False, "placeholder"),
    ("C:\\Users\\%USERNAME%\\AppData", False, "placeholder variable"),
    ("/home/<name>/.ssh", False, "placeholder"),
    ("/home/$USER/.ssh", False, "placeholder variable"),
    ("/home/xxx/app", False, "placeholder"),
    ('assert_eq!(rel("C:/Users/main.rs"), None);', False, "a file in the homes folder: a unit test's input"),
    ("normalize('/home/notes.md') == 'notes.md'", False, "a file in /home, no home folder"),
    ('path = r"C:\\Users\\config.json"', False, "a file in the Windows homes folder"),
    ("~/Library/Caches", False, "already portable"),
    ("https://docs.acme.dev/home/gina/guide", False, "a URL's path"),
    ("/var/home-backup/x", False, "not a home folder"),
    ("Never write /Users/kate/ in memory: use ~/", False, "a rule that quotes the path it forbids"),
    ("Don't hard-code C:\\Users\\lee\\ paths", False, "a rule that quotes the path it forbids"),
    ('- [AGENTS.md](file:///Users/mo/app/AGENTS.md): rules and "don\'t touch" warnings', True,
     "a forbidding word after the path says nothing about it"),
    ("Writing absolute paths (`/home/mei/workspace/...`) works but ties the note to one machine", False,
     "the example of what an absolute path looks like"),
    ("寫絕對路徑 (`/home/mei/workspace/...`) 雖然會動但綁死特定機器", False, "the same, in Chinese"),
    ("路徑用相對（`.claude/...`）而非絕對（`/home/mei/...`）", False, "'rather than' before it, in Chinese"),
    ("下一個 Bash 先 `cd /home/mei/workspace/docker` 收回來", True, "an instruction that uses the path"),
    ("The absolute path /Users/mo/app is the checkout", True, "an absolute path named as a fact, not shown as an example"),
    # a login named after the machine, or a dedicated account for the agent: nobody's name
    ("launchd plist in /Users/mac/Library/LaunchAgents", False, "a login named after the machine"),
    ("備份到 /Users/macbook/backups", False, "a login named after the machine, in Chinese"),
    ("C:\\Users\\laptop\\AppData\\Local", False, "a Windows login named after the machine"),
    ("/home/server/apps/bot", False, "a Linux login named after the machine"),
    ("workspace at /Users/nova-ai/.openclaw/workspace", False, "an account made for the agent"),
    ("/home/helper_ai/jobs", False, "an account made for the agent"),
    ("/Users/maciej/code", True, "a name that starts like a device word"),
    ("/home/kai/code", True, "a name that ends in 'ai'"),
    ("/Users/mai/Documents", True, "a name that ends in 'ai'"),
    ("/home/serverin/app", True, "a name that starts like a device word"),
    ("/Users/clawdrex/.openclaw/workspace", False, "an account made for OpenClaw (once Clawdbot)"),
    ("/home/openclaw/.openclaw/workspace", False, "an account made for OpenClaw"),
    ("/home/moltbot/state", False, "an account made for OpenClaw (once Moltbot)"),
    ("/Users/clara/notes", True, "a name that starts like 'cla'"),
    ("/home/agentadmin/.openclaw/workspace", False, "a role word run onto another: an admin account"),
    ("/home/localadmin/bin", False, "an admin account"),
    ("/home/botvm/.openclaw", False, "a machine word run onto another"),
    ("/home/devvm2/src", False, "a virtual machine's login"),
    ("/home/botond/src", True, "a person's name that starts like 'bot'"),
    ("/Users/agenta/Documents", True, "a person's name that starts like 'agent'"),
    ("/home/adminka/src", True, "a name that starts like 'admin'"),
    ("/home/moltke/src", True, "a person's name that starts like Moltbot"),
]

CONTACTS = [
    # people's addresses
    ("Access requests go to maria.garcia@gmail.com", True, "a person's address"),
    ("mail maria.garcia@gmail.com: she answers fast", True, "an address before a colon and a space"),
    ("Contact: <j.smith@acme-corp.io>", True, "an address in angle brackets"),
    ("ssh-free line, reach k.tanaka@fastmail.jp", True, "an address on a line with no command"),
    # what has an @ and is no address
    ("systemctl restart redis-server@6380.service", False, "a systemd instance unit"),
    ("enable getty@tty1.service and backup@daily.timer", False, "systemd units"),
    ("git remote add origin git@github.com:owner/repo.git", False, "a git remote"),
    ("clone gitea@code.acme-corp.io:team/app.git", False, "an scp-style remote of a service account"),
    ("ssh deploy@build.acme-corp.io 'systemctl restart app'", False, "an ssh login of a service account"),
    ("ssh -i ~/.ssh/k ops@bastion.acme-corp.io", False, "an ssh login with options first"),
    ("rsync -a dist/ www@web1.acme-corp.io:/srv/site", False, "an rsync target"),
    ("prompt ubuntu@ip-10-0-0-12.ec2.internal:~$", False, "a shell prompt"),
    ("npm i @scope/pkg@1.2.3", False, "a package scope and version"),
    ("pin react@18.2.0 and python@3.12", False, "package versions"),
    ("uses: actions/checkout@v4.1.1", False, "an action version"),
    ("@app.route('/x') and @pytest.fixture", False, "decorators"),
    ("icon@2x.png", False, "a file name"),
    ("noreply@github.com and support@acme-corp.io", False, "role mailboxes"),
    ("you@domain.com", False, "a placeholder"),
]


def _score(table, flags) -> tuple[list, list, str]:
    """(false findings, misses, a printable summary with precision) of a table against a flagging function."""
    false_found = [(text, why) for text, personal, why in table if flags(text) and not personal]
    missed = [(text, why) for text, personal, why in table if personal and not flags(text)]
    found = sum(1 for text, _, _ in table if flags(text))
    precision = (found - len(false_found)) / found if found else 1.0
    lines = [f"precision {precision:.2f} ({found} found), {len(missed)} missed"]
    lines += [f"  false: {text!r} ({why})" for text, why in false_found]
    lines += [f"  missed: {text!r} ({why})" for text, why in missed]
    return false_found, missed, "\n".join(lines)


def test_home_path_table():
    false_found, missed, summary = _score(HOME_PATHS, lambda text: bool(find_home_paths(text)))
    assert not false_found and not missed, summary


def test_contact_table():
    def flags(text: str) -> bool:
        return any(contact.kind == EMAIL for contact in find_contacts(text))

    false_found, missed, summary = _score(CONTACTS, flags)
    assert not false_found and not missed, summary


@pytest.mark.parametrize(("relpath", "test"), [
    ("tests/test_paths.py", True), ("src/paths.test.ts", True), ("pkg/paths_test.go", True),
    ("docs/examples/home.md", True), ("fixtures/notes.md", True), ("memory/knowledge/feedback/tests-first.md", False),
    ("CLAUDE.md", False), ("memory/contest.md", False),
])
def test_which_files_are_tests(relpath, test):
    assert is_test_file(relpath) is test


# -- through the CLI, on real files ----------------------------------------------------------------------


def _findings(cli, root: Path, rule: str) -> list[tuple[str, int]]:
    result = cli("check", ".", "--select", rule, "--format", "json", "--no-cache", cwd=root)
    assert result.exit_code in (0, 1), result.stdout + result.stderr
    return sorted((f["path"], f["line"]) for f in result.json()["findings"])


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
def test_a_symlinked_instruction_file_is_reported_once(cli, workspace):
    """CLAUDE.md linked to AGENTS.md is one file: its home path and address are reported once, at AGENTS.md."""
    text = "# Agents\n\nBuild in /Users/alice/src/app; ask maria.garcia@gmail.com.\n"
    root = workspace({"AGENTS.md": text})
    (root / "CLAUDE.md").symlink_to("AGENTS.md")
    assert _findings(cli, root, "personal-path") == [("AGENTS.md", 3)]
    assert _findings(cli, root, "personal-data") == [("AGENTS.md", 3)]
    # Checked alone (a hook names one file), the symlink is the only view of it: reported there.
    result = cli("check", "CLAUDE.md", "--select", "personal-path", "--format", "json", "--no-cache", cwd=root)
    assert [(f["path"], f["line"]) for f in result.json()["findings"]] == [("CLAUDE.md", 3)]


def test_wsl_and_windows_homes_in_a_log_and_a_note(cli, workspace):
    records = [{"id": "ep_1", "content": "repo at /mnt/c/Users/frank/app"},
               {"id": "ep_2", "content": "CI cache in /home/runner/.cache and /github/home/.npm"},
               {"id": "ep_3", "content": "sandbox at /home/workspace/app"}]
    note = "---\nname: n\ndescription: d\n---\n\nOpen C:/Users/dave/Desktop/todo.txt\n"
    root = workspace({"memory/episodic.jsonl": "".join(json.dumps(r) + "\n" for r in records),
                      "memory/knowledge/feedback/n.md": note, "memory/fact.yml": "a: 1\n"})
    assert _findings(cli, root, "personal-path") == [("memory/episodic.jsonl", 1), ("memory/knowledge/feedback/n.md", 6)]


def test_a_systemd_unit_and_a_git_remote_are_no_address(cli, workspace):
    note = ("---\nname: n\ndescription: d\ntype: project\n---\n\n"
            "Restart redis-server@6380.service; push to git@gitlab.acme-corp.io:team/app.git.\n"
            "Ask maria.garcia@gmail.com first.\n")
    root = workspace({".claude/memory/MEMORY.md": "- [n](n.md) n\n", ".claude/memory/n.md": note})
    assert _findings(cli, root, "personal-data") == [(".claude/memory/n.md", 8)]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
def test_other_rules_read_a_symlinked_file_once(cli, workspace):
    """A note linked under a second name is neither an orphan nor its own near-duplicate, and a secret in a
    symlinked instruction file is reported, and redacted, once, at the file's own path (the link stays a link)."""
    token = "ghp_" + "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5"
    root = workspace({
        "AGENTS.md": f"# Agents\n\nDeploy token {token}\n",
        ".claude/memory/MEMORY.md": "- [Deploy](deploy.md) - the deploy purges the cache\n",
        ".claude/memory/deploy.md": "---\nname: deploy\ndescription: d\ntype: project\n---\n\n"
                                    "The deploy script purges the CDN cache before it uploads the new build.\n",
    })
    (root / "CLAUDE.md").symlink_to("AGENTS.md")
    (root / ".claude/memory/deploy-copy.md").symlink_to("deploy.md")
    result = cli("check", ".", "--format", "json", "--no-cache", cwd=root)
    reported = sorted((f["path"], f["name"]) for f in result.json()["findings"])
    assert reported == [("AGENTS.md", "secret-in-memory")]
    cli("check", ".", "--select", "secret-in-memory", "--fix", "--unsafe-fixes", cwd=root)
    assert (root / "CLAUDE.md").is_symlink() and token not in (root / "AGENTS.md").read_text("utf-8")


def test_an_installed_skill_keeps_its_authors_home_out_of_the_owners_findings(cli, workspace):
    """A skill installed from a registry or a publisher's repository carries its author's home path: reported
    only when the skill's own manifest does not name that login; an owner's path in it, and every path in a skill
    folder nothing installed, is still reported."""
    root = workspace({
        "SOUL.md": "# Soul\n\nCalm and brief.\n",
        "AGENTS.md": "# Agents\n\nScripts run from /Users/lena/tools.\n",
        # installed from ClawHub: the author's login is the npm scope of its package
        "skills/pdf-helper/_meta.json": '{"ownerId": "k1", "slug": "pdf-helper", "version": "1.0.0"}\n',
        "skills/pdf-helper/package.json": '{"name": "@rkowalski/pdf-helper", "version": "1.0.0"}\n',
        "skills/pdf-helper/SKILL.md": "# PDF helper\n\nRun `node /Users/rkowalski/dev/pdf-helper/index.js`.\n"
                                      "Write to /Users/lena/out/\n",
        # cloned from its publisher: the licence names the author, the design doc carries his home
        "skills/shipkit/LICENSE": "MIT License\n\nCopyright (c) 2026 Dana Whitfield\n",
        "skills/shipkit/docs/design.md": '# Design\n\n{"cwd": "/Users/danawhitfield/src/shipkit"}\n',
        # the owner's own skill: nothing installed it, a README naming someone does not make it third-party
        "skills/my-notes/SKILL.md": "# Notes\n\nKeep drafts in /home/rkowalski/drafts\n",
        "skills/my-notes/README.md": "Made with help from rkowalski.\n",
        # a manifest, but only the home path itself names the login: no proof of who wrote the skill
        "skills/sync/_meta.json": '{"slug": "sync"}\n',
        "skills/sync/SKILL.md": "# Sync\n\nrsync -a /home/tomasz/vault/ backup:/vault/\n",
    })
    assert _findings(cli, root, "personal-path") == [
        ("AGENTS.md", 3), ("skills/my-notes/SKILL.md", 3), ("skills/pdf-helper/SKILL.md", 4), ("skills/sync/SKILL.md", 3)]


def test_a_skill_nested_under_its_publishers_folder_is_found_as_every_rule_finds_it(cli, workspace):
    """personal-path finds an installed skill where unparsable-file and secret-in-memory do: the nearest folder with
    a SKILL.md (`skills/<publisher>/<skill>/`), or the folder right in `skills/`."""
    root = workspace({
        "SOUL.md": "# Soul\n\nCalm and brief.\n",
        "AGENTS.md": "# Agents\n\nHello.\n",
        "skills/acme/pdf-helper/_meta.json": '{"slug": "pdf-helper"}\n',
        "skills/acme/pdf-helper/package.json": '{"name": "@rkowalski/pdf-helper"}\n',
        "skills/acme/pdf-helper/SKILL.md": "# PDF\n\nRun `node /Users/rkowalski/dev/pdf-helper/index.js`.\n",
        "skills/acme/own/SKILL.md": "# Own\n\nRun `node /Users/rkowalski/dev/own/index.js`.\n",
        "skills/acme/own/package.json": '{"name": "@rkowalski/own"}\n',
    })
    assert _findings(cli, root, "personal-path") == [("skills/acme/own/SKILL.md", 3)]


@pytest.mark.parametrize("identity, login, reported", [
    ("# IDENTITY.md\n\n- **Name:** Nova\n- **Emoji:** 🦉\n", "nova", False),
    ("# IDENTITY\n\nName: Nova (诺娃)\n", "nova", False),
    ("# 身份\n\n- **名字：** 小诺 (Nova)\n", "nova", False),
    ("# IDENTITY.md\n\n- **Name:** Nova\n\n## My human\n\n- Name: Priya\n", "priya", True),
    ("# IDENTITY.md\n\n- **Name:** Nova\n", "priya", True),
    ("# IDENTITY.md\n\nI answer to [Name] when called.\n", "name-less", True),
    # a prefix, a number or another word with the agent's name: still the account made for it
    ("# IDENTITY.md\n\n- **Name:** Minime\n", "oc-minime", False),
    ("# IDENTITY.md\n\n- **Name:** Jarvis\n", "jarvis2", False),
    ("# IDENTITY.md\n\n- **Name:** Jarvis\n", "jarvisbot", False),
    ("# IDENTITY.md\n\n- **Name:** R. Daneel Olivaw\n", "daneel", False),
    ("# IDENTITY.md\n\n- **Name:** Jarvis\n", "jarvi", True),
    ("# IDENTITY.md\n\n- **Name:** Kai\n", "kaito", True),
    ("# IDENTITY.md\n\n- **Name:** Nova, Priya's assistant\n", "priya", True),
])
def test_a_home_named_after_the_agent_is_the_account_made_for_it(cli, workspace, identity, login, reported):
    """An OpenClaw agent running under its own account (`/Users/nova` for an agent called Nova) leaves no
    person's name; a home named after the human, or any other, is still reported."""
    root = workspace({"SOUL.md": "# Soul\n\nCalm.\n", "IDENTITY.md": identity,
                      "memory/2026-11-30.md": f"# 2026-11-30\n\nBacked up to /Users/{login}/backups\n"})
    assert _findings(cli, root, "personal-path") == ([("memory/2026-11-30.md", 3)] if reported else [])


def test_each_workspace_of_a_state_folder_names_its_own_agent(cli, workspace):
    """A backed-up `~/.openclaw` holds several workspaces, each with its own IDENTITY.md: a file is read against
    the profiles nearest it. The owner's name in USER.md wins over an agent that bears it too."""
    root = workspace({
        "SOUL.md": "# Soul\n\nCalm.\n",
        "workspace-main/IDENTITY.md": "# IDENTITY.md\n\n- **Name:** Cortex\n",
        "workspace-main/memory/2026-11-30.md": "# 2026-11-30\n\nRan /home/cortex/bin/sync and /home/ines/bin/sync\n",
        "workspace-ops/IDENTITY.md": "# IDENTITY.md\n\n- **Name:** Sam\n",
        "workspace-ops/USER.md": "# USER.md\n\n- **Name:** Sam Porter\n",
        "workspace-ops/memory/2026-11-30.md": "# 2026-11-30\n\nLogs in /home/sam/logs and /home/cortex/logs\n",
    })
    assert _findings(cli, root, "personal-path") == [
        ("workspace-main/memory/2026-11-30.md", 3), ("workspace-ops/memory/2026-11-30.md", 3),
        ("workspace-ops/memory/2026-11-30.md", 3)]

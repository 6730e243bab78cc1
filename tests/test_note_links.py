"""Links in notes and indexes (issue 13, point 3): broken-note-link (MW410), and the link forms every link check
reads alike: percent-encoded targets, titles, reference-style links, anchors; nothing in code or comments."""

from __future__ import annotations

import pytest

from conftest import git

NOTE = "---\nname: {name}\ndescription: about {name}\nmetadata:\n  type: feedback\n  updated: 2026-10-01\n---\n\n{body}"
FEEDBACK = "memory/knowledge/feedback"


def note(name: str, body: str = "Body.\n") -> str:
    return NOTE.format(name=name, body=body)


def gish(workspace, body: str, index: str | None = None, extra: dict | None = None):
    files = {
        f"{FEEDBACK}/deploy.md": note("deploy", body),
        f"{FEEDBACK}/deploy-rollback.md": note("Rollback Steps"),
        "memory/knowledge/references/api-notes.md": note("api-notes"),
        f"{FEEDBACK}/with space.md": note("with space"),
        "MEMORY.md": index if index is not None else f'- "it deployed, so it works" → [deploy]({FEEDBACK}/deploy.md)\n',
    }
    files.update(extra or {})
    return workspace(files)


def found(cli, root, select="broken-note-link,broken-index-link", cwd=None):
    result = cli("check", ".", "--select", select, "--format", "json", cwd=cwd or root)
    assert "Traceback" not in result.stderr
    return [(f["name"], f["path"], f["line"], f["column"], f["message"]) for f in result.json()["findings"]]


GOOD_FORMS = [
    "[spaced](with%20space.md)",
    "[angle](<with space.md>)",
    '[titled](deploy-rollback.md "The rollback")',
    "[single](deploy-rollback.md 'The rollback')",
    "[paren](deploy-rollback.md (The rollback))",
    "[anchor](deploy-rollback.md#steps)",
    "[here](#top)",
    "[ref][r]\n\n[r]: deploy-rollback.md",
    "[Ref][]\n\n[ref]: <with space.md> \"title\"",
    "[ref]\n\n[REF]: deploy-rollback.md#steps",
    "[[Rollback Steps]]",
    "[[deploy-rollback]]",
    "[[deploy_rollback|the steps]]",
    "[[deploy-rollback#Steps]]",
    "[[references/api-notes]]",
    "[url](https://example.com/nowhere.md)",
    "[up](../../../MEMORY.md)",
    "`[code](nowhere.md)` and ``[[nowhere]]``",
    "<!-- [hidden](nowhere.md) [[nowhere]] -->",
    "<!--\n[hidden](nowhere.md)\n-->",
    "```\n[fenced](nowhere.md) [[nowhere]]\n```",
    "~~~markdown\n[fenced](nowhere.md)\n~~~",
    "[a][b] with no [b]: definition, and [x] alone",
    # OpenClaw's inline directives, kept in a saved transcript: a reply threading tag, voice, speech
    "assistant: [[reply_to_current]] Done, the report is in the drive.",
    "assistant: [[reply_to:1507]] On it.\n[[audio_as_voice]] [[tts:provider=mock voiceId=v7]]"
    " Final [[tts:text]]Spoken[[/tts:text]]",
]


@pytest.mark.parametrize("body", GOOD_FORMS)
def test_links_that_lead_somewhere_or_are_no_links_give_no_finding(workspace, cli, body):
    root = gish(workspace, f"See:\n{body}\n")
    assert found(cli, root) == []


BAD_FORMS = [
    ("[gone](deploy-rolback.md)", "link target 'deploy-rolback.md' does not exist", "did you mean deploy-rollback.md?"),
    ("[gone](no%20such.md)", "link target 'no%20such.md' does not exist", f"that is {FEEDBACK}/no such.md"),
    ('[gone](nowhere.md "title")', "link target 'nowhere.md' does not exist", ""),
    ("[gone](nowhere.md#steps)", "link target 'nowhere.md#steps' does not exist", ""),
    ("[gone][r]\n\n[r]: vanished.md", "link target 'vanished.md' (its [label]: line) does not exist", ""),
    ("[[missing-note]]", "[[missing-note]] names no note", ""),
    ("[[references/nope]]", "[[references/nope]] names no note", ""),
    ("[[reply_to_currents]]", "[[reply_to_currents]] names no note", ""),  # near a directive, not one
]


@pytest.mark.parametrize("body, message, hint", BAD_FORMS)
def test_a_link_in_a_note_that_points_nowhere_is_a_finding(workspace, cli, body, message, hint):
    root = gish(workspace, f"Intro line.\nSee {body}\n")
    [(name, path, line, column, text)] = found(cli, root)
    assert (name, path, line) == ("broken-note-link", f"{FEEDBACK}/deploy.md", 10)
    assert message in text and hint in text
    source = (root / path).read_text("utf-8").splitlines()[line - 1]
    assert column == (source.index("[[") + 1 if "[[" in body else 5 + body.index("](") + 2 if "](" in body else 5 + 7)


def test_a_suggestion_is_made_only_when_the_name_is_really_close(workspace, cli):
    root = gish(workspace, "[a](deploy-checklist.md) and [b](deploy-rollbak.md)\n")
    messages = [f[4] for f in found(cli, root)]
    assert len(messages) == 2
    assert "did you mean" not in messages[0]  # shares a word and a folder, nothing more
    assert messages[1].endswith("did you mean deploy-rollback.md?")


def test_a_link_into_the_repository_around_the_workspace_resolves(git_repo, cli):
    root = git_repo({
        "src/app.py": "print()\n",
        ".claude/memory/MEMORY.md": "- [Foo](foo.md) — why foo matters\n",
        ".claude/memory/foo.md": "---\nname: foo\ndescription: d\ntype: user\n---\n"
                                 "See [app](../../src/app.py) and [gone](../../src/gone.py).\n",
    })
    result = found(cli, root / ".claude/memory", cwd=root)
    assert [(f[0], f[2]) for f in result] == [("broken-note-link", 6)]
    assert "'../../src/gone.py' does not exist" in result[0][4]


def test_a_link_written_from_the_top_folder_resolves_and_one_from_nowhere_is_still_found(git_repo, cli):
    """Batches 15c and 16a: agents run at the top of the repository and write `app/main.py` in a note three folders
    down; such a link leads somewhere. A target no top folder holds, or one climbing out, is still broken."""
    body = (
        "From the repository: [main](app/main.py) and [routers](app/routers/).\n"
        "From the workspace: [plan](.github/memory/plan.md).\n"
        "Gone everywhere: [old](app/api/old.py).\n"
        "Climbing: [up](../app/gone.py).\n"
    )
    root = git_repo({
        "app/main.py": "print()\n",
        "app/routers/login.py": "print()\n",
        ".github/memory/MEMORY.md": "- [Findings](notes/findings.md) — what the audit found\n",
        ".github/memory/plan.md": "---\nname: plan\ndescription: d\ntype: project\n---\nThe plan.\n",
        ".github/memory/notes/findings.md": "---\nname: findings\ndescription: d\ntype: project\n---\n" + body,
    })
    result = found(cli, root / ".github/memory", cwd=root)
    assert [(f[0], f[1], f[2]) for f in result] == [
        ("broken-note-link", ".github/memory/notes/findings.md", 8),
        ("broken-note-link", ".github/memory/notes/findings.md", 9)]
    assert "'app/api/old.py' does not exist" in result[0][4] and "'../app/gone.py'" in result[1][4]


def test_a_link_to_lines_of_a_file_leads_to_the_file(git_repo, cli):
    """Batch 18 dev: Cline and Roo link code as `[agent.py](weather_agent/agent.py:19-30)`, which VS Code opens at
    those lines. The file decides: a missing file with lines is still broken, and so is a line range alone."""
    body = (
        "Location: [`agent.py:19-30`](weather_agent/agent.py:19-30), one line: [tool](weather_agent/agent.py:73).\n"
        "Gone: [store](weather_agent/store.py:31-92).\n"
        "Nothing but lines: [x](:12).\n"
    )
    root = git_repo({
        "weather_agent/agent.py": "print()\n",
        ".roo/memory-bank/projectbrief.md": "# Brief\n\nA weather agent.\n",
        ".roo/memory-bank/systemPatterns.md": "# Patterns\n\n" + body,
    })
    result = found(cli, root / ".roo/memory-bank", cwd=root)
    assert [(f[0], f[2]) for f in result] == [("broken-note-link", 4), ("broken-note-link", 5)]
    assert "weather_agent/store.py:31-92" in result[0][4]


def test_index_links_read_the_same_forms(workspace, cli):
    """broken-index-link and orphan-note read percent-encoding, titles, reference links and anchors, and skip code."""
    index = (
        f'- "a space, so it broke" → [s]({FEEDBACK}/with%20space.md "title")\n'
        f'- "rolled back, so it is done" → [r][rb]\n'
        f'- "an anchor, so it is fine" → [a]({FEEDBACK}/deploy.md#why)\n'
        f'- "the api said so" → [n](<memory/knowledge/references/api-notes.md>)\n'
        f'- "code is no link" → `[c]({FEEDBACK}/nowhere.md)` <!-- [h]({FEEDBACK}/nowhere2.md) -->\n'
        f'- "a broken one, so it is found" → [b][gone]\n'
        f"\n[rb]: {FEEDBACK}/deploy-rollback.md\n[gone]: {FEEDBACK}/vanished.md\n"
    )
    root = gish(workspace, "Body.\n", index=index)
    result = found(cli, root, select="broken-index-link,orphan-note")
    assert [(f[0], f[2]) for f in result] == [("broken-index-link", 6)]
    line = index.splitlines()[5]
    assert result[0][3] == line.index("gone]") + 1 and f"'{FEEDBACK}/vanished.md' does not exist" in result[0][4]


def test_hostile_link_text_gives_findings_not_hangs(workspace, cli):
    body = "[" * 20000 + "`" * 5000 + "[[" * 20000 + "\n" + "[a][" * 5000 + "\n[a]: x.md\n"
    root = gish(workspace, body)
    result = cli("check", ".", "--select", "broken-note-link", "--format", "json", cwd=root)
    assert result.exit_code in (0, 1) and "Traceback" not in result.stderr


def test_broken_index_link_suggests_a_target_only_when_it_is_really_close(workspace, cli):
    """Issue 13.5: 'deploy-checklist.md' was answered with 'did you mean deploy-rollback.md?'."""
    index = (
        f'- "it passed locally, so it is fine" → [x]({FEEDBACK}/deploy-checklist.md)\n'
        f'- "the steps, so it is safe" → [y]({FEEDBACK}/deploy-rollbak.md)\n'
        f'- "moved, so it is lost" → [z](memory/knowledge/deploy.md)\n'
    )
    root = gish(workspace, "Body.\n", index=index)
    messages = [f[4] for f in found(cli, root, select="broken-index-link")]
    assert len(messages) == 3
    assert "did you mean" not in messages[0]
    assert messages[1].endswith(f"(did you mean {FEEDBACK}/deploy-rollback.md?)")
    assert messages[2].endswith(f"(did you mean {FEEDBACK}/deploy.md?)")  # the same name in another folder


def test_an_index_of_reference_style_entries_is_an_index(workspace, cli):
    """Lines that link through `[label]: target` definitions point, so they are no content, and their notes no orphans."""
    index = (
        "# Index\n\n"
        '- "x said OK, so it is done" → [deploy][d]\n'
        '- "y said OK, so it is done" → [rollback][r]\n'
        '- "z said OK, so it is done" → [api][a]\n\n'
        f"[d]: {FEEDBACK}/deploy.md\n[r]: {FEEDBACK}/deploy-rollback.md\n[a]: memory/knowledge/references/api-notes.md\n"
        f"[s]: <{FEEDBACK}/with space.md>\n"
    )
    root = gish(workspace, "Body.\n", index=index.replace("[api][a]\n", "[api][a] and [spaced][s]\n"))
    result = cli("check", ".", "--select", "MW4", "--format", "json", cwd=root)
    assert result.json()["findings"] == []

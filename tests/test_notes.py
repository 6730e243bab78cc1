"""The note contract (MW108-MW112): what `gish knowledge lint` asks of each note, through the CLI."""

from __future__ import annotations

GISH = {".gish/config.yml": "index: {}\n"}


def note(name="verify", kind="feedback", body="Check it.\n\n**Why:** it lied.\n\n**How to apply:** look.\n", top=""):
    return (f"---\nname: {name}\ndescription: one line\n{top}metadata:\n  type: {kind}\n  updated: 2026-10-01\n---\n\n"
            + body)


def findings(cli, root, select="MW108,MW109,MW110,MW111,MW112"):
    data = cli("check", str(root), "--select", select, "--format", "json", cwd=root).json()
    return sorted((f["path"], f["name"], f["line"]) for f in data["findings"])


def test_a_good_note_has_no_finding(workspace, cli):
    root = workspace({**GISH, "memory/knowledge/feedback/verify.md": note()})
    assert findings(cli, root) == []


def test_name_must_be_the_file_stem(workspace, cli):
    root = workspace({**GISH, "memory/knowledge/feedback/verify.md": note(name="verify-state")})
    assert findings(cli, root) == [("memory/knowledge/feedback/verify.md", "note-name-mismatch", 2)]
    text = cli("check", str(root), "--select", "MW108", cwd=root).stdout
    assert "'verify-state' is not the file stem 'verify'" in text


def test_type_must_match_the_shelf_and_nested_notes_are_on_their_shelf(workspace, cli):
    root = workspace({
        **GISH,
        "memory/knowledge/projects/verify.md": note(),
        "memory/knowledge/feedback/ci/flaky.md": note(name="flaky"),
        "memory/knowledge/references/ci/deep/wrong.md": note(name="wrong", kind="user"),
    })
    assert findings(cli, root) == [
        ("memory/knowledge/projects/verify.md", "note-type-mismatch", 5),
        ("memory/knowledge/references/ci/deep/wrong.md", "note-type-mismatch", 5),
    ]
    text = cli("check", str(root), "--select", "MW109", cwd=root).stdout
    assert "'feedback' belongs on the shelf 'feedback/', but this note is on 'projects/'" in text


def test_nested_notes_get_every_note_rule(workspace, cli):
    root = workspace({**GISH, "memory/knowledge/feedback/ci/flaky.md": note(name="other", body="")})
    assert findings(cli, root) == [
        ("memory/knowledge/feedback/ci/flaky.md", "empty-note", 8),
        ("memory/knowledge/feedback/ci/flaky.md", "note-name-mismatch", 2),
    ]


def test_empty_note_with_only_a_comment_or_nothing(workspace, cli):
    root = workspace({
        **GISH,
        "memory/knowledge/user/a.md": note(name="a", kind="user", body="<!-- fill in -->\n\n"),
        "memory/knowledge/user/b.md": "",
        "memory/knowledge/user/c.md": note(name="c", kind="user", body="Prefers tabs.\n"),
    })
    assert [f[:2] for f in findings(cli, root, "MW110")] == [("memory/knowledge/user/a.md", "empty-note")]
    # an empty file has no front matter either: the schema's finding, and only that
    names = {f["name"] for f in cli("check", str(root), "--format", "json", cwd=root).json()["findings"]
             if f["path"] == "memory/knowledge/user/b.md"}
    assert names == {"schema-violation"}


def test_feedback_needs_why_and_how(workspace, cli):
    root = workspace({
        **GISH,
        "memory/knowledge/feedback/a.md": note(name="a", body="Check it.\n"),
        "memory/knowledge/feedback/b.md": note(name="b", body="Check it.\n\n**Why:** it lied.\n"),
        "memory/knowledge/feedback/c.md": note(name="c", body="Check it.\n\n**Why.** it lied.\n\n**How to apply** always.\n"),
        "memory/knowledge/projects/d.md": note(name="d", kind="project", body="A fact.\n"),
    })
    assert findings(cli, root) == [
        ("memory/knowledge/feedback/a.md", "feedback-without-why", 9),
        ("memory/knowledge/feedback/b.md", "feedback-without-why", 9),
    ]
    text = cli("check", str(root), "--select", "MW111", cwd=root).stdout
    assert "no '**How to apply:**' line" in text and "no '**Why:**' and '**How to apply:**' line" in text


def test_claude_code_feedback_notes_in_either_layout(workspace, cli):
    top = "---\nname: Verify state\ndescription: one line\ntype: feedback\n---\n\nCheck it.\n"
    nested = "---\nname: Verify\ndescription: one line\nmetadata:\n  type: feedback\n---\n\nCheck it.\n\n**Why:** x\n\n**How to apply:** y\n"
    root = workspace({
        "MEMORY.md": "- [a](feedback_a.md) - a\n- [b](feedback_b.md) - b\n",
        "feedback_a.md": top, "feedback_b.md": nested,
    })
    # Claude Code names are titles and it has no shelves: only the body rules apply
    assert findings(cli, root) == [("feedback_a.md", "feedback-without-why", 7)]


def test_governance_keys_belong_under_metadata(workspace, cli):
    root = workspace({
        **GISH,
        "memory/knowledge/feedback/verify.md": note(top="tier: 1\nconfidence: 0.9\nexpires: 2027-01-01\n"),
    })
    found = cli("check", str(root), "--format", "json", cwd=root).json()["findings"]
    mine = sorted((f["name"], f["line"]) for f in found if f["code"] in ("MW112", "MW303"))
    # a top-level expires is invalid-expiry's finding only: one problem, one finding
    assert mine == [("invalid-expiry", 6), ("misplaced-governance-key", 4), ("misplaced-governance-key", 5)]

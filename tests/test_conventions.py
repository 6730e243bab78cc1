"""Issue #29, kind 5: conventions memwarden did not read gave false alarms.

Labels such as `**Why it matters:**` or in other languages count as the feedback note's lines, and
a file is never both "not a memory note" and "an orphan note". Real files, through the CLI.
"""

from __future__ import annotations

import pytest


def findings(cli, root, *args):
    result = cli("check", "--format", "json", "--no-cache", "--today", "2026-11-30", "--select",
                 "feedback-without-why,orphan-note,unrecognized-file", *args, cwd=root)
    assert result.exit_code in (0, 1), result
    return sorted((f["path"], f["name"]) for f in result.json()["findings"])


FEEDBACK = "---\nname: {n}\ndescription: {n} in a line\ntype: feedback\n---\n\nCheck the state the user sees.\n\n{body}\n"


@pytest.mark.parametrize("body", [
    "**Why it matters:** a green log hid a failed deploy.\n\n**How to apply:** after every deploy.",
    "**原因：** 日誌顯示成功但部署失敗。\n\n**適用時機：** 每次部署之後。",
    "**Pourquoi :** un journal vert cachait un échec.\n\n**Comment l'appliquer :** après chaque déploiement.",
    "**Warum:** ein grünes Log verbarg einen Fehler.\n\n**Anwendung:** nach jedem Deploy.",
    "## Why it matters\n\nA green log hid a failed deploy.\n\n## When to apply it\n\nAfter every deploy.",
])
def test_why_and_how_labels_as_people_write_them_count(cli, workspace, body):
    root = workspace({"MEMORY.md": "# Memory\n\n- [Check](check.md) — the deploy looked green\n",
                      "check.md": FEEDBACK.format(n="check", body=body)})
    assert findings(cli, root) == []


def test_a_feedback_note_without_either_line_is_still_reported(cli, workspace):
    root = workspace({"MEMORY.md": "# Memory\n\n- [Check](check.md) — the deploy looked green\n",
                      "check.md": FEEDBACK.format(n="check", body="Because it failed once.")})
    assert findings(cli, root) == [("check.md", "feedback-without-why")]


def test_a_file_is_never_both_not_a_note_and_an_orphan(cli, workspace):
    plain = "# {n}\n\nThe {n} service listens on port {p}.\n"
    root = workspace({
        "MEMORY.md": "# Memory\n\n- [Alpha](alpha.md) — alpha\n",
        "alpha.md": plain.format(n="alpha", p=8001),
        "beta.md": plain.format(n="beta", p=8002),
        "gamma.md": plain.format(n="gamma", p=8003),
    })
    found = findings(cli, root)
    names_by_path = {}
    for path, name in found:
        names_by_path.setdefault(path, set()).add(name)
    assert all(names != {"orphan-note", "unrecognized-file"} for names in names_by_path.values()), found
    assert [name for _, name in found] == ["unrecognized-file"]


NOTE = "---\nname: {n}\ndescription: {n} in a line\ntype: project\n---\n\nThe {n} service runs on port {p}.\n"
RULES = "- Never push to main.\n- Run the linter before a commit.\n- Ask before deleting a branch.\n"


def content_findings(cli, root):
    result = cli("check", "--format", "json", "--no-cache", "--select", "content-in-index", cwd=root)
    return sorted((f["path"], f["line"]) for f in result.json()["findings"])


@pytest.mark.parametrize("declaration", [
    "Each line below is a complete rule; longer lessons have a note.",
    "Rules without a note live inline here.",
    "每一行都是一條完整的規則。",
])
def test_an_index_that_says_its_unlinked_lines_are_whole_rules_is_believed(cli, workspace, declaration):
    index = f"# Memory\n\n{declaration}\n\n## Rules\n\n{RULES}\n## Notes\n\n- [Alpha](alpha.md) — alpha\n"
    root = workspace({"MEMORY.md": index, "alpha.md": NOTE.format(n="alpha", p=8001)})
    assert content_findings(cli, root) == []


def test_unlinked_rules_without_such_a_declaration_are_still_content(cli, workspace):
    index = f"# Memory\n\n## Rules\n\n{RULES}\n## Notes\n\n- [Alpha](alpha.md) — alpha\n"
    root = workspace({"MEMORY.md": index, "alpha.md": NOTE.format(n="alpha", p=8001)})
    assert content_findings(cli, root) == [("MEMORY.md", 5)]

"""Index and trigger rules (MW401-MW407) on gish, claude-code and three-layer workspaces."""

from __future__ import annotations


import os
import re
import random
import shutil

import pytest

from conftest import CORPUS

MULTI_CLI = CORPUS / "examples" / "multi_cli"
NOTE = "---\nname: {slug}\ndescription: about {slug}\nmetadata:\n  type: feedback\n  updated: 2026-10-01\n{extra}---\n\nBody.\n"
CLAUDE_NOTE = "---\nname: {slug}\ndescription: about {slug}\ntype: feedback\n---\n\nBody.\n"


def note(slug: str, extra: str = "") -> str:
    return NOTE.format(slug=slug, extra=extra)


def gish(make, index: str, notes=("a", "b"), extra: dict | None = None, name="ws"):
    files = {f"memory/knowledge/feedback/{slug}.md": note(slug) for slug in notes}
    files["MEMORY.md"] = index
    files.update(extra or {})
    return make(files, name)


def findings(cli, root, select="MW4", *args):
    result = cli("check", str(root), "--select", select, "--format", "json", *args, cwd=root)
    assert result.exit_code in (0, 1), result
    return result.json()["findings"]


def names(found):
    return [(f["name"], f["path"], f["line"]) for f in found]


LINK_A = "(memory/knowledge/feedback/a.md)"
LINK_B = "(memory/knowledge/feedback/b.md)"


# -- the corpus ------------------------------------------------------------------------------


def test_corpus_workspace_is_clean(tmp_path, cli):
    root = tmp_path / "multi_cli"
    shutil.copytree(MULTI_CLI, root)
    assert findings(cli, root, "MW4,MW5") == []


def test_corpus_workspace_with_cause_style_trigger(tmp_path, cli):
    root = tmp_path / "multi_cli"
    shutil.copytree(MULTI_CLI, root)
    index = root / "MEMORY.md"
    text = index.read_text("utf-8")
    index.write_text(text.replace('"Zero errors, so the run was clean"', '"zero counts are misleading"'), "utf-8")
    found = findings(cli, root)
    assert names(found) == [("cause-style-trigger", "MEMORY.md", 11)]
    assert 'trigger "zero counts are misleading" names a cause, not the symptom' in found[0]["message"]
    assert "e.g." in found[0]["message"]


# -- index-entry-without-trigger ---------------------------------------------------------------


def test_entry_without_trigger(workspace, cli):
    root = gish(workspace, (
        f"- [verify]{LINK_A}\n"
        f"- unquoted words → [b]{LINK_B}\n"
        f'- "quoted but no arrow" [a]{LINK_A}\n'
        f'- "fine, so it is done" → [a]{LINK_A}\n'
        "- [gish docs](https://example.com/gish)\n"
        "- plain list item without a link\n"
    ))
    found = [f for f in findings(cli, root) if f["name"] == "index-entry-without-trigger"]
    assert [(f["line"], f["column"]) for f in found] == [(1, 3), (2, 3), (3, 3)]
    assert "has no trigger" in found[0]["message"]
    assert "not quoted" in found[1]["message"]
    assert "not followed by an arrow" in found[2]["message"]


def test_trigger_rules_stay_silent_on_claude_code(workspace, cli):
    root = workspace({
        "MEMORY.md": "- [User role](user_role.md) — data scientist\n- [Testing](testing.md) — never mock the database\n",
        "user_role.md": CLAUDE_NOTE.format(slug="user_role"),
        "testing.md": CLAUDE_NOTE.format(slug="testing"),
    })
    assert findings(cli, root) == []


# -- broken-index-link ------------------------------------------------------------------------------


def test_broken_link_points_at_the_target_and_suggests(workspace, cli):
    root = gish(workspace, (
        '- "zero errors, so it is clean" → [zero](memory/knowledge/feedback/aa.md)\n'
        f'- "fine, so it is done" → [b]{LINK_B}\n'
    ))
    found = [f for f in findings(cli, root) if f["name"] == "broken-index-link"]
    assert len(found) == 1
    line = (root / "MEMORY.md").read_text("utf-8").splitlines()[0]
    assert found[0]["column"] == line.index("memory/knowledge/feedback/aa.md") + 1
    assert found[0]["severity"] == "error"
    assert "does not exist" in found[0]["message"]
    assert "did you mean memory/knowledge/feedback/a.md?" in found[0]["message"]


def test_links_outside_the_workspace(workspace, cli, tmp_path):
    outside = tmp_path / "secret.md"
    outside.write_text("outside\n", "utf-8")
    root = gish(workspace, (
        '- "it said OK, so it is done" → [up](../secret.md)\n'
        '- "it said OK, so it is done" → [abs](/etc/hostname)\n'
        '- "it said OK, so it is done" → [win](C:\\notes\\a.md)\n'
        '- "it said OK, so it is done" → [link](memory/knowledge/feedback/escape.md)\n'
        '- "it said OK, so it is done" → [web](https://example.com/a.md)\n'
        '- "it said OK, so it is done" → [anchor](#tier-1)\n'
        f'- "it said OK, so it is done" → [ok]{LINK_A}\n'
    ))
    os.symlink(outside, root / "memory/knowledge/feedback/escape.md")
    found = [f for f in findings(cli, root) if f["name"] == "broken-index-link"]
    assert [f["line"] for f in found] == [1, 2, 3, 4]
    assert "outside the workspace" in found[0]["message"]
    assert "an absolute path" in found[1]["message"]
    assert "outside the workspace" in found[3]["message"]


def test_shelf_links_resolve_relative_to_the_shelf(workspace, cli):
    root = gish(workspace, f'- "which flags does it take" → [tools](memory/knowledge/INDEX_tools.md)\n- "fine, so done" → [b]{LINK_B}\n', extra={
        "memory/knowledge/INDEX_tools.md": (
            '- "which flags" → [a](feedback/a.md)\n'
            '- "which flags again" → [a](memory/knowledge/feedback/a.md)\n'
        ),
    })
    found = [f for f in findings(cli, root) if f["name"] == "broken-index-link"]
    assert names(found) == [("broken-index-link", "memory/knowledge/INDEX_tools.md", 2)]
    assert "memory/knowledge/memory/knowledge/feedback/a.md" in found[0]["message"]


def test_broken_link_and_orphan_on_claude_code(workspace, cli):
    root = workspace({
        "MEMORY.md": "- [User role](user_role.md) — data scientist\n- [Old](reference_old_api.md) — v1 quirks\n",
        "user_role.md": CLAUDE_NOTE.format(slug="user_role"),
        "project_notes.md": CLAUDE_NOTE.format(slug="project_notes"),
        "README.md": "not a memory\n",
    })
    found = findings(cli, root)
    assert names(found) == [
        ("broken-index-link", "MEMORY.md", 2),
        ("orphan-note", "project_notes.md", 1),
    ]
    assert "- [Title](project_notes.md)" in found[1]["message"]


# -- cause-style-trigger -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "trigger, flagged",
    [
        ("tool reports are unreliable", True),
        ("never trust exit codes", True),
        ("cache issues", True),
        ("the tool said it succeeded, so it is done", False),
        ("it blocked me but I never passed that flag", False),
        ("快取問題", True),
        ("工具回報不可靠", True),
        ("工具說成功了，應該好了吧", False),
        ("錯誤數是 0，所以沒問題", False),
        ("缓存问题", True),
        ("工具说成功了，应该好了吧", False),
        ("キャッシュの問題", True),
        ("エラーが0件だから問題なし", False),
        # issue #13 point 6: a short symptom naming what the agent sees on screen is not a topic
        ("spinner never stops on the checkout page", False),
        ("登入後整頁空白", False),
        ("保存ボタンが押せない", False),
        # issue #14: a post-mortem and a general question are causes; a puzzled why is a symptom
        ("the outage came from an expired intermediate cert", True),
        ("can a green dashboard be trusted?", True),
        ("why does it pass in CI but fail on my laptop", False),
    ],
)
def test_cause_style_trigger(workspace, cli, trigger, flagged):
    quote = ("「", "」") if any(ord(ch) > 0x2E80 for ch in trigger) else ('"', '"')
    root = gish(workspace, f"- {quote[0]}{trigger}{quote[1]} → [a]{LINK_A}\n- \"fine, so done\" → [b]{LINK_B}\n")
    found = [f for f in findings(cli, root) if f["name"] == "cause-style-trigger"]
    assert bool(found) == flagged, found
    if flagged:
        assert found[0]["severity"] == "warning"
        assert (found[0]["line"], found[0]["column"]) == (1, 3)
        assert trigger in found[0]["message"] and "e.g." in found[0]["message"]


def test_the_message_calls_a_cause_a_cause_and_a_topic_a_topic_and_fits_the_trigger(workspace, cli):
    # Issue #13 point 5: the suggestion is written for the trigger at hand, not one fixed example.
    root = gish(workspace, f'- "tool reports are unreliable" → [a]{LINK_A}\n- "deploy script flags" → [b]{LINK_B}\n')
    found = {f["line"]: f["message"] for f in findings(cli, root) if f["name"] == "cause-style-trigger"}
    assert "names a cause" in found[1] and "does not know this cause yet" in found[1]
    assert "names a topic" in found[2] and "in deploy script flags, so it must be fine" in found[2]
    assert "topic" not in found[1] and "cause" not in found[2].split(":", 1)[1]


def test_topics_are_fine_for_shelves_and_shelf_pointers(workspace, cli):
    root = gish(workspace, (
        '- "deploy script flags" → [tools shelf](memory/knowledge/INDEX_tools.md)\n'
        f'- "fine, so it is done" → [b]{LINK_B}\n'
    ), extra={"memory/knowledge/INDEX_tools.md": '- "deploy script flags" → [flags](feedback/a.md)\n'})
    assert [f for f in findings(cli, root) if f["name"] == "cause-style-trigger"] == []


def test_suppression_comment_silences_a_false_alarm(workspace, cli):
    root = gish(workspace, (
        "<!-- memwarden: disable-next-line=cause-style-trigger -->\n"
        f'- "cache issues" → [a]{LINK_A}\n'
        f'- "cache issues again" → [b]{LINK_B}\n'
    ))
    found = [f for f in findings(cli, root) if f["name"] == "cause-style-trigger"]
    assert [f["line"] for f in found] == [3]


# -- one-direction-trigger ---------------------------------------------------------------------------------


def test_reverse_marker_with_one_trigger(workspace, cli):
    root = gish(workspace, (
        f'- "the gate let it through" **or the reverse** → [a]{LINK_A}\n'
        f'- "it said OK, so it is done" **or the reverse** "it said it failed, retry" → [b]{LINK_B}\n'
    ))
    found = [f for f in findings(cli, root) if f["name"] == "one-direction-trigger"]
    assert names(found) == [("one-direction-trigger", "MEMORY.md", 1)]
    assert "reverse marker" in found[0]["message"]


@pytest.mark.parametrize("extra", ["two_sided: true\n", "  two_sided: true\n"])
def test_declared_two_sided_note_with_one_direction(workspace, cli, extra):
    # top level, or under metadata (indented)
    files = {"memory/knowledge/feedback/a.md": note("a", extra), "memory/knowledge/feedback/b.md": note("b")}
    files["MEMORY.md"] = f'- "the gate let it through, so it is fine" → [a]{LINK_A}\n- "fine, so done" → [b]{LINK_B}\n'
    root = workspace(files)
    found = [f for f in findings(cli, root) if f["name"] == "one-direction-trigger"]
    assert names(found) == [("one-direction-trigger", "MEMORY.md", 1)]
    assert "memory/knowledge/feedback/a.md is a two-sided failure (two_sided: true)" in found[0]["message"]


def test_two_sided_note_covered_by_two_lines(workspace, cli):
    files = {"memory/knowledge/feedback/a.md": note("a", "two_sided: true\n")}
    files["MEMORY.md"] = (
        f'- "the gate let it through, so it is fine" → [a]{LINK_A}\n'
        f'- "it blocked me, but I never passed that flag" → [a]{LINK_A}\n'
    )
    root = workspace(files)
    assert [f for f in findings(cli, root) if f["name"] == "one-direction-trigger"] == []


def test_one_direction_silent_on_claude_code(workspace, cli):
    root = workspace({
        "MEMORY.md": "- [Gate](gate.md) — **or the reverse**\n",
        "gate.md": CLAUDE_NOTE.format(slug="gate").replace("type: feedback\n", "type: feedback\ntwo_sided: true\n"),
    })
    assert [f for f in findings(cli, root) if f["name"] == "one-direction-trigger"] == []


# -- orphan-note ---------------------------------------------------------------------------------------------


def test_orphan_note(workspace, cli):
    root = gish(workspace, (
        "# Index\n\n"
        "| note | when |\n|---|---|\n| [c](memory/knowledge/feedback/c.md) | table links count |\n\n"
        f'- "fine, so it is done" → [a]{LINK_A}\n'
        '- "which flags" → [tools](memory/knowledge/INDEX_tools.md)\n'
    ), notes=("a", "b", "c", "d"), extra={"memory/knowledge/INDEX_tools.md": '- "which flags" → [d](feedback/d.md)\n'})
    found = [f for f in findings(cli, root) if f["name"] == "orphan-note"]
    assert names(found) == [("orphan-note", "memory/knowledge/feedback/b.md", 1)]
    assert "no index links to this note" in found[0]["message"]


def test_no_orphans_without_an_index_or_with_a_broken_one(workspace, cli):
    no_index = workspace({"memory/knowledge/feedback/a.md": note("a")}, name="none")
    assert [f for f in findings(cli, no_index) if f["name"] == "orphan-note"] == []
    broken = gish(workspace, "---\nbad: [\n---\n", name="broken")
    assert [f for f in findings(cli, broken) if f["name"] == "orphan-note"] == []


def test_three_layer_has_no_index_rules(workspace, cli):
    root = workspace({
        "memory/scratchpad.md": "notes\n",
        "memory/knowledge/topic.md": "# a note no index links to\n",
        "CLAUDE.md": "- [broken](nowhere.md)\n",
    })
    assert findings(cli, root) == []


# -- content-in-index ---------------------------------------------------------------------------------------------


def test_content_in_index(workspace, cli):
    long_path = "memory/knowledge/feedback/" + "x" * 300 + ".md"
    root = gish(workspace, (
        f'- "fine, so it is done" → [a]{LINK_A} — use --no-purge for asset-free changes. The CDN caches ten minutes.\n'
        f'- "it said OK. So it is done." → [b]{LINK_B}\n'
        f'- "{"it said OK and " * 15}so it is done" → [a]{LINK_A}\n'
        f'- "v5.2 said OK, e.g. on deploy, so it is done" → [long]({long_path})\n'
        f'- 「部署說成功了，應該好了吧」 → [a]{LINK_A} — 先清快取。再驗證一次。\n'
    ))
    found = [f for f in findings(cli, root) if f["name"] == "content-in-index"]
    assert [f["line"] for f in found] == [1, 2, 3, 5]
    assert "2 sentences" in found[0]["message"]
    assert "characters (limit 200)" in found[2]["message"]


def test_content_in_index_option(workspace, cli):
    root = gish(workspace, f'- "fine, so it is done" → [a]{LINK_A}\n', extra={
        ".memwarden.toml": "[rules.content-in-index]\nmax_entry_chars = 20\n",
    })
    found = [f for f in findings(cli, root) if f["name"] == "content-in-index"]
    assert len(found) == 1 and "(limit 20)" in found[0]["message"]


def test_claude_code_hook_with_content(workspace, cli):
    # Claude Code's guidance is one line under ~150 characters: a hook of short sentences within it is a hook
    # (judged false or debatable in five real indexes); past it, two sentences are content.
    root = workspace({
        "MEMORY.md": (
            "- [Testing](testing.md) — integration tests must hit a real database. Mocks hid a broken migration "
            "last quarter, and the rollback of that release took the whole night shift to finish.\n"
            "- [Scope](scope.md) — Scope must be worktree-relative; orchestrator needs its own agent file. See PR 9.\n"
            "- [Plan](plan.md) — 要件定義完了。AIコーチWebアプリ。学習兼用\n"),
        **{f"{slug}.md": CLAUDE_NOTE.format(slug=slug) for slug in ("testing", "scope", "plan")},
    })
    assert names(findings(cli, root)) == [("content-in-index", "MEMORY.md", 1)]


def test_abbreviations_versions_and_file_names_do_not_end_a_sentence(workspace, cli):
    # Issue #19, batch 2: "(e.g. X)" was read as two sentences in real Claude Code indexes.
    lines = [
        "- [CI gate](ci.md) — Gate flake helpers (e.g. isFlakyTimeoutSimulator) on the CI env, so local runs stay strict",
        "- [Docs](docs.md) — Check endpoints against the archived reference, i.e. not just .claude/docs/web.md",
        "- [Timing](timing.md) — Builds take approx. 40 minutes on the Windows runner vs. 9 on Linux",
        "- [Pins](pins.md) — Pin swift-format to v1.2.0 in Package.swift and read notes.md before bumping",
        "- [Review](review.md) — Ask Dr. Okafor (the DBA) before touching the migrations, etc. on prod",
        "- [Two](two.md) — Integration tests hit a real database. Mocks hid a broken migration.",
    ]
    # Every sentence counted, short hooks too, so the splitter is what decides here.
    files = {"MEMORY.md": "\n".join(lines) + "\n", ".memwarden.toml": "[rules.content-in-index]\nhook_chars = 0\n"}
    for slug in ("ci", "docs", "timing", "pins", "review", "two"):
        files[f"{slug}.md"] = CLAUDE_NOTE.format(slug=slug)
    root = workspace(files)
    found = [f for f in findings(cli, root) if f["name"] == "content-in-index"]
    assert [f["line"] for f in found] == [6]
    assert "2 sentences" in found[0]["message"]


MIXED_INDEX = """\
# Memory Index

Read this index at session start. Open the linked file when a memory looks relevant;
the rest stays on disk until then.

## Project
- [Testing](testing.md) — how the tests are run
- (more to come)

## Environment
- Rate limiting is off by default (`RATE_LIMIT_ENABLED=false`)
- The API token expires every 30 days
  and is renewed by hand.

Deploys go through the staging cluster first. Blue-green is not available there.

<!--
- a comment: not content
- nor this
-->

```bash
make test   # code is not content
make lint
```

@./notes/imports.md
- Settings: see `config/settings.yml`
| Layer | File |
|-------|------|
| Facts | `memory/fact.yml` |
| Notes | `notes/` |

| Setting | Value |
|---|---|
| retries | 3 |
| timeout | 30 s |
"""


def test_content_without_a_link_is_content_too(workspace, cli):
    root = workspace({"MEMORY.md": MIXED_INDEX, "testing.md": CLAUDE_NOTE.format(slug="testing")})
    found = [f for f in findings(cli, root) if f["name"] == "content-in-index"]
    # The preamble, the headings, the one "(more to come)" item, the comment, the code block, the @import,
    # the lines naming files and the table of files are not content; the environment list, the two-sentence
    # paragraph and the settings table are.
    assert [(f["line"], f["column"]) for f in found] == [(11, 1), (15, 1), (34, 1)]
    assert found[0]["message"] == (
        "lines 11-13 carry content and no link: move it into a note and point to the note with one line here"
    )
    assert found[1]["message"].startswith("this line carries content and no link")
    assert found[2]["message"].startswith("lines 34-37 carry content")


def test_an_index_that_links_to_nothing_gets_one_finding(workspace, cli):
    index = (
        "# Memory Index\n\nThis directory contains persistent memory files for Claude Code.\n\n"
        "## User Profile\n- **Role**: Software Engineer\n- **Expertise**: Python, FastAPI\n\n"
        "## Recent Work\n1. Added `get_model_params()` with defaults\n2. All 69 tests passing\n\n"
        "## Last Updated\n2026-04-26\n"
    )
    # With no note beside it, the file is the memory itself (some agents load a MEMORY.md whole): nothing to move.
    root = workspace({"MEMORY.md": index}, name="alone")
    assert [f for f in findings(cli, root) if f["name"] == "content-in-index"] == []
    root = workspace({"MEMORY.md": index, "user_profile.md": CLAUDE_NOTE.format(slug="user_profile")})
    found = [f for f in findings(cli, root) if f["name"] == "content-in-index"]
    assert [(f["path"], f["line"]) for f in found] == [("MEMORY.md", 6)]
    assert found[0]["message"] == (
        "this index links to no note and carries 4 lines of content: "
        "move the content into notes and keep one line per note here"
    )


@pytest.mark.parametrize(
    "body",
    [
        "# Memory Index\n\nThis workspace uses Ghost In Shell v5. Every session loads it; keep it short.\n\n"
        "### Facts\n@./memory/fact.yml\n\n## Memory store location\nAll memory files are in `./memory/`.\n",
        "# Tools shelf\n\nRead when you already know you are working with one of these tools.\n",
        "# Memory Index\n\n| Layer | File | When to Load |\n|---|---|---|\n| L1 Hot | `memory/fact.yml` | Every session |\n"
        "| L1 Episodes | `memory/episodic.jsonl` | When needing past lessons |\n\n"
        "## Quick Links\n- Identity: see `memory/fact.yml` → `system` section\n- Rules: see `memory/fact.yml` → `rules` section\n",
        "<!--\n  MEMORY.md: one bullet per memory file. Keep lines under ~150 chars.\n  Each file has front matter.\n-->\n\n"
        "# Index\n\n## User\n\n## Feedback\n",
    ],
    ids=["gish-multi-cli", "shelf-preamble", "gish-minimal-routing", "comment-and-empty-sections"],
)
def test_signposts_preambles_and_headings_are_not_content(workspace, cli, body):
    root = workspace({"MEMORY.md": body})
    assert [f for f in findings(cli, root) if f["name"] == "content-in-index"] == []


def test_a_long_line_without_a_link_and_cjk_lists_are_content(workspace, cli):
    index = (
        "- [빌드](build.md) — 빌드 규칙\n\n"
        "## 규칙\n- 빌드는 debug와 release 둘 다\n- 커밋은 항상 push까지\n\n"
        "## Note\n" + "word " * 60 + "\n"
    )
    root = workspace({"MEMORY.md": index, "build.md": CLAUDE_NOTE.format(slug="build")})
    found = [f for f in findings(cli, root) if f["name"] == "content-in-index"]
    assert [f["line"] for f in found] == [4, 8]


# -- duplicate-trigger --------------------------------------------------------------------------------------------


def test_duplicate_trigger(workspace, cli):
    root = gish(workspace, (
        f'- "Zero errors, so the run was clean" → [a]{LINK_A}\n'
        f'- "zero errors,  so the run was clean." → [b]{LINK_B}\n'
        f'- "Zero errors, so the run was clean" → [a again]{LINK_A}\n'
        '- "which flags" → [tools](memory/knowledge/INDEX_tools.md)\n'
    ), extra={"memory/knowledge/INDEX_tools.md": '- "ＺＥＲＯ errors, so the run was clean" → [b](feedback/b.md)\n'})
    found = [f for f in findings(cli, root) if f["name"] == "duplicate-trigger"]
    assert names(found) == [
        ("duplicate-trigger", "MEMORY.md", 2),
        ("duplicate-trigger", "memory/knowledge/INDEX_tools.md", 1),
    ]
    assert "also on line 1" in found[0]["message"]
    assert "also on MEMORY.md:1" in found[1]["message"]


# -- robustness ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "- " + "[" * 100_000,
        "- " + "[a](" * 30_000,
        "- 「" * 30_000 + " → [x](x.md)",
        '- "' + "a" * 100_000 + '" → [a](memory/knowledge/feedback/a.md)',
        "- [a](b.md) " + "<!--" * 25_000,
        "- " + "[a](memory/knowledge/feedback/a.md) " * 3_000,
    ],
)
def test_hostile_index_lines_give_findings_not_hangs(workspace, cli, line):
    root = gish(workspace, line + "\n")
    result = cli("check", str(root), "--select", "MW4,MW5", "--format", "json", cwd=root)
    assert result.exit_code in (0, 1)
    assert "Traceback" not in result.stderr


def test_link_and_quote_scanners_match_the_regexes():
    """find_links / find_quoted are the linear twins of the _LINK / _TRIGGER regexes."""
    from memwarden.documents.scan import find_links, find_quoted

    # The grammar as plain (quadratic) regexes: the scanners must agree with them exactly.
    _LINK = re.compile(
        r"(?<!!)\[(?P<title>[^\]\n]*)\]\((?P<target><[^>\n]*>|[^)\s]*)"
        r"(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^)\n]*\)))?\)"
    )
    _TRIGGER = re.compile(r"\"(?P<a>[^\"\n]+)\"|“(?P<b>[^”\n]+)”|「(?P<c>[^」\n]+)」|『(?P<d>[^』\n]+)』")

    rng = random.Random(20260101)
    alphabet = list('[]()!<>"\' a\n\t“”「」『』x')
    for _ in range(30_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 16)))
        expected = [(m.start(), m.end(), m.group("title"), m.group("target")) for m in _LINK.finditer(text)]
        assert [(m.start, m.end, m.title, m.target) for m in find_links(text)] == expected, repr(text)
        quoted = [(m.start(), next(g for g in m.groups() if g is not None)) for m in _TRIGGER.finditer(text)]
        assert find_quoted(text) == quoted, repr(text)


# -- superseded-note-indexed -----------------------------------------------------------------------------------------


def cc_note(slug: str, extra: str = "", layout: str = "top") -> str:
    if layout == "metadata":
        return f"---\nname: {slug}\ndescription: about {slug}\nmetadata:\n  type: feedback\n{extra}---\n\nBody.\n"
    return f"---\nname: {slug}\ndescription: about {slug}\ntype: feedback\n{extra}---\n\nBody.\n"


def superseded(found):
    return [(f["path"], f["line"], f["column"]) for f in found if f["name"] == "superseded-note-indexed"]


@pytest.mark.parametrize(
    "marks, layout",
    [
        ("superseded_by: new\n", "top"),
        ("  superseded_by: new.md\n", "metadata"),
        ("status: superseded\n", "top"),
        ("  status: Deprecated\n", "metadata"),
    ],
)
def test_a_note_marked_superseded_that_the_index_still_points_to(workspace, cli, marks, layout):
    root = workspace({
        "MEMORY.md": "- [Deploy flags](old.md) — which flag skips the purge\n- [Deploy flags v2](new.md) — the current flags\n",
        "old.md": cc_note("old", marks, layout),
        "new.md": cc_note("new"),
    })
    found = findings(cli, root)
    assert superseded(found) == [("MEMORY.md", 1, 3)]
    [finding] = [f for f in found if f["name"] == "superseded-note-indexed"]
    assert finding["code"] == "MW408" and finding["severity"] == "warning"
    assert finding["message"].startswith("this line sends the agent to 'old.md', but it is marked ")
    if "superseded_by" in marks:
        assert finding["message"].endswith("point the line at 'new.md', or drop the line")


@pytest.mark.parametrize(
    "supersedes",
    ["old.md", "old", "[old.md, other.md]", '"[[old]]"', '"[the old one](old.md)"', "\n  - ../notes/old.md\n"],
)
def test_a_note_another_note_supersedes_is_found_by_path_name_or_link(workspace, cli, supersedes):
    root = workspace({
        "memory/knowledge/INDEX_deploy.md": '- "which flag skips the purge" → [old flags](feedback/old.md)\n',
        "MEMORY.md": '- "which flags does deploy take" → [deploy shelf](memory/knowledge/INDEX_deploy.md)\n'
                     f'- "the new flags" → [new](memory/knowledge/feedback/new.md)\n',
        "memory/knowledge/feedback/old.md": note("old"),
        "memory/knowledge/feedback/new.md": note("new", f"  supersedes: {supersedes}\n".replace(": \n", ":\n")),
    })
    if "../notes" in supersedes:
        assert superseded(findings(cli, root)) == []  # names a file that is not there: nothing is marked
        return
    found = [f for f in findings(cli, root) if f["name"] == "superseded-note-indexed"]
    assert superseded(found) == [("memory/knowledge/INDEX_deploy.md", 1, 34)]
    assert "'memory/knowledge/feedback/new.md' says it supersedes it" in found[0]["message"]


def test_a_line_that_also_points_at_the_successor_and_unmarked_notes_are_fine(workspace, cli):
    root = workspace({
        "MEMORY.md": (
            "- [Old flags](old.md) — superseded by [the new flags](new.md)\n"
            "- [Notes on supersession](words.md) — the words alone do not mark a note\n"
            "- [Active](active.md) — status: active\n"
        ),
        "old.md": cc_note("old", "superseded_by: new\n"),
        "new.md": cc_note("new", "supersedes: old\n"),
        "words.md": cc_note("words").replace("Body.", "This note is not superseded; deprecated APIs are listed."),
        "active.md": cc_note("active", "status: active\n"),
    })
    assert superseded(findings(cli, root)) == []


def test_superseded_note_indexed_can_be_ignored_and_is_not_a_fix(workspace, cli):
    root = workspace({"MEMORY.md": "- [Old](old.md) — x\n", "old.md": cc_note("old", "status: superseded\n")})
    assert superseded(findings(cli, root, "MW4", "--ignore", "superseded-note-indexed")) == []
    [finding] = [f for f in findings(cli, root) if f["name"] == "superseded-note-indexed"]
    assert "fix" not in finding

"""The startup-index budget: units, presets, exit codes, the gauge, the budget rules and the shelving fix."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import CORPUS, write_files
from memwarden.analysis import budget
from memwarden.documents import scan
from memwarden.analysis.budget import Limit, size, status_of

MULTI_CLI = CORPUS / "examples" / "multi_cli"
NOTE = "---\nname: {slug}\ndescription: note {slug}\nmetadata:\n  type: feedback\n  updated: 2026-10-01\n---\n\nBody.\n"


def corpus_copy(tmp_path: Path) -> Path:
    root = tmp_path / "multi_cli"
    shutil.copytree(MULTI_CLI, root)
    return root


def gish_index(entries: list[str], intro: str = "# Memory Index\n\n## Tier 1\n\n") -> str:
    return intro + "".join(entries)


def gish_workspace(make, count: int, *, line=None, extra: dict | None = None, newline: str = "\n", name="ws"):
    """A gish workspace with `count` notes, each linked from one MEMORY.md line."""
    line = line or (lambda i: f'- "the deploy said OK for step {i:03d}, so it is done" → [note {i:03d}](memory/knowledge/feedback/n{i:03d}.md)')
    files = {f"memory/knowledge/feedback/n{i:03d}.md": NOTE.format(slug=f"n{i:03d}") for i in range(count)}
    text = gish_index([line(i) + "\n" for i in range(count)])
    files["MEMORY.md"] = text.replace("\n", newline)
    files.update(extra or {})
    return make(files, name)


# -- units ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, unit, expected",
    [
        ("記憶" * 10, "chars", 20),
        ("記憶" * 10, "bytes", 60),
        ("記憶" * 10, "utf16", 20),
        ("😀", "chars", 1),
        ("😀", "utf16", 2),
        ("😀", "bytes", 4),
        ("e\u0301", "chars", 2),  # code points, not user-perceived characters
        ("a\nb", "lines", 2),
        ("a\nb\n", "lines", 2),
        ("", "lines", 0),
        ("a\r\nb\r\n", "chars", 6),
    ],
)
def test_units(text, unit, expected):
    assert size(text, unit) == expected


@pytest.mark.parametrize("used, expected", [(0, 0), (99, 0), (100, 1), (149, 1), (150, 2), (151, 2)])
def test_status_boundaries(used, expected):
    assert status_of(used, Limit("chars", 100, 150)) == expected


# -- the command: exit codes at the boundaries ------------------------------------------


@pytest.mark.parametrize("chars, code", [(99, 0), (100, 1), (149, 1), (150, 2)])
def test_budget_exit_codes_at_the_boundaries(workspace, cli, chars, code):
    root = workspace({"MEMORY.md": "x" * (chars - 1) + "\n", "memory/fact.yml": "identity: {}\n"})
    result = cli("budget", "--max", "100", "--edge", "150", "--json", cwd=root)
    assert result.exit_code == code, result
    data = result.json()
    assert data["used"] == chars
    assert data["exit_code"] == code
    assert data["status"] == ["within-budget", "over-budget", "past-edge"][code]
    assert data["headroom"] == 100 - chars


def test_cjk_is_counted_in_characters_not_bytes(workspace, cli):
    root = workspace({"MEMORY.md": "記憶" * 10, "memory/fact.yml": "identity: {}\n"})
    chars = cli("budget", "--json", cwd=root).json()
    assert (chars["unit"], chars["used"]) == ("chars", 20)
    as_bytes = cli("budget", "--unit", "bytes", "--json", cwd=root).json()
    assert (as_bytes["unit"], as_bytes["used"]) == ("bytes", 60)
    emoji = workspace({"MEMORY.md": "😀", "memory/fact.yml": "identity: {}\n"}, name="emoji")
    assert cli("budget", "--json", cwd=emoji).json()["used"] == 1
    assert cli("budget", "--unit", "utf16", "--json", cwd=emoji).json()["used"] == 2


def test_missing_index_exits_3(workspace, cli, tmp_path):
    root = workspace({"memory/fact.yml": "identity: {}\n"})
    result = cli("budget", cwd=root)
    assert result.exit_code == 3
    assert "MEMORY.md" in result.stderr and "not found" in result.stderr
    data = cli("budget", "--json", cwd=root).json()
    assert (data["status"], data["exit_code"], data["used"]) == ("missing", 3, None)
    assert cli("budget", str(root / "NOPE.md"), cwd=root).exit_code == 3
    assert cli("budget", "--workspace", str(tmp_path / "no-such-dir"), cwd=root).exit_code == 3


@pytest.mark.parametrize(
    "args",
    [("--max", "0"), ("--max", "200", "--edge", "100"), ("--unit", "bogus"), ("--preset", "vim"), ("--max", "x")],
)
def test_usage_errors_exit_4_not_2(workspace, cli, args):
    root = workspace({"MEMORY.md": "# index\n", "memory/fact.yml": "identity: {}\n"})
    result = cli("budget", *args, cwd=root)
    assert result.exit_code == 4, result


def test_bad_budget_option_in_config_is_a_usage_error(workspace, cli):
    root = workspace({
        "MEMORY.md": "# index\n",
        "memory/fact.yml": "identity: {}\n",
        ".memwarden.toml": '[rules.index-over-budget]\npreset = "vim"\n',
    })
    result = cli("budget", cwd=root)
    assert result.exit_code == 4
    assert "unknown budget preset 'vim'" in result.stderr
    assert cli("check", str(root), cwd=root).exit_code == 2  # check: config error is exit 2


# -- presets -------------------------------------------------------------------------------


def test_corpus_workspace_within_the_gish_budget(tmp_path, cli):
    root = corpus_copy(tmp_path)
    result = cli("budget", cwd=root)
    assert result.exit_code == 0, result
    assert "used 1,381 chars" in result.stdout
    assert "budget 20,000" in result.stdout and "edge 24,400" in result.stdout and "headroom 18,619" in result.stdout
    data = cli("budget", "--unit", "bytes", "--json", cwd=root).json()
    assert data["used"] == (MULTI_CLI / "MEMORY.md").stat().st_size == 1391


def test_gish_preset_reads_the_workspace_config(workspace, cli):
    root = workspace({
        "MEMORY.md": "x" * 120 + "\n",
        ".gish/config.yml": "index:\n  max_chars: 100\n  truncate_edge_chars: 150\n",
    })
    data = cli("budget", "--json", cwd=root).json()
    assert (data["max"], data["edge"], data["exit_code"]) == (100, 150, 1)
    broken = workspace({
        "MEMORY.md": "x\n",
        ".gish/config.yml": "index:\n  max_chars: lots\n",
    }, name="broken")
    data = cli("budget", "--json", cwd=broken).json()
    assert (data["max"], data["edge"]) == (20000, 24400)
    assert any("index.max_chars" in note for note in data["notes"])


def test_config_options_set_the_budget_for_command_and_rules(workspace, cli):
    root = workspace({
        "MEMORY.md": "x" * 129 + "\n",
        "memory/fact.yml": "identity: {}\n",
        ".memwarden.toml": "[rules.index-over-budget]\nmax = 100\nedge = 150\n",
    })
    assert cli("budget", "--json", cwd=root).json()["exit_code"] == 1
    assert cli("budget", "--max", "200", "--edge", "300", "--json", cwd=root).json()["exit_code"] == 0
    found = cli("check", str(root), "--select", "MW5", "--format", "json", cwd=root).json()["findings"]
    assert [f["name"] for f in found] == ["index-over-budget"]


def claude_index(lines: int, comment_lines: int = 0) -> str:
    front = "---\ntitle: memory\n---\n"
    comment = "<!--\n" + "hidden\n" * max(comment_lines - 2, 0) + "-->\n" if comment_lines else ""
    body = "".join(f"- [Memory {i}](m{i}.md) — hook {i}\n" for i in range(1, lines + 1))
    return front + comment + body


def test_claude_code_counts_lines_without_front_matter_and_comments(workspace, cli):
    files = {f"m{i}.md": "---\nname: m\ndescription: d\ntype: user\n---\n" for i in range(1, 202)}
    root = workspace({**files, "MEMORY.md": claude_index(199, comment_lines=30)})
    data = cli("budget", "--json", cwd=root).json()
    assert data["preset"] == "claude-code"
    lines = next(limit for limit in data["limits"] if limit["unit"] == "lines")
    assert lines["used"] == 199  # front matter (3 lines) and the 30-line comment are not counted
    assert data["exit_code"] == 1  # 199 >= 180, the 90% budget

    past = workspace({**files, "MEMORY.md": claude_index(201)}, name="past")
    result = cli("budget", "--json", cwd=past)
    data = result.json()
    assert result.exit_code == 2
    assert data["unit"] == "lines" and data["used"] == 201
    assert [(e["line"], e["title"], e["target"]) for e in data["past_edge"]] == [(204, "Memory 201", "m201.md")]


def test_claude_code_at_the_edge_is_exit_2_with_nothing_cut_yet(workspace, cli):
    root = workspace({"MEMORY.md": "".join(f"- [M{i}](m{i}.md)\n" for i in range(200))})
    result = cli("budget", "--profile", "claude-code", cwd=root)
    assert result.exit_code == 2
    assert "the next line added will be cut" in result.stdout
    assert "never loaded" not in result.stdout


def test_claude_code_utf16_counts_emoji_twice(workspace, cli):
    root = workspace({"MEMORY.md": "😀" * 12_000 + "\n"})  # 12,001 chars, 24,001 UTF-16 units
    data = cli("budget", "--profile", "claude-code", "--json", cwd=root).json()
    assert (data["unit"], data["used"], data["exit_code"]) == ("utf16", 24_001, 1)
    assert cli("budget", "--profile", "claude-code", "--unit", "chars", "--json", cwd=root).json()["used"] == 12_001


def test_codex_sums_agents_files_from_the_repository_root(git_repo, cli):
    repo = git_repo({
        "AGENTS.md": "a" * 20_000 + "\n",
        "service/AGENTS.md": "b" * 10_000 + "\n",
        "service/api/AGENTS.md": "c" * 5_000 + "\n",
        "service/api/AGENTS.override.md": "d" * 3_000 + "\n",
        "other/AGENTS.md": "z" * 50_000 + "\n",
    })
    api = repo / "service" / "api"
    data = cli("budget", "--preset", "codex", "--json", cwd=api).json()
    assert data["files"] == ["../../AGENTS.md", "../AGENTS.md", "AGENTS.override.md"]
    assert (data["unit"], data["used"]) == ("bytes", 20_001 + 10_001 + 3_001)
    assert data["edge"] == 32_768 and data["exit_code"] == 2
    assert [(e["path"], e["line"], e["partial"]) for e in data["past_edge"]] == [("AGENTS.override.md", 1, True)]
    service = cli("budget", "--preset", "codex", "--json", cwd=repo / "service").json()
    assert service["used"] == 30_002 and service["exit_code"] == 1


def test_three_layer_defaults_to_codex(workspace, cli):
    root = workspace({"memory/scratchpad.md": "notes\n", "AGENTS.md": "# routing\nread memory/fact.yml\n"})
    data = cli("budget", "--json", cwd=root).json()
    assert data["preset"] == "codex" and data["files"] == ["AGENTS.md"] and data["used"] == 31
    # no AGENTS.md: what Claude Code loads is measured with its preset (issue 13), unless codex is asked for
    claude = workspace({"memory/scratchpad.md": "notes\n", "CLAUDE.md": "# routing\n"}, name="no-agents")
    data = cli("budget", "--json", cwd=claude).json()
    assert (data["preset"], data["files"], data["exit_code"]) == ("claude-code", ["CLAUDE.md"], 0)
    assert any("no AGENTS.md" in note for note in data["notes"])
    result = cli("budget", "--preset", "codex", cwd=claude)
    assert result.exit_code == 3 and "AGENTS.md" in result.stderr
    none = workspace({"memory/scratchpad.md": "notes\n"}, name="nothing")
    result = cli("budget", cwd=none)
    assert result.exit_code == 3 and "AGENTS.md" in result.stderr


# -- the gauge and the entries past the edge --------------------------------------------------


def cjk_index(count: int) -> str:
    # Each entry line is exactly 50 characters with its newline, so where the edge falls is known.
    lines = []
    for i in range(count):
        line = f"- 「工具說成功了第{i:02d}次應該好了吧」 → [筆記{i:02d}](n/{i:02d}.md)"
        line += "。" * (49 - len(line))
        lines.append(line + "\n")
    return "".join(lines)


def test_cjk_index_lists_exactly_the_entries_past_the_edge(workspace, cli):
    text = cjk_index(20)
    assert all(len(line) == 50 for line in text.splitlines(keepends=True))
    root = workspace({"MEMORY.md": text, "memory/fact.yml": "identity: {}\n"})
    data = cli("budget", "--max", "400", "--edge", "500", "--json", cwd=root).json()
    assert data["used"] == 1000 and data["exit_code"] == 2
    assert [e["line"] for e in data["past_edge"]] == list(range(11, 21))
    assert data["past_edge"][0]["triggers"] == ["工具說成功了第10次應該好了吧"]
    assert not any(e["partial"] for e in data["past_edge"])
    # an edge in the middle of line 11 cuts it partly
    data = cli("budget", "--max", "400", "--edge", "525", "--json", cwd=root).json()
    assert [(e["line"], e["partial"]) for e in data["past_edge"]][:2] == [(11, True), (12, False)]

    text_out = cli("budget", "--max", "400", "--edge", "500", cwd=root)
    assert text_out.exit_code == 2
    out = text_out.stdout
    assert "used 1,000 chars" in out and "budget 400" in out and "edge 500" in out and "headroom -600" in out
    assert "past the edge, never loaded: 10 entries" in out
    assert 'MEMORY.md:11  "工具說成功了第10次應該好了吧" → 筆記10' in out
    assert "MEMORY.md:20" in out and "MEMORY.md:10 " not in out
    assert out.splitlines()[1].lstrip().startswith("[") and "┃" in out  # the gauge marks the edge


def test_gauge_bar_marks_budget_and_edge():
    from memwarden.cli.budget import gauge_bar

    within = gauge_bar(50, Limit("chars", 100, 200), width=20)
    assert within == "[█████░░░░░|░░░░░░░░░]"  # 5 of 20 cells used; the budget mark at cell 10
    past = gauge_bar(300, Limit("chars", 100, 200), width=30, fancy=False)
    assert past.count("|") == 1 and past.count("!") == 1 and "x" in past and "." not in past
    assert past.index("|") < past.index("!") < past.index("x")


def test_command_runs_as_a_real_process(tmp_path):
    from conftest import run_memwarden

    root = corpus_copy(tmp_path)
    done = run_memwarden("budget", "--max", "1000", "--edge", "1300", cwd=root)
    assert done.returncode == 2
    out = done.stdout.decode("utf-8")
    assert "past the truncation point" in out
    assert "MEMORY.md:" not in out or "never loaded" in out
    assert "Traceback" not in done.stderr.decode("utf-8")


# -- the rules in `memwarden check` -------------------------------------------------------------


def check_json(cli, root, *args):
    return cli("check", str(root), "--select", "MW5", "--format", "json", *args, cwd=root).json()["findings"]


def test_budget_rules_agree_with_the_command(workspace, cli):
    root = workspace({"MEMORY.md": cjk_index(20), "memory/fact.yml": "identity: {}\n",
                      ".memwarden.toml": "[rules.index-past-truncation]\nmax = 400\nedge = 500\n"})
    found = check_json(cli, root)
    assert [(f["name"], f["severity"], f["line"]) for f in found] == [("index-past-truncation", "error", 11)]
    message = found[0]["message"]
    assert "1,000 chars, past the truncation point of 500" in message
    assert "10 entries from line 11 on are never loaded" in message
    assert "工具說成功了第10次應該好了吧" in message and "and 7 more" in message


def test_index_missing_only_where_an_index_belongs(workspace, cli):
    gish = workspace({"memory/fact.yml": "identity: {}\n", "memory/knowledge/feedback/a.md": NOTE.format(slug="a")})
    found = check_json(cli, gish)
    assert [(f["name"], f["path"]) for f in found] == [("index-missing", "MEMORY.md")]
    three = workspace({"memory/scratchpad.md": "notes\n", "CLAUDE.md": "# routing\n"}, name="three")
    assert check_json(cli, three) == []


# -- the unsafe fix: shelve entries, never drop one -------------------------------------------------


def entries_everywhere(root: Path) -> set[tuple[str, str]]:
    """(trigger, note path) for every index line of the workspace, link targets resolved."""
    from memwarden.discover.workspace import open_workspace

    ws = open_workspace(root)
    found = set()
    for doc in ws.documents("startup-index", "shelf-index"):
        for entry in doc.entries:
            for trigger in entry.triggers:
                found.add((trigger.text, scan.resolve_link(doc.relpath, entry.link.target)))
    return found


def test_shelving_fix_moves_the_last_entries_and_keeps_every_one(workspace, cli):
    root = gish_workspace(workspace, 30, extra={".gish/config.yml": "index:\n  max_chars: 1500\n  truncate_edge_chars: 2000\n"})
    before = entries_everywhere(root)
    assert len(before) == 30
    found = check_json(cli, root)
    assert found[0]["name"] == "index-past-truncation" and found[0]["fix"]["applicability"] == "unsafe"

    assert cli("check", str(root), "--select", "MW5", "--fix", cwd=root).exit_code == 1  # safe fixes only: no change
    assert "INDEX_overflow" not in (root / "MEMORY.md").read_text("utf-8")

    result = cli("check", str(root), "--select", "MW5", "--fix", "--unsafe-fixes", cwd=root)
    assert result.exit_code == 0, result
    index = (root / "MEMORY.md").read_text("utf-8")
    shelf = (root / "memory/knowledge/INDEX_overflow.md").read_text("utf-8")
    assert "[overflow shelf](memory/knowledge/INDEX_overflow.md)" in index
    assert "step 029" in shelf and "step 029" not in index and "step 000" in index
    assert "](feedback/n029.md)" in shelf  # relative to memory/knowledge/ now
    after = entries_everywhere(root)
    assert before <= after  # nothing dropped (the pointer line is the only addition)
    assert cli("budget", cwd=root).exit_code == 0
    # idempotent: a second run changes nothing
    snapshot = {p: p.read_bytes() for p in root.rglob("*.md")}
    cli("check", str(root), "--fix", "--unsafe-fixes", cwd=root)
    assert {p: p.read_bytes() for p in root.rglob("*.md")} == snapshot
    # and the moved notes are not orphans, the links resolve
    rest = cli("check", str(root), "--select", "MW4", "--format", "json", cwd=root).json()["findings"]
    assert [f for f in rest if f["name"] in ("orphan-note", "broken-index-link")] == []


def test_shelving_fix_moves_marked_entries_first_and_keeps_crlf(workspace, cli):
    def line(i):
        mark = " <!-- memwarden-shelve -->" if i in (3, 7) else ""
        return f'- "the deploy said OK for step {i:03d}, so it is done" → [note {i:03d}](memory/knowledge/feedback/n{i:03d}.md){mark}'

    root = gish_workspace(workspace, 12, line=line, newline="\r\n",
                          extra={".memwarden.toml": "[rules.index-over-budget]\nmax = 850\nedge = 2000\n"})
    raw_before = (root / "MEMORY.md").read_bytes()
    assert cli("check", str(root), "--select", "MW5", "--fix", "--unsafe-fixes", cwd=root).exit_code == 0
    index = (root / "MEMORY.md").read_bytes()
    shelf = (root / "memory/knowledge/INDEX_overflow.md").read_bytes()
    assert b"\r\n" in index and b"\n" not in index.replace(b"\r\n", b"")
    assert b"\n" not in shelf.replace(b"\r\n", b"")
    moved = [n for n in range(12) if f"step {n:03d}".encode() in shelf]
    assert 3 in moved and 7 in moved
    assert b"memwarden-shelve" not in shelf
    assert all(f"step {n:03d}".encode() in index for n in range(12) if n not in moved)
    assert len(index) < len(raw_before)


def test_shelving_fix_appends_to_an_existing_shelf_under_the_shelves_heading(workspace, cli):
    shelf = "# Overflow\n\n- \"older thing\" → [old](feedback/old.md)\n"
    intro = "# Memory Index\n\n## Shelves\n\n- \"Which flags\" → [tools](memory/knowledge/INDEX_tools.md)\n\n## Tier 1\n\n"
    files = {f"memory/knowledge/feedback/n{i:03d}.md": NOTE.format(slug=f"n{i:03d}") for i in range(10)}
    files["memory/knowledge/feedback/old.md"] = NOTE.format(slug="old")
    files["memory/knowledge/INDEX_tools.md"] = "# Tools\n"
    files["memory/knowledge/INDEX_overflow.md"] = shelf
    files["MEMORY.md"] = intro + "".join(
        f'- "the deploy said OK for step {i:03d}, so it is done" → [note {i:03d}](memory/knowledge/feedback/n{i:03d}.md)\n'
        for i in range(10)
    )
    files[".memwarden.toml"] = "[rules.index-over-budget]\nmax = 700\nedge = 2000\n"
    root = workspace(files)
    assert cli("check", str(root), "--select", "MW5", "--fix", "--unsafe-fixes", cwd=root).exit_code == 0
    new_shelf = (root / "memory/knowledge/INDEX_overflow.md").read_text("utf-8")
    assert new_shelf.startswith(shelf) and "step 009" in new_shelf
    lines = (root / "MEMORY.md").read_text("utf-8").splitlines()
    pointer = next(i for i, line in enumerate(lines) if "INDEX_overflow.md" in line)
    assert lines[pointer - 1].endswith("(memory/knowledge/INDEX_tools.md)")  # right under the other shelf pointer


def test_no_shelving_fix_when_the_prose_alone_is_over_budget(workspace, cli):
    root = gish_workspace(workspace, 3, extra={".memwarden.toml": "[rules.index-over-budget]\nmax = 100\nedge = 5000\n"})
    text = (root / "MEMORY.md").read_text("utf-8")
    (root / "MEMORY.md").write_text("Long prose. " * 20 + "\n" + text, encoding="utf-8")
    found = check_json(cli, root)
    assert found[0]["name"] == "index-over-budget" and "fix" not in found[0]


def test_no_shelving_fix_into_an_unparsable_shelf(workspace, cli):
    root = gish_workspace(workspace, 12, extra={
        ".memwarden.toml": "[rules.index-over-budget]\nmax = 850\nedge = 5000\n",
        "memory/knowledge/INDEX_overflow.md": "---\nbad: [\n---\n",
    })
    before = {p: p.read_bytes() for p in root.rglob("*.md")}
    found = check_json(cli, root)
    assert found[0]["name"] == "index-over-budget" and "fix" not in found[0]
    cli("check", str(root), "--fix", "--unsafe-fixes", cwd=root)
    assert {p: p.read_bytes() for p in root.rglob("*.md")} == before


def test_claude_code_gets_no_shelving_fix(workspace, cli):
    files = {f"m{i}.md": "---\nname: m\ndescription: d\ntype: user\n---\n" for i in range(1, 190)}
    root = workspace({**files, "MEMORY.md": claude_index(189)})
    found = check_json(cli, root)
    assert [f["name"] for f in found] == ["index-over-budget"] and "fix" not in found[0]


def test_diff_shows_the_move_and_writes_nothing(workspace, cli):
    root = gish_workspace(workspace, 12, extra={".memwarden.toml": "[rules.index-over-budget]\nmax = 850\nedge = 5000\n"})
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    result = cli("check", str(root), "--select", "MW5", "--diff", "--unsafe-fixes", cwd=root)
    assert result.exit_code == 1
    assert "+++ b/memory/knowledge/INDEX_overflow.md" in result.stdout and "--- a/MEMORY.md" in result.stdout
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before


def test_plan_is_refused_as_a_whole_when_one_file_is_refused(workspace):
    """The engine applies a multi-file fix whole or not at all."""
    from memwarden.engine import fixing as engine
    from memwarden.model import Applicability, Edit, Finding, Fix, Rule, Scope, Severity
    from memwarden.discover.workspace import open_workspace

    root = gish_workspace(workspace, 2, extra={"memory/knowledge/INDEX_bad.md": "---\nbad: [\n---\n"})
    ws = open_workspace(root)
    rule_ = Rule("MW999", "probe", Severity.ERROR, "", "", Applicability.UNSAFE, Scope.WORKSPACE, None, {}, lambda ctx: [])
    text = ws.document("MEMORY.md").text
    fix = Fix(Applicability.UNSAFE, "move", (Edit(0, len(text), ""), Edit(0, 0, "x\n", path="memory/knowledge/INDEX_bad.md")))
    finding = Finding(rule_, "MEMORY.md", 1, 1, "m", Severity.ERROR, fix=fix, workspace_path="MEMORY.md")
    originals: dict = {}
    assert not engine._apply_round(ws, [finding], originals, [])  # no fix applied
    assert ws.overlay == {}


def test_lines_unit_through_the_command(tmp_path, cli):
    root = write_files(tmp_path / "w", {"MEMORY.md": "a\n" * 10, "memory/fact.yml": "identity: {}\n"})
    data = cli("budget", "--unit", "lines", "--max", "10", "--edge", "20", "--json", cwd=root).json()
    assert (data["unit"], data["used"], data["exit_code"]) == ("lines", 10, 1)


def test_the_past_the_edge_finding_never_cuts_a_file_name_in_half(workspace, cli):
    """Issue 13.5: '[Lesson number 200 about deploys](feedback_deploy…' named no file."""
    names = [f"feedback_deploy_pipeline_lesson_number_{i:03d}.md" for i in range(205)]
    files = {name: f"---\nname: n{i}\ndescription: d\ntype: feedback\n---\nBody.\n" for i, name in enumerate(names)}
    files["MEMORY.md"] = "".join(f"- [Lesson number {i} about the deploy pipeline]({name}) — hook\n" for i, name in enumerate(names))
    root = workspace(files)
    result = cli("check", ".", "--select", "index-past-truncation", "--format", "json", cwd=root)
    [finding] = result.json()["findings"]
    message = finding["message"]
    for name in names[200:203]:
        assert f"]({name})" in message
    assert "…](" not in message.replace(" …](", "")  # a title is cut between words, if at all
    # a line with no link is cut between words too
    plain = "".join(f"line {i} see memory/knowledge/feedback/a-very-long-note-name-{i}.md for the steps\n" for i in range(205))
    root = workspace({"MEMORY.md": plain}, name="plain")
    result = cli("check", ".", "--profile", "claude-code", "--select", "index-past-truncation", "--format", "json", cwd=root)
    [finding] = result.json()["findings"]
    for shown in finding["message"].split("never loaded: ", 1)[1].split("; ")[:3]:
        words = shown.removesuffix(" …").split()
        assert all(word in plain for word in words), shown
        assert not any(w.startswith("memory/") and not w.endswith(".md") for w in words), shown


def test_shelving_fix_turns_a_reference_link_into_an_inline_one_on_the_shelf(workspace, cli):
    """The `[label]: target` line stays in MEMORY.md, so a moved `[t][label]` would lead nowhere on the shelf."""
    def line(i):
        if i in (3, 7):
            return f'- "the deploy said OK for step {i:03d}, so it is done" → [note {i:03d}][n{i}] <!-- memwarden-shelve -->'
        return f'- "the deploy said OK for step {i:03d}, so it is done" → [note {i:03d}](memory/knowledge/feedback/n{i:03d}.md)'

    root = gish_workspace(workspace, 12, line=line,
                          extra={".memwarden.toml": "[rules.index-over-budget]\nmax = 900\nedge = 2000\n"})
    index = root / "MEMORY.md"
    index.write_text(index.read_text("utf-8") + "\n[n3]: memory/knowledge/feedback/n003.md\n"
                     "[N7]: <memory/knowledge/feedback/n007.md#why> \"title\"\n", "utf-8")
    before = entries_everywhere(root)
    assert cli("check", str(root), "--select", "MW5", "--fix", "--unsafe-fixes", cwd=root).exit_code == 0
    shelf = (root / "memory/knowledge/INDEX_overflow.md").read_text("utf-8")
    assert "[note 003](feedback/n003.md)" in shelf and "[note 007](<feedback/n007.md#why>)" in shelf
    assert before <= entries_everywhere(root)
    rest = cli("check", str(root), "--select", "broken-index-link,orphan-note", "--format", "json", cwd=root).json()
    assert rest["findings"] == []

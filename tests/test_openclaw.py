"""Issue #26: OpenClaw workspaces (openclaw/openclaw docs/concepts/agent-workspace.md, memory.md and
src/agents/pi-embedded-helpers/bootstrap.ts at commit 004e91311b55).

Detection tells an OpenClaw workspace from a Claude Code folder by its files; the bootstrap files are
measured one by one at bootstrapMaxChars (20,000, first 70% and last 20% kept around a marker) and all
together at bootstrapTotalMaxChars (150,000), in JavaScript string length (UTF-16 units) after trimEnd.
Real files in temp git repositories, through the CLI.
"""

from __future__ import annotations

from pathlib import Path

import pytest

WORKSPACE = {
    "AGENTS.md": "# AGENTS\n\nRead SOUL.md, USER.md and today's daily note before anything else.\n",
    "SOUL.md": "# Soul\n\nBe direct; no filler.\n",
    "IDENTITY.md": "# Identity\n\nName: Pico. Emoji: 🦀\n",
    "USER.md": "# User\n\nCalls himself Sam. Timezone Europe/Lisbon.\n",
    "TOOLS.md": "# Tools\n\nThe NAS is reachable as nas.local.\n",
    "HEARTBEAT.md": "# Heartbeat\n\n- check the inbox\n",
    "MEMORY.md": "# Memory\n\n- Deploys go through staging first.\n",
    "memory/2026-11-29.md": "# 2026-11-29\n\n- Moved the backups to the NAS.\n",
    "memory/2026-11-30-printer.md": "# Printer\n\nThe build server does not support ARM yet.\n",
}


def check(cli, root: Path, *args):
    result = cli("check", "--format", "json", "--no-cache", "--today", "2026-11-30", *args, cwd=root)
    assert result.exit_code in (0, 1), result
    return result.json()


def test_an_openclaw_workspace_is_no_claude_code_folder(cli, git_repo):
    root = git_repo(WORKSPACE)
    report = check(cli, root)
    workspaces = report["summary"]["workspaces"]
    assert [(w["root"], w["profile"]) for w in workspaces] == [(".", "openclaw")]
    found = sorted((f["path"], f["name"]) for f in report["findings"])
    # SOUL.md is a bootstrap file: never an orphan note, never "not a note"; the daily notes' claims are read.
    assert found == [("memory/2026-11-30-printer.md", "negative-claim-without-expiry")]


def test_stats_counts_memory_md_and_the_daily_notes_as_notes(cli, git_repo):
    root = git_repo(WORKSPACE)
    body = cli("stats", "--json", "--today", "2026-11-30", cwd=root).json()
    assert (body["profile"], body["records"]["notes"]["total"]) == ("openclaw", 3)


def marker(name: str, head: int, tail: int, length: int) -> str:
    """The marker bootstrap.ts puts between head and tail, written out here from the source."""
    return (f"\n[...truncated, read {name} for full content...]\n"
            f"…(truncated {name}: kept {head}+{tail} chars of {length})…\n")


def numbered(count: int, width: int = 99) -> str:
    """Lines of exactly width characters plus a newline, each naming its number."""
    return "".join(f"{i:05d} " + "x" * (width - 6) + "\n" for i in range(1, count + 1))


def test_a_bootstrap_file_past_20000_chars_loses_its_middle_as_openclaw_cuts_it(cli, git_repo):
    # 250 lines of 100 UTF-16 units: 25,000, trimmed to 24,999 (trimEnd takes the last newline).
    tools = numbered(250)
    root = git_repo({**WORKSPACE, "TOOLS.md": tools})
    result = cli("budget", "--json", cwd=root)
    assert result.exit_code == 2, result
    body = result.json()
    limits = {limit["measured"]: limit for limit in body["limits"]}
    assert limits["TOOLS.md"]["used"] == 24_999
    assert (limits["TOOLS.md"]["max"], limits["TOOLS.md"]["edge"], limits["TOOLS.md"]["status"]) == (18_000, 20_000, "past-edge")
    # Kept: the first 14,000 units (lines 1-140) and the last 4,000 (from unit 20,999, line 210's newline, on).
    cut = [entry["line"] for entry in body["past_edge"]]
    assert cut == list(range(141, 211))
    assert not any(entry["partial"] for entry in body["past_edge"])
    # The total counts what is injected: the cut file as head + marker + tail, every other file trimmed.
    others = sum(len(text.rstrip().encode("utf-16-le")) // 2 for name, text in WORKSPACE.items()
                 if "/" not in name and name != "TOOLS.md")
    injected = 14_000 + 1 + len(marker("TOOLS.md", 14_000, 4_000, 24_999)) + 1 + 4_000
    assert limits["all bootstrap files"]["used"] == others + injected


def test_a_cut_inside_a_line_marks_it_partly_cut(cli, git_repo):
    root = git_repo({**WORKSPACE, "TOOLS.md": "u" * 50 + "\n" + numbered(250) + "tail-end"})
    body = cli("budget", "--json", cwd=root).json()
    partial = [entry["line"] for entry in body["past_edge"] if entry["partial"]]
    # 25,059 units: the head ends at 14,000, inside line 141 (from 13,951); the tail starts at 21,059,
    # inside line 212 (from 21,051).
    assert partial == [141, 212]


def test_a_file_at_exactly_the_limit_is_not_cut_yet(cli, git_repo):
    root = git_repo({**WORKSPACE, "SOUL.md": "s" * 20_000 + "\n\n"})
    body = cli("budget", "--json", cwd=root).json()
    soul = next(limit for limit in body["limits"] if limit.get("measured") == "SOUL.md")
    assert (soul["used"], soul["status"]) == (20_000, "past-edge")
    assert body["past_edge"] == []


def test_the_total_limit_and_the_per_file_limit_follow_the_config(cli, git_repo):
    config = "[tool.memwarden.rules.index-past-truncation]\nedge = 5000\ntotal_edge = 300\n"
    root = git_repo({**WORKSPACE, "pyproject.toml": config})
    result = cli("budget", "--json", cwd=root)
    body = result.json()
    limits = {limit["measured"]: limit for limit in body["limits"]}
    assert limits["AGENTS.md"]["edge"] == 5_000
    assert limits["all bootstrap files"]["edge"] == 300
    assert result.exit_code == 2
    # The files injected after the total runs out are cut: MEMORY.md is the last, and it is past it.
    assert "MEMORY.md" in {entry["path"] for entry in body["past_edge"]}
    report = check(cli, root)
    assert ("MEMORY.md", "index-past-truncation") in {(f["path"], f["name"]) for f in report["findings"]} or any(
        f["name"] == "index-past-truncation" and "all bootstrap files" in f["message"] for f in report["findings"])


def test_a_claude_code_folder_with_notes_stays_claude_code(cli, git_repo):
    files = {
        ".claude/memory/MEMORY.md": "# Memory\n\n- [Alpha](alpha.md) — when alpha matters\n",
        ".claude/memory/alpha.md": "---\nname: alpha\ndescription: alpha\ntype: project\n---\n\nAlpha runs on 8080.\n",
    }
    report = check(cli, git_repo(files))
    assert [(w["root"], w["profile"]) for w in report["summary"]["workspaces"]] == [(".claude/memory", "claude-code")]


def test_check_names_the_middle_lines_openclaw_drops(cli, git_repo):
    root = git_repo({**WORKSPACE, "TOOLS.md": numbered(250)})
    report = check(cli, root)
    cut = [f for f in report["findings"] if f["name"] == "index-past-truncation"]
    assert [(f["path"], f["line"]) for f in cut] == [("TOOLS.md", 141)]
    assert "70 lines in the middle, lines 141-210, are never loaded" in cut[0]["message"]


# OpenClaw's TOOLS.md cap (docs/concepts/user-model.md, "Keep it compact", at commit 00f00ec4e5ce: "TOOLS.md has a
# fixed 4,000-character bootstrap cap ... bootstrapMaxChars ... can only lower this cap for TOOLS.md"; in the source
# src/agents/bootstrap-budget.ts effectiveBootstrapFileLimit: min(bootstrapMaxChars, USER_BOOTSTRAP_MAX_CHARS = 4_000)
# for a file named user.md in any case). Lengths are JavaScript string lengths of the text after trimEnd.
def user_gauge(cli, root):
    body = cli("budget", "--json", cwd=root).json()
    user = next(limit for limit in body["limits"] if limit.get("measured") == "USER.md")
    cut = sorted({entry["line"] for entry in body["past_edge"] if entry["path"] == "USER.md"})
    return (user["used"], user["max"], user["edge"]), cut


@pytest.mark.parametrize("text, used, cut", [
    ("u" * 3_999 + "\n", 3_999, False),
    ("u" * 4_000 + "\n\n", 4_000, False),  # at the cap: whole (trimEnd takes the newlines)
    ("u" * 4_001, 4_001, True),
    ("用" * 4_000, 4_000, False),  # a CJK character is one UTF-16 unit (3 UTF-8 bytes): counted in characters
    ("用" * 4_001, 4_001, True),
    ("🦀" * 2_000 + "u", 4_001, True),  # an emoji is two
])
def test_user_md_is_cut_at_its_own_4000_chars(cli, git_repo, text, used, cut):
    root = git_repo({**WORKSPACE, "USER.md": text})
    (measured, budget, edge), cut_lines = user_gauge(cli, root)
    assert (measured, budget, edge) == (used, 3_600, 4_000)
    assert cut_lines == ([1] if cut else [])


def test_user_md_cut_names_the_middle_lines_openclaw_drops(cli, git_repo):
    root = git_repo({**WORKSPACE, "USER.md": numbered(50)})  # 5,000 units, trimmed to 4,999
    (used, _, _), cut = user_gauge(cli, root)
    # Kept: the first 2,800 units (lines 1-28) and the last 800 (from 4,199, line 42's newline, on).
    assert (used, cut) == (4_999, list(range(29, 43)))


@pytest.mark.parametrize("config, edge", [
    ("edge = 3000\n", 3_000),  # bootstrapMaxChars below the cap lowers it for USER.md too
    ("edge = 30000\n", 4_000),  # above it: USER.md keeps its 4,000
    ("edge = 30000\nuser_edge = 9000\n", 9_000),  # an OpenClaw before the cap, or one patched: set it
    ("user_edge = 2500\n", 2_500),
])
def test_the_user_md_cap_follows_the_config(cli, git_repo, config, edge):
    root = git_repo({**WORKSPACE, "pyproject.toml": "[tool.memwarden.rules.index-past-truncation]\n" + config})
    (_, _, measured_edge), _ = user_gauge(cli, root)
    assert measured_edge == edge


def test_only_user_md_has_the_lower_cap(cli, git_repo):
    root = git_repo({**WORKSPACE, "SOUL.md": "s" * 4_001})
    body = cli("budget", "--json", cwd=root).json()
    soul = next(limit for limit in body["limits"] if limit.get("measured") == "SOUL.md")
    assert (soul["edge"], soul["status"]) == (20_000, "within-budget")


@pytest.mark.parametrize("value", ["-1", "true", '"big"'])
def test_a_bad_user_edge_is_a_clear_error(cli, git_repo, value):
    root = git_repo({**WORKSPACE, "pyproject.toml": f"[tool.memwarden.rules.index-past-truncation]\nuser_edge = {value}\n"})
    result = cli("budget", cwd=root)
    assert result.exit_code == 4 and "user_edge" in result.stderr and "Traceback" not in result.stderr


# OpenClaw reads a front matter YAML rejects line by line and an unclosed one as text (src/markdown/frontmatter.ts,
# openclaw/openclaw at 818bcc9): a vendored skill's `description: Use when: ...`, a daily note opening on a rule.
LENIENT_FRONT_MATTER = {
    "skills/discord/SKILL.md": "---\nname: discord\ndescription: Use when: the user asks for Discord\n---\n\n# Discord\n",
    "memory/2026-11-28.md": "---\n\n## Morning\n\n- note: one: two\n- [x] done\n\n---\n\nEvening.\n",
    "memory/2026-11-27.md": "---\n\nA day that opens on a rule and never closes it.\n",
}


def test_a_front_matter_openclaw_reads_line_by_line_is_no_parse_error(cli, git_repo):
    root = git_repo({**WORKSPACE, **LENIENT_FRONT_MATTER})
    found = [(f["path"], f["name"]) for f in check(cli, root)["findings"] if f["name"] == "unparsable-file"]
    assert found == []


def test_the_same_front_matter_in_a_claude_code_folder_is_still_a_parse_error(cli, git_repo):
    root = git_repo({".claude/memory/MEMORY.md": "- [Deploy](deploy.md): how we deploy\n",
                     ".claude/memory/deploy.md": LENIENT_FRONT_MATTER["skills/discord/SKILL.md"]})
    found = [(f["path"], f["name"]) for f in check(cli, root)["findings"] if f["name"] == "unparsable-file"]
    assert found == [(".claude/memory/deploy.md", "unparsable-file")]


def test_an_installed_skills_own_files_are_its_publishers_to_parse(cli, git_repo):
    """A skill a registry installed (ClawHub's `_meta.json`, a licence beside its SKILL.md) carries files its
    publisher wrote and its own code reads: a skill.yaml YAML rejects, a Kubernetes manifest, a log in another
    encoding. The owner's own skill (no installer's mark), and memory anywhere, are still reported."""
    bad_yaml = "name: profiler\ndescription: Use when: the app is slow\n"
    root = git_repo({
        **WORKSPACE,
        "skills/acme/profiler/SKILL.md": "# Profiler\n",
        "skills/acme/profiler/_meta.json": '{"slug": "profiler"}\n',
        "skills/acme/profiler/skill.yaml": bad_yaml,
        "skills/acme/profiler/k8s/service.yaml": "kind: Service\n---\nkind: [Deployment\n",
        "skills/acme/profiler/data/log.jsonl": '{"a": 1}\n{"a": \n',
        "skills/shipkit/LICENSE": "MIT License\n",
        "skills/shipkit/SKILL.md": "# Shipkit\n",
        "skills/shipkit/notes/guide.md": b"caf\xe9 au lait\n",
        # a publisher's repository cloned right into skills/, its SKILL.md kept deeper: the folder is the skill
        "skills/cloned/LICENSE": "MIT License\n",
        "skills/cloned/skill/SKILL.md": "# Cloned\n",
        "skills/cloned/deploy/app.yaml": "kind: [Deployment\n",
        "skills/mine/SKILL.md": "# Mine\n",
        "skills/mine/skill.yaml": bad_yaml,
        "memory/ontology/graph.jsonl": '{"a": 1}\n{"a": \n',
    })
    found = sorted(f["path"] for f in check(cli, root)["findings"] if f["name"] == "unparsable-file")
    assert found == ["memory/ontology/graph.jsonl", "skills/mine/skill.yaml"]


def test_a_heartbeat_log_in_memory_does_not_make_an_openclaw_workspace_three_layer(cli, git_repo):
    root = git_repo({**WORKSPACE, "memory/heartbeat-log.jsonl": '{"ts": "2026-11-29T08:00:00Z", "status": "HEARTBEAT_OK"}\n'})
    workspaces = check(cli, root)["summary"]["workspaces"]
    assert [(w["root"], w["profile"]) for w in workspaces] == [(".", "openclaw")]


def test_what_dreaming_writes_by_itself_is_not_read_for_negative_claims(cli, git_repo):
    claim = "GitHub Pages does not support server-side redirects.\n"
    root = git_repo({**WORKSPACE, "MEMORY.md": "# Memory\n\n" + claim,
                     "memory/dreaming/light/2026-11-29.md": "# Light sleep\n\n- candidate: " + claim,
                     "memory/dreaming/deep/2026-11-29.md": "# Deep sleep\n\n- promoted: " + claim,
                     "DREAMS.md": "# Dream diary\n\n" + claim,
                     "memory/dreaming-notes.md": "# Notes on dreaming\n\n" + claim})
    found = sorted(f["path"] for f in check(cli, root, "--select", "negative-claim-without-expiry")["findings"])
    assert found == ["MEMORY.md", "memory/2026-11-30-printer.md", "memory/dreaming-notes.md"]


def test_only_an_openclaw_workspace_dreams(cli, git_repo):
    """Another agent's `memory/dreaming/` is its owner's notes, read like the rest (the skip is OpenClaw's only)."""
    note = "---\nname: light\ndescription: light\ntype: reference\n---\n\nGitHub Pages does not support redirects.\n"
    root = git_repo({"MEMORY.md": "# Memory\n\n- [Light](memory/dreaming/light/2026-11-29.md) — when sleeping\n",
                     "memory/dreaming/light/2026-11-29.md": note})
    report = check(cli, root, "--select", "negative-claim-without-expiry")
    assert [w["profile"] for w in report["summary"]["workspaces"]] == ["claude-code"]
    assert [f["path"] for f in report["findings"]] == ["memory/dreaming/light/2026-11-29.md"]

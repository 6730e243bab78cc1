"""`memwarden mcp` over stdio, driven by the mcp SDK's own client: the tools, read-only, secrets never echoed."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp", reason="the server extra is not installed")

from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "claude-code"
TOKEN = "ghp_" + "R4nd0mT0k3nV4lu3AbCdEfGhIjKlMnOpQr" + "12"

pytestmark = pytest.mark.asyncio(loop_scope="function")


@pytest.fixture
def root(tmp_path):
    shutil.copytree(EXAMPLE, tmp_path / "ws")
    return tmp_path / "ws"


async def call_tools(root: Path, calls: list[tuple[str, dict]], env: dict | None = None,
                     started_in: Path | None = None) -> tuple[list, list[dict]]:
    """Start `memwarden mcp` (in root, or in started_in with --root), list its tools and make the calls;
    (tools, answers as JSON)."""
    args = ["-m", "memwarden", "mcp"] + ([] if started_in is None else ["--root", str(root)])
    params = StdioServerParameters(command=sys.executable, args=args, cwd=str(started_in or root),
                                   env=env if env is not None else dict(os.environ))
    answers = []
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = (await session.list_tools()).tools
            for name, arguments in calls:
                result = await session.call_tool(name, arguments)
                assert not result.is_error, result
                answers.append(json.loads(result.content[0].text))
    return tools, answers


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


async def test_tools_check_proposed_content_stats_budget_and_related_and_write_nothing(root):
    before = snapshot(root)
    note = (root / "project_release.md").read_text()
    duplicate = note.replace("name: project-release", "name: release-again")
    tools, (proposed, on_disk, stats, budget, related) = await call_tools(root, [
        ("check_memory", {"path": "project_notes.md", "content": "---\nname: notes\ndescription: notes\ntype: projects\n---\n\nText.\n"}),
        ("check_memory", {"path": str(root / "project_release.md")}),
        ("memory_stats", {}),
        ("budget_headroom", {"addition": "- [New](project_new.md) — a new note\n"}),
        ("related_records", {"path": "project_release_again.md", "content": duplicate}),
    ])
    assert {t.name for t in tools} == {"check_memory", "memory_stats", "budget_headroom", "related_records"}
    assert all(t.annotations.read_only_hint for t in tools)
    assert {(f["code"], f["line"]) for f in proposed["findings"]} >= {("MW102", 4)}
    claim = next(f for f in on_disk["findings"] if f["code"] == "MW301")
    assert claim["fix"]["applicability"] == "safe" and "expires" in on_disk["fixed_content"]
    assert stats["records"]["index_entries"]["total"] == 4 and "project_notes.md" in stats["orphans"]
    assert budget["found"] and budget["unit"] == "lines" and budget["after"]["used"] == budget["used"] + 1
    assert [f["name"] for f in related["related"]] and {f["name"] for f in related["related"]} <= {
        "near-duplicate", "conflicting-records"}
    assert any("project_release.md" in f["message"] for f in related["related"])
    assert snapshot(root) == before


async def test_a_secret_in_proposed_content_is_never_echoed(root):
    content = ("---\nname: deploy\ndescription: deploy key " + TOKEN + "\ntype: project\n---\n\n"
               "Deploy with " + TOKEN + "; the cluster does not support rotation.\n")
    _, answers = await call_tools(root, [
        ("check_memory", {"path": "project_deploy.md", "content": content}),
        ("related_records", {"path": "project_deploy.md", "content": content}),
        ("check_memory", {"path": "no/such/" + TOKEN + ".md"}),
    ], started_in=root.parent)
    assert "MW701" in {f["code"] for f in answers[0]["findings"]}
    assert "fixed_content" not in answers[0]
    text = json.dumps(answers)
    assert "R4nd0mT0k3n" not in text
    assert "error" in answers[2]


async def test_fixed_content_is_never_offered_for_content_holding_a_secret_even_with_the_secret_rule_off(root, fixed_tiers):
    # The default selection (stable rules only) may leave secret-in-memory out; a safe fix's content would
    # still carry the token back to the agent.
    content = ("---\nname: deploy\ndescription: how we deploy\ntype: project\n---\n\n"
               "Deploy with " + TOKEN + "; the cluster does not support blue-green deploys.\n")
    env = {k: v for k, v in os.environ.items() if k != "MEMWARDEN_PREVIEW"}
    _, (answer,) = await call_tools(root, [("check_memory", {"path": "project_deploy.md", "content": content})], env)
    assert "MW301" in {f["code"] for f in answer["findings"]}
    assert "fixed_content" not in answer
    assert "R4nd0mT0k3n" not in json.dumps(answer)


async def test_paths_leading_out_of_the_servers_folder_are_refused_and_nothing_there_is_read(root, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "MEMORY.md").write_text("- [Gone](gone_note.md) — a note that is not there\n")
    (root / "elsewhere").symlink_to(outside)
    note = "---\nname: x\ndescription: x\ntype: project\n---\n\nSee [gone](gone_note.md).\n"
    calls = [
        ("check_memory", {"path": "../outside/MEMORY.md"}),
        ("check_memory", {"path": str(outside / "MEMORY.md")}),
        ("check_memory", {"path": "elsewhere/MEMORY.md"}),  # a symlink leading out
        ("check_memory", {"path": "elsewhere/project_new.md", "content": note}),
        ("memory_stats", {"workspace": "../outside"}),
        ("budget_headroom", {"workspace": str(outside), "addition": "- [New](new.md) — new\n"}),
        ("related_records", {"path": "../outside/project_new.md", "content": note}),
    ]
    _, answers = await call_tools(root, calls)
    for (_, arguments), answer in zip(calls, answers):
        assert "outside the folder" in answer.get("error", ""), (arguments, answer)
    assert "gone_note" not in json.dumps(answers)
    _, (nul,) = await call_tools(root, [("check_memory", {"path": "project_notes.md\0/../../etc/passwd"})])
    assert "error" in nul


async def test_content_past_the_limit_is_refused_at_once_and_odd_content_gets_an_answer(root):
    huge = "Deploy notes. " * (9 * 1024 * 1024 // 14)
    _, (big, big_addition, big_related, nul) = await call_tools(root, [
        ("check_memory", {"path": "project_huge.md", "content": huge}),
        ("budget_headroom", {"addition": huge}),
        ("related_records", {"path": "project_huge.md", "content": huge}),
        ("check_memory", {"path": "project_nul.md", "content": "---\nname: a\0b\ntype: project\n---\n\nText\0.\n"}),
    ])
    for answer in (big, big_addition, big_related):
        assert "too big" in answer["error"] and "Deploy notes" not in answer["error"]
    assert "findings" in nul


async def test_a_note_whose_name_holds_a_secret_is_never_named_in_an_answer(root):
    note = (root / "project_release.md").read_text()
    (root / f"project_{TOKEN}.md").write_text(note.replace("name: project-release", "name: release-copy"))
    index = root / "MEMORY.md"
    index.write_text(index.read_text() + f"- [Copy](project_{TOKEN}.md) — the release copy\n")
    _, answers = await call_tools(root, [
        ("related_records", {"path": "project_release_again.md", "content": note}),
        ("check_memory", {"path": f"project_{TOKEN}_draft.md", "content": note}),
        ("check_memory", {"path": f"project_{TOKEN}.md"}),
        ("memory_stats", {}),
        ("budget_headroom", {}),
    ])
    assert answers[0]["related"], "the copy is a near-duplicate: named in a message, hidden"
    assert "R4nd0mT0k3n" not in json.dumps(answers)

"""`memwarden stats`: exact counts of records, tags, claims, expiry dates, orphans and the budget."""

from __future__ import annotations

import pytest

TODAY = "2026-12-01"

INDEX = (
    "# Memory Index\n\n## Tier 1\n\n"
    '- "the deploy said OK, so it is done" → [verify the final state](memory/knowledge/feedback/verify.md)\n'
    '- "gh will list the drafts for me" → [gh drafts](memory/knowledge/references/gh-drafts.md)\n'
    '- "the container can reach the host" → [host networking](memory/knowledge/feedback/host-net.md)\n'
)


def note(front: str, body: str) -> str:
    return f"---\n{front}---\n\n{body}\n"


FILES = {
    "MEMORY.md": INDEX,
    "memory/knowledge/feedback/verify.md": note(
        "name: verify\ndescription: Check the final state after a deploy\ntags: [deploy, Verification]\n"
        "metadata:\n  type: feedback\n  updated: 2026-11-01\n",
        "Read the live site after every deploy.",
    ),
    "memory/knowledge/references/gh-drafts.md": note(
        "name: gh-drafts\ndescription: gh does not support listing draft releases\ntags: [gh]\n"
        "metadata:\n  type: reference\n  updated: 2026-11-01\n  expires: 2026-12-10\n",
        "Checked with the release page.",
    ),
    "memory/knowledge/references/pypi-reupload.md": note(  # no index links to it
        "name: pypi-reupload\ndescription: Re-uploading a release file\n"
        "metadata:\n  type: reference\n  updated: 2026-10-01\n  expires: 2026-11-01\n",
        "PyPI does not support uploading a deleted release file again.",
    ),
    "memory/knowledge/feedback/host-net.md": note(
        "name: host-net\ndescription: Host networking in containers\nmetadata:\n  updated: 2026-11-01\n",
        "Docker Desktop does not support host networking on macOS.",
    ),
    "memory/episodic.jsonl": (
        '{"id": "ep_00000001", "ts": "2026-11-01T10:00:00Z", "type": "failure", "title": "Deploy said success",'
        ' "content": "The deploy reported success but the site was old.", "tags": ["deploy", "verification"]}\n'
        '{"id": "ep_00000002", "ts": "2026-11-02T10:00:00Z", "type": "discovery", "title": "Draft releases",'
        ' "content": "gh does not support listing draft releases.", "tags": ["gh"], "expires": "2026-12-31"}\n'
        '{"id": "ep_00000003", "ts": "2026-11-03T10:00:00Z", "type": "failure", "title": "Flaky test",'
        ' "content": "Ran the suite twice.", "tags": ["deploy", "ci"], "expires": "2027-01-01"}\n'
    ),
    "memory/_archive/episodic_2026.jsonl": (
        '{"id": "ep_00000000", "ts": "2026-01-01T10:00:00Z", "type": "decision", "title": "Chose the layout",'
        ' "content": "Three layers."}\n'
    ),
    "memory/fact.yml": (
        "schema_version: 1\n"
        "identity:\n  name: \"Agent\"\n  language: \"en\"\n"
        "tools:\n  gh:\n    note: \"gh does not support merge queues on this plan.\"\n    expires: \"2026-11-20\"\n"
        "  adapters: [\"claude\", \"codex\"]\n"
        "archive:\n  old: \"not counted\"\n"
    ),
}


@pytest.fixture
def memory(git_repo):
    return git_repo(FILES)


def test_stats_json_counts_exactly(memory, cli):
    result = cli("stats", "--json", "--today", TODAY, cwd=memory)
    assert result.exit_code == 0, result
    data = result.json()
    assert data["profile"] == "ghost-in-shell" and data["today"] == TODAY and data["within"] == 30
    assert data["records"] == {
        "notes": {"total": 4, "by_type": {"reference": 2, "(none)": 1, "feedback": 1},
                  "by_shelf": {"feedback": 2, "references": 2}},
        "episodes": {"total": 4, "archived": 1, "by_type": {"failure": 2, "decision": 1, "discovery": 1}},
        "facts": {"total": 6, "files": 1},
        "index_entries": {"total": 3, "by_file": {"MEMORY.md": 3}},
    }
    assert data["tags"] == {
        "distinct": 4,
        "top": [{"tag": "deploy", "uses": 3}, {"tag": "gh", "uses": 2}, {"tag": "verification", "uses": 2},
                {"tag": "ci", "uses": 1}],
        "entries": 6,  # two notes with tags, four episodes
        "fewer_than_two": 3,  # the gh note, the gh episode, the archived episode with no tags
    }
    assert data["claims"] == {"negative": 5, "with_expires": 4, "without_expires": 1, "expired": 2, "expiring": 2}
    assert data["expiring"] == [
        {"path": "memory/knowledge/references/gh-drafts.md", "line": 8, "expires": "2026-12-10"},
        {"path": "memory/episodic.jsonl", "line": 2, "expires": "2026-12-31"},
    ]
    assert data["expired"] == [
        {"path": "memory/knowledge/references/pypi-reupload.md", "line": 7, "expires": "2026-11-01"},
        {"path": "memory/fact.yml", "line": 8, "expires": "2026-11-20"},
    ]
    assert data["orphans"] == ["memory/knowledge/references/pypi-reupload.md"]
    assert data["budget"] == {
        "files": ["MEMORY.md"], "preset": "gish", "unit": "chars", "used": len(INDEX),
        "max": 20000, "edge": 24400, "status": "within-budget",
    }


def test_within_and_today_move_the_window(memory, cli):
    wider = cli("stats", "--json", "--today", TODAY, "--within", "31", cwd=memory).json()
    assert [d["expires"] for d in wider["expiring"]] == ["2026-12-10", "2026-12-31", "2027-01-01"]
    later = cli("stats", "--json", "--today", "2026-12-11", "--within", "0", cwd=memory).json()
    assert later["claims"]["expired"] == 3 and later["expiring"] == []
    on_the_day = cli("stats", "--json", "--today", "2026-12-10", "--within", "0", cwd=memory).json()
    assert [d["expires"] for d in on_the_day["expiring"]] == ["2026-12-10"]


def test_stats_text_is_one_screen(memory, cli):
    result = cli("stats", "--today", TODAY, cwd=memory, env={"NO_COLOR": "1"})
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines == [
        f".  (ghost-in-shell profile, today {TODAY})",
        "records   4 notes: reference 2, (none) 1, feedback 1 / shelves feedback 2, references 2",
        "          4 episodes (1 archived): failure 2, decision 1, discovery 1",
        "          6 facts in 1 file",
        "          3 index entries",
        "tags      4 distinct tags / top: deploy 3, gh 2, verification 2, ci 1",
        "          3 of 6 tagged entries with fewer than 2",
        "claims    5 negative claims: 4 with expires, 1 without",
        "expires   2 passed / 2 due by 2026-12-31 (within 30 days)",
        "            2026-12-10  memory/knowledge/references/gh-drafts.md:8",
        "            2026-12-31  memory/episodic.jsonl:2",
        "orphans   1 note no index links to:",
        "            memory/knowledge/references/pypi-reupload.md",
        f"budget    [........................|.....] 2% / {len(INDEX)} of 20,000 chars (edge 24,400)",
    ]
    assert len(lines) <= 24 and all(line.isascii() for line in lines)


def test_stats_from_outside_names_paths_from_where_it_runs(memory, cli):
    data = cli("stats", "--json", "--today", TODAY, memory.name, cwd=memory.parent).json()
    assert data["workspace"] == memory.name
    assert data["orphans"] == [f"{memory.name}/memory/knowledge/references/pypi-reupload.md"]


def test_bad_input_is_a_clear_error_or_a_count(workspace, cli):
    root = workspace({"MEMORY.md": INDEX, "memory/episodic.jsonl": "{not json\n", "memory/fact.yml": "a: [\n"})
    result = cli("stats", "--json", "--today", TODAY, cwd=root)
    assert result.exit_code == 0, result
    assert result.json()["unreadable"] == ["memory/fact.yml"]  # the log parses; its bad line is not an episode
    assert result.json()["records"]["episodes"]["total"] == 0
    bad_day = cli("stats", "--today", "2026-02-30", cwd=root)
    assert bad_day.exit_code == 2 and "not a date" in bad_day.stderr and "Traceback" not in bad_day.stderr
    not_a_folder = cli("stats", "MEMORY.md", cwd=root)
    assert not_a_folder.exit_code == 2 and "not a folder" in not_a_folder.stderr


def test_a_secret_in_a_tag_is_never_printed(workspace, cli):
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    root = workspace({
        "MEMORY.md": INDEX,
        "memory/episodic.jsonl": '{"id": "ep_00000001", "ts": "2026-11-01T10:00:00Z", "type": "note", "title": "t",'
                                 f' "content": "c", "tags": ["{token}", "{token}x"]}}\n',
    })
    for args in (("--json",), ()):
        result = cli("stats", *args, "--today", TODAY, cwd=root)
        assert result.exit_code == 0
        assert token[4:14] not in result.stdout + result.stderr


def test_readme_sample_of_stats_is_what_memwarden_prints(cli):
    import re

    from conftest import REPO

    readme = (REPO / "README.md").read_text("utf-8")
    block = next(b for b in re.findall(r"```text\n(.*?)```", readme, flags=re.S) if b.startswith("$ memwarden stats"))
    command, *expected = block.rstrip("\n").splitlines()
    result = cli(*command.split()[2:], cwd=REPO)
    assert result.exit_code == 0
    assert result.stdout.rstrip("\n").splitlines() == expected

"""Parity with Ghost In Shell's own tools: `gish index budget` numbers and `gish knowledge lint` checks.

The anchor (gish 5.2's knowledge engine) is run in the test when it is importable; otherwise the
numbers it gave when these tests were written are used (measured with gshell-memory 5.2.0 from
/work/shared/anchors/gish, `knowledge.budget`), so the comparison still means something.
"""

from __future__ import annotations

import pytest

try:
    from gshell_memory.engines import knowledge as gish_knowledge
    from gshell_memory.memory._paths import WorkspacePaths
except ImportError:  # the anchor is not installed here: fall back to the pinned numbers
    gish_knowledge = None

LINE = '- "the deploy said OK, so it is done" → [verify](memory/knowledge/feedback/verify.md)'
NOTE = (
    "---\nname: verify\ndescription: check the final state\nmetadata:\n  type: feedback\n  updated: 2026-10-01\n"
    "---\n\nCheck it.\n\n**Why:** it lied.\n\n**How to apply:** look.\n"
)


BOM = b"\xef\xbb\xbf"


def _index(lines: int) -> str:
    return "# Memory Index\n\n" + "".join(f"{LINE} {i:03d}\n" for i in range(lines))


def _crlf(text: str) -> bytes:
    return text.replace("\n", "\r\n").encode()


# name -> (MEMORY.md bytes, .gish/config.yml or None, (chars, exit code) as `gish index budget` gave them)
BUDGET_CASES = {
    # 40 lines, CRLF: 3,738 bytes, 3,616 characters as gish reads them (one per line end)
    "crlf": (_crlf(_index(40)), "index:\n  max_chars: 3600\n  truncate_edge_chars: 3700\n", (3616, 1)),
    "crlf-under": (_crlf(_index(40)), "index:\n  max_chars: 3650\n  truncate_edge_chars: 3700\n", (3616, 0)),
    # a UTF-8 BOM is one character to gish: 916 characters of text, 917 counted
    "bom": (BOM + _index(10).encode(), "index:\n  max_chars: 917\n  truncate_edge_chars: 1000\n", (917, 1)),
    "bom-default": (BOM + _index(10).encode(), None, (917, 0)),
    "bom-crlf": (BOM + _crlf(_index(10)), "index:\n  max_chars: 917\n  truncate_edge_chars: 930\n", (917, 1)),
    "string-number": (_index(40).encode(), 'index:\n  max_chars: "3000"\n  truncate_edge_chars: "4000"\n', (3616, 1)),
    "max-above-edge": (_index(40).encode(), "index:\n  max_chars: 5000\n  truncate_edge_chars: 3000\n", (3616, 2)),
    "max-above-edge-under": (_index(20).encode(), "index:\n  max_chars: 5000\n  truncate_edge_chars: 3000\n", (1816, 0)),
}


def _gish_budget(root, pinned):
    if gish_knowledge is None:
        return pinned
    result = gish_knowledge.budget(WorkspacePaths(root))
    return result["chars"], result["exit_code"]


@pytest.mark.parametrize("case", sorted(BUDGET_CASES))
def test_budget_matches_gish(case, workspace, cli):
    index, config, pinned = BUDGET_CASES[case]
    files = {"MEMORY.md": index, "memory/knowledge/feedback/verify.md": NOTE}
    if config is not None:
        files[".gish/config.yml"] = config
    root = workspace(files)
    chars, code = _gish_budget(root, pinned)
    assert (chars, code) == pinned  # the anchor still gives the numbers pinned above
    result = cli("budget", "--preset", "gish", "--json", cwd=root)
    data = result.json()
    assert (data["used"], data["exit_code"], result.exit_code) == (chars, code, code)
    # the rules agree with the command
    names = {f["name"] for f in cli("check", str(root), "--select", "MW5", "--format", "json", cwd=root).json()["findings"]}
    expected = {0: set(), 1: {"index-over-budget"}, 2: {"index-past-truncation"}}[code]
    assert names == expected


def test_budget_above_the_edge_says_the_edge_is_used(workspace, cli):
    index, config, _ = BUDGET_CASES["max-above-edge"]
    root = workspace({"MEMORY.md": index, ".gish/config.yml": config})
    data = cli("budget", "--json", cwd=root).json()
    assert (data["max"], data["edge"]) == (3000, 3000)
    assert any("above index.truncate_edge_chars" in note for note in data["notes"])
    assert data["past_edge"], "the entries past the configured edge are listed"

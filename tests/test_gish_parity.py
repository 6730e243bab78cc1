"""Parity with Ghost In Shell's own tools: `gish index budget` numbers and `gish knowledge lint` checks.

The anchor (gish 5.2's knowledge engine) is run in the test when it is importable; otherwise the
numbers it gave when these tests were written are used (measured with gshell-memory 5.2.0 from
/work/shared/anchors/gish, `knowledge.budget`), so the comparison still means something.
"""

from __future__ import annotations

import datetime
import re
import shutil
from pathlib import Path

import pytest

try:
    from gshell_memory.engines import knowledge as gish_knowledge
    from gshell_memory.memory._paths import WorkspacePaths
except ImportError:  # the anchor is not installed here: fall back to the pinned numbers
    gish_knowledge = None

TODAY = datetime.date(2026, 11, 30)
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


# -- the knowledge-lint probe ---------------------------------------------------------------

PROBE = Path(__file__).resolve().parent / "fixtures" / "gish_probe"
K = "memory/knowledge/"
# What `gish knowledge lint` reports on the probe (path, index line or None), as gish 5.2 gave it,
# and the memwarden rules that answer each. Several gish messages on one note are one entry.
GISH_FLAGS = {
    (f"{K}feedback/no-why.md", None): {"feedback-without-why"},
    (f"{K}projects/type-mismatch.md", None): {"note-type-mismatch"},
    (f"{K}references/bad-confidence.md", None): {"schema-violation"},
    (f"{K}references/bad-evidence.md", None): {"schema-violation"},
    (f"{K}references/bad-expires.md", None): {"invalid-expiry", "schema-violation"},
    (f"{K}references/bad-updated.md", None): {"schema-violation", "invalid-timestamp"},
    (f"{K}references/empty-body.md", None): {"empty-note"},
    (f"{K}references/expired.md", None): {"expired-claim"},
    (f"{K}references/invalid-yaml.md", None): {"unparsable-file"},
    (f"{K}references/multiline-description.md", None): {"schema-violation"},
    (f"{K}references/name-mismatch.md", None): {"note-name-mismatch"},
    (f"{K}references/no-description.md", None): {"schema-violation"},
    (f"{K}references/no-front-matter.md", None): {"schema-violation"},
    (f"{K}references/no-metadata.md", None): {"schema-violation"},
    (f"{K}references/no-updated.md", None): {"schema-violation"},
    (f"{K}references/top-level-confidence.md", None): {"misplaced-governance-key"},
    (f"{K}references/top-level-expires.md", None): {"invalid-expiry"},
    (f"{K}references/top-level-tier.md", None): {"misplaced-governance-key"},
    (f"{K}references/unknown-type.md", None): {"schema-violation"},
    (f"{K}references/orphan.md", None): {"orphan-note"},
    ("MEMORY.md", 27): {"broken-index-link"},
    ("MEMORY.md", 28): {"index-entry-without-trigger"},
}
# Where gish is wrong: a note in a subfolder of its shelf (gish compares the type with the note's
# own folder), a percent-encoded target it does not decode (so it also calls that note an orphan),
# links in inline code and in a code fence.
GISH_WRONG = {
    (f"{K}feedback/ci/nested-on-its-shelf.md", None), (f"{K}references/with space.md", None),
    ("MEMORY.md", 29), ("MEMORY.md", 33), ("MEMORY.md", 39),
}
LINK_FORM_LINES = range(29, 41)  # point 3's link forms: none is a broken link
INLINE_CODE_LINE = 33  # a link in inline code: point 3, handled on another branch


def _gish_lint(root):
    if gish_knowledge is None:
        return set(GISH_FLAGS) | GISH_WRONG
    flagged = set()
    for issue in gish_knowledge.lint(WorkspacePaths(root), today=TODAY)["issues"]:
        line = re.match(r"line (\d+):", issue["message"])
        flagged.add((issue["path"], int(line.group(1)) if line else None))
    return flagged


def _probe(tmp_path, cli):
    root = tmp_path / "gish_probe"
    shutil.copytree(PROBE, root)
    # The coherence rules are beyond the parity this probe measures: missing-provenance asks for evidence
    # gish's lint never asks for, and the probe's notes are one template, so near-duplicate rightly pairs them.
    data = cli("check", "--no-cache", "--today", TODAY.isoformat(), "--ignore", "missing-provenance,near-duplicate",
               "--format", "json", str(root), cwd=root).json()
    return root, data["findings"]


def test_memwarden_answers_every_check_gish_is_right_about(tmp_path, cli):
    root, findings = _probe(tmp_path, cli)
    assert _gish_lint(root) == set(GISH_FLAGS) | GISH_WRONG  # the anchor still flags what is pinned
    for (path, line), rules in GISH_FLAGS.items():
        mine = {f["name"] for f in findings if f["path"] == path and (line is None or f["line"] == line)}
        assert mine & rules, (path, line, mine)


def test_memwarden_stays_quiet_where_gish_is_wrong(tmp_path, cli):
    _, findings = _probe(tmp_path, cli)
    nested = f"{K}feedback/ci/nested-on-its-shelf.md"
    assert [f["name"] for f in findings if f["path"] == nested] == []
    for name in ("good", "good-feedback", "with space"):
        assert [f["name"] for f in findings if f["path"] == f"{K}references/{name}.md"
                or f["path"] == f"{K}feedback/{name}.md"] == []
    links = [(f["line"], f["name"]) for f in findings if f["path"] == "MEMORY.md" and f["line"] in LINK_FORM_LINES
             and f["name"] in ("broken-index-link", "index-entry-without-trigger") and f["line"] != INLINE_CODE_LINE]
    assert links == []


def test_a_link_in_inline_code_is_no_link(tmp_path, cli):
    _, findings = _probe(tmp_path, cli)
    assert [f for f in findings if f["path"] == "MEMORY.md" and f["line"] == INLINE_CODE_LINE
            and f["name"] == "broken-index-link"] == []

"""A check that does not fix tells whether a finding can be fixed without building the edit (issue 12).

negative-claim-without-expiry's `expires` edit on an episode is built only under `--fix`/`--diff`;
a plain check asks `can_add_expires`. The two must agree on every record: the property below writes
logs of the hand table's sentences in episodes of many shapes (extra members, nested values, spacing,
non-ASCII, records the schema rejects, arrays, broken lines) and compares, finding by finding, a check
with a check that builds its fixes.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO, write_files
from memwarden.discover.workspace import open_workspace
from memwarden.engine.run import Checker, RunOptions

TODAY = dt.date(2026, 6, 1)
RULE = "negative-claim-without-expiry"


def _sentences() -> list[str]:
    with open(REPO / "tests" / "data" / "negation_table.tsv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [row["text"] for row in rows if row["label"] == "claim"][:400] + [row["text"] for row in rows[:40]]


SENTENCES = _sentences()
WORDS = st.text(alphabet="abcXYZ 測試_-", min_size=0, max_size=8)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10**12) | WORDS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(WORDS, inner, max_size=3),
    max_leaves=6,
)


@st.composite
def episode_line(draw) -> str:
    record: dict = {
        "id": f"ep_{draw(st.integers(0, 99999)):08d}",
        "ts": draw(st.sampled_from(["2026-03-01T10:00:00Z", "2026-03-01", "yesterday", "2026-05-20T08:00:00+08:00"])),
        "type": draw(st.sampled_from(["lesson", "decision", "failure", 7])),
        "title": draw(st.sampled_from(SENTENCES)),
        "content": draw(st.sampled_from(SENTENCES)),
        "tags": draw(st.lists(st.sampled_from(["deploy", "ci", "api"]), max_size=3)),
    }
    for key in draw(st.lists(st.sampled_from(["importance", "retrieval", "extra", "expires_at", "summary"]), max_size=3)):
        record[key] = draw(JSON_VALUES)
    for key in draw(st.lists(st.sampled_from(["id", "ts", "type", "tags"]), max_size=2)):
        record.pop(key, None)  # required members missing: the schema already fails, the fix must not add to it
    shape = draw(st.sampled_from(["spaced", "compact", "ascii", "array", "broken", "empty-object"]))
    if shape == "compact":
        return json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    if shape == "ascii":
        return json.dumps(record, indent=None)
    if shape == "array":
        return json.dumps([record["content"]])
    if shape == "broken":
        return json.dumps(record, ensure_ascii=False)[:-1]
    if shape == "empty-object":
        return "{}"
    return json.dumps(record, ensure_ascii=False)


def _problems(root: Path, fixing: bool) -> list[tuple]:
    ws = open_workspace(root, None)
    checker = Checker(ws, RunOptions(select=[RULE], today=TODAY, diff=fixing, cwd=root))
    found = checker.findings()
    if fixing:
        assert all(f.fix.edits for f in found if f.fix is not None)  # a fixing run builds every edit
    else:
        assert all(not f.fix.edits for f in found if f.fix is not None)  # a check builds none
    return [(f.path, f.line, f.column, f.message, f.fix and (f.fix.applicability, f.fix.description)) for f in found]


# A schema of the user's own: some records may hold an `expires`, others not (no fix may add a violation).
USER_SCHEMA = {
    "type": "object",
    "if": {"properties": {"type": {"const": "decision"}}},
    "then": {"not": {"required": ["expires"]}},
    "properties": {"expires": {"type": "string", "pattern": "^2026-"}, "importance": {"maxProperties": 1}},
}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    lines=st.lists(episode_line(), min_size=1, max_size=12),
    profile=st.sampled_from(["ghost-in-shell", "three-layer"]),
    user_schema=st.booleans(),
)
def test_a_check_and_a_fixing_run_agree_on_what_can_be_fixed(lines, profile, user_schema):
    files = {"memory/episodic.jsonl": "\n".join(lines) + "\n"}
    files["MEMORY.md" if profile == "ghost-in-shell" else "memory/fact.yml"] = (
        "# Memory\n" if profile == "ghost-in-shell" else "user:\n  name: A\n"
    )
    if user_schema:
        files["schema.json"] = json.dumps(USER_SCHEMA)
        files[".memwarden.toml"] = '[kinds.episodic]\nschema = "schema.json"\n'
    with tempfile.TemporaryDirectory() as tmp:
        root = write_files(Path(tmp), files)
        assert _problems(root, fixing=False) == _problems(root, fixing=True)


def test_the_property_meets_claims_with_and_without_a_fix(tmp_path):
    """The property compares something: under the user's schema a decision may not hold an `expires`."""
    def line(number, kind):
        return json.dumps({"id": f"ep_{number:08d}", "ts": "2026-03-01T10:00:00Z", "type": kind, "title": "t",
                           "content": "gh does not support listing draft releases.", "tags": ["a", "b"]})
    root = write_files(tmp_path, {
        "MEMORY.md": "# Memory\n",
        "memory/episodic.jsonl": line(1, "lesson") + "\n" + line(2, "decision") + "\n",
        "schema.json": json.dumps(USER_SCHEMA),
        ".memwarden.toml": '[kinds.episodic]\nschema = "schema.json"\n',
    })
    checked = _problems(root, fixing=False)
    assert checked == _problems(root, fixing=True)
    assert [fix is not None for *_, fix in checked] == [True, False]

"""The format rules, and the fix machinery they use, through the real CLI."""

from __future__ import annotations

import pytest

from memwarden.rules.timestamps import timestamp_error

FP = "b" * 64


def episode(i: int, **extra) -> str:
    import json

    record = {
        "id": f"ep_{i}", "ts": "2026-01-01T00:00:00Z", "type": "insight", "title": "t", "content": "c",
        "tags": ["alpha", "beta"], "importance": 5, "fingerprint": FP, "decay_status": "active",
        "retrieval": {"count": 0},
    }
    record.update(extra)
    return json.dumps(record)


def gish(workspace, files):
    return workspace({"MEMORY.md": "# Memory\n", "memory/fact.yml": "identity:\n  name: A\n", **files})


def findings(cli, root, *args):
    result = cli("check", "--format", "json", *args, ".", cwd=root)
    assert result.exit_code in (0, 1), result
    return [(f["name"], f["path"], f["line"]) for f in result.json()["findings"]]


@pytest.mark.parametrize("value, expected, problem", [
    ("2026-01-01T00:00:00Z", "datetime-offset", None),
    ("2026-01-01T00:00:00.123+08:00", "datetime-offset", None),
    ("2026-01-01 00:00:00+0800", "datetime-offset", None),
    ("2026-01-01T00:00:00", "datetime-offset", "no UTC offset"),
    ("2026-01-01T00:00:00", "datetime", None),
    ("2026-02-30T00:00:00Z", "datetime-offset", "impossible date"),
    ("2026-13-01", "date", "impossible date"),
    ("2025-02-29", "date", "impossible date"),
    ("2024-02-29", "date", None),
    ("yesterday", "date", "not a date"),
    ("2026-01-01T25:00:00Z", "datetime-offset", "impossible date"),
    ("2026-01-01T10:00:00+25:00", "datetime-offset", "impossible UTC offset"),
    ("2026-01-01", "date-or-datetime", None),
    ("2026-01-01T00:00:00Z", "date-or-datetime", None),
    ("01/02/2026", "date-or-datetime", "not an ISO 8601"),
])
def test_timestamp_checks(value, expected, problem):
    found = timestamp_error(value, expected)
    if problem is None:
        assert found is None
    else:
        assert found is not None and problem in found


def test_schema_violation_names_path_and_line(cli, workspace):
    root = gish(workspace, {"memory/episodic.jsonl": episode(1) + "\n" + episode(2, importance=11) + "\n"})
    result = cli("check", "--format", "json", ".", cwd=root)
    [finding] = result.json()["findings"]
    assert finding["name"] == "schema-violation"
    assert finding["json_path"] == "$.importance"
    assert finding["line"] == 2 and "at most 10" in finding["message"]
    assert result.exit_code == 1


def test_schema_violation_reports_best_match_of_anyof(cli, workspace):
    root = workspace({
        "memory/scratchpad.md": "# pad\n",
        "memory/episodic.jsonl": '{"type": "decision", "tags": ["a", "b"], "summary": "s"}\n',
    })
    [finding] = cli("check", "--format", "json", ".", cwd=root).json()["findings"]
    assert finding["name"] == "schema-violation"
    assert "ts" in finding["message"] or "date" in finding["message"]


def test_schema_messages_never_echo_long_strings(cli, workspace):
    token = "Zq" * 30
    root = gish(workspace, {"memory/episodic.jsonl": episode(1, decay_status=token) + "\n"})
    result = cli("check", "--format", "json", ".", cwd=root)
    assert "decay_status" in result.stdout and token not in result.stdout


def test_duplicate_keys_in_yaml_front_matter_and_jsonl(cli, workspace):
    root = gish(workspace, {
        "memory/fact.yml": "identity:\n  name: A\n  name: B\n",
        "memory/episodic.jsonl": episode(1)[:-1] + ', "importance": 6}\n',
        "memory/knowledge/feedback/a.md": "---\nname: a\nname: a\ndescription: d\nmetadata: {type: feedback, updated: 2026-01-01}\n---\nx\n",
    })
    found = findings(cli, root)
    assert ("duplicate-key", "memory/fact.yml", 3) in found
    assert ("duplicate-key", "memory/episodic.jsonl", 1) in found
    assert ("duplicate-key", "memory/knowledge/feedback/a.md", 3) in found


def test_duplicate_id_across_log_and_archive(cli, workspace):
    root = gish(workspace, {
        "memory/episodic.jsonl": episode(1) + "\n" + episode(2) + "\n",
        "memory/_archive/episodic_consolidated.jsonl": episode(3) + "\n" + episode(1) + "\n",
    })
    found = findings(cli, root)
    # files are read in path order, so the archive's ep_1 comes first and the log's is the repeat
    assert [f for f in found if f[0] == "duplicate-id"] == [("duplicate-id", "memory/episodic.jsonl", 1)]


def test_invalid_timestamp_in_a_note(cli, workspace):
    root = gish(workspace, {
        "memory/knowledge/feedback/a.md": "---\nname: a\ndescription: d\nmetadata:\n  type: feedback\n  updated: 2026-02-30\n---\nx\n",
    })
    assert ("invalid-timestamp", "memory/knowledge/feedback/a.md", 6) in findings(cli, root)


NOTE_WITH = "---\nname: a\ndescription: {description}\nmetadata:\n  type: feedback\n  updated: {updated}\n---\nx\n"


@pytest.mark.parametrize("description, updated, expected", [
    # an `updated` date-time today: one timestamp finding, not a pattern failure besides
    ("d", "2026-11-30T10:00:00Z", [("invalid-timestamp", 6)]),
    ("d", "'2026-11-30T10:00:00Z'", [("invalid-timestamp", 6)]),
    # a multi-line description fails the schema's pattern and its "not" guard: one finding
    ("|\n  first line\n  second line", "2026-11-30", [("schema-violation", 3)]),
    ("first line\n\n  second line", "2026-11-30", [("schema-violation", 3)]),
    # a value that is not a string at all stays the schema's
    ("d", "[2026]", [("schema-violation", 6)]),
])
def test_one_problem_gives_one_finding(cli, workspace, description, updated, expected):
    root = gish(workspace, {"memory/knowledge/feedback/a.md": NOTE_WITH.format(description=description, updated=updated)})
    found = [(name, line) for name, path, line in findings(cli, root, "--today", "2026-11-30", "--select", "MW101,MW102,MW103,MW104")
             if path == "memory/knowledge/feedback/a.md"]
    assert found == expected


def test_a_three_layer_episode_with_a_bad_ts_gives_one_finding(cli, workspace):
    record = '{"ts": "yesterday", "type": "decision", "summary": "s", "detail": "d", "tags": ["a", "b"]}\n'
    root = workspace({"memory/episodic.jsonl": record, "memory/scratchpad.md": "x\n"})
    assert findings(cli, root, "--select", "MW1") == [("invalid-timestamp", "memory/episodic.jsonl", 1)]


MALFORMED = [
    # (input, expected after --fix)
    (b'{"a": 1}\n\n{"a": 2}\n', b'{"a": 1}\n{"a": 2}\n'),
    (b'{"a": 1}\r\n\r\n{"a": 2}\r\n', b'{"a": 1}\r\n{"a": 2}\r\n'),
    (b'{"a": 1}{"a": 2}\n', b'{"a": 1}\n{"a": 2}\n'),
    (b'{"a": 1}  {"a": 2}\r\n', b'{"a": 1}\r\n{"a": 2}\r\n'),
    (b'{"a": 1}\n{"a": 2}', b'{"a": 1}\n{"a": 2}\n'),
    (b'\xef\xbb\xbf{"a": 1}\r\n   \r\n{"a": 2}', b'\xef\xbb\xbf{"a": 1}\r\n{"a": 2}\r\n'),
    (b'{"a": 1}\n', b'{"a": 1}\n'),
    (b'{"a": 1}\n{"a": \n\n', b'{"a": 1}\n{"a": \n'),  # the bad line stays, untouched
]


@pytest.mark.parametrize("before, after", MALFORMED)
def test_malformed_jsonl_fix_is_byte_careful_and_idempotent(cli, workspace, before, after):
    root = workspace({"memory/scratchpad.md": "# pad\n", "memory/episodic.jsonl": before})
    path = root / "memory" / "episodic.jsonl"
    cli("check", "--select", "malformed-jsonl", "--fix", ".", cwd=root)
    assert path.read_bytes() == after
    second = cli("check", "--select", "malformed-jsonl", "--fix", ".", cwd=root)
    assert path.read_bytes() == after
    assert second.exit_code == 0
    assert "Fixing" not in second.stderr


def test_fix_reports_fixing_and_exits_zero_when_all_fixed(cli, workspace):
    root = workspace({"memory/scratchpad.md": "# pad\n", "memory/episodic.jsonl": b'{"a": 1}\n\n'})
    result = cli("check", "--select", "malformed-jsonl", "--fix", ".", cwd=root)
    assert result.exit_code == 0
    assert "Fixing memory/episodic.jsonl" in result.stderr
    assert "1 fixed" in result.stdout


def test_diff_shows_fixes_and_writes_nothing(cli, workspace):
    before = b'{"a": 1}\n\n{"a": 2}'
    root = workspace({"memory/scratchpad.md": "# pad\n", "memory/episodic.jsonl": before})
    result = cli("check", "--diff", ".", cwd=root)
    assert result.exit_code == 1
    assert "--- a/memory/episodic.jsonl" in result.stdout
    assert '+{"a": 2}' in result.stdout
    assert (root / "memory" / "episodic.jsonl").read_bytes() == before


def test_fix_keeps_file_mode(cli, workspace):
    root = workspace({"memory/scratchpad.md": "# pad\n", "memory/episodic.jsonl": b'{"a": 1}'})
    path = root / "memory" / "episodic.jsonl"
    path.chmod(0o600)
    cli("check", "--fix", ".", cwd=root)
    assert path.read_bytes() == b'{"a": 1}\n'
    assert path.stat().st_mode & 0o777 == 0o600


def test_executable_config_and_scratchpad(cli, workspace):
    root = gish(workspace, {".gish/config.yml": "consolidate:\n  judge_command: ./judge.sh\n"})
    assert ("executable-config", ".gish/config.yml", 2) in findings(cli, root)
    pad = "# pad\n" + "- line\n" * 200
    root = workspace({"memory/scratchpad.md": pad}, name="three")
    result = cli("check", "--format", "json", ".", cwd=root)
    [finding] = result.json()["findings"]
    assert (finding["name"], finding["severity"], finding["line"]) == ("scratchpad-too-long", "warning", 201)
    assert result.exit_code == 0
    assert cli("check", "--strict", ".", cwd=root).exit_code == 1

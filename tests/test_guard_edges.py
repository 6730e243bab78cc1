"""Edges of issue 11's items that tests/test_guard.py does not reach, each through the real CLI.

Item 6: files no kind claims (binary files, excludes, agent-instructions repositories, the JSON
summary); item 7: the cache key; item 14: --output; item 16: crashes; item 17: unreadable
files; item 18: JSONL constants and CR-only files.
"""

from __future__ import annotations

import json
import random
import string
from pathlib import Path

from conftest import run_memwarden, write_files

_rng = random.Random(20260312)


def github_token() -> str:
    return "ghp" + "_" + "".join(_rng.choice(string.ascii_letters + string.digits) for _ in range(36))


ENV = {"MEMWARDEN_NO_PROGRESS": "1", "NO_COLOR": "1"}


def mw(*args, cwd: Path, env: dict | None = None):
    done = run_memwarden(*args, cwd=cwd, env={**ENV, **(env or {})})
    done.out = done.stdout.decode("utf-8", "replace")
    done.err = done.stderr.decode("utf-8", "replace")
    return done


def findings(done) -> list[dict]:
    return json.loads(done.stdout.decode("utf-8"))["findings"]


THREE_LAYER = {"memory/scratchpad.md": "# pad\n", "memory/fact.yml": "tools:\n  gh:\n    version: 2\n"}


# -- item 6 ---------------------------------------------------------------------------------------


def test_binary_files_and_excluded_files_outside_the_profile_are_not_read(tmp_path):
    token = github_token()
    root = write_files(tmp_path / "ws", {
        **THREE_LAYER,
        "assets/logo.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + token.encode() + b"\x00",
        "private/keys.md": f"token {token}\n",
        ".memwarden.toml": 'exclude = ["private/**"]\n',
    })
    run = mw("check", "--no-cache", "--format", "json", ".", cwd=root)
    assert run.returncode == 0, (run.out, run.err)
    named = mw("check", "--no-cache", "--format", "json", "private/keys.md", "assets/logo.png", cwd=root)
    assert named.returncode == 0, (named.out, named.err)
    assert json.loads(named.out)["summary"]["unclaimed"] == 0


def test_a_repository_with_only_agent_instructions_is_not_scanned_whole_but_named_files_are(tmp_path):
    token = github_token()
    root = write_files(tmp_path / "repo", {
        "CLAUDE.md": "# Project\n\nRun the tests with make test.\n",
        "src/settings.md": f"token {token}\n",
    })
    run = mw("check", "--no-cache", "--format", "json", ".", cwd=root)
    assert not [f for f in findings(run) if f["name"] == "secret-in-memory"], run.out
    named = mw("check", "--no-cache", "--format", "json", "src/settings.md", cwd=root)
    assert [f["path"] for f in findings(named) if f["name"] == "secret-in-memory"] == ["src/settings.md"]
    assert json.loads(named.out)["summary"]["unclaimed"] == 1
    assert token[4:14] not in named.out + named.err


def test_other_text_files_get_no_format_rule_and_no_fix_of_another_rule(tmp_path):
    root = write_files(tmp_path / "ws", {
        **THREE_LAYER,
        # no kind: tags, claims, duplicate keys and suppression comments are not its rules' business
        "notes/extra.yml": "a: 1\na: 2\ntags: [Deploy, Deploy]\nnote: gh does not support merge queues.\n"
                           "# memwarden: disable-line=nonsense\n",
        "notes/log.jsonl": '{"id": "x", "ts": "not a date", "tags": ["A"]}\n\n',
    })
    run = mw("check", "--no-cache", "--format", "json", ".", cwd=root)
    assert run.returncode == 0, run.out
    fixed = mw("check", "--no-cache", "--fix", ".", cwd=root)
    assert fixed.returncode == 0, fixed.out
    assert (root / "notes/log.jsonl").read_text("utf-8").endswith("\n\n")
    text = mw("check", "--no-cache", "notes/extra.yml", "notes/log.jsonl", cwd=root)
    assert "2 named files matched no kind" in text.out, text.out


# -- item 7 ---------------------------------------------------------------------------------------


def test_a_changed_custom_kind_schema_outside_the_workspace_is_not_answered_from_the_cache(tmp_path):
    schema = tmp_path / "outside" / "decision.json"
    schema.parent.mkdir()
    schema.write_text('{"type": "object"}\n', "utf-8")
    root = write_files(tmp_path / "ws", {
        **THREE_LAYER,
        "decisions/d1.yml": "title: 1\n",
        ".memwarden.toml": f'[kinds.decision]\nglobs = ["decisions/*.yml"]\nformat = "yaml"\nschema = {json.dumps(str(schema))}\n',
    })
    assert mw("check", ".", cwd=root).returncode == 0
    schema.write_text('{"type": "object", "properties": {"title": {"type": "string"}}}\n', "utf-8")
    again = mw("check", ".", cwd=root)
    assert again.returncode == 1 and "MW102" in again.out, again.out


def test_a_baseline_created_outside_the_workspace_after_a_cached_run_is_read(tmp_path):
    token = github_token()
    outside = tmp_path / "outside" / "baseline.json"
    outside.parent.mkdir()
    root = write_files(tmp_path / "ws", {
        **THREE_LAYER,
        "memory/fact.yml": f"tools:\n  token: {token}\n",
        ".memwarden.toml": f"[rules.secret-in-memory]\nbaseline = {json.dumps(str(outside))}\n",
    })
    assert mw("check", ".", cwd=root).returncode == 1  # no baseline yet: reported, and cached
    assert mw("baseline", ".", cwd=root).returncode == 0 and outside.is_file()
    assert mw("check", ".", cwd=root).returncode == 0


# -- item 14 --------------------------------------------------------------------------------------


def test_output_through_a_symlink_or_at_another_checked_file_is_refused_and_elsewhere_written(tmp_path):
    root = write_files(tmp_path / "ws", {**THREE_LAYER, "notes/todo.md": "# todo\n", ".memwarden.toml": ""})
    (tmp_path / "link").symlink_to(root / "memory")
    before = {p: (root / p).read_bytes() for p in ("memory/fact.yml", "notes/todo.md", ".memwarden.toml")}
    for target in (tmp_path / "link" / "fact.yml", "notes/todo.md", ".memwarden.toml", "memory/fact_new.yml"):
        run = mw("check", "--no-cache", "--output", target, ".", cwd=root)
        assert run.returncode == 2 and "--output" in run.err, (target, run.err)
    assert not (root / "memory/fact_new.yml").exists()
    assert {p: (root / p).read_bytes() for p in before} == before
    baseline = mw("baseline", "--output", "memory/fact.yml", ".", cwd=root)
    assert baseline.returncode == 2 and (root / "memory/fact.yml").read_bytes() == before["memory/fact.yml"]
    report = tmp_path / "out" / "report.txt"
    assert mw("check", "--no-cache", "--output", report, ".", cwd=root).returncode == 0
    assert report.read_text("utf-8").startswith("All checks passed")


# -- item 16 --------------------------------------------------------------------------------------


def test_more_config_values_of_the_wrong_type_are_configuration_errors_naming_the_key(tmp_path):
    cases = {
        "rules-string": ('rules = "x"\n', "rules"),
        "kinds-exclude-glob": ('[kinds.decision]\nglobs = ["d/*.yml"]\nformat = "yaml"\nexclude = ["[z-a]"]\n', "exclude"),
        "kind-schema-list": ('[kinds.decision]\nglobs = ["d/*.yml"]\nformat = "yaml"\nschema = ["a"]\n', "schema"),
        "profile-number": ("profile = 3\n", "profile"),
    }
    for name, (config, key) in cases.items():
        root = write_files(tmp_path / name, {**THREE_LAYER, ".memwarden.toml": config})
        run = mw("check", "--no-cache", ".", cwd=root)
        assert run.returncode == 2 and key in run.err and "internal error" not in run.err, (name, run.err)
    root = write_files(tmp_path / "pyproject", {**THREE_LAYER, "pyproject.toml": 'tool = "x"\n'})
    run = mw("check", "--no-cache", ".", cwd=root)
    assert run.returncode in (0, 2) and "internal error" not in run.err, run.err


def test_a_secret_in_a_file_whose_name_is_not_utf8_is_found_accepted_and_cached(tmp_path):
    import os

    token = github_token()
    root = write_files(tmp_path / "ws", THREE_LAYER)
    with open(os.path.join(os.fsencode(root), b"memory", b"fact_\xe9t\xe9.yml"), "wb") as handle:
        handle.write(f"deploy:\n  token: {token}\n".encode())
    first = mw("check", ".", cwd=root)
    assert first.returncode == 1 and "memory/fact_\\xe9t\\xe9.yml" in first.out, first.out + first.err
    assert token[4:14] not in first.out + first.err
    accepted = mw("baseline", ".", cwd=root)
    assert accepted.returncode == 0, accepted.err
    json.loads((root / ".memwarden-baseline.json").read_text("utf-8"))
    for _ in range(2):  # the second answer comes from the cache
        again = mw("check", ".", cwd=root)
        assert again.returncode == 0, again.out + again.err



# -- item 17 --------------------------------------------------------------------------------------

from test_guard import locked, mw_unprivileged  # noqa: E402,F401  (locked is a fixture)


def test_an_unreadable_file_no_kind_claims_is_a_finding(tmp_path, locked):  # noqa: F811
    root = write_files(tmp_path / "ws", {**THREE_LAYER, "notes/keys.txt": "nothing\n"})
    locked(root / "notes/keys.txt")
    run = mw_unprivileged("check", "--format", "json", ".", cwd=root)
    assert run.rc == 1, run
    assert ("notes/keys.txt", "unparsable-file") in {(f["path"], f["name"]) for f in run.json()["findings"]}, run


# -- item 18 --------------------------------------------------------------------------------------


def test_nan_inside_a_string_is_not_a_finding_and_the_column_points_at_the_constant(tmp_path):
    root = write_files(tmp_path / "ws", {
        **THREE_LAYER,
        "memory/episodic.jsonl": '{"id": "ep_00000001", "summary": "NaN \\" Infinity", "score": NaN}\n',
    })
    run = mw("check", "--no-cache", "--format", "json", "--select", "unparsable-file", ".", cwd=root)
    assert [(f["line"], f["column"]) for f in findings(run)] == [(1, 62)], run.out


def test_a_cr_only_fact_file_keeps_cr_when_fixed(tmp_path):
    facts = "tools:\r  gh:\r    note: gh does not support merge queues on this plan.\r"
    root = write_files(tmp_path / "ws", {**THREE_LAYER, "memory/fact.yml": facts})
    run = mw("check", "--no-cache", "--format", "json", ".", cwd=root)
    assert [(f["line"], f["name"]) for f in findings(run)] == [(3, "negative-claim-without-expiry")], run.out
    assert mw("check", "--no-cache", "--fix", "--today", "2026-01-01", ".", cwd=root).returncode == 0
    data = (root / "memory/fact.yml").read_bytes()
    assert b"\n" not in data and data.startswith(facts.encode()[:-1]) and b"\r    expires: 2026-04-01\r" in data, data

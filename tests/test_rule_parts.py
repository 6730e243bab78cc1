"""A rule's part, measured and tiered on its own (ruff's stable rule with preview behaviour): secret-in-memory's
known-format part. Where the part is stable and the rule is not, a default run reports only that part; preview,
or naming the rule, runs it whole. The benchmark counts the part's findings under `rule#part`."""

from __future__ import annotations

import json
import random
import string
from collections import Counter
from pathlib import Path

import pytest

import conftest
from conftest import write_files
from test_tiers import counts, judging

from memwarden import registry, tiers
from memwarden.analysis.secrets import scan
from memwarden.analysis.secrets.patterns import KNOWN_FORMAT_PART, known_format, known_format_labels

_random = random.Random(7311)
TOKEN = "sk-ant-api03-" + "".join(_random.choice(string.ascii_letters + string.digits) for _ in range(93)) + "AA"
PASSWORD = "".join(_random.choice(string.ascii_letters) for _ in range(8)) + "7#" + str(_random.randrange(10**5))
NOTE = (f"---\nname: keys\ndescription: where the keys are\ntype: reference\n---\n\n"
        f"- the deploy key: {TOKEN}\n- password: {PASSWORD}\n")


def test_the_part_is_the_known_formats_and_nothing_else():
    found = {d.type.label: known_format(d.type) for d in scan(NOTE, "markdown")}
    assert found == {"Anthropic API key": True, "password": False}
    assert "Anthropic API key" in known_format_labels() and "password" not in known_format_labels()
    assert registry.rules_named(["secret-in-memory"])[0].part == KNOWN_FORMAT_PART


@pytest.mark.parametrize("rule, message, names", [
    ("secret-in-memory", "Anthropic API key (sha256:1a2b3c4d): rotate ...", ["secret-in-memory",
                                                                            "secret-in-memory#known-format"]),
    ("secret-in-memory", "Telegram bot token (sha256:1a2b3c4d) in this file's name: ...",
     ["secret-in-memory", "secret-in-memory#known-format"]),
    ("secret-in-memory", "password (sha256:1a2b3c4d): rotate ...", ["secret-in-memory"]),
    ("secret-in-memory", "GitHub token (sha256:1a2b3c4d) in the installed skill skills/acme/git/ (its publisher's, "
                         "unless you put it there): rotate ...", ["secret-in-memory"]),
    ("secret-in-memory", "random-looking credential (sha256:1a2b3c4d): rotate ...", ["secret-in-memory"]),
    ("personal-path", "Anthropic API key (sha256:1a2b3c4d)", ["personal-path"]),
])
def test_the_benchmark_counts_a_parts_finding_twice_and_others_once(rule, message, names):
    assert judging.count_names(rule, message) == names


def test_the_table_gives_a_part_its_own_tier_by_the_same_policy():
    per_split = {"dev": {"secret-in-memory": counts(30, 60), "secret-in-memory#known-format": counts(20, 1)},
                 "test": {"secret-in-memory": counts(10, 40), "secret-in-memory#known-format": counts(10)}}
    table = judging.tier_table(per_split, ["secret-in-memory"], {}, {"secret-in-memory": "known-format"})
    entry = table["rules"]["secret-in-memory"]
    assert entry["tier"] == "preview" and entry["parts"]["known-format"]["tier"] == "stable"
    assert entry["parts"]["known-format"]["test"]["true"] == 10


@pytest.fixture
def part_stable(tmp_path, monkeypatch):
    """The tests' table with secret-in-memory preview and its known-format part stable."""
    data = json.loads(Path(conftest.TIERS_FOR_TESTS).read_text(encoding="utf-8"))
    entry = data["rules"]["secret-in-memory"]
    entry["tier"] = "preview"
    entry["parts"] = {"known-format": {"tier": "stable", "dev": {"true": 20, "false": 1}, "test": {"true": 12, "false": 0},
                                       "all": {"true": 32, "false": 1}}}
    table = tmp_path / "parts.json"
    table.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setenv("MEMWARDEN_TIER_TABLE", str(table))
    monkeypatch.delenv("MEMWARDEN_PREVIEW", raising=False)
    tiers.table.cache_clear()
    yield
    tiers.table.cache_clear()


def secrets_found(cli, root: Path, *args) -> list[str]:
    result = cli("check", "--format", "json", *args, cwd=root)
    assert result.exit_code in (0, 1), result
    assert TOKEN not in result.stdout and PASSWORD not in result.stdout
    return sorted(f["message"].split(" (sha256")[0] for f in result.json()["findings"] if f["name"] == "secret-in-memory")


@pytest.mark.parametrize("args, config, expected", [
    ((), "", ["Anthropic API key"]),  # by default: the stable part alone
    (("--select", "ALL"), "", ["Anthropic API key"]),
    (("--select", "MW7"), "", ["Anthropic API key"]),
    (("--preview",), "", ["Anthropic API key", "password"]),  # preview: the whole rule
    ((), "preview = true\n", ["Anthropic API key", "password"]),
    (("--select", "secret-in-memory"), "", ["Anthropic API key", "password"]),  # named: whole
    (("--extend-select", "MW701"), "", ["Anthropic API key", "password"]),
    ((), 'select = ["ALL", "secret-in-memory"]\n', ["Anthropic API key", "password"]),
    (("--ignore", "secret-in-memory"), "", []),
])
def test_by_default_only_the_stable_part_runs(cli, tmp_path, part_stable, args, config, expected):
    files = {"memory/MEMORY.md": "- [Keys](keys.md) — where the keys are\n", "memory/keys.md": NOTE}
    if config:
        files[".memwarden.toml"] = config
    root = write_files(tmp_path / "ws", files)
    assert secrets_found(cli, root, "--no-cache", *args) == expected


def test_a_known_format_in_an_installed_skill_is_out_of_the_part(cli, tmp_path, part_stable):
    """An installed skill's docs, tests and examples hold its publisher's sample keys: a default run that reports
    only the stable part leaves them out; the whole rule reports them and says where they are. The owner's own
    skill (no installer's mark beside its SKILL.md) stays in the part."""
    example = f"# Git\n\nAuthenticate with `{TOKEN}`.\n"
    root = write_files(tmp_path / "ws", {
        "SOUL.md": "# Soul\n\nBrief.\n", "MEMORY.md": "# Memory\n",
        "skills/acme/git/SKILL.md": example, "skills/acme/git/_meta.json": '{"slug": "git"}\n',
        "skills/acme/git/tests/auth.test.ts": f'const key = "{TOKEN}";\n',
        "skills/mine/SKILL.md": example,
    })
    result = cli("check", "--format", "json", "--no-cache", cwd=root)
    assert TOKEN not in result.stdout
    assert [f["path"] for f in result.json()["findings"] if f["name"] == "secret-in-memory"] == ["skills/mine/SKILL.md"]
    whole = cli("check", "--format", "json", "--no-cache", "--preview", cwd=root).json()["findings"]
    messages = {f["path"]: f["message"] for f in whole if f["name"] == "secret-in-memory"}
    assert sorted(messages) == ["skills/acme/git/SKILL.md", "skills/acme/git/tests/auth.test.ts", "skills/mine/SKILL.md"]
    assert "in the installed skill skills/acme/git/" in messages["skills/acme/git/SKILL.md"]
    assert "installed skill" not in messages["skills/mine/SKILL.md"]
    assert [judging.part_of("secret-in-memory", messages[p]) is not None for p in sorted(messages)] == [False, False, True]


def test_the_cache_keeps_a_part_run_and_a_whole_run_apart(cli, tmp_path, part_stable):
    root = write_files(tmp_path / "ws", {"memory/MEMORY.md": "- [Keys](keys.md) — where the keys are\n",
                                         "memory/keys.md": NOTE})
    assert secrets_found(cli, root) == ["Anthropic API key"]
    assert secrets_found(cli, root, "--preview") == ["Anthropic API key", "password"]
    assert secrets_found(cli, root) == ["Anthropic API key"]


def test_rules_and_explain_say_the_part_is_stable(cli, part_stable):
    line = next(line for line in cli("rules").stdout.splitlines() if " secret-in-memory " in line)
    assert " stable part " in line
    said = cli("explain", "secret-in-memory").stdout
    assert "Tier: stable for its known-format part" in said and "it runs whole" in said
    data = {r["name"]: r for r in json.loads(cli("rules", "--format", "json").stdout)}
    assert (data["secret-in-memory"]["tier"], data["secret-in-memory"]["stable_part"]) == ("preview", "known-format")


def test_a_damaged_part_is_a_clear_error(tmp_path):
    data = json.loads(Path(conftest.TIERS_FOR_TESTS).read_text(encoding="utf-8"))
    data["rules"]["secret-in-memory"]["parts"] = {"known-format": {"tier": "gold"}}
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(Exception, match="its part 'known-format'"):
        tiers.read_table(path)


def test_the_part_policy_needs_the_held_out_half_too():
    assert judging.tier(counts(40, 1), counts(8, 2)) == "preview"
    assert judging.tier(Counter(), Counter()) == "preview"

"""Stable and preview rules: the tier policy, the table the benchmark writes, what runs and what is fixed."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from collections import Counter
from pathlib import Path

import pytest

import conftest
from conftest import REPO, run_memwarden, write_files

from memwarden import registry, tiers
from memwarden.errors import UsageError


def _bench_judging():
    spec = importlib.util.spec_from_file_location("bench_judging", REPO / "bench" / "judging.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


judging = _bench_judging()


def counts(true: int = 0, false: int = 0, debatable: int = 0) -> Counter:
    return Counter(true=true, false=false, debatable=debatable, found=true + false + debatable)


# --- the policy, at its edges ---------------------------------------------------------------------------

@pytest.mark.parametrize("dev, test, expected", [
    (counts(5), counts(), "stable"),  # five findings, all true: the pooled bound reaches 0.75
    (counts(4), counts(), "preview"),  # four are not enough to defend
    (counts(9, 1), counts(), "preview"),  # 9/10: bound 0.72
    (counts(), counts(), "preview"),  # nothing judged
    (counts(0, 0, 20), counts(), "preview"),  # debatable findings count in neither
    (counts(5, 0, 20), counts(), "stable"),
    (counts(20), counts(8, 2), "preview"),  # the held-out half under 0.9 decides, whatever the pooled bound
    (counts(20), counts(9, 1), "stable"),  # 0.9 on the test half is enough
    (counts(), counts(5), "stable"),
    (counts(1, 60), counts(2, 700), "deprecated"),  # nearly always wrong, on enough findings to say so
    (counts(1, 70), counts(0, 29), "deprecated"),  # 1 of 100 judged ...
    (counts(1, 70), counts(0, 28), "preview"),  # ... 1 of 99: too few to deprecate
    (counts(5, 20), counts(3, 40), "preview"),  # 8/68: the upper bound is 0.17
    (counts(1, 167), counts(7, 15), "preview"),  # wrong pooled, but the held-out half is right a third of the time
    (counts(710, 396), counts(612, 37013), "preview"),  # one giant held-out repository of false findings is not enough
])
def test_tier_policy(dev, test, expected):
    assert judging.tier(dev, test) == expected


def test_wilson_lower_bound_values():
    assert judging.wilson_lower_bound(5, 5) == pytest.approx(0.7527, abs=1e-3)
    assert judging.wilson_lower_bound(4, 4) == pytest.approx(0.7089, abs=1e-3)
    assert judging.wilson_lower_bound(0, 0) == 0.0
    assert judging.wilson_upper_bound(3, 787) == pytest.approx(1 - judging.wilson_lower_bound(784, 787))
    assert judging.wilson_upper_bound(0, 0) == 1.0


# --- reading and merging judgement files ----------------------------------------------------------------

HEADER = "repo\tpath\tline\trule\tverdict\tquote\tnote\n"


def bench_dir(tmp_path: Path) -> Path:
    return write_files(tmp_path / "bench", {
        "realmem_judgements.tsv": HEADER
        + "a__one\tm.md\t3\torphan-note\tfalse\t\told\n"
        + "a__one\tn.md\t7\tnegative-claim-without-expiry\ttrue\tX is not supported\t\n"
        + "b__two\tm.md\t1\torphan-note\ttrue\t\t\n",
        "judged/batch4.tsv": HEADER + "a__one\tm.md\t3\torphan-note\ttrue\t\tjudged again\n",
        # a later file names the finding by its quote (its line moved) and overrides that verdict too
        "judged/batch5.tsv": HEADER + "a__one\tn.md\t9\tnegative-claim-without-expiry\tdebatable\tX is not supported\t\n",
        "judged/split_4.tsv": "repo\tsplit\tbatch\nb__two\ttest\t4\n",
        "judged/claims_expected_4_test.tsv": "repo\tpath\tline\tquote\tnote\n"
        + "b__two\tm.md\t5\tY cannot export\t\nb__two\tm.md\t8\tZ has no API\t\n",
    })


def finding(name: str, path: str, line: int, message: str = "") -> dict:
    return {"name": name, "path": path, "line": line, "message": message}


def test_judgement_files_are_the_first_file_then_judged_batches_in_name_order(tmp_path):
    bench = bench_dir(tmp_path)
    assert [p.name for p in judging.judgement_files(bench)] == ["realmem_judgements.tsv", "batch4.tsv", "batch5.tsv"]
    assert [p.name for p in judging.split_files(bench)] == ["split_4.tsv"]
    assert [p.name for p in judging.claims_files(bench)] == ["claims_expected_4_test.tsv"]


def test_a_later_verdict_overrides_by_line_and_by_quote_and_the_split_counts_apart(tmp_path):
    bench = bench_dir(tmp_path)
    judgements = judging.Judgements.from_files(judging.judgement_files(bench))
    splits = judging.read_splits(judging.split_files(bench))
    assert splits == {"b__two": "test"} and judging.split_of("a__one", splits) == "dev"  # in no split file: dev
    found = {
        "a__one": [finding("orphan-note", "m.md", 3),
                   finding("negative-claim-without-expiry", "n.md", 12, 'claim "X is not supported" ...'),
                   finding("orphan-note", "z.md", 1)],
        "b__two": [finding("orphan-note", "m.md", 1),
                   finding("negative-claim-without-expiry", "m.md", 5, 'claim "Y cannot export."')],
    }
    per_split, unjudged = judging.tally(found, judgements, splits)
    assert per_split["dev"]["orphan-note"] == Counter(found=2, true=1, unjudged=1)
    assert per_split["dev"]["negative-claim-without-expiry"] == Counter(found=1, debatable=1)
    assert per_split["test"]["orphan-note"] == Counter(found=1, true=1)
    assert [row["path"] for row in unjudged] == ["z.md", "m.md"]
    recall = judging.claim_recall(
        [row for path in judging.claims_files(bench) for row in judging.read_tsv(path)], found, splits)
    assert recall["test"][:2] == [1, 2] and [c["quote"] for c in recall["test"][2]] == ["Z has no API"]
    assert recall["dev"][:2] == [0, 0]


def test_no_judged_files_at_all_is_an_empty_measurement(tmp_path):
    bench = write_files(tmp_path / "bench", {"README.md": "x"})
    (bench / "judged").mkdir()
    assert judging.judgement_files(bench) == [] and judging.read_splits(judging.split_files(bench)) == {}
    per_split, unjudged = judging.tally({"a__one": [finding("orphan-note", "m.md", 1)]}, judging.Judgements([]), {})
    assert per_split["dev"]["orphan-note"] == Counter(found=1, unjudged=1) and len(unjudged) == 1


def test_counts_judged_on_another_corpus_are_added_before_the_one_policy_decides(tmp_path):
    # The repository-claim rules are judged on whole repositories (bench/repo_claims_real.py), not on the
    # realmem corpus: their per-split counts are written to a TSV the tier writer adds to the realmem counts.
    bench = bench_dir(tmp_path)
    path = bench / "judged" / "repo_claims_counts.tsv"
    judging.write_counts(path, {"dev": {"deleted-repo-path": counts(3), "orphan-note": counts(2, 1)},
                                "test": {"deleted-repo-path": counts(2, 0, 1)}})
    assert "repo_claims_counts.tsv" not in [p.name for p in judging.judgement_files(bench)]  # counts, not verdicts
    assert judging.counts_files(bench) == [path]
    extra = judging.read_counts(judging.counts_files(bench))
    assert extra["test"]["deleted-repo-path"] == counts(2, 0, 1)
    realmem = {"dev": {"orphan-note": counts(40, 1)}, "test": {}}
    merged = judging.add_counts(realmem, extra)
    assert merged["dev"]["orphan-note"] == counts(42, 2) and realmem["dev"]["orphan-note"] == counts(40, 1)
    table = judging.tier_table(merged, ["orphan-note", "deleted-repo-path"], {})
    assert table["rules"]["deleted-repo-path"]["tier"] == judging.tier(counts(3), counts(2, 0, 1)) == "stable"
    assert table["rules"]["deleted-repo-path"]["all"] == {"true": 5, "false": 0, "debatable": 1, "found": 6}


@pytest.mark.parametrize("content", ["rule\tsplit\ttrue\nx\tdev\tmany\n", "rule\tsplit\ttrue\nx\tsideways\t1\n"])
def test_a_damaged_counts_file_is_a_clear_error(tmp_path, content):
    path = write_files(tmp_path, {"c.tsv": content}) / "c.tsv"
    with pytest.raises(ValueError, match="c.tsv"):
        judging.read_counts([path])


def test_the_table_the_bench_writes_is_the_table_memwarden_reads(tmp_path):
    per_split = {"dev": {"orphan-note": counts(40, 1), "personal-path": counts(4)},
                 "test": {"orphan-note": counts(9, 1, 2)}}
    table = judging.tier_table(per_split, ["orphan-note", "personal-path", "empty-note"], {"commit": "abc"})
    assert table["policy"] == judging.POLICY and table["measured"] == {"commit": "abc"}
    assert table["rules"]["orphan-note"]["all"] == {"true": 49, "false": 2, "debatable": 2, "found": 53}
    path = tmp_path / "rule_tiers.json"
    path.write_text(json.dumps(table), encoding="utf-8")
    read = tiers.read_table(path)
    assert {name: (tier.name, tier.measured) for name, tier in read.items()} == {
        "orphan-note": ("stable", "0.90 held out (n=10); 0.96 (n=51)"),
        "personal-path": ("preview", "1.00 (n=4)"),
        "empty-note": ("preview", "unmeasured"),
    }


def test_the_shipped_table_names_only_known_rules_and_follows_the_policy():
    data = json.loads(tiers.TABLE.read_text(encoding="utf-8"))
    # A rule added since the last measurement is simply absent (preview); a renamed one must not linger.
    assert set(data["rules"]) <= set(registry.CATALOG) and data["policy"] == judging.POLICY
    for name, entry in data["rules"].items():
        assert entry["tier"] == judging.tier(Counter(entry["dev"]), Counter(entry["test"])), name
        for part, measured in entry.get("parts", {}).items():
            assert part == registry.rules_named([name])[0].part, name
            assert measured["tier"] == judging.tier(Counter(measured["dev"]), Counter(measured["test"])), name


@pytest.mark.parametrize("content, said", [
    (None, "missing"),
    ("{not json", "damaged"),
    ('["rules"]', "no \"rules\" table"),
    ('{"rules": {"orphan-note": {"tier": "gold", "all": {"true": 1, "false": 0}}}}', "'orphan-note' has no tier"),
    ('{"rules": {"orphan-note": {"tier": "stable", "all": {"true": -1, "false": 0}}}}', "'orphan-note' has no tier"),
    ('{"rules": {"orphan-note": "stable"}}', "'orphan-note' has no tier"),
])
def test_a_missing_or_damaged_table_is_a_clear_error(tmp_path, content, said):
    path = tmp_path / "rule_tiers.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(UsageError, match="rule tier table") as raised:
        tiers.read_table(path)
    assert said in str(raised.value)


def test_a_damaged_table_stops_check_and_rules_with_one_line_never_a_traceback(tmp_path, cli, monkeypatch):
    damaged = tmp_path / "rule_tiers.json"
    damaged.write_text("{not json", encoding="utf-8")
    monkeypatch.setattr(tiers, "TABLE", damaged)
    tiers.table.cache_clear()
    monkeypatch.delenv("MEMWARDEN_PREVIEW")
    try:
        root = write_files(tmp_path / "ws", {"MEMORY.md": "# Memory\n"})
        for args in (("check", "--no-cache", str(root)), ("rules",)):
            result = cli(*args, cwd=tmp_path)
            assert result.exit_code == 2, result
            assert "rule tier table is damaged" in result.stderr and "Traceback" not in result.stderr
    finally:
        tiers.table.cache_clear()


def test_a_rule_the_table_does_not_name_is_preview():
    assert tiers.tier_of("a-rule-added-later") == tiers.Tier("preview")


# --- what runs ------------------------------------------------------------------------------------------

PREVIEW_RULE = "unnormalized-tags"  # MW202, a safe fix


@pytest.fixture
def three_layer(tmp_path, monkeypatch, fixed_tiers):
    """A copy of examples/three-layer (stable and preview rules both find things there), preview off."""
    monkeypatch.delenv("MEMWARDEN_PREVIEW")
    assert not tiers.is_stable(PREVIEW_RULE) and tiers.is_stable("negative-claim-without-expiry")
    return Path(shutil.copytree(REPO / "examples" / "three-layer", tmp_path / "ws"))


def names_found(cli, root: Path, *args) -> set[str]:
    result = cli("check", "--no-cache", "--format", "json", *args, cwd=root)
    assert result.exit_code in (0, 1), result
    return {f["name"] for f in result.json()["findings"]}


def test_by_default_only_stable_rules_run(cli, three_layer):
    found = names_found(cli, three_layer)
    assert found and found <= {name for name in registry.CATALOG if tiers.is_stable(name)}
    assert PREVIEW_RULE in names_found(cli, three_layer, "--preview")


@pytest.mark.parametrize("args, config, present, absent", [
    (("--preview",), "", {PREVIEW_RULE, "negative-claim-without-expiry"}, set()),
    ((), "preview = true\n", {PREVIEW_RULE, "negative-claim-without-expiry"}, set()),
    (("--select", PREVIEW_RULE), "", {PREVIEW_RULE}, {"negative-claim-without-expiry"}),
    (("--select", "MW202"), "", {PREVIEW_RULE}, set()),
    (("--extend-select", "MW202"), "", {PREVIEW_RULE, "negative-claim-without-expiry"}, set()),
    ((), 'select = ["unnormalized-tags", "MW3"]\n', {PREVIEW_RULE, "negative-claim-without-expiry"}, {"too-few-tags"}),
    (("--select", "MW2"), "", set(), {PREVIEW_RULE, "too-few-tags"}),  # a prefix takes no preview rule ...
    (("--select", "MW2", "--preview"), "", {PREVIEW_RULE, "too-few-tags"}, set()),  # ... unless preview is on
    (("--select", "ALL"), "", {"negative-claim-without-expiry"}, {PREVIEW_RULE}),
    ((), 'select = ["ALL"]\npreview = true\n', {PREVIEW_RULE}, set()),
    (("--preview", "--ignore", PREVIEW_RULE), "", {"too-few-tags"}, {PREVIEW_RULE}),
    (("--select", PREVIEW_RULE), 'ignore = ["MW202"]\n', set(), {PREVIEW_RULE}),  # ignore wins
    # per-file-ignores may name a preview rule, on or off
    ((), '[per-file-ignores]\n"memory/*" = ["MW202"]\n', {"negative-claim-without-expiry"}, {PREVIEW_RULE}),
    (("--preview",), '[per-file-ignores]\n"memory/*" = ["MW202"]\n', {"too-few-tags"}, {PREVIEW_RULE}),
])
def test_selection(cli, three_layer, args, config, present, absent):
    if config:
        (three_layer / ".memwarden.toml").write_text(config, encoding="utf-8")
    found = names_found(cli, three_layer, *args)
    assert present <= found and not absent & found, found


@pytest.fixture
def deprecated_timestamps(tmp_path, monkeypatch, three_layer):
    """The tests' table with invalid-timestamp (MW104, which the example trips) deprecated."""
    data = json.loads(Path(conftest.TIERS_FOR_TESTS).read_text(encoding="utf-8"))
    data["rules"]["invalid-timestamp"]["tier"] = "deprecated"
    table = tmp_path / "deprecated.json"
    table.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setenv("MEMWARDEN_TIER_TABLE", str(table))
    tiers.table.cache_clear()
    yield three_layer
    tiers.table.cache_clear()


@pytest.mark.parametrize("args, runs", [
    (("--preview",), False),
    (("--select", "ALL", "--preview"), False),
    (("--select", "MW1", "--preview"), False),
    (("--select", "invalid-timestamp"), True),
    (("--extend-select", "MW104"), True),
])
def test_a_deprecated_rule_runs_only_when_named(cli, deprecated_timestamps, args, runs):
    found = names_found(cli, deprecated_timestamps, *args)
    assert ("invalid-timestamp" in found) == runs
    assert "duplicate-key" in found or "--preview" not in args  # preview rules still run with preview
    said = cli("explain", "MW104").stdout
    assert "Tier: deprecated" in said and 'select = ["invalid-timestamp"]' in said


def test_preview_must_be_true_or_false(cli, three_layer):
    (three_layer / ".memwarden.toml").write_text('preview = "yes"\n', encoding="utf-8")
    result = cli("check", "--no-cache", cwd=three_layer)
    assert result.exit_code == 2 and "preview must be true or false" in result.stderr


def test_stable_fixes_only_reports_a_preview_rules_finding_and_leaves_its_text(cli, three_layer):
    episodes = three_layer / "memory" / "episodic.jsonl"
    before = episodes.read_text(encoding="utf-8")
    result = cli("check", "--no-cache", "--preview", "--fix", "--stable-fixes-only", "--format", "json", cwd=three_layer)
    after = episodes.read_text(encoding="utf-8")
    assert "expires" in after and "expires" not in before  # the stable rule's fix is written
    left = [f for f in result.json()["findings"] if f["name"] == PREVIEW_RULE]
    assert left  # the preview rule is reported, not fixed
    assert '"R"' in after and '"Export "' in after  # its tags as they were
    plain = cli("check", "--no-cache", "--preview", "--fix", "--format", "json", cwd=three_layer)
    assert not [f for f in plain.json()["findings"] if f["name"] == PREVIEW_RULE]  # asked for: it is fixed


# --- showing it -----------------------------------------------------------------------------------------

def test_rules_shows_each_tier_and_its_numbers(cli, monkeypatch):
    monkeypatch.delenv("MEMWARDEN_PREVIEW")
    lines = cli("rules").stdout.splitlines()
    width = max(len(tiers.tier_of(name).name) for name in registry.CATALOG)
    for name in registry.CATALOG:
        tier = tiers.tier_of(name)
        line = next(line for line in lines if f" {name} " in line)
        assert f"  {tier.name:<{width}}  {tier.measured}" in line
    assert any(f" {'preview':<{width}}  unmeasured " in line for line in lines)
    data = {r["name"]: r for r in json.loads(cli("rules", "--format", "json").stdout)}
    orphan = tiers.tier_of("orphan-note")
    assert (data["orphan-note"]["tier"], data["orphan-note"]["judged"]) == (orphan.name, orphan.judged)


def test_explain_says_the_tier_and_how_to_turn_a_preview_rule_on(cli, fixed_tiers):
    preview = cli("explain", "MW202").stdout
    assert "Tier: preview" in preview and "--preview" in preview and 'select = ["unnormalized-tags"]' in preview
    stable = cli("explain", "orphan-note").stdout
    orphan = tiers.tier_of("orphan-note")
    assert f"Tier: stable (precision {orphan.held_out_precision:.2f} over {orphan.held_out_judged} judged" in stable
    assert f"{orphan.precision:.2f} over all {orphan.judged}" in stable
    assert "on by default" in stable


def test_the_agent_hook_reports_preview_rules_only_with_preview(tmp_path):
    from test_agent_hook import episode, log, project

    root = project(tmp_path)
    path = root / "memory" / "episodic.jsonl"
    content = log(episode(1), episode(2), episode(3), episode(4, tags=["Deploy ", "deploy", "ci"]))
    path.write_text(content, encoding="utf-8")
    payload = json.dumps({
        "session_id": "s", "transcript_path": str(root / "t.jsonl"), "cwd": str(root), "hook_event_name": "PostToolUse",
        "tool_name": "Write", "tool_input": {"file_path": str(path), "content": content},
        "tool_response": {"filePath": str(path), "success": True},
    }).encode()
    env = {"MEMWARDEN_PREVIEW": "", "CLAUDE_PROJECT_DIR": str(root), "NO_COLOR": "1"}
    default = run_memwarden("hook", cwd=root, input=payload, env=env)
    assert (default.returncode, default.stderr) == (0, b"")  # unnormalized-tags is preview: not run
    preview = run_memwarden("hook", "--preview", cwd=root, input=payload, env=env)
    assert preview.returncode == 2 and b"- line 4: unnormalized-tags" in preview.stderr


def test_the_repository_claims_runner_writes_counts_only_from_both_halves_whole():
    import subprocess

    runner = REPO / "bench" / "repo_claims_real.py"
    for args in (["--write-counts"], ["--split", "all", "--repo", "x__y", "--write-counts"]):
        done = subprocess.run([sys.executable, str(runner), *args], capture_output=True, text=True)
        assert done.returncode == 2 and "--write-counts measures both halves" in done.stderr


def test_a_measuring_run_names_the_deprecated_rules_so_it_still_sees_them(tmp_path):
    table = tmp_path / "t.json"
    table.write_text(json.dumps({"rules": {"conflicting-records": {"tier": "deprecated"}, "near-duplicate": {"tier": "preview"},
                                           "orphan-note": {"tier": "stable"}}}), encoding="utf-8")
    assert judging.every_rule_args(table) == ["--extend-select", "conflicting-records"]
    table.write_text(json.dumps({"rules": {"orphan-note": {"tier": "stable"}}}), encoding="utf-8")
    assert judging.every_rule_args(table) == [] and judging.every_rule_args(tmp_path / "missing.json") == []

"""conflicting-records, near-duplicate and missing-provenance: the pair table, then real workspaces through the CLI."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from memwarden.analysis.coherence.relations import relate

TABLE = Path(__file__).parent / "data" / "coherence_pairs.tsv"
FP = "0" * 64


def _rows():
    with TABLE.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))


@pytest.mark.parametrize("row", _rows(), ids=lambda r: f"{r['language']}-{r['label']}-{r['text_a'][:16]}")
def test_pair_table(row):
    expected = row["label"] if row["label"] in ("conflict", "duplicate") else None
    assert relate(row["text_a"], row["text_b"]) == expected
    assert relate(row["text_b"], row["text_a"]) == expected  # order never decides


def episode(i: int, content: str, ts: str = "2026-01-01T00:00:00Z", **extra) -> str:
    record = {
        "id": f"ep_{i}", "ts": ts, "type": "insight", "title": content[:30], "content": content,
        "tags": ["alpha", "beta"], "importance": 5, "fingerprint": FP, "decay_status": "active",
        "retrieval": {"count": 0},
    }
    record.update(extra)
    return json.dumps(record, ensure_ascii=False)


def note(name: str, body: str, updated: str = "2026-01-01", extra: str = "  evidence: [session]\n  confidence: 0.8\n") -> str:
    return f"---\nname: {name}\ndescription: {name}\nmetadata:\n  type: reference\n  updated: {updated}\n{extra}---\n\n{body}\n"


def gish(workspace, files):
    return workspace({"MEMORY.md": "# Memory\n", "memory/fact.yml": "identity:\n  name: A\n", **files})


def findings(cli, root, *args, rules="conflicting-records,near-duplicate,missing-provenance"):
    result = cli("check", "--format", "json", "--select", rules, *args, ".", cwd=root)
    assert result.exit_code in (0, 1), result
    return [(f["name"], f["path"], f["line"], f["message"]) for f in result.json()["findings"]]


def only(cli, root, name):
    """The findings of one rule, as (name, path, line, message)."""
    return [f for f in findings(cli, root) if f[0] == name]


def test_fact_contradicted_by_a_later_episode(cli, workspace):
    root = gish(workspace, {
        "memory/fact.yml": "identity:\n  name: A\ntools:\n  vercel: Vercel Edge Functions support WebSockets.\n",
        "memory/episodic.jsonl": "\n".join([
            episode(1, "Deployed the docs site.", "2026-01-01T00:00:00Z"),
            episode(2, "Vercel Edge Functions do not support WebSockets.", "2026-03-01T00:00:00Z"),
        ]) + "\n",
    })
    found = only(cli, root, "conflicting-records")
    assert len(found) == 1
    name, path, line, message = found[0]
    assert (path, line) == ("memory/episodic.jsonl", 2)  # at the newer record
    assert "'memory/fact.yml' line 4" in message and "Vercel Edge Functions support WebSockets." in message


def test_traditional_note_against_simplified_note_reported_at_the_newer(cli, workspace):
    root = gish(workspace, {
        "memory/knowledge/references/ecpay-old.md": note("ecpay-old", "綠界金流支援信用卡分期。", "2026-02-01"),
        "memory/knowledge/references/ecpay-new.md": note("ecpay-new", "绿界金流不支持信用卡分期。", "2026-05-01"),
    })
    found = only(cli, root, "conflicting-records")
    assert [(f[1], f[2]) for f in found] == [("memory/knowledge/references/ecpay-new.md", 11)]
    assert "ecpay-old.md' line 11" in found[0][3]


def test_other_version_plan_or_archived_record_is_no_conflict(cli, workspace):
    root = gish(workspace, {
        "memory/knowledge/references/db.md": note("db", "MySQL 5.7 supports JSON columns. The free plan supports custom domains."),
        "memory/episodic.jsonl": "\n".join([
            episode(1, "MySQL 8.0 does not support JSON columns.", "2026-03-01T00:00:00Z"),
            episode(2, "The Pro plan does not support custom domains.", "2026-03-02T00:00:00Z"),
        ]) + "\n",
        "memory/_archive/episodic_consolidated.jsonl": episode(3, "MySQL 5.7 does not support JSON columns.", "2026-04-01T00:00:00Z") + "\n",
    })
    assert only(cli, root, "conflicting-records") == []


def test_one_fact_key_with_two_values_across_fact_files(cli, workspace):
    root = workspace({
        "CLAUDE.md": "Memory lives in memory/.\n",
        "memory/scratchpad.md": "# Scratch\n",
        "memory/episodic.jsonl": "",
        "memory/fact.yml": "ci:\n  node: \"20\"\n  runner: ubuntu-latest\n",
        "memory/fact_ci.yml": "ci:\n  node: \"18\"\n  runner: Ubuntu-Latest\n  updated: 2026-04-01\n",
    })
    found = only(cli, root, "conflicting-records")
    assert [(f[1], f[2]) for f in found] == [("memory/fact_ci.yml", 2)]  # the runner differs only in case
    assert "'ci.node'" in found[0][3] and "'18' here but '20'" in found[0][3] and "'memory/fact.yml' line 2" in found[0][3]


def test_near_duplicate_episodes_named_at_the_later_with_how_to_supersede(cli, workspace):
    root = gish(workspace, {
        "memory/episodic.jsonl": "\n".join([
            episode(1, "The CI cache is keyed on the lockfile hash, so a lockfile change rebuilds it.", "2026-01-01T00:00:00Z"),
            episode(2, "Deploys to staging run from the release branch every night.", "2026-01-02T00:00:00Z"),
            episode(3, "The CI cache is keyed on the lockfile hash, so any lockfile edit rebuilds it.", "2026-01-03T00:00:00Z"),
        ]) + "\n",
    })
    found = only(cli, root, "near-duplicate")
    assert [(f[1], f[2]) for f in found] == [("memory/episodic.jsonl", 3)]
    assert "'memory/episodic.jsonl' line 1" in found[0][3] and "archive the earlier episode" in found[0][3]
    # the threshold is in config: at 1.0 only word-for-word copies count, and containment off
    (root / ".memwarden.toml").write_text("[rules.near-duplicate]\nthreshold = 1.0\ncontainment = 1.01\n")
    assert only(cli, root, "near-duplicate") == []


def test_openclaws_dreaming_reports_are_alike_by_design(cli, workspace):
    """OpenClaw writes a dreaming report a phase a day from one template (batch 18's dev half: 58 findings, none
    true): they are no repeats of each other, while the same lesson written twice in its daily notes still is."""
    report = ("# Deep sleep report\n\nPromoted 3 candidates to MEMORY.md after scoring recall, recency and "
              "relevance across the staged snippets.\n")
    lesson = "The gateway token rotates on restart, so the cron job must read it from the config each run.\n"
    root = workspace({
        "SOUL.md": "# Soul\n", "AGENTS.md": "# Agents\n", "MEMORY.md": "# Memory\n",
        "memory/dreaming/deep/2026-11-01.md": report, "memory/dreaming/deep/2026-11-02.md": report,
        "memory/dreaming/rem/2026-11-02.md": report,
        "memory/2026-11-01.md": "# 2026-11-01\n\n" + lesson, "memory/2026-11-02.md": "# 2026-11-02\n\n" + lesson,
    })
    assert [(f[1], f[2]) for f in only(cli, root, "near-duplicate")] == [("memory/2026-11-02.md", 1)]


def test_near_duplicate_notes_and_suppression(cli, workspace):
    body = "部署前要先跑資料庫遷移，否則新欄位會找不到。"
    root = gish(workspace, {
        "memory/knowledge/feedback/migrate.md": note("migrate", body, "2026-01-01"),
        "memory/knowledge/feedback/migrate-again.md": note("migrate-again", "部署之前要先跑資料庫遷移，否則新欄位會找不到。", "2026-02-01"),
    })
    found = only(cli, root, "near-duplicate")
    assert [(f[1], f[2]) for f in found] == [("memory/knowledge/feedback/migrate-again.md", 1)]
    assert "supersedes: migrate.md" in found[0][3]
    path = root / "memory/knowledge/feedback/migrate-again.md"
    path.write_text(path.read_text(encoding="utf-8") + "<!-- memwarden: disable-file=near-duplicate -->\n", encoding="utf-8")
    assert only(cli, root, "near-duplicate") == []


def test_suppression_in_a_utf16_note_still_silences(cli, workspace):
    # The engine looks for 'memwarden:' in the decoded text before parsing a note for directives: a BOM's
    # encoding must not hide one.
    root = gish(workspace, {
        "memory/knowledge/feedback/migrate.md": note("migrate", "Run the database migration before every deploy, or new columns are missing."),
    })
    later = note("migrate-again", "Run the database migration before each deploy, or the new columns are missing.", "2026-02-01")
    path = root / "memory/knowledge/feedback/migrate-again.md"
    path.write_bytes(later.encode("utf-16"))
    assert [f[1] for f in only(cli, root, "near-duplicate")] == ["memory/knowledge/feedback/migrate-again.md"]
    path.write_bytes((later + "<!-- memwarden: disable-file=near-duplicate -->\n").encode("utf-16"))
    assert only(cli, root, "near-duplicate") == []


def test_many_repeated_episodes_each_named_once(cli, workspace):
    lines = [episode(i, f"Nightly backup of the orders database finished in {i % 3 + 1} minutes.") for i in range(300)]
    root = gish(workspace, {"memory/episodic.jsonl": "\n".join(lines) + "\n"})
    found = only(cli, root, "near-duplicate")
    # three distinct texts: every later copy names the first of its own three
    assert len(found) == 297 and {f[3].split("line ")[1].split(":")[0] for f in found} == {"1", "2", "3"}


def test_missing_provenance_per_profile(cli, workspace):
    root = gish(workspace, {
        "memory/knowledge/references/ok.md": note("ok", "Fine."),
        "memory/knowledge/references/bare.md": note("bare", "No source.", extra=""),
    })
    found = only(cli, root, "missing-provenance")
    assert [(f[1], f[2]) for f in found] == [("memory/knowledge/references/bare.md", 1)]
    assert "no source or evidence, no confidence" in found[0][3] and "no date" not in found[0][3]


def test_missing_provenance_off_for_claude_code_unless_configured(cli, workspace):
    files = {
        "MEMORY.md": "- [Deploy](deploy.md) — how we deploy\n",
        "deploy.md": "---\nname: deploy\ndescription: how we deploy\ntype: reference\n---\nRun make deploy.\n",
    }
    root = workspace(files)
    assert only(cli, root, "missing-provenance") == []
    (root / ".memwarden.toml").write_text('[rules.missing-provenance]\nprofiles = ["claude-code"]\nrequire = ["date"]\n')
    found = only(cli, root, "missing-provenance")
    assert [(f[1], f[3]) for f in found] == [("deploy.md", "long-term record with no date: add `updated` so it can be checked and reviewed")]


def test_bad_input_gives_no_traceback(cli, workspace):
    root = gish(workspace, {
        "memory/fact.yml": "identity: [unclosed\n",
        "memory/episodic.jsonl": '{"id": 1, "content": 5}\nnot json\n' + episode(2, "") + "\n",
        "memory/knowledge/references/x.md": "---\nname: [\n---\nbody\n",
    })
    result = cli("check", "--format", "json", "--select", "conflicting-records,near-duplicate,missing-provenance", ".", cwd=root)
    assert result.exit_code in (0, 1) and "Traceback" not in result.stdout + result.stderr
    assert {f["name"] for f in result.json()["findings"]} <= {"missing-provenance"}


def test_removal_in_an_episode_against_a_fact(cli, workspace):
    root = gish(workspace, {
        "memory/fact.yml": "identity:\n  name: A\ntools:\n  warehouse: The analytics warehouse is BigQuery.\n  ci: CI runs on Node 20.\n",
        "memory/episodic.jsonl": "\n".join([
            episode(1, "2026-02-01 Analytics queries moved to Snowflake; BigQuery was phased out.", "2026-02-01T00:00:00Z"),
            episode(2, "2026-02-02 Node 18 was retired from CI.", "2026-02-02T00:00:00Z"),
        ]) + "\n",
    })
    found = only(cli, root, "conflicting-records")
    # the removal of another version (Node 18 against Node 20) is no conflict
    assert [(f[1], f[2]) for f in found] == [("memory/episodic.jsonl", 1)]
    assert "'memory/fact.yml' line 4" in found[0][3] and "BigQuery" in found[0][3]


# A token of the shape the secrets scanner reports (a GitHub personal access token): made up.
TOKEN = "ghp_" + "Zq8rT2vX9mK4pL7wN3bH6jF1sD5gA0cE8yU2"


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_quoted_sentence_of_the_other_file_never_shows_its_token(cli, workspace, fmt):
    # The finding is at the newer record (the episode, a file with no secret), and quotes the older
    # note's sentence, which holds the token: the engine scans only the finding's own file, so the
    # quote itself must mask it.
    root = gish(workspace, {
        "memory/knowledge/references/mail.md": note("mail", f"The mailers run on Sidekiq with {TOKEN} today.", "2026-01-01"),
        "memory/episodic.jsonl": episode(1, "We retired the Sidekiq workers.", "2026-03-01T00:00:00Z") + "\n",
    })
    result = cli("check", "--format", fmt, "--select", "conflicting-records", ".", cwd=root)
    assert result.exit_code == 0, result  # warnings only
    output = result.stdout + result.stderr
    assert "MW305" in output and "The mailers run on Sidekiq with" in output  # the finding, quoting the note
    assert "memory/episodic.jsonl" in output
    assert TOKEN not in output and TOKEN[4:20] not in output


def test_note_sentences_are_located_where_the_note_has_them(workspace):
    # Every sentence of a note's description and body (after a fenced block and an HTML comment,
    # both blanked) is placed at the line and column where its text starts in the file, without the
    # record holding the note's whole text.
    from memwarden.analysis.coherence import memory_records
    from memwarden.discover.workspace import open_workspace

    text = (
        "---\nname: deploy\ndescription: Deploys run on Fridays. The cache is purged after.\nmetadata:\n"
        "  type: reference\n  updated: 2026-01-01\n---\n\n"
        "```sh\nmake deploy\n```\n<!-- a comment. -->\nFirst line says one thing.  Then another.\n"
        "\n   Indented third sentence; and a fourth.\n"
    )
    root = gish(workspace, {"memory/knowledge/references/deploy.md": text})
    [record] = [r for r in memory_records(open_workspace(root), {}) if r.layer == "note"]
    checked = 0
    for sentence, piece, start in record.sentences():
        place = record.locate(piece, start)
        lines = text.split("\n")
        found = lines[place.line - 1][place.column - 1 :]
        assert found.lstrip().startswith(sentence[:10]), (sentence, place)  # (a sentence's offset is its match's, spaces before it included)
        checked += 1
    assert checked >= 5


def test_a_setting_given_two_values_is_found_past_a_crowded_bucket(cli, workspace):
    # Six short episodes about Kafka fill the content buckets its name falls in before the two
    # statements of its retention come: only the buckets of a leading name and a unit still meet them.
    crowd = ["Kafka runs on Strimzi.", "Kafka uses TLS.", "Kafka brokers autoscale.", "Kafka topics need owners.",
             "Kafka alerts page oncall.", "Kafka Connect ships events."]
    lines = [episode(i, text, f"2026-03-0{i}T00:00:00Z") for i, text in enumerate(crowd, 1)]
    lines.append(episode(7, "Kafka topic retention is configured as 3 days now.", "2026-03-07T00:00:00Z"))
    root = gish(workspace, {
        "memory/fact.yml": "identity:\n  name: A\ninfra:\n  kafka: Kafka keeps messages for 7 days.\n",
        "memory/episodic.jsonl": "\n".join(lines) + "\n",
    })
    found = only(cli, root, "conflicting-records")
    assert [(f[1], f[2]) for f in found] == [("memory/episodic.jsonl", 7)]
    assert "'memory/fact.yml' line 4" in found[0][3] and "Kafka keeps messages for 7 days." in found[0][3]


def test_a_removals_capped_names_do_not_depend_on_the_hash_seed(workspace):
    """A removal meets at most 200 plain users of its names, the rarest names first; two names used
    equally often were taken in set order, which the hash seed decides (so no answer could be kept).
    All are logged on one day: entries of two days are history, not conflicts."""
    from conftest import run_memwarden

    users = [episode(i, f"The billing service calls {name} from job {i} daily.") for name in ("Kafka", "Redis") for i in range(150)]
    root = gish(workspace, {"memory/episodic.jsonl": "\n".join(
        [*users, episode(999, "We retired Kafka and Redis.", ts="2026-01-01T18:00:00Z")]) + "\n"})
    seen = set()
    for seed in ("0", "1", "2", "3"):
        done = run_memwarden("check", "--no-cache", "--exit-zero", "--format", "json", "--select", "conflicting-records",
                             ".", cwd=root, env={"PYTHONHASHSEED": seed, "MEMWARDEN_PREVIEW": "1"})
        found = json.loads(done.stdout)["findings"]
        assert len(found) == 200  # all of one name's users, then the other's first 50
        seen.add(json.dumps(found, sort_keys=True))
    assert len(seen) == 1


@pytest.mark.parametrize("older, newer", [
    ("Heartbeat checks run every 30 minutes.", "Heartbeat checks run every 60 minutes."),
    ("心跳检查每 30 分钟运行一次。", "心跳检查每 60 分钟运行一次。"),
    ("ハートビートは 30 分ごとに実行する。", "ハートビートは 60 分ごとに実行する。"),
])
def test_daily_notes_of_two_days_record_a_change_not_a_conflict(cli, workspace, older, newer):
    folder = "memory/knowledge/log"

    def notes(name, files):
        return workspace({"MEMORY.md": "# Memory\n", "memory/fact.yml": "identity:\n  name: A\n", **files}, name)

    root = notes("days", {f"{folder}/2026-03-04.md": note("day-1", older, "2026-03-04"),
                          f"{folder}/2026-03-05-heartbeat.md": note("day-2", newer, "2026-03-05")})
    assert only(cli, root, "conflicting-records") == []
    # two daily notes of one day are two entries too: a morning session's and an evening's
    same_day = notes("sessions", {f"{folder}/2026-03-05-0517.md": note("morning", older, "2026-03-05"),
                                  f"{folder}/2026-03-05-summary.md": note("evening", newer, "2026-03-05")})
    assert only(cli, same_day, "conflicting-records") == []
    # a log is history, against a standing note too: a log entry is true of its day
    against_log = notes("against-log", {f"{folder}/heartbeat.md": note("heartbeat", older, "2026-03-04"),
                                        f"{folder}/2026-03-05.md": note("day-2", newer, "2026-03-05")})
    assert only(cli, against_log, "conflicting-records") == []
    # two standing notes (no day in their path, no log's folder) still contradict
    standing = notes("standing", {"memory/knowledge/ops/heartbeat.md": note("heartbeat", older, "2026-03-04"),
                                  "memory/knowledge/ops/schedule.md": note("schedule", newer, "2026-03-05")})
    assert [(f[1], f[2]) for f in only(cli, standing, "conflicting-records")] == [("memory/knowledge/ops/schedule.md", 11)]


@pytest.mark.parametrize("older_path, newer_path", [
    ("memory/knowledge/sessions/billing.md", "memory/knowledge/ops/billing.md"),
    ("memory/knowledge/archive/2026-02/billing.md", "memory/knowledge/ops/billing.md"),
    ("memory/knowledge/ops/billing.md", "memory/knowledge/journal/billing.md"),
])
def test_a_note_in_a_logs_folder_is_history(cli, workspace, older_path, newer_path):
    root = workspace({"MEMORY.md": "# Memory\n", "memory/fact.yml": "identity:\n  name: A\n",
                      older_path: note("a", "Heartbeat checks run every 30 minutes.", "2026-03-04"),
                      newer_path: note("b", "Heartbeat checks run every 60 minutes.", "2026-03-05")})
    assert only(cli, root, "conflicting-records") == []


def test_openclaw_memory_folder_is_a_log(cli, git_repo):
    # Daily notes and the trackers beside them: what the dev halves' false alarms were made of.
    root = git_repo({"SOUL.md": "# Soul\n", "AGENTS.md": "# Agents\n",
                     "memory/heartbeat-state.md": "# State\n\nHeartbeat checks run every 30 minutes.\n",
                     "memory/ops.md": "# Ops\n\nHeartbeat checks run every 60 minutes.\n"})
    for cache in ("--no-cache", "--exit-zero", "--exit-zero"):  # whole, then through the store, then kept
        done = cli("check", cache, "--exit-zero", "--format", "json", "--preview", "--select", "conflicting-records", ".", cwd=root)
        assert done.exit_code == 0 and done.json()["findings"] == []
        assert done.json()["summary"]["workspaces"][0]["profile"] == "openclaw"


def test_a_daily_note_that_repeats_another_is_still_a_near_duplicate(cli, git_repo):
    text = "# Review\n\nThe backtest showed the momentum strategy loses money in sideways markets every single week.\n"
    root = git_repo({"SOUL.md": "# Soul\n", "memory/2026-03-28.md": text, "memory/2026-03-28-review.md": text})
    done = cli("check", "--no-cache", "--exit-zero", "--format", "json", "--preview", "--select", "near-duplicate", ".", cwd=root)
    assert [f["name"] for f in done.json()["findings"]] == ["near-duplicate"]


def test_episodes_of_two_days_are_history_of_one_day_conflict(cli, workspace):
    def log(second_ts):
        return gish(workspace, {"memory/episodic.jsonl": "\n".join([
            episode(1, "Access tokens expire after 15 minutes.", "2026-03-01T09:00:00Z"),
            episode(2, "Access tokens expire after 60 minutes.", second_ts),
        ]) + "\n"})
    assert only(cli, log("2026-03-08T09:00:00Z"), "conflicting-records") == []
    assert [(f[1], f[2]) for f in only(cli, log("2026-03-01T17:00:00Z"), "conflicting-records")] == [("memory/episodic.jsonl", 2)]


@pytest.mark.parametrize("heading_a, heading_b", [
    ("## Phase 1: migrate the billing tables in 3 days", "## Phase 1: migrate the billing tables in 9 days"),
    ("## Redis does not support streams", "## Redis supports streams"),
    ("### 第一阶段：迁移账单表需要 3 天", "### 第一阶段：迁移账单表需要 9 天"),
    ("**Billing migration takes 3 days:**", "**Billing migration takes 9 days:**"),
    ("- 账单迁移需要 3 天：", "- 账单迁移需要 9 天："),
    ("- 請求テーブルの移行は 3 日かかる：", "- 請求テーブルの移行は 9 日かかる："),
])
def test_a_heading_or_a_label_line_is_no_statement(cli, workspace, heading_a, heading_b):
    def notes(a, b):
        return gish(workspace, {
            "memory/knowledge/references/plan-a.md": note("plan-a", f"{a}\n\nOwner: Dana.", "2026-02-01"),
            "memory/knowledge/references/plan-b.md": note("plan-b", f"{b}\n\nOwner: Lee.", "2026-03-01"),
        })
    assert only(cli, notes(heading_a, heading_b), "conflicting-records") == []
    assert relate(heading_a, heading_b) is None
    # the same words as sentences still contradict
    bare_a, bare_b = (label.strip("#-* ").rstrip(":：* ") for label in (heading_a, heading_b))
    assert len(only(cli, notes(bare_a, bare_b), "conflicting-records")) == 1
    assert relate(bare_a, bare_b) == "conflict"

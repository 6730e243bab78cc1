"""The learned scorer beside the claim rules (issue #14, round 3): where it may speak, what it says, and its file.

Issue 29: on real memory nobody had tuned on, its findings were 0 true of 18, so the rule no longer asks
it; it speaks only when a caller asks (`learned=True`, the bench that trains and measures it).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memwarden.analysis import learned
from memwarden.analysis.negation import NONE, classify, find_claims, rule_verdict

REPO = Path(__file__).resolve().parents[1]
WEIGHTS = REPO / "src" / "memwarden" / "analysis" / "claims_model.json"
NOTE_HEAD = "---\nname: n\ndescription: Notes on the jump host\nmetadata:\n  type: reference\n  updated: 2026-03-01\n---\n\n"

# Claims with no negative word of a kind the rules have no words for; my own sentences, none from a blind set.
# (Issue 29 round 6 gave the rules words for "too old for", 「只保留 N」 and 「N 日分だけ」: those examples
# were replaced by sentences the rules still miss.)
LEARNED_CLAIMS = [
    "The Jenkins agent on build-07 went dark after the storm.",
    "The Jenkins agent on build-07 has been offline since the disk filled up.",
    "Dependabot stopped opening PRs for the Gradle catalog after version 8.",
    "七牛云的免费 CDN 流量已经用完了。",
    "Vercel 的 hobby 方案日誌只看得到最近 1 小時。",
    "Backlog の Webhook 連携はプレミアムプラン以上が必要。",
    "Chatwork の無料プランで遡れる履歴は 40 日ぶん。",
]


@pytest.mark.parametrize("sentence", LEARNED_CLAIMS)
def test_the_scorer_finds_claims_the_rules_leave_alone(sentence):
    assert classify(sentence)[0] == NONE, "the rules alone find it: pick a sentence they miss"
    assert find_claims(sentence) == [], "the detector's default is the rules alone"
    [claim] = find_claims(sentence, learned=True)
    assert claim.why.startswith("learned scorer "), claim
    assert "said of a name" in claim.why


@pytest.mark.parametrize(
    "sentence",
    [
        "Don't bump Node 16 until pnpm 9 is too old for the build box.",  # a directive
        "We stopped shipping the Windows installer in 2024.",  # the project as the subject
        "TODO: the Jenkins agent on build-07 went offline, look into it.",  # a to-do item
        "Maybe the Jenkins agent on build-07 is offline again.",  # a hedge
        "Limits of the export tool, checked against version 3.2",  # a title: no full stop
        "## Jenkins agent offline since the disk filled up.",  # a heading
        "| Jenkins | offline | since the disk filled up |.",  # a table row
        "Python wasn't loading the plugin from that path.",  # a negative word the rules weighed and let go
        "2025-02-01 作業ログ：Nginx の設定を整理して、古い設定を削除した。",  # a session log
    ],
)
def test_the_scorer_stays_silent_where_it_may_not_speak(sentence):
    assert find_claims(sentence, learned=True) == [], sentence


def test_the_rule_does_not_ask_the_scorer(workspace, cli):
    # On real memory nobody had tuned on, the scorer's findings were 0 true of 18 (issue 29).
    root = workspace({"memory/knowledge/references/n.md": NOTE_HEAD + "The Jenkins agent on build-07 went dark after the storm.\n"})
    result = cli("check", "--select", "MW301", "--today", "2026-11-30", "--format", "json", ".", cwd=root)
    assert result.json()["findings"] == []


def test_the_scorer_is_deterministic():
    sentence = LEARNED_CLAIMS[0]
    _, _, signals = rule_verdict(sentence)
    model = learned.Model("claims_model.json")
    first, second = model.score(sentence, signals), model.score(sentence, signals)
    assert first == second and first.said_yes


@pytest.mark.parametrize(
    "content",
    [
        None,  # missing
        "not json",
        '{"buckets": 0, "bias": 0, "threshold": 0, "weights": [[1, 2.0]]}',
        '{"buckets": 16, "bias": 0, "threshold": 0, "weights": [[1, "NaN"]]}',
        '{"buckets": 16, "bias": 0, "threshold": 0, "weights": 7}',
        '{"buckets": 16, "bias": 0}',
    ],
)
def test_unusable_weights_turn_the_scorer_off_without_an_error(tmp_path, content):
    if content is not None:
        (tmp_path / "w.json").write_text(content, encoding="utf-8")
    model = learned.Model("w.json", tmp_path)
    assert not model.available
    assert model.score(LEARNED_CLAIMS[0], ["name"]).said_yes is False


def test_the_shipped_weights_are_a_small_file_of_finite_numbers():
    data = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    assert WEIGHTS.stat().st_size < 1_000_000
    assert data["buckets"] >= 1024 and len(data["weights"]) > 100
    assert all(0 <= index < data["buckets"] for index, _ in data["weights"])
    assert learned.Model("claims_model.json").available

"""The symptom-vs-cause trigger classifier, measured against the labelled table."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import pytest

from conftest import REPO
from memwarden.analysis.triggers import CAUSE, LANGUAGES, MAX_CHARS, SYMPTOM, classify, detect_language
from memwarden.text import excerpt

TABLE = REPO / "tests" / "data" / "triggers_table.tsv"

# Measured on the whole table by bench/triggers_accuracy.py; a change that lowers any of these fails.
# The recall below 1 is round 4 of the table, kept unfixed on purpose: diagnoses told in the past
# tense ("the cache was invalidated too late") read as symptoms. The first measurement of each
# held-out block, before it was used to fix the classifier, is in the table's header: that, not
# these, is the estimate for triggers it has not seen.
FLOORS = {
    "en": {"precision": 1.0, "recall": 0.99},
    "zh-Hant": {"precision": 1.0, "recall": 0.987},
    "zh-Hans": {"precision": 1.0, "recall": 1.0},
    "ja": {"precision": 1.0, "recall": 0.987},
}


def load_table():
    rows = []
    for raw in TABLE.read_text(encoding="utf-8").splitlines():
        if raw.startswith("#") or not raw.strip() or raw.startswith("language\t"):
            continue
        language, label, text = raw.split("\t")
        rows.append((language, label, text))
    return rows


ROWS = load_table()


def test_table_is_big_enough_and_balanced():
    assert len(ROWS) >= 150
    per_language = Counter(language for language, _, _ in ROWS)
    assert set(per_language) == set(LANGUAGES)
    assert min(per_language.values()) >= 35
    for language in LANGUAGES:
        labels = Counter(label for lang, label, _ in ROWS if lang == language)
        assert set(labels) == {SYMPTOM, CAUSE}
        assert min(labels.values()) >= 15
    assert len({(language, text) for language, _, text in ROWS}) == len(ROWS), "a trigger is listed twice"


@pytest.mark.parametrize("language", LANGUAGES)
def test_cause_precision_and_recall_floors(language):
    tp = fp = fn = 0
    misses = []
    for lang, label, text in ROWS:
        if lang != language:
            continue
        predicted = classify(text, language).label
        tp += predicted == CAUSE and label == CAUSE
        fp += predicted == CAUSE and label == SYMPTOM
        fn += predicted == SYMPTOM and label == CAUSE
        if predicted != label:
            misses.append(f"{label} read as {predicted}: {text}")
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    assert precision >= FLOORS[language]["precision"], misses
    assert round(recall, 3) >= FLOORS[language]["recall"], misses


@pytest.mark.parametrize("language, text", [(lang, text) for lang, _, text in ROWS])
def test_language_is_detected_from_the_text(language, text):
    detected = detect_language(text)
    if language.startswith("zh"):
        # Short Chinese phrases may use no character that differs between the scripts.
        assert detected.startswith("zh")
    else:
        assert detected == language


@pytest.mark.parametrize(
    "text, language",
    [("工具說成功了，應該好了吧", "zh-Hant"), ("工具说成功了，应该好了吧", "zh-Hans"), ("もう大丈夫", "ja"), ("it is fine", "en")],
)
def test_detect_language_examples(text, language):
    assert detect_language(text) == language


@pytest.mark.parametrize(
    "text, kind, rewrite",
    [
        ("never trust exit codes", "rule", "so I'll just trust exit codes"),
        ("Always verify the final state", "rule", "so no need to verify the final state"),
        ("tool reports are unreliable", "diagnosis", "does not know this cause yet"),
        ("deploy script flags", "topic", '"<what it sees> in deploy script flags, so it must be fine"'),
        ("不要相信結束碼", "rule", "所以直接相信結束碼吧"),
        ("永遠先備份再遷移", "rule", "應該不用先備份再遷移吧"),
        ("必须先备份", "rule", "应该不用先备份吧"),
        ("快取問題", "topic", "「快取問題那邊（看到的情況），應該沒問題吧」"),
        ("工具回報不可靠", "diagnosis", "「（看到的情況），應該沒問題吧」"),
        ("キャッシュの問題", "topic", "「キャッシュの問題で（見えたこと）けど、たぶん大丈夫」"),
        ("必ずバックアップを取る", "rule", "バックアップを取るのは省略でいい"),
        ("本番DBを直接触らない", "rule", "breaks this rule"),
        ("cache issues", "topic", '"<what it sees> in cache issues, so it must be fine"'),
    ],
)
def test_cause_verdicts_say_how_to_rewrite(text, kind, rewrite):
    # Issue #13: the advice is written for the trigger at hand, and a cause is called a cause, a
    # topic a topic (it used to give one fixed example for both).
    verdict = classify(text)
    assert verdict.label == CAUSE and verdict.is_cause
    assert verdict.kind == kind
    assert rewrite in verdict.advice
    assert any(reason.startswith("-") for reason in verdict.reasons) or kind == "topic"


def test_symptom_verdict_has_evidence_and_no_advice():
    verdict = classify("The tool returned success, so it is done")
    assert verdict.label == SYMPTOM and verdict.kind == SYMPTOM
    assert verdict.advice == ""
    assert verdict.score > 0 and any("conclusion" in reason for reason in verdict.reasons)


@pytest.mark.parametrize(
    "text",
    [
        "a" * 100_000,
        "so " * 40_000,
        "先" * 100_000 + "再",
        "「" * 100_000,
        "？" * 100_000,
        "never " * 20_000,
        "ない" * 50_000,
    ],
)
def test_huge_input_returns_a_verdict(text):
    # Only the first MAX_CHARS characters are read, and every pattern is linear: no hang.
    verdict = classify(text)
    assert verdict.label in (SYMPTOM, CAUSE)
    assert classify(text[:MAX_CHARS]).label == verdict.label


def test_excerpt_masks_token_like_text_and_shortens():
    shown = excerpt("trust the key sk-ant-api03-AbCdEf0123456789AbCdEf0123 now", 200)
    assert "0123456789" not in shown and "[…]" in shown and shown.startswith("trust the key")
    assert excerpt("word " * 100, 20).endswith("…") and len(excerpt("word " * 100, 20)) == 20
    assert excerpt("deploy-script-flags-and-more-words") == "deploy-script-flags-and-more-words"  # no digits: kept
    # issue 19: a name made of words and short numbers is kept; a run with a random part is not
    for name in ("feedback_i18n_translation_rejected.md", "project_run_ci_e2e_known_issue", "relay-conductor-2025-09-23-v2"):
        assert excerpt(name) == name
    for token in ("ghp_" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2Y", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"):
        assert "[…]" in excerpt(f"key {token} here")


def test_bench_prints_precision_and_recall_per_language():
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "triggers_accuracy.py")], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "cause P" in out and "cause R" in out
    for language in LANGUAGES:
        assert f"\n{language} " in out
    assert "held-out round 1" in out and "held-out round 3" in out

"""The cheap tests that spare a detector its full run never change what it finds.

Each pre-filter is compared with its detector run without it, over the hand tables, the blind sets, the
corpus, the examples, a generated workspace and random texts built from the pieces the detector reads.
"""

from __future__ import annotations

import json
import random
import re

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from conftest import REPO
from memwarden.analysis import expiry, negation
from memwarden.patterns import LazyPattern, union


def _sentences() -> list[str]:
    """Every row of the hand tables and blind sets, and every line of the corpus, examples and a generated log."""
    texts: list[str] = []
    for table in [*(REPO / "tests" / "data").glob("*.tsv"), *(REPO / "bench").glob("blind*/*.tsv")]:
        for row in table.read_text("utf-8").splitlines():
            texts.extend(cell for cell in row.split("\t") if len(cell) > 3)
    for root in (REPO / "tests" / "fixtures", REPO / "examples"):
        for path in sorted(root.rglob("*")):
            if path.is_file() and path.suffix in (".md", ".yml", ".yaml", ".jsonl") and path.stat().st_size < 1_000_000:
                texts.extend(path.read_text("utf-8", "replace").splitlines())
    from conftest import bench_generator

    gen, rng = bench_generator(), random.Random(11)
    texts.extend(json.dumps(gen.episode(rng, n), ensure_ascii=False) for n in range(300))
    return texts


def _unfiltered(monkeypatch, module, name):
    monkeypatch.setattr(module, name, re.compile(""))  # matches every text: the detector runs in full


def _statements(text: str) -> list[tuple]:
    return [(s.start, s.end, s.text, s.date, s.deadline) for s in expiry.dated_statements(text)]


def test_the_year_filter_keeps_every_dated_statement_of_the_real_texts(monkeypatch):
    texts = _sentences()
    filtered = [_statements(text) for text in texts]
    _unfiltered(monkeypatch, expiry, "_YEAR")
    assert [_statements(text) for text in texts] == filtered
    assert sum(map(bool, filtered)) >= 5  # some texts do date themselves
    assert sum(not re.search(r"\d{4}", text) for text in texts) > len(texts) // 2  # and most are spared


DATE_PIECES = st.sampled_from([
    "verified ", "Verified on ", "last checked ", "as of ", "review by ", "valid until ", "re-verify before ",
    "2026-03-31", "2026/03/31", "2026-03", "2026.3.1", "March 31, 2026", "31 March 2026", "March 2026", "Sept. 2026",
    "2026年3月31日", "2026 年 3 月", "截至 ", "確認於 ", "有效期至 ", " 前複查", "まで有効", "時点", " 現在",
    "２０２６-０３-３１", "٢٠٢٦-03-31", "26-03-31", "3/31", "in 2026", " ", ".", "\n", "\u3000",
])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(DATE_PIECES, st.text(max_size=5)), max_size=12))
@example(["verified ", "２０２６-０３-３１"])
@example(["as of ", "March 2026"])
def test_the_year_filter_keeps_every_dated_statement_of_any_text(pieces):
    text = "".join(pieces)
    filtered = _statements(text)
    saved = expiry._YEAR
    expiry._YEAR = re.compile("")
    try:
        assert _statements(text) == filtered
    finally:
        expiry._YEAR = saved


# -- negative claims: the cue gate --------------------------------------------------------------------


def _claims(text: str) -> list[tuple]:
    return [(c.start, c.end, c.cue, c.language) for c in negation.find_claims(text)]


def _cue_free(text: str) -> bool:
    cues = negation.CLAIM_CUES.get(negation.language_of(text))
    return cues is None or cues.search(text) is None


class _Ungated(dict):
    """Every sentence passes, in any language: the rules read them all, as before the gate."""

    def get(self, language, default=None):
        return re.compile("")


UNGATED = _Ungated()


def test_the_claim_cue_gate_turns_away_no_claim_of_the_real_texts():
    texts = _sentences()
    pieces = [text[start:end] for text in texts for start, end in negation.sentences(text)]
    turned_away = {piece for piece in pieces if _cue_free(piece)}
    # The gate only skips sentences, so it finds what the rules found without it exactly when none of the
    # sentences it turned away (each judged once) is a claim.
    assert sorted(piece for piece in turned_away if negation.judge(piece)[0] == negation.CLAIM) == []
    assert sum(bool(_claims(text)) for text in texts) >= 100  # the tables and the corpus do make claims
    assert len(turned_away) > len(set(pieces)) // 2  # and most of their sentences have no cue at all


CLAIM_PIECES = st.sampled_from([
    "The API ", "gh ", "Vercel ", "`tool` ", "does not support ", "doesn’t ", "DON'T ", "can't ", "cannot ",
    "no longer ", "never ", "lacks ", "is missing ", "was removed", "has been deprecated", "returns empty",
    "returns 0 results", "accepts at most 5 ", "is capped to 3", "webhooks", "drafts", ".", "?", "!", "\n", " ",
    "If ", "when ", "Please ", "not ", "no ", "nothing ", "None", "ſ", "K", "İ",
    "找不到", "不支援", "沒有", "无法", "已經下架", "被封鎖", "是空的", "最多 10 次", "嗎", "。", "，", "如果",
    "対応していない", "ません", "提供終了", "は空", "まで", "3 件", "しかない", "削除された", "か。", "、",
])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(CLAIM_PIECES, st.text(max_size=4)), max_size=14))
@example(["gh ", "does not support ", "drafts", "."])
@example(["Vercel ", "was removed", "."])
@example(["API ", "已經下架", "。"])
def test_the_claim_cue_gate_keeps_every_claim_of_any_text(pieces):
    text = "".join(pieces)
    gated = _claims(text)
    saved = negation.CLAIM_CUES
    negation.CLAIM_CUES = UNGATED
    try:
        assert _claims(text) == gated
    finally:
        negation.CLAIM_CUES = saved


def test_a_union_of_expressions_matches_where_any_of_them_does():
    loud = re.compile(r"(?P<cue>ALERT)\b", re.I)
    quiet = re.compile(r"(?P<cue>hush)$")
    either = union(loud, quiet, LazyPattern(r"z{2}", re.M))
    assert either.search("an alert.") and either.search("say hush") and either.search("zz top")
    assert not either.search("say hush now") and not either.search("HUSH") and not either.search("alerts")
    assert either.pattern == r"(?i:(?:ALERT)\b)|(?:(?:hush)$)|(?m:z{2})"
    try:
        union(re.compile(r"(?P<x>a)(?P=x)"))
    except ValueError as error:
        assert "back reference" in str(error)
    else:
        raise AssertionError("a back reference was joined")

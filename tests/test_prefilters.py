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
from memwarden.analysis import expiry


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
    from test_incremental import _generator

    gen, rng = _generator(), random.Random(11)
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

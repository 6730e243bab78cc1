"""The judged claims table (issue 29): real memory's verdicts and the blind sets' dev rows, per language.

`tests/data/claims_judged.tsv` is written by `bench/claims_table.py` from judges who never read the
detector: each row's label is theirs (`claim`: a negative claim about something the project does
not control; `none`: anything else), `expect` is what the detector said when the table was last
written. A row whose outcome changes fails here (a listed miss that starts passing must be
re-listed, a right row that goes wrong is a regression), and so does precision or recall per
language falling below the floor measured then.
"""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest

from memwarden.analysis.negation import find_claims

TABLE = Path(__file__).resolve().parent / "data" / "claims_judged.tsv"
# Measured on the table when it was last written (bench/README.md, "Issue 29: negative claims", round 6). The
# blind sets call a removal told with its date a claim, the judges of real memory call it history, and the
# detector follows the judges: three blind rows of that kind are listed misses.
# Round 7 keeps the owner's own setup silent (not installed, configured or enabled on their machine, a
# credential of theirs missing), as the judges of the OpenClaw dev workspaces did; six blind rows that call
# such a sentence a claim ("cargo-nextest isn't installed in the dev container") are listed misses now.
FLOORS = {
    "en": (0.97, 0.72),
    "zh-Hant": (0.94, 0.81),
    "zh-Hans": (0.95, 0.77),
    "ja": (0.94, 0.75),
}


def _rows() -> list[dict[str, str]]:
    with TABLE.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))


ROWS = _rows()


def test_the_table_covers_every_language_with_real_memory_and_both_labels():
    per_language = Counter(row["language"] for row in ROWS)
    assert set(per_language) == set(FLOORS)
    assert all(count >= 50 for count in per_language.values()), per_language
    real = [row for row in ROWS if not row["source"].startswith("blind")]
    assert len(real) >= 80 and {row["label"] for row in real} == {"claim", "none"}
    assert {row["expect"] for row in ROWS} == {"found", "silent"}
    assert len({row["text"] for row in ROWS}) == len(ROWS), "a sentence appears twice"


@pytest.mark.parametrize("language", sorted(FLOORS))
def test_each_row_is_found_or_missed_as_listed(language):
    changed = []
    for row in ROWS:
        if row["language"] != language:
            continue
        said = "found" if find_claims(row["text"]) else "silent"
        if said != row["expect"]:
            changed.append(f"{row['label']}: listed {row['expect']}, now {said}: {row['text']} ({row['source']})")
    assert not changed, "\n".join(changed)


@pytest.mark.parametrize("language", sorted(FLOORS))
def test_precision_and_recall_on_the_table_stay_above_the_floor(language):
    counts = Counter()
    for row in ROWS:
        if row["language"] == language:
            found = bool(find_claims(row["text"]))
            counts[(found, row["label"] == "claim")] += 1
    true_found, false_found, missed = counts[(True, True)], counts[(True, False)], counts[(False, True)]
    precision_floor, recall_floor = FLOORS[language]
    assert true_found / (true_found + false_found) >= precision_floor
    assert true_found / (true_found + missed) >= recall_floor

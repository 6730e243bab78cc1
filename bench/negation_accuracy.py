"""Precision and recall of the negative-claim detector on the labelled table, per language.

    python bench/negation_accuracy.py [TABLE] [--speed]

The table (tests/data/negation_table.tsv) has the columns language, label, text.
A row counts as a claim when its label is `claim`; every other label (directive,
question, positive, other) is a sentence the detector must leave alone. The
script prints precision and recall for each language and lists every miss: the
claims it did not find (false negatives) and the sentences it wrongly flagged
(false positives). With --speed it also times the detector on 100,000-character
hostile lines (it must stay linear: milliseconds, not seconds).
"""

from __future__ import annotations

import csv
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TABLE = REPO / "tests" / "data" / "negation_table.tsv"
LANGUAGES = ("en", "zh-Hant", "zh-Hans", "ja")


@dataclass
class Score:
    true_positives: int = 0
    false_positives: int = 0
    false_negatives: int = 0
    rows: int = 0
    misses: list[tuple[str, str, str]] = field(default_factory=list)  # (kind of miss, label, text)

    @property
    def precision(self) -> float:
        flagged = self.true_positives + self.false_positives
        return self.true_positives / flagged if flagged else 1.0

    @property
    def recall(self) -> float:
        claims = self.true_positives + self.false_negatives
        return self.true_positives / claims if claims else 1.0


def load_table(path: Path = TABLE) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        rows = [row for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)]
    return [row for row in rows if row["language"] and not row["language"].startswith("#")]


def score(rows: list[dict[str, str]]) -> dict[str, Score]:
    from memwarden.analysis.negation import find_claims

    scores: dict[str, Score] = defaultdict(Score)
    for row in rows:
        result = scores[row["language"]]
        result.rows += 1
        flagged = bool(find_claims(row["text"]))
        is_claim = row["label"] == "claim"
        if flagged and is_claim:
            result.true_positives += 1
        elif flagged:
            result.false_positives += 1
            result.misses.append(("false positive", row["label"], row["text"]))
        elif is_claim:
            result.false_negatives += 1
            result.misses.append(("missed claim", row["label"], row["text"]))
    return dict(scores)


HOSTILE_LINES = {
    "repeated don't": "don't " * 16_000,
    "repeated 'if not'": "if not " * 14_000,
    "one long word": "x" * 99_990 + "n't",
    "no punctuation, English": "The API does not support X and " * 3_200,
    "Chinese 不 only": "不" * 100_000,
    "Chinese conditions": "如果不" * 33_000,
    "Japanese ない": "ない" * 50_000,
    "Japanese ず": "ずず" * 50_000,
    "dots": "." * 100_000,
    "abbreviations": "e.g. " * 20_000,
}


def speed() -> None:
    import time

    from memwarden.analysis.negation import find_claims

    print("\nspeed on 100,000-character lines:")
    for name, line in HOSTILE_LINES.items():
        started = time.perf_counter()
        find_claims(line)
        print(f"  {name:<26} {len(line):>7} chars {1000 * (time.perf_counter() - started):>8.1f} ms")


def main(argv: list[str]) -> int:
    run_speed = "--speed" in argv
    argv = [arg for arg in argv if arg != "--speed"]
    path = Path(argv[0]) if argv else TABLE
    scores = score(load_table(path))
    print(f"{'language':<9} {'rows':>5} {'claims':>6} {'precision':>9} {'recall':>7}")
    for language in sorted(scores, key=lambda name: (LANGUAGES + (name,)).index(name)):
        result = scores[language]
        claims = result.true_positives + result.false_negatives
        print(f"{language:<9} {result.rows:>5} {claims:>6} {result.precision:>9.3f} {result.recall:>7.3f}")
    for language, result in scores.items():
        for kind, label, text in result.misses:
            print(f"  {language:<8} {kind:<15} [{label}] {text}")
    if run_speed:
        speed()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

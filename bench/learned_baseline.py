"""Would a small learned model beat the rules? A k-fold estimate (issue #14, round 2).

    python bench/learned_baseline.py [--folds 5] [--seed 0]

Logistic regression over hashed character n-grams (1-3 for CJK, 2-4 inside Latin words) and
word unigrams, trained with numpy on every labelled row we have (bench/blind/*.tsv and the
hand tables in tests/data/), scored by k-fold cross-validation per language: claim vs not
claim, and cause vs symptom. It is a measurement, not a shipped detector: the rules were tuned
on these same rows, so their own score here is not an estimate, while the model's k-fold score
is; the round-1 test half (run once before round 2) is the rules' honest figure to set it against.
"""

from __future__ import annotations

import argparse
import csv
import sys
import zlib
from collections import defaultdict
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
BUCKETS = 1 << 13


def features(text: str) -> list[int]:
    text = text.lower()
    grams = []
    for n in (1, 2, 3):
        grams += [text[i : i + n] for i in range(len(text) - n + 1) if any(ord(c) > 0x2FFF for c in text[i : i + n])]
    for word in text.split():
        grams.append("w:" + word.strip(".,;:!?\"'`()"))
        padded = f"<{word}>"
        for n in (3, 4):
            grams += [padded[i : i + n] for i in range(len(padded) - n + 1) if padded[i : i + n].isascii()]
    return sorted({zlib.crc32(g.encode("utf-8")) % BUCKETS for g in grams})


def read(path: Path, label_of) -> list[tuple[str, str, int]]:
    rows = []
    with path.open(encoding="utf-8", newline="") as handle:
        for line in handle:
            if line.startswith("#") or not line.strip():
                continue
            parts = line.rstrip("\n").split("\t")
            if parts[0] == "language":
                continue
            language, label, text = parts[0], parts[1], parts[-1]
            rows.append((language, text, label_of(label)))
    return rows


def train(x: np.ndarray, y: np.ndarray, epochs: int = 300, rate: float = 0.5, l2: float = 1e-4) -> np.ndarray:
    w = np.zeros(x.shape[1])
    for _ in range(epochs):
        p = 1 / (1 + np.exp(-(x @ w)))
        w -= rate * (x.T @ (p - y) / len(y) + l2 * w)
    return w


def matrix(rows) -> np.ndarray:
    x = np.zeros((len(rows), BUCKETS + 1), dtype=np.float32)
    for i, (_, text, _) in enumerate(rows):
        x[i, features(text)] = 1.0
        x[i, BUCKETS] = 1.0  # bias
    return x


def cross_validate(name: str, rows, folds: int, seed: int, positive: str) -> None:
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(rows))
    x, y = matrix(rows), np.array([r[2] for r in rows], dtype=np.float64)
    predicted = np.zeros(len(rows), dtype=bool)
    for k in range(folds):
        held = order[k::folds]
        kept = np.setdiff1d(order, held)
        w = train(x[kept], y[kept])
        predicted[held] = (x[held] @ w) > 0
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for (language, _, actual), guess in zip(rows, predicted):
        for key in (language, "all"):
            counts[key][("t" if guess == bool(actual) else "f") + ("p" if guess else "n")] += 1
    print(f"\n{name}: {folds}-fold, {len(rows)} rows")
    print(f"  {'language':<9} {'rows':>5} {'accuracy':>8} {positive + ' P':>9} {positive + ' R':>9}")
    for language in ("en", "zh-Hant", "zh-Hans", "ja", "all"):
        c = counts[language]
        n = sum(c.values())
        if not n:
            continue
        precision = c["tp"] / max(1, c["tp"] + c["fp"])
        recall = c["tp"] / max(1, c["tp"] + c["fn"])
        print(f"  {language:<9} {n:>5} {(c['tp'] + c['tn']) / n:>8.3f} {precision:>9.3f} {recall:>9.3f}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    claims = read(REPO / "bench" / "blind" / "claims.tsv", lambda label: int(label == "claim"))
    claims += read(REPO / "tests" / "data" / "negation_table.tsv", lambda label: int(label == "claim"))
    triggers = read(REPO / "bench" / "blind" / "triggers.tsv", lambda label: int(label == "cause"))
    triggers += read(REPO / "tests" / "data" / "triggers_table.tsv", lambda label: int(label == "cause"))
    cross_validate("negative claims (claim vs not)", claims, args.folds, args.seed, "claim")
    cross_validate("triggers (cause vs symptom)", triggers, args.folds, args.seed, "cause")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

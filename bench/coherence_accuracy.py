"""conflicting-records and near-duplicate on the blind pair set, per half, label class and language.

    python bench/coherence_accuracy.py [--set DIR] [--half dev|test|both|all] [--misses]

bench/blind/pairs.tsv was written by a helper who never saw the detectors (bench/blind/PAIRS.md).
Each row belongs to a half by the SHA-256 of text_a + TAB + text_b: even first byte -> dev (study
it, tune on it), odd -> test (run once, after tuning), the scheme of bench/blind_accuracy.py.
Each pair is judged the way the rules judge two records (`coherence.relations.relate`: sentence
pairs for conflicts, whole texts for repeats) and scored against the `conflict` and `duplicate`
labels: precision and recall per class and per language (`mixed` rows mix two languages).
--misses lists the wrong verdicts of the dev half only; the test half is never printed.
--set DIR reads DIR/pairs.tsv instead (bench/blind3/: a batch held out whole, scored with --half all).
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from blind_accuracy import BLIND, ratio  # noqa: E402

LANGUAGES = ("en", "zh-Hant", "zh-Hans", "ja", "mixed")
CLASSES = ("conflict", "duplicate")


def half_of(row: dict) -> str:
    digest = hashlib.sha256((row["text_a"] + "\t" + row["text_b"]).encode("utf-8")).digest()
    return "dev" if digest[0] % 2 == 0 else "test"


def load(folder: Path = BLIND) -> list[dict[str, str]]:
    with (folder / "pairs.tsv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
    for row in rows:
        row["half"] = half_of(row)
    return rows


def score(rows, show_misses: bool) -> None:
    from memwarden.analysis.coherence.relations import relate

    counts: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    misses = []
    for row in rows:
        verdict = relate(row["text_a"], row["text_b"])
        for label in CLASSES:
            said, actual = verdict == label, row["label"] == label
            key = {(True, True): "tp", (True, False): "fp", (False, True): "fn", (False, False): "tn"}[(said, actual)]
            for language in (row["language"], "all"):
                counts[(label, language)][key] += 1
        if verdict != (row["label"] if row["label"] in CLASSES else None):
            misses.append((row["language"], row["label"], row["kind"], verdict, row["text_a"], row["text_b"]))
    print(f"  {'class':<9} {'language':<8} {'rows':>5} {'labelled':>8} {'said':>5} {'precision':>9} {'recall':>7}")
    for label in CLASSES:
        for language in (*LANGUAGES, "all"):
            c = counts.get((label, language))
            if not c:
                continue
            rows_n = sum(c.values())
            precision = ratio(c["tp"], c["tp"] + c["fp"])
            recall = ratio(c["tp"], c["tp"] + c["fn"])
            print(f"  {label:<9} {language:<8} {rows_n:>5} {c['tp'] + c['fn']:>8} {c['tp'] + c['fp']:>5} {precision:>9.3f} {recall:>7.3f}")
    if show_misses:
        for language, label, kind, verdict, a, b in misses:
            print(f"    {language} {label}/{kind} said={verdict}: {a}  ||  {b}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", type=Path, default=BLIND, help="a folder holding pairs.tsv")
    parser.add_argument("--half", choices=("dev", "test", "both", "all"), default="dev")
    parser.add_argument("--misses", action="store_true", help="list the dev half's wrong verdicts")
    args = parser.parse_args()
    rows = load(args.set)
    if args.half == "all":
        for row in rows:
            row["half"] = "all"
    for half in ("dev", "test") if args.half == "both" else (args.half,):
        chosen = [row for row in rows if row["half"] == half]
        print(f"{half} half: {len(chosen)} pairs")
        score(chosen, args.misses and half == "dev")
    return 0


if __name__ == "__main__":
    sys.exit(main())

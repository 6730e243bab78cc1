"""The negative-claim detector and the trigger classifier on the blind sets, per half and language.

    python bench/blind_accuracy.py [--set DIR] [--half dev|test|both|all] [--misses] [--speed]

The sets in bench/blind/ were written by helpers who never saw the detectors,
their tests or their tables (see bench/blind/README.md). Each row belongs to a
half by the SHA-256 of its text: even first byte -> dev (study it, tune on it),
odd -> test (run once, after tuning). The split depends on nothing but the text,
so adding rows never moves an old one to the other half. `--half all` reads
every row as one set, for a batch that is held out whole (`--set DIR` reads
claims.tsv and triggers.tsv from another folder with the same columns).

Claims: precision and recall of "flagged" against the `claim` label.
Triggers: accuracy, and precision/recall of the `cause` label.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import sys
from collections import defaultdict
from pathlib import Path

BLIND = Path(__file__).resolve().parent / "blind"
LANGUAGES = ("en", "zh-Hant", "zh-Hans", "ja")


def half_of(text: str) -> str:
    return "dev" if hashlib.sha256(text.encode("utf-8")).digest()[0] % 2 == 0 else "test"


def load(name: str, folder: Path = BLIND) -> list[dict[str, str]]:
    with (folder / name).open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
    for row in rows:
        row["half"] = half_of(row["text"])
    return rows


def ratio(part: int, whole: int) -> float:
    return part / whole if whole else 1.0


def claims_table(rows, show_misses: bool) -> dict[str, tuple[float, float, int]]:
    from memwarden.analysis.negation import find_claims

    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    misses = []
    for row in rows:
        flagged = bool(find_claims(row["text"]))
        actual = row["label"] == "claim"
        for language in (row["language"], "all"):
            key = {(True, True): "tp", (True, False): "fp", (False, True): "fn", (False, False): "tn"}[(flagged, actual)]
            counts[language][key] += 1
        if flagged != actual:
            misses.append((row["language"], "false alarm" if flagged else "missed", row["label"], row["kind"], row["text"]))
    result = {}
    print(f"  {'language':<9} {'rows':>5} {'claims':>6} {'precision':>9} {'recall':>7}")
    for language in (*LANGUAGES, "all"):
        c = counts.get(language)
        if not c:
            continue
        precision, recall = ratio(c["tp"], c["tp"] + c["fp"]), ratio(c["tp"], c["tp"] + c["fn"])
        rows_n = sum(c.values())
        result[language] = (precision, recall, rows_n)
        print(f"  {language:<9} {rows_n:>5} {c['tp'] + c['fn']:>6} {precision:>9.3f} {recall:>7.3f}")
    if show_misses:
        for miss in sorted(misses):
            print("    " + " | ".join(miss))
    return result


def triggers_table(rows, show_misses: bool) -> dict[str, tuple[float, float, float, int]]:
    from memwarden.analysis.triggers import CAUSE, classify

    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    misses = []
    for row in rows:
        predicted = classify(row["text"], row["language"]).label == CAUSE
        actual = row["label"] == "cause"
        for language in (row["language"], "all"):
            key = {(True, True): "tp", (True, False): "fp", (False, True): "fn", (False, False): "tn"}[(predicted, actual)]
            counts[language][key] += 1
        if predicted != actual:
            misses.append((row["language"], f"{row['label']} read as {'cause' if predicted else 'symptom'}", row["kind"], row["text"]))
    result = {}
    print(f"  {'language':<9} {'rows':>5} {'accuracy':>8} {'cause P':>8} {'cause R':>8}")
    for language in (*LANGUAGES, "all"):
        c = counts.get(language)
        if not c:
            continue
        n = sum(c.values())
        accuracy = ratio(c["tp"] + c["tn"], n)
        precision, recall = ratio(c["tp"], c["tp"] + c["fp"]), ratio(c["tp"], c["tp"] + c["fn"])
        result[language] = (accuracy, precision, recall, n)
        print(f"  {language:<9} {n:>5} {accuracy:>8.3f} {precision:>8.3f} {recall:>8.3f}")
    if show_misses:
        for miss in sorted(misses):
            print("    " + " | ".join(miss))
    return result


def speed(claims, triggers, rounds: int = 20) -> None:
    """Mean time per sentence of each detector, on the rows of the given half (caches cleared first)."""
    import time

    from memwarden.analysis.negation import find_claims
    from memwarden.analysis.negation.cjk_evidence import cjk_names
    from memwarden.analysis.negation.evidence import en_names
    from memwarden.analysis.triggers import classify

    for name, rows, run in (("negative claims", claims, lambda r: find_claims(r["text"])),
                            ("triggers", triggers, lambda r: classify(r["text"], r["language"]))):
        best = float("inf")
        for _ in range(rounds):
            en_names.cache_clear()
            cjk_names.cache_clear()
            began = time.perf_counter()
            for row in rows:
                run(row)
            best = min(best, time.perf_counter() - began)
        print(f"  {name}: {best / len(rows) * 1e6:.0f} µs a sentence (best of {rounds}, {len(rows)} rows)")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", dest="folder", type=Path, default=BLIND,
                        help="folder holding claims.tsv and triggers.tsv (default: bench/blind)")
    parser.add_argument("--half", choices=("dev", "test", "both", "all"), default="dev",
                        help="'all' reads every row of the set as one, with no split")
    parser.add_argument("--misses", action="store_true", help="list every row the detector gets wrong")
    parser.add_argument("--speed", action="store_true", help="time each detector per sentence on the half")
    args = parser.parse_args(argv)
    missing = [name for name in ("claims.tsv", "triggers.tsv") if not (args.folder / name).is_file()]
    if missing:
        parser.error(f"{args.folder} has no {' or '.join(missing)}")
    halves = ("dev", "test") if args.half == "both" else (args.half,)
    claims, triggers = load("claims.tsv", args.folder), load("triggers.tsv", args.folder)
    print(f"set: {args.folder}")
    for half in halves:
        def chosen(rows):
            return [r for r in rows if half == "all" or r["half"] == half]

        print(f"\nnegative claims, {half} half" if half != "all" else "\nnegative claims, all rows")
        claims_table(chosen(claims), args.misses)
        print(f"\ntriggers, {half} half" if half != "all" else "\ntriggers, all rows")
        triggers_table(chosen(triggers), args.misses)
        if args.speed:
            print(f"\nspeed, {half}")
            speed(chosen(claims), chosen(triggers))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

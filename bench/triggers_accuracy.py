"""How well memwarden.analysis.triggers tells a symptom from a cause, per language.

Reads tests/data/triggers_table.tsv (language, label, text) and prints, for
each language, precision and recall of the "cause" class (what the
cause-style-trigger rule flags), accuracy, and every miss with the evidence
the classifier saw; then the same per block of the table. The "# held-out"
blocks were written after the classifier, measured once, and only then used
to fix it: their first measurements (in the table's header) are the honest
estimate for triggers it has never seen.

    python3 bench/triggers_accuracy.py [--quiet] [TABLE]
"""

from __future__ import annotations

import sys
from pathlib import Path

from memwarden.analysis.triggers import CAUSE, LANGUAGES, classify

TABLE = Path(__file__).resolve().parents[1] / "tests" / "data" / "triggers_table.tsv"


def load(path: Path = TABLE) -> list[tuple[str, str, str, str]]:
    """(language, label, text, section) for each row; section is "built on" or the block's name."""
    rows = []
    section = "built on"
    header_seen = False
    for raw in path.read_text(encoding="utf-8").splitlines():
        if raw.startswith("#"):
            if header_seen and ":" in raw:  # a comment among the rows starts a block: "# name: why"
                section = raw[2:].split(":")[0]
            continue
        header_seen = header_seen or raw.startswith("language\t")
        if not raw.strip() or raw.startswith("language\t"):
            continue
        language, label, text = raw.split("\t")
        rows.append((language, label, text, section))
    return rows


def score(rows) -> dict[str, dict]:
    """Per language: tp, fp, fn, tn, precision, recall, accuracy, misses."""
    results: dict[str, dict] = {}
    for language, label, text, _ in rows:
        verdict = classify(text, language)
        stats = results.setdefault(language, {"tp": 0, "fp": 0, "fn": 0, "tn": 0, "misses": []})
        predicted_cause = verdict.label == CAUSE
        actual_cause = label == CAUSE
        key = {(True, True): "tp", (True, False): "fp", (False, True): "fn", (False, False): "tn"}[
            (predicted_cause, actual_cause)
        ]
        stats[key] += 1
        if predicted_cause != actual_cause:
            stats["misses"].append((label, verdict.label, text, verdict.reasons))
    for stats in results.values():
        tp, fp, fn, tn = stats["tp"], stats["fp"], stats["fn"], stats["tn"]
        stats["n"] = tp + fp + fn + tn
        stats["precision"] = tp / (tp + fp) if tp + fp else 1.0
        stats["recall"] = tp / (tp + fn) if tp + fn else 1.0
        stats["accuracy"] = (tp + tn) / stats["n"] if stats["n"] else 1.0
    return results


def report(title: str, rows, show_misses: bool) -> None:
    results = score(rows)
    print(f"\n{title}")
    print(f"{'language':<9} {'n':>4} {'cause P':>8} {'cause R':>8} {'accuracy':>9}")
    for language in LANGUAGES:
        if language not in results:
            continue
        s = results[language]
        print(f"{language:<9} {s['n']:>4} {s['precision']:>8.3f} {s['recall']:>8.3f} {s['accuracy']:>9.3f}")
    if show_misses:
        for language in LANGUAGES:
            for label, predicted, text, reasons in results.get(language, {}).get("misses", []):
                why = "; ".join(reasons) or "no evidence either way"
                print(f"  miss [{language}] {label} read as {predicted}: {text}  ({why})")


def main(argv: list[str]) -> int:
    show_misses = "--quiet" not in argv
    paths = [a for a in argv if not a.startswith("--")]
    rows = load(Path(paths[0]) if paths else TABLE)
    report(f"all {len(rows)} rows", rows, show_misses)
    for section in dict.fromkeys(r[3] for r in rows):
        block = [r for r in rows if r[3] == section]
        report(f"{section} ({len(block)} rows)", block, show_misses=False)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

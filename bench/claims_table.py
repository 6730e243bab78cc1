"""Build tests/data/claims_judged.tsv: judged sentences of real memory and the blind sets' dev rows.

    python bench/claims_table.py [--checkout DIR ...] [--old] [--write tests/data/claims_judged.tsv]

Rows come from judges who never read the detector (their words, their verdicts), dev data only:

- real memory: every negative-claim-without-expiry verdict (`true` -> claim, `false` -> none;
  `debatable` left out) and every expected claim (claim) of the dev repositories that
  `bench/claims_dev.py` reads (`--old`: this repository's corpus and `bench/realmem_judgements.tsv`;
  `--checkout`: a corpus collector's tree, its `dev` split only). The sentence is the one the rule
  reads on that line (a note's prose, an episode's or fact's text, inline code as a placeholder);
  a judged line the rule reads no prose on (a heading, an instruction file) is left out.
- the blind sets (`bench/blind*/claims.tsv`), rows of the dev half only (`blind_accuracy.half_of`):
  their `claim` label -> claim, every other label -> none. Their `claim` is broader than issue
  29's target (it takes in some statements about the project), so those rows may be listed misses.

`expect` is what the detector says now (`found` / `silent`); the test (`tests/test_claims_table.py`)
fails when any row's outcome changes, so a fixed miss or a new false alarm shows up as a row to
re-label here, and when precision or recall per language falls below its floor.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from blind_accuracy import half_of  # noqa: E402
from claims_dev import REPO, dev_sources, old_sources, read_tsv  # noqa: E402

FIELDS = ("language", "label", "expect", "source", "text", "note")
# Characters written only in Simplified or only in Traditional Chinese, to tell the two apart.
_SIMPLIFIED = set("们这说时会个来对为过还没发问题数据库经设计实现网络后开关区块读写应该记录错误试验环境")
_TRADITIONAL = set("們這說時會個來對為過還沒發問題數據庫經設計實現網絡後開關區塊讀寫應該記錄錯誤試驗環境")


def table_language(text: str) -> str:
    from memwarden.analysis.negation import language_of

    language = language_of(text)
    if language != "zh":
        return language
    simplified = sum(ch in _SIMPLIFIED for ch in text)
    traditional = sum(ch in _TRADITIONAL for ch in text)
    return "zh-Hans" if simplified > traditional else "zh-Hant"


def prose_by_line(root: Path) -> dict[tuple[str, int], list[str]]:
    """(path, line) -> the sentences the claims rules read there, for every claims document of a repository."""
    from memwarden.analysis.expiry import claim_records
    from memwarden.analysis.negation import sentences
    from memwarden.discover.workspace import collect
    from memwarden.rules.claims import CLAIM_KINDS

    found: dict[tuple[str, int], list[str]] = {}
    workspaces, _ = collect([root])
    for ws in workspaces:
        prefix = ws.root.relative_to(root.resolve()).as_posix()
        for doc in ws.documents(*CLAIM_KINDS):
            if not doc.ok:
                continue
            relpath = doc.relpath if prefix == "." else f"{prefix}/{doc.relpath}"
            for record in claim_records(doc, ws.profile.name):
                for piece in record.pieces:
                    for start, end in sentences(piece.text):
                        sentence = " ".join(piece.text[start:end].split())
                        line, _ = piece.locate(start, piece.text[start:end])
                        found.setdefault((relpath, line), []).append(sentence)
    return found


def _best(prose: dict[tuple[str, int], list[str]], path: str, line: int, quote: str) -> str | None:
    """The sentence on the judged line, or near it (judges noted lines off by one or two), that shares the
    quote's words; with no quote, the line's only sentence."""
    quote = " ".join(quote.replace("…", " ").replace("CODE", " ").split())
    if not quote:
        candidates = prose.get((path, line), [])
        return candidates[0] if len(candidates) == 1 else None
    words = set(quote.lower().split())
    near = [s for offset in (0, 1, -1, 2, -2) for s in prose.get((path, line + offset), [])]
    scored = [(len(words & set(s.lower().split())), s) for s in near]
    best = max(scored, default=(0, None), key=lambda pair: pair[0])
    return best[1] if best[0] >= min(3, len(words)) else None


def real_rows(checkouts: list[Path], old: bool) -> list[dict[str, str]]:
    sources = ([old_sources()] if old else []) + [dev_sources(c.resolve()) for c in checkouts]
    rows = []
    for folders, verdicts, expected in sources:
        wanted = [(r, "claim" if r["verdict"] == "true" else "none") for r in verdicts
                  if r.get("rule") == "negative-claim-without-expiry" and r.get("verdict") in ("true", "false")]
        wanted += [(r, "claim") for r in expected]
        prose = {name: prose_by_line(folders[name]) for name in sorted({r["repo"] for r, _ in wanted} & set(folders))}
        for row, label in wanted:
            if row["repo"] not in prose or not row.get("line", "").isdigit():
                continue
            sentence = _best(prose[row["repo"]], row["path"], int(row["line"]), row.get("quote", ""))
            if sentence:
                rows.append({"language": table_language(sentence), "label": label,
                             "source": f"{row['repo']}/{row['path']}:{row['line']}", "text": sentence,
                             "note": " ".join(row.get("note", "").split())[:200]})
    return rows


def blind_rows() -> list[dict[str, str]]:
    rows = []
    for folder in sorted(p for p in (REPO / "bench").glob("blind*") if (p / "claims.tsv").is_file()):
        for row in read_tsv(folder / "claims.tsv"):
            if half_of(row["text"]) == "dev":
                rows.append({"language": row["language"], "label": "claim" if row["label"] == "claim" else "none",
                             "source": f"{folder.name}:dev", "text": row["text"], "note": f"{row['label']}/{row['kind']}"})
    return rows


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", type=Path, action="append", default=[])
    parser.add_argument("--old", action="store_true")
    parser.add_argument("--write", type=Path)
    args = parser.parse_args(argv)

    from memwarden.analysis.negation import find_claims

    labels: dict[str, set[str]] = {}
    table: dict[str, dict[str, str]] = {}
    for row in real_rows(args.checkout, args.old) + blind_rows():
        if "\t" in row["text"] or row["language"] == "other":
            continue
        labels.setdefault(row["text"], set()).add(row["label"])
        table.setdefault(row["text"], row)
    rows = [row for text, row in table.items() if len(labels[text]) == 1]  # judges who disagree: left out
    for row in rows:
        row["expect"] = "found" if find_claims(row["text"]) else "silent"
    rows.sort(key=lambda r: (r["language"], r["source"].split(":")[0], r["label"], r["text"]))
    counts: dict[str, list[int]] = {}
    for row in rows:
        c = counts.setdefault(row["language"], [0, 0, 0])  # true positives, false positives, missed claims
        found, claim = row["expect"] == "found", row["label"] == "claim"
        c[0] += found and claim
        c[1] += found and not claim
        c[2] += claim and not found
    for language, (tp, fp, fn) in sorted(counts.items()):
        print(f"{language:<8} rows {sum(r['language'] == language for r in rows):>4}  "
              f"precision {tp / max(tp + fp, 1):.3f}  recall {tp / max(tp + fn, 1):.3f}  ({tp} found, {fp} false, {fn} missed)")
    if args.write:
        lines = ["\t".join(FIELDS)] + ["\t".join(row[field] for field in FIELDS) for row in rows]
        args.write.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

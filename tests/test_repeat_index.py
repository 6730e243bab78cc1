"""near-duplicate under the store (engine/cache/repeat_index.py): answers kept per record and brought up to
date by what changed must be the whole computation's (`find_repeats`), after any edit; a change
re-answers the records it can affect, not the workspace; a damaged index is worked out again."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest
from record_edits import edit_log_lines, edit_notes, split_front_matter

NO_CACHE = {"MEMWARDEN_NO_CACHE": "1"}
RULE = ("--select", "near-duplicate")


def _findings(cli, root: Path, env=None) -> list:
    result = cli("check", "--exit-zero", "--format", "json", *RULE, ".", cwd=root, env=env)
    return [(f["path"], f["line"], f["column"], f["message"]) for f in json.loads(result.stdout)["findings"]]


def _same(cli, root: Path) -> list:
    plain = _findings(cli, root, env=NO_CACHE)
    assert _findings(cli, root) == plain
    return plain


def _notes(root: Path) -> list[Path]:
    return sorted((root / "memory" / "knowledge").rglob("*.md"))


def _edit(root: Path, gen, rng: random.Random, step: int) -> str:
    """One edit of the kinds that move a record among the others: appended and rewritten episodes (copies
    among them), a line deleted, a note's body or date changed, a note copied, removed or superseded, an
    episode archived, two records on one line."""
    log = root / "memory" / "episodic.jsonl"
    lines = log.read_text("utf-8").splitlines(keepends=True)
    notes = _notes(root)
    what = rng.choice(["append", "append-copy", "rewrite", "delete-line", "archive", "two-on-a-line", "note-body",
                       "note-date", "note-copy", "note-delete", "supersede", "unsupersede"])
    if what in ("append", "append-copy"):
        record = gen.episode(rng, 10**6 + step)
        if what == "append-copy":
            record["content"] = json.loads(rng.choice(lines))["content"].upper()  # the same once case is folded
            record["ts"] = f"202{rng.randint(4, 6)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}T00:00:00Z"
        lines.append(json.dumps(record, ensure_ascii=False) + "\n")
    elif what == "rewrite":
        index = rng.randrange(len(lines))
        record = json.loads(lines[index])
        record["content"] = json.loads(rng.choice(lines))["content"] + " Checked again."
        lines[index] = json.dumps(record, ensure_ascii=False) + "\n"
    else:
        edit_log_lines(lines, rng, what, lambda kind: gen.episode(rng, kind * 10**6 + step))
    log.write_text("".join(lines), encoding="utf-8")
    if what == "note-body":
        target, source = rng.sample(notes, 2)
        head, body = split_front_matter(target.read_text("utf-8"))
        target.write_text(head + split_front_matter(source.read_text("utf-8"))[1] + rng.choice(["", "\nSee also the runbook.\n"]),
                          encoding="utf-8")
    else:
        edit_notes(notes, rng, what, step)
    return what


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kept_answers_are_the_whole_computations_after_random_edits(cli, generated, seed, monkeypatch):
    from memwarden.engine.cache import repeat_index

    updated: list[bool] = []  # each run's way: brought up to date (True) or worked out whole (False)
    original = repeat_index._Index._update
    monkeypatch.setattr(repeat_index._Index, "_update", lambda self, *a: updated.append(original(self, *a)) or updated[-1])
    root, gen = generated
    rng = random.Random(seed)
    assert _same(cli, root), "the generated notes repeat each other: there is something to keep"
    done = []
    for step in range(24):
        done.append(_edit(root, gen, rng, step))
        _same(cli, root)
    assert len(set(done)) >= 8, done
    assert updated.count(True) >= 12, updated  # most edits were answered from the kept rows, not whole


def test_an_append_answers_only_the_new_records_again(cli, generated, monkeypatch):
    from memwarden.engine.cache import repeat_index

    root, gen = generated
    _same(cli, root)  # the index is made (the whole computation)
    asked: list[int] = []
    original = repeat_index._Index._answer_again

    def counted(self, rows):
        asked.append(len(rows))
        return original(self, rows)

    monkeypatch.setattr(repeat_index._Index, "_answer_again", counted)
    count = len((root / "memory" / "episodic.jsonl").read_text("utf-8").splitlines())
    _append_copy(root, 5)  # the newest record: nothing comes after it
    found = _findings(cli, root)
    assert asked == [1], asked  # the new record alone: 60 episodes and 40 notes kept their answers
    assert (  # and it is named as the copy it is
        "memory/episodic.jsonl", count + 1) in {(path, line) for path, line, _, _ in found}
    monkeypatch.setattr(repeat_index._Index, "_answer_again", original)
    assert found == _findings(cli, root, env=NO_CACHE)


def _append_copy(root: Path, of_line: int) -> None:
    log = root / "memory" / "episodic.jsonl"
    copy = json.loads(log.read_text("utf-8").splitlines()[of_line])
    copy["ts"] = "2027-01-01T00:00:00Z"
    with log.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(copy, ensure_ascii=False) + "\n")


@pytest.mark.parametrize("damage", [
    "UPDATE repeat_rows SET answer = NULL WHERE answer IS NOT NULL",  # the findings wiped, their checksums kept
    "UPDATE OR REPLACE repeat_bands SET band = X'00000000000000000a'",  # every band key one
    "UPDATE repeat_rows SET normal = X'00' WHERE normal IS NOT NULL",  # every record a copy of every other
    "PLANT",  # a sealed row naming a file outside the workspace, as a committed cache could hold
])
def test_a_damaged_index_is_never_an_answer(cli, generated, damage):
    root, _ = generated
    _same(cli, root)
    connection = sqlite3.connect(root / ".memwarden_cache" / "store.sqlite3")
    with connection:
        if damage == "PLANT":
            from memwarden.engine.cache.repeat_index import POS_PER_LINE, Row, _sealed

            planted = Row("note", "../../outside.md", POS_PER_LINE, "2026-01-01", b"x" * 16, None, b"", 1)
            connection.execute("INSERT INTO repeat_rows VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                               _sealed(planted, [True, "../../elsewhere.md", POS_PER_LINE]))
        else:
            connection.execute(damage)
    connection.close()
    _append_copy(root, 5)  # a change: the rule asks the index again
    expected = _findings(cli, root, env=NO_CACHE)
    assert _findings(cli, root) == expected  # the damaged rows were not believed
    _append_copy(root, 6)
    assert _findings(cli, root) == _findings(cli, root, env=NO_CACHE)  # and the index was made again


def test_without_a_store_the_rule_works_the_answers_out_whole(cli, generated):
    root, _ = generated
    assert _findings(cli, root, env=NO_CACHE)
    assert not (root / ".memwarden_cache").exists()

"""conflicting-records under the store (engine/cache/conflict_index.py): answers kept per statement and brought up
to date by what changed must be the whole computation's (`find_conflicts`), after any edit; a change
re-answers the statements it can affect, not the workspace; a damaged index is worked out again."""

from __future__ import annotations

import csv
import json
import random
import sqlite3
from pathlib import Path

import pytest
from record_edits import edit_log_lines, edit_notes, split_front_matter

NO_CACHE = {"MEMWARDEN_NO_CACHE": "1"}
RULE = ("--select", "conflicting-records")
PAIRS = Path(__file__).parent / "data" / "coherence_pairs.tsv"


def _conflicting_sentences() -> list[str]:
    with PAIRS.open(encoding="utf-8", newline="") as handle:
        rows = [row for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE) if row["label"] == "conflict"]
    return [row[side] for row in rows for side in ("text_a", "text_b")]


SAID = _conflicting_sentences()


def _sentence(rng: random.Random) -> str:
    """A sentence that contradicts some others: the pair table's, or one of many alike, which fill the band,
    setting and name buckets past their caps (so which members come first decides the answers), or a
    removal whose first sentence's capitals decide whether it names what it removes."""
    roll = rng.random()
    if roll < 0.35:
        return rng.choice(SAID)
    if roll < 0.55:
        return f"Vercel Edge Functions {rng.choice(['support', 'do not support'])} WebSockets in region r{rng.randint(1, 6)}."
    if roll < 0.7:
        return f"Loki keeps application logs for {rng.randint(1, 40)} days."
    if roll < 0.85:
        return f"The web tier caches sessions in Memcached on node n{rng.randint(1, 60)}."
    return rng.choice(["We retired the Memcached cluster.", "we retired the memcached cluster.",
                       "2026-03-02 Removed Sidekiq; jobs now run on Solid Queue.", "Sidekiq processes the background jobs."])


def _findings(cli, root: Path, env=None) -> list:
    result = cli("check", "--exit-zero", "--format", "json", *RULE, ".", cwd=root, env=env)
    return [(f["path"], f["line"], f["column"], f["message"]) for f in json.loads(result.stdout)["findings"]]


def _differs(cli, root: Path) -> bool:
    return _findings(cli, root) != _findings(cli, root, env=NO_CACHE)


def _notes(root: Path) -> list[Path]:
    return sorted((root / "memory" / "knowledge").rglob("note-*.md")) + sorted((root / "memory" / "knowledge").rglob("copy-*.md"))


def _episode(gen, rng: random.Random, number: int) -> dict:
    record = gen.episode(rng, number)
    record["content"] = " ".join(_sentence(rng) for _ in range(rng.randint(1, 2)))
    record["ts"] = f"202{rng.randint(4, 6)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}T00:00:00Z"
    return record


def _seed(root: Path, gen, rng: random.Random) -> None:
    with (root / "memory" / "episodic.jsonl").open("a", encoding="utf-8") as log:
        for number in range(40):
            log.write(json.dumps(_episode(gen, rng, 2 * 10**6 + number), ensure_ascii=False) + "\n")
    for target in rng.sample(_notes(root), 10):
        head, _ = split_front_matter(target.read_text("utf-8"))
        target.write_text(head + "\n" + _sentence(rng) + "\n", encoding="utf-8")


def _edit(root: Path, gen, rng: random.Random, step: int) -> str:
    """One edit of the kinds that move a statement among the others: appended, rewritten, deleted and archived
    episodes, two records on a line, a note's body or date changed, a note copied, removed or superseded, a
    fact added."""
    log = root / "memory" / "episodic.jsonl"
    lines = log.read_text("utf-8").splitlines(keepends=True)
    notes = _notes(root)
    what = rng.choice(["append", "append", "rewrite", "delete-line", "archive", "two-on-a-line", "note-body",
                       "note-date", "note-copy", "note-delete", "supersede", "fact"])
    if what == "append":
        lines.append(json.dumps(_episode(gen, rng, 10**6 + step), ensure_ascii=False) + "\n")
    elif what == "rewrite":
        index = rng.randrange(len(lines))
        record = json.loads(lines[index])
        record["content"] = _sentence(rng)
        lines[index] = json.dumps(record, ensure_ascii=False) + "\n"
    else:
        edit_log_lines(lines, rng, what, lambda kind: _episode(gen, rng, kind * 10**6 + step))
    log.write_text("".join(lines), encoding="utf-8")
    if what == "note-body":
        target = rng.choice(notes)
        head, _ = split_front_matter(target.read_text("utf-8"))
        target.write_text(head + "\n" + " ".join(_sentence(rng) for _ in range(rng.randint(1, 3))) + "\n", encoding="utf-8")
    elif what != "fact":
        edit_notes(notes, rng, what, step)
    else:
        facts = root / "memory" / "fact.yml"
        text = facts.read_text("utf-8").replace("rules:\n", f"rules:\n  - {json.dumps(_sentence(rng), ensure_ascii=False)}\n", 1)
        facts.write_text(text, encoding="utf-8")
    return what


def _edits(cli, root: Path, gen, seed: int, steps: int) -> tuple[list[str], list[str]]:
    """(the edits made, those after which the kept answers differed from the whole computation's, or the index
    found its own rows unbelievable: what no run of a sound index does)."""
    from memwarden.engine.cache import conflict_index

    garbled = []
    original = conflict_index._Index.answers

    def answers(self):
        try:
            return original(self)
        except conflict_index.Garbled:
            garbled.append(True)
            raise

    conflict_index._Index.answers = answers
    try:
        return _edits_made(cli, root, gen, seed, steps, garbled)
    finally:
        conflict_index._Index.answers = original


def _edits_made(cli, root: Path, gen, seed: int, steps: int, garbled: list) -> tuple[list[str], list[str]]:
    rng = random.Random(seed)
    _seed(root, gen, rng)
    assert _findings(cli, root, env=NO_CACHE), "the seeded records contradict each other: there is something to keep"
    assert not _differs(cli, root)  # the index is made (the whole computation)
    done, wrong = [], []
    for step in range(steps):
        done.append(_edit(root, gen, rng, step))
        if _differs(cli, root) or garbled:
            wrong.append(f"{step}:{done[-1]}" + (" (rows not believed)" if garbled else ""))
            garbled.clear()
    return done, wrong


def _counting_updates(monkeypatch) -> list[bool]:
    from memwarden.engine.cache import conflict_index

    updated: list[bool] = []  # each run's way: brought up to date (True) or worked out whole (False)
    original = conflict_index._Index._update
    monkeypatch.setattr(conflict_index._Index, "_update", lambda self, *a: updated.append(original(self, *a)) or updated[-1])
    return updated


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kept_answers_are_the_whole_computations_after_random_edits(cli, generated, seed, monkeypatch):
    updated = _counting_updates(monkeypatch)
    root, gen = generated
    done, wrong = _edits(cli, root, gen, seed, 24)
    assert wrong == []
    assert len(set(done)) >= 7, done
    assert updated.count(True) >= 12, updated  # most edits were answered from the kept rows, not whole


def _without_leads(monkeypatch, conflict_index):
    monkeypatch.setattr(conflict_index._Index, "_leads", lambda self, row: set())


def _without_removal_names(monkeypatch, conflict_index):
    original = conflict_index._Index._bucket_members
    monkeypatch.setattr(conflict_index._Index, "_bucket_members",
                        lambda self, kind, *a, **k: [] if kind == "gone" else original(self, kind, *a, **k))


def _without_new_first_sentence(monkeypatch, conflict_index):
    original = conflict_index._Index._first_said

    def first_said(self, normal):
        row, now = self._rows.get(normal), original(self, normal)
        return (row.first, row.sentence) if row is not None and now is not None else now  # a moved first ignored

    monkeypatch.setattr(conflict_index._Index, "_first_said", first_said)


@pytest.mark.parametrize("left_out", [_without_leads, _without_removal_names, _without_new_first_sentence])
def test_each_re_answer_step_is_needed(cli, generated, monkeypatch, left_out):
    """The same edits with one step of bringing the answers up to date left out: some answer goes wrong."""
    from memwarden.engine.cache import conflict_index

    left_out(monkeypatch, conflict_index)
    root, gen = generated
    wrong = []
    for seed in (1, 2, 3):
        if wrong:
            break
        _, wrong = _edits(cli, root, gen, seed, 20)
    assert wrong, "an index without this step still agreed with the whole computation: the edits do not test it"


def test_an_append_answers_only_the_statements_it_can_affect(cli, generated, monkeypatch):
    from memwarden.engine.cache import conflict_index

    root, gen = generated
    _seed(root, gen, random.Random(7))
    _findings(cli, root)  # the index is made (the whole computation)
    asked: list[int] = []
    original = conflict_index._Index._answer_again

    def counted(self, again):
        asked.append(len(set().union(*again.values())))
        return original(self, again)

    monkeypatch.setattr(conflict_index._Index, "_answer_again", counted)
    log = root / "memory" / "episodic.jsonl"
    record = gen.episode(random.Random(8), 9 * 10**6)
    record["content"] = "Fly.io volumes don't support snapshots at all."
    record["ts"] = "2027-01-01T00:00:00Z"
    with log.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    statements = sqlite3.connect(root / ".memwarden_cache" / "store.sqlite3").execute(
        "SELECT count(*) FROM conflict_statements").fetchone()[0]
    found = _findings(cli, root)
    assert asked == [1], (asked, statements)  # the new statement alone is answered again, of 100
    assert statements >= 50
    monkeypatch.setattr(conflict_index._Index, "_answer_again", original)
    assert found == _findings(cli, root, env=NO_CACHE)


@pytest.mark.parametrize("damage", [
    "UPDATE conflict_statements SET answer = NULL WHERE answer IS NOT NULL",  # the answers wiped, their checksums kept
    "UPDATE OR REPLACE conflict_buckets SET bucket = X'00000000000000000a00'",  # every bucket one
    "UPDATE conflict_said SET day = '2099-01-01'",  # every sentence moved to one day
    "PLANT",  # a sealed answer naming a statement said in a file outside the workspace
])
def test_a_damaged_index_is_never_an_answer(cli, generated, damage):
    root, gen = generated
    _seed(root, gen, random.Random(5))
    _findings(cli, root)
    connection = sqlite3.connect(root / ".memwarden_cache" / "store.sqlite3")
    with connection:
        if damage == "PLANT":
            from memwarden.engine.cache.conflict_index import _said_row, _Statement

            planted, other = b"p" * 16, b"q" * 16
            for normal in (planted, other):
                connection.execute("INSERT INTO conflict_said VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                                   _said_row(normal, "../../outside.md", 1024, 0, 0, "2026-01-01", b"s" * 16))
            row = _Statement(planted, ("../../outside.md", 1024, 0, 0), b"s" * 16, {}, {"band": [[other.hex(), "negation"]]})
            connection.execute("INSERT INTO conflict_statements VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", row.sealed())
        else:
            connection.execute(damage)
    connection.close()
    with (root / "memory" / "episodic.jsonl").open("a", encoding="utf-8") as handle:  # a change: the rule asks again
        handle.write(json.dumps(_episode(gen, random.Random(6), 8 * 10**6), ensure_ascii=False) + "\n")
    expected = _findings(cli, root, env=NO_CACHE)
    assert _findings(cli, root) == expected  # the damaged rows were not believed
    with (root / "memory" / "episodic.jsonl").open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(_episode(gen, random.Random(9), 8 * 10**6 + 1), ensure_ascii=False) + "\n")
    assert _findings(cli, root) == _findings(cli, root, env=NO_CACHE)  # and the index was made again

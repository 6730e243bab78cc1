"""The pre-commit hook's cost follows the change (issue 28): a warm check of a few named files neither walks and
classifies the workspace nor stats every file for the store's content hashes, and what it reports is what a check
without the store reports, after any edit git can see (staged, unstaged, untracked, deleted, renamed, ignored,
a symlink, a log appended to or rewritten in the middle)."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from conftest import git

NO_CACHE = {"MEMWARDEN_NO_CACHE": "1"}


@pytest.fixture
def a_log_rule_on_by_default(tmp_path, monkeypatch):
    """The shipped tier table with unparsable-file stable, as it was when these tests were written: they measure
    what a hook that reads a log's lines costs, whichever rules the latest measurement leaves on by default."""
    import memwarden
    from memwarden import tiers

    table = json.loads((Path(memwarden.__file__).parent / "rule_tiers.json").read_text("utf-8"))
    table["rules"]["unparsable-file"]["tier"] = "stable"
    path = tmp_path / "tiers.json"
    path.write_text(json.dumps(table), "utf-8")
    monkeypatch.setenv("MEMWARDEN_TIER_TABLE", str(path))
    tiers.table.cache_clear()
    yield
    monkeypatch.delenv("MEMWARDEN_TIER_TABLE")
    tiers.table.cache_clear()


def _note(number: int, links: list[str]) -> str:
    see = " ".join(f"See [note {name}]({name})." for name in links)
    return (f"---\nname: note {number}\ndescription: what note {number} remembers\ntype: feedback\n---\n\n"
            f"The deploy script lives in scripts/deploy-{number}.sh and runs before the release. {see}\n")


def _episode(number: int) -> str:
    record = {"id": f"ep-{number:05d}", "ts": f"2026-0{1 + number % 9}-1{number % 10}T00:00:00Z",
              "content": f"Session {number}: fixed the cache key of step {number % 17}."}
    return json.dumps(record) + "\n"


def _workspace(root: Path, notes: int, episodes: int) -> Path:
    feedback = root / "memory" / "knowledge" / "feedback"
    feedback.mkdir(parents=True)
    (root / "MEMORY.md").write_text("# Memory\n\n- [first note](memory/knowledge/feedback/note-00000.md)\n")
    (root / "README.md").write_text("# The agent's memory\n")  # no memory: checked as any text file
    (root / "memory" / "fact.yml").write_text("identity:\n  name: Test Agent\n")
    for number in range(notes):
        links = [f"note-{(number + 1) % notes:05d}.md"] + (["note-missing.md"] if number % 7 == 0 else [])
        (feedback / f"note-{number:05d}.md").write_text(_note(number, links))
    (root / "memory" / "episodic.jsonl").write_text("".join(_episode(n) for n in range(episodes)))
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    return root


def _findings(cli, root: Path, paths: list[str], env=None) -> list:
    result = cli("check", "--exit-zero", "--format", "json", *paths, cwd=root, env=env)
    return sorted((f["path"], f["line"], f["column"], f["name"], f["message"]) for f in json.loads(result.stdout)["findings"])


def _edit(root: Path, rng: random.Random, step: int) -> tuple[str, list[str]]:
    """One edit a session could commit, and the files a hook would be handed for it."""
    feedback = root / "memory" / "knowledge" / "feedback"
    notes = sorted(p for p in feedback.glob("note-*.md") if not p.is_symlink() and p.name != "note-missing.md")  # tracked
    log = root / "memory" / "episodic.jsonl"
    relative = lambda path: path.relative_to(root).as_posix()  # noqa: E731
    what = rng.choice(["staged", "unstaged", "staged-then-changed", "untracked", "deleted", "renamed", "ignored",
                       "symlink", "append", "rewrite-same-length", "create-target", "remove-target", "readme"])
    note = rng.choice(notes)
    if what in ("staged", "unstaged", "staged-then-changed"):
        note.write_text(note.read_text() + f"Checked again in step {step}: see [gone](note-gone-{step}.md).\n")
        if what != "unstaged":
            git(root, "add", relative(note))
        if what == "staged-then-changed":
            note.write_text(note.read_text() + "Changed once more after staging.\n")
        return what, [relative(note)]
    if what in ("untracked", "ignored"):
        new = feedback / f"{'ignored' if what == 'ignored' else 'new'}-{step}.md"
        if what == "ignored":
            with (root / ".gitignore").open("a") as handle:
                handle.write(relative(new) + "\n")
        new.write_text(_note(10_000 + step, [note.name, "note-missing.md"]))
        return what, [relative(new)]
    if what == "deleted":
        git(root, "rm", "-q", "--cached", relative(note))
        note.unlink()
        linking = [p for p in notes if f"({note.name})" in p.read_text()]
        return what, [relative(p) for p in linking[:2]] or ["MEMORY.md"]
    if what == "renamed":
        moved = note.with_name(f"moved-{step}.md")
        git(root, "mv", relative(note), relative(moved))
        return what, [relative(moved)]
    if what == "readme":  # a text file no kind claims, named with the notes
        with (root / "README.md").open("a") as handle:
            handle.write(f"Step {step}: see /home/alice/notes.md and [x](missing-{step}.md).\n")
        return what, ["README.md", relative(note)]
    if what == "symlink":
        link = feedback / f"link-{step}.md"
        os.symlink(note.name, link)
        return what, [relative(link)]
    lines = log.read_bytes().splitlines(keepends=True)
    if what == "append":
        lines.append(_episode(20_000 + step).encode())
    elif what == "rewrite-same-length":
        index = rng.randrange(len(lines))
        line = lines[index]
        lines[index] = line.replace(b"fixed", b"FIXED") if b"fixed" in line else line.replace(b"FIXED", b"fixed")
        assert len(lines[index]) == len(line)
    else:  # a link's target appears, or goes: which files exist is what the link rules read
        target = feedback / "note-missing.md"
        if what == "create-target":
            target.write_text(_note(30_000 + step, []))
        elif target.exists():
            target.unlink()
        return what, [relative(notes[0])]
    stat = log.stat()
    log.write_bytes(b"".join(lines))
    if what == "rewrite-same-length":  # the same size and mtime: only the bytes tell
        os.utime(log, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    return what, [relative(log)]


@pytest.mark.parametrize("selection", ["stable", "preview"])
def test_the_hooks_findings_are_those_of_a_check_without_the_store_after_random_edits(
        cli, tmp_path, monkeypatch, selection):
    if selection == "stable":
        monkeypatch.delenv("MEMWARDEN_PREVIEW", raising=False)  # the rules a hook runs as shipped
    root = _workspace(tmp_path / "ws", notes=40, episodes=60)
    rng = random.Random(28)
    assert _findings(cli, root, ["."]) == _findings(cli, root, ["."], env=NO_CACHE)
    done = []
    for step in range(18):
        what, paths = _edit(root, rng, step)
        done.append(what)
        assert _findings(cli, root, paths) == _findings(cli, root, paths, env=NO_CACHE), (step, what, paths)
        if step % 3 == 2:  # and the whole workspace, as CI checks it
            assert _findings(cli, root, ["."]) == _findings(cli, root, ["."], env=NO_CACHE), (step, what)
    assert len(set(done)) >= 9 and "readme" in done, done


def test_a_warm_hook_on_a_small_change_looks_only_at_the_files_it_checks(cli, tmp_path, monkeypatch, a_log_rule_on_by_default):
    """The seam: on a 4-file change (a README among them) of a workspace of 1,500 notes and a log of 1,500 episodes,
    the hook stats and classifies a handful of files, not the workspace (the walk listed every note and classified
    it; the store stat-ed every file to key it), and digests the log's new line, not every line (one digest says
    the rest are the bytes its rows were made from)."""
    monkeypatch.delenv("MEMWARDEN_PREVIEW", raising=False)
    from memwarden.engine.cache import cached_run, incremental, store
    from memwarden.kinds import Profile

    root = _workspace(tmp_path / "ws", notes=1500, episodes=1500)
    cli("check", "--exit-zero", ".", cwd=root)  # the warm cache of the commit before
    feedback = root / "memory" / "knowledge" / "feedback"
    changed = [feedback / "note-00100.md", feedback / "note-01200.md", root / "README.md"]
    for note in changed:
        note.write_text(note.read_text() + "Checked again.\n")
    with (root / "memory" / "episodic.jsonl").open("a") as handle:
        handle.write(_episode(5000))
    hook = [p.relative_to(root).as_posix() for p in changed] + ["memory/episodic.jsonl"]

    stat_ed: list[str] = []
    classified: list[str] = []
    digested: list[bytes] = []
    real_stat, real_classify, real_digest = os.stat, Profile.classify, store.line_digest

    def counting_stat(path, *args, **kwargs):
        stat_ed.append(os.fspath(path))
        return real_stat(path, *args, **kwargs)

    def counting_classify(self, relpath):
        classified.append(relpath)
        return real_classify(self, relpath)

    def counting_digest(line):
        digested.append(line)
        return real_digest(line)

    with pytest.MonkeyPatch.context() as spies:
        spies.setattr(os, "stat", counting_stat)
        spies.setattr(Profile, "classify", counting_classify)
        for module in (incremental, cached_run):  # each holds the store's line_digest by name
            spies.setattr(module, "line_digest", counting_digest)
        found = _findings(cli, root, hook)
    notes_stat_ed = {path for path in stat_ed if "/feedback/note-" in path}
    assert len(notes_stat_ed) <= 10, sorted(notes_stat_ed)[:20]
    assert len(classified) <= 20, classified[:20]
    assert 1 <= len(digested) <= 5, len(digested)  # the appended line, not the log's 1,500
    assert found == _findings(cli, root, hook, env=NO_CACHE)


def _log_line_broken_in_place(log: Path, index: int) -> None:
    """A record made unparsable with the log's size and mtime kept: only its bytes tell."""
    lines = log.read_bytes().splitlines(keepends=True)
    assert lines[index].endswith(b"}\n")
    lines[index] = lines[index][:-2] + b"]\n"
    info = log.stat()
    log.write_bytes(b"".join(lines))
    os.utime(log, ns=(info.st_atime_ns, info.st_mtime_ns))


def test_a_log_rewritten_in_the_middle_with_the_same_size_is_read_again(cli, tmp_path, monkeypatch, a_log_rule_on_by_default):
    monkeypatch.delenv("MEMWARDEN_PREVIEW", raising=False)
    root = _workspace(tmp_path / "ws", notes=3, episodes=300)
    log = root / "memory" / "episodic.jsonl"
    hook = ["memory/episodic.jsonl"]
    assert _findings(cli, root, hook) == []  # its lines' digest kept
    with log.open("a") as handle:
        handle.write(_episode(900))
    assert _findings(cli, root, hook) == []  # an append: the first 300 lines told unchanged by one digest
    _log_line_broken_in_place(log, 149)
    found = _findings(cli, root, hook)
    assert [(path, line, name) for path, line, _, name, _ in found] == [("memory/episodic.jsonl", 150, "unparsable-file")]
    assert found == _findings(cli, root, hook, env=NO_CACHE)


def test_a_planted_digest_of_a_logs_lines_is_not_believed_over_missing_rows(cli, tmp_path, monkeypatch, a_log_rule_on_by_default):
    """Row 0 says the first lines are unchanged only while every one of them has its row: a store whose row 0 was
    made to match the log's new bytes, with the changed line's row gone, is read line by line."""
    import hashlib
    import sqlite3

    from memwarden.engine.cache.store import seal

    monkeypatch.delenv("MEMWARDEN_PREVIEW", raising=False)
    root = _workspace(tmp_path / "ws", notes=3, episodes=200)
    log = root / "memory" / "episodic.jsonl"
    hook = ["memory/episodic.jsonl"]
    assert _findings(cli, root, hook) == []
    _log_line_broken_in_place(log, 99)
    raw = log.read_bytes()
    connection = sqlite3.connect(root / ".memwarden_cache" / "store.sqlite3")
    with connection:
        planted = connection.execute("UPDATE lines SET digest = ?, value = ? WHERE line = 0",
                                     (hashlib.blake2b(raw, digest_size=16).digest(),
                                      seal({"bytes": len(raw), "lines": 200}))).rowcount
        connection.execute("DELETE FROM lines WHERE line = 100")
    connection.close()
    assert planted >= 1
    found = _findings(cli, root, hook)
    assert [(line, name) for _, line, _, name, _ in found] == [(100, "unparsable-file")]

"""The incremental cache never changes what a check reports: every output format, warm cache vs none.

The corpus (real memory from public repositories and the examples) is checked with and without
the cache; then a generated Ghost In Shell workspace is edited at random (episodes appended or
rewritten, notes edited, created, deleted and renamed, a secret planted, the index changed) and,
after each edit, a run with the cache warm from the run before must print exactly what a run
without it prints.
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from conftest import FIXTURES, REPO

FORMATS = ("json", "text", "sarif", "github")
NO_CACHE = {"MEMWARDEN_NO_CACHE": "1"}


def _outputs(cli, root: Path, *args, env=None) -> dict:
    return {fmt: cli("check", "--exit-zero", "--format", fmt, *args, ".", cwd=root, env=env).stdout for fmt in FORMATS}


def _same_with_and_without_cache(cli, root: Path, *args, formats=FORMATS):
    """A run that fills the cache, a run served from it, and a run without it print the same."""
    for fmt in formats:
        plain = cli("check", "--exit-zero", "--format", fmt, *args, ".", cwd=root, env=NO_CACHE).stdout
        warm = cli("check", "--exit-zero", "--format", fmt, *args, ".", cwd=root).stdout
        assert warm == plain, f"{root.name} {fmt} {args}"
    return plain


def _corpus_workspaces():
    roots = sorted(p for p in (FIXTURES / "realmem").iterdir() if p.is_dir())
    return roots + sorted(p for p in (REPO / "examples").iterdir() if p.is_dir())


def test_the_corpus_is_big_enough_to_say_something():
    assert len(_corpus_workspaces()) >= 10


# One case a workspace: the test workers share them out (as one test it was the suite's longest).
@pytest.mark.parametrize("source", _corpus_workspaces(), ids=lambda path: path.name)
def test_the_corpus_reports_the_same_with_a_warm_cache_in_every_format(cli, tmp_path, source):
    root = tmp_path / source.name
    shutil.copytree(source, root)
    plain = _outputs(cli, root, env=NO_CACHE)
    cli("check", "--exit-zero", ".", cwd=root)  # fills the cache
    warm = {fmt: cli("check", "--exit-zero", "--format", fmt, ".", cwd=root).stdout for fmt in FORMATS}
    assert warm == plain, source.name


def _notes(root: Path) -> list[Path]:
    return sorted((root / "memory" / "knowledge").rglob("*.md"))


def _edit(root: Path, gen, rng: random.Random, step: int) -> str:
    log = root / "memory" / "episodic.jsonl"
    notes = _notes(root)
    what = rng.choice(["append", "append", "rewrite", "edit", "create", "delete", "rename", "secret", "index"])
    if what == "append":
        with log.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(gen.episode(rng, 10**6 + step), ensure_ascii=False) + "\n")
    elif what == "rewrite":
        lines = log.read_text("utf-8").splitlines(keepends=True)
        index = rng.randrange(len(lines))
        lines[index] = json.dumps(gen.episode(rng, 2 * 10**6 + step), ensure_ascii=False) + "\n"
        if rng.random() < 0.3:
            del lines[rng.randrange(len(lines))]  # lines after it move up: their cached findings must not
        log.write_text("".join(lines), "utf-8")
    elif what == "edit":
        note = rng.choice(notes)
        note.write_text(note.read_text("utf-8") + "\nWe never use the staging cluster for load tests.\n", "utf-8")
    elif what == "create":
        source = rng.choice(notes)
        shutil.copy(source, source.with_name(f"copy-{step}.md"))
    elif what == "delete":
        rng.choice(notes).unlink()
    elif what == "rename":
        note = rng.choice(notes)
        note.rename(note.with_name(f"renamed-{step}.md"))
    elif what == "secret":
        with log.open("a", encoding="utf-8") as handle:
            token = "ghp_" + "".join(rng.choice("abcdefghijkLMNOPQRS0123456789") for _ in range(36))
            record = gen.episode(rng, 3 * 10**6 + step)
            record["summary"] = f"Deployed with token {token} and it never failed again."
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    else:
        index = root / "MEMORY.md"
        lines = index.read_text("utf-8").splitlines(keepends=True)
        del lines[rng.randrange(1, len(lines))]
        index.write_text("".join(lines), "utf-8")
    return what


def test_a_generated_workspace_after_random_edits_reports_the_same_with_a_warm_cache(cli, generated):
    root, gen = generated
    rng = random.Random(12)
    _same_with_and_without_cache(cli, root, formats=("json",))
    done = []
    for step in range(14):
        done.append(_edit(root, gen, rng, step))
        _same_with_and_without_cache(cli, root, formats=("json",))
        # The hook's way: a few files named, another selection; answered from the same entries.
        named = [str(p.relative_to(root)) for p in _notes(root)[:2]] + ["memory/episodic.jsonl"]
        plain = cli("check", "--exit-zero", "--format", "json", "--ignore", "secret-in-memory", *named,
                    cwd=root, env=NO_CACHE).stdout
        assert cli("check", "--exit-zero", "--format", "json", "--ignore", "secret-in-memory", *named,
                   cwd=root).stdout == plain
    assert {"append", "rewrite", "edit", "delete", "rename", "secret"} <= set(done)
    final = _same_with_and_without_cache(cli, root)
    assert "[SECRET:" in final or "secret-in-memory" in final  # the planted secrets were found, and hidden


def stored_rows(root: Path) -> dict[str, set]:
    """The rows the store holds: entries by key, a log's lines by (log, line, digest)."""
    connection = sqlite3.connect(root / ".memwarden_cache" / "store.sqlite3")
    try:
        return {"entries": set(connection.execute("SELECT key FROM entries")),
                "lines": set(connection.execute("SELECT log, line, digest FROM lines"))}
    finally:
        connection.close()


def test_an_append_rechecks_only_the_new_record_and_keeps_line_numbers(cli, generated, monkeypatch):
    from memwarden.engine.cache import cached_run

    root, gen = generated
    log = root / "memory" / "episodic.jsonl"
    cli("check", "--exit-zero", ".", cwd=root)
    before = {(f["line"], f["name"]) for f in cli("check", "--exit-zero", "--format", "json", "memory/episodic.jsonl",
                                                   cwd=root).json()["findings"]}
    count = len(log.read_text("utf-8").splitlines())
    record = gen.episode(random.Random(3), 99)
    record["summary"] = "The export endpoint is not supported in the EU region."
    with log.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(record) + "\n")
    rows_before = stored_rows(root)
    checked: list[list[int]] = []
    original = cached_run._check_lines
    monkeypatch.setattr(cached_run, "_check_lines", lambda *args: checked.append(list(args[7])) or original(*args))
    after = cli("check", "--exit-zero", "--format", "json", "memory/episodic.jsonl", cwd=root).json()["findings"]
    new = {(f["line"], f["name"]) for f in after} - before
    assert new == {(count + 1, "negative-claim-without-expiry")}
    assert checked == [[count + 1]]  # the record rules parsed the new line alone
    # The new line's rows (its findings; its tags, ids and shape for the rules that read the whole log), no more,
    # and row 0, the digest of the lines that have their rows, now one line longer.
    added = stored_rows(root)["lines"] - rows_before["lines"]
    assert {line for _, line, _ in added} == {0, count + 1} and len(added) <= 5
    # An edit before the end: that line alone is checked again.
    checked.clear()
    lines = log.read_bytes().splitlines(keepends=True)
    lines[1] = json.dumps(gen.episode(random.Random(5), 45)).encode() + b"\n"
    log.write_bytes(b"".join(lines))
    cli("check", "--exit-zero", "memory/episodic.jsonl", cwd=root)
    assert checked == [[2]]


def test_the_store_holds_no_secret_and_garbled_rows_are_misses(cli, workspace):
    token = "ghp_" + "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5"
    root = workspace({
        "MEMORY.md": "# Memory\n",
        "memory/episodic.jsonl": json.dumps({
            "id": "ep-1", "timestamp": "2026-01-01T00:00:00Z", "summary": f"The token {token} is not rotated.",
            "tags": ["deploy", "ci", "tokens"],
        }) + "\n" + json.dumps({"id": "ep-2", "timestamp": "2026-01-02T00:00:00Z",
                                "summary": "The export API does not support paging.", "tags": ["api"]}) + "\n",
        "memory/knowledge/feedback/n.md": f"---\ntags: [{token}, ci]\n---\n# Note\nUse {token} here.\n",
    })
    first = cli("check", "--exit-zero", "--format", "json", ".", cwd=root)
    assert "secret-in-memory" in first.stdout and token not in first.stdout
    cache = root / ".memwarden_cache"
    for path in cache.rglob("*"):
        if path.is_file():
            assert token.encode() not in path.read_bytes(), path
            assert token[4:20].encode() not in path.read_bytes(), path
    database = cache / "store.sqlite3"
    garbles = (
        "UPDATE entries SET value = 'not json {'",
        "UPDATE entries SET value = '{\"x\": 5}'",
        "UPDATE entries SET value = '[]'",
        "UPDATE lines SET value = '{\"negative-claim-without-expiry\": [{\"name\": 5}]}'",
        "UPDATE lines SET value = '[1, 2]'",
        "UPDATE lines SET digest = x'00'",
        "UPDATE depsets SET deps = '[' || id || ']'",
        "UPDATE depsets SET deps = 'nonsense' || id",
        "DELETE FROM depsets",
    )
    for garble in garbles:
        connection = sqlite3.connect(database)
        connection.execute(garble)
        connection.commit()
        connection.close()
        again = cli("check", "--exit-zero", "--format", "json", ".", cwd=root)
        assert again.exit_code == 0 and again.stdout == first.stdout, garble


def test_a_fix_on_an_appended_record_writes_what_a_run_without_the_cache_writes(cli, generated, tmp_path):
    root, gen = generated
    cli("check", "--fix", "--exit-zero", ".", cwd=root)  # the state a hook sees: earlier fixes applied
    cli("check", "--exit-zero", ".", cwd=root)  # and a warm cache
    record = gen.episode(random.Random(8), 77)
    record["summary"] = "The export endpoint is not supported in the EU region."
    with (root / "memory" / "episodic.jsonl").open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(record) + "\n")
    other = tmp_path / "without-cache"
    shutil.copytree(root, other, ignore=shutil.ignore_patterns(".memwarden_cache"))
    named = ("--unsafe-fixes", "memory/episodic.jsonl")
    warm = cli("check", "--fix", "--exit-zero", *named, cwd=root)
    plain = cli("check", "--fix", "--exit-zero", *named, cwd=other, env=NO_CACHE)
    assert "fixed" in plain.stdout and warm.stdout == plain.stdout
    log = "memory/episodic.jsonl"
    assert (root / log).read_bytes() == (other / log).read_bytes()
    assert b'"expires"' in (root / log).read_bytes().splitlines()[-1]


def _log_edit(log: Path, gen, rng: random.Random, step: int) -> str:
    """An edit of the log's bytes of the kinds the stored rows of its lines must notice (or rightly survive)."""
    raw = log.read_bytes()
    lines = raw.splitlines(keepends=True)
    newline = b"\r\n" if b"\r\n" in raw else b"\n"
    record = gen.episode(rng, 5 * 10**6 + step)
    if rng.random() < 0.3:
        record["summary"] = rng.choice(["The export endpoint is not supported in the EU region.",
                                        "Bulk export is not available on the free plan.", ""])
    if rng.random() < 0.2:
        record["id"] = json.loads(rng.choice(lines) or b"{}").get("id", "ep-x") if lines else "ep-x"  # a duplicate id
    if rng.random() < 0.15:
        record["tags"] = ["one"]
    new = json.dumps(record, ensure_ascii=rng.random() < 0.5).encode("utf-8")
    what = rng.choice(["append", "append", "append", "middle", "same-length", "truncate", "crlf", "bom", "unterminated", "blank",
                       "garbled", "delete"])
    if what == "append":
        raw += new + newline
    elif what == "middle" and lines:
        index = rng.randrange(len(lines))
        lines[index] = new + newline
        raw = b"".join(lines)
    elif what == "same-length" and len(lines) > 1:
        index = rng.randrange(len(lines) - 1)
        raw = b"".join(lines[:index] + [_same_length_claim(lines[index])] + lines[index + 1 :])
    elif what == "truncate" and lines:
        raw = b"".join(lines[: rng.randrange(len(lines))])
    elif what == "crlf":
        raw = raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n") if newline == b"\n" else raw.replace(b"\r\n", b"\n")
    elif what == "bom":
        raw = raw[3:] if raw.startswith(b"\xef\xbb\xbf") else b"\xef\xbb\xbf" + raw
    elif what == "unterminated":
        raw += new  # the next append joins it, or completes it
    elif what == "blank":
        raw += newline
    elif what == "garbled":
        raw += b'{"id": "ep-broken", "summary": ' + newline
    elif what == "delete" and lines:
        del lines[rng.randrange(len(lines))]
        raw = b"".join(lines)
    log.write_bytes(raw)
    return what


def _same_length_claim(line: bytes) -> bytes:
    """A line rewritten to a negative claim of exactly its length, so no line after it moves (the digest notices)."""
    body = line.rstrip(b"\r\n")
    try:
        record = json.loads(body)
    except ValueError:
        return line
    if not isinstance(record, dict):
        return line
    claim = "Bulk export is not supported on the free plan"
    field = "content" if "content" in record else "summary"
    record[field] = ""
    room = len(body) - len(json.dumps(record, ensure_ascii=False).encode("utf-8"))
    if room < len(claim) + 1:
        return line
    record[field] = claim + "." * (room - len(claim))
    return json.dumps(record, ensure_ascii=False).encode("utf-8") + line[len(body) :]


def test_a_log_edited_at_random_reports_the_same_with_its_rows(cli, generated):
    """Appends, and edits the stored rows must notice: a line rewritten in the middle (one of the same length too),
    the log truncated, its line endings turned to CRLF and back, a BOM added and removed, a last line with no newline
    that the next append completes, blank and broken lines, a line deleted (every line after it moves up)."""
    root, gen = generated
    log = root / "memory" / "episodic.jsonl"
    rng = random.Random(2026)
    named = ["--ignore", "secret-in-memory", "memory/episodic.jsonl"]
    cli("check", "--exit-zero", ".", cwd=root)
    done = []
    for step in range(40):
        done.append(_log_edit(log, gen, rng, step))
        for args in ((".",), named):
            warm = cli("check", "--exit-zero", "--format", "json", *args, cwd=root).stdout
            plain = cli("check", "--exit-zero", "--format", "json", *args, cwd=root, env=NO_CACHE).stdout
            assert warm == plain, (step, done[-1], args)
    assert {"append", "middle", "same-length", "truncate", "crlf", "bom", "unterminated"} <= set(done)

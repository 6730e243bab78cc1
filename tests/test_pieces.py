"""A big JSONL log checked in line ranges (engine/pieces.py): the same report as checking it whole.

The ranges are made tiny here (a few hundred bytes) so that every planted defect sits at or near a
range boundary; the run through worker processes, in-process range by range, and whole must agree
byte for byte, on LF and CRLF logs, with and without a final newline, and on logs that cannot be read
in ranges (a BOM, a CR-only line end, bytes that do not decode), which are checked whole.
"""

from __future__ import annotations

import json
import random
import shutil

import pytest

from memwarden.engine import parallel, pieces
from conftest import REPO

SECRET = "ghp_" + "R2f8Kd9Lq3Zx7Wm1Nc4Vb6Tj0Hs5Ya8Pe2Ug"


def _episode(rng: random.Random, number: int) -> str:
    """One line of a log; about one in four carries a defect some rule reports."""
    record = {
        "id": f"ep_{number:08d}",
        "ts": f"2026-0{1 + number % 9}-{1 + number % 28:02d}T10:00:00Z",
        "type": "lesson",
        "title": f"Lesson {number}",
        "content": "Read the final state where the user sees it.",
        "tags": ["deploy", "ci"],
    }
    defect = rng.randrange(16)
    if defect == 0:
        record["content"] = "The export API does not support batch export on GitHub."  # negative claim, fixable
    elif defect == 1:
        record["ts"] = "2026-02-30T11:00:00Z"  # impossible date
    elif defect == 2:
        record["tags"] = ["Deploy", " ci", "deploy"]  # unnormalised
    elif defect == 3:
        record["tags"] = ["deploy"]  # too few
    elif defect == 4:
        record["id"] = "ep_00000002"  # a duplicate id (a workspace rule, read range by range)
    elif defect == 5:
        record["content"] = f"Use the token {SECRET} for the API."  # a secret: hidden in every message
    elif defect == 6:
        record["content"] = "Logs are in /Users/alice/work/app/logs today."  # a personal path
    line = json.dumps(record, ensure_ascii=False)
    if defect == 7:
        return line[:-20]  # invalid JSON
    if defect == 8:
        return ""  # a blank line
    if defect == 9:
        return line + line  # two records on one line
    if defect == 10:
        return line.replace('"type": "lesson"', '"type": "lesson", "type": "insight"')  # duplicate key
    if defect == 11:
        return "[1, 2, 3]"  # not an object
    return line


def _log(seed: int, lines: int, newline: str = "\n", final_newline: bool = True) -> bytes:
    rng = random.Random(seed)
    text = newline.join(_episode(rng, number) for number in range(1, lines + 1))
    return (text + (newline if final_newline else "")).encode("utf-8")


def _workspace(tmp_path, log: bytes):
    root = tmp_path / "ws"
    shutil.copytree(REPO / "examples" / "ghost-in-shell", root)
    (root / "memory" / "episodic.jsonl").write_bytes(log)
    return root


def _report(cli, monkeypatch, root, jobs: str, piece_bytes: int | None, fmt: str = "json") -> str:
    """The check's report, the log in ranges of piece_bytes (None: whole), in `jobs` processes."""
    monkeypatch.setenv("MEMWARDEN_JOBS", jobs)
    monkeypatch.setattr(pieces, "SPLIT_MIN_BYTES", 1 if piece_bytes else 1 << 40)
    monkeypatch.setattr(pieces, "PIECE_BYTES", piece_bytes or 1 << 40)
    result = cli("check", "--no-cache", "--format", fmt, "--today", "2026-11-30", str(root), cwd=root)
    assert result.exit_code == 1, result
    return result.stdout


@pytest.mark.parametrize(
    "newline, final_newline", [("\n", True), ("\r\n", True), ("\n", False), ("\r\n", False)],
    ids=["lf", "crlf", "lf-no-final-newline", "crlf-no-final-newline"],
)
def test_ranges_report_what_the_whole_log_reports(cli, monkeypatch, tmp_path, newline, final_newline):
    root = _workspace(tmp_path, _log(7, 240, newline, final_newline))
    whole = _report(cli, monkeypatch, root, "1", None)
    findings = json.loads(whole)["findings"]
    names = {f["name"] for f in findings if f["path"].endswith("episodic.jsonl")}
    # Every planted kind of defect is found, so the comparison below compares something.
    assert {"negative-claim-without-expiry", "invalid-timestamp", "unnormalized-tags", "too-few-tags", "duplicate-id",
            "secret-in-memory", "personal-path", "unparsable-file", "malformed-jsonl", "duplicate-key",
            "schema-violation"} <= names
    assert SECRET not in whole
    if not final_newline:
        assert any("no newline at the end" in f["message"] for f in findings)
    checked = []
    check_piece = pieces.check_piece
    monkeypatch.setattr(pieces, "check_piece", lambda checker, rules, piece: checked.append(piece) or check_piece(checker, rules, piece))
    for piece_bytes in (301, 977, 4096):
        assert _report(cli, monkeypatch, root, "1", piece_bytes) == whole, piece_bytes
    assert len(checked) > 20  # the log was checked range by range
    assert _report(cli, monkeypatch, root, "2", 977) == whole
    assert _report(cli, monkeypatch, root, "2", 977, "text") == _report(cli, monkeypatch, root, "1", None, "text")


@pytest.mark.parametrize(
    "damage",
    [
        lambda log: b"\xef\xbb\xbf" + log,  # a BOM
        lambda log: log.replace(b"\n", b"\r", 1),  # one CR-only line end
        lambda log: log[:2000] + b"\xff\xfe broken" + log[2000:],  # bytes that do not decode
        lambda log: log[:1500] + b"\n\n\n" + log[1500:],  # blank lines where a range may end
    ],
    ids=["bom", "cr-only", "invalid-utf8", "blank-lines"],
)
def test_a_log_not_read_in_ranges_is_checked_whole_once(cli, monkeypatch, tmp_path, damage):
    root = _workspace(tmp_path, damage(_log(11, 120)))
    whole = _report(cli, monkeypatch, root, "1", None)
    assert json.loads(whole)["findings"]
    assert _report(cli, monkeypatch, root, "1", 500) == whole
    assert _report(cli, monkeypatch, root, "2", 500) == whole


def test_ranges_end_on_line_ends_and_cover_the_log(tmp_path, monkeypatch):
    root = _workspace(tmp_path, _log(3, 300, "\r\n"))
    log = (root / "memory" / "episodic.jsonl").read_bytes()
    from memwarden.discover.workspace import open_workspace

    ws = open_workspace(root, None)
    monkeypatch.setattr(pieces, "PIECE_BYTES", 1000)
    ranges = pieces.pieces(ws, "memory/episodic.jsonl", len(log), 2)
    assert len(ranges) > 10
    assert ranges[0].start == 0 and ranges[-1].end == len(log) and ranges[0].first
    for before, after in zip(ranges, ranges[1:]):
        assert before.end == after.start and log[after.start - 1 : after.start] == b"\n"
        assert not after.first
    # Each range's copy keeps every line ending, so lines and offsets are the log's own.
    content, first, last = pieces.masked_range(root / "memory" / "episodic.jsonl", ranges[3].start, ranges[3].end)
    assert content.count(b"\r\n") == log.count(b"\r\n")
    kept = log[ranges[3].start : ranges[3].end]
    assert last - first + 1 == kept.count(b"\r\n") and first == log[: ranges[3].start].count(b"\n") + 1
    assert kept in content and len(content) == len(kept) + 2 * (log.count(b"\r\n") - kept.count(b"\r\n"))


def test_chunks_hold_ranges_and_files(tmp_path):
    piece = pieces.Piece("memory/episodic.jsonl", 0, 5000, True)
    (tmp_path / "a.md").write_text("x" * 100)
    chunks = parallel.balanced_chunks(tmp_path, ["a.md", piece, pieces.Piece("memory/episodic.jsonl", 5000, 9000, False)], 2)
    assert sorted(len(c) for c in chunks) == [1, 2]
    assert [piece] in chunks


def test_the_cache_checks_a_big_log_that_missed_in_ranges(cli, monkeypatch, tmp_path):
    """With the incremental cache: a cold store checks the log range by range in the workers, a warm one
    reads it back, and an append re-checks one line; each report is the whole log's without the cache."""
    root = _workspace(tmp_path, _log(5, 200, "\r\n"))
    monkeypatch.setattr(pieces, "SPLIT_MIN_BYTES", 1)
    monkeypatch.setattr(pieces, "PIECE_BYTES", 700)
    monkeypatch.setenv("MEMWARDEN_JOBS", "2")

    def cached() -> str:
        result = cli("check", "--format", "json", "--today", "2026-11-30", str(root), cwd=root)
        assert result.exit_code == 1, result
        return result.stdout

    whole = _report(cli, monkeypatch, root, "1", None)
    monkeypatch.setattr(pieces, "SPLIT_MIN_BYTES", 1)
    monkeypatch.setattr(pieces, "PIECE_BYTES", 700)
    monkeypatch.setenv("MEMWARDEN_JOBS", "2")
    assert cached() == whole  # cold: every line missed
    assert (root / ".memwarden_cache").is_dir()
    assert cached() == whole  # warm
    with open(root / "memory" / "episodic.jsonl", "ab") as f:
        f.write(_log(99, 3, "\r\n"))
    again = _report(cli, monkeypatch, root, "1", None)
    assert again != whole
    monkeypatch.setattr(pieces, "SPLIT_MIN_BYTES", 1)
    monkeypatch.setattr(pieces, "PIECE_BYTES", 700)
    monkeypatch.setenv("MEMWARDEN_JOBS", "2")
    assert cached() == again

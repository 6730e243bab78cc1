"""Issue 24, round 3 of the guard: append-only holes, hangs, writes and terminal output.

Each test here failed on the build before its fix (see the commit that added it).
"""

from __future__ import annotations

import json

from conftest import git
from test_append_only import NOTE, OTHER_NOTE, gish, gish_files, staged, write  # noqa: F401 (gish is a fixture)
from test_history import commit

OTHER = "memory/knowledge/feedback/zero-may-mean-not-run.md"
KEPT = "memory/knowledge/feedback/verify-final-state.md"
NEW = "memory/knowledge/feedback/new-lesson.md"


def _without_index_line(root, target: str) -> None:
    text = (root / "MEMORY.md").read_text(encoding="utf-8")
    write(root, "MEMORY.md", "".join(l for l in text.splitlines(keepends=True) if target not in l))


# -- 13: a deleted note is not "moved" into a note that only shares its template ------------------


def test_a_deleted_note_is_not_paired_with_an_edited_note_sharing_its_front_matter(gish, cli):
    (gish / OTHER).unlink()
    _without_index_line(gish, "zero-may-mean-not-run")
    # the kept note, cut short: its front matter is now most of its lines, and most of the deleted note's
    write(gish, KEPT, NOTE.split("Before")[0] + "Read the result back.\n")
    code, findings, result = staged(cli, gish)
    names = sorted((f["name"], f["path"]) for f in findings)
    assert code == 1, result
    assert ("deleted-note", OTHER) in names
    assert ("deleted-record", "MEMORY.md") in names


def test_a_deleted_note_is_not_paired_with_a_new_note_from_the_same_template(gish, cli):
    (gish / OTHER).unlink()
    _without_index_line(gish, "zero-may-mean-not-run")
    template = OTHER_NOTE.split("Treat")[0].replace("zero-may-mean-not-run", "new-lesson")
    write(gish, NEW, template + "Something else entirely.\n")
    code, findings, _ = staged(cli, gish)
    assert code == 1 and ("deleted-note", OTHER) in [(f["name"], f["path"]) for f in findings]


def test_a_note_moved_with_its_body_is_still_a_move(gish, cli):
    text = (gish / OTHER).read_text(encoding="utf-8")
    (gish / OTHER).unlink()
    write(gish, NEW, text.replace("zero-may-mean-not-run", "new-lesson") + "One more line.\n")
    index = (gish / "MEMORY.md").read_text(encoding="utf-8")
    write(gish, "MEMORY.md", index.replace("feedback/zero-may-mean-not-run.md", "feedback/new-lesson.md"))
    code, findings, result = staged(cli, gish)
    assert (code, findings) == (0, []), result


def test_a_deleted_note_whose_body_was_merged_into_another_note_is_kept(gish, cli):
    body = OTHER_NOTE.split("---\n", 2)[2]
    (gish / OTHER).unlink()
    _without_index_line(gish, "zero-may-mean-not-run")
    write(gish, KEPT, NOTE + "\n" + body)
    code, findings, result = staged(cli, gish)
    assert [f for f in findings if f["name"] == "deleted-note"] == [], result


# -- 21: commit subjects never reach the terminal as escape sequences --------------------------------


def test_history_escapes_control_sequences_in_commit_subjects(git_repo, cli):
    root = git_repo(gish_files())
    git(root, "tag", "base")
    evil = "Tidy \x1b]0;pwned\x07 \x1b]52;c;ZWNobyBoaQ==\x07 \x9b31m done"
    commit(root, evil, {"memory/episodic.jsonl": ""})
    result = cli("history", "--base", "base", cwd=root)
    assert result.exit_code == 1
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout and "\x9b" not in result.stdout
    assert "Tidy \\x1b]0;pwned" in result.stdout
    data = json.loads(cli("history", "--base", "base", "--format", "json", cwd=root).stdout)
    subjects = [c["subject"] for c in data["workspaces"][0]["commits"]]
    assert all("\x1b" not in s and "\x9b" not in s for s in subjects)


# -- 19: a FIFO where a memory file is expected never blocks ------------------------------------------

import os  # noqa: E402

import pytest  # noqa: E402

from conftest import run_memwarden, write_files  # noqa: E402
from test_agent_hook import claude, project  # noqa: E402


@pytest.mark.parametrize("fifo", [".claude/memory/a.md", ".claude/memory/MEMORY.md", "notes/loose.md", "CLAUDE.md",
                                  ".memwarden.toml"])
def test_a_fifo_in_a_claude_code_folder_never_blocks_check(tmp_path, fifo):
    root = write_files(tmp_path / "proj", {
        ".claude/memory/MEMORY.md": "- [a](a.md) — what a is\n",
        ".claude/memory/a.md": "---\nname: a\ndescription: b\ntype: user\n---\nThe user likes tea.\n",
        "notes/ok.md": "fine\n", "CLAUDE.md": "# Rules\n",
    })
    os.unlink(root / fifo) if (root / fifo).exists() else None
    os.mkfifo(root / fifo)
    done = run_memwarden("check", "--no-cache", cwd=root)  # times out (a test failure) if anything blocks
    assert done.returncode in (0, 1, 2) and b"Traceback" not in done.stderr


@pytest.mark.parametrize("fifo", ["MEMORY.md", "memory/knowledge/projects/export-limits.md"])
def test_a_fifo_where_the_agent_writes_never_blocks_the_hook(tmp_path, fifo):
    root = project(tmp_path)
    os.unlink(root / fifo)
    os.mkfifo(root / fifo)
    for event in ("PreToolUse", "PostToolUse"):
        done = claude(root, event, "Edit", {"file_path": str(root / fifo), "old_string": "a", "new_string": "b"})
        assert b"Traceback" not in done.stderr


# -- 20: --fix keeps the file's owner and mode, and never writes a read-only file ---------------------

LOG_NEEDING_A_FIX = '{"ts": "2026-01-01T00:00:00Z", "type": "decision", "summary": "a", "tags": ["x", "y"]}\n\n'


def _three_layer(tmp_path):
    return write_files(tmp_path / "proj", {
        "memory/fact.yml": "user:\n  name: A\n",
        "memory/episodic.jsonl": LOG_NEEDING_A_FIX,
    })


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_a_fix_run_as_root_keeps_the_owner_and_mode_of_the_file(tmp_path):
    root = _three_layer(tmp_path)
    log_path = root / "memory" / "episodic.jsonl"
    os.chown(log_path, 4321, 4322)
    os.chmod(log_path, 0o640)
    done = run_memwarden("check", "--fix", "--no-cache", "--select", "malformed-jsonl", cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    info = os.stat(log_path)
    assert log_path.read_bytes() == LOG_NEEDING_A_FIX[:-1].encode()  # the blank line is gone: it was fixed
    assert (info.st_uid, info.st_gid, info.st_mode & 0o7777) == (4321, 4322, 0o640)


def test_a_read_only_file_is_never_replaced_by_a_fix(tmp_path):
    root = _three_layer(tmp_path)
    log_path = root / "memory" / "episodic.jsonl"
    os.chmod(log_path, 0o444)
    done = run_memwarden("check", "--fix", "--no-cache", "--select", "malformed-jsonl", cwd=root)
    assert done.returncode == 2 and b"Traceback" not in done.stderr
    assert b"read-only" in done.stderr and b"no file was changed" in done.stderr
    assert log_path.read_bytes() == LOG_NEEDING_A_FIX.encode()
    assert os.stat(log_path).st_mode & 0o777 == 0o444
    assert [p.name for p in log_path.parent.iterdir() if "memwarden-tmp" in p.name] == []


# -- 17: a config glob never backtracks ------------------------------------------------------------

import re  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from memwarden.discover.globs import compile_glob  # noqa: E402


def _regex_of(pattern: str) -> re.Pattern:
    """The glob as a regular expression: the old translation, kept as the oracle on short inputs."""
    pattern = pattern.strip()
    while pattern.startswith("./"):
        pattern = pattern[2:]
    if "/" not in pattern:
        pattern = "**/" + pattern
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:[^/]+/)*"); i += 3
        elif pattern.startswith("**", i):
            out.append(".*"); i += 2
        elif pattern[i] == "*":
            out.append("[^/]*"); i += 1
        elif pattern[i] == "?":
            out.append("[^/]"); i += 1
        elif pattern[i] == "[" and pattern.find("]", i + 1) != -1:
            close = pattern.find("]", i + 1)
            body = pattern[i + 1:close].replace("\\", "\\\\")
            out.append("[" + ("^" + body[1:] if body.startswith("!") else body) + "]"); i = close + 1
        else:
            out.append(re.escape(pattern[i])); i += 1
    return re.compile("".join(out) + (".*" if pattern.endswith("/") else "") + r"\Z")


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "/", "*", "**", "**/", "?", "[ab]", "[!a]", ".", "./", "md"]),
                min_size=1, max_size=6).map("".join),
       st.text(alphabet="ab/.m", max_size=8))
def test_glob_matching_agrees_with_the_regular_expression_it_replaces(pattern, path):
    glob, expected = compile_glob(pattern), bool(_regex_of(pattern).match(path))
    assert glob.match(path) == expected and glob.walk(path) == expected


@pytest.mark.parametrize("glob", ["**/" * 18 + "x.md", "*a" * 14 + "b", "?*" * 30 + "z"])
def test_a_config_glob_made_to_backtrack_does_not_hang_check(tmp_path, glob):
    deep = "/".join(["a" * 6] * 18)
    root = write_files(tmp_path / "proj", {
        ".memwarden.toml": f"exclude = [{glob!r}]\n",
        "memory/fact.yml": "user:\n  name: A\n",
        f"memory/{deep}/{'a' * 60}.md": "fine\n",
    })
    done = run_memwarden("check", "--no-cache", cwd=root)  # the old matcher ran for hours here
    assert done.returncode in (0, 1), done.stderr


# -- 16 and 22: the shelving fix is built in linear time, and applied wherever the entries are ------

LESSON = "---\nname: lesson-{n}\ndescription: lesson {n}\nmetadata:\n  type: feedback\n  updated: 2026-10-01\n---\n\nBody {n}.\n"


def _gish_with_index(tmp_path, lines: list[str], max_chars: int = 600, edge: int = 800):
    files = {
        ".gish/config.yml": f"index:\n  max_chars: {max_chars}\n  truncate_edge_chars: {edge}\n",
        "MEMORY.md": "\n".join(lines) + "\n",
        "memory/knowledge/INDEX_tools.md": "# Tools\n",
    }
    files.update({f"memory/knowledge/feedback/lesson-{n}.md": LESSON.format(n=n) for n in range(5)})
    return write_files(tmp_path / "proj", files)


def _entry(n: int) -> str:
    return f'- "The tool said success number {n}, so it is done" → [lesson {n}](memory/knowledge/feedback/lesson-{n % 5}.md)'


SHELVES_LAST = ["# Memory Index", "", "## Shelves", "", '- "Which flags does the deploy take" → [tools shelf](memory/knowledge/INDEX_tools.md)']


def test_the_shelving_fix_applies_when_the_overflow_comes_after_the_shelves_entry(tmp_path):
    root = _gish_with_index(tmp_path, SHELVES_LAST + [_entry(n) for n in range(20)])
    budget_rules = "index-past-truncation,index-over-budget"
    before = run_memwarden("check", "--no-cache", "--select", budget_rules, "--format", "json", cwd=root)
    (finding,) = json.loads(before.stdout)["findings"]
    assert finding["fix"]["applicability"] == "unsafe"  # advertised ...
    done = run_memwarden("check", "--no-cache", "--select", budget_rules, "--fix", "--unsafe-fixes", cwd=root)
    assert done.returncode == 0, done.stdout  # ... and applied
    index = (root / "MEMORY.md").read_text(encoding="utf-8")
    shelf = (root / "memory/knowledge/INDEX_overflow.md").read_text(encoding="utf-8")
    assert "[overflow shelf](memory/knowledge/INDEX_overflow.md)" in index
    for n in range(20):  # no entry dropped: each is in the index or on the shelf
        assert f"success number {n}," in index + shelf


def test_a_ten_thousand_entry_index_is_checked_in_seconds_not_minutes(tmp_path):
    root = _gish_with_index(tmp_path, ["# Memory Index", ""] + [_entry(n) for n in range(20000)])
    done = run_memwarden("check", "--no-cache", "--select", "index-past-truncation", "--format", "json", cwd=root)
    (finding,) = json.loads(done.stdout)["findings"]  # the old plan re-measured the index once per entry: hours
    assert finding["name"] == "index-past-truncation" and finding["fix"]["applicability"] == "unsafe"


# -- 15: fixes of one file are chosen in n log n, not n squared --------------------------------------

from memwarden.fixes.apply import TakenSpans, any_overlap, overlaps  # noqa: E402

_spans = st.lists(st.tuples(st.integers(0, 40), st.integers(0, 6)).map(lambda t: (t[0], t[0] + t[1])), max_size=25)


@settings(max_examples=500, deadline=None)
@given(_spans)
def test_taken_spans_answer_as_a_look_at_every_span_would(spans):
    taken, kept = TakenSpans(), []
    for span in spans:
        expected = any(overlaps(span, other) for other in kept)
        assert taken.collides(span) == expected
        if not expected:
            taken.add(span)
            kept.append(span)
    assert any_overlap(spans) == any(overlaps(a, b) for i, a in enumerate(spans) for b in spans[i + 1:])


def test_a_fix_on_each_of_twenty_thousand_episodes_is_shown_and_applied(tmp_path):
    record = '{"ts": "2026-01-01T00:00:00Z", "type": "decision", "summary": "s%d", "tags": ["Alpha", "beta"]}\n'
    root = write_files(tmp_path / "proj", {
        "memory/fact.yml": "user:\n  name: A\n",
        "memory/episodic.jsonl": "".join(record % n for n in range(20000)),
    })
    shown = run_memwarden("check", "--no-cache", "--select", "unnormalized-tags", "--diff", cwd=root)
    assert b"Would fix 20000 problems" in shown.stderr  # the old pairwise check took minutes here
    done = run_memwarden("check", "--no-cache", "--select", "unnormalized-tags", "--fix", cwd=root)
    assert done.returncode == 0, done.stdout[-500:]
    assert (root / "memory/episodic.jsonl").read_text().count('"alpha"') == 20000


# -- 18: a long line of token-like text costs time in proportion to its length ------------------------

import random as _random  # noqa: E402
import string as _string  # noqa: E402


def _token_line(count: int) -> str:
    rng = _random.Random(1)
    alphabet = _string.ascii_letters + _string.digits + "_-"
    return " ".join("".join(rng.choice(alphabet) for _ in range(40)) for _ in range(count))


class _Counting:
    """A compiled pattern that counts the characters it is asked to search."""

    def __init__(self, pattern):
        self.pattern, self.searched = pattern, 0

    def search(self, text, *args):
        self.searched += len(text)
        return self.pattern.search(text, *args)


def test_each_line_is_searched_once_for_an_allow_marker_however_many_tokens_it_holds(monkeypatch, tmp_path, cli):
    from memwarden.analysis.secrets import patterns

    line = _token_line(600)
    root = write_files(tmp_path / "proj", {
        ".claude/memory/MEMORY.md": "- [a](a.md) — a\n",
        ".claude/memory/a.md": "---\nname: a\ndescription: b\ntype: user\n---\n" + line + "\n",
    })
    counting = _Counting(patterns.ALLOW_MARKER)
    monkeypatch.setattr(patterns, "ALLOW_MARKER", counting)
    result = cli("check", "--no-cache", "--select", "secret-in-memory", "--format", "json", cwd=root)
    assert len(result.json()["findings"]) > 100  # many tokens on the one line ...
    assert counting.searched < 3 * len(line)  # ... and the line searched about once, not once a token


def test_a_note_with_many_findings_is_read_once_for_its_suppressions(monkeypatch, tmp_path, cli):
    from memwarden.engine import run

    calls = []
    real = run._may_have_directives
    monkeypatch.setattr(run, "_may_have_directives", lambda raw: calls.append(1) or real(raw))
    root = write_files(tmp_path / "proj", {
        ".claude/memory/MEMORY.md": "- [a](a.md) — a\n",
        ".claude/memory/a.md": "---\nname: a\ndescription: b\ntype: user\n---\n" + _token_line(300) + "\n",
    })
    result = cli("check", "--no-cache", "--select", "secret-in-memory", "--format", "json", cwd=root)
    assert len(result.json()["findings"]) > 100
    assert len(calls) <= 3  # once a file, not once a finding (each call decodes the whole file)


# -- 14: a log tracked in Git LFS is compared by its content, never by its pointer -------------------

import shutil  # noqa: E402

from test_append_only import episode, log  # noqa: E402

# CI installs git-lfs (.ci/run) and must run these; a developer without it skips them.
needs_git_lfs = pytest.mark.skipif(shutil.which("git-lfs") is None and not os.environ.get("CI"),
                                   reason="git-lfs is not installed (.ci/run installs it)")


def _lfs_repo(git_repo):
    root = git_repo({".gitattributes": "memory/episodic.jsonl filter=lfs diff=lfs merge=lfs -text\n"})
    git(root, "lfs", "install", "--local")
    files = gish_files()
    files[".gitattributes"] = "memory/episodic.jsonl filter=lfs diff=lfs merge=lfs -text\n"
    write_files(root, files)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "memory in LFS")
    assert git(root, "cat-file", "-p", "HEAD:memory/episodic.jsonl").startswith("version https://git-lfs")
    return root


@needs_git_lfs
def test_a_deletion_from_a_log_in_git_lfs_fails_staged_and_history(git_repo, cli):
    root = _lfs_repo(git_repo)
    git(root, "tag", "base")
    write(root, "memory/episodic.jsonl", log(episode(1), episode(3)))
    code, findings, result = staged(cli, root)
    assert code == 1, result
    assert [(f["name"], f["line"]) for f in findings] == [("deleted-record", 2)]
    git(root, "commit", "-q", "-m", "drop ep 2")
    result = cli("history", "--base", "base", cwd=root)
    assert result.exit_code == 1 and "ep_00000002" in result.stdout


@needs_git_lfs
def test_a_log_in_git_lfs_whose_content_this_clone_lacks_is_refused_clearly(git_repo, cli):
    root = _lfs_repo(git_repo)
    shutil.rmtree(root / ".git" / "lfs" / "objects")
    write(root, "memory/episodic.jsonl", log(episode(1), episode(3)))
    code, findings, result = staged(cli, root)
    assert code == 2 and "Git LFS" in result.stderr and "git lfs pull" in result.stderr
    assert "Traceback" not in result.stderr


@needs_git_lfs
def test_a_log_in_git_lfs_over_the_size_limit_is_refused_without_reading_it(git_repo, cli):
    from memwarden.fileio import MAX_FILE_BYTES

    root = _lfs_repo(git_repo)
    size = MAX_FILE_BYTES + 1
    oid = "ab" * 32
    pointer = f"version https://git-lfs.github.com/spec/v1\noid sha256:{oid}\nsize {size}\n"
    store = root / ".git" / "lfs" / "objects" / oid[:2] / oid[2:4]
    store.mkdir(parents=True)
    with open(store / oid, "wb") as sparse:  # a sparse file: 64 MiB that cost no disk
        sparse.truncate(size)
    (root / "pointer").write_text(pointer)
    blob = git(root, "hash-object", "-w", "--no-filters", "pointer").strip()
    (root / "pointer").unlink()
    git(root, "update-index", "--cacheinfo", f"100644,{blob},memory/episodic.jsonl")
    git(root, "commit", "-q", "-m", "a pointer to a huge log")
    write(root, "memory/episodic.jsonl", log(episode(1)))
    code, findings, result = staged(cli, root)
    assert code == 2 and "over the" in result.stderr and "Git LFS" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


# -- 18 (cont.): dated statements are looked for only around a year ----------------------------------


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([
    "verified 2026-03-31", "as of March 2026", "review by 2026-06-01", "截至 2026-03", "2026年3月末時点",
    "2026-04-01 기준", "as of 2026-03-01 the repo was renamed", "valid until 2027-01-01", "x" * 150, " ", "\n",
    "tokens aB3xK9Qw7Lp2Zt5Rv8", "1234", "checked on", "  ", "the tool", "2026",
]), max_size=30).map("".join))
def test_dated_statements_around_years_are_those_of_the_whole_text(text):
    from memwarden.analysis import expiry

    windowed = [(d.start, d.end) for d in expiry.dated_statements(text)]
    whole = []
    if expiry._YEAR.search(text):
        for pattern, deadline in ((expiry._SNAPSHOT, False), (expiry._DEADLINE, True)):
            for match in pattern.finditer(text):
                if not deadline and match.group().lower().startswith("as of") and expiry._CHANGE_AFTER.match(text, match.end()):
                    continue
                if not deadline and expiry._PINNED_AFTER.match(text, match.end()):
                    continue
                value = next(v for v in match.groupdict().values() if v is not None)
                if expiry._text_date(value, deadline) is not None:
                    whole.append((match.start(), match.end()))
    assert windowed == sorted(whole)

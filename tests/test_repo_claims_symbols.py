"""Symbols memory names, checked against the tracked code and its history (issue 27, part 1): removed-symbol (MW415)."""

from __future__ import annotations

from conftest import write_files
from repo_claims_support import commit_all, findings

from memwarden.analysis.repo_claims.mentions import Scan, symbol_mentions


def test_a_function_a_commit_removed_is_reported_with_that_commit(git_repo, cli):
    root = git_repo({"src/auth.ts": "export function validateSession(t) { return t }\n",
                     "src/db.py": "def open_pool_connection():\n    pass\n"})
    write_files(root, {"src/auth.ts": "export function verifyToken(t) { return t }\n"})
    sha = commit_all(root, "Replace sessions with tokens")
    write_files(root, {"CLAUDE.md": "Auth goes through `validateSession()`; the pool is `open_pool_connection()`.\n",
                       "docs/auth.md": "Legacy notes: validateSession is documented here.\n"})
    commit_all(root, "Memory")
    assert [(f["line"], f["column"], f["message"]) for f in findings(cli, root, "MW415")] == [
        (1, 20, f"'validateSession' is in no tracked code file any more: commit {sha} (Replace sessions with tokens) "
                "removed it; the note may describe code that is gone")]


def test_names_the_code_never_held_or_too_common_to_decide_are_not_findings(git_repo, cli):
    root = git_repo({"app.py": "def main():\n    run()\n"})
    write_files(root, {"CLAUDE.md": "Use `useEffectEvent()` from React, `main()`, `run()`, `Config`, `HttpRequestHandler`.\n"})
    assert findings(cli, root, "MW415") == []


def test_which_inline_code_names_a_symbol_specifically():
    text = "`validateSession()` `auth.check_token()` `AuthSessionManager` `run()` `Config` `getX()` `a b()`\n"
    assert [m.value for m in symbol_mentions(Scan(text, 0))] == ["validateSession", "check_token", "AuthSessionManager"]


def test_the_history_is_read_once_for_every_file_and_workspace_of_a_run(git_repo, cli):
    from memwarden.analysis.repo_claims import history

    root = git_repo({"lib/a.py": "def load_user_profile():\n    pass\n\ndef save_user_profile():\n    pass\n"})
    write_files(root, {"lib/a.py": "x = 1\n"})
    sha = commit_all(root, "Drop profiles")
    write_files(root, {"AGENTS.md": "Load with `load_user_profile()`.\n", "CLAUDE.md": "Save with `save_user_profile()`.\n"})
    calls = []
    original = history.Repo.line_removals
    history.Repo.line_removals = lambda self, words, *rest: calls.append(sorted(words)) or original(self, words, *rest)
    try:
        result = findings(cli, root, "MW415")
    finally:
        history.Repo.line_removals = original
    assert sorted(f["path"] for f in result) == ["AGENTS.md", "CLAUDE.md"] and sha in result[0]["message"]
    assert calls == [["load_user_profile", "save_user_profile"]]


def test_an_unreadable_older_file_version_leaves_the_newer_removals_found(git_repo, cli):
    # git log -G reads every changed file's versions, newest commit first, and stops at one it cannot read
    # (a damaged clone, one fetched with a blob filter): what it read before that is still the history.
    from conftest import git

    root = git_repo({"src/auth.ts": "export function validateSession(t) { return t }\n", "src/db.py": "d = 1\n"})
    old_blob = git(root, "rev-parse", "HEAD:src/db.py").strip()
    write_files(root, {"src/db.py": "d = 2\n"})
    commit_all(root, "Resize the pool")
    write_files(root, {"src/auth.ts": "export function verifyToken(t) { return t }\n"})
    sha = commit_all(root, "Replace sessions with tokens")
    (root / ".git" / "objects" / old_blob[:2] / old_blob[2:]).unlink()
    write_files(root, {"CLAUDE.md": "Auth goes through `validateSession()`.\n"})
    assert [f["message"] for f in findings(cli, root, "MW415")] == [
        f"'validateSession' is in no tracked code file any more: commit {sha} (Replace sessions with tokens) "
        "removed it; the note may describe code that is gone"]


def test_a_symbol_the_memory_forbids_is_no_claim_that_the_code_has_it(git_repo, cli):
    root = git_repo({"lib/cache.ts": "import { unstable_cache } from 'next/cache'\nexport const c = unstable_cache(f)\n",
                     "lib/auth.ts": "export function validateSession(t) { return t }\n"})
    write_files(root, {"lib/cache.ts": "export const c = 1\n", "lib/auth.ts": "export const a = 1\n"})
    commit_all(root, "Drop the cache and sessions")
    write_files(root, {"AGENTS.md": "- Do not use Next.js `unstable_cache()`.\n- Auth goes through `validateSession()`.\n"})
    assert [f["message"].split("'")[1] for f in findings(cli, root, "MW415")] == ["validateSession"]


def test_a_name_the_code_only_called_never_defined_is_a_librarys(git_repo, cli):
    # The last call of a browser API going away says nothing of a guide that names it; a function the
    # project defined and deleted is reported with the commit that deleted its definition.
    root = git_repo({"src/layout.ts": "export function measure(el) {\n  return getComputedStyle(el).width\n}\n",
                     "src/chat.ts": "const flushTokens = () => {\n  render()\n}\nflushTokens()\n"})
    write_files(root, {"src/layout.ts": "export function measure(el) {\n  return el.offsetWidth\n}\n",
                       "src/chat.ts": "render()\n"})
    sha = commit_all(root, "Measure without styles, render directly")
    write_files(root, {"CLAUDE.md": "Avoid reading `getComputedStyle()` between writes.\nTokens go through `flushTokens()`.\n"})
    assert [(f["line"], f["message"].split("'")[1], sha in f["message"]) for f in findings(cli, root, "MW415")] == [
        (2, "flushTokens", True)]


def test_which_removed_lines_define_a_name():
    from memwarden.analysis.repo_claims.definitions import Definitions

    defines = Definitions(["flushTokens", "jit_compile", "getComputedStyle"])
    assert defines(b"-  const flushTokens = useCallback(() => {", "flushTokens")
    assert defines(b"-  async flushTokens(): Promise<void> {", "flushTokens")
    assert defines(b"-static int jit_compile(PyObject *x)", "jit_compile")
    assert not defines(b"-  flushTokens();", "flushTokens")
    assert not defines(b"-    return getComputedStyle(el)", "getComputedStyle")
    assert not defines(b"-    getComputedStyle(el)", "getComputedStyle")
    assert not defines(b"-import { getComputedStyle } from './dom'", "getComputedStyle")
    assert not defines(b"-def other():", "not-an-identifier")


def test_a_note_that_is_not_utf8_is_reported_and_breaks_no_rule_that_reads_every_note(git_repo, cli):
    # An OpenClaw daily note saved in Latin-1 beside UTF-8 ones: the rules that summarise every note of a kind
    # (removed-symbol asks each for the names it mentions) once read it and stopped the whole run with a traceback.
    root = git_repo({"src/auth.ts": "export function validateSession(t) { return t }\n"})
    write_files(root, {"src/auth.ts": "export function verifyToken(t) { return t }\n"})
    commit_all(root, "Replace sessions with tokens")
    write_files(root, {"SOUL.md": "# Soul\n\nBe useful.\n",
                       "memory/2026-03-13.md": "# 13\n\nAuth goes through `validateSession()`.\n"})
    (root / "memory/2026-03-14.md").write_bytes("# 14\n\nCaf\u00e9 opened at 9.\n".encode("latin-1"))
    commit_all(root, "Memory")
    result = cli("check", str(root), "--preview", "--format", "json", "--no-cache", cwd=root)
    assert result.exit_code == 1, result
    found = {(f["path"], f["name"]) for f in result.json()["findings"]}
    assert ("memory/2026-03-14.md", "unparsable-file") in found
    assert ("memory/2026-03-13.md", "removed-symbol") in found


def test_documentation_is_never_diffed_when_the_history_is_searched_for_code(git_repo, cli):
    # Diffs are the walk's cost, and in a memory-keeping repository most of the history is notes: only code files
    # are diffed. Seen from outside: a note's old version that cannot be read (a blob-filtered clone) no longer
    # stops the walk before the code removal behind it.
    from conftest import git

    root = git_repo({"src/auth.ts": "export function validateSession(t) { return t }\n", "docs/GUIDE.MD": "v1\n"})
    write_files(root, {"src/auth.ts": "export function verifyToken(t) { return t }\n"})
    sha = commit_all(root, "Replace sessions with tokens")
    old_note = git(root, "rev-parse", "HEAD:docs/GUIDE.MD").strip()
    write_files(root, {"docs/GUIDE.MD": "v2\n"})
    commit_all(root, "Reword the guide")
    (root / ".git" / "objects" / old_note[:2] / old_note[2:]).unlink()
    write_files(root, {"CLAUDE.md": "Auth goes through `validateSession()`.\n"})
    assert [f["message"] for f in findings(cli, root, "MW415")] == [
        f"'validateSession' is in no tracked code file any more: commit {sha} (Replace sessions with tokens) "
        "removed it; the note may describe code that is gone"]


def test_the_history_reader_loads_only_when_a_history_rule_runs(git_repo):
    # The pre-commit hook runs the stable rules on every commit: git's history reader is no part of its start-up.
    import subprocess
    import sys

    root = git_repo({"src/auth.ts": "export function verifyToken(t) { return t }\n",
                     "CLAUDE.md": "Auth goes through `validateSession()`.\n"})
    probe = (
        "import sys\nfrom memwarden.cli.main import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        "print('LOADED' if 'memwarden.analysis.repo_claims.history' in sys.modules else 'NOT LOADED', file=sys.stderr)\n"
    )
    for select, expected in (("broken-index-link,leftover-bootstrap", "NOT LOADED"), ("removed-symbol", "LOADED")):
        done = subprocess.run([sys.executable, "-c", probe, "check", ".", "--no-cache", "--select", select], cwd=root,
                              capture_output=True, text=True)
        assert done.stderr.strip().endswith(expected), done.stderr

"""Change-based staleness (issue 27, part 2): changed-since-note (MW416) names the commits after a note's last
change that touched the paths it is about."""

from __future__ import annotations

from conftest import git, write_files
from repo_claims_support import commit_all, findings

GISH = {".gish/config.yml": "index: {}\n"}
NOTE = "memory/knowledge/references/auth.md"


def note(body: str, front: str = "") -> str:
    return (f"---\nname: auth\ndescription: how auth works\nmetadata:\n  type: reference\n  updated: 2026-10-01\n{front}"
            f"---\n\n{body}")


def messages(cli, root):
    return [f["message"] for f in findings(cli, root, "MW416") if f["path"].endswith("auth.md")]


def test_commits_after_the_note_that_touched_its_scope_are_named(git_repo, cli):
    root = git_repo({**GISH, "src/auth/session.py": "s = 1\n", "docs/x.md": "x\n",
                     NOTE: note("Sessions are refreshed by the middleware.\n", "scope: src/auth/**\n")})
    assert messages(cli, root) == []
    write_files(root, {"src/auth/session.py": "s = 2\n"})
    first = commit_all(root, "Refresh in the handler")
    write_files(root, {"docs/x.md": "y\n"})
    commit_all(root, "Docs")
    write_files(root, {"src/auth/token.py": "t = 1\n"})
    second = commit_all(root, "Add tokens")
    assert messages(cli, root) == [
        f"2 commits since this note last changed touched 'src/auth/**' ({second} Add tokens, {first} Refresh in the "
        "handler): check that it still holds, then touch the note"]
    write_files(root, {NOTE: note("Sessions are refreshed by the handler.\n", "scope: src/auth/**\n")})
    assert messages(cli, root) == []  # being edited: not yet
    commit_all(root, "Re-verify the auth note")
    assert messages(cli, root) == []


def test_paths_the_note_names_stand_in_for_a_scope_and_merges_count_as_their_branch(git_repo, cli):
    root = git_repo({**GISH, "src/db.py": "d = 1\n", NOTE: note("The pool lives in `src/db.py`.\n")})
    git(root, "checkout", "-q", "-b", "pool")
    write_files(root, {"src/db.py": "d = 2\n"})
    commit_all(root, "Resize the pool")
    git(root, "checkout", "-q", "main")
    write_files(root, {"README.md": "r\n"})
    commit_all(root, "Readme")
    git(root, "merge", "-q", "--no-ff", "-m", "Merge pool", "pool")
    merge = git(root, "rev-parse", "HEAD").strip()[:7]
    assert messages(cli, root) == [
        f"1 commit since this note last changed touched 'src/db.py' ({merge} Merge pool): check that it still holds, "
        "then touch the note"]


def test_the_message_names_the_files_the_commits_changed_not_every_file_the_note_names(git_repo, cli):
    files = {"lib/mixer.py": "m = 1\n", "lib/oven.py": "o = 1\n", "lib/shelf.py": "s = 1\n", "web/menu.html": "<p>\n"}
    text = "Dough: `lib/mixer.py`, `lib/oven.py`, `lib/shelf.py`; the page is `web/menu.html`.\n"
    root = git_repo({**GISH, **files, NOTE: note(text)})
    write_files(root, {"web/menu.html": "<p>rye\n"})
    sha = commit_all(root, "Add rye to the menu")
    assert messages(cli, root) == [
        f"1 commit since this note last changed touched 'web/menu.html' ({sha} Add rye to the menu): check that it "
        "still holds, then touch the note"]


def test_a_shallow_clone_reports_nothing(git_repo, cli, tmp_path):
    origin = git_repo({**GISH, "src/db.py": "d = 1\n", NOTE: note("Pool: `src/db.py`.\n")}, name="origin")
    write_files(origin, {"src/db.py": "d = 2\n"})
    commit_all(origin, "Change the pool")
    assert len(messages(cli, origin)) == 1
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{origin}", "shallow")
    assert messages(cli, tmp_path / "shallow") == []


def test_scope_is_read_at_the_top_or_under_metadata_as_a_path_or_a_list():
    from memwarden.analysis.repo_claims.staleness import covers, scope_patterns

    assert scope_patterns({"scope": "./src/auth/"}) == ("src/auth/",)
    assert scope_patterns({"metadata": {"scope": ["/lib/*.py", "", 3, "docs"]}}) == ("lib/*.py", "docs")
    assert scope_patterns({"scope": {"paths": "x"}}) == ()
    assert covers("src/auth/", "src/auth/a.py") and not covers("src/auth", "src/authz.py")
    assert covers("lib/*.py", "lib/a.py") and not covers("lib/*.py", "lib/sub/a.py")


def test_a_note_that_records_what_happened_is_not_asked_to_be_rechecked(git_repo, cli):
    # Dated log entries, daily notes, lessons learned, a note that calls itself historical or superseded, and a
    # note of how the user likes to work stay true as records when the code they name changes later.
    folder = "memory/knowledge/references"
    records = {
        "build-lock.md": note("2026-05-30: a build died; fixed with a lock in `src/build.py`.\n"),
        "2026-05-06.md": note("Refreshed the docs for `src/build.py`.\n"),
        "refresh_2026_05_09.md": note("The doc pass covered `src/build.py`.\n"),
        "build-lessons.md": note("# Lessons learned\n\nA lock in `src/build.py` keeps two builds apart.\n"),
        "render.md": note("# Rendering analysis (2026-02-07) — HISTORICAL\n\nThe typewriter in `src/build.py`.\n"),
        "tkinter.md": note("## SUPERSEDED 2026-05-20 — tkinter removed\n\nBundled Tcl/Tk in `src/build.py`.\n"),
        "bump.md": note("Also bump the version in `src/build.py` on a release.\n").replace(
            "type: reference", "type: feedback"),
    }
    current = {"map.md": note("# Build review (2026-02-07)\n\n- `src/build.py` -- the build, 300 lines\n"),
               "scoped.md": note("2026-05-30: a lock.\n", "scope: src/build.py\n")}
    root = git_repo({**GISH, "src/build.py": "b = 1\n",
                     **{f"{folder}/{name}": text for name, text in {**records, **current}.items()}})
    write_files(root, {"src/build.py": "b = 2\n"})
    commit_all(root, "Rework the build")
    reported = {f["path"].rsplit("/", 1)[-1] for f in findings(cli, root, "MW416")}
    assert reported == {"map.md", "scoped.md"}  # a review of the code as it is, and a scope its owner set


def test_a_folder_the_note_names_is_a_place_not_its_subject_unless_the_scope_says_so(git_repo, cli):
    folder = "memory/knowledge/references"
    root = git_repo({**GISH, "src/api/routes.py": "r = 1\n", "src/api/auth.py": "a = 1\n",
                     f"{folder}/place.md": note("Endpoints live under `src/api/`.\n"),
                     f"{folder}/file.md": note("Routing is in `src/api/routes.py`.\n"),
                     f"{folder}/scoped.md": note("Endpoints live under `src/api/`.\n", "scope: src/api/\n")})
    write_files(root, {"src/api/routes.py": "r = 2\n"})
    commit_all(root, "Add a route")
    reported = {f["path"].rsplit("/", 1)[-1] for f in findings(cli, root, "MW416")}
    assert reported == {"file.md", "scoped.md"}


def test_what_makes_a_note_a_record_of_the_past():
    from memwarden.analysis.repo_claims.staleness import is_record

    assert is_record("m/2026-05-06.md", {}, "Notes.\n")
    assert is_record("m/x.md", {"metadata": {"type": "user"}}, "Prefers short answers.\n")
    assert is_record("m/x.md", {}, "# Auth\n\nOn 2026-05-06 we moved auth to `src/auth/`.\n")
    assert is_record("m/x.md", {}, "# Build post-mortem\n\nThe lock.\n")
    assert not is_record("m/x.md", {}, "# Changelog conventions\n\nEntries go in `CHANGELOG.md`.\n")
    # A date that says when the note was last checked marks it current, not past.
    assert not is_record("m/x.md", {}, "Last verified 2026-05-06: auth is in `src/a.py`.\n")
    assert not is_record("m/x.md", {}, "*Updated 2026-05-06.* Auth is in `src/a.py`.\n")
    assert not is_record("m/x.md", {}, "As of 2026-05-06, auth is in `src/a.py`.\n")
    assert not is_record("m/x.md", {"type": "project"}, "```\n2026-05-06 a log line in a block\n```\nAuth is in `src/a.py`; "
                         "it has been so since the rewrite in the spring of 2026, written up in many notes, "
                         "reviews and plans before it, and checked again by hand many times, 2026-05-06.\n")

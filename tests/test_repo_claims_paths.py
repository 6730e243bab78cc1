"""Memory that names repository paths, checked against the history (issue 27, part 1): deleted-repo-path (MW412)."""

from __future__ import annotations

from conftest import git, write_files
from repo_claims_support import commit_all, findings

from memwarden.git import Repo


def found(cli, root, select="MW412"):
    return sorted((f["path"], f["line"], f["message"]) for f in findings(cli, root, select))


def test_history_reader_indexes_renames_and_deletions_in_one_call(git_repo):
    root = git_repo({"a/one.py": "one = 1\n", "a/two.py": "two = 2\n", "keep.txt": "k\n"})
    (root / "b").mkdir()
    git(root, "mv", "a/one.py", "b/one.py")
    git(root, "rm", "-q", "a/two.py")
    sha = commit_all(root, "Move one, drop two")
    removals = Repo.discover(root).removals()
    assert removals["a/one.py"].renamed_to == "b/one.py" and removals["a/one.py"].short == sha
    assert removals["a/two.py"].renamed_to is None and removals["a/two.py"].subject == "Move one, drop two"
    assert "keep.txt" not in removals


def test_a_renamed_folder_is_reported_with_its_commit_and_fixed_to_the_new_path(git_repo, cli):
    root = git_repo({"src/ui/button.tsx": "export const b = 1\n", "src/ui/menu.tsx": "export const m = 1\n"})
    git(root, "mv", "src/ui", "src/components")
    sha = commit_all(root, "Move UI into components")
    write_files(root, {"CLAUDE.md": "# Project\n\nComponents live in `src/ui/`.\n"})
    assert found(cli, root) == [("CLAUDE.md", 3, f"'src/ui/' is no longer in the repository: commit {sha} "
                                 "(Move UI into components) renamed it to 'src/components/'")]
    assert "1 more fixable with --fix --unsafe-fixes" in cli("check", str(root), "--select", "MW412", "--fix",
                                                           "--no-cache", cwd=root).stdout
    assert (root / "CLAUDE.md").read_text() == "# Project\n\nComponents live in `src/ui/`.\n"  # unsafe: not by --fix
    assert cli("check", str(root), "--select", "MW412", "--fix", "--unsafe-fixes", "--no-cache", cwd=root).exit_code == 0
    assert (root / "CLAUDE.md").read_text() == "# Project\n\nComponents live in `src/components/`.\n"
    assert found(cli, root) == []


def test_a_deleted_file_is_reported_with_the_commit_that_deleted_it_and_no_fix(git_repo, cli):
    root = git_repo({"scripts/deploy.sh": "echo deploy\n", "README.md": "r\n"})
    git(root, "rm", "-q", "scripts/deploy.sh")
    sha = commit_all(root, "Deploy through CI")
    write_files(root, {"CLAUDE.md": "Deploys go through scripts/deploy.sh, see [it](scripts/deploy.sh).\n"})
    result = cli("check", str(root), "--select", "MW412", "--format", "json", "--no-cache", cwd=root).json()
    messages = {(f["line"], f["column"], f["message"]) for f in result["findings"]}
    expected = f"'scripts/deploy.sh' is no longer in the repository: commit {sha} (Deploy through CI) deleted it; " \
               "the note may be out of date"
    assert messages == {(1, 20, expected), (1, 48, expected)}
    assert all(f.get("fix") is None for f in result["findings"])


def test_paths_that_exist_or_never_existed_or_are_told_as_history_are_not_findings(git_repo, cli):
    root = git_repo({"lib/old.py": "x = 1\n", "lib/new.py": "y = 1\n"})
    git(root, "rm", "-q", "lib/old.py")
    commit_all(root, "Drop old")
    write_files(root, {"CLAUDE.md": "Code is in `lib/new.py`; the API is in `api/server.py` (another repo).\n"
                                    "`lib/old.py` was removed last month.\n"})
    assert found(cli, root) == []


def test_a_deletion_merged_from_a_branch_names_the_branch_commit(git_repo, cli):
    root = git_repo({"docs/setup.md": "setup\n", "app.py": "a = 1\n"})
    git(root, "checkout", "-q", "-b", "cleanup")
    git(root, "rm", "-q", "docs/setup.md")
    sha = commit_all(root, "Fold setup into README")
    git(root, "checkout", "-q", "main")
    write_files(root, {"app.py": "a = 2\n"})
    commit_all(root, "Touch app")
    git(root, "merge", "-q", "--no-ff", "-m", "Merge cleanup", "cleanup")
    write_files(root, {"AGENTS.md": "Setup steps: `docs/setup.md`.\n"})
    assert [message for _, _, message in found(cli, root)] == [
        f"'docs/setup.md' is no longer in the repository: commit {sha} (Fold setup into README) deleted it; "
        "the note may be out of date"]


def test_a_shallow_clone_or_no_history_is_nothing_to_compare_against(git_repo, cli, tmp_path):
    origin = git_repo({"src/ui/a.tsx": "a\n"}, name="origin")
    git(origin, "mv", "src/ui", "src/web")
    commit_all(origin, "Move")
    write_files(origin, {"CLAUDE.md": "UI: `src/ui/`.\n"})
    commit_all(origin, "Memory")
    assert len(found(cli, origin)) == 1  # the full history shows it
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{origin}", "shallow")
    assert found(cli, tmp_path / "shallow") == []
    plain = write_files(tmp_path / "plain", {"CLAUDE.md": "UI: `src/ui/`.\n"})
    assert found(cli, plain) == []
    empty = git_repo(None, name="empty")
    write_files(empty, {"CLAUDE.md": "UI: `src/ui/`.\n"})
    assert found(cli, empty) == []


def test_the_cache_sees_a_new_commit(git_repo, cli):
    # The workspace is a folder of the repository: deleting tools/gen.py changes none of its files, only the history.
    root = git_repo({"tools/gen.py": "g\n", "agent/.memwarden.toml": "", "agent/CLAUDE.md": "Generate with `tools/gen.py`.\n"})
    args = ("check", str(root / "agent"), "--select", "MW412", "--format", "json")
    assert cli(*args, cwd=root).json()["findings"] == []
    assert cli(*args, cwd=root).json()["findings"] == []  # the second run is answered by the cache
    git(root, "rm", "-q", "tools/gen.py")
    commit_all(root, "Drop the generator")
    assert len(cli(*args, cwd=root).json()["findings"]) == 1


def test_a_damaged_history_or_a_manifest_that_is_no_file_is_nothing_to_compare_against(git_repo, tmp_path):
    import os

    from conftest import run_memwarden

    root = git_repo({"src/ui/a.tsx": "a\n", "package.json": '{"scripts": {"build": "tsc"}}\n'})
    git(root, "mv", "src/ui", "src/web")
    commit_all(root, "Move")
    tree = git(root, "rev-parse", "HEAD~1^{tree}").strip()
    os.remove(root / ".git" / "objects" / tree[:2] / tree[2:])  # the first commit's tree is gone
    os.remove(root / "package.json")
    os.symlink("/dev/zero", root / "package.json")  # reading it would never end
    write_files(root, {"CLAUDE.md": "UI: `src/ui/`. Build: `npm run lint`.\n"})
    done = run_memwarden("check", ".", "--select", "MW412,MW413", "--no-cache", cwd=root)
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr


def test_a_path_that_exists_from_the_notes_own_folder_is_not_a_finding(git_repo, cli):
    # A package's CLAUDE.md names its own src/ui/; the repository's top-level src/ui/ was removed long ago.
    root = git_repo({"src/ui/old.tsx": "o\n", "packages/web/src/ui/button.tsx": "b\n"})
    git(root, "rm", "-q", "-r", "src/ui")
    commit_all(root, "Drop the old UI")
    write_files(root, {"packages/web/CLAUDE.md": "Components live in `src/ui/`.\n", "CLAUDE.md": "UI: `src/ui/`.\n"})
    assert [(path, line) for path, line, _ in found(cli, root)] == [("CLAUDE.md", 1)]


def test_a_rename_whose_new_path_is_gone_too_says_so_and_has_no_fix(git_repo, cli):
    root = git_repo({"tools/gen.py": "g\n", "app.py": "a\n"})
    git(root, "mv", "tools/gen.py", "tools/generate.py")
    sha = commit_all(root, "Rename the generator")
    git(root, "rm", "-q", "tools/generate.py")
    commit_all(root, "Drop the generator")
    write_files(root, {"CLAUDE.md": "Generate with `tools/gen.py`.\n"})
    result = findings(cli, root, "MW412")
    assert [(f["message"], f.get("fix")) for f in result] == [
        (f"'tools/gen.py' is no longer in the repository: commit {sha} (Rename the generator) renamed it to "
         "'tools/generate.py', which is gone too; the note may be out of date", None)]


def test_an_unreadable_old_file_version_still_leaves_every_deletion_and_exact_rename_found(git_repo, cli):
    # A clone missing one old blob (damaged, or fetched with a blob filter): finding inexact renames needs
    # that blob and git gives up on the whole log; deletions and exact renames need no file contents.
    body = "".join(f"line {n}\n" for n in range(40))
    root = git_repo({"lib/parser.py": body, "lib/helpers.py": "g = 1\n", "docs/guide.md": "guide\n"})
    old_blob = git(root, "rev-parse", "HEAD:lib/parser.py").strip()
    (root / "archive").mkdir()
    git(root, "mv", "lib/parser.py", "lib/parse.py")
    write_files(root, {"lib/parse.py": body + "line 40\n"})
    git(root, "mv", "docs/guide.md", "archive/guide.md")
    git(root, "rm", "-q", "lib/helpers.py")
    sha = commit_all(root, "Tidy lib and docs")
    (root / ".git" / "objects" / old_blob[:2] / old_blob[2:]).unlink()
    write_files(root, {"CLAUDE.md": "Helpers: `lib/helpers.py`. Guide: `docs/guide.md`.\n"})
    assert [message for _, _, message in found(cli, root)] == [
        f"'docs/guide.md' is no longer in the repository: commit {sha} (Tidy lib and docs) renamed it to "
        "'archive/guide.md'",
        f"'lib/helpers.py' is no longer in the repository: commit {sha} (Tidy lib and docs) deleted it; "
        "the note may be out of date"]


def test_a_path_whose_own_name_holds_a_history_word_is_still_a_claim(git_repo, cli):
    # "old", "legacy", "gone" in the path are its name; only the prose around it tells of a removal.
    root = git_repo({"src/legacy/api.py": "a\n", "lib/old_util.py": "o\n", "app.py": "a\n"})
    git(root, "rm", "-q", "-r", "src/legacy", "lib/old_util.py")
    commit_all(root, "Drop the legacy API")
    write_files(root, {"CLAUDE.md": "The API is in `src/legacy/api.py`.\nHelpers: lib/old_util.py\n"
                                    "`lib/old_util.py` was removed.\n"})
    assert [line for _, line, _ in found(cli, root)] == [1, 2]


def linked_instructions(git_repo, real: str, *links: str):
    """A repository whose instruction file `real` names a deleted path, an undefined script and the wrong package
    manager, with symlinks at links leading to it."""
    import os

    root = git_repo({"src/util.py": "u\n", "package.json": '{"scripts": {"build": "tsc"}}\n',
                     "package-lock.json": "{}\n"})
    git(root, "rm", "-q", "src/util.py")
    commit_all(root, "Drop util")
    write_files(root, {real: "Helpers: `src/util.py`. Lint: `npm run lint`. Install: `yarn install`.\n"})
    for link in links:
        os.symlink(real, root / link)
    return root


def test_a_file_reached_through_a_symlink_is_checked_once_at_its_own_path(git_repo, cli):
    root = linked_instructions(git_repo, "AGENTS.md", "CLAUDE.md")
    reported = [(f["path"], f["code"]) for f in findings(cli, root, "MW412,MW413,MW414")]
    assert sorted(reported) == [("AGENTS.md", "MW412"), ("AGENTS.md", "MW413"), ("AGENTS.md", "MW414")]


def test_a_link_that_names_its_target_is_one_claim_and_its_fix_rewrites_both(git_repo, cli):
    root = git_repo({"tools/gen.py": "g\n", "app.py": "a\n"})
    git(root, "mv", "tools/gen.py", "tools/generate.py")
    commit_all(root, "Rename the generator")
    write_files(root, {"CLAUDE.md": "Generate with [tools/gen.py](tools/gen.py) or [`tools/gen.py`](tools/gen.py).\n"})
    assert [(line, column) for line, column, _ in
            sorted((f["line"], f["column"], f["message"]) for f in findings(cli, root, "MW412"))] == [(1, 16), (1, 49)]
    assert cli("check", str(root), "--select", "MW412", "--fix", "--unsafe-fixes", "--no-cache", cwd=root).exit_code == 0
    assert (root / "CLAUDE.md").read_text() == ("Generate with [tools/generate.py](tools/generate.py) or "
                                                "[`tools/generate.py`](tools/generate.py).\n")


def test_a_clause_that_says_the_path_is_gone_or_forbids_it_is_no_claim_in_any_language_negation_reads(git_repo, cli):
    # "There is no `db.rs`" and "do NOT recreate `x`" say the path should not be there: no stale claim. A negation
    # after the name ("does not handle") or one that governs something else ("without running") leaves the claim.
    gone = ["src/db.rs", "src/relevance.rs", "tailwind.config.js", ".agent/appdata/state.json", "docs/a.md",
            "scripts/check.sh", "src/retry.ts", "src/zh.ts", "src/ja.ts", "src/ja_keep.ts"]
    root = git_repo({path: "x\n" for path in gone})
    git(root, "rm", "-q", "-r", *gone)
    commit_all(root, "Drop them")
    write_files(root, {"CLAUDE.md": (
        "Paths: `db` is a folder. There is no\n`src/db.rs` and no `src/relevance.rs` — see the folder.\n\n"
        "Do not add a\n`tailwind.config.js` that nothing loads.\n\n"
        "- do NOT recreate `.agent/appdata/state.json`.\n"
        "- No tests yet\n- `docs/a.md` holds the plan.\n\n"
        "Do not merge without running `scripts/check.sh`.\n\n"
        "`src/retry.ts` does not handle timeouts.\n\n"
        "请勿重新创建 `src/zh.ts`。\n\n"
        "`src/ja.ts` を使わないでください。\n\n"
        "`src/ja_keep.ts` はリトライを処理しない。\n")})
    assert [message.split("'")[1] for _, _, message in found(cli, root)] == [
        "docs/a.md", "scripts/check.sh", "src/retry.ts", "src/ja_keep.ts"]


def test_a_path_the_ignore_rules_ignore_today_was_untracked_on_purpose(git_repo, cli):
    # A committed-by-mistake build folder and a local config, removed and then ignored, are generated or local files.
    # A file renamed and then ignored was moved, not untracked: the rename says where it went.
    root = git_repo({"web/storybook-static/index.js": "s\n", "web/storybook-static/a.css": "s\n", ".mcp.json": "{}\n",
                     "web/src/old.ts": "o\n", "web/src/keep.ts": "k\n", "docs/designs/plan.md": "p\n"})
    git(root, "rm", "-q", "-r", "web/storybook-static", ".mcp.json", "web/src/old.ts")
    git(root, "mv", "docs/designs/plan.md", "docs/designs/paging.md")
    write_files(root, {".gitignore": ".mcp.json\ndocs/designs/\n", "web/.gitignore": "storybook-static/\n"})
    commit_all(root, "Untrack build output and local config")
    git(root, "rm", "-q", "--cached", "docs/designs/paging.md")
    commit_all(root, "Keep designs local")
    write_files(root, {"AGENTS.md": "Build output: `web/storybook-static/`. Servers: `.mcp.json`.\nSources: `web/src/old.ts`.\n"
                                    "Format: `docs/designs/plan.md`.\n"})
    assert [message.split("'")[1] for _, _, message in found(cli, root)] == ["web/src/old.ts", "docs/designs/plan.md"]


def test_the_ignore_rules_are_asked_about_every_removed_path_in_one_call(git_repo):
    root = git_repo({"dist/a.js": "a\n", "dist/b.js": "b\n", "src/c.ts": "c\n", "keep.txt": "k\n"})
    git(root, "rm", "-q", "-r", "dist", "src")
    write_files(root, {".gitignore": "dist/\n"})
    commit_all(root, "Untrack dist")
    assert Repo.discover(root).ignored(["dist/a.js", "dist/b.js", "src/c.ts", "dist"]) == {"dist/a.js", "dist/b.js"}


def test_one_file_two_symlinks_name_in_an_agents_folder_is_checked_once(git_repo, cli):
    # AGENTS.md and CLAUDE.md both lead to .agents/AGENTS.md, a workspace of its own that the run checks too.
    root = linked_instructions(git_repo, ".agents/AGENTS.md", "AGENTS.md", "CLAUDE.md")
    reported = [(f["path"], f["code"]) for f in findings(cli, root, "MW412,MW413,MW414,MW415")]
    assert sorted(reported) == [(".agents/AGENTS.md", "MW412"), (".agents/AGENTS.md", "MW413"),
                                (".agents/AGENTS.md", "MW414")]
    # Checked alone, the root's two names are one file: reported at the first.
    alone = cli("check", "AGENTS.md", "CLAUDE.md", "--select", "MW412", "--format", "json", "--no-cache", cwd=root)
    assert [(f["path"], f["code"]) for f in alone.json()["findings"]] == [("AGENTS.md", "MW412")]


def test_a_file_name_without_a_folder_names_the_tracked_files_of_that_name(git_repo, cli):
    # The root's .env.example moved into the one app: "add it to `.env.example`" names that file; `setup.cfg`,
    # which two apps have now, names theirs (a design folder's `README.md` beside others). A name no tracked file
    # bears is still a path from the top level.
    root = git_repo({".env.example": "A=1\n", "setup.cfg": "[x]\n", "tox.ini": "[tox]\n", "app.py": "a\n"})
    (root / "apps/web").mkdir(parents=True)
    (root / "apps/api").mkdir(parents=True)
    git(root, "mv", ".env.example", "apps/web/.env.example")
    git(root, "mv", "setup.cfg", "apps/web/setup.cfg")
    write_files(root, {"apps/api/setup.cfg": "[y]\n"})
    git(root, "rm", "-q", "tox.ini")
    commit_all(root, "Move to a monorepo")
    write_files(root, {"AGENTS.md": "Env vars: add to `.env.example`.\nSettings: `setup.cfg`.\nTests: `tox.ini`.\n"})
    assert [message.split("'")[1] for _, _, message in found(cli, root)] == ["tox.ini"]


def test_a_history_that_never_removed_a_path_leaves_the_text_unread(git_repo, cli, monkeypatch):
    # A seam: with nothing deleted or renamed there is nothing to find, so no note is scanned for paths.
    from memwarden.analysis.repo_claims import mentions

    scanned = []
    real = mentions.path_mentions
    monkeypatch.setattr(mentions, "path_mentions", lambda *args: scanned.append(args) or real(*args))
    root = git_repo({"src/app.py": "a\n", "CLAUDE.md": "Run `src/app.py`.\n\nSee `src/old.py`.\n"})
    assert found(cli, root) == [] and scanned == []
    git(root, "rm", "-q", "src/app.py")
    commit_all(root, "Drop the app")
    assert [line for _, line, _ in found(cli, root)] == [1] and len(scanned) == 1


def test_a_line_that_says_the_path_lives_outside_the_repository_agrees_with_its_deletion(git_repo, cli):
    # "(gitignored)", "out-of-repo", "no tracked `X`", "本地文件，不提交": the note itself says the file is not in
    # the repository, so the commit that removed it confirms the note. A path on a line that only mentions git, a
    # tracked file or an ignore rule for something else, stays a claim.
    gone = ["NOTES_DRAFT.md", "tools/render.py", "RUN_STATE.md", "config/local.yaml", "src/api.ts", "src/db.ts",
            "src/cli.ts"]
    root = git_repo({path: "x\n" for path in gone})
    git(root, "rm", "-q", *gone)
    commit_all(root, "Drop them")
    write_files(root, {"AGENTS.md": (
        "- `NOTES_DRAFT.md` is scratch, rewritten every session (gitignored)\n"
        "- the renderer `tools/render.py` is out-of-repo, in the owner's own folder\n"
        "- state is committed as git objects, no tracked `RUN_STATE.md` in worktrees\n"
        "- `config/local.yaml`：本地配置，不提交\n"
        "- `src/api.ts` is tracked in git and holds the routes\n"
        "- commit `src/db.ts` with the schema\n"
        "- `src/cli.ts`：命令行入口，已提交，本地开发只需要它\n")})
    assert [message.split("'")[1] for _, _, message in found(cli, root)] == ["src/api.ts", "src/db.ts", "src/cli.ts"]


def test_a_note_that_tells_history_makes_no_claim_about_a_file_removed_since(git_repo, cli):
    """A dated log entry or daily note said what was true on its day: the script it names, removed later on
    purpose, is no stale claim there. A note about the project now, or one with only a year in its name, is."""
    root = git_repo({"tools/publish.js": "run()\n", "README.md": "r\n"})
    git(root, "rm", "-q", "tools/publish.js")
    sha = commit_all(root, "Publish through the pipeline")
    write_files(root, {
        "memory/2026-03-28.md": "# 2026-03-28\n\n- Files modified: `tools/publish.js` (retry on 502)\n",
        "memory/2026-04-02-release.md": "Shipped after fixing tools/publish.js.\n",
        "memory/session-log.md": "Ran `tools/publish.js` twice before it worked.\n",
        "memory/tweaks.md": "2026-04-03 — patched `tools/publish.js` for the new API\n",
        "memory/publishing_2026.md": "Posts go out through `tools/publish.js`.\n",
        # a log whose entries open on their day (batch 18 dev: a Codex project's `.codex/memory.md`)
        "memory/decisions.md": "## 2026-03-27 — release check\n\n- Context: reviewed `tools/publish.js`.\n",
        "memory/status.md": "# Status (updated 2026-03-27)\n\n- Publish with `tools/publish.js`.\n",
        "AGENTS.md": "# Project\n\nPublish with `tools/publish.js`.\n",
    })
    assert [(path, line) for path, line, _ in found(cli, root)] == [
        ("AGENTS.md", 3), ("memory/publishing_2026.md", 1), ("memory/status.md", 3)]
    assert all(f"commit {sha}" in message for _, _, message in found(cli, root))


def test_an_archived_file_a_renames_old_name_and_a_file_the_note_calls_ephemeral_make_no_claim(git_repo, cli):
    """A file kept in an `archive/` or `backups/` folder, or a folder named by its day, describes the layout of its day; the old name before an arrow is the
    record of a rename; a name the note says anywhere is ephemeral or gitignored is gone on every line naming it.
    The same paths in a current note, or after the arrow, are claims."""
    root = git_repo({"frontend/src/app.ts": "a\n", "launcher/Old/Main.cs": "m\n", "SESSION_PLAN.md": "p\n",
                     "README.md": "r\n"})
    git(root, "rm", "-q", "-r", "frontend", "SESSION_PLAN.md")
    git(root, "mv", "launcher/Old", "launcher/New")
    commit_all(root, "Drop the old frontend, rename the launcher")
    write_files(root, {
        "archive/frontend-v1/CLAUDE.md": "Code lives in `frontend/src/app.ts`.\n",
        "docs/archived/notes.md": "See `frontend/src/app.ts`.\n",
        "backups/AGENTS.md": "Code lives in `frontend/src/app.ts`.\n",
        "snapshots/2026-03-05_0814/AGENTS.md": "The UI is in `frontend/src/app.ts`.\n",
        "AGENTS.md": ("1. Planning writes `SESSION_PLAN.md`\n"
                      "- `SESSION_PLAN.md` — ephemeral, written each session\n"
                      "- folder `launcher/Old/` → `launcher/New/` (git mv)\n"
                      "- the UI is in `frontend/src/app.ts`\n"
                      "- edit `launcher/Old/Main.cs` -> then build\n"),
    })
    assert [(path, line) for path, line, _ in found(cli, root)] == [("AGENTS.md", 4), ("AGENTS.md", 5)]


def test_a_removal_told_in_another_language_or_by_the_label_of_a_list_makes_no_claim(git_repo, cli):
    files = {f"gone/{name}.py": "x = 1\n" for name in ("a", "b", "c", "d", "e", "f", "g", "h", "i")}
    root = git_repo(files)
    for name in files:
        git(root, "rm", "-q", name)
    sha = commit_all(root, "Drop gone/")
    write_files(root, {"CLAUDE.md": (
        "# Notes\n\n"
        "**Deleted files (confirmed gone):**\n- `gone/a.py`\n- `gone/b.py`\n\n"  # 3-5: the label tells the removal
        "## Removed in sprint 4\n\n- `gone/c.py`\n  - `gone/d.py`\n\n"  # 7-10: a heading, a blank, a nested item
        "Where the code lives:\n- `gone/h.py`\n"  # 12-13: a label that tells no removal
        "- `gone/e.py`（削除）\n- `gone/f.py` 폐기\n- `gone/g.py` удалён\n\n"  # 14-16: the line's own word
        "Removed files are archived.\n- `gone/i.py`\n")})  # 18-19: a sentence, not a label
    assert [line for _, line, _ in found(cli, root)] == [13, 19]
    assert all(f"commit {sha}" in message for _, _, message in found(cli, root))

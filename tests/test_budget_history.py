"""`memwarden budget --history`: sizes at every first-parent commit, the chart, the projection."""

from __future__ import annotations

import pytest

from conftest import git, write_files

LIMITS = ("--preset", "gish", "--max", "1500", "--edge", "2000")  # chars


def index_of(size: int) -> str:
    """A MEMORY.md of exactly `size` characters (lines of 50, the last one shorter)."""
    assert size >= 2
    lines, rest = divmod(size, 50)
    text = ("x" * 49 + "\n") * lines
    return text + ("y" * (rest - 1) + "\n" if rest else "")


def commit_at(root, monkeypatch, when: str, files: dict[str, str], message: str = "memory") -> str:
    """Write files and commit them with author and committer date `when` (ISO 8601, UTC)."""
    write_files(root, files)
    monkeypatch.setenv("GIT_AUTHOR_DATE", when)
    monkeypatch.setenv("GIT_COMMITTER_DATE", when)
    git(root, "add", "-A")
    git(root, "commit", "-q", "--allow-empty", "-m", message)
    return git(root, "rev-parse", "HEAD").strip()


@pytest.fixture
def growing(git_repo, monkeypatch):
    """Three old commits that shrink the index, then ten growing it by exactly 100 chars a day at noon UTC."""
    root = git_repo()
    shas = []
    for day, size in ((1, 5000), (2, 3000), (3, 150)):
        shas.append(commit_at(root, monkeypatch, f"2026-02-{day:02d}T12:00:00+00:00", {"MEMORY.md": index_of(size)}))
    for day in range(1, 11):
        shas.append(commit_at(root, monkeypatch, f"2026-03-{day:02d}T12:00:00+00:00", {"MEMORY.md": index_of(100 * day)}))
    return root, shas


def test_history_lists_every_commit_with_its_exact_size_and_date(growing, cli):
    root, shas = growing
    result = cli("budget", "--history", "--json", *LIMITS, cwd=root)
    assert result.exit_code == 0, result
    data = result.json()
    expected_sizes = [5000, 3000, 150] + [100 * day for day in range(1, 11)]
    expected_dates = ["2026-02-01", "2026-02-02", "2026-02-03"] + [f"2026-03-{d:02d}" for d in range(1, 11)]
    assert data["history"] == [
        {"commit": sha, "date": date, "used": used} for sha, date, used in zip(shas, expected_dates, expected_sizes)
    ]
    assert (data["unit"], data["max"], data["edge"]) == ("chars", 1500, 2000)


def test_projection_on_a_steadily_growing_index_uses_the_recent_commits(growing, cli):
    root, _ = growing
    data = cli("budget", "--history", "--json", *LIMITS, cwd=root).json()
    # 100 chars a day over the last ten commits (the three shrinking ones are older): 1,000 on
    # 2026-03-10 reaches 1,500 five days later and 2,000 ten days later.
    assert data["growth_per_day"] == 100.0
    assert data["recent_commits"] == 10
    assert data["projection"] == {"budget_date": "2026-03-15", "edge_date": "2026-03-20"}


def test_projection_of_a_limit_already_reached_is_the_commit_that_reached_it(git_repo, monkeypatch, cli):
    root = git_repo()
    for day, size in ((1, 1000), (2, 1600), (3, 1700), (4, 1800)):
        commit_at(root, monkeypatch, f"2026-04-{day:02d}T02:00:00+00:00", {"MEMORY.md": index_of(size)})
    data = cli("budget", "--history", "--json", *LIMITS, cwd=root).json()
    assert data["projection"]["budget_date"] == "2026-04-02"
    # the fit through all four is 250 chars a day; 2,000 - 1,800 = 200 more is 0.8 days after the 4th, 02:00
    assert data["growth_per_day"] == 250.0
    assert data["projection"]["edge_date"] == "2026-04-04"


def test_no_projection_on_a_shrinking_index(git_repo, monkeypatch, cli):
    root = git_repo()
    for day, size in enumerate((1900, 1700, 1600, 1200, 900), 1):
        commit_at(root, monkeypatch, f"2026-05-{day:02d}T12:00:00+00:00", {"MEMORY.md": index_of(size)})
    result = cli("budget", "--history", "--json", *LIMITS, cwd=root)
    data = result.json()
    assert data["projection"] == {"budget_date": None, "edge_date": None}
    assert data["growth_per_day"] < 0
    assert [p["used"] for p in data["history"]] == [1900, 1700, 1600, 1200, 900]
    text = cli("budget", "--history", *LIMITS, cwd=root).stdout
    assert "projection: none, the index is not growing" in text


def test_one_commit_gives_no_projection(git_repo, monkeypatch, cli):
    root = git_repo()
    commit_at(root, monkeypatch, "2026-05-01T12:00:00+00:00", {"MEMORY.md": index_of(700)})
    data = cli("budget", "--history", "--json", *LIMITS, cwd=root).json()
    assert [p["used"] for p in data["history"]] == [700]
    assert data["projection"] == {"budget_date": None, "edge_date": None}


def test_since_keeps_only_the_later_commits(growing, cli):
    root, shas = growing
    data = cli("budget", "--history", "--json", "--since", shas[-3], *LIMITS, cwd=root).json()
    assert [p["commit"] for p in data["history"]] == shas[-2:]
    assert [p["used"] for p in data["history"]] == [900, 1000]
    assert data["projection"] == {"budget_date": "2026-03-15", "edge_date": "2026-03-20"}


def test_commits_that_do_not_touch_the_index_and_side_branches_are_not_rows(git_repo, monkeypatch, cli):
    root = git_repo()
    first = commit_at(root, monkeypatch, "2026-06-01T12:00:00+00:00", {"MEMORY.md": index_of(400)})
    commit_at(root, monkeypatch, "2026-06-02T12:00:00+00:00", {"notes.txt": "unrelated\n"})
    git(root, "checkout", "-q", "-b", "side")
    commit_at(root, monkeypatch, "2026-06-03T12:00:00+00:00", {"MEMORY.md": index_of(450)})
    commit_at(root, monkeypatch, "2026-06-04T12:00:00+00:00", {"MEMORY.md": index_of(600)})
    git(root, "checkout", "-q", "main")
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2026-06-05T12:00:00+00:00")
    git(root, "merge", "-q", "--no-ff", "-m", "merge side", "side")
    merge = git(root, "rev-parse", "HEAD").strip()
    data = cli("budget", "--history", "--json", *LIMITS, cwd=root).json()
    assert [(p["commit"], p["date"], p["used"]) for p in data["history"]] == [
        (first, "2026-06-01", 400), (merge, "2026-06-05", 600),
    ]


def test_a_deleted_index_is_a_null_size(git_repo, monkeypatch, cli):
    root = git_repo()
    commit_at(root, monkeypatch, "2026-06-01T12:00:00+00:00", {"MEMORY.md": index_of(400)})
    (root / "MEMORY.md").unlink()
    commit_at(root, monkeypatch, "2026-06-02T12:00:00+00:00", {})
    commit_at(root, monkeypatch, "2026-06-03T12:00:00+00:00", {"MEMORY.md": index_of(500)})
    result = cli("budget", "--history", *LIMITS, cwd=root)
    data = cli("budget", "--history", "--json", *LIMITS, cwd=root).json()
    assert [p["used"] for p in data["history"]] == [400, None, 500]
    assert "deleted" in result.stdout.splitlines()[3]


def test_the_chart_is_one_row_a_commit_in_plain_characters_when_not_a_terminal(growing, cli):
    root, shas = growing
    result = cli("budget", "--history", *LIMITS, cwd=root, env={"COLUMNS": "80"})
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "MEMORY.md  (gish preset, chars) / budget 1,500 / edge 2,000"
    assert lines[1] == "13 commits changed it"
    rows = lines[2:15]
    assert [row.split()[0] for row in rows] == [sha[:7] for sha in shas]
    assert rows[0].split()[1:3] == ["2026-02-01", "5,000"]
    assert rows[-1].split()[1:3] == ["2026-03-10", "1,000"]
    assert all(row.isascii() and len(row) <= 80 for row in lines)
    # the biggest size sets the scale: 5,000 fills its row, and past the edge its cells are cut ('x')
    assert rows[0].count("x") > 0 and "!" in rows[0] and "|" in rows[0]
    assert lines[15] == "growth: +100.0 chars a day over the last 10 commits (least squares)"
    assert lines[16] == "projection: budget 1,500 on 2026-03-15 / edge 2,000 on 2026-03-20"


def test_the_chart_follows_the_terminal_width_and_colour_settings(growing, cli):
    root, _ = growing
    def rows(columns: str) -> list[str]:
        out = cli("budget", "--history", *LIMITS, cwd=root, env={"COLUMNS": columns}).stdout.splitlines()
        return [line for line in out if line.endswith("]")]

    assert {len(row) for row in rows("60")} == {60}
    assert {len(row) for row in rows("100")} == {92}  # bars are at most 60 cells wide
    fancy = cli("budget", "--history", *LIMITS, cwd=root, env={"FORCE_COLOR": "1", "NO_COLOR": ""}).stdout
    assert "█" in fancy and "\x1b[" in fancy
    plain = cli("budget", "--history", *LIMITS, cwd=root, env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).stdout
    assert plain.isascii() and "\x1b[" not in plain


def test_all_blobs_come_from_one_cat_file_and_the_commits_from_one_log(growing, cli, monkeypatch):
    import memwarden.git as gitmodule

    root, _ = growing
    calls = []
    real = gitmodule.run_git

    def counting(args, cwd, **options):
        calls.append(args[0] if args[0] != "cat-file" else f"cat-file {args[1]}")
        return real(args, cwd, **options)

    monkeypatch.setattr(gitmodule, "run_git", counting)
    assert cli("budget", "--history", "--json", *LIMITS, cwd=root).exit_code == 0
    assert calls.count("log") == 1
    assert calls.count("cat-file --batch") == 1
    assert len(calls) <= 5  # discovery, the log, the blobs, the shallow check: never one a commit


def test_history_outside_git_and_a_bad_since_are_clear_errors(workspace, growing, cli):
    plain = workspace({"MEMORY.md": index_of(300)})
    result = cli("budget", "--history", *LIMITS, cwd=plain)
    assert result.exit_code == 4
    assert "in no git repository" in result.stderr and "Traceback" not in result.stderr
    root, _ = growing
    result = cli("budget", "--history", "--since", "no-such-ref", *LIMITS, cwd=root)
    assert result.exit_code == 4
    assert "--since 'no-such-ref' names no commit" in result.stderr
    result = cli("budget", "--since", "HEAD", *LIMITS, cwd=root)
    assert result.exit_code == 4 and "--since needs --history" in result.stderr


def test_the_exit_code_is_todays_status(growing, cli):
    root, _ = growing
    assert cli("budget", "--history", "--preset", "gish", "--max", "900", "--edge", "2000", cwd=root).exit_code == 1
    assert cli("budget", "--history", "--preset", "gish", "--max", "500", "--edge", "800", cwd=root).exit_code == 2


def test_a_gish_index_with_crlf_and_bom_measures_as_budget_does(git_repo, monkeypatch, cli):
    root = git_repo()
    text = "\ufeff" + index_of(300).replace("\n", "\r\n")
    commit_at(root, monkeypatch, "2026-07-01T12:00:00+00:00", {"MEMORY.md": text})
    today = cli("budget", "--json", *LIMITS, cwd=root).json()
    history = cli("budget", "--history", "--json", *LIMITS, cwd=root).json()
    assert history["history"][-1]["used"] == today["used"]


# The README's sample: this history, built the same way, prints exactly the block in the README.
README_HISTORY = [
    ("2026-09-01", 15300), ("2026-09-05", 16100), ("2026-09-08", 9800), ("2026-09-12", 10400),
    ("2026-09-15", 11300), ("2026-09-19", 11900), ("2026-09-23", 12700), ("2026-09-26", 13200),
    ("2026-09-30", 14100), ("2026-10-03", 14900), ("2026-10-07", 15400), ("2026-10-10", 16300),
    ("2026-10-14", 17100),
]


def test_readme_sample_of_the_history_chart_is_what_memwarden_prints(git_repo, monkeypatch, cli):
    import re

    from conftest import REPO

    root = git_repo()
    for day, size in README_HISTORY:
        commit_at(root, monkeypatch, f"{day}T18:00:00+00:00", {"MEMORY.md": index_of(size)}, "memory")
    readme = (REPO / "README.md").read_text("utf-8")
    block = next(b for b in re.findall(r"```text\n(.*?)```", readme, flags=re.S)
                 if b.startswith("$ memwarden budget --history"))
    command, *expected = block.rstrip("\n").splitlines()
    result = cli(*command.split()[2:], cwd=root, env={"COLUMNS": "80"})
    assert result.stdout.rstrip("\n").splitlines() == expected


def test_a_workspace_below_the_top_level_and_a_chain_of_files(git_repo, monkeypatch, cli):
    root = git_repo()
    commit_at(root, monkeypatch, "2026-08-01T12:00:00+00:00", {"AGENTS.md": index_of(200)})
    commit_at(root, monkeypatch, "2026-08-02T12:00:00+00:00", {"team/AGENTS.md": index_of(300)})
    commit_at(root, monkeypatch, "2026-08-03T12:00:00+00:00", {"README.txt": "not memory\n"})
    commit_at(root, monkeypatch, "2026-08-04T12:00:00+00:00", {"AGENTS.md": index_of(250)})
    data = cli("budget", "--history", "--json", "--preset", "codex", cwd=root / "team").json()
    assert data["files"] == ["../AGENTS.md", "AGENTS.md"]
    # the chain is summed at every commit that changed either file, the other as it was then
    assert [(p["date"], p["used"]) for p in data["history"]] == [
        ("2026-08-01", 200), ("2026-08-02", 500), ("2026-08-04", 550),
    ]
    since = cli("budget", "--history", "--json", "--preset", "codex", "--since", "HEAD~2", cwd=root / "team").json()
    assert [(p["date"], p["used"]) for p in since["history"]] == [("2026-08-04", 550)]


def test_a_repository_without_commits_has_an_empty_history(git_repo, cli):
    root = git_repo()
    write_files(root, {"MEMORY.md": index_of(300)})
    result = cli("budget", "--history", "--json", *LIMITS, cwd=root)
    assert result.exit_code == 0, result
    assert result.json()["history"] == [] and result.json()["projection"] == {"budget_date": None, "edge_date": None}

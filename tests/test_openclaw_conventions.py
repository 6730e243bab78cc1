"""Issue #26: OpenClaw's own conventions (its docs: concepts/agent-workspace.md, concepts/memory.md,
start/bootstrapping.md, reference/templates/AGENTS.md): misnamed-daily-note (MW113) and
leftover-bootstrap (MW114). Real files in temp git repositories, through the CLI (today: 2026-11-30).
"""

from __future__ import annotations

import pytest

from test_openclaw import WORKSPACE, check


def found(cli, root, rule: str, *args):
    return sorted((f["path"], f["line"], f["message"]) for f in check(cli, root, "--select", rule, *args)["findings"])


DAILY = "# day\n\n- Moved the backups to the NAS.\n"


@pytest.mark.parametrize("name, proper", [
    ("2026_11_29.md", "memory/2026-11-29.md"),
    ("20261129.md", "memory/2026-11-29.md"),
    ("2026.11.29.md", "memory/2026-11-29.md"),
    ("2026-1-5.md", "memory/2026-01-05.md"),
    ("29-11-2026.md", "memory/2026-11-29.md"),
    ("11-29-2026.md", "memory/2026-11-29.md"),
    ("2026_11_29_printer.md", "memory/2026-11-29-printer.md"),
])
def test_a_date_written_another_way_is_named_as_openclaw_reads_it(cli, git_repo, name, proper):
    workspace = {path: text for path, text in WORKSPACE.items() if path != "memory/2026-11-29.md"}
    root = git_repo({**workspace, f"memory/{name}": DAILY})
    (path, line, message), = found(cli, root, "misnamed-daily-note")
    assert (path, line) == (f"memory/{name}", 1)
    assert f"rename it to '{proper}'" in message and "memory/YYYY-MM-DD.md" in message


def test_a_second_note_for_a_day_that_has_one_is_to_be_merged_not_renamed(cli, git_repo):
    root = git_repo({**WORKSPACE, "memory/2026_11_29.md": DAILY})  # memory/2026-11-29.md is there already
    (path, _, message), = found(cli, root, "misnamed-daily-note")
    assert path == "memory/2026_11_29.md"
    assert "merge it into 'memory/2026-11-29.md', which is there already" in message and "rename" not in message


@pytest.mark.parametrize("name, written", [
    ("2026-02-30.md", "2026-02-30"),
    ("2026-13-01-printer.md", "2026-13-01"),
    ("2026_02_30.md", "2026_02_30"),
    ("31-31-2026.md", "31-31-2026"),
])
def test_a_date_that_is_no_day_is_reported(cli, git_repo, name, written):
    root = git_repo({**WORKSPACE, f"memory/{name}": DAILY})
    (path, _, message), = found(cli, root, "misnamed-daily-note")
    assert path == f"memory/{name}" and message.startswith(f"{written} is no day of the calendar")


@pytest.mark.parametrize("name", [
    "2026-11-28.md",  # OpenClaw's form
    "2026-11-28-printer.md",  # with a slug, as the session-memory hook writes
    "03-04-2026.md",  # March 4th or April 3rd: not guessed at
    "2026112.md",  # November 2nd or January 12th
    "2026-11-28_notes.md",  # the date is right; what follows is not ours to judge
    "projects.md", "2026.md", "v2.0-notes.md",
    "archive/2025_01_02.md",  # below memory/: not read by date, left alone
])
def test_names_openclaw_reads_or_that_are_not_dates_are_left_alone(cli, git_repo, name):
    root = git_repo({**WORKSPACE, f"memory/{name}": DAILY})
    assert found(cli, root, "misnamed-daily-note") == []


def test_other_profiles_are_left_alone(cli, git_repo):
    note = "---\nname: x\ndescription: d\ntype: project\n---\n\nA note.\n"
    root = git_repo({"memory/MEMORY.md": "- [x](2026_11_29.md) — x\n", "memory/2026_11_29.md": note})
    assert found(cli, root, "misnamed-daily-note") == []


BOOTSTRAP = "# BOOTSTRAP.md - Hello, World\n\nFigure out who you are, then delete this file.\n"


def test_bootstrap_left_weeks_after_the_first_daily_note(cli, git_repo):
    root = git_repo({**WORKSPACE, "BOOTSTRAP.md": BOOTSTRAP, "memory/2026-11-02-setup.md": DAILY})
    (path, line, message), = found(cli, root, "leftover-bootstrap")
    assert (path, line) == ("BOOTSTRAP.md", 1)
    assert "28 days after the workspace's first daily note ('memory/2026-11-02-setup.md')" in message
    assert "delete it" in message


@pytest.mark.parametrize("files", [
    {"memory/2026-11-29.md": DAILY},  # the first daily note is a day old: the ritual may still run
    {},  # no daily note at all: the first run
    {"memory/2026-11-29.md": DAILY, "memory/2025_01_01.md": DAILY},  # a misnamed note is no daily note
])
def test_bootstrap_in_the_first_days_is_fine(cli, git_repo, files):
    workspace = {k: v for k, v in WORKSPACE.items() if not k.startswith("memory/")}
    root = git_repo({**workspace, "BOOTSTRAP.md": BOOTSTRAP, **files})
    assert found(cli, root, "leftover-bootstrap") == []


# (BOOTSTRAP.md's text, whether it is the first-run ritual that deletes itself)
BOOTSTRAP_TEXTS = [
    (BOOTSTRAP, True),
    ("# BOOTSTRAP.md - Hello, World\n\n_You just woke up._\n", True),  # the template's title, its ending cut
    ("# First run\n\nWork through this file in order. When you reach the end, delete this file.\n", True),
    ("# Bootstrap\n\nOnce IDENTITY.md is written, remove BOOTSTRAP.md.\n", True),
    ("# BOOTSTRAP.md - 你好，世界\n\n完成后，删除这个文件。\n", True),
    ("# 初回起動\n\n終わったらこのファイルを削除してください。\n", True),
    ("# 부트스트랩\n\n끝나면 이 파일을 삭제하세요.\n", True),
    ("# Arranque\n\nCuando termines, borra este archivo.\n", True),
    ("# Inicialização\n\nQuando terminar, apague este arquivo.\n", True),
    ("# Démarrage\n\nQuand tu as fini, supprime ce fichier.\n", True),
    ("# Start\n\nWenn du fertig bist, lösche diese Datei.\n", True),
    ("# Первый запуск\n\nКогда закончишь, удали этот файл.\n", True),
    ("# BOOTSTRAP.md - Восстановление контекста\n\n1. Прочитай handoff.md\n2. Прочитай сегодняшний дневник\n", False),
    ("# Session bootstrap\n\nEvery session: read handoff.md, then today's note. Keep this file.\n", False),
    ("# Bootstrap\n\nNever delete the memory folder; remove stale entries from MEMORY.md.\n", False),
    ("# 启动清单\n\n每次会话先读 handoff.md，再读今天的日记。\n", False),
]


@pytest.mark.parametrize("text, ritual", BOOTSTRAP_TEXTS)
def test_only_the_first_run_ritual_is_a_leftover(cli, git_repo, text, ritual):
    root = git_repo({**WORKSPACE, "BOOTSTRAP.md": text, "memory/2026-11-02.md": DAILY})
    assert [path for path, _, _ in found(cli, root, "leftover-bootstrap")] == (["BOOTSTRAP.md"] if ritual else [])


def test_the_grace_period_is_an_option(cli, git_repo):
    files = {**WORKSPACE, "BOOTSTRAP.md": BOOTSTRAP,
             ".memwarden.toml": "[rules.leftover-bootstrap]\ngrace_days = 1\n"}
    root = git_repo(files)
    (path, _, message), = found(cli, root, "leftover-bootstrap")
    assert path == "BOOTSTRAP.md" and "1 day after" in message
    assert found(cli, root, "leftover-bootstrap", "--today", "2026-11-29") == []  # the first note's own day


def test_a_workspace_without_bootstrap_is_fine(cli, git_repo):
    root = git_repo({**WORKSPACE, "memory/2026-01-01.md": DAILY})
    assert found(cli, root, "leftover-bootstrap") == []


def test_openclaw_notes_need_no_provenance_fields(cli, git_repo):
    # OpenClaw's memory is plain Markdown: no front matter, so no source, date or confidence field to ask for.
    # missing-provenance checks only the profiles whose format has such fields (ghost-in-shell by default).
    root = git_repo({**WORKSPACE, "memory/2026-11-28.md": "---\nsource: chat\n---\n\n- Backups moved.\n"})
    assert found(cli, root, "missing-provenance") == []
    assert found(cli, root, "missing-provenance", "--profile", "openclaw") == []


# -- user-directive-metadata (docs/concepts/user-model.md) ---------------------------------------------

GOOD_USER = ("# USER.md\n\n<!-- observed: 2026-05-10 | status: superseded -->\n\n"
             "- Prefer detailed explanations for every code change.\n\n"
             "<!-- observed: 2026-07-27 | status: active -->\n\n"
             "- Prefer concise implementation summaries unless more detail is requested.\n")


def test_directives_written_as_the_user_model_says_are_fine(cli, git_repo):
    root = git_repo({**WORKSPACE, "USER.md": GOOD_USER})
    assert found(cli, root, "user-directive-metadata") == []


@pytest.mark.parametrize("metadata, problem", [
    ("<!-- observed: 2026-07-27 | status: current -->", "status 'current' is neither active nor superseded"),
    ("<!-- observed: 2026-07-27 -->", "no `status:`"),
    ("<!-- status: active -->", "no `observed:` date"),
    ("<!-- observed: 27/07/2026 | status: active -->", "observed '27/07/2026' is not a day written YYYY-MM-DD"),
    ("<!-- observed: 2026-02-30 | status: active -->", "observed '2026-02-30' is not a day written YYYY-MM-DD"),
    ("<!-- observed: 2027-01-01 | status: active -->", "observed 2027-01-01 is after today"),
])
def test_a_metadata_line_openclaw_cannot_read_is_reported_at_its_line(cli, git_repo, metadata, problem):
    root = git_repo({**WORKSPACE, "USER.md": GOOD_USER + f"\n{metadata}\n\n- Never send e-mail without asking.\n"})
    (path, line, message), = found(cli, root, "user-directive-metadata")
    assert (path, line) == ("USER.md", 11)
    assert message.startswith(problem + ": OpenClaw's user model")


def test_a_metadata_line_with_no_directive_after_it(cli, git_repo):
    root = git_repo({**WORKSPACE, "USER.md": GOOD_USER + "\n<!-- observed: 2026-08-01 | status: active -->\n\n## Work\n"})
    (_, line, message), = found(cli, root, "user-directive-metadata")
    assert line == 11 and message.startswith("no directive follows this metadata line")


@pytest.mark.parametrize("files", [
    {"USER.md": "# User\n\n<!-- a note to myself -->\nCalls himself Sam.\n"},  # no metadata lines: another form
    {"USER.md": "<!-- observed: someday | status: maybe -->\n- x\n", "MEMORY.md": "x\n",
     ".memwarden.toml": 'profile = "plain-notes"\n'},  # not OpenClaw
    {"TOOLS.md": "<!-- observed: someday | status: maybe -->\n- x\n"},  # USER.md only
])
def test_other_files_and_forms_are_left_alone(cli, git_repo, files):
    root = git_repo({**WORKSPACE, **files})
    assert found(cli, root, "user-directive-metadata") == []


def test_a_huge_user_md_of_metadata_lines_gives_an_answer(cli, git_repo):
    many = "<!-- observed: 2026-07-27 | status: active -->\n- Prefer tea.\n" * 20_000
    root = git_repo({**WORKSPACE, "USER.md": many + "<!-- status: nope"})
    got = found(cli, root, "user-directive-metadata")
    assert [line for _, line, _ in got] == [40_001, 40_001, 40_001]  # no date, a bad status, nothing after it

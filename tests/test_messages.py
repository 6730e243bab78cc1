"""Issue #26: what a finding's message quotes reads right.

A path keeps its file name readable, however long (never `'[…].py'`); a `from:to` pair, a file's line
number and a flake reference (`/etc/nixos#host`) are not one machine path; a Markdown table's rows are
separate sentences, and a finding on a row points at that row's line. Real files through the CLI.
"""

from __future__ import annotations

import json

from memwarden.analysis.machine_paths import absolute_paths
from memwarden.analysis.negation.common import sentences
from memwarden.text import excerpt_path

GISH = {".gish/config.yml": "index: {}\n"}
# Paths outside the repository checked on every run, as on the owner's own machine.
ALWAYS = {".memwarden.toml": '[rules.missing-machine-path]\noutside_repository = "always"\n'}


def note(name: str, body: str) -> str:
    return (f"---\nname: {name}\ndescription: one line\nmetadata:\n  type: reference\n  updated: 2026-10-01\n"
            f"---\n\n{body}")


def findings(cli, root, *args):
    data = cli("check", str(root), "--format", "json", "--no-cache", "--today", "2026-12-01", *args, cwd=root).json()
    return sorted((f["path"], f["line"], f["column"], f["name"], f["message"]) for f in data["findings"])


# -- paths keep their file name --------------------------------------------------------------------


def test_a_path_with_digits_in_its_name_is_shown_not_masked():
    assert excerpt_path("/opt/app/src/memwarden/analysis/scanner2.py") == "/opt/app/src/memwarden/analysis/scanner2.py"
    assert excerpt_path("src/components/checkout/PaymentForm2.tsx", 60) == "src/components/checkout/PaymentForm2.tsx"


def test_a_long_path_loses_folders_from_the_left_and_keeps_its_file_name():
    path = "/opt/app/services/payments/handlers/refund_v2_webhook_processor.py"
    shown = excerpt_path(path, 40)
    assert shown.endswith("/refund_v2_webhook_processor.py") and shown.startswith("…/") and len(shown) <= 40
    # a name longer than the width is cut in its middle: its start and its extension stay
    long_name = "/srv/" + "a_very_long_generated_report_name_for_the_quarter_" * 3 + "final.csv"
    shown = excerpt_path(long_name, 40)
    assert len(shown) <= 40 and shown.endswith(".csv") and "…" in shown
    for name in ("x" * 300, "/opt/" + "y" * 300, "/opt/a." + "z" * 300, "/" * 400, "", "a\x1b[31mb/c.py"):
        for width in (8, 40, 80):
            shown = excerpt_path(name, width)
            assert len(shown) <= width and "\x1b" not in shown, (name, width, shown)


def test_a_key_in_a_path_is_still_masked():
    key = "AKIAxQ7mZ2pL9vR4tW8yB3nC6kD1fH5jG0s"
    assert key not in excerpt_path(f"/opt/keys/{key}/config.yml")
    assert excerpt_path(f"/opt/keys/{key}/config.yml").endswith("/config.yml")
    assert "[…]" in excerpt_path("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")  # a key with '/' in it


def test_a_missing_machine_path_message_names_the_file(workspace, cli):
    body = "The scanner lives at /opt/memwarden-test-missing/src/memwarden/analysis/secrets/scanner2.py now.\n"
    root = workspace({**GISH, **ALWAYS, "memory/knowledge/references/paths.md": note("paths", body)})
    (_, line, _, _, message), = findings(cli, root, "--select", "missing-machine-path")
    assert line == 9
    assert "scanner2.py'" in message and "[…]" not in message


def test_a_dangling_supersedes_names_its_file(workspace, cli):
    front = "  supersedes: memory/knowledge/references/scanner2_migration_notes.md\n"
    text = note("new", "The lesson.\n").replace("  updated: 2026-10-01\n", "  updated: 2026-10-01\n" + front)
    root = workspace({**GISH, "memory/knowledge/references/new.md": text})
    (*_, message), = findings(cli, root, "--select", "dangling-supersedes")
    assert "'memory/knowledge/references/scanner2_migration_notes.md' names no note" in message


# -- a from:to pair, a line number and a flake reference are not one path ----------------------------


def test_the_path_ends_at_a_colon_or_a_flake_attribute():
    found = [p.path for p in absolute_paths(
        "Run `nixos-rebuild switch --flake /etc/nixos#myhost`, mount `/srv/appdata/db:/var/lib/postgresql/data`, "
        "see /opt/app/main.py:12 and /opt/app/a.py:/opt/app/b.py.")]
    assert found == ["/etc/nixos", "/srv/appdata/db", "/opt/app/main.py", "/opt/app/a.py"]


def test_flake_references_name_no_machine_path():
    line = "Build `github:owner/repo#attr`, `nixpkgs#hello`, `path:./x`, github:NixOS/nixpkgs/nixos-24.05#hello."
    assert absolute_paths(line) == []


def test_a_flake_reference_and_a_volume_pair_in_a_note(workspace, cli):
    body = ("Rebuild with `nixos-rebuild switch --flake /etc/memwarden-test-missing#myhost`.\n"
            "The volume is `/srv/memwarden-test-missing/db:/var/lib/postgresql/data`.\n"
            "Build `github:owner/repo#attr` or `nix run nixpkgs#hello`.\n")
    root = workspace({**GISH, **ALWAYS, "memory/knowledge/references/nix.md": note("nix", body)})
    shown = [message.split("'")[1] for *_, message in findings(cli, root, "--select", "missing-machine-path")]
    assert shown == ["/etc/memwarden-test-missing", "/srv/memwarden-test-missing/db"]


# -- a table's rows are sentences of their own ------------------------------------------------------

TABLE = ("| tool | status |\n|---|---|\n| ripgrep | installed on the CI image |\n"
         "| fd | the CI image does not have fd installed |\n| jq | verified 2025-01-10 on the build box |")


def test_each_table_cell_is_a_sentence():
    text = "Tools we checked:\n" + TABLE + "\nThat is all."
    got = [text[start:end] for start, end in sentences(text)]
    assert "the CI image does not have fd installed" in got
    assert "Tools we checked:\n| tool" not in "".join(got)
    assert not any("\n" in sentence and "|" in sentence for sentence in got)
    assert not any(set(sentence) <= set("-:| ") for sentence in got)  # the separator row is no sentence
    assert got[-1] == "That is all."


def test_a_finding_on_a_table_row_quotes_that_row_and_points_at_its_line(workspace, cli):
    episode = {"ts": "2026-01-01T00:00:00Z", "type": "decision", "summary": "tools", "detail": TABLE,
               "tags": ["ci", "tools"]}
    fact = "tools: |\n" + "".join(f"  {row}\n" for row in TABLE.splitlines())
    root = workspace({"memory/episodic.jsonl": json.dumps(episode) + "\n", "memory/fact.yml": fact})
    got = findings(cli, root, "--select", "negative-claim-without-expiry,stale-statement")
    claims = [(path, line, message) for path, line, _, name, message in got if name == "negative-claim-without-expiry"]
    assert [(path, line) for path, line, _ in claims] == [("memory/episodic.jsonl", 1), ("memory/fact.yml", 5)]  # the fd row
    for *_, message in claims:
        assert '"the CI image does not have fd installed"' in message, message
    detail_at = json.dumps(episode).index("| fd |")
    column = next(column for path, _, column, name, _ in got
                  if path == "memory/episodic.jsonl" and name == "negative-claim-without-expiry")
    assert detail_at < column < detail_at + 20


def test_a_table_in_a_list_item_or_without_its_separator_row_is_read_by_row(workspace, cli):
    # Markdown reads neither as a table: a table indented in a list item, and rows with no separator row.
    body = ("- list item with a table:\n\n  | tool | status |\n  |------|--------|\n"
            "  | jq | jq is not available on the runner |\n\n"
            "| no | separator row |\n| bat | the runner does not ship bat |\n")
    root = workspace({"MEMORY.md": "- [Tools](tools.md) — tools\n",
                      "tools.md": f"---\nname: tools\ndescription: tools\ntype: project\n---\n\n{body}"})
    got = [(line, message.split('"')[1]) for _, line, _, _, message in
           findings(cli, root, "--select", "negative-claim-without-expiry")]
    assert got == [(11, "jq is not available on the runner"), (14, "the runner does not ship bat")]


def test_a_renamed_repository_path_names_both_files(git_repo, cli):
    from conftest import git, write_files
    from repo_claims_support import commit_all

    old, new = "src/services/payments/webhook_processor2.py", "src/services/payments/webhook_processor3.py"
    root = git_repo({old: "x = 1\n"})
    git(root, "mv", old, new)
    commit_all(root, "Next processor")
    write_files(root, {"CLAUDE.md": f"# Project\n\nRefunds go through `{old}`.\n"})
    (*_, message), = findings(cli, root, "--select", "deleted-repo-path")
    assert f"'{old}' is no longer in the repository" in message and f"renamed it to '{new}'" in message


def test_a_note_name_and_a_wikilink_keep_their_words_and_numbers(workspace, cli):
    stem = "feedback_scanner2_migration_notes"
    text = note("feedback_scanner3_migration_notes", "See [[project_release2_checklist_steps]] first.\n")
    root = workspace({**GISH, f"memory/knowledge/references/{stem}.md": text})
    messages = [message for *_, message in findings(cli, root, "--select", "note-name-mismatch,broken-note-link")]
    assert any(f"is not the file stem '{stem}'" in m and "'feedback_scanner3_migration_notes'" in m for m in messages)
    assert any("[[project_release2_checklist_steps]] names no note" in m for m in messages), messages


def test_a_broken_shelf_link_shows_where_it_leads_shortened_with_its_file_name(workspace, cli):
    target = "references/" + "/".join(["deep-folder"] * 8) + "/release2_checklist.md"
    root = workspace({**GISH, "MEMORY.md": "# Index\n",
                      "memory/knowledge/INDEX_references.md": f'- "the release fails" → [Steps]({target})\n'})
    (*_, message), = findings(cli, root, "--select", "broken-index-link")
    where = message.split("that is ", 1)[1]
    assert where.startswith("…/") and where.endswith("/release2_checklist.md)") and len(where) <= 81

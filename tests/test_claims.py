"""negative-claim-without-expiry, expired-claim and invalid-expiry, run through the CLI on real files.

The fix tests feed each kind a file with a BOM, CRLF line endings, comments, odd
quoting or flow-style mappings, and assert that the fixed bytes differ from the
input only by the inserted line (or, for a flow mapping or a JSON record, the
one line that gains the field), that a second `--fix` changes nothing, and that
the file still parses.
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from memwarden.documents import load
from memwarden.fixes.apply import apply_edits
from memwarden.fixes.edits import yaml_insert_key
from memwarden.discover.profiles import Kind

BOM = b"\xef\xbb\xbf"
TODAY = "2026-04-01"
# The claims rules; MW305-MW307 (coherence) share the MW3 prefix and are tested in test_coherence.py.
CLAIM_RULES = "MW301,MW302,MW303,MW304"
IN_90_DAYS = "2026-06-30"
FINGERPRINT = "0" * 64


def changes(before: bytes, after: bytes) -> list[tuple[str, list[bytes], list[bytes]]]:
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    return [(tag, old[i1:i2], new[j1:j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def findings(result, code: str | None = None) -> list[dict]:
    return [f for f in result.json()["findings"] if code is None or f["code"] == code]


def yaml_load(text: str):
    return YAML(typ="safe").load(text)


def front_matter(data: bytes) -> dict:
    text = data.decode("utf-8-sig").replace("\r\n", "\n")
    assert text.startswith("---\n")
    return yaml_load(text.split("---\n")[1]) or {}


def fix_twice(cli, root: Path, relpath: str, *extra: str) -> bytes:
    """Run --fix, return the new bytes, and check that a second run leaves them alone."""
    first = cli("check", "--select", CLAIM_RULES, "--today", TODAY, "--fix", *extra, ".", cwd=root)
    assert first.exit_code in (0, 1), first
    assert f"Fixing {relpath}" in first.stderr
    after = (root / relpath).read_bytes()
    second = cli("check", "--select", CLAIM_RULES, "--today", TODAY, "--fix", *extra, ".", cwd=root)
    assert "Fixing" not in second.stderr, second
    assert (root / relpath).read_bytes() == after
    return after


def episode(number: int, **fields) -> dict:
    record = {
        "id": f"ep_{number:08d}",
        "ts": f"2026-03-{number:02d}T10:00:00+08:00",
        "type": "insight",
        "title": "t",
        "content": "c",
        "tags": ["a", "b"],
        "importance": 5,
        "fingerprint": FINGERPRINT,
        "decay_status": "active",
        "retrieval": {"count": 0, "last_accessed": None, "strength": 0.5},
    }
    record.update(fields)
    return record


# -- gish notes: metadata.expires --------------------------------------------------------

GISH_NOTE = (
    "---\r\n"
    "name: gh-drafts\r\n"
    "description: 'gh does not support listing draft releases; it''s a known gap'   # checked 2026-03\r\n"
    "metadata:\r\n"
    "    type: reference\r\n"
    '    updated: "2026-03-01"\r\n'
    "    confidence: 0.8   # one source only\r\n"
    "# how we find it\r\n"
    "tags: [gh, cli]\r\n"
    "---\r\n"
    "\r\n"
    "Use the API instead: `gh api repos/o/r/releases` lists drafts.\r\n"
)


def test_gish_note_gets_metadata_expires_and_nothing_else_changes(workspace, cli):
    before = BOM + GISH_NOTE.encode()
    root = workspace({"memory/knowledge/references/gh-drafts.md": before})
    result = cli("check", "--select", CLAIM_RULES, "--today", TODAY, "--format", "json", ".", cwd=root)
    [finding] = findings(result)
    assert finding["name"] == "negative-claim-without-expiry"
    assert finding["message"].startswith('negative claim with no expiry date: "gh does not support listing draft releases;')
    assert (finding["line"], finding["column"]) == (3, 15)
    assert finding["json_path"] == "$.description"
    assert finding["fix"] == {"applicability": "safe", "description": f"add metadata.expires: {IN_90_DAYS} (90 days from now)"}

    after = fix_twice(cli, root, "memory/knowledge/references/gh-drafts.md")
    assert after.startswith(BOM)
    # The sibling `updated` is double-quoted, so the new date is too; indentation is the siblings' four spaces.
    assert changes(before, after) == [("insert", [], [f'    expires: "{IN_90_DAYS}"\r\n'.encode()])]
    assert front_matter(after)["metadata"]["expires"] == IN_90_DAYS
    assert cli("check", "--select", CLAIM_RULES, "--today", TODAY, ".", cwd=root).exit_code == 0


def test_gish_note_with_a_flow_mapping(workspace, cli):
    note = "---\nname: flow\ndescription: 在 Confluence 找不到相關資料\nmetadata: {type: feedback, updated: 2026-03-01}  # flow\n---\n\nbody\n"
    root = workspace({"memory/knowledge/feedback/flow.md": note})
    after = fix_twice(cli, root, "memory/knowledge/feedback/flow.md")
    assert changes(note.encode(), after) == [
        (
            "replace",
            [b"metadata: {type: feedback, updated: 2026-03-01}  # flow\n"],
            [f"metadata: {{type: feedback, updated: 2026-03-01, expires: {IN_90_DAYS}}}  # flow\n".encode()],
        )
    ]


def test_gish_note_claim_in_the_body_is_located_on_its_line(workspace, cli):
    note = (
        "---\nname: n\ndescription: Where the export lives\nmetadata:\n  type: reference\n  updated: 2026-03-01\n---\n\n"
        "The export lives in the admin panel.\n\n"
        "- Note: the CSV exporter can't handle UTF-16 files, so convert first.\n"
    )
    root = workspace({"memory/knowledge/references/n.md": note})
    [finding] = findings(cli("check", "--select", "MW301", "--format", "json", ".", cwd=root))
    assert finding["line"] == 11
    assert "can't handle UTF-16 files" in finding["message"]
    after = fix_twice(cli, root, "memory/knowledge/references/n.md")
    assert changes(note.encode(), after) == [("insert", [], [f"  expires: {IN_90_DAYS}\n".encode()])]


def test_top_level_expires_in_a_gish_note_counts_but_is_reported_as_misplaced(workspace, cli):
    note = "---\nname: n\ndescription: gh does not support drafts\nexpires: 2026-05-01\nmetadata:\n  type: reference\n  updated: 2026-03-01\n---\n"
    root = workspace({"memory/knowledge/references/n.md": note})
    result = cli("check", "--select", CLAIM_RULES, "--today", TODAY, "--format", "json", ".", cwd=root)
    assert [f["name"] for f in findings(result)] == ["invalid-expiry"]
    [finding] = findings(result)
    assert "gish reads `metadata.expires`" in finding["message"] and finding["line"] == 4


# -- three-layer and claude-code notes: top-level expires ------------------------------------


def test_three_layer_note_gets_a_top_level_expires_after_its_last_key(workspace, cli):
    note = (
        "---\r\n"
        "name: deploy-flags   # the slug\r\n"
        'description: "Flags the deploy script accepts"\r\n'
        "tags:\r\n"
        "  - deploy\r\n"
        "  - scripts  # second\r\n"
        "---\r\n"
        "\r\n"
        "The Heroku CLI has no dry-run mode.\r\n"
        "\r\n"
        "```sh\r\n"
        "deploy --help   # does not list --force\r\n"
        "```\r\n"
    )
    root = workspace({"memory/notes/deploy-flags.md": note, "memory/fact.yml": "user:\n  name: A\n"})
    result = cli("check", "--select", CLAIM_RULES, "--format", "json", ".", cwd=root)
    assert result.json()["summary"]["workspaces"][0]["profile"] == "three-layer"
    assert [f["line"] for f in findings(result)] == [9]  # the code block's "does not" is not prose
    after = fix_twice(cli, root, "memory/notes/deploy-flags.md")
    assert changes(note.encode(), after) == [("insert", [], [f"expires: {IN_90_DAYS}\r\n".encode()])]
    assert after.index(b"expires") > after.index(b"  - scripts  # second")
    assert front_matter(after)["tags"] == ["deploy", "scripts"]


def test_a_note_without_front_matter_gets_one(workspace, cli):
    note = BOM + "# Export\n\nThe Stripe dashboard has no batch export.\n".encode()
    root = workspace({"memory/notes/export.md": note, "memory/fact.yml": "user:\n  name: A\n"})
    after = fix_twice(cli, root, "memory/notes/export.md")
    assert after == BOM + f"---\nexpires: {IN_90_DAYS}\n---\n# Export\n\nThe Stripe dashboard has no batch export.\n".encode()


def test_claude_code_note_gets_a_top_level_expires(workspace, cli):
    note = "---\nname: batch-api\ndescription: Batch API regions\ntype: reference\n---\n\nAs of March the batch API isn't offered in the EU region.\n"
    root = workspace({"MEMORY.md": "- [Batch API](batch-api.md) — regions\n", "batch-api.md": note})
    after = fix_twice(cli, root, "batch-api.md")
    assert changes(note.encode(), after) == [("insert", [], [f"expires: {IN_90_DAYS}\n".encode()])]


# Recent Claude Code keeps only name and description at the top; type, node_type and
# originSessionId (and memwarden's expires) go under metadata:, where the tool leaves them.
CC_METADATA_NOTE = (
    "---\r\n"
    "name: batch-api\r\n"
    "description: Batch API regions\r\n"
    "metadata:\r\n"
    "  node_type: memory\r\n"
    "  type: reference\r\n"
    "  originSessionId: 492e1a7e-ee5d-4878-9b09-9db207650950  # the session\r\n"
    "---\r\n"
    "\r\n"
    "The batch API isn't offered in the EU region.\r\n"
)


def test_claude_code_note_in_the_metadata_layout_gets_metadata_expires(workspace, cli):
    root = workspace({"MEMORY.md": "- [Batch API](batch-api.md) — regions\n", "batch-api.md": CC_METADATA_NOTE})
    result = cli("check", "--select", CLAIM_RULES, "--today", TODAY, "--format", "json", ".", cwd=root)
    [finding] = findings(result)
    assert finding["line"] == 10
    assert "add `metadata.expires`" in finding["message"]
    assert finding["fix"]["description"] == f"add metadata.expires: {IN_90_DAYS} (90 days from now)"
    after = fix_twice(cli, root, "batch-api.md")
    assert changes(CC_METADATA_NOTE.encode(), after) == [("insert", [], [f"  expires: {IN_90_DAYS}\r\n".encode()])]
    data = front_matter(after)
    assert set(data) == {"name", "description", "metadata"}  # nothing new at the top
    assert str(data["metadata"]["expires"]) == IN_90_DAYS
    assert cli("check", "--today", TODAY, ".", cwd=root).exit_code == 0  # the schema accepts it too


def test_claude_code_metadata_flow_mapping_gets_expires_inside_it(workspace, cli):
    note = "---\nname: n\ndescription: d\nmetadata: {type: reference}\n---\n\ngh does not support draft releases.\n"
    root = workspace({"MEMORY.md": "- [N](n.md) — gh\n", "n.md": note})
    after = fix_twice(cli, root, "n.md")
    assert changes(note.encode(), after) == [
        ("replace", [b"metadata: {type: reference}\n"], [f"metadata: {{type: reference, expires: {IN_90_DAYS}}}\n".encode()])
    ]


def test_three_layer_note_with_metadata_gets_metadata_expires(workspace, cli):
    note = "---\nname: n\nmetadata:\n  type: reference\n---\n\nThe Stripe dashboard has no batch export.\n"
    root = workspace({"memory/notes/n.md": note, "memory/fact.yml": "user:\n  name: A\n"})
    after = fix_twice(cli, root, "memory/notes/n.md")
    assert changes(note.encode(), after) == [("insert", [], [f"  expires: {IN_90_DAYS}\n".encode()])]


@pytest.mark.parametrize("where", ["top", "metadata"])
def test_claude_code_expires_is_read_at_the_top_or_under_metadata(workspace, cli, where):
    date_line = "expires: 2026-02-01\n" if where == "top" else ""
    inner_line = "  expires: 2026-02-01\n" if where == "metadata" else ""
    note = (
        f"---\nname: n\ndescription: gh does not support draft releases\n{date_line}"
        f"metadata:\n  type: reference\n{inner_line}---\n\nThe batch API isn't offered in the EU region.\n"
    )
    root = workspace({"MEMORY.md": "- [N](n.md) — gh\n", "n.md": note})
    result = cli("check", "--select", CLAIM_RULES, "--today", TODAY, "--format", "json", ".", cwd=root)
    # Dated in either place: no negative-claim finding, no complaint about where the date is; it has passed.
    assert [(f["name"], f["line"]) for f in findings(result)] == [("expired-claim", 4 if where == "top" else 6)]
    path = "$.expires" if where == "top" else "$.metadata.expires"
    assert findings(result)[0]["json_path"] == path


@pytest.mark.parametrize(
    "inner, message",
    [
        ("  expires: soon\n", "$.metadata.expires 'soon' is not a date (YYYY-MM-DD)"),
        ("  updated: 2026-03-01\n  expires: 2026-02-01\n", "$.metadata.expires 2026-02-01 is before the record's own date (2026-03-01)"),
        ("  expires: 2029-01-01\n", "$.metadata.expires 2029-01-01 is 1006 days ahead; at most 365 are allowed (max_ttl)"),
    ],
)
def test_claude_code_metadata_expires_is_checked(workspace, cli, inner, message):
    note = f"---\nname: n\ndescription: d\nmetadata:\n  type: reference\n{inner}---\n\nbody\n"
    root = workspace({"MEMORY.md": "- [N](n.md) — gh\n", "n.md": note})
    result = cli("check", "--select", "invalid-expiry", "--today", TODAY, "--format", "json", ".", cwd=root)
    assert [f["message"] for f in findings(result)] == [message]


def test_prose_only_code_urls_and_keys_are_not_read(workspace, cli):
    note = (
        "---\nname: n\ndescription: Notes on the deploy script\nmetadata:\n  type: reference\n  updated: 2026-03-01\n"
        "  not_supported_here: true\n---\n\n"
        "Run `deploy --check`, which GitHub Actions doesn't support on forks.\n\n"
        "See https://example.com/docs/not-supported-no-longer for details.\n\n"
        "```\nThis tool does not support Windows.\n```\n\n"
        "<!-- the old API does not page -->\n\n"
        "Never run the script on a Friday. Does it support dry runs? If the flag is missing, it exits.\n"
    )
    root = workspace({"memory/knowledge/references/n.md": note})
    result = cli("check", "--select", "MW301", "--format", "json", ".", cwd=root)
    # A claim about a tool in prose that holds inline code: read, the code shown as `…`.
    assert [f["line"] for f in findings(result)] == [10]
    assert '"Run `…`, which GitHub Actions doesn\'t support on forks."' in findings(result)[0]["message"]


def test_a_note_with_an_expiry_is_not_reported(workspace, cli):
    note = "---\nname: n\ndescription: gh does not support drafts\nmetadata:\n  type: reference\n  updated: 2026-03-01\n  expires: 2026-05-01\n---\n"
    root = workspace({"memory/knowledge/references/n.md": note})
    assert cli("check", "--select", CLAIM_RULES, "--today", TODAY, ".", cwd=root).exit_code == 0


# -- episodes -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "separators, inserted",
    [((", ", ": "), f', "expires": "{IN_90_DAYS}"'), ((",", ":"), f',"expires":"{IN_90_DAYS}"')],
)
def test_episode_gets_an_expires_field_in_its_own_spacing(workspace, cli, separators, inserted):
    records = [
        episode(1, title="Chose the shared store"),
        episode(2, title="這個 API 不能分頁", content="試過 page 參數，沒有作用。"),
        episode(3, title="Hooks verified"),
    ]
    before = BOM + "".join(json.dumps(r, separators=separators, ensure_ascii=False) + "\r\n" for r in records).encode()
    root = workspace({"memory/episodic.jsonl": before})
    result = cli("check", "--select", "MW301", "--today", TODAY, "--format", "json", ".", cwd=root)
    assert [(f["line"], f["json_path"]) for f in findings(result)] == [(2, "$.title"), (2, "$.content")]
    after = fix_twice(cli, root, "memory/episodic.jsonl")
    assert after.startswith(BOM)
    [(tag, old, new)] = changes(before, after)
    assert tag == "replace" and len(old) == len(new) == 1
    assert new[0] == old[0][: -len(b"}\r\n")] + inserted.encode() + b"}\r\n"
    assert json.loads(new[0].decode())["expires"] == IN_90_DAYS


def test_three_layer_episode(workspace, cli):
    record = {"ts": "2026-03-01T10:00:00+08:00", "type": "failure", "summary": "该版本没有批量导出功能", "tags": ["export", "admin"]}
    before = (json.dumps(record, ensure_ascii=False) + "\n").encode()
    root = workspace({"memory/episodic.jsonl": before, "memory/fact.yml": "user:\n  name: A\n"})
    after = fix_twice(cli, root, "memory/episodic.jsonl")
    assert json.loads(after) == record | {"expires": IN_90_DAYS}


def test_episode_directives_and_questions_are_not_claims(workspace, cli):
    root = workspace(
        {
            "memory/episodic.jsonl": json.dumps(
                episode(1, title="Never run rm -rf on the root", content="Does the CLI not support --dry-run? 請勿刪除。")
            )
            + "\n"
        }
    )
    assert cli("check", "--select", "MW301", ".", cwd=root).exit_code == 0



def test_policy_about_where_things_are_kept_and_narrated_nobody_are_not_claims(workspace, cli):
    # Issue #13 point 6: "never" about where something is kept states a policy; "nobody" in a
    # narrated past event tells what happened. A real claim in the same episode is still reported.
    content = (
        "Production credentials are never stored on laptops; they live in 1Password. "
        "Nobody reviewed the Terraform plan before it was applied. "
        "密鑰從來不放在 GitHub 上，都在 Vault 裡。その夜は誰も Slack のアラートに気づかなかった。"
    )
    assert_silent_until_one_claim_is_added(workspace, cli, content, " The corporate proxy blocks pypi.org.", "proxy blocks")


def assert_silent_until_one_claim_is_added(workspace, cli, content: str, claim: str, quoted: str) -> None:
    """An episode of content gives no MW301 finding; with claim added, exactly one, quoting it."""
    root = workspace({"memory/episodic.jsonl": json.dumps(episode(1, title="Notes", content=content)) + "\n"})
    assert cli("check", "--select", "MW301", ".", cwd=root).exit_code == 0
    root = workspace({"memory/episodic.jsonl": json.dumps(episode(1, title="Notes", content=content + claim)) + "\n"}, name="two")
    found = findings(cli("check", "--select", "MW301", "--format", "json", ".", cwd=root), "MW301")
    assert len(found) == 1 and quoted in found[0]["message"], found


def test_the_owners_own_setup_is_no_claim(workspace, cli):
    # Issue 29 round 7: what is not installed, configured or enabled on the owner's machine, or a credential
    # of theirs that expired, is their own situation; what an outside service does beside it is still a claim.
    content = (
        "`gh` CLI not installed. WSL 未启用 systemd。SMTP 授权码已失效，需要重新生成。"
        "The root cause is missing MinMax auth on the gateway, so MinMax can't be used. "
        "この PC にはまだ Docker がインストールされていない。"
    )
    claim = " The Telegram Bot API does not accept messages over 4096 characters."
    assert_silent_until_one_claim_is_added(workspace, cli, content, claim, "4096 characters")


# -- facts --------------------------------------------------------------------------------

GISH_FACTS = """\
schema_version: 1
identity:
  name: "Agent"
  last_updated: "2026-01-01"
tools:
  gh:
    version: '2.40'
    note: gh cannot list draft releases   # seen 2026-03
    since: 2026-01-01

  # the CI side
  runners: {os: linux, note: "Self-hosted runners can't reach the registry"}
rules:
  - "Never delete files without confirmation."
  - "The VPN does not allow SSH."
archive:
  old_tool:
    note: "X does not exist any more"
"""


def test_facts_get_expires_beside_the_claim_and_list_items_get_no_fix(workspace, cli):
    before = GISH_FACTS.replace("\n", "\r\n").encode()
    root = workspace({"memory/fact.yml": before})
    result = cli("check", "--select", "MW301", "--today", TODAY, "--format", "json", ".", cwd=root)
    found = {f["json_path"]: f for f in findings(result)}
    assert set(found) == {"$.tools.gh.note", "$.tools.runners.note", "$.rules[1]"}  # not the archive
    assert "fix" in found["$.tools.gh.note"] and "fix" in found["$.tools.runners.note"]
    assert "fix" not in found["$.rules[1]"] and "list item" in found["$.rules[1]"]["message"]
    assert found["$.tools.gh.note"]["line"] == 8

    after = fix_twice(cli, root, "memory/fact.yml")
    assert changes(before, after) == [
        ("insert", [], [f"    expires: {IN_90_DAYS}\r\n".encode()]),
        (
            "replace",
            [b"  runners: {os: linux, note: \"Self-hosted runners can't reach the registry\"}\r\n"],
            [f"  runners: {{os: linux, note: \"Self-hosted runners can't reach the registry\", expires: {IN_90_DAYS}}}\r\n".encode()],
        ),
    ]
    assert after.index(b"expires") > after.index(b"since: 2026-01-01")
    data = yaml_load(after.decode())
    assert str(data["tools"]["gh"]["expires"]) == IN_90_DAYS and data["tools"]["gh"]["version"] == "2.40"
    remaining = cli("check", "--select", "MW301", "--format", "json", ".", cwd=root)
    assert [f["json_path"] for f in findings(remaining)] == ["$.rules[1]"]


def test_three_layer_facts_skip_archived_entries_and_read_domain_files(workspace, cli):
    facts = "api_status:\n  beta:\n    note: The beta endpoint is not available\n  old:\n    archived: true\n    note: The old endpoint does not exist\n"
    root = workspace({"memory/fact.yml": "user:\n  name: A\n", "memory/fact_api.yml": facts, "memory/episodic.jsonl": ""})
    result = cli("check", "--select", "MW301", "--format", "json", ".", cwd=root)
    assert [(f["path"], f["json_path"]) for f in findings(result)] == [("memory/fact_api.yml", "$.api_status.beta.note")]


def test_facts_keys_are_not_read(workspace, cli):
    root = workspace({"memory/fact.yml": "schema_version: 1\ntools:\n  does not support drafts: gh\n"})
    assert cli("check", "--select", "MW301", ".", cwd=root).exit_code == 0


# -- expired-claim and invalid-expiry -------------------------------------------------------


def test_expired_claim_is_a_warning_pinned_by_today(workspace, cli):
    note = "---\nname: n\ndescription: gh does not support drafts\nmetadata:\n  type: reference\n  updated: 2026-01-01\n  expires: 2026-03-01\n---\n"
    archived = json.dumps(episode(1, title="No ARM build", expires="2026-03-15", decay_status="archived"))
    root = workspace({"memory/knowledge/references/n.md": note, "memory/episodic.jsonl": archived + "\n"})
    early = cli("check", "--select", CLAIM_RULES, "--today", "2026-03-01", ".", cwd=root)
    assert early.exit_code == 0 and "expired-claim" not in early.stdout
    late = cli("check", "--select", CLAIM_RULES, "--today", "2026-03-31", "--format", "json", ".", cwd=root)
    assert late.exit_code == 0  # a warning
    [finding] = findings(late)
    assert finding["name"] == "expired-claim" and finding["severity"] == "warning"
    assert finding["message"].startswith("expired on 2026-03-01, 30 days ago") and finding["line"] == 7
    assert cli("check", "--select", CLAIM_RULES, "--today", "2026-03-31", "--strict", ".", cwd=root).exit_code == 1


@pytest.mark.parametrize(
    "expires, message",
    [
        ("soon", "$.expires 'soon' is not a date (YYYY-MM-DD)"),
        ("2026-02-30", "$.expires 2026-02-30 is an impossible date"),
        ("2026-02-01", "$.expires 2026-02-01 is before the record's own date (2026-03-01)"),
        ("2099-01-01", "$.expires 2099-01-01 is 26573 days ahead; at most 365 are allowed (max_ttl)"),
        (None, "$.expires is empty, not a date (YYYY-MM-DD)"),
        (20260501, "$.expires is int, not a date (YYYY-MM-DD)"),
    ],
)
def test_invalid_expiry(workspace, cli, expires, message):
    root = workspace({"memory/episodic.jsonl": json.dumps(episode(1, expires=expires)) + "\n"})
    result = cli("check", "--select", "invalid-expiry", "--today", TODAY, "--format", "json", ".", cwd=root)
    assert [f["message"] for f in findings(result)] == [message]
    assert result.exit_code == 1


def test_max_ttl_and_default_ttl_are_configurable_and_the_fix_respects_max_ttl(workspace, cli):
    note = "---\nname: n\ndescription: gh does not support drafts\nmetadata:\n  type: reference\n  updated: 2026-03-01\n{expires}---\n"
    root = workspace({"memory/knowledge/references/n.md": note.format(expires="  expires: 2026-06-01\n")})
    (root / ".memwarden.toml").write_text("[rules.invalid-expiry]\nmax_ttl = 30\n")
    result = cli("check", "--select", CLAIM_RULES, "--today", TODAY, "--format", "json", ".", cwd=root)
    assert [f["message"] for f in findings(result)] == [
        "$.metadata.expires 2026-06-01 is 61 days ahead; at most 30 are allowed (max_ttl)"
    ]
    (root / "memory/knowledge/references/n.md").write_text(note.format(expires=""))
    (root / ".memwarden.toml").write_text("[rules.negative-claim-without-expiry]\ndefault_ttl = 10\n")
    fix_twice(cli, root, "memory/knowledge/references/n.md")
    assert front_matter((root / "memory/knowledge/references/n.md").read_bytes())["metadata"]["expires"].isoformat() == "2026-04-11"
    (root / "memory/knowledge/references/n.md").write_text(note.format(expires=""))
    (root / ".memwarden.toml").write_text("[rules.negative-claim-without-expiry]\ndefault_ttl = 400\n")
    fix_twice(cli, root, "memory/knowledge/references/n.md")
    text = (root / "memory/knowledge/references/n.md").read_text()
    assert "expires: 2027-04-01" in text  # 365 days, invalid-expiry's max_ttl, not 400
    assert cli("check", "--select", CLAIM_RULES, "--today", TODAY, ".", cwd=root).exit_code == 0


def test_long_claims_are_quoted_on_one_line_and_cut(workspace, cli):
    sentence = "The staging cluster does not have " + "enough capacity for " * 8 + "the load test."
    root = workspace({"memory/episodic.jsonl": json.dumps(episode(1, content=sentence)) + "\n"})
    [finding] = findings(cli("check", "--select", "MW301", "--format", "json", ".", cwd=root))
    quoted = finding["message"].split('"')[1]
    assert quoted.endswith("…") and len(quoted) <= 80 and quoted.startswith("The staging cluster does not have")


def test_diff_shows_the_fix_and_writes_nothing(workspace, cli):
    before = BOM + GISH_NOTE.encode()
    root = workspace({"memory/knowledge/references/gh-drafts.md": before})
    result = cli("check", "--select", CLAIM_RULES, "--today", TODAY, "--diff", ".", cwd=root)
    assert result.exit_code == 1
    assert f'+    expires: "{IN_90_DAYS}"' in result.stdout
    assert (root / "memory/knowledge/references/gh-drafts.md").read_bytes() == before


@pytest.mark.parametrize("output_format", ["json", "sarif", "github", "text"])
def test_claim_rules_appear_in_every_output_format(workspace, cli, output_format):
    records = [episode(1, title="No ARM build exists"), episode(2, title="old", expires="2026-01-01"), episode(3, expires="x")]
    root = workspace({"memory/episodic.jsonl": "".join(json.dumps(r) + "\n" for r in records)})
    result = cli("check", "--select", CLAIM_RULES, "--today", TODAY, "--format", output_format, ".", cwd=root)
    assert result.exit_code == 1
    names = {"negative-claim-without-expiry", "expired-claim", "invalid-expiry"}
    if output_format == "sarif":
        run = json.loads(result.stdout)["runs"][0]
        assert {r["ruleId"] for r in run["results"]} == {"MW301", "MW302", "MW303"}
    else:
        assert all(name in result.stdout for name in names)
        if output_format == "github":
            assert "::warning file=memory/episodic.jsonl,line=2" in result.stdout


def test_every_rule_runs_together_on_the_real_gish_sample(cli, tmp_path):
    import shutil

    from conftest import CORPUS

    root = tmp_path / "multi_cli"
    shutil.copytree(CORPUS / "examples" / "multi_cli", root)
    result = cli("check", "--today", TODAY, "--format", "json", ".", cwd=root)
    assert not [f for f in result.json()["findings"] if f["code"].startswith(("MW2", *CLAIM_RULES.split(",")))]


# -- the mapping helper ---------------------------------------------------------------------------


def _yaml_doc(text: str):
    doc = load(Path("/nonexistent"), "x.yml", Kind("facts", "yaml", ("x.yml",), ""), text.encode())
    assert doc.ok, doc.error
    return doc


@pytest.mark.parametrize(
    "text, path, expected",
    [
        ("a:\n  b: |\n    one\n    two\n\n  c: 1\n", ("a",), "a:\n  b: |\n    one\n    two\n\n  c: 1\n  expires: D\n"),
        ("a:\n  c: |\n    one\n\n# after\nz: 1\n", ("a",), "a:\n  c: |\n    one\n  expires: D\n\n# after\nz: 1\n"),
        ("a:\n  c: |+\n    one\n\nz: 1\n", ("a",), None),  # the blank line belongs to the scalar
        ("a:\n  c:\n    d: 1  # deep\n# top\nz: 1\n", ("a",), "a:\n  c:\n    d: 1  # deep\n  expires: D\n# top\nz: 1\n"),
        ("a:\n  c:\n    - x\nz: 1", ("a",), "a:\n  c:\n    - x\n  expires: D\nz: 1"),
        ("- name: x\n  note: n\n- name: y\n", (0,), "- name: x\n  note: n\n  expires: D\n- name: y\n"),
        ("b: &b\n  k: 1\no:\n  <<: *b\n  n: z\n", ("o",), "b: &b\n  k: 1\no:\n  <<: *b\n  n: z\n  expires: D\n"),
        ("x: &v 1\no:\n  n: *v\n", ("o",), "x: &v 1\no:\n  n: *v\n  expires: D\n"),
        ("a: {b: 1,\n    c: 2}\n", ("a",), "a: {b: 1,\n    c: 2, expires: D}\n"),
        ("a: {}\n", ("a",), "a: {expires: D}\n"),
        ("a: {b: 1,c: 2}\n", ("a",), "a: {b: 1,c: 2,expires: D}\n"),
        ("k: 'multi\n  line'\n", (), "k: 'multi\n  line'\nexpires: D\n"),
        ("k: v", (), "k: v\nexpires: D"),
        ("k: v\r\n", (), "k: v\r\nexpires: D\r\n"),
        ("k: v\n", ("missing",), None),
    ],
)
def test_yaml_insert_key(text, path, expected):
    doc = _yaml_doc(text)
    edit = yaml_insert_key(doc.text, doc.tree.spans, path, "expires", "D", doc.newline)
    if expected is None:
        assert edit is None
        return
    out = apply_edits(doc.text, [edit])
    assert out == expected
    assert yaml_load(out) is not None


def test_a_false_positive_can_be_silenced_inline(workspace, cli):
    note = (
        "---\nname: n\ndescription: Review notes\nmetadata:\n  type: feedback\n  updated: 2026-03-01\n---\n\n"
        "<!-- memwarden: disable-next-line=negative-claim-without-expiry -->\n"
        "Copilot has no say in this.\n"  # a false positive the detector still makes (an idiom)
    )
    root = workspace({"memory/knowledge/feedback/n.md": note})
    assert cli("check", "--select", "MW301", ".", cwd=root).exit_code == 0
    (root / "memory/knowledge/feedback/n.md").write_text(note.replace("<!-- memwarden: disable-next-line=negative-claim-without-expiry -->\n", ""))
    assert cli("check", "--select", "MW301", ".", cwd=root).exit_code == 1


# -- where a claim in Markdown prose is reported (issue #19) ---------------------------------

NOTE_HEAD = "---\nname: n\ndescription: Notes on the mirror\nmetadata:\n  type: reference\n  updated: 2026-03-01\n---\n\n"


def claim_positions(cli, root: Path) -> list[tuple[int, int]]:
    result = cli("check", "--select", "MW301", "--today", TODAY, "--format", "json", ".", cwd=root)
    return [(f["line"], f["column"]) for f in findings(result)]


def test_the_same_claim_on_three_lines_reports_three_lines(workspace, cli):
    body = "- gh does not support merge queues.\n- gh does not support merge queues.\n- gh does not support merge queues.\n"
    root = workspace({"memory/knowledge/references/n.md": NOTE_HEAD + body})
    assert claim_positions(cli, root) == [(9, 3), (10, 3), (11, 3)]


def test_identical_sentences_in_one_paragraph_each_point_at_their_own_line(workspace, cli):
    body = "Intro line.\ngh does not support merge queues.\nMore text here.\ngh does not support merge queues.\n"
    root = workspace({"memory/knowledge/references/n.md": NOTE_HEAD + body})
    assert claim_positions(cli, root) == [(10, 1), (12, 1)]


def test_a_claim_deep_in_a_list_item_points_at_its_own_line_and_column(workspace, cli):
    # Bold labels, inline code and wrapped lines before the claim: the old mapping found the first
    # "Fact:" of the file and reported every sentence of the item up to eight lines too early.
    body = (
        "# Roadmap\n\n"
        "- **Fact:** The first direction is `core` hardening.\n"
        "  **Why:** The contract came first.\n\n"
        "- **Fact:** State lives under `$XDG_STATE_HOME` with **atomic** writes\n"
        "  and a bounded log; it is read once per render.\n"
        "  The hosted runner `ubuntu-22` does not have `uv` installed.\n"
    )
    root = workspace({"memory/knowledge/references/n.md": NOTE_HEAD + body})
    line = NOTE_HEAD.count("\n") + 8
    text = (NOTE_HEAD + body).splitlines()[line - 1]
    assert claim_positions(cli, root) == [(line, text.index("The hosted") + 1)]


def test_a_claim_after_a_code_block_holding_the_same_words_is_not_pulled_into_the_block(workspace, cli):
    body = "Setup:\n\n```\n# gh does not support merge queues.\n```\n\ngh does not support merge queues.\n"
    root = workspace({"memory/knowledge/references/n.md": NOTE_HEAD + body})
    assert claim_positions(cli, root) == [(15, 1)]


def test_identical_sentences_in_a_description_each_get_their_own_column(workspace, cli):
    head = "---\nname: n\ndescription: The mirror is unavailable. The mirror is unavailable.\nmetadata:\n  type: reference\n---\n"
    root = workspace({"memory/knowledge/references/n.md": head})
    assert claim_positions(cli, root) == [(3, 14), (3, 41)]


def test_headings_and_to_do_items_are_not_claims(workspace, cli):
    body = "## gh does not support merge queues\n\n- [ ] find out why the mirror is unavailable\n- [x] gh cannot list drafts\n"
    root = workspace({"memory/knowledge/references/n.md": NOTE_HEAD + body})
    assert claim_positions(cli, root) == []


def test_real_prose_kinds_that_are_not_claims_give_no_finding(workspace, cli):
    # One line per kind of false alarm seen on memory committed to public repositories.
    body = "\n\n".join([
        "See [[feedback-do-not-mock]] and [the guide](docs/not-supported.md).",
        "The column is `phone VARCHAR(20) NOT NULL` and the mode is none.",
        "Plot with width=0.6, no legend.",
        "**How to apply:** no confirmation needed for rebases; never mark a flaky test as skipped.",
        "Didn't use the venv, tried installing globally and it broke.",
        "Tracker = local markdown (no GitHub issues); embeddings via FastEmbed (ONNX, no torch).",
        "The UI is embedded in the app (not a separate module).",
        "The config format is not YAML, it is TOML.",
        "Prefers direct answers — no fluff.",
        "Secrets are never stored in this repo; they live in Vault.",
        "`metadata_cache.mediaType` column is written but never read.",
        "이 API는 not supported 입니다.",
    ]) + "\n"
    root = workspace({"memory/knowledge/references/n.md": NOTE_HEAD + body})
    assert claim_positions(cli, root) == []


def test_real_claims_about_the_world_are_still_found(workspace, cli):
    body = "\n\n".join([
        "AnythingLLM moved off port 3001 (3001 no longer answers).",
        "Its compose file is on the host — not visible from the devcontainer.",
        "Two EN docs (`a.md`, `b.md`) have no `docSource` in chunk metadata.",
        "The native DOM `SubmitEvent` is NOT compatible with React's prop type.",
        "Permission-trimmed at query time; needs Read; no local permission storage.",  # no name: missed on purpose
    ]) + "\n"
    root = workspace({"memory/knowledge/references/n.md": NOTE_HEAD + body})
    assert [line for line, _ in claim_positions(cli, root)] == [9, 11, 13, 15]


# -- stale-statement ---------------------------------------------------------------------

LATE = "2026-11-30"


def stale(cli, root: Path, *extra: str) -> list[tuple[int, int, str]]:
    result = cli("check", "--select", "MW304", "--today", LATE, "--format", "json", *extra, ".", cwd=root)
    return [(f["line"], f["column"], f["message"]) for f in findings(result)]


@pytest.mark.parametrize(
    "sentence, shown, days",
    [
        ("The mirror has no arm64 images (verified 2026-03-31).", "verified 2026-03-31", "244 days old"),
        ("As of 2026-01 the export API has no paging.", "As of 2026-01", "333 days old"),
        ("Last checked on March 3, 2026: the plan includes SSO.", "Last checked on March 3, 2026", "272 days old"),
        ("Review by 2026-06-01 whether the beta flag is still needed.", "Review by 2026-06-01", "passed 182 days ago"),
        ("This workaround is valid until 2026-05.", "valid until 2026-05", "passed 183 days ago"),
        ("截至 2026 年 3 月，該 API 仍不支援分頁。", "截至 2026 年 3 月", "274 days old"),
        ("确认于 2026-04-02：镜像站可以访问。", "确认于 2026-04-02", "242 days old"),
        ("2026年3月時点で、バッチAPIはEUリージョンで提供されていない。", "2026年3月時点", "274 days old"),
        ("この回避策は2026-04-30まで有効。", "2026-04-30まで有効", "passed 214 days ago"),
        ("有效期至 2026/04/30，之後改用新版。", "有效期至 2026/04/30", "passed 214 days ago"),
        # issue 29: the labels CJK memory puts before a date, the Korean forms after one, a month's end
        ("2026-04-01 기준 결제 API는 부분 환불을 지원하지 않는다.", "2026-04-01 기준", "243 days old"),
        ("2026년 3월 현재 베타 기능이다.", "2026년 3월 현재", "274 days old"),
        ("最終確認日 2026-03-01：バッチAPIは未対応。", "最終確認日 2026-03-01", "274 days old"),
        ("確認日：2026-03-01（EU リージョンのみ）", "確認日：2026-03-01", "274 days old"),
        ("最后确认：2026-03-01，镜像站仍不可用。", "最后确认：2026-03-01", "274 days old"),
        ("統計至 2026-03-01 的配額。", "統計至 2026-03-01", "274 days old"),
        ("2026年3月末時点の仕様。", "2026年3月末時点", "274 days old"),
    ],
)
def test_a_dated_statement_past_its_date_is_reported(workspace, cli, sentence, shown, days):
    root = workspace({"memory/knowledge/references/n.md": NOTE_HEAD + "Intro.\n\n" + sentence + "\n"})
    [(line, column, message)] = stale(cli, root)
    assert line == 11
    assert column == (NOTE_HEAD + "Intro.\n\n" + sentence).splitlines()[10].index(shown) + 1
    assert f'"{shown}"' in message and days in message
    assert "`metadata.expires`" in message


def test_recent_snapshots_future_deadlines_and_dated_records_are_not_reported(workspace, cli):
    body = "Verified 2026-11-01: the mirror answers.\n\nReview by 2027-01-15.\n\nVersion 2026.03 is out; as of v1.2 it works.\n"
    dated = NOTE_HEAD.replace("  updated: 2026-03-01\n", "  updated: 2026-03-01\n  expires: 2026-12-31\n")
    root = workspace({
        "memory/knowledge/references/a.md": NOTE_HEAD + body,
        "memory/knowledge/references/b.md": dated + "Verified 2026-01-01: the mirror answers.\n",
    })
    assert stale(cli, root) == []


def test_max_age_is_an_option(workspace, cli):
    root = workspace({
        "memory/knowledge/references/a.md": NOTE_HEAD + "Verified 2026-11-01: the mirror answers.\n",
        ".memwarden.toml": "[rules.stale-statement]\nmax_age = 14\n",
    })
    [(_, _, message)] = stale(cli, root)
    assert "29 days old" in message


def test_stale_statements_in_episodes_and_facts(workspace, cli):
    log = json.dumps(episode(1, summary="As of 2026-02-01 the runner has no GPU.")) + "\n"
    archived = json.dumps(episode(2, summary="As of 2026-02-01 nothing.", decay_status="archived")) + "\n"
    facts = "tools:\n  gh:\n    note: 'merge queues unsupported, checked 2026-01-10'\n  jq:\n    note: 'as of 2026-01 ok'\n    expires: 2026-12-01\n"
    root = workspace({"memory/episodic.jsonl": log + archived, "memory/fact.yml": facts})
    found = sorted((line, message.split('"')[1]) for line, _, message in stale(cli, root))
    assert found == [(1, "As of 2026-02-01"), (3, "checked 2026-01-10")]  # not the archived episode, not the dated fact


@pytest.mark.parametrize(
    "sentence",
    [
        "As of 2026-03-01 the repo was renamed to memwarden.",
        "As of 2026-02, we use uv for every install.",
        "As of 2026-02 the plugin is now the default.",
        "Renamed on 2026-03-01; since 2026-02 we use uv.",
        "Verified 2026-08-20 against `v1.0.0-beta.4` @ `d295c30`: the demo app builds cleanly.",
    ],
)
def test_a_date_of_history_is_not_a_stale_statement(workspace, cli, sentence):
    # Issue 29: when something changed, or a check of one pinned build, is history, not a snapshot that goes stale.
    root = workspace({"memory/knowledge/references/a.md": NOTE_HEAD + sentence + "\n"})
    assert stale(cli, root) == []


def test_a_past_event_with_a_date_is_not_a_deadline(workspace, cli):
    body = "These came from a full codebase review on 2026-03-26.\n\nWe tested it on 2026-10-20 and it works.\n"
    root = workspace({"memory/knowledge/references/a.md": NOTE_HEAD + body})
    assert stale(cli, root) == []


# -- expires only where the kind's schema allows it (issue 11, item 15) ---------------------------


@pytest.mark.parametrize("strict", [True, False])
def test_an_expires_fix_is_offered_only_where_the_schema_allows_it(workspace, cli, strict):
    # A facts schema of the user's own: under `tools` every value is a tool's note of 20 characters or more.
    tools = {"type": "object", "additionalProperties": {"type": "string", "minLength": 20}} if strict else {"type": "object"}
    facts = "identity:\n  name: Agent\ntools:\n  gh: gh does not support merge queues on this plan.\nnotes:\n  ci: CI cannot reach the registry\n"
    root = workspace({
        "memory/fact.yml": facts,
        "schema.json": json.dumps({"type": "object", "properties": {"tools": tools}}),
        ".memwarden.toml": '[kinds.facts]\nschema = "schema.json"\n',
        "memory/episodic.jsonl": "",
    })
    result = cli("check", "--select", "MW301,MW102", "--today", TODAY, "--format", "json", ".", cwd=root)
    found = {f["json_path"]: f for f in findings(result)}
    assert set(found) == {"$.tools.gh", "$.notes.ci"}
    assert ("fix" in found["$.tools.gh"]) is not strict  # `tools.expires: <date>` would be a 10-character tool note
    assert "fix" in found["$.notes.ci"]
    cli("check", "--select", "MW301", "--today", TODAY, "--fix", ".", cwd=root)
    after = cli("check", "--select", "MW102", "--format", "json", ".", cwd=root)
    assert findings(after) == []
    data = yaml_load((root / "memory/fact.yml").read_text("utf-8"))
    assert "expires" in data["notes"] and ("expires" in data["tools"]) is not strict

"""personal-data: other people's e-mail addresses and phone numbers in memory, never printed whole.

The labelled contacts in tests/data/secrets/ (manifest key "contacts", written by
its generate.py) and cases written here, checked through the real CLI on files in
temp dirs.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent / "data" / "secrets"
MANIFEST = json.loads((DATA / "manifest.json").read_text("utf-8"))
CORPUS = Path(__file__).resolve().parent / "fixtures" / "realmem"

NOTE_HEAD = "---\nname: n\ndescription: d\ntype: project\n---\n\n"


def _findings(cli, root: Path, *extra: str) -> list[dict]:
    result = cli("check", ".", "--select", "personal-data", "--format", "json", *extra, cwd=root)
    assert result.exit_code in (0, 1), result.stdout + result.stderr
    return result.json()["findings"]


@pytest.fixture(scope="module")
def findings_on_set():
    done = subprocess.run(
        [sys.executable, "-m", "memwarden", "check", "gish", "three-layer", "claude-code", "--select", "personal-data",
         "--format", "json", "--exit-zero"],
        cwd=DATA, capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("entry", MANIFEST["contacts"], ids=lambda e: e["why"])
def test_labelled_contacts(findings_on_set, entry):
    at = [f for f in findings_on_set["findings"] if (f["path"], f["line"], f["column"]) == (
        entry["path"], entry["line"], entry["column"])]
    if entry["personal"]:
        assert len(at) == 1 and at[0]["severity"] == "warning" and "fix" not in at[0]
        assert entry["value"] not in at[0]["message"]
    else:
        assert at == []


def test_nothing_but_the_labelled_contacts_is_reported(findings_on_set):
    personal = {(e["path"], e["line"], e["column"]) for e in MANIFEST["contacts"] if e["personal"]}
    assert {(f["path"], f["line"], f["column"]) for f in findings_on_set["findings"]} == personal
    text = json.dumps(findings_on_set)
    for entry in MANIFEST["contacts"]:
        if entry["personal"]:
            assert entry["value"] not in text


PERSONAL = [
    ("Ask john.smith@acme-corp.com for the keys", "j***@a***.com"),
    ("mailto:li.wei@university.edu.cn", "l***@u***.cn"),
    ("Call Bob on +33 6 12 34 56 78 after nine", "+** * ** ** ** 78"),
    ("WhatsApp +49 (0)30 1234567", "+** (*)** *****67"),
    ("tel:+442071838750", "+**********50"),
    ("Her number is (415) 867-5309.", "(***) ***-**09"),
    ("Téléphone : 01 42 68 53 07", "** ** ** ** 07"),
    ("mobile 0612345678", "********78"),
    ("電話 03-1234-5678", "**-****-**78"),
]

NOT_PERSONAL = [
    "Co-Authored-By: Claude Opus <noreply@anthropic.com>",
    "Signed-off-by: dependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com>",
    'git config user.email "you@example.com"',
    "Write to your.name@company.com or user@domain.com in the docs",
    "Report it to security@openai.com or support@github.com",
    "Clone git@github.com:org/repo.git over ssh://git@github.com/org/repo",
    "npm i react@18.2.0 @types/node@20.1.0; npx openclaw@latest",
    "Retina icon@2x.png and banner@3x.webp",
    "Mastodon @alice@mastodon.social",
    "ssh deploy@build-01.internal and user@gateway-host",
    "Released 2026-03-31 at 10:42:07, version 1.2.3 (build 20260331094512).",
    "Issue #12345678, PR 1234, id 9876543210, commit 1234567",
    "IP 192.168.100.200, port 8080, ratio 1.2.3.4",
    "cosine separation +0.05 vs +0.49",
    "timestamps 2026-03-31T10:00:00+02:00 and +1234 -567 lines",
    "ISBN 978-3-16-148410-0 and dates 31/03/2026, 03.31.2026",
    "Phone: 123-456-7890 (placeholder) and +1 (555) 010-0199 (fiction)",
    "See https://example.org/tel/+33612345678/contact",
    "Clone https://x-access-token:Abc123Def456Ghi789@github.com/acme/app.git",
    "Atlas mongodb+srv://svc-analytics:Pw0rd.Xy-9@cluster0.ab1cd.mongodb.net/prod",
    "call the API with 3 retries every 10 seconds",
]


@pytest.mark.parametrize("line, shown", PERSONAL, ids=[p[0][:30] for p in PERSONAL])
@pytest.mark.parametrize("kind", ["note", "log", "facts"])
def test_personal_contacts_in_every_kind(cli, workspace, line, shown, kind):
    files = {"memory/fact.yml": "a: 1\n"}
    if kind == "note":
        files["memory/knowledge/feedback/n.md"] = NOTE_HEAD + line + "\n"
    elif kind == "log":
        files["memory/episodic.jsonl"] = json.dumps({"id": "ep_1", "content": line}, ensure_ascii=False) + "\n"
    else:
        files["memory/fact.yml"] = "people:\n  contact: " + json.dumps(line, ensure_ascii=False) + "\n"
    root = workspace(files)
    found = _findings(cli, root)
    assert len(found) == 1, found
    assert shown in found[0]["message"]
    value = found[0]["message"]
    for piece in line.replace("(", " ").replace(")", " ").split():
        if "@" in piece or sum(c.isdigit() for c in piece) >= 3:
            assert piece.strip(".,:<>") not in value


@pytest.mark.parametrize("line", NOT_PERSONAL)
def test_nobodys_addresses_and_numbers_that_are_not_phones(cli, workspace, line):
    root = workspace({"memory/knowledge/feedback/n.md": NOTE_HEAD + line + "\n\n```\n" + line + "\n```\n", "memory/fact.yml": "a: 1\n"})
    assert _findings(cli, root) == []


def test_allow_lists_own_addresses_domains_and_numbers(cli, workspace):
    lines = ["me: ana.souza@gmail.com", "work: ana@souza-labs.com.br", "ops: ops.lead@eu.souza-labs.com.br",
             "colleague: pedro.lima@gmail.com", "phone: +55 11 91234 5678", "other phone: +55 21 99876 5432"]
    root = workspace({"memory/knowledge/feedback/n.md": NOTE_HEAD + "\n".join(lines) + "\n", "memory/fact.yml": "a: 1\n"})
    assert [f["line"] for f in _findings(cli, root)] == [7, 8, 9, 10, 11, 12]
    (root / ".memwarden.toml").write_text(
        '[rules.personal-data]\nallow = ["Ana.Souza@gmail.com", "souza-labs.com.br", "+55 (11) 91234-5678"]\n', "utf-8")
    assert [f["line"] for f in _findings(cli, root)] == [10, 12]


@pytest.mark.parametrize("front", [
    "---\nname: u\ndescription: who I am\ntype: user\n---\n",
    "---\nname: u\ndescription: who I am\nmetadata:\n  node_type: memory\n  type: user\n---\n",
])
def test_a_note_about_the_user_holds_their_own_details(cli, workspace, front):
    body = "\n- email: ana.souza@gmail.com\n- phone: +55 11 91234 5678\n"
    root = workspace({".claude/memory/MEMORY.md": "- [u](u.md) — me\n- [p](p.md) — project\n",
                      ".claude/memory/u.md": front + body,
                      ".claude/memory/p.md": front.replace("user", "project") + body})
    found = _findings(cli, root / ".claude" / "memory")
    first = front.count("\n") + 2
    assert sorted((Path(f["path"]).name, f["line"]) for f in found) == [("p.md", first), ("p.md", first + 1)]


def test_the_corpus_user_profile_is_the_users_own(cli, tmp_path):
    """cavo789__blog's user_profile.md (type: user under metadata:) gives the user's own address."""
    root = tmp_path / "repo"
    shutil.copytree(CORPUS / "cavo789__blog" / ".claude" / "memory", root / ".claude" / "memory")
    assert _findings(cli, root / ".claude" / "memory") == []


def test_the_rule_is_declared_with_its_docs(cli):
    from memwarden import registry

    declared = registry.by_name_or_code("personal-data")
    assert (declared.code, declared.severity.value, declared.fix) == ("MW703", "warning", None)
    for section in registry.DOC_SECTIONS:
        assert f"## {section}" in declared.doc
    assert "personal-data" in (Path(__file__).resolve().parents[1] / "docs" / "rules.md").read_text("utf-8")


# -- issue 29, round 7: the agent's own inbox, the owner's own field in OpenClaw's USER.md --------------------


@pytest.mark.parametrize("line", [
    "- **Inbox:** orbit-helper@agentmail.to\n",
    "Outreach goes out from research.bot7@agentmail.to (the agent's inbox).\n",
])
def test_an_inbox_handed_to_an_agent_is_nobodys(line):
    from memwarden.analysis.secrets.personal import find_contacts

    assert find_contacts(line) == []


def test_a_person_beside_an_agent_inbox_is_still_found():
    from memwarden.analysis.secrets.personal import find_contacts

    line = "Replies to orbit-helper@agentmail.to are forwarded to priya.raman@gmail.com\n"
    assert [c.value for c in find_contacts(line)] == ["priya.raman@gmail.com"]


USER_MD = (
    "# USER.md - About Your Human\n"
    "\n"
    "**Dana Kowalski** - runs the bakery\n"
    "- **Email:** dana.k@fastmail.com\n"
    "- Phone: +44 7700 900123\n"
    "- Partner: Lee Ortiz (lee.ortiz@gmail.com), does the books\n"
    "- Accountant email: m.haddad@outlook.com\n"
)


def _openclaw(tmp_path: Path, user_md: str, daily: str = "") -> Path:
    (tmp_path / "SOUL.md").write_text("# SOUL.md\n\nBe brief.\n", "utf-8")
    (tmp_path / "AGENTS.md").write_text("# AGENTS.md\n\nRead USER.md first.\n", "utf-8")
    (tmp_path / "USER.md").write_text(user_md, "utf-8")
    if daily:
        (tmp_path / "memory").mkdir()
        (tmp_path / "memory" / "2026-05-04.md").write_text(daily, "utf-8")
    return tmp_path


def test_the_owners_own_field_in_openclaw_user_md_is_theirs(cli, tmp_path):
    root = _openclaw(tmp_path, USER_MD, daily="# 2026-05-04\n\n- Email: dana.k@fastmail.com\n")
    found = {(f["path"], f["line"]) for f in _findings(cli, root)}
    # Line 4 and 5 are the owner's own e-mail and phone; line 6 and 7 are other people's. The same address
    # outside the profile is still reported: only the file about the owner says whose it is.
    assert found == {("USER.md", 6), ("USER.md", 7), ("memory/2026-05-04.md", 3)}


def test_a_user_md_that_is_not_the_workspace_profile_is_read_as_any_file(cli, tmp_path):
    root = _openclaw(tmp_path, "# USER.md\n\nBe brief.\n", daily="# 2026-05-04\n")
    (root / "memory" / "USER.md").write_text(USER_MD, "utf-8")
    found = {(f["path"], f["line"]) for f in _findings(cli, root)}
    assert ("memory/USER.md", 4) in found and ("memory/USER.md", 6) in found


# -- round 9: handles that read like addresses, fiction's numbers run together --------------------


@pytest.mark.parametrize("line", [
    "Her Bluesky handle is oakleafpress@bsky.social (the shop's account).\n",
    "- Bluesky: studio.notes@bsky.social\n",
    "Follow-ups on Mastodon: rowan@hachyderm.io, lintfox@fosstodon.org\n",
    "Boost the fediverse thread by kestrel@social.coop\n",
    "Mastodon 的账号 harbourlight@mstdn.jp 每周发两条\n",
])
def test_a_social_networks_handle_is_no_address(line):
    from memwarden.analysis.secrets.personal import find_contacts

    assert find_contacts(line) == []


@pytest.mark.parametrize(("line", "shown"), [
    ("Mastodon login e-mail: dana.k@fastmail.com\n", "dana.k@fastmail.com"),  # a mail word on the line
    ("Found her on Mastodon; write to priya.raman@gmail.com\n", "priya.raman@gmail.com"),  # a mail provider
    ("Bluesky sign-up mailbox: rowan.lee@posteo.de\n", "rowan.lee@posteo.de"),
    ("Met rowan.lee@hachyderm-labs.io at the meetup\n", "rowan.lee@hachyderm-labs.io"),  # no network named
])
def test_an_address_beside_a_social_network_is_still_found(line, shown):
    from memwarden.analysis.secrets.personal import find_contacts

    assert [c.value for c in find_contacts(line)] == [shown]


@pytest.mark.parametrize("line", [
    "openclaw message send --target +15555550123 --message \"Hi\"\n",
    "Test SMS to +13125550188 (a number kept for fiction)\n",
    "Call +1 555 010 4477 from the demo script\n",  # area code 555
])
def test_fictions_numbers_run_together_are_no_phone(line):
    from memwarden.analysis.secrets.personal import find_contacts

    assert find_contacts(line) == []


@pytest.mark.parametrize(("line", "shown"), [
    ("WhatsApp the landlord on +14155552671\n", "+14155552671"),
    ("Backup contact: +15125550234\n", "+15125550234"),  # 555-02xx is not fiction's range
    ("Ring Jonas on +4915255501234\n", "+4915255501234"),  # not North American
])
def test_real_numbers_near_fictions_range_are_still_found(line, shown):
    from memwarden.analysis.secrets.personal import find_contacts

    assert [c.value for c in find_contacts(line)] == [shown]


# -- round 9: the agent's own mailbox, named after it in OpenClaw's IDENTITY.md ---------------------

IDENTITY_MD = "# IDENTITY.md - Who Am I?\n\n- **Name:** Wren\n- **Vibe:** calm, exact\n"
OWNER_MD = "# USER.md - About Your Human\n\n- **Name:** Tomas Berg\n- **Timezone:** Europe/Oslo\n"


def test_the_agents_own_mailbox_is_nobodys(cli, tmp_path):
    root = _openclaw(tmp_path, OWNER_MD, daily=(
        "# 2026-05-04\n\n"
        "- Outgoing mail is signed by wren@brightforge.no\n"  # the agent's own address
        "- Proposed: a second inbox, z.B. wren@wren-helper.dev\n"
        "- Tomas's accountant: ingrid.holm@revisjon.no\n"  # a person: still reported
        "- Wren's sister account for tests: wren@gmail.com\n"  # a big provider: anyone named Wren has one
        "- Forward invoices to wrenna@brightforge.no\n"  # not the agent's name
    ))
    (root / "IDENTITY.md").write_text(IDENTITY_MD, "utf-8")
    found = {(f["path"], f["line"]) for f in _findings(cli, root)}
    assert found == {("memory/2026-05-04.md", 5), ("memory/2026-05-04.md", 6), ("memory/2026-05-04.md", 7)}


def test_an_agent_named_like_its_owner_keeps_the_owners_address_reported(cli, tmp_path):
    root = _openclaw(tmp_path, "# USER.md\n\n- **Name:** Wren Calder\n", daily="# 2026-05-04\n\n- wren@calder.studio\n")
    (root / "IDENTITY.md").write_text(IDENTITY_MD, "utf-8")
    assert {(f["path"], f["line"]) for f in _findings(cli, root)} == {("memory/2026-05-04.md", 3)}


def test_without_identity_md_an_address_named_like_no_agent_is_reported(cli, tmp_path):
    root = _openclaw(tmp_path, OWNER_MD, daily="# 2026-05-04\n\n- wren@brightforge.no\n")
    assert {(f["path"], f["line"]) for f in _findings(cli, root)} == {("memory/2026-05-04.md", 3)}


def test_a_changed_identity_md_changes_the_findings_a_cached_run_gives(cli, tmp_path):
    root = _openclaw(tmp_path, OWNER_MD, daily="# 2026-05-04\n\n- wren@brightforge.no\n")
    (root / "IDENTITY.md").write_text(IDENTITY_MD, "utf-8")
    assert _findings(cli, root) == []  # the run stores its answers
    (root / "IDENTITY.md").write_text(IDENTITY_MD.replace("Wren", "Pike"), "utf-8")
    assert {(f["path"], f["line"]) for f in _findings(cli, root)} == {("memory/2026-05-04.md", 3)}
    assert (root / ".memwarden_cache").is_dir()  # the second answer came through the cache

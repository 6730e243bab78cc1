"""Secrets the scan must see in every form a message quotes (issue 24, items 8-12).

A message quotes a YAML value as YAML reads it and Markdown prose as it renders; the scan reads both forms,
so a token split by YAML's escaped line break or rebuilt by Markdown's rendering is found, and hidden in every
output. Also: a URL password holding '#', `mysql -pPASSWORD`, base64 of a sentence that holds a secret, and the
hex-bodied service tokens. Each case runs the real CLI on real files, in every output format.
"""

from __future__ import annotations

import base64
import os
import random
import string
import subprocess

import pytest

from conftest import write_files
from memwarden.analysis.secrets import scan
from test_guard import ENV, GISH_BASE, GISH_NOTE, Run, assert_no_crash, assert_no_leak, episode, mw

_random = random.Random(2424)
ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
NOTE = "memory/knowledge/tools/n0.md"
FORMATS = ("text", "json", "sarif", "github", "gitlab")


def chars(n: int, alphabet: str = ALNUM) -> str:
    return "".join(_random.choice(alphabet) for _ in range(n))


def github_token() -> str:
    return "ghp" + "_" + chars(36)


def password() -> str:
    return chars(5) + "7" + chars(5) + "q"


def _claim_in_note(written: str) -> dict[str, str]:
    """A note whose body says `written` inside a negative claim, which the claims rule quotes (and no word
    such as 'key' or 'token' that would let the line through the scanner's gate on its own)."""
    body = f"The deploy login {written} does not work for the staging bucket.\n"
    return {**GISH_BASE, NOTE: GISH_NOTE.format(name="n0").replace("Body.\n", body)}


def _claim_in_fact(written: str) -> dict[str, str]:
    """A fact whose double-quoted value holds `written` inside a negative claim."""
    return {**GISH_BASE, "memory/fact.yml": "schema_version: 1\nidentity:\n  name: Agent\ntools:\n  gh:\n"
            f'    note: "The token {written} does not work for the deploy API."\n'}


def _in_process(*args, cwd) -> Run:
    """memwarden run through click in this process: the same code as a separate process, without its start-up."""
    from click.testing import CliRunner

    from memwarden.cli.main import main

    before = os.getcwd()
    os.chdir(cwd)
    try:
        done = CliRunner().invoke(main, list(args), env=ENV, catch_exceptions=False)
    finally:
        os.chdir(before)
    return Run(subprocess.CompletedProcess(args, done.exit_code, done.stdout_bytes, done.stderr_bytes))


def _check_everywhere(root, secret: str, path: str, label: str) -> None:
    """secret-in-memory reports the secret in `path` as a `label`, and no output format prints a run of it.
    The terminal's format runs as a separate process, as a user runs it; the others in this process (the 43
    forms times six runs were a tenth of the suite's time, most of it Python starting up)."""
    for fmt in FORMATS:
        run = (mw if fmt == "text" else _in_process)("check", "--format", fmt, ".", cwd=root)
        assert_no_crash(run)
        assert_no_leak(run.text, [secret], f"check --format {fmt}")
        if fmt == "json":
            found = [f["message"] for f in run.json()["findings"] if f["name"] == "secret-in-memory" and f["path"] == path]
            assert any(message.startswith(label) for message in found), run.text
    run = _in_process("check", "--diff", "--unsafe-fixes", ".", cwd=root)
    assert_no_crash(run)
    assert_no_leak(run.text, [secret], "check --diff --unsafe-fixes")


# -- 8: YAML's escaped line break -----------------------------------------------------------------


def test_a_token_split_by_yamls_escaped_line_break_is_found_and_never_printed(tmp_path):
    token = github_token()
    root = write_files(tmp_path / "ws", _claim_in_fact(f"{token[:18]}\\\n      {token[18:]}"))
    _check_everywhere(root, token, "memory/fact.yml", "GitHub token")


def test_an_escaped_line_break_outside_a_double_quoted_scalar_joins_nothing():
    token = github_token()
    plain = f"note: {token[:18]}\\\n  {token[18:]}\n"  # a plain scalar keeps its backslash: two words
    assert [d.type.slug for d in scan(plain, "yaml")] == []


# -- 9: Markdown that rebuilds a token when rendered -----------------------------------------------


@pytest.mark.parametrize("split", [
    lambda t: f"{t[:18]}**{t[18:]}**",
    lambda t: f"{t[:18]}<span></span>{t[18:]}",
    lambda t: f"{t[:18]}<!-- -->{t[18:]}",
    lambda t: t.replace("_", "\\_"),
    lambda t: f"{t[:18]}`{t[18:]}`",
    lambda t: f"[{t[:18]}](https://example.com){t[18:]}",
    lambda t: t.replace("_", "&#95;"),
    # pieces too short for the scanner's gate on their own: the file holds no other sign of a secret
    lambda t: f"{t[:10]}**{t[10:20]}**{t[20:30]}**{t[30:]}**",
    lambda t: f"{t[:12]}\u200b{t[12:24]}\u200b{t[24:]}",
    lambda t: f"{t[:12]}&#8203;{t[12:24]}&ZeroWidthSpace;{t[24:]}",
], ids=["strong", "empty-tag", "comment", "escaped-underscore", "code-span", "link-text", "entity", "short-pieces",
        "zero-width-space", "zero-width-entity"])
def test_markdown_that_renders_a_token_is_found_and_never_printed(tmp_path, split):
    token = github_token()
    root = write_files(tmp_path / "ws", _claim_in_note(split(token)))
    _check_everywhere(root, token, NOTE, "GitHub token")  # the whole token, not a random-looking piece of it


@pytest.mark.parametrize("split", [
    lambda t: f"{t[:18]}**{t[18:]}**",
    lambda t: f"{t[:18]}<!-- -->{t[18:]}",
], ids=["strong", "comment"])
def test_markdown_in_a_logs_record_that_renders_a_token_is_found_and_never_printed(tmp_path, split):
    """An episode's summary is Markdown too: a message quotes it raw, and a reader (a GitHub annotation, a
    SARIF viewer) renders it."""
    token = github_token()
    summary = f"The deploy login {split(token)} does not work for the release channel."
    root = write_files(tmp_path / "ws", {**GISH_BASE, "memory/episodic.jsonl": episode(1, summary=summary) + "\n"})
    _check_everywhere(root, token, "memory/episodic.jsonl", "GitHub token")


def test_markup_that_joins_nothing_is_not_scanned_twice():
    """Emphasis and code around whole words render to the same words: no second scan, no new finding."""
    text = "**Deploy** with `make release`, then _tell_ the team <br> &amp; wait.\n"
    assert scan(text, "markdown") == []


# -- 10: a URL password with '#', mysql -pPASSWORD ---------------------------------------------------


@pytest.mark.parametrize("written, label", [
    (lambda pw: f"postgres://app:{pw[:5]}#{pw[5:]}@db.internal:5432/app", "password in a connection URL"),
    (lambda pw: f"mysql -uroot -p{pw} -h db.internal", "password"),
], ids=["url-password-with-hash", "mysql-attached-p"])
def test_command_line_and_url_passwords_are_found_and_never_printed(tmp_path, written, label):
    pw = password()
    root = write_files(tmp_path / "ws", _claim_in_note(written(pw)))
    _check_everywhere(root, pw, NOTE, label)


# -- 11: base64 of a sentence that holds a secret --------------------------------------------------


def test_base64_of_a_sentence_holding_a_token_is_a_secret():
    token = github_token()
    sentence = f"the deploy token is {token} and it works for the release job"
    blob = base64.b64encode(sentence.encode()).decode()
    assert [d.type.slug for d in scan(f"Blob: {blob}\n", "markdown")] == ["high-entropy-string"]
    harmless = base64.b64encode(b"the deploy went fine and the team was told about it").decode()
    assert scan(f"Blob: {harmless}\n", "markdown") == []  # a sentence with no secret is still plain text


def test_base64_of_a_sentence_holding_a_password_is_a_secret():
    sentence = f"connect with password: {password()} to the staging database"
    blob = base64.b64encode(sentence.encode()).decode()
    assert [d.type.slug for d in scan(f"Blob: {blob}\n", "markdown")] == ["high-entropy-string"]


# -- 12: service tokens with a hex body ---------------------------------------------------------------


@pytest.mark.parametrize("token, slug, label", [
    ("dop_v1_" + chars(64, HEX), "digitalocean-token", "DigitalOcean token"),
    ("shpat_" + chars(32, HEX), "shopify-token", "Shopify access token"),
    ("dapi" + chars(32, HEX), "databricks-token", "Databricks token"),
    ("key-" + chars(32, HEX), "mailgun-key", "Mailgun API key"),
], ids=["digitalocean", "shopify", "databricks", "mailgun"])
def test_service_tokens_with_a_hex_body_are_found_in_prose(tmp_path, token, slug, label):
    assert [d.type.slug for d in scan(f"The token {token} was rotated.\n", "markdown")] == [slug]
    root = write_files(tmp_path / "ws", _claim_in_note(token))
    _check_everywhere(root, token, NOTE, label)


def test_the_forms_change_nothing_found_in_the_planted_set(monkeypatch):
    """The planted set (tests/data/secrets) splits no secret: scanning the folded and rendered forms too finds
    exactly what the raw scan finds there, the same spans and values (a rendered JSONL line is still JSON: its
    escapes end a value, as on the raw line)."""
    from conftest import REPO
    from memwarden.analysis.secrets import forms, scanner

    suffixes = {".jsonl": "jsonl", ".json": "jsonl", ".yml": "yaml", ".yaml": "yaml", ".md": "markdown"}
    texts = [(p.read_text("utf-8", "replace"), suffixes[p.suffix])
             for p in sorted((REPO / "tests" / "data" / "secrets").rglob("*")) if p.is_file() and p.suffix in suffixes]

    def found():
        return [[(d.type.slug, d.start, d.end, d.digest) for d in each] for each in scanner.scan_texts(texts)]

    with_forms = found()
    monkeypatch.setattr(forms, "joined_lines", lambda text, fmt: iter(()))
    assert with_forms == found()
    assert sum(map(len, with_forms)) >= 80


@pytest.mark.parametrize("line", [
    "    /" + "*" * 31,  # a CSS/JS banner comment in an HTML page kept beside the memory
    "a" + "`" * 40 + "!",
    "a" + "<!---->" * 40 + "!",
])
def test_runs_of_markup_with_no_word_after_them_are_read_in_one_pass(tmp_path, line):
    # The markup test once tried every way to split such a run (2^31 for the banner): a whole check of a real
    # workspace never ended. In a child process with a generous limit, so a return of the hang fails, not hangs.
    import subprocess
    import sys

    script = (
        "import sys; from memwarden.analysis.secrets import forms; "
        "line = sys.stdin.read(); print(forms.may_join_secret(line * 50, 'markdown'), "
        "list(forms.rendered_markdown_lines(line)))"
    )
    done = subprocess.run([sys.executable, "-c", script], input=line, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False []"


# A value after a Markdown bold label, as OpenClaw's TOOLS.md and daily notes write credentials (batch 12 found
# them unreported), and a secret's two-word name written with a space. Each row: the line, whether a secret is in
# it, why. The labels that name no secret, and a description after a label, stay quiet.
def _bold_label_rows():
    key, pw = "sk_inst_" + chars(32, "0123456789abcdef"), password()
    return [
        (f"- **API Key**: {key}", True, "bold label, colon after"),
        (f"- **API Key:** {key}", True, "bold label, colon inside"),
        (f"**Password**: {pw}", True, "a password after a bold label"),
        (f"- **Client Key**: {key}", True, "another two-word name"),
        (f"- API Key: {key}", True, "a spaced name without bold"),
        (f"VNC password: {pw}", True, "a password in prose after its name"),
        ("- **API Key**: see the team vault", False, "a description, not a value"),
        ("- **API Key**: `$INSTREET_API_KEY`", False, "a reference to a variable"),
        ("- **Password**: <your password>", False, "a placeholder"),
        (f"- **Owner**: {chars(12)}", False, "a label that names no secret"),
        ("- **API Key**: stored in 1Password", False, "where it is kept"),
        # batch 14's message bug: a test verdict's label before a spec file, which then hid the file's words
        # inside other file names wherever a message quoted them.
        ("A `Category`-grouped tree, build clean. **Live VR PASS:** `e2e/p15e-knowledge-vr.spec.ts` (5 screens)", False,
         "a file named after a verdict"),
        ("- **Password**: `./secrets/prod.env`", False, "the file that holds it"),
        (f"- **Password**: `{pw}`", True, "a quoted password"),
    ]


@pytest.mark.parametrize("line, secret, why", _bold_label_rows(), ids=lambda v: v if isinstance(v, str) and " " in v else None)
def test_values_after_markdown_labels(line, secret, why):
    assert bool(scan(line + "\n", "markdown")) is secret, why


def test_a_value_after_a_bold_label_is_redacted_and_the_label_kept(tmp_path):
    key = "sk_inst_" + chars(32, HEX)
    root = tmp_path / "ws"
    write_files(root, {"SOUL.md": "# Soul\n", "TOOLS.md": f"# Tools\n\n- **API Key**: {key}\n- **Base URL**: https://api.example.org\n"})
    run = mw("check", "--select", "secret-in-memory", "--preview", "--fix", "--unsafe-fixes", ".", cwd=root)
    assert_no_crash(run)
    assert_no_leak(run.text, [key], "check --fix")
    assert (root / "TOOLS.md").read_text() == "# Tools\n\n- **API Key**: [REDACTED:secret]\n- **Base URL**: https://api.example.org\n"


def test_a_file_named_after_a_verdict_label_leaves_other_file_names_shown(tmp_path):
    # Batch 14: `**Live VR PASS:** `e2e/p15e-knowledge-vr.spec.ts`` read as a password hid its runs
    # ("-knowledge-") inside the note's own name wherever another rule's message quoted it.
    root = tmp_path / "memory"
    note = ("---\nname: p15 plan\ndescription: plan\ntype: project\n---\n\n"
            "A `Category`-grouped tree, build clean. **Live VR PASS:** `e2e/p15e-knowledge-vr.spec.ts` (5 screens)\n")
    write_files(root, {"MEMORY.md": "# Memory\n\n- [Other](other.md) - other\n",
                       "other.md": "---\nname: other\ndescription: other\ntype: project\n---\n\nBody.\n",
                       "p15-research-knowledge-plan.md": note})
    run = mw("check", "--preview", "--format", "json", "--exit-zero", "--no-cache", ".", cwd=root)
    assert_no_crash(run)
    assert "SECRET:" not in run.text
    assert "p15-research-knowledge-plan.md" in run.text

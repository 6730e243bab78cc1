"""Issue 11: the guard holds. Nothing secret is printed, nothing slips past, nothing is lost, no input crashes a run.

One or more tests per numbered item of the issue, named `test_itemNN_...`, each through the real
CLI in a subprocess (`python -m memwarden`), with real git repositories where git is involved and
the hooks' own command lines (read from .pre-commit-hooks.yaml) where a hook is involved. Each test
asserts the behaviour the issue asks for; they were written before the fixes, against a main where
every item was reproduced by hand.

The secrets are fake but realistic (a GitHub token `ghp_` + 36 alphanumerics, an AWS key `AKIA` +
16, a Slack bot token, URL passwords), built from a seeded random generator so that none of them
shares a run of 10 characters with anything else a report could contain. "Printed" means: any
10-character run of the secret appears in the text (stdout, stderr, a written report, the cache).
"""

from __future__ import annotations

import base64
import json
import os
import random
import re
import shlex
import shutil
import string
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, git, run_memwarden, write_files

UPPER_DIGITS = string.ascii_uppercase + string.digits
ALNUM = string.ascii_letters + string.digits
_rng = random.Random(20260311)


def _chars(n: int, alphabet: str = ALNUM) -> str:
    return "".join(_rng.choice(alphabet) for _ in range(n))


def github_token() -> str:
    return "ghp" + "_" + _chars(36)


def aws_key() -> str:
    return "AKIA" + _chars(16, UPPER_DIGITS)


def slack_token() -> str:
    return "xoxb" + "-" + _chars(12, string.digits) + "-" + _chars(13, string.digits) + "-" + _chars(24)


def password() -> str:
    """A password that has letters and digits, as the keyword and URL detectors want."""
    return _chars(5) + "7" + _chars(5) + "q"


# -- helpers -------------------------------------------------------------------------------------


def leaked_runs(text: str, secrets, size: int = 10) -> list[str]:
    """Every run of `size` characters of any secret that occurs in text (empty: nothing leaked)."""
    found = []
    for secret in secrets:
        for i in range(len(secret) - size + 1):
            run = secret[i : i + size]
            if run in text:
                found.append(run)
                break
    return found


def assert_no_leak(text: str, secrets, where: str) -> None:
    runs = leaked_runs(text, secrets)
    assert not runs, f"{where}: {len(runs)} secret(s) printed, e.g. the run {runs[0]!r}"


class Run:
    def __init__(self, done: subprocess.CompletedProcess):
        self.rc = done.returncode
        self.raw_out = done.stdout
        self.raw_err = done.stderr
        self.out = done.stdout.decode("utf-8", "replace")
        self.err = done.stderr.decode("utf-8", "replace")

    @property
    def text(self) -> str:
        return self.out + self.err

    def json(self):
        return json.loads(self.raw_out.decode("utf-8"))

    def __repr__(self):
        return f"Run(rc={self.rc}, out={self.out[-2000:]!r}, err={self.err[-2000:]!r})"


ENV = {"MEMWARDEN_NO_PROGRESS": "1", "NO_COLOR": "1"}


def mw(*args, cwd: Path, env: dict | None = None) -> Run:
    return Run(run_memwarden(*args, cwd=cwd, env={**ENV, **(env or {})}))


def assert_no_crash(run: Run) -> None:
    assert "Traceback" not in run.err, run
    assert "internal error" not in run.err, run


def _hooks() -> list[dict]:
    from ruamel.yaml import YAML

    return YAML(typ="safe").load((REPO / ".pre-commit-hooks.yaml").read_text("utf-8"))


def hook_args(hook_id: str) -> tuple[dict, list[str]]:
    """The hook's definition and the arguments of its entry after `memwarden`."""
    hook = next(h for h in _hooks() if h["id"] == hook_id)
    argv = shlex.split(hook["entry"])
    assert argv[0] == "memwarden", hook["entry"]
    return hook, argv[1:]


def _tree_files(root: Path) -> list[str]:
    names = []
    for directory, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in (".git", ".memwarden_cache"))
        for name in filenames:
            names.append(os.path.relpath(os.path.join(directory, name), root).replace(os.sep, "/"))
    return sorted(names)


def run_hook(hook_id: str, cwd: Path, files: list[str] | None = None) -> Run:
    """Run a hook's command line as pre-commit does: its entry, plus the matching file names unless
    the hook sets pass_filenames: false (`files` defaults to every file of the tree)."""
    hook, args = hook_args(hook_id)
    names: list[str] = []
    if hook.get("pass_filenames", True):
        pattern = re.compile(hook.get("files", ""))
        names = [f for f in (files if files is not None else _tree_files(cwd)) if pattern.search(f)]
    return mw(*args, *names, cwd=cwd)


def cache_text(root: Path) -> str:
    """Everything in .memwarden_cache/, as text."""
    parts = []
    cache = root / ".memwarden_cache"
    if cache.is_dir():
        for path in sorted(cache.rglob("*")):
            if path.is_file():
                parts.append(path.read_bytes().decode("utf-8", "replace"))
    return "\n".join(parts)


def findings(run: Run) -> list[dict]:
    return run.json()["findings"]


def commit(root: Path, message: str = "base") -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)


def episode(i: int, **fields) -> str:
    record = {"id": f"ep_{i:08d}", "ts": f"2026-01-{i:02d}T10:00:00Z", "type": "insight",
              "summary": f"Episode {i} went fine.", "tags": ["deploy", "ci"]}
    record.update(fields)
    return json.dumps(record, ensure_ascii=False)


GISH_NOTE = "---\nname: {name}\ndescription: d\nmetadata:\n  type: feedback\n  updated: 2026-01-01\n---\n\nBody.\n"
GISH_BASE = {
    "memory/fact.yml": "schema_version: 1\nidentity:\n  name: Agent\n",
    "memory/knowledge/tools/n0.md": GISH_NOTE.format(name="n0"),
    "MEMORY.md": '# Memory\n\n- "the deploy said done but nothing ran" → [n0](memory/knowledge/tools/n0.md)\n',
}


def _unprivileged_prefix() -> list[str]:
    """Run memwarden as someone file permissions apply to (as root: inside a user namespace)."""
    if os.geteuid() != 0:
        return []
    if shutil.which("unshare") and subprocess.run(["unshare", "-U", "true"], capture_output=True).returncode == 0:
        return ["unshare", "-U"]
    pytest.skip("needs a non-root user or user namespaces to make a file unreadable")


def mw_unprivileged(*args, cwd: Path) -> Run:
    env = {**os.environ, **ENV, "PYTHONPATH": str(REPO / "src"), "MEMWARDEN_NO_CACHE": "1"}
    env.pop("GITHUB_ACTIONS", None)
    done = subprocess.run([*_unprivileged_prefix(), sys.executable, "-m", "memwarden", *map(str, args)],
                          cwd=cwd, env=env, capture_output=True, timeout=120)
    return Run(done)


@pytest.fixture
def locked():
    """locked(path, mode) chmods a file or folder until the test ends."""
    changed: list[tuple[Path, int]] = []

    def lock(path: Path, mode: int = 0o000) -> Path:
        changed.append((path, path.stat().st_mode & 0o7777))
        path.chmod(mode)
        return path

    yield lock
    for path, mode in reversed(changed):
        path.chmod(mode)


# == Secrets are printed ===========================================================================

# -- item 1: hiding does not depend on which rules are selected -----------------------------------

IGNORE_SECRET_RULES = ("--ignore", "secret-in-memory,personal-path")


def _item01_workspace(root: Path) -> tuple[Path, list[str]]:
    claim, key, ident, tag = github_token(), aws_key(), slack_token(), slack_token()
    files = {
        "memory/scratchpad.md": "# pad\n",
        "memory/fact.yml": (
            "tools:\n"
            f'  note: "The token {claim} does not work for the deploy API."\n'
            f"  {key}: first\n"
            f"  {key}: second\n"
        ),
        "memory/episodic.jsonl": (
            episode(1, id=f"ep_{ident}", tags=[tag, "Deploy"]) + "\n"
            + episode(2, id=f"ep_{ident}") + "\n"
        ),
    }
    return write_files(root, files), [claim, key, ident, tag]


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_item01_rules_quoting_a_claim_tag_id_or_key_hide_secrets_when_secret_rules_are_ignored(tmp_path, fmt):
    root, secrets = _item01_workspace(tmp_path / "ws")
    run = mw("check", "--no-cache", "--format", fmt, *IGNORE_SECRET_RULES, ".", cwd=root)
    assert run.rc == 1, run
    for code in ("MW301", "MW202", "MW105", "MW103"):  # every quoting rule did report
        assert code in run.out, (code, run)
    assert_no_leak(run.text, secrets, f"check --format {fmt} {' '.join(IGNORE_SECRET_RULES)}")


def test_item01_the_memwarden_hook_prints_no_secret(tmp_path):
    root, secrets = _item01_workspace(tmp_path / "ws")
    run = run_hook("memwarden", root)  # check --fix --ignore secret-in-memory,personal-path FILES...
    assert run.rc == 1, run
    assert "MW105" in run.out and "MW103" in run.out, run
    assert_no_leak(run.text, secrets, "the memwarden hook")


def test_item01_the_cache_holds_no_secret_when_secret_rules_are_ignored(tmp_path):
    root, secrets = _item01_workspace(tmp_path / "ws")
    first = mw("check", *IGNORE_SECRET_RULES, ".", cwd=root)
    again = mw("check", *IGNORE_SECRET_RULES, ".", cwd=root)  # answered from the cache
    assert first.rc == again.rc == 1, (first, again)
    assert (root / ".memwarden_cache").is_dir()
    assert_no_leak(first.text + again.text, secrets, "cached check output")
    assert_no_leak(cache_text(root), secrets, ".memwarden_cache/")


# -- item 2: a secret mapping key in json_path --------------------------------------------------


def test_item02_a_secret_mapping_key_stays_out_of_json_path_in_json_sarif_and_cache(tmp_path):
    yaml_key, yaml_value, json_key, json_value = aws_key(), github_token(), github_token(), aws_key()
    root = write_files(tmp_path / "ws", {
        "memory/scratchpad.md": "# pad\n",
        "memory/fact.yml": f"tools:\n  deploy:\n    {yaml_key}: {yaml_value}\n",
        "memory/episodic.jsonl": episode(1, meta={json_key: json_value}) + "\n",
    })
    secrets = [yaml_key, yaml_value, json_key, json_value]
    for fmt in ("json", "sarif"):
        run = mw("check", "--format", fmt, ".", cwd=root)
        assert run.rc == 1, run
        assert "MW701" in run.out, run
        assert_no_leak(run.text, secrets, f"check --format {fmt}")
    as_json = mw("check", "--format", "json", ".", cwd=root)
    flagged = {f["path"] for f in findings(as_json) if f["name"] == "secret-in-memory"}
    assert flagged == {"memory/fact.yml", "memory/episodic.jsonl"}
    assert_no_leak(cache_text(root), secrets, ".memwarden_cache/")


# -- item 3: budget prints entries past the edge -----------------------------------------------


def _item03_workspace(root: Path) -> tuple[Path, list[str]]:
    token = github_token()
    entries = "".join(
        f'- "the deploy said done but step {i} never ran" → [n{i}](memory/knowledge/tools/n{i}.md)\n'
        for i in range(8)
    )
    entries += f'- "the token {token} was rejected by the API" → [tok](memory/knowledge/tools/tok.md)\n'
    files = {
        "MEMORY.md": "# Memory\n\n" + entries,
        ".memwarden.toml": "[rules.index-over-budget]\nmax = 300\nedge = 500\n",
        "memory/fact.yml": "schema_version: 1\nidentity:\n  name: Agent\n",
        "memory/knowledge/tools/tok.md": GISH_NOTE.format(name="tok"),
    }
    for i in range(8):
        files[f"memory/knowledge/tools/n{i}.md"] = GISH_NOTE.format(name=f"n{i}")
    return write_files(root, files), [token]


def test_item03_budget_text_hides_a_secret_in_an_entry_past_the_edge(tmp_path):
    root, secrets = _item03_workspace(tmp_path / "ws")
    run = mw("budget", cwd=root)
    assert run.rc == 2, run
    assert "MEMORY.md:11" in run.out, run  # the entry holding the token is listed, by line
    assert_no_leak(run.text, secrets, "memwarden budget")


def test_item03_budget_json_hides_a_secret_in_an_entry_past_the_edge(tmp_path):
    root, secrets = _item03_workspace(tmp_path / "ws")
    run = mw("budget", "--json", cwd=root)
    assert run.rc == 2, run
    assert 11 in [entry["line"] for entry in run.json()["past_edge"]], run
    assert_no_leak(run.text, secrets, "memwarden budget --json")


def test_item03_the_budget_hook_hides_a_secret_in_an_entry_past_the_edge(tmp_path):
    root, secrets = _item03_workspace(tmp_path / "ws")
    run = run_hook("memwarden-budget", root)
    assert run.rc == 2, run
    assert_no_leak(run.text, secrets, "the memwarden-budget hook")


# -- item 4: passwords with punctuation, YAML escapes -------------------------------------------


@pytest.mark.parametrize("mark", [",", ";", "(", "["])
def test_item04_a_url_password_with_punctuation_is_found_and_hidden_everywhere(tmp_path, mark):
    secret = _chars(6) + "7" + mark + _chars(6) + "q"
    root = write_files(tmp_path / "ws", {
        "memory/scratchpad.md": "# pad\n",
        "memory/fact.yml": f"tools:\n  db: The DSN postgres://app:{secret}@db.internal/app does not work from CI.\n",
    })
    as_json = mw("check", "--no-cache", "--format", "json", ".", cwd=root)
    assert ("memory/fact.yml", 2) in {(f["path"], f["line"]) for f in findings(as_json)
                                      if f["name"] == "secret-in-memory"}, as_json
    text = mw("check", "--no-cache", ".", cwd=root)
    diff = mw("check", "--no-cache", "--diff", "--unsafe-fixes", ".", cwd=root)
    assert_no_leak(as_json.text, [secret], "check --format json")
    assert_no_leak(text.text, [secret], "check")
    assert_no_leak(diff.text, [secret], "check --diff --unsafe-fixes")


@pytest.mark.parametrize("written", [
    '"{a};{b}({c}"',       # double-quoted, with ';' and '('
    "({a}{b}{c}",          # starts with '('
    "'[{a}{b}{c}'",        # single-quoted, starts with '['
    "{a}({b}{c})",         # parentheses inside
])
def test_item04_a_password_value_with_punctuation_is_found(tmp_path, written):
    a, b, c = _chars(3) + "7", _chars(4), _chars(4) + "q"
    value = written.format(a=a, b=b, c=c)
    secret = value.strip("\"'")
    root = write_files(tmp_path / "ws", {
        "memory/scratchpad.md": "# pad\n",
        "memory/fact.yml": (
            "db:\n"
            "  note: gh does not support merge queues on this plan.\n"
            f"  password: {value}\n"
        ),
    })
    as_json = mw("check", "--no-cache", "--format", "json", ".", cwd=root)
    assert ("memory/fact.yml", 3) in {(f["path"], f["line"]) for f in findings(as_json)
                                      if f["name"] == "secret-in-memory"}, as_json
    diff = mw("check", "--no-cache", "--diff", ".", cwd=root)  # the expires fix shows the password line as context
    assert diff.rc == 1, diff
    assert_no_leak(diff.text, [secret], "check --diff")


@pytest.mark.parametrize("escape", ["\\x41", "\\u0041", "\\U00000041"])
def test_item04_a_yaml_double_quoted_escape_does_not_hide_a_key(tmp_path, escape):
    key = aws_key()
    escaped = escape + key[1:]  # "\x41KIA..." is "AKIA..." once the YAML is read
    root = write_files(tmp_path / "ws", {
        "memory/scratchpad.md": "# pad\n",
        "memory/fact.yml": (
            "tools:\n"
            "  note: gh does not support merge queues on this plan.\n"
            f'  aws: "{escaped}"\n'
        ),
    })
    as_json = mw("check", "--no-cache", "--format", "json", ".", cwd=root)
    assert ("memory/fact.yml", 3) in {(f["path"], f["line"]) for f in findings(as_json)
                                      if f["name"] == "secret-in-memory"}, as_json
    diff = mw("check", "--no-cache", "--diff", ".", cwd=root)
    assert diff.rc == 1, diff
    assert_no_leak(diff.text, [key], "check --diff")


# -- item 5: terminal control sequences ---------------------------------------------------------

CONTROL = (b"\x1b", b"\x07", "\x9b".encode("utf-8"))  # ESC, BEL, the one-character CSI


def _assert_no_control(run: Run, where: str) -> None:
    for raw in (run.raw_out, run.raw_err):
        for byte in CONTROL:
            assert byte not in raw, f"{where}: raw control byte {byte!r} printed: {raw[-600:]!r}"


@pytest.mark.parametrize("fmt", ["text", "github"])
def test_item05_control_sequences_from_file_content_are_printed_escaped(tmp_path, fmt):
    root = write_files(tmp_path / "ws", {
        "memory/scratchpad.md": "# pad\n",
        "memory/fact.yml": 'tools:\n  note: "gh \\e[31m does not support \\e]0;pwned\\a merge queues."\n',
        "memory/episodic.jsonl": episode(1, summary="The CLI \u001b[2J does not support \u0007 draft releases.") + "\n",
    })
    run = mw("check", "--no-cache", "--format", fmt, ".", cwd=root)
    assert run.rc == 1, run
    assert run.out.count("MW301") == 2, run  # both claims are reported...
    _assert_no_control(run, f"check --format {fmt}")  # ...with their control characters escaped


@pytest.mark.parametrize("fmt", ["text", "github"])
def test_item05_control_sequences_in_file_names_are_printed_escaped(tmp_path, fmt):
    root = write_files(tmp_path / "ws", {
        "memory/scratchpad.md": "# pad\n",
        "memory/episodic.jsonl": episode(1) + "\n",
        "memory/_archive/\x1b]0;owned\x07x\x1b[2J.jsonl": "{not json\n",
    })
    run = mw("check", "--no-cache", "--format", fmt, ".", cwd=root)
    assert run.rc == 1, run
    assert "MW101" in run.out, run
    _assert_no_control(run, f"check --format {fmt}")


# == Secrets slip past =============================================================================

# -- item 6: files the profile does not know ----------------------------------------------------


def _item06_gish(root: Path) -> tuple[Path, dict[str, str]]:
    secrets = {
        "memory/fact_extra.yml": github_token(),
        "memory/drafts/deep/n.md": aws_key(),
        "notes/todo.md": slack_token(),
    }
    files = dict(GISH_BASE)
    files["memory/fact_extra.yml"] = f"deploy:\n  token: {secrets['memory/fact_extra.yml']}\n"
    files["memory/drafts/deep/n.md"] = (
        GISH_NOTE.format(name="n") + f"The key {secrets['memory/drafts/deep/n.md']} is for staging.\n"
    )
    files["notes/todo.md"] = f"# todo\n\nslack bot token {secrets['notes/todo.md']}\n"
    return write_files(root, files), secrets


def _item06_three_layer(root: Path) -> tuple[Path, dict[str, str]]:
    secrets = {"memory/facts/deploy.yml": aws_key(), "memory/episodes/2026-01.jsonl": github_token()}
    files = {
        "memory/scratchpad.md": "# pad\n",
        "memory/fact.yml": "tools:\n  gh:\n    version: 2\n",
        "memory/facts/deploy.yml": f"aws:\n  key: {secrets['memory/facts/deploy.yml']}\n",
        "memory/episodes/2026-01.jsonl": episode(1, summary=f"used {secrets['memory/episodes/2026-01.jsonl']}") + "\n",
    }
    return write_files(root, files), secrets


def _item06_claude_code(root: Path) -> tuple[Path, dict[str, str]]:
    secrets = {"README.md": github_token()}
    files = {
        "MEMORY.md": "# Memory\n\n- [Deploy](deploy.md): the deploy said done but nothing ran\n",
        "deploy.md": "---\nname: deploy\ndescription: d\ntype: feedback\n---\n\nBody.\n",
        "README.md": f"# notes\n\nCI token: {secrets['README.md']}\n",
    }
    return write_files(root, files), secrets


@pytest.mark.parametrize("make", [_item06_gish, _item06_three_layer, _item06_claude_code],
                         ids=["ghost-in-shell", "three-layer", "claude-code"])
def test_item06_secrets_in_files_outside_the_profile_are_found_in_the_tree(tmp_path, make):
    root, secrets = make(tmp_path / "ws")
    run = mw("check", "--no-cache", "--format", "json", ".", cwd=root)
    assert run.rc == 1, run
    flagged = {f["path"] for f in findings(run) if f["name"] == "secret-in-memory"}
    assert set(secrets) <= flagged, (sorted(set(secrets) - flagged), run)
    assert_no_leak(run.text, secrets.values(), "check --format json")


def test_item06_named_files_outside_the_profile_are_found_and_counted(tmp_path):
    root, secrets = _item06_gish(tmp_path / "ws")
    extra = {"notes/bad.jsonl": "{not json\n", "notes/home.md": "# where\n\nThe repo lives in /home/alice/work/repo.\n"}
    write_files(root, extra)
    named = sorted([*secrets, *extra, "memory/fact.yml"])  # five files no kind claims, one that a kind does
    run = run_hook("memwarden-secrets", root, files=named)  # as pre-commit passes them
    assert run.rc == 1, run
    for relpath in secrets:
        assert re.search(rf"^{re.escape(relpath)}:\d+:\d+: MW701 ", run.out, re.M), (relpath, run)
    assert re.search(r"^notes/home\.md:\d+:\d+: MW702 ", run.out, re.M), run
    assert_no_leak(run.text, secrets.values(), "the memwarden-secrets hook")
    # the summary says how many of the named files matched no kind
    assert any(re.search(r"\b5\b", line) and "kind" in line for line in run.text.splitlines()), run


def test_item06_unparsable_files_outside_the_profile_are_found_by_extension_and_format_rules_stay_out(tmp_path):
    root, _ = _item06_gish(tmp_path / "ws")
    write_files(root, {
        "notes/bad.jsonl": "{not json\n",
        "notes/bad.yml": "a: [unclosed\n",
        "notes/fine.jsonl": '{"whatever": 1}\n',  # no kind: no schema to violate
        # batch 17b's dev half: a stream of YAML documents is valid YAML; a bad document in one is found where it is
        "notes/stream.yml": "a: 1\n---\nb: 2\n...\n---\n- c\n",
        "notes/bad-stream.yml": "a: 1\n---\nb: [unclosed\n",
    })
    run = mw("check", "--no-cache", "--format", "json", ".", cwd=root)
    by_path: dict[str, set[str]] = {}
    lines: dict[str, int] = {}
    for f in findings(run):
        by_path.setdefault(f["path"], set()).add(f["name"])
        if f["name"] == "unparsable-file":
            lines[f["path"]] = f["line"]
    assert "unparsable-file" in by_path.get("notes/bad.jsonl", set()), run
    assert "unparsable-file" in by_path.get("notes/bad.yml", set()), run
    assert "notes/stream.yml" not in lines and lines.get("notes/bad-stream.yml") == 4, run
    allowed = {"secret-in-memory", "personal-path", "unparsable-file"}
    for relpath in ("notes/bad.jsonl", "notes/bad.yml", "notes/fine.jsonl", "notes/todo.md", "memory/fact_extra.yml",
                    "notes/stream.yml", "notes/bad-stream.yml"):
        assert by_path.get(relpath, set()) <= allowed, (relpath, by_path.get(relpath))


# -- item 7: the cache key holds the baseline outside the workspace ------------------------------


def test_item07_a_changed_baseline_outside_the_workspace_is_not_answered_from_the_cache(tmp_path):
    token = github_token()
    outside = tmp_path / "outside" / "baseline.json"
    outside.parent.mkdir()
    root = write_files(tmp_path / "ws", {
        "memory/scratchpad.md": "# pad\n",
        "memory/fact.yml": f"tools:\n  token: {token}\n",
        ".memwarden.toml": f"[rules.secret-in-memory]\nbaseline = {json.dumps(str(outside))}\n",
    })
    accepted = mw("baseline", ".", cwd=root)
    assert accepted.rc == 0 and outside.is_file(), accepted
    first = mw("check", ".", cwd=root)
    assert first.rc == 0, first  # accepted: all passed, and cached
    outside.write_text('{"version": 1, "accepted": {}}\n', "utf-8")
    again = mw("check", ".", cwd=root)
    assert again.rc == 1, again
    assert "MW701" in again.out, again


# -- item 8: false alarms -----------------------------------------------------------------------


def test_item08_a_stripe_publishable_key_is_not_a_secret(tmp_path):
    live = "pk_live_" + "51" + _chars(97)
    test = "pk_test_" + "51" + _chars(97)
    secret_key = "sk_live_" + _chars(24)  # the secret one stays a secret
    root = write_files(tmp_path / "ws", {
        "memory/scratchpad.md": "# pad\n",
        "memory/fact.yml": f"stripe:\n  secret_key: {secret_key}\n  publishable_key: {live}\n  test_publishable_key: {test}\n",
    })
    run = mw("check", "--no-cache", "--format", "json", "--select", "secret-in-memory", ".", cwd=root)
    lines = sorted(f["line"] for f in findings(run))
    assert lines == [2], run


def test_item08_base64_of_plain_text_is_not_a_secret(tmp_path):
    prose = base64.b64encode(b"The deploy script must run from the repository root, not from a subfolder.").decode()
    prose2 = base64.b64encode("Remember: the staging database is rebuilt every Sunday at 02:00 UTC.".encode()).decode()
    noise = base64.b64encode(bytes(_rng.randrange(256) for _ in range(45))).decode()  # stays a secret
    root = write_files(tmp_path / "ws", {
        "memory/scratchpad.md": "# pad\n",
        "memory/fact.yml": f"blobs:\n  random: {noise}\n  encoded: {prose}\n  another: {prose2}\n",
    })
    run = mw("check", "--no-cache", "--format", "json", "--select", "secret-in-memory", ".", cwd=root)
    lines = sorted(f["line"] for f in findings(run))
    assert lines == [2], run


# == Deletions slip past ===========================================================================

APPEND_ONLY = ("deleted-record", "rewritten-record", "deleted-note")


def test_item09_a_base_log_with_a_latin1_byte_still_reports_deleted_lines(git_repo):
    log = (episode(1) + "\n").encode() + (episode(2, summary="café au lait") + "\n").encode("latin-1")
    log += (episode(3) + "\n").encode()
    root = git_repo({"memory/scratchpad.md": "# pad\n", "memory/episodic.jsonl": log})
    (root / "memory/episodic.jsonl").write_bytes(log.rsplit(b"\n", 2)[0] + b"\n")  # episode 3 deleted
    git(root, "add", "-A")
    staged = run_hook("memwarden-append-only", root)  # check --staged --select deleted-record,...
    assert staged.rc == 1, staged
    assert re.search(r"^memory/episodic\.jsonl:\d+:\d+: MW601 deleted-record .*ep_00000003", staged.out, re.M), staged
    base = mw("check", "--base", "HEAD", "--select", ",".join(APPEND_ONLY), ".", cwd=root)
    assert base.rc == 1 and "ep_00000003" in base.out, base


def test_item09_git_rm_of_a_fact_file_that_does_not_parse_at_head_is_not_a_pass(git_repo):
    root = git_repo({
        "memory/scratchpad.md": "# pad\n",
        "memory/fact.yml": "tools:\n  gh: [unclosed\n  deploy: the deploy key lives in the vault\n",
    })
    git(root, "rm", "-q", "memory/fact.yml")
    staged = run_hook("memwarden-append-only", root)
    assert staged.rc == 1, staged
    assert re.search(r"^memory/fact\.yml:\d+:\d+: MW\d+ ", staged.out, re.M), staged
    assert_no_crash(staged)


def test_item10_deleting_one_of_two_records_that_share_an_id_is_a_deletion(git_repo):
    lines = [episode(1, summary="first"), episode(1, summary="second", ts="2026-01-02T10:00:00Z"), episode(3)]
    root = git_repo({"memory/scratchpad.md": "# pad\n", "memory/episodic.jsonl": "".join(l + "\n" for l in lines)})
    (root / "memory/episodic.jsonl").write_text(lines[0] + "\n" + lines[2] + "\n", "utf-8")
    git(root, "add", "-A")
    run = run_hook("memwarden-append-only", root)
    assert run.rc == 1, run
    assert "MW601 deleted-record" in run.out, run
    assert "rewritten-record" not in run.out, run


# == Records are lost or altered ===================================================================

# -- item 11: a record appended while --fix runs ------------------------------------------------

# Runs memwarden in this process after wrapping io.open: right after memwarden has read the whole
# target file, one line is appended to it, as an agent writing its log during the check would.
_CONCURRENT_WRITER = r"""
import builtins, io, os, runpy, sys
target = os.path.realpath(sys.argv.pop(1))
line = sys.argv.pop(1).encode("utf-8")
real_open = io.open
state = {"done": False}

class Watched:
    def __init__(self, handle):
        self._handle, self._full = handle, False
    def read(self, size=-1):
        data = self._handle.read(size)
        if size is None or size < 0:
            self._full = True
        return data
    def close(self):
        self._handle.close()
        if self._full and not state["done"]:
            state["done"] = True
            with real_open(target, "ab") as out:
                out.write(line)
            sys.stderr.write("concurrent-writer: appended a record\n")
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        self.close()
    def __iter__(self):
        return iter(self._handle)
    def __getattr__(self, name):
        return getattr(self._handle, name)

def watching_open(file, mode="r", *args, **kwargs):
    handle = real_open(file, mode, *args, **kwargs)
    try:
        hit = isinstance(file, (str, bytes, os.PathLike)) and os.path.realpath(file) == target
    except (TypeError, ValueError):
        hit = False
    if hit and "r" in mode and "+" not in mode and not state["done"]:
        return Watched(handle)
    return handle

io.open = builtins.open = watching_open

import memwarden.fileio as fileio  # memwarden reads workspace files through read_regular, not open()
real_read = fileio.read_regular

def watching_read(path, *, limit=None):
    data = real_read(path, limit=limit)
    if limit is None and not state["done"] and os.path.realpath(path) == target:
        state["done"] = True
        with real_open(target, "ab") as out:
            out.write(line)
        sys.stderr.write("concurrent-writer: appended a record\n")
    return data

fileio.read_regular = watching_read
sys.argv[0] = "memwarden"
runpy.run_module("memwarden", run_name="__main__", alter_sys=True)
"""


def test_item11_a_record_appended_while_fix_runs_is_not_lost(tmp_path):
    first, second, appended = episode(1), episode(2), episode(3, summary="written by the agent during the check")
    root = write_files(tmp_path / "ws", {
        "memory/scratchpad.md": "# pad\n",
        "memory/episodic.jsonl": first + "\n\n" + second + "\n",  # a blank line: malformed-jsonl, safe fix
    })
    log = root / "memory" / "episodic.jsonl"
    env = {**os.environ, **ENV, "MEMWARDEN_NO_CACHE": "1"}
    env.pop("GITHUB_ACTIONS", None)
    done = subprocess.run(
        [sys.executable, "-c", _CONCURRENT_WRITER, str(log), appended + "\n",
         "check", "--no-cache", "--profile", "three-layer", "--fix", "."],
        cwd=root, env=env, capture_output=True, timeout=120,
    )
    run = Run(done)
    assert_no_crash(run)
    assert "concurrent-writer: appended a record" in run.err, run  # the writer did get in between
    after = log.read_text("utf-8")
    assert appended in after, f"the record appended during the run is gone: {after!r} {run}"
    assert first in after and second in after, after
    # the file was skipped, and the run says so
    assert re.search(r"(?i)episodic\.jsonl.*(changed|modified|skip)|(changed|modified|skip).*episodic\.jsonl", run.text), run


# -- item 12: baseline keeps entries of files it could not read ----------------------------------


def test_item12_baseline_keeps_accepted_entries_of_a_file_it_cannot_read(tmp_path, locked):
    token = github_token()
    root = write_files(tmp_path / "ws", {
        "memory/scratchpad.md": "# pad\n",
        "memory/fact.yml": f"tools:\n  token: {token}\n",
        "memory/episodic.jsonl": episode(1, summary=f"token {token}") + "\n",
    })
    assert mw("baseline", ".", cwd=root).rc == 0
    path = root / ".memwarden-baseline.json"
    data = json.loads(path.read_text("utf-8"))
    for entries in data["accepted"].values():
        for entry in entries:
            entry["reason"] = "rotated on 2026-01-05"
    path.write_text(json.dumps(data, indent=2) + "\n", "utf-8")
    before = json.loads(path.read_text("utf-8"))["accepted"]
    assert set(before) == {"memory/fact.yml", "memory/episodic.jsonl"}
    locked(root / "memory" / "episodic.jsonl")
    run = mw_unprivileged("baseline", ".", cwd=root)
    assert_no_crash(run)
    after = json.loads(path.read_text("utf-8"))["accepted"]
    assert after.get("memory/episodic.jsonl") == before["memory/episodic.jsonl"], (after, run)
    assert after.get("memory/fact.yml") == before["memory/fact.yml"], (after, run)


# -- item 13: redaction, restored notes ---------------------------------------------------------


def test_item13_redacting_two_secret_keys_of_one_json_object_keeps_both_values(tmp_path):
    one, two = github_token(), github_token()
    root = write_files(tmp_path / "ws", {
        "memory/scratchpad.md": "# pad\n",
        "memory/episodic.jsonl": episode(1, tokens={one: "deploy bot", two: "release bot"}) + "\n",
    })
    run = mw("check", "--no-cache", "--select", "secret-in-memory", "--fix", "--unsafe-fixes", ".", cwd=root)
    assert_no_crash(run)
    line = (root / "memory/episodic.jsonl").read_text("utf-8").splitlines()[0]
    assert_no_leak(line, [one, two], "the redacted log")

    def no_duplicates(pairs):
        keys = [k for k, _ in pairs]
        assert len(keys) == len(set(keys)), f"duplicate keys after redaction: {keys}"
        return dict(pairs)

    record = json.loads(line, object_pairs_hook=no_duplicates)
    assert sorted(record["tokens"].values()) == ["deploy bot", "release bot"]


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16"])
def test_item13_a_restored_note_keeps_its_bom_and_encoding(git_repo, encoding):
    raw = GISH_NOTE.format(name="n").encode(encoding)
    assert raw[:2] in (b"\xef\xbb", b"\xff\xfe", b"\xfe\xff")
    root = git_repo({
        **GISH_BASE,
        "memory/knowledge/feedback/n.md": raw,
        "MEMORY.md": GISH_BASE["MEMORY.md"] + '- "the export said empty but was not" → [n](memory/knowledge/feedback/n.md)\n',
    })
    (root / "memory/knowledge/feedback/n.md").unlink()
    run = mw("check", "--no-cache", "--base", "HEAD", "--select", "deleted-note", "--fix", "--unsafe-fixes", ".", cwd=root)
    assert_no_crash(run)
    restored = [p for p in root.rglob("n.md") if ".git" not in p.parts]
    assert restored, run
    assert restored[0].read_bytes() == raw, (restored[0], restored[0].read_bytes()[:12])


# -- item 14: --output at a memory file ---------------------------------------------------------


@pytest.mark.parametrize("target", ["memory/episodic.jsonl", "memory/scratchpad.md", "./memory/../memory/fact.yml"])
def test_item14_output_pointing_at_a_memory_file_is_refused(tmp_path, target):
    root = write_files(tmp_path / "ws", {
        "memory/scratchpad.md": "# pad\n",
        "memory/fact.yml": "tools:\n  note: gh does not support merge queues on this plan.\n",
        "memory/episodic.jsonl": episode(1) + "\n",
    })
    before = {p: (root / p).read_bytes() for p in ("memory/scratchpad.md", "memory/fact.yml", "memory/episodic.jsonl")}
    run = mw("check", "--no-cache", "--output", target, ".", cwd=root)
    assert run.rc == 2, run
    assert_no_crash(run)
    assert {p: (root / p).read_bytes() for p in before} == before


# -- item 15: expires where the schema allows it -------------------------------------------------


def test_item15_an_expires_fix_never_adds_a_schema_violation(tmp_path):
    root = write_files(tmp_path / "ws", {
        **GISH_BASE,
        "memory/fact.yml": (
            "schema_version: 1\nidentity:\n  name: Agent\n"
            "tools:\n  gh: gh does not support merge queues on this plan.\n"
        ),
    })

    def violations():
        run = mw("check", "--no-cache", "--format", "json", "--select", "schema-violation", ".", cwd=root)
        return {(f["path"], f.get("json_path")) for f in findings(run)}

    before = violations()
    fixed = mw("check", "--no-cache", "--fix", ".", cwd=root)
    assert_no_crash(fixed)
    after = violations()
    assert after <= before, f"the fix added {sorted(after - before)}"


# == Crashes and hangs =============================================================================


def test_item16_a_file_name_that_is_not_utf8_is_reported_in_every_format(tmp_path):
    root = write_files(tmp_path / "ws", {"memory/scratchpad.md": "# pad\n", "memory/episodic.jsonl": episode(1) + "\n"})
    (root / "memory" / "_archive").mkdir()
    with open(os.path.join(os.fsencode(root), b"memory", b"_archive", b"old-\xff\xfe.jsonl"), "wb") as handle:
        handle.write(b"{not json\n")
    for fmt in ("json", "sarif"):
        run = mw("check", "--no-cache", "--format", fmt, ".", cwd=root, env={"PYTHONIOENCODING": "utf-8"})
        assert_no_crash(run)
        assert run.rc == 1, run
        json.loads(run.raw_out.decode("utf-8"))  # valid UTF-8 and valid JSON
        assert "memory/_archive/old-" in run.out
    for fmt in ("text", "json", "sarif", "github"):
        report = tmp_path / f"report.{fmt}"
        run = mw("check", "--no-cache", "--format", fmt, "--output", report, ".", cwd=root)
        assert_no_crash(run)
        assert run.rc == 1, (fmt, run)
        report.read_bytes().decode("utf-8")
    mw("check", ".", cwd=root)
    cached = mw("check", ".", cwd=root)
    assert_no_crash(cached)
    assert cached.rc == 1, cached


def test_item16_a_symlink_loop_is_a_finding_not_a_crash(tmp_path):
    root = write_files(tmp_path / "ws", {"memory/scratchpad.md": "# pad\n", "memory/fact.yml": "tools: {}\n"})
    os.symlink("fact_b.yml", root / "memory" / "fact_a.yml")
    os.symlink("fact_a.yml", root / "memory" / "fact_b.yml")
    os.symlink("fact_self.yml", root / "memory" / "fact_self.yml")
    check = mw("check", "--no-cache", "--format", "json", ".", cwd=root)
    assert_no_crash(check)
    assert check.rc == 1, check
    assert {"memory/fact_a.yml", "memory/fact_self.yml"} <= {f["path"] for f in findings(check)}, check
    baseline = mw("baseline", ".", cwd=root)
    assert_no_crash(baseline)
    assert baseline.rc in (0, 1), baseline


@pytest.mark.parametrize("case", ["today", "episode-ts"])
def test_item16_a_year_9999_date_is_not_an_overflow(tmp_path, case):
    files = {"memory/scratchpad.md": "# pad\n", "memory/fact.yml": "tools:\n  gh:\n    note: gh does not support merge queues on this plan.\n"}
    args = ["--today", "9999-12-31"] if case == "today" else []
    if case == "episode-ts":
        files["memory/episodic.jsonl"] = episode(1, ts="9999-12-31T23:59:59Z", summary="The CLI does not support drafts.") + "\n"
    root = write_files(tmp_path / "ws", files)
    run = mw("check", "--no-cache", *args, ".", cwd=root)
    assert_no_crash(run)
    assert run.rc == 1 and "MW301" in run.out, run  # the claim is still reported
    for extra in (["--diff"], ["--fix"]):
        run = mw("check", "--no-cache", *args, *extra, ".", cwd=root)
        assert_no_crash(run)
        assert run.rc in (0, 1), (extra, run)


def test_item16_a_path_through_a_symlinked_folder_that_points_outside_is_a_finding(tmp_path):
    outside = write_files(tmp_path / "outside", {"tools/n.md": GISH_NOTE.format(name="n")})
    root = write_files(tmp_path / "ws", GISH_BASE)
    os.symlink(outside / "tools", root / "memory" / "knowledge" / "shared")
    named = "memory/knowledge/shared/n.md"
    check = mw("check", "--no-cache", "--format", "json", named, cwd=root)
    assert_no_crash(check)
    assert check.rc == 1, check
    assert any(f["path"].startswith("memory/knowledge/shared") for f in findings(check)), check
    baseline = mw("baseline", named, cwd=root)
    assert_no_crash(baseline)


CONFIG_TYPE_ERRORS = {
    "per-file-ignores-string": ('per-file-ignores = "x"\n', "per-file-ignores"),
    "profile-list": ('profile = ["a"]\n', "profile"),
    "exclude-bad-glob": ('exclude = ["memory/[z-a].yml"]\n', "exclude"),
    "per-file-ignores-bad-glob": ('[per-file-ignores]\n"memory/[z-a]*.md" = ["scratchpad-too-long"]\n', "per-file-ignores"),
    "kind-bad-glob": ('[kinds.decision]\nglobs = ["[z-a].yml"]\nformat = "yaml"\n', "globs"),
}


@pytest.mark.parametrize("case", sorted(CONFIG_TYPE_ERRORS))
def test_item16_a_config_value_of_the_wrong_type_is_a_configuration_error_naming_the_key(tmp_path, case):
    config, key = CONFIG_TYPE_ERRORS[case]
    root = write_files(tmp_path / "ws", {
        "memory/scratchpad.md": "# pad\n" + "line\n" * 300,  # too long: a finding the glob would have to match
        ".memwarden.toml": config,
    })
    check = mw("check", "--no-cache", ".", cwd=root)
    assert_no_crash(check)
    assert check.rc == 2, check
    assert key in check.err, check
    baseline = mw("baseline", ".", cwd=root)
    assert_no_crash(baseline)
    assert baseline.rc == 2 and key in baseline.err, baseline
    budget = mw("budget", cwd=root)
    assert_no_crash(budget)
    assert budget.rc == 4 and key in budget.err, budget  # budget's usage/configuration error


# -- item 17: unreadable files and folders ------------------------------------------------------


def test_item17_an_unreadable_note_is_a_finding_and_its_link_is_not_broken(tmp_path, locked):
    root = write_files(tmp_path / "ws", GISH_BASE)
    locked(root / "memory/knowledge/tools/n0.md")
    run = mw_unprivileged("check", "--format", "json", ".", cwd=root)
    assert_no_crash(run)
    names = {(f["path"], f["name"]) for f in findings(run)}
    assert ("memory/knowledge/tools/n0.md", "unparsable-file") in names, run
    assert not any(name == "broken-index-link" for _, name in names), run


def test_item17_an_unreadable_folder_is_a_finding_and_the_links_into_it_are_not_broken(tmp_path, locked):
    root = write_files(tmp_path / "ws", GISH_BASE)
    locked(root / "memory/knowledge/tools")
    run = mw_unprivileged("check", "--format", "json", ".", cwd=root)
    assert_no_crash(run)
    assert run.rc == 1, run
    names = {(f["path"], f["name"]) for f in findings(run)}
    assert any(path.startswith("memory/knowledge/tools") for path, _ in names), run  # the folder is named
    assert not any(name == "broken-index-link" for _, name in names), run


# -- item 18: NaN/Infinity, CR-only files -------------------------------------------------------


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_item18_nan_or_infinity_in_jsonl_is_a_finding(tmp_path, literal):
    record = episode(1)[:-1] + f', "importance": {literal}}}'
    root = write_files(tmp_path / "ws", {"memory/scratchpad.md": "# pad\n", "memory/episodic.jsonl": record + "\n" + episode(2) + "\n"})
    run = mw("check", "--no-cache", "--format", "json", ".", cwd=root)
    assert run.rc == 1, run
    assert ("memory/episodic.jsonl", 1) in {(f["path"], f["line"]) for f in findings(run)}, run


def test_item18_a_cr_only_note_has_its_front_matter_read_and_keeps_cr_when_fixed(tmp_path):
    lf_note = "---\nname: n\ndescription: d\ntype: feedback\ntags: [Deploy, ci]\n---\n\nThe CLI does not support drafts.\n"
    index = '# Memory\n\n- "the deploy said done but nothing ran" → [n](n.md)\n'
    lf = write_files(tmp_path / "lf", {"MEMORY.md": index, "n.md": lf_note})
    cr = write_files(tmp_path / "cr", {"MEMORY.md": index, "n.md": lf_note.replace("\n", "\r")})

    def seen(root):
        run = mw("check", "--no-cache", "--profile", "claude-code", "--format", "json", ".", cwd=root)
        return sorted((f["path"], f["line"], f["name"]) for f in findings(run))

    assert seen(cr) == seen(lf)  # the same findings on the same lines: front matter read, not "no front matter"
    run = mw("check", "--no-cache", "--profile", "claude-code", "--fix", ".", cwd=cr)
    assert_no_crash(run)
    data = (cr / "n.md").read_bytes()
    assert b"\n" not in data, data
    assert data.startswith(b"---\rname: n\r"), data
    assert data.count(b"---\r") == 2, data  # still one front matter block
    after = mw("check", "--no-cache", "--profile", "claude-code", "--format", "json", ".", cwd=cr)
    assert not [f for f in findings(after) if f["name"] == "schema-violation"], after


# == Done when: a secret in every place, printed nowhere ==========================================


def _everywhere(root: Path) -> tuple[Path, dict[str, list[str]]]:
    """A gish workspace with a secret in every kind of place; relpath -> the secrets that file holds."""
    s = {name: maker() for name, maker in (
        ("index", github_token), ("claim_fact", github_token), ("yaml_key", aws_key), ("yaml_key_value", github_token),
        ("dup_key", aws_key), ("note_claim", aws_key), ("ep_id", slack_token), ("ep_tag", slack_token),
        ("ep_claim", github_token), ("json_key", github_token), ("json_key_value", aws_key), ("archive", slack_token),
        ("extra_fact", github_token), ("deep_note", aws_key), ("notes_md", slack_token), ("url_pw", password),
    )}
    entries = "".join(
        f'- "the deploy said done but step {i} never ran" → [n{i}](memory/knowledge/tools/n{i}.md)\n' for i in range(8)
    )
    entries += f'- "the token {s["index"]} was rejected" → [tok](memory/knowledge/tools/tok.md)\n'
    files = {
        ".memwarden.toml": "[rules.index-over-budget]\nmax = 300\nedge = 500\n",
        "MEMORY.md": "# Memory\n\n" + entries,
        "memory/fact.yml": (
            "schema_version: 1\nidentity:\n  name: Agent\n"
            "tools:\n"
            "  gh:\n"
            f'    note: "The token {s["claim_fact"]} does not work for the deploy API."\n'
            f"    {s['yaml_key']}: {s['yaml_key_value']}\n"
            f"    {s['dup_key']}: first\n"
            f"    {s['dup_key']}: second\n"
            f"    dsn: postgres://app:{s['url_pw']}@db.internal:5432/app\n"
        ),
        "memory/knowledge/tools/tok.md": GISH_NOTE.format(name="tok").replace(
            "Body.", f"The key {s['note_claim']} does not work for the staging bucket."),
        "memory/episodic.jsonl": (
            episode(1, id=f"ep_{s['ep_id']}", tags=[s["ep_tag"], "Deploy"],
                    summary=f"The bot token {s['ep_claim']} does not work for the release channel.") + "\n"
            + episode(2, id=f"ep_{s['ep_id']}", meta={s["json_key"]: s["json_key_value"]}) + "\n"
        ),
        "memory/_archive/2025/episodic.jsonl": episode(9, summary=f"old token {s['archive']}") + "\n",
        # outside the profile
        "memory/fact_extra.yml": f"deploy:\n  token: {s['extra_fact']}\n",
        "memory/knowledge/tools/deep/old.md": GISH_NOTE.format(name="old") + f"key {s['deep_note']}\n",
        "notes/todo.md": f"# todo\n\nslack {s['notes_md']}\n",
    }
    for i in range(8):
        files[f"memory/knowledge/tools/n{i}.md"] = GISH_NOTE.format(name=f"n{i}")
    by_file: dict[str, list[str]] = {}
    for relpath, content in files.items():
        held = [v for v in s.values() if v in content]
        if held:
            by_file[relpath] = held
    return write_files(root, files), by_file


def test_end_to_end_a_secret_in_every_place_is_printed_nowhere(tmp_path):
    root, by_file = _everywhere(tmp_path / "ws")
    secrets = sorted({v for held in by_file.values() for v in held})
    outputs: dict[str, Run] = {}
    for fmt in ("text", "json", "sarif", "github"):
        outputs[f"check --format {fmt}"] = mw("check", "--format", fmt, ".", cwd=root)
        outputs[f"check --format {fmt} (cached)"] = mw("check", "--format", fmt, ".", cwd=root)
    outputs["check --diff"] = mw("check", "--diff", ".", cwd=root)
    outputs["check --diff --unsafe-fixes"] = mw("check", "--diff", "--unsafe-fixes", ".", cwd=root)
    outputs["budget"] = mw("budget", cwd=root)
    outputs["budget --json"] = mw("budget", "--json", cwd=root)
    outputs["baseline"] = mw("baseline", ".", cwd=root)
    for name, run in outputs.items():
        assert_no_crash(run)
        assert_no_leak(run.text, secrets, name)
    assert outputs["budget"].rc == 2 and outputs["check --format text"].rc == 1
    assert_no_leak((root / ".memwarden-baseline.json").read_text("utf-8"), secrets, ".memwarden-baseline.json")
    assert_no_leak(cache_text(root), secrets, ".memwarden_cache/")
    # and nothing slipped past: every file holding a secret has a secret-in-memory finding
    flagged = {f["path"] for f in outputs["check --format json"].json()["findings"] if f["name"] == "secret-in-memory"}
    assert set(by_file) <= flagged, f"secrets not found in {sorted(set(by_file) - flagged)}"

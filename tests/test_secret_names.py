"""A secret used as a file or folder name: reported by secret-in-memory, and hidden in every output channel.

Each test runs the real CLI in a subprocess on real files. Attacks tried (the docstrings say which test
holds which): a GitHub token as a note's file name; an AWS key as a shelf's folder name (20 characters: too
short for the token-like masking of quoted values, so only the name check hides it); a token in a folder
above the workspace root (named on the command line); the same token in two files; a name that is a
near-duplicate's or a broken link's other file; control characters (ESC, a newline) around a token in a
name; CJK around it; a 200-character name with the token in the middle; a token-named file that the
baseline accepts, or names in a malformed entry; the hook before and after writes of Claude Code, Gemini CLI
and Codex.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import write_files
from test_guard import GISH_BASE, GISH_NOTE, Run, assert_no_crash, assert_no_leak, aws_key, episode, github_token, mw
from conftest import run_memwarden

LOG = "memory/episodic.jsonl"
BODY = ("Deploys from the release branch need the staging smoke test first, then a manual approval in the "
        "pipeline, then the canary for thirty minutes before the full rollout to every region. The gh CLI does "
        "not support merge queues on this plan.")  # a negative claim: a safe fix, for --diff


def _note(name: str, body: str = "Body.") -> str:
    return GISH_NOTE.format(name=name).replace("Body.", body)


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    """A gish workspace inside a folder named by a token, with a note named by another, a shelf (folder) named
    by an AWS key, a near-duplicate of the token note, and an index line linking to a token-named note that
    is not there."""
    outer, name, folder = github_token(), github_token(), aws_key()
    top = tmp_path_factory.mktemp("names")
    root = top / outer / "ws"
    write_files(root, {
        **GISH_BASE,
        LOG: "".join(episode(i) + "\n" for i in (1, 2, 3)),
        f"memory/knowledge/tools/{name}.md": _note("x", BODY),
        "memory/knowledge/tools/zz-copy.md": _note("zz-copy", BODY),  # a near-duplicate that names the other
        f"memory/knowledge/{folder}/n1.md": _note("n1"),
        "MEMORY.md": GISH_BASE["MEMORY.md"] + f'- "the deploy hung" → [gone](memory/knowledge/tools/{name}-old.md)\n',
    })
    return top, root, [outer, name, folder]


CHANNELS = {
    "check text": ("check", "--format", "text", "{ws}"),
    "check json": ("check", "--format", "json", "{ws}"),
    "check sarif": ("check", "--format", "sarif", "{ws}"),
    "check github": ("check", "--format", "github", "{ws}"),
    "check gitlab": ("check", "--format", "gitlab", "{ws}"),
    "check --diff": ("check", "--diff", "{ws}"),
    "check, twice (the second run read back from the cache)": ("check", "{ws}"),
    "stats": ("stats", "{ws}"),
    "stats --json": ("stats", "--json", "{ws}"),
    "budget": ("budget", "{ws}/MEMORY.md"),
    "budget --json": ("budget", "--json", "{ws}/MEMORY.md"),
    "an error naming the file": ("stats", "{ws}/memory/knowledge/tools/{name}.md"),
    "explain": ("explain", "secret-in-memory"),
}


@pytest.mark.parametrize("channel", sorted(CHANNELS))
def test_a_secret_in_a_name_is_never_printed_in_any_channel(planted, channel):
    """Every output channel, run from above the workspace (so the shown paths hold the outer folder's token
    too): no run of 10 characters of any of the three secrets is printed, and the channel still says what it
    is for (the finding, the marker in place of the name, the error, the rule's doc)."""
    top, root, secrets = planted
    ws = root.relative_to(top).as_posix()
    args = [a.format(ws=ws, name=secrets[1]) for a in CHANNELS[channel]]
    runs = [mw(*args, cwd=top)]
    if "twice" in channel:
        runs.append(mw(*args, cwd=top))
    for run in runs:
        assert_no_crash(run)
        assert_no_leak(run.text, secrets, channel)
    run = runs[-1]
    if channel.startswith("check"):
        assert run.rc == 1 and "[SECRET:github-token sha256:" in run.text, run
        if "diff" not in channel:
            assert run.text.count("secret-in-memory") >= 2, run  # the note's name, the file in the AWS-key shelf
            assert "[SECRET:aws-access-key sha256:" in run.text, run
        else:
            assert "+++ " in run.out and "[SECRET:github-token" in run.out.split("+++ ", 1)[1].split("\n", 1)[0], run
    elif channel.startswith("stats"):
        assert run.rc == 0 and "[SECRET:aws-access-key sha256:" in run.out, run  # the shelf, by its folder's name
    elif channel.startswith("budget"):
        assert run.rc == 0 and "MEMORY.md" in run.out and "[SECRET:github-token" in run.out, run
    elif channel == "explain":
        assert run.rc == 0 and "file or folder name" in run.out, run
    else:
        assert run.rc == 2 and "not a folder" in run.err and "[SECRET:github-token" in run.err, run


def test_check_json_reports_each_name_once_per_file_with_its_kind_and_place(planted):
    """The finding names the secret's kind and whether the file's own name or a folder's holds it; its path
    keeps the folders and the extension, so the user can find the file."""
    top, root, secrets = planted
    run = mw("check", "--format", "json", "--select", "secret-in-memory", ".", cwd=root)
    found = {f["path"]: f["message"] for f in run.json()["findings"]}
    [own] = [p for p in found if p.startswith("memory/knowledge/tools/[SECRET:github-token sha256:")]
    assert own.endswith("].md") and "in this file's name" in found[own], found
    assert found[own].startswith("GitHub token (sha256:"), found
    [shelf] = [p for p in found if p.startswith("memory/knowledge/[SECRET:aws-access-key sha256:")]
    assert shelf.endswith("]/n1.md") and "in the name of a folder" in found[shelf], found
    # the index's link holds the token in its text; the token in the folder above the root is not the workspace's
    assert set(found) == {own, shelf, "MEMORY.md"}, found
    assert_no_leak(run.text, secrets, "check json")


def test_messages_naming_the_token_file_hide_its_name(planted):
    """Other rules name the token file in their messages: the near-duplicate on the copy names it as 'the
    note at ...', the broken link quotes the missing target, orphan-note sits on it; none prints the name."""
    top, root, secrets = planted
    run = mw("check", "--format", "json", ".", cwd=root)
    by_name: dict[str, list[str]] = {}
    for f in run.json()["findings"]:
        by_name.setdefault(f["name"], []).append(f["path"] + " " + f["message"])
    assert any("[SECRET:github-token" in m for m in by_name.get("near-duplicate", [])), by_name
    assert by_name.get("broken-index-link") and by_name.get("orphan-note"), by_name  # quoting the name, hidden
    assert_no_leak(run.text, secrets, "messages")


def _odd(tmp_path: Path, name: str, token: str) -> tuple[Path, list[str]]:
    root = write_files(tmp_path / "ws", {**GISH_BASE, f"memory/knowledge/tools/{name}": _note("n9")})
    return root, [token]


@pytest.mark.parametrize("shape", ["escape and newline", "cjk", "long", "two in one name", "same token twice"])
def test_odd_names_holding_a_token(tmp_path, shape):
    """ESC, a newline, CJK around the token, a 200-character name with the token inside, two tokens in one
    name, the same token as two files' names: each is reported, and no terminal control or secret is printed
    (text and json)."""
    token, other = github_token(), github_token()
    names = {
        "escape and newline": [f"\x1b[2J{token}\nx.md"],
        "cjk": [f"記憶{token}筆記.md"],
        "long": ["a" * 100 + token + "b" * 60 + ".md"],
        "two in one name": [f"{token}-{other}.md"],
        "same token twice": [f"{token}.md", f"old-{token}.md"],
    }[shape]
    root = write_files(tmp_path / "ws", {**GISH_BASE, **{f"memory/knowledge/tools/{n}": _note("n9") for n in names}})
    secrets = [token, other]
    text = mw("check", ".", cwd=root)
    data = mw("check", "--format", "json", ".", cwd=root)
    for run in (text, data):
        assert_no_crash(run)
        assert_no_leak(run.text, secrets, shape)
    assert "\x1b" not in text.out and "\x1b" not in text.err
    found = [f for f in data.json()["findings"] if f["name"] == "secret-in-memory"]
    assert len(found) == len(names) * (2 if shape == "two in one name" else 1), found


def test_the_baseline_accepts_a_name_and_its_errors_hide_it(tmp_path):
    """`memwarden baseline` accepts a secret in a name like any other of the file's; the baseline names the file
    on disk (as the cache may: both are local and the name is the file's own), but a malformed entry for it is
    an error that does not print it."""
    token = github_token()
    root = write_files(tmp_path / "ws", {**GISH_BASE, f"memory/knowledge/tools/{token}.md": _note("n9")})
    before = mw("check", "--select", "secret-in-memory", ".", cwd=root)
    assert before.rc == 1 and "secret-in-memory" in before.out, before
    written = mw("baseline", ".", cwd=root)
    assert written.rc == 0, written
    after = mw("check", "--select", "secret-in-memory", ".", cwd=root)
    assert after.rc == 0, after
    baseline = root / ".memwarden-baseline.json"
    data = json.loads(baseline.read_text("utf-8"))
    data["accepted"] = {f"memory/knowledge/tools/{token}.md": "not a list"}
    baseline.write_text(json.dumps(data), "utf-8")
    broken = mw("check", ".", cwd=root)
    assert broken.rc == 2 and "must be a list" in broken.err and "[SECRET:github-token" in broken.err, broken
    for run in (before, written, after, broken):
        assert_no_crash(run)
        assert_no_leak(run.text, [token], "baseline")


def _hook(payload: dict, root: Path) -> Run:
    return Run(run_memwarden("hook", cwd=root, input=json.dumps(payload).encode("utf-8"),
                             env={"MEMWARDEN_NO_PROGRESS": "1", "NO_COLOR": "1"}))


@pytest.mark.parametrize("agent", ["claude-code", "gemini-cli", "codex"])
def test_the_hook_blocks_a_new_file_named_by_a_token_and_never_prints_it(tmp_path, agent):
    """A write that creates a note named by a token is blocked before (the name is this write's doing), and
    reported after; the hook's message names the file by its marker, for each agent's payload."""
    token = github_token()
    root = write_files(tmp_path / "ws", {**GISH_BASE, LOG: episode(1) + "\n"})
    relpath = f"memory/knowledge/tools/{token}.md"
    content = _note("n9")  # the content holds no secret: only the name does
    if agent == "codex":
        tool, tool_input = "apply_patch", {"command": "\n".join(
            ["*** Begin Patch", f"*** Add File: {relpath}", *("+" + line for line in content.splitlines()),
             "*** End Patch"]) + "\n"}
        events = ("PreToolUse", "PostToolUse")
    elif agent == "gemini-cli":
        tool, tool_input, events = "write_file", {"file_path": relpath, "content": content}, ("BeforeTool", "AfterTool")
    else:
        tool, tool_input, events = "Write", {"file_path": relpath, "content": content}, ("PreToolUse", "PostToolUse")
    payload = {"tool_name": tool, "tool_input": tool_input, "cwd": str(root)}
    before = _hook({**payload, "hook_event_name": events[0]}, root)
    assert before.rc == 2 and "secret-in-memory" in before.err and "[SECRET:github-token" in before.err, before
    write_files(root, {relpath: content})
    after = _hook({**payload, "hook_event_name": events[1]}, root)
    assert after.rc == 2 and "secret-in-memory" in after.err, after
    for run in (before, after):
        assert_no_crash(run)
        assert_no_leak(run.text, [token], f"{agent} hook")


def test_which_names_are_read_as_secrets(tmp_path):
    """Names of a known token format are hidden, whatever their letters (an AWS key of capitals only, a Slack
    token whose random part alternates case, a Stripe key, a JWT); names agents write (`feedback_api_key_rotation`,
    a CamelCase title), a content hash and a UUID are shown whole and not reported (no high-entropy guessing on
    names: hiding a hash-named file would hide where it is)."""
    secrets = ["AKIA" + "QWERTYUPLKJHGFDS", "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
               "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc",
               "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"]
    plain = ["feedback_api_key_rotation", "FeedbackTranslationRejected", "8f14e45fceea167a5a36dedd4bea2543",
             "550e8400-e29b-41d4-a716-446655440000", "password-reset-flow_2026-03"]
    root = write_files(tmp_path / "ws", {**GISH_BASE, **{f"memory/knowledge/tools/{n}.md": _note(n) for n in secrets + plain}})
    run = mw("check", "--format", "json", "--select", "secret-in-memory", ".", cwd=root)
    assert_no_crash(run)
    assert_no_leak(run.text, secrets, "names")
    reported = sorted(f["path"] for f in run.json()["findings"] if f["line"] == 1 and "file's name" in f["message"])
    assert len(reported) == len(secrets), reported
    assert all(p.startswith("memory/knowledge/tools/[SECRET:") and p.endswith("].md") for p in reported), reported
    shown = mw("check", "--format", "json", "--select", "orphan-note", ".", cwd=root)
    paths = {f["path"] for f in shown.json()["findings"]}
    assert {f"memory/knowledge/tools/{n}.md" for n in plain} <= paths, paths


@pytest.mark.parametrize("case", ["per-file-ignores", "a missing path", "--output onto the file"])
def test_errors_naming_a_token_file_hide_it(tmp_path, case):
    """Usage errors quote what the user or the config named: a per-file-ignores key with a misspelt rule, a
    path that is not there, `--output` onto a memory file. Each is one `memwarden: error:` line (exit 2) that
    names the file by its marker."""
    token = github_token()
    note = f"memory/knowledge/tools/{token}.md"
    root = write_files(tmp_path / "ws", {**GISH_BASE, note: _note("n9")})
    if case == "per-file-ignores":
        write_files(root, {".memwarden.toml": f'[per-file-ignores]\n"{note}" = ["secret-in-memry"]\n'})
        run = mw("check", ".", cwd=root)
    elif case == "a missing path":
        run = mw("check", f"memory/nope/{token}.md", cwd=root)
    else:
        run = mw("check", "--output", note, ".", cwd=root)
    assert_no_crash(run)
    assert run.rc == 2 and run.err.startswith("memwarden: error:") and "[SECRET:github-token" in run.err, run
    assert_no_leak(run.text, [token], case)


def test_a_log_named_by_a_token_is_reported_under_the_cache_empty_or_appended_to(tmp_path):
    """secret-in-memory reads a log record by record under the cache, and reports a name at line 1: the
    finding stays once (not lost, not doubled) after a line is appended, and an empty log named by a token
    (no line to keep it with) is reported too, with the cache and without."""
    token = github_token()
    full, empty = f"memory/_archive/{token}.jsonl", f"memory/_archive/empty-{token}.jsonl"
    root = write_files(tmp_path / "ws", {**GISH_BASE, LOG: episode(1) + "\n", full: episode(1) + "\n", empty: ""})

    def reported(**env) -> list[str]:
        run = mw("check", "--format", "json", "--select", "secret-in-memory", ".", cwd=root, env=env)
        assert_no_crash(run)
        assert_no_leak(run.text, [token], "log names")
        return sorted(f["path"] for f in run.json()["findings"] if "file's name" in f["message"])

    first = reported()
    assert len(first) == 2 and any(p.startswith("memory/_archive/empty-[SECRET:") for p in first), first
    with open(root / full, "a", encoding="utf-8") as log:
        log.write(episode(2) + "\n")
    assert reported() == first
    assert reported(MEMWARDEN_NO_CACHE="1") == first

"""Edges of issue 11's items 1-5 and 8 that tests/test_guard.py does not reach, through the real CLI."""

from __future__ import annotations

import json

from conftest import run_memwarden, write_files

GH = "ghp_" + "Qm4xR8vTz2Lk9WbN3cYp7HdJ5sFg1AeUo6Ki"  # fake, 36 characters after the prefix
AWS = "AKIA" + "Q7ZT3MXW9PLB2KVR"


def check(root, *args):
    done = run_memwarden("check", "--no-cache", *args, ".", cwd=root, env={"MEMWARDEN_NO_PROGRESS": "1"})
    out = done.stdout.decode("utf-8", "replace")
    return done.returncode, out, out + done.stderr.decode("utf-8", "replace")


def leaked(text: str, *secrets: str) -> list[str]:
    return [s for s in secrets if any(s[i : i + 10] in text for i in range(len(s) - 9))]


# -- item 2: json_path ----------------------------------------------------------------------------


def test_a_secret_inside_a_bracketed_key_is_hidden_in_json_path(tmp_path):
    root = write_files(tmp_path / "ws", {
        "memory/scratchpad.md": "# pad\n",
        "memory/fact.yml": f"tools:\n  'token {GH}':\n    key: {AWS}\n",
    })
    rc, out, text = check(root, "--format", "json")
    assert rc == 1
    paths = [f.get("json_path") for f in json.loads(out)["findings"]]
    assert any(p and p.startswith("$.tools['[SECRET:") and p.endswith("].key") for p in paths), paths
    assert not leaked(text, GH, AWS)


# -- item 5: control characters --------------------------------------------------------------


def test_a_control_sequence_in_a_file_name_is_escaped_in_the_diff_header_and_fixing_line(tmp_path):
    name = "memory/_archive/\x1b]0;owned\x07log.jsonl"
    root = write_files(tmp_path / "ws", {
        "memory/scratchpad.md": "# pad\n",
        "memory/episodic.jsonl": '{"id": "ep_1", "ts": "2026-01-01T10:00:00Z", "type": "insight", "summary": "ok.", "tags": ["a", "b"]}\n\n',
        name: '{"id": "ep_2", "ts": "2026-01-01T10:00:00Z", "type": "insight", "summary": "ok.", "tags": ["a", "b"]}\n\n',
    })
    for args in (("--diff",), ("--fix",)):
        done = run_memwarden("check", "--no-cache", *args, ".", cwd=root, env={"MEMWARDEN_NO_PROGRESS": "1"})
        printed = done.stdout + done.stderr
        assert b"owned" in printed, done  # the file was reported on...
        assert b"\x1b" not in printed and b"\x07" not in printed, done  # ...with its name escaped


# -- item 3: budget ---------------------------------------------------------------------------


def test_budget_escapes_control_sequences_in_an_entry_past_the_edge(tmp_path):
    entries = "".join(f'- "the deploy said done but step {i} never ran" → [n{i}](n{i}.md)\n' for i in range(6))
    entries += '- "the CLI printed \x1b[2J and \x1b]0;pwned\x07 then hung" → [esc](esc.md)\n'
    root = write_files(tmp_path / "ws", {
        "MEMORY.md": "# Memory\n\n" + entries,
        ".memwarden.toml": "[rules.index-over-budget]\nmax = 200\nedge = 300\n",
    })
    done = run_memwarden("budget", "--preset", "gish", cwd=root, env={"MEMWARDEN_NO_PROGRESS": "1", "NO_COLOR": "1"})
    assert done.returncode == 2, done
    assert b"pwned" in done.stdout, done
    assert b"\x1b" not in done.stdout + done.stderr and b"\x07" not in done.stdout + done.stderr, done


# -- item 4: passwords with punctuation, escapes ----------------------------------------------


def secret_lines(out: str, path: str) -> list[int]:
    return sorted(f["line"] for f in json.loads(out)["findings"] if f["name"] == "secret-in-memory" and f["path"] == path)


def test_a_password_with_punctuation_in_a_jsonl_record_is_found(tmp_path):
    root = write_files(tmp_path / "ws", {
        "memory/scratchpad.md": "# pad\n",
        "memory/episodic.jsonl": json.dumps({"id": "ep_1", "ts": "2026-01-01T10:00:00Z", "type": "insight",
                                             "summary": "ok.", "tags": ["a", "b"], "password": "(Qm4x;R8v[Tz2"}) + "\n",
    })
    rc, out, text = check(root, "--format", "json")
    assert secret_lines(out, "memory/episodic.jsonl") == [1], out
    assert not leaked(text, "(Qm4x;R8v[Tz2")


def test_a_reference_under_a_password_name_is_still_no_secret(tmp_path):
    root = write_files(tmp_path / "ws", {
        "memory/scratchpad.md": "# pad\n",
        "memory/fact.yml": (
            "db:\n"
            '  password: get_secret("db")\n'
            "  pwd: os.environ['DB_PASSWORD']\n"
            "  passwd: (optional)\n"
            "  password_hint: '[none yet]'\n"
        ),
    })
    rc, out, _ = check(root, "--format", "json", "--select", "secret-in-memory")
    assert rc == 0 and secret_lines(out, "memory/fact.yml") == [], out


def test_a_yaml_escaped_secret_key_is_hidden_in_json_path_and_an_escaped_token_in_front_matter_is_found(tmp_path):
    escaped_key = "\\x41" + AWS[1:]
    escaped_token = "\\u0067" + GH[1:]
    note = write_files(tmp_path / "cc", {
        "MEMORY.md": "# Memory\n\n- [n](n.md) — a note\n",
        "n.md": f'---\nname: n\ndescription: d\ntoken: "{escaped_token}"\n---\n\nBody.\n',
    })
    rc, out, text = check(note, "--profile", "claude-code", "--format", "json")
    found = [f for f in json.loads(out)["findings"] if f["name"] == "secret-in-memory"]
    assert [(f["line"], f["message"].split(" (")[0]) for f in found] == [(4, "GitHub token")], out
    assert not leaked(text, GH)
    facts = write_files(tmp_path / "ws", {
        "memory/scratchpad.md": "# pad\n",
        "memory/fact.yml": f'tools:\n  "{escaped_key}": {GH}\n',
    })
    rc, out, text = check(facts, "--format", "json")
    paths = {f.get("json_path") for f in json.loads(out)["findings"] if f["name"] == "secret-in-memory"}
    assert "$.tools['[SECRET:aws-access-key" in " ".join(p or "" for p in paths), out
    assert not leaked(text, AWS, GH)


# -- item 8: false alarms ---------------------------------------------------------------------


def test_publishable_keys_and_base64_prose_are_no_secret_in_json_and_prose_but_encoded_credentials_are(tmp_path):
    import base64

    publishable = "pk_live_51" + "Hq8RtXk2Lm4NpQ7sVw9YzB3cD5fG6hJ8kL1mN4pQ7rS9tU2vW5xY8zA3bC6dE9fG2hJ5kL8"
    prose = base64.b64encode(b"Always run the migrations before the deploy, never after it.").decode()
    credentials = base64.b64encode(b"deploy-bot:Qm4xR8vTz2Lk9WbN").decode()  # user:password, no sentence
    root = write_files(tmp_path / "ws", {
        "memory/scratchpad.md": f"# pad\n\nThe checkout page uses {publishable} (publishable).\n",
        "memory/episodic.jsonl": json.dumps({"id": "ep_1", "ts": "2026-01-01T10:00:00Z", "type": "insight",
                                             "summary": f"Stored note {prose} for later.", "tags": ["a", "b"],
                                             "auth": credentials}) + "\n",
    })
    rc, out, _ = check(root, "--format", "json", "--select", "secret-in-memory")
    assert secret_lines(out, "memory/scratchpad.md") == [], out
    assert secret_lines(out, "memory/episodic.jsonl") == [1], out
    found = [f for f in json.loads(out)["findings"] if f["path"] == "memory/episodic.jsonl"]
    assert len(found) == 1 and found[0]["json_path"] == "$.auth", found


# -- item 1: hiding does not depend on the selected rules ----------------------------------------


def test_only_a_quoting_rule_selected_still_hides_a_url_password_split_by_punctuation(tmp_path):
    secret = "Qm4x(R8v,Tz27q"
    root = write_files(tmp_path / "ws", {
        "memory/scratchpad.md": "# pad\n",
        "memory/fact.yml": f"tools:\n  db: gh does not support mysql://app:{secret}@db.internal/app on this plan.\n",
    })
    for fmt in ("text", "json", "github"):
        rc, out, text = check(root, "--format", fmt, "--select", "negative-claim-without-expiry")
        assert rc == 1 and "MW301" in out, out
        assert "[SECRET:" in out and not leaked(text, secret), out

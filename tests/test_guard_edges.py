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

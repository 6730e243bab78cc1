"""What secret-in-memory took for a secret on real memory (issue 29), and what it must still find.

Ids of well-known services' documents, the names of secrets written without a value, and a word value
under `pass:` are no credentials; a real value under the same names still is.
"""

from __future__ import annotations

import json

import pytest

from memwarden.analysis.secrets import scan

NOT_SECRETS = [
    ("markdown", "- [Plan](https://docs.google.com/document/d/1aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789abcdEF/edit?usp=sharing)\n"),
    ("markdown", "Sheet: 1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms (tab Budget)\n"),
    ("yaml", "google_sheet: 1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms\ndrive_folder: 1A2b3C4d5E6f7G8h9I0jKlMnOpQrStUvW\n"),
    ("markdown", "Roadmap: https://www.notion.so/acme/Roadmap-Q3-8f2b1c9d4e5a6b7c8d9e0f1a2b3c4d5e?pvs=4\n"),
    ("yaml", "notion:\n  database_id: 8f2b1c9d4e5a6b7c8d9e0f1a2b3c4d5e\n  token_env: NOTION_TOKEN\n"),
    ("markdown", "The `OPENAI_API_KEY` env var holds the key; set ANTHROPIC_API_KEY too.\nOPENAI_API_KEY: required\n"),
    ("yaml", 'api_key:\npassword: ""\ntoken: ~\nsecret: null\napi_key2: "<your key>"\nauth_token: CHANGE_ME\n'),
    ("yaml", "with:\n  password: ${{ secrets.DOCKERHUB_TOKEN }}\n  token: ${{ github.token }}\n"),
    ("markdown", "Use `token: ${{ secrets.NPM_TOKEN }}` in the workflow.\n"),
    ("yaml", "review:\n  pass: audit-only\n"),
    ("markdown", "- pass: read-only, then pass: audit-only\n"),
    ("jsonl", json.dumps({"id": "ep_1", "pass": "audit-only"}) + "\n"),
]


@pytest.mark.parametrize("fmt, text", NOT_SECRETS, ids=lambda v: v[:40] if isinstance(v, str) and len(v) > 8 else None)
def test_names_ids_and_word_values_are_not_secrets(fmt, text):
    assert [(d.type.slug, text[d.start : d.end]) for d in scan(text, fmt)] == []


@pytest.mark.parametrize("fmt, text, value", [
    ("yaml", "review:\n  pass: Xk82-jdLq\n", "Xk82-jdLq"),  # digits and mixed case: a password
    ("yaml", "passphrase: correct-horse-battery\n", "correct-horse-battery"),  # a passphrase is words
    ("yaml", "password: audit-only-7\n", "audit-only-7"),
    ("markdown", "OPENAI_API_KEY=sk-" + "proj-" + "Ab3dE5gH7jK9mN1pQ3rS5tU7vW9xY1zA3bC5dE7fG9hJ\n", None),
])
def test_a_value_under_the_same_names_is_still_a_secret(fmt, text, value):
    found = scan(text, fmt)
    assert len(found) == 1
    if value is not None:
        assert text[found[0].start : found[0].end] == value


def test_a_file_name_of_words_in_capitals_is_a_path_but_a_mixed_case_run_still_a_secret():
    from memwarden.analysis.secrets.scanner import scan_text

    words = "Traced in `.todos/DONE/DONE_0112-eli5-codeblock-hydration-mismatch.md` last week.\n"
    assert scan_text(words, "markdown") == []
    random_run = "Traced in `.todos/DONE/aB3xK9Qw7Lp2Zt5Rv8Nm1Yc4-Hs6Jd0FgT2wq.md` last week.\n"
    assert len(scan_text(random_run, "markdown")) == 1

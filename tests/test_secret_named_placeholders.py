"""secret-in-memory and a secret's name written where its value goes (issue 29, round 8).

`ghp_TOKEN`, `xoxb-SLACK_BOT_TOKEN`, `ghp_LONG_TOKEN_HERE`, `你的NVIDIA_API_KEY` ("your NVIDIA_API_KEY"): a vendor's
prefix or a "your" followed by the secret's name in capitals says where a key goes. Capitals that end in no such
name, a digit, mixed case or a random run of capitals are still values. Every row is written for this test.
"""

from __future__ import annotations

import pytest

from memwarden.analysis.secrets import scan

NAMES = [
    ("git push https://octocat:ghp_TOKEN@github.com/octocat/site.git main\n", "markdown"),
    ("git push https://octocat:ghp_LONG_TOKEN_HERE@github.com/octocat/site.git main\n", "markdown"),
    ('export GITHUB_TOKEN="ghp_PERSONAL_ACCESS_TOKEN"\n', "markdown"),
    ('{"api_key": "你的NVIDIA_API_KEY", "base_url": "https://integrate.example.com/v1"}\n', "jsonl"),
    ("slack:\n  bot_token: xoxb-SLACK_BOT_TOKEN\n", "yaml"),
    ("OPENAI_API_KEY=sk-OPENAI_KEY\n", "markdown"),
    ('  "apiKey": "您的DEEPSEEK_API_KEY",\n', "jsonl"),
]


@pytest.mark.parametrize(("text", "fmt"), NAMES)
def test_a_secrets_name_where_its_value_goes_is_no_secret(text, fmt):
    assert [d.type.slug for d in scan(text, fmt)] == []


STILL_SECRET = [
    ("git push https://octocat:ghp_Qm7Rt2Xw9Lp4Zk8Vn3Hb6Jc1Fd5Gs0AyTq4W@github.com/octocat/site.git main\n", "markdown"),
    ('export DB_PASSWORD="pw_KEYSTONE"\n', "markdown"),  # capitals that name no secret: a password
    ('{"api_key": "你的Qm7Rt2Xw9Lp4Zk8Vn3Hb6Jc1Fd5Gs0AyTq4"}\n', "jsonl"),  # a random run after the word
    ('export API_TOKEN="tk_QMRTXWLPZKVNHBJCFDGSAY_TOKEN7"\n', "markdown"),  # a digit: not a name
]


@pytest.mark.parametrize(("text", "fmt"), STILL_SECRET)
def test_a_value_beside_a_secrets_name_is_still_found(text, fmt):
    assert len(scan(text, fmt)) == 1

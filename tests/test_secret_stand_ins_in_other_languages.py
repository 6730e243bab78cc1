"""secret-in-memory and a stand-in that says "your key" in another language (issue 29, round 9).

A config example in a memory note written in Norwegian, German, French, Chinese or Japanese puts "your key here" in
its own words where the value goes, as an English one writes `your-api-key`: words only, one of them "your".
A digit, mixed case or a random run after the word is still a value. Every row is written for this test.
"""

from __future__ import annotations

import pytest

from memwarden.analysis.secrets import scan

STAND_INS = [
    ('    apiKey: "din-nøkkel-her"\n', "markdown"),  # Norwegian: "your key here"
    ('  "apiKey": "gk_live_你的key",\n', "jsonl"),  # a vendor's prefix, then "your key"
    ('{"token": "您的令牌"}\n', "jsonl"),  # Chinese: "your token"
    ("api_key: deine-api-schluessel\n", "yaml"),  # German
    ('OPENAI_API_KEY="votre-cle-api"\n', "markdown"),  # French
    ('password = "あなたのパスワード"\n', "markdown"),  # Japanese: "your password"
    ('api_key: "tu-clave-de-api"\n', "markdown"),  # Spanish
]


@pytest.mark.parametrize(("text", "fmt"), STAND_INS)
def test_your_key_in_another_language_is_no_secret(text, fmt):
    assert [d.type.slug for d in scan(text, fmt)] == []


STILL_SECRET = [
    ('api_key: "你的Qm7Rt2Xw9Lp4Zk8Vn3Hb6Jc1Fd5Gs0AyTq4"\n', "markdown"),  # a random run after the word
    ('token: "din-Qm7RtXwLpZkVnHbJcFdGsAyTq"\n', "markdown"),  # mixed case: letters alone may be random
    ('apiKey: "gk_live_你的8f3Kq2Lm9Zx4"\n', "markdown"),  # a digit
    ('password: "Straße-Glück-Wald"\n', "markdown"),  # a passphrase with no "your" in it
    ('{"api_key": "deine-9Hq2Rt7Lw4Xz"}\n', "jsonl"),
]


@pytest.mark.parametrize(("text", "fmt"), STILL_SECRET)
def test_a_value_beside_a_foreign_your_is_still_found(text, fmt):
    assert len(scan(text, fmt)) == 1

"""A secret written after a label, as people write them in memory notes: Markdown bold labels, a value in a code
span, and the word for password in the languages the notes are written in. A labelled table: each row is a line
and what secret-in-memory should find in it (None: nothing). The values are made here, never real."""

from __future__ import annotations

import random
import string

import pytest

from memwarden.analysis.secrets import scan

_random = random.Random(5150)


def _password() -> str:
    return "".join(_random.choice(string.ascii_letters) for _ in range(7)) + str(_random.randrange(10**4, 10**5))


def _hex(n: int = 48) -> str:
    return "".join(_random.choice("0123456789abcdef") for _ in range(n))


PW, HEX = _password(), _hex()

ROWS = [
    # (line, what is found: the secret's type, or None)
    (f"- **Password:** {PW}", "password"),
    (f"- **パスワード**: {PW}", "password"),
    (f"- パスワード: {PW}", "password"),
    (f"- **密码**：{PW}", "password"),
    (f"- 비밀번호: {PW}", "password"),
    (f"- Passwort: {PW}", "password"),
    (f"- **Passwort:** {PW}", "password"),
    (f"- senha: {PW}", "password"),
    (f"- **Senha**: {PW}", "password"),
    (f"- contraseña: {PW}", "secret"),  # detect-secrets' own Spanish name, its type
    (f"- mot de passe : {PW}", "password"),
    (f"- **Mot de passe :** {PW}", "password"),
    (f"- Пароль: {PW}", "password"),
    (f"- **Control UI token:** `{HEX}`", "secret"),
    (f"- **Token:** `{HEX}`", "secret"),
    (f"- Token: {HEX}", "secret"),
    (f"- gateway token = `{HEX}`", "secret"),
    ("- **Password:** Bitwarden2024!x", "password"),  # a password manager's name inside a password is no reference
    (f"- **Senha:** WPA2{PW}", "password"),  # a Wi-Fi mode's name inside a password is no mode
    (f"- PASS: {PW}", "password"),  # capitals alone are still a label
    (f"- db: postgres://app:{PW}@db.internal:5432/app", "url-password"),
    # no value: a name, a placeholder, a reference, a sentence about a password
    ("- **Token:** `GITHUB_TOKEN` from the environment", None),
    ("- **Password:** in 1Password, vault Ops", None),
    ("- senha: (a do cofre)", None),
    ("- Le mot de passe est dans le coffre.", None),
    ("- Пароль хранится в менеджере паролей.", None),
    ("- **パスワード**: 1Passwordに保存", None),
    ("- **Token:** `<your-token>`", None),
    ("- token: `abc`", None),
    ("- **Senha:** `${DB_PASSWORD}`", None),
    ("- **Password:** хранится в `openclaw.json` → `env.IMAP_PASSWORD`", None),  # "is kept in": a description
    ("- senha: guardada no cofre da equipe", None),
    ("- Passwort: liegt im Tresor", None),
    # batch 15's dev half: a Wi-Fi security mode where the password would go, a test's verdict, Supabase's placeholder
    ("- **Senha:** WPA2-PSK (mínimo 12 caracteres)", None),
    ("- **All mandatory checks PASS:** lint:fix ✓ type-check ✓ test:ci ✓", None),
    ('npx supabase db dump --db-url "postgres://postgres:[YOUR-PASSWORD]@db.[REF].supabase.co:5432/postgres"', None),
]


@pytest.mark.parametrize("line, expected", ROWS, ids=[row[0][:40] for row in ROWS])
def test_a_secret_after_a_label_is_found_and_a_label_without_one_is_not(line, expected):
    found = [detection.type.slug for detection in scan(line + "\n", "markdown")]
    assert found == ([expected] if expected else []), line


def test_the_label_table_shows_both_sides():
    assert sum(1 for _, expected in ROWS if expected) >= 12 and sum(1 for _, expected in ROWS if not expected) >= 8

"""secret-in-memory on code and docs that name a secret without holding one (issue 29, round 7).

Vendored skill code, scripts and their docs read a key from the environment, pass an `api_key` variable on,
describe a parameter in a docstring, or use a stand-in value in a test; a connection string in docs shows its
shape with `user:pass`. None holds a credential. The same shapes holding a real value still do: a literal
default of an environment lookup, a random value labelled "test", a password in a URL that is no placeholder.
Every row here is written for this test (none is copied from the corpus).
"""

from __future__ import annotations

import pytest

from memwarden.analysis.secrets import scan

# Code that reads a key from somewhere or passes a variable on: the value is an expression, not a literal.
CODE_WITHOUT_VALUE = [
    'WEBHOOK_SECRET = os.getenv("WEBHOOK_SECRET", "")\n',
    '    secret = os.getenv("SIGNING_SECRET", "").strip()\n',
    'svc = VendorClient(api_key=os.getenv("VENDOR_API_KEY"))\n',
    '    report = asyncio.run(scan_market(universe=tickers, api_key=api_key))\n',
    '    api_key = settings.get("auth", {}).get("VENDOR_KEY")\n',
    '    body = json.dumps({"client_id": cid, "client_secret": client_secret}).encode()\n',
    'def fetch_page(url, retries=3, api_key=None):\n',
    '      this.authToken = await this.loadToken();\n',
    "    const passwdFile = path.join(configDir, 'passwd');\n",
    'api_key = os.environ.get("OPENAI_API_KEY_2")\n',
    "export OPENAI_API_KEY=$(cat ~/.openai_key)\n",
    'secret = client.secrets.get("prod-db-2024")\n',  # a lookup's first argument names what it reads
    'token = vault.read("secret/data/app1")\n',
]

# A docstring or an env list describing a parameter: the words after the name describe it.
DESCRIPTIONS = [
    '    Args:\n        query: what to look up\n        api_key: Weather service API key\n',
    'Environment:\n    VENDOR_API_KEY: Your vendor API key\n',
    '        api_key: Geocoder API key (gc-...)\n',
    '        password: Account password (read from the keychain if omitted)\n',
]

# Values that say they stand in for a key: a test's or a mock's, a template's.
STAND_INS = [
    '        cfg = {"ANTHROPIC_API_KEY": "fake"}\n',
    '    "GROQ_API_KEY": "gsk-mock",\n',
    'client = Client(api_key="sk-fake")\n',
    "const FIXTURE_PASSWORD = 'test-vault-password';\n",
    'VENDOR_KEY=sk-your-vendor-key\n',
]

# Connection strings whose password slot holds the word for a password.
URL_PLACEHOLDERS = [
    "DATABASE_URL=mysql://user:pass@db:3306/app\n",
    "| `CACHE_URL` | Redis | `redis://user:password@cache:6379/0` |\n",
    "- Push over HTTPS with `https://user:token@git.acme-corp.dev/team/repo.git`\n",
]


@pytest.mark.parametrize("text", CODE_WITHOUT_VALUE + DESCRIPTIONS + STAND_INS + URL_PLACEHOLDERS)
def test_a_name_without_a_value_is_no_secret(text):
    assert [(d.type.slug, text[d.start : d.end]) for d in scan(text, "markdown")] == []


# The same shapes holding a real value: each must still be found, and the value is what is found.
REAL_VALUES = [
    ('DB_PASSWORD = os.getenv("DB_PASSWORD", "Wint3r-Harb0ur!")\n', "Wint3r-Harb0ur!"),
    ('api_key = os.environ.get("VENDOR_KEY", "q8ZtR2vLx9NwP4kd7Hs1")\n', "q8ZtR2vLx9NwP4kd7Hs1"),
    ('svc = VendorClient(api_key=load_key() or "Tq4Nw8Lz2Rx7Vb3K")\n', "Tq4Nw8Lz2Rx7Vb3K"),
    ('const apiKey = process.env.VENDOR_KEY ?? "Zq7Lr2Xv9Tn4Wb8Kc3Hm";\n', "Zq7Lr2Xv9Tn4Wb8Kc3Hm"),
    ("const apiKey = process.env.VENDOR_KEY || 'Zq7Lr2Xv9Tn4Wb8Kc3Hm';\n", "Zq7Lr2Xv9Tn4Wb8Kc3Hm"),
    ('secret: new Buffer("Zq7Lr2Xv9Tn4Wb8Kc3Hm")\n', "Zq7Lr2Xv9Tn4Wb8Kc3Hm"),
    ('password = os.getenv("DB_PASSWORD", "hunter2024")\n', "hunter2024"),  # a default is no lookup's name
    ("secret: Basic dXNlcjpacTdMcjJYdjlUbjRXYjhLYzM=\n", None),  # the scheme's credential follows it
    ("api_key: Bearer Zq7Lr2Xv9Tn4Wb8Kc3HmP5sT\n", "Zq7Lr2Xv9Tn4Wb8Kc3HmP5sT"),
    ('token = os.environ["GH_TOKEN"] if ci else "ghp_4f8Kq2Lm9Rt7Vx3Zb6Nc1Hd5Jw0Ys8Pa2Qe"\n', None),
    ('client = Client(api_key="sk-test-Qm7Rt2Xw9Lp4Zk8Vn3Hb6Jc1Fd5Gs0Ay")\n', "sk-test-Qm7Rt2Xw9Lp4Zk8Vn3Hb6Jc1Fd5Gs0Ay"),
    ('TEST_API_KEY = "Zq7Lr2Xv9Tn4Wb8Kc3Hm"\n', "Zq7Lr2Xv9Tn4Wb8Kc3Hm"),
    ("        api_key: Rk29dLw8Qz7vX3nP the staging key\n", "Rk29dLw8Qz7vX3nP"),
    ("        password: Hunter-2024 (rotated monthly)\n", "Hunter-2024"),
    ("DATABASE_URL=postgres://app:Vq7rT2xL9w@db.internal:5432/app\n", None),
    ("- Push with `https://user:tok3nQ7x9Lw2R@git.acme-corp.dev/team/repo.git`\n", None),
    ('conn = connect(host=h, password="Pz8!wLq3rT")\n', "Pz8!wLq3rT"),
    ('    "GROQ_API_KEY": "gsk-mock-8Hq2Lx7Zr4Vt9Nw3",\n', "gsk-mock-8Hq2Lx7Zr4Vt9Nw3"),
]


@pytest.mark.parametrize("text, value", REAL_VALUES)
def test_the_same_shapes_with_a_real_value_are_still_secrets(text, value):
    found = scan(text, "markdown")
    assert len(found) == 1, [(d.type.slug, text[d.start : d.end]) for d in found]
    if value is not None:
        assert value in text[found[0].start : found[0].end]

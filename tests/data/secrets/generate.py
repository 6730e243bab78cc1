"""Write the labelled secrets set: memory workspaces with planted secrets and decoys, and a manifest.

    python3 tests/data/secrets/generate.py          # rewrite the files next to this script
    python3 tests/data/secrets/generate.py OUTDIR   # write them somewhere else

Every secret is fake: random characters in the shape of the real format, from a
seeded generator, so the output is the same on every run (a test checks that the
committed files are exactly what this script writes). `manifest.json` lists each
planted secret (file, line, column, type, where in the file it sits, its value
and, when JSON escapes it, its raw text) and each decoy (a value that looks like a
secret and is not one, and why).
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ALNUM = string.ascii_letters + string.digits
URLSAFE = ALNUM + "-_"
BANNED = ("xxx", "example", "sample", "dummy", "redacted", "changeme", "fake")


class Generator:
    def __init__(self, seed: int = 20260415):
        self.random = random.Random(seed)

    def chars(self, n: int, alphabet: str = ALNUM) -> str:
        while True:
            value = "".join(self.random.choice(alphabet) for _ in range(n))
            lowered = value.lower()
            has_run = any(value[i] == value[i + 1] == value[i + 2] == value[i + 3] for i in range(len(value) - 3))
            if not any(word in lowered for word in BANNED) and not has_run:
                return value

    def hex(self, n: int) -> str:
        return "".join(self.random.choice("0123456789abcdef") for _ in range(n))

    # -- secret formats ---------------------------------------------------------------
    def anthropic(self) -> str:
        return "sk-ant-" + "api03-" + self.chars(93, URLSAFE) + "AA"

    def openai_project(self) -> str:
        return "sk-" + "proj-" + self.chars(156, URLSAFE)

    def openai_legacy(self) -> str:
        return "sk-" + self.chars(20) + "T3Blbk" + "FJ" + self.chars(20)

    def github(self, prefix: str = "ghp") -> str:
        return prefix + "_" + self.chars(36)

    def github_pat(self) -> str:
        return "github" + "_pat_" + "11" + self.chars(20, string.ascii_uppercase + string.digits) + "_" + self.chars(59)

    def npm(self) -> str:
        return "npm" + "_" + self.chars(36)

    def aws_key_id(self) -> str:
        return "AK" + "IA" + self.chars(16, string.ascii_uppercase + "234567")

    def aws_secret(self) -> str:
        return self.chars(40, ALNUM + "/+")

    def slack_bot(self) -> str:
        return "xo" + "xb-" + str(self.random.randint(10**11, 10**12 - 1)) + "-" + str(self.random.randint(10**12, 10**13 - 1)) + "-" + self.chars(24)

    def slack_webhook(self) -> str:
        return "https://hooks.slack.com/services/T" + self.chars(8, string.ascii_uppercase + string.digits) + "/B" + self.chars(10, string.ascii_uppercase + string.digits) + "/" + self.chars(24)

    def stripe(self) -> str:
        return "sk" + "_live_" + self.chars(24)

    def gitlab(self) -> str:
        return "gl" + "pat-" + self.chars(20, URLSAFE)

    def sendgrid(self) -> str:
        return "SG" + "." + self.chars(22, URLSAFE) + "." + self.chars(43, URLSAFE)

    def twilio(self) -> str:
        return "SK" + "".join(self.random.choice(string.ascii_lowercase + string.digits) for _ in range(32))

    def pypi(self) -> str:
        return "pypi-" + "AgEIcHlwaS5vcmc" + self.chars(80, URLSAFE)

    def telegram(self) -> str:
        return str(self.random.randint(10**8, 10**9 - 1)) + ":" + "AA" + self.chars(33, URLSAFE)

    def discord(self) -> str:
        return "M" + self.chars(23, URLSAFE) + "." + self.chars(6, URLSAFE) + "." + self.chars(27, URLSAFE)

    def mailchimp(self) -> str:
        return self.hex(32) + "-us" + str(self.random.randint(1, 20))

    def azure(self) -> str:
        return self.chars(86, ALNUM + "+/") + "=="

    def square(self) -> str:
        return "sq0" + "csp-" + self.chars(43, URLSAFE)

    def jwt(self) -> str:
        def part(data: dict) -> str:
            return base64.urlsafe_b64encode(json.dumps(data, separators=(",", ":")).encode()).decode().rstrip("=")

        header = part({"alg": "HS256", "typ": "JWT"})
        payload = part({"sub": str(self.random.randint(10**6, 10**7)), "name": "deploy-bot", "iat": 1767225600})
        return f"{header}.{payload}.{self.chars(43, URLSAFE)}"

    def password(self) -> str:
        return self.chars(5) + self.random.choice("!#%&*+-") + self.chars(4) + str(self.random.randint(10, 99))

    def url_password(self) -> str:
        """A password as it can stand in a URL's user info without percent-encoding."""
        return self.chars(6) + self.random.choice("-_.~!*") + self.chars(5) + str(self.random.randint(10, 99))

    def high_entropy(self, n: int = 40) -> str:
        return self.chars(n, ALNUM + "+/")

    def private_key_lines(self, header: str, lines: int = 6) -> list[str]:
        body = [base64.b64encode(self.random.randbytes(48)).decode() for _ in range(lines)]
        return [f"-----BEGIN {header}-----", *body, f"-----END {header}-----"]

    def ulid(self) -> str:
        return "01J" + "".join(self.random.choice("0123456789ABCDEFGHJKMNPQRSTVWXYZ") for _ in range(23))

    def uuid(self) -> str:
        h = self.hex(32)
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


class Workspace:
    """Files being written, and the manifest of what sits where in them."""

    def __init__(self, name: str):
        self.name = name
        self.files: dict[str, list[str]] = {}
        self.planted: list[dict] = []
        self.decoys: list[dict] = []
        self.personal: list[dict] = []
        self.contacts: list[dict] = []
        self._pending: list[tuple[str, str, dict]] = []  # (file, raw text to find, entry)

    def file(self, relpath: str) -> list[str]:
        return self.files.setdefault(relpath, [])

    def plant(self, relpath: str, value: str, secret_type: str, place: str, raw: str | None = None) -> str:
        entry = {"type": secret_type, "place": place, "value": value}
        if raw is not None and raw != value:
            entry["raw"] = raw
        self._pending.append((relpath, raw or value, entry))
        self.planted.append(entry)
        return raw or value

    def decoy(self, relpath: str, value: str, why: str) -> str:
        entry = {"value": value, "why": why}
        self._pending.append((relpath, value, entry))
        self.decoys.append(entry)
        return value

    def home(self, relpath: str, value: str, personal: bool, why: str) -> str:
        entry = {"value": value, "personal": personal, "why": why}
        self._pending.append((relpath, value, entry))
        self.personal.append(entry)
        return value

    def contact(self, relpath: str, value: str, personal: bool, why: str) -> str:
        entry = {"value": value, "personal": personal, "why": why}
        self._pending.append((relpath, value, entry))
        self.contacts.append(entry)
        return value

    def locate(self) -> None:
        for relpath, raw, entry in self._pending:
            lines = self.files[relpath]
            hits = [(n, line.find(raw)) for n, line in enumerate(lines, 1) if raw in line]
            if len(hits) != 1 and "line" not in entry:
                raise SystemExit(f"{self.name}/{relpath}: {entry.get('type') or entry.get('why')} appears {len(hits)} times")
            number, index = hits[0]
            entry["path"] = f"{self.name}/{relpath}"
            entry["line"] = number
            entry["column"] = index + 1


def episode(g: Generator, number: int, kind: str, title: str, content: str, tags: list[str], **extra) -> dict:
    record = {
        "id": f"ep_{number:08d}",
        "ts": f"2026-0{1 + number % 9}-{10 + number % 18:02d}T09:{number % 60:02d}:00+08:00",
        "type": kind,
        "title": title,
        "content": content,
        "tags": tags,
        "importance": 5 + number % 5,
        "fingerprint": hashlib.sha256(content.encode()).hexdigest(),
        "decay_status": "active",
        "retrieval": {"count": number % 4, "last_accessed": None, "strength": 0.5},
    }
    record.update(extra)
    return record


def dump(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False)


# -- ghost-in-shell -------------------------------------------------------------------


def ghost_in_shell(g: Generator) -> Workspace:
    ws = Workspace("gish")
    p, d = ws.plant, ws.decoy

    # Startup index: entry lines, an HTML comment, a code block.
    index = ws.file("MEMORY.md")
    index += [
        "# Memory Index",
        "",
        "Every session loads this file. Keep it to triggers and links.",
        "",
        "## Tier 1",
        "",
        '- "The deploy said 401, so the token expired" → [rotate the deploy token](memory/knowledge/references/deploy-token.md)',
        f'- "Pushing with the bot fails" → [bot credentials](memory/knowledge/references/bot-credentials.md) — bot uses {p("MEMORY.md", g.github(), "github-token", "index-entry")}',
        f'- "Which key goes in the header" → [API keys](memory/knowledge/references/bot-credentials.md) — set {d("MEMORY.md", "YOUR_API_KEY", "placeholder name")} first',
        f'- "The key starts with sk-" → [key formats](memory/knowledge/references/key-formats.md) — looks like {d("MEMORY.md", "sk-...", "elided placeholder")}',
        "- \"Which shelf has the tools\" → [tools shelf](memory/knowledge/INDEX_tools.md)",
        "",
        f"<!-- old slack bot: {p('MEMORY.md', g.slack_bot(), 'slack-token', 'html-comment')} -->",
        f"<!-- commit {d('MEMORY.md', g.hex(40), 'git SHA')} moved the notes -->",
        "",
        "```bash",
        f"export ANTHROPIC_API_KEY={p('MEMORY.md', g.anthropic(), 'anthropic-api-key', 'code-block')}",
        f"export OPENAI_API_KEY={d('MEMORY.md', '${OPENAI_API_KEY}', 'environment reference')}",
        "gish recall --workspace . \"<query>\"",
        "```",
        "",
    ]

    shelf = ws.file("memory/knowledge/INDEX_tools.md")
    shelf += [
        "# Tools shelf",
        "",
        "Read when you already know which tool you are using.",
        "",
        f'- "Which flags does the deploy script take" → [deploy flags](references/deploy-token.md) — publish token {p("memory/knowledge/INDEX_tools.md", g.npm(), "npm-token", "index-entry")}',
        f'- "npm publish asks for a token" → [npm tokens](references/key-formats.md) — a token looks like {d("memory/knowledge/INDEX_tools.md", "npm_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", "x placeholder")}',
        f'- "Which commit introduced the flag" → [deploy flags](references/deploy-token.md) — see {d("memory/knowledge/INDEX_tools.md", g.hex(7), "short git SHA")}',
        "",
    ]

    # A reference note: secrets in front matter, prose, code blocks, a table.
    note = "memory/knowledge/references/deploy-token.md"
    lines = ws.file(note)
    rsa = g.private_key_lines("OPENSSH PRIVATE KEY", 5)
    lines += [
        "---",
        "name: deploy-token",
        f"description: The deploy pipeline authenticates with {p(note, g.github_pat(), 'github-fine-grained-token', 'front-matter')}",
        "metadata:",
        "  type: reference",
        "  updated: 2026-03-02",
        "  evidence:",
        f"    - postgres://deploy:{p(note, g.url_password(), 'url-password', 'front-matter-list')}@db.internal:5432/deploy",
        f"    - https://github.com/acme/deploy/commit/{d(note, g.hex(40), 'git SHA in a URL')}",
        "---",
        "",
        "# Deploy token",
        "",
        f"The pipeline's token is {p(note, g.github('gho'), 'github-token', 'prose')} and it expires in May.",
        f"Use a token shaped like {d(note, 'ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 'x placeholder')} in examples.",
        "The password: see the team vault, never paste it here.",
        f"Session trace {d(note, g.uuid(), 'UUID')} shows the 401.",
        "",
        "| service | credential |",
        "|---|---|",
        f"| stripe | {p(note, g.stripe(), 'stripe-key', 'table-cell')} |",
        f"| gitlab | {p(note, g.gitlab(), 'gitlab-token', 'table-cell')} |",
        f"| sentry | {d(note, '<token>', 'template placeholder')} |",
        "",
        "```yaml",
        "deploy:",
        f"  password: {p(note, g.password(), 'password', 'code-block-yaml')}",
        f"  password_policy: {d(note, 'rotate-every-90-days', 'setting about a password')}",
        f"  api_key: {d(note, '${DEPLOY_API_KEY}', 'environment reference')}",
        "```",
        "",
        "```text",
        *rsa,
        "```",
        "",
        "```python",
        f'client = Client(api_key=os.environ["{d(note, "ACME_API_KEY", "environment variable name")}"])',
        f'SECRET_KEY = "{p(note, g.high_entropy(50), "secret", "code-block-python")}"',
        "```",
        "",
        f"<!-- aws {p(note, g.aws_key_id(), 'aws-access-key', 'html-comment')} belongs to the old account -->",
        "",
    ]
    ws.planted.append({"type": "private-key", "place": "code-block", "value": "\n".join(rsa), "path": f"gish/{note}",
                       "line": lines.index(rsa[0]) + 1, "column": 1})

    note2 = "memory/knowledge/references/bot-credentials.md"
    lines = ws.file(note2)
    webhook = g.slack_webhook()
    lines += [
        "---",
        "name: bot-credentials",
        "description: Where the release bot's credentials live and how they are rotated",
        "metadata:",
        "  type: reference",
        "  updated: 2026-02-11",
        f"  api_token: {p(note2, g.high_entropy(40), 'secret', 'front-matter')}",
        "---",
        "",
        f"- Slack alerts go to {p(note2, webhook, 'slack-token', 'prose-url')}",
        f"- Telegram bot: {p(note2, g.telegram(), 'telegram-token', 'prose-list')}",
        f"- Discord bot: {p(note2, g.discord(), 'discord-token', 'prose-list')}",
        f"- Mail: {p(note2, g.sendgrid(), 'sendgrid-key', 'prose-list')}",
        f"- SMS: {p(note2, g.twilio(), 'twilio-key', 'prose-list')}",
        f"- The release bot's id is {d(note2, g.ulid(), 'ULID')}",
        f"- Image digest {d(note2, 'sha256:' + g.hex(64), 'container digest')}",
        f"- Lockfile integrity {d(note2, 'sha512-' + base64.b64encode(g.random.randbytes(64)).decode(), 'subresource integrity hash')}",
        f"- Get the token with {d(note2, 'op://release/bot/token', '1Password reference')}",
        "",
        "```ini",
        "; ~/.npmrc on the build host",
        f"//registry.npmjs.org/:_authToken={p(note2, g.npm(), 'npm-token', 'code-block-ini')}",
        "```",
        "",
        "```json",
        f'{{"client_id": "{d(note2, g.uuid(), "UUID client id")}", "client_secret": "{p(note2, g.password() + g.chars(8), "secret", "code-block-json")}"}}',
        "```",
        "",
    ]

    note3 = "memory/knowledge/feedback/never-paste-keys.md"
    lines = ws.file(note3)
    lines += [
        "---",
        "name: never-paste-keys",
        "description: Do not paste keys into memory; reference them by name",
        "metadata:",
        "  type: feedback",
        "  updated: 2026-01-20",
        "---",
        "",
        "Never paste a key here. Write the variable's name instead:",
        "",
        f"- right: `{d(note3, 'process.env.ANTHROPIC_API_KEY', 'code reference')}`",
        f"- right: `Authorization: Bearer {d(note3, '${API_TOKEN}', 'template placeholder')}`",
        f"- wrong: `Authorization: Bearer {p(note3, g.high_entropy(40), 'high-entropy-string', 'inline-code')}` (this one leaked; rotated 2026-01-19)",
        f"- also wrong: {p(note3, g.openai_legacy(), 'openai-api-key', 'prose')}",
        f"- a placeholder is fine: `{d(note3, 'sk-ant-api03-...', 'elided placeholder')}`, `{d(note3, 'sk-proj-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX', 'x placeholder')}`",
        f"- so is `{d(note3, 'github_pat_<your-token>', 'template placeholder')}`",
        f"- the class is {d(note3, 'AbstractSingletonProxyFactoryBean', 'CamelCase identifier')}",
        f"- the file is {d(note3, 'src/components/auth/TokenRefreshProvider.tsx', 'source path')}",
        "",
    ]

    facts = "memory/fact.yml"
    lines = ws.file(facts)
    ec = g.private_key_lines("RSA PRIVATE KEY", 6)
    lines += [
        "schema_version: 1",
        "identity:",
        '  name: "Release Agent"',
        '  call_as: "Agent"',
        '  language: "en"',
        '  timezone: "Asia/Taipei"',
        '  last_updated: "2026-03-01"',
        "preferences:",
        "  communication:",
        '    - "Lead with the answer."',
        "rules:",
        '    - "Never hardcode credentials, tokens, or API keys."',
        "tools:",
        "  anthropic:",
        f'    api_key: "{p(facts, g.anthropic(), "anthropic-api-key", "yaml-quoted")}"',
        f"    fallback_key: {d(facts, '${ANTHROPIC_API_KEY}', 'environment reference')}",
        "  openai:",
        f"    api_key: {p(facts, g.openai_project(), 'openai-api-key', 'yaml-plain')}",
        f"    org: {d(facts, 'org-' + g.chars(24), 'organisation id')}",
        "  aws:",
        f"    access_key_id: {p(facts, g.aws_key_id(), 'aws-access-key', 'yaml-plain')}",
        f"    secret_access_key: '{p(facts, g.aws_secret(), 'secret', 'yaml-single-quoted')}'",
        f"    example_key_id: {d(facts, 'AKIAIOSFODNN7EXAMPLE', 'AWS documentation example')}",
        "  database:",
        f"    url: mysql://app:{p(facts, g.url_password(), 'url-password', 'yaml-url')}@mysql.internal:3306/app",
        f"    local_url: {d(facts, 'postgres://user:password@localhost:5432/dev', 'placeholder password in URL')}",
        f"    test_url: {d(facts, 'postgres://app:${DB_PASSWORD}@db:5432/app', 'environment reference in URL')}",
        f"    password: {d(facts, 'changeme', 'placeholder password')}",
        f"    replica_password: {p(facts, g.password(), 'password', 'yaml-plain')}  # rotated monthly",
        f"    password_file: {d(facts, '/run/secrets/db_password', 'path to a secret')}",
        "  github:",
        f"    tokens: [{p(facts, g.github(), 'github-token', 'yaml-flow')}, {d(facts, 'ghp_' + 'x' * 36, 'x placeholder')}]",
        f"    secret_scanning: {d(facts, 'enabled', 'setting about secrets')}",
        f"    webhook_secret: {p(facts, g.hex(40), 'secret', 'yaml-plain-hex')}",
        f"    last_commit: {d(facts, g.hex(40), 'git SHA')}",
        "  release:",
        "    deploy_key: |",
        *["      " + line for line in ec],
        "    jwt:",
        f"      - {p(facts, g.jwt(), 'jwt', 'yaml-list')}",
        f"      - {d(facts, 'eyJhbGciOiJIUzI1NiJ9...', 'elided JWT')}",
        f"  # old mailchimp key {p(facts, g.mailchimp(), 'mailchimp-key', 'yaml-comment')}",
        "archive: {}",
        "",
    ]
    ws.planted.append({"type": "private-key", "place": "yaml-block-scalar", "value": "\n".join(ec), "path": f"gish/{facts}",
                       "line": lines.index("      " + ec[0]) + 1, "column": 7})

    log = "memory/episodic.jsonl"
    lines = ws.file(log)
    records = []
    n = 1
    plain = [
        ("decision", "Switched deploys to the bot token", "Deploys now use the release bot. Its token: {}.", g.github("ghs"), "github-token", "json-string"),
        ("failure", "Publish failed with 403", "npm publish failed until the token {} was added to CI.", g.npm(), "npm-token", "json-string"),
        ("setup", "Connected the queue", "Queue URL is amqp://worker:{}@mq.internal:5672/jobs for now.", g.url_password(), "url-password", "json-url"),
        ("integration", "Claude API wired in", "Calls go through {} until the proxy is ready.", g.anthropic(), "anthropic-api-key", "json-string"),
        ("bugfix", "Cache redis auth", "Redis needs auth: redis://:{}@cache.internal:6379/0", g.url_password(), "url-password", "json-url-empty-user"),
        ("lesson", "Stripe keys are per environment", "The live key {} must never be used in staging.", g.stripe(), "stripe-key", "json-string"),
        ("insight", "GitLab mirror token", "The mirror pulls with {}; rotate it with the GitHub one.", g.gitlab(), "gitlab-token", "json-string"),
        ("pitfall", "Azure storage connection", "Connection string: DefaultEndpointsProtocol=https;AccountName=acmelogs;AccountKey={};EndpointSuffix=core.windows.net", g.azure(), "azure-storage-key", "json-string"),
        ("setup", "Square sandbox", "Square OAuth secret {} is the production one, not sandbox.", g.square(), "square-oauth-secret", "json-string"),
        ("integration", "PyPI publishing", "Twine uploads with {}.", g.pypi(), "pypi-token", "json-string"),
        ("discovery", "Found an old key", "Found AWS key {} in an old script.", g.aws_key_id(), "aws-access-key", "json-string"),
        ("decision", "Moved to fine-grained tokens", "The new token {} only has contents:write.", g.github_pat(), "github-fine-grained-token", "json-string"),
        ("security", "Leaked OpenAI key", "Leaked key was {}; it is revoked now.", g.openai_project(), "openai-api-key", "json-string"),
        ("setup", "Mongo Atlas", "Atlas URI mongodb+srv://svc-analytics:{}@cluster0.ab1cd.mongodb.net/prod", g.url_password(), "url-password", "json-url"),
        ("insight", "JWT for the staging API", "Staging accepts the static JWT {} until SSO lands.", g.jwt(), "jwt", "json-string"),
    ]
    for kind, title, template, secret, secret_type, place in plain:
        records.append((episode(g, n, kind, title, template.format(secret), [kind, "credentials"]), [(secret, secret_type, place)]))
        n += 1

    # Secrets inside JSON strings that hold escapes.
    escaped_pw = g.password()
    content = f"Config for the worker:\n```yaml\nworker:\n  password: {escaped_pw}\n```\nKeep it out of git."
    records.append((episode(g, n, "setup", "Worker config", content, ["setup", "worker"]), [(escaped_pw, "password", "json-escaped-newlines")]))
    n += 1
    quoted_key = g.high_entropy(44)
    content = f'Header was "Authorization: Bearer {quoted_key}" before the proxy.'
    records.append((episode(g, n, "lesson", "Bearer header", content, ["http", "auth"]), [(quoted_key, "high-entropy-string", "json-escaped-quotes")]))
    n += 1
    slack = g.slack_bot()
    content = f"Bot token:\n\t{slack}\n(rotated after the incident)"
    records.append((episode(g, n, "security", "Slack bot token", content, ["slack", "security"]), [(slack, "slack-token", "json-escaped-tab")]))
    n += 1

    for record, secrets in records:
        text = dump(record)
        lines.append(text)
        for secret, secret_type, place in secrets:
            raw = json.dumps(secret)[1:-1]
            p(log, secret, secret_type, place, raw=raw if raw != secret else None)
        d(log, record["fingerprint"], "episode fingerprint (64 hex)")

    # A record whose secret is written with a \u escape inside it.
    at_password = g.chars(5) + "@" + g.chars(5) + "7"
    raw_pw = at_password.replace("@", "\\u0040")
    literal = (
        '{"id": "ep_%08d", "ts": "2026-03-30T10:00:00+08:00", "type": "setup", "title": "SMTP relay", '
        '"content": "SMTP login:\\nuser: relay\\npassword: %s\\n", "tags": ["smtp", "setup"], "importance": 5, '
        '"fingerprint": "%s", "decay_status": "active", "retrieval": {"count": 0, "last_accessed": null, "strength": 0.5}}'
    ) % (n, raw_pw, g.hex(64))
    lines.append(literal)
    p(log, at_password, "password", "json-unicode-escape", raw=raw_pw)
    n += 1

    # A private key pasted into an episode.
    pem = g.private_key_lines("EC PRIVATE KEY", 3)
    record = episode(g, n, "security", "Signing key", "Signing key for releases:\n" + "\n".join(pem) + "\nMove it to the vault.", ["security", "release"])
    lines.append(dump(record))
    ws.planted.append({"type": "private-key", "place": "json-escaped-private-key", "value": "\n".join(pem), "path": f"gish/{log}",
                       "line": len(lines), "column": lines[-1].find("-----BEGIN") + 1})
    n += 1

    # Episodes full of things that only look like secrets.
    decoy_records = [
        ("refactor", "Renamed the module", "Commit {} renamed auth to identity.", g.hex(40), "git SHA in prose"),
        ("milestone", "Release tagged", "Tagged v5.2.0 at {}.", g.hex(12), "short git SHA"),
        ("architecture", "Trace ids", "Request {} crossed three services.", g.uuid(), "UUID"),
        ("maintenance", "Rotated keys", "Rotated every key; the new ones are in the vault under {}.", "op://infra/deploy/credential", "1Password reference"),
        ("lesson", "Placeholder in docs", "Docs now say export ANTHROPIC_API_KEY={} instead of a real key.", "YOUR_ANTHROPIC_API_KEY", "placeholder name"),
        ("insight", "Env var reference", "The token comes from {} at runtime.", "${GITHUB_TOKEN}", "template placeholder"),
        ("knowledge_digest", "Digest ids", "Consolidated episodes ep_00000003..ep_00000009 into digest {}.", g.ulid(), "ULID"),
        ("agent_write", "Connection string template", "Use {} in local dev.", "postgresql://postgres:postgres@localhost:5432/app", "default local password"),
        ("deployment", "Masked in logs", "The logs show the key as {} which is fine.", "sk-proj-****************", "masked value"),
        ("decision", "Hash of the config", "Config hash {} matches production.", g.hex(64), "config hash"),
    ]
    for kind, title, template, value, why in decoy_records:
        record = episode(g, n, kind, title, template.format(value), [kind, "notes"])
        lines.append(dump(record))
        d(log, value, why)
        d(log, record["fingerprint"], "episode fingerprint (64 hex)")
        n += 1

    assoc = "memory/associations.jsonl"
    lines = ws.file(assoc)
    evidence_token = g.github()
    lines += [
        dump({"ts": "2026-03-02T10:00:00+08:00", "src": {"kind": "episode", "id": "ep_00000001"}, "dst": {"kind": "file", "id": "deploy-token"},
              "type": "elaborates", "weight": 0.8, "evidence": f"same token {evidence_token} in both", "created_by": "consolidate"}),
        dump({"ts": "2026-03-03T10:00:00+08:00", "src": {"kind": "episode", "id": d(assoc, "ep_00000031", "episode id")}, "dst": {"kind": "file", "id": "bot-credentials"},
              "type": "references", "weight": 0.4, "evidence": f"fingerprint {d(assoc, g.hex(64), 'fingerprint in evidence')}", "created_by": "consolidate"}),
    ]
    p(assoc, evidence_token, "github-token", "json-string")

    archive = "memory/_archive/episodic_consolidated.jsonl"
    lines = ws.file(archive)
    archived_key = g.anthropic()
    record = episode(g, 90, "integration", "Old Claude key", f"Before the proxy we used {archived_key} directly.", ["archive", "api"])
    record["decay_status"] = "archived"
    lines.append(dump(record))
    p(archive, archived_key, "anthropic-api-key", "json-string")
    d(archive, record["fingerprint"], "episode fingerprint (64 hex)")

    config = ".gish/config.yml"
    lines = ws.file(config)
    sync_token = g.github()
    lines += [
        "index:",
        "  max_chars: 20000",
        "sync:",
        f"  remote: https://x-access-token:{sync_token}@github.com/acme/agent-memory.git",
        f"  mirror: {d(config, 'https://github.com/acme/agent-memory.git', 'URL without credentials')}",
        "",
    ]
    p(config, sync_token, "github-token", "yaml-url")

    runtime = "memory/runtime_profiles.yml"
    lines = ws.file(runtime)
    lines += [
        "executors:",
        "  claude:",
        "    env:",
        f"      ANTHROPIC_API_KEY: {p(runtime, g.anthropic(), 'anthropic-api-key', 'yaml-env')}",
        f"      OPENAI_API_KEY: {d(runtime, '${OPENAI_API_KEY}', 'environment reference')}",
        f"      HOME_DIR: {d(runtime, '$HOME/.claude', 'home variable')}",
        "",
    ]

    # Home paths: personal ones and placeholders.
    homes = "memory/knowledge/feedback/paths.md"
    lines = ws.file(homes)
    lines += [
        "---",
        "name: paths",
        "description: Where the tools keep their caches",
        "metadata:",
        "  type: feedback",
        "  updated: 2026-02-02",
        "---",
        "",
        f"- The cache lives in {ws.home(homes, '/Users/alice.chen/Library/Caches/gish', True, 'macOS home of a person')}.",
        f"- On the build box: {ws.home(homes, '/home/bwong/.cache/pip', True, 'Linux home of a person')}.",
        "- On Windows: " + ws.home(homes, "C:\\Users\\carol\\AppData\\Local\\gish", True, "Windows home of a person") + ".",
        f"- Portable: {ws.home(homes, '~/.cache/gish', False, 'tilde')}, {ws.home(homes, '$HOME/.config/gish', False, 'HOME variable')}.",
        f"- In docs write {ws.home(homes, '/home/user/.config', False, 'placeholder user')} or {ws.home(homes, '/Users/you/Projects', False, 'placeholder you')}.",
        f"- Template: {ws.home(homes, '/home/<name>/.ssh', False, 'template name')}.",
        f"- CI runs in {ws.home(homes, '/home/runner/work/acme', False, 'CI runner account')}.",
        f"- Shared files: {ws.home(homes, '/Users/Shared/acme', False, 'macOS shared folder')}.",
        f"- Homebrew: {ws.home(homes, '/home/linuxbrew/.linuxbrew/bin', False, 'Homebrew on Linux')}.",
        f"- A URL path: {ws.home(homes, 'https://docs.acme.dev/home/dana/guide', False, 'URL path, not a home folder')}.",
        "",
    ]
    records = ws.file(log)
    path_record = episode(g, n, "setup", "Cache path", "Moved the cache to /home/dkim/.cache/acme for speed.", ["setup", "cache"])
    records.append(dump(path_record))
    ws.home(log, "/home/dkim/.cache/acme", True, "Linux home of a person in an episode")
    d(log, path_record["fingerprint"], "episode fingerprint (64 hex)")
    return ws


# -- three-layer ------------------------------------------------------------------------


def three_layer(g: Generator) -> Workspace:
    ws = Workspace("three-layer")
    p, d = ws.plant, ws.decoy

    facts = "memory/fact.yml"
    lines = ws.file(facts)
    lines += [
        "user:",
        "  name: Dana",
        "  preferences:",
        "    language: Python",
        "services:",
        "  sentry:",
        f"    dsn: {d(facts, 'https://' + g.hex(32) + '@o12345.ingest.sentry.io/67890', 'Sentry DSN (public key, no secret)')}",
        "  search:",
        f"    api-key: {p(facts, g.high_entropy(40), 'high-entropy-string', 'yaml-dash-key')}",
        f"    index_id: {d(facts, g.chars(24), 'id under an id name')}",
        "  telemetry:",
        f"    enabled: {d(facts, 'false', 'boolean')}",
        "",
    ]

    infra = "memory/fact_infra.yml"
    lines = ws.file(infra)
    lines += [
        "hosts:",
        "  bastion:",
        "    user: ops",
        f"    key_fingerprint: {d(infra, 'SHA256:' + base64.b64encode(g.random.randbytes(32)).decode().rstrip('='), 'SSH host key fingerprint')}",
        f"    public_key: ssh-ed25519 {d(infra, 'AAAAC3NzaC1lZDI1NTE5AAAAI' + base64.b64encode(g.random.randbytes(32)).decode().rstrip('='), 'SSH public key')} ops@bastion",
        "  db:",
        f"    dsn: postgres://reporting:{p(infra, g.url_password(), 'url-password', 'yaml-url')}@db.internal:5432/reports",
        f"    admin_password: \"{p(infra, g.password(), 'password', 'yaml-double-quoted')}\"",
        "retired:",
        "  old_db:",
        f"    password: {p(infra, g.password(), 'password', 'yaml-archived')}",
        "    archived: true",
        "",
    ]

    log = "memory/episodic.jsonl"
    lines = ws.file(log)
    entries = [
        ({"ts": "2026-03-01T09:00:00+08:00", "type": "decision", "summary": "Use the shared CI token",
          "detail": "CI pushes with {}.", "tags": ["ci", "github"]}, g.github(), "github-token", "json-string"),
        ({"ts": "2026-03-02T09:00:00+08:00", "type": "failure", "summary": "OpenAI quota",
          "detail": "Key {} hit its quota.", "tags": ["openai", "quota"]}, g.openai_project(), "openai-api-key", "json-string"),
        ({"ts": "2026-03-03T09:00:00+08:00", "type": "milestone", "summary": "Anthropic batch run",
          "detail": "Batch used {}.", "tags": ["anthropic", "batch"], "lesson": "use the proxy"}, g.anthropic(), "anthropic-api-key", "json-string"),
    ]
    for record, secret, secret_type, place in entries:
        record["detail"] = record["detail"].format(secret)
        lines.append(dump(record))
        p(log, secret, secret_type, place)
    password = g.password()
    lines.append(dump({"ts": "2026-03-04T09:00:00+08:00", "type": "lesson", "summary": "Local admin",
                       "detail": "admin console", "password": password, "tags": ["admin", "local"]}))
    p(log, password, "password", "json-key")
    lines.append(dump({"ts": "2026-03-05T09:00:00+08:00", "type": "milestone", "summary": "Shipped",
                       "detail": f"Released build {d(log, g.hex(40), 'git SHA')} to production.", "tags": ["release", "prod"]}))
    lines.append(dump({"ts": "2026-03-06T09:00:00+08:00", "type": "decision", "summary": "Key naming",
                       "detail": f"We call the key {d(log, 'SEARCH_API_KEY', 'environment variable name')} everywhere.", "tags": ["naming", "keys"]}))

    archive = "memory/_archive/2025.jsonl"
    lines = ws.file(archive)
    old = g.npm()
    lines.append(dump({"ts": "2025-11-01T09:00:00+08:00", "type": "setup", "summary": "npm automation",
                       "detail": f"Automation token {old}", "tags": ["npm", "ci"], "archived": True}))
    p(archive, old, "npm-token", "json-string")

    pad = "memory/scratchpad.md"
    lines = ws.file(pad)
    temp = g.anthropic()
    lines += [
        "# Scratchpad",
        "",
        "## Current task: proxy",
        "",
        f"- temp key for testing: {p(pad, temp, 'anthropic-api-key', 'scratchpad')}",
        f"- db: `postgres://proxy:{p(pad, g.url_password(), 'url-password', 'inline-code')}@localhost:5432/proxy`",
        f"- do not use {d(pad, 'sk-ant-api03-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX', 'x placeholder')}",
        f"- password: {d(pad, 'ask Dana', 'prose after password:')}",
        f"- version {d(pad, 'v5.2.0-rc.1+build.20260101', 'version string')}",
        f"- 測試機密碼：{p(pad, g.password(), 'password', 'prose-chinese')}（下週換掉）",
        f"- 正式機密碼：{d(pad, '見保險箱', 'prose after a Chinese password label')}",
        "",
    ]

    routing = "CLAUDE.md"
    lines = ws.file(routing)
    lines += [
        "# Routing",
        "",
        "Facts: memory/fact.yml. Episodes: memory/episodic.jsonl. Scratchpad: memory/scratchpad.md.",
        f"<!-- CI token for the routing check: {p(routing, g.github(), 'github-token', 'html-comment')} -->",
        f"Never commit `{d(routing, '.env', 'file name')}` files; keys live in {d(routing, '$XDG_CONFIG_HOME/acme', 'environment reference')}.",
        "",
    ]

    note = "memory/notes/vendor-keys.md"
    lines = ws.file(note)
    lines += [
        "---",
        "title: vendor keys",
        f"token: {p(note, g.gitlab(), 'gitlab-token', 'front-matter')}",
        "---",
        "",
        f"The Twilio key is {p(note, g.twilio(), 'twilio-key', 'prose')}.",
        f"The Mailchimp key: {p(note, g.mailchimp(), 'mailchimp-key', 'prose')}",
        f"Data URL for the logo: data:image/png;base64,{d(note, base64.b64encode(g.random.randbytes(45)).decode(), 'base64 image data')}",
        "",
        "```json",
        f'{{"password": "{p(note, g.password(), "password", "code-block-json")}", "username": "svc-report"}}',
        "```",
        "",
        f"Public certificate (fine to share):",
        "",
        "```",
        "-----BEGIN CERTIFICATE-----",
        *[d(note, base64.b64encode(g.random.randbytes(48)).decode(), "certificate body") for _ in range(2)],
        "-----END CERTIFICATE-----",
        "```",
        "",
    ]
    return ws


# -- claude-code --------------------------------------------------------------------------


def claude_code(g: Generator) -> Workspace:
    ws = Workspace("claude-code")
    p, d = ws.plant, ws.decoy

    index = ws.file("MEMORY.md")
    index += [
        "- [Deploy](deploy.md) — how we deploy; token lives in the vault",
        f"- [Bot](bot.md) — bot key {p('MEMORY.md', g.anthropic(), 'anthropic-api-key', 'index-hook')}",
        f"- [Build](build.md) — build {d('MEMORY.md', g.hex(40), 'git SHA')}",
        "",
    ]
    deploy = ws.file("deploy.md")
    deploy += [
        "---",
        "name: deploy",
        f"description: Deploy with the token {p('deploy.md', g.github_pat(), 'github-fine-grained-token', 'front-matter')}",
        "type: reference",
        "---",
        "",
        f"Run `gh auth login --with-token` and paste {d('deploy.md', '<your token>', 'template placeholder')}.",
        f"Set `GH_TOKEN={p('deploy.md', g.github(), 'github-token', 'inline-code')}` in CI.",
        "",
    ]
    bot = ws.file("bot.md")
    bot += [
        "---",
        "name: bot",
        "description: The support bot's settings",
        "type: project",
        f"api_key: {d('bot.md', 'sk-...', 'elided placeholder')}",
        "---",
        "",
        "```env",
        f"DB_PASSWORD={p('bot.md', g.password(), 'password', 'code-block-env')}",
        f"SESSION_SECRET={p('bot.md', g.high_entropy(48), 'secret', 'code-block-env')}",
        f"SENTRY_DSN={d('bot.md', 'https://public@sentry.example.com/1', 'DSN with a public key only')}",
        "```",
        "",
        f"Stripe webhook signing secret is in {d('bot.md', 'settings.STRIPE_WEBHOOK_SECRET', 'code reference')}.",
        f"Demo account password: {p('bot.md', g.password(), 'password', 'prose-password')}",
        "",
    ]
    build = ws.file("build.md")
    build += [
        "---",
        "name: build",
        "description: Build cache and signing",
        "type: feedback",
        "---",
        "",
        f"Artifactory token {p('build.md', 'AKC' + g.chars(70), 'artifactory-token', 'prose')} pulls the base images.",
        f"The build id is {d('build.md', g.uuid(), 'UUID')}; the cache key is {d('build.md', 'cache-' + g.hex(16), 'cache key with hex')}.",
        "",
    ]
    # Ids of well-known services, placeholders and paths, as real memory holds them (issue 19).
    urlsafe = string.ascii_letters + string.digits + "-_"
    links = ws.file("links.md")
    links += [
        "---",
        "name: links",
        "description: Where the team's documents live",
        "type: reference",
        "---",
        "",
        f"- Spec: https://docs.google.com/document/d/{d('links.md', '1' + g.chars(43, urlsafe), 'Google Doc id in its URL')}/edit",
        f"- Budget: https://docs.google.com/spreadsheets/d/{d('links.md', '1' + g.chars(43, urlsafe), 'Google Sheet id in its URL')}/edit#gid=0",
        f"- Shared folder: https://drive.google.com/drive/folders/{d('links.md', '1' + g.chars(32, urlsafe), 'Drive folder id in its URL')}",
        f"- The roadmap sheet id is {d('links.md', '1' + g.chars(43, urlsafe), 'Google Sheet id in prose')}.",
        f"- Design: https://www.figma.com/design/{d('links.md', g.chars(22), 'Figma file key in its URL')}/App",
        f"- Notion: https://www.notion.so/acme/Roadmap-{d('links.md', g.hex(32), 'Notion page id')}",
        f"- Talks: https://www.youtube.com/watch?v={g.chars(11, urlsafe)}&list={d('links.md', 'PL' + g.chars(32, urlsafe), 'YouTube playlist id')}",
        f"- The check script is `{d('links.md', 'blog/2026/08/17/anythingllm-chat-with-your-docs/files/embedder-sanity-check.py', 'repository path with long slug')}`",
        f"- Alerts post to https://hooks.acme.dev/v1/alerts/{p('links.md', g.chars(40), 'high-entropy-string', 'webhook-url-path')}",
        "",
        "```env",
        f"SESSION_SECRET={d('links.md', 'dev-secret', 'dev placeholder')}",
        f"JWT_SECRET={d('links.md', 'test-jwt-secret-123', 'test placeholder')}",
        f"OPENAI_API_KEY={d('links.md', 'your_api_key_here', 'placeholder words')}",
        f"ANTHROPIC_API_KEY={d('links.md', '<your-key>', 'template placeholder')}",
        f"POSTGRES_PASSWORD={d('links.md', 'postgres', 'documented default password')}",
        f"DB_PASSWORD={p('links.md', g.password(), 'password', 'code-block-env')}",
        "```",
        "",
    ]
    # Contact details: other people's (personal-data reports them) and nobody's (it must not).
    c = ws.contact
    contacts = ws.file("contacts.md")
    contacts += [
        "---",
        "name: contacts",
        "description: Who to ask for access",
        "type: reference",
        "---",
        "",
        f"- Access requests go to Maria ({c('contacts.md', 'maria.garcia@gmail.com', True, 'a colleague in prose')}).",
        f"- Vendor contact: Jean <{c('contacts.md', 'jean.dupont@fournisseur.fr', True, 'a vendor in angle brackets')}>, "
        f"mobile {c('contacts.md', '06 12 34 56 78', True, 'French mobile after a phone word')}",
        f"- On call: {c('contacts.md', '+44 20 7946 0321', True, 'international number')}",
        f"- Support desk: {c('contacts.md', '(415) 867-5309', True, 'North American number')}",
        f"- Bugs: {c('contacts.md', 'security@anthropic.com', False, 'role mailbox')}, "
        f"{c('contacts.md', 'noreply@github.com', False, 'noreply mailbox')}",
        f"- Commits: {c('contacts.md', '41898282+github-actions[bot]@users.noreply.github.com', False, 'GitHub noreply domain')}",
        f"- Docs use {c('contacts.md', 'you@example.com', False, 'reserved example domain')} and "
        f"{c('contacts.md', 'your.name@company.com', False, 'placeholder address')}",
        f"- Clone {c('contacts.md', 'git@github.com:acme/app.git', False, 'git SSH remote')}; "
        f"install {c('contacts.md', 'react@18.2.0', False, 'package version')}; logo {c('contacts.md', 'logo@2x.png', False, 'file name')}",
        f"- Released {c('contacts.md', '2026-03-31', False, 'date')} as {c('contacts.md', 'v5.12.3', False, 'version')} "
        f"at {c('contacts.md', '10:42:07', False, 'time')} on {c('contacts.md', '192.168.100.200', False, 'IP address')}",
        f"- Issue {c('contacts.md', '#12345678', False, 'issue number')}, build {c('contacts.md', '20260331094512', False, 'build id')}, "
        f"fiction {c('contacts.md', '+1 415 555 0134', False, 'fictional 555-01xx number')}",
        "",
        "```",
        "Co-Authored-By: Claude <" + c("contacts.md", "noreply@anthropic.com", False, "git trailer with noreply") + ">",
        "```",
        "",
    ]
    return ws


# -- the files agents load whole, in every profile, and other logs in memory/ -------------


def instruction_files(g: Generator, gish: Workspace, three: Workspace, claude: Workspace) -> Workspace:
    """AGENTS.md beside gish memory, CLAUDE.md beside Claude Code memory, another JSONL log in a
    three-layer memory/, and a repository with only AGENTS.md and GEMINI.md (issue #19)."""
    agents = gish.file("AGENTS.md")
    agents += [
        "# Agents",
        "",
        "Read MEMORY.md first.",
        f"Deploy key for the staging box: {gish.plant('AGENTS.md', g.npm(), 'npm-token', 'prose')}",
        "",
    ]
    claude_md = claude.file("CLAUDE.md")
    claude_md += [
        "# Project rules",
        "",
        f"- Slack bot token: `{claude.plant('CLAUDE.md', g.slack_bot(), 'slack-token', 'inline-code')}`",
        f"- build id {claude.decoy('CLAUDE.md', g.uuid(), 'UUID')}",
        "",
    ]
    log = "memory/tools.jsonl"
    record = {"tool": "deploy", "createdAt": 1772649613501, "token": "@@"}
    value = g.github()
    three.file(log).append(dump(record).replace("@@", three.plant(log, value, "github-token", "json-string")))

    ws = Workspace("agent-instructions")
    lines = ws.file("AGENTS.md")
    lines += [
        "# Repository rules",
        "",
        f"Publish with `NPM_TOKEN={ws.plant('AGENTS.md', g.npm(), 'npm-token', 'inline-code')}`.",
        f"Commit {ws.decoy('AGENTS.md', g.hex(40), 'git SHA')} introduced the layout.",
        "",
    ]
    lines = ws.file("GEMINI.md")
    lines += [
        "# Gemini",
        "",
        f"The Anthropic fallback key is {ws.plant('GEMINI.md', g.anthropic(), 'anthropic-api-key', 'prose')}.",
        "",
    ]
    return ws


def openclaw(g: Generator) -> Workspace:
    """An OpenClaw workspace: a bootstrap file and a daily note."""
    ws = Workspace("openclaw")
    ws.file("SOUL.md").extend(["# Soul", "", "Be direct.", ""])
    lines = ws.file("USER.md")
    lines += ["# User", "", f"Sam's deploy token: {ws.plant('USER.md', g.github(), 'github-token', 'prose')}", ""]
    daily = "memory/2026-11-30.md"
    lines = ws.file(daily)
    lines += ["# 2026-11-30", "", f"- npm publish works with `{ws.plant(daily, g.npm(), 'npm-token', 'inline-code')}`", ""]
    return ws


def memory_bank(g: Generator) -> Workspace:
    """A Cline Memory Bank (plain-notes profile): a core file and the CLAUDE.md beside it."""
    ws = Workspace("memory-bank")
    lines = ws.file("projectbrief.md")
    lines += ["# Brief", "", f"The staging key is {ws.plant('projectbrief.md', g.anthropic(), 'anthropic-api-key', 'prose')}.", ""]
    lines = ws.file("CLAUDE.md")
    lines += ["# Rules", "", f"Slack bot: `{ws.plant('CLAUDE.md', g.slack_bot(), 'slack-token', 'inline-code')}`", ""]
    return ws


def build(out: Path) -> dict:
    g = Generator()
    workspaces = [ghost_in_shell(g), three_layer(g), claude_code(g)]
    workspaces.append(instruction_files(g, *workspaces))
    # Added after the others, so the values planted before them stay the same.
    workspaces += [openclaw(g), memory_bank(g)]
    manifest = {
        "about": "Planted (fake) secrets and decoys in memory-shaped files; written by generate.py. "
        "Lines and columns are 1-based; 'raw' is the text as it appears in the file when JSON escapes it.",
        "planted": [],
        "decoys": [],
        "home_paths": [],
        "contacts": [],
    }
    for ws in workspaces:
        for relpath, lines in ws.files.items():
            path = out / ws.name / relpath
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(("\n".join(lines).rstrip("\n") + "\n").encode("utf-8"))
        ws.locate()
        manifest["planted"] += ws.planted
        manifest["decoys"] += ws.decoys
        manifest["home_paths"] += ws.personal
        manifest["contacts"] += ws.contacts
    for key in ("planted", "decoys", "home_paths", "contacts"):
        manifest[key].sort(key=lambda e: (e["path"], e["line"], e["column"]))
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return manifest


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE
    written = build(target)
    print(f"{len(written['planted'])} planted secrets, {len(written['decoys'])} decoys, "
          f"{len(written['home_paths'])} home paths, {len(written['contacts'])} contacts -> {target}")

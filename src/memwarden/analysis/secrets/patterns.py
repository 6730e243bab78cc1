"""What a secret looks like beyond detect-secrets, and what only looks like one.

Pure Python, no detect-secrets import: the extra detectors (formats
detect-secrets 1.5 does not know), the names memwarden gives each type, and
the filters that keep memory files' own ids, hashes and placeholders from
being reported. Every regex here is linear: literal anchors, bounded
character classes, no nested quantifiers.
"""

from __future__ import annotations

import base64
import binascii
import re
from memwarden.patterns import LazyPattern
from dataclasses import dataclass

# -- allow markers -------------------------------------------------------------

ALLOW_MARKER = LazyPattern(r"memwarden:\s*allow-secret|pragma:\s*allowlist[ -]secret", re.IGNORECASE)
ALLOW_NEXT_LINE = LazyPattern(r"pragma:\s*allowlist[ -]nextline[ -]secret", re.IGNORECASE)


# -- secret types ----------------------------------------------------------------


@dataclass(frozen=True)
class SecretType:
    slug: str  # in [REDACTED:<slug>] and in the baseline
    label: str  # in messages
    priority: int  # when two detections overlap, the higher one names the secret
    # Known with high confidence (a token or key of a known format, a password in a URL or an
    # assignment): only these may be redacted by the unsafe fix. A random-looking string alone
    # may be anything (an id, a hash, a path) and is reported, never rewritten.
    confident: bool = True


PRIVATE_KEY = SecretType("private-key", "private key", 100)
KEYWORD_PASSWORD = SecretType("password", "password", 50)
KEYWORD_SECRET = SecretType("secret", "secret under a secret-like name", 50)
HIGH_ENTROPY = SecretType("high-entropy-string", "random-looking credential", 10, confident=False)
HIGH_ENTROPY_HEX = SecretType("high-entropy-hex", "random hex under a secret-like name", 10)

# detect-secrets' secret_type -> ours. Types not listed get a slug made from their name.
DETECT_SECRETS_TYPES = {
    "AWS Access Key": SecretType("aws-access-key", "AWS access key", 80),
    "Artifactory Credentials": SecretType("artifactory-token", "Artifactory credential", 80),
    "Azure Storage Account access key": SecretType("azure-storage-key", "Azure storage account key", 80),
    "Basic Auth Credentials": SecretType("url-password", "password in a URL", 70),
    "Cloudant Credentials": SecretType("cloudant-credential", "Cloudant credential", 80),
    "Discord Bot Token": SecretType("discord-token", "Discord bot token", 80),
    "GitHub Token": SecretType("github-token", "GitHub token", 80),
    "GitLab Token": SecretType("gitlab-token", "GitLab token", 80),
    "IBM Cloud IAM Key": SecretType("ibm-cloud-iam-key", "IBM Cloud IAM key", 80),
    "IBM COS HMAC Credentials": SecretType("ibm-cos-hmac", "IBM COS HMAC credential", 80),
    "JSON Web Token": SecretType("jwt", "JSON Web Token", 60),
    "Mailchimp Access Key": SecretType("mailchimp-key", "Mailchimp access key", 80),
    "NPM tokens": SecretType("npm-token", "npm token", 80),
    "OpenAI Token": SecretType("openai-api-key", "OpenAI API key", 80),
    "Private Key": PRIVATE_KEY,
    "PyPI Token": SecretType("pypi-token", "PyPI token", 80),
    "SendGrid API Key": SecretType("sendgrid-key", "SendGrid API key", 80),
    "Slack Token": SecretType("slack-token", "Slack token", 80),
    "SoftLayer Credentials": SecretType("softlayer-credential", "SoftLayer credential", 80),
    "Square OAuth Secret": SecretType("square-oauth-secret", "Square OAuth secret", 80),
    "Stripe Access Key": SecretType("stripe-key", "Stripe access key", 80),
    "Telegram Bot Token": SecretType("telegram-token", "Telegram bot token", 80),
    "Twilio API Key": SecretType("twilio-key", "Twilio API key", 80),
}


def type_for(secret_type: str) -> SecretType:
    known = DETECT_SECRETS_TYPES.get(secret_type)
    if known is not None:
        return known
    slug = re.sub(r"[^a-z0-9]+", "-", secret_type.lower()).strip("-") or "secret"
    return SecretType(slug, secret_type, 70)


# -- detectors detect-secrets lacks ----------------------------------------------


@dataclass(frozen=True)
class ExtraDetector:
    type: SecretType
    regex: re.Pattern
    group: str | int = 0  # the part of the match that is the secret
    needs_mixed: bool = False  # a word after the label is prose unless it mixes letters with digits or symbols


EXTRA_DETECTORS = (
    ExtraDetector(
        SecretType("anthropic-api-key", "Anthropic API key", 85),
        # sk-ant-api03-<93 url-safe base64>AA today; admin keys are sk-ant-admin01-...
        LazyPattern(r"(?<![A-Za-z0-9_-])sk-ant-[a-z]{2,8}\d{2}-[A-Za-z0-9_-]{32,300}"),
    ),
    ExtraDetector(
        SecretType("openai-api-key", "OpenAI API key", 85),
        # project, service-account and admin keys; the legacy sk-...T3BlbkFJ... is detect-secrets'
        LazyPattern(r"(?<![A-Za-z0-9_-])sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{32,300}"),
    ),
    ExtraDetector(
        SecretType("github-fine-grained-token", "GitHub fine-grained token", 85),
        LazyPattern(r"(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9]{20,30}_[A-Za-z0-9]{50,70}(?![A-Za-z0-9_])"),
    ),
    ExtraDetector(
        SecretType("npm-token", "npm token", 85),
        LazyPattern(r"(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])"),
    ),
    ExtraDetector(
        SecretType("url-password", "password in a connection URL", 75),
        # scheme://user:password@host; the user may be empty (redis://:pw@host). The user
        # part cannot hold ':' and the password cannot hold '@', so each start backtracks
        # over at most a few hundred characters. A password may hold '#' (written unencoded,
        # as people do): the '@host' after it says it is no fragment.
        LazyPattern(
            r"(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,30}://[^\s:/?#@\"'<>`\\]{0,128}"
            r":(?P<secret>[^\s/?@\"'<>`\\]{1,256})@(?=[A-Za-z0-9\[_])"
        ),
        group="secret",
    ),
    ExtraDetector(
        SecretType("huggingface-token", "Hugging Face token", 85),
        LazyPattern(r"(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{34}(?![A-Za-z0-9_])"),
    ),
    ExtraDetector(
        SecretType("google-api-key", "Google API key", 85),
        LazyPattern(r"(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])"),
    ),
    # Service tokens whose body is hex: the prefix alone says what they are (hex elsewhere counts only under a
    # secret's name, so without these a token in prose was missed).
    ExtraDetector(
        SecretType("digitalocean-token", "DigitalOcean token", 85),
        LazyPattern(r"(?<![A-Za-z0-9_])do[opr]_v1_[a-f0-9]{64}(?![A-Za-z0-9_])"),
    ),
    ExtraDetector(
        SecretType("shopify-token", "Shopify access token", 85),
        LazyPattern(r"(?<![A-Za-z0-9_])shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?![A-Za-z0-9_])"),
    ),
    ExtraDetector(
        SecretType("databricks-token", "Databricks token", 85),
        LazyPattern(r"(?<![A-Za-z0-9_])dapi[a-f0-9]{32}(?:-\d)?(?![A-Za-z0-9_])"),
    ),
    ExtraDetector(
        SecretType("mailgun-key", "Mailgun API key", 85),
        LazyPattern(r"(?<![A-Za-z0-9_-])key-[a-f0-9]{32}(?![A-Za-z0-9_-])"),
    ),
    ExtraDetector(
        KEYWORD_PASSWORD,
        # 密碼：..., 密码是 ..., パスワードは..., 비밀번호: ..., пароль: ... (detect-secrets' names are English and Spanish)
        LazyPattern(
            r"(?:密碼|密码|口令|パスワード|비밀번호|(?i:пароль))\s{0,4}(?:[:：=]|是|為|为|は)\s{0,4}[\"'`「]?"
            r"(?P<secret>[^\s，。、；;,\"'`「」()（）]{4,128})"
        ),
        group="secret",
        needs_mixed=True,
    ),
    ExtraDetector(
        KEYWORD_PASSWORD,
        # A password on a command line: curl -u user:pw, docker login -p pw, mysql --password=pw
        LazyPattern(
            r"(?:\s(?:-u|--user)\s{1,4}[^\s:'\"]{1,64}:|\s--pass(?:word)?(?:\s{1,4}|=)"
            r"|\b(?:login|mysql|mysqldump|mysqladmin)\b[^\n]{0,80}?\s-p\s{0,4})"
            r"[\"']?(?P<secret>[^\s'\"`]{4,128})"
        ),
        group="secret",
        needs_mixed=True,
    ),
)

# Names detect-secrets' keyword list lacks (it knows password, secret, api_key...): the value of
# `pass:`, `token:`, `passphrase=` in a YAML, JSON or env assignment.
CREDENTIAL_KEY = LazyPattern(
    r"(?:^|[\s{,\[])[\"']?(?P<key>[A-Za-z_][A-Za-z0-9_.-]{0,48})[\"']?\s{0,4}(?::|=)\s{0,4}[\"'`]?"
    r"(?P<secret>[^\s\"'`,;{}\[\]()<>]{8,200})"
)
PASSWORD_WORDS = frozenset({"pass", "passphrase", "senha"})
# `password: (Ab7...`, `password: '[Ab7...'`, `pwd = "a;b(c"`: a password's value may start with or hold any
# punctuation, which detect-secrets' keyword patterns (a value starts with a word character) and
# CREDENTIAL_KEY stop at. Quoted, the value runs to the closing quote; bare, to the next space.
PASSWORD_ASSIGNMENT = LazyPattern(
    r"(?:^|[\s{,\[])[\"']?(?P<key>[A-Za-z_][A-Za-z0-9_.-]{0,48})[\"']?\s{0,4}(?::|=)\s{0,4}"
    r"(?:\"(?P<double>[^\s\"]{4,200})\"|'(?P<single>[^\s']{4,200})'|(?P<bare>[^\s\"'`][^\s`]{3,199}))"
)
PASSWORD_KEY_WORDS = frozenset({"password", "passwd", "pwd", "pass", "passphrase", "passwort", "contraseña", "mdp",
                                "senha", "passe"})  # passe: French's mot de passe, read as mot_de_passe
TOKEN_WORDS = frozenset({"token", "apikey", "pat", "credential", "credentials"})


# A token or key of a known format (a vendor's prefix, a private key block) is a secret whoever reads it; a
# password after a label, a value under a secret-like name or a random-looking string is a guess. The known
# formats are secret-in-memory's part that is measured, and may be stable, on its own (KNOWN_FORMAT_PART).
# A known format in an installed skill's file is left out of the part: there the key is most often its publisher's
# example, fixture or pattern (dev half: 5 false, 0 true), and the message says where it is (IN_INSTALLED_SKILL).
KNOWN_FORMAT = 80
KNOWN_FORMAT_PART = "known-format"
IN_INSTALLED_SKILL = "in the installed skill"


def known_format(secret_type: SecretType) -> bool:
    return secret_type.priority >= KNOWN_FORMAT


def known_format_labels() -> frozenset[str]:
    """The labels messages name known-format secrets by (the benchmark counts the part's findings by them)."""
    types = [*DETECT_SECRETS_TYPES.values(), *(detector.type for detector in EXTRA_DETECTORS)]
    return frozenset(t.label for t in types if known_format(t))

# -- private key blocks ------------------------------------------------------------

PRIVATE_KEY_END = LazyPattern(r"-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----")
PRIVATE_KEY_BODY_LIMIT = 20_000  # characters searched for the END line
# The shortest private key's body is longer: an OpenSSH Ed25519 key is about 400 base64 characters, a PKCS#8 P-256
# key about 180. A block that closes on less holds a template (`{secret}`), an ellipsis or nothing.
PRIVATE_KEY_BODY_MIN = 64


def holds_no_key(body: str) -> bool:
    """Whether the text between a private key's BEGIN and END lines is too short to be a key."""
    return len("".join(body.split())) < PRIVATE_KEY_BODY_MIN
PUBLIC_BLOCK_BEGIN = LazyPattern(r"-----BEGIN (?:[A-Z0-9]{1,20} ){0,3}(?:PUBLIC KEY(?: BLOCK)?|CERTIFICATE(?: REQUEST)?)-----")
PUBLIC_KEY_PREFIX = LazyPattern(r"(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp\d{3}|sk-ssh-ed25519@openssh\.com)\s{1,4}\Z")
BASE64_LINE = LazyPattern(r"[ \t>#*/-]{0,12}[A-Za-z0-9+/=]{16,}[ \t]*\Z")


# -- what is not a secret ------------------------------------------------------------

# `<token>`, `${TOKEN}`, `{{ token }}`, `[[token]]`, and the capitals in brackets docs put in a URL
# (`postgres://postgres:[YOUR-PASSWORD]@db...`, as Supabase's own docs write it).
_TEMPLATE = LazyPattern(
    r"\A(?:<[^<>]*>|\{[^{}]*\}|\$\{[^{}]*\}|\$\([^()]*\)|\{\{.*\}\}|%\([^()]*\)s|%[A-Za-z_][A-Za-z0-9_]*%|\[\[.*\]\]"
    r"|\[[A-Z][A-Z_ -]*[A-Z]\])\Z",
    re.DOTALL,
)
# A Wi-Fi network's security mode, which a note writes where its password would go (`Senha: WPA2-PSK`).
_WIFI_MODE = LazyPattern(r"\A(?:WPA[23]?|WEP)(?:[-_/ ]?(?:PSK|SAE|Personal|Enterprise|EAP|AES|TKIP|WPA[23]?))*\Z",
                         re.IGNORECASE)
_PLACEHOLDER_RUN = LazyPattern(r"[xX]{4,}|\*{3,}|#{4,}|_{5,}|\.{3,}|…|•{3,}")
_PLACEHOLDER_WORDS = LazyPattern(
    r"your[-_ ]?(?:own[-_ ]?)?(?:api[-_ ]?)?(?:key|token|secret|pass|pat|password|here)"
    r"|(?:insert|enter|replace|put|paste|add)[-_ ]?(?:your|the|a)?[-_ ]?(?:key|token|secret|password|here)"
    r"|example|sample|placeholder|dummy|changeme|change[-_]me|replace[-_]?me|not[-_]?a[-_]?real|redacted|xxx",
    re.IGNORECASE,
)
# A value made only of words that describe a secret (and maybe a short number) is a stand-in for one.
_WORDY = LazyPattern(
    r"\A(?:(?:dev|devel|development|test|testing|tests|local|fake|dummy|mock|demo|sample|example|my|your|our|super"
    r"|some|placeholder|insecure|unsafe|default|foo|bar|baz|temp|tmp|ci|e2e|unit|stub|not|real|the|a|very|random"
    r"|secret|secrets|password|passwd|pass|pwd|key|keys|token|jwt|api|apikey|auth|session|signing|cookie|access"
    r"|client|value|string|app|hmac|encryption|salt|admin|user|db|database|here|this|is|s3cr3t|p4ssw0rd)[-_.]?){2,8}"
    r"\d{0,4}\Z",
    re.IGNORECASE,
)
_WORDY_NOUN = LazyPattern(r"secret|pass|pwd|key|token|jwt|s3cr3t|p4ssw0rd", re.IGNORECASE)
# Defaults every reader knows (a container image's documented password, the classic weak ones): no secret.
KNOWN_DEFAULTS = frozenset(
    """
    postgres mysql root toor admin guest minioadmin changeit letmein hunter2 qwerty 123456 12345678 123456789
    password1 password123 admin123 pass123 test123 secret123 rabbitmq neo4j
    """.split()
)
_SNAKE_NAME = LazyPattern(r"\A[a-z][a-z]*(?:_[a-z]+)+\Z")  # a variable's name: tmp_path, db_password
# OPENAI_API_KEY, YOUR_TOKEN, AWS_S3_BUCKET, K8S_TOKEN_2: words, a word with a number, a number. A random value
# in that alphabet (TI5F11_5WCOV35, a generated URL password) mixes letters and digits inside its parts.
_ENV_PART = r"(?:[A-Z]+[0-9]*|[0-9]+|[A-Z][0-9][A-Z])"
_ENV_NAME = LazyPattern(rf"\A(?=[A-Z]){_ENV_PART}(?:_{_ENV_PART})+\Z")
# A secret's name in capitals, no digit, after a vendor's prefix or a "your" of another language; its last word
# names the secret or the spot (`KEYSTONE` or a random run of capitals does not).
_NAMED_IN_CAPITALS = LazyPattern(
    r"\A(?:[a-z]{2,8}[-_]|你的|您的|あなたの)(?:[A-Z]{2,16}_){0,5}(?:TOKEN|KEY|SECRET|PASSWORD|PASS|PAT|HERE)\Z"
)
_SAME_CHAR = LazyPattern(r"\A(.)\1{3,}\Z", re.DOTALL)
_REFERENCE = LazyPattern(
    r"\A(?:\$|%|env[.:]|process\.env|os\.environ|secrets\.|vault:|op://|keychain:|ENV\[|getenv"
    # a password manager that holds it: `パスワード: 1Passwordに保存`, `senha: Bitwarden`
    # (the name alone: `Bitwarden2024!` is a password)
    r"|(?:1password|bitwarden|keepass(?:xc)?|lastpass|dashlane|keychain)(?![A-Za-z0-9]))", re.IGNORECASE
)
# settings.API_KEY, os.environ, config.apiKey: each part an identifier in a conventional case
# (a password like 'NbowKG.PEMdU21' has parts in none).
_IDENT = r"(?:[a-z_][a-z0-9_]*(?:[A-Z][a-z0-9]+)*|[A-Z][A-Z0-9_]*|(?:[A-Z][a-z0-9]+)+)"
# `e2e/p15e-knowledge-vr.spec.ts`, `./config/prod.env`: a file named after the label (`**Live VR PASS:** `<spec>``),
# not its value. Folders of word characters and a final name with a letter extension; base64 and AWS keys have
# '+' or '=' or no extension, a JWT no '/'.
_FILE_PATH = LazyPattern(r"\A(?:~|\.{1,2})?/?(?:[\w@-][\w.@-]*/)+[\w@-][\w.@-]*\.[A-Za-z][A-Za-z0-9]{0,5}\Z")
_ATTRIBUTE = LazyPattern(rf"\A{_IDENT}(?:\.{_IDENT})+\Z")
# get_secret("db"), os.environ["PW"], ENV[DB_PASS], env(DB_PASS), vault.read(), Secret(name=db): a call or a
# subscript of a name in a conventional case, whose arguments are names, numbers or quoted strings. A password
# such as 'Ab7(N9ojVu8pq)' has a name or an argument in no conventional case (digits inside a word, mixed case).
_NAME_PART = r"(?:[a-z]+(?:[A-Z][a-z]+)*|(?:[A-Z][a-z]+)+|[A-Z]+)\d*"  # one way to match: linear
_NAME = rf"_*{_NAME_PART}(?:[._]+{_NAME_PART})*_*"
_ARG = rf"\s*(?:\"[^\"]*\"|'[^']*'|\d+|{_NAME}(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|\d+|{_NAME}))?)\s*"
_ARGS = rf"(?:{_ARG}(?:,{_ARG})*)?"
_CALL = LazyPattern(rf"\A{_NAME}(?:\({_ARGS}\)|\[{_ARGS}\])+(?:\.{_NAME}(?:\({_ARGS}\)|\[{_ARGS}\])*)*\Z")

# Words people write where a secret would go, and that are none.
STOPWORDS = frozenset(
    """
    required optional none null nil true false yes no on off enabled disabled enable disable empty unset
    missing unknown hidden masked secret secrets password passwords passwd pass pwd key keys token tokens
    changeme example sample placeholder dummy todo tbd tba string str value here env environment vault
    keychain keyring prompt prompted rotated revoked expired default same see n/a na redacted set provided
    stored encrypted hashed file ask given needed removed deleted omitted elided private public secure
    none_set not_set notset undefined invalid valid ok
    """.split()
)

# A key whose last word says the value is about a secret, not the secret itself.
NON_SECRET_KEY_SUFFIXES = frozenset(
    """
    policy policies scanning scan scanner manager rotation rotated length len min max minimum maximum required
    enabled disabled enable disable reset hint prompt field fields type types name names file files path paths
    dir env var vars ref refs id ids hash hashed strength rule rules format store storage provider location
    expiry expires expiration age history count mode source backend helper command cmd url uri link docs
    doc note notes exists present set changed updated created label description manager managers
    """.split()
)

_SECRET_NAME = LazyPattern(
    r"pass|pwd|secret|token|api[-_]?key|apikey|auth|credential|private|bearer|session[-_]?key|cookie|"
    r"signing|access[-_]?key|client[-_]?key|(?:^|[-_.])key$|key$",
    re.IGNORECASE,
)
_ID_WORDS = frozenset(
    """
    id ids uuid guid fingerprint fingerprints sha sha1 sha256 sha512 hash hashes digest checksum commit commits
    rev revision etag oid ref slug integrity nonce version build run trace span request correlation
    org organization organisation tenant account project workspace team user username owner region zone
    model name email doc docs document sheet spreadsheet folder drive slides presentation playlist video channel
    page board database form file
    """.split()
)

_KEY_BEFORE = LazyPattern(
    r"(?P<key>[A-Za-z_][A-Za-z0-9_.-]{0,63})[\"'`]?\]?\s{0,8}(?::=|=>|==|::|[:=])\s{0,8}"
    r"(?:(?i:bearer|basic|token)\s{1,4})?[\"'`]?\Z"
)
_LINE_LEAD = LazyPattern(r"\s{0,40}(?:-\s{1,8})?(?:export\s{1,8})?\{?\s{0,4}")  # what may stand before a line's key
_ULID = LazyPattern(r"\A[0-9A-HJKMNP-TV-Z]{26}\Z")
_UUID = LazyPattern(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_HEX = LazyPattern(r"\A[0-9a-fA-F]+\Z")
_WORD_SPLIT = LazyPattern(r"[-_.\s]+|(?<=[a-z0-9])(?=[A-Z])")


# Stripe's and Supabase's publishable keys are meant for the browser: public by design (Stripe's secret and
# restricted keys, sk_ and rk_, are detect-secrets' Stripe detector's; Supabase's sb_secret_ stays a secret).
_PUBLISHABLE_KEY = LazyPattern(r"pk_(?:live|test)_[0-9A-Za-z]{16,255}|sb_publishable_[0-9A-Za-z_-]{16,255}")
_BASE64_RUN = LazyPattern(r"[A-Za-z0-9+/]{16,}={0,2}|[A-Za-z0-9_-]{16,}={0,2}")
_TEXT_WORD = LazyPattern(r"[^\W\d_]{2,}")


def is_publishable_key(word: str) -> bool:
    return bool(_PUBLISHABLE_KEY.fullmatch(word))


# A wallet's public address: a 32-byte public key in base58 (Solana's form), on a line, or under a lead-in, that
# calls it a wallet or an address and says nothing of a private key, a secret or a seed.
_BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_BASE58 = LazyPattern(r"\A[1-9A-HJ-NP-Za-km-z]{32,44}\Z")
_ADDRESS_WORDS = LazyPattern(r"\b(?:wallets?|address(?:es)?|pubkey|public key|deposit)\b|地址|钱包|錢包|ウォレット", re.IGNORECASE)
_PRIVATE_WORDS = LazyPattern(r"private|secret|seed|mnemonic|phrase|keypair|\bpriv\b|私钥|私鑰|助记词|秘密鍵", re.IGNORECASE)


def is_public_address(value: str, context: str) -> bool:
    """A wallet's public address, ``context`` being its line and the lines just before it. A 64-byte secret key
    is no address, whatever the line calls it; a 32-byte seed looks like one, so a word for a private key, a secret
    or a seed anywhere in the context keeps the value a secret."""
    if not _BASE58.match(value):
        return False
    number = 0
    for char in value:
        number = number * 58 + _BASE58_ALPHABET.index(char)
    size = len(value) - len(value.lstrip("1")) + (number.bit_length() + 7) // 8
    return size == 32 and bool(_ADDRESS_WORDS.search(context)) and not _PRIVATE_WORDS.search(context)


def base64_decoded_text(value: str) -> str | None:
    """The UTF-8 text base64 (the standard or the URL-safe alphabet, padded or not) decodes to; None for no base64
    or no UTF-8."""
    body = value.rstrip("=")
    padded = body + "=" * (-len(body) % 4)
    try:
        if "-" in body or "_" in body:
            return base64.urlsafe_b64decode(padded).decode("utf-8")
        return base64.b64decode(padded, validate=True).decode("utf-8")
    except (ValueError, binascii.Error, UnicodeDecodeError):
        return None


def base64_text(value: str) -> str | None:
    """What base64 that decodes to plain text (words and spaces, printable) reads as: an encoded sentence, not a
    key; None for anything else. The sentence may still hold a secret: the scanner scans it before it exempts it.

    A credential pair such as `user:pass` is no sentence (it has no spaces between words), so it stays a secret.
    """
    value = value.strip()
    if len(value) > 20_000 or not _BASE64_RUN.fullmatch(value):
        return None
    text = base64_decoded_text(value)
    if text is None or not text.strip() or any(not c.isprintable() and c not in "\n\r\t" for c in text):
        return None
    words = _TEXT_WORD.findall(text)
    spaces = sum(1 for c in text if c.isspace())
    letters = sum(len(word) for word in words)
    return text if len(words) >= 3 and spaces >= 2 and letters + spaces >= 0.75 * len(text) else None


def is_placeholder(value: str) -> bool:
    """A value that stands for a secret without being one: `YOUR_API_KEY`, `sk-...`, `${TOKEN}`, `<token>`."""
    text = value.strip().strip("\"'`")
    if len(text) < 4:
        return True
    if text.lower() in STOPWORDS:
        return True
    if _TEMPLATE.match(text) or _REFERENCE.match(text) or _SAME_CHAR.match(text):
        return True
    if _PLACEHOLDER_RUN.search(text) or _PLACEHOLDER_WORDS.search(text):
        return True
    if _ENV_NAME.match(text) or "REDACTED" in text.upper():
        return True
    if text.lower() in KNOWN_DEFAULTS or _WIFI_MODE.match(text):
        return True
    if len(text) <= 64 and _WORDY.match(text) and _WORDY_NOUN.search(text):
        return True  # dev-secret, test-jwt-secret-123, my-super-secret: words about a secret, not one
    if _NAMED_IN_CAPITALS.match(text):
        return True  # ghp_TOKEN, xoxb-SLACK_BOT_TOKEN, 你的NVIDIA_API_KEY: the secret's name, where it goes
    return is_stand_in(text)


# Words that say a value stands in for a real one (a test's, a mock's, a template's), and "your" in the languages
# memory is written in: `din-nøkkel-her`, `gk_live_你的key`, `votre-cle-api` say where the reader's own key goes.
_STAND_IN_WORDS = frozenset(
    """
    test tests testing mock mocked fake dummy stub fixture example sample placeholder your
    dein deine deinen votre vos tu tus seu sua tuo tua vostro vostra jouw uw din ditt dine twój twoj wasz
    ваш ваша твой твоя
    """.split()
)
_STAND_IN_PREFIXES = ("你的", "您的", "あなたの", "당신의")  # written without a space before the noun
# Words of letters (any script, no digit), at most six, each up to 16 letters, joined by -, _ or .; a run of
# Chinese, Japanese or Korean letters beside Latin ones is a word of its own (`你的key`).
_LETTER_PARTS = LazyPattern(r"\A[^\W\d_]{1,16}(?:[-_.][^\W\d_]{1,16}){0,5}\Z")
_SCRIPT_RUN = LazyPattern(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]+|[^\W\d_\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]+")


def is_stand_in(value: str) -> bool:
    """Words only, one of which says the value stands in for a key: `mock`, `sk-test`, `gsk-fake`,
    `test-vault-password`, `sk-your-vendor-key`, `din-nøkkel-her`. A value with a digit or a random run
    (`sk-test-Qm7Rt2...`) is none."""
    text = value.lower()
    if value not in (text, value.upper()) or not _LETTER_PARTS.match(text):
        return False  # in mixed case, letters alone may be random
    return any(
        run in _STAND_IN_WORDS or run.startswith(_STAND_IN_PREFIXES) for run in _SCRIPT_RUN.findall(text)
    )


def is_reference(value: str) -> bool:
    """A value that names where the secret lives: `settings.API_KEY`, `get_token()`, `os.environ[...]`,
    a variable such as `tmp_path` or `db_password`, a file's path."""
    return bool(_REFERENCE.match(value) or _ATTRIBUTE.match(value) or _SNAKE_NAME.match(value) or _CALL.match(value)
                or _FILE_PATH.match(value))


def key_before(line: str, start: int) -> str | None:
    """The name a value at ``start`` is assigned to, if the text right before it reads `name: ` or `name=`."""
    tail = line[max(0, start - 160) : start]
    match = _KEY_BEFORE.search(tail)
    return match.group("key") if match else None


def key_words(key: str) -> list[str]:
    return [word.lower() for word in _WORD_SPLIT.split(key) if word]


def is_secret_name(key: str | None) -> bool:
    return bool(key) and bool(_SECRET_NAME.search(key)) and not is_about_secret(key)


def is_about_secret(key: str | None) -> bool:
    """`password_policy`, `secret_scanning`, `api_key_env`: a setting about a secret, not one."""
    words = key_words(key or "")
    return bool(words) and words[-1] in NON_SECRET_KEY_SUFFIXES and bool(_SECRET_NAME.search(key or ""))


def is_id_name(key: str | None) -> bool:
    words = key_words(key or "")
    return bool(words) and words[-1] in _ID_WORDS


def is_line_key(line: str, start: int) -> bool:
    """The value at ``start`` belongs to the line's own key: `key: value`, `- key: value`,
    `export KEY=value`, `  "key": "value"` (and not to a name deeper in the line's text)."""
    tail_start = max(0, start - 160)
    match = _KEY_BEFORE.search(line[tail_start:start])
    if match is None:
        return False
    return bool(_LINE_LEAD.fullmatch(line[: tail_start + match.start()]))


def is_uuid_like(value: str) -> bool:
    return bool(_UUID.search(value))


def is_hex(value: str) -> bool:
    return bool(_HEX.match(value))


def is_ulid(value: str) -> bool:
    return bool(_ULID.match(value))


def has_letters_and_digits(value: str) -> bool:
    return any(c.isalpha() for c in value) and any(c.isdigit() for c in value)


_WORD_VALUE = LazyPattern(r"\A[a-z]{2,24}(?:[-_][a-z]{2,24}){0,7}\Z")


def is_word_value(value: str) -> bool:
    """Lowercase words joined by hyphens: `audit-only`, `read-only`, a setting's value, not a credential."""
    return bool(_WORD_VALUE.match(value))


_AFTER_A_WORD = LazyPattern(r"[a-z]\W{0,3}\s+\W{0,3}\Z")


def is_verdict_label(before: str, key: str) -> bool:
    """`All checks PASS: lint ✓`: PASS in capitals after a word is a test's verdict, not a password's label."""
    return key == "PASS" and bool(_AFTER_A_WORD.search(before))


def has_mixed_classes(value: str) -> bool:
    """Letters and digits (or letters and symbols): what a password has and a word has not."""
    letters = any(c.isalpha() for c in value)
    digits = any(c.isdigit() for c in value)
    symbols = any(not c.isalnum() for c in value)
    return letters and (digits or symbols)


# -- ids of well-known services ------------------------------------------------------

# Hosts whose URLs carry the ids of documents, folders, videos and boards (Google Docs and Drive,
# Notion, Figma, YouTube...): an id in such a URL's path or query addresses a page, it opens nothing.
# Webhook and API hosts are absent on purpose: their URLs can carry a credential.
SERVICE_HOSTS = (
    "google.com", "youtube.com", "youtu.be", "youtube-nocookie.com", "forms.gle", "notion.so", "notion.site",
    "figma.com", "miro.com", "airtable.com", "trello.com", "loom.com", "vimeo.com", "spotify.com", "canva.com",
    "lucid.app", "lucidchart.com", "onedrive.live.com", "1drv.ms", "sharepoint.com", "dropbox.com", "box.com",
    "github.com", "gitlab.com", "bitbucket.org", "atlassian.net", "linear.app", "codepen.io", "codesandbox.io",
    "stackblitz.com", "huggingface.co", "arxiv.org", "medium.com", "substack.com", "x.com", "twitter.com",
    "reddit.com", "stackoverflow.com", "coda.io", "clickup.com", "asana.com", "monday.com", "quip.com",
    "wikipedia.org", "archive.org", "zenodo.org", "doi.org", "npmjs.com", "pypi.org", "kaggle.com",
    "tiktok.com", "tiktokcdn.com", "tiktokcdn-us.com", "tiktokcdn-eu.com", "tiktokv.com", "googleusercontent.com",
)
_URL_BEFORE = LazyPattern(r"(?i)\bhttps?://(?P<host>[A-Za-z0-9.-]{1,253})(?::\d{1,5})?[/?#][^\s\"'<>`()\[\]]{0,2000}\Z")
# A Google Drive id (a doc, sheet, slide deck, folder or file): '1' and 25 to 60 url-safe characters.
_DRIVE_ID = LazyPattern(r"\A1[A-Za-z0-9_-]{25,60}\Z")
_DRIVE_WORDS = LazyPattern(
    r"google|drive|\bdocs?\b|sheets?\b|spreadsheet|slides|folder|gdoc|gsheet|presentation|\bforms?\b|file[ _-]?id",
    re.IGNORECASE,
)


def in_service_url(line: str, start: int, end: int) -> bool:
    """``line[start:end]`` sits in the path or query of a URL of a document or media service."""
    match = _URL_BEFORE.search(line[max(0, start - 2100) : end])
    if match is None:
        return False
    host = match.group("host").lower().rstrip(".")
    return any(host == known or host.endswith("." + known) for known in SERVICE_HOSTS)


# The end of a URL's path that names a page or a media file: '/news/ARTI<id>.shtml', '/<object>~tplv-cover.jpeg'.
_FILE_URL_END = LazyPattern(
    r"(?i)\.(?:s?html?|jpe?g|png|gif|webp|avif|svg|bmp|ico|heic|mp4|webm|mov|m4v|mp3|m4a|ogg|wav|pdf)\Z"
)
_URL_PATH_REST = LazyPattern(r"[^\s\"'<>`()\[\]?#]{0,2000}")


def in_file_url(line: str, start: int, end: int) -> bool:
    """``line[start:end]`` sits in the path or query of a URL whose path names a page or a media file: the
    file's name, an article's or a listing's id, a CDN's parameters for a public file, not a key."""
    window_start = max(0, start - 2100)
    match = _URL_BEFORE.search(line[window_start:end])
    if match is None:
        return False
    url_start = window_start + match.start()
    path_end = _URL_PATH_REST.match(line, url_start + len("http://")).end()
    return bool(_FILE_URL_END.search(line[url_start:path_end]))


def is_drive_id(value: str, line: str) -> bool:
    """A Google Drive id written on its own, on a line that says it is one (a doc, sheet or folder)."""
    return bool(_DRIVE_ID.match(value)) and bool(_DRIVE_WORDS.search(line))

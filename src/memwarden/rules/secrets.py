"""Secrets and private data: no credential in memory, no user's home path, no one's contact details.

Both rules read every line of every kind of memory file, also files that do
not parse (a secret in a broken file leaks all the same); fixes are offered only
on files that parse. The secret itself never appears in a message: findings
name its type and the first 8 hex digits of its sha256.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from memwarden.analysis.secrets.patterns import IN_INSTALLED_SKILL, KNOWN_FORMAT_PART, known_format
from memwarden.analysis.installed_skills import installed_skill_folder
from memwarden.discover.links import read_at_its_own_path
from memwarden.documents import JsonlDocument
from memwarden.fixes import redact
from memwarden.model import Applicability, Fix, Option, Problem, Severity
from memwarden.registry import rule
from memwarden.text import masked_email, masked_phone


@rule(
    code="MW701",
    name="secret-in-memory",
    severity=Severity.ERROR,
    fix=Applicability.UNSAFE,
    reads_unparsed=True,  # a secret in a file that does not parse is still a secret
    any_text=True,  # and so is one in a file no kind claims
    options={
        "baseline": Option(
            ".memwarden-baseline.json",
            str,
            "the file of accepted findings, relative to the workspace root (written by `memwarden baseline`)",
        ),
        "high_entropy": Option(True, bool, "also report random-looking strings that no known format matches"),
    },
    records=True,
    part=KNOWN_FORMAT_PART,
)
def secret_in_memory(doc, ctx):
    """An API key, token, private key or password written into a memory file.

    ## What it does
    Reads every line of every memory file (front matter, YAML values, JSON
    strings, prose, HTML comments, code blocks, index lines), and of every
    other text file of the workspace or named on the command line (a file no
    kind of the profile claims is still committed and synced), with
    detect-secrets' detectors (AWS, GitHub, GitLab, Slack, Stripe, JWT,
    private keys, passwords assigned to secret-like names, high-entropy
    strings...) plus the formats it lacks: Anthropic `sk-ant-...`, OpenAI
    `sk-proj-...`, GitHub fine-grained `github_pat_...`, npm `npm_...`,
    DigitalOcean `dop_v1_...`, Shopify `shpat_...`, Databricks `dapi...`,
    Mailgun `key-...`, passwords in connection URLs (`postgres://app:...@db`)
    and on command lines (`mysql -p...`), and values after a label (``**Token:**
    `...` ``, `**パスワード**: ...`, `senha:`, `mot de passe :`, `пароль:`,
    in nine languages). JSON string values with escapes
    (`\\n`, `\\u0041`) are decoded and read too, and so is every form a
    message may quote: a YAML double-quoted value folded across its escaped
    line breaks, and Markdown as it renders (a token split by `**`, an empty
    tag, a comment or a backslash escape is read whole). Base64 that decodes
    to a sentence is plain text, unless the sentence holds a secret. A run
    of the base64 alphabet longer than 512 characters (an embedded image, a
    session export) is no token: it is decoded, and a secret in its text (any
    but a random-looking string) is reported where its own base64 lies
    ("base64-encoded here in a long string"), with no fix.

    A file or folder name that holds a token or key of a known format (a note
    saved as `ghp_....md`, a shelf named after a key) is reported on the
    file's first line. Wherever memwarden shows that path (every report
    format, `--diff`, the hook, `stats`, `budget`, errors, other rules'
    messages), the secret's characters are shown as
    `[SECRET:<type> sha256:<hash>]`, the folders and the extension kept.

    It leaves alone what memory files are full of: episode `fingerprint`s and
    other hex digests, git SHAs, UUIDs, ids, and placeholders such as
    `YOUR_API_KEY`, `sk-...`, `${TOKEN}`, `<token>`, `xxxx`, `changeme`,
    stand-ins that say so (`mock`, `sk-test`, `test-vault-password`, a
    "your key" in another language: `din-nøkkel-her`, `你的key`), a
    secret's name where its value goes (`ghp_TOKEN`, `你的NVIDIA_API_KEY`),
    `user:pass@` in a connection string and a private key block whose body is
    too short to be a key (a `{secret}` a script fills in, an ellipsis,
    nothing); nor the random-looking parts of
    the address of a page or a media file (`.../ARTI<id>.shtml`, an image's
    object name and its CDN's signature), unless a parameter's name says
    it is a key or a token; nor what is public by design: a
    publishable key (Stripe `pk_live_...`, Supabase `sb_publishable_...`)
    and a wallet's public address (a 32-byte key in base58 on a line that
    calls it a wallet or an address and names no private key, secret or
    seed near it), a Bitcoin address whose checksum holds and an IPFS
    content id where IPFS or a CID is named. A secret's name with code after it
    (`api_key=os.getenv("KEY")`, `api_key=api_key`, `api_key=None`) or
    words describing it (`api_key: Weather service API key`, a sentence in
    Chinese or Japanese about the secret: `密码是他常用的6个密码之一，...`) holds no value;
    a string literal that code could evaluate to (`getenv("KEY",
    "<default>")`, `load() or "<fallback>"`) is read as the value.

    The finding shows the type, the place and a short hash
    (`sha256:1a2b3c4d`), never the secret, in every output format.

    To accept a finding, write `memwarden: allow-secret` anywhere on its line
    (in a YAML or HTML comment, or in the text itself), or detect-secrets'
    `pragma: allowlist secret`; or run `memwarden baseline` to record the
    current findings in `.memwarden-baseline.json` (option `baseline`), keyed
    by file and hash, so editing the file around them changes nothing.

    A token or key of a known format (a vendor's prefix, a private key
    block) is the rule's `known-format` part, measured on its own: where
    that part is stable and the rule is not, a run reports only it unless
    preview is on or the rule is named (`select`, the `memwarden-secrets`
    hook), which run the rule whole. A secret in an installed skill's file
    (a folder with a SKILL.md and ClawHub's `_meta.json`, its
    `.clawhub/origin.json` or a licence) is not in that part, whatever its
    format: its publisher's docs, tests and examples hold keys that open
    nothing. The whole rule still reports it, and says it is in the skill.

    ## Why
    A memory file is loaded into the model's context every session, synced to
    other machines and kept in git. A key pasted into a lesson ("deploy with
    token ghp_...") is sent to a model provider every session and stays in the
    repository's history after it is deleted.

    ## Example
    ```yaml
    tools:
      deploy:
        api_key: "sk-ant-api03-…"   # the real key, pasted by an agent
    ```
    `memory/fact.yml:3:18: MW701 secret-in-memory Anthropic API key (sha256:3b1f09c2): ...`

    ## Fix safety
    Unsafe (`--fix --unsafe-fixes`), and only for a secret known with high
    confidence: a token or key of a known format, a private key, a password
    in a URL, a value assigned to a secret-like name. A random-looking string
    that no format matches is reported but never rewritten (it may be an id
    or a hash). The fix replaces the value with
    `[REDACTED:<type>]`, changing only those characters (in YAML a bare value
    is quoted so that it stays a string; in JSON it stays inside its string).
    A secret in a JSON key becomes `[REDACTED:<type> sha256:<hash>]`, so two
    secret keys of one object stay two keys (a loader would keep one value);
    a secret in a YAML key has no fix, nor has one in a file or folder name
    (rename it yourself: links to it change too). Redacting is not enough: the secret
    is still in git history and wherever memory was synced, so rotate it.
    """
    from memwarden.analysis.secrets import SecretScans, redaction
    from memwarden.analysis.secrets.paths import name_secrets, read_names

    scans = SecretScans.of_run(ctx.memo, lambda: ctx.workspace.root, ctx.options)
    if not scans.targets_scanned:
        # One detect-secrets settings context for the whole run, not one per file (and one for the names).
        targets = ctx.workspace.target_documents()
        scans.scan_all(targets)
        read_names(d.relpath for d in targets)
        scans.targets_scanned = True
    accepted = scans.baseline  # read before any detection, so a broken baseline fails every run of the rule
    for secret in name_secrets(doc.relpath):
        found = secret.detection
        if found is not None and ctx.part_only and not known_format(found.type):
            continue
        if found is None or not accepted.accepts(doc.relpath, found.baseline_hash):
            yield Problem(1, 1, SecretInName(found.type.label if found else None, found.short_hash if found else "",
                                             secret.in_folder).message, quotes=False)
    if read_at_its_own_path(ctx.workspace, doc):
        return  # a symlink to a file also read: its secrets are reported, and redacted, at its own path
    fixable = doc.ok and doc.decoded
    skill_folder = functools.cache(lambda: installed_skill_folder(ctx.workspace, doc.relpath))  # looked up at a secret
    for found in scans.of(doc):
        if found.allowed or accepted.accepts(doc.relpath, found.baseline_hash):
            continue
        if ctx.part_only and (not known_format(found.type) or skill_folder() is not None):
            continue  # by default only a known format outside an installed skill: the rest is preview
        fix = None
        # A random-looking string alone is never rewritten, nor a blob for the secret its decoded text holds.
        if fixable and found.type.confident and not found.encoded:
            replacement = redaction(found)
            key = redact.json_key_at(doc, found.start, found.end)
            if key is not None:
                # Two secret keys of one object must not both become one key (a loader keeps one value):
                # a key's redaction names the secret's hash, as distinct as the secrets were.
                replacement = f"[REDACTED:{found.type.slug} sha256:{found.short_hash}]"
            edit = redact.redaction_edit(doc, found, replacement, verify=ctx.run.unsafe_fixes)
            if edit is not None and key is not None and not redact.key_stays_unique(doc, key, edit):
                edit = None
            if edit is not None:
                what = "key" if key is not None else "value"
                fix = Fix(
                    Applicability.UNSAFE,
                    f"replace the {what} with {replacement}; then rotate the secret: git history still holds it",
                    (edit,),
                )
        skill = skill_folder()
        where = f" {IN_INSTALLED_SKILL} {skill}/ (its publisher's, unless you put it there)" if skill else ""
        if found.encoded:
            where = f", base64-encoded here in a long string{where}"
        yield Problem(
            found.line,
            found.column,
            f"{found.type.label} (sha256:{found.short_hash}){where}: rotate and remove it, or accept it "
            "with 'memwarden: allow-secret' or `memwarden baseline`",
            json_path=redact.json_path_at(doc, found.start) if doc.ok else None,
            fix=fix,
        )


@dataclass(frozen=True)
class SecretInName:
    """A secret that a file's name, or the name of a folder it is in, holds (reported at the file's line 1)."""

    label: str | None  # the secret's type; None when the name could not be checked
    short_hash: str
    in_folder: bool

    @property
    def message(self) -> str:
        where = "the name of a folder this file is in" if self.in_folder else "this file's name"
        if self.label is None:
            return f"{where} could not be checked for secrets; it is hidden wherever memwarden shows it"
        return (
            f"{self.label} (sha256:{self.short_hash}) in {where}: rotate it and rename, since a name is committed, "
            "synced and shown in every listing; or accept it with `memwarden baseline`"
        )


# -- personal-path -------------------------------------------------------------------

@rule(code="MW702", name="personal-path", severity=Severity.WARNING, reads_unparsed=True, any_text=True, records=True)
def personal_path(doc, ctx):
    """A home-directory path that names a real user: `/Users/alice/`, `/home/alice/`, `C:\\Users\\alice\\`.

    ## What it does
    Finds absolute home paths in every line of a memory file (and of every
    other text file of the workspace, as secret-in-memory reads) and warns when
    the folder names a person: macOS and Linux homes, Windows homes
    (`C:\\Users\\alice`, `C:/Users/alice`, doubled backslashes in JSON) and
    their views from WSL (`/mnt/c/Users/alice`), Git Bash (`/c/Users/alice`)
    and Cygwin (`/cygdrive/c/Users/alice`). The message does not repeat the
    name.

    Homes that belong to no person are fine: CI runners (`/home/runner/`,
    `/github/home/`, `gitlab-runner`, `circleci`...), sandboxes and dev
    containers (`/home/workspace/`, `vscode`, `codespace`, `jovyan`,
    `daytona`...), cloud and device images' default users (`ubuntu`,
    `ec2-user`, `azureuser`, `opc`, `pi`...), service accounts (`postgres`,
    `www-data`, `appuser`, `svc-...`, `...-bot`), accounts made for the
    agent (`...-ai`, `clawd...`, or the agent's own name from the nearest
    `IDENTITY.md`, alone or with a prefix, a number or another word:
    `/Users/nova`, `/home/oc-nova` for an agent called Nova, unless USER.md
    gives the owner that name), logins named after the machine (`/Users/mac`,
    `macbook`, `laptop`, `server`), the system's own
    (`/root`, `/Users/Shared`, `C:\\Users\\Public`, `Default`) and
    placeholders (`~/`, `$HOME`, `/home/user/`, `/Users/you/`,
    `/home/<name>/`, `%USERNAME%`, `xxx`). Not reported either: a path
    quoted to be forbidden, the words just before it saying so ("never write
    /Users/alice/...", "absolute paths (`/home/alice/...`)", 「而非」), a
    test, fixture or example file (`tests/`, `test_*.py`, `*.test.ts`,
    `examples/`), the author's home left in an installed skill (a
    `skills/<name>/` folder with ClawHub's `_meta.json` or
    `.clawhub/origin.json`, or a licence, whose manifest, README or licence
    names that login: `@rkowalski/...`, `github.com/dwhit/...`,
    "Copyright (c) Dana Whitfield" for `danawhitfield`; any other home in it is
    reported), and a symlink to a file the run also reads at its own
    path (`CLAUDE.md` linked to `AGENTS.md` is reported once, at `AGENTS.md`).

    ## Why
    Memory is shared: synced between machines, pushed to a team repository,
    sometimes published. A path like `/Users/alice.chen/` tells every reader
    who the user is, and it is also wrong on every other machine, so the agent
    that follows it fails there.

    ## Example
    ```json
    {"content": "The build cache lives in /Users/alice.chen/Library/Caches/app", ...}
    ```
    `memory/episodic.jsonl:7:40: MW702 personal-path home path names a user ...`

    A home is reported once a file, where it first stands, and the message
    counts the other lines that name it; in a JSONL log, once a record.

    ## Fix safety
    No fix: whether `~/`, `$HOME` or a project-relative path is right depends
    on who reads the path.
    """
    from memwarden.analysis.secrets import document_text
    from memwarden.analysis.secrets.personal import (
        agent_and_owner_near, find_home_paths, installed_skill_manifests, is_test_file, names_skill_author,
        names_the_agent)

    if is_test_file(doc.relpath) or read_at_its_own_path(ctx.workspace, doc):
        return
    homes = find_home_paths(document_text(doc))
    if not homes:
        return  # the skill's manifests and the identity file are read only for a file with a home path
    skill_manifests = installed_skill_manifests(ctx.workspace, doc.relpath)
    agent, owner = ctx.memo.get(f"personal-path.agent-and-owner:{doc.relpath.rpartition('/')[0]}",
                                lambda: agent_and_owner_near(ctx.workspace, doc.relpath))
    # One finding a home a file, where it first stands: a file that names the owner's home on 1,000 lines has one
    # thing to fix, not 1,000. Not in a JSONL log, whose findings are each record's own (its new lines are
    # checked alone, so a count over the whole log could not be kept).
    lines_of: dict[object, list] = {}
    per_record = isinstance(doc, JsonlDocument)
    for home in homes:
        lines_of.setdefault((home.line, home.column) if per_record else home.name.lower(), []).append(home)
    for name, found in lines_of.items():
        first = found[0]
        if skill_manifests and names_skill_author(first.name, skill_manifests):
            continue  # the author's home left in an installed skill: not the owner's, fixable only upstream
        if first.name.lower() != owner and names_the_agent(first.name, agent):
            continue  # the account made for the agent, named after it
        more = len({home.line for home in found}) - 1
        yield Problem(
            first.line,
            first.column,
            "home path names a user: write '~/' or '$HOME' instead, so shared memory carries no "
            "personal name and works on other machines"
            + (f" (the same home is on {more} more line{'s' if more > 1 else ''} of this file)" if more else ""),
        )


# -- personal-data -------------------------------------------------------------------


@dataclass(frozen=True)
class PersonalContact:
    kind: str  # "email" or "phone"
    value: str  # never shown whole

    @property
    def message(self) -> str:
        if self.kind == "email":
            what = f"e-mail address {masked_email(self.value)}"
        else:
            what = f"phone number {masked_phone(self.value)}"
        return (
            f"{what} in memory: memory is loaded into every session, synced and often published; "
            "remove it, or list your own addresses and domains in the rule's `allow` option"
        )


@rule(
    code="MW703",
    name="personal-data",
    severity=Severity.WARNING,
    reads_unparsed=True,
    options={
        "allow": Option(
            [],
            list,
            "your own e-mail addresses, mail domains (`example.org` also allows its subdomains) and phone "
            "numbers, which may stand in memory",
        ),
    },
    records=True,
)
def personal_data(doc, ctx):
    """Someone's e-mail address or phone number written into a memory file.

    ## What it does
    Finds e-mail addresses and phone numbers in every line of every memory
    file and warns about each, showing it masked (`j***@a***.com`,
    `+** * ** ** ** 78`), never whole.

    Leaves alone what is nobody's: role and machine mailboxes (`noreply@`,
    `support@`, `security@`), inboxes a service hands to an AI agent
    (`@agentmail.to`), GitHub's `users.noreply.github.com`, the
    reserved `example.com/.org/.net` and `.test/.invalid/.local` domains,
    placeholders (`you@domain.com`, `your.name@company.com`), and what has
    an `@` but is no address: git and scp-style remotes
    (`git@github.com:owner/repo`, `ops@host:/srv`), logins in `ssh`, `scp`,
    `rsync` and `sftp` commands, shell prompts (`ubuntu@ip-10-0-0-1:~$`),
    systemd units (`redis-server@6380.service`), file names
    (`icon@2x.png`), package versions and scopes (`react@18.2.0`,
    `@scope/pkg`) and decorators, and handles on Bluesky or the fediverse
    (`name@bsky.social`, `user@instance` on a line naming Mastodon and no
    mail; never at a big mail provider). A symlink to a file the run also reads
    is reported once, at the file's own path. A number counts as a phone number only in a
    shape no id has: an international `+33 6 12 34 56 78`, a `tel:` link, a
    North American `(415) 867-5309`, or a national number right after a
    phone word ("phone:", "mobile", "call", "WhatsApp", "tél.", "電話").
    Versions, dates, times, IP addresses, ids, issue numbers and the
    fictional 555-01xx numbers (also run together, `+15555550123`) are not
    phone numbers. A Claude Code note
    about the user (`type: user`) holds the user's own details and is
    skipped, and so are the contact fields of OpenClaw's `USER.md`, the
    owner's profile (`- **Email:** ...`; a line naming someone else there,
    `Partner: Lee (lee@...)`, is still reported), and in an OpenClaw
    workspace the agent's own mailbox, named after it in `IDENTITY.md`
    (`arvi@<domain>`; not when the owner bears the name, nor at a big mail
    provider); list your other own
    addresses, domains or numbers in `allow`.

    ## Why
    Memory is loaded into a model's context every session, synced between
    machines and often committed to a public repository. A colleague's or
    customer's address or number in it is personal data shared with every
    reader and every model provider, without that person's consent.

    ## Example
    ```markdown
    - Access requests go to Maria (maria.garcia@gmail.com, +34 612 34 56 78).
    ```
    `project_access.md:1:27: MW703 personal-data e-mail address m***@g***.com in memory: ...`

    ## Fix safety
    No fix: whether to drop the detail, replace it with a role address or
    keep it (and allow it) is the user's call.
    """
    from memwarden.analysis.secrets import document_text
    from memwarden.analysis.secrets.personal import agent_and_owner, find_contacts, is_agents_mailbox, is_own_field

    if _about_the_user(doc) or read_at_its_own_path(ctx.workspace, doc):
        return
    allowed = [str(entry).strip().lower() for entry in ctx.options["allow"] if str(entry).strip()]
    text = document_text(doc)
    openclaw = ctx.workspace.profile.name == "openclaw"
    # OpenClaw's USER.md is the profile of the workspace's owner: its own contact fields are the owner's.
    lines = text.split("\n") if openclaw and doc.relpath == "USER.md" else None
    names = ctx.memo.get("personal-data.agent-and-owner", lambda: agent_and_owner(ctx.workspace)) if openclaw else None
    for contact in find_contacts(text):
        if _allowed(contact, allowed):
            continue
        if names and contact.kind == "email" and is_agents_mailbox(contact.value, *names):
            continue
        if lines is not None and is_own_field(lines[contact.line - 1][: contact.column - 1]):
            continue
        yield Problem(contact.line, contact.column, PersonalContact(contact.kind, contact.value).message)


def _about_the_user(doc) -> bool:
    """A Claude Code memory of type `user` (top level or under `metadata:`): the user's own profile."""
    front = getattr(doc, "front_matter", None)
    if not isinstance(front, dict):
        return False
    metadata = front.get("metadata")
    kind = front.get("type", metadata.get("type") if isinstance(metadata, dict) else None)
    return isinstance(kind, str) and kind.strip().lower() == "user"


def _allowed(contact, allowed: list[str]) -> bool:
    if contact.kind == "email":
        address = contact.value.lower()
        domain = address.rpartition("@")[2]
        return any(entry == address or domain == entry.lstrip("@") or domain.endswith("." + entry.lstrip("@")) for entry in allowed)
    digits = "".join(c for c in contact.value if c.isdigit())
    return any(digits and "".join(c for c in entry if c.isdigit()) == digits for entry in allowed)

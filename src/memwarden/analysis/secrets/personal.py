"""Personal details in a memory file: home paths that name a person, e-mail addresses, phone numbers.

Pure Python, no message building: :func:`find_home_paths` lists the home
folders that name someone, :func:`find_contacts` where each address or number
sits and its value (the rule shows it only masked, through ``memwarden.text``).
A home folder of a CI runner, a sandbox, a cloud image's default user or a
service account names nobody, nor does one quoted right after words that forbid
it ("never write /Users/alice/"), nor one in a test file. Precision first: an address that is nobody's (noreply@,
support@, example.com, GitHub's noreply domain, a placeholder such as
you@domain.com) and a number that is a version, a date, a time, an address
or an id is not reported. A phone number counts only in a shape no id has:
an international ``+`` number, a ``tel:`` link, a North American ``(555)
123-4567``, or a national number right after a phone word ("phone", "tel",
"mobile", "call", "WhatsApp", "téléphone", "電話"...). Every regex is linear.
"""

from __future__ import annotations

import re
from memwarden.patterns import LazyPattern
from dataclasses import dataclass
from memwarden.analysis.installed_skills import INSTALL_MARKERS, installed_skill_folder

EMAIL = "email"
PHONE = "phone"


# -- home paths ----------------------------------------------------------------------


@dataclass(frozen=True)
class HomePath:
    line: int  # 1-based
    column: int
    name: str  # never printed: the message does not repeat it


_SEP = r"(?:\\\\|\\|/)"  # /, \ and JSON's doubled \\
_HOME_PATH = LazyPattern(
    r"(?<![\w.~$%-])(?:"
    r"/(?:Users|home)/"  # macOS, Linux
    r"|/(?:mnt/|cygdrive/)?[A-Za-z]/Users/"  # WSL's /mnt/c, Git Bash's /c, Cygwin's /cygdrive/c
    rf"|[A-Za-z]:{_SEP}(?:Users|Documents and Settings){_SEP}"  # C:\Users, C:/Users
    r")(?P<name>[A-Za-z0-9][A-Za-z0-9._-]{0,63})(?=[/\\\"'`\s),;:\]}>|]|\Z)"
)
# Home folders that belong to no person: CI runners, sandboxes and dev containers, cloud and device images'
# default users, service accounts, the OS's own, a login named after the machine (`/Users/mac`), and the names
# docs put in a path as a placeholder.
_NOT_A_PERSON = frozenset(
    """
    runner runneradmin circleci travis jenkins buildkite-agent gitlab-runner semaphore vsts azdevops build builder
    ci agent buildbot drone teamcity bamboo
    workspace workspaces project projects sandbox box container code coder codespace codespaces vscode gitpod
    daytona jovyan claude codex devin replit repl cursor dev developer devuser devcontainer nonroot app apps
    appuser app-user service services svc user1 user2 testuser test tests tester
    ubuntu ec2-user centos debian fedora alpine rocky almalinux cloud-user cloudshell-user azureuser opc core
    admin administrator vagrant pi alarm arch kali deck bitnami steam docker linuxbrew homebrew
    root nobody daemon www www-data nginx apache httpd postgres postgresql mysql mariadb redis mongodb elasticsearch
    git gitea forgejo gitlab deploy deployer ansible ops bot bots minecraft frappe odoo node shared guest public
    default defaultuser0 all wdagutilityaccount
    mac macbook imac macmini mbp pc laptop desktop workstation server
    user users username user_name user-name you your yourname your-name your_name yourusername your-username
    me myself name myname my-name someone somebody anyone example sample demo foo bar baz xxx johndoe jdoe janedoe
    john.doe jane.doe
    """.split()
)
# A name with a source or document file's extension is a file lying in the homes folder (`C:/Users/test.rs` in a
# unit test's input), not anyone's home folder: logins carry no such suffix (`maria.k`, `alice.chen` do not match).
_A_FILE_NOT_A_HOME = LazyPattern(
    r"\.(?:rs|py|pyi|js|mjs|cjs|ts|tsx|jsx|go|java|kt|rb|php|cs|c|h|cc|cpp|hpp|swift|sh|bash|ps1|bat|md|txt|"
    r"json|jsonl|ya?ml|toml|ini|cfg|conf|log|csv|xml|html?|lock|exe|dll)\Z",
    re.IGNORECASE,
)
# `(open)claw...`, `molt...`: an account made for OpenClaw (once Clawdbot, then Moltbot): `/Users/clawdrex`.
_NOT_A_PERSON_AFFIXES = LazyPattern(
    r"\A(?:your|example|svc[-_]|service[-_]|x+\Z|(?:open)?clawd?|molt(?:bot|y)\d*\Z)|"
    r"(?:user|[-_](?:svc|service|bot|runner|agent|ci|ai))\d*\Z|"
    # A role or machine word run onto another: `agentadmin`, `localadmin`, `botvm`, `devvm`.
    r"\A(?:agent|bots?)(?:admin|vm|host|server|box|user)|(?:admin|vm)\d*\Z"
)


# Words before a home path that quote it to forbid it ("never write /Users/alice/...", "don't hard-code C:\\Users\\bob").
_FORBIDS = LazyPattern(
    r"(?i)\b(?:never|don'?t|do not|must not|should not|avoid|instead of|rather than|forbid\w*|disallow\w*|"
    r"hard-?cod\w*|not portable|leak\w*|not allowed)\b|❌|✗|"
    r"不要|別用|別寫|别用|别写|勿|禁止|避免|而非|而不是|不可|不得|不應|不应|ではなく|避け"
)
# ... or that show it as the example of what an absolute path looks like: "absolute paths (`/home/alice/...`)".
_SHOWN_AS_EXAMPLE = LazyPattern(
    r"(?i)(?:absolute paths?\s*(?:like|such as|e\.g\.,?|[(（])|(?:絕對路徑|绝对路径|絶対パス)\s*(?:[(（]|如|像|例如))"
    r"\s*[`'\"]?(?:file://)?\Z"
)
# A test, fixture or example file quotes the paths the code under test handles: no one's home is in it.
_TEST_FILE = LazyPattern(
    r"(?i)(?:^|/)(?:tests?|__tests__|spec|specs|fixtures?|testdata|examples?)/|(?:^|/)test_[^/]*$|"
    r"[._-](?:test|spec)\.[a-z0-9]+$|_test\.go$"
)


def is_test_file(relpath: str) -> bool:
    return bool(_TEST_FILE.search(relpath))


def find_home_paths(text: str) -> list[HomePath]:
    """Every home folder in a text whose name is a person's (see the module doc for whose is not), but one that
    the words just before it forbid."""
    found: list[HomePath] = []
    if "Users" not in text and "/home/" not in text:
        return found
    for number, line in enumerate(text.split("\n"), 1):
        if "Users" not in line and "/home/" not in line:
            continue
        for match in _HOME_PATH.finditer(line):
            before = line[max(0, match.start() - 80) : match.start()]
            if _FORBIDS.search(before) or _SHOWN_AS_EXAMPLE.search(before):
                continue  # "never write /Users/alice/": the words before the path forbid it
            if names_a_person(match.group("name")):
                found.append(HomePath(number, match.start() + 1, match.group("name")))
    return found


def names_a_person(home: str) -> bool:
    """Whether a home folder's name may be a person's: not a runner's, a sandbox's, a service's or a placeholder."""
    name = home.lower()
    if _A_FILE_NOT_A_HOME.search(name):
        return False
    return name not in _NOT_A_PERSON and not _NOT_A_PERSON_AFFIXES.search(name)


# A profile's name field: the agent's own name in its identity file (OpenClaw's IDENTITY.md: `- **Name:** Nova`,
# `Name: Nova (诺娃)`), its owner's in USER.md.
_NAME_FIELD = LazyPattern(
    r"(?im)^[ \t]{0,8}(?:[-*+][ \t]{1,4})?(?:\*\*|__)?(?:name|名字|名前|名称|名稱)(?:\*\*|__)?[ \t]{0,2}[:：]"
    r"[ \t]{0,2}(?:\*\*|__)?(?P<value>[^\n]{1,80})"
)


def agent_names(identity: str) -> frozenset[str]:
    """The words of the agent's name in its identity file (its first name field: a later one may be about
    the human), lowercased: a home folder named after the agent (`/Users/nova` for an agent called Nova) is
    the account made for it, not a person's. A possessive ("Alice's assistant") names the owner: left out."""
    value = _name_field(identity)
    if value is None:
        return frozenset()
    return frozenset(
        word.lower() for word in re.findall(r"[A-Za-z0-9][A-Za-z0-9._-]{1,63}(?![A-Za-z0-9._-]|['’]s\b)", value)
    )


def names_the_agent(login: str, agent: frozenset[str]) -> bool:
    """Whether a home folder's name is an account made for the agent: its name (`/home/nova`), a part of it with
    a prefix or a number (`/home/oc-nova`, `/Users/nova2`), or its name run into another word (`novabot`)."""
    name = login.lower()
    if name in agent:
        return True
    words = {word for word in agent if len(word) >= 3}
    if any(part in words for part in re.split(r"[-_.\d]+", name)):
        return True
    return any(len(word) >= 4 and (name.startswith(word) or name.endswith(word)) for word in words)


def _name_field(text: str) -> str | None:
    """What a profile's first name field says (the rest of its line), or None."""
    match = _NAME_FIELD.search(text[:20_000])
    return match["value"] if match else None


# An installed third-party skill (analysis/installed_skills: the nearest folder with a SKILL.md and what an installer
# or a publisher leaves beside it). Only its author's home, named in its own manifest, is exempt: an owner's file in
# a skill folder nothing installed keeps every finding.
_SKILL_AUTHOR_FILES = (*INSTALL_MARKERS, "SKILL.md", "README.md", "package.json")


def installed_skill_manifests(workspace, relpath: str) -> list[str]:
    """The manifest files' texts of the installed skill a file lies in; none for a file outside a skill or in a
    skill folder nothing installed (the owner's own)."""
    folder = installed_skill_folder(workspace, relpath)
    if folder is None:
        return []
    texts = (workspace.current_bytes(f"{folder}/{name}") for name in _SKILL_AUTHOR_FILES)
    return [raw[:100_000].decode("utf-8", "replace") for raw in texts if raw is not None]


def names_skill_author(home: str, manifests: list[str]) -> bool:
    """Whether a skill's own manifest files name a home folder's login as someone (`@rkowalski/pdf-helper`,
    `github.com/dwhit/...`, `Copyright (c) 2026 Dana Whitfield` for `danawhitfield`), not counting the home paths in
    them: a path alone proves nothing about who wrote the skill."""
    login = re.sub(r"[^a-z0-9]", "", home.lower())
    if len(login) < 3:
        return False
    for text in manifests:
        words = re.findall(r"[a-z0-9]+", _HOME_PATH.sub(" ", text).lower())
        if login in words or login in {a + b for a, b in zip(words, words[1:])}:
            return True
    return False


@dataclass(frozen=True)
class Contact:
    kind: str  # EMAIL or PHONE
    line: int  # 1-based
    column: int
    value: str  # never printed: messages show it masked


_EMAIL = LazyPattern(
    r"(?<![\w.+%@/=-])(?P<local>[A-Za-z0-9][A-Za-z0-9._%+-]{0,63})@"
    r"(?P<domain>(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.){1,8}(?P<tld>[A-Za-z]{2,24}))(?![\w-]|\.[A-Za-z0-9])"
)
# Domains that belong to nobody (RFC 2606 and 6761), and the ones docs use as placeholders.
_NOBODYS_DOMAINS = frozenset(
    """
    example.com example.org example.net example.edu users.noreply.github.com noreply.github.com localhost
    domain.com yourdomain.com your-domain.com mydomain.com my-domain.com company.com yourcompany.com
    mycompany.com your-company.com email.com youremail.com test.com foo.com bar.com acme.com acme.org
    acme.dev acme.io acme.test host.com server.com website.com site.com somewhere.com somedomain.com
    """.split()
)
# Services that hand an AI agent its own inbox through an API: a machine's mailbox, not a person's.
_AGENT_INBOX_DOMAINS = frozenset({"agentmail.to"})
_NOBODYS_SUFFIXES = (".example", ".test", ".invalid", ".localhost", ".local", ".internal", ".lan", ".home.arpa")
# Local parts of role and machine mailboxes, and the names docs put in front of a placeholder.
_ROLE_LOCALS = frozenset(
    """
    noreply no-reply no_reply donotreply do-not-reply do_not_reply notifications notification notify support info
    contact contacts hello hi admin administrator security abuse postmaster hostmaster webmaster help helpdesk sales
    team press privacy legal billing accounts careers jobs feedback bot bots git root mailer-daemon devnull
    dependabot github-actions actions ci build deploy ops devops engineering marketing office enquiries inquiries
    service services status alerts newsletter news community partners hr invoice invoices orders shop store
    welcome api mail email user username you your.name yourname your_name your-name youremail your.email
    your-email your_email name firstname.lastname first.last john.doe jane.doe johndoe janedoe foo bar test
    tester someone somebody me myself address me.myself
    """.split()
)
# What looks like an address but is a file name: icon@2x.png, pkg@1.2.3 (the TLD is a digit there anyway).
_FILE_TLDS = frozenset(
    """
    png jpg jpeg gif svg webp ico bmp tif tiff pdf md mdx txt rst json jsonl yml yaml toml ini cfg conf lock log
    js mjs cjs ts tsx jsx py pyc rb go rs java kt swift c h cc cpp hpp cs php pl sh bash zsh ps1 bat css scss less
    html htm xml csv tsv sql zip tar gz tgz whl jar so dylib dll exe bin wasm map vue svelte
    service socket timer target mount automount swap path slice scope device
    """.split()
)  # the last line: systemd units, redis@6380.service
# A login, not a mailbox: `ssh deploy@build-box.acme.io`, `rsync -a x ops@host.lan:/srv`, `git clone gitea@host.io:o/r`.
_LOGIN_COMMAND = LazyPattern(
    r"(?i)(?:^|[\s`$(])(?:ssh|scp|sftp|rsync|mosh|ssh-copy-id|autossh|sshfs|git\s+clone)\s[^\n|;&`]*\Z"
)

# -- phone numbers -------------------------------------------------------------------

_NOT_BEFORE = r"(?<![\w+./:#=@$%&-])"
_NOT_AFTER = r"(?![\w/%]|[.,-]\d)"
_INTERNATIONAL = LazyPattern(_NOT_BEFORE + r"\+[1-9]\d{0,3}(?:[ .-]?\(0?\d{1,4}\))?(?:[ .-]?\d{1,5}){1,6}" + _NOT_AFTER)
_TEL_LINK = LazyPattern(r"(?i)\btel:(?P<number>\+?[0-9][0-9 ().-]{5,24}[0-9])")
_NORTH_AMERICAN = LazyPattern(_NOT_BEFORE + r"\(\d{3}\)[ .-]?\d{3}[ .-]\d{4}" + _NOT_AFTER)
_NATIONAL = LazyPattern(_NOT_BEFORE + r"(?:\(?0?\d{1,4}\)?(?:[ .-]\d{2,4}){2,5}|0\d{8,12})" + _NOT_AFTER)
# Words that say a number is a phone number, then a few characters (': ', ' is ', ' at ').
_PHONE_WORD = LazyPattern(
    r"(?i)(?:\b(?:phone|tel|telephone|mobile|cell|cellphone|call|sms|text|whatsapp|signal|fax|hotline|"
    r"t[ée]l[ée]phone|t[ée]l|portable|telefon|telefono|tel[ée]fono|handy|ring)\b|電話|手機|手机|携帯|전화)"
    r"[^\n\d+()]{0,16}\Z"
)
_DATE = LazyPattern(r"\A(?:\d{4}([-./])\d{1,2}\1\d{1,2}|\d{1,2}([-./])\d{1,2}\2\d{2,4})\Z")
_IP = LazyPattern(r"\A\d{1,3}(?:\.\d{1,3}){3}\Z")
_VERSION = LazyPattern(r"\A\d{1,4}(?:\.\d{1,4}){1,3}\Z")


def find_contacts(text: str) -> list[Contact]:
    """Every e-mail address and phone number in a text that may be a person's, in order."""
    found: list[Contact] = []
    may_mail = "@" in text
    may_call = any(c.isdigit() for c in text)
    if not (may_mail or may_call):
        return found
    for number, line in enumerate(text.split("\n"), 1):
        if may_mail and "@" in line:
            for match in _EMAIL.finditer(line):
                if _in_url(line, match.start()):
                    continue  # scheme://user:password@host: a URL's user info, no address
                if _is_login(line, match.start(), match.end()):
                    continue
                if _is_social_handle(line, match.group("domain")):
                    continue
                if is_personal_address(match.group("local"), match.group("domain")):
                    found.append(Contact(EMAIL, number, match.start() + 1, match.group(0)))
        if may_call and _has_digit_run(line):
            found.extend(Contact(PHONE, number, start + 1, value) for start, value in _phones(line))
    return found


def is_personal_address(local: str, domain: str) -> bool:
    local, domain = local.lower(), domain.lower()
    if domain.rsplit(".", 1)[-1] in _FILE_TLDS:
        return False
    if domain in _NOBODYS_DOMAINS or domain in _AGENT_INBOX_DOMAINS:
        return False
    if domain.endswith(_NOBODYS_SUFFIXES) or domain.startswith("example."):
        return False
    if "noreply" in local or "no-reply" in local or local in _ROLE_LOCALS:
        return False
    if local.endswith("[bot]") or local.endswith("-bot") or local.endswith("_bot"):
        return False
    return not _placeholder_local(local)


# A handle on Bluesky or the fediverse is written like an address (`name@bsky.social`, `name@mastodon.social`) but
# reaches a public profile, not a mailbox: on Bluesky's host, or on a line that names such a network and no mail.
_SOCIAL_NETWORK = LazyPattern(
    r"(?i)\b(?:mastodon|fediverse|bluesky|bsky|misskey|pleroma|akkoma|pixelfed|lemmy|activitypub|toots?)\b"
)
_MAIL_WORD = LazyPattern(r"(?i)e-?mail|\bmail|inbox|smtp|imap|邮箱|郵箱|邮件|郵件|メール|메일|почт")
_BLUESKY_HOSTS = ("bsky.social",)
# The big mail providers: an address there is a mailbox, whatever the line says around it.
_MAIL_PROVIDERS = frozenset(
    """
    gmail.com googlemail.com outlook.com hotmail.com live.com msn.com yahoo.com icloud.com me.com mac.com aol.com
    proton.me protonmail.com pm.me gmx.de gmx.net gmx.com web.de yandex.ru yandex.com mail.ru bk.ru list.ru
    inbox.ru qq.com 163.com 126.com sina.com foxmail.com naver.com daum.net hanmail.net fastmail.com hey.com
    zoho.com tutanota.com tuta.io posteo.de mailbox.org orange.fr free.fr laposte.net libero.it seznam.cz
    """.split()
)


def _is_social_handle(line: str, domain: str) -> bool:
    domain = domain.lower()
    if domain in _MAIL_PROVIDERS or domain.startswith(("yahoo.", "hotmail.", "outlook.")) or _MAIL_WORD.search(line):
        return False
    if domain in _BLUESKY_HOSTS or domain.endswith(tuple("." + host for host in _BLUESKY_HOSTS)):
        return True
    return bool(_SOCIAL_NETWORK.search(line))


# A profile's own contact field: `- Email: ...`, `- **Phone:** ...`, `邮箱：...`; nothing but the label before it.
_OWN_FIELD = LazyPattern(
    r"\s{0,8}(?:[-*+]\s{1,4})?(?:\*\*|__)?(?:e-?mail(?: address)?|mail|phone(?: number)?|mobile|cell|tel|"
    r"邮箱|電子郵件|电子邮件|电话|電話|メール|電話番号|이메일|전화)(?:\*\*|__)?\s{0,2}[:：]\s{0,2}(?:\*\*|__)?\s{0,4}[`<]?",
    re.IGNORECASE,
)


def is_own_field(before: str) -> bool:
    """The text before a contact on its line is only a contact field's label (`- **Email:** `): in a profile of
    the owner, the owner's own address or number, where a line naming someone else (`Partner: Lee (...)`) is not."""
    return bool(_OWN_FIELD.fullmatch(before))


def _profiles_in(workspace, folder: str) -> tuple[str, str] | None:
    """The texts of a folder's OpenClaw profiles, IDENTITY.md (the agent's) and USER.md (its owner's), '' for
    one missing; None when the folder has neither."""
    from memwarden.analysis.secrets import document_text

    texts = []
    for name in ("IDENTITY.md", "USER.md"):
        relpath = f"{folder}/{name}" if folder else name
        profile = workspace.document(relpath) if workspace.current_bytes(relpath) is not None else None
        texts.append(document_text(profile)[:100_000] if profile is not None else None)
    if all(text is None for text in texts):
        return None
    return texts[0] or "", texts[1] or ""


def agent_and_owner(workspace) -> tuple[str | None, str | None]:
    """The first words of the names the workspace's IDENTITY.md and USER.md give the agent and its owner."""
    identity, user = _profiles_in(workspace, "") or ("", "")
    return profile_name(identity), profile_name(user)


def agent_and_owner_near(workspace, relpath: str) -> tuple[frozenset[str], str | None]:
    """The words of the agent's name and the owner's first name, from the profiles nearest a file: a repository
    may hold several OpenClaw workspaces (`workspace/`, `workspace-main/`), each with its own agent."""
    folder = relpath.rpartition("/")[0]
    while (found := _profiles_in(workspace, folder)) is None and folder:
        folder = folder.rpartition("/")[0]
    identity, user = found or ("", "")
    return agent_names(identity), profile_name(user)


def profile_name(text: str) -> str | None:
    """The first word of a profile's name field, in lower case."""
    value = _name_field(text)
    word = re.match(r"\s{0,4}([^\W\d_][\w.-]{1,39})", value) if value is not None else None
    return word.group(1).lower() if word else None


def is_agents_mailbox(address: str, agent: str | None, owner: str | None) -> bool:
    """An address whose local part is the agent's own name (`arvi@<its domain>`): the agent's mailbox, not a
    person's. Never when the owner bears the same name, nor at a big mail provider, where anyone of that name has
    one."""
    local, _, domain = address.lower().rpartition("@")
    if not agent or local != agent or agent == owner:
        return False
    return domain not in _MAIL_PROVIDERS and not domain.startswith(("yahoo.", "hotmail.", "outlook."))


def _placeholder_local(local: str) -> bool:
    """xxx@, ***@, <user>@-like locals: a template, not a person."""
    return bool(re.fullmatch(r"x+|\*+|_+|\.+", local)) or local.startswith(("your", "my.", "my_", "my-"))


def _in_url(line: str, start: int) -> bool:
    """The text at ``start`` belongs to a URL: the word it is in (up to a space, quote or bracket) has '://'."""
    before = line[max(0, start - 2000) : start]
    cut = max(before.rfind(c) for c in " \t\"'<>`([{")
    return "://" in before[cut + 1 :]


def _is_login(line: str, start: int, end: int) -> bool:
    """user@host in an ssh command or an scp-style remote (`git@host:owner/repo`, `ops@box:/srv`): a login."""
    after = line[end : end + 2]
    if after[:1] == ":" and after[1:2] not in ("", " ", "\t"):
        return True
    return bool(_LOGIN_COMMAND.search(line[max(0, start - 200) : start]))


def _is_fictional_north_american(digits: str, value: str) -> bool:
    """555-0100 to 555-0199 (kept for fiction in every area code) and area code 555, written with separators or
    run together as `+15555550123` (the unspaced form a CLI's help text shows)."""
    if re.search(r"(?:^|\D)555[ .)-]*01\d\d(?:\D|$)", value) or re.match(r"\+?1?[ .(-]*555\b", value):
        return True
    national = digits[1:] if len(digits) == 11 and digits[0] == "1" and value.startswith("+") else digits
    return len(national) == 10 and (national[:3] == "555" or national[3:8].startswith("55501"))


def _has_digit_run(line: str) -> bool:
    return bool(re.search(r"\d[\d ().-]{5,}\d", line))


def _digits(value: str) -> str:
    return "".join(c for c in value if c.isdigit())


def _phones(line: str):
    """(start, value) of each phone number in a line."""
    taken: list[tuple[int, int]] = []

    def free(start: int, end: int) -> bool:
        return all(end <= s or start >= e for s, e in taken)

    candidates = []
    for match in _TEL_LINK.finditer(line):
        candidates.append((match.start("number"), match.group("number"), True))
    for match in _INTERNATIONAL.finditer(line):
        candidates.append((match.start(), match.group(0), False))
    for match in _NORTH_AMERICAN.finditer(line):
        candidates.append((match.start(), match.group(0), False))
    for match in _NATIONAL.finditer(line):
        if _PHONE_WORD.search(line[max(0, match.start() - 40) : match.start()]):
            candidates.append((match.start(), match.group(0), True))
    for start, value, labelled in sorted(candidates, key=lambda c: (c[0], -len(c[1]))):
        value = value.rstrip(" .-")
        end = start + len(value)
        if free(start, end) and _is_phone(line, start, value, labelled):
            taken.append((start, end))
            yield start, value


def _is_phone(line: str, start: int, value: str, labelled: bool) -> bool:
    digits = _digits(value)
    if not 8 <= len(digits) <= 15:
        return False
    bare = value.lstrip("+")
    if _DATE.match(bare) or _IP.match(bare) or _VERSION.match(bare):
        return False
    if not labelled and not value.startswith(("+", "(")):
        return False
    if not value.startswith("+") and not labelled and not re.search(r"[ .-]", value):
        return False
    if len(set(digits)) <= 2 or digits in "12345678901234567890" or digits in "98765432109876543210":
        return False  # 0000 0000, 1234 5678: a placeholder
    if _is_fictional_north_american(digits, value):
        return False  # North America's numbers for fiction
    if _in_url(line, start) or line[:start].endswith(("v", "V", "#", "x", "ID", "id")):
        return False  # in a URL, a version, an issue or a hex id
    return True

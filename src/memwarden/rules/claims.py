"""Negative claims must expire: "memory's negative sentences are dated snapshots".

A note that says a tool does not support something, an episode that found
nothing, a fact that something is unavailable: each was true when written and
goes stale without a word. These rules ask for an `expires` date on every such
record, warn when that date has passed, and check that the date is a real one.

Where `expires` lives, by kind:

- gish note (ghost-in-shell `note`): `metadata.expires` in the front matter. A
  top-level `expires` still counts as an expiry (the claim is dated), but
  `invalid-expiry` reports it: gish reads `metadata.expires` only.
- claude-code and three-layer note: `expires` at the top of the front matter,
  or `metadata.expires` when the note keeps its fields under `metadata:` (the
  layout recent Claude Code writes; it keeps only name and description at the
  top and would move or drop a top-level date). Either place counts.
- episode (`episodic`, `episode-archive`): the record's own `expires` field.
- facts: an `expires` key in the mapping that holds the claim, or in any
  mapping around it. A claim that is a list item has no place of its own for
  an expiry: it is reported without a fix. Archived facts (gish `archive:`, a
  three-layer mapping with `archived: true`) are not read.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from memwarden.analysis.expiry import (
    MISSING,
    ClaimRecord,
    claim_records,
    dated_statements,
    expiry_places,
    is_date_shaped,
    parse_date,
)
from memwarden.analysis.negation import find_claims
from memwarden.documents import MarkdownDocument
from memwarden.documents.markdown import CODE_PLACEHOLDER
from memwarden.discover.profiles import is_dreaming_output
from memwarden.fixes.expiry import add_expires, can_add_expires
from memwarden.model import Applicability, Fix, Option, Problem, Severity
from memwarden.registry import rule
from memwarden.text import excerpt

CLAIM_KINDS = ("note", "facts", "episodic", "episode-archive")
QUOTE_CHARS = 80
DEFAULT_MAX_TTL = 365
# One limit for invalid-expiry and for the date negative-claim-without-expiry's fix writes.
MAX_TTL = Option(DEFAULT_MAX_TTL, int, "how many days ahead an expires date may lie", setting="max_ttl")


def quote(sentence: str, inline_code: bool = False) -> str:
    """The sentence for a message: one line, at most QUOTE_CHARS characters.

    In Markdown prose, inline code was replaced by a placeholder before the
    detector read it; the quote shows it as `…` rather than the placeholder word.
    """
    if inline_code:
        sentence = re.sub(rf"\b{CODE_PLACEHOLDER}\b", "`…`", sentence)
    # A claim's paths and versions are its point, so long runs are not masked here.
    return excerpt(sentence, QUOTE_CHARS, mask_tokens=False)


# -- negative-claim-without-expiry ----------------------------------------------------


@dataclass(frozen=True)
class NegativeClaimWithoutExpiry:
    sentence: str  # as quoted
    place_name: str  # "expires", "metadata.expires"
    has_place: bool  # False for a fact that is a list item
    why: str = ""  # what else the detector says of the claim, as shown

    @property
    def message(self) -> str:
        if self.has_place:
            advice = f"add `{self.place_name}` so it is checked again"
        else:
            advice = "a list item has no place for a date: move the claim into a mapping with an `expires`"
        why = f"; {self.why}" if self.why else ""
        return f'negative claim with no expiry date: "{self.sentence}" ({advice}{why})'


@dataclass(frozen=True)
class AddExpiry:
    place_name: str
    date: str
    ttl: int

    @property
    def fix_title(self) -> str:
        return f"add {self.place_name}: {self.date} ({self.ttl} days from now)"


def _expiry_fix(doc, record: ClaimRecord, ctx, ttl: int) -> Fix | None:
    place = record.place
    if place.mapping is None:
        return None
    base = max(ctx.today, place.record_date or ctx.today)
    try:
        date = (base + dt.timedelta(days=ttl)).isoformat()
    except OverflowError:
        return None  # past 9999-12-31 there is no date to write: the claim is reported without a fix
    from memwarden.documents import schema_store

    validator = schema_store.validator(ctx.workspace.profile, doc.kind)
    title = AddExpiry(place.name, date, ttl).fix_title
    if not ctx.builds_fixes:  # a check shows only that it can be fixed: the edit is built when fixing
        return Fix(Applicability.SAFE, title, ()) if can_add_expires(doc, place, date, validator) else None
    edit = add_expires(doc, place, date, validator)
    if edit is None:
        return None
    return Fix(Applicability.SAFE, title, (edit,))


@rule(
    code="MW301",
    name="negative-claim-without-expiry",
    severity=Severity.ERROR,
    kinds=CLAIM_KINDS,
    fix=Applicability.SAFE,
    options={
        "default_ttl": Option(90, int, "days from today that the fix's expires date lies ahead"),
        "max_ttl": MAX_TTL,
    },
    records=True,
)
def negative_claim_without_expiry(doc, ctx):
    """A note, episode or fact that says something does not exist, is not supported or was not found, with no `expires` date.

    ## What it does
    Reads the prose of notes (front-matter `description` and the body, without
    code blocks, inline code or URLs), the text fields of episodes (`title`,
    `summary`, `content`, `detail`, `lesson`) and every string value of the
    facts, and reports a sentence only on positive evidence that it is a
    claim about the world worth checking again:

    - its negation attaches to a capability, availability or existence
      predicate: "does not support", "has no", "cannot", "isn't installed",
      "not available", "no longer", "returns nothing", 「不支援」「沒有」
      「無法」「未提供」, 「対応していない」「できない」「がない」; or, with
      no negative word, something is gone, blocked, empty or capped: "was
      retired", "got deleted", "the proxy blocks pypi.org", "came back
      empty", "accepts at most 50", "built without libx265", 「已下架」「停用了」
      「把 3306 對外關了」「最多 10 次」「編譯失敗」, 「提供終了」「遮断されている」
      「404 を返す」;
    - and it names something outside the project: a proper noun or product
      ("GitHub", "macOS", "Python 3.12"), a tool written in lower case ("gh",
      "pnpm", "wasm"), a version, a domain, or what a vendor decides (a plan,
      an account, a region, an API). Inline code alone is not a name;
    - and its subject is not the project itself: "we", "I", "you", "our
      script", a rule, a policy, a test, an issue, "this column".

    A search that came back empty is a claim whoever ran it and whatever it
    names ("I couldn't find any docs for the flag", "grep turned up nothing",
    「找不到相關資料」「何も出てこなかった」), and so is missing support ("dark
    mode is not supported on the embedded viewer", 「不支援」「非対応」). An
    English sentence around a Chinese or Japanese term ("the 測試機 has no
    outbound access") is read as English, and the term is a name. An
    environment names where a state holds ("the table is empty in staging",
    「測試環境的回調壞了」), a name may follow the verb ("broken in the Expo
    dev client", "denied by a NetworkPolicy"), and what has kept failing since
    a day needs no name ("has been failing since Monday", 「從週一起一直報錯」,
    「先週から失敗し続けている」). Never reported:
    directives ("never run rm -rf", 「不要刪除」, 「しないでください」),
    questions and guesses ("may be unavailable"), conditions and cases ("if
    the file does not exist", "once the branch is deleted, ..."), past
    events ("didn't use the venv", "had no handler", a removal told with its
    date: "V1 was deprecated in August 2024", 「2024 年に廃止された」, an
    entry stamped "[2024-03-26 21:34]"), an end of life ("Foxy 已 EOL": final),
    judgements ("not worth hoisting", "not evidence that ..."),
    a negative word in quotes, a code span, a link or a slug, SQL and
    settings, headings and to-do items. A missed claim costs less than a
    false alarm, so a claim with no name in its sentence ("the admin panel
    has no batch export") is not reported. A fact in a list ("via Entra ID;
    no local permission storage; ...") says there is none, and what is too
    big or too old for a tool is its limit ("the spec (15.5MB) is too large
    for tools", "Node 16 is too old for pnpm 9", 「只保留 90 天」).
    Nor is a negation inside the noun
    phrase of a positive statement ("nonexistent ids are skipped", 「未驗證的
    帳號」), where something is kept by policy ("secrets are never stored
    here; they live in Vault"), or "nobody" in a narrated event. The owner's
    own setup is theirs to change, not a claim ("`gh` CLI not installed",
    「WSL 未启用 systemd」, a credential of theirs missing or expired), nor is
    a limit in money ("raising $75K at a $3.5M cap"). A speaker's turn in a
    transcript ("assistant: ...") is a sentence of its own. What OpenClaw's
    dreaming writes by itself (`memory/dreaming/light|rem|deep/`, DREAMS.md)
    is not read: it quotes the day's transcripts, and what it keeps is
    promoted into MEMORY.md, which is read. English,
    Traditional and Simplified Chinese and Japanese are understood, and
    Russian narrowly: a present-tense predicate under не/нет or a block said
    of a name in Latin script («Booking.com: WAF блокирует серверные
    запросы», «Tauri 2.x не даёт overlay-icon API»); a sentence in another
    language (Korean, Greek, Spanish...) is skipped.
    The finding quotes the sentence and points at its own line.

    The expiry goes where each kind keeps it: a gish note's `metadata.expires`;
    a claude-code or three-layer note's `expires`, under `metadata:` when the
    note keeps its fields there (recent Claude Code does) and at the top
    otherwise; an episode's `expires` field; for facts, the mapping that holds
    the claim (or one around it).

    ## Why
    Memory's negative sentences are dated snapshots. The tool adds the feature
    a month later, the search that found nothing is one query among many, and
    the agent keeps believing the old "no" because nothing tells it to look
    again. An expiry date makes the claim come back for review.

    ## Example
    ```markdown
    ---
    name: gh-drafts
    description: gh does not support listing draft releases
    metadata:
      type: reference
      updated: 2026-03-01
    ---
    ```
    `memory/knowledge/references/gh-drafts.md:3:14: MW301 negative-claim-without-expiry negative claim with no expiry date: "gh does not support listing draft releases"`

    ## Fix safety
    Safe: adds one line, `expires: <today + default_ttl>` (90 days by default,
    never past `invalid-expiry`'s `max_ttl`), as the last key of the mapping
    that keeps the date, indented like its siblings; or, in an episode, one
    `"expires"` member before the closing brace, spaced like the record's own
    members. Comments, quoting, key order, line endings and the BOM are not
    touched, and a second run finds the date and changes nothing. A claim that
    is a list item in the facts has no place for a date and gets no fix, and
    so does a claim whose mapping the kind's schema does not let hold an
    `expires` (a user's schema whose `tools` values must all be tool notes,
    say): the fix never adds a schema violation.
    """
    if is_dreaming_output(doc.relpath, ctx.workspace.profile.name):
        return  # written by OpenClaw's dreaming, quoting the day's transcripts; what it keeps lands in MEMORY.md
    ttl = min(ctx.options["default_ttl"], ctx.options["max_ttl"])
    for record in claim_records(doc, ctx.workspace.profile.name):
        if record.place.present:
            continue
        has_place = record.place.mapping is not None or record.what != "fact"
        fix = None
        for piece in record.pieces:
            for claim in find_claims(piece.text):
                if fix is None:
                    fix = _expiry_fix(doc, record, ctx, ttl)
                line, column = piece.locate(claim.start, claim.sentence)
                violation = NegativeClaimWithoutExpiry(
                    quote(claim.sentence, piece.inline_code), record.place.name, has_place, excerpt(claim.why, 160)
                )
                yield Problem(line, column, violation.message, json_path=piece.json_path, fix=fix)


# -- expired-claim ------------------------------------------------------------------


@dataclass(frozen=True)
class ExpiredClaim:
    date: dt.date
    days: int
    what: str  # "note", "record"

    @property
    def message(self) -> str:
        return (
            f"expired on {self.date.isoformat()}, {self.days} day{'s' if self.days != 1 else ''} ago: "
            f"re-verify the claim, then move the date or archive the {self.what}"
        )


@rule(code="MW302", name="expired-claim", severity=Severity.WARNING, kinds=CLAIM_KINDS, records=True)
def expired_claim(doc, ctx):
    """A record whose `expires` date has passed: re-verify it, then move the date or archive it.

    ## What it does
    Compares every `expires` date in the places the claims rules read (a
    note's `metadata.expires` or top-level `expires`, an episode's `expires`,
    any `expires` in the facts) with today, or with the date given by
    `--today`.
    Archived records are skipped: they are no longer believed.

    ## Why
    The date was set because the record could go stale. Once it has passed,
    the agent is reading a claim nobody has checked since: the "not supported"
    may be supported now.

    ## Example
    ```markdown
    ---
    name: gh-drafts
    description: gh does not support listing draft releases
    metadata:
      type: reference
      updated: 2025-09-01
      expires: 2025-12-01
    ---
    ```
    With `--today 2026-03-01`:
    `memory/knowledge/references/gh-drafts.md:7:3: MW302 expired-claim expired on 2025-12-01, 90 days ago: re-verify the claim, then move the date or archive the note`

    ## Fix safety
    No fix: only checking the claim again can say whether it still holds.
    """
    what = "note" if isinstance(doc, MarkdownDocument) else "record"
    for place in expiry_places(doc, ctx.workspace.profile.name):
        if place.archived:
            continue
        # The expiry in its place, else one out of place: the claim is dated either way.
        if place.dated is None:
            continue
        value, location, json_path = place.dated
        date = parse_date(value)
        if date is None or date >= ctx.today:
            continue
        violation = ExpiredClaim(date, (ctx.today - date).days, what)
        yield Problem(location[0], location[1], violation.message, json_path=json_path)


# -- stale-statement ----------------------------------------------------------------


@dataclass(frozen=True)
class StaleStatement:
    statement: str  # as quoted
    days: int
    deadline: bool
    place_name: str

    @property
    def message(self) -> str:
        s = "s" if self.days != 1 else ""
        if self.deadline:
            when = f'"{self.statement}" passed {self.days} day{s} ago'
        else:
            when = f'"{self.statement}" is {self.days} day{s} old'
        return f"{when} and the record has no `{self.place_name}`: re-verify what it dates, then update it"


@rule(
    code="MW304",
    name="stale-statement",
    severity=Severity.WARNING,
    kinds=CLAIM_KINDS,
    options={"max_age": Option(90, int, "days after which a 'verified <date>' or 'as of <date>' is stale")},
    records=True,
)
def stale_statement(doc, ctx):
    """A statement dated in its own text ("verified 2026-03-31", "review by 2026-06-01") whose date has passed, in a record with no `expires`.

    ## What it does
    Reads the same prose as `negative-claim-without-expiry` (a note's
    description and body, an episode's text fields, the facts' strings) in
    records that have no `expires`, and finds two kinds of dated statement:

    - a snapshot: "verified 2026-03-31", "checked on March 3, 2026", "as of
      2026-01", "last confirmed 2026/02/10", 「截至 2026 年 3 月」,
      「確認於 2026-03-31」, 「2026-03-31 確認」, 「最終確認日 2026-03-31」,
      「最后确认：2026-03-31」, 「2026年3月末時点」, 「2026-03-31 現在」,
      「2026-03-31 기준」. It is reported when its date lies more than
      `max_age` days (90 by default) before today. A date that records
      when something changed is history, not a snapshot: "as of
      2026-03-01 the repo was renamed", "as of 2026-02 we use uv"; so is
      a check of one pinned build ("verified 2026-08-20 against v1.0.0").
    - a deadline: "review by 2026-06-01", "re-verify before 2026-05",
      "valid until 2026-04-30", 「有效期至 2026/04/30」, 「2026-05-01 前複查」,
      「2026-03-31まで有効」, 「2026-03-01までに再確認」. It is reported once the
      date has passed.

    Dates are read as `YYYY-MM-DD`, `YYYY/MM/DD`, `YYYY-MM`, "March 31,
    2026", "31 March 2026", "March 2026", 「2026年3月31日」 and
    「2026년 3월 31일」; a month
    alone is its first day for a snapshot and its last for a deadline. Today
    is the date given by `--today`, or the real date. Archived records are
    skipped.

    ## Why
    A date written into the sentence is the author saying "this was true
    then" or "look at this again by then". Nothing brings it back when the
    date passes: the agent reads "as of January, the API has no paging" in
    November as if it were news. An `expires` date is what the claims rules
    check; a record that has one is left to `expired-claim`.

    ## Example
    ```markdown
    ---
    name: gh-drafts
    description: gh cannot list draft releases (verified 2026-03-01)
    metadata:
      type: reference
    ---
    ```
    With `--today 2026-11-30`:
    `memory/knowledge/references/gh-drafts.md:3:45: MW304 stale-statement "verified 2026-03-01" is 274 days old and the record has no `metadata.expires`: re-verify what it dates, then update it`

    ## Fix safety
    No fix: only checking the statement again can say whether it still
    holds, and which date to write.
    """
    max_age = ctx.options["max_age"]
    for record in claim_records(doc, ctx.workspace.profile.name):
        if record.place.present or record.place.archived:
            continue
        for piece in record.pieces:
            for statement in dated_statements(piece.text):
                days = (ctx.today - statement.date).days
                if days <= 0 or (not statement.deadline and days <= max_age):
                    continue
                line, column = piece.locate(statement.start, statement.text)
                violation = StaleStatement(quote(statement.text, piece.inline_code), days, statement.deadline, record.place.name)
                yield Problem(line, column, violation.message, json_path=piece.json_path)


# -- invalid-expiry -------------------------------------------------------------------


@dataclass(frozen=True)
class ExpiresOutsideMetadata:
    name: str

    @property
    def message(self) -> str:
        return (
            f"`{self.name}` is at the top level of the front matter; gish reads `metadata.expires`, "
            "so move it under `metadata:`"
        )


@dataclass(frozen=True)
class ExpiryNotAString:
    json_path: str
    kind: str  # "empty", "int", "a mapping", ...

    @property
    def message(self) -> str:
        return f"{self.json_path} is {self.kind}, not a date (YYYY-MM-DD)"


@dataclass(frozen=True)
class ExpiryNotADate:
    json_path: str
    shown: str | None  # the value, when it is short and date-like; anything else could be pasted by mistake

    @property
    def message(self) -> str:
        echo = f"'{self.shown}' " if self.shown is not None else ""
        return f"{self.json_path} " + f"{echo}is not a date (YYYY-MM-DD)".replace("  ", " ")


@dataclass(frozen=True)
class ImpossibleExpiry:
    json_path: str
    value: str

    @property
    def message(self) -> str:
        return f"{self.json_path} {self.value} is an impossible date"


@dataclass(frozen=True)
class ExpiryBeforeRecord:
    json_path: str
    value: str
    record_date: dt.date

    @property
    def message(self) -> str:
        return f"{self.json_path} {self.value} is before the record's own date ({self.record_date.isoformat()})"


@dataclass(frozen=True)
class ExpiryTooFarAhead:
    json_path: str
    value: str
    days_ahead: int
    max_ttl: int

    @property
    def message(self) -> str:
        return f"{self.json_path} {self.value} is {self.days_ahead} days ahead; at most {self.max_ttl} are allowed (max_ttl)"


@rule(
    code="MW303",
    name="invalid-expiry",
    severity=Severity.ERROR,
    kinds=CLAIM_KINDS,
    options={"max_ttl": MAX_TTL},
    records=True,
)
def invalid_expiry(doc, ctx):
    """An `expires` that is not a date, comes before the record's own date, or lies more than `max_ttl` days ahead.

    ## What it does
    Checks each `expires`: it must be a real `YYYY-MM-DD` date, not earlier
    than the record's own date (an episode's `ts` or `date`, a note's
    `updated`, a facts mapping's `last_updated`/`updated`/`date`), and not more
    than `max_ttl` days (default 365) after today. In a gish note, an
    `expires` at the top level of the front matter is reported too: gish
    reads `metadata.expires`, so the top-level one is never seen.

    ## Why
    An expiry that cannot be parsed, or that lies years ahead, silences the
    negative-claim check without ever bringing the claim back for review.
    One before the record's own date is a typo that makes the record look
    stale from the day it was written.

    ## Example
    ```json
    {"ts": "2026-03-01T10:00:00+08:00", "summary": "No ARM build exists", "expires": "2099-01-01", "type": "decision", ...}
    ```
    With `--today 2026-03-01`:
    `memory/episodic.jsonl:1:71: MW303 invalid-expiry $.expires 2099-01-01 is 26604 days ahead; at most 365 are allowed (max_ttl)`

    ## Fix safety
    No fix: the right date is the author's to choose.
    """
    max_ttl = ctx.options["max_ttl"]
    for place in expiry_places(doc, ctx.workspace.profile.name):
        checks = [(place.value, place.location, place.json_path)] if place.value is not MISSING else []
        checks += [(value, location, "$." + name) for name, value, location in place.stray]
        for name, _, location in place.stray:
            yield Problem(location[0], location[1], ExpiresOutsideMetadata(name).message, json_path="$." + name)
        for value, location, json_path in checks:
            violation = _expiry_violation(json_path, value, place.record_date, ctx.today, max_ttl)
            if violation is not None:
                yield Problem(location[0], location[1], violation.message, json_path=json_path)


def _expiry_violation(json_path: str, value, record_date: dt.date | None, today: dt.date, max_ttl: int):
    if not isinstance(value, str):
        kind = "empty" if value is None else type(value).__name__
        if isinstance(value, (dict, list)):
            kind = "a mapping" if isinstance(value, dict) else "a list"
        return ExpiryNotAString(json_path, kind)
    shown = value.strip()
    if not is_date_shaped(shown):
        plain = len(shown) <= 32 and re.fullmatch(r"[0-9A-Za-z :/.+-]*", shown)
        return ExpiryNotADate(json_path, shown if plain else None)
    date = parse_date(shown)
    if date is None:
        return ImpossibleExpiry(json_path, shown)
    if record_date is not None and date < record_date:
        return ExpiryBeforeRecord(json_path, shown, record_date)
    ahead = (date - today).days
    if ahead > max_ttl:
        return ExpiryTooFarAhead(json_path, shown, ahead, max_ttl)
    return None

"""OpenClaw's workspace conventions, as its own documentation states them.

misnamed-daily-note (MW113), leftover-bootstrap (MW114) and user-directive-metadata (MW115). The sources,
openclaw/openclaw's docs:
concepts/agent-workspace.md at commit 013c24e74a26 ("memory/YYYY-MM-DD.md: daily memory log (one file
per day)"; "BOOTSTRAP.md: one-time first-run ritual ... delete it after the ritual is complete"), and as
docs.openclaw.ai publishes them in 2026, concepts/memory.md (today's and yesterday's notes,
memory/YYYY-MM-DD.md or memory/YYYY-MM-DD-<slug>.md, load at session start) and start/bootstrapping.md
("removes BOOTSTRAP.md when finished so it only runs once"); the templates in docs/reference/templates/:
AGENTS.md at commit 01345ea88e99 ("If BOOTSTRAP.md exists ... Follow it, figure out who you are, then
delete it") and BOOTSTRAP.md at commit 0afa47d5b0bf ("When you are done: delete this file");
concepts/user-model.md at commit 00f00ec4e5ce ("Each entry has a metadata line followed by one imperative
directive", `<!-- observed: 2026-07-27 | status: active -->`, "Use only `active` or `superseded` for status").
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import posixpath
import re
from dataclasses import dataclass

from memwarden.documents.scan import comment_spans
from memwarden.model import Option, Problem, Severity
from memwarden.registry import rule
from memwarden.text import quoted, quoted_path
from memwarden.patterns import LazyPattern

OPENCLAW = "openclaw"
DAILY_FOLDER = "memory"
# The names OpenClaw reads by date: memory/YYYY-MM-DD.md, and memory/YYYY-MM-DD-<slug>.md beside it.
_DAILY_NAME = LazyPattern(r"(?P<date>\d{4}-\d{2}-\d{2})(?P<slug>-.+)?\.md")
# A date written another way at the start of a name: 2026_11_29, 2026.11.29, 20261129, 2026-1-5 (year first),
# 29-11-2026 or 11.29.2026 (year last), each maybe followed by a slug.
_YEAR_FIRST = LazyPattern(r"(?P<y>(?:19|20)\d{2})(?P<sep>[-_.]?)(?P<m>\d{1,2})(?P=sep)(?P<d>\d{1,2})(?P<rest>(?:[-_ .].*)?)\.md")
_YEAR_LAST = LazyPattern(r"(?P<a>\d{1,2})(?P<sep>[-_.])(?P<b>\d{1,2})(?P=sep)(?P<y>(?:19|20)\d{2})(?P<rest>(?:[-_ .].*)?)\.md")


def _day(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def daily_note_date(relpath: str) -> dt.date | None:
    """The day an OpenClaw daily note is for (memory/YYYY-MM-DD.md or memory/YYYY-MM-DD-<slug>.md), or None."""
    folder, name = posixpath.split(relpath)
    match = _DAILY_NAME.fullmatch(name) if folder == DAILY_FOLDER else None
    return dt.date.fromisoformat(match["date"]) if match and _valid(match["date"]) else None


def _valid(iso: str) -> bool:
    return _day(int(iso[:4]), int(iso[5:7]), int(iso[8:])) is not None


# -- misnamed-daily-note -----------------------------------------------------------------------------


@dataclass(frozen=True)
class NoSuchDay:
    written: str  # the date as the name writes it

    @property
    def message(self) -> str:
        return (f"{self.written} is no day of the calendar: OpenClaw loads today's and yesterday's daily notes by "
                "their names, so it never loads this one; rename it to the day it records (memory/YYYY-MM-DD.md)")


@dataclass(frozen=True)
class DateWrittenOtherwise:
    name: str  # the file's name
    proper: str  # memory/YYYY-MM-DD<rest>.md
    taken: bool = False  # a file of that name is there already: a rename would overwrite it

    @property
    def message(self) -> str:
        what = (f"merge it into {quoted_path(self.proper)}, which is there already" if self.taken
                else f"rename it to {quoted_path(self.proper)}")
        return (f"{quoted_path(self.name)} looks like a daily note, but OpenClaw loads today's and yesterday's "
                f"notes by the name memory/YYYY-MM-DD.md only: {what}")


def misnaming(relpath: str):
    """What is wrong with the name of a file in memory/ that is dated in its name, or None."""
    folder, name = posixpath.split(relpath)
    if folder != DAILY_FOLDER:
        return None
    proper = _DAILY_NAME.fullmatch(name)
    if proper:
        return None if _valid(proper["date"]) else NoSuchDay(proper["date"])
    found = _YEAR_FIRST.fullmatch(name)
    if found:
        month, day = found["m"], found["d"]
        if len(month) == len(day) == 2 and found["sep"] == "-":
            return None  # YYYY-MM-DD then something else than a slug: what OpenClaw makes of it is not written
        if not found["sep"] and len(month + day) != 4:
            return None  # 2026112: November 2nd or January 12th
        readings = {_day(int(found["y"]), int(month), int(day))} - {None}
    else:
        found = _YEAR_LAST.fullmatch(name)
        if not found:
            return None
        year, first, second = int(found["y"]), int(found["a"]), int(found["b"])
        # Day first (29-11-2026) or month first (11-29-2026): a rename only where the numbers allow one reading.
        readings = {_day(year, second, first), _day(year, first, second)} - {None}
    written = name[: found.start("rest")]
    if not readings:
        return NoSuchDay(written)
    if len(readings) > 1:
        return None  # 03-04-2026: March 4th or April 3rd
    rest = re.sub(r"^[_ .]", "-", found["rest"])
    return DateWrittenOtherwise(relpath, f"{DAILY_FOLDER}/{readings.pop().isoformat()}{rest}.md")


@rule(code="MW113", name="misnamed-daily-note", severity=Severity.WARNING, kinds=("note",))
def misnamed_daily_note(doc, ctx):
    """An OpenClaw daily note whose file name is not a real date written YYYY-MM-DD.

    ## What it does
    In an OpenClaw workspace, looks at the names of the Markdown files
    directly in `memory/`. A name that starts with a date written another
    way (`2026_11_29.md`, `20261129.md`, `2026-1-5.md`, `29-11-2026.md`) is
    reported with the name OpenClaw reads (`memory/2026-11-29.md`), or, when
    a note of that name is there already, as one to merge into it; a
    `YYYY-MM-DD` that is no day of the calendar (`2026-02-30.md`) is reported
    too. A slug after the date (`2026-11-29-printer.md`) is OpenClaw's own
    form and is fine; a date that reads both ways (`03-04-2026.md`) is not
    guessed at. Files in folders below `memory/` are left alone.

    ## Why
    OpenClaw keeps "one file per day" as `memory/YYYY-MM-DD.md` (or
    `memory/YYYY-MM-DD-<slug>.md`) and loads today's and yesterday's notes at
    the start of a session by those names (docs/concepts/agent-workspace.md,
    docs/concepts/memory.md). A note under any other name is never loaded
    that way: what the agent wrote down yesterday is not there today.

    ## Example
    `memory/2026_11_29.md:1:1: MW113 misnamed-daily-note 'memory/2026_11_29.md' looks like a daily note, but OpenClaw loads today's and yesterday's notes by the name memory/YYYY-MM-DD.md only: rename it to 'memory/2026-11-29.md'`

    ## Fix safety
    No fix: a rename changes the file's path, and memwarden fixes edit text;
    rename it with `git mv`.
    """
    if ctx.workspace.profile.name != OPENCLAW:
        return
    wrong = misnaming(doc.relpath)
    if isinstance(wrong, DateWrittenOtherwise) and wrong.proper in ctx.workspace.files:
        wrong = dataclasses.replace(wrong, taken=True)
    if wrong is not None:
        yield Problem(1, 1, wrong.message)


# -- leftover-bootstrap ------------------------------------------------------------------------------


@dataclass(frozen=True)
class LeftoverBootstrap:
    first_note: str
    days: int

    @property
    def message(self) -> str:
        days = f"{self.days} day{'' if self.days == 1 else 's'}"
        return (f"BOOTSTRAP.md is still here, {days} after the workspace's first daily note "
                f"({quoted_path(self.first_note)}): OpenClaw's first-run ritual deletes it when done, and while it "
                "exists the agent is told to follow it again; move what it learned into IDENTITY.md, USER.md "
                "and SOUL.md, then delete it")


# BOOTSTRAP.md as OpenClaw ships it ends "Delete this file." (and its translations say so): a BOOTSTRAP.md that asks
# nothing of the kind is the owner's own file, read every session on purpose (a context-recovery checklist).
_ASKS_TO_BE_DELETED = LazyPattern(
    r"\b(?:delete|remove)\s+(?:this\s+file|BOOTSTRAP\.md)\b"
    r"|BOOTSTRAP\.md\s+-\s+Hello,\s+World"
    r"|(?:删除|删掉|刪除)(?:这个|此|本|這個)?(?:文件|檔案)|(?:删除|刪除)\s*BOOTSTRAP"
    r"|ファイルを削除|파일을?\s*삭제"
    r"|\b(?:borra|elimina|borre|elimine)\s+este\s+archivo\b"
    r"|\b(?:apague|apaga|exclua|exclui|remova|delete)\s+este\s+arquivo\b"
    r"|\bsupprim\w*\s+ce\s+fichier\b|\bl(?:ö|oe)sche\w*\s+(?:Sie\s+)?diese\s+Datei\b"
    r"|удали\w*\s+(?:этот\s+)?файл",
    re.IGNORECASE)


def asks_to_be_deleted(text: str) -> bool:
    """Whether a BOOTSTRAP.md is the first-run ritual that deletes itself (OpenClaw's template, in any language)."""
    return _ASKS_TO_BE_DELETED.search(text) is not None


@rule(
    code="MW114",
    name="leftover-bootstrap",
    severity=Severity.WARNING,
    kinds=("agent-instructions",),
    options={"grace_days": Option(7, int, "days after the first daily note that BOOTSTRAP.md may still be there")},
)
def leftover_bootstrap(doc, ctx):
    """An OpenClaw BOOTSTRAP.md still present long after the workspace's first daily note.

    ## What it does
    In an OpenClaw workspace that has `BOOTSTRAP.md` at its root, finds the
    earliest daily note (`memory/YYYY-MM-DD.md`, or with a slug after the
    date) and reports `BOOTSTRAP.md` when that day lies `grace_days` (7 by
    default) or more before today (`--today` pins the date). A workspace with
    no daily note yet is still in its first run, and is left alone. Only the
    ritual is reported: a BOOTSTRAP.md that asks to be deleted when done, as
    OpenClaw's template does ("Delete this file.", in English, Chinese,
    Japanese, Korean, Spanish, Portuguese, French, German or Russian) or
    that keeps the template's "Hello, World" title. One that asks nothing of
    the kind is the owner's own file, kept on purpose (a checklist the agent
    reads every session).

    ## Why
    `BOOTSTRAP.md` is OpenClaw's one-time first-run ritual: "Delete it after
    the ritual is complete" (docs/concepts/agent-workspace.md); the
    bootstrapping page says OpenClaw "removes BOOTSTRAP.md when finished so
    it only runs once", and the AGENTS.md template tells the agent "If
    BOOTSTRAP.md exists ... follow it, figure out who you are, then delete
    it". One still here weeks later means the ritual never finished: it is
    injected with the other bootstrap files and the agent may start the
    "who am I?" conversation again.

    ## Example
    `BOOTSTRAP.md:1:1: MW114 leftover-bootstrap BOOTSTRAP.md is still here, 28 days after the workspace's first daily note ('memory/2026-11-02.md'): ...`

    ## Fix safety
    No fix: what the ritual learned belongs in IDENTITY.md, USER.md and
    SOUL.md first; deleting the file is the owner's call.
    """
    ws = ctx.workspace
    if ws.profile.name != OPENCLAW or doc.relpath != "BOOTSTRAP.md" or not asks_to_be_deleted(doc.text):
        return
    dated = sorted((day, relpath) for relpath in ws.files if (day := daily_note_date(relpath)) is not None)
    if not dated:
        return
    first_day, first_note = dated[0]
    days = (ctx.today - first_day).days
    if days >= ctx.options["grace_days"]:
        yield Problem(1, 1, LeftoverBootstrap(first_note, days).message)


# -- user-directive-metadata -------------------------------------------------------------------------

DIRECTIVE_STATUSES = ("active", "superseded")
# The metadata comment of a USER.md directive: `<!-- observed: 2026-07-27 | status: active -->`.
_METADATA = LazyPattern(r"\s*(?:observed|status)\s*:", re.IGNORECASE)
_ISO_DAY = LazyPattern(r"\d{4}-\d{2}-\d{2}")
_SPACE = LazyPattern(r"\s*")


@dataclass(frozen=True)
class BadDirectiveMetadata:
    problem: str  # what is wrong, in words

    @property
    def message(self) -> str:
        return (f"{self.problem}: OpenClaw's user model writes each directive as a metadata line "
                "`<!-- observed: YYYY-MM-DD | status: active -->` followed by one directive, status active or "
                "superseded")


def metadata_fields(comment: str) -> dict[str, str]:
    """The `key: value` pairs of a metadata comment's body (`observed: 2026-07-27 | status: active`)."""
    fields = {}
    for part in comment.split("|"):
        key, colon, value = part.partition(":")
        if colon:
            fields[key.strip().lower()] = value.strip()
    return fields


def directive_problems(text: str, today: dt.date):
    """(offset, what is wrong) for each directive metadata comment of a USER.md that OpenClaw's form rejects."""
    for start, end in comment_spans(text):
        body = text[start + 4 : end - 3 if text.endswith("-->", 0, end) else end]
        if not _METADATA.match(body):
            continue
        fields = metadata_fields(body)
        observed, status = fields.get("observed"), fields.get("status")
        if not observed:
            yield start, "no `observed:` date"
        elif not _ISO_DAY.fullmatch(observed) or not _valid(observed):
            yield start, f"observed {quoted(observed)} is not a day written YYYY-MM-DD"
        elif dt.date.fromisoformat(observed) > today:
            yield start, f"observed {observed} is after today"
        if not status:
            yield start, "no `status:`"
        elif status.lower() not in DIRECTIVE_STATUSES:
            yield start, f"status {quoted(status)} is neither active nor superseded"
        after = _SPACE.match(text, end).end()  # not text[end:]: a file of many comments stays linear
        if after == len(text) or text.startswith(("<!--", "#"), after):
            yield start, "no directive follows this metadata line"


@rule(code="MW115", name="user-directive-metadata", severity=Severity.WARNING, kinds=("agent-instructions",))
def user_directive_metadata(doc, ctx):
    """An OpenClaw USER.md directive whose metadata line is not `observed: <date> | status: active|superseded`.

    ## What it does
    In an OpenClaw workspace's `USER.md`, reads each HTML comment that
    starts with `observed:` or `status:`, the metadata line of a directive,
    and reports one with no `observed:` date, a date that is not a day
    written `YYYY-MM-DD` (or lies after today), no `status:`, a status other
    than `active` or `superseded`, or no directive after it (the end of the
    file, a heading or another metadata line). A USER.md written without
    metadata lines is left alone: the form is OpenClaw's advice, not a
    requirement.

    ## Why
    OpenClaw's user model (docs/concepts/user-model.md) keeps preferences
    as directives, "a metadata line followed by one imperative directive",
    and changes one by marking the old entry `superseded` beside its
    replacement. A status the agent cannot read leaves two directives that
    both look current, the contradiction the format exists to prevent; a
    missing date leaves no way to tell which preference is newer.

    ## Example
    ```markdown
    <!-- observed: 2026-07-27 | status: current -->

    - Prefer concise progress updates.
    ```
    `USER.md:1:1: MW115 user-directive-metadata status 'current' is neither active nor superseded: ...`

    ## Fix safety
    No fix: which status or date is right is the owner's call.
    """
    if ctx.workspace.profile.name != OPENCLAW or doc.relpath != "USER.md" or "<!--" not in doc.text:
        return
    for offset, problem in directive_problems(doc.text, ctx.today):
        line, column = doc.line_col(offset)
        yield Problem(line, column, BadDirectiveMetadata(problem).message)

"""Index budget: the startup index must fit in what the agent loads, or its newest lines are silently lost.

The measuring is :mod:`memwarden.analysis.budget` (pure), the finding and
reading :mod:`memwarden.discover.startup_index`, and the shelving fix
:mod:`memwarden.fixes.shelve`; `memwarden budget` uses the same three, so
`check` and the gauge always agree. Both budget rules declare the same
options as workspace settings (``budget.<name>``): set them under either
rule's table and both read one value. The preset follows the profile.
"""

from __future__ import annotations

from dataclasses import dataclass

from memwarden import registry
from memwarden.analysis import budget
from memwarden.analysis.budget import CutEntry, Gauge, Measurement, Settings, fmt
from memwarden.discover import startup_index
from memwarden.fixes.shelve import plan_shelving
from memwarden.model import Applicability, Fix, Option, Problem, Scope, Severity
from memwarden.registry import rule
from memwarden.text import excerpt, excerpt_words

DEFAULT_SHELF = "memory/knowledge/INDEX_overflow.md"

BUDGET_OPTIONS = {
    "preset": Option("auto", str, "gish, claude-code or codex; 'auto' follows the profile", setting="budget.preset"),
    "unit": Option("auto", str, "chars, utf16, bytes or lines; 'auto' takes the preset's", setting="budget.unit"),
    "max": Option(0, int, "the budget in the unit; 0 takes the preset's", setting="budget.max"),
    "edge": Option(0, int, "the truncation point in the unit; 0 takes the preset's", setting="budget.edge"),
    "total_edge": Option(0, int, "openclaw: the total of all bootstrap files (bootstrapTotalMaxChars); 0 takes 150,000",
                         setting="budget.total_edge"),
    "user_edge": Option(0, int, "openclaw: USER.md's own cap, which a lower edge lowers; 0 takes 4,000",
                        setting="budget.user_edge"),
    "shelf": Option(DEFAULT_SHELF, str, "the shelf index the unsafe fix moves entries into", setting="budget.shelf"),
}


def budget_options(config) -> dict:
    """The budget settings for a caller without a budget rule's context (index-missing, `memwarden budget`)."""
    return config.rule_options(registry.by_name_or_code("index-past-truncation"))


# -- violations ---------------------------------------------------------------------------


@dataclass(frozen=True)
class IndexOverBudget:
    measured: str  # the file, or the AGENTS.md chain
    used: int
    unit: str  # as shown: "chars", "UTF-16 units", ...
    budget: int
    edge: int
    preset: str

    @property
    def message(self) -> str:
        return (
            f"{self.measured} is {fmt(self.used)} {self.unit}, over its budget of {fmt(self.budget)} "
            f"({self.preset}; cut at {fmt(self.edge)}, {fmt(self.edge - self.used)} {self.unit} from now): "
            "shorten or shelve entries before adding one"
        )


@dataclass(frozen=True)
class IndexPastTruncation:
    measured: str
    used: int
    unit: str
    edge: int
    preset: str
    cut: tuple[CutEntry, ...]  # the entries (or, in a file without entries, the lines) past the edge
    other_cut_lines: int
    first_cut_line: int  # where the cut starts, when no entry is cut
    keeps_tail: bool = False  # OpenClaw cuts a file's middle: its first 70% and last 20% are loaded

    @property
    def message(self) -> str:
        head = (
            f"{self.measured} is {fmt(self.used)} {self.unit}, "
            f"{'at' if self.used == self.edge else 'past'} the truncation point of "
            f"{fmt(self.edge)} ({self.preset})"
        )
        cut = self.cut
        if not cut and self.other_cut_lines == 0:
            return f"{head}: nothing is cut yet, but the next line added will be"
        shown = [_shown(entry) for entry in cut[:3]]
        more = len(cut) - len(shown)
        number = len(cut) if cut else self.other_cut_lines
        noun = ("entry" if number == 1 else "entries") if cut and (cut[0].triggers or cut[0].title) else (
            "line" if number == 1 else "lines"
        )
        if self.keeps_tail and cut:
            tail = (
                f"{number} {noun} in the middle, lines {cut[0].line}-{cut[-1].line}, "
                f"{'is' if number == 1 else 'are'} never loaded (its first 70% and last 20% are)"
            )
        else:
            tail = (
                f"{number} {noun} from line {cut[0].line if cut else self.first_cut_line} on "
                f"{'is' if number == 1 else 'are'} never loaded"
            )
        if shown:
            tail += ": " + "; ".join(shown) + (f"; and {more} more" if more > 0 else "")
        return f"{head}: {tail}"


def _shown(entry: CutEntry) -> str:
    """A cut entry as the message names it: its file name whole, its title (or line) cut between words."""
    if entry.target and not entry.triggers:
        name = excerpt_words(entry.target, 120)
        return f"[{excerpt_words(entry.title, max(16, 64 - len(name)), longest=24)}]({name})"
    return excerpt_words(entry.label(), 64)


@dataclass(frozen=True)
class ShelveEntries:
    """The unsafe fix both budget rules offer."""

    lines: tuple[int, ...]  # of the moved entries, in the index
    shelf: str
    index: str

    @property
    def fix_title(self) -> str:
        count = len(self.lines)
        shown = ", ".join(str(line) for line in self.lines[:8]) + (" ..." if count > 8 else "")
        return (
            f"move {count} entr{'y' if count == 1 else 'ies'} (line{'s' if count > 1 else ''} {shown}) to {self.shelf} "
            f"and point to it from {self.index}"
        )


@dataclass(frozen=True)
class IndexMissing:
    path: str
    codex: bool  # the codex preset: the AGENTS.md chain is missing
    gish: bool  # a ghost-in-shell workspace, where `gish init` writes one

    @property
    def message(self) -> str:
        if self.codex:
            return "no AGENTS.md from the repository root down to this folder: Codex starts every session without one"
        if self.gish:
            return (
                f"no {self.path} at the workspace root: every session starts without a startup index, so no trigger "
                "leads it to a note (`gish init` writes a first index)"
            )
        return (
            f"no {self.path} at the workspace root: the agent loads nothing at start-up and finds none of the memory files"
        )


# -- shared by the rules ------------------------------------------------------------------


def _settings(ctx, options: dict) -> Settings:
    ws = ctx.workspace
    return startup_index.resolve_settings(options, ws.profile.name, ws.root)


def _where(measurement: Measurement, at: tuple[int, int] | None, gauge: Gauge | None = None) -> tuple[str, int]:
    """The file to report on (the last one measured: the one the user edits; the gauge's own file when each
    file has one) and the line in it."""
    own = [n for n, source in enumerate(measurement.sources) if gauge is not None and source.relpath == gauge.label]
    if own:
        return measurement.sources[own[0]].relpath, at[1] if at is not None and at[0] == own[0] else 1
    last = len(measurement.sources) - 1
    path = measurement.sources[last].relpath
    if at is not None and at[0] == last:
        return path, at[1]
    return path, 1


def _measured(measurement: Measurement) -> str:
    sources = measurement.sources
    if len(sources) > 1:
        return f"the AGENTS.md chain ({len(sources)} files, root first)"
    return sources[0].relpath


def _shelving_fix(ctx, settings: Settings, measurement: Measurement) -> Fix | None:
    if settings.preset.chain or settings.preset.rules_file or len(measurement.sources) != 1:
        return None
    index = measurement.sources[0]
    plan = plan_shelving(ctx.workspace, settings, index, ctx.options["shelf"] or DEFAULT_SHELF)
    if plan is None:
        return None
    title = ShelveEntries(tuple(entry.line for entry in plan.moved), plan.shelf, index.relpath).fix_title
    return Fix(Applicability.UNSAFE, title, tuple(plan.edits))


def _measure(ctx, status: int) -> list[tuple[Settings, Measurement, Gauge]]:
    """Each measurement at the status: the profile's startup index, and Codex's AGENTS.md chain.

    Every file is measured with the preset of the agent that loads it. The chain is measured on its
    own when the workspace root holds an AGENTS file and the profile's preset is another (and no
    preset is set: a chosen preset is the only one measured). CLAUDE.md and GEMINI.md are loaded
    whole, with no documented cut, so nothing measures them.
    """
    found = []
    for measurement in startup_index.startup_measurements(ctx.workspace, ctx.options):
        # OpenClaw cuts each bootstrap file on its own, and all of them at a total: each gauge is a finding.
        gauges = measurement.gauges if measurement.settings.preset.per_file else [measurement.worst]
        found.extend((measurement.settings, measurement, gauge) for gauge in gauges
                     if gauge is not None and gauge.status == status)
    return found


# -- rules --------------------------------------------------------------------------------


@rule(
    code="MW501",
    name="index-over-budget",
    severity=Severity.WARNING,
    scope=Scope.WORKSPACE,
    fix=Applicability.UNSAFE,
    options=BUDGET_OPTIONS,
)
def index_over_budget(ctx):
    """The startup index is at or over its budget, though nothing is cut yet.

    ## What it does
    Measures the startup index the way its agent loads it (the preset follows
    the profile: `gish` counts characters of MEMORY.md against 20,000, or
    `index.max_chars` in `.gish/config.yml`; `claude-code` counts UTF-16 units
    and lines of MEMORY.md without front matter and HTML comments; `codex`
    counts UTF-8 bytes of the AGENTS.md files from the repository root down;
    three-layer and agent-instructions workspaces take `codex`) and reports
    when the size is at or over the budget (`size >= max`) but still below
    the truncation point (`size < edge`). A workspace whose root holds an
    AGENTS.md (or `AGENTS.override.md`, `Agents.md`) has that chain measured
    with `codex` as well, unless a preset is set. Each Windsurf rules file
    (`.windsurfrules`, `.windsurf/rules/*.md`) is measured alone against
    Windsurf's documented 12,000 characters (`windsurf`: budget 10,800), with
    no fix. CLAUDE.md, GEMINI.md and the other agents' rules files are loaded
    whole, with no documented cut, and are not measured.
    `memwarden budget` prints the same numbers as a gauge.

    Options, under this rule's table or `index-past-truncation`'s: `preset`
    (`gish`, `claude-code`, `codex`, `auto`), `unit` (`chars`, `utf16`,
    `bytes`, `lines`, `auto`), `max` and `edge` (0 = the preset's), `shelf`.

    ## Why
    Every line of the startup index is paid for in every session, and agents
    cut the file at a fixed size without a word. The budget leaves room
    between "getting long" and "the newest lessons are silently gone".

    ## Example
    A MEMORY.md of 21,034 characters in a gish workspace:
    `MEMORY.md:212:1: MW501 index-over-budget MEMORY.md is 21,034 chars, over its budget of 20,000 ...`

    ## Fix safety
    Unsafe, opt-in (`--fix --unsafe-fixes`): moves entries from the startup
    index into a shelf index (`shelf`, default
    `memory/knowledge/INDEX_overflow.md`, created when missing) until the index
    is within budget: first every line marked `<!-- memwarden-shelve -->`, then
    the last entries. Links are rewritten relative to the shelf, a pointer line
    to the shelf is added (under a "Shelves" heading when there is one), and no
    entry is ever dropped. Entries that point at shelf indexes stay. Unsafe
    because which lessons the agent stops seeing at start-up is a judgment: the
    moved ones are found only when the agent opens the shelf. No fix when the
    profile has no shelf index (claude-code) or when moving every entry would
    still not fit.
    """
    for settings, measurement, gauge in _measure(ctx, budget.OVER):
        path, line = _where(measurement, gauge.first_over_line, gauge)
        violation = IndexOverBudget(
            gauge.label or _measured(measurement), gauge.used, budget.UNIT_NAMES[gauge.limit.unit], gauge.limit.max,
            gauge.limit.edge, settings.preset.name,
        )
        yield Problem(line, 1, violation.message, path=path, fix=_shelving_fix(ctx, settings, measurement))


@rule(
    code="MW502",
    name="index-past-truncation",
    severity=Severity.ERROR,
    scope=Scope.WORKSPACE,
    fix=Applicability.UNSAFE,
    options=BUDGET_OPTIONS,
)
def index_past_truncation(ctx):
    """The startup index reaches its truncation point: the agent never sees its last lines.

    ## What it does
    Measures the startup index like `index-over-budget` and reports when the
    size is at or past the truncation point (`size >= edge`), naming the
    entries that fall past it, with their lines: gish cuts MEMORY.md at about
    24,400 characters (`index.truncate_edge_chars`), Claude Code after 200
    lines or 25,000 UTF-16 units, Codex at 32,768 bytes of AGENTS.md, OpenClaw
    each bootstrap file (AGENTS.md, SOUL.md, USER.md ... MEMORY.md) at
    20,000 UTF-16 units, keeping its first 70% and last 20% (the lines between
    are named), USER.md at 4,000 (`user_edge`; OpenClaw 2026.8 on), and all of
    them at 150,000 (`total_edge`): one finding a file;
    Windsurf each rules file at 12,000 characters.

    ## Why
    The cut is silent, and it takes the end of the file: the lines added last,
    which hold the newest lessons. The agent goes on to repeat exactly the
    mistakes the memory was written to prevent.

    ## Example
    `MEMORY.md:230:1: MW502 index-past-truncation MEMORY.md is 25,210 chars, past the truncation point of 24,400: 3 entries from line 230 on are never loaded ...`

    ## Fix safety
    Unsafe, opt-in: the same move to a shelf index as `index-over-budget`,
    until the index is back within its budget (none for a Windsurf rules file).
    """
    for settings, measurement, gauge in _measure(ctx, budget.PAST):
        path, line = _where(measurement, gauge.first_cut_line, gauge)
        violation = IndexPastTruncation(
            gauge.label or _measured(measurement), gauge.used, budget.UNIT_NAMES[gauge.limit.unit], gauge.limit.edge,
            settings.preset.name, tuple(gauge.past_edge), gauge.other_cut_lines, line,
            keeps_tail=settings.preset.per_file and any(src.relpath == gauge.label for src in measurement.sources),
        )
        yield Problem(line, 1, violation.message, path=path, fix=_shelving_fix(ctx, settings, measurement))


@rule(code="MW503", name="index-missing", severity=Severity.ERROR, scope=Scope.WORKSPACE)
def index_missing(ctx):
    """The workspace has no startup index.

    ## What it does
    Reports a ghost-in-shell or claude-code workspace without its MEMORY.md
    (or, with `preset = "codex"` set, a folder with no AGENTS.md from the
    repository root down). The three-layer profile has no startup index of
    its own, so nothing is reported there unless a preset is configured.

    ## Why
    The startup index is how every session finds its notes. Without it the
    notes are still on disk, but no session will ever open them.

    ## Example
    `MEMORY.md:1:1: MW503 index-missing no MEMORY.md at the workspace root ...`

    ## Fix safety
    No fix: `gish init` (ghost-in-shell) or the agent itself writes a first
    index; memwarden does not invent one.
    """
    ws = ctx.workspace
    settings = _settings(ctx, budget_options(ws.config))
    if ws.profile.kind("startup-index") is None and not settings.explicit_preset:
        return
    measurement = startup_index.measure(ws, settings)
    if measurement.found:
        return
    path = measurement.expected[0] if measurement.expected else "MEMORY.md"
    violation = IndexMissing(path, settings.preset.chain, ws.profile.name == "ghost-in-shell")
    yield Problem(1, 1, violation.message, path=path)

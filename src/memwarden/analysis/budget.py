"""Measuring a startup index against the budget its agent loads, and what falls past the edge.

An agent loads its startup index into every session, up to a limit, and
silently drops the rest: the newest lines, which hold the newest lessons.
This module measures text the way each agent does and says, for every limit,
how much is used and which entries are cut. It is pure: the files are found
and read by :mod:`memwarden.discover.startup_index`, and `memwarden budget`
and the rules `index-over-budget`, `index-past-truncation` and `index-missing`
all go through it, so the command and `memwarden check` always agree.

Units: ``chars`` (Unicode code points), ``utf16`` (UTF-16 code units: an
emoji is 2), ``bytes`` (UTF-8), ``lines``.

Presets:

- ``gish``: 20,000 chars budget, cut at 24,400 (a workspace's
  ``.gish/config.yml`` may set other numbers; the discover side reads them).
  Counted as gish counts, reading the file as Python text: a CRLF line end
  is one character, a UTF-8 BOM is one character.
- ``claude-code``: Claude Code loads the first 200 lines and at most 25,000
  UTF-16 units of MEMORY.md, after stripping front matter and HTML comments.
  Those are the edges; the budgets are 90% of them (180 lines, 22,500 units)
  so there is room to notice before anything is cut. Both limits are
  measured and the worse one is reported.
- ``codex``: Codex CLI reads every ``AGENTS.md`` from the git repository root
  down to the working directory (``AGENTS.override.md`` instead, where a
  folder has one) and stops at 32,768 UTF-8 bytes in total. Edge 32,768,
  budget 90% of it (29,491).

The preset follows the profile: ghost-in-shell -> gish, claude-code ->
claude-code, three-layer and agent-instructions -> codex (their
instruction files are read by the agent, and AGENTS.md is the one with a
documented size limit: Claude Code reads CLAUDE.md and Gemini CLI GEMINI.md
whole; neither profile has a startup index of its own). A workspace of
another profile with an AGENTS.md at its root has that chain measured with
the codex preset too (see :mod:`memwarden.rules.budget`).

The status of a size against a limit: **within budget** when ``size < max``,
**over budget** when ``max <= size < edge``, **past the edge** when
``size >= edge`` (at the edge, the next thing added is cut). Exit codes and
rule findings follow the status: 0, 1, 2; 3 when there is no index.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from memwarden.decoding import decode
from memwarden.agent_files import WINDSURF_LIMIT
from memwarden.documents.scan import comment_spans, front_matter_end
from memwarden.errors import UsageError
from memwarden.text import excerpt

UNITS = ("chars", "utf16", "bytes", "lines")
UNIT_NAMES = {"chars": "chars", "utf16": "UTF-16 units", "bytes": "bytes", "lines": "lines"}

# A status is also the exit code of `memwarden budget`.
WITHIN, OVER, PAST, MISSING = 0, 1, 2, 3
STATUS_NAMES = {WITHIN: "within-budget", OVER: "over-budget", PAST: "past-edge", MISSING: "missing"}


@dataclass(frozen=True)
class Limit:
    unit: str
    max: int  # the budget: at or over it, compress before adding
    edge: int  # the truncation point: at or past it, content is cut


@dataclass(frozen=True)
class Preset:
    name: str
    limits: tuple[Limit, ...]  # the first is the primary one
    strip: bool  # front matter and HTML comments are removed before measuring
    chain: bool  # the AGENTS.md files from the repository root down, summed
    description: str
    # gish reads MEMORY.md as Python text (`read_text(encoding="utf-8")`): newlines translated, so a
    # CRLF line end is one character, and a UTF-8 BOM kept, so it is one character too.
    reads_as_python_text: bool = False
    # OpenClaw: each bootstrap file against the first limit, and all of them against the second (see openclaw_gauges).
    per_file: bool = False
    # An agent's rules file measured alone against its documented limit (Windsurf): not an index, no shelf to move to.
    rules_file: bool = False


# OpenClaw's bootstrap limits (src/agents/pi-embedded-helpers/bootstrap.ts at commit 004e91311b55): each file is
# cut at bootstrapMaxChars, keeping its first 70% and last 20% around a marker; all of them share
# bootstrapTotalMaxChars, and a file that finds less than 64 left is not injected. Lengths are JavaScript string
# lengths (UTF-16 units) of the text with its trailing white space trimmed.
OPENCLAW_FILE_CHARS = 20_000
# USER.md has its own cap, which bootstrapMaxChars can lower but not raise (OpenClaw's docs/concepts/user-model.md,
# "Keep it compact", at commit 00f00ec4e5ce; src/agents/bootstrap-budget.ts effectiveBootstrapFileLimit:
# min(bootstrapMaxChars, USER_BOOTSTRAP_MAX_CHARS) for a file named user.md in any case). Not in OpenClaw
# 2026.5.28; in the 2026.8.1 betas on (as inspections of the published packages report; the changelog was not
# found). The same newer versions lower the bootstrapTotalMaxChars default to 60,000 and split a cut file
# 75/25 after the marker: this preset still follows 004e91311b55 for those.
OPENCLAW_USER_CHARS = 4_000
OPENCLAW_USER_FILE = "user.md"
OPENCLAW_TOTAL_CHARS = 150_000
OPENCLAW_HEAD_RATIO = 0.7
OPENCLAW_TAIL_RATIO = 0.2
OPENCLAW_MIN_FILE_BUDGET = 64


def _ninety(edge: int) -> int:
    return edge * 9 // 10


PRESETS: dict[str, Preset] = {
    "gish": Preset(
        "gish", (Limit("chars", 20_000, 24_400),), False, False,
        "Ghost In Shell: MEMORY.md in characters (.gish/config.yml index.max_chars / truncate_edge_chars)",
        reads_as_python_text=True,
    ),
    "claude-code": Preset(
        "claude-code", (Limit("utf16", 22_500, 25_000), Limit("lines", 180, 200)), True, False,
        "Claude Code: first 200 lines and 25,000 UTF-16 units of MEMORY.md, front matter and HTML comments stripped",
    ),
    "codex": Preset(
        "codex", (Limit("bytes", 29_491, 32_768),), False, True,
        "Codex CLI: 32,768 UTF-8 bytes summed over AGENTS.md from the repository root down",
    ),
    "openclaw": Preset(
        "openclaw",
        (Limit("utf16", _ninety(OPENCLAW_FILE_CHARS), OPENCLAW_FILE_CHARS),
         Limit("utf16", _ninety(OPENCLAW_TOTAL_CHARS), OPENCLAW_TOTAL_CHARS)),
        False, False,
        "OpenClaw: each bootstrap file cut at 20,000 chars (bootstrapMaxChars), USER.md at 4,000, all of them at "
        "150,000 (bootstrapTotalMaxChars), in UTF-16 units",
        per_file=True,
    ),
    "windsurf": Preset(
        "windsurf", (Limit("chars", _ninety(WINDSURF_LIMIT.chars), WINDSURF_LIMIT.chars),), False, False,
        f"Windsurf: each rules file (.windsurfrules, .windsurf/rules/*.md) cut at {WINDSURF_LIMIT.chars:,} characters "
        f"({WINDSURF_LIMIT.source})",
        rules_file=True,
    ),
}
PROFILE_PRESETS = {
    "ghost-in-shell": "gish", "claude-code": "claude-code", "three-layer": "codex", "agent-instructions": "codex",
    "plain-notes": "codex", "openclaw": "openclaw",
}

def size(text: str, unit: str) -> int:
    """The size of text in a unit."""
    if unit == "chars":
        return len(text)
    if unit == "utf16":
        return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)
    if unit == "bytes":
        return len(text.encode("utf-8", "surrogatepass"))
    if unit == "lines":
        return text.count("\n") + (1 if text and not text.endswith("\n") else 0)
    raise ValueError(f"unknown unit {unit!r}")


def status_of(used: int, limit: Limit) -> int:
    if used >= limit.edge:
        return PAST
    if used >= limit.max:
        return OVER
    return WITHIN


# -- settings ---------------------------------------------------------------------


@dataclass
class Settings:
    preset: Preset
    limits: tuple[Limit, ...]
    notes: list[str] = field(default_factory=list)
    explicit_preset: bool = False
    user_limit: Limit | None = None  # openclaw: USER.md's own cap, where it is below the per-file limit


def file_limit(settings: Settings, relpath: str) -> Limit:
    """The per-file limit of an OpenClaw bootstrap file: USER.md's own cap where that is the lower."""
    per_file, user = settings.limits[0], settings.user_limit
    if user is None or relpath.rsplit("/", 1)[-1].lower() != OPENCLAW_USER_FILE or user.edge >= per_file.edge:
        return per_file
    return Limit(per_file.unit, min(per_file.max, user.max), user.edge)


def _positive_option(options: dict, name: str) -> int | None:
    value = options.get(name) or None
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value <= 0):
        raise UsageError(f"budget {name} must be a positive whole number, not {value!r}")
    return value


def _set(value) -> bool:
    return value not in (None, "", "auto")


def choose_preset(options: dict, profile_name: str, preset: str | None = None) -> tuple[Preset, bool]:
    """The preset to measure with (the flag over the option over the profile's), and whether one was asked for."""
    name = preset or (options.get("preset") if _set(options.get("preset")) else None)
    explicit = name is not None
    name = name or PROFILE_PRESETS.get(profile_name, "gish")
    if name not in PRESETS:
        raise UsageError(f"unknown budget preset '{name}'; choose one of {', '.join(PRESETS)}")
    return PRESETS[name], explicit


def resolve(
    chosen: Preset,
    limits: tuple[Limit, ...],
    options: dict,
    *,
    explicit: bool = False,
    notes: list[str] | None = None,
    unit: str | None = None,
    max_: int | None = None,
    edge: int | None = None,
) -> Settings:
    """The limits to measure with: flags over options over the preset's limits (or the workspace's own)."""
    notes = list(notes or [])
    unit = unit or (options.get("unit") if _set(options.get("unit")) else None)
    max_ = max_ or options.get("max") or None
    edge = edge or options.get("edge") or None
    if unit is not None and unit not in UNITS:
        raise UsageError(f"unknown unit '{unit}'; choose one of {', '.join(UNITS)}")
    for label, value in (("max", max_), ("edge", edge)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value <= 0):
            raise UsageError(f"budget {label} must be a positive whole number, not {value!r}")
    if unit or max_ or edge:
        unit = unit or limits[0].unit
        base = next((limit for limit in limits if limit.unit == unit), None)
        if base is None:
            base = limits[0]
            if not (max_ and edge):
                notes.append(
                    f"the {chosen.name} preset has no {unit} limit; its {base.unit} numbers are used as {unit}"
                )
        max_ = max_ or min(base.max, edge or base.max)
        edge = edge or max(base.edge, max_)
        # OpenClaw's total stays: the numbers given are bootstrapMaxChars's, the per-file limit.
        limits = (Limit(unit, max_, edge),) + (limits[1:] if chosen.per_file else ())
    user_limit = None
    if chosen.per_file:
        total_edge = _positive_option(options, "total_edge")
        if total_edge:
            limits = limits[:1] + (Limit(limits[0].unit, _ninety(total_edge), total_edge),)
        user_edge = _positive_option(options, "user_edge") or OPENCLAW_USER_CHARS
        user_limit = Limit(limits[0].unit, _ninety(user_edge), user_edge)
    for limit in limits:
        if limit.max > limit.edge:
            raise UsageError(f"the budget ({limit.max:,}) is above the truncation point ({limit.edge:,})")
    return Settings(chosen, limits, notes, explicit, user_limit)


# -- what is measured -------------------------------------------------------------


@dataclass
class Source:
    relpath: str  # relative to the workspace root, '/'-separated (../ for files above it)
    text: str
    index: object | None = None  # an IndexDocument when the file is read as an index
    decoded: bool = True
    bom: bool = False  # the file starts with a UTF-8 byte order mark (text has it removed)


def read_source(relpath: str, raw: bytes) -> Source:
    """A file's bytes as the agent reads them: decoded (replacing what is not text), its BOM noted."""
    text, _, bom, _ = decode(raw)
    decoded = text is not None
    if text is None:
        text = raw.decode("utf-8", "replace")
    return Source(relpath, text, None, decoded, bom=bom == b"\xef\xbb\xbf")


@dataclass(frozen=True)
class Segment:
    """One source line as the agent counts it (front matter and comments already removed)."""

    source: int
    line: int
    text: str  # with its line ending


@dataclass(frozen=True)
class CutEntry:
    path: str
    line: int
    triggers: tuple[str, ...] = ()
    title: str = ""
    target: str = ""
    text: str = ""  # a plain line, when the file has no index entries
    partial: bool = False

    def label(self) -> str:
        if self.triggers:
            return " / ".join(f'"{t}"' for t in self.triggers) + (f" → {self.title}" if self.title else "")
        if self.title:
            return f"[{self.title}]({self.target})" if self.target else self.title
        return self.text

    def to_json(self) -> dict:
        data: dict = {"path": self.path, "line": self.line}
        if self.triggers:
            data["triggers"] = list(self.triggers)
        if self.title or self.target:
            data["title"] = self.title
            data["target"] = self.target
        if self.text:
            data["text"] = self.text
        data["partial"] = self.partial
        return data


@dataclass
class Gauge:
    limit: Limit
    used: int
    status: int
    first_over_line: tuple[int, int] | None  # (source, line) of the first line at or over the budget
    first_cut_line: tuple[int, int] | None  # (source, line) of the first line past the edge
    past_edge: list[CutEntry]
    other_cut_lines: int  # lines past the edge that are not entries
    label: str = ""  # what was measured, when a measurement has a gauge for each file (openclaw)

    @property
    def headroom(self) -> int:
        return self.limit.max - self.used

    @property
    def to_edge(self) -> int:
        return self.limit.edge - self.used


@dataclass
class Measurement:
    settings: Settings
    sources: list[Source]
    expected: list[str]  # what was looked for, when nothing was found
    gauges: list[Gauge] = field(default_factory=list)

    @property
    def found(self) -> bool:
        return bool(self.sources)

    @property
    def worst(self) -> Gauge | None:
        if not self.gauges:
            return None
        return max(self.gauges, key=lambda g: (g.status, g.used / g.limit.edge))

    @property
    def exit_code(self) -> int:
        worst = self.worst
        return MISSING if worst is None else worst.status


def segments(text: str, source: int, strip: bool, *, python_text: bool = False, bom: bool = False) -> list[Segment]:
    """The lines of text as the agent counts them.

    python_text: as Python's text mode reads the file (gish): a CRLF line end counts as one
    character and a UTF-8 BOM as one more, at the start of the first line.
    """
    out = _segments(text, source, strip)
    if not python_text:
        return out
    read = [Segment(seg.source, seg.line, seg.text.replace("\r\n", "\n")) for seg in out]
    if bom and read:
        read[0] = Segment(read[0].source, read[0].line, "\ufeff" + read[0].text)
    return read


def _segments(text: str, source: int, strip: bool) -> list[Segment]:
    if not text:
        return []
    keep: list[tuple[int, int]] = [(0, len(text))]
    if strip:
        removed = []
        end = front_matter_end(text)
        if end:
            removed.append((0, end))
        removed.extend((a + end, b + end) for a, b in comment_spans(text[end:]))
        keep = []
        cursor = 0
        for a, b in sorted(removed):
            if a > cursor:
                keep.append((cursor, a))
            cursor = max(cursor, b)
        if cursor < len(text):
            keep.append((cursor, len(text)))
    out: list[Segment] = []
    line_starts = [0]
    index = text.find("\n")
    while index != -1:
        line_starts.append(index + 1)
        index = text.find("\n", index + 1)
    span_index = 0
    for number, start in enumerate(line_starts, 1):
        end = line_starts[number] if number < len(line_starts) else len(text)
        if start >= end:
            continue
        original = text[start:end]
        if not strip:
            out.append(Segment(source, number, original))
            continue
        pieces = []
        while span_index < len(keep) and keep[span_index][1] <= start:
            span_index += 1
        probe = span_index
        while probe < len(keep) and keep[probe][0] < end:
            a, b = keep[probe]
            pieces.append(text[max(a, start) : min(b, end)])
            probe += 1
        kept = "".join(pieces)
        if kept == original:
            out.append(Segment(source, number, original))
        elif kept.strip():
            ending = original[len(original.rstrip("\r\n")) :]
            out.append(Segment(source, number, kept if kept.endswith("\n") else kept + ending))
        # a line that was all front matter or comment is gone (a comment's own line breaks go with it)
    return out


def gauges(settings: Settings, sources: list[Source]) -> list[Gauge]:
    """One gauge per limit, over the sources read in order (the agent reads them as one text)."""
    python_text = settings.preset.reads_as_python_text
    segs = [
        seg
        for number, source in enumerate(sources)
        for seg in segments(source.text, number, settings.preset.strip, python_text=python_text, bom=source.bom)
    ]
    if settings.preset.per_file:
        return openclaw_gauges(settings, sources)
    return [_gauge(sources, segs, limit) for limit in settings.limits]


def openclaw_gauges(settings: Settings, sources: list[Source]) -> list[Gauge]:
    """A gauge for each bootstrap file against the per-file limit, and one for all of them against the total.

    As OpenClaw injects them, in order: a file over the per-file edge keeps its first 70% and last 20%
    of the edge around a marker (the lines between are cut); the total budget shrinks by what each
    file injects, a file is cut at what is left, and one that finds less than 64 left is skipped.
    The "missing file" marker of an absent file is not counted (its length is the absolute path's).
    """
    total = settings.limits[1] if len(settings.limits) > 1 else None
    out: list[Gauge] = []
    remaining = total.edge if total is not None else None
    injected_sum = 0
    total_cut: list[tuple[int, int, int]] = []  # (source, first lost unit, end) past the total
    for number, source in enumerate(sources):
        text = source.text.rstrip()
        length = size(text, "utf16")
        per_file = file_limit(settings, source.relpath)
        lost = _openclaw_middle(length, per_file.edge)
        injected = length if lost is None else _openclaw_injected(source.relpath, length, per_file.edge)
        out.append(_span_gauge(source, number, per_file, length, [lost] if lost else [], label=source.relpath))
        injected_sum += injected
        if remaining is None:
            continue
        if remaining < OPENCLAW_MIN_FILE_BUDGET:
            total_cut.append((number, 0, length))
        elif injected > remaining:
            # Clamped to what is left: the end goes (of the kept head, when the file was cut already).
            keep = max(0, remaining - 1)
            start = keep if lost is None else min(keep, lost[0])
            total_cut.append((number, start, length))
        remaining = max(0, remaining - injected) if remaining >= OPENCLAW_MIN_FILE_BUDGET else remaining
    if total is not None:
        cut_entries: list[CutEntry] = []
        first_cut = None
        for number, start, end in total_cut:
            gauge = _span_gauge(sources[number], number, total, end, [(start, end)])
            cut_entries.extend(gauge.past_edge)
            first_cut = first_cut or gauge.first_cut_line
        out.append(Gauge(total, injected_sum, status_of(injected_sum, total), None, first_cut, cut_entries, 0,
                         label="all bootstrap files"))
    return out


def _openclaw_middle(length: int, edge: int) -> tuple[int, int] | None:
    """The UTF-16 span OpenClaw drops from a file of this length cut at edge, or None when it is not cut."""
    if length <= edge:
        return None
    head = int(edge * OPENCLAW_HEAD_RATIO)
    tail = int(edge * OPENCLAW_TAIL_RATIO)
    return head, length - tail


def _openclaw_injected(name: str, length: int, edge: int) -> int:
    """The length OpenClaw injects for a file cut at edge: head, the two marker lines, tail."""
    head, tail_start = _openclaw_middle(length, edge)
    tail = length - tail_start
    base = name.rsplit("/", 1)[-1]
    marker = (f"\n[...truncated, read {base} for full content...]\n"
              f"…(truncated {base}: kept {head}+{tail} chars of {length})…\n")
    return head + 1 + len(marker) + 1 + tail


def _span_gauge(source: Source, number: int, limit: Limit, used: int, spans: list[tuple[int, int]],
                label: str = "") -> Gauge:
    """A gauge of used against limit whose cut lines are those overlapping spans (UTF-16 offsets of the text)."""
    past: list[CutEntry] = []
    first_over = first_cut = None
    offset = 0
    for line_number, line in enumerate(source.text.split("\n"), 1):
        end = offset + size(line, "utf16") + 1
        if first_over is None and end > limit.max and used >= limit.max:
            first_over = (number, line_number)
        hit = [(a, b) for a, b in spans if a < end - 1 and b > offset]
        if hit and line.strip():
            first_cut = first_cut or (number, line_number)
            partial = any(a > offset or b < end - 1 for a, b in hit)
            past.append(CutEntry(source.relpath, line_number, text=excerpt(line.strip()), partial=partial))
        offset = end
    return Gauge(limit, used, status_of(used, limit), first_over, first_cut, past, 0, label=label)


def fits(text: str, settings: Settings, *, bom: bool = False) -> bool:
    """Whether text, read as the agent reads it, is below every budget."""
    segs = segments(text, 0, settings.preset.strip, python_text=settings.preset.reads_as_python_text, bom=bom)
    for limit in settings.limits:
        used = sum(1 if limit.unit == "lines" else size(seg.text, limit.unit) for seg in segs)
        if used >= limit.max:
            return False
    return True


def _gauge(sources: list[Source], segs: list[Segment], limit: Limit) -> Gauge:
    used = 0
    first_over = first_cut = None
    cut: dict[tuple[int, int], bool] = {}  # (source, line) -> partly cut
    for seg in segs:
        before = used
        used += 1 if limit.unit == "lines" else size(seg.text, limit.unit)
        if first_over is None and used >= limit.max:
            first_over = (seg.source, seg.line)
        if used > limit.edge:
            if first_cut is None:
                first_cut = (seg.source, seg.line)
            cut[(seg.source, seg.line)] = before < limit.edge
    past: list[CutEntry] = []
    other = 0
    for number, source in enumerate(sources):
        cut_lines = {line: partial for (src, line), partial in cut.items() if src == number}
        if not cut_lines:
            continue
        entries = source.index.entries if source.index is not None else []
        entry_lines = set()
        for entry in entries:
            if entry.line in cut_lines:
                entry_lines.add(entry.line)
                link = entry.link
                past.append(
                    CutEntry(
                        source.relpath,
                        entry.line,
                        tuple(t.text for t in entry.triggers),
                        link.title if link else "",
                        link.target if link else "",
                        "",
                        cut_lines[entry.line],
                    )
                )
        for line, partial in sorted(cut_lines.items()):
            if line in entry_lines:
                continue
            text = _line(source.text, line).strip()
            if not text:
                continue
            if entries:
                other += 1
            else:
                past.append(CutEntry(source.relpath, line, text=excerpt(text), partial=partial))
    status = status_of(used, limit)
    return Gauge(limit, used, status, first_over, first_cut, past, other)


def _line(text: str, number: int) -> str:
    lines = text.split("\n")
    return lines[number - 1].rstrip("\r") if 0 < number <= len(lines) else ""


def fmt(number: int) -> str:
    return f"{number:,}"

"""Measuring a startup index against the budget its agent loads, and what falls past the edge.

An agent loads its startup index into every session, up to a limit, and
silently drops the rest: the newest lines, which hold the newest lessons.
This module measures an index the way each agent does and says, for every
limit, how much is used and which entries are cut. `memwarden budget` and the
rules `index-over-budget`, `index-past-truncation` and `index-missing` both
read it, so the command and `memwarden check` always agree.

Units: ``chars`` (Unicode code points), ``utf16`` (UTF-16 code units: an
emoji is 2), ``bytes`` (UTF-8), ``lines``.

Presets:

- ``gish``: 20,000 chars budget, cut at 24,400 (or ``index.max_chars`` and
  ``index.truncate_edge_chars`` from the workspace's ``.gish/config.yml``).
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
claude-code, three-layer -> codex (its routing file is read by the agent,
and AGENTS.md is the one with a documented size limit; the three-layer
profile has no startup index of its own).

The status of a size against a limit: **within budget** when ``size < max``,
**over budget** when ``max <= size < edge``, **past the edge** when
``size >= edge`` (at the edge, the next thing added is cut). Exit codes and
rule findings follow the status: 0, 1, 2; 3 when there is no index.
"""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass, field
from pathlib import Path

from memwarden.documents.scan import comment_spans, find_links, front_matter_end, resolve_link, split_target
from memwarden.errors import UsageError

UNITS = ("chars", "utf16", "bytes", "lines")
UNIT_NAMES = {"chars": "chars", "utf16": "UTF-16 units", "bytes": "bytes", "lines": "lines"}

WITHIN, OVER, PAST, MISSING = 0, 1, 2, 3
STATUS_NAMES = {WITHIN: "within-budget", OVER: "over-budget", PAST: "past-edge", MISSING: "missing"}

CODEX_FILES = ("AGENTS.override.md", "AGENTS.md")
SHELVE_MARK = "<!-- memwarden-shelve -->"
DEFAULT_SHELF = "memory/knowledge/INDEX_overflow.md"


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


PRESETS: dict[str, Preset] = {
    "gish": Preset(
        "gish", (Limit("chars", 20_000, 24_400),), False, False,
        "Ghost In Shell: MEMORY.md in characters (.gish/config.yml index.max_chars / truncate_edge_chars)",
    ),
    "claude-code": Preset(
        "claude-code", (Limit("utf16", 22_500, 25_000), Limit("lines", 180, 200)), True, False,
        "Claude Code: first 200 lines and 25,000 UTF-16 units of MEMORY.md, front matter and HTML comments stripped",
    ),
    "codex": Preset(
        "codex", (Limit("bytes", 29_491, 32_768),), False, True,
        "Codex CLI: 32,768 UTF-8 bytes summed over AGENTS.md from the repository root down",
    ),
}
PROFILE_PRESETS = {"ghost-in-shell": "gish", "claude-code": "claude-code", "three-layer": "codex"}

# The options shared by the budget rules and read by `memwarden budget`.
OPTION_HELP = {
    "preset": "gish, claude-code or codex; 'auto' follows the profile",
    "unit": "chars, utf16, bytes or lines; 'auto' takes the preset's",
    "max": "the budget in the unit; 0 takes the preset's",
    "edge": "the truncation point in the unit; 0 takes the preset's",
    "shelf": "the shelf index the unsafe fix moves entries into",
}
OPTION_DEFAULTS = {"preset": "auto", "unit": "auto", "max": 0, "edge": 0, "shelf": DEFAULT_SHELF}
OPTION_TYPES = {"preset": str, "unit": str, "max": int, "edge": int, "shelf": str}
RULE_NAMES = ("index-over-budget", "index-past-truncation")


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
    shelf: str = DEFAULT_SHELF
    explicit_preset: bool = False


def configured_options(config) -> dict:
    """The budget options from the config: either rule's table (index-past-truncation's wins where both set one)."""
    options = dict(OPTION_DEFAULTS)
    for name in RULE_NAMES:
        options.update(config.rules.get(name, {}))
    return options


def gish_limit(root: Path) -> tuple[Limit | None, str | None]:
    """The chars limit from .gish/config.yml, or (None, why not)."""
    from memwarden.documents import load
    from memwarden.discover.profiles import Kind

    path = root / ".gish" / "config.yml"
    if not _is_file(path):
        return None, None
    doc = load(root, ".gish/config.yml", Kind("workspace-config", "yaml", (".gish/config.yml",), "gish config"))
    if not doc.ok or not isinstance(getattr(doc, "data", None), dict):
        return None, ".gish/config.yml cannot be read; the gish defaults are used"
    index = doc.data.get("index")
    if not isinstance(index, dict):
        return None, None
    default = PRESETS["gish"].limits[0]
    values = []
    for key, fallback in (("max_chars", default.max), ("truncate_edge_chars", default.edge)):
        value = index.get(key, fallback)
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            return None, f".gish/config.yml index.{key} is not a positive whole number; the gish defaults are used"
        values.append(value)
    if values[0] > values[1]:
        return None, ".gish/config.yml sets index.max_chars above index.truncate_edge_chars; the gish defaults are used"
    return Limit("chars", values[0], values[1]), None


def resolve(
    options: dict,
    profile_name: str,
    root: Path,
    *,
    preset: str | None = None,
    unit: str | None = None,
    max_: int | None = None,
    edge: int | None = None,
) -> Settings:
    """The limits to measure with: flags over config options over the preset over the profile's default."""
    name = preset or (options.get("preset") if options.get("preset") not in (None, "", "auto") else None)
    explicit = name is not None
    name = name or PROFILE_PRESETS.get(profile_name, "gish")
    if name not in PRESETS:
        raise UsageError(f"unknown budget preset '{name}'; choose one of {', '.join(PRESETS)}")
    chosen = PRESETS[name]
    notes: list[str] = []
    limits = chosen.limits
    if name == "gish":
        from_config, why = gish_limit(root)
        if from_config is not None:
            limits = (from_config,)
        if why:
            notes.append(why)
    unit = unit or (options.get("unit") if options.get("unit") not in (None, "", "auto") else None)
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
                    f"the {name} preset has no {unit} limit; its {base.unit} numbers are used as {unit}"
                )
        max_ = max_ or min(base.max, edge or base.max)
        edge = edge or max(base.edge, max_)
        limits = (Limit(unit, max_, edge),)
    for limit in limits:
        if limit.max > limit.edge:
            raise UsageError(f"the budget ({limit.max:,}) is above the truncation point ({limit.edge:,})")
    shelf = options.get("shelf") or DEFAULT_SHELF
    return Settings(chosen, limits, notes, shelf, explicit)


# -- what is measured -------------------------------------------------------------


@dataclass
class Source:
    relpath: str  # relative to the workspace root, '/'-separated (../ for files above it)
    path: Path
    text: str
    index: object | None = None  # an IndexDocument when the file is read as an index
    decoded: bool = True


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


def segments(text: str, source: int, strip: bool) -> list[Segment]:
    """The lines of text as the agent counts them."""
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


# -- finding and reading the files ---------------------------------------------------


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):  # a name too long for the file system is simply not there
        return False


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


def git_root(start: Path) -> Path | None:
    for directory in [start, *start.parents]:
        if (directory / ".git").exists():
            return directory
    return None


def codex_chain(directory: Path) -> list[Path]:
    """The AGENTS files Codex reads for a working directory: repository root first."""
    directory = directory.resolve()
    top = git_root(directory) or directory
    chain = []
    folders = [directory, *directory.parents]
    folders = folders[: folders.index(top) + 1] if top in folders else [directory]
    for folder in reversed(folders):
        for name in CODEX_FILES:
            candidate = folder / name
            if _is_file(candidate):
                chain.append(candidate)
                break
    return chain


def _relpath(path: Path, root: Path) -> str:
    return Path(os.path.relpath(path, root)).as_posix()


def _read(ws, path: Path) -> Source:
    from memwarden.documents.base import decode

    relpath = _relpath(path, ws.root)
    raw = ws.overlay.get(relpath)
    if raw is None:
        raw = path.read_bytes()
    text, _, _, error = decode(raw)
    decoded = text is not None
    if text is None:
        text = raw.decode("utf-8", "replace")
    return Source(relpath, path, text, None, decoded)


def _as_index(ws, source: Source):
    """The file read as an index (its linked list items), or None."""
    from memwarden.documents import IndexDocument, load
    from memwarden.discover.profiles import Kind

    doc = ws.document(source.relpath) if not source.relpath.startswith("../") else None
    if not isinstance(doc, IndexDocument):
        kind = Kind("startup-index", "index", (source.relpath,), "measured index")
        doc = load(ws.root, source.relpath, kind, source.text.encode("utf-8"))
    return doc if isinstance(doc, IndexDocument) and doc.ok else None


def startup_index_paths(ws) -> list[str]:
    """Where the profile's startup index lives (its globs are plain names at the root)."""
    kind = ws.profile.kind("startup-index")
    names = list(kind.globs) if kind is not None else ["MEMORY.md"]
    return [name for name in names if not any(ch in name for ch in "*?[")] or ["MEMORY.md"]


def locate(ws, settings: Settings, index: Path | None = None) -> tuple[list[Path], list[str]]:
    """The files to measure, and (when none exist) what was looked for."""
    if settings.preset.chain:
        if index is not None:
            index = index.absolute()
            chain = codex_chain(index.parent)
            chain = [p for p in chain if p.parent.resolve() != index.parent.resolve()]
            return (chain + [index] if _is_file(index) else []), [_relpath(index, ws.root)]
        chain = codex_chain(ws.root)
        return chain, [name for name in CODEX_FILES[1:]]
    if index is not None:
        return ([index] if _is_file(index) else []), [_relpath(index.absolute(), ws.root)]
    names = startup_index_paths(ws)
    found = [
        ws.root / name for name in names if name in ws.overlay or _is_file(ws.root / name)
    ]
    return found[:1], names


def measure(ws, settings: Settings, index: Path | None = None) -> Measurement:
    paths, expected = locate(ws, settings, index)
    sources = []
    for path in paths:
        try:
            sources.append(_read(ws, path))
        except OSError:
            continue
    result = Measurement(settings, sources, expected if not sources else [])
    if not sources:
        return result
    for source in sources:
        if not settings.preset.chain:
            source.index = _as_index(ws, source)
        if not source.decoded:
            settings.notes.append(f"{source.relpath} is not valid UTF-8; measured with replacement characters")
    segs = [seg for number, source in enumerate(sources) for seg in segments(source.text, number, settings.preset.strip)]
    for limit in settings.limits:
        result.gauges.append(_gauge(sources, segs, limit))
    return result


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
                past.append(CutEntry(source.relpath, line, text=_short(text), partial=partial))
    status = status_of(used, limit)
    return Gauge(limit, used, status, first_over, first_cut, past, other)


def _line(text: str, number: int) -> str:
    lines = text.split("\n")
    return lines[number - 1].rstrip("\r") if 0 < number <= len(lines) else ""


def _short(text: str, width: int = 80) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def fmt(number: int) -> str:
    return f"{number:,}"


# -- moving entries to a shelf (the unsafe fix) -----------------------------------------


@dataclass
class ShelvingPlan:
    moved: list  # IndexEntry objects, in document order
    edits: list  # model.Edit objects (index and shelf)
    shelf: str
    fits: bool


def plan_shelving(ws, settings: Settings, source: Source) -> ShelvingPlan | None:
    """Move entries out of a startup index into a shelf until it is within budget; never drop one."""
    from memwarden.documents import IndexDocument
    from memwarden.fixes.apply import apply_edits
    from memwarden.model import Edit

    doc = source.index
    shelf = settings.shelf
    shelf_kind = ws.profile.kind("shelf-index")
    if not isinstance(doc, IndexDocument) or shelf_kind is None or not shelf_kind.claims(shelf):
        return None
    shelf_path = ws.root / shelf
    if _is_dir(shelf_path) or (shelf_path.is_symlink() and not _is_file(shelf_path)):
        return None
    shelf_doc = ws.document(shelf) if (shelf in ws.overlay or _is_file(shelf_path)) else None
    if shelf_doc is not None and not shelf_doc.ok:
        return None
    shelf_text = shelf_doc.text if shelf_doc is not None else ""

    def eligible(entry) -> bool:
        targets = [resolve_link(doc.relpath, link.target) for link in entry.links]
        local = [t for t in targets if t is not None]
        if not local:
            return False
        return all(ws.profile.classify(t) is None or ws.profile.classify(t).name != "shelf-index" for t in local)

    candidates = [e for e in doc.entries if eligible(e)]
    marked = [e for e in candidates if SHELVE_MARK in doc.line_text(e.line)]
    order = marked + [e for e in reversed(candidates) if e not in marked]
    points_at_shelf = any(
        resolve_link(doc.relpath, link.target) == shelf for e in doc.entries for link in e.links
    )
    newline = doc.newline
    target = posixpath.relpath(shelf, posixpath.dirname(doc.relpath) or ".")
    words = _SHELF_WORDS[_index_language(doc)]
    pointer = f"- {words['pointer']} → [{words['title']}]({target})"

    def fits(text: str) -> bool:
        segs = segments(text, 0, settings.preset.strip)
        for limit in settings.limits:
            used = sum(1 if limit.unit == "lines" else size(seg.text, limit.unit) for seg in segs)
            if used >= limit.max:
                return False
        return True

    moved: list = list(marked)  # what the user marked always moves; then the last entries, until it fits
    edits: list = []
    for entry in [None] + [e for e in order if e not in marked]:
        if entry is not None:
            moved.append(entry)
        if not moved:
            continue
        edits = _index_edits(doc, sorted(moved, key=lambda e: e.line), None if points_at_shelf else pointer, newline)
        if fits(apply_edits(doc.text, edits)):
            break
    else:
        return None  # even moving every entry would not fit: the prose outside the entries is the problem
    moved.sort(key=lambda e: e.line)
    lines = []
    existing = set(line.strip() for line in shelf_text.splitlines())
    for entry in moved:
        line = _moved_line(doc, entry, shelf)
        if line.strip() not in existing:
            lines.append(line)
    shelf_newline = shelf_doc.newline if shelf_doc is not None and shelf_text else newline
    if shelf_doc is None or not shelf_text:
        header = (
            f"# {words['heading']}{shelf_newline}{shelf_newline}"
            f"{words['intro'].format(index=doc.relpath)}{shelf_newline}{shelf_newline}"
        )
        addition = header + "".join(line + shelf_newline for line in lines)
    else:
        lead = "" if shelf_text.endswith("\n") else shelf_newline
        addition = lead + "".join(line + shelf_newline for line in lines)
    if lines or shelf_doc is None:
        edits.append(Edit(len(shelf_text), len(shelf_text), addition, path=shelf))
    return ShelvingPlan(moved, edits, shelf, True)


_SHELF_WORDS = {
    "en": {
        "pointer": '"I half remember a lesson about this, but it is not listed here"',
        "title": "overflow shelf",
        "heading": "Overflow shelf",
        "intro": "Entries moved out of {index} to keep it within its load budget. Read when {index} sends you here.",
    },
    "zh-Hant": {
        "pointer": "「好像學過這個教訓，但這裡沒列出來」",
        "title": "溢出書架",
        "heading": "溢出書架",
        "intro": "為了讓 {index} 維持在載入預算內而移到這裡的條目。{index} 指到這裡時再讀。",
    },
    "zh-Hans": {
        "pointer": "「好像学过这个教训，但这里没列出来」",
        "title": "溢出书架",
        "heading": "溢出书架",
        "intro": "为了让 {index} 保持在加载预算内而移到这里的条目。{index} 指到这里时再读。",
    },
    "ja": {
        "pointer": "「この教訓は覚えがあるのに、ここに載っていない」",
        "title": "あふれた分の本棚",
        "heading": "あふれた分の本棚",
        "intro": "{index} を読み込み予算内に収めるため、ここへ移した項目。{index} からここを指されたときに読む。",
    },
}


def _index_language(doc) -> str:
    """The language the index's triggers are written in (most entries win)."""
    from collections import Counter

    from memwarden.analysis.triggers import detect_language

    counts = Counter(detect_language(t.text) for e in doc.entries for t in e.triggers)
    return counts.most_common(1)[0][0] if counts else "en"


def _index_edits(doc, moved: list, pointer: str | None, newline: str) -> list:
    """Edits that remove the moved lines from the index and, when needed, add the pointer line."""
    from memwarden.model import Edit

    text = doc.text
    starts = doc.line_starts

    def span(line: int) -> tuple[int, int]:
        return starts[line - 1], starts[line] if line < len(starts) else len(text)

    runs: list[list[int]] = []  # contiguous moved lines, removed as one edit each
    for entry in moved:
        if runs and runs[-1][-1] + 1 == entry.line:
            runs[-1].append(entry.line)
        else:
            runs.append([entry.line])
    spans = []
    for run in runs:
        start, end = span(run[0])[0], span(run[-1])[1]
        if end == len(text) and not text.endswith("\n") and start > 0:
            start -= 2 if text[:start].endswith("\r\n") else 1  # the file had no final newline: keep it so
        spans.append((start, end))
    anchor = _shelves_anchor(doc, {e.line for e in moved}) if pointer else None
    insert_at = None
    if anchor is not None:
        insert_at = starts[anchor] if anchor < len(starts) else len(text)
        if any(a < insert_at < b for a, b in spans):
            insert_at = None
    edits = []
    for position, (start, end) in enumerate(spans):
        replacement = ""
        if pointer and insert_at is None and position == 0:
            start, end = span(runs[0][0])[0], spans[0][1]
            replacement = pointer + (newline if text[start:end].endswith("\n") else "")
        edits.append(Edit(start, end, replacement))
    if pointer and insert_at is not None:
        lead = "" if insert_at == 0 or text[:insert_at].endswith("\n") else newline
        edits.append(Edit(insert_at, insert_at, lead + pointer + newline))
    return edits


def _shelves_anchor(doc, moving: set[int]) -> int | None:
    """The line after which a shelf pointer goes: the last entry under a 'Shelves' heading, or the heading."""
    import re

    heading = re.compile(r"^\s{0,3}#{1,6}\s+.*(?:shel|書架|书架|本棚)", re.I)
    hidden = doc.hidden_lines
    for number in range(doc.body_line, doc.line_count + 1):
        if number in hidden or not heading.match(doc.line_text(number)):
            continue
        anchor = number
        for later in range(number + 1, doc.line_count + 1):
            line = doc.line_text(later)
            if line.lstrip().startswith("#") and later not in hidden:
                break
            if later not in moving and line.lstrip()[:2] in ("- ", "* ", "+ "):
                anchor = later
        return anchor
    return None


def _moved_line(doc, entry, shelf: str) -> str:
    """The entry's line as it reads on the shelf: links rewritten relative to the shelf, the shelve mark gone."""

    line = doc.line_text(entry.line)
    shelf_dir = posixpath.dirname(shelf) or "."
    pieces, cursor = [], 0
    for link in find_links(line):
        raw = link.target
        target = raw[1:-1] if raw.startswith("<") and raw.endswith(">") else raw
        resolved = resolve_link(doc.relpath, target)
        if resolved is None or target.startswith("/"):
            continue
        new = posixpath.relpath(resolved, shelf_dir) + split_target(target)[1]
        new = f"<{new}>" if raw != target else new
        target_at = link.start + 1 + len(link.title) + 2  # "[" title "](" comes first
        pieces.append(line[cursor:target_at])
        pieces.append(new)
        cursor = target_at + len(raw)
    pieces.append(line[cursor:])
    line = "".join(pieces)
    line = line.replace(" " + SHELVE_MARK, "").replace(SHELVE_MARK, "").rstrip()
    return line.lstrip()

"""`memwarden budget [INDEX]`: a gauge of the startup index against what its agent loads.

The measuring is :mod:`memwarden.analysis.budget` and the reading
:mod:`memwarden.discover.startup_index`, shared with the rules
`index-over-budget`, `index-past-truncation` and `index-missing`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from memwarden.analysis.secrets.paths import hide_names_in
from memwarden.cli.exits import guarded, hidden
from memwarden.cli.gauge import STATUS_TEXT, can_draw, gauge_bar
from memwarden.errors import UsageError
from memwarden.report.measures import budget_json, hide_past_edge
from memwarden.text import escape_controls

from memwarden.analysis.budget import MISSING, PAST, STATUS_NAMES, UNIT_NAMES, fmt

# Exit codes are the contract: a hook or a script branches on them. 0 to 3 are the
# statuses (within, over, past the edge, missing); usage errors take the next one.
EXIT_USAGE = 4


class _BudgetCommand(click.Command):
    """Usage errors exit 4 here: 2 already means "past the truncation point"."""

    def make_context(self, info_name, args, parent=None, **extra):
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.exceptions.UsageError as error:
            error.exit_code = EXIT_USAGE
            raise


@click.command(cls=_BudgetCommand, name="budget")
@click.argument("index", required=False, type=click.Path(path_type=Path))
@click.option("--workspace", "-w", "workspace_dir", type=click.Path(path_type=Path), default=Path("."),
              show_default=True, help="The workspace whose startup index to measure.")
@click.option("--preset", type=click.Choice(["gish", "claude-code", "codex", "openclaw", "windsurf"]),
              help="The agent's limits [default: from the profile: ghost-in-shell->gish, claude-code->claude-code, three-layer->codex].")
@click.option("--unit", type=click.Choice(["chars", "utf16", "bytes", "lines"]),
              help="Count Unicode code points, UTF-16 units, UTF-8 bytes or lines [default: the preset's; chars for gish].")
@click.option("--max", "max_", type=click.IntRange(min=1), metavar="N", help="The budget: at or over it is 'over budget'.")
@click.option("--edge", type=click.IntRange(min=1), metavar="N", help="The truncation point: at or past it is 'past the edge'.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: unit, used, max, edge, headroom, status, exit_code, past_edge.")
@click.option("--profile", type=click.Choice(["ghost-in-shell", "three-layer", "claude-code", "openclaw", "plain-notes"]),
              help="Override the detected profile.")
@click.option("--history", "show_history", is_flag=True,
              help="Chart the index's size at every first-parent commit that changed it, and project when it reaches the budget and the edge.")
@click.option("--since", metavar="REF", help="With --history: only the commits after REF.")
@guarded(usage_exit=EXIT_USAGE)
def budget(index, workspace_dir, preset, unit, max_, edge, as_json, profile, show_history, since):
    """Measure the startup index (MEMORY.md, or AGENTS.md for codex) against what the agent loads.

    Prints a gauge with used / budget / edge / headroom, and the exact entries
    past the edge: the newest lines, which the agent silently never sees.

    \b
    Presets:
      gish         20,000 chars budget, cut at 24,400 (or .gish/config.yml
                   index.max_chars / index.truncate_edge_chars)
      claude-code  200 lines and 25,000 UTF-16 units of MEMORY.md, front
                   matter and HTML comments stripped; budget 90% of each;
                   the worse of the two is reported
      codex        32,768 UTF-8 bytes over the AGENTS.md files from the git
                   repository root down; budget 90%
      openclaw     each bootstrap file (AGENTS.md, SOUL.md, TOOLS.md, IDENTITY.md,
                   USER.md, HEARTBEAT.md, BOOTSTRAP.md, MEMORY.md) cut at 20,000
                   UTF-16 units, keeping its first 70% and last 20%; USER.md at
                   4,000 (option user_edge); all of them at 150,000 (option
                   total_edge); budget 90% of each
      windsurf     each Windsurf rules file (.windsurfrules, .windsurf/rules/*.md)
                   cut at 12,000 characters; budget 90%; measured beside the
                   startup index when no preset is chosen
    --unit, --max and --edge override the preset (and the [tool.memwarden.rules.
    index-over-budget] options preset, unit, max, edge in the config).

    With --history, the size at every commit of the first-parent history
    that changed the index (today's preset and limit), charted against the
    budget and the edge, and the dates the growth of the last 10 of those
    commits (a least-squares fit) reaches them; --json gives
    {"history": [{"commit", "date", "used"}], "projection": {"budget_date",
    "edge_date"}}. The exit code is today's status.

    \b
    Exit codes (size measured in the unit):
      0  within budget          size < max
      1  over budget            max <= size < edge
      2  past the truncation    size >= edge (at the edge, the next line is cut)
      3  index not found
      4  usage or configuration error
    """
    from memwarden.discover import startup_index
    from memwarden.discover.workspace import find_root, open_workspace
    from memwarden.rules.budget import budget_options

    if since is not None and not show_history:
        raise UsageError("--since needs --history")
    try:
        if index is not None and startup_index.dir_exists(index):
            workspace_dir, index = index, None
        start = (index.absolute().parent if index is not None else workspace_dir.absolute())
        if not startup_index.dir_exists(start):
            _missing(as_json, [str(index if index is not None else workspace_dir)], None)
        root = find_root(start)
        if index is None and profile is None and preset is None and not show_history:
            several = _every_workspace(start, (unit, max_, edge))
            if several is not None:
                _report_all(several, as_json)
        if index is None and profile is None:
            root = startup_index.memory_below(root)
        ws = open_workspace(root, profile)
        settings = startup_index.resolve_settings(
            budget_options(ws.config), ws.profile.name, ws.root,
            preset=preset, unit=unit, max_=max_, edge=edge,
        )
        own = startup_index.documented_preset(ws, index) if index is not None and preset is None else None
        if own is not None:
            # An agent's rules file with a documented limit (a Windsurf rule) is measured with its agent's.
            settings = startup_index.resolve_settings(
                budget_options(ws.config), ws.profile.name, ws.root, preset=own, unit=unit, max_=max_, edge=edge,
            )
        elif index is not None and preset is None and settings.preset.chain and index.name not in startup_index.CODEX_FILES:
            # A MEMORY.md (or any file but an AGENTS file) is never Codex's AGENTS.md: Claude Code's limits.
            settings = startup_index.resolve_settings(
                budget_options(ws.config), ws.profile.name, ws.root, preset="claude-code", unit=unit, max_=max_, edge=edge,
            )
        measurement = startup_index.measure(ws, settings, index)
        if not measurement.found and index is None and preset is None and settings.preset.chain:
            measurement = _claude_code_instead(ws, settings, unit, max_, edge) or measurement
        if index is None and preset is None and not show_history and not any((unit, max_, edge)):
            # The agents' rules files with a documented limit (Windsurf's) are measured beside the index.
            rules_files = startup_index.rules_file_measurements(ws)
            if rules_files:
                _report_all([(ws, m) for m in ([measurement] if measurement.found else []) + rules_files], as_json)
    except OSError as error:
        click.echo(f"memwarden: error: {hidden(str(error.filename or ''))}: {error.strerror}", err=True)
        sys.exit(EXIT_USAGE)
    cwd = Path.cwd()

    def shown(relpath: str) -> str:
        return ws.display_path(relpath, cwd)

    if not measurement.found:
        _missing(as_json, [shown(p) for p in measurement.expected], settings)
    if show_history:
        from memwarden.cli.budget_history import print_history

        print_history(ws, measurement, since, as_json, shown)
        sys.exit(measurement.exit_code)
    hide_past_edge(measurement)
    if as_json:
        click.echo(hide_names_in(json.dumps(budget_json(measurement, shown), indent=2, ensure_ascii=False)))
    else:
        click.echo(hide_names_in(_as_text(measurement, lambda relpath: escape_controls(shown(relpath)), _color())), nl=False)
    sys.exit(measurement.exit_code)


def _every_workspace(start: Path, overrides: tuple) -> list | None:
    """The measurements of every workspace `memwarden check` finds from start, when it finds more than one.

    Each workspace's startup files are measured with their own agents' limits (as the budget rules of
    `check` measure them); None when there is one workspace or none (the single report then).
    """
    from memwarden.discover import startup_index
    from memwarden.discover.workspace import collect
    from memwarden.rules.budget import budget_options

    workspaces, _ = collect([start])
    if len(workspaces) < 2 or any(value is not None for value in overrides):
        return None
    found = []
    for ws in workspaces:
        found.extend((ws, m) for m in startup_index.startup_measurements(ws, budget_options(ws.config)))
    return found or None


def _report_all(found: list, as_json: bool) -> None:
    """Print each measurement, the worst last in JSON's top level, and exit with the worst status."""
    cwd = Path.cwd()
    reports = []
    for ws, measurement in found:
        hide_past_edge(measurement)
        shown = (lambda ws: lambda relpath: ws.display_path(relpath, cwd))(ws)
        reports.append((measurement, shown))
    worst = max(reports, key=lambda pair: pair[0].exit_code)
    if as_json:
        body = budget_json(*worst)
        body["measurements"] = [budget_json(m, shown) for m, shown in reports]
        click.echo(hide_names_in(json.dumps(body, indent=2, ensure_ascii=False)))
    else:
        color = _color()
        texts = [_as_text(m, lambda relpath, shown=shown: escape_controls(shown(relpath)), color) for m, shown in reports]
        click.echo(hide_names_in("\n".join(texts)), nl=False)
    sys.exit(worst[0].exit_code)


def _claude_code_instead(ws, settings, unit, max_, edge):
    """No AGENTS.md for the codex preset the profile chose: measure what Claude Code loads, with its preset."""
    from memwarden.discover import startup_index
    from memwarden.rules.budget import budget_options

    path = startup_index.claude_code_file(ws)
    if path is None or settings.explicit_preset:
        return None
    chosen = startup_index.resolve_settings(
        budget_options(ws.config), ws.profile.name, ws.root, preset="claude-code", unit=unit, max_=max_, edge=edge,
    )
    chosen.notes.append(
        f"no AGENTS.md for the codex preset; {startup_index.rel_to(path, ws.root)} measured with the claude-code preset"
    )
    return startup_index.measure(ws, chosen, path)



def _missing(as_json: bool, expected: list[str], settings) -> None:
    if as_json:
        limit = settings.limits[0] if settings is not None else None
        click.echo(json.dumps({
            "version": 1,
            "files": [],
            "expected": expected,
            "preset": settings.preset.name if settings is not None else None,
            "unit": limit.unit if limit else None,
            "used": None,
            "max": limit.max if limit else None,
            "edge": limit.edge if limit else None,
            "headroom": None,
            "status": STATUS_NAMES[MISSING],
            "exit_code": MISSING,
            "past_edge": [],
        }, indent=2, ensure_ascii=False))
    else:
        where = " or ".join(expected) or "the startup index"
        hint = {
            "gish": " A gish workspace gets one from `gish init`.",
            "codex": " Codex reads AGENTS.md from the git repository root down to the working folder.",
        }.get(settings.preset.name if settings is not None else "", "")
        click.echo(f"memwarden: {where}: not found (exit {MISSING}).{hint}", err=True)
    sys.exit(MISSING)


def _color() -> bool:
    from memwarden.report import use_color

    return use_color(sys.stdout)


def _as_text(measurement, shown, color: bool) -> str:
    settings = measurement.settings
    fancy = can_draw("█▒░┃·")
    sep = " · " if fancy else " / "
    lines = []
    files = [shown(s.relpath) for s in measurement.sources]
    files_measured = {s.relpath for s in measurement.sources}
    title = files[0] if len(files) == 1 else f"{len(files)} files: " + " + ".join(files)
    lines.append(f"{title}  ({settings.preset.name} preset)")
    worst = measurement.worst
    for gauge in measurement.gauges:
        unit = UNIT_NAMES[gauge.limit.unit]
        percent = 100 * gauge.used / gauge.limit.max if gauge.limit.max else 0
        bar = gauge_bar(gauge.used, gauge.limit, fancy=fancy)
        tint = STATUS_TEXT[gauge.status][1]
        if color:
            bar = click.style(bar, fg=tint)
        measured = f"  {shown(gauge.label) if gauge.label in files_measured else gauge.label}" if gauge.label else ""
        lines.append(f"  {bar}  {percent:.0f}% of budget{measured}")
        headroom = gauge.headroom
        lines.append(
            f"  used {fmt(gauge.used)} {unit}{sep}budget {fmt(gauge.limit.max)}{sep}edge {fmt(gauge.limit.edge)}"
            f"{sep}headroom {fmt(headroom)}" + ("" if headroom >= 0 else " (over)")
        )
    word, tint = STATUS_TEXT[worst.status]
    if worst.status == PAST and worst.used == worst.limit.edge and not worst.past_edge and not worst.other_cut_lines:
        word = "at the truncation point: the next line added will be cut"
    limit_note = f" ({UNIT_NAMES[worst.limit.unit]})" if len(measurement.gauges) > 1 else ""
    status = f"status: {word}{limit_note} (exit {worst.status})"
    lines.append(click.style(status, fg=tint, bold=True) if color else status)
    other = worst.other_cut_lines
    other_text = f"{other} non-blank line{'s' if other != 1 else ''} that {'are' if other != 1 else 'is'} not an entry"
    if worst.past_edge:
        is_entry = any(e.triggers or e.title for e in worst.past_edge)
        count = len(worst.past_edge)
        noun = ("entry" if count == 1 else "entries") if is_entry else ("line" if count == 1 else "lines")
        lines.append(f"past the edge, never loaded: {count} {noun}")
        for entry in worst.past_edge:
            partly = "  (partly)" if entry.partial else ""
            lines.append(f"  {shown(entry.path)}:{entry.line}  {entry.label()}{partly}")
        if other:
            lines.append(f"  and {other_text}")
    elif other:
        lines.append(f"past the edge, never loaded: no entries, {other_text}")
    for note in settings.notes:
        lines.append(f"note: {note}")
    return "\n".join(lines) + "\n"

"""`memwarden budget --history`: the startup index's size over its first-parent history, as a chart.

The sizes and the projection are :mod:`memwarden.analysis.budget_trend`'s; this
draws them: one row a commit, the newest at the bottom, each a bar on one scale
with the budget marked ``|`` and (when some commit went past it) the edge
``┃``. Plain characters when stdout is not a terminal or ``NO_COLOR`` is set.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import click

from memwarden.analysis.budget import UNIT_NAMES, fmt, status_of
from memwarden.analysis.budget_trend import RECENT_COMMITS, history, project
from memwarden.cli.gauge import STATUS_TEXT, can_draw, gauge_bar
from memwarden.errors import UsageError
from memwarden.git import GitError, Repo
from memwarden.text import escape_controls, quoted

MAX_ROWS = 30  # the newest commits drawn; --json lists them all
MIN_BAR, MAX_BAR = 10, 60


def print_history(ws, measurement, since: str | None, as_json: bool, shown) -> None:
    repo = Repo.discover(ws.root)
    if repo is None:
        raise UsageError(f"budget --history reads git history, and {escape_controls(shown('.'))} is in no git repository")
    top = repo.toplevel.resolve()
    paths = []
    for source in measurement.sources:
        relative = Path(os.path.relpath((ws.root / source.relpath).resolve(), top)).as_posix()
        if not relative.startswith("../"):
            paths.append(relative)
    start = None
    if since is not None:
        start = repo.resolve(since)
        if start is None:
            raise UsageError(f"--since {quoted(since)} names no commit in this repository")
    limit = measurement.worst.limit
    try:
        points = history(repo, paths, measurement.settings, limit, start) if repo.has_head() else []
    except GitError as error:
        raise UsageError(str(error)) from None
    projection = project(points, limit)
    files = [shown(s.relpath) for s in measurement.sources]
    if as_json:
        click.echo(json.dumps({
            "version": 1,
            "files": files,
            "preset": measurement.settings.preset.name,
            "unit": limit.unit,
            "max": limit.max,
            "edge": limit.edge,
            "history": [point.to_json() for point in points],
            "projection": projection.to_json(),
            "growth_per_day": None if projection.rate is None else round(projection.rate, 3),
            "recent_commits": projection.recent,
            "shallow": repo.is_shallow(),
        }, indent=2, ensure_ascii=False))
        return
    from memwarden.report import use_color

    color = use_color(sys.stdout)
    click.echo(_chart(points, projection, limit, [escape_controls(f) for f in files], measurement, since, color,
                      repo.is_shallow()), nl=False, color=color)


def _chart(points, projection, limit, files, measurement, since, color: bool, shallow: bool) -> str:
    unit = UNIT_NAMES[limit.unit]
    fancy = color and can_draw("█▒░┃·")
    sep = " · " if fancy else " / "
    title = files[0] if len(files) == 1 else " + ".join(files)
    noun = "commit" if len(points) == 1 else "commits"
    lines = [
        f"{title}  ({measurement.settings.preset.name} preset, {unit}){sep}budget {fmt(limit.max)}{sep}edge {fmt(limit.edge)}",
        f"{len(points)} {noun} changed it" + (f" after {escape_controls(since)}" if since else "")
        + (" (a shallow clone: older history is not here)" if shallow else ""),
    ]
    sized = [p.used for p in points if p.used is not None]
    scale = max([limit.edge, *sized])
    number_width = max(len(fmt(n)) for n in [limit.edge, *sized])
    prefix = 2 + 7 + 2 + 10 + 2 + number_width + 2
    width = max(MIN_BAR, min(MAX_BAR, shutil.get_terminal_size((80, 24)).columns - prefix - 2))
    shown_points = points[-MAX_ROWS:]
    if len(points) > len(shown_points):
        lines.append(f"  ... {len(points) - len(shown_points)} earlier commits not drawn (--json lists them all)")
    for point in shown_points:
        head = f"  {point.commit[:7]}  {point.date}  "
        if point.used is None:
            lines.append(head + "deleted".rjust(number_width))
            continue
        bar = gauge_bar(point.used, limit, width, fancy=fancy, scale=scale)
        if color:
            bar = click.style(bar, fg=STATUS_TEXT[status_of(point.used, limit)][1])
        lines.append(f"{head}{fmt(point.used).rjust(number_width)}  {bar}")
    lines.extend(_projection_lines(projection, limit, unit, sep, points))
    return "\n".join(lines) + "\n"


def _projection_lines(projection, limit, unit, sep, points) -> list[str]:
    if projection.rate is None:
        return ["projection: none (fewer than two commits at different times to measure growth)"] if points else []
    recent = f"the last {projection.recent} commits" if projection.recent == RECENT_COMMITS else (
        f"{projection.recent} commits")
    sign = "+" if projection.rate >= 0 else ""
    growth = f"growth: {sign}{projection.rate:,.1f} {unit} a day over {recent} (least squares)"
    if projection.budget_date is None:
        return [growth, "projection: none, the index is not growing"]
    last = next(p for p in reversed(points) if p.used is not None)
    parts = []
    for name, threshold, date in (("budget", limit.max, projection.budget_date), ("edge", limit.edge, projection.edge_date)):
        verb = " reached" if last.used >= threshold else ""
        parts.append(f"{name} {fmt(threshold)}{verb} on {date}")
    return [growth, "projection: " + sep.join(parts)]

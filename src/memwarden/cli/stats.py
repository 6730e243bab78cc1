"""`memwarden stats [PATH]`: what the workspace holds and what needs attention soon, on one screen.

The counting is :mod:`memwarden.engine.stats`; this prints it, as text or JSON.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path

import click

from memwarden.analysis.secrets.paths import hide_names_in
from memwarden.cli.exits import guarded
from memwarden.cli.gauge import STATUS_TEXT, can_draw, gauge_bar
from memwarden.errors import UsageError
from memwarden.report.measures import by_date, measure_startup_index, stats_json, top_tags
from memwarden.text import escape_controls, excerpt

LISTED = 5  # expiring dates and orphans named in the text report; --json lists them all
GAUGE = 30


@click.command(name="stats")
@click.argument("path", required=False, type=click.Path(path_type=Path), default=Path("."))
@click.option("--within", type=click.IntRange(min=0), default=30, show_default=True, metavar="DAYS",
              help="Count the expiry dates due from today through this many days ahead.")
@click.option("--today", metavar="DATE", help="Take this date (YYYY-MM-DD) as today.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: records, tags, claims, expiring, expired, orphans, budget.")
@click.option("--profile", type=click.Choice(["ghost-in-shell", "three-layer", "claude-code", "openclaw", "plain-notes"]),
              help="Override the detected profile.")
@guarded
def stats(path, within, today, as_json, profile):
    """What the memory holds: records by kind, tags, negative claims and their expiry dates, orphans, the index budget.

    \b
    records   notes by type and shelf, episodes by type (archived apart), facts, index entries
    tags      distinct tags, the most used, entries with fewer than two
    claims    negative claims with and without `expires`; expiry dates passed,
              and due within --within DAYS (default 30) of today or --today
    orphans   notes no index links to (orphan-note)
    budget    the startup index against its load budget (as `memwarden budget`)

    Always exits 0 (2 on a usage error): it reports, `memwarden check` judges.
    """
    from memwarden.discover import startup_index
    from memwarden.discover.workspace import collect, find_root, open_workspace
    from memwarden.engine.stats import gather

    if today is None:
        day = dt.date.today()
    else:
        try:
            day = dt.date.fromisoformat(today)
        except ValueError:
            raise UsageError(f"--today '{escape_controls(today)}' is not a date (YYYY-MM-DD)") from None
    if not startup_index.dir_exists(path):
        raise UsageError(f"{escape_controls(str(path))}: not a folder (stats reads a workspace)")
    # The workspaces `memwarden check` finds from the same folder (a repository root: its memory folders too).
    workspaces = collect([path], profile)[0] if profile is None else []
    if not workspaces:
        workspaces = [open_workspace(find_root(path.absolute()), profile)]
    cwd = Path.cwd()
    reports = []
    for ws in workspaces:
        reports.append((ws, gather(ws, day, within), measure_startup_index(ws),
                        (lambda ws: lambda relpath: ws.display_path(relpath, cwd))(ws)))
    if as_json:
        # The workspace with the most memory files at the top level; every one under "workspaces".
        main = max(reports, key=lambda report: len(report[0].files))
        body = stats_json(*main[:3], day, within, main[3])
        body["workspaces"] = [dict(stats_json(ws, numbers, measurement, day, within, shown),
                                   files=sorted(shown(p) for p in ws.files))
                              for ws, numbers, measurement, shown in reports]
        # A shelf is a folder: its name, like every path, is shown with a secret it holds hidden.
        click.echo(hide_names_in(json.dumps(body, indent=2, ensure_ascii=False)))
    else:
        from memwarden.report import use_color

        color = use_color(sys.stdout)
        texts = [_as_text(ws, numbers, measurement, day, within, shown, color)
                 for ws, numbers, measurement, shown in reports]
        click.echo(hide_names_in("\n".join(texts)), nl=False, color=color)
    sys.exit(0)







def _listing(counter, limit: int = 4) -> str:
    items = sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))
    text = ", ".join(f"{excerpt(str(k), 24)} {v}" for k, v in items[:limit])
    return text + (f", {len(items) - limit} more" if len(items) > limit else "")


def _plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count:,} {word if count == 1 else (many or word + 's')}"


def _as_text(ws, s, measurement, day, within, shown, color: bool) -> str:
    from memwarden.analysis.budget import UNIT_NAMES, fmt

    fancy = color and can_draw("·█▒░┃")  # plain characters when not a terminal or NO_COLOR
    sep = " · " if fancy else " / "
    lines = [f"{shown('.')}  ({ws.profile.name} profile, today {day.isoformat()})"]

    def row(label: str, text: str) -> None:
        lines.append(f"{label:<9} {text}" if label or not lines else f"{'':<9} {text}")

    notes = _plural(s.notes, "note")
    if s.notes:
        notes += f": {_listing(s.notes_by_type)}"
        if len(s.notes_by_shelf) > 1:
            notes += f"{sep}shelves {_listing(s.notes_by_shelf)}"
    row("records", notes)
    episodes = _plural(s.episodes, "episode") + (f" ({s.archived_episodes:,} archived)" if s.archived_episodes else "")
    if s.episodes:
        episodes += f": {_listing(s.episodes_by_type)}"
    row("", episodes)
    row("", _plural(s.facts, "fact") + f" in {_plural(s.fact_files, 'file')}")
    entries = _plural(s.index_entries, "index entry", "index entries")
    if len(s.entries_by_index) > 1:
        entries += ": " + ", ".join(f"{escape_controls(p)} {n}" for p, n in sorted(s.entries_by_index.items()))
    row("", entries)
    top = ", ".join(f"{excerpt(t, 24)} {n}" for t, n in top_tags(s.tag_uses))
    row("tags", f"{_plural(len(s.tag_uses), 'distinct tag')}" + (f"{sep}top: {top}" if top else ""))
    row("", f"{s.few_tags:,} of {_plural(s.tagged_entries, 'tagged entry', 'tagged entries')} with fewer than 2")
    row("claims", f"{_plural(s.claims_with_expires + s.claims_without_expires, 'negative claim')}: "
        f"{s.claims_with_expires:,} with expires, {s.claims_without_expires:,} without")
    from memwarden.engine.stats import horizon

    row("expires", f"{len(s.expired):,} passed{sep}{len(s.expiring):,} due by {horizon(day, within).isoformat()} "
        f"(within {within} days)")
    for dated in by_date(s.expiring)[:LISTED]:
        row("", f"  {dated.expires}  {shown(dated.path)}:{dated.line}")
    if len(s.expiring) > LISTED:
        row("", f"  and {len(s.expiring) - LISTED:,} more (--json lists them all)")
    row("orphans", _plural(len(s.orphans), "note") + " no index links to" + (":" if s.orphans else ""))
    for relpath in s.orphans[:LISTED]:
        row("", f"  {shown(relpath)}")
    if len(s.orphans) > LISTED:
        row("", f"  and {len(s.orphans) - LISTED:,} more (--json lists them all)")
    if s.unreadable:
        row("unread", _plural(len(s.unreadable), "file") + " that do not parse (see memwarden check)")
    if measurement is None:
        row("budget", "no startup index found")
    else:
        worst = measurement.worst
        bar = gauge_bar(worst.used, worst.limit, GAUGE, fancy=fancy)
        if fancy:
            bar = click.style(bar, fg=STATUS_TEXT[worst.status][1])
        percent = 100 * worst.used / worst.limit.max
        row("budget", f"{bar} {percent:.0f}%{sep}{fmt(worst.used)} of {fmt(worst.limit.max)} "
            f"{UNIT_NAMES[worst.limit.unit]} (edge {fmt(worst.limit.edge)})")
    return "\n".join(lines) + "\n"

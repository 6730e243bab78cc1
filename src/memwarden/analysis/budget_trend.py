"""The startup index's size over its git history, and when its growth will reach the budget and the edge.

Every first-parent commit that changed the index is measured the way
`memwarden budget` measures the file today (:func:`memwarden.analysis.budget.gauges`,
with today's preset and limit), so the history and the gauge always agree. All
the blobs are read through one ``git cat-file --batch`` and the commits come
from one ``git log --first-parent``: a thousand commits cost two processes.

The projection fits a least-squares line, size against time, through the
*recent* commits: the last :data:`RECENT_COMMITS` commits that changed the
index (all of them when there are fewer). Its slope is the growth rate; from
the newest size, the index reaches a limit after (limit - size) / rate days.
A limit already reached gives the date of the commit that reached it (the
first of the current run at or over it). When the fit is flat or falling, or
there are fewer than two recent commits at different times, there is no
projection: both dates are None.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from memwarden.analysis.budget import Limit, Settings, gauges, read_source

RECENT_COMMITS = 10  # how many of the newest index-changing commits the growth rate is fitted over
_DAY = 86_400
_NEVER = 2**63  # a limit no index reaches


@dataclass(frozen=True)
class Point:
    """The index after one commit: its size in the limit's unit (None when the commit deleted it)."""

    commit: str
    timestamp: int
    used: int | None

    @property
    def date(self) -> str:
        return day(self.timestamp)

    def to_json(self) -> dict:
        return {"commit": self.commit, "date": self.date, "used": self.used}


@dataclass(frozen=True)
class Projection:
    rate: float | None  # units a day over the recent commits; None without enough of them
    budget_date: str | None
    edge_date: str | None
    recent: int  # how many commits the rate was fitted over

    def to_json(self) -> dict:
        return {"budget_date": self.budget_date, "edge_date": self.edge_date}


def day(timestamp: float) -> str:
    """A moment as its UTC date, YYYY-MM-DD (clamped to the dates Python can write)."""
    try:
        return dt.datetime.fromtimestamp(timestamp, dt.timezone.utc).date().isoformat()
    except (OverflowError, OSError, ValueError):
        return dt.date.max.isoformat() if timestamp > 0 else dt.date.min.isoformat()


def history(repo, paths: list[str], settings: Settings, limit: Limit, since: str | None = None) -> list[Point]:
    """The index's size after every first-parent commit that changed any of paths (top-level paths, in load order)."""
    changes = repo.file_changes(paths, since)
    # With --since, a commit that changes one file of a chain needs the others as they were at REF.
    current: dict[str, str | None] = dict(repo.tree_blobs(since, paths)) if since and changes else {}
    wanted = [sha for sha in current.values() if sha]
    blobs = repo.read_blobs(wanted + [sha for change in changes for sha in change.blobs.values() if sha])
    # The size does not depend on where the limits lie: limits nothing reaches spare listing what is cut.
    unbounded = Limit(limit.unit, _NEVER, _NEVER)
    one_limit = Settings(settings.preset, (unbounded,))
    sizes: dict[tuple, int] = {}  # the same contents measure the same (a revert, a merge of what was there)
    points = []
    for change in changes:
        current.update(change.blobs)
        present = tuple((path, current[path]) for path in paths if current.get(path) and current[path] in blobs)
        if not present:
            points.append(Point(change.sha, change.timestamp, None))
            continue
        if present not in sizes:
            sources = [read_source(path, blobs[sha]) for path, sha in present]
            sizes[present] = gauges(one_limit, sources)[0].used
        points.append(Point(change.sha, change.timestamp, sizes[present]))
    return points




def growth_rate(points: list[Point]) -> tuple[float | None, int]:
    """The least-squares slope (units a day) over the recent measured points, and how many it used."""
    recent = [p for p in points if p.used is not None][-RECENT_COMMITS:]
    if len(recent) < 2:
        return None, len(recent)
    xs = [p.timestamp / _DAY for p in recent]
    ys = [float(p.used) for p in recent]
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    if spread == 0:
        return None, len(recent)  # all at one moment: no time to grow over
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / spread, len(recent)


def project(points: list[Point], limit: Limit) -> Projection:
    """When the index reaches the budget and the edge at the recent growth rate (None when it is not growing)."""
    rate, recent = growth_rate(points)
    if rate is None or rate <= 0:
        return Projection(rate, None, None, recent)
    measured = [p for p in points if p.used is not None]
    last = measured[-1]
    return Projection(
        rate, _reaches(measured, last, limit.max, rate), _reaches(measured, last, limit.edge, rate), recent
    )


def _reaches(measured: list[Point], last: Point, threshold: int, rate: float) -> str:
    if last.used >= threshold:
        reached = last
        for point in reversed(measured):
            if point.used < threshold:
                break
            reached = point
        return reached.date
    return day(last.timestamp + (threshold - last.used) / rate * _DAY)

"""invalid-timestamp: a timestamp must be ISO 8601, carry the offset its kind needs, and name a real date.

`timestamp_error` and `TIMESTAMP_FIELDS` are shared with schema-violation, which leaves
time values to this rule so that one problem gives one finding.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from memwarden.analysis import recognition
from memwarden.documents import JsonlDocument, MarkdownDocument, YamlDocument, format_json_path
from memwarden.model import Problem, Severity
from memwarden.registry import rule
from memwarden.patterns import LazyPattern

_DATE = LazyPattern(r"(\d{4})-(\d{2})-(\d{2})\Z")
_DATETIME = LazyPattern(
    r"(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})[T ](?P<h>\d{2}):(?P<mi>\d{2})(?::(?P<s>\d{2})(?:[.,]\d+)?)?"
    r"(?P<tz>Z|z|[+-]\d{2}:?\d{2})?\Z"
)

_TIMELIKE = LazyPattern(r"[0-9TZtz:+. /-]*")

# json path -> what it must hold
TIMESTAMP_FIELDS = {
    ("ghost-in-shell", "episodic"): {("ts",): "datetime-offset", ("date",): "date", ("retrieval", "last_accessed"): "datetime"},
    ("ghost-in-shell", "episode-archive"): {("ts",): "datetime-offset", ("date",): "date", ("retrieval", "last_accessed"): "datetime"},
    ("ghost-in-shell", "associations"): {("ts",): "datetime-offset"},
    ("ghost-in-shell", "facts"): {("identity", "last_updated"): "date-or-datetime"},
    ("ghost-in-shell", "note"): {("metadata", "updated"): "date"},
    ("three-layer", "episodic"): {("ts",): "datetime-offset", ("date",): "date"},
    ("three-layer", "episode-archive"): {("ts",): "datetime-offset", ("date",): "date"},
}


def timestamp_error(value: str, expected: str) -> str | None:
    """Why value is not a timestamp of the expected sort, or None if it is one."""
    date_match = _DATE.match(value)
    time_match = _DATETIME.match(value)
    if expected == "date" and not date_match:
        return "is not a date (YYYY-MM-DD)"
    if expected.startswith("datetime") and not time_match:
        return "is not an ISO 8601 date-time (YYYY-MM-DDTHH:MM:SS+HH:MM)"
    if expected == "date-or-datetime" and not (date_match or time_match):
        return "is not an ISO 8601 date or date-time"
    try:
        if time_match:
            groups = time_match.groupdict()
            dt.datetime(
                int(groups["y"]), int(groups["mo"]), int(groups["d"]),
                int(groups["h"]), int(groups["mi"]), int(groups["s"] or 0),
            )
            tz = groups["tz"]
            if tz and tz not in "Zz":
                hours, minutes = int(tz[1:3]), int(tz[-2:])
                if hours > 23 or minutes > 59:
                    return "has an impossible UTC offset"
            if expected == "datetime-offset" and not tz:
                return "has no UTC offset (add Z or +HH:MM): the same local time means different moments on different machines"
        else:
            dt.date(int(date_match.group(1)), int(date_match.group(2)), int(date_match.group(3)))
    except ValueError as error:
        return f"is an impossible date ({error})"
    return None


@dataclass(frozen=True)
class InvalidTimestamp:
    json_path: str
    value: str
    problem: str  # from timestamp_error()

    @property
    def message(self) -> str:
        # Echo the value only when it looks like a time; anything else could be a pasted secret.
        shown = f" '{self.value}'" if len(self.value) <= 40 and _TIMELIKE.fullmatch(self.value) else ""
        return f"{self.json_path}{shown} {self.problem}"


def _lookup(data, path):
    for part in path:
        if not isinstance(data, dict) or part not in data:
            return None
        data = data[part]
    return data


@rule(code="MW104", name="invalid-timestamp", severity=Severity.ERROR, records=True)
def invalid_timestamp(doc, ctx):
    """A timestamp that is not ISO 8601, lacks the UTC offset its kind needs, or names an impossible date.

    ## What it does
    Checks the time fields of each kind: an episode's `ts` (a date-time with a
    UTC offset) and `date`, an association's `ts`, a gish note's
    `metadata.updated`, the facts' `identity.last_updated`. `2026-02-30` and
    `2026-13-01` are impossible dates; `2026-03-15T14:30:00` has no offset.

    ## Why
    Recall, decay and expiry all sort and compare these times. A value that is
    not a time, or a local time without its offset, puts an episode in the
    wrong place in every query, or makes the tool that reads it crash.

    ## Example
    ```json
    {"ts": "2026-02-30T09:00:00+08:00", "type": "decision", ...}
    ```
    `memory/episodic.jsonl:1:2: MW104 invalid-timestamp $.ts '2026-02-30T09:00:00+08:00' is an impossible date`

    ## Fix safety
    No fix: memwarden cannot know which time was meant.
    """
    fields = TIMESTAMP_FIELDS.get((ctx.workspace.profile.name, doc.kind.name))
    if not fields or recognition.unrecognised_in_run(ctx, doc):
        return
    if isinstance(doc, JsonlDocument):
        items = [(record.data, lambda path, r=record: doc.locate(r, path)) for record in doc.records if record.ok]
    elif isinstance(doc, YamlDocument):
        items = [(doc.data, doc.locate)]
    elif isinstance(doc, MarkdownDocument):
        items = [(doc.front_matter, doc.locate)]
    else:
        items = []
    for data, locate in items:
        for path, expected in fields.items():
            value = _lookup(data, path)
            if not isinstance(value, str):
                continue
            problem = timestamp_error(value, expected)
            if problem:
                where = format_json_path(path)
                line, column = locate(path)
                yield Problem(line, column, InvalidTimestamp(where, value, problem).message, json_path=where)

"""The numbers of `memwarden stats`: what a workspace holds, gathered the way `memwarden check` reads it.

Nothing here re-decides what the rules decide: records come from the parsed
documents, tags from the tag lists of `too-few-tags` in their normal form,
negative claims from the detector the claims rules call (each record's prose
through :func:`memwarden.analysis.negation.find_claims`), expiry dates from the
places `expired-claim` reads, orphans from the `orphan-note` rule run by the
engine, and the budget from the same measurement as `memwarden budget`.

What is counted:

- notes: every document of kind `note`, by its front matter `type` (or
  `metadata.type`) and by shelf, the folder that holds it;
- episodes: the records of the episodic log and the episode archives that
  parse as objects, by their `type`; archived ones (in an archive file, or
  marked `decay_status: archived` / `archived: true`) counted apart;
- facts: the scalar values of the facts files (each list item counts), except
  `schema_version` and anything under a top-level `archive`;
- index entries: the linked lines of the startup index and the shelf indexes;
- tags: over every episode and every note that has `tags`; an episode with no
  `tags` list has fewer than two;
- claims: negative claims (sentences) in records with and without an expiry;
  expiry dates (any record's, archived ones left out) that have passed, and
  those due from today through today + `within` days.
"""

from __future__ import annotations

import datetime as dt
import posixpath
from collections import Counter
from dataclasses import dataclass, field

from memwarden.analysis.expiry import claim_records, expiry_places, parse_date
from memwarden.analysis.negation import find_claims
from memwarden.analysis.tags import normalized_tags
from memwarden.kinds import EPISODE_KINDS
from memwarden.documents import IndexDocument, JsonlDocument, MarkdownDocument
from memwarden.engine.run import RunOptions, check_workspace
from memwarden.rules.claims import CLAIM_KINDS
from memwarden.rules.index import INDEX_KINDS
from memwarden.rules.tags import tag_lists

TOP_TAGS = 5
NO_TYPE = "(none)"


@dataclass(frozen=True)
class Dated:
    path: str
    line: int
    expires: str

    def to_json(self) -> dict:
        return {"path": self.path, "line": self.line, "expires": self.expires}


@dataclass
class Stats:
    notes_by_type: Counter = field(default_factory=Counter)
    notes_by_shelf: Counter = field(default_factory=Counter)
    episodes_by_type: Counter = field(default_factory=Counter)
    archived_episodes: int = 0
    facts: int = 0
    fact_files: int = 0
    entries_by_index: Counter = field(default_factory=Counter)
    tag_uses: Counter = field(default_factory=Counter)
    tagged_entries: int = 0
    few_tags: int = 0
    claims_with_expires: int = 0
    claims_without_expires: int = 0
    expired: list[Dated] = field(default_factory=list)
    expiring: list[Dated] = field(default_factory=list)
    orphans: list[str] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)

    @property
    def notes(self) -> int:
        return sum(self.notes_by_type.values())

    @property
    def episodes(self) -> int:
        return sum(self.episodes_by_type.values())

    @property
    def index_entries(self) -> int:
        return sum(self.entries_by_index.values())


def horizon(today: dt.date, within: int) -> dt.date:
    """The last day that counts as expiring soon: today + within days (the last date there is, past it)."""
    return today + dt.timedelta(days=within) if within < (dt.date.max - today).days else dt.date.max


def gather(ws, today: dt.date, within: int) -> Stats:
    """Read every memory file of the workspace once and count what it holds."""
    stats = Stats()
    last_day = horizon(today, within)
    profile = ws.profile.name
    for relpath, kind in sorted(ws.files.items()):
        doc = ws.document(relpath)
        if doc is None or not doc.ok:
            stats.unreadable.append(relpath)
            continue
        if kind.name == "note" and isinstance(doc, MarkdownDocument):
            _count_note(stats, doc)
        elif kind.name in EPISODE_KINDS and isinstance(doc, JsonlDocument):
            _count_episodes(stats, doc)
        elif kind.name == "facts":
            stats.fact_files += 1
            stats.facts += _scalars(doc.data, top=True)
        elif kind.name in INDEX_KINDS and isinstance(doc, IndexDocument):
            stats.entries_by_index[relpath] = sum(1 for entry in doc.entries if entry.link is not None)
        if kind.name in CLAIM_KINDS:
            _count_claims(stats, doc, profile, today, last_day)
        ws.forget(relpath)  # one file at a time: a big workspace is never held whole
    stats.orphans = [f.workspace_path for f in check_workspace(ws, RunOptions(select=["orphan-note"], today=today)).findings]
    return stats


def _count_note(stats: Stats, doc: MarkdownDocument) -> None:
    front = doc.front_matter if isinstance(doc.front_matter, dict) else {}
    metadata = front.get("metadata") if isinstance(front.get("metadata"), dict) else {}
    kind = front.get("type", metadata.get("type"))
    stats.notes_by_type[kind.strip() if isinstance(kind, str) and kind.strip() else NO_TYPE] += 1
    stats.notes_by_shelf[posixpath.basename(posixpath.dirname(doc.relpath)) or "."] += 1
    for entry in tag_lists(doc):
        _count_tags(stats, entry.tags)


def _count_episodes(stats: Stats, doc: JsonlDocument) -> None:
    tagged = {id(entry.record): entry.tags for entry in tag_lists(doc)}
    for record in doc.records:
        if not record.ok or not isinstance(record.data, dict):
            continue
        data = record.data
        kind = data.get("type")
        stats.episodes_by_type[kind.strip() if isinstance(kind, str) and kind.strip() else NO_TYPE] += 1
        if doc.kind.name != "episodic" or data.get("decay_status") == "archived" or data.get("archived") is True:
            stats.archived_episodes += 1
        _count_tags(stats, tagged.get(id(record), []))


def _count_tags(stats: Stats, tags: list) -> None:
    distinct = normalized_tags(tags)
    stats.tagged_entries += 1
    stats.tag_uses.update(distinct)
    if len(distinct) < 2:
        stats.few_tags += 1


def _scalars(value, top: bool = False) -> int:
    if isinstance(value, dict):
        return sum(_scalars(v) for k, v in value.items() if not (top and k in ("schema_version", "archive")))
    if isinstance(value, list):
        return sum(_scalars(v) for v in value)
    return 0 if value is None else 1


def _count_claims(stats: Stats, doc, profile: str, today: dt.date, last_day: dt.date) -> None:
    for record in claim_records(doc, profile):
        found = sum(len(find_claims(piece.text)) for piece in record.pieces)
        if record.place.present:
            stats.claims_with_expires += found
        else:
            stats.claims_without_expires += found
    for place in expiry_places(doc, profile):
        if place.archived or place.dated is None:
            continue
        value, location, _ = place.dated
        date = parse_date(value)
        if date is None:
            continue  # not a date: invalid-expiry's finding
        if date < today:
            stats.expired.append(Dated(doc.relpath, location[0], date.isoformat()))
        elif date <= last_day:
            stats.expiring.append(Dated(doc.relpath, location[0], date.isoformat()))

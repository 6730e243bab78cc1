"""Recognising a memory format by its content, not only by its path.

A file is memory of a kind because of where it lies, but an application may
keep its own log at ``memory/episodic.jsonl``, and a folder of plain Markdown
may sit where notes with front matter are expected. Checking such a file
against a schema it was never written for yields one false finding a record.
This module says when a file does not look like its kind at all, so the
rules report that once (``unrecognized-file``) and the schema rules stay
silent; a real log with a few bad records is still recognised and checked.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from memwarden.decoding import decode
from memwarden.documents import JsonlDocument
from memwarden.documents.scan import opens_front_matter
from memwarden.kinds import CODEX_FILES, EPISODE_KINDS, OTHER_LOG_KIND, PLAIN_MARKDOWN_PROFILES

# The kinds whose JSONL records should be episodes.
LOG_KINDS = EPISODE_KINDS + (OTHER_LOG_KIND,)
# An episode says when it happened as text, in ts (or the legacy date).
TIME_FIELDS = ("ts", "date")
# The keys of an episode in either profile, when the profile's schema names none.
DEFAULT_EPISODE_FIELDS = frozenset(
    {
        "id", "ts", "date", "type", "title", "summary", "detail", "content", "lesson", "tags", "importance",
        "fingerprint", "decay_status", "retrieval", "source", "links", "quality", "linked_to", "expires",
        "archived",
    }
)
# A folder of fewer notes says too little about its format: each note is checked on its own.
MIN_BARE_NOTES = 2


def episode_fields(profile) -> frozenset[str]:
    """The top-level keys an episode may have: either profile's, and those the profile's schema names."""
    from memwarden.documents import schema_store

    kind = profile.kind("episodic")
    schema = schema_store.load_schema(profile, kind) if kind is not None else None
    properties = schema.get("properties") if isinstance(schema, dict) else None
    return DEFAULT_EPISODE_FIELDS | (frozenset(properties) if isinstance(properties, dict) else frozenset())


def _epoch_time(key: str, value) -> bool:
    """A field that holds a time as a number (createdAt: 1772649613501), as application logs keep it."""
    lowered = key.lower()
    named = lowered.endswith(("at", "_at", "time", "timestamp")) or lowered in ("ts", "date", "created", "updated")
    return named and isinstance(value, (int, float)) and not isinstance(value, bool) and value > 10**8


def looks_like_episode(record, fields: frozenset[str]) -> bool:
    """A JSON object of mostly episode keys, whose time (if it has one) is text, not an epoch number.

    An episode that lacks a required key is still an episode (schema-violation says what it lacks).
    """
    if not isinstance(record, dict) or not record:
        return False
    if any(name in record and not isinstance(record[name], str) for name in TIME_FIELDS):
        return False  # ts or date that is not text
    if not any(isinstance(record.get(name), str) for name in TIME_FIELDS) and any(
        _epoch_time(key, value) for key, value in record.items()
    ):
        return False  # its only time is an epoch number: another program's record
    return 2 * len(fields & record.keys()) >= len(record)


@dataclass(frozen=True)
class LogShape:
    records: int  # records that parsed
    episodes: int  # of them, the ones that look like episodes
    first_line: int  # the first parsed record's line

    @property
    def recognised(self) -> bool:
        """Whether most records are episodes (a file with none that parsed is left to the parse rules)."""
        return self.records == 0 or 2 * self.episodes >= self.records


def log_shape(doc, profile) -> LogShape | None:
    """How far a JSONL log of an episode kind looks like episodes; None for any other document."""
    if not isinstance(doc, JsonlDocument) or doc.kind.name not in LOG_KINDS or not doc.ok:
        return None
    fields = episode_fields(profile)
    parsed = [record for record in doc.records if record.ok]
    episodes = sum(1 for record in parsed if looks_like_episode(record.data, fields))
    return LogShape(len(parsed), episodes, parsed[0].line if parsed else 1)


def is_unrecognised_log(doc, profile) -> bool:
    shape = log_shape(doc, profile)
    return shape is not None and not shape.recognised


def episode_flags(doc, profile) -> dict[int, list[bool]]:
    """A log's shape record by record: per line, whether each record that parsed looks like an episode."""
    fields = episode_fields(profile)
    flags: dict[int, list[bool]] = {}
    for record in doc.records:
        if record.ok:
            flags.setdefault(record.line, []).append(looks_like_episode(record.data, fields))
    return flags


def shape_of(flags: dict[int, list[bool]]) -> LogShape:
    """The :class:`LogShape` of a log from its :func:`episode_flags`."""
    records = sum(len(line) for line in flags.values())
    episodes = sum(sum(1 for flag in line if flag) for line in flags.values())
    return LogShape(records, episodes, min(flags) if flags else 1)


def is_log(relpath: str, kind) -> bool:
    return kind is not None and kind.name in LOG_KINDS and kind.format == "jsonl"


def shape_in_run(ctx, relpath: str) -> LogShape | None:
    """A workspace log's shape as a run sees it (None for a log that does not parse): read line by line
    through the run's record summaries, so a rule handed only a log's new lines judges the whole log."""
    flags = ctx.record_summaries(episode_flags, relpath)
    return None if flags is None else shape_of(flags)


def recognised(flags: dict[int, list[bool]]) -> bool:
    return shape_of(flags).recognised


def unrecognised_in_run(ctx, doc) -> bool:
    """:func:`is_unrecognised_log` for a document a rule checks (the whole log's shape, whatever it was handed)."""
    if not isinstance(doc, JsonlDocument) or doc.kind.name not in LOG_KINDS or not doc.ok:
        return False
    return ctx.record_summaries(episode_flags, doc.relpath, recognised) is False


# -- folders of notes without front matter ----------------------------------------------


def starts_with_front_matter(raw: bytes) -> bool:
    """Whether a file opens front matter (closed or not: an unclosed one is the parser's to report), as the
    Markdown parser decides it: a '---' line over a sentence is a thematic break."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = decode(raw)[0] or ""
    else:
        text = raw[:4096].decode("utf-8", "replace")
    return opens_front_matter(text.lstrip("\ufeff"))


def bare_note_folders(ws) -> dict[str, tuple[str, ...]]:
    """Folders of at least MIN_BARE_NOTES notes none of which has front matter: folder -> its notes.

    None in a profile whose notes are plain Markdown by design (Serena, Cline's Memory Bank, OpenClaw)."""
    if ws.profile.name in PLAIN_MARKDOWN_PROFILES:
        return {}
    by_folder: dict[str, list[str]] = {}
    for relpath, kind in sorted(ws.files.items()):
        if kind.name == "note" and kind.format == "markdown":
            by_folder.setdefault(posixpath.dirname(relpath), []).append(relpath)
    found = {}
    for folder, notes in by_folder.items():
        if len(notes) < MIN_BARE_NOTES:
            continue
        if not any(starts_with_front_matter(ws.current_bytes(note) or b"") for note in notes):
            found[folder] = tuple(notes)
    return found


def in_bare_note_folder(ctx, relpath: str) -> bool:
    """Whether a note lies in a folder of notes none of which has front matter (built once a run)."""
    if ctx.workspace.profile.name in PLAIN_MARKDOWN_PROFILES:
        return True  # plain Markdown by design: a note without front matter is what the profile expects
    folders = ctx.memo.get(("recognition", "bare-note-folders"), lambda: bare_note_folders(ctx.workspace))
    return posixpath.dirname(relpath) in folders


def plain_topic_file(ctx, relpath: str) -> bool:
    """Whether a Claude Code note without front matter is a topic file its index links: Claude Code wrote topic
    files as plain Markdown before it wrote front matter, and reads one by following the index's link, so an
    upgraded folder holds both; the link is the note's description. An unlinked one is orphan-note's."""
    if ctx.workspace.profile.name != "claude-code":
        return False
    from memwarden.analysis.index_lines import paths_linked_from_indexes

    return relpath in paths_linked_from_indexes(ctx)


def shadowed_instruction_files(ws) -> list[tuple[str, str]]:
    """AGENTS files Codex never loads because an AGENTS.override.md sits in the same folder: (file, override)."""
    override, *shadowed = CODEX_FILES
    found = []
    for relpath in sorted(ws.files):
        folder, _, name = relpath.rpartition("/")
        sibling = f"{folder}/{override}" if folder else override
        if name in shadowed and sibling in ws.files:
            found.append((relpath, sibling))
    return found

"""Format and schema rules: the file must parse, fit its kind's schema, and say each thing once."""

from __future__ import annotations

from dataclasses import dataclass

from memwarden.analysis import recognition
from memwarden.discover.profiles import OPENCLAW
from memwarden.analysis.installed_skills import installed_skill_folder
from memwarden.kinds import EPISODE_KINDS
from memwarden.documents import JsonlDocument, MarkdownDocument, YamlDocument, format_json_path
from memwarden.documents.base import UnreadableDocument
from memwarden.model import Applicability, Edit, Fix, Problem, Scope, Severity
from memwarden.registry import rule
from memwarden.rules.timestamps import TIMESTAMP_FIELDS, timestamp_error
from memwarden.text import plain_value


@dataclass(frozen=True)
class UnparsableRecord:
    line: int
    reason: str

    @property
    def message(self) -> str:
        return f"line {self.line}: {self.reason}"


@rule(code="MW101", name="unparsable-file", severity=Severity.ERROR, reads_unparsed=True, any_text=True, records=True)
def unparsable_file(doc, ctx):
    """A memory file that cannot be read: a syntax error, invalid UTF-8, a NUL byte, or not a file at all.

    ## What it does
    Reports a YAML, JSON or front-matter syntax error, bytes that are not valid
    UTF-8 (or the encoding its BOM names), a NUL byte, `NaN` or `Infinity` in
    JSON, a file too large or too deeply nested to be memory, a directory named
    like a memory file, a file or folder that cannot be read (permission
    denied: the links into it are not reported as broken), a symlink loop, and
    a symlink (or symlinked folder) that leads outside the workspace, unless to
    a file git tracks in the same repository (`.claude/CLAUDE.md` ->
    `../AGENTS.md` is read). In a JSONL log each bad line is
    reported on its own, and the good lines are still checked. A text file no
    kind claims is parsed by its extension (`.yml`/`.yaml`, `.jsonl`, `.md`)
    and reported the same way; no other rule of its family reads it.

    A file no kind claims inside an installed skill (a folder with a SKILL.md
    and ClawHub's `_meta.json` or `.clawhub/origin.json`, or a licence) is not
    reported: its publisher wrote it, the owner never edits it, and the skill's
    own code reads it, not the agent's memory.

    In an OpenClaw workspace a Markdown file's front matter is not reported:
    OpenClaw reads one that YAML rejects line by line (`key: value`, the rest
    skipped) and one that is never closed as plain text, so nothing is lost
    (src/markdown/frontmatter.ts, openclaw/openclaw at 818bcc9).

    ## Why
    An agent that cannot parse its memory silently loses all of it. Every other
    rule skips a file it cannot read, so this finding is the only sign.

    ## Example
    ```yaml
    identity:
      name: "Agent
    ```
    `memory/fact.yml:2:9: MW101 unparsable-file YAML syntax error: ... found unexpected end of stream`

    ## Fix safety
    No fix: memwarden never rewrites a file it cannot parse.
    """
    if not doc.kind.memory and doc.kind.format == "text" and not isinstance(doc, UnreadableDocument):
        return  # a file no kind claims is parsed only when its extension names a format (but must be readable)
    bad_records = ([record for record in doc.records if record.error is not None]
                   if doc.error is None and isinstance(doc, JsonlDocument) else [])  # an unread log has no records
    if doc.error is None and not bad_records:
        return
    if not doc.kind.memory and installed_skill_folder(ctx.workspace, doc.relpath) is not None:
        return  # a registry's skill file (a vendored skill.yaml, a k8s manifest): its publisher's to fix
    if doc.error is not None:
        if isinstance(doc, MarkdownDocument) and doc.front_matter_failed and ctx.workspace.profile.name == OPENCLAW.name:
            return  # OpenClaw reads a front matter YAML rejects line by line, and an unclosed one as text
        yield Problem(doc.error.line, doc.error.column, doc.error.message)
        return
    for record in bad_records:
        yield Problem(record.error.line, record.error.column, UnparsableRecord(record.line, record.error.message).message)


# -- schema-violation -----------------------------------------------------------

_TYPE_NAMES = {
    dict: "an object",
    list: "an array",
    str: "a string",
    bool: "a boolean",
    int: "an integer",
    float: "a number",
    type(None): "null",
}


def _type_of(value) -> str:
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def _show(value) -> str:
    return plain_value(value, _type_of(value))


def _own_message(error) -> str | None:
    """The `errorMessage` a schema gives an anyOf/oneOf (VS Code's keyword): what is missing, said once."""
    if error.validator in ("anyOf", "oneOf") and isinstance(error.schema, dict):
        message = error.schema.get("errorMessage")
        return message if isinstance(message, str) and message else None
    return None


def describe(error) -> str:
    """A schema error in words, without echoing string values."""
    keyword = error.validator
    value = error.validator_value
    instance = error.instance
    if _own_message(error):
        return _own_message(error)
    if keyword == "required":
        # jsonschema reports each missing key as its own error: "'x' is a required property"
        name = error.message.split(" is a required property")[0].strip("'\"")
        return f"missing required key '{name}'"
    if keyword == "type":
        wanted = value if isinstance(value, list) else [value]
        return f"expected {' or '.join(wanted)}, found {_type_of(instance)}"
    if keyword == "enum":
        return f"{_show(instance)} is not one of: {', '.join(map(str, value))}"
    if keyword == "const":
        return f"must be {value!r}"
    if keyword == "pattern":
        return f"{_show(instance)} does not match the pattern {value}"
    if keyword in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        words = {"minimum": "at least", "maximum": "at most", "exclusiveMinimum": "above", "exclusiveMaximum": "below"}
        return f"{_show(instance)} must be {words[keyword]} {value}"
    if keyword in ("minItems", "maxItems"):
        return f"has {len(instance)} items; {'at least' if keyword == 'minItems' else 'at most'} {value} expected"
    if keyword in ("minLength", "maxLength"):
        return f"is {len(instance)} characters long; {'at least' if keyword == 'minLength' else 'at most'} {value} expected"
    if keyword == "additionalProperties":
        extra = sorted(set(instance) - set(error.schema.get("properties", {}))) if isinstance(instance, dict) else []
        return f"unexpected key{'s' if len(extra) > 1 else ''} {', '.join(repr(k) for k in extra[:5])}"
    if keyword == "format":
        return f"{_show(instance)} is not a valid {value}"
    if keyword == "not":
        return "has a value this kind does not allow here"
    if keyword in ("anyOf", "oneOf"):
        return "matches none of the allowed shapes"
    return f"fails '{keyword}'"


@dataclass(frozen=True)
class SchemaViolation:
    json_path: str
    description: str  # from describe(): never echoes a long string

    @property
    def message(self) -> str:
        return f"{self.json_path}: {self.description}"


@dataclass(frozen=True)
class MissingRequiredKeys:
    json_path: str
    keys: tuple[str, ...]

    @property
    def message(self) -> str:
        listed = ", ".join(f"'{k}'" for k in self.keys)
        return f"{self.json_path}: missing required key{'s' if len(self.keys) > 1 else ''} {listed}"


@dataclass(frozen=True)
class TooDeeplyNested:
    message = "too deeply nested to validate"


@dataclass(frozen=True)
class EmptyYamlFile:
    message = "the file is empty; a mapping of keys to values is expected"


@dataclass(frozen=True)
class NoteWithoutFrontMatter:
    message = "no front matter: a note starts with a '---' block of name, description, ..."


# Which of several failures at one value a finding names: the most telling first, a bare "not" last.
_KEYWORD_RANK = {"type": 0, "enum": 1, "const": 1, "not": 9, "anyOf": 8, "oneOf": 8}


def _schema_problems(validator, instance, locate, base_path=(), timestamps=None):
    """One finding per value that fails (however many keywords it fails), and one per object missing keys.

    A timestamp field whose value invalid-timestamp reports (timestamps: path -> what it must hold) is
    left to that rule: one wrong date is one finding, not a pattern failure and a timestamp failure.
    """
    try:
        errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))
    except RecursionError:
        line, column = locate(())
        yield Problem(line, column, TooDeeplyNested().message, json_path="$")
        return
    if not errors:
        return  # jsonschema-rs said so: jsonschema is loaded only to explain a failure
    from jsonschema.exceptions import best_match

    missing: dict[tuple, list[str]] = {}  # one finding per object, naming every missing key
    at_value: dict[tuple, object] = {}  # one finding per value, naming its most telling failure
    for error in errors:
        if error.validator == "required":
            missing.setdefault(tuple(error.absolute_path), []).append(describe(error).split("'")[1])
            continue
        if error.context and not _own_message(error):
            error = best_match(error.context)
        own = tuple(error.absolute_path)
        expected = (timestamps or {}).get(own)
        if expected and isinstance(error.instance, str) and error.validator in ("pattern", "format", "not"):
            if timestamp_error(error.instance, expected) is not None:
                continue  # invalid-timestamp says it
        key = (own, _own_message(error))  # a schema's own message names a problem of its own
        kept = at_value.get(key)
        if kept is None or _KEYWORD_RANK.get(error.validator, 5) < _KEYWORD_RANK.get(kept.validator, 5):
            at_value[key] = error
    for (own, _), error in at_value.items():
        path = tuple(base_path) + own
        line, column = locate(own)
        where = format_json_path(path)
        yield Problem(line, column, SchemaViolation(where, describe(error)).message, json_path=where)
    for parent, keys in missing.items():
        line, column = locate(parent)
        where = format_json_path(tuple(base_path) + parent)
        yield Problem(line, column, MissingRequiredKeys(where, tuple(keys)).message, json_path=where)


@rule(code="MW102", name="schema-violation", severity=Severity.ERROR, records=True)
def schema_violation(doc, ctx):
    """A record that does not fit its kind's JSON Schema.

    ## What it does
    Validates every YAML document, every JSONL record and every Markdown front
    matter against the JSON Schema (draft 2020-12) of its kind
    (`memwarden schema KIND` prints it). The finding names the JSON path and,
    where several shapes were allowed, what the schema says is missing (its
    `errorMessage`, as in "missing 'type' (at the top or under metadata)") or
    else the branch that came closest, and it points at the offending key's
    line. A value that fails several keywords is one finding; a time field
    whose value invalid-timestamp reports is left to that rule. A Claude Code
    topic file without front matter that MEMORY.md links is fine: Claude Code
    wrote topic files as plain Markdown before it wrote front matter, and
    reads one through the index's link.

    ## Why
    Memory that does not have the shape the agent's tools expect is skipped or
    misread without a word: an episode without `fingerprint` is never
    de-duplicated, a list of preferences written as one string is read as
    a single preference.

    ## Example
    ```yaml
    preferences:
      communication: "Lead with the answer"   # a list of strings is expected
    ```
    `memory/fact.yml:10:3: MW102 schema-violation $.preferences.communication: expected array, found a string`

    ## Fix safety
    No fix: the right value is the author's to choose.
    """
    validator = _validator_for(doc, ctx)
    if validator is None:
        return
    timestamps = TIMESTAMP_FIELDS.get((ctx.workspace.profile.name, doc.kind.name))
    if isinstance(doc, JsonlDocument):
        if recognition.unrecognised_in_run(ctx, doc):
            return  # unrecognized-file says it once
        for record in doc.records:
            if record.ok:
                yield from _schema_problems(
                    validator, record.data, lambda path, r=record: doc.locate(r, path), timestamps=timestamps
                )
        return
    if isinstance(doc, YamlDocument):
        if doc.data is None:
            yield Problem(1, 1, EmptyYamlFile().message, json_path="$")
            return
        yield from _schema_problems(validator, doc.data, doc.locate, timestamps=timestamps)
        return
    if isinstance(doc, MarkdownDocument):
        if doc.front_matter is None:
            if (
                doc.kind.name == "note"
                and not recognition.in_bare_note_folder(ctx, doc.relpath)
                and not recognition.plain_topic_file(ctx, doc.relpath)
            ):
                yield Problem(1, 1, NoteWithoutFrontMatter().message)
            return
        yield from _schema_problems(validator, doc.front_matter, doc.locate, timestamps=timestamps)


def _validator_for(doc, ctx):
    from memwarden.documents import schema_store

    return schema_store.validator(ctx.workspace.profile, doc.kind)


# -- duplicate-key ---------------------------------------------------------------


@dataclass(frozen=True)
class DuplicateJsonKey:
    key: str
    parent: str  # the JSON path of the object

    @property
    def message(self) -> str:
        return f"key '{self.key}' appears twice in {self.parent}; JSON loaders keep only the last value"


@dataclass(frozen=True)
class DuplicateYamlKey:
    key: str
    parent: str
    first_line: int

    @property
    def message(self) -> str:
        return (
            f"key '{self.key}' appears twice in {self.parent} (first on line {self.first_line}); "
            "loaders keep only one value"
        )


@rule(code="MW103", name="duplicate-key", severity=Severity.ERROR, records=True)
def duplicate_key(doc, ctx):
    """A key given twice in one YAML mapping or JSON object.

    ## What it does
    Reports the second (and any later) occurrence of a key in the same mapping
    of a YAML file, a Markdown front matter or a JSONL record.

    ## Why
    Loaders keep one of the values and drop the other without a word, so one
    of two facts the author meant to record is already lost.

    ## Example
    ```yaml
    preferences:
      language: R
      language: Python   # which one does the agent see?
    ```

    ## Fix safety
    No fix: which value is right is the author's call.
    """
    if isinstance(doc, JsonlDocument):
        for record in doc.records:
            for path, key, column in record.duplicates:
                violation = DuplicateJsonKey(key, format_json_path(path[:-1]))
                yield Problem(record.line, column, violation.message, json_path=format_json_path(path))
        return
    tree = doc.tree if isinstance(doc, YamlDocument) else getattr(doc, "front_matter_tree", None)
    for dup in getattr(tree, "duplicates", []):
        violation = DuplicateYamlKey(dup.key, format_json_path(dup.path[:-1]), dup.first_line)
        yield Problem(dup.line, dup.column, violation.message, json_path=format_json_path(dup.path))


# -- duplicate-id ----------------------------------------------------------------


@dataclass(frozen=True)
class DuplicateId:
    episode_id: str
    first_line: int
    first_where: str  # "above", or "in <path>"

    @property
    def message(self) -> str:
        return f"episode id '{self.episode_id}' is already used on line {self.first_line} {self.first_where}"


@rule(code="MW105", name="duplicate-id", severity=Severity.ERROR, scope=Scope.WORKSPACE)
def duplicate_id(ctx):
    """An episode id used twice, in the log or across the log and its archive.

    ## What it does
    Collects the `id` of every episode in the episodic log and the archive and
    reports every use after the first, naming where the first one is.

    ## Why
    Links, associations and recall results refer to episodes by id. Two
    episodes with one id make every such reference ambiguous, and consolidation
    may merge or archive the wrong one.

    ## Example
    ```json
    {"id": "ep_00000002", "title": "Chose shared memory", ...}
    {"id": "ep_00000002", "title": "Session hooks verified", ...}
    ```

    ## Fix safety
    No fix: renaming an id would break whatever already links to it.
    """
    if not any(ctx.is_target(p) for p, kind in ctx.workspace.files.items() if kind.name in EPISODE_KINDS):
        return  # no log or archive is reported on (a run on one note): never parse the whole log for nothing
    seen: dict[str, tuple[str, int]] = {}
    for relpath, kind in sorted(ctx.workspace.files.items()):
        if kind.name not in EPISODE_KINDS or kind.format != "jsonl":
            continue
        ids = ctx.record_summaries(_episode_ids, relpath)
        if ids is None or _unrecognised_log(ctx, relpath):
            continue
        for record_line, found in ids.items():
            for key, line, column in found:
                if key in seen:
                    first_path, first_line = seen[key]
                    where = "above" if first_path == relpath else f"in {first_path}"
                    yield Problem(line, column, DuplicateId(key, first_line, where).message, json_path="$.id", path=relpath)
                else:
                    seen[key] = (relpath, record_line)


def _unrecognised_log(ctx, relpath: str) -> bool:
    shape = recognition.shape_in_run(ctx, relpath)
    return shape is not None and not shape.recognised


def _episode_ids(doc, profile) -> dict[int, list]:
    """Per line of a log: [id, line, column] of each record's id (a number or text), for duplicate-id."""
    ids: dict[int, list] = {}
    for record in doc.records:
        if not record.ok or not isinstance(record.data, dict):
            continue
        episode_id = record.data.get("id")
        if not isinstance(episode_id, (str, int)) or isinstance(episode_id, bool):
            continue
        line, column = doc.locate(record, ("id",))
        ids.setdefault(record.line, []).append([str(episode_id), line, column])
    return ids


# -- malformed-jsonl ---------------------------------------------------------------


@dataclass(frozen=True)
class BlankLine:
    message = "blank line in a JSONL log"
    fix_title = "remove the blank line"


@dataclass(frozen=True)
class TwoRecordsOnOneLine:
    message = "a second JSON object on one line; JSONL holds one record a line"
    fix_title = "move the record onto a line of its own"


@dataclass(frozen=True)
class NoFinalNewline:
    message = "no newline at the end of the file: the next append will join this line"
    fix_title = "add the final newline"


@rule(
    code="MW106",
    name="malformed-jsonl",
    severity=Severity.ERROR,
    kinds=("episodic", "episode-archive", "associations"),
    fix=Applicability.SAFE,
    records=True,
)
def malformed_jsonl(doc, ctx):
    """A JSONL log with blank lines, two records on one line, or no final newline.

    ## What it does
    Reports blank lines, a second JSON object on a line that already holds one,
    and a last record without a line ending.

    ## Why
    JSONL tools read a record a line. A blank line stops some readers; two
    objects on one line hide the second from line-based tools (grep, jq -c,
    `git diff`); and the next append to a file without a final newline glues
    the new record onto the last one, which breaks both.

    ## Example
    ```text
    {"ts": "...", "type": "decision", ...}{"ts": "...", "type": "lesson", ...}
    ```

    ## Fix safety
    Safe: removes blank lines, puts each record on its own line, adds the final
    newline. No record's content changes, and the line ending is the file's own.
    """
    if not isinstance(doc, JsonlDocument):
        return
    newline = doc.newline
    for number in doc.blank_lines:
        start = doc.line_starts[number - 1]
        end = doc.line_starts[number] if number < len(doc.line_starts) else len(doc.text)
        violation = BlankLine()
        yield Problem(number, 1, violation.message, fix=Fix(Applicability.SAFE, violation.fix_title, (Edit(start, end, ""),)))
    previous = None
    for record in doc.records:
        if record.shares_line and record.ok and previous is not None and previous.ok:
            violation = TwoRecordsOnOneLine()
            fix = Fix(Applicability.SAFE, violation.fix_title, (Edit(previous.end, record.start, newline),))
            yield Problem(record.line, record.column, violation.message, fix=fix)
        previous = record
    text = doc.text
    if text and not text.endswith("\n") and text.strip():
        last_line = doc.line_count
        if doc.line_text(last_line).strip():
            line, column = last_line, len(doc.line_text(last_line)) + 1
            violation = NoFinalNewline()
            fix = Fix(Applicability.SAFE, violation.fix_title, (Edit(len(text), len(text), newline),))
            yield Problem(line, column, violation.message, fix=fix)

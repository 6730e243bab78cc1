"""Memory that agrees with itself: opposite claims, repeated records, records with no provenance."""

from __future__ import annotations

import os
from dataclasses import dataclass

from memwarden.analysis import coherence
from memwarden.analysis.superseded import supersession_marks
from memwarden.discover.profiles import is_dreaming_output
from memwarden.model import Option, Problem, Scope, Severity
from memwarden.registry import rule
from memwarden.text import excerpt, quoted, quoted_path

QUOTE_CHARS = 70
LAYER_NAMES = {"fact": "fact", "note": "note", "episode": "episode"}


def _records(ctx):
    marks = ctx.summaries(supersession_marks, "note")
    return ctx.memo.get("coherence.records", lambda: coherence.memory_records(ctx.workspace, marks))


# -- conflicting-records ------------------------------------------------------------------


@dataclass(frozen=True)
class ConflictingRecords:
    layer: str  # the other record's layer
    path: str
    line: int
    other: str  # the other record's sentence, as found

    @property
    def message(self) -> str:
        return (
            f"this contradicts the {self.layer} at {quoted_path(self.path)} line {self.line}: "
            # Token-like runs are masked; the engine hides the secrets of both files (Problem.quotes_from).
            f'"{excerpt(self.other, QUOTE_CHARS)}" (decide which is true, then correct or archive the other)'
        )


@dataclass(frozen=True)
class ConflictingFactValue:
    key: str
    value: object
    other: object
    path: str
    line: int

    @property
    def message(self) -> str:
        return (
            f"fact {quoted(self.key, 60)} is {quoted(str(self.value), 40)} here but {quoted(str(self.other), 40)} "
            f"in {quoted_path(self.path)} line {self.line}: keep one value, archive the other"
        )


@rule(
    code="MW305",
    name="conflicting-records",
    severity=Severity.WARNING,
    scope=Scope.WORKSPACE,
    options={
        "similarity": Option(0.8, float, "how much of two CJK statements' content must be shared to call them one subject (0..1)"),
        "fact_keys": Option(True, bool, "also report one fact key given two different values in two facts files"),
    },
)
def conflicting_records(ctx):
    """Two records, in any pair of layers, that make opposite claims about the same thing.

    ## What it does
    Reads every sentence of the live facts, notes and episodes (archived
    records and superseded notes are history and are left out), reduces each
    to its content, its values and its polarity, and reports a pair that says
    opposite things about the same thing:

    - one is a negative claim ("X does not support Y", 「不支援」, 「対応していない」,
      as `negative-claim-without-expiry` reads them) and the other says the
      same thing plainly ("X supports Y"), with the same words, versions and
      names: case, spacing, full-width forms and Traditional/Simplified
      characters are folded first;
    - or both say the same thing with a different amount ("access tokens
      expire after 15 minutes" against "... after 24 hours");
    - or both give one setting two values in other words: the same leading
      name with one amount in the same unit ("Loki keeps logs for 30 days"
      against "Loki retention is set to 7 days"), or the same subject using
      another version of a tool ("every deploy job builds with Go 1.21"
      against "all deploy jobs build with Go 1.22"; "Go 1.21 needs X" against
      "Go 1.22 ships Y" is two facts about two versions; "Phase 2", "Step 3",
      "Fix 5" number parts of a series and are no versions);
    - or one says a thing was removed, retired or replaced ("BigQuery was
      phased out", 「停用了企业微信扫码登录」) and the other that it is in use;
      a removal said of one environment ("removed from staging") does not
      contradict another.

    A claim about another object, plan, version, platform or environment has
    other words or another version, and is not a conflict. Two log entries
    written at two times (episodes of two days; two daily notes, named by
    their date: `memory/2026-03-04.md`, `memory/2026-03-04-summary.md`)
    record what changed between them, not a contradiction. Logs are history
    and are not read at all: a note with a date in its path
    (`archive/2026-02/`), in a log's folder (`sessions/`, `logs/`,
    `journal/`, `transcripts/`), and OpenClaw's `memory/` folder, whose
    curated memory is the root's `MEMORY.md`; a heading or a
    line that ends in a colon names what follows and is no statement. Also reports one
    fact key set to two different values in two facts files (`fact.yml` and
    `fact_infra.yml`). The finding is at the newer record (its own date, else
    the later in the log) and names the other one's file and line. Statements
    are bucketed by content, so a workspace of 100,000 episodes is never
    compared pair by pair.

    ## Why
    The decay of memory decides what fades, not what conflicts: a fact that a
    later episode contradicts keeps being loaded, and the agent acts on
    whichever it reads first.

    ## Example
    `memory/episodic.jsonl:42:1: MW305 conflicting-records this contradicts the note at 'memory/knowledge/references/vercel.md' line 6: "Vercel Edge Functions support WebSockets." (decide which is true, then correct or archive the other)`

    ## Fix safety
    No fix: which of the two is true is the user's call.
    """
    similarity = float(ctx.options["similarity"])
    found = ctx.kept_conflicts(ctx.summaries(supersession_marks, "note"), similarity)
    if found is None:
        found = coherence.find_conflicts(coherence.standing(_records(ctx), ctx.workspace.profile.name), similarity)
    for pair in found:
        newer, older = pair.newer, pair.older
        violation = ConflictingRecords(LAYER_NAMES[older.record.layer], older.place.path, older.place.line, older.sentence)
        place = newer.place
        yield Problem(place.line, place.column, violation.message, json_path=place.json_path, path=place.path,
                      quotes_from=(older.place.path,))
    if not ctx.options["fact_keys"]:
        return
    for pair in coherence.fact_key_conflicts(ctx.documents("facts"), ctx.workspace.profile.name):
        newer, older = pair.newer, pair.older
        violation = ConflictingFactValue(
            ".".join(map(str, newer.key)), newer.value, older.value, older.place.path, older.place.line
        )
        yield Problem(newer.place.line, newer.place.column, violation.message, json_path=newer.place.json_path,
                      path=newer.place.path, quotes_from=(older.place.path,))


# -- near-duplicate -------------------------------------------------------------------------


@dataclass(frozen=True)
class NearDuplicate:
    layer: str
    path: str
    line: int
    exact: bool

    @property
    def message(self) -> str:
        what = "repeats" if self.exact else "says nearly the same as"
        where = f"{quoted_path(self.path)} line {self.line}"
        if self.layer == "note":
            how = f"keep one: add `supersedes: {self.path.rsplit('/', 1)[-1]}` here and archive the earlier note, or merge them"
        else:
            how = "keep one: archive the earlier episode (decay_status: archived, or move it to the archive) and link it from this one, or merge them"
        return f"this {self.layer} {what} the {self.layer} at {where}: {how}"


@rule(
    code="MW306",
    name="near-duplicate",
    severity=Severity.WARNING,
    scope=Scope.WORKSPACE,
    options={
        "threshold": Option(0.5, float, "how similar two records' content words (CJK: character pairs) must be, as a Jaccard index (0..1)"),
        "containment": Option(0.8, float, "or how much of the shorter record's content the longer one must hold (0..1)"),
    },
)
def near_duplicate(ctx):
    """Two episodes, or two notes, that say the same thing with small differences.

    ## What it does
    Compares each live episode with the earlier episodes, and each note with
    the earlier notes (by their own dates, then their order), and reports the
    later of two that share most of their content words (Latin words, CJK
    character pairs; function words left out; width, case and
    Traditional/Simplified forms folded), naming the earlier one's file and
    line. Two records with different numbers or versions, or where one is
    negative and the other is not, are not repeats; nor are OpenClaw's
    dreaming reports (`memory/dreaming/light|rem|deep/`), which it writes
    every day from one template, and its dream diary DREAMS.md. Candidates come from
    MinHash bands, so 100,000 episodes are never compared pair by pair.
    `threshold` (Jaccard index of the content, default 0.5) and `containment`
    (the share of the shorter record found in the longer, default 0.8) set how
    close counts as the same.

    ## Why
    A lesson written down twice is read twice, costs its place in the budget
    twice, and the two copies drift apart: the next correction lands in one of
    them.

    ## Example
    `memory/episodic.jsonl:88:1: MW306 near-duplicate this episode says nearly the same as the episode at 'memory/episodic.jsonl' line 12: keep one: archive the earlier episode ...`

    ## Fix safety
    No fix and no automatic merge: which copy to keep, and what each adds, is
    the author's call. The message says how to supersede one by the other.
    """
    threshold, containment = float(ctx.options["threshold"]), float(ctx.options["containment"])
    root = ctx.workspace.root
    found = ctx.kept_repeats(ctx.summaries(supersession_marks, "note"), threshold, containment)
    if found is None:
        found = coherence.find_repeats([r for r in _records(ctx) if r.layer in ("episode", "note")], threshold, containment)
    for repeat in found:
        earlier, later = repeat.earlier.place, repeat.later.place
        if earlier.path != later.path and _one_file(root, earlier.path, later.path):
            continue  # a symlink and its target: one file, read twice
        if any(is_dreaming_output(path, ctx.workspace.profile.name) for path in (earlier.path, later.path)):
            continue  # OpenClaw writes a dreaming report a phase a day on one template: alike by design
        violation = NearDuplicate(repeat.later.layer, earlier.path, earlier.line, repeat.exact)
        yield Problem(later.line, later.column, violation.message, path=later.path, quotes=False)


def _one_file(root, one: str, other: str) -> bool:
    """Whether two workspace paths are one file (a symlink and its target): two stats, not two realpath walks."""
    try:
        return os.path.samefile(root / one, root / other)
    except OSError:
        return False


# -- missing-provenance -------------------------------------------------------------------------


@dataclass(frozen=True)
class MissingProvenance:
    missing: tuple[str, ...]
    keys: tuple[str, ...]  # one field name per missing aspect, the first the config accepts

    @property
    def message(self) -> str:
        said = {"source": "no source or evidence", "date": "no date", "confidence": "no confidence"}
        lacks = ", ".join(said[aspect] for aspect in self.missing)
        fields = ", ".join(f"`{key}`" for key in self.keys)
        return f"long-term record with {lacks}: add {fields} so it can be checked and reviewed"


DEFAULT_KEYS = {"source": ["evidence", "source", "sources"], "date": ["updated", "date", "created"], "confidence": ["confidence"]}


@rule(
    code="MW307",
    name="missing-provenance",
    severity=Severity.WARNING,
    kinds=("note", "facts"),
    options={
        "profiles": Option(["ghost-in-shell"], list, "the profiles whose format has provenance fields; others are not checked"),
        "require": Option(["source", "date", "confidence"], list, "what a long-term record needs: source, date, confidence"),
        "source_keys": Option(DEFAULT_KEYS["source"], list, "fields that name a record's source or evidence"),
        "date_keys": Option(DEFAULT_KEYS["date"], list, "fields that date a record"),
        "confidence_keys": Option(DEFAULT_KEYS["confidence"], list, "fields that say how sure a record is"),
        "facts": Option(False, bool, "also check each top-level mapping of the facts files"),
    },
)
def missing_provenance(doc, ctx):
    """A long-term record (a note, or a fact) with no source or evidence, no date, or no confidence.

    ## What it does
    Looks for a source (`evidence`, `source`), a date (`updated`, `date`,
    `created`) and a confidence at the top of a note's front matter and under
    `metadata:`, and reports what is missing. It checks only the profiles
    whose format has such fields: by default ghost-in-shell, whose notes carry
    `metadata.updated`, `metadata.evidence` and `metadata.confidence`. A Claude
    Code note has only name, description and type, so the rule is off there
    unless `profiles` names it. With `facts = true` it also checks each
    top-level mapping of the facts files (a file that dates and sources itself
    at the top passes whole). What is required and which fields count are
    configurable.

    ## Why
    Long-term memory outlives the session that wrote it. Without a source it
    cannot be re-verified, without a date nobody knows how old it is, without a
    confidence a guess reads like a fact.

    ## Example
    ```markdown
    ---
    name: deploy-flags
    description: which flag skips the cache purge
    metadata:
      type: reference
    ---
    ```
    `memory/knowledge/references/deploy-flags.md:1:1: MW307 missing-provenance long-term record with no source or evidence, no date, no confidence: add `evidence`, `updated`, `confidence` ...`

    ## Fix safety
    No fix: only the author knows where a record came from.
    """
    options = ctx.options
    if ctx.workspace.profile.name not in options["profiles"] or (doc.kind.name == "facts" and not options["facts"]):
        return
    keys = {"source": list(options["source_keys"]), "date": list(options["date_keys"]), "confidence": list(options["confidence_keys"])}
    for lack in coherence.lacks(doc, list(options["require"]), keys):
        named = tuple(keys[aspect][0] if keys[aspect] else aspect for aspect in lack.missing)
        yield Problem(lack.line, lack.column, MissingProvenance(lack.missing, named).message, quotes=False)

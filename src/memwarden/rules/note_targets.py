"""What a note points at: the note it supersedes, and the paths on the machine it names.

dangling-supersedes (MW409) and missing-machine-path (MW411), beside
rules/index_targets.py, which checks what index lines point at.
"""

from __future__ import annotations

from dataclasses import dataclass

from memwarden.analysis.superseded import dangling_references
from memwarden.documents import format_json_path
from memwarden.errors import UsageError
from memwarden.model import Option, Problem, Severity
from memwarden.registry import rule
from memwarden.rules.notes import value_position
from memwarden.text import excerpt_path, quoted_path

NOTE_KINDS = ("note",)


# -- dangling-supersedes -------------------------------------------------------------------


@dataclass(frozen=True)
class DanglingSupersedes:
    key: str
    value: str

    @property
    def message(self) -> str:
        return (
            f"{self.key} {quoted_path(self.value)} names no note of this workspace (archives included): "
            "the chain of what replaced what is broken; fix the name or drop the key"
        )


@rule(code="MW409", name="dangling-supersedes", severity=Severity.WARNING, kinds=NOTE_KINDS)
def dangling_supersedes(doc, ctx):
    """A note whose `supersedes` (or `superseded_by`) names a note that does not exist.

    ## What it does
    Reads `supersedes` and `superseded_by` in a note's front matter (at the
    top or under `metadata:`, a value or a list) and reports a value that
    names no file: not as a path from the note's folder or the workspace root
    (with or without `.md`), and not as the stem of any Markdown file in the
    workspace, archives included, since a superseded note is usually archived.
    A `[[wikilink]]` or a Markdown link is read for its target; a URL, and
    prose (words with spaces), are not checked.

    ## Why
    `supersedes` is how memory says which lesson replaced which, and
    `superseded-note-indexed` relies on it to keep the index off stale
    notes. A misspelt or deleted target silently breaks that chain.

    ## Example
    ```yaml
    name: deploy-purges-cache
    supersedes: deploy-purge-cache   # no such note
    ```
    `MW409 dangling-supersedes supersedes 'deploy-purge-cache' names no note of this workspace ...`

    ## Fix safety
    No fix: the right target (or none) is the author's call.
    """
    if doc.front_matter is None:
        return
    for reference in dangling_references(ctx.workspace, doc):
        yield Problem(*value_position(doc, reference.path), DanglingSupersedes(reference.key, reference.value).message,
                      json_path=format_json_path(reference.path))


# -- missing-machine-path ------------------------------------------------------------------


@dataclass(frozen=True)
class MissingMachinePath:
    path: str
    in_repository: str | None  # the path relative to the repository, for one inside it
    checkout_evidence: str | None = None  # for one named in another checkout: a path there the repository has

    @property
    def message(self) -> str:
        if self.checkout_evidence is not None:
            place = self.path[: len(self.path) - len(self.in_repository or "")]
            return (
                f"absolute path '{excerpt_path(self.path, 80)}' names '{excerpt_path(self.in_repository or '', 60)}' of this "
                f"repository (checked out at {excerpt_path(place, 40)}, as '{excerpt_path(self.checkout_evidence, 60)}' shows), "
                "which has no such file: the note is out of date; point it at the file's new place, written relative "
                "to the repository"
            )
        if self.in_repository is not None:
            return (
                f"absolute path to '{excerpt_path(self.in_repository, 80)}' in this repository, which has no such file: "
                "the note is out of date; point it at the file's new place, written relative to the repository"
            )
        return (
            f"absolute path '{excerpt_path(self.path, 80)}' does not exist on this machine: the note may be out of "
            "date, or true on one machine only; check it, or write the path relative to the project"
        )


@rule(
    code="MW411",
    name="missing-machine-path",
    severity=Severity.WARNING,
    kinds=NOTE_KINDS,
    options={
        "outside_repository": Option(
            "hook",
            str,
            "when a path outside the repository is checked: 'hook' (only by `memwarden hook`, on the owner's "
            "machine, never under CI), 'always' (every run: on your own machine) or 'never'",
        ),
    },
)
def missing_machine_path(doc, ctx):
    """A note that names an absolute file-system path that does not exist.

    ## What it does
    Finds absolute paths in a note's prose and inline code and reports each
    that does not exist, where that can be told. A path inside the repository
    (the note says `/home/runner/work/app/app/src/deploy.sh` and the check runs
    in that checkout) is checked on every run, and so is a path in another
    checkout of the repository that the notes show: a folder that does not
    exist here (a devcontainer's `/opt/app`, a Codespace's `/workspaces/app`)
    below which a note names a file the repository has, two folders deep at
    least (`/opt/app/docs/setup.md` when `docs/setup.md` is here); the message
    names that proof. Any other path
    (`/opt/tools/deploy.sh`, `/usr/local/etc/app.toml`, `/mnt/data/`) tells
    something about the owner's machine only, so by default it is checked only
    by `memwarden hook`, the agent write hook that runs on that machine, and
    never under CI (`CI`, `GITHUB_ACTIONS`, `GITLAB_CI`... set). Set
    `outside_repository = "always"` to check such paths on every run (you run
    memwarden on your own machine) or `"never"`.

    Only paths below a folder found at the root of Unix-like systems and macOS
    count (`/opt`, `/usr`, `/etc`, `/var`, `/srv`, `/mnt`, `/Volumes`,
    `/Applications`, ...) or below the repository, so URLs and API routes
    (`/v1/chat/completions`) are never taken for paths. Not checked: home
    folders outside the repository (`/home/<name>`, `/Users/<name>`,
    `/mnt/c/Users/<name>`: `personal-path` reports those), `/tmp`, `/proc`, `/dev`, `/run`, paths with
    a placeholder (`<tool>`, `$HOME`, `/path/to/`, `...`, `*`), code blocks
    (commands and examples) and HTML comments. Windows paths are not checked,
    and macOS-only ones (`/Volumes`, `/Applications`, `/Library`,
    `/opt/homebrew`) only on a Mac.

    ## Why
    A note that sends the agent to a file that is not there is stale or only
    true on the machine it was written on; the agent either fails there or
    "fixes" the wrong thing. But a path missing from the machine that runs the
    check proves nothing about the owner's machine: CI has no `/mnt/c/...` and
    no server's `/usr/local/...`. So a finding is made only where the answer
    is at hand.

    ## Example
    ```markdown
    The deploy script is `/opt/tools/deploy.sh`; it purges the cache.
    ```
    Written by the agent on a machine with no `/opt/tools/deploy.sh`, the hook
    says `missing-machine-path: absolute path '/opt/tools/deploy.sh' does not
    exist on this machine ...`; `memwarden check` in CI says nothing.

    ## Fix safety
    No fix: only the author knows where the file went.
    """
    from memwarden.analysis import machine_paths
    from memwarden.discover.links import read_at_its_own_path
    from memwarden.discover.workspace import work_tree_of

    outside = ctx.options["outside_repository"]
    if outside not in machine_paths.OUTSIDE_REPOSITORY_CHOICES:
        raise UsageError(f"missing-machine-path: outside_repository must be one of "
                         f"{', '.join(machine_paths.OUTSIDE_REPOSITORY_CHOICES)}, not {outside!r}")
    if "/" not in doc.body or read_at_its_own_path(ctx.workspace, doc):
        return
    checks_outside = outside == "always" or (outside == "hook" and ctx.run.owner_machine)
    root = ctx.workspace.root  # read through the workspace: which files exist is a dependency of the findings
    repository = work_tree_of(root) or root

    def checkouts():
        named = ctx.summaries(machine_paths.paths_outside, *NOTE_KINDS)
        return machine_paths.checkouts_elsewhere((p for paths in named.values() for p in paths or ()), repository)

    elsewhere = ctx.memo.get(("checkouts-elsewhere", str(repository)), checkouts)
    for number, found in machine_paths.body_paths(doc, repository, elsewhere):
        if found.settled is machine_paths.Settled.ON_OWNER_MACHINE and not checks_outside:
            continue
        if not machine_paths.exists_here(found.path if found.checkout is None else str(repository / found.in_repository)):
            evidence = found.checkout.evidence if found.checkout is not None else None
            yield Problem(number, found.start + 1, MissingMachinePath(found.path, found.in_repository, evidence).message)

"""What memory says about its repository, checked against the repository and its history.

deleted-repo-path (MW412), undefined-script (MW413), wrong-package-manager (MW414), removed-symbol (MW415),
changed-since-note (MW416) and conflicting-instructions (MW417). Every finding carries its proof: the commit
that removed what the memory names, the manifest that does not define it, the lockfile that says otherwise,
the other file that says something else.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from memwarden.analysis.repo_claims import manifests, mentions
from memwarden.analysis.repo_claims.history import facts, is_code
from memwarden.analysis.repo_claims.staleness import covers, due_touches, is_record, scope_patterns, tells_history
from memwarden.analysis.repo_claims.topics import Statement, disagreements, topics_of
from memwarden.discover.symlinks import checked_at_another_path
from memwarden.discover.links import path_read_at_its_own_path, read_at_its_own_path
from memwarden.git import Removal
from memwarden.model import Applicability, Edit, Fix, Problem, RelatedLocation, Scope, Severity
from memwarden.registry import rule
from memwarden.text import excerpt, excerpt_path

OTHER_VALUE = "the other value"  # the label of a conflict's second place
MARKDOWN_KINDS = ("note", "agent-instructions", "startup-index", "shelf-index", "scratchpad")


def _commit(removal: Removal) -> str:
    return f"commit {removal.short} ({excerpt(removal.subject, 60)})" if removal.subject else f"commit {removal.short}"


def _scan(doc) -> mentions.Scan:
    return mentions.Scan(doc.text, doc.body_offset)


def _facts_for(doc, ctx, worth_reading=lambda repo: True):
    """The repository's facts when doc is to be checked; None outside a repository, when the facts say there is
    nothing to look for (`worth_reading`), and for a symlink's view of a file this run reports at another path
    (CLAUDE.md -> AGENTS.md): that file is checked once, there."""
    repo = facts(ctx)
    if not repo.usable or not worth_reading(repo) or checked_at_another_path(ctx.workspace, doc):
        return None
    return repo


def _problem(doc, offset: int, message: str, fix: Fix | None = None) -> Problem:
    line, column = doc.line_col(offset)
    return Problem(line, column, message, fix=fix)


# -- deleted-repo-path -----------------------------------------------------------------------------


@dataclass(frozen=True)
class DeletedPath:
    path: str
    removal: Removal
    moved_to: str | None

    @property
    def message(self) -> str:
        if self.moved_to:
            return (f"'{excerpt_path(self.path, 80)}' is no longer in the repository: {_commit(self.removal)} renamed it "
                    f"to '{excerpt_path(self.moved_to, 80)}'")
        if self.removal.renamed_to:
            return (f"'{excerpt_path(self.path, 80)}' is no longer in the repository: {_commit(self.removal)} renamed it "
                    f"to '{excerpt_path(self.removal.renamed_to, 80)}', which is gone too; the note may be out of date")
        return (f"'{excerpt_path(self.path, 80)}' is no longer in the repository: {_commit(self.removal)} deleted it; "
                "the note may be out of date")

    @property
    def fix_title(self) -> str:
        return f"write '{self.moved_to}' instead"


@rule(code="MW412", name="deleted-repo-path", severity=Severity.WARNING, kinds=MARKDOWN_KINDS,
      fix=Applicability.UNSAFE, reads_history=True)
def deleted_repo_path(doc, ctx):
    """A repository path the memory names that the history deleted or renamed, with the commit that did it.

    ## What it does
    Finds repository paths in a memory or instruction file: a whole inline code span that is a path
    (`src/ui/`, `scripts/deploy.sh`, `app/models.py:12`), a local link's target (from the file's folder)
    and a path of two or more names in prose; a link whose text names its own target
    (`[src/a.py](src/a.py)`) is one claim. A path that exists neither in the index nor in the working
    tree (from the top level, or from the file's folder or one above it: a package's CLAUDE.md names
    its own `src/`) is looked up in the history of HEAD (one `git log --diff-filter=DR -M` for all of them); when a
    commit deleted it, or renamed it (for a folder: the newest commit that removed a file of it), the
    finding names that commit. A path the history never had is not reported (it may live elsewhere),
    nor one on a line that tells of a removal or move ("`old/x.py` was removed"), nor one its clause
    says is not there or forbids ("There is no `src/db.rs`", "do NOT recreate `.agent/appdata`", in
    English, Chinese and Japanese, as the negative-claim detector reads them), nor the old name before an
    arrow to a new one (`launcher/Old/` → `launcher/New/`: the record of a rename), nor a file name written
    without a folder that a tracked file has somewhere (`.env.example` in a monorepo's one app, a design
    folder's `README.md`), nor a name the note says anywhere lives outside the repository ("`PLAN.md` —
    ephemeral (gitignored)"), nor one deleted (not renamed) that the repository's ignore rules ignore today
    (build output, a local `.mcp.json`: untracked on purpose; one `git check-ignore` a run), nor a memory
    file of the workspace, nor any path in a note that tells history (a dated log entry or daily note such
    as `memory/2026-03-28.md`, a note opening on a dated entry (`## 2025-09-10 — ...`), a journal,
    lessons learned, a note that calls itself historical, a file kept
    in an `archive/` or `backups/` folder or in a folder named by its day): it said what was true on its day. Outside a repository, before the first commit and in a shallow clone it reports
    nothing: there is no history to compare against.

    ## Why
    "Components live in `src/ui/`" keeps sending the agent to a folder that was moved months ago, every
    session. The commit is the proof: the finding can be checked in seconds and trusted.

    ## Example
    ```markdown
    Components live in `src/ui/`.
    ```
    `MW412 deleted-repo-path 'src/ui/' is no longer in the repository: commit 1a2b3c4 (Move UI into
    src/components) renamed it to 'src/components/'`

    ## Fix safety
    Unsafe, for a rename whose new path exists now and whose old path is written whole as the repository
    path (inline code or prose): the text is replaced by the new path, and so is a link's target that
    repeats it. Unsafe because the finding is a judgement (about one in fourteen held-out findings was
    wrong: a note telling history, a path another repository supplies), and a fix the pre-commit hook
    applied on a wrong finding would rewrite a right note; `--fix --unsafe-fixes` applies it. A deletion
    has no fix.
    """
    # A history that never deleted or renamed a path has nothing to report: the text is not read.
    repo = _facts_for(doc, ctx, worth_reading=lambda repo: bool(repo.removals))
    if repo is None:
        return
    ws = ctx.workspace
    note_path = repo.relative(ws.root, doc.relpath)
    reported: set[int] = set()
    scan = _scan(doc)
    if tells_history(note_path, doc.front_matter, scan.text[doc.body_offset:]):
        return  # a dated log entry tells what was true on its day: a file removed since is no stale claim
    found_mentions = list(mentions.path_mentions(scan, posixpath.dirname(note_path)))
    # A name the note says anywhere lives outside the repository ("`PLAN.md` — ephemeral (gitignored)") is gone
    # from HEAD on every line that names it.
    kept_out = {mention.value for mention in found_mentions if scan.kept_out_of_repo(mention.offset)}
    for mention in found_mentions:
        if (mention.history_context or mention.offset in reported or mention.value in kept_out
                or repo.existing(mention.value, note_path) is not None
                or repo.names_tracked_files(mention.value)):
            continue
        if mention.value.endswith(".md") and ws.kind_of(posixpath.relpath(mention.value, repo.relative(ws.root, "."))):
            continue  # a memory file of this workspace: broken-note-link's question
        found = repo.removal(mention.value)
        if (found is None or repo.untracked_on_purpose(mention.value) or scan.denies(mention.offset)
                or scan.renamed_from(mention.offset)):
            continue
        removal, moved_to = found
        violation = DeletedPath(mention.value, removal, moved_to)
        fix = None
        if moved_to and doc.text.startswith(mention.value, mention.offset):
            edits = tuple(Edit(at, at + len(mention.value), moved_to) for at in (mention.offset, *mention.also_at)
                          if doc.text.startswith(mention.value, at))
            fix = Fix(Applicability.UNSAFE, violation.fix_title, edits)
        reported.update((mention.offset, *mention.also_at))
        yield _problem(doc, mention.offset, violation.message, fix)


# -- undefined-script ------------------------------------------------------------------------------


@dataclass(frozen=True)
class UndefinedScript:
    command: str
    manifests: tuple[str, ...]
    removal: Removal | None

    @property
    def message(self) -> str:
        where = ", ".join(self.manifests[:3]) + (" ..." if len(self.manifests) > 3 else "")
        proof = f"; {_commit(self.removal)} removed it" if self.removal else ""
        return f"'{excerpt(self.command, 60)}' runs something {where} does not define{proof}"


@rule(code="MW413", name="undefined-script", severity=Severity.WARNING, kinds=MARKDOWN_KINDS, reads_history=True)
def undefined_script(doc, ctx):
    """A command the memory gives (`npm run x`, `pnpm x`, `make x`, `just x`, `task x`) whose script or target no manifest defines.

    ## What it does
    Reads commands in inline code and code blocks, and for those that run a script or a target
    (`npm run build`, `npm test`, `pnpm lint`, `yarn dev`, `make deploy`, `just fmt`, `task ci`) reads
    what the repository's tracked manifests define: every `package.json`'s `scripts`, every Makefile's
    targets, justfile recipes and aliases, Taskfile tasks and aliases. A name none of them defines is
    reported with the manifests read and, when the history shows it, the commit after which none
    defined it. Nothing is run. Not decided (no finding): a runner with no manifest in the repository,
    a Makefile with `include`, variables in targets or pattern rules, a justfile with `import` or `mod`,
    a Taskfile with `includes`, a command aimed elsewhere (`--filter`, `-C`, `--prefix`), a package
    manager's own commands (`pnpm install`, `pnpm exec`, `pnpm dlx`), a placeholder (`pnpm run ...`),
    `pnpm x` or `yarn x` when a package.json's dependencies install a binary `x` (they run it when no
    script has the name: `pnpm tsc` with typescript, `pnpm changeset` with @changesets/cli), a command
    after a `cd` out of the repository (an absolute or home path: another project's), one said to be
    planned ("# Run unit tests (when implemented)", "(add script to package.json)") or asked about
    ("`npm test`?"), and a line that tells of a removal.

    ## Why
    An instruction to run a script that is gone fails every session, or worse, the agent "fixes" it
    by inventing one.

    ## Example
    ```markdown
    Before a commit, run `npm run lint:fix`.
    ```
    `MW413 undefined-script 'npm run lint:fix' runs something package.json does not define; commit
    9f8e7d6 (Replace eslint with biome) removed it`

    ## Fix safety
    No fix: which script replaces it is the author's call.
    """
    repo = _facts_for(doc, ctx)
    if repo is None:
        return
    scan = _scan(doc)
    for command in mentions.commands(scan):
        call = manifests.script_call(command.words)
        if call is None or command.elsewhere or command.not_yet or scan.history_context(command.offset):
            continue
        paths = repo.manifests_of(call.runner)
        names = repo.definitions(call.runner) if paths else manifests.ANYTHING
        if names is manifests.ANYTHING or call.name in names or (call.may_run_binary and call.name in repo.binaries()):
            continue
        violation = UndefinedScript(command.text, tuple(paths), repo.script_removal(call.runner, call.name))
        yield _problem(doc, command.offset, violation.message)


# -- wrong-package-manager -------------------------------------------------------------------------


@dataclass(frozen=True)
class WrongManager:
    command: str
    used: str
    expected: str
    lockfile: str

    @property
    def message(self) -> str:
        return (f"'{excerpt(self.command, 60)}' uses {self.used}, but the repository's lockfile {self.lockfile} "
                f"is {self.expected}'s: the agent would run the wrong tool")


@rule(code="MW414", name="wrong-package-manager", severity=Severity.WARNING, kinds=MARKDOWN_KINDS, reads_history=True)
def wrong_package_manager(doc, ctx):
    """A command that manages the project with another package manager than the one its lockfile shows.

    ## What it does
    Reads commands in inline code and code blocks that manage the project: for JavaScript those that
    write the lockfile (`npm install`, `npm ci`, `yarn`, `yarn add`, `pnpm install`, `bun add`), for
    Python those and running through the tool (`poetry install`, `uv sync`, `pipenv install`,
    `pdm run x`, `uv run x`). It compares the tool with the lockfiles tracked at the repository's
    root: `pnpm-lock.yaml`, `package-lock.json`, `yarn.lock`, `bun.lock(b)` for JavaScript; `uv.lock`, `poetry.lock`, `Pipfile.lock`, `pdm.lock` for
    Python. It reports a command whose tool is not the one lockfile's. Not reported: an ecosystem with
    no lockfile or with two, `npx`, global installs (`-g`), `pip` (it works beside any of them), a
    command that adds only packages the repository itself publishes (a tracked package.json's `name`:
    `npm add @acme/sdk` in a guide for its users' projects), a command after a `cd` out of the
    repository, and a line that tells of a migration
    ("we moved from yarn to pnpm").

    ## Why
    `npm install` in a pnpm repository writes a second lockfile and resolves other versions; the
    memory that says so is out of date or was never right.

    ## Example
    ```markdown
    Install with `yarn install`.
    ```
    `MW414 wrong-package-manager 'yarn install' uses yarn, but the repository's lockfile pnpm-lock.yaml is pnpm's`

    ## Fix safety
    No fix: the command's words differ between tools.
    """
    # A repository with no lockfile at its top level has no manager to hold a command to: the text is not read.
    repo = _facts_for(doc, ctx, worth_reading=lambda repo: bool(manifests.managers_in(repo.root_files)))
    if repo is None:
        return
    root_files = repo.root_files
    expected = manifests.managers_in(root_files)
    scan = _scan(doc)
    for command in mentions.commands(scan):
        used = manifests.manager_used(command.words)
        wanted = expected.get(manifests.ECOSYSTEM.get(used or "", ""))
        if used is None or wanted is None or used == wanted or command.elsewhere or scan.history_context(command.offset):
            continue
        added = manifests.added_packages(command.words)
        if added and repo.own_packages().issuperset(added):
            continue  # installs what this repository publishes: addressed to its users' projects
        lockfile = next(path for path in root_files if manifests.LOCKFILES.get(path) == wanted)
        yield _problem(doc, command.offset, WrongManager(command.text, used, wanted, lockfile).message)


# -- removed-symbol --------------------------------------------------------------------------------


@dataclass(frozen=True)
class RemovedSymbol:
    name: str
    removal: Removal

    @property
    def message(self) -> str:
        return (f"'{excerpt(self.name, 60)}' is in no tracked code file any more: {_commit(self.removal)} removed "
                "it; the note may describe code that is gone")


@rule(code="MW415", name="removed-symbol", severity=Severity.WARNING, kinds=MARKDOWN_KINDS, reads_history=True)
def removed_symbol(doc, ctx):
    """A function or class the memory names in inline code that no tracked code file holds any more.

    ## What it does
    Takes the symbols named specifically enough to decide: a whole inline code span that is a call
    (`validateSession()`, `auth.check_token()`) of a name of six characters or more with a capital
    inside or an underscore, or a CamelCase name of three parts (`AuthSessionManager`). When no
    tracked file other than documentation (Markdown, text, JSON, YAML ...) holds the name as a whole
    word (one `git grep` for all of them), the history is asked for the newest commit that removed a
    line of a code file defining it (`def`, `function`, `const x =`, a method's head; one `git log -G`
    for the names of every file, at most 300 a run); with such a commit, it is reported. A name the
    code never defined is not reported (it may be a library's: the last call of `getComputedStyle()`
    going away says nothing of it), nor one its clause forbids or says is gone ("Do not use
    `unstable_cache()`").

    ## Why
    "Auth goes through `validateSession()`" after the function was replaced sends the agent looking
    for code that does not exist, or re-creating it.

    ## Example
    ```markdown
    Auth goes through `validateSession()`.
    ```
    `MW415 removed-symbol 'validateSession' is in no tracked code file any more: commit 4d5e6f7
    (Replace sessions with tokens) removed it`

    ## Fix safety
    No fix: what replaced it is the author's call.
    """
    repo = _facts_for(doc, ctx)
    if repo is None:
        return
    scan = _scan(doc)
    found = [m for m in mentions.symbol_mentions(scan) if not m.history_context]
    if not found:
        return
    # Every file's names are looked up together: one git grep and one git log -G for the workspace.
    names = sorted({name for listed in ctx.summaries(symbol_names, *MARKDOWN_KINDS).values() for name in listed or ()}
                   | {mention.value for mention in found})
    holders = repo.holders(names)
    removals = repo.symbol_removals([name for name in names if not any(is_code(path) for path in holders[name])])
    for mention in found:
        removal = removals.get(mention.value)
        if removal is not None and not scan.denies(mention.offset):
            yield _problem(doc, mention.offset, RemovedSymbol(mention.value, removal).message)


def symbol_names(doc) -> list[str]:
    """The symbols a file names that removed-symbol would look up (a summary kept per file by the cache)."""
    return sorted({m.value for m in mentions.symbol_mentions(_scan(doc)) if not m.history_context})


# -- changed-since-note ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ChangedSince:
    paths: tuple[str, ...]
    commits: tuple[str, ...]
    count: int

    @property
    def message(self) -> str:
        named = ", ".join(f"'{excerpt_path(path, 50)}'" for path in self.paths[:3]) + (" ..." if len(self.paths) > 3 else "")
        shown = ", ".join(self.commits[:5]) + (f" and {self.count - 5} more" if self.count > 5 else "")
        return (f"{self.count} commit{'s' if self.count != 1 else ''} since this note last changed touched {named} "
                f"({shown}): check that it still holds, then touch the note")


@rule(code="MW416", name="changed-since-note", severity=Severity.WARNING, kinds=("note",), reads_history=True)
def changed_since_note(doc, ctx):
    """A note whose repository paths (or `scope`) changed in commits after the note's own last change.

    ## What it does
    Takes the paths a note is about: its front matter's `scope` (a path or glob, or a list of them,
    at the top or under `metadata:`), or else the repository files it names that exist now (as
    `deleted-repo-path` finds them; not folders: a folder named without a `scope` is a place, and
    every commit under it would call for a re-check). A note that records the past stands for no
    paths but its `scope`: a dated log entry (its first line of prose gives the date, not a date it
    was last checked on, or its first heading starts with it, or its file name does: a daily note), a
    note whose title or opening calls
    it historical, superseded, lessons learned, a post-mortem, a retrospective, a journal or a log,
    and a note about its people (`type: feedback` or `user`); later changes to what it names in
    passing do not make it wrong. It finds the note's last first-parent commit and reports the
    first-parent commits after it (a merge with what it brought in) that changed any of those paths,
    naming them. A note with changes not yet committed, or not committed at all, is not reported:
    it is being written now. Nothing is reported outside a repository or in a shallow clone.

    ## Why
    `expires` says when to look at a note again by time; this says when by change. A note about
    `src/auth/` written before the last three commits to `src/auth/` deserves a look.

    ## Example
    ```markdown
    ---
    scope: src/auth/**
    ---
    Sessions are refreshed by the middleware.
    ```
    `MW416 changed-since-note 2 commits since this note last changed touched 'src/auth/**' (1a2b3c4 Replace
    sessions, 5d6e7f8 Add tokens): check that it still holds`

    ## Fix safety
    No fix: only reading the change can tell whether the note still holds.
    """
    repo = _facts_for(doc, ctx)
    if repo is None:
        return
    ws = ctx.workspace
    note_path = repo.relative(ws.root, doc.relpath)
    patterns = scope_patterns(doc.front_matter)
    scan = _scan(doc)
    if not patterns and not is_record(note_path, doc.front_matter, scan.text[doc.body_offset:]):
        named = mentions.path_mentions(scan, posixpath.dirname(note_path))
        existing = (repo.existing(m.value, note_path) for m in named if not m.history_context)
        # Files only: a folder named in passing is a place, and every commit under it would call for a re-check.
        patterns = tuple(dict.fromkeys(path for path in existing
                                       if path is not None and not path.endswith(".md") and repo.is_file(path)))
    if not patterns:
        return
    touched = due_touches(repo, note_path, patterns)
    if touched:
        commits = tuple(f"{touch.short} {excerpt(touch.subject, 40)}" for touch in touched)
        # The message names what the commits changed, not every path the note names (a note naming four files, one
        # of them changed, named the first three).
        changed = tuple(pattern for pattern in patterns
                        if any(covers(pattern, path) for touch in touched for path in touch.paths))
        yield Problem(1, 1, ChangedSince(changed, commits, len(touched)).message)  # due_touches covered each one


# -- conflicting-instructions ----------------------------------------------------------------------


@dataclass(frozen=True)
class Conflict:
    topic: str
    value: str
    other_value: str
    other_place: str

    @property
    def message(self) -> str:
        return (f"{self.topic}: this file says '{excerpt(self.value, 40)}', {self.other_place} says "
                f"'{excerpt(self.other_value, 40)}'; the agent gets both, settle on one")


@rule(code="MW417", name="conflicting-instructions", severity=Severity.WARNING, scope=Scope.WORKSPACE)
def conflicting_instructions(ctx):
    """Two memory or instruction files that give different values for the same topic.

    ## What it does
    Reads every Markdown memory and instruction file for these topics: the JavaScript package manager
    and the Python one its commands use (`pnpm install`, `uv sync`), the test command (a command
    in inline code or a code block on a line that speaks of tests: `pnpm test`, `pytest`, `make test`),
    and the directory a kind of thing lives in: a clause that begins with the noun and says it lives,
    is, goes, belongs or is located/kept/stored in one directory ("Components live in `src/ui/`"), or
    tells to put it there ("Put migrations in `db/`"). Only the same noun counts ("unit tests" and
    "e2e tests" are two), a directory inside the other is a more precise place, not another one, and
    whether the directory exists is not asked.
    When two files give different values for one topic, it reports one finding anchored at both: at
    the first file (by path), naming the other file and line, which is its related location (the
    text output's "also at" line, SARIF's `relatedLocations`, JSON's `related`, the editor's related
    information). A check of either file reports it, so a commit that stages only one of them is told.
    A file that gives two values itself is not counted (it may be comparing them), nor a line that
    tells of a migration. A `memwarden:` directive at the first file's line silences it; one at the
    other file's does not (as a related location in ruff or SARIF is shown, not suppressed).

    ## Why
    CLAUDE.md says `npm test`, a note says `pnpm test`: the agent follows whichever it read last, and
    one of them is stale.

    ## Example
    `CLAUDE.md`: "Run the tests with `npm test`." and `notes/testing.md`: "Tests: `pnpm test`."
    `CLAUDE.md:1:21: MW417 conflicting-instructions test command: this file says 'npm test',
    notes/testing.md:1 says 'pnpm test'` and below it `also at notes/testing.md:1:9 (the other value)`

    ## Fix safety
    No fix: which file is right is the author's call.
    """
    ws = ctx.workspace
    said = ctx.summaries(instruction_topics, *MARKDOWN_KINDS)  # under the cache, only changed files are read
    by_file, places = {}, {}
    for relpath, found in said.items():
        if not found or path_read_at_its_own_path(ws, relpath):
            continue
        by_file[relpath] = [Statement(topic, value, offset) for topic, value, offset, _, _ in found]
        places.update(((relpath, offset), (line, column)) for _, _, offset, line, column in found)
    for first, second in disagreements(by_file):
        other_line, other_column = places[(second.path, second.offset)]
        place = f"{ws.display_path(second.path, ws.root)}:{other_line}"
        line, column = places[(first.path, first.offset)]
        yield Problem(line, column, Conflict(first.topic, first.value, second.value, place).message, path=first.path,
                      quotes_from=(second.path,),
                      related=(RelatedLocation(second.path, other_line, other_column, OTHER_VALUE),))


def instruction_topics(doc) -> list | None:
    """What a Markdown file says on the topics two files can disagree on, as [topic, value, offset, line, column]
    (a summary: under the cache an unchanged file is not read again); None when it says nothing."""
    if doc is None or not doc.ok:
        return None
    found = []
    for statement in topics_of(_scan(doc)):
        line, column = doc.line_col(statement.offset)
        found.append([statement.topic, statement.value, statement.offset, line, column])
    return found or None

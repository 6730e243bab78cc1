"""The comparison a check runs: which commit is the base, which state is current, and what was lost between."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterable

from memwarden.analysis.history.compare import Comparison, Loss
from memwarden.analysis.history.snapshots import (
    DiskSnapshot,
    EmptySnapshot,
    GitSnapshot,
    ProposedSnapshot,
    WorktreeSnapshot,
    same_files,
)
from memwarden.errors import UsageError

if TYPE_CHECKING:
    from memwarden.git import Repo


def open_repo(ws, why: str) -> "Repo":
    # memwarden.git (and subprocess) load only when a check compares with git: start-up stays fast.
    from memwarden.git import GitError, Repo

    try:
        repo = Repo.discover(ws.root)
    except GitError as error:
        raise UsageError(f"{why} needs git: {error}") from None
    if repo is None:
        raise UsageError(f"{why} compares with git history, but {ws.root} is not inside a git working tree")
    return repo


def resolve_base(repo: "Repo", ref: str) -> tuple[str, str]:
    """(commit, label) to compare with for --base REF: its merge base with HEAD, like `git diff REF...`."""
    if ref.startswith("-"):
        raise UsageError(f"--base {ref!r}: a ref cannot start with '-'")
    sha = repo.resolve(ref)
    if sha is None and not repo.has_head():
        raise UsageError(f"--base {ref}: no such commit: this repository has no commit yet")
    if sha is None:
        shallow = " This clone is shallow." if repo.is_shallow() else ""
        raise UsageError(
            f"--base {ref}: no such commit in this repository.{shallow} CI checkouts are often shallow or fetch "
            "one branch only: fetch more history first (`git fetch --unshallow`, or `git fetch origin "
            "<branch>`; with GitHub's actions/checkout set `fetch-depth: 0`)"
        )
    if not repo.has_head():
        return sha, ref
    base = repo.merge_base(sha, "HEAD")
    if base is None:
        if repo.is_shallow():
            raise UsageError(
                f"--base {ref}: cannot find where HEAD forked from it, because this clone is shallow: fetch "
                "more history (`git fetch --unshallow`; with actions/checkout set `fetch-depth: 0`)"
            )
        return sha, ref  # unrelated histories: compare with the ref itself
    if base == sha:
        return sha, ref
    return base, f"{ref} (merge base {repo.short(base)})"


@dataclass(frozen=True)
class Shrunk:
    """A memory file that is smaller now than at the base (sizes in bytes)."""

    path: str
    base_size: int
    size: int


@dataclass
class ChangesSinceBase:
    label: str  # the base, as messages name it
    losses: list[Loss]
    staged: bool
    restored_in_worktree: set[str] = field(default_factory=set)  # keys of staged losses the working tree has back
    shrunk: list[Shrunk] = field(default_factory=list)  # files (not logs, not archives) smaller than at the base
    base_raw: Callable[[str], bytes | None] = lambda relpath: None  # a file's bytes at the base, which messages quote


def shrunk_files(base, current) -> list[Shrunk]:
    """Files present on both sides that are smaller now but not empty (an emptied note is a deleted one).

    Logs are left out: a record that leaves a log is reported one by one, and consolidation moves many at once.
    """
    found = []
    for relpath, role in sorted(base.roles.items()):
        if role.archived or role.group == "records" or relpath not in current.files:
            continue
        if base.signature(relpath) is not None and base.signature(relpath) == current.signature(relpath):
            continue
        before, now = base.raw(relpath), current.raw(relpath)
        if before is None or now is None or not now.strip() or len(now) >= len(before):
            continue
        found.append(Shrunk(relpath, len(before), len(now)))
    return found


def changes_since_base(ws, base_ref: str | None, staged: bool, mutable_fields: Iterable[str]) -> ChangesSinceBase:
    """What the base (--base REF, else HEAD) held that the index (--staged) or the working tree lost.

    With content proposed for a file (`check --stdin-filename`) and no ref, the base is the file on
    disk: what this write would lose, git or not. An older, uncommitted change is the pre-commit
    hook's to judge, not the write's (with --base REF the proposed tree is compared with REF).
    """
    from memwarden.git import GitError

    fields = tuple(mutable_fields)
    if ws.proposed and not base_ref and not staged:
        base = DiskSnapshot(ws)
        losses = Comparison(ws, base, ProposedSnapshot(ws), fields).losses() if base.files else []
        return ChangesSinceBase(base.label, losses, staged, base_raw=base.raw)
    flag = "--staged" if staged and not base_ref else "--base"
    repo = open_repo(ws, flag)
    cache: dict = {}
    try:
        if base_ref:
            sha, label = resolve_base(repo, base_ref)
            base = GitSnapshot(ws, repo, label, repo.tree_files(sha, repo.prefix), cache)
        elif repo.has_head():
            base = GitSnapshot(ws, repo, "HEAD", repo.tree_files("HEAD", repo.prefix), cache)
        else:
            base = EmptySnapshot(ws, "the empty tree (no commit yet)")
        if staged:
            current = GitSnapshot(ws, repo, "the index", repo.index_files(repo.prefix), cache)
        else:
            current = WorktreeSnapshot(ws, repo)
        losses = Comparison(ws, base, current, fields).losses() if base.files else []
        changes = ChangesSinceBase(base.label, losses, staged, shrunk=shrunk_files(base, current) if base.files else [],
                                   base_raw=base.raw)
        if losses and staged:
            # The fix writes the working tree: what is back there already needs only `git add`.
            worktree = WorktreeSnapshot(ws, repo)
            if not same_files(current, worktree):
                still_lost = {loss.key for loss in Comparison(ws, base, worktree, fields).losses()}
                changes.restored_in_worktree = {loss.key for loss in losses if loss.key not in still_lost}
    except GitError as error:
        raise UsageError(str(error)) from None
    return changes

"""The append-only rules judged with the configuration the base had: a change cannot switch off its own check.

A commit that also edits memwarden's configuration (an `exclude`, a `per-file-ignores` entry, an
`ignore` that beats `--select`, another `profile`, other `kinds.*.globs`) would otherwise be
checked under the settings it brings. With `--staged` or `--base`, when the configuration that
applies to the workspace differs from the one at the base commit, the append-only rules run once
more under the base's configuration, and what they find is reported too.
"""

from __future__ import annotations

from pathlib import Path

from memwarden.fileio import read_regular

APPEND_ONLY_RULES = ("deleted-record", "rewritten-record", "deleted-note", "shrunk-file")


def findings_under_base_config(ws, run) -> tuple[list, str | None]:
    """(the append-only findings under the base's configuration, the base's label), or ([], None) when the
    configuration is the base's own (or there is no base commit, or the run is not a comparison)."""
    from memwarden.analysis.history.check import open_repo, resolve_base
    from memwarden.discover.config import load_from
    from memwarden.discover.workspace import open_workspace
    from memwarden.engine.run import RunOptions, check_workspace, selected_rules
    from memwarden.git import GitError

    if not (run.base or run.staged) or ws.proposed:
        return [], None
    repo = open_repo(ws, "--base" if run.base else "--staged")
    try:
        if run.base:
            commit, label = resolve_base(repo, run.base)
        elif repo.has_head():
            commit, label = "HEAD", "HEAD"
        else:
            return [], None  # the first commit: there is no configuration before it
        config = load_from(ws.root, lambda path: _read_at(repo, commit, path))
    except GitError:
        return [], None  # the main pass has said what is wrong with the repository
    if config == ws.config:
        return [], None
    profile = ws.profile.name if ws.profile_reason == "set on the command line" else None
    # The whole workspace: the files the commit's own excludes drop are the ones to compare.
    at_base = open_workspace(ws.root, profile, config=config)
    rules = [rule.name for rule in selected_rules(at_base, run) if rule.name in APPEND_ONLY_RULES]
    if not rules:
        return [], None
    options = RunOptions(select=rules, today=run.today, base=run.base, staged=run.staged, cwd=run.cwd)
    return check_workspace(at_base, options).findings, label


def _read_at(repo, commit: str, path: Path) -> bytes | None:
    """A config file's bytes in the commit (inside the repository), or on disk (above it: not versioned)."""
    try:
        relpath = path.resolve().relative_to(repo.toplevel.resolve()).as_posix()
    except ValueError:
        try:
            return read_regular(path)
        except OSError:
            return None  # missing, a FIFO or a folder: no configuration there
    return repo.show(commit, relpath)

"""Absolute file-system paths written in a note, and where their existence can be settled.

A path is settled only where the truth about it is at hand. A path inside the repository
(`/home/runner/work/app/app/src/gone.py` while the check runs in that checkout) is settled by
the check itself, on any machine; so is a path in another checkout of the repository (a
devcontainer's `/opt/app/...`) once a note names a file below that folder that the repository
has (:func:`checkouts_elsewhere`). Any other path (`/opt/tools/deploy.sh`, `/mnt/c/...`, a
server's `/usr/local/...`) says something about the owner's machine only: CI never has it, so
its absence there proves nothing. Such a path is settled at most where the check runs on the
owner's machine (the agent hook, and never under CI). A later kind of settling, a path the
repository's history shows was moved, would be one more :class:`Settled` value.

Only paths that are clearly file-system paths are taken: they start at a folder every
Unix-like system or macOS has at its root (`/opt`, `/usr`, `/etc`, `/var`, `/srv`, `/mnt`,
`/Volumes`, ...) or inside the repository, so a URL's path or an API route
(`/v1/chat/completions`) is never one. Home folders (`/home/<name>`, `/Users/<name>`, WSL's
`/mnt/c/Users/<name>`) are personal-path's (MW702); `/tmp`, `/proc`, `/dev`, `/run` and `/sys`
hold what never lasts; a path with a placeholder (`/opt/<tool>/`, `$HOME`, `/path/to/`, `...`,
`*`) is an example, not a claim; a macOS-only path (`/Volumes`, `/Applications`, `/Library`,
`/opt/homebrew`) is checked on a Mac only.
"""

from __future__ import annotations

import enum
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from memwarden.documents.scan import comment_spans
from memwarden.patterns import LazyPattern

ROOT_FOLDERS = frozenset({
    "opt", "usr", "etc", "var", "srv", "mnt", "media", "Volumes", "Applications", "Library", "System",
    "private", "workspace", "workspaces", "nix", "snap", "root", "bin", "sbin", "lib", "lib64",
})
_PATH = LazyPattern(r"(?<![\w.~$%/:\\@-])/(?P<first>[A-Za-z][A-Za-z0-9._-]*)(?:/[^\s`'\"()<>\[\]{},;|*?$]+)+/?")
_PLACEHOLDER = LazyPattern(r"\.\.\.|…|(?:^|/)(?:path/to|to/the|your[-_]?\w*|example|foo|bar|xxx+|some[-_]?\w*)(?:/|$)",
                           re.IGNORECASE)
_TRAILING = ".,:;!?)]}'\"`"
# Where a path ends though its characters go on: a line number (`/opt/app/main.py:12`), the other side of a
# `from:to` pair (a container's `/srv/db:/var/lib/db`, a rename), a flake's attribute (`/etc/nixos#host`).
# What follows is not this machine's path: a container's or a rename's side is not looked for here.
_PAIR_OR_ATTRIBUTE = LazyPattern(r"[:#]")
# A Windows home seen from WSL (/mnt/c/Users/<name>) is a home folder: personal-path's.
_WSL_HOME = LazyPattern(r"/mnt/[A-Za-z]/Users/")
# Paths only a Mac has: on another system their absence says nothing about the note.
_MACOS_ONLY = ("/Volumes/", "/Applications/", "/Library/", "/System/", "/private/", "/opt/homebrew/")


class Settled(enum.Enum):
    """Where a path's existence can be told."""

    IN_REPOSITORY = "repository"  # wherever the check runs: the checkout is at hand
    ON_OWNER_MACHINE = "owner-machine"  # only on the machine the note was written for


# The values of missing-machine-path's `outside_repository` option: when a path outside the repository is checked.
OUTSIDE_REPOSITORY_CHOICES = ("hook", "always", "never")
# Variables CI services set; `CI` covers GitHub Actions, GitLab, CircleCI, Travis, Buildkite, Bitbucket ...
_CI_VARIABLES = ("CI", "GITHUB_ACTIONS", "GITLAB_CI", "BUILDKITE", "TF_BUILD", "JENKINS_URL", "TEAMCITY_VERSION")


@dataclass(frozen=True)
class Checkout:
    """The repository checked out at another place (a devcontainer's /opt/app), shown by a path a note names
    below it that is a file of the repository here: paths below it are settled by the repository too."""

    prefix: str  # "/opt/app/"
    evidence: str  # "/opt/app/docs/setup.md", when docs/setup.md is a file of the repository


@dataclass(frozen=True)
class MachinePath:
    path: str
    start: int  # offset in the line
    settled: Settled
    in_repository: str | None = None  # the path relative to the repository, for one inside it
    checkout: Checkout | None = None  # where it was named in another checkout of the repository


def absolute_paths(line: str, repository: Path | None = None, checkouts: tuple[Checkout, ...] = ()) -> list[MachinePath]:
    """The file-system paths a line names (see the module doc for which count), each with where it is settled."""
    found = []
    inside = _repository_prefixes(repository)
    for match in _PATH.finditer(line):
        path = _PAIR_OR_ATTRIBUTE.split(match.group(0), 1)[0].rstrip(_TRAILING)
        if _PLACEHOLDER.search(match.group(0)) or path.count("/") < 2:
            continue
        prefix = next((prefix for prefix in inside if path.startswith(prefix)), None)
        if prefix is not None:
            found.append(MachinePath(path, match.start(), Settled.IN_REPOSITORY, path[len(prefix):]))
            continue
        if match.group("first") not in ROOT_FOLDERS or _WSL_HOME.match(path):
            continue
        checkout = next((c for c in checkouts if path.startswith(c.prefix)), None)
        if checkout is not None:
            found.append(MachinePath(path, match.start(), Settled.IN_REPOSITORY, path[len(checkout.prefix):], checkout))
            continue
        if sys.platform != "darwin" and (path + "/").startswith(_MACOS_ONLY):
            continue
        found.append(MachinePath(path, match.start(), Settled.ON_OWNER_MACHINE))
    return found


def body_paths(doc, repository: Path | None = None, checkouts: tuple[Checkout, ...] = ()):
    """(line number, MachinePath) of every path in a note's body: prose and inline code, not code blocks or
    HTML comments."""
    if "/" not in doc.body:
        return
    hidden = doc.hidden_lines
    for number in range(doc.body_line, doc.line_count + 1):
        if number in hidden:
            continue
        line = doc.line_text(number)
        if "/" not in line:
            continue
        for start, end in comment_spans(line):  # a comment closed on its line: blanked, columns kept
            line = line[:start] + " " * (end - start) + line[end:]
        for found in absolute_paths(line, repository, checkouts):
            yield number, found


def paths_outside(doc) -> list[str]:
    """The paths outside any repository a note names (a summary: plain JSON, kept per note by content)."""
    return sorted({found.path for _, found in body_paths(doc)}) if doc.ok else []


def checkouts_elsewhere(paths, repository: Path) -> tuple[Checkout, ...]:
    """The places the notes show the repository checked out at: a folder that does not exist here, below which
    a note names a file the repository has (two folders deep at least: `src/app.py`, not a bare `README.md`)."""
    found: dict[str, Checkout] = {}
    for path in sorted(set(paths)):
        parts = path.strip("/").split("/")
        for cut in range(1, len(parts) - 1):
            prefix = "/" + "/".join(parts[:cut]) + "/"
            if prefix in found:
                break
            if exists_here(prefix):
                continue  # a folder of this machine, not the repository somewhere else
            if os.path.lexists(repository.joinpath(*parts[cut:])):
                found[prefix] = Checkout(prefix, path)
                break
    return tuple(found.values())


def _repository_prefixes(repository: Path | None) -> tuple[str, ...]:
    """The repository's folder as a note may write it: as given and with its symlinks followed, '/' at the end."""
    if repository is None:
        return ()
    named = {str(repository), os.path.realpath(repository)}
    return tuple(name.rstrip("/") + "/" for name in named if name not in ("/", ""))


def exists_here(path: str) -> bool:
    """Whether the path exists on this machine (a dangling symlink counts: the name is there)."""
    try:
        return os.path.lexists(path)
    except (OSError, ValueError):
        return True  # a name the file system cannot even ask about is no claim to judge


def in_ci(environ) -> bool:
    """Whether the process runs under a CI service (a variable set to anything but empty, 0 or false)."""
    return any(environ.get(name, "").strip().lower() not in ("", "0", "false", "no") for name in _CI_VARIABLES)

"""Absolute file-system paths written in a note, and whether they exist on this machine.

A note that says "the deploy script is /opt/tools/deploy.sh" is checked against the disk
it is read on. Only paths that are clearly file-system paths are taken: they start at a
folder every Unix-like system or macOS has at its root (`/opt`, `/usr`, `/etc`, `/var`,
`/srv`, `/mnt`, `/Volumes`, ...), so a URL's path or an API route (`/v1/chat/completions`)
is never one. Home folders (`/home/<name>`, `/Users/<name>`) are personal-path's (MW702);
`/tmp`, `/proc`, `/dev`, `/run` and `/sys` hold what never lasts; a path with a placeholder
(`/opt/<tool>/`, `$HOME`, `/path/to/`, `...`, `*`) is an example, not a claim; a macOS-only
path (`/Volumes`, `/Applications`, `/Library`, `/opt/homebrew`) is checked on a Mac only.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass

ROOT_FOLDERS = frozenset({
    "opt", "usr", "etc", "var", "srv", "mnt", "media", "Volumes", "Applications", "Library", "System",
    "private", "workspace", "workspaces", "nix", "snap", "root", "bin", "sbin", "lib", "lib64",
})
_PATH = re.compile(r"(?<![\w.~$%/:\\@-])/(?P<first>[A-Za-z][A-Za-z0-9._-]*)(?:/[^\s`'\"()<>\[\]{},;|*?$]+)+/?")
_PLACEHOLDER = re.compile(r"\.\.\.|…|(?:^|/)(?:path/to|to/the|your[-_]?\w*|example|foo|bar|xxx+|some[-_]?\w*)(?:/|$)",
                          re.IGNORECASE)
_TRAILING = ".,:;!?)]}'\"`"
# Paths only a Mac has: on another system their absence says nothing about the note.
_MACOS_ONLY = ("/Volumes/", "/Applications/", "/Library/", "/System/", "/private/", "/opt/homebrew/")


@dataclass(frozen=True)
class MachinePath:
    path: str
    start: int  # offset in the line


def absolute_paths(line: str) -> list[MachinePath]:
    """The file-system paths a line names (see the module doc for which count)."""
    found = []
    for match in _PATH.finditer(line):
        if match.group("first") not in ROOT_FOLDERS:
            continue
        path = match.group(0).rstrip(_TRAILING)
        if _PLACEHOLDER.search(match.group(0)) or path.count("/") < 2:
            continue
        if sys.platform != "darwin" and (path + "/").startswith(_MACOS_ONLY):
            continue
        found.append(MachinePath(path, match.start()))
    return found


def exists_here(path: str) -> bool:
    """Whether the path exists on this machine (a dangling symlink counts: the name is there)."""
    try:
        return os.path.lexists(path)
    except (OSError, ValueError):
        return True  # a name the file system cannot even ask about is no claim to judge

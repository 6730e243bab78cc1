"""Files as the store keys them: the workspace tree's, listed without a stat, one file's stat signature and SHA-256
(a file is hashed again only when its signature changed); memwarden's own, by their stat (the code's fingerprint)."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path


def walk_folders(root: Path, skip: set[str]):
    """(relpath prefix, folder, file names) of every folder below root, folders named in skip left out, symlinked
    folders not entered."""
    top = os.fspath(root)
    for directory, dirnames, filenames in os.walk(top):
        dirnames[:] = sorted(d for d in dirnames if d not in skip)
        # os.walk joins every directory to the top it was given: its path relative to it is the rest
        prefix = directory[len(top) :].lstrip(os.sep).replace(os.sep, "/")
        yield (prefix + "/" if prefix else ""), directory, filenames


def walk_files(root: Path, skip: set[str]):
    """(relpath, full path) of every file :func:`walk_folders` finds."""
    for prefix, directory, filenames in walk_folders(root, skip):
        for name in filenames:
            yield prefix + name, os.path.join(directory, name)


def file_names(root: Path, skip: set[str]) -> set[str]:
    """The relpaths of :func:`walk_files`, without a path joined for each (a hook lists thousands)."""
    return {prefix + name for prefix, _, filenames in walk_folders(root, skip) for name in filenames}


def signature(info: os.stat_result) -> str:
    # ctime and inode too: a write can restore size and mtime (os.utime), never ctime.
    return f"{info.st_size} {info.st_mtime_ns} {info.st_ctime_ns} {info.st_ino}"


def sha256_of(full: str) -> str | None:
    try:
        with open(full, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return None


def stat_one(root: Path, relpath: str, skip: set[str]) -> tuple[str, str] | None:
    """(signature, full path) of a file the walk lists, without the walk; None for one it does not (below a
    skipped or symlinked folder), for a file that is not regular and for one that cannot be stat-ed."""
    parts = relpath.split("/")
    if any(part in skip for part in parts[:-1]):
        return None
    if any(os.path.islink(os.path.join(root, *parts[:depth])) for depth in range(1, len(parts))):
        return None
    full = os.path.join(root, *parts)
    try:
        info = os.stat(full)
    except OSError:
        return None
    return (signature(info), full) if stat.S_ISREG(info.st_mode) else None


def code_files() -> list[Path]:
    """memwarden's own code and data: every .py and .json of the package (found from the package itself, so the
    answer does not depend on where this module sits in it) and of the schemas folder."""
    import memwarden
    from memwarden.documents.schema_store import schemas_dir

    package = Path(memwarden.__file__).resolve().parent
    return [path for base in (package, schemas_dir()) for path in sorted(base.rglob("*")) if path.suffix in (".py", ".json")]


def code_fingerprint() -> str:
    """memwarden's own files as they are now: a changed rule must never be answered from the cache."""
    entries = []
    for path in code_files():
        info = path.stat()
        entries.append((str(path), info.st_size, info.st_mtime_ns))
    return hashlib.sha256(repr(entries).encode()).hexdigest()

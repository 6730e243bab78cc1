"""Writing a fixed file: atomically, in place, keeping its mode."""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from memwarden.fileio import read_regular
from memwarden.patterns import LazyPattern


@dataclass(frozen=True)
class ReadAs:
    """A file as a fix read it: the fix may replace it only while it is still so."""

    data: bytes | None  # the bytes the fix was computed from; None: the file did not exist
    stamp: tuple[int, int] | None = None  # (size, mtime in ns) when it was read, if known


class ChangedOnDisk(Exception):
    """A file changed on disk after memwarden read it: replacing it would lose what was written meanwhile."""

    def __init__(self, path: Path, reason: str):
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


def change_since(path: Path, read_as: ReadAs) -> str | None:
    """How the file differs from what was read (size, mtime, content hash), or None if it does not."""
    if read_as.data is None:
        return "it was created" if os.path.lexists(path) else None
    target = path.resolve() if path.is_symlink() else path
    try:
        info = os.stat(target)
        if info.st_size != len(read_as.data) or (read_as.stamp is not None and info.st_size != read_as.stamp[0]):
            return "its size changed"
        if read_as.stamp is not None and info.st_mtime_ns != read_as.stamp[1]:
            return "its modification time changed"
        now = read_regular(target)
    except FileNotFoundError:
        return "it was deleted"
    except OSError as error:
        return f"it cannot be read again ({error.strerror or error})"
    if hashlib.sha256(now).digest() != hashlib.sha256(read_as.data).digest():
        return "its content changed"
    return None


def write_all_atomic(files: list[tuple[Path, bytes]], read_as: dict[Path, ReadAs] | None = None) -> None:
    """Write several files so that a failure before the renames changes none of them.

    Every new content is first written and synced to a temp file beside its
    target; only when all of them are on disk are they renamed into place. A
    failure (a read-only folder, a full disk) removes the temp files and raises
    UsageError naming the memory file, with every file unchanged. With
    `read_as`, each file so listed is confirmed unchanged since it was read
    (size, mtime, content hash) right before the renames; if one is not,
    ChangedOnDisk is raised and no file is changed.
    """
    from memwarden.errors import UsageError

    staged: list[tuple[str, Path]] = []
    try:
        for path, data in files:
            staged.append((_stage(path, data), path))
    except OSError as error:
        for temp, _ in staged:
            _remove(temp)
        failed = files[len(staged)][0]
        raise UsageError(f"cannot write {failed}: {error.strerror or error}; no file was changed") from None
    for _, path in staged:
        reason = change_since(path, read_as[path]) if read_as and path in read_as else None
        if reason is not None:
            for temp, _ in staged:
                _remove(temp)
            raise ChangedOnDisk(path, reason)
    for done, (temp, path) in enumerate(staged):
        try:
            os.replace(temp, path.resolve() if path.is_symlink() else path)
        except OSError as error:
            for leftover, _ in staged[done:]:
                _remove(leftover)
            changed = f"{done} other file(s) were already replaced" if done else "no file was changed"
            raise UsageError(f"cannot write {path}: {error.strerror or error}; {changed}") from None


def _stage(path: Path, data: bytes) -> str:
    """A synced temp file beside path holding data, with path's permission bits, owner and group.

    A rename replaces the file whatever its own permissions say, so they are checked here: a file
    its owner made read-only is refused, and the new file keeps the old one's owner (a fix run as
    root must not leave an agent's log that the agent can no longer append to).
    """
    if path.is_symlink():
        path = path.resolve()
    owner = None
    try:
        info = os.stat(path)
        mode = stat.S_IMODE(info.st_mode)
        if not _may_write(info):
            raise PermissionError(errno.EACCES, "the file is read-only for this user")
        owner = (info.st_uid, info.st_gid)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
        path.parent.mkdir(parents=True, exist_ok=True)
    sweep(path.parent)
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}.", suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        if owner is not None and owner != _owner_of(temp):
            os.chown(temp, *owner)  # a user who may not give the file back to its owner may not replace it
        os.chmod(temp, mode)  # after chown, which may clear set-id bits
    except BaseException:
        _remove(temp)
        raise
    return temp


def _may_write(info: os.stat_result) -> bool:
    """Whether the file's permission bits let this user write it (root too needs some write bit)."""
    if os.geteuid() == 0:
        return bool(info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    if info.st_uid == os.geteuid():
        return bool(info.st_mode & stat.S_IWUSR)
    if info.st_gid == os.getegid() or info.st_gid in os.getgroups():
        return bool(info.st_mode & stat.S_IWGRP)
    return bool(info.st_mode & stat.S_IWOTH)


def _owner_of(path: str) -> tuple[int, int]:
    info = os.stat(path)
    return info.st_uid, info.st_gid


TEMP_SUFFIX = ".memwarden-tmp"
# `.NAME.PID.XXXXXXXX.memwarden-tmp` as _stage names it (mkstemp's 8 characters); before the pid was in the
# name, `.NAME.XXXXXXXX.memwarden-tmp`.
_TEMP_NAME = LazyPattern(r"\.(?P<name>.+?)\.(?:(?P<pid>\d+)\.)?[a-z0-9_]{8}" + re.escape(TEMP_SUFFIX), re.DOTALL)
STALE_AFTER = 3600  # seconds: a temp file this old is a dead write's, whoever's pid is in its name now
_swept: set[str] = set()  # folders this process has swept


def sweep(folder: Path) -> list[str]:
    """Remove the temp files a killed write left in folder (once per folder and process); the names removed.

    Only memwarden's own: a regular file (never a symlink, never followed), owned by this user, named as
    _stage names them, whose process is gone (the pid in its name is not alive) or that is older than
    STALE_AFTER. A temp file of a write still running (here or in another memwarden) is left alone.
    """
    key = os.fspath(folder)
    if key in _swept:
        return []
    _swept.add(key)
    removed = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        match = _TEMP_NAME.fullmatch(entry.name) if entry.name.endswith(TEMP_SUFFIX) else None
        if match is None:
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid():
            continue
        pid = int(match.group("pid")) if match.group("pid") else None
        if now - info.st_mtime < STALE_AFTER and (pid is None or pid == os.getpid() or _alive(pid)):
            continue
        try:
            os.unlink(os.path.join(key, entry.name))  # unlink never follows a link; S_ISREG above was lstat's
            removed.append(entry.name)
        except OSError:
            continue
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # someone else's process: alive
    return True


def _remove(temp: str) -> None:
    try:
        os.unlink(temp)
    except OSError:
        pass


def write_atomic(path: Path, data: bytes) -> None:
    """Replace path's content with data so that a crash leaves the old file or the new, never half.

    The temp file lives in the same folder (a rename never crosses file
    systems) and takes the old file's permission bits. A symlink is followed:
    the file it names is replaced, the link stays a link.
    """
    if path.is_symlink():
        path = path.resolve()
    temp = _stage(path, data)
    try:
        os.replace(temp, path)
    except BaseException:
        _remove(temp)
        raise

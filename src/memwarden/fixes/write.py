"""Writing a fixed file: atomically, in place, keeping its mode."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def write_all_atomic(files: list[tuple[Path, bytes]]) -> None:
    """Write several files so that a failure before the renames changes none of them.

    Every new content is first written and synced to a temp file beside its
    target; only when all of them are on disk are they renamed into place. A
    failure (a read-only folder, a full disk) removes the temp files and raises
    UsageError naming the memory file, with every file unchanged.
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
    for done, (temp, path) in enumerate(staged):
        try:
            os.replace(temp, path.resolve() if path.is_symlink() else path)
        except OSError as error:
            for leftover, _ in staged[done:]:
                _remove(leftover)
            changed = f"{done} other file(s) were already replaced" if done else "no file was changed"
            raise UsageError(f"cannot write {path}: {error.strerror or error}; {changed}") from None


def _stage(path: Path, data: bytes) -> str:
    """A synced temp file beside path holding data, with path's permission bits."""
    if path.is_symlink():
        path = path.resolve()
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
        path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".memwarden-tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, mode)
    except BaseException:
        _remove(temp)
        raise
    return temp


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

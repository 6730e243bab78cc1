"""Reading a file that a workspace names, without ever blocking on it.

A memory path can be anything a repository or a hostile agent puts there: a FIFO opened for
reading blocks until a writer comes, forever in a hook; a device never ends. Every read of a
workspace file goes through :func:`read_regular`, which opens without blocking and reads only
a regular file.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

# Larger than this, a memory file is reported, not read: no agent loads it either.
MAX_FILE_BYTES = 64 * 1024 * 1024
# A file outside the memory that a rule reads (an agent's settings, its instructions) is read no further.
MAX_OUTSIDE_BYTES = 1_000_000


class NotRegularFile(OSError):
    """The path is a FIFO, socket, device or directory: there is nothing to read as a memory file."""

    def __init__(self, path: os.PathLike | str, mode: int):
        what = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
        super().__init__(f"{os.fspath(path)} is {what}")
        self.strerror = "is a directory" if stat.S_ISDIR(mode) else "is not a regular file"


def read_regular(path: os.PathLike | str, *, limit: int | None = None) -> bytes:
    """The bytes of a regular file (at most ``limit`` of them); OSError for anything else, never a block.

    O_NONBLOCK makes opening a FIFO return at once; the mode is then checked on the open
    descriptor, so a file swapped for a FIFO between a stat and the read is caught too.
    """
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(path, mode)
        with os.fdopen(descriptor, "rb", closefd=True) as stream:
            descriptor = -1
            return stream.read() if limit is None else stream.read(limit)
    finally:
        if descriptor >= 0:
            os.close(descriptor)


def is_regular(path: Path) -> bool:
    """Whether the path (links followed) is a regular file; False for a FIFO, a device, a missing path."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False

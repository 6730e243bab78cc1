"""A regular expression compiled on first use.

A rule module is imported whenever its rule is selected, and under the incremental cache most
selected rules run on nothing: a pattern that costs milliseconds to compile (wide Unicode classes,
long alternations) should cost them only in a run that matches with it.
"""

from __future__ import annotations

import re


class LazyPattern:
    """``re.compile(pattern, flags)``, deferred: any attribute of the compiled pattern compiles it."""

    __slots__ = ("_source", "_flags", "_compiled")

    def __init__(self, pattern: str, flags: int = 0):
        self._source = pattern
        self._flags = flags
        self._compiled = None

    def __getattr__(self, name: str):
        if self._compiled is None:
            self._compiled = re.compile(self._source, self._flags)
        return getattr(self._compiled, name)

"""A regular expression compiled on first use.

A rule module is imported whenever its rule is selected, and under the incremental cache most
selected rules run on nothing: a pattern that costs milliseconds to compile (wide Unicode classes,
long alternations) should cost them only in a run that matches with it.
"""

from __future__ import annotations

import re


class LazyPattern:
    """``re.compile(pattern, flags)``, deferred: any attribute of the compiled pattern compiles it, and is then
    kept on the instance, so later calls cost what they cost on the compiled pattern."""

    def __init__(self, pattern: str, flags: int = 0):
        self._source = pattern
        self._flags = flags

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        compiled = re.compile(self._source, self._flags)
        value = getattr(compiled, name)
        setattr(self, name, value)  # found in the instance from now on: __getattr__ is not called again
        return value

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
        self.pattern = pattern  # the source, as on a compiled pattern, read without compiling
        self._flags = flags

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        compiled = re.compile(self.pattern, self._flags)
        value = getattr(compiled, name)
        setattr(self, name, value)  # found in the instance from now on: __getattr__ is not called again
        return value


def union(*patterns) -> LazyPattern:
    """One expression that matches wherever any of ``patterns`` (compiled, lazy or source) would match, compiled
    on first use: their group names are dropped (two may share one) and each keeps its own flags to its part.

    A search with it finds something exactly when a search with one of them would, in the same string, so it is
    a gate: what it turns away, none of them would have matched."""
    parts = []
    for pattern in patterns:
        if isinstance(pattern, LazyPattern):
            source, flags = pattern.pattern, pattern._flags
        elif isinstance(pattern, re.Pattern):
            source, flags = pattern.pattern, pattern.flags
        else:
            source, flags = pattern, 0
        if "(?P=" in source or flags & (re.ASCII | re.LOCALE):
            raise ValueError(f"cannot join {source[:40]!r}: a back reference, or a flag that cannot be scoped")
        letters = "".join(letter for flag, letter in _SCOPED_FLAGS if flags & flag)
        parts.append(f"(?{letters}:{_NAMED_GROUP.sub('(?:', source)})" if letters else f"(?:{_NAMED_GROUP.sub('(?:', source)})")
    return LazyPattern("|".join(parts))


_SCOPED_FLAGS = ((re.IGNORECASE, "i"), (re.MULTILINE, "m"), (re.DOTALL, "s"), (re.VERBOSE, "x"))
_NAMED_GROUP = re.compile(r"\(\?P<\w+>")

"""Path globs with ``**``, matched against '/'-separated workspace-relative paths.

A glob comes from a config file anyone can edit, and a path from a tree anyone can fill, so
matching must never backtrack: a glob is read into a short list of steps and matched by
walking every step at once over the path (a small automaton), in time proportional to the
path's length times the glob's, whatever the glob is (``**/`` eighteen times, ``*a`` fourteen).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

# Step kinds: one literal character, one character but '/', one character of a class, any run of
# characters but '/' (``*``), any run at all (``**`` not followed by '/'), any run of whole
# segments each ending in '/' (``**/``).
_LITERAL, _ONE, _CLASS, _STAR, _ANY, _SEGMENTS = range(6)


@dataclass(frozen=True)
class Glob:
    pattern: str
    steps: tuple
    regex: re.Pattern | None = None  # the same glob as a regular expression, when it cannot backtrack far
    literal: str | None = None  # a glob of plain characters, maybe after a leading "**/": no expression needed
    anywhere: bool = False  # the literal may follow any whole segments (a leading "**/")

    def match(self, path: str) -> bool:
        if self.literal is not None:
            if not path.endswith(self.literal):
                return False
            before = path[: len(path) - len(self.literal)]
            # "**/" eats whole non-empty segments: nothing, or "a/b/" but never "/a/" nor "a//".
            return not before or (self.anywhere and before[-1] == "/" and before[0] != "/" and "//" not in before)
        if self.regex is not None:
            return self.regex.match(path) is not None
        return self.walk(path)

    def walk(self, path: str) -> bool:
        """The automaton's answer, whatever the glob: linear in the path."""
        # A state is (step, inside): inside is True within a segment that a ``**/`` step is reading.
        states = self._closure({(0, False)})
        for char in path:
            moved = set()
            for step, inside in states:
                if step == len(self.steps):
                    continue
                kind, data = self.steps[step]
                if kind == _SEGMENTS:
                    if char != "/":
                        moved.add((step, True))
                    elif inside:
                        moved.add((step, False))
                elif kind == _STAR:
                    if char != "/":
                        moved.add((step, False))
                elif kind == _ANY:
                    moved.add((step, False))
                elif (kind == _LITERAL and char == data) or (kind == _ONE and char != "/") or (
                    kind == _CLASS and data.match(char)
                ):
                    moved.add((step + 1, False))
            if not moved:
                return False
            states = self._closure(moved)
        return (len(self.steps), False) in states

    def _closure(self, states: set) -> set:
        """The states plus those reached by skipping the steps that may match nothing."""
        out = set(states)
        for step, inside in states:
            while not inside and step < len(self.steps) and self.steps[step][0] in (_STAR, _ANY, _SEGMENTS):
                step += 1
                out.add((step, False))
        return out


@functools.lru_cache(maxsize=512)
def compile_glob(pattern: str) -> Glob:
    """``*`` and ``?`` stay inside one path segment; ``**/`` spans any number of them.

    A pattern without a '/' matches the file name at any depth, as in .gitignore. A bad
    character class (``[z-a]``) raises ``re.error``.
    """
    pattern = pattern.strip()
    while pattern.startswith("./"):
        pattern = pattern[2:]
    if "/" not in pattern:
        pattern = "**/" + pattern
    steps: list[tuple] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            if not steps or steps[-1][0] != _SEGMENTS:  # "**/**/" is "**/": one step, not two
                steps.append((_SEGMENTS, None))
            i += 3
        elif pattern.startswith("**", i):
            steps.append((_ANY, None))
            i += 2
        elif c == "*":
            if not steps or steps[-1][0] != _STAR:
                steps.append((_STAR, None))
            i += 1
        elif c == "?":
            steps.append((_ONE, None))
            i += 1
        elif c == "[" and pattern.find("]", i + 1) != -1:
            close = pattern.find("]", i + 1)
            body = pattern[i + 1 : close].replace("\\", "\\\\")
            if body.startswith("!"):
                body = "^" + body[1:]
            steps.append((_CLASS, re.compile(f"[{body}]")))
            i = close + 1
        else:
            steps.append((_LITERAL, c))
            i += 1
    if pattern.endswith("/"):
        steps.append((_ANY, None))
    anywhere = bool(steps) and steps[0][0] == _SEGMENTS
    tail = steps[1:] if anywhere else steps
    if tail and all(kind == _LITERAL for kind, _ in tail):
        # Most kinds' globs name a file (``**/CLAUDE.md``): a suffix test, with no expression compiled.
        return Glob(pattern, tuple(steps), None, "".join(data for _, data in tail), anywhere)
    return Glob(pattern, tuple(steps), _regex_if_tame(steps))


_AS_REGEX = {_ONE: "[^/]", _STAR: "[^/]*", _ANY: ".*", _SEGMENTS: "(?:[^/]+/)*"}


def _regex_if_tame(steps: list[tuple]) -> re.Pattern | None:
    """The glob as a regular expression when matching it cannot backtrack far.

    Backtracking blows up when runs of any length can trade characters with each other. Between
    two '/' of a glob, one run (``*``) is matched against one path segment in one way per start;
    a ``**/`` eats whole segments; so a glob with at most one run between separators and at most
    two that cross them (``**/``, ``**``) costs at most a square of the path. Most globs
    (``memory/knowledge/*/**/*.md``, ``**/MEMORY.md``) are such: the regex engine is fast on them.
    Any other is walked as an automaton, slower on each character but linear.
    """
    if sum(kind in (_ANY, _SEGMENTS) for kind, _ in steps) > 2:
        return None
    in_segment = 0
    for kind, data in steps:
        if kind in (_STAR, _ANY):
            in_segment += 1
            if in_segment > 1:
                return None
        elif kind == _SEGMENTS or (kind == _LITERAL and data == "/"):
            in_segment = 0
    out = []
    for kind, data in steps:
        if kind == _LITERAL:
            out.append(re.escape(data))
        elif kind == _CLASS:
            out.append(data.pattern)
        else:
            out.append(_AS_REGEX[kind])
    return re.compile("".join(out) + r"\Z")


def is_glob(text: str) -> bool:
    """Whether a path has a wildcard in it (``*``, ``?``, ``[``), so it stands for paths rather than names one."""
    return any(mark in text for mark in "*?[")


def matches(path: str, pattern: str) -> bool:
    return compile_glob(pattern).match(path)


def matches_any(path: str, patterns) -> bool:
    return any(matches(path, p) for p in patterns)

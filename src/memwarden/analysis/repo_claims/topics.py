"""Topics on which two memory files can disagree: the package managers their commands use, the test command,
the directory a kind of thing lives in."""

from __future__ import annotations

import re
from dataclasses import dataclass

from memwarden.analysis.repo_claims import manifests
from memwarden.analysis.repo_claims.mentions import Scan, commands
from memwarden.analysis.repo_claims.places import inside_one_another, places_of
from memwarden.documents.scan import inside
from memwarden.patterns import LazyPattern

_TESTS_LINE = LazyPattern(r"\btests?\b|\btesting\b|\bspec\b", re.IGNORECASE)
_RUNNERS_WITH_TEST = frozenset({"npm", "pnpm", "yarn", "bun", "make", "just", "task", "cargo", "go", "mvn", "gradle",
                                "./gradlew", "dotnet", "mix", "deno"})
_TEST_TOOLS = frozenset({"pytest", "jest", "vitest", "tox", "nox", "rspec", "phpunit", "mocha", "ava", "playwright"})
_WRAPPERS = (("uv", "run"), ("poetry", "run"), ("pdm", "run"), ("pipenv", "run"), ("python", "-m"),
             ("python3", "-m"), ("npx",), ("pnpm", "exec"), ("yarn",), ("bunx",))
TOPIC_NAMES = {"js": "JavaScript package manager", "python": "Python package manager"}
TEST_COMMAND = "test command"


@dataclass(frozen=True)
class Statement:
    topic: str
    value: str
    offset: int
    path: str = ""


def normal_test_command(words: tuple[str, ...]) -> str | None:
    """The test command a command is, in one form (`npm run test` -> 'npm test', `uv run pytest -q` -> 'pytest')."""
    for wrapper in _WRAPPERS:
        if words[: len(wrapper)] == wrapper and len(words) > len(wrapper) and words[len(wrapper)] in _TEST_TOOLS:
            words = words[len(wrapper):]
            break
    if words and words[0] in _TEST_TOOLS:
        return words[0]
    if len(words) >= 2 and words[0] in _RUNNERS_WITH_TEST:
        rest = [w for w in words[1:] if not w.startswith("-")]
        if rest[:1] == ["run"] or rest[:1] == ["run-script"]:
            rest = rest[1:]
        if rest and rest[0] in ("test", "t"):
            return f"{words[0]} test"
    return None


def topics_of(scan: Scan) -> list[Statement]:
    found = []
    for command in commands(scan):
        if scan.history_context(command.offset):
            continue
        used = manifests.manager_used(command.words)
        if used is not None:
            found.append(Statement(TOPIC_NAMES[manifests.ECOSYSTEM[used]], used, command.offset))
        start = scan.text.rfind("\n", 0, command.offset) + 1
        end = scan.text.find("\n", command.offset)
        tested = normal_test_command(command.words)
        if tested is not None and _TESTS_LINE.search(scan.text[start : end if end >= 0 else len(scan.text)]):
            found.append(Statement(TEST_COMMAND, tested, command.offset))

    def no_claim(offset: int) -> bool:
        return offset < scan.body_start or inside(scan.fences, offset) or scan.history_context(offset)

    for place in places_of(scan.text, no_claim):
        found.append(Statement(place_topic(place.noun), place.directory, place.offset))
    return found


def place_topic(noun: str) -> str:
    return f"where each {noun} goes"


def contradicts(value: str, other: str) -> bool:
    """Two values of one topic that cannot both hold; a directory inside the other is a more precise place."""
    if value.endswith("/") and other.endswith("/"):
        return not inside_one_another(value, other)
    return value != other


def disagreements(by_file: dict[str, list[Statement]]) -> list[tuple[Statement, Statement]]:
    """For each topic on which files disagree, the first statement (by path) and the first that differs from it.
    A file that gives two values for a topic itself is left out of that topic."""
    by_topic: dict[str, dict[str, Statement]] = {}
    for path in sorted(by_file):
        values: dict[str, set[str]] = {}
        first: dict[str, Statement] = {}
        for statement in by_file[path]:
            values.setdefault(statement.topic, set()).add(statement.value)
            first.setdefault(statement.topic, Statement(statement.topic, statement.value, statement.offset, path))
        for topic, seen in values.items():
            if len(seen) == 1:
                by_topic.setdefault(topic, {})[path] = first[topic]
    pairs = []
    for topic in sorted(by_topic):
        statements = list(by_topic[topic].values())
        other = next((s for s in statements[1:] if contradicts(s.value, statements[0].value)), None)
        if other is not None:
            pairs.append((statements[0], other))
    return pairs

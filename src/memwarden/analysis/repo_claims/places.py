"""Where a memory file says a kind of thing lives: "components live in `src/ui/`", "put migrations in `db/`".

Precise first: a clause that begins with the noun (or with put/place/keep/store and the noun), then a verb of
place (lives, are, go, belong, sit, reside, are located/kept/stored/found) and in/under/inside, then one
directory: in inline code, or written with a '/'. A clause that names a second directory beside it ("in `a/`
or `b/`"), a pronoun or a word as vague as "files" for the noun, a file rather than a folder, and a line that
tells of a move are left out. Whether the directory exists is not asked: a claim is a claim either way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memwarden.patterns import LazyPattern

_DETERMINERS = r"(?:the|all|our|any|new|every|each|your|its|their)\s+"
_NOUN = r"(?P<noun>[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,2}?)"
_DIRECTORY = r"(?:`(?P<code>[^`\n]+)`|(?P<bare>(?:\./)?[\w.-]+(?:/[\w.-]+)*/|(?:\./)?[\w.-]+(?:/[\w.-]+)+))"
# A name with no '/' is a folder only when the sentence says so: "in the `docs` folder" (`Globals` module: no).
_WHERE = rf"\s+(?:in|under|inside)\s+(?:the\s+)?{_DIRECTORY}(?P<folder_word>\s+(?:folder|directory|dir)\b)?"
_MODAL = r"(?:\s+(?:must|should|shall|will|can|may)(?:\s+(?:always|only))?)?"
_LIVES = LazyPattern(
    rf"(?:{_DETERMINERS})?{_NOUN}{_MODAL}\s+(?:lives?|go(?:es)?|belongs?|sits?|resides?"
    rf"|(?:are|is)(?:\s+(?:located|kept|stored|found|placed))?|located){_WHERE}(?![\w/`])",
    re.IGNORECASE,
)
_PUT = LazyPattern(rf"(?:put|place|keep|store)\s+(?:{_DETERMINERS})?{_NOUN}{_WHERE}(?![\w/`])", re.IGNORECASE)
# Where a clause begins: a line's start past list, heading and quote marks and emphasis, or after . ! ? ; :
_LINE_MARKS = LazyPattern(r"^\s*(?:(?:[-*+>]|#{1,6}|\d+[.)])\s+)*(?:\*\*|__)?")
_CLAUSE_BREAK = LazyPattern(r"(?<=[.!?;:])\s+(?:\*\*|__)?")
# "in `src/ui/` or `app/ui/`", "in src/ui/, app/ui/": two places, no one claim.
_SECOND_PLACE = LazyPattern(r"\s*(?:,|\band\b|\bor\b|/)\s*(?:the\s+)?(?:`[^`\n]+`|[\w.-]+/)", re.IGNORECASE)
# Subjects that name no kind of thing (or any kind): "it is in `src/`", "files are in `data/`".
_VAGUE = frozenset({"it", "they", "this", "that", "these", "those", "which", "what", "everything", "something",
                    "anything", "nothing", "he", "she", "we", "you", "i", "there", "here", "file", "files", "thing",
                    "things", "stuff", "code", "change", "changes", "one", "ones", "rest", "everything else"})
_PLACE_WORD = LazyPattern(r"\s(?:in|under|inside)\s", re.IGNORECASE)
_FOLDER = LazyPattern(r"^/?(?:[\w@~-][\w.@~-]*|\.[\w-][\w.-]*)(?:/(?:[\w@-][\w.@-]*|\.[\w-][\w.-]*))*$")


@dataclass(frozen=True)
class Place:
    noun: str  # the kind of thing, lower case and singular: 'component', 'unit test'
    directory: str  # with one trailing '/': 'src/ui/'
    offset: int  # of the directory, in the text


def kind_of_thing(noun: str) -> str | None:
    """The noun phrase in one form (lower case, its last word singular), or None for a subject naming no kind."""
    words = noun.lower().split()
    if not words or " ".join(words) in _VAGUE or words[-1] in _VAGUE:
        return None
    last = words[-1]
    if len(last) > 3 and last.endswith("s") and not last.endswith("ss"):
        words[-1] = last[:-1]
    return " ".join(words)


def folder(written: str) -> str | None:
    """A directory as written ('./src/ui', 'src/ui/') in one form ('src/ui/'); None for a file, a glob or a URL."""
    value = written.strip().rstrip(".,;:")  # a sentence's end after a path written bare
    slashed = value.endswith("/")
    if value.startswith("./"):
        value = value[2:]
    value = value.rstrip("/")
    if not value or "://" in value or not _FOLDER.match(value):
        return None
    last = value.rsplit("/", 1)[-1]
    if not slashed and not last.startswith(".") and "." in last:
        return None  # 'config/app.yaml': a file
    return value + "/"


def places_of(text: str, skip=lambda offset: False) -> list[Place]:
    """Every place claim in text, line by line; ``skip(offset)`` leaves out what a caller knows is no claim
    (a fenced code block, a line that tells of a move)."""
    found = []
    line_start = 0
    for line in text.split("\n"):
        if not _PLACE_WORD.search(line):  # most lines say nowhere: no clause of theirs is tried
            line_start += len(line) + 1
            continue
        body = _LINE_MARKS.match(line).end()
        starts = [body] + [m.end() for m in _CLAUSE_BREAK.finditer(line) if m.end() > body]
        for start in starts:
            place = _place_at(line, start)
            if place is not None and not skip(line_start + place[2]):
                found.append(Place(place[0], place[1], line_start + place[2]))
        line_start += len(line) + 1
    return found


def _place_at(line: str, start: int) -> tuple[str, str, int] | None:
    match = _LIVES.match(line, start) or _PUT.match(line, start)
    if match is None or _SECOND_PLACE.match(line, match.end()):
        return None
    noun = kind_of_thing(match.group("noun"))
    code = match.group("code")
    written = code if code is not None else match.group("bare")
    directory = folder(written)
    if noun is None or directory is None or ("/" not in written and not match.group("folder_word")):
        return None
    return noun, directory, match.start("code") if code is not None else match.start("bare")


def inside_one_another(a: str, b: str) -> bool:
    """Whether one of two directories ('tests/', 'tests/unit/') holds the other: a more precise place, no other."""
    return a.startswith(b) or b.startswith(a)

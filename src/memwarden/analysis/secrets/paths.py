"""Secrets in file and folder names: finding them, and hiding them wherever a path is shown.

A file named after a token (`memory/knowledge/tools/ghp_....md`) leaks it in every
listing, report and CI log that names the file. :func:`name_secrets` finds the
secrets a path's names hold, one name (a part between slashes) at a time, each
behind the same cheap gate as a file's lines (and not at all when it is made only of
words and numbers, as agents name notes), then only through the detectors of a known
format (no high-entropy guessing: a content hash or a UUID as a file name is common,
and hiding it would hide the file). The names of many paths are read in one scan
(:func:`read_names`), and a name's answer is kept for the process, so a path shown on
a thousand findings is read once.

:func:`hide_in_path` is what every display of a path goes through
(``Workspace.display_path``): the secret's characters become the marker a hidden
secret always shows (``[SECRET:github-token sha256:1a2b3c4d]``), the folders and the
extension stay, so the reader can still find the file. :func:`hide_known_names` hides,
in a finding's message, what the names of the workspace's files hold (the engine reads
them all first); :func:`hide_names_in` reads every word of an error or a warning as a
name, since it may quote a path that is no file. What names have shown is kept for the
process (a later run in it hides those too: more hiding, never less).
"""

from __future__ import annotations

from dataclasses import dataclass

from memwarden.analysis.secrets.hiding import Quotes, marker
from memwarden.analysis.secrets.detection import Detection
from memwarden.analysis.secrets.gate import may_hold_secret
from memwarden.patterns import LazyPattern

UNCHECKED = "[memwarden: hidden: could not be checked for secrets]"
# A word of a message that may be a path or a name: no whitespace, quotes or brackets around it; or a marker
# shown already, kept as it is (its words would read as `secret: github-token` to the keyword detector).
# Only the exact shape: a name spelled `[SECRET:ghp_...]` is a name like any other.
_WORD = LazyPattern(r"(\[SECRET:[a-z0-9-]+ sha256:[0-9a-f]{8}\]|\[memwarden: hidden: could not be checked for secrets\])"
                    r"|[^\s'\"`()\[\]{}<>,;|]+")
_MARKER = LazyPattern(_WORD.pattern.split("|[^", 1)[0])


@dataclass(frozen=True)
class NameSecret:
    """A secret in a path: where its characters are in the path, and whether a folder's name holds it."""

    start: int
    end: int
    detection: Detection | None  # None: the name could not be checked (its whole name is hidden)
    in_folder: bool

    @property
    def shown(self) -> str:
        return marker(self.detection) if self.detection is not None else UNCHECKED


# A name made only of words, numbers and short runs (`feedback_deploy_gates_12.md`, `INDEX_tools.md`, `2026-03`) is
# what agents name notes; every format a detector knows has a random run that is none of these (20 capitals and
# digits after AKIA; 36 letters and digits after ghp_), so such a name is not scanned. What this lets through: a
# token whose random part is all lowercase letters (1 in 10^9 for a Slack token's 24), or all digits.
_PLAIN_PART = LazyPattern(r"[a-z]+|[A-Z]?[a-z]{2,}(?:[A-Z][a-z]{2,})*|[A-Z]{1,8}|\d+|[a-z0-9]{1,6}")
_PART_SPLIT = LazyPattern(r"[_\-+=.~@:,()\[\]{}!#&%' ]+")
_KNOWN: dict[str, tuple[Detection, ...] | None] = {}  # name -> its secrets (None: could not be checked)
_UNREAD = object()
_FOUND = Quotes()  # every secret any name read in this process holds: what hide_known_names hides
MAX_KNOWN = 200_000  # names kept for the process; past it, forgotten all at once


def read_names(paths) -> None:
    """Read every name of these paths not read yet, in one scan (one detect-secrets settings context):
    a rule about to show or judge many paths asks this first, so each name costs a window, not a setup."""
    new = {name for path in paths for name in path.split("/") if name not in _KNOWN}
    if len(_KNOWN) + len(new) > MAX_KNOWN:
        _KNOWN.clear()
    todo = sorted(name for name in new if _may_hold(name))
    # The gate's answer is kept too: a name shown again costs a lookup.
    _KNOWN.update((name, ()) for name in new.difference(todo))
    if not todo:
        return
    from memwarden.analysis.secrets.scanner import scan_texts

    try:
        found = scan_texts([(name, "markdown") for name in todo], high_entropy=False)
    except Exception:  # never show what could not be checked
        found = [None] * len(todo)
    for name, detections in zip(todo, found):
        _KNOWN[name] = tuple(detections) if detections is not None else None
        if detections is None:
            _FOUND.add(name, UNCHECKED)
        for detection in detections or ():
            _FOUND.add(name[detection.start : detection.end], marker(detection))


def _may_hold(name: str) -> bool:
    return may_hold_secret(name) and not all(_PLAIN_PART.fullmatch(part) for part in _PART_SPLIT.split(name) if part)


def _in_name(name: str) -> tuple[Detection, ...] | None:
    """The secrets of a known format in one file or folder name; None if it could not be checked."""
    found = _KNOWN.get(name, _UNREAD)
    if found is _UNREAD:
        read_names([name])
        found = _KNOWN[name]
    return found


def name_secrets(path: str) -> list[NameSecret]:
    """The secrets the names of a '/'-separated path hold, in order (a marker shown already is not read again)."""
    found: list[NameSecret] = []
    pieces = _MARKER.split(path) if "[" in path else [path]
    offset = 0
    for index, piece in enumerate(pieces):
        if index % 2:  # a marker (the split keeps its group)
            offset += len(piece)
            continue
        names = piece.split("/")
        for number, name in enumerate(names, 1):
            in_folder = "/" in path[offset + len(name) :]
            detections = _in_name(name)
            if detections is None:
                found.append(NameSecret(offset, offset + len(name), None, in_folder))
            else:
                found.extend(NameSecret(offset + d.start, offset + d.end, d, in_folder) for d in detections)
            offset += len(name) + 1
        offset -= 1  # no '/' after the piece's last name
    return found


def hide_in_path(path: str) -> str:
    """The path with each secret its names hold replaced by its marker (folders and extension kept)."""
    if not path:
        return path
    found = name_secrets(path)
    if not found:
        return path
    pieces = []
    cursor = 0
    for secret in found:
        if secret.start < cursor:
            continue  # overlapping detections of one name: the first covers it
        pieces.append(path[cursor : secret.start])
        pieces.append(secret.shown)
        cursor = secret.end
    pieces.append(path[cursor:])
    return "".join(pieces)


def hide_known_names(text: str) -> str:
    """A finding's message with every secret a name read so far holds hidden (and every run of 8 of its
    characters: a stem quoted cut short). The engine reads the names of every file of the workspace first, so
    this covers any file a rule names; it costs nothing while no name holds a secret."""
    return _FOUND.hide(text) if _FOUND else text


def hide_names_in(text: str) -> str:
    """A message or an error with every path or name it quotes hidden as :func:`hide_in_path` hides it."""
    if not text or not may_hold_secret(text):  # a name that passes the gate passes it inside any text
        return text
    return _WORD.sub(lambda match: match.group(0) if match.group(1) else hide_in_path(match.group(0)), text)

"""Showing text from a memory file inside a message, safely.

A message is printed to terminals, CI logs and SARIF viewers, so what it quotes
from a file must stay on one line, must not carry control characters (an
escape sequence could repaint the terminal, a bidi override reorder the line),
must not echo what looks like a key or token, and must stay short.
"""

from __future__ import annotations

import re

from memwarden.patterns import LazyPattern

# A long unbroken run of letters and digits mixed is how keys and tokens look: never echo one.
_TOKEN_LIKE = re.compile(r"[A-Za-z0-9_\-+/=]{24,}")
# Control characters that survive whitespace folding, and the bidi controls that reorder a line.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
# A byte of a file name that is not UTF-8, as os.fsdecode keeps it (surrogateescape): U+DC80..U+DCFF.
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")


def shown_path(path: str) -> str:
    """A file name for output: a byte that is not UTF-8 as ``\\xff``, a control character as repr writes it.

    A name from the file system may hold any byte but NUL and '/'; printed raw it could not be
    encoded (or, as a control sequence, would repaint the terminal).
    """
    path = _ESCAPED_BYTE.sub(lambda match: f"\\x{ord(match.group(0)) - 0xDC00:02x}", path)
    return _UNPRINTABLE.sub(lambda match: repr(match.group(0))[1:-1], path)


# A part of a run that reads as a word or a number: 'feedback', 'Translation', 'API', '2026', 'i18n', 'e2e', 'v2'.
# A run made only of such parts is a name (a file, a slug, a variable), not a key.
_WORD_PART = re.compile(r"[a-z]+|[A-Z]?[a-z]+(?:[A-Z][a-z]+)*|[A-Z]+|\d+|[a-z0-9]{1,6}")
_PART_SPLIT = re.compile(r"[_\-+/=]+")


def _mask(match: re.Match) -> str:
    token = match.group(0)
    has_digit = any(ch.isdigit() for ch in token)
    has_alpha = any(ch.isalpha() for ch in token)
    if not (has_digit and has_alpha):
        return token
    if all(_WORD_PART.fullmatch(part) for part in _PART_SPLIT.split(token) if part):
        return token  # feedback_i18n_translation_rejected, run-ci-e2e-2026: a name, not a key
    return "[…]"


def _escaped(match: re.Match) -> str:
    return repr(match.group(0))[1:-1]


def escape_controls(text: str) -> str:
    """Text with control characters (C0, DEL, C1) and bidi controls escaped as ``repr`` writes them (``\\x1b``).

    For what a report prints whole, a file name or a message: nothing from a file
    may reach a terminal as an escape sequence, a bell or a line reordering.
    """
    return _UNPRINTABLE.sub(_escaped, text) if text else text


def excerpt(text: str, width: int = 80, *, mask_tokens: bool = True) -> str:
    """Text for a message: one line, control characters escaped, token-like runs masked, at most width characters.

    Whitespace runs fold to one space; other control characters are escaped the
    way ``repr`` writes them (``\\x1b``). Text longer than width is cut after
    width - 1 characters and ends in "…". A quote of prose may keep long runs
    (``mask_tokens=False``), where a path or version is the point of the sentence.
    """
    line = " ".join(text[: width * 4].split())  # bounded work on a huge value
    if len(line) < width and len(text) > width * 4:
        line = " ".join(text.split())  # the bound fell inside a long run of spaces
    line = _UNPRINTABLE.sub(_escaped, line)
    if mask_tokens:
        line = _TOKEN_LIKE.sub(_mask, line)
    return line if len(line) <= width else line[: width - 1].rstrip() + "…"


def excerpt_words(text: str, width: int = 60, *, longest: int = 120) -> str:
    """An excerpt cut between words, never inside one: a file name or a path is shown whole or not at all.

    A single word longer than width (a long path alone) is shown up to longest characters.
    """
    line = excerpt(text, max(width, longest) * 2)
    if len(line) <= width:
        return line
    cut = line.rfind(" ", 0, width - 1)
    if cut <= 0:
        return line if len(line) <= longest else line[: longest - 1] + "…"
    return line[:cut].rstrip() + " …"


# A path's last part that is a file name: a name, a dot and an extension.
_FILE_NAME = LazyPattern(r"[^/.]\.[A-Za-z0-9]{1,8}$")


def _mask_in_path(match: re.Match) -> str:
    """A key used as a file or folder name is one long run of letters and digits mixed; a file name's runs
    are words and short numbers joined by '_' or '-' (`scanner2_migration_notes`, a UUID's groups)."""
    token = match.group(0)
    for run in _PART_SPLIT.split(token):
        if len(run) >= 16 and any(ch.isdigit() for ch in run) and any(ch.isalpha() for ch in run):
            return "[…]"
    return token


def excerpt_name(name: str, width: int = 60) -> str:
    """A file name or a note's name for a message, made safe as an excerpt: a name of words and short numbers
    (`feedback_scanner2_migration`) is kept whole, a long run of letters and digits mixed is masked."""
    return _TOKEN_LIKE.sub(_mask_in_path, excerpt(name, width, mask_tokens=False))


def excerpt_path(path: str, width: int = 80) -> str:
    """A path for a message: made safe as an excerpt, with its file name readable however long the path.

    A path to a file is masked part by part, and only where a long run of letters and digits mixed is (a
    key used as a folder name), so a long path of ordinary names is never one token-like run (`'[…].py'`);
    a path with no file name at its end is masked as any excerpt (a key may hold '/'). A path
    wider than width loses folders from the left (`…/handlers/refund.py`); a file name wider than width
    alone keeps its start and its end.
    """
    tail = path[-width * 4 :]  # bounded work on a huge value; the file name is at the end
    if _FILE_NAME.search(tail):
        parts = [excerpt_name(part, len(part) + 1) for part in tail.split("/")]
    else:  # no file name to keep (a folder, or a key with '/' in it): masked as any excerpt
        parts = excerpt(tail, len(tail) + 1).split("/")
    dropped = len(tail) < len(path)
    while len(parts) > 1 and len("/".join(parts)) + (2 if dropped else 0) > width:
        parts.pop(0)
        dropped = True
    shown = "/".join(parts)
    prefix = "…/" if dropped else ""
    room = width - len(prefix)
    if len(shown) > room:
        dot = shown.rfind(".")
        extension = len(shown) - dot if dot > 0 else 0
        end = min(max(room // 3, extension + 4), room - 2)
        shown = shown[: room - end - 1] + "…" + shown[-end:]
    return prefix + shown


def quoted_path(path: str, width: int = 60) -> str:
    """A path in quotes for a message, its file name kept (see :func:`excerpt_path`)."""
    return repr(excerpt_path(path, width))


def quoted(value: str, width: int = 32, *, mask_tokens: bool = True) -> str:
    """A short value (a tag, a key, an id) for a message, in quotes, made safe like an excerpt.

    Ids keep their long runs (``mask_tokens=False``): a UUID is the point of the message.
    """
    return repr(excerpt(value, width, mask_tokens=mask_tokens))


# A value short and plain enough to echo: it cannot be a pasted key or a control sequence.
_PLAIN = re.compile(r"[\w .:/-]{0,24}")


def plain_value(value, type_name: str) -> str:
    """A structured value for a message: numbers and short plain words as they are, anything else by its type name."""
    if isinstance(value, bool) or value is None:
        return str(value).lower() if value is not None else "null"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str) and _PLAIN.fullmatch(value):
        return f"'{value}'"
    return type_name


def masked_email(address: str) -> str:
    """An e-mail address with all but its first letters and its top-level domain hidden: `a***@e***.com`."""
    local, _, domain = address.rpartition("@")
    labels = domain.split(".")
    head = excerpt(local[:1], 4) or "?"
    host = excerpt(labels[0][:1], 4) or "?"
    tld = excerpt(labels[-1], 12) if len(labels) > 1 else ""
    return f"{head}***@{host}***" + (f".{tld}" if tld else "")


def masked_phone(number: str) -> str:
    """A phone number with every digit but the last two hidden, its shape kept: `+** * ** ** ** 78`."""
    digits = [i for i, c in enumerate(number) if c.isdigit()]
    keep = set(digits[-2:])
    shown = "".join(c if i in keep or not c.isdigit() else "*" for i, c in enumerate(number))
    return excerpt(shown, 32)

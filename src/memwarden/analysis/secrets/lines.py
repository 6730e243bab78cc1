"""Reading a line the way the secret scanner needs it.

Bounded, overlapping windows of a long line; long words with their extra
secret-like names blanked (detect-secrets' keyword regexes are quadratic on
them); JSON string literals found and decoded with a map back to the raw
characters; where, inside a detector's match, the secret itself sits; and
which of the overlapping hits to keep.
"""

from __future__ import annotations

import re

from memwarden.analysis.secrets import patterns
from memwarden.patterns import LazyPattern

WINDOW = 4096  # the most characters any detector sees at once
OVERLAP = 512  # windows overlap by this much, so a secret on a boundary is seen whole

_KEYWORD_NAMES = LazyPattern(
    r"api_?key|auth_?key|service_?key|account_?key|db_?key|database_?key|priv_?key|private_?key|client_?key|"
    r"db_?pass|database_?pass|key_?pass|password|passwd|pwd|secret|contrase(?:ñ|n)a",
    re.IGNORECASE,
)
_LONG_WORD = LazyPattern(r"\w{64,}")
_SPLIT_ASSIGNMENT = LazyPattern(r"=(?=[^=])")
_NO_BACKSLASH = LazyPattern(r"[^\\]+")


def windows(line: str):
    """(offset, window) pieces of a line, each at most WINDOW long, overlapping by OVERLAP."""
    if len(line) <= WINDOW:
        yield 0, line
        return
    step = WINDOW - OVERLAP
    start = 0
    while True:
        yield start, line[start : start + WINDOW]
        if start + WINDOW >= len(line):
            return
        start += step


def thin_keywords(window: str) -> str:
    """The window with all but the first secret-like name in each long word blanked out.

    detect-secrets' keyword regexes try every such name as a start and run to the
    end of the word each time, which is quadratic in a long word full of them.
    The result has the same length, so offsets still point into the original.
    """
    if not _LONG_WORD.search(window):
        return window
    pieces = []
    cursor = 0
    for word in _LONG_WORD.finditer(window):
        names = list(_KEYWORD_NAMES.finditer(word.group(0)))
        if len(names) < 2:
            continue
        for name in names[1:]:
            start, end = word.start() + name.start(), word.start() + name.end()
            pieces.append(window[cursor:start])
            pieces.append("x" * (end - start))
            cursor = end
    pieces.append(window[cursor:])
    return "".join(pieces)


# A Markdown label before a value: `**API Key**: ...`, `**Password:** ...`, `**密码**：...` (OpenClaw's TOOLS.md,
# daily notes).
_BOLD_LABEL = LazyPattern(r"\*\*([^*\n]{1,40}?)(\*\*\s{0,4}[:：]|[:：]\*\*)")
# Two-word secret names a person writes with a space (`API Key`); the keyword search knows them as `api_key`.
_SPACED_NAME = LazyPattern(r"\b(api|auth|service|account|private|priv|client|db|database|key) (key|pass)\b", re.IGNORECASE)
# French's password, three words: `mot de passe : v` reads `mot_de_passe: v`.
_MOT_DE_PASSE = LazyPattern(r"\bmot de passe\s?:", re.IGNORECASE)


def spelled_labels(window: str, *, spaced_names: bool = True) -> str:
    """The window with Markdown bold labels and spaced secret names written the way an assignment is (same
    length, so offsets still point into the original): `**API Key**: v` reads `  API_Key:   v`, `mot de passe : v`
    reads `mot_de_passe : v`. Without ``spaced_names`` a two-word name stays as written (`PRIVATE KEY` in a PEM
    header is no assignment)."""
    if "**" in window:  # the colon right after the name, as the keyword search wants it
        window = _BOLD_LABEL.sub(lambda m: "  " + m.group(1) + ":" + " " * (len(m.group(2)) - 1), window)
    if spaced_names:
        window = _SPACED_NAME.sub(lambda m: f"{m.group(1)}_{m.group(2)}", window)
    if "passe" in window or "PASSE" in window or "Passe" in window:
        window = _MOT_DE_PASSE.sub(lambda m: m.group(0).replace(" ", "_", 2), window)
    return window


def assigned_occurrence(part: str, value: str) -> int | None:
    """Where the keyword regex's value sits: the first occurrence right after an assignment."""
    index = part.find(value)
    while index != -1:
        if patterns.key_before(part, index) is not None or (index > 0 and part[index - 1] in "\"'`"):
            return index
        index = part.find(value, index + 1)
    index = part.find(value)
    return index if index != -1 else None


def pieces(run: str, run_start: int):
    """A base64-charset run split at assignments (`token=abc` -> `abc`) and at backslashes
    (detect-secrets' charset holds '\\', so a JSON `\\"` would stick to the string), with offsets."""
    for segment in _NO_BACKSLASH.finditer(run):
        position = segment.start()
        for part in _SPLIT_ASSIGNMENT.split(segment.group(0)):
            yield part, run_start + position
            position += len(part) + 1


_IN_URL = LazyPattern(r"://[^\s\"'<>`]{0,2000}\Z")


def url_segments(window: str, found):
    """(piece, start) pieces, those inside a URL cut at its slashes: there '/' parts a path, it is
    not a character of the token, so `https://hooks.acme.dev/v1/<token>` yields the token alone."""
    for piece, start in found:
        if "/" not in piece or not _IN_URL.search(window, max(0, start - 2000), start):
            yield piece, start
            continue
        position = start
        for part in piece.split("/"):
            yield part, position
            position += len(part) + 1


def password_assignments(window: str):
    """(start, value, quoted) of each value assigned to a password's name in the window, punctuation and all."""
    for match in patterns.PASSWORD_ASSIGNMENT.finditer(window):
        words = patterns.key_words(match.group("key"))
        if not words or words[-1] not in patterns.PASSWORD_KEY_WORDS:
            continue
        for group in ("double", "single", "bare"):
            value = match.group(group)
            if value is not None:
                break
        start = match.start(group)
        if value.endswith(("...", "…")):
            continue  # an elided value: 'sk-ant-api03-...'
        if group == "bare":
            value = value.rstrip(".,;")
            for opening, closing in ("()", "[]", "{}"):  # "(password: abc123)": the bracket is the sentence's
                if value.endswith(closing) and opening not in value:
                    value = value[:-1]
        yield start, value, group != "bare"


_WORD_CHAR = LazyPattern(r"[A-Za-z0-9_]")


def word_around(text: str, start: int, end: int, reach: int = 300) -> str:
    """The run of word characters (letters, digits, '_') holding text[start:end], at most ``reach`` beyond it."""
    low, high = max(0, start - reach), min(len(text), end + reach)
    while start > low and _WORD_CHAR.match(text, start - 1):
        start -= 1
    while end < high and _WORD_CHAR.match(text, end):
        end += 1
    return text[start:end]


def url_user(window: str, password_start: int) -> str | None:
    """The user name of a `scheme://user:password@` URL, given where its password starts."""
    scheme = window.rfind("://", max(0, password_start - 140), password_start)
    if scheme == -1 or window[password_start - 1 : password_start] != ":":
        return None
    return window[scheme + 3 : password_start - 1]


def url_password(found: str) -> str:
    """The password of what a URL detector found: itself, or the part between `user:` and `@` of a match that
    holds the user info whole (`//user:pass@`)."""
    if not found.endswith("@"):
        return found
    _, colon, password = found.lstrip("/").rstrip("@").partition(":")
    return password if colon else found


# A long path segment made of words: 'anythingllm-chat-with-your-docs', 'AuthProviderContextWrapper',
# 'relay-conductor-20250923T204918Z' (a slug may end in an ISO timestamp), 'DONE_0112-eli5-mismatch'
# (a part all in capitals, or Capitalized, is a word too; a part in mixed case is not; a CamelCase name may open
# with an acronym: 'PBRToonBaseFace_Input.hlsl').
_SLUG_PART = r"(?:[a-z0-9]{1,24}|[A-Z0-9]{1,24}|[A-Z][a-z0-9]{1,23}|\d{8}T\d{2,6}Z?)"
_WORD_SEGMENT = LazyPattern(
    rf"{_SLUG_PART}(?:[-_.]{_SLUG_PART})*"
    r"|[A-Z]{0,5}(?:[A-Z][a-z0-9]{1,24}){2,}(?:[-_.][A-Za-z0-9]{1,24})*"
)
# A segment longer than this must be made of words to be a path's: a random key's parts between its slashes are
# longer (40 base64 characters with one '/' leave a part of 20 or more).
_SHORT_SEGMENT = 12


def looks_like_path(piece: str) -> bool:
    """Segments between slashes that are short, or longer and made of words (a slug or a CamelCase name); never
    with base64's '+' in it (no file path has one, but `c++`)."""
    if "/" not in piece or "+" in piece.replace("++", ""):
        return False
    segments = [s for s in piece.split("/") if s]
    return len(segments) >= 2 and all(len(s) <= _SHORT_SEGMENT or _WORD_SEGMENT.fullmatch(s) for s in segments)


def secret_span(match: re.Match) -> tuple[int, int]:
    """The part of a detector's match that is the secret: its longest group, unless that is a mere
    prefix (GitHub's '(ghp|gho|...)_...' captures only 'ghp'); delimiters around it trimmed."""
    start, end = match.span()
    groups = [i for i in range(1, (match.re.groups or 0) + 1) if match.group(i)]
    if groups:
        best = max(groups, key=lambda i: len(match.group(i)))
        if len(match.group(best)) >= 8:
            start, end = match.span(best)
    text = match.string
    while start < end and (text[start].isspace() or text[start] in "\"'=:,"):
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in "\"',"):
        end -= 1
    return start, end


def extend_jwt(window: str, end: int) -> int:
    """detect-secrets' JWT pattern stops before the signature; take it too."""
    if end < len(window) and window[end] == ".":
        end += 1
    while end < len(window) and (window[end].isalnum() or window[end] in "-_="):
        end += 1
    return end


def key_identity(body: str) -> str:
    """A private key's identity: the base64 of its body, wherever and however it is written."""
    return "private-key:" + "".join(c for c in body if c.isalnum() or c in "+/=")


def json_literals(line: str):
    """(start, end) of each JSON string literal in a line, quotes included. Linear."""
    index = line.find('"')
    special = re.compile(r'["\\]')
    while index != -1:
        cursor = index + 1
        while True:
            match = special.search(line, cursor)
            if match is None:
                return
            if match.group(0) == "\\":
                cursor = match.end() + 1
                continue
            yield index, match.end()
            index = line.find('"', match.end())
            break


_SIMPLE_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
# YAML's double-quoted scalars know these too (YAML 1.2, 5.7), and \xXX and \UXXXXXXXX.
_YAML_ESCAPES = {
    **_SIMPLE_ESCAPES, "0": "\0", "a": "\a", "v": "\v", "e": "\x1b", " ": " ", "\t": "\t",
    "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029",
}
_HEX_WIDTH = {"u": 4}
_YAML_HEX_WIDTH = {"x": 2, "u": 4, "U": 8}


def decode_json_literal(literal: str, *, yaml: bool = False) -> tuple[str, list[int]] | None:
    """(value, raw index of each value character plus one past the last) for a JSON string literal,
    or with ``yaml`` a one-line YAML double-quoted scalar (whose escapes include \\x41 and \\U00000041)."""
    simple, widths = (_YAML_ESCAPES, _YAML_HEX_WIDTH) if yaml else (_SIMPLE_ESCAPES, _HEX_WIDTH)
    out: list[str] = []
    starts: list[int] = []
    i, last = 1, len(literal) - 1
    while i < last:
        char = literal[i]
        if char != "\\":
            out.append(char)
            starts.append(i)
            i += 1
            continue
        escape = literal[i + 1] if i + 1 < last else ""
        if escape in simple:
            out.append(simple[escape])
            starts.append(i)
            i += 2
            continue
        digits = widths.get(escape, 0)
        hex_digits = literal[i + 2 : i + 2 + digits]
        if not digits or len(hex_digits) != digits or not _HEX_DIGITS.fullmatch(hex_digits):
            return None
        code = int(literal[i + 2 : i + 2 + digits], 16)
        width = 2 + digits
        if escape == "u" and 0xD800 <= code < 0xDC00 and literal[i + 6 : i + 8] == "\\u" \
                and _HEX_DIGITS.fullmatch(literal[i + 8 : i + 12]):
            low = int(literal[i + 8 : i + 12], 16)
            if 0xDC00 <= low < 0xE000:
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                width = 12
        if code > 0x10FFFF:
            return None
        out.append(chr(code))
        starts.append(i)
        i += width
    starts.append(last)
    return "".join(out), starts


_HEX_DIGITS = LazyPattern(r"[0-9a-fA-F]+")


def decode_escapes(raw: str) -> list[str]:
    """What a run of raw characters with backslash escapes reads as, in JSON and in a YAML double-quoted scalar."""
    values = []
    for yaml in (False, True):
        decoded = decode_json_literal(f'"{raw}"', yaml=yaml)
        if decoded is not None and decoded[0] != raw:
            values.append(decoded[0])
    return values


def sublines(value: str):
    """(offset, line) of each line of a decoded string."""
    start = 0
    for piece in re.split(r"(\r\n|\r|\n)", value):
        if piece in ("\r\n", "\r", "\n"):
            start += len(piece)
            continue
        yield start, piece
        start += len(piece)


def dotted_url_password(detector, value: str) -> bool:
    """`user:ocbK88.eEsSr41@host`: in a URL's password slot, a dotted word with digits is a password,
    not a `settings.KEY` reference."""
    return detector.type.slug == "url-password" and "." in value and any(c.isdigit() for c in value)


# -- hits ----------------------------------------------------------------------------


def non_overlapping(ranked: list) -> list:
    """Take hits in rank order, skipping any that overlaps one already taken; result sorted by start."""
    import bisect

    starts: list[int] = []
    taken: list = []
    for hit in ranked:
        index = bisect.bisect_right(starts, hit.start)
        if index > 0 and taken[index - 1].end > hit.start:
            continue
        if index < len(taken) and taken[index].start < hit.end:
            continue
        starts.insert(index, hit.start)
        taken.insert(index, hit)
    return taken


def inside(hit, spans: list[tuple[int, int]]) -> bool:
    """The hit (anything with start and end) lies within one of the spans."""
    return any(start <= hit.start and hit.end <= end for start, end in spans)


def public_blocks(text: str) -> list[tuple[int, int]]:
    """Spans of PEM public keys and certificates in a text."""
    if "-----BEGIN" not in text:
        return []
    blocks = []
    for begin in patterns.PUBLIC_BLOCK_BEGIN.finditer(text):
        end = text.find("-----END", begin.end(), begin.end() + patterns.PRIVATE_KEY_BODY_LIMIT)
        blocks.append((begin.start(), end if end != -1 else begin.end()))
    return blocks

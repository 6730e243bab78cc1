"""What a Claude Code Edit or a Gemini CLI `replace` leaves in a file, predicted before the call.

Each function returns the text the tool would write, None when the tool refuses the call (it
writes nothing), or raises Unpredictable when the tool may write something memwarden cannot
foresee: then the hook blocks the write (fail closed) and asks for an edit it can judge.

Claude Code (not open source; its documented behaviour): old_string must occur once, or any number
of times with replace_all; an empty old_string creates a file, or fills one that is empty or only
whitespace; a file with CRLF line ends takes an edit written with LF; curly quotes in the file
match straight ones in old_string (the file's own text is what is replaced). Text that matches only
more loosely (other whitespace, other punctuation) is unpredictable.

Gemini CLI (packages/core/src/tools/edit.ts): CRLF is read as LF and written back as CRLF when the
file had it; an exact match is replaced everywhere, the file's last newline kept or left out as
before. When no exact match is found Gemini matches lines with their ends trimmed (predicted here, in a
file without a lone CR or U+2028, which its line splitting drops text at); past that (a token regex,
Levenshtein-close lines, or a model asked to correct a failed edit) what it writes is
unpredictable, except in JSON files (no model correction) where a miscounted exact match is a
refusal.
"""

from __future__ import annotations

import re

# Claude Code's quote normalisation: curly quotes read as straight ones (one character for one).
CURLY_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})
# Every quote, dash and odd space any agent is known to fold, for the loose test of "it may match".
_LOOSE_PUNCTUATION = str.maketrans({
    **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032", "'"), **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033", '"'),
    **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"),
})
# JavaScript's String.prototype.trim set (Python's str.strip differs: it strips U+001C-U+001F, keeps U+FEFF).
JS_WHITESPACE = "\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" \
                "\u2028\u2029\u202f\u205f\u3000\ufeff"
GEMINI_NO_MODEL_CORRECTION = (".json", ".ipynb", ".jsonc", ".json5")
_ANY_LINE_END = re.compile(r"\r?\n")


class Unpredictable(Exception):
    """The tool may write something memwarden cannot foresee: the hook blocks (fail closed)."""


def loose_form(text: str) -> str:
    """text with whitespace runs as one space and typographic punctuation as ASCII: what loose matchers compare."""
    return " ".join(text.translate(_LOOSE_PUNCTUATION).split())


def _loosely_in(text: str, old: str) -> bool:
    wanted = loose_form(old)
    return bool(wanted) and wanted in loose_form(text)


def _blank(text: str) -> bool:
    """Empty or whitespace only, by JavaScript's trim; unpredictable where Python's strip disagrees."""
    by_js, by_python = not text.strip(JS_WHITESPACE), not text.strip()
    if by_js != by_python:
        raise Unpredictable("the file holds only characters that some tools count as whitespace and others do not")
    return by_js


def claude_edit(text: str | None, old: str, new: str, replace_all: bool) -> str | None:
    """The file a Claude Code Edit leaves (text None: the file does not exist)."""
    if text is None:
        return new if old == "" else None
    if old == "":
        return new if _blank(text) else None  # an empty (or blank) file is filled, as a Write would
    if old == new:
        return None
    variants = [(old, new)]
    if "\r\n" in text and "\n" in old:
        variants.append((_with_crlf(old), _with_crlf(new)))
    folded_text = text.translate(CURLY_QUOTES)
    for wanted, replacement in variants:
        if wanted in text:
            return _replaced(text, wanted, replacement, replace_all)
        folded = wanted.translate(CURLY_QUOTES)
        at = folded_text.find(folded)
        if at != -1:
            actual = text[at:at + len(wanted)]  # the file's own quotes
            if folded_text.count(folded) != text.count(actual):
                raise Unpredictable("old_string matches text with different quote styles in several places")
            return _replaced(text, actual, replacement, replace_all)
    if _loosely_in(text, old):
        raise Unpredictable("old_string is not in the file as written, only with other whitespace or punctuation")
    return None


def _with_crlf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


def _replaced(text: str, old: str, new: str, replace_all: bool) -> str | None:
    if not replace_all and text.count(old) != 1:
        return None  # not unique: Claude Code refuses
    return text.replace(old, new)


def gemini_replace(text: str | None, old: str, new: str, allow_multiple: bool, expected: int | None,
                   suffix: str) -> str | None:
    """The file a Gemini CLI `replace` leaves. allow_multiple: every occurrence (the current tool);
    expected: the number of occurrences the call names (older releases' expected_replacements)."""
    if text is None:
        return new if old == "" else None
    if old == "":
        return None  # "file already exists": refused before any matching
    crlf = "\r\n" in text
    current = text.replace("\r\n", "\n")
    search, replacement = old.replace("\r\n", "\n"), new.replace("\r\n", "\n")
    found = current.count(search)
    counted = found >= 1 if allow_multiple else found == (expected or 1)
    if found and counted and search != replacement:
        result = _trailing_newline_as_before(current, current.replace(search, replacement))
        return _ANY_LINE_END.sub("\r\n", result) if crlf else result
    if not found and expected is None:
        result = _gemini_indentation_blind(current, search, replacement, new == "", allow_multiple)
        if result is not None:
            return _ANY_LINE_END.sub("\r\n", result) if crlf else result
    if found and suffix.lower() in GEMINI_NO_MODEL_CORRECTION:
        return None  # a miscounted or empty exact match in a JSON file: refused, no model correction
    if found:
        raise Unpredictable(f"old_string occurs {found} times here (or changes nothing): Gemini CLI would ask a "
                            "model to correct the edit")
    raise Unpredictable("old_string is not in the file as written: Gemini CLI would match it loosely (whitespace, "
                        "tokens, similar lines) or ask a model to correct the edit")


def _gemini_indentation_blind(current: str, search: str, replacement: str, deleting: bool,
                              allow_multiple: bool) -> str | None:
    """Gemini's second strategy: old_string's lines found with each line's ends trimmed, and replaced by
    new_string's lines re-indented as the first matched line. None when it finds nothing, or more than the
    call allows, or changes nothing (then Gemini goes on to looser matching or a model's correction)."""
    if any(mark in current for mark in "\r\u2028\u2029"):
        # Gemini splits the file with a JavaScript /.*/ that stops at these and silently drops the text before.
        raise Unpredictable("the file has a line separator Gemini CLI's line matching drops text at")
    pieces = re.findall(r"[^\n]*\n|[^\n]+\Z", current)
    wanted = [line.strip(JS_WHITESPACE) for line in search.split("\n")]
    size, hits, at = len(wanted), 0, 0
    while at + size <= len(pieces):
        if [piece.strip(JS_WHITESPACE) for piece in pieces[at:at + size]] != wanted:
            at += 1
            continue
        hits += 1
        indent = re.match("[ \t]*", pieces[at]).group()
        block = "\n".join(_reindented(replacement.split("\n"), indent))
        if not deleting and pieces[at + size - 1].endswith("\n") and not block.endswith("\n"):
            block += "\n"
        pieces[at:at + size] = [block]
        at += 1
    if hits == 0 or (hits > 1 and not allow_multiple) or search == replacement:
        return None
    return _trailing_newline_as_before(current, "".join(pieces))


def _reindented(lines: list[str], indent: str) -> list[str]:
    """lines moved to indent, keeping their indentation relative to the first line's; blank lines emptied."""
    first = re.match("[ \t]*", lines[0]).group() if lines else ""
    moved = []
    for line in lines:
        if not line.strip(JS_WHITESPACE):
            moved.append("")
        else:
            moved.append(indent + (line[len(first):] if line.startswith(first) else line.lstrip(JS_WHITESPACE)))
    return moved


def _trailing_newline_as_before(before: str, after: str) -> str:
    if before.endswith("\n") and not after.endswith("\n"):
        return after + "\n"
    if not before.endswith("\n") and after.endswith("\n"):
        return after[:-1]
    return after

"""Ports of the agents' own edit matchers, written for the tests from their sources: the oracles the
hook's predictions (memwarden.discover.agent_edits, memwarden.discover.codex_patch) are checked against.

Followed (read, not copied):
- Codex: openai/codex codex-rs/apply-patch/src/parser.rs (lenient mode), seek_sequence.rs,
  lib.rs (compute_replacements, derive_new_contents_from_chunks at 1fd7a5d8 / 04f399d4: LF split)
  and text_file.rs at 3de0e18b (the newer release: each line keeps its own ending).
- Gemini CLI: google-gemini/gemini-cli at 5411f113 (2026-08-21), packages/core/src/tools/edit.ts
  (calculateEdit, calculateReplacement: exact, flexible, regex, fuzzy; the model's correction
  after that) and utils/textUtils.ts (safeLiteralReplace, detectLineEnding).
- Claude Code (closed source): its documented Edit behaviour and the cases of issue 24.

They are written in another shape than memwarden's own code on purpose (state machines, explicit
JavaScript regular-expression semantics), so that one misreading is not shared by both.
"""

from __future__ import annotations

import re

# -- character classes -------------------------------------------------------------------------

# Unicode White_Space: Rust's char::is_whitespace.
RUST_WS = frozenset("\u0009\u000a\u000b\u000c\u000d\u0020\u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
                    "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")
# ECMAScript WhiteSpace + LineTerminator: String.prototype.trim and the regex class \s.
JS_WS = frozenset("\u0009\u000b\u000c\u0020\u00a0\ufeff\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
                  "\u2008\u2009\u200a\u202f\u205f\u3000\u000a\u000d\u2028\u2029")
JS_LINE_TERMINATORS = frozenset("\n\r\u2028\u2029")
_JS_S = "[" + "".join(re.escape(c) for c in sorted(JS_WS)) + "]"


def _trim_with(chars, text: str, left: bool = True, right: bool = True) -> str:
    start, end = 0, len(text)
    while left and start < end and text[start] in chars:
        start += 1
    while right and end > start and text[end - 1] in chars:
        end -= 1
    return text[start:end]


# == Codex ========================================================================================

REJECTED = "rejected"
UNSURE = "unsure"  # what Codex writes depends on how it was built (an overflow panics or wraps)


def _codex_lines(patch: str) -> list[str]:
    text = _trim_with(RUST_WS, patch)
    out, current = [], ""
    for char in text:
        if char == "\n":
            out.append(current[:-1] if current.endswith("\r") else current)
            current = ""
        else:
            current += char
    if current:
        out.append(current[:-1] if current.endswith("\r") else current)
    return out


def codex_parse(patch: str):
    """[(kind, path, data)]: ("add", path, text), ("delete", path, None), ("update", path, (move, chunks));
    a chunk is a dict(context, old, new, eof). REJECTED when the parser fails."""
    lines = _codex_lines(patch)

    def framed(block):
        return len(block) >= 1 and _trim_with(RUST_WS, block[0]) == "*** Begin Patch" and \
            _trim_with(RUST_WS, block[-1]) == "*** End Patch"

    if framed(lines):
        body = lines[1:-1]
    elif len(lines) >= 4 and lines[0] in ("<<EOF", "<<'EOF'", '<<"EOF"') and lines[-1].endswith("EOF") \
            and framed(lines[1:-1]):
        body = lines[2:-2]
    else:
        return REJECTED
    hunks, i = [], 0
    while i < len(body):
        head = _trim_with(RUST_WS, body[i])
        i += 1
        if head.startswith("*** Add File: "):
            text = ""
            while i < len(body) and body[i][:1] == "+":
                text += body[i][1:] + "\n"
                i += 1
            hunks.append(("add", head[len("*** Add File: "):], text))
        elif head.startswith("*** Delete File: "):
            hunks.append(("delete", head[len("*** Delete File: "):], None))
        elif head.startswith("*** Update File: "):
            move = None
            if i < len(body) and body[i].startswith("*** Move to: "):
                move = body[i][len("*** Move to: "):]
                i += 1
            chunks = []
            while i < len(body):
                line = body[i]
                if _trim_with(RUST_WS, line) == "":
                    i += 1
                    continue
                if line[:1] == "*":
                    break
                chunk = {"context": None, "old": [], "new": [], "eof": False}
                if line == "@@":
                    i += 1
                elif line[:3] == "@@ ":
                    chunk["context"] = line[3:]
                    i += 1
                elif chunks:
                    return REJECTED
                if i >= len(body):
                    return REJECTED
                count = 0
                while i < len(body):
                    line = body[i]
                    if line == "*** End of File":
                        if count == 0:
                            return REJECTED
                        chunk["eof"] = True
                        i += 1
                        break
                    if line == "":
                        chunk["old"].append("")
                        chunk["new"].append("")
                    elif line[0] == " ":
                        chunk["old"].append(line[1:])
                        chunk["new"].append(line[1:])
                    elif line[0] == "+":
                        chunk["new"].append(line[1:])
                    elif line[0] == "-":
                        chunk["old"].append(line[1:])
                    elif count == 0:
                        return REJECTED
                    else:
                        break
                    count += 1
                    i += 1
                chunks.append(chunk)
            if not chunks:
                return REJECTED
            hunks.append(("update", head[len("*** Update File: "):], (move, chunks)))
        else:
            return REJECTED
    return hunks


def _codex_normalise(text: str) -> str:
    table = {**{c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"},
             **{c: "'" for c in "\u2018\u2019\u201a\u201b"}, **{c: '"' for c in "\u201c\u201d\u201e\u201f"},
             **{c: " " for c in "\u00a0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"}}
    return "".join(table.get(c, c) for c in _trim_with(RUST_WS, text))


def codex_seek(lines, pattern, start, eof):
    if not pattern:
        return start
    if len(pattern) > len(lines):
        return None
    begin = len(lines) - len(pattern) if eof else start
    passes = (lambda s: s, lambda s: _trim_with(RUST_WS, s, left=False), lambda s: _trim_with(RUST_WS, s),
              _codex_normalise)
    for key in passes:
        i = begin
        while i <= len(lines) - len(pattern):
            if [key(x) for x in lines[i:i + len(pattern)]] == [key(p) for p in pattern]:
                return i
            i += 1
    return None


def _codex_compute(lines, chunks):
    result, index = [], 0
    for chunk in chunks:
        if chunk["context"] is not None:
            at = codex_seek(lines, [chunk["context"]], index, False)
            if at is None:
                return REJECTED
            index = at + 1
        if not chunk["old"]:
            where = len(lines) - 1 if lines and lines[-1] == "" else len(lines)
            result.append((where, 0, list(chunk["new"])))
            continue
        pattern, new = chunk["old"], chunk["new"]
        at = codex_seek(lines, pattern, index, chunk["eof"])
        if at is None and pattern[-1] == "":
            pattern = pattern[:-1]
            if new and new[-1] == "":
                new = new[:-1]
            at = codex_seek(lines, pattern, index, chunk["eof"])
        if at is None:
            return REJECTED
        result.append((at, len(pattern), list(new)))
        index = at + len(pattern)
    result.sort(key=lambda r: r[0])
    return result


def _codex_splice(lines, replacements):
    for start, length, new in reversed(replacements):
        for _ in range(length):
            if start < len(lines):
                del lines[start]
        for offset, line in enumerate(new):
            lines.insert(start + offset, line)
    return lines


def codex_update_older(text: str, chunks):
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    replacements = _codex_compute(lines, chunks)
    if replacements == REJECTED:
        return REJECTED
    lines = _codex_splice(lines, replacements)
    if not (lines and lines[-1] == ""):
        lines.append("")
    return "\n".join(lines)


def codex_update_newer(text: str, chunks):
    records, preferred, start = [], None, 0
    for at, char in enumerate(text):
        if char == "\n":
            line = text[start:at]
            ending = "\r\n" if line.endswith("\r") else "\n"
            records.append([line[:-1] if ending == "\r\n" else line, ending])
            preferred = preferred or ending
            start = at + 1
    if start < len(text):
        records.append([text[start:], None])
    preferred = preferred or "\n"
    replacements = _codex_compute([r[0] for r in records], chunks)
    if replacements == REJECTED:
        return REJECTED
    out, source = [], 0
    for begin, length, new in replacements:
        if begin < source:
            return UNSURE  # the writer's forward index would run backwards (a usize underflow)
        out += records[source:begin]
        out += [[line, preferred] for line in new]
        source = begin + length
    out += records[source:]
    return "".join(line + (ending or preferred) for line, ending in out)


def codex_apply(patch: str, files: dict[str, bytes]):
    """{path: set of contents each release could leave (b"" deleted)} or REJECTED, for files by path."""
    hunks = codex_parse(patch)
    if hunks == REJECTED:
        return REJECTED
    result: dict[str, set] = {}
    for kind, path, data in hunks:
        if kind == "add":
            result[path] = {data}
        elif kind == "delete":
            result[path] = {""}
        else:
            move, chunks = data
            if path not in files:
                return REJECTED
            try:
                text = files[path].decode("utf-8")
            except UnicodeDecodeError:
                return REJECTED
            both = {codex_update_older(text, chunks), codex_update_newer(text, chunks)}
            if REJECTED in both:
                return REJECTED
            if UNSURE in both:
                both = {UNSURE}
            if move is not None:
                result[path] = {""}
            result[move if move is not None else path] = both
    return result


# == Gemini CLI =====================================================================================

def _js_trim(text: str) -> str:
    return _trim_with(JS_WS, text)


def _js_line_matches(text: str) -> list[str]:
    """text.match(/.*(?:\\n|$)/g).slice(0, -1): `.` stops at every line terminator, and a line that
    ends at a lone CR (or U+2028) never matches: that text is skipped."""
    out, index, n = [], 0, len(text)
    while index <= n:
        match = None
        for begin in range(index, n + 1):
            end = begin
            while end < n and text[end] not in JS_LINE_TERMINATORS:
                end += 1
            if end == n:
                match = (begin, n)
                break
            if text[end] == "\n":
                match = (begin, end + 1)
                break
        if match is None:
            break
        out.append(text[match[0]:match[1]])
        index = match[1] if match[1] > match[0] else match[1] + 1
    return out[:-1]


def _restore_trailing_newline(original: str, modified: str) -> str:
    if original.endswith("\n") and not modified.endswith("\n"):
        return modified + "\n"
    if not original.endswith("\n") and modified.endswith("\n"):
        return modified[:-1]
    return modified


def _indent_of(line: str) -> str:
    return re.match(r"[ \t]*", line).group(0)


def _apply_indentation(lines: list[str], target: str) -> list[str]:
    if not lines:
        return []
    reference = _indent_of(lines[0])
    out = []
    for line in lines:
        if _js_trim(line) == "":
            out.append("")
        elif line.startswith(reference):
            out.append(target + line[len(reference):])
        else:
            out.append(target + _trim_with(JS_WS, line, right=False))
    return out


def _gemini_exact(code, search, replace, allow_multiple):
    count = len(code.split(search)) - 1
    if not allow_multiple and count > 1:
        return count, code
    if count > 0:
        return count, _restore_trailing_newline(code, code.replace(search, replace))
    return None


def _gemini_flexible(code, search, replace, new_string):
    source = _js_line_matches(code)
    wanted = [_js_trim(line) for line in search.split("\n")]
    replace_lines = replace.split("\n")
    count, i = 0, 0
    while i <= len(source) - len(wanted):
        window = source[i:i + len(wanted)]
        if [_js_trim(line) for line in window] == wanted:
            count += 1
            block = "\n".join(_apply_indentation(replace_lines, _indent_of(window[0])))
            if new_string != "" and window[-1].endswith("\n") and not block.endswith("\n"):
                block += "\n"
            source[i:i + len(wanted)] = [block]
        i += 1
    if count:
        return count, _restore_trailing_newline(code, "".join(source))
    return None


def _gemini_regex(code, search, replace, allow_multiple):
    processed = search
    for delimiter in ["(", ")", ":", "[", "]", "{", "}", ">", "<", "="]:
        processed = processed.replace(delimiter, f" {delimiter} ")
    tokens = [t for t in re.split(_JS_S + "+", processed) if t]
    if not tokens:
        return None
    line_start = "(?:(?<=[\n\r\u2028\u2029])|\\A)"  # JavaScript's ^ under the m flag
    pattern = re.compile(line_start + "([ \t]*)" + (_JS_S + "*").join(re.escape(t) for t in tokens))
    matches = list(pattern.finditer(code))
    if not matches:
        return None
    new_lines = replace.split("\n")
    out, last = [], 0
    for match in matches if allow_multiple else matches[:1]:
        out += [code[last:match.start()], "\n".join(_apply_indentation(new_lines, match.group(1) or ""))]
        last = match.end()
    out.append(code[last:])
    return len(matches), _restore_trailing_newline(code, "".join(out))


def _utf16_units(text: str) -> list[int]:
    data = text.encode("utf-16-le", "surrogatepass")
    return [int.from_bytes(data[i:i + 2], "little") for i in range(0, len(data), 2)]


def _levenshtein(a: str, b: str) -> int:
    x, y = _utf16_units(a), _utf16_units(b)
    previous = list(range(len(y) + 1))
    for i, cx in enumerate(x, 1):
        current = [i]
        for j, cy in enumerate(y, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (cx != cy)))
        previous = current
    return previous[-1]


def _gemini_fuzzy(code, search, replace, old_string):
    length = len(_utf16_units(old_string))
    if length < 10:
        return None
    source = _js_line_matches(code)
    wanted = [_trim_with(JS_WS, line, left=False) for line in _js_line_matches(search)]
    if len(source) * length ** 2 > 400_000_000 or not wanted:
        return None
    size, block = len(wanted), "\n".join(wanted)
    block_length = len(_utf16_units(block))
    strip = re.compile(_JS_S)
    candidates = []
    for i in range(0, len(source) - size + 1):
        window = "\n".join(_trim_with(JS_WS, line, left=False) for line in source[i:i + size])
        difference = abs(len(_utf16_units(window)) - block_length)
        if block_length == 0:
            if difference > 0:
                continue
            continue  # 0/0 is NaN in JavaScript: no comparison holds, the window is never a candidate
        if difference / block_length > 0.1 / 0.1:
            continue
        raw = _levenshtein(window, block)
        norm = _levenshtein(strip.sub("", window), strip.sub("", block))
        score = (norm + (raw - norm) * 0.1) / block_length
        if score <= 0.1:
            candidates.append((score, i))
    if not candidates:
        return None
    chosen = []
    for score, i in sorted(candidates):
        if all(abs(i - j) >= size for _, j in chosen):
            chosen.append((score, i))
    new_lines = replace.split("\n")
    for _, i in sorted(chosen, key=lambda c: -c[1]):
        text = "\n".join(_apply_indentation(new_lines, _indent_of(source[i])))
        if source[i + size - 1].endswith("\n"):
            text += "\n"
        source[i:i + size] = [text]
    return len(chosen), _restore_trailing_newline(code, "".join(source))


MODEL = "model"  # Gemini asks a model to correct the edit: what it writes then is anyone's guess


def gemini_edit(raw: bytes | None, old: str, new: str, allow_multiple: bool, suffix: str):
    """(what, content): ("write", text) for the bytes' text the tool writes, ("refused", None), or
    (MODEL, strategy-or-None) when the first attempt fails and a model corrects the edit."""
    if raw is None:
        return ("write", new) if old == "" else ("refused", None)
    text = raw.decode("utf-8", "replace")
    crlf = "\r\n" in text
    code = text.replace("\r\n", "\n")
    if old == "":
        return "refused", None
    search, replace = old.replace("\r\n", "\n"), new.replace("\r\n", "\n")
    strategy, outcome = None, None
    for name, attempt in (("exact", lambda: _gemini_exact(code, search, replace, allow_multiple)),
                          ("flexible", lambda: _gemini_flexible(code, search, replace, new)),
                          ("regex", lambda: _gemini_regex(code, search, replace, allow_multiple)),
                          ("fuzzy", lambda: _gemini_fuzzy(code, search, replace, old))):
        outcome = attempt()
        if outcome is not None:
            strategy = name
            break
    count = outcome[0] if outcome else 0
    failed = count == 0 or (not allow_multiple and count != 1) or search == replace
    if failed:
        if suffix.lower() in (".json", ".ipynb", ".jsonc", ".json5"):
            return "refused", None
        return MODEL, strategy
    written = outcome[1]
    if crlf:
        written = re.sub("\r?\n", "\r\n", written)
    return "write:" + strategy, written


# == Claude Code (documented behaviour) ==============================================================

_QUOTES = {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'}


def claude_edit(text: str | None, old: str, new: str, replace_all: bool):
    """("write", text), ("refused", None), or ("loose", None): old is in the file only with other
    whitespace or punctuation (what Claude Code does then is not documented)."""
    if text is None:
        return ("write", new) if old == "" else ("refused", None)
    if old == "":
        return ("write", new) if _js_trim(text) == "" else ("refused", None)
    if old == new:
        return "refused", None
    fold = lambda s: "".join(_QUOTES.get(c, c) for c in s)  # noqa: E731
    tries = [(old, new)]
    if "\r\n" in text and "\n" in old:
        tries.append(tuple(s.replace("\r\n", "\n").replace("\n", "\r\n") for s in (old, new)))
    for wanted, replacement in tries:
        # The text as given first; only when it is not there, the file's text that differs in quote style.
        hits = [text.index(wanted)] if wanted in text else \
            [i for i in range(len(text) - len(wanted) + 1) if fold(text[i:i + len(wanted)]) == fold(wanted)]
        if not hits:
            continue
        actual = text[hits[0]:hits[0] + len(wanted)]
        if text.count(actual) > 1 and not replace_all:
            return "refused", None
        return "write", text.replace(actual, replacement)
    squash = lambda s: " ".join(s.split())  # noqa: E731
    if squash(old) and squash(old) in squash(text):
        return "loose", None
    return "refused", None

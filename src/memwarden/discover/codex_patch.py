"""A Codex `apply_patch` patch read and applied as Codex's own apply-patch crate reads and applies it.

The hook must judge the file Codex will write, so this follows Codex's parser and its line
search, not the patch format's grammar: headers and the Begin/End markers may be indented or
padded, an Update's first chunk may start without `@@`, a patch may sit in a `<<'EOF'` heredoc,
lines are split at LF only (U+2028 inside a `+` line stays inside it), and a chunk's lines are
found exactly, then ignoring trailing whitespace, then ignoring both ends' whitespace, then with
typographic dashes, quotes and spaces read as ASCII. Codex trims with Rust's Unicode White_Space,
not Python's `str.strip` (which also strips U+001C-U+001F).

Two releases of Codex write a file differently: the older splits it at LF (a CR stays at the end of
its line, a trailing blank line is dropped); the newer keeps each line's ending and gives new lines
the file's first ending. `updated_contents` gives both when they differ, so both are judged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from memwarden.discover.agent_edits import Unpredictable

# Rust's char::is_whitespace (Unicode White_Space), what str::trim strips.
RUST_WHITESPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000"
BEGIN, END = "*** Begin Patch", "*** End Patch"
ADD, DELETE, UPDATE, MOVE = "*** Add File: ", "*** Delete File: ", "*** Update File: ", "*** Move to: "
END_OF_FILE = "*** End of File"
HEREDOC_OPENERS = ("<<EOF", "<<'EOF'", '<<"EOF"')
# Codex's last, loosest search reads these as ASCII.
_ASCII_PUNCTUATION = str.maketrans(
    {**dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"),
     **dict.fromkeys("\u2018\u2019\u201a\u201b", "'"),
     **dict.fromkeys("\u201c\u201d\u201e\u201f", '"'),
     **dict.fromkeys("\xa0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000", " ")}
)


class PatchRejected(ValueError):
    """Codex refuses the whole patch (it does not parse, or a chunk is not in its file): nothing is written."""


@dataclass
class Chunk:
    context: str | None = None  # the `@@ <line>` the chunk's lines follow
    old: list[str] = field(default_factory=list)
    new: list[str] = field(default_factory=list)
    at_end: bool = False  # `*** End of File`: the old lines end the file


@dataclass
class FileChange:
    action: str  # "add", "delete" or "update"
    path: str
    added: str = ""  # an Add's whole content
    move_to: str | None = None
    chunks: list[Chunk] = field(default_factory=list)


def rust_trim(text: str) -> str:
    return text.strip(RUST_WHITESPACE)


def _rust_lines(text: str) -> list[str]:
    """Rust's str::lines: split at LF, one CR before it dropped, no empty last line after a final LF."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def parse_patch(patch: str) -> list[FileChange]:
    """The file changes of a patch, in order; PatchRejected when Codex would not parse it."""
    lines = _rust_lines(rust_trim(patch))
    body = _body(lines)
    if body is None and len(lines) >= 4 and lines[0] in HEREDOC_OPENERS and lines[-1].endswith("EOF"):
        body = _body(lines[1:-1])
    if body is None:
        raise PatchRejected("the patch does not start with '*** Begin Patch' and end with '*** End Patch'")
    changes = []
    while body:
        change, used = _file_change(body)
        changes.append(change)
        body = body[used:]
    return changes


# `[cd DIR &&] apply_patch <<'EOF'` ... `EOF` in a shell script: Codex takes the heredoc's body as it is and
# applies it itself (no shell expansion), from DIR when a `cd` leads.
_SHELL_HEREDOC = re.compile(
    r"\A\s*(?:cd\s+(?P<dir>'[^']*'|\"[^\"]*\"|[^\s'\"&;|]+)\s*&&\s*)?(?:apply_patch|applypatch)\s*<<-?\s*"
    r"(?P<quote>['\"]?)(?P<tag>\w+)(?P=quote)[ \t]*\n(?P<body>.*?)\n(?P=tag)\s*\Z", re.S)


def shell_patch(command: str) -> tuple[str, str | None] | None:
    """(patch, folder) when command is a shell script that feeds apply_patch a heredoc; None otherwise."""
    found = _SHELL_HEREDOC.match(command)
    if found is None:
        return None
    folder = found.group("dir")
    return found.group("body"), folder.strip("'\"") if folder else None


def wrapped_paths(command: str) -> list[str]:
    """The files a patch inside some other command names, when that command is not a form memwarden reads
    (the patch's own text, a heredoc): empty when command is a patch as it is."""
    before_patch = command.split(BEGIN, 1)[0]
    if BEGIN not in command or not re.search(r"\bapply_?patch\b", before_patch):
        return []
    named = []
    for line in command.split("\n"):
        line = rust_trim(line)
        for marker in (ADD, DELETE, UPDATE, MOVE):
            if line.startswith(marker):
                named.append(line[len(marker):].strip("'\""))
    return named


def _body(lines: list[str]) -> list[str] | None:
    if not lines or rust_trim(lines[0]) != BEGIN or rust_trim(lines[-1]) != END:
        return None
    return lines[1:-1]


def _file_change(lines: list[str]) -> tuple[FileChange, int]:
    header = rust_trim(lines[0])
    if header.startswith(ADD):
        taken = 1
        while taken < len(lines) and lines[taken].startswith("+"):
            taken += 1
        return FileChange("add", header[len(ADD):], "".join(line[1:] + "\n" for line in lines[1:taken])), taken
    if header.startswith(DELETE):
        return FileChange("delete", header[len(DELETE):]), 1
    if not header.startswith(UPDATE):
        raise PatchRejected(f"not a file header: {header[:40]!r}")
    change = FileChange("update", header[len(UPDATE):])
    taken = 1
    if taken < len(lines) and lines[taken].startswith(MOVE):
        change.move_to = lines[taken][len(MOVE):]
        taken += 1
    while taken < len(lines):
        if not rust_trim(lines[taken]):
            taken += 1  # blank lines between chunks
            continue
        if lines[taken].startswith("*"):
            break
        chunk, used = _chunk(lines[taken:], first=not change.chunks)
        change.chunks.append(chunk)
        taken += used
    if not change.chunks:
        raise PatchRejected(f"the update of {change.path!r} has no chunk")
    return change, taken


def _chunk(lines: list[str], first: bool) -> tuple[Chunk, int]:
    chunk = Chunk()
    if lines[0] == "@@":
        start = 1
    elif lines[0].startswith("@@ "):
        chunk.context, start = lines[0][3:], 1
    elif first:
        start = 0
    else:
        raise PatchRejected("a chunk does not start with @@")
    if start >= len(lines):
        raise PatchRejected("a chunk has no lines")
    parsed = 0
    for line in lines[start:]:
        if line == END_OF_FILE:
            if parsed == 0:
                raise PatchRejected("a chunk has no lines")
            chunk.at_end = True
            parsed += 1
            break
        mark, rest = line[:1], line[1:]
        if mark in ("", " "):
            chunk.old.append(rest)
            chunk.new.append(rest)
        elif mark == "+":
            chunk.new.append(rest)
        elif mark == "-":
            chunk.old.append(rest)
        elif parsed == 0:
            raise PatchRejected("a chunk line starts with neither ' ', '+' nor '-'")
        else:
            break  # the next chunk or file
        parsed += 1
    return chunk, start + parsed


def seek(lines: list[str], pattern: list[str], start: int, at_end: bool) -> int | None:
    """Where pattern's lines are in lines, from start (at the very end only, for an end-of-file chunk)."""
    if not pattern:
        return start
    if len(pattern) > len(lines):
        return None
    first = len(lines) - len(pattern) if at_end else start
    for same in (str.__eq__, _same_but_trailing_space, _same_but_ends, _same_as_ascii):
        for at in range(first, len(lines) - len(pattern) + 1):
            if all(same(lines[at + i], wanted) for i, wanted in enumerate(pattern)):
                return at
    return None


def _same_but_trailing_space(a: str, b: str) -> bool:
    return a.rstrip(RUST_WHITESPACE) == b.rstrip(RUST_WHITESPACE)


def _same_but_ends(a: str, b: str) -> bool:
    return rust_trim(a) == rust_trim(b)


def _same_as_ascii(a: str, b: str) -> bool:
    return rust_trim(a).translate(_ASCII_PUNCTUATION) == rust_trim(b).translate(_ASCII_PUNCTUATION)


def _replacements(lines: list[str], chunks: list[Chunk]) -> list[tuple[int, int, list[str]]]:
    replacements = []
    position = 0
    for chunk in chunks:
        if chunk.context is not None:
            found = seek(lines, [chunk.context], position, False)
            if found is None:
                raise PatchRejected("a chunk's @@ line is not in the file")
            position = found + 1
        if not chunk.old:
            # A pure addition goes at the end (before a last empty line), wherever its @@ line is.
            replacements.append((len(lines) - 1 if lines and lines[-1] == "" else len(lines), 0, chunk.new))
            continue
        old, new = chunk.old, chunk.new
        found = seek(lines, old, position, chunk.at_end)
        if found is None and old[-1] == "":
            old, new = old[:-1], new[:-1] if new and new[-1] == "" else new
            found = seek(lines, old, position, chunk.at_end)
        if found is None:
            raise PatchRejected("a chunk's lines are not in the file")
        replacements.append((found, len(old), new))
        position = found + len(old)
    replacements.sort(key=lambda r: r[0])
    for (start, length, _), (next_start, _, _) in zip(replacements, replacements[1:]):
        if next_start < start + length:
            # A pure addition placed at the end, inside a later chunk's lines: the newer release's writer
            # walks the file forward and its index runs backwards (a panic, or a wrapped count).
            raise Unpredictable("two chunks of the patch land on the same lines of the file")
    return replacements


def _replaced(lines: list, replacements, new_line) -> list:
    for start, length, new in reversed(replacements):
        lines[start:start + length] = [new_line(text) for text in new]
    return lines


def updated_contents(text: str, chunks: list[Chunk]) -> list[str]:
    """The file an Update leaves, as each Codex release writes it (one text when they agree)."""
    # The older release: the file split at LF, a final empty piece dropped, joined with LF and a final LF.
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    result = _replaced(list(lines), _replacements(lines, chunks), str)
    if not result or result[-1] != "":
        result.append("")
    older = "\n".join(result)
    # The newer release: each line keeps its own ending; new lines and a last unended line take the first one.
    pieces = text.split("\n")
    ended = [(piece[:-1], "\r\n") if piece.endswith("\r") else (piece, "\n") for piece in pieces[:-1]]
    if pieces[-1]:
        ended.append((pieces[-1], None))
    ending = ended[0][1] if ended and ended[0][1] else "\n"
    texts = [line for line, _ in ended]
    kept = _replaced(list(ended), _replacements(texts, chunks), lambda line: (line, ending))
    newer = "".join(line + (end or ending) for line, end in kept)
    return [older] if newer == older else [older, newer]

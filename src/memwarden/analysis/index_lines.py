"""Reading index lines as the agent does: where their links lead, how their triggers compare, how much they say."""

from __future__ import annotations

import posixpath
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from memwarden.documents.markdown import IndexDocument
from memwarden.documents.scan import comment_spans, find_links, resolve_link
from memwarden.patterns import LazyPattern

_TERMINATOR = LazyPattern(r"[.!?。！？]+")
# A "." after one of these (or after a single letter: an initial, "a." in a list) ends no sentence.
_ABBREVIATIONS = {
    "e.g", "i.e", "etc", "vs", "cf", "approx", "no", "fig", "eg", "ie", "mr", "mrs", "ms", "dr", "st", "al",
    "jr", "sr", "incl", "esp", "resp", "min", "max", "ca", "viz", "et al", "w.r.t", "n.b", "nb", "ex", "ref",
}
_WORDY = LazyPattern(r"[^\W\d_]", re.UNICODE)
_QUOTED = LazyPattern(r"\"[^\"\n]*\"|“[^”\n]*”|「[^」\n]*」|『[^』\n]*』")


def normalize_trigger(text: str) -> str:
    """A trigger as compared with others: case, width, spacing and end punctuation ignored."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(text.split()).strip(" .,;:!?。、，！？…")


def sentence_count(text: str) -> int:
    """How many sentences text holds (a terminator ends one only before a space, a CJK one anywhere)."""
    count = 0
    start = 0
    for match in _TERMINATOR.finditer(text):
        end = match.end()
        ascii_only = match.group(0)[0] in ".!?"
        if ascii_only and end < len(text) and not text[end].isspace():
            continue  # v5.2, file.md, a.b
        if match.group(0).startswith("."):
            word_start = max(text.rfind(" ", start, match.start()), start - 1) + 1
            word = text[word_start : match.start()].lower().lstrip("([{\"'“‘*_").rstrip(".")
            if word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha()):
                continue  # "(e.g. CelestraCloud)", "approx. 3", "vs. the old one", "J. Smith"
        if _WORDY.search(text[start : match.start()]):
            count += 1
        start = end
    if _WORDY.search(text[start:]):
        count += 1
    return count


def most_sentences(entry, visible: str) -> int:
    """The most sentences one part of an index entry holds: a trigger, or its visible text outside quotes."""
    parts = [t.text for t in entry.triggers] + [_QUOTED.sub(" ", visible)]
    return max((sentence_count(part) for part in parts), default=0)


def visible_text(item: str) -> str:
    """The entry as read: links replaced by their titles, HTML comments gone."""
    kept, cursor = [], 0
    for start, stop in comment_spans(item):
        kept.append(item[cursor:start])
        cursor = stop
    kept.append(item[cursor:])
    item = "".join(kept)
    pieces, cursor = [], 0
    for link in find_links(item):
        pieces.append(item[cursor : link.start])
        pieces.append(link.title)
        cursor = link.end
    pieces.append(item[cursor:])
    return "".join(pieces).strip()


# -- content without a link ----------------------------------------------------------

_HEADING = LazyPattern(r"^\s{0,3}#{1,6}(?:\s|$)")
_RULE_OR_UNDERLINE = LazyPattern(r"^\s{0,3}(?:[-*_=]\s*){3,}$")
_TABLE_SEPARATOR = LazyPattern(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
_ITEM = LazyPattern(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+|^\s*\|")  # a list item or a table row
# What makes a line point rather than tell: an @import (Claude Code, gish), a wikilink, a URL, or a file path.
_IMPORT = LazyPattern(r"^\s*(?:[-*+]\s+)?@[~.\w/-]")
_URL = LazyPattern(r"\b[a-z][a-z0-9+.-]*://\S", re.I)
_PATH = LazyPattern(
    r"`[^`\n]*(?:/|\.(?:md|ya?ml|jsonl?|txt|toml)\b)[^`\n]*`"  # a path in inline code
    r"|(?:^|[\s(\[\"'])(?:\.{1,2}|~)?/[\w.-]"  # /abs, ./rel, ../up, ~/home
    r"|\b[\w-]+(?:/[\w.-]+)*\.(?:md|ya?ml|jsonl?|txt|toml)\b"  # a memory file's name
)


@dataclass(frozen=True)
class ContentRun:
    """Index lines in a row that tell something without pointing anywhere."""

    line: int
    column: int
    last_line: int
    items: int  # list items and table rows among them
    sentences: int
    longest: int  # the longest line's visible length

    @property
    def lines(self) -> int:
        return self.last_line - self.line + 1


def _without_comments(line: str) -> str:
    kept, cursor = [], 0
    for start, stop in comment_spans(line):
        kept.append(line[cursor:start])
        cursor = stop
    kept.append(line[cursor:])
    return "".join(kept)


def _points(line: str) -> bool:
    return bool(
        "](" in line and find_links(line)
        or "[[" in line
        or _IMPORT.match(line)
        or _URL.search(line)
        or _PATH.search(line)
    )


# An index that declares its unlinked lines whole rules ("Each line below is a complete rule",
# "rules without a note live inline", 「每一行都是一條完整的規則」): those lines are not content to move out.
_INLINE_RULES = LazyPattern(
    r"\b(?:each|every)\s+(?:line|item|bullet|entry)\b[^.\n]{0,60}?\b(?:is|are)\s+(?:a\s+|an\s+)?"
    r"(?:whole|complete|standalone|stand-alone|self-contained|full)\s+(?:rule|lesson|instruction|memory)"
    r"|\b(?:rules?|lessons?)\b[^.\n]{0,40}?\b(?:live|stay|are\s+kept|kept)\s+inline\b"
    r"|\binline\s+(?:rules|lessons)\b"
    r"|每一?(?:行|條|条|項|项)[^。\n]{0,12}?(?:都是|是)[^。\n]{0,6}?(?:完整|獨立|独立)的?(?:規則|规则|教訓|教训)",
    re.IGNORECASE,
)


def declares_inline_rules(doc) -> bool:
    """Whether an index says that its lines without a link are whole rules (outside comments and code)."""
    return bool(_INLINE_RULES.search(_without_comments(doc.text)))


def content_runs(doc, max_chars: int) -> list[ContentRun]:
    """The runs of index text that tell something without pointing anywhere: paragraphs, list items, table rows.

    Lines group into units (a paragraph, a list item with its continuation
    lines, a table row); a unit that points (a link, an @import, a URL or a
    file path anywhere in it) is a signpost, not content. Units in a row form
    a run; a blank line, a heading, a rule, code, a signpost ends it, and a
    table's separator row is skipped. Paragraphs before the first list item or
    table row are the index's preamble and never count. A run is content when
    it holds two items or two sentences, or a line longer than max_chars: a
    one-sentence remark is not, a list of facts is.
    """
    hidden = doc.hidden_lines
    units: list[list] = []  # [kind, first line, last line, text, lines' texts]; kind "item", "row", "para" or "break"

    def add_break():
        if units and units[-1][0] != "break":
            units.append(["break"])

    for number in range(doc.body_line, doc.line_count + 1):
        raw = doc.line_text(number)
        text = _without_comments(raw) if number not in hidden else ""
        if number in hidden or _HEADING.match(text) or _RULE_OR_UNDERLINE.match(text):
            add_break()
            continue
        if not text.strip():
            if "<!--" not in raw:  # a comment alone on its line is neither content nor a break
                add_break()
            continue
        if _TABLE_SEPARATOR.match(text) and "-" in text and "|" in text:
            continue
        item = _ITEM.match(text)
        last = units[-1] if units else ["break"]
        if not item and last[0] in ("item", "para") and (last[0] == "para" or text[:1].isspace()):
            last[2] = number
            last[3] += " " + text.strip()
            last[4].append(text)
            continue
        kind = ("row" if text.lstrip().startswith("|") else "item") if item else "para"
        units.append([kind, number, number, text.strip(), [text]])

    runs: list[ContentRun] = []
    current: list[list] = []
    listed = False  # past the first list item or table row: paragraphs are no longer preamble

    def close():
        if current:
            first = current[0][4][0]
            items = sum(1 for u in current if u[0] != "para")
            sentences = sum(sentence_count(_QUOTED.sub(" ", u[3].strip(" |"))) for u in current)
            longest = max(len(t.strip()) for u in current for t in u[4])
            runs.append(ContentRun(current[0][1], len(first) - len(first.lstrip()) + 1, current[-1][2], items, sentences, longest))
            current.clear()

    # Lines the shared scanner finds a link on: reference-style ones too, whose target is elsewhere.
    linked = {doc.line_col(link.start)[0] for link in getattr(doc, "links", ())}
    for unit in units:
        if unit[0] == "break" or _points(unit[3]) or any(n in linked for n in range(unit[1], unit[2] + 1)):
            listed = listed or unit[0] in ("item", "row")
            close()
            continue
        if unit[0] == "para" and not listed:
            close()
            continue
        listed = True if unit[0] != "para" else listed
        current.append(unit)
    close()
    return [r for r in runs if r.items > 1 or r.sentences > 1 or r.longest > max_chars]


# -- where links lead -----------------------------------------------------------------

_WINDOWS_PATH = LazyPattern(r"[A-Za-z]:[\\/]")


def in_reading_order(indexes) -> list:
    """The indexes that parsed: the startup index first, then the shelves in path order."""
    parsed = [d for d in indexes if isinstance(d, IndexDocument) and d.ok]
    return sorted(parsed, key=lambda d: (d.kind.name != "startup-index", d.relpath))


def is_windows_path(target: str) -> bool:
    return _WINDOWS_PATH.match(target) is not None


def local_targets(doc, entry) -> list[tuple[object, str]]:
    """(link, workspace path) for each link of an entry that names a file here."""
    found = []
    for link in entry.links:
        resolved = resolve_link(doc.relpath, link.target)
        if resolved is not None:
            found.append((link, resolved))
    return found


INDEX_KINDS = ("startup-index", "shelf-index")


def paths_linked_from_indexes(ctx) -> frozenset[str]:
    """The workspace path of every local link in the run's indexes that parse (built once a run)."""
    return ctx.memo.get(("index_lines", "linked"), lambda: frozenset(
        path for doc in ctx.documents(*INDEX_KINDS) if isinstance(doc, IndexDocument) and doc.ok
        for path in linked_paths(doc)
    ))


def linked_paths(doc):
    """The workspace path of every local link in an index outside code and comments, list item or not, inline or
    reference-style."""
    for link in doc.links:
        resolved = resolve_link(doc.relpath, link.target.strip("<>"))
        if resolved is not None:
            yield resolved


def is_file(root: Path, resolved: str) -> bool:
    """Whether a link target is a file, as far as can be told: one in a folder we may not read counts as
    there (that folder is reported as unreadable; its notes are not missing)."""
    try:
        return (root / resolved).is_file()
    except PermissionError:
        return True
    except (OSError, ValueError):  # a name too long for the file system, say
        return False


def is_folder(root: Path, resolved: str) -> bool:
    try:
        return (root / resolved).is_dir()
    except (OSError, ValueError):
        return False


def leaves_workspace(root: Path, resolved: str) -> bool:
    """Whether a resolved link target is absolute, climbs out of root, or is a symlink leading out."""
    if resolved.startswith("/") or resolved == ".." or resolved.startswith("../"):
        return True
    root = root.resolve()
    try:
        (root / resolved).resolve().relative_to(root)
    except ValueError:
        return True
    except (OSError, RuntimeError, ValueError):  # a symlink loop, a name too long: not outside, not a file either
        return False
    return False


def in_work_tree(root: Path, work_tree: Path | None, resolved: str) -> str | None:
    """A relative target that leaves the workspace, as a path inside its git work tree; None if it leaves that too.

    A memory folder committed in a repository (`.claude/memory/`) may link to the repository's own
    files (`../../CLAUDE.md`): the link works in every clone. An absolute path never does.
    """
    if work_tree is None or resolved.startswith("/"):
        return None
    try:
        full = (root / resolved).resolve()
        return full.relative_to(work_tree.resolve()).as_posix()
    except (OSError, RuntimeError, ValueError):
        return None


def closest_note(files, index_relpath: str, resolved: str) -> str | None:
    """A really close existing Markdown file to link to instead of resolved, as a link from the index; or None.

    Close means: the one file of the same name in another folder, or the one file whose name is a typo or
    two away (an edit distance of 1 for a short name, 2 up to 15 characters, 3 beyond), in the target's
    own folder first. Two names that merely share a long folder path or a word are not close: a wrong
    suggestion sends the user to the wrong note.
    """
    candidates = sorted(p for p in files if p.endswith(".md") and p != index_relpath)
    name = posixpath.basename(resolved)
    same_name = [p for p in candidates if posixpath.basename(p) == name]
    close = same_name if len(same_name) == 1 else []
    if not same_name:
        stem = name[:-3] if name.endswith(".md") else name
        limit = 1 if len(stem) <= 6 else 2 if len(stem) <= 15 else 3
        folder = posixpath.dirname(resolved)
        for group in ([p for p in candidates if posixpath.dirname(p) == folder], candidates):
            scored = [(_distance(stem, posixpath.basename(p)[:-3], limit), p) for p in group]
            scored = [(d, p) for d, p in scored if d <= limit]
            best = min((d for d, _ in scored), default=None)
            if best is not None:
                close = [p for d, p in scored if d == best]
                close = close if len(close) == 1 else []
                break
    if not close:
        return None
    base = posixpath.dirname(index_relpath) or "."
    return posixpath.relpath(close[0], base)


def _distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance of a and b, or limit + 1 as soon as it must exceed limit."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, char in enumerate(a, 1):
        current = [i]
        for j, other in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char != other)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


# -- two-sided notes ------------------------------------------------------------------


def two_sided_summary(doc) -> bool:
    """Whether a note's front matter declares it two-sided (a summary: see :func:`two_sided_declarations`)."""
    return bool(doc is not None and doc.ok and _declares_two_sided(doc))


def two_sided_declarations(summaries: dict) -> dict[str, bool]:
    """For each note whose bytes mention two_sided: whether its front matter declares it, from
    ``ctx.summaries(two_sided_summary, "note")`` (None for a note whose bytes do not mention it)."""
    return {relpath: declared for relpath, declared in summaries.items() if declared is not None}


def _may_declare_two_sided(raw: bytes) -> bool:
    # UTF-16/32 files spell the key with NUL bytes between letters: parse those to be sure.
    return b"two_sided" in raw or raw[:2] in (b"\xff\xfe", b"\xfe\xff") or raw[:4] == b"\x00\x00\xfe\xff"


# Only such a note can declare it: only those are parsed (a hook stays fast).
two_sided_summary.raw_filter = _may_declare_two_sided


def _declares_two_sided(note) -> bool:
    data = getattr(note, "front_matter", None)
    if not isinstance(data, dict):
        return False
    metadata = data.get("metadata")
    return data.get("two_sided") is True or (isinstance(metadata, dict) and metadata.get("two_sided") is True)

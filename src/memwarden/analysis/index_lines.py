"""Reading index lines as the agent does: where their links lead, how their triggers compare, how much they say."""

from __future__ import annotations

import difflib
import posixpath
import re
import unicodedata
from pathlib import Path

from memwarden.documents.markdown import IndexDocument
from memwarden.documents.scan import comment_spans, find_links, resolve_link

_TERMINATOR = re.compile(r"[.!?。！？]+")
_ABBREVIATIONS = {"e.g", "i.e", "etc", "vs", "cf", "approx", "no", "fig", "eg", "ie", "mr", "dr", "st"}
_WORDY = re.compile(r"[^\W\d_]", re.UNICODE)
_QUOTED = re.compile(r"\"[^\"\n]*\"|“[^”\n]*”|「[^」\n]*」|『[^』\n]*』")


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
            if text[word_start : match.start()].lower().rstrip(".") in _ABBREVIATIONS:
                continue
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


# -- where links lead -----------------------------------------------------------------

_WINDOWS_PATH = re.compile(r"[A-Za-z]:[\\/]")


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


def linked_paths(doc):
    """The workspace path of every local link in an index outside code and comments, list item or not."""
    hidden = doc.hidden_lines
    for number in range(doc.body_line, doc.line_count + 1):
        if number in hidden:
            continue
        line = doc.line_text(number)
        if "](" not in line:
            continue
        for link in find_links(line):
            resolved = resolve_link(doc.relpath, link.target.strip("<>"))
            if resolved is not None:
                yield resolved


def is_file(root: Path, resolved: str) -> bool:
    try:
        return (root / resolved).is_file()
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
    """A close existing Markdown file to link to instead of resolved, as a link from the index."""
    candidates = [p for p in files if p.endswith(".md") and p != index_relpath]
    name = posixpath.basename(resolved)
    same_name = [p for p in candidates if posixpath.basename(p) == name]
    close = same_name or difflib.get_close_matches(resolved, candidates, n=1, cutoff=0.75)
    if not close:
        return None
    base = posixpath.dirname(index_relpath) or "."
    return posixpath.relpath(close[0], base)


# -- two-sided notes ------------------------------------------------------------------


def two_sided_declarations(ws) -> dict[str, bool]:
    """For each note whose bytes mention two_sided: whether its front matter declares it."""
    # Only such a note can declare it: parse just those (a hook stays fast).
    found = {}
    for relpath, kind in ws.files.items():
        if kind.name == "note" and _may_declare_two_sided(ws.current_bytes(relpath) or b""):
            note = ws.document(relpath)
            found[relpath] = note.ok and _declares_two_sided(note)
    return found


def _may_declare_two_sided(raw: bytes) -> bool:
    # UTF-16/32 files spell the key with NUL bytes between letters: parse those to be sure.
    return b"two_sided" in raw or raw[:2] in (b"\xff\xfe", b"\xfe\xff") or raw[:4] == b"\x00\x00\xfe\xff"


def _declares_two_sided(note) -> bool:
    data = getattr(note, "front_matter", None)
    if not isinstance(data, dict):
        return False
    metadata = data.get("metadata")
    return data.get("two_sided") is True or (isinstance(metadata, dict) and metadata.get("two_sided") is True)

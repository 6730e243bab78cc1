"""Where the links in a note's body lead: relative paths from the note's folder, and [[wikilinks]] by note name.

Links come from the shared scanner (documents/scan.py): inline links with or
without a title, percent-encoded or in <...>, reference-style links through
their definitions; nothing in code or HTML comments. A path link leads
somewhere when a file or folder is there (in the workspace, the repository
around it, or the staged overlay), from the note's folder or, as agents write
links from where they run, from the workspace's or the repository's top
folder; a URL, an `#anchor` of the note itself or
an absolute path is not checked here. A wikilink resolves, as Obsidian and
the memory tools that borrowed it do, by a note's file stem or its front-matter
`name`, anywhere in the workspace (`[[folder/note]]` by the end of its path);
case is ignored, and so is the choice between `-`, `_` and a space, and the
type prefix Claude Code puts before a memory's file name (agents write
`[[feedback-x]]` or `[[x]]` for `feedback_x.md`, and read it as meant). An
embed of a non-note file (`![[diagram.png]]`) resolves by its file name.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from memwarden.analysis.index_lines import is_file, is_folder, is_windows_path
from memwarden.documents.scan import find_wikilinks, markdown_links, resolve_link
from memwarden.patterns import LazyPattern


@dataclass(frozen=True)
class DeadLink:
    offset: int  # where the target (or the wikilink) is written in the note's text
    target: str  # as written
    resolved: str | None  # a path link's workspace path; None for a wikilink
    reference: bool = False  # a reference-style link: the offset is its label's


# OpenClaw's inline directives, which an assistant's reply carries and a saved transcript keeps: reply threading
# tags (docs/channels/telegram.md, slack.md: `[[reply_to_current]]`, `[[reply_to:<id>]]`), voice and speech
# (`[[audio_as_voice]]`, `[[tts:...]]`, `[[/tts:text]]`). Not links to notes.
_AGENT_DIRECTIVE = LazyPattern(r"(?:reply_to_current|reply_to:.*|audio_as_voice|/?tts(?::.*)?)", re.S)
_SEPARATORS = LazyPattern(r"[-_\s]+")
_TYPE_PREFIX = LazyPattern(r"^(?:feedback|project|reference|user)-(?=.)")


def _slug(name: str) -> str:
    return _SEPARATORS.sub("-", name.strip().casefold())


def _add(names: set, name: str) -> None:
    slug = _slug(name)
    names.add(slug)
    names.add(_TYPE_PREFIX.sub("", slug))  # feedback_gates_pattern.md answers [[gates-pattern]] too


def _stems(ws) -> frozenset[str]:
    """The slugs of the workspace's Markdown files' stems: no file is read."""
    names: set[str] = set()
    for relpath in ws.files:
        if relpath.endswith(".md"):
            _add(names, posixpath.basename(relpath)[:-3])
    return frozenset(names)


def _names(ws) -> frozenset[str]:
    """The slugs of the notes' front-matter `name`s: every note is parsed, so this is asked only when no stem matches."""
    names: set[str] = set()
    for relpath, kind in ws.files.items():
        if kind.name == "note":
            doc = ws.document(relpath)
            front = getattr(doc, "front_matter", None) if doc is not None and doc.ok else None
            name = front.get("name") if isinstance(front, dict) else None
            if isinstance(name, str) and name.strip():
                _add(names, name)
    return frozenset(names)


def _wiki_resolves(ws, note_dir: str, name: str, memo) -> bool:
    name = name.strip()
    stem = name[:-3] if name.casefold().endswith(".md") else name
    if "/" in stem:
        tail = "/" + _slug(stem).lstrip("/") + ".md"
        if any(("/" + _slug(path)).endswith(tail) for path in ws.files):
            return True
    elif _slug(stem) in memo.get(("note_links", "stems"), lambda: _stems(ws)):
        return True
    elif _slug(stem) in memo.get(("note_links", "names"), lambda: _names(ws)):
        return True
    # A file beside the note or at the root of that name (an attachment, a note no kind claims).
    candidates = [name] if posixpath.splitext(name)[1] else [name + ".md"]
    return any(
        is_file(ws.root, posixpath.normpath(posixpath.join(base, candidate)))
        for base in (note_dir, "")
        for candidate in candidates
        if not candidate.startswith("/")
    )


def _from_top_folder(ws, target: str, memo) -> bool:
    """Whether a relative link that leads nowhere from its note leads somewhere from the workspace's or the
    repository's top folder: an agent runs there and writes `app/main.py` in a note three folders down."""
    path = resolve_link("", target)  # the target as a path from the top, as the note's own resolution reads it
    if path is None or path.startswith(("/", "../")) or path in ("..", "."):
        return False

    def tops():
        tree = ws.work_tree
        return (ws.root,) if tree is None or tree == ws.root else (ws.root, tree)

    return any(is_file(top, path) or is_folder(top, path) for top in memo.get(("note_links", "tops"), tops))


# `agent.py:19-30`: the lines of a file, as Cline and Roo write a link and VS Code opens it.
_LINE_RANGE = LazyPattern(r"(?P<path>.+?):\d+(?:-\d+)?")


def _without_lines(target: str) -> str | None:
    """The link without a trailing line number or range (`agent.py:19-30`), or None when it has none."""
    lines = _LINE_RANGE.fullmatch(target)
    return None if lines is None else lines["path"]


def _leads_somewhere(ws, resolved: str | None, target: str, memo) -> bool:
    """Whether a link (target as written, resolved from its note) leads to a file or folder of the workspace."""
    if resolved is None or resolved.startswith("/"):
        return False
    if resolved in ws.overlay or is_file(ws.root, resolved) or is_folder(ws.root, resolved):
        return True
    return _from_top_folder(ws, target, memo)


def dead_links(doc, ws, memo) -> list[DeadLink]:
    """The links of a note's body that lead nowhere, in the order they are written."""
    text = doc.text
    if "[" not in text:
        return []
    found = []
    for link in markdown_links(text, doc.body_offset):
        target = link.target.strip("<>")
        if is_windows_path(target):
            continue  # an absolute path: not a link between notes
        resolved = resolve_link(doc.relpath, target)
        if resolved is None or resolved.startswith("/"):
            continue  # a URL, an anchor in this note, an absolute path
        if _leads_somewhere(ws, resolved, target, memo):
            continue
        path = _without_lines(target)
        if path is not None and _leads_somewhere(ws, resolve_link(doc.relpath, path), path, memo):
            continue
        found.append(DeadLink(link.target_start, link.target, resolved, link.label is not None))
    if "[[" in text:
        note_dir = posixpath.dirname(doc.relpath)
        for wiki in find_wikilinks(text, doc.body_offset):
            if _AGENT_DIRECTIVE.fullmatch(wiki.name) is None and not _wiki_resolves(ws, note_dir, wiki.name, memo):
                found.append(DeadLink(wiki.start, wiki.name, None))
    return sorted(found, key=lambda dead: dead.offset)


def wiki_target(ws, note_dir: str, name: str) -> str | None:
    """The workspace path a [[wikilink]] leads to, by the same reading as the check (stem, then front-matter
    `name`, then a file beside the note or at the root), or None (the editor's go-to-definition)."""
    stem = name.strip()
    stem = stem[:-3] if stem.casefold().endswith(".md") else stem
    wanted = _slug(stem)
    if "/" in stem:
        tail = "/" + wanted.lstrip("/") + ".md"
        return next((path for path in sorted(ws.files) if ("/" + _slug(path)).endswith(tail)), None)
    for path in sorted(ws.files):
        if path.endswith(".md"):
            slugs: set[str] = set()
            _add(slugs, posixpath.basename(path)[:-3])
            if wanted in slugs:
                return path
    for path, kind in sorted(ws.files.items()):
        if kind.name == "note":
            doc = ws.document(path)
            front = getattr(doc, "front_matter", None) if doc is not None and doc.ok else None
            named = front.get("name") if isinstance(front, dict) else None
            slugs = set()
            if isinstance(named, str) and named.strip():
                _add(slugs, named)
            if wanted in slugs:
                return path
    candidates = [name] if posixpath.splitext(name)[1] else [name + ".md"]
    for base in (note_dir, ""):
        for candidate in candidates:
            path = posixpath.normpath(posixpath.join(base, candidate))
            if not candidate.startswith("/") and is_file(ws.root, path):
                return path
    return None

"""Links under the editor's cursor and what they lead to, and the startup index's gauge in words: what the
language server shows on hover and go-to-definition. A note's description is shown as every value from a
file is (`text.excerpt`: one line, control characters escaped, token-like runs masked)."""

from __future__ import annotations

import posixpath

from memwarden.analysis.budget import STATUS_NAMES
from memwarden.analysis.note_links import wiki_target
from memwarden.documents.scan import WikiLink, find_wikilinks, markdown_links, resolve_link
from memwarden.text import excerpt


def link_at(text: str, offset: int):
    """The Markdown link or [[wikilink]] written over offset, or None."""
    for found in [*markdown_links(text), *find_wikilinks(text)]:
        if found.start <= offset < found.end:
            return found
    return None


def link_target(ws, relpath: str, found) -> str | None:
    """The workspace path of the file a link leads to, when it is one in the workspace."""
    if isinstance(found, WikiLink):
        return wiki_target(ws, posixpath.dirname(relpath), found.name)
    target = resolve_link(relpath, found.target.strip().strip("<>"))
    if target is None or target.startswith("..") or not (ws.root / target).is_file():
        return None
    return target


def note_description(ws, relpath: str) -> str:
    doc = ws.document(relpath)
    front = getattr(doc, "front_matter", None) if doc is not None and doc.ok else None
    description = front.get("description") if isinstance(front, dict) else None
    if not isinstance(description, str) or not description.strip():
        return "_no description_"
    return excerpt(description, 300)


def gauge_text(measurement) -> str:
    worst = measurement.worst
    limit = worst.limit
    share = round(100 * worst.used / limit.max) if limit.max else 0
    lines = [
        f"**Startup index budget** ({measurement.settings.preset.name}): {worst.used:,} of {limit.max:,} "
        f"{limit.unit} ({share}%), {worst.headroom:,} left; the agent stops reading at {limit.edge:,}. "
        f"Status: {STATUS_NAMES[worst.status]}."
    ]
    if worst.past_edge or worst.other_cut_lines:
        lines.append(f"{len(worst.past_edge)} entries and {worst.other_cut_lines} other lines are past the edge: "
                     "the agent never reads them.")
    return "\n\n".join(lines)

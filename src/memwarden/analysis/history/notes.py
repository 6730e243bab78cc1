"""Notes and the index lines that point at them, as an append-only comparison sees them."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from memwarden.documents.scan import front_matter_end

# A note moved with small edits is still the same note (git's rename threshold is 50% too). Only
# the body counts: notes written from one template share their front matter, and a deleted note
# must not pass as moved into any note that happens to share it.
NOTE_SIMILARITY = 0.5


@dataclass
class IndexEntry:
    path: str
    line: int
    column: int
    target: str
    triggers: tuple
    source: str  # the whole line
    raw_targets: list
    base_dir: str


@dataclass
class NoteShape:
    relpath: str
    text: str
    body: str  # without front matter, newlines normalised, stripped
    normalized: str
    lines: Counter  # the body's non-blank lines, stripped
    encoding: tuple[str, bytes] = ("utf-8", b"")  # (encoding, BOM) of the file: a restored note keeps them

    @classmethod
    def of(cls, snapshot, relpath: str) -> "NoteShape | None":
        text, _ = snapshot.text(relpath)
        if text is None:
            return None
        normalized = text.replace("\r\n", "\n").replace("\r", "\n")
        body = normalized[front_matter_end(normalized):].strip()
        lines = Counter(line.strip() for line in body.split("\n") if line.strip())
        return cls(relpath, text, body, normalized.strip(), lines, snapshot.encoding(relpath))

    def similarity(self, other: "NoteShape", added: Counter | None = None) -> float:
        """How much of the two bodies is shared; with ``added``, only the body lines ``other`` gained count.

        A note that existed before the change can take in a deleted note only through the lines the
        change wrote into it (a merge of the deleted note's lesson), never through what it already said.
        """
        theirs = other.lines if added is None else added
        total = max(sum(self.lines.values()), sum(theirs.values()))
        if not total:
            return 0.0
        return sum((self.lines & theirs).values()) / total

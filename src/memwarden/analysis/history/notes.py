"""Notes and the index lines that point at them, as an append-only comparison sees them."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from memwarden.documents.scan import front_matter_end

# A note moved with small edits is still the same note (git's rename threshold is 50% too).
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
    lines: Counter
    encoding: tuple[str, bytes] = ("utf-8", b"")  # (encoding, BOM) of the file: a restored note keeps them

    @classmethod
    def of(cls, snapshot, relpath: str) -> "NoteShape | None":
        text, _ = snapshot.text(relpath)
        if text is None:
            return None
        normalized = text.replace("\r\n", "\n").replace("\r", "\n")
        body = normalized[front_matter_end(normalized):].strip()
        lines = Counter(line.strip() for line in normalized.split("\n") if line.strip())
        return cls(relpath, text, body, normalized.strip(), lines, snapshot.encoding(relpath))

    def similarity(self, other: "NoteShape") -> float:
        total = max(sum(self.lines.values()), sum(other.lines.values()))
        if not total:
            return 0.0
        return sum((self.lines & other.lines).values()) / total

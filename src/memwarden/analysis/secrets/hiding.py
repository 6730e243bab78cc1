"""Hiding a file's detected secrets wherever something quotes them: a message, a JSON path, a line.

:class:`Quotes` holds, for one file, each way a detected secret may be quoted
(its raw characters, what its escapes read as, what it reads as folded or
rendered, each long line of a multi-line one), lowercased, with the marker shown in its place. :meth:`Quotes.hide`
replaces, in any string, every run of characters shared with a secret (from
:data:`RUN` characters on, whatever punctuation surrounds or splits it), then
any word that holds a shorter secret or that is a long piece of one.
"""

from __future__ import annotations

import re

from memwarden.analysis.secrets.forms import quoted_forms
from memwarden.analysis.secrets.lines import decode_escapes
from memwarden.patterns import LazyPattern

RUN = 8  # a run of this many characters of a secret, quoted anywhere, is hidden

_TOKEN = LazyPattern(r"[^\s'\"`()\[\]{},;<>]+")
_TRAILING = ".…:!?"
# One segment of a JSON path: `['any key']`, `[3]`, `.key`, or a leading `$`.
_PATH_PART = LazyPattern(r"\['(?:[^'\\]|\\.)*'\]|\[\d+\]|\.[^.\[]*|[^.\[]+|.", re.DOTALL)


def marker(detection) -> str:
    """What is shown in place of a secret: its type and short hash, never the value."""
    return f"[SECRET:{detection.type.slug} sha256:{detection.short_hash}]"


def _lowered(text: str) -> str:
    """The text lowercased character by character, so offsets stay the same."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


class Quotes:
    """The quotable forms of one file's detected secrets, and hiding them in any string."""

    def __init__(self, pairs=()):
        self.pairs: list[tuple[str, str]] = []  # (lowercased value, marker)
        self.runs: dict[str, str] = {}  # each RUN-character piece of a value -> its marker
        for value, shown in pairs:
            self.add(value, shown)

    @classmethod
    def of(cls, text: str, detections, marker) -> "Quotes":
        """Every way a rule's message may quote each detection of ``text``; ``marker(detection)`` is shown instead."""
        quotes = cls()
        for detection in detections:
            raw = text[detection.start : detection.end]
            values = {raw}
            if "\\" in raw:
                values.update(decode_escapes(raw))
            values.update(quoted_forms(raw))  # folded as YAML, rendered as Markdown: as a message quotes it
            values.update(line.strip() for line in raw.splitlines() if len(line.strip()) >= 12)
            for value in values:
                quotes.add(value, marker(detection))
        return quotes

    def add(self, value: str, shown: str) -> None:
        value = _lowered(value)
        if not value:
            return
        self.pairs.append((value, shown))
        for i in range(len(value) - RUN + 1):
            run = value[i : i + RUN]
            if not any(c.isspace() for c in run):  # a secret's own characters, not the words around a key block
                self.runs.setdefault(run, shown)

    def extend(self, other: "Quotes") -> None:
        """Hide what ``other`` hides too."""
        self.pairs.extend(other.pairs)
        for run, shown in other.runs.items():
            self.runs.setdefault(run, shown)

    def __bool__(self) -> bool:
        return bool(self.pairs)

    def hide(self, text: str) -> str:
        """The text with every secret, and every run of RUN or more characters of one, replaced by its marker."""
        if not text or not self.pairs:
            return text
        return _TOKEN.sub(self._token, self._hide_runs(text))

    def _hide_runs(self, text: str) -> str:
        if len(text) < RUN or not self.runs:
            return text
        lowered = _lowered(text)
        covered: list[str | None] = [None] * len(text)
        for i in range(len(text) - RUN + 1):
            shown = self.runs.get(lowered[i : i + RUN])
            if shown is not None:
                for j in range(i, i + RUN):
                    if covered[j] is None:
                        covered[j] = shown
        if not any(covered):
            return text
        out = []
        i = 0
        while i < len(text):
            if covered[i] is None:
                out.append(text[i])
                i += 1
                continue
            out.append(covered[i])
            while i < len(text) and covered[i] is not None:
                i += 1
        return "".join(out)

    def _token(self, match: re.Match) -> str:
        token = match.group(0)
        core = token.rstrip(_TRAILING)
        if len(core) < 4 or core.startswith("[SECRET:") or core.startswith("sha256:"):
            return token
        shown = self.holding(core)
        return shown + token[len(core) :] if shown is not None else token

    def holding(self, word: str) -> str | None:
        """The marker of a secret the word holds, or of one the word is a long piece of."""
        lowered = _lowered(word)
        if len(lowered) < 4:
            return None
        for value, shown in self.pairs:
            if value in lowered or (len(lowered) >= 12 and lowered in value):
                return shown
        return None

    def hide_in_json_path(self, path: str) -> str:
        """A JSON path with every key segment that holds a secret replaced by `['<marker>']`, then hidden as any text."""
        if not path or not self.pairs:
            return path
        parts = []
        for match in _PATH_PART.finditer(path):
            part = match.group(0)
            if part.startswith("['"):
                key = part[2:-2].replace("\\'", "'").replace("\\\\", "\\")
            elif part.startswith("."):
                key = part[1:]
            else:
                parts.append(part)
                continue
            shown = self.holding(key)
            parts.append(f"['{shown}']" if shown is not None else part)
        return self._hide_runs("".join(parts))

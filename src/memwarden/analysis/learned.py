"""A small learned scorer beside the rules: hashed n-gram weights read from a JSON file in the package.

Issue #14, round 3. The rules name every phrasing they know; a sentence that none of them
covers is scored by a logistic regression over hashed features: character n-grams (1-3
characters of Chinese or Japanese, 3-4 characters inside Latin words, whole words) plus the
rules' own signals, given as named features ("rule:none", "neg:directive", "name"). Training
lives in ``bench/learned_baseline.py`` (numpy there, never here); inference is pure Python,
deterministic, and costs one CRC-32 per feature, so well under a millisecond a sentence.

A weights file holds ``buckets`` (the hash space), ``bias``, ``threshold`` (the score above
which the model says yes, chosen by cross-validation for precision) and ``weights``, a list
of ``[bucket, weight]`` pairs for the buckets that carry weight. A missing or unreadable file
turns the model off (it never says yes), so the rules alone still run.
"""

from __future__ import annotations

import json
import math
import re
from memwarden.patterns import LazyPattern
import zlib
from dataclasses import dataclass
from pathlib import Path

_HERE = Path(__file__).resolve().parent
_LATIN = LazyPattern(r"[a-z0-9][a-z0-9_+#.-]*")
_WIDE = LazyPattern(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]+")
_CODE_SPAN = LazyPattern(r"`[^`\n]{1,200}`")
_LATIN_WORD = LazyPattern(r"[a-z]+(?:'[a-z]+)?")


def text_features(text: str) -> list[str]:
    """The n-gram features of a text (lower-cased; the strings are hashed later)."""
    lowered = _CODE_SPAN.sub(" code ", text).lower()  # as memwarden's prose reader masks inline code
    grams: list[str] = []
    for match in _WIDE.finditer(lowered):
        run = match.group()
        for n in (1, 2, 3):
            grams.extend(run[i : i + n] for i in range(len(run) - n + 1))
    words = _LATIN_WORD.findall(lowered)
    for word in words:
        grams.append("w:" + word)
        padded = f"<{word}>"
        for n in (3, 4):
            grams.extend(padded[i : i + n] for i in range(len(padded) - n + 1))
    grams.extend(f"b:{a} {b}" for a, b in zip(words, words[1:]))
    if _LATIN.search(lowered) and _WIDE.search(lowered):
        grams.append("mixed")
    if re.search(r"\d", lowered):
        grams.append("digit")
    return grams


def bucket(feature: str, buckets: int) -> int:
    return zlib.crc32(feature.encode("utf-8")) % buckets


@dataclass(frozen=True)
class Score:
    probability: float
    said_yes: bool
    signals: tuple[str, ...]  # the named (non n-gram) features that pushed towards yes, strongest first


class Model:
    """Weights loaded once from a JSON file next to this module (or none: the model is off)."""

    def __init__(self, filename: str, folder: Path = _HERE):
        self.path = folder / filename
        self._loaded = False
        self.buckets = 1
        self.bias = 0.0
        self.threshold = math.inf
        self.weights: dict[int, float] = {}

    def _load(self) -> None:
        self._loaded = True
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            buckets, bias, threshold = int(data["buckets"]), float(data["bias"]), float(data["threshold"])
            weights = {int(b): float(w) for b, w in data["weights"]}
            if buckets < 1 or not all(map(math.isfinite, (bias, threshold, *weights.values()))):
                raise ValueError("no hash space, or a weight that is not a number")
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return  # no usable weights: the model stays off
        self.buckets, self.bias, self.threshold, self.weights = buckets, bias, threshold, weights

    @property
    def available(self) -> bool:
        if not self._loaded:
            self._load()
        return bool(self.weights)

    def score(self, text: str, signals: list[str]) -> Score:
        if not self.available:
            return Score(0.0, False, ())
        total = self.bias
        seen: set[int] = set()
        named: list[tuple[float, str]] = []
        for is_signal, features in ((True, signals), (False, text_features(text))):
            for feature in features:
                index = bucket(feature, self.buckets)
                if index in seen:
                    continue
                seen.add(index)
                weight = self.weights.get(index, 0.0)
                total += weight
                if is_signal and weight > 0:
                    named.append((weight, feature))
        probability = 1 / (1 + math.exp(-max(-30.0, min(30.0, total))))
        named.sort(reverse=True)
        return Score(probability, total > self.threshold, tuple(name for _, name in named[:3]))

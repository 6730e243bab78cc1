"""Finding negative claims in prose: "X does not support Y", 「找不到相關資料」, 「対応していない」.

A negative claim states that something does not exist, is not supported,
cannot be done or was not found. Memory's negative sentences are dated
snapshots: the tool gains the feature, the search that found nothing is run
again. So the claims rules ask for an `expires` date on every one of them.

What is *not* a claim here:

- a directive: "Never run rm -rf", "Do not delete episodes", 「不要刪除」,
  「请勿」, 「削除しないでください」, 「〜してはいけない」;
- a question: "Does it support X?", 「支援嗎」, 「吗」, 「呢」, 「〜か。」;
- a negation inside a condition or a hedge: "If the file does not exist, ...",
  「如果檔案不存在」, 「存在しない場合」, "I'm not sure whether ...";
- words that only look negative: "not only", "unless", "nonce", "can't wait
  to", "no doubt", 「不僅」, 「不錯」, 「非常」, 「不得不」, 「少ない」,
  「違いない」, 「しかない」.

A negation that passes all of that is reported only with positive evidence
(`evidence.py`): a capability, availability or existence predicate, a name of
something outside the project, and a subject that is not the project itself.
Removals, blocks, empty results and limits said of a named thing are claims
with no negative word ("was retired", 「已下架」, 「提供終了」).

The detector is rule-based and reads one sentence at a time; every step is a
single pass or looks at a bounded window around a cue word, so a
100,000-character line costs linear time. It knows English, Chinese
(Traditional and Simplified share one set of rules, with both spellings
of each word) and Japanese.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memwarden.analysis.negation.chinese import zh_claims
from memwarden.analysis.negation.common import (
    CLAIM,
    DIRECTIVE,
    NONE,
    QUESTION,
    hidden_spans,
    language_of,
    sentences,
    strip_end,
)
from memwarden.analysis.negation.english import en_claims
from memwarden.analysis.negation.evidence import cjk_positive_claim, en_positive_claim
from memwarden.analysis.negation.japanese import JA_QUESTION_END, ja_claims

__all__ = ["CLAIM", "DIRECTIVE", "NONE", "QUESTION", "Claim", "classify", "find_claims", "is_question", "language_of", "sentences"]


@dataclass(frozen=True)
class Claim:
    """A sentence that makes a negative claim, with its offsets in the text it came from."""

    start: int
    end: int
    sentence: str
    cue: str  # the words that make it negative
    language: str  # "en", "zh" or "ja"


# -- sentences to verdicts -----------------------------------------------------

_ZH_QUESTION_END = re.compile(r"[嗎吗呢麼么]$")


def is_question(sentence: str, language: str | None = None) -> bool:
    stripped = sentence.rstrip(" \t\r\n」』）)\"'”’")
    if stripped.endswith(("?", "？")):
        return True
    core = strip_end(sentence)
    language = language or language_of(sentence)
    if language == "zh" and _ZH_QUESTION_END.search(core):
        return True
    if language == "ja" and JA_QUESTION_END.search(core):
        return True
    return False


def classify(sentence: str) -> tuple[str, str]:
    """(verdict, cue) for one sentence: claim, directive, question or none."""
    language = language_of(sentence)
    if is_question(sentence, language):
        return QUESTION, ""
    if language == "en":
        verdicts = en_claims(sentence)
    elif language == "zh":
        verdicts = zh_claims(sentence)
    elif language == "ja":
        verdicts = ja_claims(sentence)
    else:
        return NONE, ""  # a language the detector does not read: skipped, never guessed from stray words
    mentioned = bytearray(len(sentence))
    for begin, end in hidden_spans(sentence):
        mentioned[begin:end] = b"\x01" * (end - begin)
    directive = ""
    for start, cue, verdict in verdicts:
        if verdict == CLAIM and mentioned[start]:
            continue  # inside a quote, a code span, a [[wikilink]] or a URL: mentioned, not said
        if verdict == CLAIM:
            return CLAIM, cue
        if verdict == DIRECTIVE and not directive:
            directive = cue
    if directive:
        return DIRECTIVE, directive
    # No negative word, but a removal, a block, an empty result or a limit said of a named thing.
    cue = en_positive_claim(sentence) if language == "en" else cjk_positive_claim(sentence, language)
    return (CLAIM, cue) if cue else (NONE, "")


def find_claims(text: str) -> list[Claim]:
    """The negative claims in a piece of prose, one per sentence, in order."""
    found = []
    for start, end in sentences(text):
        sentence = text[start:end]
        verdict, cue = classify(sentence)
        if verdict == CLAIM:
            found.append(Claim(start, end, sentence, cue, language_of(sentence)))
    return found


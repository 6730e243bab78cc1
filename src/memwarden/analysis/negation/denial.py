"""Whether a sentence denies or forbids a thing it names: "There is no `db.rs`", "Do not use `unstable_cache()`",
「请勿重新创建 `.agent/appdata`」, 「`X` を使わないでください」.

Such a mention says nothing is there, or that nothing should be: it is no claim that the thing exists. The
repository-claim rules ask this of a path or a symbol they would report. Decided per clause, with the negative
cues the claim detector reads in each language it knows (English, Chinese, Japanese):

- English: a negative word before the name in its clause with at most two words between ("no `x`", "Do not
  add a `x`", "never edit `x`"); "Never commit without running `x`" is an instruction to run it, and a
  negation after the name ("`x` does not handle retries") says what the thing does, so both stay claims;
- Chinese and Japanese: a negation the detector reads as a claim or a directive right before the name
  (「没有 `x`」, 「不要修改 `x`」) or right after it (「`x` は存在しない」, 「`x` を使わないでください」).
"""

from __future__ import annotations

import bisect

from memwarden.analysis.negation.chinese import zh_claims
from memwarden.analysis.negation.common import CLAIM, DIRECTIVE, Sentence, hidden_spans, language_of, sentences
from memwarden.analysis.negation.english import en_claims
from memwarden.analysis.negation.japanese import ja_claims
from memwarden.patterns import LazyPattern

_WINDOW = 600  # characters read on each side of a name for its sentence
_EN_GAP_WORDS = 2  # "Do not add a `x`": the negated verb and an article or a qualifier
_CJK_BEFORE = 6  # characters between a Chinese cue and the name: 「请勿重新创建 `x`」
_CJK_AFTER = 8  # between the name and a Japanese cue: 「`x` は再作成しないこと」
_BLOCK_START = LazyPattern(r"\n[ \t]*(?:[-*+>#|]|\d+[.)])")  # a new list item, heading, quote or table row
_GAP_WORD = LazyPattern(r"`[^`]*`|[^\s`\[\]()]+")
_CLAIMS = {"en": en_claims, "zh": zh_claims, "ja": ja_claims}


def denies(text: str, start: int) -> bool:
    """Whether the clause of text that names a thing at start (a code span's content, a link's target, a
    path in prose) says it is absent or forbids it."""
    low = max(0, text.rfind("\n\n", max(0, start - _WINDOW), start))
    high = text.find("\n\n", start, start + _WINDOW)
    high = high if high >= 0 else min(len(text), start + _WINDOW)
    spans = sentences(text[low:high])
    index = bisect.bisect_right(spans, (start - low, len(text))) - 1
    if index < 0 or spans[index][1] <= start - low:
        return False
    begin, finish = spans[index]
    sentence = text[low + begin : low + finish]
    at = start - low - begin
    language = language_of(sentence)
    claims = _CLAIMS.get(language)
    if claims is None:
        return False
    name_end = at + len(sentence[at:].split(None, 1)[0]) if sentence[at:].strip() else at
    clause = Sentence(sentence)
    first, last = clause.clause_start(at), clause.clause_end(name_end)
    hidden = hidden_spans(sentence)
    for cue_at, cue, verdict in claims(sentence):
        if not first <= cue_at < last or any(s <= cue_at < e for s, e in hidden):
            continue  # another clause, or a word inside a code span, a quote or a link: mentioned, not said
        if cue_at < at:
            between = sentence[cue_at + len(cue) : at]
            if _BLOCK_START.search(between):
                continue
            if language == "en":
                if len(_GAP_WORD.findall(between)) <= _EN_GAP_WORDS:
                    return True
            elif verdict in (CLAIM, DIRECTIVE) and len("".join(between.split()).strip("`[(")) <= _CJK_BEFORE:
                return True
        elif language != "en" and cue_at >= name_end and verdict in (CLAIM, DIRECTIVE):
            if len("".join(sentence[name_end:cue_at].split())) <= _CJK_AFTER:
                return True
    return False

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
- the owner's own setup: "`gh` CLI not installed", 「WSL 未启用 systemd」,
  「授权码已失效」, 「インストールされていない」 (``own_setup.py``).

A negation that passes all of that is reported only with positive evidence
(`evidence.py`): a capability, availability or existence predicate, a name of
something outside the project, and a subject that is not the project itself.
Removals, blocks, empty results and limits said of a named thing are claims
with no negative word ("was retired", 「已下架」, 「提供終了」).

A small learned scorer (``analysis/learned.py``, issue #14 round 3) can read a plain sentence the
rules left alone; it is not asked by ``find_claims``: on real memory nobody had tuned on its
findings were 0 true of 18 (issue 29), so it runs only when a caller asks (``judge(..., learned=True)``,
the bench that trains and measures it). The rules read one sentence at a time; every step is a
single pass or looks at a bounded window around a cue word, so a
100,000-character line costs linear time. It knows English, Chinese
(Traditional and Simplified share one set of rules, with both spellings
of each word), Japanese and, narrowly, Russian (``russian.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memwarden.analysis.learned import Model
from memwarden.analysis.negation.chinese import ZH_CUE, zh_claims
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
from memwarden.analysis.negation.english import NEGATIVE_WORDS, en_claims
from memwarden.analysis.negation.cjk_positive import JA_GONE, ZH_GONE, cjk_positive_claim
from memwarden.analysis.negation.cjk_evidence import cjk_names
from memwarden.analysis.negation.evidence import EN_GONE, en_names, en_positive_claim
from memwarden.analysis.negation.families import families, family_words
from memwarden.analysis.negation.japanese import JA_CUE, JA_QUESTION_END, ja_claims
from memwarden.analysis.negation.own_setup import own_setup_near
from memwarden.analysis.negation.russian import RU_CUE, ru_claims
from memwarden.patterns import union
from memwarden.patterns import LazyPattern

__all__ = ["CLAIM", "DIRECTIVE", "NONE", "QUESTION", "Claim", "classify", "find_claims", "is_question", "language_of", "sentences"]


@dataclass(frozen=True)
class Claim:
    """A sentence that makes a negative claim, with its offsets in the text it came from."""

    start: int
    end: int
    sentence: str
    cue: str  # the words that make it negative
    language: str  # "en", "zh", "ja" or "ru"
    why: str = ""  # for a sentence the learned scorer read as a claim: the signals and words that fired


# -- sentences to verdicts -----------------------------------------------------

_ZH_QUESTION_END = LazyPattern(r"[嗎吗呢麼么]$")
# Issue #14 round 3, by kind: an open question with no question mark opens with the doubt, and a dated
# work log narrates what was done; a negative word in either is not a standing claim.
_HEDGE_OPENER = LazyPattern(
    r"[\s*_>-]*(?:(?:i'm |i am |we're |still )?(?:not sure|unsure|unclear|no idea)\b|"
    r"(?:還|还)?(?:不確定|不确定|不清楚|不知道)|(?:まだ)?(?:わからない|分からない|未確認|要確認))",
    re.I,
)
# Issue 29: an entry stamped with its date and time ("[2024-03-26 21:34] API Integration: Issue: … → Fix: …",
# the lessons log of Cline's Memory Bank) tells what happened then; so does one stamped with the time of day
# alone in a day's log ("- 12:21: 暂无机会", "[12:45] 確認…目前無掛起的配對請求"). A time inside the sentence, or
# a range that opens it ("09:00–18:00 以外は … 接続できない"), is no stamp.
_LOG_OPENER = LazyPattern(
    r"[\s*_>-]*\d{4}[-/.]\d{1,2}[-/.]\d{1,2}\s*[^\s:：]{0,12}(?:紀錄|记录|記錄|日誌|日志|ログ|メモ|日報|log|notes?)\s*[:：]"
    r"|[\s*_>-]*\[(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}[ T])?\d{1,2}:\d{2}(?::\d{2})?\]"
    r"|[\s*_>-]*\d{1,2}:\d{2}(?::\d{2})?\s*[:：](?!\d)",
    re.I,
)


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
    verdict, cue, _ = rule_verdict(sentence, families_too=False)
    return verdict, cue


def rule_verdict(sentence: str, families_too: bool = True) -> tuple[str, str, list[str]]:
    """(verdict, cue, signals): the rules' verdict, and what they saw on the way, as named features.

    The families (the learned scorer's features) cost a pass of their own over the sentence, so a
    caller that does not ask the scorer leaves them out.
    """
    verdict, cue, signals = _rule_verdict(sentence, families_too)
    if verdict == CLAIM and _HEDGE_OPENER.match(sentence):
        return QUESTION, "", signals[:-1] + ["rule:question"]  # "Not sure whether ...", 「不確定…」: open
    return verdict, cue, signals


def _rule_verdict(sentence: str, families_too: bool) -> tuple[str, str, list[str]]:
    language = language_of(sentence)
    signals = [f"lang:{language}"]
    if families_too and language in ("en", "zh", "ja"):
        found = families(sentence, language)
        signals += [f"fam:{name}" for name in found] + [f"fam:{a}&{b}" for a in found for b in found if a < b]
    if is_question(sentence, language):
        return QUESTION, "", signals + ["rule:question"]
    if _LOG_OPENER.match(sentence):
        return NONE, "", signals + ["rule:none", "fam:narrative"]  # "2024-05-12 工作紀錄：…沒動": a session log
    if language == "en":
        verdicts = en_claims(sentence)
        signals += ["name"] if en_names(sentence) else []
    elif language == "zh":
        verdicts = zh_claims(sentence)
        signals += ["name"] if cjk_names(sentence) else []
    elif language == "ja":
        verdicts = ja_claims(sentence)
        signals += ["name"] if cjk_names(sentence) else []
    elif language == "ru":
        verdicts = ru_claims(sentence)  # its blocks are cues of their own: no positive-claim pass below
    else:
        return NONE, "", signals  # a language the detector does not read: skipped, never guessed from stray words
    mentioned = bytearray(len(sentence))
    for begin, end in hidden_spans(sentence):
        mentioned[begin:end] = b"\x01" * (end - begin)
    directive = ""
    for start, cue, verdict in verdicts:
        signals.append(f"neg:{verdict}" + (":mentioned" if mentioned[start] else ""))
        if verdict == CLAIM and mentioned[start]:
            continue  # inside a quote, a code span, a [[wikilink]] or a URL: mentioned, not said
        if verdict == CLAIM and own_setup_near(sentence, start):
            continue  # "`gh` CLI not installed", 「WSL 未启用 systemd」: the owner's own setup (own_setup.py)
        if verdict == CLAIM:
            return CLAIM, cue, signals + ["rule:claim"]
        if verdict == DIRECTIVE and not directive:
            directive = cue
    if directive:
        return DIRECTIVE, directive, signals + ["rule:directive"]
    if language == "ru":
        return NONE, "", signals + ["rule:none"]
    # No negative word, but a removal, a block, an empty result or a limit said of a named thing.
    cue = en_positive_claim(sentence) if language == "en" else cjk_positive_claim(sentence, language)
    if cue and own_setup_near(sentence, max(0, sentence.find(cue))):
        cue = ""  # 「授权码已失效」: the owner's own credential
    return (CLAIM, cue, signals + ["rule:claim"]) if cue else (NONE, "", signals + ["rule:none"])


# -- the learned scorer, where the rules are silent ----------------------------------
# It may speak only on a sentence the rules found nothing in (no claim, no directive, no question),
# that names something outside the project, carries a word of one of the state families, and has
# no directive, hedge or narrated-session word. Its features are those families, the language,
# the name and the n-grams; never the rules' verdicts, which were tuned on its training rows.

_MODEL = Model("claims_model.json")
_STATES = {
    "removal", "end-of-life", "expired", "limit", "only", "too-old", "paid-plan", "block", "broken", "empty",
    "lacks", "nobody", "not-yet", "used-up",
}
_VETO = {"directive", "hedge", "narrative", "self", "todo"}
_PLAIN_CHARS = 240
_FULL_STOPS = (".", "。", "!", "！", ")", "）", "」")
_MARKUP = LazyPattern(r"\*\*|^#|\||```|\n|→|=|^[\w -]{1,24}:\s|\s[—–]\s")  # and "Why: …", "X — a note"
_FAMILY_WORDS = {
    "removal": "a removal", "end-of-life": "an end of life", "expired": "an expiry", "limit": "a limit",
    "only": "an only-X", "too-old": "a version too old", "paid-plan": "a plan or tier", "block": "a block",
    "broken": "a failure", "empty": "an empty result", "lacks": "a negation", "nobody": "nobody or none",
    "not-yet": "a not-yet", "used-up": "something used up", "permission": "a permission",
}


def model_signals(signals: list[str]) -> list[str]:
    """The rules' signals the learned scorer reads: families, language and name, not the verdicts."""
    return [s for s in signals if not s.startswith(("rule:", "neg:"))]


def learnable(sentence: str, signals: list[str]) -> bool:
    """Whether the learned scorer may speak on a sentence with these signals (see above)."""
    if len(sentence) > _PLAIN_CHARS or _MARKUP.search(sentence) or not sentence.rstrip().endswith(_FULL_STOPS):
        return False  # a heading, a title, a table row, a list of fields: not the prose it was trained on
    if any(s.startswith("neg:") for s in signals):
        return False  # the rules weighed a negative word here and let it go: theirs is the judgement
    found = {s[4:] for s in signals if s.startswith("fam:") and "&" not in s}
    return "rule:none" in signals and "name" in signals and bool(found & _STATES) and not found & _VETO


def _learned(sentence: str, signals: list[str]) -> str:
    """Why the learned scorer reads a sentence the rules left alone as a claim, or ""."""
    if not learnable(sentence, signals):
        return ""
    found = {s[4:] for s in signals if s.startswith("fam:") and "&" not in s}
    score = _MODEL.score(sentence, model_signals(signals))
    if not score.said_yes:
        return ""
    words = family_words(sentence, language_of(sentence))
    fired = [name[4:] for name in score.signals if name[4:] in _FAMILY_WORDS] or sorted(found & _STATES)
    kinds = [f"{_FAMILY_WORDS[name]} ('{words[name].strip()}')" for name in fired[:2] if name in words]
    return f"learned scorer {score.probability:.2f}: {' and '.join(kinds)} said of a name"


def judge(sentence: str, learned: bool = False) -> tuple[str, str, str]:
    """(verdict, cue, why): the rules' verdict, or with ``learned`` the scorer's claim where they were silent."""
    verdict, cue, signals = rule_verdict(sentence, families_too=learned)
    if verdict == NONE and learned:
        why = _learned(sentence, signals)
        if why:
            return CLAIM, "", why
    return verdict, cue, ""


# The rules find a claim only at a negative word of the sentence's language or at a removal, block, empty
# result or limit said in it (the positive claims): one expression of those cues per language the rules read
# (Chinese in both scripts), compiled on first use, turns away a sentence with none before any rule reads it,
# as most of memory's sentences are; a sentence in another language is never a claim.
CLAIM_CUES = {
    "en": union(NEGATIVE_WORDS, EN_GONE),
    "zh": union(ZH_CUE, ZH_GONE),
    "ja": union(JA_CUE, JA_GONE),
    "ru": RU_CUE,
}


def find_claims(text: str, learned: bool = False) -> list[Claim]:
    """The negative claims in a piece of prose, one per sentence, in order (the rules' alone unless ``learned``)."""
    found = []
    for start, end in sentences(text):
        sentence = text[start:end]
        if not learned:  # the learned scorer reads sentences with no cue; the rules cannot find a claim there
            cues = CLAIM_CUES.get(language_of(sentence))
            if cues is None or cues.search(sentence) is None:
                continue
        verdict, cue, why = judge(sentence, learned)
        if verdict == CLAIM:
            found.append(Claim(start, end, sentence, cue, language_of(sentence), why))
    return found


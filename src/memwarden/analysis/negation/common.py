"""What the languages share: verdicts, sentences, the script of a sentence, clauses."""

from __future__ import annotations

import bisect
import re

CLAIM, DIRECTIVE, QUESTION, NONE = "claim", "directive", "question", "none"

from memwarden.patterns import LazyPattern

# How far a cue looks back for the start of its clause, a condition or a hedge.
LOOKBACK = 200

# -- sentences -------------------------------------------------------------------

CJK = LazyPattern(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]")
KANA = LazyPattern(r"[\u3040-\u30ff\uff66-\uff9f]")
# A line that opens a speaker's turn ("assistant: ...", "User: ...", as an agent's session transcript is written)
# starts a sentence of its own: the turn before it, ending with no full stop, is someone else's words (issue 29
# round 7: 'i want the session to have elevated access' was read with the agent's answer on the next line).
_END_MARK = LazyPattern(
    r"[。！？]+[」』）)\"'”’]*|[.!?]+[\"'”’)\]]*|\n[ \t]*\n|…+"
    r"|\n(?=[ \t]*(?:[-*][ \t]+)?(?:\*\*)?(?i:user|assistant|human|system)(?:\*\*)?[ \t]*:)"
)
_ABBREVIATIONS = {
    "e.g", "i.e", "etc", "vs", "cf", "approx", "no", "fig", "mr", "mrs", "ms", "dr", "st", "al", "jr", "sr",
}


# A Markdown table's row: a line that starts with '|'. Its cells are sentences of their own, never glued to
# the next row's (a table's rows rarely end in a full stop), and its separator row is no sentence at all.
_TABLE_ROW = LazyPattern(r"^[ \t]*\|.*$", re.MULTILINE)
_CELL = LazyPattern(r"[^|]+")
_SEPARATOR_CELL = LazyPattern(r"\s*:?-+:?\s*")


def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets of the sentences in text, leading space and list markers left out; each cell of
    a table row is a sentence."""
    if "|" not in text:
        return _sentences(text)
    out: list[tuple[int, int]] = []
    at = 0
    for row in _TABLE_ROW.finditer(text):
        out += [(start + at, end + at) for start, end in _sentences(text[at : row.start()])]
        for cell in _CELL.finditer(text, row.start(), row.end()):
            if not _SEPARATOR_CELL.fullmatch(cell.group()):
                out += [(start + cell.start(), end + cell.start()) for start, end in _sentences(cell.group())]
        at = row.end()
    return out + [(start + at, end + at) for start, end in _sentences(text[at:])]


def _sentences(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    start = 0
    length = len(text)
    for match in _END_MARK.finditer(text):
        mark = match.group()
        end = match.end()
        if mark[0] == "." or (mark[0] in "!?" and not mark.startswith(("。", "！", "？"))):
            following = text[end] if end < length else " "
            if not (following.isspace() or CJK.match(following)):
                continue  # v1.2, file.md, a URL-ish token: not the end of a sentence
            if mark[0] == ".":
                word_start = end - len(mark)
                while word_start > start and not text[word_start - 1].isspace() and end - word_start < 12:
                    word_start -= 1
                word = text[word_start : match.start()].lower().strip("(\"'")
                if word == "no" and not text[end:].lstrip()[:1].isdigit():
                    pass  # "No. This design..." ends a sentence; "No. 5" does not
                elif word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha()):
                    continue
        spans.append((start, end))
        start = end
    if start < length:
        spans.append((start, length))
    out = []
    for begin, end in spans:
        while begin < end and (text[begin].isspace() or text[begin] in "-*•・>"):
            begin += 1
        while end > begin and text[end - 1].isspace():
            end -= 1
        if begin < end:
            out.append((begin, end))
    return out


# Scripts the detector does not read: a Korean or Greek sentence is skipped, never matched on
# the stray English words (a tool name, `not found` in a log line) it happens to carry.
_OTHER_SCRIPT = LazyPattern(
    r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af"  # Hangul
    r"\u0370-\u03ff\u0590-\u05ff\u0600-\u06ff\u0900-\u097f\u0e00-\u0e7f]"  # Greek ... Thai
)
# Cyrillic is read as Russian (issue 29): three Cyrillic letters in a row make the sentence Russian.
_CYRILLIC = LazyPattern(r"[\u0400-\u04ff]{3}")
_LATIN_WORD = LazyPattern(r"[^\W\d_]+", re.UNICODE)
# Function words of the Latin-script languages nearest to English in memory files; "no" and "non"
# are negations there too, and reading "no funciona" as English would be a guess.
_FOREIGN_WORDS = {
    "el", "los", "las", "que", "del", "está", "esta", "para", "por", "una", "pero", "muy", "cuando", "también",
    "les", "des", "est", "pas", "une", "qui", "dans", "pour", "avec", "sur", "cette", "sont", "mais", "être",
    "der", "die", "das", "und", "ist", "nicht", "ein", "eine", "mit", "für", "auf", "den", "dem", "kein", "keine",
    "não", "é", "um", "uma", "com", "em", "do", "da", "il", "che", "è", "di", "sono", "questo", "questa",
}
_ENGLISH_WORDS = {
    "the", "is", "are", "and", "of", "to", "in", "for", "with", "it", "this", "that", "on", "does", "be", "has",
    "have", "was", "were", "can", "will", "by", "from", "an", "a",
    # issue #14: "Our 検証環境 Stripe account can't enable Stripe Tax" has few of the above
    "our", "not", "no", "its", "their", "we", "at", "or", "as", "but", "after", "than", "into",
}


def _mostly_english(sentence: str) -> bool:
    """An English sentence with a CJK term in it: English function words, and more Latin letters than CJK."""
    words = [w.lower() for w in _LATIN_WORD.findall(sentence[:2000]) if w.isascii()]
    function_words = sum(1 for w in words if w in _ENGLISH_WORDS)
    cjk = len(CJK.findall(sentence[:2000]))
    return function_words >= 2 and sum(map(len, words)) > 3 * cjk


def language_of(sentence: str) -> str:
    """"ja", "zh", "ru", "en", or "other" for a language the detector does not read (Korean, Greek, Spanish...)."""
    if _OTHER_SCRIPT.search(sentence):
        return "other"
    if _CYRILLIC.search(sentence):
        return "ru"
    if KANA.search(sentence):
        return "ja"
    if CJK.search(sentence):
        if not _mostly_english(sentence):
            return "zh"
        return "en"  # "The 測試機 has no outbound access": an English sentence around a Chinese term
    words = [w.lower() for w in _LATIN_WORD.findall(sentence[:2000])]
    foreign = sum(1 for w in words if w in _FOREIGN_WORDS)
    if foreign >= 2 and foreign > sum(1 for w in words if w in _ENGLISH_WORDS):
        return "other"
    return "en"


# -- text that is mentioned, not used -------------------------------------------

_HIDDEN = LazyPattern(
    r'"[^"\n]{0,300}"|“[^”\n]{0,300}”|`[^`\n]{0,300}`|\[\[[^\]\n]{0,200}\]\]'
    r"|\b(?:https?|ftp|file)://\S+|\bwww\.\S+|\]\([^)\s]{0,300}\)"
)


_QUOTE_MARK = LazyPattern(r'["“”]')


def hidden_spans(text: str) -> list[tuple[int, int]]:
    """Quotes, code spans, [[wikilinks]], URLs and link targets: a negative word there is mentioned, not used.

    A quotation of several sentences is split with them (issue 29: 'The right call was rejection:
    *"This use case ... has no yield needs.'): a quotation mark left alone in a sentence hides the
    rest of it when it opens, and what came before when it closes.
    """
    spans = [match.span() for match in _HIDDEN.finditer(text)]
    alone = []
    index = 0  # spans are in order and apart, and so are the marks: one sweep
    for mark in _QUOTE_MARK.finditer(text):
        while index < len(spans) and spans[index][1] <= mark.start():
            index += 1
        if not (index < len(spans) and spans[index][0] <= mark.start()):
            alone.append(mark)
            if len(alone) > 1:
                break
    if len(alone) == 1:
        mark = alone[0]
        before = text[mark.start() - 1] if mark.start() else " "
        opens = mark.group() == "“" or (mark.group() == '"' and (before.isspace() or before in "*_(:[—–-"))
        spans.append((mark.start(), len(text)) if opens else (0, mark.end()))
    return spans


def paren_depths(text: str) -> bytearray:
    """For each character, whether it lies inside round brackets (an aside)."""
    depth = 0
    out = bytearray(len(text))
    for index, char in enumerate(text):
        if char == "(":
            depth += 1
        elif char == ")" and depth:
            depth -= 1
        out[index] = 1 if depth else 0
    return out


# -- shared helpers ------------------------------------------------------------

CLAUSE_BREAK = LazyPattern(r"[,;:，；：、—–]|\s-\s")


class Sentence:
    """One sentence with its clause breaks, so each cue can find its clause in O(log n)."""

    def __init__(self, text: str):
        self.text = text
        self.breaks = [m.end() for m in CLAUSE_BREAK.finditer(text)]

    def clause_start(self, position: int) -> int:
        index = bisect.bisect_right(self.breaks, position) - 1
        start = self.breaks[index] if index >= 0 else 0
        return max(start, position - LOOKBACK)

    def clause_end(self, position: int) -> int:
        index = bisect.bisect_right(self.breaks, position)
        end = self.breaks[index] - 1 if index < len(self.breaks) else len(self.text)
        return min(end, position + LOOKBACK)

    def before(self, position: int) -> str:
        """The clause's text before position."""
        return self.text[self.clause_start(position) : position]

    def after(self, position: int) -> str:
        """The clause's text from position on."""
        return self.text[position : self.clause_end(position)]


def strip_end(sentence: str) -> str:
    return sentence.rstrip(" \t\r\n.。!！…」』）)\"'”’")




# -- when a removal happened ------------------------------------------------------------
# Issue 29: "Vectorize V1 was deprecated in August 2024", 「2024 年 8 月已停用」, 「2024 年に廃止された」: a
# removal told with its date is an event of the past, final once it happened (the judges of real memory:
# history, nothing to check again). A year alone after a product's name ("Windows Server 2012") is no
# date; "since 2024" is a state that still runs, so it is left to the claim, as is a sentence that goes on to
# say what holds now ("...; every call now gets a 410", 「現在只能打 v2」「以降は v2 のみ受け付ける」).
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
REMOVAL_DATE = LazyPattern(
    rf"(?i:\b(?:in|on|during|around|back in|as of)\s+(?:(?:early|late|mid)[\s-]+)?(?:{_MONTH}\s+)?(?:\d{{1,2}}(?:st|nd|rd|th)?,?\s+)?"
    rf"|\b{_MONTH}\s+(?:\d{{1,2}}(?:st|nd|rd|th)?,?\s+)?)(?:19|20)\d{{2}}\b"
    r"|(?<![\w.])(?:19|20)\d{2}[-/.]\d{1,2}(?:[-/.]\d{1,2})?(?![\w.])"
    r"|(?<!\d)(?:19|20)\d{2}\s*年"
)
# A product's end of life is final too ("Foxy 已 EOL": the judges of real memory, nothing to check again).
END_OF_LIFE = LazyPattern(r"(?i:eol|end[- ]of[- ]life(?:d)?)")
HOLDS_NOW = LazyPattern(
    r"(?i:\b(?:now|still|currently|only|anymore|any more|since then|from then on|thereafter)\b)"
    r"|現在|现在|目前|仍|還是|还是|只能|只有|以降|今は|のみ"
)


def dated_removal(text: str, begin: int, cue_end: int, end: int) -> bool:
    """Whether text[begin:end] dates the removal that ends at cue_end, and the words after it say nothing of now
    (read within LOOKBACK characters: every removal of a long line asks, so the line stays linear)."""
    return REMOVAL_DATE.search(text, begin, end) is not None and HOLDS_NOW.search(
        text, cue_end, min(len(text), cue_end + LOOKBACK)) is None


# A limit stated in money is a price, a loss or the owner's own budget or terms ("raising $75K at a $3.5M cap",
# 「最大单笔亏损 -$54.15」, 「最大損失は -$80」), not a tool's or a service's limit (issue 29 round 7).
_MONEY = LazyPattern(
    r"[$€£¥￥]\s?-?\d|\d[\d,.]*\s*[kKmMbB万萬億亿]?\s*(?:USD|EUR|JPY|CNY|RMB|dollars?\b|euros?\b|元|美元|美金|円|ドル)"
)
_MONEY_BEFORE, _MONEY_AFTER = 3, 16


def money_limit(text: str, begin: int, end: int) -> bool:
    """Whether the limit that text[begin:end] states is a sum of money (read a few characters around it)."""
    return _MONEY.search(text, max(0, begin - _MONEY_BEFORE), min(len(text), end + _MONEY_AFTER)) is not None

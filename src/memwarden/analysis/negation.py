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

The detector is rule-based and reads one sentence at a time; every step is a
single pass or looks at a bounded window around a cue word, so a
100,000-character line costs linear time. It knows English, Chinese
(Traditional and Simplified share one set of rules, with both spellings
of each word) and Japanese.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

CLAIM, DIRECTIVE, QUESTION, NONE = "claim", "directive", "question", "none"

# How far a cue looks back for the start of its clause, a condition or a hedge.
_LOOKBACK = 200


@dataclass(frozen=True)
class Claim:
    """A sentence that makes a negative claim, with its offsets in the text it came from."""

    start: int
    end: int
    sentence: str
    cue: str  # the words that make it negative
    language: str  # "en", "zh" or "ja"


# -- sentences -------------------------------------------------------------------

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]")
_KANA = re.compile(r"[\u3040-\u30ff\uff66-\uff9f]")
_END_MARK = re.compile(r"[。！？]+[」』）)\"'”’]*|[.!?]+[\"'”’)\]]*|\n[ \t]*\n|…+")
_ABBREVIATIONS = {
    "e.g", "i.e", "etc", "vs", "cf", "approx", "no", "fig", "mr", "mrs", "ms", "dr", "st", "al", "jr", "sr",
}


def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets of the sentences in text, leading space and list markers left out."""
    spans: list[tuple[int, int]] = []
    start = 0
    length = len(text)
    for match in _END_MARK.finditer(text):
        mark = match.group()
        end = match.end()
        if mark[0] == "." or (mark[0] in "!?" and not mark.startswith(("。", "！", "？"))):
            following = text[end] if end < length else " "
            if not (following.isspace() or _CJK.match(following)):
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


def language_of(sentence: str) -> str:
    if _KANA.search(sentence):
        return "ja"
    if _CJK.search(sentence):
        return "zh"
    return "en"


# -- shared helpers ------------------------------------------------------------

_CLAUSE_BREAK = re.compile(r"[,;:，；：、—–]|\s-\s")


class _Sentence:
    """One sentence with its clause breaks, so each cue can find its clause in O(log n)."""

    def __init__(self, text: str):
        self.text = text
        self.breaks = [m.end() for m in _CLAUSE_BREAK.finditer(text)]

    def clause_start(self, position: int) -> int:
        index = bisect.bisect_right(self.breaks, position) - 1
        start = self.breaks[index] if index >= 0 else 0
        return max(start, position - _LOOKBACK)

    def clause_end(self, position: int) -> int:
        index = bisect.bisect_right(self.breaks, position)
        end = self.breaks[index] - 1 if index < len(self.breaks) else len(self.text)
        return min(end, position + _LOOKBACK)

    def before(self, position: int) -> str:
        """The clause's text before position."""
        return self.text[self.clause_start(position) : position]

    def after(self, position: int) -> str:
        """The clause's text from position on."""
        return self.text[position : self.clause_end(position)]


def _strip_end(sentence: str) -> str:
    return sentence.rstrip(" \t\r\n.。!！…」』）)\"'”’")


# -- English -------------------------------------------------------------------

_WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?")
_NEXT_WORD = re.compile(r"\s+([A-Za-z][A-Za-z-]{0,40})")

_EN_NEGATIVE = {
    "not", "never", "no", "nothing", "nobody", "none", "neither", "nor", "nowhere", "cannot",
    "unsupported", "unavailable", "unable", "impossible", "lack", "lacks", "lacking", "nonexistent",
    "incompatible", "unreachable", "missing", "zero",
}
_EN_FILLERS = {"please", "so", "and", "but", "then", "also", "just", "still", "simply", "you", "or", "thus", "again",
               "therefore", "instead", "otherwise", "now", "first", "finally", "always"}
_EN_IMPERATIVE_OPENERS = {"ensure", "check", "verify", "confirm", "avoid", "try"}
_EN_IMPERATIVE_PAIRS = {("make", "sure"), ("be", "sure"), ("be", "careful"), ("take", "care"), ("double", "check")}
_EN_CONDITIONS = {"if", "when", "whenever", "unless", "until", "whether", "once", "lest", "provided", "suppose",
                  "assuming"}
_EN_CONDITION_PAIRS = {("in", "case"), ("as", "long")}
_EN_MODALS = {"must", "should", "shall", "ought", "need", "mustn't", "shouldn't", "needn't", "better"}
_EN_HEDGE_MODALS = {"may", "might", "could", "would"}
_EN_AFTER_NOT_SKIP = {"only", "just", "merely", "bad", "necessarily", "sure", "certain", "least", "to", "quite",
                      "always", "exactly", "even", "mention", "as"}  # "not as fast as": a comparison
_EN_RELATIVE = {"that", "which", "who", "whose"}
_EN_LINKING = {"have", "has", "had", "is", "are", "was", "were", "can", "will", "do", "does", "did"}
# Verbs that open an imperative sentence; "Keep it short and don't add prose" is one instruction.
_EN_IMPERATIVE_VERBS = {
    "keep", "use", "run", "add", "read", "write", "check", "make", "put", "leave", "stop", "start", "try", "avoid",
    "prefer", "treat", "ask", "report", "set", "test", "commit", "push", "delete", "archive", "update", "restart",
    "rotate", "open", "close", "call", "wait", "mark", "tag", "record", "log", "back", "pin", "fix", "move", "rename",
    "review", "verify", "confirm", "ensure", "remember", "follow", "pull", "merge", "deploy", "install", "skip",
}
_EN_AFTER_NO_SKIP = {"doubt", "matter", "problem", "problems", "wonder", "worries", "need", "one's", "way"}


def _negative_token(word: str) -> bool:
    return word in _EN_NEGATIVE or word.endswith(("n't", "n’t"))


def _en_claims(text: str):
    """(cue start, cue text, verdict) for each negative word of an English sentence.

    One pass records, for every token, where its clause starts, the first few
    words of that clause that are not fillers, and whether a condition ("if",
    "when", "unless") came earlier in the clause, so each cue is judged in
    constant time.
    """
    tokens = [(m.start(), m.group()) for m in _WORD.finditer(text)]
    lowered = [word.lower().replace("’", "'") for _, word in tokens]
    clause_of: list[int] = []  # first token index of each token's clause
    heads: dict[int, list[int]] = {}  # clause's first token -> its first non-filler tokens (at most 3)
    conditional: list[bool] = []  # a condition opened earlier in this token's clause
    clause_first = 0
    previous_end = 0
    in_condition = False
    for index, (start, word) in enumerate(tokens):
        if index and _CLAUSE_BREAK.search(text, previous_end, start):
            clause_first = index
            in_condition = False
        clause_of.append(clause_first)
        conditional.append(in_condition)
        lower = lowered[index]
        head = heads.setdefault(clause_first, [])
        if len(head) < 3 and lower not in _EN_FILLERS:
            head.append(index)
        previous = lowered[index - 1] if index > clause_first else ""
        if lower in _EN_CONDITIONS or (previous, lower) in _EN_CONDITION_PAIRS:
            in_condition = True
        previous_end = start + len(word)
    for index, word in enumerate(lowered):
        if not _negative_token(word):
            continue
        start, original = tokens[index]
        following = lowered[index + 1] if index + 1 < len(lowered) else ""
        following2 = lowered[index + 2] if index + 2 < len(lowered) else ""
        preceding = lowered[index - 1] if index > 0 else ""
        first = clause_of[index]
        head = [lowered[i] for i in heads[first] if i < index]
        verdict = _en_verdict(text, start, original, word, following, following2, preceding, head, lowered, first, index)
        if verdict == CLAIM and conditional[index]:
            verdict = NONE  # "If the file does not exist, ...": a condition, not a claim
        yield start, original, verdict


def _en_verdict(text, start, original, word, following, following2, preceding, head, lowered, first, index):
    # Words that only look negative.
    if word == "not" and following in _EN_AFTER_NOT_SKIP:
        return NONE  # not only, not just, not sure, not to (a purpose or a directive), not bad
    if word == "not" and preceding in ("or", "if"):
        return NONE  # whether or not, if not
    if word == "no" and (following in _EN_AFTER_NO_SKIP or text[start + 2 : start + 3] == "-"):
        return NONE  # no doubt, no matter, no-op
    if word == "no" and following in ("circumstances", "account") and preceding in ("under", "on", "in"):
        return DIRECTIVE  # "Under no circumstances restart the primary"
    if word == "none" and original == "None" and index > first:
        return NONE  # Python's None in prose
    if word == "not" and original == "Not" and following == "found" and index > first:
        return NONE  # "404 Not Found", a status, not a claim
    if word == "nothing" and (following in ("but", "beats", "like", "else") or (following == "to" and index == first)):
        return NONE  # nothing but, nothing beats, "Nothing to report today."
    if word == "none" and following == "other":
        return NONE  # none other than
    if word == "zero" and not (following.isalpha() and preceding in ("has", "have", "had", "are", "were")):
        return NONE  # "the repo has zero tests" is a claim; "counted zero failures" reports a number
    if word.endswith("n't") or word == "cannot":
        if any(w in ("more", "better", "less", "worse", "happier") for w in lowered[index + 1 : index + 5]):
            return NONE  # "couldn't have been more helpful": praise, not a claim
    if word in ("can't", "cannot") and following in ("wait", "help") and following2 in ("to", "but", "for"):
        return NONE  # can't wait to, cannot help but
    if word == "never" and following == "mind":
        return NONE
    if word == "missing" and (not preceding or preceding not in ("is", "are", "was", "were", "be", "been", "still", "also")):
        return NONE  # "missing keys are reported": a description, not a claim
    if word == "lack" and preceding not in ("we", "they", "i", "you", "to", "still", "also"):
        return NONE  # "lack of" as a noun is too vague to call
    if word == "not" and index == first and index > 0 and text[:start].rstrip().endswith(","):
        return NONE  # "..., not Hedge's g": a contrast, not a claim
    # Directives: a prohibition at the head of its clause.
    if not head:
        if word in ("don't", "never") or (word == "do" and following == "not"):
            return DIRECTIVE
        next_word = _NEXT_WORD.match(text, start + len(original))
        if word == "no" and next_word and next_word.group(1).lower().endswith("ing"):
            return DIRECTIVE  # "No force-pushing to shared branches."
    if head and head[0] == "do" and len(head) == 1 and word == "not":
        return DIRECTIVE
    if head and (head[0] in ("don't", "never") or head[:2] == ["do", "not"]):
        return DIRECTIVE  # "Never assume the tool doesn't retry": all of it is the instruction
    if head and (head[0] in _EN_IMPERATIVE_OPENERS or tuple(head[:2]) in _EN_IMPERATIVE_PAIRS):
        return DIRECTIVE  # "Make sure the cache is not stale": the negation is part of an instruction
    if word in ("don't", "never", "do") and preceding in ("and", "or", "but") and lowered[0] in _EN_IMPERATIVE_VERBS:
        return DIRECTIVE  # "Keep the index short and don't add prose to it."
    # "Tests that don't touch the network run in parallel": the negation picks out the subject.
    # After a comma ("Run it, which doesn't deploy anything") the clause asserts it: still a claim.
    if (preceding in _EN_RELATIVE and index - 1 > first) or (
        index >= 2 and lowered[index - 2] in _EN_RELATIVE and preceding in _EN_LINKING and index - 2 > first
    ):
        return NONE
    if preceding in _EN_MODALS or word in ("mustn't", "shouldn't", "needn't"):
        return DIRECTIVE  # must not, should never, need not: a rule, not an observation
    if preceding in _EN_HEDGE_MODALS or word in ("mightn't",):
        return NONE  # may not, might not: a guess
    return CLAIM


# -- Chinese -----------------------------------------------------------------

# Words that contain a negative character but are not negations.
_ZH_LOOKALIKES = (
    "不錯", "不错", "不僅", "不仅", "不但", "不只", "不斷", "不断", "不停", "不久", "不同", "不少", "不過", "不过",
    "不論", "不论", "不如", "不然", "不禁", "不免", "不客氣", "不客气", "不好意思", "不一定", "不確定",
    "不确定", "不知道", "不清楚", "不可思議", "不可思议", "不妨", "不外乎", "不要緊", "不要紧", "不得了",
    "不由得", "不得不", "不可或缺", "不可缺少", "沒關係", "没关系", "沒想到", "没想到", "沒事", "没事", "沒錯", "没错",
    "沒什麼", "没什么", "無論", "无论", "無限", "无限", "無線", "无线", "無縫", "无缝", "無所謂", "无所谓", "無疑",
    "无疑", "毫無疑問", "毫无疑问", "未來", "未来", "未必", "未免", "未曾想", "無非", "无非", "莫非", "別人", "别人",
    "別的", "别的", "特別", "特别", "區別", "区别", "分別", "分别", "類別", "类别", "個別", "个别", "識別", "识别",
    "告別", "告别", "差別", "差别", "級別", "级别", "性別", "性别", "缺點", "缺点", "不管",
)
_ZH_LOOKALIKE_PREFIXES = ("了不", "對不", "对不", "差不", "怪不", "恨不", "巴不", "捨不", "舍不", "忍不", "顧不", "顾不")
_ZH_DIRECTIVES = ("不要", "請勿", "请勿", "切勿", "勿", "禁止", "嚴禁", "严禁", "不准", "不許", "不许", "不應該", "不应该",
                  "不應", "不应", "不該", "不该", "別", "别", "不得", "不可", "不能", "不必", "不用", "不需要")
_ZH_CLAIMS = ("並非", "并非", "絕非", "绝非", "缺少", "缺乏", "無法", "无法", "無關", "无关", "查無", "查无",
              "並沒", "并没", "並未", "并未", "尚未", "沒", "没", "無", "无", "未", "不")
_ZH_CUE = re.compile("|".join(re.escape(w) for w in sorted(set(_ZH_DIRECTIVES + _ZH_CLAIMS), key=len, reverse=True)))
_ZH_FILLERS = ("請", "请", "千萬", "千万", "切記", "切记", "記得", "记得", "務必", "务必", "一定", "絕對", "绝对", "永遠",
               "永远", "也", "就", "還是", "还是", "最好", "你", "您", "我們", "我们", "先", "但是", "但", "所以", "因此",
               "另外", "並且", "并且", "而且", "然後", "然后", "平時", "平时", "直接", "再", "可", "都", "一律", "絕", "绝")
_ZH_CONDITIONS = ("如果", "若", "要是", "假如", "假設", "假设", "萬一", "万一", "一旦", "即使", "就算", "即便", "只要",
                  "除非", "倘若", "如若")
_ZH_CONDITION_ENDS = ("時", "时", "的話", "的话", "時候", "时候", "之前", "的情況", "的情况")
_ZH_HEDGES = ("可能", "也許", "也许", "或許", "或许", "大概", "恐怕", "似乎", "好像", "應該", "应该", "不確定", "不确定",
              "不知道", "不清楚")
_ZH_MODAL_AFTER_DE = "會会被將将都也就需必應应要可能是"
_ZH_TEMPORAL = "時时前後后中"


def _strip_fillers(head: str) -> str:
    changed = True
    while changed and head:
        changed = False
        for filler in _ZH_FILLERS:
            if head.startswith(filler):
                head = head[len(filler) :].lstrip()
                changed = True
    return head


def _zh_claims(text: str):
    sentence = _Sentence(text)
    for match in _ZH_CUE.finditer(text):
        cue, start = match.group(), match.start()
        yield start, cue, _zh_verdict(text, sentence, cue, start, match.end())


def _zh_verdict(text, sentence, cue, start, end):
    window = text[max(0, start - 3) : start + 6]
    offset = start - max(0, start - 3)
    for word in _ZH_LOOKALIKES:
        at = window.find(word)
        while at != -1:
            if at <= offset < at + len(word):
                if word == "不管" and text[start + 2 : start + 3] == "用":
                    break  # 不管用: does not work
                return NONE
            at = window.find(word, at + 1)
    if text[max(0, start - 1) : start + 1] in _ZH_LOOKALIKE_PREFIXES:
        return NONE
    before_char = text[start - 1] if start > 0 else ""
    after_char = text[end] if end < len(text) else ""
    if cue[0] in "不沒没" and before_char and before_char == text[start + 1 : start + 2]:
        return NONE  # 是不是, 有沒有, 能不能: a question form, not a negation
    if cue == "不" and text[start + 1 : start + 3] in ("支援", "支持") and before_char == "支":
        return NONE  # 支不支援
    head = _strip_fillers(sentence.before(start).strip())
    clause_before = sentence.before(start)
    # Directives.
    if cue in ("別", "别"):
        return DIRECTIVE if not head else NONE  # 別 mid-clause is 別人, 特別...: not a prohibition
    if cue == "不得" and (text[end : end + 1] in ("不", "了") or before_char in "舍捨怪恨巴顧顾由記记免見见"):
        return NONE
    if cue == "不可" and after_char in "用行能逆靠見见":
        pass  # 不可用, 不可能, 不可靠: unavailable, impossible, unreliable; a claim, read on
    elif cue in ("不能", "不必", "不用", "不需要"):
        if not head or before_char in _ZH_TEMPORAL:
            return DIRECTIVE  # with a subject, "這個 API 不能分頁" is a claim: read on
    elif cue in _ZH_DIRECTIVES:
        return DIRECTIVE
    if cue == "不" and after_char in "要准許许應应該该":
        return DIRECTIVE
    if cue == "不" and text[start + 1 : start + 2] == "得":
        return NONE
    if text[max(0, start - 1) : start] == "而" or (cue in ("不", "並非", "并非") and "而是" in text[end : end + 60]):
        return NONE  # 而不是, 而非, 不是 A 而是 B: a contrast, not a claim
    # Conditions and hedges around the negation.
    if any(word in clause_before for word in _ZH_CONDITIONS):
        return NONE
    if any(word in clause_before for word in _ZH_HEDGES):
        return NONE
    rest = sentence.after(end)
    if any(word in rest for word in ("時候", "时候", "的話", "的话")):
        return NONE  # 拿不定的時候, 找不到的話: a condition
    for ending in _ZH_CONDITION_ENDS:
        at = rest.find(ending)
        if at != -1 and (at + len(ending) >= len(rest) or rest[at + len(ending)] in "，,、 "):
            return NONE  # 查無結果時, 不存在的話: a condition
    # "沒有標籤的紀錄會被略過": the negation describes a noun; the sentence is about something else.
    if cue in ("沒", "没", "無", "无", "不"):
        de = rest.find("的", 0, 12)
        if de != -1 and any(char in _ZH_MODAL_AFTER_DE for char in rest[de + 1 : de + 9]):
            return NONE
    if cue == "不" and after_char == "":
        return NONE
    return CLAIM


# -- Japanese ---------------------------------------------------------------

_JA_CUE = re.compile(
    r"ない|無い|なかっ|ません|なくなっ|なくて|不可|不明|非対応|未対応|未実装|未サポート|未確認|未定義|なし|無し|無理|ず"
)
_JA_DIRECTIVE_END = re.compile(
    r"(?:ないで(?:ください|下さい|ほしい|くれ|ね)?|こと|ように(?:してください|しましょう|する)?|てはいけない|てはいけません"
    r"|てはならない|てはなりません|ちゃいけない|じゃいけない|べきではない|べきでない|べきではありません|禁止|厳禁|してください"
    r"|ください|下さい|なさい|するな|しましょう)$"
)
_JA_QUESTION_END = re.compile(r"(?:か|かな|かね|かい|でしょうか|のでは|では)$")
_JA_NOT_AFTER = ("ことは", "ことも", "少", "危", "幼", "汚", "違い", "もったい", "つまら", "仕方", "仕方が", "構わ", "問題", "問題は", "問題が",
                 "間違い", "悪く", "限ら", "かもしれ", "だけで", "のみで", "切れ", "たまら", "くだら", "さりげ", "何気", "はか")
_JA_DIRECTIVE_BEFORE = re.compile(r"(?:ては|では|ちゃ|じゃ|ければ|くては|いと|なきゃ|なくちゃ)(?:いけ|なら|なり|だめ)$|べきで(?:は)?$")
# After the negation: a condition (場合, なら, ければ), "without" (ずに is not here: it is asserted), or an
# embedded question (落ちていないか確認した).
_JA_CONDITION_AFTER = ("ければ", "くても", "くたって", "と", "場合", "なら", "時", "とき", "限り", "うちに", "たら", "たとき",
                       "た場合", "か")
_JA_DIRECTIVE_AFTER = ("でください", "で下さい", "でほしい", "でくれ", "こと", "ように", "ようにし", "ほうが", "方が")
_JA_CAUSAL_AFTER = ("ので", "から", "ため", "為", "けど", "けれど", "が、", "し、")
_JA_PREDICATE_NOUNS = ("状態", "様子", "模様", "ため", "為", "まま", "はず", "よう", "ようだ", "みたい", "らしい", "そう")
_HIRAGANA = re.compile(r"[\u3041-\u309f]")


def _ja_claims(text: str):
    sentence = _Sentence(text)
    core = _strip_end(text)
    directive_sentence = bool(_JA_DIRECTIVE_END.search(core))
    for match in _JA_CUE.finditer(text):
        cue, start, end = match.group(), match.start(), match.end()
        verdict = _ja_verdict(text, sentence, cue, start, end)
        if verdict == CLAIM and directive_sentence:
            # In "…削除せず、アーカイブすること" the negation is part of the instruction; a reason
            # ("対応していないので、…してください") is still a claim.
            causal = any(text.startswith(word, end) or text.startswith(word, end + 1) for word in _JA_CAUSAL_AFTER)
            if not causal:
                verdict = DIRECTIVE
        yield start, cue, verdict


def _ja_verdict(text, sentence, cue, start, end):
    before = text[max(0, start - 8) : start]
    after = text[end : end + 8]
    clause_before = sentence.before(start)
    if cue == "ず":
        if start == 0 or not _HIRAGANA.match(text[start - 1]) or text[start - 1] in "まはずわ" or before.endswith("わら"):
            return NONE  # まず, 必ず, はず, かかわらず
        if after[:1] not in ("、", ",", "，", "。", "に", "") and not after.startswith("じまい"):
            return NONE  # ずっと, ずつ, ずれ
    if cue in ("ない", "無い", "なかっ", "ません", "なくて", "なくなっ"):
        if any(before.endswith(word) for word in _JA_NOT_AFTER):
            return NONE  # 少ない, 違いない, 問題ない, かもしれません
        if "しか" in clause_before:
            return NONE  # しか…ない: "only"
        if _JA_DIRECTIVE_BEFORE.search(before):
            return DIRECTIVE  # てはいけない, べきではない, なければならない
    if cue == "なくて" and after[:1] in ("も", "は"):
        return NONE  # しなくてもいい
    if "かどうか" in clause_before:
        return NONE  # an embedded question: 直したかどうかは分からない
    if cue == "不可" and after.startswith("欠"):
        return NONE  # 不可欠: indispensable
    if cue in ("なし", "無し") and after[:1] in ("で", "に", "崩"):
        return NONE  # なしで: without
    if cue == "不明" and after.startswith("な"):
        return NONE
    if cue in ("ない", "無い", "ません"):
        if any(after.startswith(word) for word in _JA_DIRECTIVE_AFTER):
            return DIRECTIVE
        if after.startswith("で") and (len(after) == 1 or after[1] in "。！!」』）)\n"):
            return DIRECTIVE  # コミットしないで。
    if cue == "なかっ":
        after = after[1:] if after.startswith("た") else after  # なかった → what follows た
    if cue in ("ない", "無い", "なかっ", "ません", "ず"):
        if any(after.startswith(word) for word in _JA_CONDITION_AFTER):
            return NONE  # 存在しない場合, 見つからなければ, なかったら, 落ちていないか
    if cue in ("ない", "無い", "なかっ") and after and (_CJK.match(after[0]) or after[0].isalnum()) and not _HIRAGANA.match(after[0]):
        if not any(after.startswith(noun) for noun in _JA_PREDICATE_NOUNS):
            return NONE  # 対応していないブラウザ, タグのない記録: describes a noun
    return CLAIM


# -- sentences to verdicts -----------------------------------------------------

_ZH_QUESTION_END = re.compile(r"[嗎吗呢麼么]$")


def is_question(sentence: str, language: str | None = None) -> bool:
    stripped = sentence.rstrip(" \t\r\n」』）)\"'”’")
    if stripped.endswith(("?", "？")):
        return True
    core = _strip_end(sentence)
    language = language or language_of(sentence)
    if language == "zh" and _ZH_QUESTION_END.search(core):
        return True
    if language == "ja" and _JA_QUESTION_END.search(core):
        return True
    return False


def classify(sentence: str) -> tuple[str, str]:
    """(verdict, cue) for one sentence: claim, directive, question or none."""
    language = language_of(sentence)
    if is_question(sentence, language):
        return QUESTION, ""
    if language == "en":
        verdicts = _en_claims(sentence)
    elif language == "zh":
        verdicts = _zh_claims(sentence)
    else:
        verdicts = _ja_claims(sentence)
    directive = ""
    for _, cue, verdict in verdicts:
        if verdict == CLAIM:
            return CLAIM, cue
        if verdict == DIRECTIVE and not directive:
            directive = cue
    return (DIRECTIVE, directive) if directive else (NONE, "")


def find_claims(text: str) -> list[Claim]:
    """The negative claims in a piece of prose, one per sentence, in order."""
    found = []
    for start, end in sentences(text):
        sentence = text[start:end]
        verdict, cue = classify(sentence)
        if verdict == CLAIM:
            found.append(Claim(start, end, sentence, cue, language_of(sentence)))
    return found

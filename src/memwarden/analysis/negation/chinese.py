"""Chinese (Traditional and Simplified in one set of rules): which negative words make a claim."""

from __future__ import annotations

import re

from memwarden.analysis.negation.common import CLAIM, DIRECTIVE, LOOKBACK, NONE, Sentence
from memwarden.analysis.negation.cjk_evidence import zh_evidence
from memwarden.patterns import LazyPattern

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
    "無頭", "无头",  # headless: 「无头浏览器」 is a browser mode, nothing missing
)
_ZH_LOOKALIKE_PREFIXES = ("了不", "對不", "对不", "差不", "怪不", "恨不", "巴不", "捨不", "舍不", "忍不", "顧不", "顾不")
_ZH_DIRECTIVES = ("不要", "請勿", "请勿", "切勿", "勿", "禁止", "嚴禁", "严禁", "不准", "不許", "不许", "不應該", "不应该",
                  "不應", "不应", "不該", "不该", "別", "别", "不得", "不可", "不能", "不必", "不用", "不需要")
_ZH_CLAIMS = ("並非", "并非", "絕非", "绝非", "缺少", "缺乏", "無法", "无法", "無關", "无关", "查無", "查无",
              "並沒", "并没", "並未", "并未", "尚未", "沒", "没", "無", "无", "未", "不")
ZH_CUE = LazyPattern("|".join(re.escape(w) for w in sorted(set(_ZH_DIRECTIVES + _ZH_CLAIMS), key=len, reverse=True)))
_ZH_FILLERS = ("請", "请", "千萬", "千万", "切記", "切记", "記得", "记得", "務必", "务必", "一定", "絕對", "绝对", "永遠",
               "永远", "也", "就", "還是", "还是", "最好", "你", "您", "我們", "我们", "先", "但是", "但", "所以", "因此",
               "另外", "並且", "并且", "而且", "然後", "然后", "平時", "平时", "直接", "再", "可", "都", "一律", "絕", "绝")
_ZH_CONDITIONS = ("如果", "若", "要是", "假如", "假設", "假设", "萬一", "万一", "一旦", "即使", "就算", "即便", "只要",
                  "除非", "倘若", "如若")
_ZH_CONDITION_ENDS = ("時", "时", "的話", "的话", "時候", "时候", "之前", "的情況下", "的情况下", "的情況", "的情况")
# A fallback step: 「实在解决不了再找胡总」「查不到再問我」: what to do if this fails, not what cannot be done.
_ZH_FALLBACK = LazyPattern(r"(?:了|到|出來|出来)\s*再")
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


# Real prose (issue #19). A post-mortem: 「沒用 venv，直接全域安裝結果壞了」「没看 diff 就发版了」.
# Issue 29: what a thing was before it changed (「原本 … target 只支援最新版(不能傳版本)，所以…擴充」, 「當時 CI 沒有快取」).
_ZH_NARRATIVE = LazyPattern(r"差點|差点|導致|导致|被投訴|被投诉|出事|壞了|坏了|後來|后来|原本|原先|本來|本来|當時|当时|當初|当初")
# A rule the project keeps (「驗證一律在 Docker 內跑，不接受本機通過」), and no problem found (「其他 repos 沒有此問題」).
_ZH_POLICY = LazyPattern(r"一律|一概")
_ZH_NO_PROBLEM = LazyPattern(r"有?\s*(?:此|這個?|这个?|該|该|任何|什麼|什么)?\s*(?:問題|问题|影響|影响|差異|差异|異常|异常)")
# A consequence of a condition earlier in the sentence: 「一旦 X 沒回來，下次用 Y 就 … 找不到檔案」.
_ZH_CONSEQUENCE = LazyPattern(r"就|便|則|则")
# Where things are kept by policy: 「密鑰從不放在 repo」「個資不會進 log」「帳密不存在筆電上」.
_ZH_STORAGE = LazyPattern(
    r"^(?:會|会|能)?(?:放|(?:存放|保存|儲存|存储|提交|上傳|上传)(?:在|到|進|进)|進|进|寫進|写进|存在[^於于，。]{1,8}[上裡里中])"
)
# A judgement: 「不太好做」「不夠優雅」「不是件輕鬆的事」「沒想像中麻煩」.
_ZH_JUDGEMENT = LazyPattern(r"^(?:太|夠|够|容易|簡單|简单|好做|好搞|輕鬆|轻松|算|是一件|是件|想像|想象|有想像|有想象|是不)")
# A review of one's own work: how deeply it was done (「没有深入研究」「没有真正解决」「几乎无实质工作」), not what a
# tool can do (「Cursor 沒有真正支援 sampling」 stays a claim).
_ZH_SELF_REVIEW = LazyPattern(
    r"有?\s*(?:真正|深入|真實|真实|實質性?|实质性?|認真|认真)(?:地|的)?\s*(?:解決|解决|處理|处理|研究|執行|执行|探索|"
    r"完成|測試|测试|工作|進展|进展|產出|产出|推進|推进|落地)"
)
_ZH_SECOND_CLAUSE_IS = LazyPattern(r"[，,；;]\s*(?:而是|就是|其實是|其实是|是|都在|統一|统一|改放|放在)")


def zh_claims(text: str):
    sentence = Sentence(text)
    narrative = _ZH_NARRATIVE.search(text) is not None
    prohibition = any(word in text for word in ("不許", "不许", "不准", "禁止", "嚴禁", "严禁"))
    gathered = any(word in text for word in ("都在", "統一", "统一", "改放"))
    for match in ZH_CUE.finditer(text):
        cue, start = match.group(), match.start()
        verdict = _zh_verdict(text, sentence, cue, start, match.end())
        if verdict == CLAIM:
            verdict = _zh_real_prose(text, cue, start, match.end(), narrative, prohibition, gathered)
        if verdict == CLAIM and not zh_evidence(text, cue, start, match.end(), sentence.clause_start(start)):
            verdict = NONE  # no capability predicate, or nothing outside the project it is said of
        yield start, cue, verdict


def _zh_real_prose(text: str, cue: str, start: int, end: int, narrative: bool, prohibition: bool, gathered: bool) -> str:
    after = text[end : end + 12]
    if prohibition or _ZH_POLICY.search(text):
        return DIRECTIVE  # 「沒有 code review 不許合併」: the negation is the rule's condition
    if narrative or (cue in ("沒", "没") and "就" in text[end : end + 20]):
        return NONE  # a post-mortem: what was not done, and what followed
    if _ZH_STORAGE.match(after) or _ZH_JUDGEMENT.match(after):
        return NONE
    if cue in ("沒", "没", "無", "无", "並沒", "并没") and _ZH_SELF_REVIEW.match(after):
        return NONE  # 「没有深入研究 X」: how far one's own work went
    if cue in ("不用", "不必", "不需要") and after.startswith("再"):
        return DIRECTIVE  # 「小改動不用再問我」: a standing permission
    if cue == "不" and after.startswith("是") and _ZH_SECOND_CLAUSE_IS.search(text, end, end + LOOKBACK):
        return NONE  # 「不是 ROS 1，是 ROS 2」: a contrast
    if gathered and _ZH_SECOND_CLAUSE_IS.search(text, end, end + LOOKBACK):
        return NONE  # 「密鑰不放 repo，都在 Vault」
    return CLAIM


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
    if cue[0] in "不沒没" and before_char and not before_char.isspace() and before_char == text[start + 1 : start + 2]:
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
        if not head or before_char in _ZH_TEMPORAL or re.search("任何|一律|所有的?[^，。]{0,12}都$", clause_before):
            return DIRECTIVE  # with a subject, "這個 API 不能分頁" is a claim: read on
    elif cue in _ZH_DIRECTIVES:
        return DIRECTIVE
    if cue == "不" and after_char in "要准許许應应該该":
        return DIRECTIVE
    if cue == "不" and text[start + 1 : start + 2] == "得":
        return NONE
    if text[max(0, start - 2) : start] in ("並非", "并非", "不是", "絕非", "绝非", "並不", "并不") or (
            cue in ("並非", "并非", "絕非", "绝非", "不") and text[end : end + 1] in "不無无沒没"):
        return NONE  # 並非不可能, 不是不支援: a double negative asserts
    if text[max(0, start - 1) : start] == "而" or (cue in ("不", "並非", "并非") and "而是" in text[end : end + 60]):
        return NONE  # 而不是, 而非, 不是 A 而是 B: a contrast, not a claim
    # Conditions and hedges around the negation.
    if any(word in clause_before for word in _ZH_CONDITIONS):
        return NONE
    if _ZH_CONSEQUENCE.search(clause_before) and any(word in text[:start] for word in _ZH_CONDITIONS):
        return NONE  # 「一旦 X，下次 … 就找不到」: what follows from the condition
    if any(word in clause_before for word in _ZH_HEDGES):
        return NONE
    rest = sentence.after(end)
    if any(word in rest for word in ("時候", "时候", "的話", "的话")):
        return NONE  # 拿不定的時候, 找不到的話: a condition
    for ending in _ZH_CONDITION_ENDS:
        at = rest.find(ending)
        in_case = ending[-1] == "下" and "在" in text[max(0, start - 2) : start]  # 在沒有金鑰的情況下: the negation opens it
        if at != -1 and (at + len(ending) >= len(rest) or rest[at + len(ending)] in "，,、 才可就再則则" or in_case):
            return NONE  # 查無結果時, 不存在的話, 不可用時才退回, 在沒有金鑰的情況下: a condition
    if cue in ("不", "沒", "没") and _ZH_FALLBACK.match(text, end):
        return NONE  # 「解决不了再找我」: a fallback step
    # "沒有標籤的紀錄會被略過": the negation describes a noun; the sentence is about something else.
    if cue in ("沒", "没", "無", "无", "不"):
        de = rest.find("的", 0, 12)
        if de != -1 and any(char in _ZH_MODAL_AFTER_DE for char in rest[de + 1 : de + 9]):
            return NONE
    if cue == "不" and after_char == "":
        return NONE
    if cue in ("沒", "没", "無", "无") and _ZH_NO_PROBLEM.match(text, end):
        return NONE  # 「沒有此問題」: nothing wrong, not something missing
    return CLAIM



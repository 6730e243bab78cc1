"""Is an index trigger a symptom or a cause?

A *symptom* is the thought or observation the agent has at the moment it is
about to go wrong: "the tool said it succeeded, so it is done",
「錯誤數是 0，所以沒問題」. A *cause* is a diagnosis ("tool reports are
unreliable"), a topic (「快取問題」, "deploy script flags") or a rule ("never
trust exit codes"). The startup index is for mistakes the agent does not know
it is making, so its triggers must read like the symptom: a line written as
the cause only matches once the agent already suspects the cause.

The classifier is pure and rule-based: each language has a short table of
patterns that are evidence for one side (a speaker, a conclusion, a report of
what a tool said, a question to oneself; or an instruction, a definition, a
topic word). A trigger is a symptom only when the evidence for it outweighs
the evidence against it; a text with no evidence either way is a noun phrase,
which is a topic, which is a cause. Every pattern is a plain alternation
without nested quantifiers, and the text is cut to ``MAX_CHARS`` first, so a
call is linear in its input and bounded.

English, Traditional Chinese, Simplified Chinese and Japanese are covered.
``bench/triggers_accuracy.py`` measures it against ``tests/data/triggers_table.tsv``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Callable, Union

from memwarden.patterns import LazyPattern

LANGUAGES = ("en", "zh-Hant", "zh-Hans", "ja")
SYMPTOM, CAUSE = "symptom", "cause"

# A trigger longer than this is content, not a trigger (content-in-index says so);
# only its start is read.
MAX_CHARS = 300

_KANA = LazyPattern(r"[\u3041-\u309f\u30a1-\u30fa\u30fd-\u30ff]")
_HAN = LazyPattern(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")

# Common characters that exist in only one of the two Chinese scripts.
_TRADITIONAL_ONLY = set(
    "們說該應這沒問題過還個報錯時會為數經對裡發後邊動執試測門開關處緩檔碼擋攔"
    "記憶錄寫與從讓將給見實現點擊網頁線當種樣麼嗎頭條體車東無於產並務歸"
    "確認檢查驗證備份遷移規範參設資庫穩節讀誤論結論壓縮舊綠跑過"
)
_SIMPLIFIED_ONLY = set(
    "们说该应这没问题过还个报错时会为数经对里发后边动执试测门开关处缓档码挡拦"
    "记忆录写与从让将给见实现点击网页线当种样么吗头条体车东无于产并务归"
    "确认检查验证备份迁移规范参设资库稳节读误论结论压缩旧绿"
)

Feature = Union[str, Callable[[str], bool]]


@dataclass(frozen=True)
class Evidence:
    side: str  # "symptom", or the kind of cause: "rule", "diagnosis"
    weight: float
    why: str


@dataclass(frozen=True)
class Verdict:
    label: str  # "symptom" or "cause"
    kind: str  # "symptom", "rule", "diagnosis" or "topic"
    language: str
    score: float  # > 0 leans symptom
    reasons: tuple[str, ...]
    advice: str  # how to rewrite it as a symptom ("" for a symptom)

    @property
    def is_cause(self) -> bool:
        return self.label == CAUSE


# -- per-language evidence ------------------------------------------------------
# (pattern or predicate, side, weight, why). Each feature counts once.

_OK_WORDS = r"(?:fine|ok|okay|good|done|right|safe|there|it)"

_EN: list[tuple[Feature, str, float, str]] = [
    (r"\b(?:i|i'm|i'll|i've|i'd|me|my|myself|we're|we've|we'll|let's|let me|lemme)\b", "symptom", 2.0,
     "speaks as the agent"),
    (r"\bwe\b", "symptom", 1.0, "speaks as the agent"),
    (r"\bso\b(?!\s+(?:that|far|as)\b)", "symptom", 2.0, "draws a conclusion ('so ...')"),
    (rf"\b(?:should|must|would|will)\s+be\s+{_OK_WORDS}\b", "symptom", 2.0, "expects it to be fine"),
    (r"\bmust\s+be\b|\bprobably\b|\bsurely\b|\bapparently\b|\bseems?\b|\blooks?\b|\bguess\b|\bbet\b",
     "symptom", 1.5, "guesses"),
    (r"\b(?:fine|done|good|ok|okay|clean|covered|safe to|ship it|moving on|all good|good to go|works|worked|"
     r"finished|nailed it|no need)\b", "symptom", 1.0, "declares it done"),
    (r"\b(?:says|said|returned|printed|shows|showed|reported|passed|succeeded|failed|came back|blocked|found|ran|"
     r"exited|returns|prints|displayed|is green|are green|turned green|told me|say|complained)\b", "symptom", 1.0,
     "reports what a tool or a person said"),
    (r"\b(?:still|already|again|just|anyway)\b", "symptom", 1.0, "speaks of this moment"),
    (r"\?", "symptom", 1.5, "asks itself a question"),
    (r"\b(?:is|are|was|were|isn't|aren't|wasn't|weren't)\s+(?:not\s+)?"
     r"(?!misleading\b|confusing\b|deceiving\b|surprising\b|interesting\b|annoying\b|lying\b|boring\b)\w+ing\b",
     "symptom", 1.0, "describes what is happening now"),
    (r"^(?:hmm+|ok|okay|oh|wait|huh|well|great|nice|alright|yes|nope)\b", "symptom", 1.5, "an interjection"),
    (r"\b(?:0|zero|200|none|nothing|nobody|no one)\b", "symptom", 0.5, "quotes a number it saw"),
    (r"\b(?:this|it|yesterday|last night|just now|today)\b|\bthat$|\b(?:do|does|did|done|support|supports|handle)\s+that\b",
     "symptom", 0.5, "points at the thing at hand"),
    (r"\b(?:was|were|got|has been|have been)\s+\w+(?:ed|en)\b", "symptom", 1.0, "reports what happened"),
    # the other side
    (r"^(?:never|always|don't|do not|avoid|prefer|make sure|remember|ensure|verify|measure|treat|archive|confirm|"
     r"before\b)", "rule", 3.0, "starts with an instruction"),
    (r"(?:^|[,;:]\s*)(?:check|verify|make sure|confirm|ensure|use|keep|run)\s+(?:that|the|whether|if|for|it)\b",
     "rule", 2.0, "gives an instruction"),
    (r"\b(?:must|should|(?<!no )need to|needs to|have to|has to|ought to)\b(?!\s+be\b)", "rule", 2.0,
     "states a rule (must, should)"),
    (r"\bshould\s+be\s+\w+ed\b|\bmust\s+be\s+\w+ed\b", "rule", 2.0, "states a rule (must be done)"),
    (r"\b(?:unreliable|untrustworthy|flaky|issues?|problems?|pitfalls?|gotchas?|caveats?|bugs?|race conditions?|"
     r"hygiene|workflow|process|procedure|policy|policies|rules?|conventions?|guidelines?|best practices?|tips|"
     r"overview|checklist|lessons?|claims?|evidence|proof|dead code|logic|strategy|architecture|handling|misleading|"
     r"deceptive|lie|lies)\b",
     "diagnosis", 1.5, "names a diagnosis or a topic"),
    (r"\b(?:can|may|might|could|does not|doesn't|do not|don't)\s+(?:mean|imply|prove)\b", "diagnosis", 2.5,
     "explains what something means"),
    (r"\b(?:means|implies|proves)\b", "diagnosis", 1.5, "explains what something means"),
    (r"\bhow to\b|\binstead of\b|\bvs\.?\b|\bversus\b", "diagnosis", 1.5, "names a topic"),
    (lambda t: re.match(r"(?:how|why|what|when|where|which)\b", t) is not None and "?" not in t,
     "diagnosis", 1.5, "names a topic ('why X', 'when Y')"),
    (r"\bbefore\s+\w+ing\b", "rule", 1.0, "states an order of steps"),
]

_ZH: list[tuple[Feature, str, float, str]] = [
    (r"我|咱", "symptom", 2.0, "speaks as the agent"),
    (r"所以|因此|那就|就好|就行|就會|就会|應該|应该|大概|肯定|一定是|看起來|看起来|看來|看来|好像|似乎|看著|看着|明明|"
     r"(?:說明|说明)(?!$|文件|書|书)", "symptom", 1.5, "draws a conclusion"),
    (r"沒問題|没问题|沒事|没事|搞定|收工|好了|完成|可以(?:刪|删|收工|合併|合并|直接|了)|不用|無所謂|无所谓|算了",
     "symptom", 1.5, "declares it done"),
    (r"吧|啦|嘛", "symptom", 1.5, "a spoken particle (吧)"),
    (r"嗎|吗|呢|\?|怎麼|怎么", "symptom", 1.5, "asks itself a question"),
    (r"說|说|回報|回报|顯示|显示|寫著|写着|返回|報錯|报错|過了|过了|通過|通过|成功了|成功$|失敗了|失败了|擋|挡|攔|拦|"
     r"沒找到|没找到|找不到|交回|還是|还是|又|沒在|没在|跑完|全綠|全绿|是 ?0|為 ?0|为 ?0|回傳|回传|輸出|输出|印出", "symptom", 1.0,
     "reports what it saw"),
    (r"^來|^来|我來|我来|再試|再试|再跑|重跑|直接|一下", "symptom", 1.5, "proposes the next step"),
    (r"了", "symptom", 1.0, "reports an event that just happened (了)"),
    (r"這|这|它|他們|他们|那個|那个|剛剛|刚刚|剛才|刚才|昨晚|昨天|今天|現在|现在", "symptom", 0.5, "points at the thing at hand"),
    (r"再說|再说|晚點|晚点|回頭|回头|先這樣|先这样", "symptom", 1.5, "puts something off"),
    # the other side
    (r"不要(?!緊|紧)|不准|不可以|(?:^|，|,)(?:別|别)|永遠|永远|必須|必须|務必|务必|一定要|切勿|禁止|記得|记得|應先|应先|"
     r"前先|先.{0,6}再(?!說|说)|只能|只(?:歸檔|归档)|不刪除|不删除|"
     r"要(?:看|先|寫|写|用|確認|确认|檢查|检查|驗證|验证|備份|备份)", "rule", 3.0, "states a rule"),
    (r"不可靠|不穩定|不稳定|(?<![沒没])問題|(?<![沒没])问题|陷阱|坑|宣稱|聲明|声明|證據|证据|快照|死碼|死代码|"
     r"也可能|機制|机制", "diagnosis", 2.0, "names a diagnosis"),
    (r"注意事項|注意事项|原則|原则|規範|规范|流程|參數|参数|策略|指南|須知|须知|為什麼|为什么|如何|怎樣|怎样",
     "diagnosis", 2.0, "names a topic"),
    (r"不等於|不等于|不代表|代表(?!沒事|没事|沒問題|没问题|成功了|好了)|表示(?!成功)|就是|只是|不是", "diagnosis", 2.0,
     "explains what something means"),
]


def _ja_rule_ending(text: str) -> bool:
    """A sentence ending in a plain negative (書かない, 信用しない) states a rule or a fact; ～てない is an observation."""
    stripped = text.rstrip("。.!！ ")
    return stripped.endswith("ない") and not stripped.endswith(("てない", "ていない", "でない", "でいない"))


_JA: list[tuple[Feature, str, float, str]] = [
    (r"私|僕|俺|自分|我々|わたし|ぼく", "symptom", 2.0, "speaks as the agent"),
    (r"(?<!て)から|ので|はず|だろう|でしょ|大丈夫|問題な[しい]|ok|よし|完了|いい$|いいや|っぽい|みたい|らしい|のに|けど|けれど|し、",
     "symptom", 1.5, "draws a conclusion"),
    (r"しよう|しましょう|よう$|そう$|ろう$|こう$|おう$|よう、|そう、|こう、", "symptom", 1.5, "proposes the next step"),
    (r"[ただ](?:$|、|,|!|\?|し|から|けど|のに|ので)|って(?:言|い|出|書|表示|返|き)|と言った|表示され|返した|返ってきた|"
     r"通った|出た|なかった|てない|ていない|でない|てる(?:し|$)|ている(?:$|し)|と(?:書い|言っ|出て|表示)|"
     r"[っしちれいきけえせべめねりみびにぎ]た(?!ち)", "symptom", 1.0, "reports what it saw"),
    (r"この|その|今回|今", "symptom", 0.5, "points at the thing at hand"),
    (r"もう|まだ|また|さっき|全部|何も", "symptom", 1.0, "speaks of this moment"),
    (r"\?|かな", "symptom", 1.5, "asks itself a question"),
    # the other side
    (r"必ず|常に|絶対に|禁止|べき|こと$|ないこと|ように$|ようにする", "rule", 3.0, "states a rule"),
    (_ja_rule_ending, "rule", 2.0, "states a rule or a general fact (～ない)"),
    (r"前に|せず|てから", "rule", 1.5, "states an order of steps"),
    (r"信用できない|信頼できない|(?<!の)問題(?!な)|の問題|注意点|注意事項|手順|ルール|運用|原則|方針|方法|仕組み|証拠|"
     r"可能性|とは限らない|意味する|意味しない|スナップショット|デッドコード|漏れ|不安定|なぜ|どうやって|主張",
     "diagnosis", 2.0, "names a diagnosis or a topic"),
]

_TABLES = {"en": _EN, "zh-Hant": _ZH, "zh-Hans": _ZH, "ja": _JA}
_COMPILED: dict[str, list[tuple[Callable[[str], bool], Evidence]]] = {}


def _compiled(language: str):
    if language not in _COMPILED:
        features = []
        for feature, side, weight, why in _TABLES[language]:
            if isinstance(feature, str):
                pattern = re.compile(feature)
                test = lambda text, p=pattern: p.search(text) is not None  # noqa: E731
            else:
                test = feature
            features.append((test, Evidence(side, weight, why)))
        _COMPILED[language] = features
    return _COMPILED[language]


# -- language -----------------------------------------------------------------


def detect_language(text: str) -> str:
    """en, zh-Hant, zh-Hans or ja, from the script: kana means Japanese, Han without kana Chinese."""
    if _KANA.search(text):
        return "ja"
    if _HAN.search(text):
        traditional = sum(1 for ch in text if ch in _TRADITIONAL_ONLY)
        simplified = sum(1 for ch in text if ch in _SIMPLIFIED_ONLY)
        return "zh-Hans" if simplified > traditional else "zh-Hant"
    return "en"


def normalize(text: str) -> str:
    text = unicodedata.normalize("NFKC", text[:MAX_CHARS])
    text = text.replace("’", "'").replace("‘", "'")
    return " ".join(text.split()).strip(" \"'「」『』“”.。")


# -- classifying ----------------------------------------------------------------


def classify(text: str, language: str | None = None) -> Verdict:
    """Symptom or cause, with the evidence and, for a cause, how to rewrite it."""
    language = language if language in LANGUAGES else detect_language(text)
    clean = normalize(text)
    probe = clean.lower()
    score = 0.0
    reasons: list[str] = []
    against: dict[str, float] = {"rule": 0.0, "diagnosis": 0.0}
    for test, evidence in _compiled(language):
        if not test(probe):
            continue
        if evidence.side == SYMPTOM:
            score += evidence.weight
            reasons.append(f"+{evidence.weight:g} {evidence.why}")
        else:
            score -= evidence.weight
            against[evidence.side] += evidence.weight
            reasons.append(f"-{evidence.weight:g} {evidence.why}")
    if score > 0:
        return Verdict(SYMPTOM, SYMPTOM, language, score, tuple(reasons), "")
    if against["rule"] >= against["diagnosis"] and against["rule"] > 0:
        kind = "rule"
    elif against["diagnosis"] > 0:
        kind = "diagnosis"
    else:
        kind = "topic"
    return Verdict(CAUSE, kind, language, score, tuple(reasons), advice(clean, kind, language))


def is_cause(text: str, language: str | None = None) -> bool:
    return classify(text, language).is_cause


# -- advice --------------------------------------------------------------------

EXAMPLES = {
    "en": '"the tool said it succeeded, so it is done"',
    "zh-Hant": "「工具說成功了，應該好了吧」",
    "zh-Hans": "「工具说成功了，应该好了吧」",
    "ja": "「ツールが成功と言ったから、もう大丈夫」",
}

_EN_DONT = re.compile(r"^(?:never|don't|do not|avoid)\s+([^,.;:]{3,80})", re.I)
_EN_DO = re.compile(
    r"^(?:always|make sure to|make sure|remember to|ensure)\s+([^,.;:]{3,80})"
    r"|^((?:verify|check|measure|confirm)\s+[^,.;:]{3,80})",
    re.I,
)
_EN_MODAL = re.compile(r"\b(?:must|should|need to|needs to|have to|has to)\s+(?:always\s+)?([^,.;:]{3,80})", re.I)
_ZH_DONT = re.compile(r"^(?:不要|別|别|切勿|禁止)([^，,。]{2,40})")
_ZH_DO = re.compile(r"^(?:永遠|永远|必須|必须|務必|务必|一定要|記得|记得)([^，,。]{2,40})")


def advice(text: str, kind: str, language: str) -> str:
    """How to rewrite a cause-style trigger as the thought the agent has at the moment of the mistake."""
    example = EXAMPLES[language]
    seen = {"en": "<what it sees>", "zh-Hant": "（看到的情況）", "zh-Hans": "（看到的情况）", "ja": "（見えたこと）"}[language]
    topic = "put a topic on a shelf index; here, " if kind == "topic" else ""
    if language == "en":
        dont = _EN_DONT.match(text)
        if dont:
            return f'say what the agent thinks just before it does this, e.g. "{seen}, so I\'ll just {dont.group(1).strip()}"'
        do = (_EN_DO.match(text) or _EN_MODAL.search(text)) if kind == "rule" else None
        if do:
            step = (do.group(1) or do.group(do.lastindex)).strip()
            return f'say what the agent thinks when it skips this, e.g. "{seen}, so no need to {step}"'
        return f"{topic}say what the agent sees or thinks when this bites, e.g. {example}"
    if language in ("zh-Hant", "zh-Hans"):
        dont = _ZH_DONT.match(text)
        if dont:
            return f"say what the agent thinks just before it does this, e.g. 「{seen}，所以直接{dont.group(1)}吧」"
        do = _ZH_DO.match(text)
        if do:
            skip = "應該不用" if language == "zh-Hant" else "应该不用"
            return f"say what the agent thinks when it skips this, e.g. 「{seen}，{skip}{do.group(1)}吧」"
    return f"{topic}say what the agent sees or thinks when this bites, e.g. {example}"

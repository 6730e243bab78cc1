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

Issue #14 added the kinds a blind set showed: on the symptom side what the
agent is about to do, a belief it remembers, a puzzled "why here but not there",
an error, an empty result or a screen it quotes; on the cause side a post-mortem
or root cause, a past incident, a general question ("can a cached 200 be
trusted?"). A cause is a rule, a diagnosis or a topic (a label, a topic word or
a bare noun phrase), and the advice is written for the trigger at hand.

Round 3 (issue #14) added, by kind, errors quoted as seen, what it is doing now, metrics that
moved, and on the cause side post-mortems told with their doer or missing step, mechanisms and
general questions; a learned scorer was measured for triggers and did not beat these rules.

English, Traditional Chinese, Simplified Chinese and Japanese are covered.
``bench/triggers_accuracy.py`` measures it against ``tests/data/triggers_table.tsv``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Callable, Union

from memwarden.analysis.negation.families import trigger_families
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
    side: str  # "symptom", or the kind of cause: "rule", "diagnosis", "topic"
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
    # issue #14: kinds of symptom a blind set showed (what it is about to do, what it remembers, a puzzled
    # "why here but not there", an error or a screen quoted as seen)
    (r"^(?:about to|going to|gonna|planning to|time to)\b", "symptom", 3.0, "says what it is about to do"),
    (r"\b(?:pretty sure|i'm sure|sure that|i remember|remember(?:ed)? that|iirc|i thought|thought that)\b",
     "symptom", 2.0, "recalls a belief"),
    (r"^why\b.*\b(?:but|yet|while|only|and not|locally|in prod|in production|on ci|in ci|on staging|on my machine|"
     r"here|there)\b", "symptom", 3.5, "is puzzled by what it sees here and not there"),
    (r"\b(?:every (?:few |other )?(?:minutes?|hours?|days?|time|run|deploy)|intermittently|randomly|"
     r"again and again|over and over)\b", "symptom", 1.5, "describes what keeps happening"),
    (r"^`[^`]+`|\b(?:err!|error:|exception:|\w+error|errno|denied(?!\s+errors?)|unable to|not found|timed out|killed)\b|"
     r"\b(?:got|get|gets|getting|seeing|see|saw)\s+(?:an?\s+)?(?:\w+\s+)?(?:errors?|exceptions?)\b", "symptom", 1.5,
     "quotes an error it saw"),
    (r"^(?:empty|blank|no)\s+(?:response|output|page|screen|result|results|rows|body)\b|\b[45]\d\ds?\b",
     "symptom", 1.5, "describes an empty result or a status it sees"),
    (r"\bshould have\b|\bby now\b", "symptom", 2.5, "expects something to have happened"),
    (r"\b(?:is|are|was|were|came back|comes back|looks?)\s+empty\b|\b(?:has|have|had)\s+no\b", "symptom", 1.5,
     "sees something empty or missing"),
    (r"^why\s+(?:is|are|was|were)\b.*\b\w+ing\b|^why\b.*\b(?:twice|again|suddenly|still)\b", "symptom", 3.5,
     "is puzzled by what is happening"),
    (r"\b(?:blank|greyed out|grayed out|spinning|spins|stuck|frozen|freezes|hangs?|flickers?|never (?:stops|loads|ends|finishes)|"
     r"keeps? \w+ing|disappears?|vanish(?:es|ed)?|white screen|black screen|red banner|red x)\b", "symptom", 1.5,
     "describes what it sees on screen"),
    # the other side
    (r"^(?:never|always|don't|do not|avoid|prefer|make sure|remember|ensure|verify|measure|treat|archive|confirm|"
     r"before\b)", "rule", 3.0, "starts with an instruction"),
    (r"(?:^|[,;:]\s*)(?:check|verify|make sure|confirm|ensure|use|keep|run)\s+(?:that|the|whether|if|for|it)\b",
     "rule", 2.0, "gives an instruction"),
    (r"\b(?:must|should|(?<!no )need to|needs to|have to|has to|ought to)\b(?!\s+be\b)", "rule", 2.0,
     "states a rule (must, should)"),
    (r"\bshould\s+be\s+\w+ed\b|\bmust\s+be\s+\w+ed\b", "rule", 2.0, "states a rule (must be done)"),
    (r"\b(?:unreliable|untrustworthy|flaky|bugs?|race conditions?|claims?|evidence|proof|dead code|misleading|"
     r"deceptive|lie|lies)\b",
     "diagnosis", 1.5, "names a diagnosis"),
    (r"\b(?:issues?|problems?|pitfalls?|gotchas?|caveats?|hygiene|workflow|process|procedure|policy|policies|rules?|"
     r"conventions?|guidelines?|best practices?|tips|overview|checklist|lessons?|logic|strategy|architecture|handling)\b",
     "topic", 1.5, "names a topic"),
    (r"\b(?:can|may|might|could|does not|doesn't|do not|don't)\s+(?:mean|imply|prove)\b", "diagnosis", 2.5,
     "explains what something means"),
    (r"\b(?:means|implies|proves)\b", "diagnosis", 1.5, "explains what something means"),
    (r"^what\s+(?:does|do|is|counts)\b.*\b(?:mean|as)\b", "diagnosis", 3.5, "asks a general question"),
    (r"\bhow to\b|\binstead of\b|\bvs\.?\b|\bversus\b", "topic", 1.5, "names a topic"),
    (lambda t: re.match(r"(?:how|why|what|when|where|which)\b", t) is not None and "?" not in t,
     "topic", 1.5, "names a topic ('why X', 'when Y')"),
    (r"\bbefore\s+\w+ing\b", "rule", 1.0, "states an order of steps"),
    # issue #14: kinds of cause a blind set showed (a post-mortem, a mechanism, a general question)
    (r"\b(?:because|came from|comes from|caused by|root cause|due to|turned out|culprit|the reason)\b",
     "diagnosis", 2.5, "gives the cause"),
    (r"\b(?:in|since|last|back in)\s+(?:january|february|march|april|may|june|july|august|september|october|"
     r"november|december|q[1-4]|20\d\d|week|month|year|sprint|quarter)\b|\bsilently\b",
     "diagnosis", 2.0, "tells a past incident"),
    (r"^(?:can|could|should|is|are|does|do|when is|when does|how (?:\w+ )?(?:can|should|is|does|do|far|much|long|stale|old))"
     r"\b.*\b(?:an?|any|ever)\b.*\?$|\b(?:be trusted|trustworthy)\b", "diagnosis", 3.5, "asks a general question"),
    (r"\b(?:usually|typically|generally|often|tends? to|by default|can still|hides?|masks?|amplif\w*|evaluated|"
     r"leads? to|causes?)\b", "diagnosis", 2.0, "states how things work in general"),
    (r"\b(?:but|yet)\b.*\b(?:today|now|this time)\b", "symptom", 2.5, "contrasts what it sees now with what it expected"),
    # round 2: a value seen on screen, something that never shows up, at once; a question about us in general,
    # a day of the week told as an incident
    (r"\b(?:is|are|was|were|becomes?|became|turns?|turned|goes|went)\s+(?:nan|null|undefined|none|zero|negative|inf)\b|"
     r"\bnever (?:appears?|shows? up|arrives?|comes? back|fires?|returns?|finishes|completes)\b|"
     r"\b(?:immediately|right away|instantly|straight away)\b", "symptom", 2.0, "describes what it sees happen"),
    (r"^(?:why|how|when) (?:do|should|can|would) (?:we|you|agents?|anyone|one)\b", "diagnosis", 4.0,
     "asks a general question"),
    (r"^(?:an?|every|no)\s+[\w-]+(?:\s+[\w-]+)?\s+(?:is not|isn't|is never|does not mean|doesn't mean|proves nothing)\b",
     "diagnosis", 3.0, "states an aphorism ('a passing test is not a spec')"),
    (r"\bon (?:a )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|holiday)\b.*\b(?:and|but)\b",
     "diagnosis", 2.5, "tells a past incident"),
    # round 3 (issue #14), by kind: an error token or quoted message as seen, what it is doing right now (a
    # gerund opener), a metric that moved; on the other side a post-mortem told with its doer or its missing
    # step, and the moment something still held
    (r"^\"[^\"]{3,}\"|\b(?:err_\w+|e(?:conn|addr|acces|noent|perm|time|pipe|host)\w*|oomkilled|sigkill|sigsegv)\b",
     "symptom", 2.0, "quotes an error it saw"),
    (r"^(?!how\b)\w{3,}ing\s+(?:the|a|an|this|that|it|our|my|all|off|up|back|down|over|to)\b", "symptom", 2.0,
     "says what it is doing right now"),
    (r"\b(?:right after|spiked|jumped|dropped to|climbed|for (?:an|\d+) (?:hours?|minutes?|days?))\b|"
     r"\b(?:has been|have been|is|are) (?:yellow|red|green|flapping|pending)\b", "symptom", 2.0,
     "describes what it sees happen"),
    (r"\b(?:is|are|was|looks|seems)\s+(?:on|off|live|green|enabled|done|merged|deployed)\s*,\s*[\w ]{0,30}\bshould\b"
     r"(?!\s+(?:always|never))", "symptom", 3.0, "draws a conclusion from what it sees"),
    (r"\bkeeps? \w+ing\b.*\buntil\b|\bkept \w+ing\b.*\buntil\b|\bbut\s+(?:the|a|an|its|their)\b[^.]*\bnever\s+(?:\w+ed|caught|came|got|ran|took|made|went|sent|began|rebuilt|restarted)\b|\b(?:was|were|had)\b.*\bwhen\s+(?:we|they|someone|it)\s+\w+(?:ed|t)\b", "diagnosis", 3.5,
     "tells a past incident (a step never taken, a state at the time)"),
    (r"^(?:the\s+)?[\w.-]+(?:\s+[\w.-]+){0,3}\s+(?!returned|printed|reported|showed|said|passed|failed|succeeded|"
     r"exited|spiked|jumped|climbed|dropped)\w+ed\s+(?:the|a|an|its|our|their)\s+\w+\s+(?:the|that|which|while|when)\b",
     "diagnosis", 2.5, "tells what did it (a post-mortem)"),
]

_ZH: list[tuple[Feature, str, float, str]] = [
    (r"我|咱", "symptom", 2.0, "speaks as the agent"),
    (r"所以|因此|那就|就好|就行|就會|就会|應該|应该|大概|肯定|一定是|看起來|看起来|看來|看来|好像|似乎|看著|看着|明明|"
     r"(?:說明|说明)(?!$|文件|書|书|什)", "symptom", 1.5, "draws a conclusion"),
    (r"沒問題|没问题|沒事|没事|搞定|收工|好了|完成|可以(?:刪|删|收工|合併|合并|直接|了)|不用|無所謂|无所谓|算了",
     "symptom", 1.5, "declares it done"),
    (r"吧|啦|嘛", "symptom", 1.5, "a spoken particle (吧)"),
    (r"嗎|吗|呢|\?|怎麼|怎么", "symptom", 1.5, "asks itself a question"),
    (r"(?<![來来])說|(?<![來来])说|回報|回报|顯示|显示|寫著|写着|返回|報錯|报错|過了|过了|通過|通过|成功了|成功$|失敗了|失败了|擋|挡|攔|拦|"
     r"沒找到|没找到|找不到|交回|還是|还是|又|沒在|没在|跑完|全綠|全绿|是 ?0|為 ?0|为 ?0|回傳|回传|輸出|输出|印出", "symptom", 1.0,
     "reports what it saw"),
    (r"^來|^来|我來|我来|再試|再试|再跑|重跑|直接|一下", "symptom", 1.5, "proposes the next step"),
    (r"了", "symptom", 1.0, "reports an event that just happened (了)"),
    (r"這|这|它|他們|他们|那個|那个|剛剛|刚刚|剛才|刚才|昨晚|昨天|今天|現在|现在", "symptom", 0.5, "points at the thing at hand"),
    (r"再說|再说|晚點|晚点|回頭|回头|先這樣|先这样", "symptom", 1.5, "puts something off"),
    # issue #14
    (r"^(?:準備|准备|正要|正在|打算|要不要|先)", "symptom", 3.0, "says what it is about to do"),
    (r"我記得|我记得|印象中|記得好像|记得好像", "symptom", 3.0, "recalls a belief"),
    (r"(?:為什麼|为什么).*(?:卻|却|但|就不|不行|正常|、|，|,|只有|只在|差了|失敗|失败|閃退|闪退)", "symptom", 3.5,
     "is puzzled by what it sees here and not there"),
    (r"(?<!回)報(?!表|告)|(?<!回)报(?!表|告)|回 ?\d{3}|超時|超时|看不到|看到|出現|出现|白屏|白畫面|閃退|闪退|沒反應|没反应|打不開|打不开|"
     r"收不到|一直|馬上|马上|突然|卻|却|但(?!書|书)|空白|轉圈|转圈|卡住|卡在|凍結|冻结|閃爍|闪烁|跳出|彈出|弹出|不見了|不见了|消失|"
     r"一堆|好多|滿滿|满屏|timeout|error|exception|failed|denied|killed|是空的|為空|为空",
     "symptom", 1.5, "describes what it sees"),
    # the other side
    (r"不要(?!緊|紧)|不准|不可以|(?:^|，|,)(?:別|别)|永遠|永远|必須|必须|務必|务必|一定要|切勿|禁止|(?<![我得])記得|(?<![我得])记得|應先|应先|"
     r"前先|先.{0,6}再(?!說|说)|只能|只(?:歸檔|归档)|不刪除|不删除|"
     r"要(?:看|先|寫|写|用|確認|确认|檢查|检查|驗證|验证|備份|备份)", "rule", 3.0, "states a rule"),
    (r"不可靠|不穩定|不稳定|宣稱|聲明|声明|證據|证据|快照|死碼|死代码|也可能|機制|机制", "diagnosis", 2.0,
     "names a diagnosis"),
    (r"(?<![沒没])問題|(?<![沒没])问题|陷阱|坑|注意事項|注意事项|原則|原则|規範|规范|流程|參數|参数|策略|指南|須知|须知|"
     r"為什麼|为什么|如何|怎樣|怎样", "topic", 2.0, "names a topic"),
    (r"不等於|不等于|不代表|代表(?!沒事|没事|沒問題|没问题|成功了|好了)|表示(?!成功)|就是|只是|不是", "diagnosis", 2.0,
     "explains what something means"),
    (r"根本原因|根因|原因是|原因在|起因|導致|导致|放大了|不具|冪等|幂等|靜默|静默|那次|當時|当时|上次|月份|月時|月时",
     "diagnosis", 3.0, "tells a past incident or its cause"),
    (r"通常|一般|往往|總是|总是|預設|默認|默认|前就|時[^，,]{0,12}(?:會|会)|时[^，,]{0,12}(?:會|会)|會導致|会导致",
     "diagnosis", 2.0, "states how things work in general"),
    (r"什麼才算|什么才算|什么才叫|什麼才叫|多久會|多久会|能相信嗎|能相信吗|能信嗎|能信吗|可信嗎|可信吗|會說謊|会说谎|"
     r"能說明什麼|能说明什么|意味著什麼|意味着什么|代表什麼|代表什么|算不算|可以當證據|可以当证据|是什麼意思|是什么意思|"
     r"對.{1,12}來說|对.{1,12}来说",
     "diagnosis", 3.5, "asks a general question"),
    # round 2
    (r"(?:就|能|可以|能夠|能够)(?:代表|表示|等於|等于|說明|说明|證明|证明|一定).*(?:嗎|吗|\?)$|可靠(?:嗎|吗)|有多可靠|靠得住(?:嗎|吗)|信得過(?:嗎|吗)|信得过(?:吗)",
     "diagnosis", 8.0, "asks a general question"),
    (r"被[^，,]{1,8}(?:攔截|拦截|擋下|挡下|封鎖|封锁|丟棄|丢弃)$|(?:時|时)仍(?:然)?|最危險|最危险|最容易出事|最常出事|(?:的時候|的时候|時|时)最",
     "diagnosis", 5.0, "states how things work in general"),
    (r"(?:週|周|星期|禮拜|礼拜)[一二三四五六日天].{0,6}(?:發版|发版|上版|上線|上线|部署|發布|发布)", "diagnosis", 3.0,
     "tells a past incident"),
    (r"[，,].{0,12}(?:為什麼|为什么)", "symptom", 3.5, "is puzzled by what it sees here and not there"),
    (r"^要(?:在|把|用|去|直接)", "symptom", 3.0, "says what it is about to do"),
    (r"^(?!.*(?:通常|一般|往往|總是|总是)).*[^\d][45]\d\d$|(?:變成|变成|是|為|为)\s*(?:nan|null|undefined|0)\b|完全(?:沒|没)|(?:沒|没)回", "symptom", 2.0,
     "describes what it sees"),
    # round 3, by kind: what it is about to do, a metric that moved or differs; a post-mortem (a 把 deed, a step
    # not taken, the wrong or old thing used, a state that drifted), a mechanism, a general question
    (r"^(?:想|乾脆|干脆)|(?:就|先)(?:準備|准备|打算)|^要 ?[a-z]", "symptom", 3.0, "says what it is about to do"),
    (r"立刻|立即|從.{1,8}開始|从.{1,8}开始|每次.{0,12}(?:不一樣|不一样)|事件數|事件数|條數|条数|飆升|飙升|暴增|掉到|降到",
     "symptom", 2.5, "describes what it sees happen"),
    (r"^把.{1,20}了$|[^我你]把.{1,30}了$|(?:但|卻|却|，|,).{0,12}(?:沒|没)(?:有)?(?:重啟|重启|重新|部署|更新|生效)|"
     r"了(?:舊|旧|錯誤|错误|不同)|(?:沿用|復用|复用|依賴|依赖|截斷|截断|吞掉|耗盡|耗尽|漂移|手改|手動改|手动改)",
     "diagnosis", 3.0, "tells a past incident or its cause"),
    (r"(?:時|时).{0,12}(?:還是|还是|仍是)|就(?:會|会)被|超過.{1,10}就|超过.{1,10}就|前(?:一直|都)|"
     r"(?:雲端業者|云厂商|廠商|厂商|業者|平台)[^，,]{0,4}(?:封|擋|挡|限)", "diagnosis", 3.5, "states how things work, or the cause"),
    (r"(?:會不會|会不会).*[？?]$|可以(?:相信|信任)(?:嗎|吗)", "diagnosis", 4.0, "asks a general question"),
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
    # issue #14
    (r"なぜ.*(?:のに|だけ|では|だと|でも)", "symptom", 3.5, "is puzzled by what it sees here and not there"),
    (r"(?:され|てこ|届か|来|動か|見え|映ら)ない$|空配列|が空|エラーが出|エラーになる|と[^、。]{0,12}エラー",
     "symptom", 2.5, "describes what it sees"),
    (r"(?<!い)(?:せ|け|え|め|べ|れ|げ|ね)ない$|真っ白|真っ黒|固まる|固まった|くるくる|消えた|点滅|止まる|止まった|落ちる|"
     r"落ちた|赤い|赤く|遅い|重い|消える", "symptom", 2.5,
     "describes what it sees on screen (押せない, 真っ白)"),
    # the other side
    (r"必ず|常に|絶対に|禁止|べき|こと$|ないこと|ように$|ようにする", "rule", 3.0, "states a rule"),
    (_ja_rule_ending, "rule", 2.0, "states a rule or a general fact (～ない)"),
    (r"前に|せず|てから", "rule", 1.5, "states an order of steps"),
    (r"信用できない|信頼できない|証拠|可能性|とは限らない|意味する|意味しない|スナップショット|デッドコード|漏れ|不安定|"
     r"仕組み|主張", "diagnosis", 2.0, "names a diagnosis"),
    (r"(?<!の)問題(?!な)|の問題|注意点|注意事項|手順|ルール|運用|原則|方針|方法|なぜ|どうやって", "topic", 2.0, "names a topic"),
    (r"前回|前の|以前|あの時|その時|当時|月に|原因は|根本原因|が原因|のせいで|させた|拡大|ていた$|でいた$|ていました$",
     "diagnosis", 3.0, "tells a past incident or its cause"),
    (r"(?:のに|但|卻|却|，|、).{0,10}(?:今日|今天|這次|这次|今回)", "symptom", 2.5,
     "contrasts what it sees now with what it expected"),
    (r"たいてい|大抵|通常|一般に|一般的に|ことがある|場合がある|がち", "diagnosis", 2.0, "states how things work in general"),
    (r"とは何か|とは何|どこまで|何をもって|(?:信頼|信用)できるの?か|意味するのか|証拠になるか|証拠になるのか", "diagnosis", 3.5,
     "asks a general question"),
    # round 2: a general question, a mechanism, a post-mortem's cause; on the symptom side a state that
    # persists, a value seen, what it is about to do for now
    (r"と言えるか|と言っていいか|と考えてよいか|でよいのか|でいいのか|どれくらいで|どのくらいで|いつまで.*か\?$", "diagnosis", 4.0,
     "asks a general question"),
    (r"少なくとも|最低 ?1 ?回|でも[^、。]{0,12}(?:する|される|返す)$|ため(?!に)|(?:だった|かった|ていた|した)せい|冪等", "diagnosis", 3.0,
     "states how things work, or the cause"),
    (r"(?:で|により|によって)(?:停止|ダウン|障害|失敗|落ち)し?た$|"
     r"(?:切れ|フル|不足|漏れ|ミス|超過|枯渇)で[^、。]{0,12}(?:停止|ダウン|障害|失敗|落ち)し?た$|[月火水木金土日]曜(?:日)?に", "diagnosis", 3.0,
     "tells a past incident or its cause"),
    (r"とりあえず|ておこう|でおこう|ておく$|のまま$|まま$|ずっと|直後に|すぐに|なのに|"
     r"(?:認識|反応|応答|起動|表示|接続|返信)しない$|が ?(?:nan|null|undefined|0|空|[45]\d\d)$|`[^`]+`$",
     "symptom", 3.0, "describes what it sees or is about to do"),
    # round 3, by kind: a message or an error as seen, what it is about to do, puzzlement at the end; a post-mortem
    # told with its doer (X が Y を …た), its cause (X で Y が …た) or its missing step, a general question
    (r"と出る$|と出た$|を繰り返す$|を繰り返している$|\"[^\"]{3,}\"|"
     r"\b(?:err_\w+|e(?:conn|addr|acces|noent|perm|time|pipe|host)\w*|oomkilled|permission denied|no module named)\b",
     "symptom", 3.0, "quotes what it sees"),
    (r"ところ(?:だ)?$|ようとしている$|しようと思う$", "symptom", 3.0, "says what it is about to do"),
    (r"のはなぜ[？?]?$|なぜ$|(?:だけ|では).{0,20}(?:平気|動く|通る|問題ない)", "symptom", 3.5, "is puzzled by what it sees"),
    (r"が[^、。]{1,30}を[^、。]{1,20}た$|で[^、。]{1,30}が[^、。]{1,20}(?<!返ってき)(?<!なっ)(?<!出)た$|"
     r"まで[^、。]{0,20}(?:返す|使う|残る)$|(?:時|際)に[^、。]{1,30}(?:だった|ていた|た)$|"
     r"のに[^、。]{0,20}(?:していなかった|しなかった)$|ていなかった$|しか見ておらず", "diagnosis", 3.5,
     "tells a past incident or its cause"),
    (r"^(?!.*なぜ).*のか[？?]?$", "diagnosis", 4.0, "asks a general question"),
    (r"^確か|記憶では|覚えている|だったはず|と思っていた", "symptom", 3.0, "recalls a belief"),
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
    against: dict[str, float] = {"rule": 0.0, "diagnosis": 0.0, "topic": 0.0}
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
    # The strongest kind of evidence names the kind; a tie goes to a rule, then a cause; no evidence
    # at all is a bare noun phrase, a topic.
    kind = max(("rule", "diagnosis", "topic"), key=lambda side: against[side])
    if against[kind] == 0:
        kind = "topic"
    return Verdict(CAUSE, kind, language, score, tuple(reasons), advice(clean, kind, language))


def signals(text: str, verdict: Verdict) -> list[str]:
    """The rules' verdict and the trigger families, as named features for the learned scorer."""
    strength = "none" if not verdict.reasons else ("weak" if abs(verdict.score) < 2 else "strong")
    named = [f"lang:{verdict.language}", f"rule:{verdict.kind}", f"strength:{strength}:{verdict.label}"]
    family_language = "zh" if verdict.language.startswith("zh") else verdict.language
    found = trigger_families(normalize(text).lower(), family_language)
    named += [f"fam:{name}" for name in found] + [f"fam:{a}&{b}" for a in found for b in found if a < b]
    return named + [f"ev:{reason}" for reason in verdict.reasons]


def is_cause(text: str, language: str | None = None) -> bool:
    return classify(text, language).is_cause


# -- advice --------------------------------------------------------------------
# Written for the trigger at hand (issue #13): a rule is turned into the thought that skips or breaks
# it; a cause is named as the cause the agent does not yet know; a topic is named as a topic, with the
# moment it goes wrong to write instead.

_SEEN = {"en": "<what it sees>", "zh-Hant": "（看到的情況）", "zh-Hans": "（看到的情况）", "ja": "（見えたこと）"}
_EN_DONT = LazyPattern(r"^(?:never|don't|do not|avoid)\s+([^,.;:]{3,80})", re.I)
_EN_DO = LazyPattern(
    r"^(?:always|make sure to|make sure|remember to|ensure)\s+([^,.;:]{3,80})"
    r"|^((?:verify|check|measure|confirm)\s+[^,.;:]{3,80})",
    re.I,
)
_EN_MODAL = LazyPattern(r"\b(?:must|should|need to|needs to|have to|has to)\s+(?:always\s+)?([^,.;:]{3,80})", re.I)
_ZH_DONT = LazyPattern(r"^(?:不要|別|别|切勿|禁止)([^，,。]{2,40})")
_ZH_DO = LazyPattern(r"^(?:永遠|永远|必須|必须|務必|务必|一定要|記得|记得)([^，,。]{2,40})")
_JA_DONT = LazyPattern(r"^(.{2,40}?)(?:しない|しないこと|してはいけない)$")
_JA_DO = LazyPattern(r"^(?:必ず|常に)(.{2,40}?)(?:こと|する)?$")
# The example of each kind, in the trigger's language: {seen} is where what the agent sees goes.
_EXAMPLES = {  # language: (cause, topic, rule)
    "en": ('"{seen}, so it must be fine"', '"{seen} in {t}, so it must be fine"', '"{seen}, so I\'ll skip it this once"'),
    "zh-Hant": ("「{seen}，應該沒問題吧」", "「{t}那邊{seen}，應該沒問題吧」", "「{seen}，這次先跳過吧」"),
    "zh-Hans": ("「{seen}，应该没问题吧」", "「{t}那边{seen}，应该没问题吧」", "「{seen}，这次先跳过吧」"),
    "ja": ("「{seen}から、たぶん大丈夫」", "「{t}で{seen}けど、たぶん大丈夫」", "「{seen}から、今回は省略でいい」"),
}


def advice(text: str, kind: str, language: str) -> str:
    """How to rewrite a cause-style trigger as the thought the agent has at the moment of the mistake."""
    seen = _SEEN[language]
    short = text if len(text) <= 60 else text[:59].rstrip() + "…"
    named = f'"{short}"' if language == "en" else f"「{short}」"
    cause, topic, rule = (example.format(seen=seen, t=short) for example in _EXAMPLES[language])
    if kind == "rule":
        return _rule_rewrite(text, language, seen) or f"write the thought that breaks this rule, e.g. {rule}"
    if kind == "topic":
        return f"a topic belongs on a shelf index; here write the moment {named} goes wrong, e.g. {topic}"
    return f"the agent does not know this cause yet when it errs; write what it sees or thinks then, e.g. {cause}"


def _rule_rewrite(text: str, language: str, seen: str) -> str:
    """For a rule: the thought that breaks it ("..., so I'll just X") or skips it ("..., so no need to X")."""
    if language == "en":
        dont = _EN_DONT.match(text)
        if dont:
            return f'say what the agent thinks just before it does this, e.g. "{seen}, so I\'ll just {dont.group(1).strip()}"'
        do = _EN_DO.match(text) or _EN_MODAL.search(text)
        if do:
            step = (do.group(1) or do.group(do.lastindex)).strip()
            return f'say what the agent thinks when it skips this, e.g. "{seen}, so no need to {step}"'
        return ""
    if language in ("zh-Hant", "zh-Hans"):
        dont = _ZH_DONT.match(text)
        if dont:
            return f"say what the agent thinks just before it does this, e.g. 「{seen}，所以直接{dont.group(1)}吧」"
        do = _ZH_DO.match(text)
        if do:
            skip = "應該不用" if language == "zh-Hant" else "应该不用"
            return f"say what the agent thinks when it skips this, e.g. 「{seen}，{skip}{do.group(1)}吧」"
        return ""
    if language == "ja":
        dont = _JA_DONT.match(text.rstrip("。"))
        if dont:
            return f"say what the agent thinks just before it does this, e.g. 「{seen}から、{dont.group(1)}してしまおう」"
        do = _JA_DO.match(text.rstrip("。"))
        if do:
            return f"say what the agent thinks when it skips this, e.g. 「{seen}から、{do.group(1)}のは省略でいい」"
    return ""

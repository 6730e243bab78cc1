"""One sentence reduced to what two records can be compared on: its content, its values, its polarity.

The content of a statement is its words with the words of polarity taken out: negations,
removal and failure verbs (`not`, `no longer`, `was retired`, 「不」「停用」「下架」, 「ない」
「提供終了」), and function words. "Vercel supports WebSockets" and "Vercel does not support
WebSockets" have the same content and opposite polarity. Its values are the numbers and
versions it names, each with the word after it ("15 min", "node 18", "5.7"): a record about
another version, plan, object or amount has other content or other values, and is not the same
claim. Polarity itself comes from the negative-claim detector (`negation.classify`), which asks
for positive evidence before it calls a sentence a claim; only the cue words are listed here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from memwarden.analysis import negation
from memwarden.analysis.coherence.normal import has_digit, is_cjk, normalise, stem, tokens

# Words that carry polarity, not content (lower case, after normalise()).
EN_CUES = frozenset(
    "not no never none nothing nobody cannot can't doesn't don't didn't isn't aren't wasn't weren't won't "
    "hasn't haven't hadn't couldn't shouldn't without lack lacks lacked removed retired dropped deprecated "
    "disabled discontinued sunset sunsetted deleted longer unsupported unavailable missing fails failed "
    "broken blocked stopped shut off anymore gone revoked cancelled canceled expired killed no-longer".split()
)
# CJK cues, matched as substrings (Simplified forms; normalise() maps Traditional ones).
CJK_CUES = (
    "没有", "没", "无法", "无", "不", "未", "非", "别", "停用", "下架", "下线", "移除", "删除", "废弃", "取消",
    "关闭", "失败", "报错", "终止", "停止", "弃用", "撤去", "廃止", "削除", "解约", "解約", "提供终了",
    "终了", "できな", "ない", "なく", "ません", "無効", "无效", "使えな", "エラー",
)
_CJK_CUE = re.compile("|".join(sorted(CJK_CUES, key=len, reverse=True)))
EN_STOP = frozenset(
    "a an the to of for in on at by with and or is are was were be been being do does did has have had it its "
    "this that these those we our us i you they them can could will would should may might must yet still any "
    "now currently also only just as from so then than there here all some more via into about since after "
    "before which who what when where while if but per".split()
)
# Characters that glue CJK content together without being content (Chinese function words; all kana
# but katakana words, read separately).
_CJK_GLUE = frozenset("的了是在也都还已经就把被将和与或及让并且而但却吗呢吧啊很太最这那此其该个些会能可以要")
UNITS = frozenset(
    "ms s sec second seconds min mins minute minutes h hr hrs hour hours d day days week weeks month months "
    "year years kb mb gb tb % percent px x times requests rps qps users seats projects 分 分钟 秒 小时 时 天 日 周 "
    "月 年 次 个 件 人 名 台 倍 时间 万".split()
)
_SCOPE = re.compile(r"\b(?:except|excluding|other than|besides|apart from)\b|以外|除了|除外|之外|を除")
# Words that name an environment, plan, platform or object kind: two records that differ in one of
# them are about different things ("staging" against "production", 免费版 against 专业版).
_QUALIFIER = re.compile(
    r"\b(?:staging|production|prod|dev|development|test|testing|local|ci|free|pro|plus|team|enterprise|"
    r"business|premium|basic|ios|android|web|mobile|desktop|macos|mac|windows|linux|intel|arm|arm64|x86|"
    r"us|eu|apac|beta|stable|nightly|legacy|access|refresh|read|write|public|private|internal|external)\b"
    r"|测试|正式|生产|预发|开发|本番|検証|开発|開発|免费|付费|专业|企业|个人|安卓|网页|桌面|测试环境|国内|海外|内网|外网"
)
_HIRAGANA = re.compile(r"[\u3040-\u309f]")


@dataclass(frozen=True)
class Statement:
    """A sentence of one record, reduced for comparison."""

    sentence: str
    normal: str
    latin: frozenset  # stemmed Latin words, cues and function words left out
    cjk: frozenset  # CJK content characters, cues and glue left out
    values: tuple  # (number, unit) pairs in order; unit "" when none follows
    cued: bool  # a polarity cue word appears (whatever the detector makes of it)
    scoped: bool  # "except", "other than", 「以外」「除了」: the claim is about everything else
    pairs: frozenset  # CJK content characters that stand next to each other, as pairs
    qualifiers: frozenset  # environment, plan, platform words (_QUALIFIER)

    @cached_property
    def verdict(self) -> str:
        return negation.classify(self.sentence)[0]

    @property
    def negative(self) -> bool:
        """A negative statement: the detector's claim, or a cue word in a sentence that is not a
        question or a directive. The detector asks for evidence that a lone sentence is about the
        world; here the other record, which says the same thing plainly, is that evidence."""
        return self.verdict == negation.CLAIM or (self.cued and self.verdict == negation.NONE)

    @property
    def positive(self) -> bool:
        """Plainly positive: no cue word at all, and not a question or a directive."""
        return not self.cued and self.verdict == negation.NONE

    @property
    def content(self) -> frozenset:
        return self.latin | self.cjk

    @property
    def shingles(self) -> frozenset:
        """What two records are compared on for repeats: the Latin words and the CJK character pairs."""
        return self.latin | self.pairs

    @property
    def numbers(self) -> frozenset:
        return frozenset(number for number, _ in self.values)


def _values(words: list[str]) -> tuple[tuple, set]:
    """The (number, unit) pairs of a token list, and the CJK characters their units take."""
    found = []
    unit_chars: set[str] = set()
    for index, word in enumerate(words):
        if not has_digit(word) or is_cjk(word):
            continue
        unit = ""
        after = words[index + 1] if index + 1 < len(words) else ""
        if is_cjk(after):  # 「15 分钟」: the unit is one or two characters
            two = after + (words[index + 2] if index + 2 < len(words) else "")
            unit = two if two in UNITS else after if after in UNITS else ""
            unit_chars.update(unit)
        elif after in UNITS:
            unit = after
        else:
            split = re.fullmatch(r"(\d+(?:\.\d+)?)([a-z%]+)", word)
            if split and split.group(2) in UNITS:
                word, unit = split.group(1), split.group(2)
        found.append((word, unit))
    return tuple(found), unit_chars


def statement(sentence: str) -> Statement:
    normal = normalise(sentence)
    cued = bool(_CJK_CUE.search(normal))
    words = tokens(_CJK_CUE.sub(" ", normal))
    cued = cued or any(w in EN_CUES for w in tokens(normal))
    cjk_words = [is_cjk(w) for w in words]
    latin = frozenset(
        stem(w) for w, cjk in zip(words, cjk_words)
        if not cjk and w not in EN_CUES and w not in EN_STOP and w not in UNITS and not has_digit(w)
    )
    # A unit's characters are part of the amount, not of the content (「15 分钟」 against 「24 小时」).
    values, unit_chars = _values(words)
    kept = [w if cjk and w not in _CJK_GLUE and w not in unit_chars and not _HIRAGANA.match(w) else "" for w, cjk in zip(words, cjk_words)]
    cjk = frozenset(w for w in kept if w)
    pairs = frozenset(a + b for a, b in zip(kept, kept[1:]) if a and b)
    qualifiers = frozenset(_QUALIFIER.findall(normal))
    return Statement(sentence, normal, latin, cjk, values, cued, bool(_SCOPE.search(normal)), pairs, qualifiers)

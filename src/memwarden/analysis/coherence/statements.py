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

import functools
import operator
import re
import unicodedata
from dataclasses import dataclass
from functools import cached_property
from typing import Iterator

from memwarden.analysis import negation
from memwarden.analysis.coherence.normal import CJK_CHAR, has_digit, normalise, stem
from memwarden.patterns import LazyPattern

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
_CJK_CUE = LazyPattern("|".join(sorted(CJK_CUES, key=len, reverse=True)))
_CUE_FIRST = frozenset(cue[0] for cue in CJK_CUES)  # no such character, no need to run the regex
# Removal, retirement and replacement: what a record says when a thing it names is gone.
_EN_GONE = (
    r"removed|retired|sunset|sunsetted|deprecated|dropped|shut down|phased out|switched off|turned off|"
    r"disabled|discontinued|decommissioned|banned|killed|uninstalled|pulled \S+(?: \S+)? out|taken down"
)
_REMOVAL = LazyPattern(
    # English verbs are removals only as a passive ("was retired"), as the first word of a logged
    # action ("2026-06-18 Sunset /v1/export"), or after who did it ("security banned X"): "the
    # deprecated overload" and "pulled in via" are not.
    rf"\b(?:was|were|is|are|been|got|gets|now|since|has|have|had|we|they|team|security|ops)\s+(?:\w+\s+)?(?:{_EN_GONE})\b"
    # "no longer" removes a thing only when the thing itself is out of use ("Redshift is no longer
    # used"); "no longer blocked on Simon", "no longer wired into DI" end a relation, which the plain
    # statement of that same relation contradicts (the negation pass), not every mention of its names.
    rf"|^(?:\d{{4}}-\d{{2}}-\d{{2}}\s+)?(?:{_EN_GONE})\b|\bno longer (?:used|in use|needed|required|available|maintained)\b"
    # CJK removal words say what is gone; "switched to" words (改成, 移行) name what came instead.
    r"|下架|停用|下线|移除|弃用|废弃|结束服务|撤去|廃止|提供终了|外し|解约|解約|削除|回收|关掉|关了|去掉|拿掉|停掉|砍掉|缩容|"
    r"下掉|关闭|退租|やめ|停止"
)
# A name: a word with a capital past its first letter or a digit (GitHub, TiFlash, A800, gpt-4o),
# a capitalised word (Sidekiq), or a path (/v1/export). Read before case folding.
_NAME = LazyPattern(r"(?<![\w/.-])(?:[A-Za-z][\w.+-]*[A-Z0-9][\w.+-]*|[A-Z][\w.+-]+|/[\w/.-]+)")
MAX_VERSIONED = 4
_VERSIONED = LazyPattern(r"(?<![\w.-])([a-z][a-z.+-]*[a-z]) v?(\d+(?:\.\d+){0,2})(?![\w:-]|\.\d)")
_CLAUSE_ENDS = ",;:，；、。：!?！？()（）"
# Words a number after which names one of a series, not a version: "Phase 1" and "Phase 2" are two phases.
_NUMBERED_PARTS = frozenset(
    "phase step stage part fix item round sprint milestone week batch task issue pr chapter section lesson "
    "module wave iteration option case test scenario".split()
)
_DAY = LazyPattern(r"\b(\d{4}-\d{2}-\d{2})\b")
_HEADING = LazyPattern(r"#{1,6}(?:\s|$)")  # a Markdown heading line (sentences come stripped)
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
_SCOPE = LazyPattern(r"\b(?:except|excluding|other than|besides|apart from)\b|以外|除了|除外|之外|を除")
_SCOPE_WORDS = ("except", "excluding", "other than", "besides", "apart from")  # the Latin ones, as text
# Words that name an environment, plan, platform or object kind: two records that differ in one of
# them are about different things ("staging" against "production", 免费版 against 专业版).
_QUALIFIER = LazyPattern(
    r"\b(?:staging|production|prod|dev|development|test|testing|local|ci|free|pro|plus|team|enterprise|"
    r"business|premium|basic|ios|android|web|mobile|desktop|macos|mac|windows|linux|intel|arm|arm64|x86|"
    r"us|eu|apac|beta|stable|nightly|legacy|access|refresh|read|write|public|private|internal|external)\b"
    r"|测试|正式|生产|预发|开发|本番|検証|开発|開発|免费|付费|专业|企业|个人|安卓|网页|桌面|测试环境|国内|海外|内网|外网"
)
_QUALIFIER_WORDS = frozenset(_QUALIFIER.pattern.split(r"\b")[1][3:-1].split("|"))  # its Latin words
_WORD = LazyPattern(r"\w+")
_JOINS = LazyPattern(r"[.:+#'/-]")  # what joins the runs of one Latin word (_LATIN)


@dataclass(frozen=True)
class Statement:
    """A sentence of one record, reduced for comparison."""

    sentence: str
    normal: str
    latin: frozenset  # stemmed Latin words, cues and function words left out
    cjk: frozenset  # CJK content characters, cues and glue left out
    pairs: frozenset  # CJK content characters that stand next to each other, as pairs
    cued: bool  # a polarity cue word appears (whatever the detector makes of it)
    stripped: str  # the normal form with CJK cue words blanked out

    # The rest is read when a pair of statements gets that far: most statements are never asked.
    @cached_property
    def values(self) -> tuple:
        """(number, unit) pairs in order; unit "" when none follows."""
        return _values(self.stripped)[0]

    @cached_property
    def scoped(self) -> bool:
        """"except", "other than", 「以外」「除了」: the claim is about everything else."""
        if self.normal.isascii() and not any(word in self.normal for word in _SCOPE_WORDS):
            return False
        return _SCOPE.search(self.normal) is not None

    @cached_property
    def qualifiers(self) -> frozenset:
        """Environment, plan and platform words (_QUALIFIER)."""
        if self.normal.isascii():
            # each Latin word of the pattern matches only a whole word (\b on both sides): the same set
            return frozenset(_WORD.findall(self.normal)) & _QUALIFIER_WORDS
        return frozenset(_QUALIFIER.findall(self.normal))

    @cached_property
    def names(self) -> frozenset:
        """Product and thing names, case folded (_NAME), a sentence's capitalised first word included."""
        return _names(self.sentence, True)

    @cached_property
    def inner_names(self) -> frozenset:
        """The names not read from a sentence's first word, which any sentence capitalises."""
        return _names(self.sentence, False)

    @cached_property
    def lead(self) -> str:
        """The first name of the sentence, case folded ("" when none): what a short setting is about."""
        for found in _NAME.finditer(unicodedata.normalize("NFKC", self.sentence)):
            name = found.group().casefold().rstrip(".")
            if name not in EN_STOP:
                return name
        return ""

    @cached_property
    def versioned(self) -> tuple:
        """(name, version, the content words before it) for each name followed by a version number
        ("node 20", "python 3.11"), in order."""
        found = []
        for match in _VERSIONED.finditer(self.normal):
            if len(found) == MAX_VERSIONED:
                break  # a sentence naming more is a list, not a setting; and each costs a pass over the text
            if match.group(1) not in self.names or match.group(1) in EN_STOP or match.group(1) in _NUMBERED_PARTS:
                continue  # "at 2", "runs 3": no version of a thing; "Phase 2", "Fix 5": a numbered part, another one
            before = frozenset(map(stem, _LATIN.findall(self.normal, 0, match.start()))) - EN_STOP - EN_CUES
            found.append((match.group(1), match.group(2), before))
        return tuple(found)

    @cached_property
    def removal(self) -> bool:
        """Whether it says that something was removed, retired or replaced."""
        return _REMOVAL.search(self.normal) is not None

    @cached_property
    def removed_clause(self) -> str:
        """The clause that says what was removed (between the delimiters around the first removal word)."""
        found = _REMOVAL.search(self.normal)
        if found is None:
            return ""
        start = max((self.normal.rfind(c, 0, found.start()) for c in _CLAUSE_ENDS), default=-1) + 1
        ends = [i for i in (self.normal.find(c, found.end()) for c in _CLAUSE_ENDS) if i != -1]
        return self.normal[start : min(ends, default=len(self.normal))]

    @cached_property
    def day(self) -> str:
        """The first ISO date the text carries, "" when none."""
        found = _DAY.search(self.normal)
        return found.group(0) if found else ""

    @property
    def heading(self) -> bool:
        """A label: a Markdown heading ("## Phase 1: setup") or a line that ends in a colon ("- ACP / Codex：",
        "**Executive 1 — Completed:**"). It names what follows; it claims nothing."""
        return self.sentence.rstrip(" *_").endswith((":", "：")) or _HEADING.match(self.sentence) is not None

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

    @cached_property
    def numbers(self) -> frozenset:
        return frozenset(number for number, _ in self.values)

    @cached_property
    def dates(self) -> frozenset:
        """The numbers that are ISO dates or timestamps."""
        return frozenset(number for number in self.numbers if _DAY.match(number))


# A sentence ends at 。！？, at . ! ? ; before a space or the end, or at a line break: one regex pass
# (the negation detector's splitter also knows abbreviations, at several times the cost, and a
# comparison of two sentences' content does not need them). "5.7", "Fly.io" and "a.b/c" stay whole.
_SENTENCE = LazyPattern(r"(?:[^\n。！？!?.;；]|[.!?;](?![\s]|\Z))+[。！？!?.;；]*")


def sentences(text: str) -> Iterator[tuple[str, int]]:
    """(sentence, offset) for each sentence of a text, stripped, empty ones left out."""
    for match in _SENTENCE.finditer(text):
        sentence = match.group().strip()
        if sentence:
            yield sentence, match.start()


_LATIN = LazyPattern(r"[a-z0-9_]+(?:[.:+#'/-][a-z0-9_]+)*")
_NUMBER = LazyPattern(r"(?<![a-z0-9_])[a-z0-9_]*\d[a-z0-9_]*(?:[.:+#'/-][a-z0-9_]+)*")
_AFTER = LazyPattern(rf" ?([a-z%]+|[{CJK_CHAR}]{{1,2}})")
_SPLIT_UNIT = LazyPattern(r"(\d+(?:\.\d+)?)([a-z%]+)")
_CJK_RUN = LazyPattern(rf"[{CJK_CHAR}ー]+")
_DIGIT_CJK = LazyPattern(rf"\d ?[{CJK_CHAR}]")  # a number with a CJK unit after it
# Glue characters and hiragana (grammar, not content) become breaks in a CJK run; katakana words stay.
_BREAK_CHARS = "".join(sorted(_CJK_GLUE)) + "".join(chr(c) for c in range(0x3040, 0x30A0))
_BREAKS = LazyPattern(f"[{_BREAK_CHARS}]")  # each becomes a space: one regex pass, not a lookup per character


@functools.lru_cache(maxsize=256)
def _breaks_with(unit_chars: frozenset) -> re.Pattern:
    """The breaks, and the CJK characters of a record's units."""
    return re.compile("[" + _BREAK_CHARS + "".join(re.escape(c) for c in sorted(unit_chars)) + "]")


_DIGIT_AT = LazyPattern(r"\d")
_RUN = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")


def _numbers(text: str) -> Iterator[re.Match]:
    """What ``_NUMBER.finditer(text)`` finds, tried only where a digit is: a match starts where the run
    of [a-z0-9_] holding its first digit starts, so the regex need not be tried at every position."""
    at = 0
    while True:
        digit = _DIGIT_AT.search(text, at)
        if digit is None:
            return
        start = digit.start()
        while start > at and text[start - 1] in _RUN:
            start -= 1
        match = _NUMBER.match(text, start)
        if match is None:
            at = digit.end()
            continue
        yield match
        at = match.end()


def _values(text: str) -> tuple[tuple, set]:
    """The (number, unit) pairs of a normalised text, and the CJK characters their units take."""
    if not has_digit(text):
        return (), set()
    found = []
    unit_chars: set[str] = set()
    for match in _numbers(text):
        word, unit = match.group(), ""
        after = _AFTER.match(text, match.end())
        if after is not None:
            following = after.group(1)
            if following in UNITS:
                unit = following
            elif following[:1] in UNITS and not following.isascii():
                unit = following[:1]
            if unit and not unit.isascii():
                unit_chars.update(unit)
        if not unit:
            split = _SPLIT_UNIT.fullmatch(word)
            if split and split.group(2) in UNITS:
                word, unit = split.group(1), split.group(2)
        found.append((word, unit))
    return tuple(found), unit_chars


_NONE: frozenset = frozenset()


def statement(sentence: str, normal: str | None = None) -> Statement:
    """The sentence (or a whole record's text) reduced; `normal` is its normalise(), when known."""
    if normal is None:
        normal = normalise(sentence)
    ascii_only = normal.isascii()  # no CJK cue, character or unit: the CJK half is empty
    cued = not ascii_only and not _CUE_FIRST.isdisjoint(normal) and _CJK_CUE.search(normal) is not None
    stripped = _CJK_CUE.sub(" ", normal) if cued else normal
    words = set(_LATIN.findall(normal))  # a CJK cue never touches a Latin word
    if ascii_only:
        qualifiers = words & _QUALIFIER_WORDS  # \w runs are the words, or the parts of joined ones
        for word in words:
            if not word.isalnum() and word not in _QUALIFIER_WORDS:
                qualifiers.update(part for part in _JOINS.split(word) if part in _QUALIFIER_WORDS)
    cued = cued or not words.isdisjoint(EN_CUES)
    words -= EN_CUES
    words -= EN_STOP
    words -= UNITS
    latin = frozenset(map(stem, [w for w in words if w.isalpha() or not has_digit(w)]))
    if ascii_only:
        said = Statement(sentence, normal, latin, _NONE, _NONE, cued, stripped)
        object.__setattr__(said, "qualifiers", frozenset(qualifiers))  # the cached property, filled in
        return said
    # A unit's characters are part of the amount, not of the content (「15 分钟」 against 「24 小时」).
    unit_chars = _values(stripped)[1] if _DIGIT_CJK.search(stripped) else ()
    breaks = _BREAKS if not unit_chars else _breaks_with(frozenset(unit_chars))
    pieces = _CJK_RUN.findall(breaks.sub(" ", stripped))
    pairs: set[str] = set()
    for piece in pieces:
        pairs.update(map(operator.add, piece, piece[1:]))  # each character with the next
    return Statement(sentence, normal, latin, frozenset("".join(pieces)), frozenset(pairs), cued, stripped)


def _names(text: str, first: bool) -> frozenset:
    found = set()
    for match in _NAME.finditer(unicodedata.normalize("NFKC", text)):
        word = match.group()
        if not first and match.start() == 0 and word[1:].islower():
            continue  # a sentence's first word, capitalised because it comes first
        found.add(word.casefold().rstrip("."))
    return frozenset(found) - EN_STOP

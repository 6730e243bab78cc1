"""Russian: which negative words make a claim (issue 29: a third of the missed claims of batch 7 were Russian).

Read narrowly, as the other languages began: a claim is a present-tense capability, availability or
existence predicate under не/нет («Booking не работает с сервера», «транскрипты не вытаскиваются»,
«Tauri 2.x не даёт overlay-icon API», «ffmpeg drawtext недоступен», «нет публичного API»), or a block said
without a negative word («WAF блокирует серверные запросы», «Claude API заблокирован в стране»), said of
something outside the project: a word in Latin script (a product, a tool, a domain, a version) or a
well-known Russian service name. A past event («не работал», «не удалось»), the owner's own setup
(«не установлен», «не настроен»: ``own_setup.py``), a directive («не надо», «никогда не», «нельзя»),
a condition («если … не работает»), a guess («возможно») and the speaker as subject («я не могу», «у нас
нет доступа») are not claims.
"""

from __future__ import annotations

import re

from memwarden.analysis.negation.common import CLAIM, DIRECTIVE, NONE
from memwarden.patterns import LazyPattern

_WORD_START = r"(?<![а-яёА-ЯЁ\w])"
_WORD_END = r"(?![а-яёА-ЯЁ\w])"

# Present-tense verbs (third person) and short adjectives of capability, availability and existence.
_RU_PREDICATES = (
    r"работа(?:ет|ют)|поддержива(?:ет|ют)(?:ся)?|доход(?:ит|ят)|парс(?:ит|ят)(?:ся)?|открыва(?:ет|ют)(?:ся)?|"
    r"(?:за)?гру(?:жа(?:ет|ют)|з(?:ит|ят))(?:ся)?|вытаскива(?:ет|ют)(?:ся)?|отвеча(?:ет|ют)|позволя(?:ет|ют)|"
    r"уме(?:ет|ют)|мо(?:жет|гут)|существу(?:ет|ют)|вид(?:ит|ят)|пуска(?:ет|ют)|принима(?:ет|ют)|(?:от)?да(?:ёт|ет|ют)|"
    r"возвраща(?:ет|ют)|подключа(?:ет|ют)(?:ся)?|запуска(?:ет|ют)(?:ся)?|получа(?:ет|ют)|срабатыва(?:ет|ют)|"
    r"наход(?:ит|ят)|выполня(?:ет|ют)(?:ся)?|содерж(?:ит|ат)|доступ(?:ен|на|но|ны)|совместим[аоы]?|"
    r"найден[аоы]?|раскрыва(?:ет|ют)(?:ся)?|индексиру(?:ет|ют)(?:ся)?|отправля(?:ет|ют)(?:ся)?"
)
_RU_NEGATED = (
    rf"{_WORD_START}не\s+(?:(?:всегда|везде|полностью|напрямую|больше|до\s+конца|умеет|может)\s+)?"
    rf"(?:{_RU_PREDICATES}){_WORD_END}"
    rf"|{_WORD_START}(?:недоступ(?:ен|на|но|ны)|несовместим[аоы]?){_WORD_END}"
    rf"|{_WORD_START}нет\s+(?:(?:публичн|официальн|прям|нормальн|никак)[а-яё]*\s+)?"
    r"(?:доступа|поддержки|возможности|способа|информации|[A-Za-z][\w.-]*)"
    rf"|{_WORD_START}ничего\s+не\s+(?:найдено|нашлось|нашёл|нашел|находит){_WORD_END}"
)
_RU_BLOCKED = rf"{_WORD_START}(?:за)?блокир(?:ует|уют|ован[аоы]?|уется|уются){_WORD_END}|{_WORD_START}бан(?:ит|ят){_WORD_END}"
RU_CUE = LazyPattern(f"{_RU_NEGATED}|{_RU_BLOCKED}", re.I)

_RU_DIRECTIVE = LazyPattern(
    rf"{_WORD_START}(?:нельзя|не\s+надо|не\s+нужно|не\s+стоит|никогда\s+не|запрещено|не\s+забу\w*|"
    rf"не\s+(?:используй|делай|трогай|запускай|удаляй|меняй|ставь|пиши)\w*){_WORD_END}",
    re.I,
)
_RU_CONDITION = LazyPattern(rf"{_WORD_START}(?:если|когда|пока|в\s+случае|иначе){_WORD_END}", re.I)
_RU_HEDGE = LazyPattern(rf"{_WORD_START}(?:возможно|может\s+быть|наверное|кажется|вероятно){_WORD_END}", re.I)
# A past copula before the predicate tells what held then: «gateway был недоступен».
_RU_PAST = LazyPattern(rf"{_WORD_START}(?:был|была|было|были){_WORD_END}", re.I)
_RU_SELF = LazyPattern(rf"{_WORD_START}(?:я|мы|у\s+меня|у\s+нас|мой|моя|мои|моё|наш[а-яё]*){_WORD_END}", re.I)
# Something outside the project: a word in Latin script ("Booking.com", "WAF", "Tauri 2.x"), a version,
# or a Russian-written service name. Inline code is replaced by the placeholder CODE and is no name.
_RU_NAMES = LazyPattern(
    r"(?<![\w])(?!CODE\b)[A-Za-z][A-Za-z0-9+#]*(?:[.-][A-Za-z0-9]+)*|\d+(?:\.\d+)+"
    rf"|{_WORD_START}(?:яндекс|гугл|телеграм|вконтакте|сбер|2гис|авито|озон)[а-яё]*",
    re.I,
)
_CLAUSE_BREAK = LazyPattern(r"[;:—–(]|,\s|\.\s")
WINDOW = 60


def ru_claims(text: str):
    """(start, cue, verdict) for each negative or blocking word of a Russian sentence."""
    directive = _RU_DIRECTIVE.search(text) is not None
    hedged = _RU_HEDGE.search(text) is not None
    named = _RU_NAMES.search(text) is not None
    for match in RU_CUE.finditer(text):
        start, cue = match.start(), match.group()
        yield start, cue, _ru_verdict(text, start, cue, directive, hedged, named)


def _ru_verdict(text: str, start: int, cue: str, directive: bool, hedged: bool, named: bool) -> str:
    if directive:
        return DIRECTIVE
    searched_empty = cue.lower().startswith("ничего")
    if hedged or not (named or searched_empty):
        return NONE
    before = text[max(0, start - WINDOW) : start]
    breaks = list(_CLAUSE_BREAK.finditer(before))
    clause = before[breaks[-1].end() :] if breaks else before
    if _RU_CONDITION.search(clause) or _RU_PAST.search(clause) or (_RU_SELF.search(clause) and not searched_empty):
        return NONE  # «если … не работает», «был недоступен», «у нас нет доступа»: a case, the past, the speaker
    return CLAIM


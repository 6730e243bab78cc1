"""Japanese: which negative words make a claim."""

from __future__ import annotations


from memwarden.analysis.negation.common import CJK, CLAIM, DIRECTIVE, NONE, Sentence, strip_end
from memwarden.analysis.negation.cjk_evidence import ja_evidence
from memwarden.patterns import LazyPattern

# -- Japanese ---------------------------------------------------------------

JA_CUE = LazyPattern(
    r"ない|無い|なかっ|ません|なくなっ|なくて|不可|不明|非対応|未対応|未実装|未サポート|未確認|未定義|なし|無し|無理|ず"
)
_JA_DIRECTIVE_END = LazyPattern(
    r"(?:ないで(?:ください|下さい|ほしい|くれ|ね)?|こと|ように(?:してください|しましょう|する)?|てはいけない|てはいけません"
    r"|てはならない|てはなりません|ちゃいけない|じゃいけない|べきではない|べきでない|べきではありません|禁止|厳禁|してください"
    r"|ください|下さい|なさい|するな|しましょう)$"
)
# 「設定は勝手に変えない。」: a plain ない after an adverb of licence is a house rule, not a fact.
_JA_RULE_ADVERB = LazyPattern(
    r"(?:勝手に|無断で|絶対に|むやみに|安易に)[^、。]{0,12}(?:ない|しない)$"
    # 「本番 DB には直接つながない」: 直接 with a plain negative is a rule; a potential (できない, 使えない) stays a fact
    r"|直接[^、。]{0,8}(?<![れえけせてきめ])ない$")
JA_QUESTION_END = LazyPattern(r"(?:か|かな|かね|かい|でしょうか|のでは|では)$")
_JA_NOT_AFTER = ("ことは", "ことも", "少", "危", "幼", "汚", "違い", "もったい", "つまら", "仕方", "仕方が", "構わ", "問題", "問題は", "問題が",
                 "間違い", "悪く", "なくは", "なくも", "わけでは", "わけじゃ", "限ら", "かもしれ", "だけで", "のみで", "切れ", "たまら", "くだら", "さりげ", "何気", "はか")
_JA_DIRECTIVE_BEFORE = LazyPattern(r"(?:ては|では|ちゃ|じゃ|ければ|くては|いと|なきゃ|なくちゃ)(?:いけ|なら|なり|だめ)$|べきで(?:は)?$")
# After the negation: a condition (場合, なら, ければ), "without" (ずに is not here: it is asserted), or an
# embedded question (落ちていないか確認した).
_JA_CONDITION_AFTER = ("ければ", "くても", "くたって", "と", "場合", "なら", "時", "とき", "限り", "うちに", "たら", "たとき",
                       "た場合", "か")
_JA_DIRECTIVE_AFTER = ("でください", "で下さい", "でほしい", "でくれ", "こと", "ように", "ようにし", "ほうが", "方が")
_JA_CAUSAL_AFTER = ("ので", "から", "ため", "為", "けど", "けれど", "が、", "し、")
_JA_PREDICATE_NOUNS = ("状態", "様子", "模様", "ため", "為", "まま", "はず", "よう", "ようだ", "みたい", "らしい", "そう")
_HIRAGANA = LazyPattern(r"[\u3041-\u309f]")


# Real prose (issue #19): a post-mortem (「回さずに push してしまった」), where things are kept by policy
# (「このリポジトリには置かれておらず」), a judgement (「あまり使いやすくない」「思ったほど大変ではなかった」).
_JA_NARRATIVE = LazyPattern(r"てしまっ|でしまっ|ちゃっ|じゃっ|てしまい|でしまい|冷や汗|後から修正|あとから修正")
_JA_STORAGE_BEFORE = LazyPattern(r"(?:置か|置い|保存|保管|格納|コミット)[^、。]{0,6}$")
_JA_JUDGEMENT_BEFORE = LazyPattern(r"(?:やすく|にくく|とは言え|とはいえ|少なく|珍しく|良く|よく)$")


def ja_claims(text: str):
    sentence = Sentence(text)
    core = strip_end(text)
    directive_sentence = bool(_JA_DIRECTIVE_END.search(core)) or bool(_JA_RULE_ADVERB.search(core))
    narrative = _JA_NARRATIVE.search(text) is not None
    for match in JA_CUE.finditer(text):
        cue, start, end = match.group(), match.start(), match.end()
        verdict = _ja_verdict(text, sentence, cue, start, end)
        if verdict == CLAIM:
            before = text[max(0, start - 12) : start]
            clause = sentence.before(start)
            if narrative or (cue == "ず" and text.startswith("に", end)):
                verdict = NONE  # a post-mortem, or 「〜せずに」: what was done without
            elif _JA_STORAGE_BEFORE.search(before) or _JA_JUDGEMENT_BEFORE.search(before):
                verdict = NONE
            elif "あまり" in clause or "ほど" in clause:
                verdict = NONE  # 「あまり〜ない」「思ったほど〜ない」: a judgement of degree
            elif cue == "なくて" and text.startswith(("よい", "いい", "良い"), end):
                verdict = DIRECTIVE  # 「回さなくてよい」: a permission
        if verdict == CLAIM and directive_sentence:
            # In "…削除せず、アーカイブすること" the negation is part of the instruction; a reason
            # ("対応していないので、…してください") is still a claim.
            causal = any(text.startswith(word, end) or text.startswith(word, end + 1) for word in _JA_CAUSAL_AFTER)
            if not causal:
                verdict = DIRECTIVE
        if verdict == CLAIM and not ja_evidence(text, cue, start, end, sentence.clause_start(start)):
            verdict = NONE  # no capability predicate, or nothing outside the project it is said of
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
    if cue in ("ない", "無い") and after.startswith(("わけでは", "わけじゃ", "ことはない", "こともない")):
        return NONE  # 「ないわけではない」: a double negative asserts
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
    if cue in ("ない", "無い", "なかっ") and after and (CJK.match(after[0]) or after[0].isalnum()) and not _HIRAGANA.match(after[0]):
        if not any(after.startswith(noun) for noun in _JA_PREDICATE_NOUNS):
            return NONE  # 対応していないブラウザ, タグのない記録: describes a noun
    return CLAIM



"""Families of predicates, by meaning, in each language: the learned scorer's named signals (issue #14, round 3).

The rules ask for a cue, a predicate, a name and a subject that is not the project before they
call a sentence a claim, so each new phrasing of "gone", "limited" or "blocked" needed its own
words. These families are broad on purpose: a word of removal, end of life, expiry, a limit, a
block, a failure, an empty result, something lacking, nobody, not yet, used up, too old or a
paid plan, with their passive, potential and perfective forms (了/過/済み/された/切れ). They decide
nothing alone; they are features the learned scorer (``analysis/learned.py``) weighs beside
the n-grams and the rules' verdict, and the finding names the families that fired.

Every pattern is a flat alternation (no nested quantifiers), so a long line costs linear time.
"""

from __future__ import annotations

import re

from memwarden.patterns import LazyPattern

# family: (English, Chinese in both scripts, Japanese)
_FAMILIES: dict[str, tuple[str, str, str]] = {
    "removal": (
        r"\b(?:removed|deleted|dropped|discontinued|retired|sunset|sunsetted|shut down|shutdown|decommissioned|"
        r"pulled|withdrawn|killed|taken down|gone|delisted|disabled|turned off|no longer|stopped \w+ing)\b",
        r"移除|刪除|删除|下架|取消了|停用|撤下|拿掉|砍掉|關掉了|关掉了|關閉了|关闭了|不再|停止提供|停止受理|沒了|没了|拿走",
        r"削除|廃止|撤去|提供終了|打ち切|無効化|無効に|停止され|なくなっ|無くなっ|消え|外され|取り下げ|終了し",
    ),
    "end-of-life": (
        r"\b(?:end of life|end-of-life|eol|past end|stopped receiving|unmaintained|archived|deprecated|"
        r"abandoned|no longer maintained|out of support|unsupported)\b",
        r"停更|停止維護|停止维护|終止服務|终止服务|不再維護|不再维护|棄用|弃用|淘汰|停止支援|停止支持|停止更新|"
        r"已封存|歸檔|归档|不維護|不维护|停產|停产",
        r"サポート切れ|サポート終了|非推奨|メンテされていない|更新停止|更新が止ま|開発終了|アーカイブ|EOL|廃止予定",
    ),
    "expired": (
        r"\b(?:expired|expires|lapsed|revoked|invalidated|outdated credentials)\b",
        r"過期|过期|失效|到期|被撤銷|被撤销|吊銷|吊销",
        r"期限切れ|失効|切れて|切れた|有効期限|無効になっ",
    ),
    "limit": (
        r"\b(?:at most|up to|max|maximum|limit|limits|limited|capped|caps|cap|quota|no more than|tops out|"
        r"throttled|rate-limited|allowed only|per day|per month|per call)\b",
        r"上限|最多|最大|限制|限額|限额|額度|额度|封頂|封顶|不超過|不超过|至多|配額|配额|限流",
        r"上限|最大|制限|まで|クォータ|枠|以内|超えられ|スロットリング",
    ),
    "only": (
        r"\b(?:only|solely|exclusively)\b",
        r"只能|只有|只支援|只支持|只保留|只讀|只读|僅|仅|唯一|單一|单一",
        r"だけ|しか|のみ|限ら",
    ),
    "too-old": (
        r"\b(?:too old|too new|outdated|obsolete|too low|older than|below the minimum|needs? \S+ or later)\b",
        r"太老|太舊|太旧|過舊|过旧|過低|过低|版本太|不夠新|不够新|以上才|以上的版本",
        r"古すぎ|古い|低すぎ|以降が必須|以上が必須|以降が必要|以上が必要",
    ),
    "paid-plan": (
        r"\b(?:requires? the|paid|enterprise|premium|pro plan|business plan|upgrade|tier|plan only|trial)\b",
        r"付費|付费|企業版|企业版|專業版|专业版|升級|升级|方案|套餐|免費版|免费版|試用|试用|才有|才行|開通|开通",
        r"有料|プラン|エンタープライズ|上位|コース以上|アップグレード|無料枠|トライアル",
    ),
    "block": (
        r"\b(?:blocked|blocks|block|denied|deny|forbidden|rejected|refused|banned|firewalled|filtered|"
        r"blacklisted|blocklisted|prohibited|restricted|locked out)\b",
        r"封禁|封鎖|封锁|擋|挡|攔截|拦截|禁止|拒絕|拒绝|不允許|不允许|被封|鎖住|锁住|限制存取|阻擋|阻挡",
        r"遮断|ブロック|拒否|弾か|禁止|許可されていない|塞が|封鎖|制限され",
    ),
    "broken": (
        r"\b(?:broken|fails|failing|failed|crash|crashes|crashing|won't|wont|hangs|(?:is|are|was|went|goes) down|errors out|"
        r"times out|doesn't boot|unusable|corrupt|corrupted|offline|went dark|unreachable|unresponsive)\b",
        r"掛掉|挂掉|壞|坏|報錯|报错|失敗|失败|崩潰|崩溃|當掉|宕机|宕機|跑不起來|跑不起来|起不來|起不来|連不上|连不上",
        r"落ちる|落ちて|壊れ|動かない|起動しない|失敗|エラーにな|使えない|繋がらない|つながらない|応答しない",
    ),
    "empty": (
        r"\b(?:empty|zero|0 results|no results|nothing|blank|no rows|no hits|returns \[\])\b",
        r"為零|为零|零筆|零笔|零條|零条|空的|為空|为空|清空|查無|查无|沒有結果|没有结果|0 筆|0 条",
        r"0 ?件|ゼロ|空っぽ|空に|空で|見つからない|ヒットしない|出てこない",
    ),
    "lacks": (
        r"\b(?:lacks|lack|lacking|absent|missing|no|not|none|never|cannot|can't|doesn't|isn't|aren't|"
        r"don't|didn't|wasn't|hasn't|haven't)\b",
        r"缺|沒有|没有|不|沒|没",  # not 未/非/無 alone: 「未登入的」「非管理員」「無頭」 are noun phrases
        r"ない|なし|無し|欠け|欠如|ず[。、]|ません",
    ),
    "nobody": (
        r"\b(?:nobody|no one|none of|neither|nor|no longer any)\b",
        r"沒人|没人|沒有人|没有人|都沒|都没|都不|誰都|谁都",
        r"誰も|いない|一人も|どれも|どちらも",
    ),
    "not-yet": (
        r"\b(?:yet to|not yet|still no|still waiting)\b",
        r"尚未|還沒|还没|還未|还未|仍未|至今未",
        r"まだ|未だ|いまだ",
    ),
    "used-up": (
        r"\b(?:ran out|run out|used up|exhausted|hit the limit|hit the cap|reached the|maxed out|is full|are full|out of)\b",
        r"用完|用光|耗盡|耗尽|打滿|打满|已達|已达|爆了|滿了|满了|超額|超额|不足|不夠|不够",
        r"使い切|枯渇|達し|上限に|いっぱい|足りない|不足|溢れ",
    ),
    "permission": (
        r"\b(?:access|permission|permissions|role|read-only|read only|admin|scope|write access)\b",
        r"權限|权限|唯讀|只读|存取|訪問|访问|管理員|管理员|帳號|账号",
        r"権限|読み取り専用|アクセス|ロール|管理者",
    ),
    "directive": (
        r"^(?:never|always|don't|do not|avoid|please|make sure|use|run|keep)\b|\b(?:must|should|need to|has to)\b",
        r"^(?:不要|別|别|請勿|请勿|切勿|禁止|務必|务必|一定要|記得|记得|請|请)|必須|必须|應該|应该",
        r"こと[。]?$|てください|しないで|べき|禁止|必ず",
    ),
    "hedge": (
        r"\b(?:not sure|unsure|maybe|might|possibly|perhaps|unclear|wonder|whether|to check|tbd)\b",
        r"不確定|不确定|可能|也許|也许|待確認|待确认|要確認|要确认|是不是|好像",
        r"かもしれ|わからない|分からない|要確認|確認中|らしい|未確認|かどうか",
    ),
    "todo": (
        r"^(?:todo|to-do|pending|wip|next|later|idea|ideas|plan|future|maybe)\b|\[[ x]\]",
        r"^(?:待辦|待办|計畫|计划|之後|之后|以後|以后)|\[[ x]\]",
        r"^(?:TODO|やること|予定|今後)|\[[ x]\]",
    ),
    "self": (
        r"^(?:we|i|you|our|my|us|this project|this repo|the project|the team)\b",
        r"^(?:我們|我们|我|你|本專案|本项目|這個專案|这个项目|團隊|团队)",
        r"^(?:私たち|我々|僕|私|このプロジェクト|うちの|チーム)",
    ),
    "narrative": (
        r"\b(?:we|i) (?:moved|migrated|switched|changed|added|refactored|renamed|fixed)\b|\b(?:today|yesterday|session)\b",
        r"工作紀錄|工作记录|今天|昨天|我們把|我们把|我把|搬到|遷到|迁到|改成了",
        r"作業ログ|今日|昨日|移行した|に移した|変更した",
    ),
}

# The same for index triggers: what marks a symptom (the moment: about to act, a screen or a
# quoted error, a number seen, puzzlement, an inference) and what marks a cause (a past
# post-mortem with a doer, a mechanism, a general question, a rule).
_TRIGGER_FAMILIES: dict[str, tuple[str, str, str]] = {
    "about-to-act": (
        r"^(?:\w+ing|about to|going to|gonna|let me|i'll|i will|trying to|planning to)\b|\babout to\b",
        r"準備|准备|想把|打算|要把|乾脆|干脆|先把|正要|這就|这就|直接|順手|顺手",
        r"ところ|しよう|しておこう|するつもり|とりあえず|このまま|今から|してしまおう",
    ),
    "observation": (
        r"\b(?:shows?|showing|says|said|returns?|returned|printed|spiked|dropped|stuck|keeps?|since|after the|"
        r"right after|every time|each time|for an hour|still|again)\b|\b\d+(?:ms|s|%)?\b",
        r"顯示|显示|回傳|返回|出現|出现|一直|每次|立刻|突然|從.{0,8}開始|从.{0,8}开始|還是|还是|又|都是|看到|卡在|跳出",
        r"と出る|と表示|を返す|を繰り返す|ずっと|毎回|急に|のまま|になっている|が出る|出た|表示され|止まった",
    ),
    "quoted-error": (
        r"[\"'`][^\"'`]{2,60}[\"'`]|\b[A-Z][A-Z0-9_]{4,}\b|\b(?:error|exception|denied|not found|timeout|\d{3})\b",
        r"[「『\"'`][^」』\"'`]{2,40}[」』\"'`]|\b[A-Z][A-Z0-9_]{4,}\b|報錯|报错|錯誤|错误|\b\d{3}\b",
        r"[「『\"'`][^」』\"'`]{2,40}[」』\"'`]|\b[A-Z][A-Z0-9_]{4,}\b|エラー|と出る|\b\d{3}\b|denied|named",
    ),
    "puzzled": (
        r"\bwhy\b|\bhow come\b|\bbut not\b|\bonly on\b|\bworks? (?:locally|here)\b",
        r"為什麼|为什么|怎麼會|怎么会|明明|卻|却|只有.{0,12}才",
        r"なぜ|なんで|どうして|のに|だけ",
    ),
    "inference": (
        r"\b(?:so|should be|must be|probably|looks|seems|means|guess|fine|safe|done|ok|okay|ship it)\b",
        r"應該|应该|所以|看起來|看起来|代表|就是|沒問題|没问题|可以了|好了|大概",
        r"はず|だろう|ので|から大丈夫|大丈夫|問題ない|みたい|らしい|OK",
    ),
    "belief": (
        r"\b(?:i remember|i think|i thought|i believe|i recall|last time|as far as i know)\b",
        r"我記得|我记得|我以為|我以为|印象中|上次|之前好像",
        r"覚えている|記憶では|前回|確か|と思う|思っていた",
    ),
    "post-mortem": (
        r"\b(?:\w+ed|was|were|had|never|didn't|wasn't|because|due to|caused|led to|turned out)\b.*\b(?:\w+ed|was|were|had)\b|"
        r"\b(?:because|due to|caused by|root cause|turned out|the fix)\b",
        r"了$|導致|导致|因為|因为|原來|原来|結果|结果|被.{1,12}了|把.{1,20}了|沒.{1,8}[就卻却]|忘了|漂移|耗盡|耗尽",
        r"た$|ていなかった|なかった|てしまった|せいで|ため|原因|ずれた|忘れ|枯渇|切り詰め|使い回し",
    ),
    "mechanism": (
        r"\b(?:always|whenever|once|until|unless|by default|any|every|all)\b|\b(?:gets?|is|are) (?:killed|evicted|dropped|cached|reused)\b",
        r"就會|就会|會被|会被|一直用|預設|默认|默認|所有|任何|之前|前都|時仍|时仍|超過|超过",
        r"と.{0,10}(?:される|する|なる)$|ば|までは|デフォルト|常に|すべて|全て|超えると",
    ),
    "general-question": (
        r"^(?:can|is|are|does|do|should|will)\b.*\?$|\b(?:trusted|reliable|enough)\b",
        r"會不會|会不会|可以相信|可信|可靠|算不算|能不能|是否",
        r"のか[？?]?$|と言える|信用|信頼でき|本当に",
    ),
    "rule": (
        r"^(?:never|always|don't|do not|avoid|check|verify|make sure|prefer)\b|\b(?:must|should always)\b",
        r"^(?:不要|別|别|永遠|永远|一定|務必|务必|禁止|先確認|先确认|記得|记得)",
        r"しないこと|すること|べき|必ず|禁止|ないこと$",
    ),
    "topic": (
        r"^[\w ./-]{1,30}$|^\W",
        r"問題$|问题$|^[^\s，。]{2,8}$|^\W",
        r"問題$|について$|^[^\s、。]{2,8}$|^\W",
    ),
}


def _compile(table: dict[str, tuple[str, str, str]]) -> dict[str, list[tuple[str, LazyPattern]]]:
    return {
        language: [(name, LazyPattern(patterns[i], re.I)) for name, patterns in table.items()]
        for i, language in enumerate(("en", "zh", "ja"))
    }


_COMPILED = _compile(_FAMILIES)
_TRIGGER_COMPILED = _compile(_TRIGGER_FAMILIES)


def trigger_families(text: str, language: str) -> list[str]:
    """The trigger families whose marks occur in a trigger ("en", "zh" or "ja")."""
    return [name for name, pattern in _TRIGGER_COMPILED.get(language, ()) if pattern.search(text)]


def family_words(sentence: str, language: str) -> dict[str, str]:
    """family -> the first words of it in a sentence ("en", "zh" or "ja"), in a fixed order."""
    found: dict[str, str] = {}
    for table in (_COMPILED.get(language, []), _COMPILED["en"] if language != "en" else []):
        for name, pattern in table:  # English words inside a Chinese or Japanese sentence: "憑證 expired 了"
            match = None if name in found else pattern.search(sentence)
            if match:
                found[name] = match.group()
    return found


def families(sentence: str, language: str) -> list[str]:
    """The families whose words occur in a sentence, in a fixed order."""
    return list(family_words(sentence, language))

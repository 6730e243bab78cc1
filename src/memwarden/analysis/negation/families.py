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
        r"pulled|withdrawn|killed|taken down|gone|delisted|disabled|turned off|no longer)\b",
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
        r"blacklisted|blocklisted|prohibited|restricted|locked)\b",
        r"封禁|封鎖|封锁|擋|挡|攔截|拦截|禁止|拒絕|拒绝|不允許|不允许|被封|鎖住|锁住|限制存取|阻擋|阻挡",
        r"遮断|ブロック|拒否|弾か|禁止|許可されていない|塞が|封鎖|制限され",
    ),
    "broken": (
        r"\b(?:broken|fails|failing|failed|crash|crashes|crashing|won't|wont|hangs|(?:is|are|was|went|goes) down|errors out|"
        r"times out|doesn't boot|unusable|corrupt|corrupted)\b",
        r"掛掉|挂掉|壞|坏|報錯|报错|失敗|失败|崩潰|崩溃|當掉|宕机|宕機|跑不起來|跑不起来|起不來|起不来|連不上|连不上",
        r"落ちる|落ちて|壊れ|動かない|起動しない|失敗|エラーにな|使えない|繋がらない|つながらない|応答しない",
    ),
    "empty": (
        r"\b(?:empty|zero|0 results|no results|nothing|blank|no rows|no hits|returns \[\])\b",
        r"為零|为零|零筆|零笔|零條|零条|空的|為空|为空|清空|查無|查无|沒有結果|没有结果|0 筆|0 条",
        r"0 ?件|ゼロ|空っぽ|空に|空で|見つからない|ヒットしない|出てこない",
    ),
    "lacks": (
        r"\b(?:lacks|lack|lacking|absent|missing|without|no|not|none|never|cannot|can't|doesn't|isn't|aren't|"
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
        r"\b(?:ran out|run out|used up|exhausted|hit the limit|hit the cap|reached the|maxed out|full|out of)\b",
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

_COMPILED: dict[str, list[tuple[str, LazyPattern]]] = {
    language: [(name, LazyPattern(patterns[i], re.I)) for name, patterns in _FAMILIES.items()]
    for i, language in enumerate(("en", "zh", "ja"))
}


def families(sentence: str, language: str) -> list[str]:
    """The families whose words occur in a sentence ("en", "zh" or "ja"), in a fixed order."""
    found = [name for name, pattern in _COMPILED.get(language, ()) if pattern.search(sentence)]
    if language != "en":  # English words inside a Chinese or Japanese sentence: "憑證 expired 了"
        found += [name for name, pattern in _COMPILED["en"] if name not in found and pattern.search(sentence)]
    return found

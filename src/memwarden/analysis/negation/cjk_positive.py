"""Chinese and Japanese claims with no negative word: 「已經下架」「被封鎖」「是空的」「最多 10 次」, 「提供終了」「遮断されている」.

Each needs a name in its sentence (``evidence.cjk_names``), and is not said of the project itself.
"""

from __future__ import annotations

import re

from memwarden.analysis.negation.cjk_evidence import CJK_SELF, CJK_TODO, cjk_names
from memwarden.analysis.negation.common import END_OF_LIFE, dated_removal, money_limit
from memwarden.patterns import LazyPattern

ZH_GONE = LazyPattern(
    # a named doer may stand between 被 and the verb (「被 LINE Messaging API 拒收」: 20 characters)
    r"(?:已經|已经|已|被|早就|早已)[^，。；,;]{0,24}?(?P<cue>擋下|挡下|攔下|拦下|結束服務|结束服务|結束營運|结束运营|結束支援|结束支持|取消|下架|下線|下线|停用|停止服務|停止服务|停止支援|停止支持|停止售賣|停止售卖|停止提供|停止開放|停止开放|停止接受|停止接收|"
    r"關閉|关闭|關掉|关掉|除役|移除|拿掉|刪掉|删掉|刪除|删除|廢棄|废弃|淘汰|終止|终止|鎖掉|锁掉|封鎖|封锁|封掉|擋掉|挡掉|"
    r"攔截|拦截|拒絕|拒绝|拒|清理掉|歸檔|归档|停止維護|停止维护|失效|回收|屏蔽|退役|收回|廢止|废止|暫停|暂停)"
    r"|(?P<cue2>封鎖了|封锁了|擋了|挡了|屏蔽了|是空的|為空|为空|(?:下架|下線|下线|停用|關掉|关掉|移除|拿掉|去掉)了|[把將将][^，。；,;]{1,16}(?:關|关|擋|挡|封|禁|刪|删|停)掉?了)"
    r"|(?P<cue3>最多|上限|最長只能|最长只能|最大|最長|最长)[^，。；,;]{0,8}\d|(?P<cue4>只有|只能|只保留|只保存|只留)[^，。；,;]{0,8}?\d"
    r"|(?P<cue7>(?:擋|挡|封|關|关|鎖|锁)掉了)"
    r"|(?P<cue5>會忽略|会忽略|會失敗|会失败|一直失敗|一直失败|壞掉了|坏掉了|壞了|坏了|一直掛掉|一直挂掉|掛掉了|挂掉了|失效(?=。|$)|編譯失敗|编译失败|一直報錯|一直报错|失效了|跑失敗|跑失败|(?:build|built|compiled) without|沒帶|没带)"
    r"|(?P<cue6>(?:返回|回傳|回传|回)\s*(?:0|空|null|404))(?![\d.])"
    r"|(?P<cue10>(?:從|从|自)[^，。；,;]{1,8}?(?:起|開始|开始|以來|以来)?\s*一直(?:報錯|报错|失敗|失败|掛|挂|壞|坏))"
    r"|(?P<cue8>(?:零|0)\s*(?:筆|笔|條|条|個|个|項|项)(?:結果|结果|資料|数据|記錄|记录))"
    r"|(?:已經|已经|已|被|而且|是)\s*(?P<cue9>deprecated|removed|sunset|retired|EOL|deleted|disabled|broken|(?:刪|删|砍|拆)了)"
    # issue 29 round 6: too big for a tool to handle (「規格太大，產生器處理不了」)
    r"|(?P<cue11>(?:太大|過大|过大|太長|太长|太舊|太旧|過舊|过旧)[^。]{0,24}?(?:不了|不動|不动|不進|不进|無法|无法|不能|(?:要求|需要)[^。，]{0,12}\d))"
)
JA_GONE = LazyPattern(
    r"(?P<cue>削除済み|削除された|廃止された|廃止済み|サービス終了|提供終了|終了済み|撤去済み|破棄済み|解約済み|取り下げ|外された|"
    r"sunset|deprecated|not supported|遮断され|遮断している|ブロックしている|拒否している|使い切っ|上限に達し|閉じられている|塞がれている|"
    r"期限切れ(?=。|$|だ|です|になっ|し)|(?:提供|サービス|サポート|配信|販売)が終わ|(?:提供|サービス|サポート)を終了し|拒否され|禁止されている|止まっている|壊れている|サポート終了|配布終了|"
    r"販売終了|公開停止|停止済み|閉鎖され|ブロックされ|無視する|無視される|"
    r"失敗する(?=。|$)|失敗している|失敗し続け|落ち続け|クラッシュする|落ちる(?=。|$)|に制限されている|に制限される|"
    r"(?:廃棄|失効|撤去|返却|退役|無効化|停止)済み|失効している|失効した)"
    r"|から[^、。]{0,6}(?P<cue10>失敗し続け|落ち続け|エラーが続い|エラーになり続け)"
    r"|(?P<cue2>は空|が空|結果は空|空っぽ)(?:。|$|だった|です)"
    r"|(?P<cue4>(?:404|410|0 件|空配列)\s*を返す|ビルドされていない|build without|動かなくなった)"
    r"|\d\s*(?:\w{0,6})\s*(?P<cue3>まで|が上限|しかない)(?:。|$|だ|です)|\d[^、。]{0,8}(?P<cue5>(?:まで)?しか)"
    r"|(?P<cue6>最大|上限は)[^、。]{0,12}\d"
    r"|\d[^、。]{0,8}(?P<cue12>だけ)(?=。|$|だ|です)|(?P<cue13>で弾かれ|に弾かれ)"
    r"|(?P<cue11>(?:大きすぎ|長すぎ|重すぎ|古すぎ)[^。]{0,40}?(?:できない|めない|れない|せない|けない|\d[^。、]{0,12}(?:必須|必要)))"
)
_CJK_NEGATED_NOUN = LazyPattern(r"(?:^|[，,、\s])(?:不|未|無|无|沒有|没有)[^，。、]{0,8}的|ない[^\x00-\x7f、。]{0,2}(?:商品|もの|データ|ユーザー)")
_CJK_WE = LazyPattern(r"我們|我们|咱們|咱们|我|私たち|僕|俺|我々")
_CJK_SELF_DESIGN = LazyPattern(r"我們|我们|咱們|咱们|自前|自社|うちの|我々|私たち")
_LATIN_NAME = LazyPattern(r"[A-Za-z][A-Za-z0-9]")
_ZH_THEN = LazyPattern(r"當時|当时|那時|那时|當初|当初")
_ZH_PAST_EVENT = LazyPattern(r"結果|结果|之前|後來|后来|搞|弄|導致|导致|差點|差点|上次|那次")
_CJK_CONDITION = LazyPattern("如果|假如|要是|萬一|万一|一旦|若是|場合|なら|たら|れば|的話|的话|的時候|的时候")
# Limits on the project's own work are conventions: 「每次 PR 最多 3 個檔案」「commit 訊息最長 72 字元」.
_CJK_OWN_WORK = LazyPattern(
    r"(?<![A-Za-z])(?:PR|commit|subagent|diff)(?![A-Za-z])|コミット|提交|分支|ブランチ|子代理|エージェント|代理|行改動|行改动|"
    r"^(?:每次|一次)", re.I)

# The limits among the cues: 「最多 10 次」「只保留 90 天」; 「100 件まで」「3 回しか」「最大 50」「7 日分だけ」.
_CJK_LIMITS = {"zh": {"cue3", "cue4"}, "ja": {"cue3", "cue5", "cue6", "cue12"}}

# The removals among the cues: told with the date they happened (「2024 年 8 月已停用」「2024 年に廃止された」), history.
_CJK_REMOVAL = LazyPattern(
    r"結束服務|结束服务|結束營運|结束运营|結束支援|结束支持|下架|下線|下线|停用|停止服務|停止服务|停止支援|停止支持|停止提供|"
    r"除役|移除|刪除|删除|廢棄|废弃|淘汰|終止|终止|歸檔|归档|停止維護|停止维护|退役|廢止|废止|deprecated|removed|sunset|"
    r"retired|EOL|deleted|削除|廃止|サービス終了|提供終了|終了済み|撤去|解約|サポート終了|配布終了|販売終了|"
    r"(?:提供|サービス|サポート|配信|販売)[がを]終")


def cjk_positive_claim(text: str, language: str) -> str:
    """The words of a removal, block, empty result or limit in a Chinese or Japanese sentence, else ""."""
    if _CJK_CONDITION.search(text) or CJK_TODO.search(text):
        return ""
    pattern = ZH_GONE if language == "zh" else JA_GONE
    match = pattern.search(text)
    if match is None:
        return ""
    if CJK_SELF.search(text[: match.start()]) and not cjk_names(text[: match.start()]):
        return ""
    if _CJK_WE.search(text, match.start(), match.start(match.lastgroup)):
        return ""  # 「被我們擋下了」: the project did it (「被資安政策鎖掉」 is a block from outside)
    if not cjk_names(text) and match.lastgroup != "cue10":  # what keeps failing since a day needs no name
        return ""
    if match.lastgroup == "cue12" and not _LATIN_NAME.search(text, 0, match.start()):
        return ""  # 「ログの保存は 7 日間だけ」: a bare "only N" names no product (a katakana noun is no vendor)
    if text[match.end() : match.end() + 1] == "的":
        return ""  # 「被刪除的分支可以還原」: the word describes a noun
    if match.lastgroup in ("cue3", "cue4", "cue5", "cue6", "cue11", "cue12") and (_CJK_SELF_DESIGN.search(text) or _CJK_OWN_WORK.search(text)):
        return ""  # 「我們的 API 每次最多 100 個」「這是我們定的」: a limit of our own design
    if match.lastgroup in _CJK_LIMITS[language] and money_limit(text, match.start(), match.end()):
        return ""  # 「最大单笔亏损 -$54.15」「最大損失は -$80」: a loss, a price or a budget, not a service's limit
    if match.lastgroup == "cue2" and "空" in match.group("cue2") and _ZH_THEN.search(text):
        return ""  # 「當時 bucket 是空的」: how it was then, as "the bucket was empty" is
    if match.lastgroup == "cue5" and _ZH_PAST_EVENT.search(text):
        return ""  # 「之前用 sudo pip 裝包，把 yum 搞壞了」: a post-mortem, not a standing fact
    if _CJK_REMOVAL.match(match.group(match.lastgroup)) and dated_removal(text, 0, match.end(), len(text)):
        return ""  # 「Cloudflare 於 2024 年 8 月停用了 V1」: a removal of the past, told with its date
    if END_OF_LIFE.fullmatch(match.group(match.lastgroup)):
        return ""  # 「Foxy 已 EOL」: an end of life is final
    if _CJK_NEGATED_NOUN.search(text[: match.start()]):
        return ""  # 「不存在的 SKU 會被忽略」「在庫のない商品は…」: what happens to a kind of thing, a positive
    return match.group(match.lastgroup)

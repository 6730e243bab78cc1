"""The owner's own setup: what is not installed, configured, enabled or signed in on their machine or account.

"`gh` CLI not installed", "OpenClaw isn't installed as a systemd service on this machine", "the root cause is
missing MinMax auth on the gateway, so MinMax can't be used", 「WSL 未启用 systemd」, 「配置缺少默认账号绑定」,
「授权码已失效」, 「APIキーが設定されていない」, «openpyxl не установлен», "the workspace has zero commits yet": the owner changes these
with one command or one setting, and the note tells where they stood. Nothing outside the project decides them,
so no `expires` date is owed (issue 29: the agent's and the user's own situation is no claim). A claim about
what an outside thing lacks, cannot do or refuses ("the sandbox cannot read outside the workspace", "Telegram
rejects messages over 4096 characters") names no such step of the owner's and stays reported.

A cue is left alone when such words stand within ``WINDOW`` characters of it in its sentence: the setup is
the cause the sentence gives ("missing auth, so MinMax can't be used"), or the negation itself; unless a
vendor's plan, tier or region stands there too ("not enabled on the free plan" is the vendor's offer).
"""

from __future__ import annotations

import re

from memwarden.patterns import LazyPattern

WINDOW = 160

_EN_OWN_SETUP = (
    # not installed / configured / enabled / signed in ("not yet", "never been", "isn't installed")
    r"(?:\bnot|n['’]t|\bnever)\s+(?:yet\s+|been\s+)?(?:installed|configured|set\s+up|enabled|"
    r"authenticated|authori[sz]ed|logged\s+in|signed\s+in|initiali[sz]ed|committed)\b"
    # a credential or a setting the owner has not given
    r"|\bmissing\s+(?:\*\*)?(?:[\w.-]+\s+){0,2}(?:auth|authentication|credentials?|api\s+keys?|tokens?|"
    r"config(?:uration)?|settings?|env(?:ironment)?\s+vars?)\b"
    r"|\b(?:auth|credentials?|api\s+keys?|tokens?|passwords?)\s+(?:has\s+|have\s+|is\s+|are\s+)?(?:missing|expired)\b"
    r"|\bno\s+(?:[\w-]+\s+){0,2}(?:credentials|api\s+keys?)\b"
    # settings missing from the owner's own config ("Zed has no setting for it" is the tool's, and a claim)
    r"|\bconfig(?:uration)?\b[^.;]{0,40}\bno\s+(?:[\w-]+\s+){0,2}settings\b"
    # the own repository's state
    r"|\b(?:zero|no)\s+(?:\w+\s+){0,2}commits\b|\buncommitted\b|\bpending\s+to\s+commit\b"
)
_ZH_OWN_SETUP = (
    r"未安[装裝]|[沒没]有?安?[裝装]好?(?![^，。]{0,2}[得了])|未配置|[沒没]有?配置|未[設设][定置]|[沒没]有?[設设][定置]|"
    r"未[啟启]用|未[開开][啟启]|未登[录錄入]|未授[权權]|未[綁绑]定|"
    r"缺少[^，。；]{0,24}?(?:配置|[設设][定置]|[權权]限|[帳账帐賬][號号户戶]|[綁绑]定|授[权權]|[認认][證证]|金[鑰钥]|密[钥鑰]|"
    r"密[碼码]|key|token|[凭憑][證证])|"
    r"(?:授[权權][码碼]|密[碼码]|令牌|token|密[钥鑰]|金[鑰钥]|API ?key|access ?key|secret ?key|cookie|[凭憑][證证])[^。]{0,32}?(?:失效|[過过]期)|"
    r"[沒没]有?(?:任何)?提交(?:[记記][录錄])?|零提交"
)
_JA_OWN_SETUP = (
    r"インストールされていない|インストールしていない|未インストール|設定されていない|設定していない|未設定|"
    r"有効になっていない|有効化されていない|有効にしていない|ログインしていない|認証されていない|未認証|"
    r"コミットされていない|未コミット|"
    r"(?:APIキー|API キー|トークン|パスワード|認証コード|認証情報|Cookie|クッキー)[^。]{0,24}?(?:失効|期限切れ)"
)
_RU_OWN_SETUP = (
    r"(?<![\w])не\s+(?:установлен|настроен|подключ[её]н|включ[её]н|авторизован|залогинен)[аоы]?(?![\w])"
    r"|(?<![\w])(?:токен|ключ|пароль|api[\s-]?ключ)[а-яё]*\s+(?:истёк|истек|просрочен)"
)
_OWN_SETUP = LazyPattern("|".join((_EN_OWN_SETUP, _ZH_OWN_SETUP, _JA_OWN_SETUP, _RU_OWN_SETUP)), re.I)


# What a vendor decides: "not enabled on the free plan", 「免费方案未启用」, 「無料プランでは有効になっていない」 is the
# vendor's offer, not the owner's setup, and stays a claim.
_VENDOR_DECIDES = LazyPattern(
    r"\b(?:plans?|tiers?|free|paid|enterprise|subscriptions?|licen[cs]es?|regions?)\b"
    r"|方案|套餐|免[费費]|付[费費]|[區区]域|プラン|無料|有料|リージョン|ライセンス",
    re.I,
)


def own_setup_near(sentence: str, position: int) -> bool:
    """Whether the owner's own setup is what the sentence tells within WINDOW characters of position."""
    begin, end = max(0, position - WINDOW), position + WINDOW
    return _OWN_SETUP.search(sentence, begin, end) is not None and _VENDOR_DECIDES.search(sentence, begin, end) is None

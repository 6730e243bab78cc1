"""One normal form for comparing records: width, case, spacing, and Traditional/Simplified forms.

Two records are compared after NFKC (full-width Latin and digits become ASCII, half-width kana
become full-width), case folding, and mapping the common Traditional characters of technical
prose to their Simplified forms (a table, not a converter: 「設定」 and 「设定」 read alike, and
a character missing from the table only costs a match, never a false one). `statements.py` then
cuts the text into Latin words and CJK characters, since CJK has no spaces to cut at.
"""

from __future__ import annotations

import functools
from memwarden.patterns import LazyPattern
import unicodedata

# Traditional -> Simplified for the characters technical memory uses most. Cheap by design.
_TRADITIONAL = (
    "們個會這來時對說們過還動發現將與當點經開關問題體機務應產設變數據電網絡線連結後術達"
    "執況為環態無條處書資訊權認證號碼錄檔案檢測試裝載專業區域輸傳報錯誤歷長兩級標準遷協議"
    "則計劃費單價優記憶庫運維護頁驗證碼隊負責廣權限舊新聞鍵盤擇選項類型訂閱帳戶帳號請刪除"
    "啟閉離線視圖層級屬構組織系統統計語義範圍實際從們們車輛邊緣壓縮預覽憑證憑據屆滿淨額歸檔"
    "備份縮減續費購買儲存顯示調用觸層審核雲倉儲紀錄轉換圖進圍戶門閱讀寫營異嗎麼麼"
    "綠鐘紅藍買賣貨錢銀鏈發傳遞擁驅鎖層頻響觀舊漏洞覽韌腳產隱藏於屬蓋氣雙較階廳節約終廢"
)
_SIMPLIFIED = (
    "们个会这来时对说们过还动发现将与当点经开关问题体机务应产设变数据电网络线连结后术达"
    "执况为环态无条处书资讯权认证号码录档案检测试装载专业区域输传报错误历长两级标准迁协议"
    "则计划费单价优记忆库运维护页验证码队负责广权限旧新闻键盘择选项类型订阅帐户帐号请删除"
    "启闭离线视图层级属构组织系统统计语义范围实际从们们车辆边缘压缩预览凭证凭据届满净额归档"
    "备份缩减续费购买储存显示调用触层审核云仓储纪录转换图进围户门阅读写营异吗么么"
    "绿钟红蓝买卖货钱银链发传递拥驱锁层频响观旧漏洞览韧脚产隐藏于属盖气双较阶厅节约终废"
)
_TO_SIMPLIFIED = {ord(t): s for t, s in zip(_TRADITIONAL, _SIMPLIFIED) if t != s}
_TRADITIONAL_CHAR = LazyPattern("[" + "".join(sorted(map(chr, _TO_SIMPLIFIED))) + "]")

CJK_CHAR = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"


def normalise(text: str) -> str:
    """Width, case, spacing and Traditional forms folded, so equal words compare equal."""
    # split() and strip() take the whitespace \s takes: " ".join(split()) is _SPACE.sub(" ", x).strip()
    if text.isascii():  # NFKC and the table leave ASCII alone, and casefold() is lower() there
        return " ".join(text.lower().split())
    folded = unicodedata.normalize("NFKC", text).casefold()
    if _TRADITIONAL_CHAR.search(folded) is not None:  # translate() looks every character up: only when needed
        folded = folded.translate(_TO_SIMPLIFIED)
    return " ".join(folded.split())


_DIGIT = LazyPattern(r"\d")


def has_digit(token: str) -> bool:
    return _DIGIT.search(token) is not None


@functools.lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """A light English stem, so "supports", "supported" and "support" meet."""
    if len(word) <= 4 or not word.isalpha():
        return word
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return word.rstrip("e") if len(word) > 4 else word

"""Chinese and Japanese: the positive evidence a negative sentence needs to be a claim about the world.

A name in Latin letters or a vendor's word, no self subject (「我們」「ルール」), no open to-do of the project's
own, and a predicate the negation bears on. Split from evidence.py, which keeps English.
"""

from __future__ import annotations

import bisect
import functools
import re

from memwarden.patterns import LazyPattern

# A name in Latin letters (a product, a service, a version), or a word for what a vendor decides.
_LATIN_NAME = LazyPattern(r"[A-Za-z][A-Za-z0-9.+#_-]*|\d+(?:\.\d+)+")
_CJK_VENDOR_NOUNS = LazyPattern(
    "方案|帳號|帐号|账号|賬號|帳戶|账户|接口|版本|舊版|旧版|新版|平台|瀏覽器|浏览器|區域|区域|廠商|厂商|官方|免費|免费|付費|付费|"
    "插件|外掛|套件|驅動|驱动|系統|系统|伺服器|服务器|主機|主机|叢集|集群|容器|映像|镜像|"
    "プラン|アカウント|バージョン|版|プラットフォーム|ブラウザ|リージョン|ベンダー|無料|有料|ライセンス|"
    "ドライバ|サーバー|サーバ|クラスタ|コンテナ|イメージ|OS|ストア|防火牆|防火墙|ファイアウォール|ランナー|レジストリ|"
    "ミラー|プロキシ|代理伺服器|鏡像站|镜像站|"
    # issue #14: services, networks, stores, permissions and documents outside the project
    "服務|服务|サービス|網路|网络|ネットワーク|公網|公网|外網|外网|內網|内网|辦公網|办公网|端口|連接埠|ポート|安全組|安全组|"
    "雲|云|權限|权限|権限|機器人|机器人|ボット|目錄|目录|資料夾|文件夹|ディレクトリ|フォルダ|日誌|日志|ログ|"
    "資料庫|数据库|データベース|文件|文檔|文档|ドキュメント|官網|官网|公式|ゲートウェイ|閘道|网关|儲存桶|存储桶|バケット|"
    "真機|真机|実機|模擬器|模拟器|裝置|设备|端末|手機|手机|請求|请求|リクエスト|域名|網域|ドメイン|"
    # round 2: environments and stores whose state is a fact worth re-checking, and a vendor's quota
    "測試環境|测试环境|正式環境|正式环境|生產環境|生产环境|預備環境|预发环境|検証環境|本番環境|ステージング|"
    "數倉|数仓|資料倉儲|数据仓库|データウェアハウス|一般枠|無料枠|利用枠|商店|金流|沙箱|沙盒|サンドボックス"
)
_LATIN_COMMON = {"CODE", "ok", "OK", "PR", "TODO", "WIP", "a", "b", "c", "x", "y"}
# Latin words Chinese and Japanese memory uses for the project's own things: its files, scripts, tests and
# branches are not something outside it (issue 29: 「因為 Dockerfile 沒有 unit 可寫」 is about the project).
_LATIN_OWN = {
    "dockerfile", "makefile", "readme", "changelog", "license", "repo", "repos", "pr", "prs", "commit", "commits",
    "branch", "branches", "script", "scripts", "target", "targets", "recipe", "unit", "test", "tests", "todo",
    "function", "functions", "class", "module", "config", "hook", "hooks", "workflow",
}


# Generic words of programming written in Latin letters inside Chinese and Japanese prose: the project's
# handler, pipeline or timeout is not a name, nor is its docker-compose.yml (issue 29). A vendor's API, SDK
# or CLI still is, as in English.
_LATIN_GENERIC = {
    "ci", "cd", "url", "http", "https", "json", "csv", "sql", "ui", "ux", "db", "id", "ids", "io", "e2e", "qa",
    "ttl", "html", "css", "yaml", "xml", "crud", "dto", "orm", "handler", "handlers", "pipeline", "timeout",
    "null", "none", "true", "false", "undefined", "backend", "frontend", "port", "logic", "bug", "bugs", "fix",
    "feature", "features", "refactor", "debug", "log", "logs", "error", "errors", "input", "output", "data",
    "key", "value", "field", "fields", "param", "params", "flag", "flags", "option", "options", "default",
    "healthcheck", "cache", "retry", "step", "steps", "task", "tasks", "job", "jobs", "mock", "stub", "patch",
}
_LATIN_FILE = LazyPattern(r"\.(?:ya?ml|json|md|tsx?|jsx?|py|go|rs|toml|sh|txt|lock|cfg|ini|env|sql|css|html)$", re.I)


def _latin_name(word: str) -> bool:
    return (len(word) >= 2 and word not in _LATIN_COMMON and word.lower() not in _LATIN_OWN
            and word.lower() not in _LATIN_GENERIC and not _LATIN_FILE.search(word))


@functools.lru_cache(maxsize=16)
def cjk_names(text: str) -> bool:
    """Whether a Chinese or Japanese sentence names something outside the project."""
    if any(_latin_name(m.group()) for m in _LATIN_NAME.finditer(text)):
        return True
    return _CJK_VENDOR_NOUNS.search(text) is not None


# The project as subject: 「我們」「我」「你」「用戶」「規則」, 「私たち」「ユーザー」「ルール」「テスト」.
CJK_SELF = LazyPattern(
    "我們|我们|我|你|您|咱們|咱们|用戶|用户|使用者|團隊|团队|規則|规则|政策|流程|函式|函数|欄位|字段|"
    # issue 29: the project and its own code as the subject
    "專案|项目|本專案|程式碼|代码|代碼|腳本|脚本|模組|模块|前端|後端|后端|頁面|页面|元件|组件|"
    "私たち|僕|俺|ユーザー|チーム|ルール|ポリシー|関数|カラム|フィールド"
)
# Chinese: what comes right after the negation, or the negation inside a potential complement (找不到).
_ZH_PREDICATE_AFTER = LazyPattern(
    r"^\s*(?:再|太|會|会|能|可|一定)?\s*(?:supp|work|allo|返回|回傳|回传|申請|申请|維護|维护|註冊|注册|開通|开通|發行|发行|帶|带|支援|支持|相容|兼容|提供|存在|允許|允许|接受|包含|包括|開放|开放|開|开|裝|装|安裝|安装|啟用|启用|"
    r"觸發|触发|自動|自动|同步|保存|保留|信任|生效|管用|理會|理会|處理|处理|讀取|读取|載入|加载|顯示|显示|適用|适用|有|辦法|办法|法|權|权|能|可以|可用|可能|到|了|動|动|上|行|得)"
)
_ZH_CLAIM_CUES = ("無法", "无法", "缺少", "缺乏", "查無", "查无", "未")
_ZH_POTENTIAL = LazyPattern(r"^[到了動动上起下進进]")


def _cjk_self_subject(subject: str) -> bool:
    """「我們」「規則」 as the subject, unless the subject names something (「我們的帳號」「我們的 GitLab」)."""
    return CJK_SELF.search(subject) is not None and not cjk_names(subject)


_SELF_WORD_AT = LazyPattern(f"(?=(?:{CJK_SELF.pattern}))")

# Each negative word of a sentence asks these of the same text: answered once per text, not once per
# word (「ない」 * 50,000 searched the whole line 50,000 times: 15 minutes). A subject is read from at most
# _MAX_SUBJECT characters before its cue: a longer run with no clause break is no sentence's subject.
_MAX_SUBJECT = 2_000


@functools.lru_cache(maxsize=4)
def _has_todo(text: str) -> bool:
    return CJK_TODO.search(text) is not None


@functools.lru_cache(maxsize=4)
def _self_word_starts(text: str) -> list[int]:
    """Every place a 「我們」「ルール」... begins, overlapping ones too (「本專案」 holds 「專案」), in order."""
    return [match.start() for match in _SELF_WORD_AT.finditer(text)]


def _self_subject_before(text: str, clause_start: int, start: int) -> bool:
    """_cjk_self_subject of the clause's text before the cue at start."""
    starts = _self_word_starts(text)
    first = bisect.bisect_left(starts, clause_start)
    if first == len(starts) or starts[first] >= start:
        return False  # no self word begins in the clause before the cue, so none lies in it
    return _cjk_self_subject(text[max(clause_start, start - _MAX_SUBJECT) : start])


def _subject_is_blank(text: str, clause_start: int, start: int) -> bool:
    position = start - 1
    while position >= clause_start and text[position].isspace():
        position -= 1
    return position < clause_start


# An open to-do of the project's own in Chinese or Japanese: 「TODO：上傳功能還不支援大檔案」「待修」「未対応（対応予定）」.
CJK_TODO = LazyPattern(r"(?<![A-Za-z])(?:TODO|FIXME|WIP)(?![A-Za-z])|待修|待辦|待办|待處理|待处理|還沒修|还没修|対応予定|修正予定")


def zh_evidence(text: str, cue: str, start: int, end: int, clause_start: int) -> bool:
    if _has_todo(text):
        return False
    after = text[end : end + 6]
    if _self_subject_before(text, clause_start, start):
        return False
    if _world_without_name(text, start, end):
        return True
    if cue in ("不", "没", "沒") and start > 0 and _ZH_POTENTIAL.match(after) and not text[start - 1].isspace():
        pass  # 找不到, 連不上, 跑不動: cannot
    elif cue in ("無法", "无法", "缺少", "缺乏", "查無", "查无", "不能", "不可"):
        pass
    elif cue in ("無", "无") and not _subject_is_blank(text, clause_start, start):
        pass  # 「該工具無匯出功能」: has no
    elif cue in ("不", "沒", "没", "未", "尚未", "並未", "并未", "並沒", "并没") and _ZH_PREDICATE_AFTER.match(after):
        pass
    else:
        return False
    return cjk_names(text) or _world_without_name(text, start, end)


_JA_PREDICATE_BEFORE = LazyPattern(
    r"(?:対応|サポート|提供|存在|利用|使用|使え|同梱|載っ|搭載|登録|発行|選べ|選択でき|ロード|インポート|書き込め|作れ|送れ|見られ|読め|呼べ|呼び出せ|動かせ|"
    r"落とせ|上げられ|つなげ|繋げ|増やせ|変えられ|消せ|止められ|使わ|動作|動か|動い|でき|インストール|導入|入って|入っ|有効|許可|接続|到達|"
    r"見つから|見つかり|見当たら|表示さ|読み込ま|読ま|扱え|公開|実装|記載|含ま|含まれて|受け付け|配信|参照|保持|実行|"
    r"設定|作成|削除|取得|開|繋が|つなが|アクセス|ヒット|配布|販売|提供され|公開され|更新され|更新し|同期し|発火し|発火|反映し|自動|効か|効い)[^、。]{0,6}$|られ$"
)
_JA_EXISTENCE = LazyPattern(r"(?:が|は|も|には|では|に|の)(?:あり|い)?$")
_JA_CLAIM_CUES = ("非対応", "未対応", "未実装", "未サポート", "不可", "なし", "無し")


def ja_evidence(text: str, cue: str, start: int, end: int, clause_start: int) -> bool:
    if _has_todo(text):
        return False
    before = text[max(clause_start, start - 14) : start]
    if _self_subject_before(text, clause_start, start):
        return False
    if _world_without_name(text, start, end) and cue != "ず":
        return True
    if cue in _JA_CLAIM_CUES:
        pass
    elif cue in ("ない", "無い", "ません", "なかっ", "なくなっ") and (_JA_PREDICATE_BEFORE.search(before) or _JA_EXISTENCE.search(before)):
        if cue == "なかっ" and not re.search(r"見つから|見当たら|ヒット", before):
            return False  # 「削除されなかった」: what happened
        if cue == "ません" and re.search(r"(?:でし|ませ)$", before):
            return False
    elif cue == "ず" and _JA_PREDICATE_BEFORE.search(before):
        pass
    else:
        return False
    return cjk_names(text) or _world_without_name(text, start, end)


# A search that came back empty, or support that is missing, is a claim about the world whatever it
# names: 「找不到相關資料」「查無結果」「見つからなかった」「何も出てこなかった」「嵌入式檢視器不支援深色模式」.
_CJK_WORLD = LazyPattern(
    r"找不到|沒找到|没找到|搜不到|查不到|查無|查无|沒有任何結果|没有任何结果|沒有結果|没有结果|"
    r"見つから|見当たら|結果が(?:なかっ|ない|ありませ)|何も(?:出てこ|ヒットし|見つから)|"
    r"(?:一|1|１)\s*件も(?:なかっ|ない|ありませ|出てこ|表示され|ヒットし)|"
    r"不支援|不支持|尚未支援|尚未支持|非対応|未対応|未実装|対応していな|サポートされていな|"
    r"(?:設定|変更|利用|使用|選択|指定|編集)不可"
)


def _world_without_name(text: str, start: int, end: int) -> bool:
    match = _CJK_WORLD.search(text, max(0, start - 12), end + 8)
    return match is not None and match.start() <= end and start <= match.end()

"""Positive evidence that a negative sentence is a claim about the world (issue #19, batch 2).

Excluding kinds of false alarm one at a time did not carry over to memory nobody had tuned on:
real notes say "not" about their own design, rules, tests and past events in more ways than a
list of exceptions can name. So a negation is reported only when there is evidence for both
halves of a claim worth re-checking:

- its predicate is one of capability, availability or existence: "does not support", "has no",
  "cannot", "isn't installed", "no longer", "returns nothing", 「不支援」「沒有」「無法」,
  「対応していない」「できない」「がない」;
- its sentence names something outside the project: a proper noun or product name ("GitHub",
  "macOS", "Python 3.12"), a well-known tool written in lower case ("gh", "pnpm", "wasm"), a
  version, a domain, or a word for what a vendor decides (a plan, an account, a region, an
  API); in Chinese and Japanese, a name in Latin letters or such a word. Inline code alone is
  not evidence: it is as often the project's own column or function as a tool.

And the subject of the negation must not be the project itself: "we", "I", "you", a rule, a
policy, a test, an issue, "this column". Missing a claim costs less trust than a false alarm.

Two kinds need no name (issue #14): a search that came back empty (「找不到」「見つからなかった」)
and missing support ("is not supported", 「不支援」「非対応」). A CJK term inside an English
sentence is a name ("the 測試機 has no outbound access").
"""

from __future__ import annotations

import bisect
from functools import lru_cache

import bisect
import functools
import re
from memwarden.patterns import LazyPattern

# -- English -----------------------------------------------------------------------

# Verbs of capability, availability, existence: after "does not", "doesn't", "won't", "never".
_EN_CAPABILITY = {
    "support", "supports", "allow", "allows", "have", "has", "exist", "exists", "work", "works", "run", "runs",
    "accept", "accepts", "provide", "provides", "offer", "offers", "include", "includes", "expose", "exposes",
    "ship", "ships", "document", "documents", "handle", "handles", "honour", "honours", "honor", "honors",
    "respect", "respects", "recognize", "recognizes", "recognise", "recognises", "return", "returns", "yield",
    "yields", "list", "lists", "load", "loads", "read", "reads", "reach", "reaches", "get", "gets", "grant",
    "grants", "play", "plays", "install", "installs", "enable", "enables", "contain", "contains", "mention",
    "mentions", "trust", "trusts", "store", "stores", "keep", "keeps", "cover", "covers",
    # round 2 of issue 14: what a named tool or service does not do
    "cache", "caches", "persist", "persists", "retry", "retries", "follow", "follows",
    "forward", "forwards", "sync", "syncs", "render", "renders", "validate", "validates",
    "propagate", "propagates", "inherit", "inherits", "index", "indexes", "parse", "parses", "refresh", "refreshes",
    # issue 29: what an outside tool does not notice ("coverage does not see code in a spawned worker")
    "see", "sees", "detect", "detects", "measure", "measures", "track", "tracks", "emit", "emits", "search",
    "searches", "serve", "serves",
}
# After "is not", "isn't", "aren't", "not" (an article may come between: "isn't an installed App").
_EN_AVAILABILITY = {
    "supported", "available", "compatible", "implemented", "installed", "enabled", "exposed", "documented",
    "visible", "reachable", "accessible", "possible", "present", "found", "included", "provided", "offered",
    "listed", "processed", "indexed", "recognized", "recognised", "returned", "respected", "honoured", "honored",
    "handled", "shipped", "published", "released", "usable", "writable", "readable", "working", "functional",
    "accepted", "valid", "aware", "loaded", "exported", "granted", "option",
}
_EN_STRONG = {"unsupported", "unavailable", "incompatible", "unreachable", "nonexistent", "impossible", "unable",
              "inaccessible", "deprecated", "discontinued", "retired", "removed", "blocked"}
_EN_HAVE_NO = {"has", "have", "had", "is", "are", "there's", "returns", "return", "returned", "found", "finds",
               "get", "gets", "got", "shows", "show", "offers", "offer", "provides", "provide", "exposes",
               "expose", "supports", "support", "gives", "give", "yields", "yield", "lists", "list", "ships",
               "turned", "turns", "says", "say", "contains", "contain", "with", "having", "lacks"}
_EN_AUX = {"do", "does", "did", "is", "are", "was", "were", "be", "been", "has", "have", "had", "will", "would",
           "can", "could", "it's", "that's", "there's", "am"}
_EN_SKIP = {"yet", "currently", "really", "fully", "officially", "always", "even", "actually", "directly",
            "publicly", "natively", "properly", "correctly", "reliably", "ever", "still", "any", "longer", "a",
            "an", "the", "be", "been", "simply", "at", "all", "by", "default", "automatically", "anymore",
            "on", "in", "to", "being", "either", "seem", "seems", "appear", "appears"}
_EN_PAST = {"didn't", "wasn't", "weren't", "hadn't", "couldn't", "did", "was", "were", "had", "could"}
_EN_SEARCH = {"find", "found", "locate", "located", "reach", "reached", "access", "connect", "receive",
              "received", "install", "installed", "load", "loaded"}
# Who the project is: a negation whose subject is one of these describes the project, not the world.
# "he" and "she" are the owner or a teammate the note tells of ("he can't answer visitors live", issue 29).
_EN_SELF = {"we", "i", "you", "us", "our", "my", "your", "me", "let's", "i'm", "we're", "you're", "i've", "we've",
            "he", "she", "he's", "she's"}
_EN_POSSESSIVE = {"our", "my", "your"}
_EN_OWN_NOUNS = {
    "rule", "rules", "policy", "policies", "process", "step", "steps", "test", "tests", "issue", "issues", "pr",
    "prs", "ticket", "tickets", "column", "columns", "field", "fields", "function", "functions", "method",
    "methods", "module", "modules", "class", "classes", "hook", "hooks", "handler", "handlers", "importer",
    "wrapper", "helper", "helpers", "middleware", "table", "tables", "schema", "note",
    "notes", "memory", "project", "codebase", "code", "team", "user", "users", "decision", "convention",
    "discipline", "gate", "gates", "default", "design", "state", "scope", "script", "scripts", "repo", "fix",
    "change", "changes", "commit", "commits", "branch", "workflow", "task", "tasks", "phase", "plan's",
    "directive", "guidance", "suite", "bug", "bugs", "feature", "features", "component", "components",
}
_EN_COMMON_CAPS = {
    "i", "code", "ok", "pr", "prs", "todo", "wip", "tbd", "fyi", "note", "notes", "why", "how", "what", "when",
    "where", "also", "then", "but", "and", "or", "so", "the", "a", "an", "it", "this", "that", "these", "those",
    "not", "no", "never", "none", "nothing", "must", "only", "all", "any", "done", "see", "apply", "fix",
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
    "november", "december", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    "important", "warning", "caution", "step", "phase", "default", "rationale", "context", "status",
}
# Tools, platforms and formats people write in lower case.
_EN_LOWER_NAMES = {
    "gh", "git", "npm", "pnpm", "yarn", "npx", "pip", "pipx", "uv", "poetry", "conda", "cargo", "rustc", "go",
    "docker", "podman", "kubectl", "helm", "terraform", "ansible", "brew", "apt", "dnf", "yum", "wasm", "linux",
    "ffmpeg", "node", "deno", "bun", "python", "python3", "ruby", "java", "jq", "curl", "wget", "make", "cmake",
    "bash", "zsh", "fish", "sed", "awk", "grep", "ssh", "rsync", "systemd", "nginx", "postgres", "mysql",
    "sqlite", "redis", "xctest", "xcodebuild", "swiftc", "gcc", "clang", "msvc", "webpack", "vite", "esbuild",
    "eslint", "prettier", "jest", "vitest", "pytest", "mypy", "ruff", "tsc", "gradle", "maven", "nuget",
    "dotnet", "unity", "godot", "ios", "android", "windows", "macos", "ubuntu", "debian", "alpine", "centos",
    "wsl", "wsl2", "chrome", "firefox", "safari", "edge", "vscode", "vim", "neovim", "emacs", "tmux", "codex",
    "claude", "gemini", "copilot", "openai", "anthropic", "devcontainer", "pypi", "crates", "homebrew",
    # Services and products a sentence often starts with, where a capital letter proves nothing (issue #14).
    "vercel", "supabase", "netlify", "heroku", "stripe", "slack", "github", "gitlab", "bitbucket", "aws", "gcp",
    "azure", "cloudflare", "firebase", "unity", "unreal", "sentry", "datadog", "twilio", "sendgrid", "shopify",
    "notion", "jira", "confluence", "figma", "okta", "auth0", "kafka", "s3", "ec2", "bigquery", "snowflake",
    "databricks", "huggingface", "xcode", "kubernetes", "k8s", "react", "django", "rails", "flask", "fastapi",
    "pytorch", "tensorflow", "cuda", "nvidia", "safari", "testflight", "mongodb", "elasticsearch", "grafana",
    "prometheus", "jenkins", "circleci", "airflow", "spark", "dbt", "redshift", "dynamodb", "lambda", "fargate",
    "google", "apple", "microsoft", "amazon", "oracle", "adobe", "atlassian", "salesforce", "mailgun", "travis",
}
# What a vendor decides: "on this plan", "the free tier", "a personal account", "in this region".
_EN_VENDOR_NOUNS = {
    "plan", "plans", "tier", "tiers", "account", "accounts", "license", "licence", "subscription", "region",
    "regions", "quota", "provider", "platform", "browser", "browsers", "vendor", "api", "apis", "sdk", "cli",
    "endpoint", "endpoints", "runner", "runners", "registry", "mirror", "firewall", "proxy", "tenant", "os",
    "version", "versions", "release", "build", "builds", "image", "distro", "driver", "firmware", "app", "apps",
    "plugin", "extension", "library", "package", "marketplace", "store", "cloud", "instance", "cluster",
    "internet", "network", "vpn", "docs", "documentation", "service", "services", "server", "servers", "gateway",
    "bucket", "database", "webhook", "webhooks", "token", "tokens", "permission", "permissions", "scope", "port",
    "org", "orgs", "organization", "workspace", "trial", "host", "hosts", "vm", "vms", "nodes",
}
_EN_WORD = LazyPattern(r"[A-Za-z][A-Za-z0-9+#]*(?:[.'’-][A-Za-z0-9+#]+)*")
_VERSION = LazyPattern(r"(?<![\w.])v?\d+(?:\.\d+){1,3}(?![\w.]*\d{4})|\b(?:version|release|v)\s?\d+\b", re.I)
_CJK_RUN = LazyPattern(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]+")
_DOMAIN = LazyPattern(r"\b[\w-]+\.(?:com|org|io|co|net|dev|app|ai|sh|cloud)\b")
_STARTS = LazyPattern(r"(?:^|[:;—–(\[\"“→⇒=|]|\s-\s|[.!?]\s)\s*[*_]*$")
_CONDITION_OPENER = LazyPattern(r"^[\s*_>(-]*(?:if|when|whenever|once|unless|in case|as long as|until)\b", re.I)


def _capitalized_name(text: str, word: str, start: int) -> bool:
    lower = word.lower().replace("’", "'")
    if lower in _EN_COMMON_CAPS or lower.split("'")[0] in _EN_COMMON_CAPS:
        return False
    if any(c.isupper() for c in word[1:]) and word[:1].islower():
        return True  # macOS, iOS, eBay, npmjs
    if not word[:1].isupper():
        return False
    letters = [c for c in word if c.isalpha()]
    if word.isupper() and len(letters) >= 5 and not any(c.isdigit() for c in word):
        return False  # "SILENTLY", "NEVER", "DELIVERED": emphasis, not a name
    if _STARTS.search(text[max(0, start - 12) : start]):
        return any(c.isupper() for c in word[1:]) or any(c.isdigit() for c in word)  # "GitHub" even at the start
    return True


# A sentence that opens in lower case with its subject is a command or tool speaking ("wslc has no
# compose", "coverage does not see code in a spawned worker"): prose opens with a capital (issue 29).
_EN_LOWER_OPENER = LazyPattern(
    r"^[\s*_>-]*(?P<name>[a-z][a-z0-9]*(?:[.-][a-z0-9]+)*)\s+(?:has|have|is|are|does|doesn't|don't|can't|cannot|"
    r"won't|isn't|aren't|never|only|still|no longer|silently|lacks|ignores|refuses|rejects|drops)\b")
_EN_PLAIN_OPENERS = {
    "it", "this", "that", "these", "those", "there", "then", "and", "but", "so", "also", "we", "i", "you", "they",
    "he", "she", "one", "each", "every", "all", "some", "most", "any", "no", "none", "nothing", "only", "just",
    "still", "everything", "something", "someone", "anything", "nobody", "here", "now", "today", "which", "what",
    "who", "why", "how", "when", "where", "either", "neither", "both", "code", "test", "tests", "data", "output",
    "input", "file", "files", "config", "user", "users", "model", "state", "memory", "project", "repo", "script",
}


@functools.lru_cache(maxsize=16)
def en_names(text: str) -> tuple[tuple[int, int], ...]:
    """Spans of what names something outside the project: proper nouns, tools, versions, domains, vendor words.

    Sorted by start, and cached: every negative word of a long sentence asks about the same sentence.
    """
    found = [m.span() for m in _VERSION.finditer(text)] + [m.span() for m in _DOMAIN.finditer(text)]
    found += [m.span() for m in _CJK_RUN.finditer(text)]  # "The 測試機 has no ...": a term from another language
    opener = _EN_LOWER_OPENER.match(text)
    if opener and opener.group("name") not in _EN_PLAIN_OPENERS and opener.group("name") not in _EN_OWN_NOUNS:
        found.append(opener.span("name"))
    for match in _EN_WORD.finditer(text):
        word = match.group()
        lower = word.lower()
        if lower.endswith(("'s", "’s")):
            lower = lower[:-2]  # "Heroku's free dynos": the name, possessive
        if word == "CODE":
            continue
        if (lower in _EN_LOWER_NAMES or lower.split("-")[0] in _EN_LOWER_NAMES or lower in _EN_VENDOR_NOUNS
                or _capitalized_name(text, word, match.start())):
            found.append(match.span())
    return tuple(sorted(found))


def _named_between(names, begin: int, end: int) -> bool:
    """Whether a name starts in text[begin:end] (names sorted by start)."""
    at = bisect.bisect_left(names, (begin, -1))
    return at < len(names) and names[at][0] < end


def _subject_is_self(lowered: list[str], first: int, index: int, names: list[tuple[int, int]], tokens) -> bool:
    """Whether the words of the cue's clause before it make the project (we, the user, a rule) the subject."""
    subject = [i for i in range(first, index) if lowered[i] not in _EN_AUX and lowered[i] not in _EN_SKIP]
    if any(lowered[i] in _EN_SELF and lowered[i] not in _EN_POSSESSIVE for i in subject):
        return True  # "we don't", "I can't", "you didn't"
    if not subject:
        return False
    span_start, span_end = tokens[subject[0]][0], tokens[subject[-1]][0] + len(tokens[subject[-1]][1])
    if _named_between(names, span_start, span_end):
        return False  # "GitHub personal-account repos", "Our Auth0 tenant": a named thing
    if any(lowered[i] in _EN_POSSESSIVE for i in subject):
        return True  # "our script", "my branch"
    head = lowered[subject[-1]]
    return head in _EN_OWN_NOUNS or (lowered[subject[0]] in ("this", "these", "that", "those", "its") and head in _EN_OWN_NOUNS)


def _next_words(lowered: list[str], index: int, count: int = 3) -> list[str]:
    out = []
    position = index + 1
    while position < len(lowered) and len(out) < count:
        if lowered[position] not in _EN_SKIP:
            out.append(lowered[position])
        position += 1
    return out


def _en_predicate(text: str, tokens, lowered: list[str], index: int, first: int) -> bool:
    """Whether the negation at lowered[index] attaches to a capability, availability or existence predicate."""
    word = lowered[index]
    preceding = lowered[index - 1] if index > first else ""
    after = _next_words(lowered, index)
    nxt = after[0] if after else ""
    if word in _EN_STRONG:
        return True
    if word in ("cannot", "can't", "cant") or (word == "not" and preceding in ("can", "cannot")):
        return True  # can't do it at all: a capability
    if word == "no" and lowered[index + 1 : index + 2] == ["longer"]:
        return True
    past = word in _EN_PAST or preceding in _EN_PAST or (word == "never" and (nxt.endswith("ed") and nxt not in _EN_AVAILABILITY))
    if word in ("no", "none", "zero"):
        if preceding.endswith("n't"):
            return True
        if preceding == "none" or (word == "none" and preceding in _EN_HAVE_NO):
            return True
        if preceding in _EN_HAVE_NO or (index >= 2 and lowered[index - 2] in ("there", "there's")):
            return preceding not in ("had", "was", "were", "got", "turned", "found", "returned") or _search_result(lowered, index)
        rest = lowered[index + 1 : index + 6]
        return any(w in ("exists", "exist", "is", "are") for w in rest[:4]) and any(
            w in ("exists", "exist", "available", "supported", "installed") for w in rest)
    if word == "nothing":
        return preceding in _EN_HAVE_NO and preceding not in ("had", "is", "are") or nxt in ("about",)
    if word in ("lack", "lacks", "lacking", "missing"):
        return word == "lacks" or preceding in ("is", "are", "still", "lack") or (word == "lack" and preceding in ("they", "still"))
    if word in ("neither", "nobody", "nor"):
        return any(w in _EN_CAPABILITY or w in _EN_AVAILABILITY for w in lowered[index + 1 : index + 5])
    if past and not (nxt in _EN_SEARCH):
        return False  # "didn't use the venv", "had no handler": what happened, not a standing fact
    if not nxt and word.endswith("n't") and first:
        # "Site A exposes the field, site B doesn't": the verb left out is the one of the clause before.
        return any(w in _EN_CAPABILITY for w in lowered[max(0, first - 8) : first])
    if nxt in ("have", "has", "need", "needs") and lowered[index + 2 : index + 3] == ["to"]:
        return False  # "doesn't have to know": no necessity, not a missing capability
    if word in ("isn't", "aren't") or (word == "not" and preceding in ("is", "are", "be", "isn't", "aren't")):
        return nxt in _EN_AVAILABILITY
    if word == "not" and preceding not in _EN_AUX and not preceding.endswith("n't"):
        return nxt in _EN_AVAILABILITY  # "— not visible from the devcontainer", "but not processed by"
    return nxt in _EN_CAPABILITY or nxt in _EN_AVAILABILITY


def _search_result(lowered: list[str], index: int) -> bool:
    return lowered[index - 1] in ("found", "returned", "turned", "got") and index + 1 < len(lowered) and \
        lowered[index + 1] in ("results", "result", "matches", "match", "hits", "page", "pages", "entry", "rows", "records")


# A search that came back empty is a claim whoever ran it: "grep turned up nothing", "no results for
# 'invoice'", "I couldn't find any docs for the flag", "the key wasn't found in the vault".
_SEARCH_RESULT = LazyPattern(
    r"\b(?:returned|returns|found|finds|turned up|turns up|yielded|yields|came back with|shows?)\s+(?:no|nothing|zero|none)\b"
    r"|^[\s*_>-]*no (?:results?|matches|hits) (?:for|in|on)\b|\b(?:none|nothing|no (?:results?|matches|hits)) (?:was |were )?found\b"
    r"|\b(?:couldn't|could not|can't|cannot|unable to|failed to)\s+(?:find|locate)\b"
    r"|\b(?:is|are|was|were)(?:n't| not)\s+found\b",
    re.I,
)


# An open to-do of the project's own: "... cannot be delivered until this is fixed", "TODO", "FIXME" (issue 29).
_EN_OPEN_TODO = LazyPattern(
    r"\buntil (?:this|it|that|the (?:bug|issue|fix)) (?:is|gets|has been|lands|ships)\b|\buntil (?:fixed|we fix)\b"
    r"|\b(?:TODO|FIXME|WIP)\b|\bwork in progress\b", re.I)


@functools.lru_cache(maxsize=16)
def _open_todo(text: str) -> bool:
    """Searched once per sentence: every negative word of a long sentence asks."""
    return _EN_OPEN_TODO.search(text) is not None


def en_evidence(text: str, tokens, lowered: list[str], index: int, first: int) -> bool:
    """Whether the negative word at tokens[index] makes a claim about something outside the project."""
    if _CONDITION_OPENER.match(text) or _open_todo(text):
        return False  # "If you cannot...", "Once it is deleted, ... unreachable": what follows from a case
    start = tokens[index][0]
    search = _SEARCH_RESULT.search(text, max(0, start - 40), start + 40)
    if search and search.start() <= start < search.end() + 1:
        return True
    if lowered[index] in ("isn't", "aren't") or (lowered[index] == "no" and index > first):
        before = lowered[max(first, index - 2) : index]
        if "there" in before or "there's" in before:
            names = en_names(text)
            return bool(names) and not _subject_is_self(lowered, first, index, names, tokens)
    if lowered[index] in _EN_STRONG and index > first and (lowered[index - 1] in ("not", "never") or lowered[index - 1].endswith("n't")):
        return False  # "not impossible", "isn't unsupported": a double negative asserts
    following = lowered[index + 1] if index + 1 < len(lowered) else ""
    if index == first and lowered[index] in _EN_STRONG and following and following not in _EN_AUX and \
            following not in _EN_SKIP and following not in ("for", "with", "since", "from", "as", "here", "there"):
        return False  # "Nonexistent SKUs are skipped": the word picks out what the sentence is about
    if not _en_predicate(text, tokens, lowered, index, first):
        return False
    names = en_names(text)
    if not names and not _en_unsupported(lowered, index):
        return False
    return not _subject_is_self(lowered, first, index, names, tokens)


def _en_unsupported(lowered: list[str], index: int) -> bool:
    """'is not supported', 'unsupported', 'unavailable': missing support is a claim about the world, named or not."""
    word = lowered[index]
    if word in ("unsupported", "unavailable", "incompatible"):
        return True
    return word in ("not", "isn't", "aren't") and _next_words(lowered, index, 1) == ["supported"]


# -- Chinese and Japanese ----------------------------------------------------------

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

# Each negative word of a sentence asks these of the same text: answered once per text and clause, not once per
# word (「ない」 * 50,000 searched the whole line 50,000 times: 15 minutes). A subject is read from at most
# _MAX_SUBJECT characters before its cue: a longer run with no clause break is no sentence's subject.
_MAX_SUBJECT = 2_000


@lru_cache(maxsize=4)
def _has_todo(text: str) -> bool:
    return CJK_TODO.search(text) is not None


@lru_cache(maxsize=4)
def _names_something(text: str) -> bool:
    return cjk_names(text)


@lru_cache(maxsize=4)
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
    return _names_something(text) or _world_without_name(text, start, end)


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
    return _names_something(text) or _world_without_name(text, start, end)


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


# -- claims with no negative word ----------------------------------------------------
# "was retired", 「已經下架」「提供終了」: gone; "is blocked", 「被封鎖」「遮断される」: blocked by
# policy; "came back empty", 「是空的」「結果は空」: an empty result; "at most 50 per call",
# 「最多 10 次」「150 リクエストまで」: a limit. Each needs a name in its subject, as above.

EN_GONE = LazyPattern(
    r"\b(?:was|were|has been|have been|had been|is|are|got|now)\s+(?:being\s+)?(?:\w+ly\s+)?"
    r"(?:(?:deprecated|removed)\s+and\s+(?:then\s+)?)?"
    r"(?P<cue>removed|retired|deprecated|discontinued|decommissioned|sunset|sunsetted|shut down|taken down|"
    r"ripped out|end-of-lifed|blocked|disabled|empty|deleted|dropped|purged|wiped|turned off|switched off|killed|"
    r"archived|end-of-life|end of life|eol|firewalled|yanked|unpublished|revoked|denied|rejected|blocklisted|blacklisted|"
    r"banned|suspended)\b"
    r"|\b(?:has|have)\s+been\s+(?P<cue16>(?:failing|broken|down|crashing|erroring)\s+(?:since|for)\b)"
    r"|\b(?:is|are|has been|have been|now)\s+(?:\w+ly\s+)?(?P<cue15>broken|failing|crashing)\b"
    r"|\b(?P<cue22>(?:dropped|ended|pulled|withdrew|removed) support)\b"
    r"|\b(?P<cue23>only (?:has|have|gives?|offers?|allows?|supports?|keeps?) (?:up to )?\d)"
    r"|\b(?P<cue20>stopped (?:accepting|supporting|serving|sending|returning|allowing|issuing|offering)|"
    r"(?:ran|runs|run) out of (?:capacity|quota|stock|credits?)|"
    r"(?:trial|license|licence|subscription|certificate|cert|contract|credits?|account|quota|budget) "
    r"(?:has |have )?(?:expired|lapsed|ran out))\b"
    r"|\b(?P<cue24>(?:evicts?|drops?|truncates?|cuts? off|rejects?|kills?)\b[^.;]{0,30}\bafter \d)"
    r"|\b(?:is|are|was|were)\s+(?P<cue21>gone|closed (?=on|to|for|from|in))"
    r"|(?<!the )(?<!all )(?<!any )\b(?P<cue17>404s|(?:returns?|answers?) (?:a |an )?(?:404|410))"
    r"(?=\s*(?:[.;!]|$|now\b|since\b|(?:on|in|from) (?:prod|staging|the)\b))"
    r"|\b(?P<cue11>(?:crash(?:es)?|fails?|breaks|hangs|segfaults?|times? out)\s+(?:on|in|under|with|inside))\b"
    r"|\b(?P<cue2>came back empty|comes back empty|returns? empty|returned empty|"
    r"(?:returned|returns|came back with|comes back with|found|shows?|showed|lists?|listed)\s+(?:zero|0|no)\s+"
    r"(?:results?|events?|rows?|records?|hits?|matches|items?|entries|pods?|objects?|files?))\b"
    r"|\b(?:accepts?|allows?|returns?|takes?|supports?|keeps?|holds?|stores?|sends?)\s+"
    r"(?P<cue3>at most|no more than|up to a maximum of|only)\s+\d"
    r"|\b(?:be|is|are)\s+(?P<cue14>at most|no more than|a maximum of|capped to)\s+\d"
    r"|\b(?:allows?|accepts?|permits?|includes?)\s+(?:up to\s+)?(?P<cue12>\d[\d,.]*\s*[a-z]*\s+(?:[a-z]+\s+)?"
    r"(?:per|an?|each)\s+(?:second|minute|hour|day|week|month|call|request|token|user|job|run|page|account|key))\b"
    r"|(?P<cue13>\b\d[\d,.]*\s*[a-z]*\s+(?:[A-Za-z]+\s+)?(?:limit|cap|quota|ceiling)\b|\btruncated (?:at|to|after)\s+\d[\d,.]*)"
    r"|\b(?P<cue9>deprecated|removed|retired|discontinued|sunset|revoked|decommissioned|shut down|killed off)\s+"
    r"(?:the|its|their|support|a|an|our|all|(?-i:[A-Z]))"
    r"|\b(?P<cue4>caps?|limits?)\s+[^.;,]{1,40}?\s(?:at|to)\s+\d"
    r"|\b(?P<cue5>limited to|capped at|times? out after|max(?:es)? out at|tops? out at|takes? up to)\s+\d"
    r"|\d[^.;,]{0,30},\s*(?P<cue18>tops|max|at most)\b"
    r"|\b(?P<cue19>only\s+\d[\d,.]*\s+(?:[\w-]+\s+){0,3}(?:is|are)\s+(?:allowed|permitted|supported))\b"
    r"|\b(?P<cue6>prevents|blocks|forbids|disallows|denies|rejects|strips|drops)\s+(?!on\b|by\b|until\b)\w"
    r"|\b(?P<cue7>(?:built|compiled|shipped|packaged|installed) without)\b"
    r"|\b(?P<cue10>ignores|silently ignores|silently drops)\b"
    r"|\b(?P<cue8>returns?|answers?|responds? with|gives?)\s+(?:a\s+|an?\s+)?(?:0 rows|zero rows|an empty)\b",
    re.I,
)
_EN_AGENTS = {"claude", "codex", "gemini", "copilot", "cursor", "agent", "assistant", "bot", "aider"}
_EN_SUBJECT_BREAK = LazyPattern(r"[;:—–(]|,\s|\.\s")
# An environment names where a state holds, the way a product does: "is empty in staging".
_EN_ENVIRONMENT = LazyPattern(
    r"\b(?:staging|prod|production|sandbox|pre-?prod|uat)\b"
    r"|\b(?:denied|rejected|blocked|dropped) by (?:the |an? |our )?(?:[\w-]+ )?(?:branch protection|policy|firewall|"
    r"waf|ruleset|scp|csp|proxy|security group|org setting|admin)", re.I)
# Where the name comes after the verb: "is broken in the Expo dev client", "is denied by a NetworkPolicy".
_EN_NAMED_AFTER = LazyPattern(r"\s+(?:\w+\s+)?(?:in|on|under|by|for|from|with|since)\s", re.I)
_EN_NOT_A_LIMIT_SUBJECT = LazyPattern(r"\b(?:blocked|blocks)\s+(?:on|by)\s+(?:#|PR\b|issue\b|[\w-]+/[\w-]+#)", re.I)


# What the project did or decided: a narrated event ("last week ... until we fixed"), a change made in
# a PR, a design ("by design", "we wrote").
_EN_OWN_DOING = LazyPattern(
    r"\b(?:(?P<when>last (?:week|month|night|time|sprint)|yesterday|this morning)|all (?:morning|day|night|week)|until we|"
    r"by design|we wrote|we built|in-house|(?:in|by|via) (?:PR|pull request|commit)\b|in #\d)", re.I)


def en_positive_claim(text: str) -> str:
    """The words of a removal, block, empty result or limit said of a named thing, else ""."""
    if _CONDITION_OPENER.match(text) or _open_todo(text):
        return ""
    own = [m for m in _EN_OWN_DOING.finditer(text)]
    if any(m.group("when") is None for m in own):
        return ""
    environment = _EN_ENVIRONMENT.search(text) is not None
    for match in EN_GONE.finditer(text):
        if _EN_NOT_A_LIMIT_SUBJECT.match(text, match.start(match.lastgroup)):
            continue  # "blocked on brightdigit/ConfigKeyKit#1": waiting for a change, not a block
        window = max(0, match.start() - 200)
        breaks = [m.end() for m in _EN_SUBJECT_BREAK.finditer(text, window, match.start())]
        subject = text[breaks[-1] if breaks else window : match.start()]
        words = [w.lower() for w in _EN_WORD.findall(subject)]
        names = en_names(subject)
        if any(w in _EN_SELF and w not in _EN_POSSESSIVE for w in words):
            continue
        if own and (match.lastgroup not in ("cue", "cue9") or not names):
            continue  # "was dropped last week": a change the project made, unless a named thing went away
        after = text[match.end() : match.end() + 80]  # a bounded window: a long line stays linear
        if not names and match.lastgroup not in ("cue2", "cue16") and not environment and not (
                _EN_NAMED_AFTER.match(after) and en_names(after)):
            continue  # an empty result, or what has been failing since a day, is a claim whatever it was said of
        content = [w for w in words if w not in _EN_AUX and w not in _EN_SKIP]
        if match.lastgroup == "cue9" and (not content or content[-1] in _EN_AGENTS or content[-1] in _EN_OWN_NOUNS):
            continue  # "Claude removed the old tests", "the PR dropped the column": the project's own change
        if any(w in _EN_POSSESSIVE for w in words) and not any(
                subject[a:b].lower() not in _EN_VENDOR_NOUNS for a, b in names):
            continue  # "Our API accepts at most 100 ids": our own design; "our Auth0 tenant" names a vendor
        if match.lastgroup in ("cue", "cue6", "cue11", "cue15") and content and content[-1] in _EN_OWN_NOUNS and \
                match.group(match.lastgroup).lower() != "empty":
            # "The old PhysX code was removed", "the legacy_tax module was deleted": what the project
            # removes from itself is a change it made, whatever the thing was named after.
            continue
        return match.group(match.lastgroup)
    return ""

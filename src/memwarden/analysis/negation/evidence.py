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
import functools
import re

from memwarden.analysis.negation.common import END_OF_LIFE, dated_removal, money_limit
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
        if word == "no" and index == first and text[: tokens[index][0]].rstrip().endswith(";"):
            # "via Entra ID; needs Read; no local permission storage; ...": one fact of a list, "there is no",
            # when the list names a product by more than a capital letter ("Needs Read access" names nothing)
            return _plainly_named(text)
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


@functools.lru_cache(maxsize=16)
def _plainly_named(text: str) -> bool:
    """Whether text names a product beyond a capitalised word: a known tool, an acronym, a version, a domain."""
    if _VERSION.search(text) or _DOMAIN.search(text):
        return True
    for word in _EN_WORD.findall(text):
        lower = word.lower()
        if lower in _EN_LOWER_NAMES or (len(word) >= 2 and word.isupper() and word != "CODE"):
            return True
        if word[:1].isupper() and any(c.isupper() for c in word[1:]) and not word.isupper():
            return True  # GraphQL, SharePoint
    return False


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



# -- claims with no negative word ----------------------------------------------------
# "was retired", 「已經下架」「提供終了」: gone; "is blocked", 「被封鎖」「遮断される」: blocked by
# policy; "came back empty", 「是空的」「結果は空」: an empty result; "at most 50 per call",
# 「最多 10 次」「150 リクエストまで」: a limit. Each needs a name in its subject, as above.

EN_GONE = LazyPattern(
    r"\b(?:was|were|has been|have been|had been|is|are|got|gets?|now)\s+(?:being\s+)?(?:\w+ly\s+)?"
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
    # issue 29 round 6: what is too big for a tool or a service ("the OpenAPI spec (15.5MB) is too large for tools"),
    # or too old for one ("Node 16 on the jump host is too old for pnpm 9", "too old to open projects saved with 2022.3")
    r"|\b(?:is|are|was|were|gets|got)\s+(?:\w+ly\s+)?(?P<cue25>too (?:large|big|long|heavy)(?= for\b)|too old(?= (?:for|to)\b))"
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


_EN_REMOVALS = {
    "removed", "retired", "deprecated", "discontinued", "decommissioned", "sunset", "sunsetted", "shut down",
    "taken down", "ripped out", "end-of-lifed", "deleted", "purged", "archived", "end-of-life", "end of life", "eol",
    "yanked", "unpublished", "killed off", "dropped support", "ended support", "pulled support", "withdrew support",
    "removed support",
}
_EN_LIMITS = {"cue3", "cue4", "cue5", "cue12", "cue13", "cue14", "cue18", "cue19", "cue23"}
_EN_WAS = LazyPattern(r"(?:was|were|had been)\b", re.I)
_EN_SENTENCE_PART = LazyPattern(r"[;.!?](?:\s|$)")


def _dated_removal(text: str, match) -> bool:
    """Whether a removal is told with the date it happened ("was deprecated in August 2024"): history."""
    if match.group(match.lastgroup).lower() not in _EN_REMOVALS:
        return False
    begin, end = max(0, match.start() - 80), min(len(text), match.end() + 60)
    parts = [m.end() for m in _EN_SENTENCE_PART.finditer(text, begin, match.start())]
    begin = parts[-1] if parts else begin
    stop = _EN_SENTENCE_PART.search(text, match.end(), end)
    return dated_removal(text, begin, match.end(), stop.start() if stop else end)


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
        if _dated_removal(text, match) or END_OF_LIFE.fullmatch(match.group(match.lastgroup)):
            continue  # a removal of the past, told with its date, or an end of life: final
        if match.lastgroup == "cue" and match.group("cue").lower() == "empty" and _EN_WAS.match(match.group()):
            continue  # "Generated Vectorize client was empty": how it was then ("came back empty" is a search)
        if match.lastgroup in _EN_LIMITS and money_limit(text, match.start(), match.end()):
            continue  # "raising $75K at a $3.5M cap": a price, a loss or a budget of the owner's
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

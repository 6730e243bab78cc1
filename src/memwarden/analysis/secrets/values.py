"""What stands after a secret's name when it is no literal: an expression in code, or words describing it.

`api_key=os.getenv("VENDOR_KEY")`, `api_key=api_key`, `def f(api_key=None)` read a key or pass a variable on:
the value is code, and only the string literals the code could evaluate to (a lookup's default, a fallback
after `or`) can hold a secret, so those are what the scanner judges. `api_key: Weather service API key` in a
docstring describes a parameter: a word of letters followed by more words is a phrase, not a credential.

Pure Python; every expression here is linear (literal anchors, no nested quantifiers), and an expression is
read at most ``_REACH`` characters.
"""

from __future__ import annotations

from memwarden.analysis.secrets import patterns
from memwarden.patterns import LazyPattern

_REACH = 300  # the most characters of an expression read
# A name in a conventional case, no digits: `os`, `getenv`, `load_key`, `resolvedLink`, `AgentMail`, `None`.
_PART = r"[A-Za-z_][a-z_]*(?:[A-Z][a-z_]+)*"
# What code starts with: a keyword that starts an expression, then a dotted name (past a dot, an environment
# entry's name too: `process.env.API_KEY`).
_HEAD = LazyPattern(
    rf"(?:(?:await|new|yield)\s{{1,4}})?(?P<name>{_PART}(?:\.(?:[A-Z][A-Z0-9_]*(?![a-z])|{_PART})){{0,8}})"
)
# A lone name is a variable only in a shape a word is not: snake case, a camel hump, a language constant.
_VARIABLE = LazyPattern(r"[a-z][a-z]*(?:_[a-z]+)+|_?[a-z]+(?:[A-Z][a-z]+)+|None|null|nil|undefined|self|this|True|False")
# After the head, code goes on with a call, an index, a closing bracket, a separator, an operator or the end.
_AFTER_HEAD = LazyPattern(r"\s{0,4}(?P<next>[(\[)\]},;:]|\|\||\?\?|&&|\bor\b|\band\b|\Z)")
_QUOTED = LazyPattern(r"\"(?P<double>[^\"\\\n]{0,200})\"|'(?P<single>[^'\\\n]{0,200})'")
_OPENERS = {"(": ")", "[": "]", "{": "}"}
# What a lookup's first argument names: lowercase words and numbers, a path (`prod-db-2024`, `secret/data/app1`).
_LOOKUP_NAME = LazyPattern(r"[a-z][a-z0-9]*(?:[-_./:][a-z0-9]+)*")


def code_literals(window: str, start: int) -> list[tuple[int, str]] | None:
    """None when the unquoted value at ``window[start]`` is no expression in code; else the string literals it
    could evaluate to, as (offset in the window, text): those at the expression's top level (a fallback after
    `or`, `||`, `??`) and the arguments of a call at its top level (a lookup's default, a constructor's value),
    but a first argument that reads as a name or a path (`secrets.get("prod-db-2024")`: what is looked up; an
    environment name, `getenv("API_KEY")`, is none worth judging either: :func:`judged_literal`)."""
    head = _HEAD.match(window, start)
    if head is None:
        return None
    after = _AFTER_HEAD.match(window, head.end())
    if after is None:
        return None
    name = head.group("name")
    calls = after.group("next") in ("(", "[")
    if not calls and "." not in name and not _VARIABLE.fullmatch(name) and head.group(0) == name:
        return None  # a lone word (`hunter`, `Sunshine`): a bare value, not a variable
    return _top_literals(window, head.end(), min(len(window), start + _REACH))


def _top_literals(window: str, position: int, end: int) -> list[tuple[int, str]]:
    """The literals of an expression from ``position`` up to its end (a comma, semicolon or closing bracket at
    its own level): those at its level and those of the calls at its level."""
    literals: list[tuple[int, str]] = []
    closers: list[str] = []
    first = False  # the next literal would be a call's first argument
    while position < end:
        char = window[position]
        if char in "\"'":
            quoted = _QUOTED.match(window, position)
            if quoted is None:
                break
            text = quoted.group("double") if quoted.group("double") is not None else quoted.group("single")
            if not closers or (len(closers) == 1 and not (first and _LOOKUP_NAME.fullmatch(text))):
                literals.append((position + 1, text))
            first = False
            position = quoted.end()
            continue
        if not char.isspace():
            first = False
        if char in _OPENERS:
            closers.append(_OPENERS[char])
            first = len(closers) == 1
        elif char in ")]}":
            if not closers or closers[-1] != char:
                break  # the bracket around the expression: it ends here
            closers.pop()
        elif char in ",;\n" and not closers:
            break
        position += 1
    return literals


# A word of letters in any script (`stored`, `хранится`, `guardada`): no digit, no symbol.
_DESCRIBING_WORD = LazyPattern(r"[^\W\d_](?:[^\W\d_]|['-]){0,30}")
_MORE_WORDS = LazyPattern(r"[ \t]{1,4}[^\W\d_]")


# An HTTP authorization scheme: the credential follows it (`secret: Basic dXNlcjpw...`), it describes nothing.
_AUTH_SCHEMES = frozenset({"bearer", "basic", "token", "digest", "key", "apikey", "hmac", "negotiate"})


_CREDENTIAL_AFTER = LazyPattern(r"[ \t]{1,4}(?P<credential>[^\s\"'`]{8,500})")


def after_scheme(window: str, start: int, value: str) -> tuple[int, str] | None:
    """(start, text) of the credential after an authorization scheme found as the value (`Bearer <token>`)."""
    if value.lower() not in _AUTH_SCHEMES:
        return None
    following = _CREDENTIAL_AFTER.match(window, start + len(value))
    if following is None:
        return None
    return following.start("credential"), following.group("credential").rstrip(".,;")


def is_description(window: str, start: int, value: str) -> bool:
    """The bare value at ``start`` is a word of letters with more words after it: `api_key: Weather service API
    key` describes a parameter. A value with a digit or a symbol in it (`Rk29dLw8 the staging key`) is none, nor
    an authorization scheme with its credential after it."""
    if value.lower() in _AUTH_SCHEMES:
        return False
    if _CJK_START.match(value):
        return is_cjk_sentence(window, start, value)
    return bool(_DESCRIBING_WORD.fullmatch(value)) and bool(_MORE_WORDS.match(window, start + len(value)))


# Chinese, Japanese or Korean text after a secret's name is a sentence when it speaks of the secret itself or runs
# on with a sentence's punctuation (`密码是他常用的6个密码之一，...`, `Token: 已用3940/4500（87.6%），...`). A run
# of six Latin letters or digits in it may be a key written inside the sentence: then it is judged as a value.
_CJK = r"\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af"
_CJK_START = LazyPattern(rf"[{_CJK}]{{2}}")
_CJK_LETTER = LazyPattern(rf"[{_CJK}]")
_CJK_PUNCTUATION = LazyPattern(r"[，。；：、（）「」《》！？]")
_SECRET_NOUN = LazyPattern(r"密码|密碼|口令|令牌|密钥|密鑰|秘钥|パスワード|비밀번호|(?i:password|token|secret)")
_LATIN_RUN = LazyPattern(r"[A-Za-z0-9]{6}")


def is_cjk_sentence(window: str, start: int, value: str) -> bool:
    """The value at ``window[start]`` begins a sentence in Chinese, Japanese or Korean that speaks of a secret."""
    if not _CJK_START.match(value):
        return False
    sentence = window[start : start + _REACH].split("\n", 1)[0]
    if _LATIN_RUN.search(sentence):
        return False
    if _SECRET_NOUN.search(value):
        return True
    # six letters of these scripts at least: a name and a year (`张三2024，...`) may be a password
    return bool(_CJK_PUNCTUATION.search(sentence[: len(value) + 1])) and len(_CJK_LETTER.findall(value)) >= 6


def judged_literal(text: str, *, password: bool) -> bool:
    """A string literal from code holds a secret worth reporting: long enough, letters with digits (a password's
    name also lets letters with symbols pass), no placeholder, no name of a variable or an environment entry."""
    text = text.strip()
    if len(text) < 6 or "://" in text or any(c.isspace() for c in text):
        return False
    if patterns.is_placeholder(text) or patterns.is_reference(text):
        return False
    return patterns.has_mixed_classes(text) if password else patterns.has_letters_and_digits(text)

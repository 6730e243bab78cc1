"""The one cheap gate in front of the secret detectors: a text or line none of them can find anything in.

:data:`MAY_HOLD_SECRET` says it of one line (the scanner skips the lines it does not match);
:func:`may_hold_secret` says it of a whole text, as that one search would, by quicker means.
"""

from __future__ import annotations

from memwarden.patterns import LazyPattern

# What every detector needs on a line: a 16-character token run not made only of lowercase hex and
# hyphens (tokens, base64 high entropy, JWTs; hex counts only under a secret's name, a word below),
# '://', a secret-like word or name, a PEM or PuTTY header, 'xox', a CJK password label, or a
# command-line credential flag (`-p pw`, `-pPW`, `-uroot`). A line with none of these is skipped.
MAY_HOLD_SECRET = LazyPattern(
    r"(?<![A-Za-z0-9+/=_-])(?=[A-Za-z0-9+/=_-]{16})[0-9a-f-]*[g-zA-Z+/=_]"
    r"|://|BEGIN|PuTTY|xox|(?i:key|pass|pwd|secret|contrase|token|apikey|pat(?![a-z0-9])|credential"
    r"|auth|bearer|private|cookie|signing)"
    r"|密碼|密码|口令|パスワード|비밀번호|(?i:senha|пароль)|\s-[up]|--user"
)


def may_hold_secret(text: str) -> bool:
    """The one cheap gate in front of the plugins: every detection comes from a line :data:`MAY_HOLD_SECRET`
    matches, or from an escaped string. Decided as that one search would decide it (a test compares them), by
    quicker means: its ignore-case words tried at every position were most of a cold check's gate time."""
    if "\\" in text or _GATE_LITERALS.search(text):
        return True
    folded = _folded(text)
    if any(word in folded for word in _GATE_WORDS) or ("pat" in folded and _GATE_PAT.search(folded)):
        return True
    if "-" in text and any(_SPACE.match(text, m.start() - 1) for m in _GATE_DASH.finditer(text) if m.start()):
        return True
    return any(_NOT_HEX.search(run.group()) for run in _TOKEN_RUN.finditer(text))


# :data:`MAY_HOLD_SECRET` in parts, each alternative of it exactly: the case-sensitive literals; the ignore-case
# words as plain words over the text with every character Python's ignore-case matching takes for an ASCII letter
# turned into that letter (str.lower, and the three it also folds: İ, ı, ſ; tests/test_secret_gate.py checks every
# code point); "\s-[up]"; and the token run: a whole run of 16 or more token characters that is not all
# lowercase hex digits and hyphens.
_GATE_LITERALS = LazyPattern(r"://|BEGIN|PuTTY|xox|密碼|密码|口令|パスワード|비밀번호|--user")
_GATE_WORDS = ("key", "pass", "pwd", "secret", "contrase", "token", "credential", "auth", "bearer", "private",
               "cookie", "signing", "senha", "пароль")  # apikey holds key
_GATE_PAT = LazyPattern(r"pat(?![a-z0-9])")
_GATE_DASH = LazyPattern(r"-[up]")
_SPACE = LazyPattern(r"\s")
_TOKEN_RUN = LazyPattern(r"[A-Za-z0-9+/=_-]{16,}")
_NOT_HEX = LazyPattern(r"[g-zA-Z+/=_]")


def _folded(text: str) -> str:
    """The text as ignore-case matching of ASCII words sees it, one character for one."""
    if text.isascii():
        return text.lower()
    return text.replace("\u0130", "i").lower().replace("\u0131", "i").replace("\u017f", "s")

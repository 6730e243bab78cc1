"""Whether a line of code defines a name, rather than uses it: `def load_user()`, `const flushTokens = ...`,
`public void configureRoutes(...) {`, `func (s *Server) Serve(`. removed-symbol asks it of the lines the history
removed: a name the project only called or imported (`getComputedStyle()`, `unstable_cache()`) is a library's,
and its last call going away says nothing about a note that names it.
"""

from __future__ import annotations

import re

# A statement that opens on one of these calls or returns what follows, it does not define it.
_STATEMENT_WORDS = (r"return|await|throw|yield|new|case|else|typeof|void\s*\(|delete|echo|print|puts|assert|not|and|or"
                    r"|if|elif|while|for|when|go|defer|raise|del|in|is|then|do|export\s+\{|import|from|using|include")


def _definition(name: bytes) -> re.Pattern:
    word = re.escape(name)
    return re.compile(
        # a keyword that declares what follows (a Go method's receiver between them)
        rb"\b(?:def|function\*?|func|fn|fun|class|interface|type|struct|enum|trait|const|let|var|val|macro|module"
        rb"|object|record|protocol|sub|procedure)\s+(?:\([^)]*\)\s*)?" + word + rb"\b"
        # an assignment or a typed binding (not a comparison, not an arrow), an object's function property
        rb"|(?<![\w.$])" + word + rb"\s*(?::[^=,;()]*)?=(?![=>])"
        rb"|(?<![\w.$])" + word + rb"\s*:\s*(?:async\s+)?(?:function\b|\()"
        # a method or a C-like function: modifiers or a return type, then the name and its parameters, no ';'
        rb"|^[-+\s]*(?!(?:" + _STATEMENT_WORDS.encode() + rb")\b)(?:[A-Za-z_][\w:<>,\[\]*&]*\s+)+[*&]?"
        + word + rb"\s*(?:<[^>]*>)?\s*\([^;]*$"
        # a method with nothing before its name opens its body on the line (a bare call does not)
        rb"|^[-+\s]*\*?" + word + rb"\s*(?:<[^>]*>)?\s*\([^;]*\)\s*(?::[^;{]*)?\{\s*$"
    )


class Definitions:
    """The definition patterns of some names, compiled once for a search of the history."""

    def __init__(self, names):
        self._patterns = {name: _definition(name.encode()) for name in names if name.isidentifier()}

    def __call__(self, line: bytes, name: str) -> bool:
        """Whether a line of code (a diff's line, its +/- mark kept or not) defines name."""
        pattern = self._patterns.get(name)
        return pattern is not None and pattern.search(line.rstrip(b"\r\n ")) is not None

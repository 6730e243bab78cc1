"""detect-secrets' side of the scanner: which of its plugins run, and what the scanner needs of each.

detect-secrets is imported only inside these functions, under the caller's ``transient_settings``.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

from memwarden.analysis.secrets import patterns
from memwarden.analysis.secrets.patterns import SecretType
from memwarden.patterns import LazyPattern

# Plugins that do not describe credentials in a memory file: an IP address is not a secret.
SKIPPED_PLUGINS = frozenset({"IPPublicDetector"})
KEYWORD_PLUGIN = "KeywordDetector"
ENTROPY_PLUGINS = frozenset({"Base64HighEntropyString", "HexHighEntropyString"})
# A plugin whose regex cannot match without this literal is skipped on windows that lack it
# (NpmDetector's '//.+/:_authToken' backtracks quadratically on a line full of '//').
REQUIRED_LITERAL = {"NpmDetector": "_authToken"}


@dataclass(frozen=True)
class RegexPlugin:
    """A detect-secrets regex plugin and what we need of it, worked out once per scan."""

    plugin: object
    type: SecretType
    denylist: tuple
    vetted: bool  # it filters its own matches (JWT checks that the parts decode)
    literal: str | None  # a literal its patterns cannot match without

    @classmethod
    def of(cls, plugin) -> "RegexPlugin":
        from detect_secrets.plugins.base import RegexBasedDetector

        name = type(plugin).__name__
        return cls(
            plugin,
            patterns.type_for(plugin.secret_type),
            tuple(getattr(plugin, "denylist", ())),
            type(plugin).analyze_string is not RegexBasedDetector.analyze_string,
            REQUIRED_LITERAL.get(name),
        )


class EntropyPlugin:
    """A detect-secrets high-entropy plugin as the scanner uses it: the runs of its charset in a line, quoted or not
    (its own regex, compiled once: its `non_quoted_string_regex` compiles it again on every call), and their
    Shannon entropy by its own formula, summed over its charset in the same order, from one count of the string
    instead of one pass per character of the charset: the same float, so the same verdicts."""

    def __init__(self, plugin):
        self.plugin = plugin
        self.hex = type(plugin).__name__ == "HexHighEntropyString"
        self.charset = plugin.charset
        self.entropy_limit = plugin.entropy_limit
        self.runs_regex = re.compile(r"([{}]+)".format(re.escape(plugin.charset)))

    def runs(self, line: str) -> list[str]:
        return self.runs_regex.findall(line)

    def cut_by_window(self, line: str, window_start: int, window: str, start: int, end: int) -> bool:
        """Whether the run at ``window[start:end]`` goes on past an edge of its window in the line. Windows overlap by
        OVERLAP, so such a run is either seen whole in the next window or longer than the overlap: a blob."""
        before, after = window_start + start, window_start + end
        return ((start == 0 and before > 0 and line[before - 1] in self.charset)
                or (end == len(window) and after < len(line) and line[after] in self.charset))

    def entropy(self, data: str) -> float:
        if not data:
            return 0
        counts = Counter(data)
        entropy = 0.0
        for x in self.charset:
            p_x = float(counts.get(x, 0)) / len(data)
            if p_x > 0:
                entropy += - p_x * math.log(p_x, 2)
        return entropy


class PluginSet:
    """detect-secrets' loaded plugins sorted by how the scanner uses them, once per scan of many files (valid inside
    the caller's ``transient_settings``)."""

    def __init__(self, loaded: list, high_entropy: bool):
        names = [type(p).__name__ for p in loaded]
        self.keyword = [p for p, name in zip(loaded, names) if name == KEYWORD_PLUGIN]
        self.entropy = ([EntropyPlugin(p) for p, name in zip(loaded, names) if name in ENTROPY_PLUGINS]
                        if high_entropy else [])
        self.regex = [RegexPlugin.of(p) for p, name in zip(loaded, names)
                      if name != KEYWORD_PLUGIN and name not in ENTROPY_PLUGINS]
        self.regex_gate = _any_of([regex for plugin in self.regex if plugin.literal is None for regex in plugin.denylist])


_BACKREFERENCE = LazyPattern(r"\\[1-9]|\(\?P=")


def _any_of(regexes: list):
    """One regex that finds a match in a string exactly when one of ``regexes`` does (each keeps its own flags), so
    a line none of them matches costs one search instead of one per pattern; None if they cannot be joined."""
    if not regexes or any(_BACKREFERENCE.search(regex.pattern) for regex in regexes):
        return None  # joined, a numbered backreference would point at another pattern's group
    flags = {re.IGNORECASE: "i", re.MULTILINE: "m", re.DOTALL: "s", re.VERBOSE: "x"}
    parts = []
    for regex in regexes:
        inline = "".join(letter for flag, letter in flags.items() if regex.flags & flag)
        parts.append(f"(?{inline}:{regex.pattern})" if inline else f"(?:{regex.pattern})")
    try:
        return re.compile("|".join(parts))
    except re.error:
        return None


def plugin_config() -> dict:
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    return {
        "plugins_used": sorted(
            ({"name": cls.__name__} for cls in get_mapping_from_secret_type_to_class().values()
             if cls.__name__ not in SKIPPED_PLUGINS),
            key=lambda item: item["name"],
        ),
        "filters_used": [],  # the scanner's own filters; never detect-secrets' network verification
    }


_CONFIG_REGEXES = None


def config_regexes():
    """The keyword patterns detect-secrets uses for config files: quoted and unquoted values."""
    global _CONFIG_REGEXES
    if _CONFIG_REGEXES is None:
        from detect_secrets.plugins import keyword

        _CONFIG_REGEXES = {**keyword.CONFIG_DENYLIST_REGEX_TO_GROUP, **keyword.QUOTES_REQUIRED_DENYLIST_REGEX_TO_GROUP}
    return _CONFIG_REGEXES

"""detect-secrets' side of the scanner: which of its plugins run, and what the scanner needs of each.

detect-secrets is imported only inside these functions, under the caller's ``transient_settings``.
"""

from __future__ import annotations

from dataclasses import dataclass

from memwarden.analysis.secrets import patterns
from memwarden.analysis.secrets.patterns import SecretType

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

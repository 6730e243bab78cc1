"""The scanner's shortcuts around detect-secrets' plugins find exactly what the plugins would: one search that tells
whether any regex plugin can match a line, the runs of an entropy plugin's charset, and its Shannon entropy."""

from __future__ import annotations

import random
import re
import string

import pytest

from memwarden.analysis.secrets import plugins

_random = random.Random(2026)


def _token(alphabet: str, length: int) -> str:
    return "".join(_random.choice(alphabet) for _ in range(length))


LINES = [
    "The deploy script purges the CDN cache before it uploads.",
    f"aws key: AKIA{_token(string.ascii_uppercase + string.digits, 16)}",
    f"github: ghp_{_token(string.ascii_letters + string.digits, 36)}",
    f"stripe sk_live_{_token(string.ascii_letters + string.digits, 24)} in the env",
    f"bot {_random.randrange(10**8, 10**9)}:{_token(string.ascii_letters + string.digits, 35)}",
    "-----BEGIN OPENSSH PRIVATE KEY-----",
    "https://hooks.slack.com/services/T0001/B0002/abcdefABCDEF",
    f"SLACK: xoxb-{_random.randrange(10**9)}-{_token(string.ascii_lowercase + string.digits, 24)}",
    "postgres://admin:s3cret@db.internal:5432/app",
    f"AccountKey={_token(string.ascii_letters + string.digits, 88)}",
    f"CLOUDANT_PASSWORD = '{_token(string.ascii_lowercase + string.digits, 64)}'",
    "//registry.npmjs.org/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789",
    "ordinary words, numbers 12345678 and a path /usr/local/bin",
    f"eyJ{_token(string.ascii_letters, 20)}.{_token(string.ascii_letters, 30)}.{_token(string.ascii_letters, 20)}",
    "APACHEKAFKACLUSTER is a word, not a key",
    "",
]


@pytest.fixture(scope="module")
def plugin_set():
    from detect_secrets.settings import get_plugins, transient_settings

    with transient_settings(plugins.plugin_config()):
        yield plugins.PluginSet([p for p in get_plugins() if type(p).__name__ not in plugins.SKIPPED_PLUGINS], True)


@pytest.mark.parametrize("line", LINES)
def test_the_gate_finds_a_match_exactly_when_a_gated_pattern_does(plugin_set, line):
    gated = [regex for plugin in plugin_set.regex if plugin.literal is None for regex in plugin.denylist]
    assert plugin_set.regex_gate is not None
    assert (plugin_set.regex_gate.search(line) is not None) == any(regex.search(line) for regex in gated)


def test_the_lines_reach_both_sides_of_the_gate(plugin_set):
    matched = [plugin_set.regex_gate.search(line) is not None for line in LINES]
    assert matched.count(True) >= 10 and matched.count(False) >= 3


def test_each_pattern_keeps_its_own_flags():
    gate = plugins._any_of([re.compile("token", re.IGNORECASE), re.compile("ABC")])
    assert gate.search("TOKEN") and gate.search("xABCx") and not gate.search("abc")
    assert plugins._any_of([]) is None
    assert plugins._any_of([re.compile(r"(['\"])x\1"), re.compile("ABC")]) is None  # \1 would name another group


def test_the_entropy_and_the_runs_are_detect_secrets_own(plugin_set):
    assert {entropy.hex for entropy in plugin_set.entropy} == {True, False}
    for entropy in plugin_set.entropy:
        plugin = entropy.plugin
        for _ in range(300):
            text = _token(string.printable, _random.randrange(1, 80))
            assert entropy.entropy(text) == plugin.calculate_shannon_entropy(text)
            with plugin.non_quoted_string_regex(is_exact_match=False):
                assert entropy.runs(text) == list(plugin.analyze_string(text))

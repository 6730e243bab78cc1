"""The one cheap gate in front of detect-secrets' plugins never changes what is found.

On every file of the planted set (tests/data/secrets: secrets and decoys in three layouts) and on
the held-out cases of bench/secrets_recall.py, a scan with the gate finds exactly what a scan
without it finds; for any text the gate turns away, the plugins find nothing; and a text the gate
turns away does not even load detect-secrets.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from conftest import REPO
from memwarden.analysis.secrets import scanner

DATA = REPO / "tests" / "data" / "secrets"
FORMATS = {".jsonl": "jsonl", ".yml": "yaml", ".yaml": "yaml", ".md": "markdown", ".json": "jsonl"}


def _ungated(monkeypatch):
    monkeypatch.setattr(scanner, "may_hold_secret", lambda text: True)


def _found(texts):
    return [[(d.type.slug, d.start, d.end) for d in found] for found in scanner.scan_texts(texts)]


def _planted_texts():
    texts = []
    for path in sorted(DATA.rglob("*")):
        if path.is_file() and path.suffix in FORMATS:
            texts.append((path.read_text("utf-8", "replace"), FORMATS[path.suffix]))
    spec = importlib.util.spec_from_file_location("secrets_recall", REPO / "bench" / "secrets_recall.py")
    recall = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(recall)
    texts += [(text, FORMATS[suffix]) for suffix, text in recall.held_out_cases()]
    return texts


def test_the_planted_set_and_the_held_out_cases_are_found_the_same_with_and_without_the_gate(monkeypatch):
    texts = _planted_texts()
    gated = _found(texts)
    _ungated(monkeypatch)
    ungated = _found(texts)
    assert gated == ungated
    assert sum(map(len, gated)) >= 80  # the set's secrets are there to be found
    # Some of the set's files are turned away by the gate: it is not a gate that lets everything through.
    monkeypatch.undo()
    assert any(not scanner.may_hold_secret(text) for text, _ in texts + [("# Notes\nWe deploy on Fridays.\n", "markdown")])


PIECES = st.sampled_from([
    "token", "pass", "key", "AKIA", "ghp_", "sk-", "://", "@", ":", "=", '"', "\\", "\\u0041", "-----BEGIN",
    "xoxb-", "-p ", "密码", "pwd", "\n", " ", "a1B2c3D4e5F6g7H8", "deadbeefcafe", "the", "note", "Z9",
    "access_token: ", "password=", "Ab3dE5gH7jK9mN", "x7Kq2Lm9Pz4R", "\\x41KIA", "https://u:",
    "0123456789abcdef0123", "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "123e4567-e89b-12d3-a456-426614174000", "ACCA0123456789ABCDEF", "auth: ", "Bearer ", "cookie=", "id: ",
    "pat: ", "my_pat=", "gitlabPat: ", "path", "update", "session", "\"pat\": \"",
])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(PIECES, st.text(alphabet="abcXYZ019 _-/+=.:\n", max_size=12)), max_size=30),
       st.sampled_from(["jsonl", "yaml", "markdown", "index"]))
@example(["access_token: ", "Ab3dE5gH7jK9mN"], "yaml")
@example(['{"k": "', "\\u0041KIA", "Z9Z9Z9Z9Z9Z9Z9Z9", '"}'], "jsonl")
@example(["password=", "x7Kq2Lm9Pz4R"], "markdown")
def test_whatever_the_gate_turns_away_has_nothing_for_the_plugins(pieces, fmt):
    text = "".join(pieces)
    if scanner.may_hold_secret(text):
        return
    original = scanner.may_hold_secret
    scanner.may_hold_secret = lambda _: True
    try:
        assert scanner.scan_texts([(text, fmt)]) == [[]]
    finally:
        scanner.may_hold_secret = original


def test_a_text_the_gate_turns_away_does_not_load_detect_secrets():
    code = (
        "import sys\n"
        "from memwarden.analysis.secrets import scan\n"
        "assert scan('# Notes\\nWe deploy on Fridays after the review.\\n', 'markdown') == []\n"
        "print('detect_secrets' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_ids_hashes_uuids_and_dates_alone_do_not_pass_the_gate():
    ordinary = [
        '{"id": "3f9a8b7c6d5e4f3a", "ts": "2026-11-30T10:11:12Z", "title": "Deploy went fine"}\n',
        "commit 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b\nrun 123e4567-e89b-12d3-a456-426614174000\n",
        "sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\n",
        "Checked again in session 12: update the path pattern.\n",
    ]
    for text in ordinary:
        assert not scanner.may_hold_secret(text), text


def test_hex_under_a_secrets_name_and_mixed_tokens_still_pass_the_gate():
    for text in ("auth: 3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c\n", "Authorization: Bearer 3f9a8b7c6d5e4f3a2b1c\n",
                 "cookie=3f9a8b7c6d5e4f3a2b1c0d9e\n", "signing: 3f9a8b7c6d5e4f3a2b1c0d9e\n",
                 "run 3f9a8b7c6d5e4f3G2b1c\n", "ACCA0123456789ABCDEF\n"):
        assert scanner.may_hold_secret(text), text


# -- the quick gate decides as the one search of MAY_HOLD_SECRET would ------------------------------------------
def _one_search(text: str) -> bool:
    from memwarden.analysis.secrets import gate

    return "\\" in text or gate.MAY_HOLD_SECRET.search(text) is not None


def _real_texts() -> list[str]:
    """Every text file of the corpus, the examples, the hand tables, the blind sets and a generated workspace."""
    import random as _random

    from conftest import bench_generator

    roots = [REPO / "tests" / "fixtures", REPO / "tests" / "data", REPO / "examples", REPO / "bench" / "blind",
             REPO / "bench" / "blind2"]
    paths = [p for root in roots if root.exists() for p in sorted(root.rglob("*")) if p.is_file()]
    texts = [p.read_bytes().decode("utf-8", "replace") for p in paths if p.stat().st_size < 2_000_000]
    gen = bench_generator()
    rng = _random.Random(7)
    texts.append("".join(__import__("json").dumps(gen.episode(rng, n), ensure_ascii=False) + "\n" for n in range(300)))
    return texts


def test_the_quick_gate_decides_as_the_one_search_on_every_real_text():
    texts = _real_texts()
    assert len(texts) > 200
    passed = 0
    for text in texts:
        assert scanner.may_hold_secret(text) == _one_search(text), text[:200]
        # and line by line, where a line's verdict differs from its file's far more often
        for line in text.splitlines()[:400]:
            assert scanner.may_hold_secret(line) == _one_search(line), line[:200]
        passed += _one_search(text)
    assert 0 < passed < len(texts)  # both verdicts were compared


TRICKY = st.sampled_from([
    "key", "KEY", "\u212aey", "pa\u017fs", "PA\u017fS", "prıvate", "PRİVATE", "İ", "ı", "ſ", "\u0307", "pat", "PAT",
    "patH", "pat\u212a", "pat\u017f", "patİ", "pat1", "pat-", " -u", "\t-p", "\u2003-u", "\x1c-p", "-u", "-ux", "-p ",
    "--user", "BEGIN", "begin", "PuTTY", "putty", "xox", "XOX", "://", ":/", "密碼", "パスワード", "비밀번호",
    "0123456789abcdef", "0123456789abcdefg", "0123456789ABCDEF", "abcdef0123456789-", "+/=_", "Z", "a" * 15,
    "auth", "AUTH", "Bearer", "cookie", "SIGNING", "credentiaL", "contrasE", "apikey", "tokeN", "pwd", "\\",
])


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(TRICKY, st.text(max_size=6), st.text(alphabet="abcdefgXYZ019 _-/+=.:\n\t", max_size=20)),
                max_size=25))
@example(["pat", "\u212a"])
@example(["x", "\u2003", "-u"])
@example(["PR", "\u0130", "VATE"])
def test_the_quick_gate_decides_as_the_one_search_on_any_text(pieces):
    text = "".join(pieces)
    assert scanner.may_hold_secret(text) == _one_search(text)


def test_the_gate_folds_every_code_point_as_python_s_ignore_case_matching_does():
    """The gate reads the ignore-case words of MAY_HOLD_SECRET as plain words over a folded text: a character
    must fold to an ASCII letter or digit exactly when ignore-case matching takes it for that letter or digit."""
    import re

    from memwarden.analysis.secrets import gate

    everything = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000)
    folded = gate._folded(everything)
    assert len(folded) == len(everything)  # one character for one
    folds_to: dict[str, set] = {}
    for original, into in zip(everything, folded):
        if into.isascii() and into.isalnum():
            folds_to.setdefault(into, set()).add(original)
    for char in "abcdefghijklmnopqrstuvwxyz0123456789":
        assert set(re.findall("(?i)" + char, everything)) == folds_to.get(char, set()), char
    assert set(re.findall("(?i)[a-z0-9]", everything)) == set().union(*folds_to.values())

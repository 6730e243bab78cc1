"""Property tests: parsers never raise, and fixes are idempotent, lossless and keep files parseable."""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memwarden.documents import load
from memwarden.engine.run import RunOptions, check_workspace
from memwarden.discover.profiles import GHOST_IN_SHELL, THREE_LAYER
from memwarden.discover.workspace import open_workspace

EXAMPLES = int(os.environ.get("MEMWARDEN_PROPERTY_EXAMPLES", "150"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])

KINDS = [
    ("memory/fact.yml", GHOST_IN_SHELL),
    ("memory/episodic.jsonl", GHOST_IN_SHELL),
    ("memory/knowledge/feedback/a.md", GHOST_IN_SHELL),
    ("MEMORY.md", GHOST_IN_SHELL),
    ("memory/scratchpad.md", THREE_LAYER),
]

json_scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=20))
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
records = st.dictionaries(st.text(max_size=8), json_values, max_size=5)


def _load_all(raw: bytes):
    with tempfile.TemporaryDirectory() as tmp:
        for relpath, profile in KINDS:
            doc = load(Path(tmp), relpath, profile.classify(relpath), raw)
            # whatever the bytes, a document is built and either parsed or carries a located error
            assert doc.ok or (doc.error.line >= 1 and doc.error.column >= 1)
            if doc.ok and doc.format == "jsonl":
                for record in doc.records:
                    if record.ok:
                        doc.locate(record, ("x",))


@SETTINGS
@given(st.binary(max_size=400))
def test_parsers_never_raise_on_bytes(raw):
    _load_all(raw)


@SETTINGS
@given(st.text(alphabet=st.sampled_from(list('{}[]:,"\'-#&*!|>\n\r\t ---...abcé記\\0123456789')), max_size=200))
def test_parsers_never_raise_on_syntax_soup(text):
    _load_all(text.encode("utf-8"))
    _load_all(b"---\n" + text.encode("utf-8") + b"\n---\nbody\n")


@st.composite
def messy_jsonl(draw):
    """A list of records, and a JSONL text holding them with blank lines, shared lines, CRLF."""
    items = draw(st.lists(records, min_size=1, max_size=6))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    parts = []
    for item in items:
        encoded = json.dumps(item, ensure_ascii=draw(st.booleans()))
        glue = draw(st.sampled_from([newline, newline, newline + newline, " " + newline + "  " + newline, "", " "]))
        parts.append(encoded + glue)
    text = "".join(parts)
    if draw(st.booleans()):
        text = text.rstrip("\r\n \t")
    bom = draw(st.sampled_from([b"", b"\xef\xbb\xbf"]))
    return items, bom + text.encode("utf-8"), newline


def _fix(root: Path, select: list[str]) -> None:
    ws = open_workspace(root, "three-layer")
    check_workspace(ws, RunOptions(select=select, fix=True, unsafe_fixes=True, cwd=root))


@SETTINGS
@given(messy_jsonl())
def test_jsonl_fix_is_idempotent_lossless_and_parseable(case):
    items, raw, newline = case
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        path = root / "memory" / "episodic.jsonl"
        path.parent.mkdir(parents=True)
        (root / "memory" / "scratchpad.md").write_text("# pad\n")
        path.write_bytes(raw)
        _fix(root, ["malformed-jsonl"])
        once = path.read_bytes()
        _fix(root, ["malformed-jsonl"])
        assert path.read_bytes() == once
        doc = load(root, "memory/episodic.jsonl", THREE_LAYER.kind("episodic"), once)
        assert doc.ok and all(r.ok for r in doc.records)
        assert not doc.blank_lines and not any(r.shares_line for r in doc.records)
        key = lambda value: json.dumps(value, sort_keys=True)  # noqa: E731
        assert Counter(key(r.data) for r in doc.records) == Counter(key(i) for i in items)
        assert once.startswith(raw[:3]) if raw.startswith(b"\xef\xbb\xbf") else not once.startswith(b"\xef\xbb\xbf")
        body = once.decode("utf-8-sig")
        if b"\n" not in raw:
            newline = "\n"  # a file with no line ending at all gets the platform-neutral one
        assert body.endswith(newline)
        if newline == "\r\n":
            assert body.count("\n") == body.count("\r\n")

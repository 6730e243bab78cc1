"""Property tests for every fixer: idempotent, lossless, byte-careful, and the file still parses.

Each property builds memory files with hypothesis (YAML facts in block and flow
style with comments, quoting and block scalars; JSONL episodes with messy tags;
Markdown notes of each profile; startup indexes over a small budget; fake
secrets in every place; git histories with deletions), runs the real engine
with `--fix --unsafe-fixes` in a temp workspace, and checks:

- no exception, and no fix refused by the engine for breaking a file;
- a second run changes no byte (fix(fix(x)) == fix(x)), and leaves nothing fixable;
- every record of the input is still there (parsed content, keys, index entries
  by link target, notes);
- a file that parsed before parses after; BOM, CRLF and the final newline survive.

`MEMWARDEN_PROPERTY_EXAMPLES` scales the example counts (the default keeps the
file well under a minute on two cores).
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import os
import posixpath
import re
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from conftest import REPO, git, write_files
from memwarden.analysis import budget
from memwarden.discover import startup_index
from memwarden.documents import scan
from memwarden.documents import IndexDocument, JsonlDocument, MarkdownDocument, YamlDocument, load
from memwarden.documents.base import decode
from memwarden.engine.run import RunOptions, WorkspaceResult, check_workspace
from memwarden.analysis.tags import normalized_tags
from memwarden.discover.profiles import PROFILES
from memwarden.discover.workspace import open_workspace
from memwarden.rules.budget import DEFAULT_SHELF, budget_options

EXAMPLES = int(os.environ.get("MEMWARDEN_PROPERTY_EXAMPLES", "60"))


def _settings(share: float = 1.0):
    return settings(
        max_examples=max(5, int(EXAMPLES * share)),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


TODAY = dt.date(2026, 6, 1)
BOM = b"\xef\xbb\xbf"
UTF16_BOM = b"\xff\xfe"  # UTF-16 LE: the files are then UTF-16 throughout

# -- text pools -----------------------------------------------------------------------------

NEGATION_TABLE = REPO / "tests" / "data" / "negation_table.tsv"


def _sentences() -> tuple[list[str], list[str]]:
    claims, others = [], []
    for line in NEGATION_TABLE.read_text("utf-8").splitlines()[1:]:
        parts = line.split("\t")
        if len(parts) >= 3 and parts[2].strip():
            (claims if parts[1] == "claim" else others).append(parts[2].strip())
    return claims, others


CLAIMS, NOT_CLAIMS = _sentences()
sentences = st.one_of(st.sampled_from(CLAIMS), st.sampled_from(NOT_CLAIMS))
claim_sentences = st.sampled_from(CLAIMS)


def _load_secret_generator():
    """tests/data/secrets/generate.py's Generator: fake secrets in the real formats, from a seed."""
    path = REPO / "tests" / "data" / "secrets" / "generate.py"
    spec = importlib.util.spec_from_file_location("secrets_generate", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Generator


SecretGenerator = _load_secret_generator()

# -- running the engine ---------------------------------------------------------------------


def run_fix(root: Path, profile: str, select: list[str], **options) -> WorkspaceResult:
    ws = open_workspace(root, profile)
    return check_workspace(
        ws, RunOptions(select=select, fix=True, unsafe_fixes=True, cwd=root, today=TODAY, **options)
    )


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under root (but .git), by '/'-separated relative path."""
    files = {}
    for path in sorted(root.rglob("*")):
        relpath = path.relative_to(root).as_posix()
        if relpath == ".git" or relpath.startswith(".git/") or not path.is_file():
            continue
        files[relpath] = path.read_bytes()
    return files


def fix_twice(root: Path, profile: str, select: list[str], **options) -> tuple[dict, dict]:
    """Run the fixes twice: (files before, files after the first run); asserts the second run is a no-op."""
    before = snapshot(root)
    first = run_fix(root, profile, select, **options)
    assert not first.errors, first.errors  # a fixer proposed an edit the engine had to refuse
    once = snapshot(root)
    event("the fix changed a file" if once != before else "nothing to fix")
    second = run_fix(root, profile, select, **options)
    assert not second.errors, second.errors
    again = snapshot(root)
    changed = {p for p in set(once) | set(again) if once.get(p) != again.get(p)}
    assert not changed, f"a second run changed {sorted(changed)}"
    left = [f for f in second.findings if f.rule.name in select and f.fix is not None]
    assert not left, [(f.rule.name, f.path, f.line, f.message) for f in left]
    return before, once


def parsed(root: Path, profile: str, relpath: str, data: bytes):
    kind = PROFILES[profile].classify(relpath)
    assert kind is not None, relpath
    return load(root, relpath, kind, data)


def assert_parses_and_keeps_bytes_style(root: Path, profile: str, before: dict, after: dict) -> None:
    """Every memory file that parsed before parses after; BOM, line endings and the final newline are kept."""
    for relpath, old in before.items():
        if PROFILES[profile].classify(relpath) is None:
            continue
        new = after.get(relpath)
        assert new is not None, f"{relpath} was deleted by a fix"
        if parsed(root, profile, relpath, old).ok:
            doc = parsed(root, profile, relpath, new)
            assert doc.ok, (relpath, doc.error, new[:2000])
        assert_bytes_style_kept(old, new)
    for relpath in set(after) - set(before):
        if PROFILES[profile].classify(relpath) is not None:
            doc = parsed(root, profile, relpath, after[relpath])
            assert doc.ok, (relpath, doc.error, after[relpath][:2000])


def assert_bytes_style_kept(old: bytes, new: bytes) -> None:
    assert decode(new)[1:3] == decode(old)[1:3], "encoding or BOM changed"
    old_text, new_text = text_of(old), text_of(new)
    lf, crlf = old_text.count("\n"), old_text.count("\r\n")
    if lf and crlf == lf:
        assert new_text.count("\r\n") == new_text.count("\n"), "CRLF file got a bare LF"
    if crlf == 0:
        assert "\r\n" not in new_text, "LF file got a CRLF"
    if old_text.endswith("\n"):
        assert new_text.endswith("\n"), "the final newline was lost"


def is_subsequence(old: str, new: str) -> bool:
    """new is old with characters only inserted."""
    it = iter(new)
    return all(char in it for char in old)


def without_added(after, before, key: str = "expires"):
    """after, minus `key` wherever the fix added it (absent from the matching mapping of before)."""
    if isinstance(after, dict) and isinstance(before, dict):
        return {k: without_added(v, before.get(k), key) for k, v in after.items() if k != key or key in before}
    if isinstance(after, list) and isinstance(before, list) and len(after) == len(before):
        return [without_added(a, b, key) for a, b in zip(after, before)]
    return after


def added_values(after, before, key: str = "expires") -> list:
    """The values of `key` the fix added."""
    found = []
    if isinstance(after, dict) and isinstance(before, dict):
        if key in after and key not in before:
            found.append(after[key])
        for k, v in after.items():
            found += added_values(v, before.get(k), key)
    elif isinstance(after, list) and isinstance(before, list):
        for a, b in zip(after, before):
            found += added_values(a, b, key)
    return found


def assert_valid_new_expiry(values: list) -> None:
    for value in values:
        value = value.isoformat() if isinstance(value, dt.date) else value
        date = dt.date.fromisoformat(str(value))
        assert TODAY < date <= TODAY + dt.timedelta(days=365), value


def without_key(mapping: dict, key: str) -> dict:
    return {k: v for k, v in mapping.items() if k != key}


def records(doc: JsonlDocument) -> list:
    assert doc.ok and all(r.ok for r in doc.records), doc.error
    return [r.data for r in doc.records]


def front_matter(doc: MarkdownDocument):
    assert doc.ok, doc.error
    return doc.front_matter


def body(doc: MarkdownDocument) -> str:
    return doc.text[doc.body_offset :] if doc.has_front_matter else doc.text


# -- building files ---------------------------------------------------------------------------

_PLAIN_BLOCK = re.compile(r"[A-Za-z\u3040-\u30ff\u4e00-\u9fff][^\n#:'\"`|>%@&*!?{}\[\],]*[^\s#:'\"`|>%@&*!?{}\[\],]")


def yaml_scalar(value: str, style: str) -> str:
    """value as a one-line YAML scalar in style: plain (when that reads back the same), ' or "."""
    if style == "plain" and _PLAIN_BLOCK.fullmatch(value) and value.lower() not in ("yes", "no", "on", "off", "null"):
        return value
    if style == "'":
        return "'" + value.replace("'", "''") + "'"
    return json.dumps(value, ensure_ascii=False)


quote_styles = st.sampled_from(["plain", "'", '"'])
newlines = st.sampled_from(["\n", "\r\n"])
boms = st.sampled_from([b"", b"", BOM, UTF16_BOM])


def finish(lines: list[str], newline: str, bom: bytes, final_newline: bool) -> bytes:
    text = newline.join(lines)
    if final_newline:
        text += newline
    return bom + text.encode("utf-16-le" if bom == UTF16_BOM else "utf-8")


def text_of(data: bytes) -> str:
    """The decoded text of a file in any encoding memwarden reads (BOM removed)."""
    text = decode(data)[0]
    assert text is not None, data[:200]
    return text


def comment(draw) -> str:
    return draw(st.sampled_from(["", "", "", "  # checked by hand", " # 備註", "   # TODO: verify: again"]))


@st.composite
def yaml_facts(draw):
    """A facts file: top-level sections as block/flow mappings, lists, nested mappings and block scalars."""
    indent = " " * draw(st.sampled_from([2, 4]))
    lines: list[str] = []
    if draw(st.booleans()):
        lines.append("# Facts the agent keeps about this project")
    if draw(st.integers(0, 4)) == 0:
        lines.append("---")
    if draw(st.booleans()):
        lines.append("schema_version: 1")
    block_scalar = False
    names = draw(st.lists(st.sampled_from(["tools", "environment", "services", "ci", "editor", "環境", "deploy"]),
                          min_size=1, max_size=4, unique=True))
    for name in names:
        shape = draw(st.sampled_from(
            ["block", "block", "flow", "list", "indentless", "flow-list", "nested", "scalar", "merge"]
        ))
        date_style = draw(st.sampled_from(["none", "plain", "quoted"]))
        date = {"none": None, "plain": "2026-03-01", "quoted": '"2026-03-01"'}[date_style]
        if shape == "block":
            lines.append(f"{name}:{comment(draw)}")
            for i, sentence in enumerate(draw(st.lists(sentences, min_size=1, max_size=3))):
                if draw(st.integers(0, 5)) == 0:
                    lines.append(f"{indent}# a comment line")
                key = draw(st.sampled_from([f"note_{i}", f'"note_{i}"', f"'note {i}'"]))
                lines.append(f"{indent}{key}: {yaml_scalar(sentence, draw(quote_styles))}{comment(draw)}")
                if draw(st.integers(0, 5)) == 0:
                    lines.append("")
            if date:
                lines.append(f"{indent}updated: {date}")
            if draw(st.integers(0, 4)) == 0:
                block = draw(st.sampled_from(["|", "|-", ">", "|+"]))
                block_scalar = True
                lines.append(f"{indent}details: {block}")
                lines.append(f"{indent}{indent}{draw(sentences)}")
                if block == "|+":
                    lines.append("")
        elif shape == "flow":
            items = [f"note: {yaml_scalar(draw(sentences), draw(quote_styles))}"]
            if date:
                items.append(f"since: {date}")
            separator = draw(st.sampled_from([", ", ","]))
            lines.append(f"{name}: {{{separator.join(items)}}}{comment(draw)}")
        elif shape == "list":
            lines.append(f"{name}:")
            for sentence in draw(st.lists(sentences, min_size=1, max_size=3)):
                lines.append(f"{indent}- {yaml_scalar(sentence, draw(quote_styles))}{comment(draw)}")
        elif shape == "indentless":
            lines.append(f"{name}:")
            for sentence in draw(st.lists(sentences, min_size=1, max_size=3)):
                lines.append(f"- {yaml_scalar(sentence, draw(quote_styles))}{comment(draw)}")
        elif shape == "merge":
            lines.append(f"{name}_defaults: &{name}_anchor")
            lines.append(f"{indent}claim: {yaml_scalar(draw(sentences), draw(quote_styles))}")
            lines.append(f"{name}:")
            lines.append(f"{indent}<<: *{name}_anchor")
            lines.append(f"{indent}extra: {yaml_scalar(draw(sentences), draw(quote_styles))}")
        elif shape == "flow-list":
            items = [json.dumps(s, ensure_ascii=False) for s in draw(st.lists(sentences, min_size=1, max_size=3))]
            lines.append(f"{name}: [{', '.join(items)}]")
        elif shape == "nested":
            lines.append(f"{name}:")
            lines.append(f"{indent}inner:")
            lines.append(f"{indent}{indent}claim: {yaml_scalar(draw(sentences), draw(quote_styles))}{comment(draw)}")
            if draw(st.booleans()):
                lines.append(f"{indent}{indent}expires: 2026-09-01")
            if draw(st.booleans()):
                lines.append(f"{indent}other: {yaml_scalar(draw(sentences), draw(quote_styles))}")
        else:
            lines.append(f"{name}: {yaml_scalar(draw(sentences), draw(quote_styles))}{comment(draw)}")
    if draw(st.booleans()):
        lines.append("# trailing comment")
    # A block scalar at the very end with no final newline is left out here: see its own test below.
    return finish(lines, draw(newlines), draw(boms), block_scalar or draw(st.booleans()))


TAG_POOL = [
    "deploy", "Deploy", " deploy", "deploy ", "DEPLOY", "ci", "CI", " CI ", "", "  ", "release",
    "runtime:claude-code", "Runtime:Claude-Code", "記憶", " 記憶", "デプロイ", "Ärger", "ärger", "ǅemal",
    "İstanbul", "ß", "Straße", "x\ty", "a\u00a0",
]
tags = st.lists(st.one_of(st.sampled_from(TAG_POOL), st.text(max_size=6)), max_size=6)
tags_maybe_odd = st.one_of(tags, tags.map(lambda t: t + [7]))  # a number among the tags: no fix for that list


def dump_record(draw, record: dict) -> str:
    separators = draw(st.sampled_from([(", ", ": "), (",", ":"), (", ", ":")]))
    text = json.dumps(record, ensure_ascii=draw(st.booleans()), separators=separators)
    if draw(st.integers(0, 4)) == 0 and text != "{}":
        text = "{ " + text[1:-1] + " }"
    return text


@st.composite
def episode(draw, number: int, gish: bool, tag_values=tags_maybe_odd, text=sentences):
    record = {"ts": f"2026-03-{number % 28 + 1:02d}T10:00:00+08:00", "type": "decision"}
    if gish:
        record.update({"id": f"ep_{number:08d}", "title": draw(text), "content": draw(text)})
    else:
        record.update({"summary": draw(text)})
        if draw(st.booleans()):
            record["detail"] = draw(text)
    record["tags"] = draw(tag_values)
    if draw(st.integers(0, 5)) == 0:
        record["expires"] = "2026-08-01"
    if draw(st.integers(0, 4)) == 0:
        record["retrieval"] = {"count": draw(st.integers(0, 9)), "tags": ["Not", "these"]}
    keys = draw(st.permutations(list(record)))
    return {key: record[key] for key in keys}


@st.composite
def episode_log(draw, gish: bool, tag_values=tags_maybe_odd, text=sentences, min_size=1):
    count = draw(st.integers(min_size, 5))
    items = [draw(episode(n + 1, gish, tag_values, text)) for n in range(count)]
    lines = [dump_record(draw, item) for item in items]
    raw = finish(lines, draw(newlines), draw(boms), True)
    return items, raw


def front_matter_lines(draw, profile: str, slug: str, description: str, tag_list: list | None) -> list[str] | None:
    """Front matter lines (with the --- fences) for a note of the profile; None for no front matter."""
    style = draw(quote_styles)
    if profile == "ghost-in-shell":
        lines = ["---", f"name: {slug}", f"description: {yaml_scalar(description, style)}{comment(draw)}"]
        shape = draw(st.sampled_from(["block", "block", "flow", "none"]))
        updated = draw(st.sampled_from(["2026-03-01", '"2026-03-01"', "'2026-03-01'"]))
        if shape == "block":
            lines += ["metadata:", "  type: feedback", f"  updated: {updated}{comment(draw)}"]
            if draw(st.booleans()):
                lines.append("  confidence: 0.8")
            if draw(st.integers(0, 3)) == 0:
                lines.append("  # reviewed")
        elif shape == "flow":
            lines.append(f"metadata: {{type: feedback, updated: {updated}}}")
    elif profile == "claude-code":
        lines = ["---", f"name: {slug}", f"description: {yaml_scalar(description, style)}", "type: feedback"]
    else:
        shape = draw(st.sampled_from(["keys", "keys", "empty", "none"]))
        if shape == "none":
            return None
        if shape == "empty":
            return ["---", "---"]
        lines = ["---", f"title: {yaml_scalar(description, style)}"]
        if draw(st.booleans()):
            lines.append(f"updated: {draw(st.sampled_from(['2026-03-01', chr(39) + '2026-03-01' + chr(39)]))}")
    if tag_list is not None:
        if draw(st.booleans()):
            lines.append("tags: [" + ", ".join(json.dumps(t, ensure_ascii=False) for t in tag_list) + "]")
        elif any(isinstance(t, str) and t.strip() for t in tag_list):
            # A block list of nothing but empty tags is left out here: see its own test below.
            lines.append("tags:")
            item_style = draw(st.sampled_from(['"', "'"]))
            dash = draw(st.sampled_from(["  - ", "- ", "    - "]))
            lines += [f"{dash}{yaml_scalar(t, item_style)}{comment(draw)}" for t in tag_list]
        else:
            lines.append("tags: []")
    return lines + ["---"]


@st.composite
def note_body(draw, text=sentences) -> list[str]:
    lines: list[str] = [""]
    for _ in range(draw(st.integers(1, 4))):
        shape = draw(st.sampled_from(["para", "para", "list", "heading", "fence", "comment", "code"]))
        if shape == "para":
            lines += [" ".join(draw(st.lists(text, min_size=1, max_size=3))), ""]
        elif shape == "list":
            lines += [f"- {s}" for s in draw(st.lists(text, min_size=1, max_size=3))] + [""]
        elif shape == "heading":
            lines += [f"## {draw(text)}", ""]
        elif shape == "fence":
            lines += ["```text", draw(claim_sentences), "```", ""]
        elif shape == "comment":
            lines += [f"<!-- {draw(claim_sentences)} -->", ""]
        else:
            lines += [f"Run `{draw(claim_sentences)}` first.", ""]
    return lines


NOTE_PATHS = {
    "ghost-in-shell": "memory/knowledge/feedback/{slug}.md",
    "three-layer": "memory/notes/{slug}.md",
    "claude-code": "{slug}.md",
}


@st.composite
def note(draw, profile: str, slug: str, tag_values=None, text=sentences):
    tag_list = draw(tag_values) if tag_values is not None else None
    head = front_matter_lines(draw, profile, slug, draw(text), tag_list)
    lines = (head or []) + draw(note_body(text))
    return NOTE_PATHS[profile].format(slug=slug), finish(lines, draw(newlines), draw(boms), draw(st.booleans()))


def workspace_dir():
    return tempfile.TemporaryDirectory(prefix="mw-prop-")


# -- unnormalized-tags (safe) ------------------------------------------------------------------


@_settings()
@given(st.sampled_from(["ghost-in-shell", "three-layer"]), st.data())
def test_unnormalized_tags_fix_on_episodes(profile, data):
    items, raw = data.draw(episode_log(profile == "ghost-in-shell"))
    with workspace_dir() as tmp:
        root = Path(tmp)
        write_files(root, {"memory/episodic.jsonl": raw})
        before, after = fix_twice(root, profile, ["unnormalized-tags"])
        assert_parses_and_keeps_bytes_style(root, profile, before, after)
        fixed = records(parsed(root, profile, "memory/episodic.jsonl", after["memory/episodic.jsonl"]))
        assert len(fixed) == len(items)
        for old, new in zip(items, fixed):
            expected = dict(old)
            if all(isinstance(t, str) for t in old["tags"]):
                expected["tags"] = normalized_tags(old["tags"])
            assert new == expected
            assert list(new) == list(old)  # key order


@_settings()
@given(st.sampled_from(["ghost-in-shell", "three-layer", "claude-code"]), st.data())
def test_unnormalized_tags_fix_on_note_front_matter(profile, data):
    relpath, raw = data.draw(note(profile, "tagged", tag_values=st.lists(st.sampled_from(TAG_POOL), max_size=6)))
    with workspace_dir() as tmp:
        root = Path(tmp)
        write_files(root, {relpath: raw})
        doc_before = parsed(root, profile, relpath, raw)
        assert doc_before.ok, doc_before.error
        before, after = fix_twice(root, profile, ["unnormalized-tags"])
        assert_parses_and_keeps_bytes_style(root, profile, before, after)
        doc = parsed(root, profile, relpath, after[relpath])
        old_front, new_front = front_matter(doc_before) or {}, front_matter(doc) or {}
        if isinstance(old_front.get("tags"), list):
            assert new_front["tags"] == normalized_tags(old_front["tags"])
        assert without_key(new_front, "tags") == without_key(old_front, "tags")
        assert body(doc) == body(doc_before)


# -- too-few-tags (unsafe) ----------------------------------------------------------------------

VOCABULARY = ["deploy", "docker", "cache", "release", "記憶", "デプロイ", "runtime:claude-code"]


@st.composite
def vocabulary_text(draw) -> str:
    words = draw(st.lists(st.sampled_from(VOCABULARY + ["Deploy", "CACHE", "unrelated", "deployment"]), max_size=4))
    return " ".join([draw(sentences)] + words)


@_settings()
@given(st.sampled_from(["ghost-in-shell", "three-layer"]), st.data())
def test_too_few_tags_fix_appends_only_workspace_tags_the_text_mentions(profile, data):
    gish = profile == "ghost-in-shell"
    rich = st.lists(st.sampled_from(VOCABULARY), min_size=2, max_size=4, unique=True)
    poor = st.lists(st.sampled_from(VOCABULARY + ["Deploy", " other", ""]), max_size=1)
    items, raw = data.draw(episode_log(gish, tag_values=st.one_of(rich, poor), text=vocabulary_text()))
    files = {"memory/episodic.jsonl": raw}
    note_path = None
    if data.draw(st.booleans()):
        note_path, note_raw = data.draw(note(profile, "tagged", tag_values=poor, text=vocabulary_text()))
        files[note_path] = note_raw
    with workspace_dir() as tmp:
        root = Path(tmp)
        write_files(root, files)
        vocabulary = {t for item in items for t in normalized_tags(item["tags"])}
        if note_path is not None:
            note_tags = (front_matter(parsed(root, profile, note_path, files[note_path])) or {}).get("tags")
            vocabulary |= set(normalized_tags(note_tags)) if isinstance(note_tags, list) else set()
        before, after = fix_twice(root, profile, ["too-few-tags"])
        assert_parses_and_keeps_bytes_style(root, profile, before, after)
        for relpath in before:
            assert is_subsequence(text_of(before[relpath]), text_of(after[relpath]))
        fixed = records(parsed(root, profile, "memory/episodic.jsonl", after["memory/episodic.jsonl"]))
        assert len(fixed) == len(items)
        for old, new in zip(items, fixed):
            assert without_key(new, "tags") == without_key(old, "tags")
            assert new["tags"][: len(old["tags"])] == old["tags"]
            added = new["tags"][len(old["tags"]) :]
            text = " ".join(str(old.get(k, "")) for k in ("title", "summary", "content", "detail")).lower()
            assert all(tag in vocabulary and tag in text for tag in added), (added, text)
            assert len(normalized_tags(new["tags"])) == len(normalized_tags(old["tags"])) + len(added)


# -- negative-claim-without-expiry (safe) --------------------------------------------------------


@_settings(1.5)
@given(st.sampled_from(["ghost-in-shell", "three-layer"]), yaml_facts())
def test_claim_expiry_fix_on_yaml_facts(profile, raw):
    relpath = "memory/fact.yml"
    with workspace_dir() as tmp:
        root = Path(tmp)
        write_files(root, {relpath: raw})
        doc_before = parsed(root, profile, relpath, raw)
        assert doc_before.ok, (doc_before.error, raw)
        before, after = fix_twice(root, profile, ["negative-claim-without-expiry"])
        assert_parses_and_keeps_bytes_style(root, profile, before, after)
        doc = parsed(root, profile, relpath, after[relpath])
        assert without_added(doc.data, doc_before.data) == doc_before.data
        assert list(without_added(doc.data, doc_before.data)) == list(doc_before.data)  # key order
        assert_valid_new_expiry(added_values(doc.data, doc_before.data))
        assert is_subsequence(doc_before.text, doc.text)  # only insertions: comments, quoting, order untouched


@_settings()
@given(st.sampled_from(["ghost-in-shell", "three-layer"]), st.data())
def test_claim_expiry_fix_on_episodes(profile, data):
    items, raw = data.draw(episode_log(profile == "ghost-in-shell", tag_values=st.just(["a", "b"])))
    with workspace_dir() as tmp:
        root = Path(tmp)
        write_files(root, {"memory/episodic.jsonl": raw})
        before, after = fix_twice(root, profile, ["negative-claim-without-expiry"])
        assert_parses_and_keeps_bytes_style(root, profile, before, after)
        fixed = records(parsed(root, profile, "memory/episodic.jsonl", after["memory/episodic.jsonl"]))
        assert len(fixed) == len(items)
        assert [without_added(new, old) for new, old in zip(fixed, items)] == items
        assert_valid_new_expiry(added_values(fixed, items))
        assert is_subsequence(text_of(before["memory/episodic.jsonl"]), text_of(after["memory/episodic.jsonl"]))


@_settings(1.5)
@given(st.sampled_from(["ghost-in-shell", "three-layer", "claude-code"]), st.data())
def test_claim_expiry_fix_on_notes(profile, data):
    relpath, raw = data.draw(note(profile, "a-note"))
    with workspace_dir() as tmp:
        root = Path(tmp)
        write_files(root, {relpath: raw})
        doc_before = parsed(root, profile, relpath, raw)
        assert doc_before.ok, (doc_before.error, raw)
        before, after = fix_twice(root, profile, ["negative-claim-without-expiry"])
        assert_parses_and_keeps_bytes_style(root, profile, before, after)
        doc = parsed(root, profile, relpath, after[relpath])
        old_front = front_matter(doc_before) if doc_before.has_front_matter else {}
        new_front = front_matter(doc) if doc.has_front_matter else {}
        assert without_added(new_front, old_front) == old_front
        added = added_values(new_front, old_front)
        assert_valid_new_expiry(added)
        if profile == "ghost-in-shell":
            assert "expires" not in new_front or "expires" in old_front  # gish reads metadata.expires only
        assert body(doc) == body(doc_before)
        assert is_subsequence(doc_before.text, doc.text)


# -- malformed-jsonl together with every other fix of a log ----------------------------------------


@st.composite
def messy_log(draw, gish: bool):
    """Episodes with blank lines, two records on a line, no final newline, messy tags and claims."""
    # A tag list whose every tag is empty is left out here: see its own test below.
    some_tags = tags.filter(lambda values: not values or normalized_tags(values))
    items = [draw(episode(n + 1, gish, some_tags, vocabulary_text())) for n in range(draw(st.integers(1, 6)))]
    newline = draw(newlines)
    text = ""
    for item in items:
        glue = draw(st.sampled_from([newline, newline, newline * 2, " " + newline + "\t" + newline, "", " "]))
        text += dump_record(draw, item) + glue
    if draw(st.booleans()):
        text = text.rstrip("\r\n \t")
    return items, finish([text], "", draw(boms), False)


@_settings()
@given(st.sampled_from(["ghost-in-shell", "three-layer"]), st.data())
def test_every_fix_of_a_log_at_once(profile, data):
    items, raw = data.draw(messy_log(profile == "ghost-in-shell"))
    select = ["malformed-jsonl", "unnormalized-tags", "too-few-tags", "negative-claim-without-expiry"]
    with workspace_dir() as tmp:
        root = Path(tmp)
        write_files(root, {"memory/episodic.jsonl": raw})
        before, after = fix_twice(root, profile, select)
        assert_parses_and_keeps_bytes_style(root, profile, before, after)
        doc = parsed(root, profile, "memory/episodic.jsonl", after["memory/episodic.jsonl"])
        assert not doc.blank_lines and not any(r.shares_line for r in doc.records)
        fixed = records(doc)
        assert len(fixed) == len(items)
        for old, new in zip(items, fixed):
            new = without_added(new, old)
            old_tags = normalized_tags(old["tags"])
            assert normalized_tags(new["tags"])[: len(old_tags)] == old_tags
            assert without_key(new, "tags") == without_key(old, "tags")


# -- index-over-budget / index-past-truncation: shelving (unsafe) -------------------------------------

TRIGGERS_TABLE = REPO / "tests" / "data" / "triggers_table.tsv"


def _triggers() -> list[str]:
    found = []
    for line in TRIGGERS_TABLE.read_text("utf-8").splitlines():
        parts = line.split("\t")
        if line.startswith("#") or len(parts) < 3 or parts[0] == "language":
            continue
        text = parts[2].strip()
        if text and not any(mark in text for mark in '"「」“”『』'):
            found.append(text)
    return found


TRIGGERS = _triggers()
CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def render_trigger(text: str) -> str:
    return f"「{text}」" if CJK.search(text) else f'"{text}"'


def index_entries(relpath: str, data: bytes, root: Path) -> list[tuple[tuple[str, ...], tuple]]:
    kind = PROFILES["ghost-in-shell"].classify(relpath)
    doc = load(root, relpath, kind, data)
    assert isinstance(doc, IndexDocument) and doc.ok, (relpath, doc.error)
    return [
        (
            tuple(trigger.text for trigger in entry.triggers),
            tuple(scan.resolve_link(relpath, link.target) for link in entry.links),
        )
        for entry in doc.entries
    ]


def all_index_entries(files: dict[str, bytes], root: Path) -> Counter:
    found: Counter = Counter()
    for relpath, data in files.items():
        kind = PROFILES["ghost-in-shell"].classify(relpath)
        if kind is not None and kind.format == "index":
            found.update(index_entries(relpath, data, root))
    return found


@st.composite
def over_budget_index(draw):
    """A gish workspace whose MEMORY.md holds many entries, and a .memwarden.toml with a small budget."""
    count = draw(st.integers(6, 30))
    newline = draw(newlines)
    lines: list[str] = []
    if draw(st.integers(0, 5)) == 0:
        lines += ["---", "title: memory index", "---"]
    lines += ["# Memory Index", ""]
    if draw(st.booleans()):
        lines += ["Read the line whose trigger matches what you are about to do.", ""]
    if draw(st.booleans()):
        lines += ["<!-- entries are symptoms, not topics -->", ""]
    files: dict[str, bytes] = {}
    if draw(st.booleans()):
        pointer = '- "Which flags does the deploy script take" → [tools shelf](memory/knowledge/INDEX_tools.md)'
        lines += ["## Shelves", "", pointer, ""]
        files["memory/knowledge/INDEX_tools.md"] = b"# Tools\n"
    lines += ["## Tier 1", ""]
    for i in range(count):
        first = render_trigger(draw(st.sampled_from(TRIGGERS)))
        if draw(st.integers(0, 6)) == 0:
            first += " **or the reverse** " + render_trigger(draw(st.sampled_from(TRIGGERS)))
        target = draw(st.sampled_from([
            "memory/knowledge/feedback/n{i:03d}.md", "./memory/knowledge/feedback/n{i:03d}.md",
            "memory/knowledge/feedback/n{i:03d}.md#why", "<memory/knowledge/feedback/n {i:03d}.md>",
            "https://example.com/n{i:03d}",
        ])).format(i=i)
        arrow = draw(st.sampled_from(["→", "->"]))
        marker = draw(st.sampled_from(["-", "-", "*"]))
        mark = " <!-- memwarden-shelve -->" if draw(st.integers(0, 6)) == 0 else ""
        hook = draw(st.sampled_from(["", "", " — read before deploying"]))
        lines.append(f"{marker} {first} {arrow} [note {i:03d}]({target}){hook}{mark}")
        if draw(st.integers(0, 8)) == 0:
            lines += ["", "## Tier 2", ""]
        if draw(st.integers(0, 10)) == 0:
            lines += ["```", f'- "not an entry" → [x](memory/knowledge/feedback/x{i}.md)', "```"]
    if draw(st.booleans()):
        lines += ["", "Last reviewed 2026-03-01."]
    bom = draw(boms)
    index = finish(lines, newline, bom, draw(st.booleans()))
    files["MEMORY.md"] = index
    shelf = draw(st.sampled_from(["memory/knowledge/INDEX_overflow.md", "memory/knowledge/INDEX_later.md"]))
    if draw(st.booleans()):
        shelf_lines = ["# Overflow", "", '- "an older lesson" → [old](feedback/old.md)']
        files[shelf] = finish(shelf_lines, draw(newlines), b"", draw(st.booleans()))
    unit = draw(st.sampled_from(list(budget.UNITS)))
    total = budget.size(text_of(index), unit)
    maximum = draw(st.integers(max(1, total // 2), max(1, total + 5)))
    edge = draw(st.integers(maximum, max(maximum, total * 2)))
    config = f'[rules.index-over-budget]\nunit = "{unit}"\nmax = {maximum}\nedge = {edge}\n'
    if shelf != DEFAULT_SHELF:
        config += f'shelf = "{shelf}"\n'
    files[".memwarden.toml"] = config.encode()
    return files, shelf


def _non_entry_lines(text: str) -> Counter:
    return Counter(line for line in text.splitlines() if line.strip() and not re.match(r"\s*[-*] .*\]\(", line))


@_settings(1.5)
@given(over_budget_index())
def test_shelving_fix_keeps_every_entry_and_fits_the_budget(case):
    files, shelf = case
    profile = "ghost-in-shell"
    with workspace_dir() as tmp:
        root = Path(tmp)
        write_files(root, files)
        before, after = fix_twice(root, profile, ["index-over-budget", "index-past-truncation"])
        assert_parses_and_keeps_bytes_style(root, profile, before, after)
        old_entries, new_entries = all_index_entries(before, root), all_index_entries(after, root)
        assert not (set(old_entries) - set(new_entries)), set(old_entries) - set(new_entries)
        old_index = text_of(before["MEMORY.md"])
        new_index = text_of(after["MEMORY.md"])
        # only entry lines leave the index (headings, prose, comments and fenced lines stay)
        assert not (_non_entry_lines(old_index) - _non_entry_lines(new_index))
        old_lines = old_index.splitlines()
        added = [line for line in new_index.splitlines() if line not in old_lines]
        assert len(added) <= 1 and all(f"]({shelf})" in line for line in added), added  # at most the shelf pointer
        kept = [line for line in new_index.splitlines() if line in old_lines]
        assert is_subsequence(kept, old_lines), "the index lines that stay kept their order"
        if after != before:
            ws = open_workspace(root, profile)
            settings_ = startup_index.resolve_settings(budget_options(ws.config), profile, root)
            assert startup_index.measure(ws, settings_).worst.status == budget.WITHIN
            for relpath in set(after) - {"MEMORY.md"}:
                if relpath in before:
                    assert after[relpath].startswith(before[relpath]), f"{relpath}: a shelf is only appended to"


# -- secret-in-memory: redaction (unsafe) ------------------------------------------------------------

# Formats with a fixed prefix: found wherever they stand, so the fix must remove every one.
PREFIXED = ("anthropic", "openai_project", "github", "github_pat", "npm", "gitlab", "stripe", "slack_bot", "sendgrid")

# {n} keeps keys apart: a value under a duplicated key is another story (see its own test below).
YAML_PLACES = [
    "  api_key_{n}: {s}", '  api_key_{n}: "{s}"', "  api_key_{n}: '{s}'", "  creds_{n}: {{token: {s}, user: ci}}",
    "  keys_{n}: [{s}, other]", "  tokens_{n}:\n    - {s}", "  # old token {s}", "  setup_{n}: |\n    export TOKEN={s}",
    "  note_{n}: deploy with token {s} today", '  note_{n}: "deploy with token {s} today"',
]
JSON_PLACES = ["token {s}", "line one\nthe key {s}\tend", "{s}"]
NOTE_PLACES = [
    "The key is {s}.", "```env\nTOKEN={s}\n```", "<!-- token {s} -->", "Set `GH_TOKEN={s}` in CI.", "- bot key: {s}",
]


@st.composite
def secret(draw, g):
    name = draw(st.sampled_from(PREFIXED))
    return getattr(g, name)()


@st.composite
def secrets_workspace(draw):
    """Files of one profile with fake secrets in YAML values and comments, JSON strings, front matter, prose, index."""
    g = SecretGenerator(draw(st.integers(0, 2**32 - 1)))
    profile = draw(st.sampled_from(["ghost-in-shell", "three-layer", "claude-code"]))
    newline = draw(newlines)
    planted: list[str] = []
    files: dict[str, bytes] = {}

    def plant(template: str, value: str | None = None) -> str:
        value = value or draw(secret(g))
        planted.append(value)
        return template.format(s=value, n=len(planted))

    if profile != "claude-code":
        lines = ["# facts", "tools:"]
        for template in draw(st.lists(st.sampled_from(YAML_PLACES), min_size=1, max_size=3)):
            lines += plant(template).split("\n")
            lines.append(f"  other_{len(lines)}: kept")
        if draw(st.booleans()):
            # A password with a '.' reads as `settings.KEY` to the detector: see its own test below.
            password = g.url_password().replace(".", "-")
            lines += ["db:", plant("  dsn: postgres://app:{s}@db.internal:5432/app", password)]
        if draw(st.booleans()):
            key = g.private_key_lines("RSA PRIVATE KEY")
            lines += ["deploy:", "  key: |", *[f"    {line}" for line in key], "  user: ci"]
            planted.extend(key)  # every line of it is the secret
        files["memory/fact.yml"] = finish(lines, newline, draw(boms), True)
        records_ = []
        for n, template in enumerate(draw(st.lists(st.sampled_from(JSON_PLACES), max_size=3))):
            record = {"id": f"ep_{n:08d}", "ts": "2026-03-01T10:00:00+08:00", "type": "setup",
                      "summary": "a setup step", "content": plant(template), "tags": ["setup", "ci"]}
            if draw(st.booleans()):
                record["password"] = plant("{s}", g.password())
            records_.append(dump_record(draw, record))
        if records_:
            files["memory/episodic.jsonl"] = finish(records_, newline, draw(boms), True)
    slug = "vendor-keys"
    head = front_matter_lines(draw, profile, slug, "Where the vendor keys live", None) or []
    if head and draw(st.booleans()):
        head.insert(2, plant("description_extra: token {s}"))
    body_lines = [""]
    for template in draw(st.lists(st.sampled_from(NOTE_PLACES), min_size=1, max_size=3)):
        body_lines += plant(template).split("\n") + [""]
    files[NOTE_PATHS[profile].format(slug=slug)] = finish(head + body_lines, newline, draw(boms), draw(st.booleans()))
    if profile != "three-layer" and draw(st.booleans()):
        target = NOTE_PATHS[profile].format(slug=slug)
        entry = plant(f'- "the bot needs its key" → [keys]({target}) — key {{s}}')
        files["MEMORY.md"] = finish(["# Memory Index", "", entry], newline, b"", True)
    return profile, files, planted


def shape(value):
    """value with every string replaced by a marker: what redaction must leave as it was."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [shape(v) for v in value]
    return "<str>" if isinstance(value, str) else value


def structure(root: Path, profile: str, relpath: str, data: bytes):
    doc = parsed(root, profile, relpath, data)
    if isinstance(doc, YamlDocument):
        return shape(doc.data)
    if isinstance(doc, JsonlDocument):
        return shape(records(doc))
    if isinstance(doc, MarkdownDocument):
        return shape(doc.front_matter)
    return None


@_settings()
@given(secrets_workspace())
def test_secret_redaction_fix(case):
    profile, files, planted = case
    with workspace_dir() as tmp:
        root = Path(tmp)
        write_files(root, files)
        before, after = fix_twice(root, profile, ["secret-in-memory"])
        assert_parses_and_keeps_bytes_style(root, profile, before, after)
        for relpath, old in before.items():
            new = after[relpath]
            assert structure(root, profile, relpath, new) == structure(root, profile, relpath, old)
            old_text, new_text = text_of(old), text_of(new)
            clean = [line for line in old_text.splitlines() if not any(part in line for part in planted)]
            assert is_subsequence(clean, new_text.splitlines()), f"{relpath}: a line without a secret changed"
            left = [value for value in planted if value in new_text]
            event(f"secrets left: {len(left)}")
            assert not left, (relpath, left, new_text)


# -- deleted-record / deleted-note: restoring from git (unsafe) ----------------------------------------------

APPEND_ONLY = ["deleted-record", "deleted-note"]
IGNORED_MARKERS = ("archived", "decay_status")


def _canonical_record(record: dict) -> str:
    return json.dumps({k: v for k, v in record.items() if k not in IGNORED_MARKERS}, sort_keys=True, ensure_ascii=False)


@st.composite
def facts_sections(draw, gish: bool) -> list[tuple[str, list[str]]]:
    """Facts as (header line, item lines) blocks, so that whole items or sections can be deleted and stay YAML."""
    sections = []
    if gish:
        identity = ["  name: Agent  # what the user calls it", '  language: "en"', "  timezone: UTC"]
        sections.append(("identity:", identity))
    names = st.lists(st.sampled_from(["preferences", "tools", "services", "ci"]), min_size=1, max_size=3, unique=True)
    keys = st.lists(st.sampled_from(["editor", "shell", "deploy", "cache", "db"]), min_size=1, max_size=3, unique=True)
    for name in draw(names):
        if draw(st.booleans()):
            items = [f"  {key}: {yaml_scalar(draw(sentences), draw(quote_styles))}" for key in draw(keys)]
        else:
            values = dict.fromkeys(draw(st.lists(sentences, min_size=1, max_size=3)))
            items = [f"  - {yaml_scalar(value, draw(quote_styles))}" for value in values]
        sections.append((f"{name}:", items))
    if gish:
        archive = draw(st.sampled_from(["absent", "archive: {}", "archive: {}  # retired facts", "archive:", "filled"]))
        if archive == "filled":
            sections.append(("archive:", ["  old-2025:", "    editor: nano"]))
        elif archive != "absent":
            sections.append((archive, []))
    return sections


def after_deletions(draw, sections: list[tuple[str, list[str]]]) -> list[tuple[str, list[str]]]:
    """The facts with some items and whole sections deleted (archive blocks and identity are never deleted whole)."""
    survivors = []
    for header, items in sections:
        if header.startswith("archive"):
            survivors.append((header, items))
            continue
        if header != "identity:" and draw(st.integers(0, 3)) == 0:
            continue
        kept = some_of(draw, items)
        if items and not kept:  # every item gone: an empty collection keeps the YAML valid
            header = header[:-1] + (": []" if items[0].lstrip().startswith("- ") else ": {}")
        survivors.append((header, kept))
    return survivors


def some_of(draw, values: list) -> list:
    keep = draw(st.lists(st.booleans(), min_size=len(values), max_size=len(values)))
    return [value for value, kept in zip(values, keep) if kept]


def render_sections(sections, newline: str, bom: bytes) -> bytes:
    lines = []
    for header, items in sections:
        lines.append(header)
        lines += items
    return finish(lines, newline, bom, True)


@st.composite
def git_history(draw):
    """(profile, files at the base commit, files in the working tree after deletions)."""
    profile = draw(st.sampled_from(["ghost-in-shell", "three-layer"]))
    gish = profile == "ghost-in-shell"
    newline = draw(newlines)
    base: dict[str, bytes] = {}
    current: dict[str, bytes] = {}
    count = draw(st.integers(2, 6))
    items = [draw(episode(n + 1, gish, st.just(["setup", "ci"]))) for n in range(count)]
    if gish:
        for n, item in enumerate(items):
            item["fingerprint"] = f"{n + 1:064x}"
    lines = [dump_record(draw, item) for item in items]
    base["memory/episodic.jsonl"] = finish(lines, newline, b"", True)
    current["memory/episodic.jsonl"] = finish(some_of(draw, lines), newline, b"", True)
    if gish:
        links = [{"ts": "2026-03-01T10:00:00Z", "src": {"kind": "episode", "id": f"ep_{n:08d}"},
                  "dst": {"kind": "episode", "id": "ep_00000001"}, "type": "elaborates", "weight": 0.5}
                 for n in range(2, count + 1)]
        lines = [json.dumps(link) for link in links]
        base["memory/associations.jsonl"] = finish(lines, newline, b"", True)
        current["memory/associations.jsonl"] = finish(some_of(draw, lines), newline, b"", True)
    sections = draw(facts_sections(gish))
    bom = draw(boms)
    base["memory/fact.yml"] = render_sections(sections, newline, bom)
    current["memory/fact.yml"] = render_sections(after_deletions(draw, sections), newline, bom)
    note_count = draw(st.integers(1, 4))
    entries = []
    for n in range(note_count):
        relpath = NOTE_PATHS[profile].format(slug=f"note-{n}")
        _, raw = draw(note(profile, f"note-{n}"))
        base[relpath] = raw
        fate = draw(st.sampled_from(["kept", "kept", "deleted", "emptied"]))
        if fate == "kept":
            current[relpath] = raw
        elif fate == "emptied":
            current[relpath] = b""
        entries.append(f"- {render_trigger(draw(st.sampled_from(TRIGGERS)))} → [note {n}]({relpath})")
    if gish:
        base["MEMORY.md"] = finish(["# Memory Index", "", *entries], newline, b"", True)
        current["MEMORY.md"] = finish(["# Memory Index", "", *some_of(draw, entries)], newline, b"", True)
    return profile, base, current


def _json_records(files: dict[str, bytes], root: Path, profile: str) -> set[str]:
    found = set()
    for relpath, data in files.items():
        kind = PROFILES[profile].classify(relpath)
        if kind is not None and kind.format == "jsonl" and kind.name != "associations":
            found |= {_canonical_record(r) for r in records(load(root, relpath, kind, data)) if isinstance(r, dict)}
    return found


def _associations(files: dict[str, bytes], root: Path) -> set[str]:
    found = set()
    for relpath, data in files.items():
        if relpath.endswith("associations.jsonl"):
            kind = PROFILES["ghost-in-shell"].kind("associations")
            links = records(load(root, relpath, kind, data))
            found |= {json.dumps([link["src"], link["dst"], link["type"]], sort_keys=True) for link in links}
    return found


def _fact_leaves(files: dict[str, bytes], root: Path, profile: str) -> Counter:
    leaves: Counter = Counter()

    def walk(value):
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif value is not None:
            leaves[json.dumps(value, default=str)] += 1

    for relpath, data in files.items():
        if relpath.endswith((".yml", ".yaml")) and "fact" in relpath:
            doc = load(root, relpath, PROFILES["three-layer"].kind("facts"), data)
            assert doc.ok, (relpath, doc.error)
            walk(doc.data)
    return leaves


def _restored_index_entries(files: dict[str, bytes], root: Path) -> set:
    found = set()
    for relpath, data in files.items():
        if relpath == "MEMORY.md" or posixpath.basename(relpath).startswith("INDEX_"):
            kind = PROFILES["ghost-in-shell"].kind("shelf-index")
            doc = load(root, relpath, kind, data)
            assert isinstance(doc, IndexDocument) and doc.ok, (relpath, doc.error)
            for entry in doc.entries:
                found.add((tuple(t.text for t in entry.triggers),
                           tuple(scan.resolve_link(relpath, link.target) for link in entry.links)))
    return found


@_settings(0.35)
@given(git_history())
def test_restoring_deleted_records_and_notes_from_git(case):
    profile, base, current = case
    with workspace_dir() as tmp:
        root = Path(tmp)
        git(root, "init", "-q", "-b", "main")
        write_files(root, base)
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", "base")
        for relpath in base:
            if relpath not in current:
                (root / relpath).unlink()
        write_files(root, current)
        _, after = fix_twice(root, profile, APPEND_ONLY, base="HEAD")
        assert_parses_and_keeps_bytes_style(root, profile, current, after)
        # the rules' own view: nothing of the base is lost any more
        run = RunOptions(select=APPEND_ONLY, base="HEAD", cwd=root, today=TODAY)
        left = check_workspace(open_workspace(root, profile), run)
        assert not left.findings, [(f.rule.name, f.path, f.message) for f in left.findings]
        # and ours: every episode, association, fact value, index entry and note of the base is somewhere now
        assert _json_records(base, root, profile) <= _json_records(after, root, profile)
        assert _associations(base, root) <= _associations(after, root)
        assert not (_fact_leaves(base, root, profile) - _fact_leaves(after, root, profile))
        base_index = {p: d for p, d in base.items() if p == "MEMORY.md"}
        assert _restored_index_entries(base_index, root) <= _restored_index_entries(after, root)
        # a restored note holds the text it had (its BOM is another matter: see its own test below)
        texts = {text_of(data) for data in after.values()}
        for relpath, data in base.items():
            kind = PROFILES[profile].classify(relpath)
            if kind is not None and kind.name == "note":
                assert text_of(data) in texts, f"{relpath} is nowhere in the working tree"


# -- what these properties found, each fixed in src and kept here as a minimal example -----------------


def test_dropping_every_tag_of_a_block_list_keeps_an_empty_list():
    relpath = "tagged.md"
    raw = b'---\nname: tagged\ndescription: d\ntype: feedback\ntags:\n  - ""\n---\n\nBody.\n'
    with workspace_dir() as tmp:
        root = Path(tmp)
        write_files(root, {relpath: raw})
        run_fix(root, "claude-code", ["unnormalized-tags"])
        doc = parsed(root, "claude-code", relpath, (root / relpath).read_bytes())
        assert doc.ok and doc.front_matter["tags"] == []


def test_expires_after_a_block_scalar_at_the_end_of_the_file_keeps_its_value():
    relpath = "memory/fact.yml"
    raw = b"tools:\n  note: gh does not support listing draft releases.\n  details: |\n    kept as written"
    with workspace_dir() as tmp:
        root = Path(tmp)
        write_files(root, {relpath: raw})
        run_fix(root, "three-layer", ["negative-claim-without-expiry"])
        doc = parsed(root, "three-layer", relpath, (root / relpath).read_bytes())
        assert doc.ok and "expires" in doc.data["tools"]
        assert doc.data["tools"]["details"] == "kept as written"


def test_the_two_tag_fixes_together_never_break_a_record():
    raw = (
        b'{"ts": "2026-03-01T10:00:00+08:00", "type": "decision", "summary": "ship it", "tags": ["deploy", "ci"]}\n'
        b'{"ts": "2026-03-02T10:00:00+08:00", "type": "decision", "summary": "deploy again", "tags": [""]}\n'
    )
    with workspace_dir() as tmp:
        root = Path(tmp)
        write_files(root, {"memory/episodic.jsonl": raw})
        result = run_fix(root, "three-layer", ["unnormalized-tags", "too-few-tags"])
        doc = parsed(root, "three-layer", "memory/episodic.jsonl", (root / "memory/episodic.jsonl").read_bytes())
        assert not result.errors
        assert all(record.ok for record in doc.records), (root / "memory/episodic.jsonl").read_text("utf-8")
        assert [record.data["tags"] for record in doc.records] == [["deploy", "ci"], ["deploy"]]


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-16-be", "latin-1"])
def test_a_restored_note_keeps_its_bytes(encoding):
    relpath = "memory/knowledge/feedback/n.md"
    text = "---\nname: n\ndescription: d\nmetadata:\n  type: feedback\n  updated: 2026-03-01\n---\n\nBody, café.\n"
    raw = text.encode(encoding) if encoding != "utf-16-be" else b"\xfe\xff" + text.encode(encoding)
    # latin-1: not valid UTF-8, so restored byte for byte, as the comparison read it
    with workspace_dir() as tmp:
        root = Path(tmp)
        git(root, "init", "-q", "-b", "main")
        write_files(root, {relpath: raw, "MEMORY.md": f'- "x" → [n]({relpath})\n'})
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", "base")
        (root / relpath).unlink()
        run_fix(root, "ghost-in-shell", ["deleted-note"], base="HEAD")
        restored = root / "memory/_archive/notes/knowledge/feedback/n.md"
        assert restored.read_bytes() == raw


def test_redacting_a_value_under_a_duplicated_key_keeps_it_a_string():
    """The value of a duplicated YAML key has no span (spans and data keep the first): it was taken for a comment
    and written bare, `api_key: [REDACTED:slack-token]`, a flow list. A whole value with no comment before it
    is quoted."""
    g = SecretGenerator(7)
    relpath = "memory/fact.yml"
    raw = f"tools:\n  api_key: {g.github()}\n  api_key: {g.slack_bot()}\n".encode()
    with workspace_dir() as tmp:
        root = Path(tmp)
        write_files(root, {relpath: raw})
        run_fix(root, "three-layer", ["secret-in-memory"])
        lines = (root / relpath).read_text("utf-8").splitlines()
        assert lines[1:] == ['  api_key: "[REDACTED:github-token]"', '  api_key: "[REDACTED:slack-token]"']


def test_redacting_under_a_duplicated_key_with_a_comment_after_it_and_in_a_comment_line():
    """Beside the case above: a trailing comment after the duplicated key's value (still a whole value: quoted),
    and a secret in a comment line (stays bare: a comment is no value)."""
    g = SecretGenerator(11)
    relpath = "memory/fact.yml"
    raw = (f"tools:\n  api_key: {g.github()}\n  api_key: {g.slack_bot()}  # rotated\n"
           f"  # old: {g.github()}\n").encode()
    with workspace_dir() as tmp:
        root = Path(tmp)
        write_files(root, {relpath: raw})
        run_fix(root, "three-layer", ["secret-in-memory"])
        lines = (root / relpath).read_text("utf-8").splitlines()
        assert lines[1:] == ['  api_key: "[REDACTED:github-token]"', '  api_key: "[REDACTED:slack-token]"  # rotated',
                             "  # old: [REDACTED:github-token]"]


@pytest.mark.parametrize("password, found", [
    ("TI5F11_5WCOV35", True),  # a generated password in an environment name's alphabet (hypothesis found it)
    ("Q7PX2M_K9R4T81", True),
    ("DB_PASSWORD", False),  # an environment variable's name stands for the password
    ("POSTGRES_PASSWORD_2", False),
])
def test_a_url_password_shaped_like_an_environment_name_is_found_unless_it_is_one(password, found):
    relpath = "memory/fact.yml"
    raw = f"db:\n  dsn: postgres://app:{password}@db.internal:5432/app\n".encode()
    with workspace_dir() as tmp:
        root = Path(tmp)
        write_files(root, {relpath: raw})
        result = check_workspace(open_workspace(root, "three-layer"),
                                 RunOptions(select=["secret-in-memory"], cwd=root, today=TODAY))
        assert [f.rule.name for f in result.findings] == (["secret-in-memory"] if found else [])


def test_a_url_password_with_a_dot_is_found():
    relpath = "memory/fact.yml"
    raw = b"db:\n  dsn: postgres://app:ocbK88.eEsSr41@db.internal:5432/app\n"
    with workspace_dir() as tmp:
        root = Path(tmp)
        write_files(root, {relpath: raw})
        result = check_workspace(open_workspace(root, "three-layer"),
                                 RunOptions(select=["secret-in-memory"], cwd=root, today=TODAY))
        assert [f.rule.name for f in result.findings] == ["secret-in-memory"]

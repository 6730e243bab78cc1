"""The hook's prediction of each agent's edit, property-tested against a port of that agent's own matcher
(tests/agent_oracles.py) on generated files and edits: where the hook is sure, it is right; where it
is not, it says so (and the hook blocks); and it is sure whenever the agent matches exactly."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import agent_oracles as oracle
from memwarden.discover.agent_writes import read_payload

# Characters the matchers treat differently: indentation, trailing space, a CR alone, U+2028, U+001C (Python's
# str.strip takes it, Rust's trim and JavaScript's do not), U+FEFF (JavaScript's trim takes it), typographic
# quotes and dashes, a no-break space, and the regex strategy's delimiters.
CHARS = "ab  \t'\"\u2019\u201c\u2013-\xa0\u2028\x1c\ufeff\r(=:"
line = st.text(alphabet=CHARS, max_size=7)
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def writes(payload: dict, files: dict[str, bytes]) -> dict[str, list]:
    """The hook's prediction for a payload on a project holding files: {name: [AgentWrite, ...]}."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for name, data in files.items():
            (root / name).write_bytes(data)
        found: dict[str, list] = {}
        for write in read_payload(json.dumps({"cwd": str(root), **payload}).encode(), root):
            found.setdefault(write.path.relative_to(root).as_posix(), []).append(write)
        return found


@st.composite
def text_file(draw):
    lines = draw(st.lists(line, max_size=8))
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    return ending.join(lines) + (ending if lines and draw(st.booleans()) else ""), lines


def perturbed(draw, text: str) -> str:
    """text as an agent may misquote it: other indentation, trailing space, ASCII punctuation."""
    change = draw(st.sampled_from(["none", "indent", "trail", "strip", "ascii"]))
    if change == "indent":
        return draw(st.sampled_from([" ", "  ", "\t"])) + text
    if change == "trail":
        return text + draw(st.sampled_from([" ", "\t", "\x1c"]))
    if change == "strip":
        return text.strip()
    if change == "ascii":
        return text.translate(str.maketrans({"\u2019": "'", "\u201c": '"', "\u2013": "-", "\xa0": " "}))
    return text


# -- Codex --------------------------------------------------------------------------------------------

@st.composite
def codex_update(draw):
    text, lines = draw(text_file())
    body = []
    for number in range(draw(st.integers(1, 2))):
        header = draw(st.sampled_from(["@@", "@@ ctx"] + ([None] if number == 0 else [])))
        if header == "@@ ctx":
            header = "@@ " + (perturbed(draw, draw(st.sampled_from(lines))) if lines else "x")
        if header is not None:
            body.append(header)
        if lines and draw(st.booleans()):
            start = draw(st.integers(0, len(lines) - 1))
            window = lines[start:start + draw(st.integers(1, 3))]
        else:
            window = draw(st.lists(line, max_size=2))
        chunk = [draw(st.sampled_from([" ", "-"])) + perturbed(draw, old) for old in window]
        for added in draw(st.lists(line, max_size=2)):
            chunk.insert(draw(st.integers(0, len(chunk))), "+" + added)
        body += chunk or ["+x"]
        if draw(st.booleans()):
            body.append("*** End of File")
    indent = draw(st.sampled_from(["", "  ", "\t"]))
    patch = "*** Begin Patch\n" + indent + "*** Update File: note.md\n"
    if draw(st.booleans()):
        patch += "*** Move to: moved.md\n"
    patch += "\n".join(body) + "\n*** End Patch\n"
    if draw(st.booleans()):
        patch = "<<'EOF'\n" + patch + "EOF\n"
    if draw(st.booleans()):
        patch = patch.replace("\n", "\r\n")
    return text, patch


PATCH_PIECES = ["*** Begin Patch", " *** Begin Patch ", "*** Update File: note.md", "  *** Update File: note.md",
                "*** Add File: new.md", "*** Delete File: note.md", "*** Move to: moved.md", "@@", "@@ a", "@@a",
                "+a", "+a\u2028b", "-a", " a", "-  a", "", " ", "*** End of File", "*** End Patch", "<<'EOF'", "EOF",
                "b", "*junk"]


def codex_predicted(patch: str, files: dict[str, bytes]) -> dict[str, set]:
    found = writes({"hook_event_name": "PreToolUse", "tool_name": "apply_patch",
                    "tool_input": {"command": patch}}, files)
    return {name: {oracle.UNSURE if w.unsure else w.content.decode("utf-8") for w in listed}
            for name, listed in found.items()}


def codex_expected(patch: str, files: dict[str, bytes]) -> dict[str, set]:
    applied = oracle.codex_apply(patch, files)
    return {} if applied == oracle.REJECTED else applied


@SETTINGS
@given(codex_update())
def test_codex_update_is_predicted_as_codex_applies_it(case):
    text, patch = case
    files = {"note.md": text.encode("utf-8")}
    assert codex_predicted(patch, files) == codex_expected(patch, files)


@SETTINGS
@given(st.lists(st.sampled_from(PATCH_PIECES), max_size=10), st.sampled_from(["\n", "\r\n"]), text_file())
def test_codex_patches_of_any_shape_are_parsed_as_codex_parses_them(pieces, ending, file):
    patch = ending.join(pieces)
    files = {"note.md": file[0].encode("utf-8")}
    assert codex_predicted(patch, files) == codex_expected(patch, files)


# -- Gemini CLI ----------------------------------------------------------------------------------------

@st.composite
def gemini_replace(draw):
    text, lines = draw(text_file())
    kind = draw(st.sampled_from(["slice", "lines", "lines", "lines", "random", "empty"]))
    if kind == "slice" and text:
        start = draw(st.integers(0, len(text) - 1))
        old = text[start:start + draw(st.integers(1, 30))]
    elif kind == "lines" and lines:
        start = draw(st.integers(0, len(lines) - 1))
        old = "\n".join(perturbed(draw, x) for x in lines[start:start + draw(st.integers(1, 3))])
    elif kind == "empty":
        old = ""
    else:
        old = draw(line)
    exists = draw(st.booleans()) or kind != "empty"
    # new_string: empty (a deletion), or lines of their own indentation (re-indented by the loose strategies).
    new = "\n".join(perturbed(draw, x) for x in draw(st.lists(line, max_size=3)))
    return (text if exists else None), old, new, draw(st.booleans()), draw(st.sampled_from([".md", ".json"]))


@SETTINGS
@given(gemini_replace())
def test_gemini_replace_is_predicted_or_refused_as_unpredictable(case):
    text, old, new, allow_multiple, suffix = case
    name = "note" + suffix
    files = {} if text is None else {name: text.encode("utf-8")}
    [write] = writes({"hook_event_name": "BeforeTool", "tool_name": "replace", "tool_input": {
        "file_path": name, "old_string": old, "new_string": new, "allow_multiple": allow_multiple}}, files)[name]
    what, result = oracle.gemini_edit(files.get(name), old, new, allow_multiple, suffix)
    if write.unsure is not None:
        assert what != "write:exact" and what != "write", (what, write.unsure)  # sure whenever Gemini is exact
    elif write.content is None:
        assert what == "refused"
    else:
        assert what in ("write", "write:exact", "write:flexible") and write.content == result.encode("utf-8")


# -- Claude Code ----------------------------------------------------------------------------------------

@st.composite
def claude_edit(draw):
    text, lines = draw(text_file())
    kind = draw(st.sampled_from(["slice", "lines", "random", "empty", "blank"]))
    if kind == "blank":
        text = draw(st.text(alphabet=" \t\n\r\ufeff\x1c\xa0", max_size=4))
    if kind == "slice" and text:
        start = draw(st.integers(0, len(text) - 1))
        old = perturbed(draw, text[start:start + draw(st.integers(1, 30))])
    elif kind == "lines" and lines:
        old = "\n".join(perturbed(draw, x) for x in lines[:3])
    elif kind in ("empty", "blank"):
        old = ""
    else:
        old = draw(line)
    exists = draw(st.booleans()) or kind not in ("empty", "blank")
    return (text if exists else None), old, draw(line), draw(st.booleans())


@SETTINGS
@given(claude_edit())
def test_claude_code_edit_is_predicted_or_refused_as_unpredictable(case):
    text, old, new, replace_all = case
    files = {} if text is None else {"note.md": text.encode("utf-8")}
    [write] = writes({"hook_event_name": "PreToolUse", "tool_name": "Edit", "tool_input": {
        "file_path": "note.md", "old_string": old, "new_string": new, "replace_all": replace_all}}, files)["note.md"]
    what, result = oracle.claude_edit(text, old, new, replace_all)
    if what == "loose":
        assert write.unsure is not None  # Claude Code may match it: never passed as a refusal
    elif write.unsure is not None:
        assert what == "refused" or "quote" in write.unsure or "whitespace" in write.unsure
    elif what == "refused":
        assert write.content is None
    else:
        assert write.content == result.encode("utf-8")


def test_the_oracles_reproduce_the_cases_their_sources_document():
    """Each port against an example its agent's own tests or code comments give, so a port that drifts fails."""
    # codex-rs/apply-patch: a patch in ASCII updates a line with an EN DASH and a NON-BREAKING HYPHEN.
    unicode_line = "import asyncio  # local import \u2013 avoids top\u2011level dep\n"
    patch = "*** Begin Patch\n*** Update File: u.py\n@@\n-import asyncio  # local import - avoids top-level dep\n" \
            "+import asyncio  # HELLO\n*** End Patch"
    assert oracle.codex_apply(patch, {"u.py": unicode_line.encode()}) == {"u.py": {"import asyncio  # HELLO\n"}}
    interleaved = "*** Begin Patch\n*** Update File: i.txt\n@@\n a\n-b\n+B\n@@\n c\n d\n-e\n+E\n@@\n f\n+g\n" \
                  "*** End of File\n*** End Patch"
    assert oracle.codex_apply(interleaved, {"i.txt": b"a\nb\nc\nd\ne\nf\n"}) == {"i.txt": {"a\nB\nc\nd\nE\nf\ng\n"}}
    # gemini-cli edit.ts: indentation-insensitive matching keeps the file's indentation.
    what, text = oracle.gemini_edit(b"def f():\n    x = 1\n    return x\n", "x = 1\nreturn x", "y = 2\nreturn y",
                                    False, ".py")
    assert (what, text) == ("write:flexible", "def f():\n    y = 2\n    return y\n")
    assert oracle.gemini_edit(b"a\na\n", "a", "b", False, ".md") == (oracle.MODEL, "exact")
    assert oracle.gemini_edit(b"a\na\n", "a", "b", False, ".json") == ("refused", None)

"""The fast cold path reads exactly what the round trip reads.

YAML: libyaml (PyYAML's C composer) against ruamel.yaml's round-trip composer, on generated YAML
and on every YAML file and front matter under tests/fixtures/ and examples/: the same data, spans
(key and value offsets, lines, columns, quoting, flow style), duplicate keys, and errors at the
same place. JSON Schema: jsonschema-rs against jsonschema on what the schemas of every kind are
given, and the findings of schema-violation are the ones jsonschema alone gives.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memwarden.documents import yamldoc
from memwarden.documents.scan import front_matter_end, opens_front_matter
from memwarden.documents.yamldoc import compose_fast, parse_yaml

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = int(os.environ.get("MEMWARDEN_PROPERTY_EXAMPLES", "150"))
SETTINGS = settings(max_examples=EXAMPLES * 2, deadline=None, suppress_health_check=[HealthCheck.too_slow])

pytestmark = pytest.mark.skipif(yamldoc.compose_fast("a: 1") is None, reason="PyYAML without libyaml")


def both(text: str, line_offset: int = 0, char_offset: int = 0):
    """What the fast path and the round trip make of text, in comparable form."""
    out = []
    for fast in (True, False):
        data, tree, error = parse_yaml(None, text, line_offset, char_offset, fast=fast)
        out.append(
            {
                "data": repr(data),  # repr tells 1 from 1.0 from True, and nan equals nan
                "spans": list(tree.spans.items()) if error is None else None,
                "duplicates": tree.duplicates if error is None else None,
                "error": None if error is None else (error.line, error.column),
                "message": None if error is None else error.message,
            }
        )
    return out


def assert_same(text: str, line_offset: int = 0, char_offset: int = 0):
    fast, round_trip = both(text, line_offset, char_offset)
    assert fast == round_trip, text


# -- generated YAML ------------------------------------------------------------------------------

# Scalars that look like other types, in every spelling the two resolvers might disagree on.
TRICKY = [
    "1", "-1", "+1", "0", "007", "0o17", "0x1F", "0b101", "1_000", "1.5", "-.5", ".5", "1e3", "1E-3",
    "1.", "+.inf", "-.Inf", ".NaN", ".nan", "~", "null", "Null", "NULL", "true", "True", "TRUE", "false",
    "yes", "No", "on", "OFF", "y", "n", "2026-02-30", "2026-01-05 10:00:00", "12:30", "1:20:30", "<<", "=",
    "", " ", "a b", "a: b", "a #b", "#c", "- x", "? x", "[x]", "{x}", "'q'", '"dq"', "a\nb", "a\tb", "tab\t",
    "é記😀", "back\\slash", "%x", "@x", "`x", "!x", "&x", "*x", "|", ">", "x ", " x",
]
words = st.text(alphabet=st.sampled_from(list("abcxyz_-. :#'\"\\é記😀0123456789\t")), min_size=0, max_size=12)
scalars = st.one_of(
    st.sampled_from(TRICKY),
    words,
    st.integers(min_value=-(10**20), max_value=10**20).map(str),
    st.floats(allow_nan=True).map(repr),
)
KEYS = st.one_of(st.sampled_from(["a", "b", "tags", "name", "1", "true", "null", "<<", "a b", "é"]), words)


def _plain_ok(value: str) -> bool:
    return bool(value) and value == value.strip() and not any(c in value for c in "\n\t#:'\"[]{},&*!|>%@`") and (
        value[0] not in "-?"
    )


@st.composite
def scalar_text(draw, value: str, flow: bool) -> str:
    style = draw(st.sampled_from(["plain", "single", "double"] + ([] if flow else ["literal", "folded"])))
    if style == "plain" and _plain_ok(value):
        return value
    if style == "single" and "\n" not in value:
        return "'" + value.replace("'", "''") + "'"
    if style in ("literal", "folded") and value and value.strip() == value and "\t" not in value:
        return None  # block scalars are written by the caller, who knows the indentation
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return '"' + escaped + '"'


@st.composite
def flow_node(draw, depth: int) -> str:
    kind = draw(st.sampled_from(["scalar", "scalar", "seq", "map"] if depth < 3 else ["scalar"]))
    if kind == "scalar":
        value = draw(scalars)
        return draw(scalar_text(value, True)) or '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if kind == "seq":
        items = draw(st.lists(flow_node(depth + 1), max_size=3))
        return "[" + ", ".join(items) + draw(st.sampled_from(["]", ",]", " ]"]))
    pairs = draw(st.lists(st.tuples(KEYS, flow_node(depth + 1)), max_size=3))
    rendered = []
    for key, value in pairs:
        key_text = draw(scalar_text(key, True)) or f'"{key}"'
        rendered.append(f"{key_text}: {value}")
    return "{" + ", ".join(rendered) + "}"


@st.composite
def block_mapping(draw, indent: int, depth: int) -> list[str]:
    lines: list[str] = []
    pad = " " * indent
    pairs = draw(st.lists(KEYS, min_size=1, max_size=4))
    for key in pairs:
        key_text = draw(scalar_text(key, True)) or '"' + key.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'
        lines.extend(draw(block_value(f"{pad}{key_text}:", indent, depth)))
        if draw(st.integers(0, 9)) == 0:
            lines.append(draw(st.sampled_from(["", f"{pad}# a comment", "   ", f"{pad}  # indented comment"])))
    return lines


@st.composite
def block_sequence(draw, indent: int, depth: int) -> list[str]:
    lines: list[str] = []
    pad = " " * indent
    for _ in range(draw(st.integers(1, 3))):
        lines.extend(draw(block_value(f"{pad}-", indent, depth)))
    return lines


@st.composite
def block_value(draw, head: str, indent: int, depth: int) -> list[str]:
    kind = draw(st.sampled_from(["scalar", "scalar", "flow", "block-scalar", "map", "seq", "anchor"] if depth < 3 else ["scalar", "flow"]))
    step = draw(st.sampled_from([2, 4]))
    if kind == "map":
        return [head] + draw(block_mapping(indent + step, depth + 1))
    if kind == "seq":
        inner = indent if head.endswith(":") and draw(st.booleans()) else indent + step  # "key:\n- x" is allowed
        return [head] + draw(block_sequence(inner, depth + 1))
    if kind == "flow":
        return [f"{head} {draw(flow_node(depth))}"]
    if kind == "block-scalar":
        indicator = draw(st.sampled_from(["|", ">", "|-", ">+", "|2"]))
        body = draw(st.lists(words.filter(lambda w: w.strip() == w and "\t" not in w), min_size=0, max_size=3))
        return [f"{head} {indicator}"] + [" " * (indent + 2) + line if line else "" for line in body]
    if kind == "anchor":
        return [f"{head} &x{depth} {draw(flow_node(depth))}"]
    value = draw(scalars)
    text = draw(scalar_text(value, False))
    if text is None:
        text = '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'
    comment = draw(st.sampled_from(["", "", " # note", "  #x"]))
    return [f"{head} {text}{comment}"]


@st.composite
def yaml_documents(draw) -> str:
    lines = draw(block_mapping(0, 0))
    extras = draw(st.lists(st.sampled_from([
        "ref: *x1", "ref: *x0", "<<: {merged: 1, a: 2}", "<<: [{m: 1}, {n: 2}]", "dup: 1", "dup: 2", "---", "...",
        "? complex", ": value", "? [a, b]\n: c", "!!str tagged: !!int 12", "x: !custom 1", "y: ! 12",
        "z: !!float 1", "t: !!binary aGk=", "\tindented: tab", "bad: [unclosed", "k: v: w", "- stray",
        "empty:", "q: 'it''s'", 'e: "\\u00e9\\x41"', "long: " + "w " * 50,
    ]), max_size=3))
    for extra in extras:
        at = draw(st.integers(0, len(lines)))
        lines.insert(at, extra)
    newline = draw(st.sampled_from(["\n", "\n", "\r\n"]))
    text = newline.join(lines)
    return text + draw(st.sampled_from(["", newline, newline * 2]))


@SETTINGS
@given(yaml_documents())
def test_fast_path_reads_generated_yaml_as_the_round_trip_does(text):
    assert_same(text)


@pytest.mark.parametrize("text", [
    # An empty value, then a '? ' key left of it: the inner mapping ends there, and its end has no width
    # (found by the generated test on a fresh clone: the fast path put the value one column right).
    "a:\n  b:\n? c\n",
    "a:\n  a: |\n  b:\n? complex\n    - 1\n",
    "a:\r\n  b:\r\n? c\r\n",
    "x:\n  a:\n  ? b\n",  # the same mapping goes on: '? ' has its width
    "a:\n? b\n",
])
def test_an_empty_value_before_an_explicit_key_is_placed_alike(text):
    assert_same(text)


@SETTINGS
@given(yaml_documents(), st.integers(0, 5), st.integers(0, 200))
def test_fast_path_keeps_front_matter_offsets(text, line_offset, char_offset):
    assert_same(text, line_offset, char_offset)


@SETTINGS
@given(st.text(alphabet=st.sampled_from(list("{}[]:,\"'-#&*!|>?%@`\n\r\t  ...abé記😀\\019<~=")), max_size=120))
def test_fast_path_errors_where_the_round_trip_does(text):
    assert_same(text)


@SETTINGS
@given(st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=15)),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=15,
), st.booleans(), st.booleans())
def test_fast_path_reads_what_dumpers_write(value, flow, unicode):
    import yaml

    text = yaml.safe_dump({"root": value}, default_flow_style=flow, allow_unicode=unicode, width=30)
    assert_same(text)


# -- every YAML file and front matter in the repository's fixtures --------------------------------

def _fixture_texts():
    for folder in ("tests/fixtures", "examples"):
        for path in sorted((ROOT / folder).rglob("*")):
            if not path.is_file():
                continue
            try:
                text = path.read_text("utf-8")
            except (UnicodeDecodeError, OSError):
                continue
            relative = path.relative_to(ROOT).as_posix()
            if path.suffix in (".yml", ".yaml"):
                yield relative, text, 0, 0
            elif path.suffix == ".md" and opens_front_matter(text) and front_matter_end(text):
                start = text.find("\n") + 1
                end = text.rfind("\n", 0, front_matter_end(text) - 1) + 1
                yield relative, text[start:end], 1, start


FIXTURES = list(_fixture_texts())


def test_fixtures_hold_yaml_and_front_matter():
    assert sum(1 for _, _, offset, _ in FIXTURES if offset == 0) >= 20
    assert sum(1 for _, _, offset, _ in FIXTURES if offset == 1) >= 100


@pytest.mark.parametrize("relative,text,line_offset,char_offset", FIXTURES, ids=[f[0] for f in FIXTURES])
def test_fast_path_reads_every_fixture_as_the_round_trip_does(relative, text, line_offset, char_offset):
    assert_same(text, line_offset, char_offset)


def test_fixtures_mostly_take_the_fast_path():
    fast = sum(1 for _, text, _, _ in FIXTURES if compose_fast(text) is not None)
    assert fast >= len(FIXTURES) * 0.9


# -- when the fast path steps aside ---------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "%YAML 1.1\n---\na: yes\n",  # a directive changes the implicit types
    "a: 1\u2028b: 2\n",  # a line break to libyaml, a character to YAML 1.2
    "a: '\ufeffx'\n",  # a BOM inside the text: ruamel.yaml counts it into columns
    "a: [1\n",  # an error: the round trip words and places it
])
def test_round_trip_reads_what_libyaml_would_read_otherwise(text):
    assert compose_fast(text) is None
    assert_same(text)


def test_without_libyaml_the_round_trip_reads_everything():
    probe = (
        "import sys; sys.modules['yaml._yaml'] = None\n"
        "from memwarden.documents.yamldoc import compose_fast, parse_yaml\n"
        "assert compose_fast('a: 1') is None\n"
        "data, tree, error = parse_yaml(None, 'a: [1, 2]\\n')\n"
        "assert data == {'a': [1, 2]} and error is None and tree.spans[('a', 1)].column == 8\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.stdout.strip() == "ok", done.stderr


def test_alias_bomb_and_depth_errors_are_the_round_trips():
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(6)
    )
    deep = "a: " + "[" * 80 + "]" * 80 + "\n"
    for text in (bomb, deep):
        fast, round_trip = both(text)
        assert fast == round_trip and fast["error"] is not None


# -- JSON Schema: jsonschema-rs decides, jsonschema explains ---------------------------------------

def _schema_paths():
    from memwarden.documents.schema_store import schemas_dir

    return sorted(str(p) for p in schemas_dir().rglob("*.schema.json"))


def _instances():
    """Every YAML document, front matter and JSONL record (the first 40 of a log) in the fixtures."""
    import json

    out = []
    for _, text, line_offset, char_offset in FIXTURES:
        data, _, error = parse_yaml(None, text, line_offset, char_offset)
        if error is None and data is not None:
            out.append(data)
    for folder in ("tests/fixtures", "examples"):
        for path in sorted((ROOT / folder).rglob("*.jsonl")):
            for line in path.read_text("utf-8", errors="replace").splitlines()[:40]:
                try:
                    out.append(json.loads(line))
                except ValueError:
                    continue
    return out


INSTANCES = _instances()
SCHEMAS = _schema_paths()


def _agree(path: str, instance) -> None:
    """jsonschema-rs never passes what jsonschema fails (the other way, jsonschema has the last word)."""
    from memwarden.documents.schema_store import SchemaValidator

    check = SchemaValidator(path)
    full = not any(True for _ in check.full.iter_errors(instance))
    try:
        fast = check.fast.is_valid(instance)
    except Exception:
        return  # an instance jsonschema-rs cannot take: jsonschema decides alone
    assert not fast or full, (path, instance)
    assert check.is_valid(instance) == full
    assert (list(check.iter_errors(instance)) == []) == full


def test_jsonschema_rs_compiles_every_shipped_schema():
    from memwarden.documents.schema_store import SchemaValidator

    assert len(SCHEMAS) >= 15
    assert all(SchemaValidator(path).fast is not None for path in SCHEMAS)


def test_jsonschema_rs_agrees_on_every_fixture_instance():
    assert len(INSTANCES) >= 200
    for path in SCHEMAS:
        for instance in INSTANCES:
            _agree(path, instance)


json_leaves = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(), st.sampled_from(
        ["", "x", "2026-02-30", "2026-01-05T10:00:00Z", "a\n", "line\nbreak", "a" * 300, "0" * 64, "ep_1", "note"]
    ) | st.text(max_size=12),
)
json_values = st.recursive(
    json_leaves, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=10), c, max_size=3), max_leaves=8
)


@st.composite
def mutated_instances(draw):
    """A fixture instance with a few values deleted, replaced or added, at any depth."""
    import copy

    instance = copy.deepcopy(draw(st.sampled_from(INSTANCES)))
    for _ in range(draw(st.integers(1, 4))):
        node, parents = instance, []
        while isinstance(node, (dict, list)) and node and draw(st.booleans()):
            key = draw(st.sampled_from(sorted(node) if isinstance(node, dict) else list(range(len(node)))))
            parents.append((node, key))
            node = node[key]
        if not parents:
            if isinstance(instance, dict):
                instance[draw(st.sampled_from(sorted(instance) + ["extra", "id", "type", "tags"]))] = draw(json_values)
            continue
        parent, key = parents[-1]
        action = draw(st.sampled_from(["replace", "delete", "wrap"]))
        if action == "delete":
            del parent[key]
        elif action == "wrap":
            parent[key] = [parent[key]]
        else:
            parent[key] = draw(json_values)
    return instance


@SETTINGS
@given(mutated_instances(), st.sampled_from(SCHEMAS))
def test_jsonschema_rs_agrees_on_mutated_instances(instance, path):
    _agree(path, instance)


# -- end to end: the same findings with the fast path as without it -------------------------------

WORKSPACES = sorted(
    {p.parent.as_posix() for p in (ROOT / "tests/fixtures/corpus").rglob("MEMORY.md")}
    | {p.parent.parent.as_posix() for p in (ROOT / "tests/fixtures/corpus").rglob("memory/fact*.yml")}
    | {p.as_posix() for p in (ROOT / "examples").iterdir() if p.is_dir()}
)


def test_findings_are_the_same_without_the_fast_path(cli, monkeypatch):
    from memwarden.documents import schema_store

    def run():
        schema_store._validator.cache_clear()
        reports = {}
        for root in WORKSPACES:
            result = cli("check", "--format", "json", "--exit-zero", ".", cwd=Path(root), env={"MEMWARDEN_NO_CACHE": "1"})
            reports[root] = [(f["path"], f["line"], f["column"], f["code"], f["message"]) for f in result.json()["findings"]]
        return reports

    assert len(WORKSPACES) >= 8
    fast = run()
    monkeypatch.setattr(yamldoc, "compose_fast", lambda text: None)
    monkeypatch.setattr(schema_store, "_compiled", lambda path: None)
    slow = run()
    schema_store._validator.cache_clear()
    assert fast == slow
    assert any(code == "MW102" for found in fast.values() for *_, code, _ in found)


def test_a_clean_check_loads_neither_jsonschema_nor_ruamel(tmp_path):
    (tmp_path / "memory").mkdir()
    (tmp_path / "memory/fact.yml").write_text("identity:\n  name: Agent\n", "utf-8")
    probe = (
        "import sys\nfrom memwarden.cli.main import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'jsonschema', 'ruamel', 'jsonschema_rs', 'yaml'}), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, "check", ".", "--select", "schema-violation,unparsable-file,duplicate-key"],
        cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "MEMWARDEN_NO_CACHE": "1"},
    )
    assert "All checks passed" in done.stdout, done.stdout + done.stderr
    assert done.stderr.strip().splitlines()[-1] == "['jsonschema_rs', 'yaml']", done.stderr


# -- a note's few front-matter values, read line by line ------------------------------------------

NOTE_KEYS = ("description", "updated", "date", "created")
_FRONT_KEYS = st.sampled_from(["description", "updated", "date", "created", "name", "metadata", "type", "tags", "other"])
_FRONT_VALUES = st.sampled_from([
    "", "hello world", "2026-01-01", "2026-13-45", "12", "1.5", "0x1F", "true", "null", "~", "a: b", "x #c", "x#y",
    "'quoted'", '"dq"', "|", ">-", "[a, b]", "[]", "{a: 1}", "&anchor v", "*alias", "!tag v", "- item", "?", ":x",
    "部署前先跑遷移", "é accent", "trailing:", "`tick`", "%pct", "@at", "-", "[a, 'b']", "x \\ y",
])


_PLAIN_VALUES = st.sampled_from(["hello world", "2026-01-01", "x #c", "部署前先跑遷移", "[a, b]", "a-b_c", "0.9"])


@st.composite
def front_matters(draw) -> str:
    """Mostly plain front matters (top-level keys, a nested block) with a tricky line or value now and then."""
    lines = []
    for _ in range(draw(st.integers(0, 6))):
        key = draw(_FRONT_KEYS)
        value = draw(st.one_of(_PLAIN_VALUES, _PLAIN_VALUES, _FRONT_VALUES))
        if draw(st.booleans()):
            lines.append(f"{key}:")
            child = " " * draw(st.sampled_from([2, 2, 2, 4, 1]))
            for _ in range(draw(st.integers(1, 3))):
                value = draw(st.one_of(_PLAIN_VALUES, _PLAIN_VALUES, _FRONT_VALUES))
                lines.append(f"{child}{draw(_FRONT_KEYS)}:{' ' + value if value else ''}")
        else:
            lines.append(f"{key}:{' ' + value if value else ''}")
        if draw(st.integers(0, 9)) == 0:
            indent = " " * draw(st.sampled_from([0, 2, 3]))
            lines.append(indent + draw(st.sampled_from(["# a comment", "- item", "continued words", "", "\t", "key: v"])))
    return "".join(line + draw(st.sampled_from(["\n", "\r\n"])) for line in lines)


def light_agrees(inner: str) -> bool:
    """Whether the line reader read inner (False: it stepped aside); when it did, it read what the YAML reader reads."""
    from memwarden.documents.markdown import front_matter_values, plain_front_matter_values

    light = plain_front_matter_values(inner, NOTE_KEYS)
    if light is None:
        return False
    data, _, error = parse_yaml(None, inner)
    assert error is None, inner
    data = {} if data is None else data
    assert isinstance(data, dict), inner
    assert light == front_matter_values(data, NOTE_KEYS), inner
    return True


@SETTINGS
@given(front_matters())
def test_light_front_matter_reader_reads_what_the_yaml_reader_reads(inner):
    light_agrees(inner)


@SETTINGS
@given(yaml_documents())
def test_light_front_matter_reader_on_generated_yaml(text):
    light_agrees(text)


def test_light_front_matter_reader_on_every_fixture_front_matter():
    front = [text for _, text, offset, _ in FIXTURES if offset == 1]
    read = sum(light_agrees(text) for text in front)
    assert read >= len(front) * 0.3  # it is a fast path: plain front matters are common
    assert light_agrees("name: a\ndescription: Deploy after the migration\nmetadata:\n  updated: 2026-05-01\n")
    assert not light_agrees("description: |\n  updated: 2020-01-01\n")  # a block scalar: the YAML reader's

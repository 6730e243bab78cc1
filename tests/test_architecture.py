"""The shape of the code, read from its own imports: small modules, no cycles, no borrowed privates."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "memwarden"
MAX_LINES = 600


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(name: str) -> list[tuple[str, str | None, int]]:
    """(imported module, imported name or None, line) for every memwarden import, at any depth."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_type_checking(node):
            skipped.update(id(child) for child in ast.walk(node))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found += [(alias.name, None, node.lineno) for alias in node.names if alias.name.startswith("memwarden")]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            if base.startswith("memwarden"):
                found += [(base, alias.name, node.lineno) for alias in node.names]
    return found


def edges() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    for name in MODULES:
        for module, imported, _ in imports_of(name):
            target = f"{module}.{imported}" if imported and f"{module}.{imported}" in MODULES else module
            if target in MODULES and target != name:
                graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_checker_sees_a_cycle_and_a_clean_graph():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_modules_are_found():
    assert "memwarden.model" in MODULES and "memwarden.engine.run" in MODULES


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_is_over_600_lines(name):
    lines = MODULES[name].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{name} has {lines} lines; a module past {MAX_LINES} is usually doing two jobs"


def test_no_import_cycle():
    assert cycles(edges()) == []


def test_no_module_imports_another_modules_private_name():
    borrowed = []
    for name in MODULES:
        for module, imported, line in imports_of(name):
            if imported and imported.startswith("_") and not imported.startswith("__") and module != name:
                borrowed.append(f"{name}:{line} imports {module}.{imported}")
    assert borrowed == []


def test_no_module_reaches_into_another_modules_private_attribute():
    reached = []
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("memwarden"):
                for alias in node.names:
                    if f"{node.module}.{alias.name}" in MODULES:
                        aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in MODULES and alias.asname:
                        aliases[alias.asname] = alias.name
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                reached.append(f"{name}:{node.lineno} uses {aliases[node.value.id]}.{node.attr}")
    assert reached == []


# The layers, lowest first: a module imports only from its own layer or the ones before it. The leaf
# modules hold the vocabulary everything shares; documents are parsed with no idea of a workspace;
# analysis reads documents; discover finds a workspace's files and loads them (so it sits above the
# documents and the analysis it measures with); fixes build edits for rules; the engine runs rules;
# report renders what the engine found; server and cli sit on top.
LEAVES = ("model", "errors", "text", "decoding", "fileio", "git", "patterns", "tiers", "registry", "kinds", "globs", "agent_files")
LAYERS = (LEAVES, ("documents",), ("analysis",), ("discover",), ("fixes",), ("rules",), ("engine",), ("report",),
          ("server",), ("cli", "__main__"))


def layer_of(name: str) -> int | None:
    """The layer of a module (by its room, or its own name for a leaf module); None for the package itself."""
    parts = name.split(".")
    if len(parts) == 1:
        return None
    return next((number for number, rooms in enumerate(LAYERS) if parts[1] in rooms), -1)


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    found = []
    for name, targets in sorted(graph.items()):
        for target in sorted(targets):
            source_layer, target_layer = layer_of(name), layer_of(target)
            if None not in (source_layer, target_layer) and target_layer > source_layer:
                found.append(f"{name} imports {target}, a layer above it")
    return found


def test_the_layer_checker_sees_an_upward_import():
    graph = {"memwarden.analysis.x": {"memwarden.discover.profiles"}, "memwarden.rules.y": {"memwarden.analysis.x"}}
    assert upward_imports(graph) == ["memwarden.analysis.x imports memwarden.discover.profiles, a layer above it"]


def test_every_module_has_a_layer():
    assert [name for name in MODULES if layer_of(name) == -1] == []


def test_no_module_imports_from_a_layer_above_it():
    assert upward_imports(edges()) == []


# Rooms whose module-level expressions are LazyPatterns, compiled when a rule first needs them. The
# repository-claim modules are left to the tuning of their rules; OpenClaw's rules are being written.
LAZY_ROOMS = ("memwarden.documents", "memwarden.analysis", "memwarden.rules")
NOT_YET_LAZY = ()


def compiled_at_import(tree: ast.Module) -> list[int]:
    """Lines of ``re.compile`` calls a module makes when it is imported (outside any function or class)."""
    found = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                continue
            func = getattr(child, "func", None)
            if isinstance(child, ast.Call) and isinstance(func, ast.Attribute) and func.attr == "compile" and \
                    isinstance(func.value, ast.Name) and func.value.id == "re":
                found.append(child.lineno)
            visit(child)

    visit(tree)
    return found


def test_the_import_checker_sees_a_compile():
    tree = ast.parse("import re\nA = re.compile('a')\ndef f():\n    return re.compile('b')\n")
    assert compiled_at_import(tree) == [2]


def test_documents_analysis_and_rules_compile_no_expression_at_import():
    eager = [f"{name}:{line}" for name, path in MODULES.items()
             if name.startswith(LAZY_ROOMS) and not name.startswith(NOT_YET_LAZY)
             for line in compiled_at_import(ast.parse(path.read_text(encoding="utf-8")))]
    assert eager == [], "use memwarden.patterns.LazyPattern: a start-up should not compile what no rule runs"


# -- the cache is one module to the rest of the code ----------------------------------------------------------

CACHE = "memwarden.engine.cache"


def reaches_into_the_cache(name: str) -> list[str]:
    """The imports of one of the cache's own modules by a module outside the cache (the package itself is fine)."""
    if name == CACHE or name.startswith(CACHE + "."):
        return []
    return [f"{name}:{line} imports {module}" + (f".{imported}" if imported else "")
            for module, imported, line in imports_of(name)
            if module.startswith(CACHE + ".") or (module == CACHE and f"{CACHE}.{imported}" in MODULES)]


def test_nothing_outside_the_cache_imports_its_parts():
    assert CACHE + ".store" in MODULES  # the check reads the real layout
    assert [line for name in MODULES for line in reaches_into_the_cache(name)] == []

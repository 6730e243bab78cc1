"""What a repository's manifests define: scripts and targets, and the package managers its lockfiles show.

Pure functions of file names and contents, so the same reader answers for the tree now and for every
version of a manifest in the history. A manifest that cannot be read completely (an `include`, a
pattern rule, an import) defines "anything": a name it does not list is then not decidable.
"""

from __future__ import annotations

import json
import posixpath
import re
from dataclasses import dataclass

from memwarden.patterns import LazyPattern

ANYTHING = None  # what a manifest defines when it cannot be read completely

# runner -> the manifest file names that define what it runs
RUNNER_MANIFESTS = {
    "npm": ("package.json",),
    "pnpm": ("package.json",),
    "yarn": ("package.json",),
    "bun": ("package.json",),
    "make": ("Makefile", "makefile", "GNUmakefile"),
    "just": ("justfile", "Justfile", ".justfile"),
    "task": ("Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml"),
}

# Subcommands of the JavaScript package managers that are not scripts (`pnpm install`, `yarn add`).
_JS_BUILTINS = frozenset(
    "add audit bin cache ci config create dedupe dlx doctor env exec explain fetch help i import info init install "
    "install-test it link list ln login logout ls outdated pack patch prune publish rebuild remove rm root "
    "search set setup store team uninstall unlink up update upgrade version view why workspace workspaces x "
    "licenses owner plugin node dedupe import-meta".split()
)
# npm's own commands that run a script of the same name.
_NPM_SCRIPT_COMMANDS = frozenset({"test", "t", "start", "stop", "restart"})
_FLAGS_WITH_ELSEWHERE = ("--filter", "-F", "-C", "--dir", "--prefix", "-w", "--workspace", "--cwd", "-r", "--recursive",
                         "-f", "--file", "--justfile", "--taskfile", "-d", "--directory", "-t")

# lockfile -> package manager; the ecosystem groups the managers that compete.
LOCKFILES = {
    "pnpm-lock.yaml": "pnpm", "package-lock.json": "npm", "npm-shrinkwrap.json": "npm", "yarn.lock": "yarn",
    "bun.lockb": "bun", "bun.lock": "bun",
    "uv.lock": "uv", "poetry.lock": "poetry", "Pipfile.lock": "pipenv", "pdm.lock": "pdm",
}
ECOSYSTEM = {"pnpm": "js", "npm": "js", "yarn": "js", "bun": "js", "uv": "python", "poetry": "python",
             "pipenv": "python", "pdm": "python"}
# What a command must do to say "this project is managed with this tool" (not `npx`, not a global install).
_MANAGING = {
    "js": frozenset({"install", "i", "ci", "add", "remove", "uninstall"}),  # what writes the lockfile
    "python": frozenset({"install", "sync", "add", "run", "lock", "remove", "shell"}),
}


# Binaries whose name is not their package's (the rest are named as their package: eslint, vitest, turbo).
_BINARY_PACKAGES = {
    "changeset": ("@changesets/cli",), "tsc": ("typescript",), "tsserver": ("typescript",),
    "biome": ("@biomejs/biome",), "playwright": ("@playwright/test",), "svelte-kit": ("@sveltejs/kit",),
    "sb": ("storybook",), "trigger": ("trigger.dev",), "ng": ("@angular/cli",), "nest": ("@nestjs/cli",),
    "nuxi": ("nuxt",), "remix": ("@remix-run/dev",), "graphql-codegen": ("@graphql-codegen/cli",),
    "firebase": ("firebase-tools",), "dotenv": ("dotenv-cli",), "manypkg": ("@manypkg/cli",),
    "commitlint": ("@commitlint/cli",), "api-extractor": ("@microsoft/api-extractor",),
    "vue-cli-service": ("@vue/cli-service",), "docusaurus": ("@docusaurus/core",), "tailwindcss": ("@tailwindcss/cli",),
    "webpack": ("webpack-cli",), "eas": ("eas-cli",), "netlify": ("netlify-cli",), "cdk": ("aws-cdk",),
    "lingui": ("@lingui/cli",),
}
_DEPENDENCY_FIELDS = ("dependencies", "devDependencies", "optionalDependencies")


@dataclass(frozen=True)
class ScriptCall:
    runner: str  # npm, pnpm, yarn, bun, make, just, task
    name: str
    may_run_binary: bool = False  # `pnpm x`, `yarn x` run a dependency's binary x when no script is named x


def script_call(words: tuple[str, ...]) -> ScriptCall | None:
    """The script or target a command runs (`npm run build`, `pnpm lint`, `make test`), or None when the
    command runs none, or runs it somewhere else than the repository's root manifests (`--filter`, `-C`)."""
    if len(words) < 2 or words[0] not in RUNNER_MANIFESTS or any(w.split("=")[0] in _FLAGS_WITH_ELSEWHERE for w in words):
        return None
    runner, rest = words[0], [w for w in words[1:] if not w.startswith("-")]
    if not rest:
        return None
    first = rest[0]
    if runner in ("npm", "pnpm", "yarn", "bun"):
        if first in ("run", "run-script"):
            name = rest[1] if len(rest) > 1 else None
        elif runner == "npm":
            name = {"t": "test"}.get(first, first) if first in _NPM_SCRIPT_COMMANDS else None
        elif runner == "bun":
            name = None  # `bun x` may run a file or a binary
        else:
            name = None if first in _JS_BUILTINS else first
    else:
        name = None if "=" in first or "/" in first or "." in first or "$" in first else first
    if not name or not re.fullmatch(r"[\w:.@-]+", name) or not re.search(r"[A-Za-z0-9]", name):
        return None  # `pnpm run ...`: a placeholder, no name
    return ScriptCall(runner, name, runner in ("pnpm", "yarn") and first not in ("run", "run-script"))


def manager_used(words: tuple[str, ...]) -> str | None:
    """The package manager a command manages the project with (`pnpm install`, `uv sync`), or None."""
    if not words or words[0] not in ECOSYSTEM or any(w in ("-g", "--global") for w in words):
        return None
    if words[0] == "yarn" and len(words) == 1:
        return "yarn"  # bare `yarn` installs
    if len(words) < 2:
        return None
    return words[0] if words[1] in _MANAGING[ECOSYSTEM[words[0]]] else None


def added_packages(words: tuple[str, ...]) -> list[str]:
    """The packages a JavaScript command adds by name (`npm add @scope/x@1 y`), their versions dropped."""
    if len(words) < 3 or ECOSYSTEM.get(words[0]) != "js" or words[1] not in ("add", "install", "i"):
        return []
    return [word[: word.index("@", 1)] if "@" in word[1:] else word for word in words[2:] if not word.startswith("-")]


def _package_json(content: bytes) -> dict:
    """A package.json's object ({} when it is not JSON or not an object: it then says nothing)."""
    try:
        data = json.loads(content.decode("utf-8"))
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def package_name(content: bytes) -> str | None:
    """The name a package.json publishes its package under, or None."""
    name = _package_json(content).get("name")
    return name if isinstance(name, str) and name else None


def managers_in(paths) -> dict[str, str]:
    """ecosystem -> the one manager the root's lockfiles show (an ecosystem with two is left out: undecided)."""
    seen: dict[str, set[str]] = {}
    for path in paths:
        manager = LOCKFILES.get(path)
        if manager:
            seen.setdefault(ECOSYSTEM[manager], set()).add(manager)
    return {ecosystem: next(iter(managers)) for ecosystem, managers in seen.items() if len(managers) == 1}


def is_manifest(runner: str, path: str) -> bool:
    return posixpath.basename(path) in RUNNER_MANIFESTS[runner] and "node_modules/" not in path


def defined(runner: str, content: bytes) -> frozenset[str] | None:
    """The names a manifest defines for a runner, or ANYTHING when it cannot be read completely."""
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        return ANYTHING
    if runner in ("npm", "pnpm", "yarn", "bun"):
        return _package_scripts(text)
    if runner == "make":
        return _make_targets(text)
    if runner == "just":
        return _just_recipes(text)
    return _task_names(text)


def _package_scripts(text: str):
    try:
        data = json.loads(text)
    except ValueError:
        return ANYTHING
    scripts = data.get("scripts") if isinstance(data, dict) else None
    return frozenset(scripts) if isinstance(scripts, dict) else frozenset()


def provided_binaries(content: bytes) -> frozenset[str]:
    """The binaries a package.json's own dependencies install (`node_modules/.bin`): a package's name when it has
    no scope (eslint, vitest), and the known binaries of the packages that name theirs otherwise (tsc, changeset)."""
    data = _package_json(content)
    packages = set()
    for field in _DEPENDENCY_FIELDS:
        listed = data.get(field)
        packages.update(listed if isinstance(listed, dict) else ())
    known = {binary for binary, providers in _BINARY_PACKAGES.items() if packages.intersection(providers)}
    return frozenset(name for name in packages if not name.startswith("@")) | known


_MAKE_RULE = LazyPattern(r"^([^\s:=#][^:=#]*?)\s*::?(?![=])", re.MULTILINE)


def _make_targets(text: str):
    if re.search(r"^\s*-?s?include\s|^[^\s#]*%[^:=]*:", text, re.MULTILINE):
        return ANYTHING  # targets from elsewhere, or a pattern rule that makes any name
    names = set()
    for match in _MAKE_RULE.finditer(text):
        if "$" in match.group(1):
            return ANYTHING
        names.update(match.group(1).split())
    return frozenset(names)


_JUST_RECIPE = LazyPattern(r"^@?([A-Za-z_][\w-]*)(?:\s+[^:=\n]*)?:(?!=)", re.MULTILINE)
_JUST_ALIAS = LazyPattern(r"^alias\s+([A-Za-z_][\w-]*)\s*:=", re.MULTILINE)


def _just_recipes(text: str):
    if re.search(r"^(?:import|mod)\b", text, re.MULTILINE):
        return ANYTHING
    return frozenset(_JUST_RECIPE.findall(text)) | frozenset(_JUST_ALIAS.findall(text))


def _task_names(text: str):
    import yaml

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return ANYTHING
    if not isinstance(data, dict) or data.get("includes"):
        return ANYTHING
    tasks = data.get("tasks")
    names = set(tasks) if isinstance(tasks, dict) else set()
    for task in (tasks or {}).values() if isinstance(tasks, dict) else ():
        if isinstance(task, dict) and isinstance(task.get("aliases"), list):
            names.update(str(alias) for alias in task["aliases"])
    return frozenset(str(name) for name in names)

"""Configuration: ``[tool.memwarden]`` in pyproject.toml, or a ``.memwarden.toml``.

Found by walking up from the checked path; the nearest file wins. Every key,
rule name and rule option is checked, and anything unknown is a usage error
(exit 2) that names the file and suggests the closest known spelling.
"""

from __future__ import annotations

import difflib
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memwarden.errors import UsageError
from memwarden.discover.globs import compile_glob
from memwarden.discover.profiles import FORMATS, PROFILES
from memwarden.fileio import read_regular

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

CONFIG_NAME = ".memwarden.toml"

KNOWN_KEYS = {
    "profile": "the workspace profile (ghost-in-shell, three-layer, claude-code); detected when absent",
    "select": "rule names, codes or prefixes to run (default: the stable rules); a preview rule named exactly runs",
    "preview": "true turns the preview rules on (those not yet measured right on real memory), as --preview does",
    "ignore": "rule names or codes to skip",
    "exclude": "globs of files never checked, even when named on the command line",
    "per-file-ignores": "a table of glob = [rule names] to skip for matching files",
    "kinds": "per-kind tables (globs, format, schema) that change or add kinds of memory file",
    "rules": "per-rule option tables, e.g. [tool.memwarden.rules.too-few-tags] min_tags = 3",
    "agent-hook": "what `memwarden hook` does after an agent writes memory: fix = true applies the safe fixes",
}
AGENT_HOOK_KEYS = {"fix"}
KIND_KEYS = {"globs", "format", "schema", "exclude", "description"}


def suggest(word: str, choices) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


@dataclass
class Config:
    path: Path | None = None  # the file it came from
    base_dir: Path = field(default_factory=Path.cwd)  # globs in the config are relative to this
    profile: str | None = None
    select: list[str] | None = None  # as written (names, codes, prefixes, ALL): what a prefix takes depends on preview
    preview: bool = False
    ignore: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    kinds: dict[str, dict[str, Any]] = field(default_factory=dict)
    rules: dict[str, dict[str, Any]] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)  # workspace settings shared by several rules
    agent_hook_fix: bool = False  # `memwarden hook` applies the safe fixes after an agent's write (opt-in)

    @property
    def label(self) -> str:
        return str(self.path) if self.path else "configuration"

    def rule_options(self, rule) -> dict[str, Any]:
        options = {name: option.default for name, option in rule.options.items()}
        options.update(self.rules.get(rule.name, {}))
        for name, option in rule.options.items():
            if option.setting is not None and option.setting in self.settings:
                options[name] = self.settings[option.setting]
        return options


def _read_toml(path: Path) -> dict:
    try:
        return tomllib.loads(read_regular(path).decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise UsageError(f"{path}: invalid TOML: {error}") from None
    except OSError as error:
        raise UsageError(f"{path}: cannot read: {error.strerror}") from None


def find_config_file(start: Path) -> tuple[Path | None, dict]:
    """The nearest config at or above start, with its memwarden table."""
    start = start.resolve()
    for directory in [start, *start.parents] if start.is_dir() else list(start.parents):
        dotfile = directory / CONFIG_NAME
        if dotfile.is_file():
            data = _read_toml(dotfile)
            return dotfile, data.get("tool", {}).get("memwarden", data) if "tool" in data else data
        pyproject = directory / "pyproject.toml"
        if pyproject.is_file():
            data = _read_toml(pyproject)
            table = _memwarden_table(data, pyproject)
            if table is not None:
                return pyproject, table
    return None, {}


def settings_in(name: str, raw: bytes | None) -> dict | None:
    """The memwarden table a config file's bytes hold, as find_config_file reads it (None: none, or no file);
    UsageError when they are not TOML."""
    if raw is None:
        return None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise UsageError(f"{name}: invalid TOML: {error}") from None
    if name == CONFIG_NAME:
        return data.get("tool", {}).get("memwarden", data) if "tool" in data else data
    tool = data.get("tool", {})
    return tool.get("memwarden") if isinstance(tool, dict) else None


def load_from(start: Path, read) -> Config:
    """The config that applies at start in another tree (a commit's): read(path) gives a file's bytes
    there, None when it has no such file; found as find_config_file finds it."""
    start = start.resolve()
    for directory in [start, *start.parents] if start.is_dir() else list(start.parents):
        for name in (CONFIG_NAME, "pyproject.toml"):
            table = settings_in(name, read(directory / name))
            if table is not None:
                return parse(table, directory / name)
    return parse({}, None)


def _string_list(value, where: str) -> list[str]:
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise UsageError(f"{where} must be a list of strings")
    return value


def _globs(value, where: str) -> list[str]:
    """A list of globs, each one that compiles (a range like `[z-a]` is a configuration error, not a crash)."""
    import re

    globs = _string_list(value, where)
    for glob in globs:
        try:
            compile_glob(glob)
        except re.error as error:
            raise UsageError(f"{where}: '{glob}' is not a valid glob ({error})") from None
    return globs


def _table(table: dict, key: str, where: str) -> dict:
    value = table.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise UsageError(f"{where}: {key} must be a table")
    return value


def _memwarden_table(data: dict, path: Path) -> dict | None:
    """The [tool.memwarden] table of a pyproject.toml (None when it has none)."""
    tool = data.get("tool", {})
    if not isinstance(tool, dict):
        raise UsageError(f"{path}: tool must be a table")
    return tool.get("memwarden")


def _rule_names(values, where: str) -> list[str]:
    from memwarden import registry

    names = []
    for value in values:
        try:
            names.extend(sorted(registry.resolve([value])))
        except KeyError:
            known = registry.names()
            raise UsageError(f"{where}: unknown rule '{value}'{suggest(value, known)}") from None
    return names


def parse(table: dict, path: Path | None) -> Config:
    where = f"{path}: [tool.memwarden]" if path and path.name == "pyproject.toml" else str(path or "config")
    config = Config(path=path, base_dir=path.parent if path else Path.cwd())
    if not isinstance(table, dict):
        raise UsageError(f"{where} must be a table")
    for key, value in table.items():
        if key not in KNOWN_KEYS:
            raise UsageError(f"{where}: unknown key '{key}'{suggest(key, KNOWN_KEYS)}")
    if "profile" in table:
        profile = table["profile"]
        if not isinstance(profile, str):
            raise UsageError(f"{where}: profile must be a string, one of {', '.join(PROFILES)}")
        if profile not in PROFILES:
            raise UsageError(
                f"{where}: unknown profile '{profile}'{suggest(str(profile), PROFILES)}; "
                f"choose one of {', '.join(PROFILES)}"
            )
        config.profile = profile
    if "select" in table:
        config.select = _string_list(table["select"], f"{where}: select")
        _rule_names(config.select, f"{where}: select")  # every key must name a rule
    if "preview" in table:
        if not isinstance(table["preview"], bool):
            raise UsageError(f"{where}: preview must be true or false")
        config.preview = table["preview"]
    if "ignore" in table:
        config.ignore = _rule_names(_string_list(table["ignore"], f"{where}: ignore"), f"{where}: ignore")
    if "exclude" in table:
        config.exclude = _globs(table["exclude"], f"{where}: exclude")
    for glob, names in _table(table, "per-file-ignores", where).items():
        _globs(glob, f"{where}: per-file-ignores")
        config.per_file_ignores[glob] = _rule_names(
            _string_list(names, f"{where}: per-file-ignores.{glob}"), f"{where}: per-file-ignores.{glob}"
        )
    for kind, spec in _table(table, "kinds", where).items():
        if not isinstance(spec, dict):
            raise UsageError(f"{where}: kinds.{kind} must be a table")
        for key in spec:
            if key not in KIND_KEYS:
                raise UsageError(f"{where}: kinds.{kind}: unknown key '{key}'{suggest(key, KIND_KEYS)}")
        for key in ("globs", "exclude"):
            if key in spec:
                spec[key] = _globs(spec[key], f"{where}: kinds.{kind}.{key}")
        for key in ("schema", "description", "format"):
            if key in spec and not isinstance(spec[key], str):
                raise UsageError(f"{where}: kinds.{kind}.{key} must be a string")
        if "format" in spec and spec["format"] not in FORMATS:
            raise UsageError(f"{where}: kinds.{kind}.format must be one of {', '.join(FORMATS)}")
        config.kinds[kind] = spec
    hook = _table(table, "agent-hook", where)
    for key, value in hook.items():
        if key not in AGENT_HOOK_KEYS:
            raise UsageError(f"{where}: agent-hook: unknown key '{key}'{suggest(key, AGENT_HOOK_KEYS)}")
        if not isinstance(value, bool):
            raise UsageError(f"{where}: agent-hook.fix must be true or false")
    config.agent_hook_fix = hook.get("fix", False)
    if not _table(table, "rules", where):
        return config  # no rule options: the rule modules need not load (a hook on a file that is not memory)
    from memwarden import registry

    # In catalog order, so where two rules' tables set one shared setting the later rule's wins.
    rule_tables = sorted(
        _table(table, "rules", where).items(),
        key=lambda item: registry.CATALOG.get(registry.name_of(item[0]) or "", (_UNKNOWN.code,))[0],
    )
    for name, options in rule_tables:
        declared = registry.by_name_or_code(name)  # imports only the modules of the rules configured
        if declared is None:
            raise UsageError(f"{where}: rules.{name}: unknown rule{suggest(name, registry.names())}")
        if not isinstance(options, dict):
            raise UsageError(f"{where}: rules.{name} must be a table of options")
        for option, value in options.items():
            spec = declared.options.get(option)
            if spec is None:
                known = ", ".join(declared.options) or "none"
                raise UsageError(
                    f"{where}: rules.{name}: unknown option '{option}'"
                    f"{suggest(option, declared.options)} (options: {known})"
                )
            if not isinstance(value, spec.type) or (isinstance(value, bool) and spec.type in (int, float)):
                raise UsageError(f"{where}: rules.{name}.{option} must be {_type_name(spec.type)}")
        config.rules[declared.name] = dict(options)
        for option, value in options.items():
            if declared.options[option].setting is not None:
                config.settings[declared.options[option].setting] = value
    return config


class _UNKNOWN:  # sorts an unknown rule's table last; parse() reports it
    code = "~"


def _type_name(kind) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {int: "an integer", float: "a number", str: "a string", bool: "true or false", list: "a list", dict: "a table"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def load(start: Path, explicit: Path | None = None) -> Config:
    if explicit is not None:
        path = explicit.resolve()
        data = _read_toml(path)
        table = (_memwarden_table(data, path) or {}) if path.name == "pyproject.toml" else data
        if path.name != "pyproject.toml" and "tool" in data:
            table = _memwarden_table(data, path) or {}
        return parse(table, path)
    path, table = find_config_file(start)
    return parse(table, path)

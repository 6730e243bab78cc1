"""The JSON Schemas shipped with memwarden, one file per kind of each profile."""

from __future__ import annotations

import functools
import json
from pathlib import Path

from memwarden.errors import UsageError
from memwarden.discover.profiles import PROFILES, Kind, Profile


def schemas_dir() -> Path:
    # In a wheel the schemas sit inside the package; in a source checkout
    # (and an editable install) they sit at the top of the repository.
    package = Path(__file__).resolve().parents[1]
    packaged = package / "schemas"
    if packaged.is_dir():
        return packaged
    return package.parents[1] / "schemas"


def schema_path(profile: Profile, kind: Kind) -> Path | None:
    if kind.schema_file:
        return Path(kind.schema_file)
    path = schemas_dir() / profile.name / f"{kind.name}.schema.json"
    return path if path.is_file() else None


@functools.lru_cache(maxsize=64)
def _load(path: str) -> dict:
    try:
        return json.loads(Path(path).read_text("utf-8"))
    except (OSError, ValueError) as error:
        raise UsageError(f"{path}: cannot read the schema: {error}") from None


def load_schema(profile: Profile, kind: Kind) -> dict | None:
    path = schema_path(profile, kind)
    return _load(str(path)) if path else None


@functools.lru_cache(maxsize=64)
def _validator(path: str):
    from jsonschema import Draft202012Validator

    schema = _load(path)
    cls = Draft202012Validator
    if "$schema" in schema:
        from jsonschema.validators import validator_for

        cls = validator_for(schema, default=Draft202012Validator)
    return cls(schema)


def validator(profile: Profile, kind: Kind):
    path = schema_path(profile, kind)
    return _validator(str(path)) if path else None


def find(name: str, profile_name: str | None) -> tuple[Profile, Kind]:
    """A kind by 'KIND' (in the given or default profile) or 'PROFILE/KIND'."""
    if "/" in name:
        profile_name, name = name.split("/", 1)
    candidates = [PROFILES[profile_name]] if profile_name in PROFILES else list(PROFILES.values())
    if profile_name and profile_name not in PROFILES:
        raise UsageError(f"unknown profile '{profile_name}'; choose one of {', '.join(PROFILES)}")
    for profile in candidates:
        kind = profile.kind(name)
        if kind is not None:
            return profile, kind
    kinds = sorted({f"{p.name}/{k.name}" for p in PROFILES.values() for k in p.kinds})
    raise UsageError(f"unknown kind '{name}'; known kinds: {', '.join(kinds)}")

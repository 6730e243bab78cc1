"""The JSON Schemas shipped with memwarden, one file per kind of each profile."""

from __future__ import annotations

import functools
import json
from pathlib import Path

from memwarden.errors import UsageError
from memwarden.kinds import Kind, Profile


@functools.lru_cache(maxsize=1)
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
    return _shipped(profile.name, kind.name)


@functools.lru_cache(maxsize=128)
def _shipped(profile_name: str, kind_name: str) -> Path | None:
    """The shipped schema of a kind: looked for once per process, not once per document."""
    path = schemas_dir() / profile_name / f"{kind_name}.schema.json"
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


class SchemaValidator:
    """One kind's schema, compiled once per process: jsonschema-rs says whether an instance fits,
    and jsonschema, loaded only for an instance that does not, says why (its errors and best match
    are what the findings have always been made of).

    Where jsonschema-rs is missing or cannot take the schema (a custom schema of another dialect, a
    reference it would have to fetch) or an instance (a NaN, a number too large), jsonschema decides alone.
    """

    def __init__(self, path: str):
        self.path = path
        self.fast = _compiled(path)
        self._full = None

    @property
    def full(self):
        if self._full is None:
            from jsonschema import Draft202012Validator

            schema = _load(self.path)
            cls = Draft202012Validator
            if "$schema" in schema:
                from jsonschema.validators import validator_for

                cls = validator_for(schema, default=Draft202012Validator)
            self._full = cls(schema)
        return self._full

    def is_valid(self, instance) -> bool:
        if self.fast is not None:
            try:
                if self.fast.is_valid(instance):
                    return True
            except Exception:  # an instance jsonschema-rs cannot take: jsonschema decides
                pass
        return not any(True for _ in self.full.iter_errors(instance))

    def iter_errors(self, instance):
        """jsonschema's errors for instance: none, without loading jsonschema, when it fits."""
        if self.fast is not None:
            try:
                if self.fast.is_valid(instance):
                    return iter(())
            except Exception:
                pass
        return self.full.iter_errors(instance)


def _no_retrieval(uri: str):
    raise ValueError(f"memwarden does not fetch {uri}")


def _compiled(path: str):
    """The schema compiled by jsonschema-rs (draft 2020-12 unless it names its own), or None."""
    try:
        import jsonschema_rs
    except ImportError:
        return None
    schema = _load(path)
    try:
        if "$schema" in schema:
            return jsonschema_rs.validator_for(schema, validate_formats=False, retriever=_no_retrieval)
        return jsonschema_rs.Draft202012Validator(schema, validate_formats=False, retriever=_no_retrieval)
    except Exception:  # a schema it cannot compile: jsonschema validates alone, as before
        return None


@functools.lru_cache(maxsize=64)
def _validator(path: str) -> SchemaValidator:
    return SchemaValidator(path)


def validator(profile: Profile, kind: Kind):
    path = schema_path(profile, kind)
    return _validator(str(path)) if path else None

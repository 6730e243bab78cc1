"""The baseline: findings of `secret-in-memory` accepted as not secret, or already dealt with.

A JSON file (``.memwarden-baseline.json`` at the workspace root by default)::

    {
      "version": 1,
      "accepted": {
        "memory/episodic.jsonl": [
          {"hash": "9f2c1a0b7d3e4f56", "type": "high-entropy-string"}
        ]
      }
    }

Entries are keyed by the file's workspace-relative path and a hash of the
value (the first 16 hex digits of its sha256), never by line number: editing
a file around an accepted value does not change the baseline. Extra keys in an
entry (a ``reason``, say) are the user's and are kept. Writing is stable:
sorted keys and entries, two-space indent, one final newline.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from memwarden.errors import UsageError
from memwarden.patterns import LazyPattern

DEFAULT_PATH = ".memwarden-baseline.json"
_SURROGATE = LazyPattern("[\ud800-\udfff]")
VERSION = 1
DESCRIPTION = (
    "Findings of memwarden's secret-in-memory rule accepted as not secret (or already rotated), "
    "keyed by file and the first 16 hex digits of the value's sha256. Update with `memwarden baseline`."
)

@dataclass
class Baseline:
    path: Path
    entries: dict[str, dict[str, dict]] = field(default_factory=dict)  # relpath -> hash -> entry

    def accepts(self, relpath: str, baseline_hash: str) -> bool:
        return baseline_hash in self.entries.get(relpath, {})

    def to_json(self) -> str:
        accepted = {
            relpath: [dict(sorted(entry.items())) for _, entry in sorted(by_hash.items())]
            for relpath, by_hash in sorted(self.entries.items())
            if by_hash
        }
        document = {"version": VERSION, "description": DESCRIPTION, "accepted": accepted}
        text = json.dumps(document, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
        # A file name that is not UTF-8 (surrogateescape) is written as a JSON escape, and reads back the same.
        return _SURROGATE.sub(lambda match: f"\\u{ord(match.group(0)):04x}", text)


def resolve(root: Path, option: str | None) -> Path:
    """The baseline's path for a workspace: the rule option, relative to the workspace root."""
    path = Path(os.path.expanduser(option or DEFAULT_PATH))
    return path if path.is_absolute() else root / path


def load(path: Path) -> Baseline:
    """Read a baseline; a missing file is an empty one. A malformed file is a usage error (exit 2)."""
    try:
        path.stat()
    except OSError:
        return Baseline(path)
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"{path}: cannot read the secrets baseline: {error}") from None
    except ValueError as error:
        raise UsageError(f"{path}: the secrets baseline is not valid JSON ({error}); fix it or delete it and run `memwarden baseline`") from None
    return Baseline(path, _entries(data, path))


def _entries(data, path: Path) -> dict[str, dict[str, dict]]:
    problem = f"{path}: not a memwarden secrets baseline"
    if not isinstance(data, dict) or not isinstance(data.get("accepted", {}), dict):
        raise UsageError(f"{problem}: expected an object with an 'accepted' object")
    if data.get("version", VERSION) != VERSION:
        raise UsageError(f"{problem}: version {data.get('version')!r} is not {VERSION}")
    entries: dict[str, dict[str, dict]] = {}
    for relpath, items in data.get("accepted", {}).items():
        if not isinstance(items, list):
            raise UsageError(f"{problem}: accepted['{relpath}'] must be a list")
        for item in items:
            if not isinstance(item, dict) or not isinstance(item.get("hash"), str):
                raise UsageError(f"{problem}: every entry of accepted['{relpath}'] needs a 'hash' string")
            entries.setdefault(relpath, {})[item["hash"].lower()] = item
    return entries


def merge(existing: Baseline, found: dict[str, dict[str, str]], scanned: set[str]) -> tuple[Baseline, int, int]:
    """A new baseline from what a scan found: (baseline, added, dropped).

    ``found`` maps each scanned file to {hash: type}. Entries of scanned files
    that no longer occur are dropped; entries that still occur keep their extra
    keys; files that were not scanned keep their entries as they are.
    """
    entries: dict[str, dict[str, dict]] = {}
    added = dropped = 0
    for relpath, by_hash in existing.entries.items():
        if relpath not in scanned:
            entries[relpath] = dict(by_hash)
    for relpath in scanned:
        old = existing.entries.get(relpath, {})
        new = found.get(relpath, {})
        kept: dict[str, dict] = {}
        for digest, secret_type in new.items():
            if digest in old:
                kept[digest] = {**old[digest], "hash": digest, "type": secret_type}
            else:
                kept[digest] = {"hash": digest, "type": secret_type}
                added += 1
        dropped += sum(1 for digest in old if digest not in new)
        if kept:
            entries[relpath] = kept
    return Baseline(existing.path, entries), added, dropped

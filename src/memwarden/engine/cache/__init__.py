"""The cache: one SQLite database (`.memwarden_cache/store.sqlite3`) and one key scheme, and the only face
the rest of the engine sees of it.

Every answer kept is keyed first by the run's settings (`store.settings_key`: the version, the rule
selection and options, the code's fingerprint), then by what it depends on: a file's content hash (its
document findings and summaries), a log line's digest (its record findings), the dependency digests a
rule was seen to read (which files exist, another file's content, git's HEAD and index), and, for the two
rules that compare records with each other, each record's own rows. The parts, each a module here:

- `store` the database: opening it (a damaged, foreign or older file is rebuilt, never trusted), the one
  write transaction of a run, file hashes kept by stat, every value sealed with a CRC-32;
- `incremental` what a rule was seen to read (the watched workspace and memo) and when a kept answer still
  holds; summaries per file;
- `cached_run` the pass that loads from the store what it still answers and checks the rest;
- `record_files`, `repeat_index`, `conflict_index` near-duplicate's and conflicting-records' answers kept
  per record in indexed tables and brought up to date by what changed.

`engine/run.py` asks only for the names below, each loaded when first asked for (the store's modules
import sqlite3 and the coherence analysis: a check that does not cache never loads them).
"""

from __future__ import annotations

import importlib

_WHERE = {
    "usable": "store",
    "open_store": "cached_run",
    "incremental_findings": "cached_run",
    "check_chunk": "cached_run",
    "WatchedMemo": "incremental",
    "WatchedWorkspace": "incremental",
    "plain_lines": "incremental",
    "summaries_without_cache": "incremental",
    "kept_repeats": "repeat_index",
    "kept_conflicts": "conflict_index",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str):
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)

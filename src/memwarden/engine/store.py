"""The incremental cache's store: entries in shards, each read only when one of its keys is asked for.

See :class:`Store`; engine/incremental.py decides what the entries hold and when they are valid.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from memwarden.engine import checkpoints
from memwarden.engine.cache import read_json, read_regular

STORE_DIR = "incremental"
FORMAT = 3
MAX_ENTRIES = 400_000  # past this, entries not used by the latest run are dropped


class Store:
    """The entries of earlier runs, in shards read only when a key of theirs is asked for.

    A key names its shard (``shard/hash``: the documents of one bucket of paths, one log's records,
    the summaries, the workspace rules), so a hook on three files reads the shards of those files
    and of what the workspace rules need, not every document's findings. Each shard is a JSON file
    and a journal of the entries added since (one JSON object a line, appended): a run that adds a
    few entries appends them, and a shard is rewritten whole only when its journal has grown to a
    quarter of it. A missing, truncated or garbled shard or journal line is a miss.
    """

    def __init__(self, directory: Path):
        self.dir = directory / STORE_DIR
        self.shards: dict[str, dict[str, list]] = {}
        self._journaled: dict[str, int] = {}  # shard -> entries its journal holds
        self.used: set[str] = set()
        self._made: set[str] = set()
        self._unread: dict[str, dict[str, list]] = {}  # entries put into a shard this run has not read
        self.dirty = False

    def shard(self, name: str) -> dict[str, list]:
        if name not in self.shards:
            self.shards[name] = self._read(name)
            self.shards[name].update(self._unread.pop(name, {}))
        return self.shards[name]

    def _read(self, name: str) -> dict[str, list]:
        entries: dict[str, list] = {}
        if os.path.islink(self.dir):  # a committed symlink must not lead reads or writes out of the cache
            self._journaled[name] = 0
            return entries
        data = read_json(self.dir / f"{name}.json")
        if isinstance(data, dict) and data.get("format") == FORMAT and isinstance(data.get("entries"), dict):
            entries = data["entries"]
        journaled = 0
        for line in (read_regular(self.dir / f"{name}.log") or b"").splitlines():
            try:
                added = json.loads(line)
            except ValueError:  # UnicodeDecodeError is one: a torn or garbled line, its entries are misses
                continue
            if isinstance(added, dict):
                entries.update(added)
                journaled += len(added)
        self._journaled[name] = journaled
        return entries

    def get(self, key: str):
        entry = self.shard(shard_of(key)).get(key)
        if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], list)):
            return None
        self.used.add(key)
        return entry

    def put(self, key: str, deps, value, kind: str = "") -> None:
        entry = [sorted(([list(p) if isinstance(p, tuple) else p for p in d] for d in deps), key=str), value, kind]
        self._place(key, entry)

    def _place(self, key: str, entry: list) -> None:
        name = shard_of(key)
        # A shard not read yet is not read to add to it: its new entries go to its journal (a log's appended
        # lines under a checkpoint, whose per-line shard is then never read).
        (self.shards[name] if name in self.shards else self._unread.setdefault(name, {}))[key] = entry
        self.used.add(key)
        self._made.add(key)
        self.dirty = True

    def _entry(self, key: str) -> list:
        name = shard_of(key)
        return self.shards[name][key] if name in self.shards else self._unread[name][key]

    def made(self) -> dict:
        """The entries this run stored (a worker process hands them to the main one)."""
        return {key: self._entry(key) for key in self._made}

    def adopt(self, entries: dict) -> None:
        """Entries a worker process made."""
        for key, entry in entries.items():
            self._place(key, entry)
        self.used.update(entries)
        self._made.update(entries)
        self.dirty = self.dirty or bool(entries)

    def save(self) -> None:
        if not self.dirty:
            return
        from memwarden.fixes.write import write_atomic

        made_by_shard: dict[str, list[str]] = {}
        for key in self._made:
            made_by_shard.setdefault(shard_of(key), []).append(key)
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            if os.path.islink(self.dir):
                return
            (self.dir.parent / "incremental.json").unlink(missing_ok=True)  # the one-file store of format 2
            for name, keys in sorted(made_by_shard.items()):
                journal = self.dir / f"{name}.log"
                if name not in self.shards and not name.startswith(CHECKPOINT_SHARD) and \
                        not self._journal_outgrown(name, journal):
                    self._append(journal, {key: self._unread[name][key] for key in sorted(keys)})
                    continue
                entries = self.shard(name)
                base_size = len(entries) - self._journaled.get(name, 0) - len(keys)
                if name != RULE_SHARD and not name.startswith(CHECKPOINT_SHARD) and \
                        (self._journaled.get(name, 0) + len(keys)) * 4 <= max(base_size, 0):
                    self._append(journal, {key: entries[key] for key in sorted(keys)})
                    self._journaled[name] = self._journaled.get(name, 0) + len(keys)
                    continue
                if len(entries) > MAX_ENTRIES:
                    entries = {key: value for key, value in entries.items() if key in self.used}
                elif name == RULE_SHARD:  # a workspace rule's entry of another run (other files named) is seldom asked again
                    entries = {key: value for key, value in entries.items() if key in self.used}
                elif name.startswith(CHECKPOINT_SHARD) and len(entries) > MAX_CHECKPOINTS:
                    entries = {key: value for key, value in entries.items() if key in self.used}  # other settings'
                write_atomic(self.dir / f"{name}.json",
                             json.dumps({"format": FORMAT, "entries": entries}, separators=(",", ":")).encode("ascii"))
                journal.unlink(missing_ok=True)
                self._journaled[name] = 0
                if name.count("-") == 1 and name.startswith(CHECKPOINT_SHARD):
                    self._drop_unreferenced(name, entries)
            self._made.clear()
            self.dirty = False
        except OSError:
            pass  # a read-only workspace is checked all the same

    def _drop_unreferenced(self, name: str, entries: dict) -> None:
        """Remove the data shards of checkpoints no entry of this checkpoint index names any more."""
        kept = checkpoints.referenced(entries)
        for path in self.dir.glob(f"{name}-*.json"):
            if path.stem[len(name) + 1 :] not in kept:
                path.unlink(missing_ok=True)
                self.shards.pop(path.stem, None)

    def _journal_outgrown(self, name: str, journal: Path) -> bool:
        """Whether an unread shard's journal has reached a quarter of the shard: then it is read and rewritten."""
        try:
            grown = journal.stat().st_size
        except OSError:
            return False
        try:
            base = (self.dir / f"{name}.json").stat().st_size
        except OSError:
            base = 0
        return grown * 4 > base

    @staticmethod
    def _append(journal: Path, added: dict) -> None:
        line = json.dumps(added, separators=(",", ":")).encode("ascii") + b"\n"
        descriptor = os.open(journal, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
        try:
            os.write(descriptor, line)  # one write: a torn line is a miss, never a wrong entry
        finally:
            os.close(descriptor)


DOCUMENT_BUCKETS = 16
RULE_SHARD = "rules"
CHECKPOINT_SHARD = checkpoints.SHARD
MAX_CHECKPOINTS = 16  # per shard: past this, checkpoints of settings the latest run did not use are dropped


def shard_of(key: str) -> str:
    name, _, _ = key.rpartition("/")
    return name or "other"


def in_shard(shard: str, key: str) -> str:
    return f"{shard}/{key}"


def bucket(relpath: str) -> str:
    """Which of the document shards a file's entries live in (a log's records have a shard of their own)."""
    return f"{int(hashlib.sha256(relpath.encode('utf-8', 'surrogatepass')).hexdigest()[:4], 16) % DOCUMENT_BUCKETS:02d}"

"""The cache: one SQLite database in `.memwarden_cache/`, with one key scheme.

Every answer is stored under what it depends on: the run's **settings** (memwarden's version and
code, the profile, the config, the rules selected and their options, the date, the inputs outside
the workspace: :func:`settings_key`) and then its unit's content:

- ``entries``: a document's findings (its path, kind and content hash) and a workspace rule's findings, each with the dependency set
  its rules were seen to read (engine/cache/incremental.py says when one is still valid);
- ``lines``: a JSONL log's records, one row per line, under the log's key (settings, what is kept:
  the record rules' findings or one record summary, the path, the kind) with the line's bytes'
  digest: a run reads a log's rows in one query and checks only the lines whose digest changed;
  row 0, the digest of its first lines' bytes (each with its row): a log that grew is one digest;
- ``facts``: what a summary function says of each file (the ids, links, names and marks the workspace
  rules need), one row per file under the function's key with the file's kind and content hash: a run
  reads a function's rows in one query and reads again only the files whose content changed;
- ``depsets``: dependency sets, stored once and named by id (a log's lines mostly share one);
- ``files``: each file's stat and SHA-256, so a file is hashed again only when its stat changed.

Reads happen as the run asks; what the run made is written in one transaction at its end (WAL: a
reader never waits for a writer). The schema version is ``PRAGMA user_version`` and the database
says it is memwarden's by ``PRAGMA application_id``: a file that is not a database, a foreign or
older one is discarded and rebuilt; a damaged or locked one leaves the run uncached (the next run
rebuilds a damaged one). The database never holds a secret in clear text (incremental.py).
Delete `.memwarden_cache/` at any time; `--no-cache` skips it.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import zlib
from pathlib import Path

from memwarden import __version__, registry
from memwarden.engine.cache import tree_files
from memwarden.engine.cache.tree_files import code_fingerprint

CACHE_DIR = ".memwarden_cache"
DATABASE = "store.sqlite3"
SCHEMA_VERSION = 6
APPLICATION_ID = 0x4D574431  # "MWD1": this file is memwarden's
MAX_ENTRIES = 400_000  # past this, entries the latest run did not use are dropped
BUSY_SECONDS = 1.0  # a database another process holds longer is left alone: this run goes uncached
SECRET_RULE = "secret-in-memory"  # its options (the baseline, high_entropy) matter even when it is not selected
_SKIP = {".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox", CACHE_DIR}

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS files (relpath BLOB PRIMARY KEY, signature TEXT NOT NULL, digest TEXT NOT NULL)"
    " WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS depsets (id INTEGER PRIMARY KEY, deps TEXT NOT NULL UNIQUE)",
    "CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, kind TEXT NOT NULL, depset INTEGER NOT NULL,"
    " value TEXT) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS facts (function TEXT NOT NULL, relpath BLOB NOT NULL, content TEXT NOT NULL,"
    " value TEXT NOT NULL, PRIMARY KEY (function, relpath)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS lines (log TEXT NOT NULL, line INTEGER NOT NULL, digest BLOB NOT NULL,"
    " depset INTEGER NOT NULL, value TEXT, PRIMARY KEY (log, line)) WITHOUT ROWID",
)


def key_of(*parts) -> str:
    """A key from plain parts (text and numbers)."""
    return hashlib.sha256("\x1f".join(map(str, parts)).encode("utf-8", "surrogatepass")).hexdigest()


def digest(*parts) -> str:
    """A key from structured parts (lists, dicts)."""
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=_plain).encode("utf-8", "surrogatepass")).hexdigest()


def line_digest(line: bytes) -> bytes:
    return hashlib.blake2b(line, digest_size=16).digest()


def usable(root: Path) -> bool:
    """Whether the cache folder may be used: it is not a symlink (one committed to a repository would have
    memwarden write its database, and its .gitignore, wherever the link leads)."""
    return not os.path.islink(root / CACHE_DIR)


class Store:
    """The database of one workspace, for one run: reads as asked, writes once at :meth:`save`.

    In a worker process the store only reads; what the worker made goes to the main process
    (:meth:`made`, :meth:`adopt`), which writes it. Any sqlite3 error leaves the store empty and
    silent for the rest of the run (answers are then computed, never guessed).
    """

    def __init__(self, root: Path):
        self.root = root
        self.dir = root / CACHE_DIR
        self.path = self.dir / DATABASE
        self._connection = None
        self._opened = False
        self._broken = False  # damaged mid-run: discarded at save
        self._pid = os.getpid()
        self._entries: dict[str, tuple[str, str, str]] = {}  # made this run: key -> (kind, deps text, value text)
        self._lines: dict[str, dict[int, tuple]] = {}  # made this run: log -> line -> (digest, deps text, value text)
        self._facts: dict[str, dict[str, tuple[str, str]]] = {}  # made this run: function -> relpath -> row
        self._cut: dict[str, int] = {}  # log -> its line count now (rows past it are dropped)
        self._files: dict[str, tuple[str, str]] | None = None  # as stored: relpath -> (signature, digest)
        self._files_now: dict[str, tuple[str, str]] = {}
        self._hashed: dict[str, str] | None = None  # this pass's file hashes
        self._names: set[str] | None = None  # this pass's listing of the tree
        self._single: dict[str, tuple[str, str]] = {}  # files hashed one by one, no pass over the tree: (signature, digest)
        self._depsets: dict[int, list] = {}
        self.used: set[str] = set()

    # -- the connection -------------------------------------------------------------------------
    def _db(self):
        """The open connection, or None (no cache this run: not usable, damaged, locked, foreign beyond repair)."""
        if self._opened:
            return self._connection if os.getpid() == self._pid and not self._broken else None
        self._opened = True
        if not usable(self.root):
            return None
        import sqlite3

        for attempt in range(2):
            try:
                if not self._regular_or_absent():
                    self._discard()  # a FIFO, a device or a link planted in its place: never opened
                self.dir.mkdir(exist_ok=True)
                connection = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None)
                if self._prepare(connection):
                    self._connection = connection
                    return connection
                connection.close()
            except sqlite3.OperationalError as error:
                if "locked" in str(error) or "busy" in str(error):
                    return None  # another run holds it: go on uncached, and leave its file alone
                if attempt:
                    return None
            except (sqlite3.Error, OSError):
                if attempt:
                    return None
            self._discard()
        return None

    def _regular_or_absent(self) -> bool:
        """Whether the database and its side files are regular files or absent (a FIFO would hang the run, a link
        to /dev/zero exhaust its memory; a repository can commit either)."""
        for suffix in ("", "-wal", "-shm", "-journal"):
            try:
                mode = os.lstat(f"{self.path}{suffix}").st_mode
            except FileNotFoundError:
                continue
            if not stat.S_ISREG(mode):
                return False
        return True

    def _prepare(self, connection) -> bool:
        """Whether the database is memwarden's of this schema (made so when new): False to discard it."""
        application = connection.execute("PRAGMA application_id").fetchone()[0]
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        if application == 0 and version == 0:
            if connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                return False  # someone else's tables
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("BEGIN IMMEDIATE")
            for statement in _SCHEMA:
                connection.execute(statement)
            connection.execute(f"PRAGMA application_id={APPLICATION_ID}")
            connection.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            connection.execute("COMMIT")
            self._write_gitignore()
            self._remove_earlier_store()
        elif application != APPLICATION_ID or version != SCHEMA_VERSION:
            return False
        connection.execute("PRAGMA synchronous=NORMAL")
        return True

    def _discard(self) -> None:
        """Remove the database and its side files (what cannot be removed stays: the run then goes uncached)."""
        for suffix in ("", "-wal", "-shm", "-journal"):
            path = f"{self.path}{suffix}"
            try:
                if os.path.isdir(path) and not os.path.islink(path):
                    import shutil

                    shutil.rmtree(path, ignore_errors=True)
                else:
                    os.unlink(path)
            except OSError:
                pass

    def _remove_earlier_store(self) -> None:
        """The JSON shards of memwarden before this store (`.memwarden_cache/v1/`): nothing reads them now."""
        earlier = self.dir / "v1"
        if earlier.is_dir() and not earlier.is_symlink():
            import shutil

            shutil.rmtree(earlier, ignore_errors=True)  # links inside are removed, never followed

    def _write_gitignore(self) -> None:
        ignore = self.dir / ".gitignore"
        try:  # never through a symlink (O_EXCL refuses one, dangling or not), never over a file
            handle = os.open(ignore, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except OSError:
            return
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write("# Written by memwarden: never commit the cache.\n*\n")

    def _query(self, sql: str, parameters=()) -> list:
        """Rows of a read, or none when the store cannot answer (then it stays silent for the run)."""
        connection = self._db()
        if connection is None:
            return []
        import sqlite3

        try:
            rows = connection.execute(sql, parameters).fetchall()
        except sqlite3.OperationalError:
            self._opened, self._connection = True, None  # locked or busy now: uncached from here on
            return []
        except sqlite3.Error:
            self._broken = True
            return []
        return rows

    def close(self) -> None:
        if self._connection is not None and os.getpid() == self._pid:
            self._connection.close()
        self._connection = None

    # -- entries --------------------------------------------------------------------------------
    def deps_of(self, reference) -> list | None:
        """A dependency set by its id (stored) or its text (made this run); None when it does not read as one."""
        if isinstance(reference, str):
            return _json_list(reference)
        if reference not in self._depsets:
            rows = self._query("SELECT deps FROM depsets WHERE id = ?", (reference,))
            self._depsets[reference] = _json_list(rows[0][0]) if rows else None
        return self._depsets[reference]

    def get(self, key: str):
        """(dependencies, value, kind, depset reference) of an entry, or None."""
        made = self._entries.get(key)
        if made is not None:
            kind, deps, value, reference = made[0], _json_list(made[1]), made[2], made[1]
        else:
            rows = self._query("SELECT kind, depset, value FROM entries WHERE key = ?", (key,))
            if not rows:
                return None
            kind, reference, value = rows[0]
            deps = self.deps_of(reference)
        sound, parsed = unseal(value)
        if deps is None or not sound:
            return None
        self.used.add(key)
        return [deps, parsed, kind, reference]

    def put(self, key: str, deps, value, kind: str = "") -> None:
        self._entries[key] = (kind, deps_text(deps), seal(value))
        self.used.add(key)

    # -- a transaction of its own: tables that must read what they write (engine/cache/repeat_index.py) --------
    def begin(self, schema=()):
        """The connection inside a write transaction begun now, with ``schema``'s tables made; None when the store
        cannot write (uncached, damaged, or another process holds it past BUSY_SECONDS). End it with :meth:`end`."""
        connection = self._db()
        if connection is None or connection.in_transaction:
            return None
        import sqlite3

        try:
            connection.execute("BEGIN IMMEDIATE")
            for statement in schema:
                connection.execute(statement)
        except sqlite3.Error as error:
            self._give_up(connection, error)
            return None
        return connection

    def end(self, keep: bool) -> bool:
        """Commit (``keep``) or roll back the transaction :meth:`begin` began; False when it could not be kept."""
        import sqlite3

        connection = self._connection
        if connection is None or not connection.in_transaction:
            return False
        try:
            connection.execute("COMMIT" if keep else "ROLLBACK")
            return keep
        except sqlite3.Error as error:
            self._give_up(connection, error)
            return False

    def _give_up(self, connection, error) -> None:
        """After a failed write: roll back, then go uncached for the rest of the run (damaged: rebuilt at save)."""
        import sqlite3

        try:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
        except sqlite3.Error:
            pass
        if isinstance(error, sqlite3.OperationalError) and ("locked" in str(error) or "busy" in str(error)):
            self._opened, self._connection = True, None
        else:
            self._broken = True

    # -- a log's lines --------------------------------------------------------------------------
    def log_lines(self, log: str, after: int = 0) -> dict[int, tuple]:
        """{line: (digest, depset reference, value text)} of a log's key: the stored rows and this run's; with
        ``after``, of the lines before it only those holding a value (the others are known to hold nothing)."""
        rows = {line: (bytes(found), depset, value) for line, found, depset, value in self._query(
            "SELECT line, digest, depset, value FROM lines WHERE log = ? AND (line > ? OR value IS NOT NULL)", (log, after))}
        rows.update((line, (found, deps, value)) for line, (found, deps, value) in self._lines.get(log, {}).items())
        return rows

    def made_lines(self, log: str) -> dict[int, tuple]:
        return self._lines.get(log, {})

    def log_row(self, log: str, line: int) -> tuple | None:
        rows = self._query("SELECT digest, depset, value FROM lines WHERE log = ? AND line = ?", (log, line))
        return (bytes(rows[0][0]), rows[0][1], rows[0][2]) if rows else None

    def log_head(self, log: str, count: int) -> list[tuple]:
        """[(depset reference, rows)] of a log's lines 1 to count: what an unchanged prefix of it rests on."""
        return self._query("SELECT depset, count(*) FROM lines WHERE log = ? AND line BETWEEN 1 AND ? GROUP BY depset",
                           (log, count))

    def put_line(self, log: str, line: int, found: bytes, deps, value) -> tuple:
        """Keep a line's value (None: nothing to keep but that it was checked); the row as :meth:`log_lines` gives it."""
        row = (found, deps_text(deps), None if value is None else seal(value))
        self._lines.setdefault(log, {})[line] = row
        return row

    def cut_log(self, log: str, count: int) -> None:
        """The log has ``count`` lines now: rows past them are stale."""
        self._cut[log] = count

    # -- per-file facts (summaries) ----------------------------------------------------------------
    def file_rows(self, function: str) -> dict[str, tuple[str, str]]:
        """{relpath: (kind and content hash, sealed value)} of every file a summary function's rows hold."""
        rows = {stored_relpath(name): (content, value) for name, content, value
                in self._query("SELECT relpath, content, value FROM facts WHERE function = ?", (function,))}
        rows.update(self._facts.get(function, {}))
        return rows

    def put_file_row(self, function: str, relpath: str, content: str, value) -> None:
        self._facts.setdefault(function, {})[relpath] = (content, seal(value))

    # -- workers --------------------------------------------------------------------------------
    def made(self) -> dict:
        """What this run stored (a worker process hands it to the main one)."""
        return {"entries": dict(self._entries), "lines": {log: dict(rows) for log, rows in self._lines.items()},
                "facts": {name: dict(rows) for name, rows in self._facts.items()}, "cut": dict(self._cut)}

    def adopt(self, made: dict) -> None:
        self._entries.update(made.get("entries", {}))
        for log, rows in made.get("lines", {}).items():
            self._lines.setdefault(log, {}).update(rows)
        for name, rows in made.get("facts", {}).items():
            self._facts.setdefault(name, {}).update(rows)
        self._cut.update(made.get("cut", {}))
        self.used.update(made.get("entries", {}))

    # -- file hashes ----------------------------------------------------------------------------
    def file_hashes(self) -> dict[str, str]:
        """relpath -> SHA-256 of every file of the workspace tree, worked out once a pass (re-hashing only the files
        whose stat changed)."""
        if self._hashed is None:
            self._hashed = self._hash_files()
        return self._hashed

    def file_names(self) -> set[str]:
        """Every file of the workspace tree, listed once a pass (nothing stat-ed: which files exist, not what is in them)."""
        if self._names is None:
            self._names = tree_files.file_names(self.root, _SKIP)
        return self._names

    def file_hash(self, relpath: str) -> str | None:
        """One file's SHA-256, as :meth:`file_hashes` has it, without a pass over the tree: its stat against its row.
        None when the pass would not hash it (a skipped or symlinked folder, a file that is not regular, unreadable)."""
        if self._hashed is not None:
            return self._hashed.get(relpath)
        stamped = tree_files.stat_one(self.root, relpath, _SKIP)
        if stamped is None:
            return None
        signature, full = stamped
        known = self._single.get(relpath) or self._files_now.get(relpath) or self._stored_file(relpath)
        if known is not None and known[0] == signature:
            return known[1]
        found = tree_files.sha256_of(full)
        if found is not None:
            self._single[relpath] = (signature, found)
        return found

    def _stored_file(self, relpath: str) -> tuple[str, str] | None:
        if self._files is not None:
            return self._files.get(relpath)
        rows = self._query("SELECT signature, digest FROM files WHERE relpath = ?", (stored_name(relpath),))
        return tuple(rows[0]) if rows else None

    def forget_hashes(self) -> None:
        """The files may have changed since they were hashed (a fixing round wrote them): stat them again."""
        self._hashed = self._names = None  # the one by one hashes stay: each is checked against its stat when used

    def _hash_files(self) -> dict[str, str]:
        if self._files is None:
            self._files = {stored_relpath(name): (signature, found) for name, signature, found
                           in self._query("SELECT relpath, signature, digest FROM files")}
        fresh: dict[str, tuple[str, str]] = {}
        listing = list(tree_files.walk_files(self.root, _SKIP))
        self._names = {relpath for relpath, _ in listing}
        for relpath, full in listing:
            try:
                info = os.stat(full)
            except OSError:
                continue
            if not stat.S_ISREG(info.st_mode):
                continue  # a FIFO would hang the read; a device is no file of memory
            signature = tree_files.signature(info)
            known = self._single.get(relpath) or self._files_now.get(relpath) or self._files.get(relpath)
            if known is not None and known[0] == signature:
                fresh[relpath] = known
                continue
            found = tree_files.sha256_of(full)
            if found is not None:
                fresh[relpath] = (signature, found)
        self._files_now = fresh
        self._single.clear()
        return {relpath: found for relpath, (_, found) in fresh.items()}

    # -- the run's one write --------------------------------------------------------------------
    def save(self) -> None:
        """Write what this run made, in one transaction; a damaged database is discarded first."""
        import sqlite3

        if self._broken and os.getpid() == self._pid:
            self.close()
            self._discard()
            self._opened = self._broken = False
        connection = self._db()
        if connection is None:
            return
        files = {relpath: row for relpath, row in self._files_now.items() if (self._files or {}).get(relpath) != row}
        files.update((relpath, row) for relpath, row in self._single.items() if relpath not in self._files_now)
        gone = set(self._files or {}) - set(self._files_now) if self._files_now else set()
        if not (self._entries or self._lines or self._facts or self._cut or files or gone):
            return
        try:
            connection.execute("BEGIN IMMEDIATE")
            ids: dict[str, int] = {}
            connection.executemany("INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?)",
                                   [(key, kind, self._depset_id(connection, deps, ids), value)
                                    for key, (kind, deps, value) in self._entries.items()])
            for log, count in self._cut.items():
                connection.execute("DELETE FROM lines WHERE log = ? AND line > ?", (log, count))
            connection.executemany("INSERT OR REPLACE INTO lines VALUES (?, ?, ?, ?, ?)",
                                   [(log, line, found, self._depset_id(connection, deps, ids), value)
                                    for log, rows in self._lines.items() for line, (found, deps, value) in rows.items()])
            connection.executemany("INSERT OR REPLACE INTO facts VALUES (?, ?, ?, ?)",
                                   [(name, stored_name(relpath), content, value) for name, rows in self._facts.items()
                                    for relpath, (content, value) in rows.items()])
            connection.executemany("INSERT OR REPLACE INTO files VALUES (?, ?, ?)",
                                   [(stored_name(relpath), signature, found) for relpath, (signature, found) in files.items()])
            connection.executemany("DELETE FROM files WHERE relpath = ?", [(stored_name(relpath),) for relpath in gone])
            self._prune(connection)
            connection.execute("COMMIT")
        except sqlite3.Error:
            try:
                connection.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            return  # locked, full or damaged: this run's answers are not kept
        self._files = dict(self._files_now) if self._files_now else None  # read again when a pass needs them
        self._entries.clear()
        self._lines.clear()
        self._facts.clear()
        self._cut.clear()

    @staticmethod
    def _depset_id(connection, deps: str, ids: dict[str, int]) -> int:
        if deps not in ids:
            connection.execute("INSERT OR IGNORE INTO depsets (deps) VALUES (?)", (deps,))
            ids[deps] = connection.execute("SELECT id FROM depsets WHERE deps = ?", (deps,)).fetchone()[0]
        return ids[deps]

    def _prune(self, connection) -> None:
        """A workspace rule's entry for other targets is seldom asked again: only this run's are kept. Past
        MAX_ENTRIES, entries this run did not use go, and the dependency sets nothing names."""
        rules = connection.execute("SELECT key FROM entries WHERE kind = 'rule'").fetchall()
        connection.executemany("DELETE FROM entries WHERE key = ?", [row for row in rules if row[0] not in self.used])
        if connection.execute("SELECT count(*) FROM entries").fetchone()[0] > MAX_ENTRIES:
            every = connection.execute("SELECT key FROM entries").fetchall()
            connection.executemany("DELETE FROM entries WHERE key = ?", [row for row in every if row[0] not in self.used])
            connection.execute("DELETE FROM depsets WHERE id NOT IN (SELECT depset FROM entries)"
                               " AND id NOT IN (SELECT depset FROM lines)")


def seal(value) -> str:
    """A value as stored: its compact JSON behind the JSON's CRC-32, so a damaged value reads as a miss."""
    text = json.dumps(value, separators=(",", ":"))
    return f"{zlib.crc32(text.encode('utf-8', 'surrogatepass')):08x}{text}"


def unseal(text) -> tuple[bool, object]:
    """(True, value) of a stored value whose checksum holds, else (False, None)."""
    if not isinstance(text, str) or len(text) < 8:
        return False, None
    body = text[8:]
    try:
        if int(text[:8], 16) != zlib.crc32(body.encode("utf-8", "surrogatepass")):
            return False, None
        return True, json.loads(body)
    except ValueError:
        return False, None


def stored_name(relpath: str) -> bytes:
    """A path as stored: its bytes (a file name that is not UTF-8 comes as surrogate escapes, which text cannot hold)."""
    return relpath.encode("utf-8", "surrogateescape")


def stored_relpath(name) -> str:
    return bytes(name).decode("utf-8", "surrogateescape") if isinstance(name, (bytes, memoryview)) else str(name)


def deps_text(deps) -> str:
    """A dependency set as stored: its members as lists, sorted, in compact JSON."""
    if isinstance(deps, str):
        return deps
    plain = sorted(([list(p) if isinstance(p, tuple) else p for p in dep] for dep in deps), key=str)
    return json.dumps(plain, separators=(",", ":"))


def _json_list(text) -> list | None:
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return None
    return value if isinstance(value, list) and all(isinstance(dep, list) for dep in value) else None


# -- the settings: what every key starts from ---------------------------------------------------------
def _file_digest(path: Path) -> str:
    """A file's SHA-256, or what stands in its place: a changed, created or deleted input changes the key."""
    try:
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except FileNotFoundError:
        return "missing"
    except (OSError, ValueError) as error:
        return f"unreadable: {type(error).__name__}"


def _outside_inputs(workspace) -> list[tuple[str, str]]:
    """Files a run reads that may lie outside the workspace tree, with their digests."""
    from memwarden.analysis.secrets import baseline
    from memwarden.discover.startup_index import codex_chain

    secret_rule = registry.by_name_or_code(SECRET_RULE)
    paths = [baseline.resolve(workspace.root, workspace.config.rule_options(secret_rule)["baseline"])]
    paths += [Path(kind.schema_file) for kind in workspace.profile.kinds if kind.schema_file]
    paths += codex_chain(workspace.root)
    return [(str(path), _file_digest(path)) for path in paths]


def _options(workspace, rules) -> dict:
    """The options every selected rule runs with (and the secret rule's, which hiding reads)."""
    chosen = {rule.name: rule for rule in rules}
    secret_rule = registry.by_name_or_code(SECRET_RULE)
    chosen.setdefault(secret_rule.name, secret_rule)
    return {name: workspace.config.rule_options(rule) for name, rule in sorted(chosen.items())}


def _plain(value):
    return sorted(map(str, value)) if isinstance(value, (set, frozenset)) else repr(value)


def settings_key(workspace, rules, run, part_only: frozenset[str] = frozenset()) -> str:
    """Everything findings depend on but the files: the key every entry starts from (part_only: the rules that
    run only their stable part)."""
    config = workspace.config
    config_bytes = b""
    if config.path is not None:
        try:
            config_bytes = config.path.read_bytes()
        except OSError:
            pass
    return digest({
        "version": __version__,
        "code": code_fingerprint(),
        "profile": [workspace.profile.name, [(k.name, k.format, k.globs, k.exclude) for k in workspace.profile.kinds]],
        "config": [str(config.path), hashlib.sha256(config_bytes).hexdigest()],
        "rules": sorted(r.name for r in rules),
        "part_only": sorted(part_only),
        "options": _options(workspace, rules),
        "outside": _outside_inputs(workspace),
        "today": run.today.isoformat(),
        "owner_machine": run.owner_machine,
    })

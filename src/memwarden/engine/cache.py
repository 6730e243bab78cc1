"""An on-disk cache of a workspace's findings, keyed by the content of every file in it.

A repeated `memwarden check` on a workspace where nothing changed reads the
findings back instead of parsing and checking every file again. The key holds
everything the findings depend on: memwarden's version, the profile, the
config file, the rules selected and the options each resolves to, the date
(expiry rules), the files reported on, the SHA-256 of every file of the
workspace (memory files and the rest: a link target counts too), and of the
inputs that may lie outside it: the secrets baseline wherever its option puts
it, the schema files of custom kinds, and the AGENTS.md chain above the root. A file is re-hashed only
when its stat (size, mtime, ctime, inode) changed. Runs that fix, diff or compare with git are
never cached. Delete `.memwarden_cache/` at any time; `--no-cache` skips it.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

from memwarden import __version__, registry
from memwarden.model import Applicability, Finding, Fix, Severity

CACHE_DIR = ".memwarden_cache"
KEEP_RUNS = 8
_SKIP = {".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox", CACHE_DIR}


def _walk_files(root: Path):
    top = os.fspath(root)
    for directory, dirnames, filenames in os.walk(top):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIP)
        # os.walk joins every directory to the top it was given: its path relative to it is the rest
        # (os.path.relpath, which normalises both paths again, was a third of a 10x hook's file walk)
        prefix = directory[len(top) :].lstrip(os.sep).replace(os.sep, "/")
        for name in filenames:
            yield (f"{prefix}/{name}" if prefix else name), os.path.join(directory, name)


def _code_fingerprint() -> str:
    """memwarden's own files as they are now: a changed rule must never be answered from the cache."""
    here = Path(__file__).resolve().parents[1]  # the whole memwarden package
    from memwarden.documents.schema_store import schemas_dir

    entries = []
    for base in (here, schemas_dir()):
        for path in sorted(base.rglob("*")):
            if path.suffix in (".py", ".json"):
                info = path.stat()
                entries.append((str(path), info.st_size, info.st_mtime_ns))
    return hashlib.sha256(repr(entries).encode()).hexdigest()


SECRET_RULE = "secret-in-memory"  # its options (the baseline, high_entropy) matter even when it is not selected


def _digest(path: Path) -> str:
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
    return [(str(path), _digest(path)) for path in paths]


def _options(workspace, rules) -> dict:
    """The options every selected rule runs with (and the secret rule's, which hiding reads)."""
    chosen = {rule.name: rule for rule in rules}
    secret_rule = registry.by_name_or_code(SECRET_RULE)
    chosen.setdefault(secret_rule.name, secret_rule)
    return {name: workspace.config.rule_options(rule) for name, rule in sorted(chosen.items())}


def _plain(value):
    return sorted(map(str, value)) if isinstance(value, (set, frozenset)) else repr(value)


def finding_record(f: Finding) -> dict:
    """A finding as the cache keeps it (plain JSON; the fix's description only)."""
    return {
        "name": f.rule.name,
        "workspace_path": f.workspace_path,
        "line": f.line,
        "column": f.column,
        "message": f.message,
        "severity": f.severity.value,
        "json_path": f.json_path,
        # The description only: edits are recomputed by a real run when fixing.
        "fix": [f.fix.applicability.value, f.fix.description] if f.fix else None,
    }


def finding_from(item, rules_by_name: dict, display) -> Finding | None:
    """A finding read back from the cache; None when the item is not one (a garbled cache is a miss)."""
    try:
        rule = rules_by_name.get(item["name"])
        if rule is None:
            return None
        fix = Fix(Applicability(item["fix"][0]), item["fix"][1], ()) if item.get("fix") else None
        return Finding(
            rule=rule,
            path=display(item["workspace_path"]),
            line=int(item["line"]),
            column=int(item["column"]),
            message=str(item["message"]),
            severity=Severity(item["severity"]),
            json_path=item.get("json_path"),
            fix=fix,
            workspace_path=str(item["workspace_path"]),
        )
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return None


def usable(root: Path) -> bool:
    """Whether the cache folder may be read and written: neither it nor its v1 is a symlink (one committed to a
    repository would have memwarden write its files, and its .gitignore, wherever the link leads)."""
    return not any(os.path.islink(path) for path in (root / CACHE_DIR, root / CACHE_DIR / "v1"))


def read_regular(path: Path) -> bytes | None:
    """A cache file's bytes, or None: only a regular file is read (a symlink to /dev/zero, a FIFO or a device
    planted in the folder, even committed to the repository, would hang the run or exhaust its memory)."""
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    with os.fdopen(handle, "rb") as stream:
        try:
            if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                return None
            return stream.read()
        except OSError:
            return None


def read_json(path: Path):
    """A cache file's JSON (read as :func:`read_regular` reads), or None."""
    raw = read_regular(path)
    if raw is None:
        return None
    try:
        return json.loads(raw.decode("utf-8"))
    except ValueError:  # UnicodeDecodeError is a ValueError
        return None


class RunCache:
    def __init__(self, root: Path):
        self.root = root
        self.dir = root / CACHE_DIR / "v1"
        self._hashes: dict[str, list] = {}
        self._hashed: dict[str, str] | None = None
        hashes = read_json(self.dir / "files.json")
        self._hashes = hashes if isinstance(hashes, dict) else {}

    def _file_hashes(self) -> dict[str, str]:
        """relpath -> sha256 of every file, re-hashing only files whose stat changed."""
        fresh: dict[str, list] = {}
        for relpath, full in _walk_files(self.root):
            try:
                info = os.stat(full)
            except OSError:
                continue
            # ctime and inode too: a write can restore size and mtime (os.utime), never ctime.
            signature = [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino]
            known = self._hashes.get(relpath)
            if isinstance(known, list) and len(known) == 5 and known[:4] == signature:
                fresh[relpath] = known
                continue
            try:
                with open(full, "rb") as handle:
                    digest = hashlib.sha256(handle.read()).hexdigest()
            except OSError:
                continue
            fresh[relpath] = [*signature, digest]
        self._hashes = fresh
        return {relpath: entry[4] for relpath, entry in fresh.items()}

    def key(self, workspace, rules, run) -> str:
        """The whole run's key: its settings, the files reported on, and every file's content."""
        parts = self._settings(workspace, rules, run)
        parts["targets"] = sorted(workspace.targets) if workspace.targets is not None else None
        parts["files"] = sorted(self.file_hashes().items())
        if any(rule.reads_history for rule in rules):
            from memwarden.git import repository_state

            parts["git"] = repository_state(workspace.root)
        return hashlib.sha256(json.dumps(parts, sort_keys=True, default=_plain).encode()).hexdigest()

    def settings_key(self, workspace, rules, run) -> str:
        """Everything findings depend on but the files: the key the incremental cache's entries start from."""
        parts = self._settings(workspace, rules, run)
        return hashlib.sha256(json.dumps(parts, sort_keys=True, default=_plain).encode()).hexdigest()

    def file_hashes(self) -> dict[str, str]:
        """relpath -> SHA-256 of every file of the workspace tree, computed once per run."""
        if self._hashed is None:
            self._hashed = self._file_hashes()
        return self._hashed

    def forget_hashes(self) -> None:
        """The files may have changed since they were hashed (a fixing round wrote them): stat them again."""
        self._hashed = None

    def _settings(self, workspace, rules, run) -> dict:
        config = workspace.config
        config_bytes = b""
        if config.path is not None:
            try:
                config_bytes = config.path.read_bytes()
            except OSError:
                pass
        parts = {
            "version": __version__,
            "code": _code_fingerprint(),
            "profile": [workspace.profile.name, [(k.name, k.format, k.globs, k.exclude) for k in workspace.profile.kinds]],
            "config": [str(config.path), hashlib.sha256(config_bytes).hexdigest()],
            "rules": sorted(r.name for r in rules),
            "options": _options(workspace, rules),
            "outside": _outside_inputs(workspace),
            "today": run.today.isoformat(),
            "owner_machine": run.owner_machine,
        }
        return parts

    def load(self, key: str, rules_by_name: dict, display) -> list[Finding] | None:
        stored = read_json(self.dir / f"run-{key[:40]}.json")
        if not isinstance(stored, dict) or stored.get("key") != key or not isinstance(stored.get("findings"), list):
            return None
        findings = []
        for item in stored["findings"]:
            finding = finding_from(item, rules_by_name, display)
            if finding is None:
                return None
            findings.append(finding)
        return findings

    def save_hashes(self) -> None:
        """Keep the stat -> hash table, so the next run re-hashes only the files that changed."""
        from memwarden.fixes.write import write_atomic

        self.dir.mkdir(parents=True, exist_ok=True)
        ignore = self.dir.parent / ".gitignore"
        try:  # never through a symlink (O_EXCL refuses one, dangling or not), never over a file
            handle = os.open(ignore, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            pass
        else:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write("# Written by memwarden: never commit the cache.\n*\n")
        write_atomic(self.dir / "files.json", json.dumps(self._hashes).encode("utf-8"))

    def store(self, key: str, findings: list[Finding]) -> None:
        # ASCII JSON: a file name that is not UTF-8 (surrogateescape) round-trips as \\udcff.
        data = {
            "key": key,
            "findings": [finding_record(f) for f in findings],
        }
        try:
            self.save_hashes()
            from memwarden.fixes.write import write_atomic

            write_atomic(self.dir / f"run-{key[:40]}.json", json.dumps(data).encode("ascii"))
            runs = sorted(self.dir.glob("run-*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
            for old in runs[KEEP_RUNS:]:
                old.unlink(missing_ok=True)
        except OSError:
            pass  # a read-only workspace is checked all the same, just not cached

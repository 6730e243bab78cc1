"""The workspace's memory files at one point: a commit, the index, the working tree, or nothing yet."""

from __future__ import annotations

import hashlib
from typing import Iterable

from memwarden.analysis.history.roles import FileRole, file_role
from memwarden.documents import Document, load
from memwarden.documents.base import decode
from memwarden.fileio import read_regular


class Snapshot:
    """The workspace's memory files at one point: a commit, the index, or the working tree."""

    def __init__(self, ws, label: str, files: dict[str, str | None]):
        self.ws = ws
        self.label = label
        self.roles: dict[str, FileRole] = {}
        self.files: dict[str, str | None] = {}  # relpath -> blob id (None: read the bytes to compare)
        for relpath, signature in files.items():
            role = file_role(ws, relpath)
            if role is not None:
                self.roles[relpath] = role
                self.files[relpath] = signature
        self._docs: dict[str, Document] = {}
        self._decoded = RecentlyUsed()

    def paths(self, group: str) -> list[str]:
        return sorted(p for p, role in self.roles.items() if role.group == group)

    def raw(self, relpath: str) -> bytes | None:
        raise NotImplementedError

    def signature(self, relpath: str) -> str | None:
        """The file's git blob id: equal ids, equal bytes."""
        return self.files.get(relpath)

    def prefetch(self, relpaths: Iterable[str]) -> None:
        pass

    def text(self, relpath: str) -> tuple[str | None, str | None]:
        """(text, why it is not clean text) of a file; None only when it cannot be read at all.

        Bytes that are not valid in the file's encoding (a Latin-1 byte in a UTF-8 log) do not hide
        the rest: each is kept as an escape of its own, so the lines around it still compare line
        by line, and a line holding it equals the same bytes on the other side.
        """
        key = self._cache_key(relpath, "text")
        if key not in self._decoded:
            raw = self.raw(relpath)
            found = (None, "cannot be read") if raw is None else lenient_text(raw)
            self._decoded.put(key, found)
        return self._decoded.get(key)

    def encoding(self, relpath: str) -> tuple[str, bytes]:
        """(encoding, BOM) of a file, as its BOM tells; UTF-8 without one."""
        _, encoding, bom, _ = decode((self.raw(relpath) or b"")[:4])
        return encoding, bom

    def line_set(self, relpath: str) -> frozenset[str]:
        """The stripped lines of a file, to ask 'is this line still there?' in one step."""
        key = self._cache_key(relpath, "lines")
        if key not in self._decoded:
            text, _ = self.text(relpath)
            self._decoded.put(key, frozenset(line.strip() for line in text.split("\n")) if text else frozenset())
        return self._decoded.get(key)

    def _cache_key(self, relpath: str, what: str):
        return (relpath, what)

    def document(self, relpath: str) -> Document | None:
        if relpath not in self.roles:
            return None
        if relpath not in self._docs:
            raw = self.raw(relpath)
            if raw is None:
                return None
            self._docs[relpath] = load(self.ws.root, relpath, self.roles[relpath].kind, raw)
        return self._docs[relpath]


def lenient_text(raw: bytes) -> tuple[str, str | None]:
    """(text, why it is not clean text): bytes the encoding cannot decode are kept as escapes."""
    text, encoding, bom, error = decode(raw)
    if text is not None:
        return text, None
    body = raw[len(bom):]
    try:
        return body.decode(encoding, "surrogateescape"), error.message if error else None
    except UnicodeDecodeError:  # a wide encoding cannot escape an ASCII byte: mark it
        return body.decode(encoding, "replace"), error.message if error else None


class RecentlyUsed:
    """The last few decoded files: a history walk reuses each commit's files once, for its child."""

    def __init__(self, size: int = 8):
        self.size = size
        self.items: dict = {}

    def __contains__(self, key) -> bool:
        return key in self.items

    def get(self, key):
        value = self.items.pop(key)
        self.items[key] = value
        return value

    def put(self, key, value) -> None:
        self.items[key] = value
        while len(self.items) > self.size:
            del self.items[next(iter(self.items))]


class GitSnapshot(Snapshot):
    """A commit or the index, read through git; decoded files and documents are shared by blob id."""

    def __init__(self, ws, repo, label: str, listing: dict[str, str], cache: dict):
        prefix = repo.prefix
        files = {path[len(prefix):]: sha for path, sha in listing.items() if path.startswith(prefix)}
        super().__init__(ws, label, files)
        self.repo = repo
        self.cache = cache  # shared by the snapshots of one run: documents by (blob id, kind, path)...
        self._decoded = cache.setdefault("decoded", RecentlyUsed())  # ...and the last few decoded files

    def _cache_key(self, relpath: str, what: str):
        return (self.files.get(relpath), what)

    def prefetch(self, relpaths: Iterable[str]) -> None:
        self.repo.read_blobs([self.files[p] for p in relpaths if self.files.get(p)])

    def raw(self, relpath: str) -> bytes | None:
        sha = self.files.get(relpath)
        if sha is None:
            return None
        return self.repo.read_blobs([sha]).get(sha)

    def document(self, relpath: str) -> Document | None:
        sha = self.files.get(relpath)
        role = self.roles.get(relpath)
        if sha is None or role is None:
            return None
        key = (sha, role.kind.name, relpath)
        if key not in self.cache:
            raw = self.raw(relpath)
            if raw is None:
                return None
            self.cache[key] = load(self.ws.root, relpath, role.kind, raw)
        return self.cache[key]


class WorktreeSnapshot(Snapshot):
    """The working tree as memwarden sees it, including fixes not yet written."""

    def __init__(self, ws, repo, label: str = "the working tree"):
        listed = set(repo.worktree_files(repo.prefix)) if repo is not None else set()
        prefix = repo.prefix if repo is not None else ""
        files = {p[len(prefix):] for p in listed if p.startswith(prefix)}
        files |= {p for p in ws.files}
        files |= set(ws.overlay)
        # git keeps a symlink as a link, not the file it names: here too it holds no memory
        present = {
            p: None for p in files
            if p in ws.overlay or ((ws.root / p).is_file() and not (ws.root / p).is_symlink())
        }
        super().__init__(ws, label, present)
        self.repo = repo
        self._raw: dict[str, bytes | None] = {}

    def raw(self, relpath: str) -> bytes | None:
        if relpath not in self._raw:
            raw = self.ws.current_bytes(relpath) if relpath in self.files else None
            if raw is not None and self.repo is not None and relpath not in self.ws.overlay:
                raw = self.repo.lfs_content(raw)  # a file git-lfs did not check out is still its pointer
            self._raw[relpath] = raw
        return self._raw[relpath]

    def signature(self, relpath: str) -> str | None:
        if self.files.get(relpath) is None and relpath in self.files:
            raw = self.raw(relpath)
            self.files[relpath] = blob_id(raw) if raw is not None else None
        return self.files.get(relpath)

    def document(self, relpath: str) -> Document | None:
        role = self.roles.get(relpath)
        if role is None:
            return None
        if self.ws.kind_of(relpath) is role.kind:
            return self.ws.document(relpath)  # parsed once for every rule, and sees pending fixes
        return super().document(relpath)


class ProposedSnapshot(WorktreeSnapshot):
    """The working tree with content proposed for some files (`check --stdin-filename`), not yet written.

    Only the proposed files can differ from the files on disk, so every other file is the same by
    its name alone: comparing them with :class:`DiskSnapshot` reads nothing else.
    """

    def __init__(self, ws):
        super().__init__(ws, None, "the proposed content")

    def signature(self, relpath: str) -> str | None:
        if relpath in self.files and relpath not in self.ws.proposed:
            return "unchanged:" + relpath
        return super().signature(relpath)


class DiskSnapshot(ProposedSnapshot):
    """The files on disk, before the proposed content would replace them: what a write must not lose."""

    def __init__(self, ws, label: str = "the file on disk"):
        Snapshot.__init__(self, ws, label, {
            p: None for p in ws.files
            if (ws.root / p).is_file() and not (ws.root / p).is_symlink()
        })
        self.repo = None
        self._raw = {}

    def raw(self, relpath: str) -> bytes | None:
        if relpath not in self._raw:
            try:
                self._raw[relpath] = read_regular(self.ws.root / relpath) if relpath in self.files else None
            except OSError:
                self._raw[relpath] = None
        return self._raw[relpath]

    def document(self, relpath: str) -> Document | None:
        if relpath not in self.ws.proposed:
            return super().document(relpath)  # the same file on both sides: parsed once
        return Snapshot.document(self, relpath)


def blob_id(data: bytes) -> str:
    """The id git gives these bytes as a blob (`git hash-object`)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()  # noqa: S324 - git's id, not security


class EmptySnapshot(Snapshot):
    """Before the first commit: nothing to lose."""

    def __init__(self, ws, label: str = "the empty tree"):
        super().__init__(ws, label, {})

    def raw(self, relpath: str) -> bytes | None:
        return None


def same_files(a: Snapshot, b: Snapshot) -> bool:
    """Whether two snapshots hold the same memory files, byte for byte (the index and a fully staged tree)."""
    return set(a.files) == set(b.files) and all(a.signature(p) == b.signature(p) for p in a.files)

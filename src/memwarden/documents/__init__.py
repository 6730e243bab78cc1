"""Documents that know their lines: one class per file format."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from memwarden.documents.base import Document, ParseError, UnreadableDocument
from memwarden.documents.jsonl import JsonlDocument, Record
from memwarden.documents.markdown import IndexDocument, IndexEntry, MarkdownDocument, ProseSpan
from memwarden.documents.yamldoc import YamlDocument, format_json_path
from memwarden.kinds import Kind
from memwarden.fileio import MAX_FILE_BYTES, read_regular

CLASSES = {
    "yaml": YamlDocument,
    "jsonl": JsonlDocument,
    "markdown": MarkdownDocument,
    "index": IndexDocument,
    "text": Document,  # a file no kind claims and no extension names a format of: decoded, never parsed
}


def load(root: Path, relpath: str, kind: Kind, raw: bytes | None = None) -> Document:
    """Read and parse one file. Never raises for what is in or about the file."""
    path = root / relpath
    if raw is None:
        try:
            info = os.stat(path)
        except OSError as error:
            return UnreadableDocument(root, relpath, kind, f"cannot read: {error.strerror}")
        if stat.S_ISDIR(info.st_mode):
            return UnreadableDocument(root, relpath, kind, "is a directory, not a memory file")
        if not stat.S_ISREG(info.st_mode):
            return UnreadableDocument(root, relpath, kind, "is not a regular file")
        if info.st_size > MAX_FILE_BYTES:
            return UnreadableDocument(
                root, relpath, kind, f"is {info.st_size:,} bytes, over the {MAX_FILE_BYTES:,}-byte limit"
            )
        try:
            raw = read_regular(path)
        except OSError as error:
            return UnreadableDocument(root, relpath, kind, f"cannot read: {error.strerror}")
        doc = CLASSES[kind.format](root, relpath, kind, raw)
        doc.stamp = (info.st_size, info.st_mtime_ns)
        return doc
    return CLASSES[kind.format](root, relpath, kind, raw)


__all__ = [
    "Document",
    "IndexDocument",
    "IndexEntry",
    "JsonlDocument",
    "MarkdownDocument",
    "ParseError",
    "ProseSpan",
    "Record",
    "YamlDocument",
    "format_json_path",
    "load",
]

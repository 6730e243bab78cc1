"""Secrets in memory files: find them, never show them, accept what is accepted, redact on request.

This package is light to import; detect-secrets loads only when a scan runs.

- :func:`scan` lists the :class:`Detection` s of a text.
- :class:`SecretScans` holds one run's detections, each document's text scanned
  once, shared by the engine (which hides them in every finding) and the
  ``secret-in-memory`` rule (which reports them).
- :func:`hide_secrets` returns a text with every detected secret replaced by a
  marker that names its type and short hash, for anything that must print file
  content (``--diff``).
- :mod:`memwarden.analysis.secrets.baseline` reads and writes the file of accepted findings.
"""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path

from memwarden.analysis.secrets import baseline as baseline_file
from memwarden.analysis.secrets.hiding import Quotes, marker
from memwarden.analysis.secrets.paths import hide_known_names, read_names
from memwarden.analysis.secrets.detection import Detection, ScanStats

__all__ = [
    "Detection", "ScanStats", "SecretScans", "format_of", "hide_secrets", "hider", "marker", "redaction", "scan",
    "scan_document", "version_text",
]


def scan(text: str, fmt: str, *, high_entropy: bool = True) -> list[Detection]:
    """Every secret in a memory file's decoded text; ``fmt`` is its kind's format (yaml, jsonl, markdown, index)."""
    from memwarden.analysis.secrets.scanner import scan_text

    return scan_text(text, fmt, high_entropy=high_entropy)


class SecretScans:
    """The secrets one run has found: each distinct text is scanned once, however many ask.

    Keyed by content, so a fixing round re-scans only the files a fix changed.
    The baseline is read on first use, so a run that never asks what is
    accepted never reads it (nor fails on a broken one).
    """

    def __init__(self, *, high_entropy: bool, baseline_path: Path):
        self.high_entropy = high_entropy
        self.baseline_path = baseline_path
        self._found: dict[tuple, list[Detection]] = {}
        self._baseline: baseline_file.Baseline | None = None
        self.targets_scanned = False  # the rule scans every target at once, on its first document
        self.names_read = False  # the names of every file of the workspace, read before a message is hidden

    @classmethod
    def from_options(cls, root: Path, options: dict) -> "SecretScans":
        """Scans as the secret-in-memory rule's options (``high_entropy``, ``baseline``) ask."""
        return cls(high_entropy=options["high_entropy"], baseline_path=baseline_file.resolve(root, options["baseline"]))

    @classmethod
    def of_run(cls, memo, root_of, options: dict) -> "SecretScans":
        """The scans the engine shares with a run's rules through their memo (made from options if none;
        ``root_of()`` gives the workspace root then, so a run that shares its scans never asks for it)."""
        return memo.get(cls, lambda: cls.from_options(root_of(), options), local=True)

    def share_with(self, memo) -> None:
        """Make these the scans every rule of a run sees through its memo."""
        memo.get(SecretScans, lambda: self, local=True)

    def _key(self, text: str, fmt: str) -> tuple:
        return (hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(), fmt)

    def of(self, doc) -> list[Detection]:
        """The detections in a document (accepted ones too)."""
        text = document_text(doc)
        key = self._key(text, doc.kind.format)
        if key not in self._found:
            self._found[key] = scan(text, doc.kind.format, high_entropy=self.high_entropy)
        return self._found[key]

    def scan_all(self, docs) -> None:
        """Scan the documents not scanned yet in one go (one detect-secrets settings context for all)."""
        from memwarden.analysis.secrets.scanner import scan_texts

        todo = {}
        for doc in docs:
            text = document_text(doc)
            key = self._key(text, doc.kind.format)
            if key not in self._found and key not in todo:
                todo[key] = (text, doc.kind.format)
        if todo:
            self._found.update(zip(todo, scan_texts(list(todo.values()), high_entropy=self.high_entropy)))

    @property
    def baseline(self) -> baseline_file.Baseline:
        """The findings accepted as not secret, read once per run."""
        if self._baseline is None:
            self._baseline = baseline_file.load(self.baseline_path)
        return self._baseline

    def hide_in(self, workspace, findings) -> None:
        """Hide every secret found in a finding's file wherever its message, fix or JSON path quotes it.

        Rules quote what they judge (a sentence, a tag, a key, an id); when that
        text holds a secret it is replaced by the marker the diff shows. The
        secret-in-memory rule's own findings never quote the secret. A path or a file name a message quotes
        (another note, a link's target) is hidden as every shown path is (:func:`paths.hide_known_names`).
        """
        known: dict[str, Quotes] = {}
        if findings and not self.names_read:
            read_names(workspace.checked_files)  # a message may name any file of the workspace
            self.names_read = True
        for finding in findings:
            _hide_names_in_finding(finding)
            if not finding.quotes:
                continue  # nothing of the file in it (Problem.quotes): no need to scan the file
            quotes = self._file_quotes(workspace, finding.workspace_path, known)
            if finding.rule.name == "secret-in-memory":
                if finding.json_path:
                    finding.json_path = quotes.hide_in_json_path(finding.json_path)
                continue
            if finding.quotes_from:
                quotes = self._quotes_with(quotes, workspace, finding.quotes_from, known)
            _hide_in_finding(finding, quotes)

    def _file_quotes(self, workspace, relpath: str, known: dict) -> Quotes:
        if relpath not in known:
            doc = workspace.document(relpath)
            known[relpath] = Quotes.of(document_text(doc), self.of(doc), marker) if doc is not None else Quotes()
        return known[relpath]

    def _quotes_with(self, own: Quotes, workspace, sources, known: dict) -> Quotes:
        """A finding's own file's quotes and those of every source its message also quotes (Problem.quotes_from)."""
        combined = Quotes()
        combined.extend(own)
        for source in sources:
            if isinstance(source, str):
                combined.extend(self._file_quotes(workspace, source, known))
                continue
            text, fmt = source
            key = self._key(text, fmt)
            if key not in self._found:
                self._found[key] = scan(text, fmt, high_entropy=self.high_entropy)
            combined.extend(Quotes.of(text, self._found[key], marker))
        return combined


def document_text(doc) -> str:
    """The text to scan: the decoded text, or for bytes that do not decode, a lossy reading of them."""
    if doc.decoded:
        return doc.text
    raw = getattr(doc, "raw", b"") or b""
    return raw[len(getattr(doc, "bom", b"") or b"") :].decode("utf-8", "replace").replace("\x00", " ")


def scan_document(doc, *, high_entropy: bool = True) -> list[Detection]:
    return scan(document_text(doc), doc.kind.format, high_entropy=high_entropy)


def format_of(relpath: str) -> str:
    """The scan format of a file known only by its path (a base version): its kind's format, by extension."""
    suffix = relpath.rsplit(".", 1)[-1].lower() if "." in relpath else ""
    return {"jsonl": "jsonl", "json": "jsonl", "yml": "yaml", "yaml": "yaml"}.get(suffix, "markdown")


def version_text(raw: bytes | None) -> str:
    """A version of a file no workspace file holds now (a base version), read for scanning as the scan reads bytes."""
    return (raw or b"").decode("utf-8", "replace").lstrip("\ufeff").replace("\x00", " ")


def redaction(detection: Detection) -> str:
    """What the unsafe fix writes in place of the secret."""
    return f"[REDACTED:{detection.type.slug}]"


def hide_secrets(text: str, fmt: str) -> str:
    """The text with every detected secret, accepted ones too, replaced by ``[SECRET:<type> sha256:<hash>]``."""
    if not text:
        return text
    try:
        found = scan(text, fmt)
    except Exception:  # never let display code fail; but never show what could not be checked either
        return "\n".join("[memwarden: line hidden: could not be checked for secrets]" for _ in text.splitlines())
    if not found:
        return text
    pieces = []
    cursor = 0
    for detection in found:
        pieces.append(text[cursor : detection.start])
        pieces.append(marker(detection))
        cursor = detection.end
    pieces.append(text[cursor:])
    return "".join(pieces)


def hider(text: str, fmt: str):
    """A function that hides, in any string quoted from ``text`` (a trigger, a title, a line), every secret
    detected in ``text``, accepted ones too, by its ``[SECRET:<type> sha256:<hash>]`` marker.

    For output that quotes a file outside a finding's message (``memwarden budget``).
    If the text cannot be scanned, nothing quoted from it is shown.
    """
    try:
        quotes = Quotes.of(text, scan(text, fmt), marker) if text else Quotes()
    except Exception:  # never show what could not be checked
        return lambda quoted: "[memwarden: hidden: could not be checked for secrets]" if quoted else quoted
    return quotes.hide


def _hide_names_in_finding(finding) -> None:
    finding.message = hide_known_names(finding.message)
    if finding.fix is not None:
        hidden = hide_known_names(finding.fix.description)
        if hidden != finding.fix.description:
            finding.fix = dataclasses.replace(finding.fix, description=hidden)


def _hide_in_finding(finding, quotes: Quotes) -> None:
    if not quotes:
        return
    finding.message = quotes.hide(finding.message)
    if finding.json_path:
        finding.json_path = quotes.hide_in_json_path(finding.json_path)
    if finding.fix is not None:
        hidden = quotes.hide(finding.fix.description)
        if hidden != finding.fix.description:
            finding.fix = dataclasses.replace(finding.fix, description=hidden)

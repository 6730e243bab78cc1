"""Secrets in memory files: find them, never show them, accept what is accepted, redact on request.

This package is light to import; detect-secrets loads only when a scan runs.

- :func:`scan` lists the :class:`Detection` s of a text (cached by content).
- :func:`hide_secrets` returns a text with every detected secret replaced by a
  marker that names its type and short hash, for anything that must print file
  content (``--diff``).
- :mod:`memwarden.analysis.secrets.baseline` reads and writes the file of accepted findings.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from collections import OrderedDict

from memwarden.analysis.secrets.scanner import Detection, ScanStats

__all__ = ["Detection", "ScanStats", "hide_in_findings", "hide_secrets", "prefetch", "redaction", "scan", "scan_document"]

_CACHE: OrderedDict = OrderedDict()
_CACHE_SIZE = 4096  # documents; a Detection is small and holds no secret


def _key(text: str, fmt: str, high_entropy: bool) -> tuple:
    return (hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(), fmt, high_entropy)


def scan(text: str, fmt: str, *, high_entropy: bool = True) -> list[Detection]:
    """Every secret in a memory file's decoded text; ``fmt`` is its kind's format (yaml, jsonl, markdown, index)."""
    from memwarden.analysis.secrets.scanner import scan_text

    key = _key(text, fmt, high_entropy)
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    found = scan_text(text, fmt, high_entropy=high_entropy)
    _CACHE[key] = found
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return found


def prefetch(docs, *, high_entropy: bool = True) -> None:
    """Scan the documents not scanned yet in one go (one detect-secrets settings context for all)."""
    from memwarden.analysis.secrets.scanner import scan_texts

    todo = {}
    for doc in docs:
        text = document_text(doc)
        key = _key(text, doc.kind.format, high_entropy)
        if key not in _CACHE and key not in todo:
            todo[key] = (text, doc.kind.format)
    if not todo:
        return
    for key, found in zip(todo, scan_texts(list(todo.values()), high_entropy=high_entropy)):
        _CACHE[key] = found
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)


def document_text(doc) -> str:
    """The text to scan: the decoded text, or for bytes that do not decode, a lossy reading of them."""
    if doc.decoded:
        return doc.text
    raw = getattr(doc, "raw", b"") or b""
    return raw[len(getattr(doc, "bom", b"") or b"") :].decode("utf-8", "replace").replace("\x00", " ")


def scan_document(doc, *, high_entropy: bool = True) -> list[Detection]:
    return scan(document_text(doc), doc.kind.format, high_entropy=high_entropy)


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
        pieces.append(f"[SECRET:{detection.type.slug} sha256:{detection.short_hash}]")
        cursor = detection.end
    pieces.append(text[cursor:])
    return "".join(pieces)


# -- other rules' output ----------------------------------------------------------------

_TOKEN = re.compile(r"[^\s'\"`()\[\]{},;<>]+")
_TRAILING = ".…:!?"


def hide_in_findings(workspace, findings) -> None:
    """Hide any detected secret that another rule's message, fix description or JSON path quotes.

    Rules quote what they judge (a sentence, a tag, a key, an id). When that text
    holds a secret this run has detected, it is replaced by the same marker the
    diff shows. Only secrets already found in this run are known here, so this
    never loads detect-secrets itself: with `secret-in-memory` not selected it
    does nothing.
    """
    known: dict[str, list[tuple[str, str]]] = {}
    for finding in findings:
        if finding.rule.name == "secret-in-memory":
            continue
        relpath = finding.workspace_path
        if relpath not in known:
            known[relpath] = _known_secrets(workspace, relpath)
        secrets = known[relpath]
        if not secrets:
            continue
        finding.message = _hide_tokens(finding.message, secrets)
        if finding.json_path:
            finding.json_path = _hide_tokens(finding.json_path, secrets)
        if finding.fix is not None:
            hidden = _hide_tokens(finding.fix.description, secrets)
            if hidden != finding.fix.description:
                finding.fix = dataclasses.replace(finding.fix, description=hidden)


def _known_secrets(workspace, relpath: str) -> list[tuple[str, str]]:
    """(lowercased value, marker) for each secret this run detected in a file; [] if it was not scanned."""
    doc = workspace.document(relpath)
    if doc is None:
        return []
    text = document_text(doc)
    found = None
    for high_entropy in (True, False):
        found = _CACHE.get(_key(text, doc.kind.format, high_entropy))
        if found is not None:
            break
    if not found:
        return []
    secrets = []
    for detection in found:
        marker = f"[SECRET:{detection.type.slug} sha256:{detection.short_hash}]"
        raw = text[detection.start : detection.end]
        values = {raw}
        if "\\" in raw:
            try:
                values.add(json.loads(f'"{raw}"'))
            except ValueError:
                pass
        values.update(line.strip() for line in raw.splitlines() if len(line.strip()) >= 12)
        secrets.extend((value.lower(), marker) for value in values if value)
    return secrets


def _hide_tokens(text: str, secrets: list[tuple[str, str]]) -> str:
    if not text:
        return text

    def replace(match: re.Match) -> str:
        token = match.group(0)
        core = token.rstrip(_TRAILING)
        lowered = core.lower()
        if len(core) < 4:
            return token
        for value, marker in secrets:
            if value in lowered or (len(core) >= 12 and lowered in value):
                return marker + token[len(core) :]
        return token

    return _TOKEN.sub(replace, text)

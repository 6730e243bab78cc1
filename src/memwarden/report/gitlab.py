"""GitLab Code Quality JSON: the report a `codequality` artifact of a CI job holds.

The shape is ruff's (`--output-format gitlab`): a list of issues with
`description`, `check_name`, `fingerprint`, `severity` and `location.path` /
`location.lines.begin`. GitLab compares the fingerprints of a merge request's
report with the target branch's to say which findings are new and which were
fixed, so a fingerprint must not change when nothing about the finding did:
it hashes the rule, the file and the message (with line numbers in it
blanked), never the finding's own line, and numbers repeats of one finding
in a file in order. Messages reach it already redacted (the engine hides every
detected secret), so no field, the hash included, is computed from a secret.
"""

from __future__ import annotations

import hashlib
import json
import os
import posixpath
import re
from pathlib import Path

from memwarden.model import Finding, Severity

# GitLab's severities are info, minor, major, critical, blocker; ruff reports every issue as major.
_SEVERITY = {Severity.ERROR: "major", Severity.WARNING: "minor"}
# "line 12", "lines 3-4", ":12:": a place in the file, which moves when unrelated lines do.
_LINE_NUMBERS = re.compile(r"\b(lines?\s+)\d+(?:\s*[-–]\s*\d+)?|:\d+(?::\d+)?\b", re.I)


def _project_path(path: str) -> str:
    """The finding's path relative to the GitLab project (CI_PROJECT_DIR), as the merge request widget wants it."""
    project = os.environ.get("CI_PROJECT_DIR")
    if not project:
        return path
    try:
        relative = os.path.relpath(Path(path).resolve(), Path(project).resolve())
    except ValueError:  # another drive on Windows
        return path
    relative = Path(relative).as_posix()
    return path if relative.startswith("../") else posixpath.normpath(relative)


def fingerprint(code: str, path: str, message: str, occurrence: int) -> str:
    stable = _LINE_NUMBERS.sub(lambda m: (m.group(1) or "") + "#", message)
    payload = "\x00".join((code, path, stable, str(occurrence)))
    return hashlib.sha256(payload.encode("utf-8", "backslashreplace")).hexdigest()


def render_gitlab(findings: list[Finding]) -> str:
    issues = []
    seen: dict[tuple[str, str, str], int] = {}
    for f in findings:
        path = _project_path(f.path)
        key = (f.rule.code, path, _LINE_NUMBERS.sub("#", f.message))
        occurrence = seen.get(key, 0)
        seen[key] = occurrence + 1
        issues.append({
            "description": f"{f.rule.code} {f.rule.name}: {f.message}",
            "check_name": f.rule.code,
            "fingerprint": fingerprint(f.rule.code, path, f.message, occurrence),
            "severity": _SEVERITY[f.severity],
            "location": {"path": path, "lines": {"begin": f.line}},
        })
    return json.dumps(issues, indent=2, ensure_ascii=False) + "\n"

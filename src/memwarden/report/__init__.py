"""Output formats for findings: text, json, sarif, github, gitlab.

:data:`REPORTERS` maps each format's name to its renderer; :func:`render` is
what the command line calls.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

from memwarden import __version__, registry
from memwarden.model import Finding, Rule, Severity, Summary
from memwarden.report.gitlab import render_gitlab
from memwarden.text import escape_controls

JSON_VERSION = 1
INFORMATION_URI = "https://github.com/memwarden/memwarden"


def summarize(findings: list[Finding], files: int, fixed: int) -> Summary:
    errors = sum(1 for f in findings if f.severity is Severity.ERROR)
    return Summary(
        files=files,
        errors=errors,
        warnings=len(findings) - errors,
        fixed=fixed,
        fixable=sum(1 for f in findings if f.fix is not None),
    )


# -- text ----------------------------------------------------------------------

_COLORS = {"bold": "1", "red": "31", "yellow": "33", "cyan": "36", "dim": "2"}


def use_color(stream) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return hasattr(stream, "isatty") and stream.isatty()


def _paint(text: str, color: str, on: bool) -> str:
    return f"\x1b[{_COLORS[color]}m{text}\x1b[0m" if on else text


def render_text(
    findings: list[Finding], summary: Summary, color: bool = False, unsafe_fixes: bool = False, quiet: bool = False
) -> str:
    """One line per finding, then the summary (left out when quiet)."""
    lines = []
    for f in findings:
        location = _paint(f"{escape_controls(f.path)}:{f.line}:{f.column}:", "bold", color)
        code = _paint(f.rule.code, "red" if f.severity is Severity.ERROR else "yellow", color)
        marker = ""
        if f.fix is not None:
            marker = " [*]" if f.fix.applicability.value == "safe" or unsafe_fixes else " [*unsafe]"
        level = "" if f.severity is f.rule.severity else f" ({f.severity.value})"
        message = escape_controls(f.message)
        lines.append(f"{location} {code} {_paint(f.rule.name, 'cyan', color)}{level} {message}{marker}")
        # A second place the finding is about, on its own line (as rustc's notes): `path:line:col:` parsers
        # still read one finding per first line.
        lines.extend(f"  also at {escape_controls(r.path)}:{r.line}:{r.column} ({escape_controls(r.label)})"
                     for r in f.related)
    if quiet:
        return "".join(line + "\n" for line in lines)
    total = summary.errors + summary.warnings
    if total == 0 and summary.fixed == 0:
        lines.append(f"All checks passed ({summary.files} file{'s' if summary.files != 1 else ''}).")
        lines.extend(_unclaimed_note(summary))
        return "\n".join(lines) + "\n"
    parts = []
    if summary.errors:
        parts.append(f"{summary.errors} error{'s' if summary.errors != 1 else ''}")
    if summary.warnings:
        parts.append(f"{summary.warnings} warning{'s' if summary.warnings != 1 else ''}")
    line = "Found " + (" and ".join(parts) if parts else "no remaining problems")
    line += f" in {summary.files} file{'s' if summary.files != 1 else ''}"
    if summary.fixed:
        line += f" ({summary.fixed} fixed)"
    lines.append(line + ".")
    safe = sum(1 for f in findings if f.fix is not None and f.fix.applicability.value == "safe")
    unsafe = summary.fixable - safe
    if safe:
        lines.append(f"[*] {safe} fixable with --fix.")
    if unsafe and not unsafe_fixes:
        lines.append(f"[*unsafe] {unsafe} more fixable with --fix --unsafe-fixes (review the result).")
    lines.extend(_unclaimed_note(summary))
    return "\n".join(lines) + "\n"


def _unclaimed_note(summary: Summary) -> list[str]:
    if not summary.unclaimed:
        return []
    n = summary.unclaimed
    return [
        f"{n} named file{'s' if n != 1 else ''} matched no kind of {'their' if n != 1 else 'its'} profile: "
        "checked for secrets, personal paths and parse errors only."
    ]


# -- json ----------------------------------------------------------------------


def render_json(findings: list[Finding], summary: Summary) -> str:
    return "".join(json_chunks(findings, summary))


def json_chunks(findings: list[Finding], summary: Summary) -> Iterator[str]:
    """The JSON report in pieces, laid out as ``json.dumps(document, indent=2)`` lays it out, a finding at a
    time: indenting the whole document at once held every finding's dict and millions of small strings
    (300 MB at 100,000 findings), and writing the pieces as they come holds none of them."""
    marker = "\0findings\0"
    document = {
        "version": JSON_VERSION,
        "tool": {"name": "memwarden", "version": __version__},
        "findings": marker,
        "summary": {
            "files": summary.files,
            "errors": summary.errors,
            "warnings": summary.warnings,
            "fixed": summary.fixed,
            "fixable": summary.fixable,
            "unclaimed": summary.unclaimed,
            "workspaces": summary.workspaces,
        },
    }
    head, tail = json.dumps(document, indent=2, ensure_ascii=False).split(json.dumps(marker), 1)
    if not findings:
        yield f"{head}[]{tail}\n"
        return
    yield head + "[\n"
    for number, f in enumerate(findings):
        yield (",\n    " if number else "    ") + json.dumps(f.to_json(), indent=2, ensure_ascii=False).replace("\n", "\n    ")
    yield "\n  ]" + tail + "\n"


# -- sarif ---------------------------------------------------------------------

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning"}


def _sarif_rule(rule: Rule) -> dict:
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.summary},
        "help": {"text": rule.doc, "markdown": rule.doc},
        "defaultConfiguration": {"level": _LEVEL[rule.severity]},
        "properties": {"tags": ["memory"], "fix": rule.fix.value if rule.fix else "none"},
    }


def render_sarif(findings: list[Finding], summary: Summary, rules: list[Rule]) -> str:
    index = {rule.code: i for i, rule in enumerate(rules)}
    results = []
    for f in findings:
        if f.rule.code not in index:
            index[f.rule.code] = len(rules)
            rules = [*rules, f.rule]
        # Each related location has an id its message links to: "[the other value](1)" (SARIF 2.1.0, 3.11.6).
        links = "".join(f" ([{_sarif_escaped(r.label)}]({number}))" for number, r in enumerate(f.related, 1))
        result = {
            "ruleId": f.rule.code,
            "ruleIndex": index[f.rule.code],
            "level": _LEVEL[f.severity],
            "message": {"text": f"{f.rule.name}: {_sarif_escaped(f.message)}{links}"},
            "locations": [{"physicalLocation": _sarif_place(f.path, f.line, f.column)}],
        }
        if f.related:
            result["relatedLocations"] = [
                {"id": number, "physicalLocation": _sarif_place(r.path, r.line, r.column), "message": {"text": r.label}}
                for number, r in enumerate(f.related, 1)
            ]
        if f.json_path:
            result["properties"] = {"json_path": f.json_path}
        results.append(result)
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "memwarden",
                        "version": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": [_sarif_rule(r) for r in rules],
                    }
                },
                "originalUriBaseIds": {"%SRCROOT%": {"uri": _cwd_uri()}},
                "results": results,
            }
        ],
    }
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


def _sarif_place(path: str, line: int, column: int) -> dict:
    return {"artifactLocation": {"uri": path, "uriBaseId": "%SRCROOT%"},
            "region": {"startLine": line, "startColumn": column}}


def _sarif_escaped(text: str) -> str:
    """A message's own square brackets escaped: SARIF reads `[text](target)` in a message as a link (3.11.6), and a
    quoted Markdown link is no link of the report's."""
    return text.replace("[", "\\[").replace("]", "\\]")


def _cwd_uri() -> str:
    from pathlib import Path

    return Path.cwd().as_uri() + "/"


# -- github --------------------------------------------------------------------


def escape_data(value: str) -> str:
    """Escape a workflow command's message (after '::'); other control characters are shown escaped (``\\x1b``)."""
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return escape_controls(value)


def escape_property(value: str) -> str:
    """Escape a workflow command's property value (file=, title=...)."""
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def render_github(findings: list[Finding], summary: Summary) -> str:
    lines = []
    for f in findings:
        command = "error" if f.severity is Severity.ERROR else "warning"
        props = ",".join(
            f"{key}={escape_property(str(value))}"
            for key, value in (
                ("file", f.path),
                ("line", f.line),
                ("col", f.column),
                ("title", f"{f.rule.code} {f.rule.name}"),
            )
        )
        lines.append(f"::{command} {props}::{escape_data(f.message)}")
    return "\n".join(lines) + ("\n" if lines else "")


# -- the table -----------------------------------------------------------------


@dataclass(frozen=True)
class ReportOptions:
    color: bool = False  # text: ANSI colours
    unsafe_fixes: bool = False  # text: unsafe fixes count as applicable
    quiet: bool = False  # text: findings only, no summary
    # sarif: the rules for its table of rules; None: every rule, imported only when a reporter lists them
    rules: tuple[Rule, ...] | None = None


REPORTERS: dict[str, Callable[[list[Finding], Summary, ReportOptions], str]] = {
    "text": lambda findings, summary, options: render_text(
        findings, summary, color=options.color, unsafe_fixes=options.unsafe_fixes, quiet=options.quiet
    ),
    "json": lambda findings, summary, options: render_json(findings, summary),
    "sarif": lambda findings, summary, options: render_sarif(
        findings, summary, list(options.rules) if options.rules is not None else registry.all_rules()
    ),
    "github": lambda findings, summary, options: render_github(findings, summary),
    "gitlab": lambda findings, summary, options: render_gitlab(findings),
}
FORMATS = tuple(REPORTERS)


def render(fmt: str, findings: list[Finding], summary: Summary, options: ReportOptions) -> str:
    return REPORTERS[fmt](findings, summary, options)


def render_chunks(fmt: str, findings: list[Finding], summary: Summary, options: ReportOptions) -> Iterable[str]:
    """The report as pieces to write one after another (the JSON report never whole in memory)."""
    if fmt == "json":
        return json_chunks(findings, summary)
    return [render(fmt, findings, summary, options)]

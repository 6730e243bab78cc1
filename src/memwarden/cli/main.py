"""The command line: a thin click layer over engine, report and the rule registry.

Nothing imports this module. Heavy imports happen inside each command so that
`memwarden --version` and a hook run start fast.
"""

from __future__ import annotations

import datetime as dt
import os
import sys
from pathlib import Path

import click

from memwarden import __version__
from memwarden.cli.exits import EXIT_FINDINGS, EXIT_OK, guarded, hidden
from memwarden.text import escape_controls


def _split(values) -> list[str]:
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def _date(ctx, param, value):
    if value is None:
        return dt.date.today()
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(f"'{value}' is not a date (YYYY-MM-DD)") from None


def _default_format() -> str:
    return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"


# Commands that live in their own modules, imported only when run: "name": "module:attribute".
LAZY_COMMANDS = {
    "budget": "memwarden.cli.budget:budget",
    "history": "memwarden.cli.history:history",
    "baseline": "memwarden.cli.baseline:baseline",
    "init": "memwarden.cli.init:init",
    "hook": "memwarden.cli.hook:hook",
    "stats": "memwarden.cli.stats:stats",
    "server": "memwarden.cli.serve:server",
    "mcp": "memwarden.cli.serve:mcp",
}


class LazyGroup(click.Group):
    """Commands of LAZY_COMMANDS load when run; one that does not import is an error, never a missing command."""

    def list_commands(self, ctx):
        return sorted(set(super().list_commands(ctx)) | set(LAZY_COMMANDS))

    def get_command(self, ctx, name):
        import importlib

        command = super().get_command(ctx, name)
        if command is not None or name not in LAZY_COMMANDS:
            return command
        module, _, attribute = LAZY_COMMANDS[name].partition(":")
        return getattr(importlib.import_module(module), attribute)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, "-V", "--version", prog_name="memwarden")
def main():
    """Lint, fix and guard the memory files AI coding agents keep in git."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--fix", is_flag=True, help="Apply safe fixes.")
@click.option("--unsafe-fixes", is_flag=True, help="With --fix or --diff, apply unsafe fixes too.")
@click.option("--diff", is_flag=True, help="Show the fixes as a diff; write nothing.")
@click.option("--base", metavar="REF", help="Compare with this git ref (append-only rules).")
@click.option("--staged", is_flag=True, help="Compare the staged tree with HEAD (append-only rules).")
@click.option("--select", multiple=True, metavar="NAME|CODE", help="Only these rules (comma-separated; repeatable).")
@click.option("--extend-select", multiple=True, metavar="NAME|CODE", help="Add these rules to the selection.")
@click.option("--ignore", multiple=True, metavar="NAME|CODE", help="Skip these rules.")
@click.option("--preview", is_flag=True, help="Turn on the preview rules (not yet measured right on real memory).")
@click.option(
    "--stable-fixes-only", is_flag=True,
    help="With --fix, apply only stable rules' fixes (the pre-commit hook's: a fix nobody asked to review).",
)
@click.option(
    "--format", "output_format", type=click.Choice(["text", "json", "sarif", "github", "gitlab"]), default=None,
    help="Output format [default: github under GitHub Actions, else text].",
)
@click.option("--output", "-o", type=click.Path(path_type=Path, dir_okay=False), help="Write the report to a file.")
@click.option("--today", callback=_date, metavar="DATE", help="Pin today's date (YYYY-MM-DD) for expiry rules.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("--strict", is_flag=True, help="Warnings fail too.")
@click.option("--profile", type=click.Choice(["ghost-in-shell", "three-layer", "claude-code", "openclaw", "plain-notes"]), help="Override the detected profile.")
@click.option("--config", "config_file", type=click.Path(path_type=Path, dir_okay=False, exists=True), help="Use this config file.")
@click.option("--quiet", "-q", is_flag=True, help="Print findings only, no summary.")
@click.option("--no-cache", is_flag=True, help="Do not read or write .memwarden_cache/ (also: MEMWARDEN_NO_CACHE=1).")
@click.option(
    "--stdin-filename", type=click.Path(path_type=Path, dir_okay=False), metavar="PATH",
    help="Check the content on stdin as if it were the file at PATH (a write not made yet).",
)
@guarded
def check(paths, fix, unsafe_fixes, diff, base, staged, select, extend_select, ignore, preview, stable_fixes_only,
          output_format, output, today, exit_zero, strict, profile, config_file, quiet, no_cache, stdin_filename):
    """Check memory files (default: the workspace in the current directory)."""
    from memwarden import registry, report
    from memwarden.engine import fixing
    from memwarden.engine import run as engine
    from memwarden.discover import workspace
    from memwarden.errors import UsageError

    for keys in (select, extend_select, ignore):
        try:
            registry.resolve(_split(keys))
        except KeyError as error:
            names = registry.names()
            from memwarden.discover.config import suggest

            raise UsageError(f"unknown rule '{error.args[0]}'{suggest(error.args[0], names)}") from None
    run = engine.RunOptions(
        select=_split(select) or None,
        ignore=_split(ignore),
        extend_select=_split(extend_select),
        **({"preview": True} if preview else {}),  # else MEMWARDEN_PREVIEW, then the config, decide
        fix=fix,
        stable_fixes_only=stable_fixes_only,  # --unsafe-fixes only widens --fix or --diff: alone it writes nothing
        unsafe_fixes=unsafe_fixes,
        diff=diff,
        today=today,
        base=base,
        staged=staged,
        progress=_progress_bar if _show_progress() else None,
        use_cache=not (no_cache or os.environ.get("MEMWARDEN_NO_CACHE") or stdin_filename),
    )
    if stdin_filename is not None:
        refuse_with_stdin(paths, fix or unsafe_fixes, diff, staged)
        workspaces, notes = [workspace.open_proposed(stdin_filename, sys.stdin.buffer.read(), profile, config_file)], []
    else:
        workspaces, notes = workspace.collect(list(paths) or [Path(".")], profile, config_file)
    if output is not None:
        refuse_output(output, workspaces)
    for note in notes:
        click.echo(f"memwarden: warning: {hidden(note)}", err=True)
    findings, fixed, files, changes, unclaimed = [], 0, 0, [], 0
    summary_workspaces = []
    for ws in workspaces:
        result = engine.check_workspace(ws, run)
        findings.extend(result.findings)
        findings.extend(_under_base_config(ws, run, result.findings))
        fixed += result.fixed
        files += len(ws.checked_files) if ws.targets is None else len(ws.targets)
        unclaimed += len(ws.unclaimed)
        changes.extend((ws, change) for change in result.changes)
        for message in result.errors:
            click.echo(f"memwarden: warning: {hidden(message)}", err=True)
        summary_workspaces.append(
            {"root": ws.display_path(".", Path.cwd()), "profile": ws.profile.name,
             "profile_reason": ws.profile_reason}
        )
    findings.sort(key=lambda f: f.sort_key())

    if diff:
        text = "".join(fixing.unified_diff(ws, change, Path.cwd()) for ws, change in changes)
        _emit(text, output)
        if changes and not quiet:
            click.echo(f"Would fix {fixed} problem{'s' if fixed != 1 else ''} in {len(changes)} file(s).", err=True)
        sys.exit(EXIT_FINDINGS if changes and not exit_zero else EXIT_OK)

    for ws, change in changes:
        click.echo(f"Fixing {escape_controls(ws.display_path(change.relpath, Path.cwd()))}", err=True)
    summary = report.summarize(findings, files, fixed)
    summary.workspaces = summary_workspaces
    summary.unclaimed = unclaimed
    options = report.ReportOptions(
        color=output is None and report.use_color(sys.stdout),
        unsafe_fixes=unsafe_fixes,
        quiet=quiet,
    )
    _emit(report.render_chunks(output_format or _default_format(), findings, summary, options), output)
    failing = summary.errors + (summary.warnings if strict else 0)
    sys.exit(EXIT_FINDINGS if failing and not exit_zero else EXIT_OK)


def _under_base_config(ws, run, found) -> list:
    """With --staged or --base, what the append-only rules find under the base's configuration, when the
    change alters it (so that it cannot switch off its own check); said once on stderr."""
    if not (run.base or run.staged):
        return []  # not a comparison: the history it would compare with is not even imported
    from memwarden.engine.base_config import findings_under_base_config

    extra, label = findings_under_base_config(ws, run)
    seen = {(f.path, f.line, f.rule.name, f.message) for f in found}
    extra = [f for f in extra if (f.path, f.line, f.rule.name, f.message) not in seen]
    if extra:
        click.echo(f"memwarden: warning: this change alters memwarden's configuration: the append-only rules "
                   f"were also run with the configuration at {hidden(label)}", err=True)
    return extra


# Below this many files a check is over before a bar could be read.
PROGRESS_MIN_FILES = 200


def _show_progress() -> bool:
    """A bar only for a person at a terminal: never in CI, never when stderr is redirected."""
    return sys.stderr.isatty() and not os.environ.get("CI") and not os.environ.get("MEMWARDEN_NO_PROGRESS")


def _progress_bar(total: int):
    import contextlib

    if total < PROGRESS_MIN_FILES:
        return contextlib.nullcontext(lambda n: None)

    @contextlib.contextmanager
    def bar():
        with click.progressbar(length=total, label="Checking", file=sys.stderr, show_pos=True) as progress:
            yield progress.update

    return bar()


def refuse_with_stdin(paths, fix: bool, diff: bool, staged: bool) -> None:
    """--stdin-filename checks one write not made yet: nothing to fix on disk, no other file, no index."""
    from memwarden.errors import UsageError

    clash = "PATHS" if paths else "--fix" if fix else "--diff" if diff else "--staged" if staged else None
    if clash is not None:
        raise UsageError(
            f"--stdin-filename checks content that is not written yet; it cannot be combined with {clash} "
            "(check the file itself once it is written)"
        )


def refuse_output(output: Path, workspaces) -> None:
    """A report must never overwrite what memwarden checks: a memory file, another file it reads, its config."""
    from memwarden.errors import UsageError

    for ws in workspaces:
        relpath = ws.checks_path(output)
        if relpath is not None:
            raise UsageError(
                f"--output {click.format_filename(output)}: that is {relpath!r} of the workspace "
                f"{click.format_filename(ws.root)}, a file memwarden checks; write the report elsewhere"
            )


def _emit(text, output: Path | None) -> None:
    """Write a report (a text, or pieces of one written as they come)."""
    # Paths are escaped where they are shown; anything else that cannot be UTF-8 becomes '?', never a crash.
    chunks = (piece.encode("utf-8", "replace").decode("utf-8") for piece in ([text] if isinstance(text, str) else text))
    if output is None:
        for chunk in chunks:
            click.echo(chunk, nl=False, color=True)  # colour was already decided (and is off for non-TTYs)
        return
    output.parent.mkdir(parents=True, exist_ok=True)
    with open(output, "w", encoding="utf-8") as f:
        for chunk in chunks:
            f.write(chunk)


@main.command()
@click.option("--format", "output_format", type=click.Choice(["text", "json", "markdown"]), default="text")
@guarded
def rules(output_format):
    """List every rule: code, name, severity, fix, tier and measured precision (markdown: docs/rules.md)."""
    from memwarden import registry, tiers

    all_rules = registry.all_rules()
    if output_format == "markdown":
        from memwarden.report import rulesdoc

        click.echo(rulesdoc.render(), nl=False)
        return
    if output_format == "json":
        import json

        data = [
            {"code": r.code, "name": r.name, "severity": r.severity.value, "fix": r.fix.value if r.fix else None,
             "tier": tiers.tier_of(r.name).name, "precision": tiers.tier_of(r.name).precision,
             "stable_part": r.part if tiers.stable_part(r.name) else None,
             "judged": tiers.tier_of(r.name).judged,
             "held_out_precision": tiers.tier_of(r.name).held_out_precision,
             "held_out_judged": tiers.tier_of(r.name).held_out_judged,
             "summary": r.summary, "options": {k: o.default for k, o in r.options.items()}}
            for r in all_rules
        ]
        click.echo(json.dumps(data, indent=2))
        return
    width = max(len(r.name) for r in all_rules)
    measured_width = max(len(tiers.tier_of(r.name).measured) for r in all_rules)
    tier_width = max(len(tiers.shown(r.name)) for r in all_rules)
    for r in all_rules:
        fix = r.fix.value if r.fix else "-"
        tier = tiers.tier_of(r.name)
        click.echo(f"{r.code}  {r.name:<{width}}  {r.severity.value:<7}  fix:{fix:<6}  "
                   f"{tiers.shown(r.name):<{tier_width}}  {tier.measured:<{measured_width}}  {r.summary}")
    click.echo("\nStable rules run by default; preview rules with --preview, `preview = true`, or named in select; "
               "deprecated rules only named in select. A rule with a stable part runs that part by default and the "
               "rest as a preview rule does (`memwarden explain` says which).")


@main.command()
@click.argument("name")
@guarded
def explain(name):
    """Show a rule's documentation: what it does, why, an example, fix safety."""
    from memwarden import registry, tiers
    from memwarden.discover.config import suggest
    from memwarden.errors import UsageError

    found = registry.by_name_or_code(name)
    if found is None:
        raise UsageError(f"unknown rule '{name}'{suggest(name, registry.names())}")
    click.echo(f"# {found.name} ({found.code})\n")
    click.echo(f"{found.summary}\n")
    fix = found.fix.value if found.fix else "none"
    click.echo(f"Severity: {found.severity.value}. Fix: {fix}.")
    if found.options:
        click.echo("Options: " + ", ".join(f"{k} = {o.default!r} ({o.help})" for k, o in found.options.items()) + ".")
    click.echo(tiers.described(found.name, found.code, found.part))
    click.echo("")
    click.echo(found.doc)


@main.command()
@click.argument("kind")
@click.option("--profile", type=click.Choice(["ghost-in-shell", "three-layer", "claude-code"]), help="The profile whose kind to print.")
@guarded
def schema(kind, profile):
    """Print the JSON Schema of a kind (KIND or PROFILE/KIND)."""
    import json

    from memwarden.discover.profiles import find_kind
    from memwarden.documents import schema_store
    from memwarden.errors import UsageError

    found_profile, found_kind = find_kind(kind, profile)
    loaded = schema_store.load_schema(found_profile, found_kind)
    if loaded is None:
        raise UsageError(f"{found_profile.name}/{found_kind.name} has no schema")
    click.echo(json.dumps(loaded, indent=2, ensure_ascii=False))


if __name__ == "__main__":  # pragma: no cover
    main()

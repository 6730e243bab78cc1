"""`memwarden baseline [PATHS]`: accept the current `secret-in-memory` findings in the baseline file.

The scan is the rule's own (:mod:`memwarden.analysis.secrets`); the file format is
:mod:`memwarden.analysis.secrets.baseline`. Nothing secret is printed: only counts and
the baseline's path.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from memwarden.cli.exits import EXIT_OK, guarded, hidden

RULE = "secret-in-memory"


@click.command(name="baseline")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--output", "-o", type=click.Path(path_type=Path, dir_okay=False),
    help="Write this file instead of the workspace's baseline (default: the rule option 'baseline', "
    ".memwarden-baseline.json at the workspace root).",
)
@click.option("--profile", type=click.Choice(["ghost-in-shell", "three-layer", "claude-code"]), help="Override the detected profile.")
@click.option("--config", "config_file", type=click.Path(path_type=Path, dir_okay=False, exists=True), help="Use this config file.")
@guarded
def baseline(paths, output, profile, config_file):
    """Accept the current secret-in-memory findings: write or update the secrets baseline.

    Every finding of `secret-in-memory` in PATHS (default: the workspace here)
    is recorded by file and a hash of the value, never by line, so later edits
    around it do not change the file. Entries that still occur keep any notes
    you added to them (a "reason", say); entries whose value is gone are
    dropped; files not scanned this time, or that cannot be read (a
    permission denied, a symlink out of the workspace), keep their entries. Lines marked
    `memwarden: allow-secret` are accepted already and are not recorded.

    Accept only what is not a secret, or what has been rotated: the baseline
    hides the finding, not the value, which stays in the file and in git history.
    """
    from memwarden.errors import UsageError

    try:
        code = _write_baselines(paths, output, profile, config_file)
    except OSError as error:
        raise UsageError(f"cannot write the baseline: {error.filename or ''}: {error.strerror}") from None
    sys.exit(code)


def _write_baselines(paths, output, profile, config_file) -> int:
    from memwarden import registry
    from memwarden.discover import workspace
    from memwarden.fixes.write import write_atomic
    from memwarden.errors import UsageError
    from memwarden.analysis.secrets import baseline as baseline_file
    from memwarden.analysis.secrets import scan_document
    from memwarden.analysis.secrets.paths import name_secrets
    from memwarden.documents import UnreadableDocument
    from memwarden.text import excerpt

    workspaces, notes = workspace.collect(list(paths) or [Path(".")], profile, config_file)
    for note in notes:
        click.echo(f"memwarden: warning: {hidden(note)}", err=True)
    if output is not None and len(workspaces) > 1:
        raise UsageError("--output names one file, but the paths hold several workspaces; run once per workspace")
    for ws in workspaces if output is not None else ():
        relpath = ws.checks_path(output, own_files=False)
        if relpath is not None:
            raise UsageError(f"--output {click.format_filename(output)}: that is {relpath!r}, a file memwarden checks; "
                             "write the baseline elsewhere")
    rule = registry.by_name_or_code(RULE)
    for ws in workspaces:
        options = ws.config.rule_options(rule)
        path = output.absolute() if output is not None else baseline_file.resolve(ws.root, options["baseline"])
        existing = baseline_file.load(path)
        found: dict[str, dict[str, str]] = {}
        scanned: set[str] = set()
        for doc in ws.target_documents():
            if isinstance(doc, UnreadableDocument):
                # Not read, so not scanned: its accepted entries (and their reasons) stay as they are.
                kept = len(existing.entries.get(doc.relpath, {}))
                why = excerpt(doc.error.message if doc.error else "cannot be read", 120)
                click.echo(
                    f"memwarden: warning: {excerpt(ws.display_path(doc.relpath, Path.cwd()), 200, mask_tokens=False)} "
                    f"({why}) was not scanned"
                    + (f", its {kept} accepted entr{'y is' if kept == 1 else 'ies are'} kept" if kept else ""),
                    err=True,
                )
                continue
            scanned.add(doc.relpath)
            for detection in scan_document(doc, high_entropy=options["high_entropy"]):
                if not detection.allowed:
                    found.setdefault(doc.relpath, {})[detection.baseline_hash] = detection.type.slug
            for secret in name_secrets(doc.relpath):  # a secret its name holds, accepted as the file's others are
                if secret.detection is not None:
                    found.setdefault(doc.relpath, {})[secret.detection.baseline_hash] = secret.detection.type.slug
        merged, added, dropped = baseline_file.merge(existing, found, scanned)
        text = merged.to_json()
        shown = hidden(Path(os.path.relpath(path, Path.cwd())).as_posix())
        total = sum(len(entries) for entries in merged.entries.values())
        try:
            unchanged = path.read_text("utf-8") == text
        except OSError:
            unchanged = False
        if not unchanged:
            write_atomic(path, text.encode("utf-8"))
        state = "unchanged" if unchanged else "written"
        click.echo(
            f"{shown}: {total} accepted finding{'s' if total != 1 else ''} "
            f"({added} new, {dropped} dropped; {state})"
        )
    return EXIT_OK

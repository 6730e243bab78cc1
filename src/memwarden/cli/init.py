"""`memwarden init`: a commented config and a pre-commit snippet for the workspace here."""

from __future__ import annotations

from pathlib import Path

import click

from memwarden import __version__
from memwarden.cli.exits import guarded

REPO_URL = "https://github.com/memwarden/memwarden"

CONFIG_TEMPLATE = """\
# memwarden configuration (https://github.com/memwarden/memwarden).
# Every key is optional; an unknown key is an error, so typos cannot hide.
# `memwarden rules` lists the rules, `memwarden explain NAME` documents one.

# Detected from the files here ({reason}).
profile = "{profile}"

# Rules to run (names, codes or prefixes such as "MW2"); "ALL" is the default.
# select = ["ALL"]
# ignore = ["scratchpad-too-long"]

# Files never checked, even when pre-commit names them.
# exclude = ["memory/_archive/old/**"]

# [per-file-ignores]
# "memory/runtime_profiles.yml" = ["executable-config"]

# Per-rule options, e.g.:
# [rules.too-few-tags]
# min_tags = 2
# [rules.negative-claim-without-expiry]
# default_ttl = 90
"""

PRE_COMMIT_TEMPLATE = """\
# pre-commit hooks for this memory repository (https://pre-commit.com).
# Install once with: pip install pre-commit && pre-commit install
repos:
  - repo: {url}
    rev: v{version}
    hooks:
      - id: memwarden              # formats, schemas, tags, claims, index; fixes what is safe
      - id: memwarden-budget       # the startup index stays inside the agent's load budget
      - id: memwarden-append-only  # no record leaves memory without being archived
      - id: memwarden-secrets      # no key or token is committed into memory
"""


def _write_new(path: Path, content: str) -> bool:
    """Create path with content; never overwrite. True if written."""
    try:
        with path.open("x", encoding="utf-8", newline="\n") as handle:
            handle.write(content)
        return True
    except FileExistsError:
        return False


@click.command()
@click.argument("directory", default=".", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--pre-commit", "write_pre_commit", is_flag=True, help="Also write .pre-commit-config.yaml (never overwritten).")
@guarded
def init(directory: Path, write_pre_commit: bool):
    """Write a commented .memwarden.toml for the workspace, and show (or write) a pre-commit config.

    Existing files are never overwritten: init says so and leaves them as they are.
    """
    from memwarden.discover.profiles import detect

    profile, reason = detect(directory)
    if profile is None:
        profile, reason = "ghost-in-shell", "nothing detected, so the default was chosen; change it if needed"
    config_path = directory / ".memwarden.toml"
    if _write_new(config_path, CONFIG_TEMPLATE.format(profile=profile, reason=reason)):
        click.echo(f"Wrote {config_path} (profile {profile}: {reason}).")
    else:
        click.echo(f"{config_path} already exists; left unchanged.")
    snippet = PRE_COMMIT_TEMPLATE.format(url=REPO_URL, version=__version__)
    if write_pre_commit:
        pre_commit_path = directory / ".pre-commit-config.yaml"
        if _write_new(pre_commit_path, snippet):
            click.echo(f"Wrote {pre_commit_path}. Run `pre-commit install` to enable it.")
        else:
            click.echo(f"{pre_commit_path} already exists; left unchanged. Add these hooks to it:\n")
            click.echo(snippet)
    else:
        click.echo("\nAdd this to .pre-commit-config.yaml (or run `memwarden init --pre-commit`):\n")
        click.echo(snippet)

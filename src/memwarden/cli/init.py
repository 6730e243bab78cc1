"""`memwarden init`: a commented config and a pre-commit snippet for the workspace here."""

from __future__ import annotations

import os
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
{profile_line}

# By default the stable rules run (`memwarden rules` shows each rule's tier). Preview rules, not yet
# measured right on real memory, run with `preview = true` (or `--preview`), or when named in select.
# preview = true
# Rules to run: names, codes, prefixes such as "MW2" or "ALL" (a prefix or "ALL" takes a preview rule
# only with preview on; a rule named exactly runs either way).
# select = ["ALL", "negative-claim-without-expiry"]
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


HOOK_COMMAND = "memwarden hook"
# agent -> (settings file below the project, event before a tool call, event after it, tools that write files)
AGENT_SETTINGS = {
    "claude-code": (".claude/settings.json", "PreToolUse", "PostToolUse", "Write|Edit|MultiEdit"),
    "gemini-cli": (".gemini/settings.json", "BeforeTool", "AfterTool", "write_file|replace"),
    "codex": (".codex/hooks.json", "PreToolUse", "PostToolUse", "^apply_patch$"),  # loaded when the project is trusted
}


def install_agent_hooks(directory: Path, agent: str) -> None:
    """Merge `memwarden hook` before and after the agent's write tools into its project settings."""
    import json

    from memwarden.errors import UsageError
    from memwarden.fixes.write import write_atomic

    relpath, before, after, matcher = AGENT_SETTINGS[agent]
    path = _settings_file(directory, relpath)
    shown = click.format_filename(directory / relpath)
    settings: dict = {}
    if path.exists():
        try:
            settings = json.loads(path.read_text(encoding="utf-8-sig"))
        except (OSError, UnicodeDecodeError, ValueError) as error:
            raise UsageError(f"{shown}: cannot read it as JSON ({error}); fix it first, it was left unchanged") from None
    if not isinstance(settings, dict):
        raise UsageError(f"{shown}: not a JSON object; fix it first, it was left unchanged")
    hooks = settings.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise UsageError(f"{shown}: \"hooks\" is not an object; fix it first, it was left unchanged")
    added = []
    for event in (before, after):
        groups = hooks.setdefault(event, [])
        if not isinstance(groups, list):
            raise UsageError(f"{shown}: hooks.{event} is not a list; fix it first, it was left unchanged")
        if any(_runs_hook(group, matcher) for group in groups):
            continue
        groups.append({"matcher": matcher, "hooks": [{"type": "command", "command": HOOK_COMMAND}]})
        added.append(event)
    if not added:
        click.echo(f"{shown} already runs `{HOOK_COMMAND}` before and after {matcher}; left unchanged.")
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, (json.dumps(settings, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    for event in added:
        click.echo(f"{shown}: added hooks.{event}: matcher \"{matcher}\" runs `{HOOK_COMMAND}`.")
    click.echo("Other settings and hooks were kept. Restart the agent (or review with /hooks) to load them.")


def _settings_file(directory: Path, relpath: str) -> Path:
    """The agent's settings file as the OS finds it, refused (a usage error) when a symbolic link, of the file or
    of a folder on its way, leads out of the project, or when it is not a regular file (a FIFO would block the
    read, a device never end it): `init` writes what it read back there."""
    import os
    import stat

    from memwarden.errors import UsageError

    shown = click.format_filename(directory / relpath)
    top = Path(os.path.realpath(directory))
    real = Path(os.path.realpath(directory / relpath))  # a dangling link resolves to where a write would create
    if top not in real.parents:
        raise UsageError(f"{shown} is a symbolic link (or in a linked folder) that leads out of {click.format_filename(directory)}; "
                         "memwarden does not write through it: merge the hooks by hand, or replace the link with a file")
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        return real
    except OSError as error:
        raise UsageError(f"{shown}: cannot read it ({error.strerror}); it was left unchanged") from None
    if not stat.S_ISREG(mode):
        raise UsageError(f"{shown} is not a regular file; it was left unchanged")
    return real


def _runs_hook(group, matcher: str) -> bool:
    """Whether a hook group already runs memwarden's hook for every one of these tools."""
    if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
        return False
    runs = any(isinstance(h, dict) and h.get("command") == HOOK_COMMAND for h in group["hooks"])
    covered = group.get("matcher") in ("", "*", None) or set(matcher.split("|")) <= set(
        str(group.get("matcher")).split("|")
    )
    return runs and covered


def _write_new(path: Path, content: str) -> bool:
    """Create path with content; never overwrite. True if written."""
    try:
        with path.open("x", encoding="utf-8", newline="\n") as handle:
            handle.write(content)
        return True
    except FileExistsError:
        return False


def _profile_line(profile: str | None) -> str:
    """The config's profile line: pinned, except where detection should keep deciding.

    A folder with only the files an agent loads whole (a repository with a CLAUDE.md) becomes a
    memory workspace when memory/ or notes appear: pinning agent-instructions would hide them. A
    folder where nothing is detected (a repository root whose memory is in `.claude/memory/`) gets
    no profile either: the config applies to the workspaces below it, and a profile pinned here
    would be forced on them (a gish index they do not have).
    """
    if profile in ("agent-instructions", None):
        return '# profile = "ghost-in-shell"   # left to detection, folder by folder'
    return f'profile = "{profile}"'


def _found_below(directory: Path) -> list[tuple[str, str]]:
    """The workspaces `memwarden check` finds from this folder: (folder, profile), as check names them."""
    from memwarden.discover.workspace import collect

    workspaces, _ = collect([directory])
    root = directory.resolve()
    return [(Path(os.path.relpath(ws.root, root)).as_posix(), ws.profile.name) for ws in workspaces]


@click.command()
@click.argument("directory", default=".", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--pre-commit", "write_pre_commit", is_flag=True, help="Also write .pre-commit-config.yaml (never overwritten).")
@click.option(
    "--agent", type=click.Choice(sorted(AGENT_SETTINGS)),
    help="Only merge `memwarden hook` into this agent's project settings (e.g. .claude/settings.json).",
)
@guarded
def init(directory: Path, write_pre_commit: bool, agent: str | None):
    """Write a commented .memwarden.toml for the workspace, and show (or write) a pre-commit config.

    Existing files are never overwritten: init says so and leaves them as they are. With --agent,
    init merges memwarden's write hooks into that agent's settings instead, keeping every other
    setting and hook, and adding nothing twice.
    """
    if agent is not None:
        install_agent_hooks(directory, agent)
        return
    from memwarden.discover.profiles import detect

    profile, reason = detect(directory)
    found = _found_below(directory)
    below = ", ".join(f"{folder} ({name})" for folder, name in found if folder != ".")
    if profile is None:
        reason = "nothing detected here; left to detection"
    if below:
        reason += f"; memory found below, each with its own profile: {below}"
    config_path = directory / ".memwarden.toml"
    if _write_new(config_path, CONFIG_TEMPLATE.format(profile_line=_profile_line(profile), reason=reason)):
        shown = f"profile {profile}: {reason}" if profile is not None else reason
        click.echo(f"Wrote {config_path} ({shown}).")
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

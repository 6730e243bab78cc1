"""`memwarden history --base REF`: which commit deleted what.

Walks the commits of REF..HEAD along first parents (a merge commit is compared
with its first parent, so a side branch's changes count as the merge's), runs
the append-only comparison of each commit against its parent, and names the
commit that lost each record. A record lost in one commit and put back later
is shown as restored; the exit code follows what is still lost at HEAD:
0 nothing lost, 1 records lost and not archived, 2 an error.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from memwarden.cli.exits import guarded, hidden

EXIT_OK, EXIT_LOST, EXIT_ERROR = 0, 1, 2
RULE_CODES = {"deleted-record": "MW601", "rewritten-record": "MW602", "deleted-note": "MW603"}


@click.command()
@click.option("--base", "base_ref", required=True, metavar="REF", help="Walk the commits from REF's merge base to HEAD.")
@click.argument("path", required=False, type=click.Path(path_type=Path))
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", help="Output format.")
@click.option("--profile", type=click.Choice(["ghost-in-shell", "three-layer", "claude-code"]), help="Override the detected profile.")
@guarded
def history(base_ref, path, output_format, profile):
    """Name the commit that deleted each memory record since REF (first-parent walk).

    Exit codes: 0 nothing was deleted without being archived, 1 something
    still is at HEAD, 2 an error (no git repository, REF missing...).
    """
    report = _walk(base_ref, path or Path("."), profile)
    if output_format == "json":
        click.echo(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        click.echo(_render_text(report), nl=False)
    sys.exit(report["summary"]["exit_code"])


def _walk(base_ref: str, path: Path, profile: str | None) -> dict:
    from memwarden.analysis.history import open_repo, resolve_base
    from memwarden.discover import workspace as workspace_module
    from memwarden.errors import UsageError
    from memwarden.git import GitError

    workspaces, notes = workspace_module.collect([path], profile, None)
    for note in notes:
        click.echo(f"memwarden: warning: {hidden(note)}", err=True)
    report: dict = {"version": 1, "base": base_ref, "first_parent": True, "workspaces": []}
    commits_seen: set[str] = set()
    total = lost = 0
    for ws in workspaces:
        repo = open_repo(ws, "history")
        try:
            if not repo.has_head():
                raise UsageError("HEAD has no commit yet: there is no history to walk")
            base_sha, label = resolve_base(repo, base_ref)
            result = _walk_workspace(ws, repo, base_sha, label)
        except GitError as error:
            raise UsageError(str(error)) from None
        report["workspaces"].append(result)
        report.setdefault("compared_with", base_sha)
        report.setdefault("head", repo.resolve("HEAD"))
        commits_seen.update(c["sha"] for c in result["commits"])
        total += sum(len(c["findings"]) for c in result["commits"])
        lost += result["lost"]
    report["summary"] = {
        "commits": len(commits_seen),
        "deletions": total,
        "lost": lost,
        "exit_code": EXIT_LOST if lost else EXIT_OK,
    }
    return report


def _walk_workspace(ws, repo, base_sha: str, label: str) -> dict:
    from memwarden import registry
    from memwarden.analysis.history import Comparison, EmptySnapshot, GitSnapshot, Snapshot
    from memwarden.rules.append_only import mutable_fields, violation_of

    # The setting every append-only rule shares, however the config spells it.
    fields = mutable_fields(ws.config.rule_options(registry.by_name_or_code("rewritten-record")))
    cache: dict = {}
    snapshots: dict[str, Snapshot] = {}

    def snapshot(sha: str | None, name: str) -> Snapshot:
        if sha is None:
            return EmptySnapshot(ws)
        if sha not in snapshots:
            snapshots[sha] = GitSnapshot(ws, repo, name, repo.tree_files(sha, repo.prefix), cache)
        return snapshots[sha]

    commits = repo.commits(base_sha, "HEAD", first_parent=True)
    head = repo.resolve("HEAD")
    net = Comparison(ws, snapshot(base_sha, label), snapshot(head, "HEAD"), fields).losses()
    net_keys = {loss.key for loss in net}
    per_commit = []
    last_loss_of: dict[str, int] = {}
    for position, commit in enumerate(commits):
        parent = commit.first_parent
        before = snapshot(parent, repo.short(parent) if parent else "the empty tree")
        after = snapshot(commit.sha, commit.short)
        losses = Comparison(ws, before, after, fields).losses()
        for loss in losses:
            last_loss_of[loss.key] = position
        per_commit.append((commit, before, losses))

    from memwarden.analysis.secrets import format_of, hider, version_text
    from memwarden.analysis.secrets.paths import hide_names_in
    from memwarden.text import escape_controls

    hiders: dict = {}

    def hide(message: str, version: Snapshot, relpath: str) -> str:
        """The message with the secrets of the version it quotes (the one that still held the loss) hidden."""
        key = (id(version), relpath)
        if key not in hiders:
            hiders[key] = hider(version_text(version.raw(relpath)), format_of(relpath))
        return hiders[key](message)

    cwd = Path.cwd()

    def shown(relpath: str) -> str:
        return ws.display_path(relpath, cwd)

    def finding(loss, lost_at_head: bool, version: Snapshot) -> dict:
        violation = violation_of(loss, ws, fields)
        data = {
            "code": RULE_CODES[violation.rule],
            "name": violation.rule,
            "severity": "error",
            "path": shown(loss.path),
            "line": loss.line,
            "column": loss.column,
            "message": hide_names_in(hide(violation.message, version, loss.path)),  # a deleted note's name too
            "key": hide(loss.key, version, loss.path),  # it holds the id or the fact key itself
            "lost_at_head": lost_at_head,
        }
        if loss.json_path:
            data["json_path"] = hide(loss.json_path, version, loss.path)
        return data

    result_commits = []
    for position, (commit, before, losses) in enumerate(per_commit):
        findings = [
            finding(loss, loss.key in net_keys and last_loss_of.get(loss.key) == position, before) for loss in losses
        ]
        # a subject is anyone's text: no escape sequence of it may reach a terminal (window title, clipboard)
        subject = escape_controls(hide_names_in(commit.subject))
        result_commits.append({"sha": commit.sha, "short": commit.short, "subject": subject,
                               "findings": findings})
    attributed = set(last_loss_of)
    unattributed = [finding(loss, True, snapshot(base_sha, label)) for loss in net if loss.key not in attributed]
    return {
        "root": ws.display_path(".", cwd),
        "profile": ws.profile.name,
        "commits": result_commits,
        "unattributed": unattributed,
        "lost": len(net),
    }


def _render_text(report: dict) -> str:
    lines = []
    commits = report["summary"]["commits"]
    for ws in report["workspaces"]:
        for commit in ws["commits"]:
            if not commit["findings"]:
                continue
            lines.append(f"{commit['short']} {commit['subject']}")
            for f in commit["findings"]:
                status = "" if f["lost_at_head"] else " [restored or archived later]"
                lines.append(f"  {f['path']}:{f['line']}:{f['column']}: {f['code']} {f['name']} {f['message']}{status}")
        if ws["unattributed"]:
            lines.append("Lost at HEAD, not attributed to a first-parent commit:")
            for f in ws["unattributed"]:
                lines.append(f"  {f['path']}:{f['line']}:{f['column']}: {f['code']} {f['name']} {f['message']}")
    lost = report["summary"]["lost"]
    checked = f"{commits} commit{'s' if commits != 1 else ''} since {report['base']} checked, first-parent"
    if lost:
        culprits = {
            c["short"] for ws in report["workspaces"] for c in ws["commits"] if any(f["lost_at_head"] for f in c["findings"])
        }
        by = f" by {len(culprits)} commit{'s' if len(culprits) != 1 else ''}" if culprits else ""
        lines.append(f"Found {lost} record{'s' if lost != 1 else ''} lost at HEAD, deleted without being archived{by} ({checked}).")
    elif report["summary"]["deletions"]:
        lines.append(f"Nothing is lost at HEAD: every deletion was restored or archived later ({checked}).")
    else:
        lines.append(f"No record was deleted without being archived ({checked}).")
    return "\n".join(lines) + "\n"

"""What the repository-claim tests share: committing a repository's state, and a rule's findings on it."""

from __future__ import annotations

from conftest import git


def commit_all(root, message: str) -> str:
    """Commit everything in root; the new commit's 7-character id."""
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)
    return git(root, "rev-parse", "HEAD").strip()[:7]


def findings(cli, root, select: str, *extra: str) -> list[dict]:
    """The rule's findings on root, uncached, as JSON records."""
    result = cli("check", str(root), "--select", select, "--format", "json", "--no-cache", *extra, cwd=root)
    assert result.exit_code in (0, 1), result
    return result.json()["findings"]

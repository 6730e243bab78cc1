"""One file under several names: which of a symlinked file's paths a rule that reads every line reports at.

`read_at_its_own_path` covers a link to a file this workspace checks itself (CLAUDE.md -> AGENTS.md). A
repository also links its root's instruction files into an agent's folder (`AGENTS.md` and `CLAUDE.md` both ->
`.agents/AGENTS.md`): the folder is a workspace of its own, checked with the root, and the root's two names are
views of one file. That file is reported once: at its own path when a run over the whole workspace checks it
there, else at the first of its names.
"""

from __future__ import annotations

from memwarden.discover.profiles import AGENT_INSTRUCTIONS
from memwarden.discover.links import read_at_its_own_path, reached_through_symlink, real_path
from memwarden.discover.workspace import find_nested_roots, open_workspace


def checked_at_another_path(workspace, doc) -> bool:
    """Whether a document is a symlink's view of a file the run reports at another path: its own path in this
    workspace or in a workspace nested below it that a run over this whole one checks too, or an earlier name
    (by path) of the same file in this workspace."""
    if not reached_through_symlink(doc.root, doc.relpath):
        return False
    if read_at_its_own_path(workspace, doc):
        return True
    root = real_path(workspace.root)
    real = real_path(workspace.root / doc.relpath)
    # A run over the whole workspace (every path a target) checks the workspaces below it too.
    if real.is_relative_to(root) and workspace.is_target(real.relative_to(root).as_posix()) \
            and _in_nested_workspace(workspace, real):
        return True
    return any(other < doc.relpath and reached_through_symlink(workspace.root, other)
               and real_path(workspace.root / other) == real for other in workspace.checked_files)


def _in_nested_workspace(workspace, real) -> bool:
    """Whether a file below the workspace is a memory file of a workspace below it, as collect finds them for a
    run over the whole workspace (every one below an agent-instructions workspace, the agents' folders' below
    a full one)."""
    only_agent_dirs = workspace.profile.name != AGENT_INSTRUCTIONS.name
    for nested in find_nested_roots(workspace.root, agent_dirs_only=only_agent_dirs):
        folder = real_path(nested)
        if real.is_relative_to(folder) and open_workspace(nested).kind_of(real.relative_to(folder).as_posix()):
            return True
    return False

"""Append-only memory: what the base held must still be here, or archived.

A comparison reads two snapshots of the workspace through git: the base
(HEAD, a ``--base REF``, a commit's parent) and the current state (the index,
the working tree, a commit). Records are matched by id, else fingerprint,
else their content after parsing, so a reordered log, a re-indented record, a
changed key order or CRLF/LF line endings are not deletions.

This package finds what was lost and builds no edits and no messages: the
append-only rules word the losses, fixes/restore.py puts them back, and
`memwarden history` walks commits with the same comparison.
"""

from memwarden.analysis.history.check import ChangesSinceBase, Shrunk, changes_since_base, open_repo, resolve_base
from memwarden.analysis.history.compare import (
    Comparison,
    FactLost,
    IndexEntryLost,
    LineLost,
    Loss,
    NoteLost,
    RecordLost,
    RecordRewritten,
)
from memwarden.analysis.history.records import DEFAULT_MUTABLE_FIELDS
from memwarden.analysis.history.roles import archive_root
from memwarden.analysis.history.snapshots import EmptySnapshot, GitSnapshot, Snapshot, WorktreeSnapshot

__all__ = [
    "ChangesSinceBase", "Comparison", "DEFAULT_MUTABLE_FIELDS", "EmptySnapshot", "FactLost", "GitSnapshot",
    "IndexEntryLost", "LineLost", "Loss", "NoteLost", "RecordLost", "RecordRewritten", "Shrunk", "Snapshot", "WorktreeSnapshot",
    "archive_root", "changes_since_base", "open_repo", "resolve_base",
]

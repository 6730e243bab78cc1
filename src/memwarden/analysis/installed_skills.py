"""Installed skills: folders a registry put into the workspace, whose files their publisher wrote.

OpenClaw installs a skill from ClawHub as a folder holding its `SKILL.md` and what the installer or
publisher leaves beside it: ClawHub's `_meta.json` and `.clawhub/origin.json`, a licence. A folder
with a SKILL.md and none of these is the owner's own skill.
"""

from __future__ import annotations

import posixpath

INSTALL_MARKERS = ("_meta.json", ".clawhub/origin.json", "LICENSE", "LICENSE.md", "LICENSE.txt")


def installed_skill_folder(workspace, relpath: str) -> str | None:
    """The nearest folder above ``relpath`` that holds a SKILL.md, when an installer's marker lies beside it; None
    for a file in no skill or in the owner's own (a skill inside a skill answers for its own files)."""
    folder = posixpath.dirname(relpath)
    while folder:
        if _exists(workspace, f"{folder}/SKILL.md"):
            return folder if any(_exists(workspace, f"{folder}/{name}") for name in INSTALL_MARKERS) else None
        folder = posixpath.dirname(folder)
    return None


def _exists(workspace, relpath: str) -> bool:
    return relpath in workspace.overlay or (workspace.root / relpath).is_file()

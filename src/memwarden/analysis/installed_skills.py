"""Installed skills: folders a registry put into the workspace, whose files their publisher wrote.

OpenClaw installs a skill from ClawHub as a folder holding its `SKILL.md` and what the installer or
publisher leaves beside it: ClawHub's `_meta.json` and `.clawhub/origin.json`, a licence. A folder
with a SKILL.md and none of these is the owner's own skill.
"""

from __future__ import annotations

import posixpath

INSTALL_MARKERS = ("_meta.json", ".clawhub/origin.json", "LICENSE", "LICENSE.md", "LICENSE.txt")


def installed_skill_folder(workspace, relpath: str) -> str | None:
    """The skill folder ``relpath`` lies in, when an installer's marker lies in it; None for a file in no skill or
    in the owner's own. The skill folder is the nearest one above the file that holds a SKILL.md (a skill inside a
    skill answers for its own files) or stands right in a `skills/` folder (a publisher's repository cloned there
    may keep its SKILL.md deeper, or none)."""
    folder = posixpath.dirname(relpath)
    while folder:
        parent = posixpath.dirname(folder)
        if _exists(workspace, f"{folder}/SKILL.md") or posixpath.basename(parent) == "skills":
            return folder if any(_exists(workspace, f"{folder}/{name}") for name in INSTALL_MARKERS) else None
        folder = parent
    return None


def _exists(workspace, relpath: str) -> bool:
    return relpath in workspace.overlay or (workspace.root / relpath).is_file()

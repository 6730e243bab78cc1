"""The trees a workspace carries but did not write, which its walk leaves out.

An agent's workspace (an OpenClaw workspace, a backed-up `~/.openclaw`) often holds more than
memory: projects the agent built or cloned, a checkout of another repository, build output. Their
files are someone else's text: a vendored project's home paths, a Helm chart's templates that no
YAML parser reads, a project's fixtures and lock files.
Read as memory they made most of the secrets, personal-path and parse-error findings of two
blind batches (13 and 14), and most of a run's time. A folder below the workspace root is
carried when its own listing says so, so deciding costs no read:

- it is a checkout of its own (`.git`, a folder or a submodule's file);
- it is a project of its own (a package manifest: `package.json`, `pyproject.toml`, `go.mod`,
  `Cargo.toml`, a Helm `Chart.yaml`, ...);
- it is a browser's profile (Chromium's user data holds `Local State`, a Firefox profile `prefs.js`
  and `times.json`): a browser-automation skill or OpenClaw's own browser keeps one, and its
  preferences, logs and LevelDB text are the browser's;

unless it is a skill (a SKILL.md: its owner edits it) or memory (named `memory/`, `memories/`,
`knowledge/` ..., or holding a `memory/`, a MEMORY.md or OpenClaw's SOUL.md: memory kept in a
submodule, a backed-up workspace whose root was a project).
Build or dependency output by its name (`dist`, `site-packages`, `DerivedData`, ...) is carried
always, as ruff and pre-commit leave it out.

The workspace root is never carried: a repository whose root is both a project and a workspace
is read whole. A file named on the command line, as pre-commit names a staged file, is still
checked wherever it is: the walk leaves carried trees out, the guard does not.
"""

from __future__ import annotations

from collections.abc import Collection

from memwarden.globs import is_glob

PROJECT_MANIFESTS = frozenset({
    "package.json", "pyproject.toml", "setup.py", "setup.cfg", "go.mod", "Cargo.toml", "pom.xml",
    "build.gradle", "build.gradle.kts", "Gemfile", "composer.json", "Chart.yaml", "Package.swift",
    "pubspec.yaml", "mix.exs", "deno.json",
})
# A folder holding these, or named so, is memory even beside a manifest or a `.git` (memory kept in a submodule, a
# backed-up workspace whose root was a project).
MEMORY_ENTRIES = frozenset({"memory", "MEMORY.md", "SOUL.md", "IDENTITY.md", "HEARTBEAT.md"})
MEMORY_FOLDERS = frozenset({"memory", "memories", "memory-bank", "knowledge", ".learnings"})
# What a browser writes at the top of its profile: Chromium's user-data folder, a Firefox profile.
BROWSER_PROFILE_MARKERS = (frozenset({"Local State"}), frozenset({"prefs.js", "times.json"}))
# Build and dependency output a person never writes by hand (ruff's and pre-commit's defaults, and Xcode's).
OUTPUT_FOLDERS = frozenset({"dist", "_build", "buck-out", "site-packages", "__pypackages__", "bower_components",
                            "Pods", "DerivedData"})


def carried_reason(name: str, entries: Collection[str]) -> str | None:
    """Why a folder below a workspace root, named ``name`` and listing ``entries``, is carried; None when it is not."""
    if name in OUTPUT_FOLDERS:
        return "build or dependency output"
    if name in MEMORY_FOLDERS or any(entry in MEMORY_ENTRIES for entry in entries):
        return None  # memory kept as a submodule, a copy of a workspace, a project with its own memory
    if "SKILL.md" in entries:
        # A skill installed from a registry is read: its owner edits it (a key in its config, their home in its
        # scripts: 5 true, 1 false in the dev half), and personal-path knows its author's home (the frozen
        # build 491de96 left installed skills out).
        return None
    if ".git" in entries:
        return "a checkout of its own"
    if any(marker <= set(entries) for marker in BROWSER_PROFILE_MARKERS):
        return "a browser's profile"
    manifest = project_manifest(entries)
    if manifest is not None:
        return f"a project of its own ({manifest})"
    return None


def project_manifest(entries: Collection[str]) -> str | None:
    """The package manifest (or Xcode project) a folder listing ``entries`` holds, which makes it a project; or None."""
    return next((entry for entry in sorted(entries) if entry in PROJECT_MANIFESTS or entry.endswith(".xcodeproj")), None)


def named_by(relpath: str, globs: Collection[str]) -> bool:
    """Whether a configured kind's glob reaches into the folder ``relpath`` (its literal folders lead there or below):
    a folder the user pointed memwarden at is never carried."""
    for glob in globs:
        folders = glob.split("/")[:-1]
        lead = "/".join(folders[: next((i for i, part in enumerate(folders) if is_glob(part)), len(folders))])
        if lead == relpath or lead.startswith(relpath + "/") or (lead and relpath.startswith(lead + "/")):
            return True
    return False

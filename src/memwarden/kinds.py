"""The kinds vocabulary: what a memory file can be, shared by every layer.

A `Kind` names a sort of file (its format and the globs that claim it) and a `Profile` is a set of
them; the profiles themselves, and how a workspace is recognised as one, live in
`discover/profiles.py`. These definitions sit below documents and analysis, which read a file's
kind but never look for a workspace.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from memwarden.globs import matches_any

FORMATS = ("yaml", "jsonl", "markdown", "index")
# The kinds that hold episodes, in every profile: the live log and its archives.
EPISODE_KINDS = ("episodic", "episode-archive")
# A JSONL file in memory/ that no other kind names: checked only for looking like a log it knows.
OTHER_LOG_KIND = "memory-log"
# Profiles whose notes are plain Markdown by design: a folder of them without front matter is expected.
PLAIN_MARKDOWN_PROFILES = ("plain-notes", "openclaw")
# In a folder Codex reads the first of these; Agents.md is AGENTS.md as spelled in some repositories
# (the same file on a case-insensitive file system).
CODEX_FILES = ("AGENTS.override.md", "AGENTS.md", "Agents.md")


@dataclass(frozen=True)
class Kind:
    name: str
    format: str  # one of FORMATS; "index" is Markdown read as a list of entries
    globs: tuple[str, ...]
    description: str
    exclude: tuple[str, ...] = ()
    schema_file: str | None = None  # custom kinds: a schema path from the config
    memory: bool = True  # False: `other-text`, a file no kind claims (only rules with any_text read it)

    def claims(self, relpath: str) -> bool:
        return matches_any(relpath, self.globs) and not matches_any(relpath, self.exclude)


@dataclass(frozen=True)
class Profile:
    name: str
    description: str
    kinds: tuple[Kind, ...]
    index_link_base: dict[str, str] = field(default_factory=dict)

    def kind(self, name: str) -> Kind | None:
        return next((k for k in self.kinds if k.name == name), None)

    def classify(self, relpath: str) -> Kind | None:
        return next((k for k in self.kinds if k.claims(relpath)), None)

    def with_kinds(self, overrides: dict[str, Kind]) -> "Profile":
        kinds = [overrides.pop(k.name, k) for k in self.kinds]
        kinds.extend(overrides.values())
        return replace(self, kinds=tuple(kinds))


OTHER_TEXT = "other-text"
# A file no kind claims is read by its extension; anything else that is text is plain text (never parsed).
_OTHER_FORMATS = {".yml": "yaml", ".yaml": "yaml", ".jsonl": "jsonl", ".ndjson": "jsonl", ".md": "markdown",
                  ".markdown": "markdown"}
OTHER_TEXT_KINDS = {
    fmt: Kind(OTHER_TEXT, fmt, (), "a text file no kind of the profile claims: checked for secrets, personal "
              "paths and parse errors only", memory=False)
    for fmt in ("yaml", "jsonl", "markdown", "text")
}


def other_text_kind(relpath: str) -> Kind:
    """The `other-text` kind of a file no kind claims, its format by the file's extension."""
    suffix = relpath[relpath.rfind("."):].lower() if "." in relpath.rsplit("/", 1)[-1] else ""
    return OTHER_TEXT_KINDS[_OTHER_FORMATS.get(suffix, "text")]

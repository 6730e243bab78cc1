"""Path globs: moved to `memwarden.globs` (below every room, as `Kind` needs them); kept importable here."""

from memwarden.globs import Glob, compile_glob, matches, matches_any  # noqa: F401

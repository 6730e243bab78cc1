"""memwarden: lint, fix and guard the memory files AI coding agents keep in git."""

__version__ = "0.1.0"

"""Errors that stop a run: the CLI turns each into a message and exit code 2."""

from __future__ import annotations


class UsageError(Exception):
    """A configuration or usage problem: reported on stderr, exit code 2."""

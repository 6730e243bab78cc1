"""One exit-code policy for every command, and the one wrapper that applies it.

0: nothing to report; 1: findings (or what the command exists to detect);
2: a usage error, an unreadable input or an internal error, told in one
``memwarden: error:`` line, never a traceback (``MEMWARDEN_DEBUG=1`` shows it);
130: interrupted. A command whose codes already mean something else (``budget``
uses 2 for "past the truncation point") moves usage errors with ``usage_exit``.
"""

from __future__ import annotations

import functools
import os
import sys
from typing import Callable, NoReturn

import click

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
EXIT_INTERRUPTED = 130


def fail(message: str, code: int = EXIT_ERROR) -> NoReturn:
    click.echo(f"memwarden: error: {hidden(message)}", err=True)
    sys.exit(code)


def hidden(message: str) -> str:
    """An error or a warning as printed: a secret a file or folder name in it holds hidden, controls escaped."""
    from memwarden.analysis.secrets.paths import hide_names_in
    from memwarden.text import escape_controls

    return escape_controls(hide_names_in(message))


def guarded(function: Callable | None = None, *, usage_exit: int = EXIT_ERROR):
    """Run a command under the policy: a UsageError or any unexpected error becomes one line and an exit code."""

    def wrap(command: Callable) -> Callable:
        @functools.wraps(command)
        def wrapper(*args, **kwargs):
            from memwarden.errors import UsageError

            try:
                return command(*args, **kwargs)
            except UsageError as error:
                fail(str(error), usage_exit)
            except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException, SystemExit):
                raise
            except BrokenPipeError:
                # The reader went away (`memwarden rules | head`): stop quietly, as a filter does.
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())
                sys.exit(EXIT_ERROR)
            except KeyboardInterrupt:
                click.echo("memwarden: interrupted", err=True)
                sys.exit(EXIT_INTERRUPTED)
            except Exception as error:  # the promise: never a traceback
                if os.environ.get("MEMWARDEN_DEBUG"):
                    raise
                fail(f"internal error: {type(error).__name__}: {error} (set MEMWARDEN_DEBUG=1 for details)")

        return wrapper

    return wrap(function) if function is not None else wrap

"""`memwarden server` (the language server, for editors) and `memwarden mcp` (the MCP server, for agents).

Both speak over stdin and stdout and need the `server` extra (pip install 'memwarden[server]'): without it
they say so in one line, never a traceback. Their modules are imported only when one of them runs.
"""

from __future__ import annotations

import click

from memwarden.cli.exits import guarded
from memwarden.errors import UsageError

EXTRA = "pip install 'memwarden[server]'"


def _load(module: str, package: str):
    import importlib

    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name and error.name.split(".")[0] in (package, "lsprotocol"):
            raise UsageError(f"this command needs {package}: {EXTRA}") from None
        raise


@click.command(name="server")
@click.option("--stdio", is_flag=True, help="Speak over stdin and stdout (the default; editors pass it).")
@guarded
def server(stdio):
    """Run the language server over stdio: diagnostics, quick fixes, hovers and links for memory files in an editor."""
    _load("memwarden.server.lsp", "pygls").start()


@click.command(name="mcp")
@click.option("--root", type=click.Path(file_okay=False, exists=True), metavar="DIR",
              help="The folder relative paths in tool calls start from, and the only one tools read "
                   "[default: the folder it is started in].")
@guarded
def mcp(root):
    """Run the MCP server over stdio: tools an agent calls to check memory before or after it writes it."""
    if root is not None:
        import os

        os.chdir(root)
    _load("memwarden.server.mcp", "mcp").start()

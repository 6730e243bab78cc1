"""The servers and a finding anchored at two files (conflicting-instructions): `memwarden server` gives the other
file's place as the diagnostic's relatedInformation when the client says it shows it, and publishes the finding at
its own file only; `memwarden mcp` names both places."""

from __future__ import annotations

import sys

import pytest

pytest_lsp = pytest.importorskip("pytest_lsp", reason="the server extra is not installed")

from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

from conftest import write_files  # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="function")
# AGENTS.md comes first by path: the finding is there, CLAUDE.md's `npm test` its related place.
FILES = {"CLAUDE.md": "# Project\n\nRun the tests with `npm test`.\n", "AGENTS.md": "Tests: `pnpm test`.\n"}
CONFIG = ClientServerConfig(server_command=[sys.executable, "-m", "memwarden", "server"])


async def started(client: LanguageClient, tmp_path, related_information: bool) -> None:
    client.root = write_files(tmp_path / "ws", FILES)
    shows = types.PublishDiagnosticsClientCapabilities(related_information=related_information)
    await client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(text_document=types.TextDocumentClientCapabilities(
            publish_diagnostics=shows)),
        root_uri=client.root.as_uri(),
    ))


@pytest_lsp.fixture(config=CONFIG)
async def client(lsp_client: LanguageClient, tmp_path):
    await started(lsp_client, tmp_path, related_information=True)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=CONFIG)
async def plain_client(lsp_client: LanguageClient, tmp_path):
    await started(lsp_client, tmp_path, related_information=False)
    yield
    await lsp_client.shutdown_session()


async def opened(client: LanguageClient, relpath: str) -> list[types.Diagnostic]:
    path = client.root / relpath
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=path.as_uri(), language_id="markdown", version=1, text=path.read_text("utf-8"))))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return [d for d in client.diagnostics.get(path.as_uri(), []) if d.code == "MW417"]


async def test_the_other_files_place_is_the_diagnostics_related_information(client: LanguageClient):
    (found,) = await opened(client, "AGENTS.md")
    assert (found.range.start.line, found.range.start.character) == (0, 8)
    (related,) = found.related_information
    assert related.location.uri == (client.root / "CLAUDE.md").as_uri()
    assert (related.location.range.start.line, related.location.range.start.character) == (2, 20)
    assert related.message == "the other value"
    # Opening the other file shows nothing of it there: the finding is its first file's.
    assert await opened(client, "CLAUDE.md") == []


async def test_a_client_that_does_not_show_related_information_gets_none(plain_client: LanguageClient):
    (found,) = await opened(plain_client, "AGENTS.md")
    assert found.related_information is None


async def test_the_mcp_servers_check_of_the_other_files_content_names_both_places(tmp_path):
    pytest.importorskip("mcp", reason="the server extra is not installed")
    from test_mcp_server import call_tools

    root = write_files(tmp_path / "mcp", FILES)
    _, (answer,) = await call_tools(root, [("check_memory", {"path": "CLAUDE.md",
                                                              "content": "Tests: `yarn test`.\n"})])
    assert [(f["code"], f["path"], f["line"], f["related"]) for f in answer["findings"] if f["code"] == "MW417"] == [
        ("MW417", "AGENTS.md", 1, [{"path": "CLAUDE.md", "line": 1, "column": 9, "label": "the other value"}])]

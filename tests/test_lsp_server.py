"""`memwarden server` driven over stdio by a real language client (pytest-lsp): open, change, save, code
actions, hover, definition, inlay hints, a secret in a buffer, a file that is not UTF-8."""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

import pytest

pytest_lsp = pytest.importorskip("pytest_lsp", reason="the server extra is not installed")

from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "claude-code"
TOKEN = "ghp_" + "R4nd0mT0k3nV4lu3AbCdEfGhIjKlMnOpQr" + "12"

pytestmark = pytest.mark.asyncio(loop_scope="function")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "memwarden", "server"]))
async def client(lsp_client: LanguageClient, tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(EXAMPLE, root)
    lsp_client.root = root
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(), root_uri=root.as_uri(),
    ))
    yield
    await lsp_client.shutdown_session()


async def open_file(client: LanguageClient, relpath: str, text: str | None = None) -> str:
    path = client.root / relpath
    uri = path.as_uri()
    if text is None:
        text = path.read_bytes().decode("utf-8", "replace")
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="markdown", version=1, text=text)
    ))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return uri


def codes(client: LanguageClient, uri: str) -> set[str]:
    return {d.code for d in client.diagnostics.get(uri, [])}


async def test_open_change_and_save_publish_the_checks_findings(client: LanguageClient):
    index = await open_file(client, "MEMORY.md")
    broken = [d for d in client.diagnostics[index] if d.code == "MW402"]
    assert len(broken) == 1
    assert broken[0].range.start.line == 3 and broken[0].range.start.character == 18
    assert "broken-index-link" in broken[0].message and broken[0].severity == types.DiagnosticSeverity.Error
    assert broken[0].code_description.href.endswith("rules.md#broken-index-link")

    # An unsaved change: the link now leads to a note that exists, so the finding goes.
    fixed = (client.root / "MEMORY.md").read_text().replace("reference_old_api.md", "project_notes.md")
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=index, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=fixed)],
    ))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert "MW402" not in codes(client, index)

    # Saved: the whole workspace is checked again, and project_notes.md is no orphan any more.
    orphan = (client.root / "project_notes.md").as_uri()
    await open_file(client, "project_notes.md")
    assert "MW405" in codes(client, orphan)
    (client.root / "MEMORY.md").write_text(fixed)
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=index)))
    for _ in range(6):  # the saved file, then each file of the workspace
        await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        if "MW405" not in codes(client, orphan):
            break
    assert "MW405" not in codes(client, orphan)


async def test_code_actions_offer_each_fix_and_fix_all_and_write_nothing(client: LanguageClient):
    path = client.root / "project_release.md"
    before = path.read_bytes()
    uri = await open_file(client, "project_release.md")
    claim = next(d for d in client.diagnostics[uri] if d.code == "MW301")
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=claim.range,
        context=types.CodeActionContext(diagnostics=[claim]),
    ))
    quick = [a for a in actions if a.kind == types.CodeActionKind.QuickFix]
    assert quick and "negative-claim-without-expiry" in quick[0].title
    edits = quick[0].edit.document_changes[0].edits
    assert any("expires" in e.new_text for e in edits)
    fix_all = [a for a in actions if a.kind == types.CodeActionKind.SourceFixAll]
    assert len(fix_all) == 1 and "expires" in fix_all[0].edit.document_changes[-1].edits[0].new_text
    assert path.read_bytes() == before  # offered, not applied


async def test_hover_shows_the_rule_doc_the_link_target_and_the_budget(client: LanguageClient):
    index = await open_file(client, "MEMORY.md")
    on_finding = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=index), position=types.Position(line=3, character=20)))
    assert "broken-index-link" in on_finding.contents.value and "Why" in on_finding.contents.value
    on_link = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=index), position=types.Position(line=1, character=5)))
    assert "Integration tests must hit a real database, not mocks" in on_link.contents.value
    assert "Startup index budget" in on_link.contents.value


async def test_definition_follows_index_links_and_wikilinks(client: LanguageClient):
    index = await open_file(client, "MEMORY.md")
    found = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=index), position=types.Position(line=1, character=5)))
    assert found.uri == (client.root / "feedback_testing.md").as_uri()
    note = client.root / "user_role.md"
    note.write_text(note.read_text() + "\nSee [[testing]] for the database rule.\n")
    uri = await open_file(client, "user_role.md")
    line = note.read_text().splitlines().index("See [[testing]] for the database rule.")
    found = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=8)))
    assert found.uri == (client.root / "feedback_testing.md").as_uri()


async def test_inlay_hint_marks_where_the_agent_stops_reading(client: LanguageClient):
    lines = [f"- [Note {n}](note_{n}.md) — what note {n} holds, in a long enough hook line" for n in range(260)]
    (client.root / "MEMORY.md").write_text("\n".join(lines) + "\n")
    index = await open_file(client, "MEMORY.md")
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(
        text_document=types.TextDocumentIdentifier(uri=index),
        range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=300, character=0))))
    assert len(hints) == 1 and "stops reading" in hints[0].label
    assert hints[0].position.line == 200  # Claude Code reads the first 200 lines


async def test_a_secret_in_a_buffer_never_reaches_the_client(client: LanguageClient):
    text = (
        "---\nname: deploy\ndescription: the deploy key is " + TOKEN + "\ntype: projects\n---\n\n"
        "Deploy with the token " + TOKEN + " which does not support rotation.\n"
    )
    (client.root / "project_deploy.md").write_text(text)
    index_text = (client.root / "MEMORY.md").read_text() + "- [Deploy](project_deploy.md) — how we deploy\n"
    (client.root / "MEMORY.md").write_text(index_text)
    uri = await open_file(client, "project_deploy.md")
    assert "MW701" in codes(client, uri)
    shown = [d.message for d in client.diagnostics[uri]]
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=8, character=0)),
        context=types.CodeActionContext(diagnostics=[])))
    shown += [a.title for a in actions]
    for line in range(8):
        hover = await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=1)))
        shown += [hover.contents.value] if hover else []
    index = await open_file(client, "MEMORY.md")
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=index), position=types.Position(line=4, character=4)))
    shown.append(hover.contents.value)
    assert len(shown) > 3 and any("[SECRET" in s or "***" in s for s in shown)
    assert not [s for s in shown if "R4nd0mT0k3n" in s]


async def test_a_file_that_is_not_utf8_gets_a_diagnostic_and_the_server_lives_on(client: LanguageClient):
    (client.root / "project_latin1.md").write_bytes(
        "---\nname: caf\xe9\ndescription: caf\xe9 notes\ntype: project\n---\n\nThe caf\xe9 opens at nine.\n".encode("latin-1"))
    uri = await open_file(client, "project_latin1.md")
    assert client.diagnostics[uri], "a file that does not decode must say so"
    half_typed = await open_file(client, "project_half.md", "---\nname: half\ndescription: [unclosed\n")
    assert client.diagnostics[half_typed]
    index = await open_file(client, "MEMORY.md")
    assert "MW402" in codes(client, index)  # still answering


async def test_a_save_in_a_shelf_folder_rechecks_the_whole_workspace(client: LanguageClient):
    root = client.root / "gish"  # below the folder the editor opened
    shutil.copytree(EXAMPLE.parent / "ghost-in-shell", root, ignore=shutil.ignore_patterns(".memwarden_cache"))
    client.root = root
    note = await open_file(client, "memory/knowledge/references/export-tool.md")
    index = (root / "MEMORY.md").as_uri()
    assert index not in client.diagnostics  # never opened, nothing published for it yet
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=note)))
    for _ in range(12):
        if index in client.diagnostics:
            break
        try:  # a server that never checks the index publishes nothing more: fail, do not hang
            await asyncio.wait_for(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 60)
        except asyncio.TimeoutError:
            break
    assert "MW402" in codes(client, index)  # the index's broken link, found by the save's whole-workspace check


class Arrivals(dict):
    """The client's diagnostics by file, and the order they arrived in."""

    def __init__(self, *args):
        super().__init__(*args)
        self.order: list[tuple[str, list]] = []

    def __setitem__(self, uri, diagnostics):
        self.order.append((uri, list(diagnostics)))
        super().__setitem__(uri, diagnostics)


async def arrival(client: LanguageClient, until, seconds: float = 300):
    """Wait (polling, never hanging) until until() holds; its value, or None after `seconds`."""
    for _ in range(int(seconds * 20)):
        found = until()
        if found:
            return found
        await asyncio.sleep(0.05)
    return None


async def test_a_keystroke_is_answered_while_a_saves_whole_workspace_check_runs(client: LanguageClient):
    # Enough notes that checking the whole workspace again, every rule on, takes seconds, not milliseconds.
    index = client.root / "MEMORY.md"
    lines = [index.read_text()]
    for n in range(360):
        (client.root / f"project_topic_{n}.md").write_text(
            f"---\nname: topic-{n}\ndescription: topic {n} of the deploy pipeline\ntype: project\n---\n\n"
            f"Topic {n}: the deploy pipeline runs step {n} after the build and before the release of service {n}.\n")
        lines.append(f"- [Topic {n}](project_topic_{n}.md) — step {n} of the pipeline\n")
    index.write_text("".join(lines))
    uri = await open_file(client, "project_release.md")
    client.diagnostics = arrivals = Arrivals(client.diagnostics)
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    assert await arrival(client, lambda: any(u == uri for u, _ in arrivals.order))  # the saved file's own check
    saved_file = len(arrivals.order)

    text = (client.root / "project_release.md").read_text() + "\nThe staging cluster does not support IPv6.\n"
    typed_line = len(text.splitlines()) - 1
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))

    def typed_answered():
        for position, (u, diagnostics) in enumerate(arrivals.order[saved_file:]):
            if u == uri and any(d.code == "MW301" and d.range.start.line == typed_line for d in diagnostics):
                return position + 1
        return None

    answered_at = await arrival(client, typed_answered)
    assert answered_at, "the keystroke was never answered"
    before_it = {u for u, _ in arrivals.order[saved_file:saved_file + answered_at - 1]}
    assert before_it <= {uri}, "the keystroke waited for the whole workspace's check"
    # The whole workspace's check still comes, after.
    assert await arrival(client, lambda: any(u != uri for u, _ in arrivals.order[saved_file:]))


def server_peak_memory() -> int:
    """The peak resident memory, in bytes, of the `memwarden server` process this test started."""
    import os

    peak = 0
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            command = (status.parent / "cmdline").read_bytes().split(b"\0")
            fields = dict(line.split(":", 1) for line in status.read_text().splitlines() if ":" in line)
        except OSError:
            continue
        if b"memwarden" in command and b"server" in command and int(fields["PPid"]) == os.getpid():
            peak = max(peak, int(fields["VmHWM"].split()[0]) * 1024)
    return peak


async def test_a_50_mb_log_gets_a_too_big_diagnostic_in_bounded_time_and_memory(client: LanguageClient):
    root = client.root.parent / "gish"
    shutil.copytree(EXAMPLE.parent / "ghost-in-shell", root, ignore=shutil.ignore_patterns(".memwarden_cache"))
    client.root = root
    log = root / "memory" / "episodic.jsonl"
    episode = log.read_text().splitlines()[0]
    text = "\n".join([episode] * (50 * 1024 * 1024 // (len(episode) + 1))) + "\n"
    log.write_text(text)
    started = asyncio.get_running_loop().time()
    uri = await open_file(client, "memory/episodic.jsonl", text)
    (notice,) = client.diagnostics[uri]
    assert "too big" in notice.message and "memwarden check" in notice.message
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text + episode + "\n")]))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert "too big" in client.diagnostics[uri][0].message
    index = await open_file(client, "MEMORY.md")  # still answering, and at once
    assert index in client.diagnostics
    assert asyncio.get_running_loop().time() - started < 120
    assert server_peak_memory() < 1024 * 1024 * 1024


async def test_a_save_outside_the_opened_folder_walks_nothing_there(client: LanguageClient, tmp_path):
    outside = tmp_path / "outside"
    shutil.copytree(EXAMPLE, outside)  # a memory of its own, with a broken index link
    (client.root / "linked").symlink_to(outside)
    client.diagnostics = arrivals = Arrivals(client.diagnostics)
    opened = set()
    for relpath in ("../outside/user_role.md", "linked/user_role.md"):  # by path, and through a symlink out
        note = await open_file(client, relpath)
        opened.add(note)
        client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=note)))
    inside = await open_file(client, "user_role.md")
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=inside)))
    # The checks run in turn: once the opened folder's own whole check has answered, any walk outside would have too.
    inside_index = (client.root / "MEMORY.md").as_uri()
    assert await arrival(client, lambda: inside_index in arrivals)
    published = {uri for uri, _ in arrivals.order}
    assert not {uri for uri in published if "/outside/" in uri or "/linked/" in uri} - opened


async def test_an_untitled_buffer_is_not_checked_and_the_server_lives_on(client: LanguageClient):
    client.diagnostics = arrivals = Arrivals(client.diagnostics)
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri="untitled:Untitled-1", language_id="markdown", version=1, text="---\nname: [half\n")))
    index = await open_file(client, "MEMORY.md")
    assert "MW402" in codes(client, index)
    assert "untitled:Untitled-1" not in {uri for uri, _ in arrivals.order}


async def test_a_storm_of_watched_file_changes_is_weathered_and_new_files_are_seen(client: LanguageClient):
    note = client.root / "user_role.md"
    note.write_text(note.read_text() + "\nSee [[project_new]] for the new rule.\n")
    uri = await open_file(client, "user_role.md")  # the workspace's files are listed, project_new.md not yet
    (client.root / "project_new.md").write_text(
        "---\nname: new\ndescription: a note written outside the editor\ntype: project\n---\n\nNew.\n")
    created = types.FileEvent(uri=(client.root / "project_new.md").as_uri(), type=types.FileChangeType.Created)
    started = asyncio.get_running_loop().time()
    for _ in range(2000):  # a branch checked out: thousands of events
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[created] * 20))
    line = note.read_text().splitlines().index("See [[project_new]] for the new rule.")
    found = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=8)))
    assert asyncio.get_running_loop().time() - started < 60
    assert found is not None and found.uri == (client.root / "project_new.md").as_uri()


async def test_a_code_action_edits_the_editors_text_at_its_version_not_the_file_changed_on_disk(client: LanguageClient):
    path = client.root / "project_release.md"
    buffer = path.read_text()
    uri = await open_file(client, "project_release.md")
    claim = next(d for d in client.diagnostics[uri] if d.code == "MW301")
    path.write_text("# Rewritten on disk meanwhile\n\n" + buffer.replace("---\n", "", 1))
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=claim.range,
        context=types.CodeActionContext(diagnostics=[claim])))
    assert actions
    for action in actions:
        for change in action.edit.document_changes:
            assert change.text_document.uri == uri and change.text_document.version == 1  # stale: the editor refuses
    fix_all = next(a for a in actions if a.kind == types.CodeActionKind.SourceFixAll).edit.document_changes[0].edits[0]
    assert fix_all.new_text.startswith("---\n") and "expires" in fix_all.new_text  # made from the buffer
    assert "Rewritten on disk" not in fix_all.new_text


async def test_a_fifo_named_like_a_note_never_blocks_the_server(client: LanguageClient):
    import os

    os.mkfifo(client.root / "project_pipe.md")
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=(client.root / "project_pipe.md").as_uri(), language_id="markdown", version=1, text="")))
    index = (client.root / "MEMORY.md").as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=index, language_id="markdown", version=1, text=(client.root / "MEMORY.md").read_text())))
    # A server blocked reading the FIFO answers nothing more: fail, do not hang.
    assert await arrival(client, lambda: "MW402" in codes(client, index), seconds=120)


async def test_no_code_action_edits_a_file_whose_real_path_leads_out_of_the_opened_folder(client: LanguageClient, tmp_path):
    root = client.root / "gish"
    shutil.copytree(EXAMPLE.parent / "ghost-in-shell", root, ignore=shutil.ignore_patterns(".memwarden_cache"))
    elsewhere = tmp_path / "elsewhere.md"
    elsewhere.write_text("# Overflow\n")
    shelf = root / "memory" / "knowledge" / "INDEX_overflow.md"  # where the index's shelving fix moves entries
    shelf.symlink_to(elsewhere)
    index = root / "MEMORY.md"
    index.write_text(index.read_text() + "".join(
        f"- [Note {n}](memory/knowledge/references/export-tool.md) — what note {n} holds, a long enough hook\n"
        for n in range(400)))
    client.root = root
    uri = await open_file(client, "MEMORY.md")
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=500, character=0)),
        context=types.CodeActionContext(diagnostics=[])))
    edited = {change.text_document.uri for action in actions for change in action.edit.document_changes
              if isinstance(change, types.TextDocumentEdit)}
    assert shelf.as_uri() not in edited
    # The same fix is offered when the shelf is a file of the workspace.
    shelf.unlink()
    shelf.write_text("# Overflow\n")
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=500, character=0)),
        context=types.CodeActionContext(diagnostics=[])))
    assert shelf.as_uri() in {change.text_document.uri for action in actions for change in action.edit.document_changes
                              if isinstance(change, types.TextDocumentEdit)}


async def test_a_note_whose_name_holds_a_secret_is_never_named_in_a_message_or_hover(client: LanguageClient):
    note = (client.root / "project_release.md").read_text()
    (client.root / f"project_{TOKEN}.md").write_text(note.replace("name: project-release", "name: release-copy"))
    index_path = client.root / "MEMORY.md"
    index_path.write_text(index_path.read_text() + f"- [Copy](project_{TOKEN}.md) — the release copy\n")
    index = await open_file(client, "MEMORY.md")
    release = await open_file(client, "project_release.md")
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=release)))
    assert await arrival(client, lambda: any("near-duplicate" in d.message for d in client.diagnostics.get(release, [])))
    shown = [d.message for diagnostics in client.diagnostics.values() for d in diagnostics]
    line = index_path.read_text().splitlines().index(f"- [Copy](project_{TOKEN}.md) — the release copy")
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=index), position=types.Position(line=line, character=4)))
    shown.append(hover.contents.value)
    assert any("project_" in s for s in shown) and not [s for s in shown if "R4nd0mT0k3n" in s]

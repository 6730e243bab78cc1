"""The language server's answer to a keystroke: a change to one note, to its diagnostics, over stdio.

    python bench/generate.py /tmp/ws10 --scale 10
    python bench/lsp_latency.py /tmp/ws10 [--changes 30]

Starts `memwarden server` as an editor does (a real client, pygls's, over stdin and stdout), opens a
note of the workspace, then changes it --changes times (a sentence typed at its end, each change a new
version) and times each change from the moment the client sends it to the moment the diagnostics of that
version arrive. Prints the median, the 90th percentile and the worst; also the first diagnostics after
opening (every rule, the workspace rules too) and after a save (the whole workspace checked again), and
--during changes typed right after the save, while the whole workspace is being checked again (a change
must not wait behind that check).
--preview runs every rule (the default is the stable ones, as `memwarden check`).
Target: a change to one note in a 10x workspace answered in under 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient


async def measure(root: Path, changes: int, during: int) -> dict:
    note = sorted((root / "memory/knowledge/projects").glob("*.md"))[0]
    uri = note.as_uri()
    text = note.read_text(encoding="utf-8")
    client = LanguageClient("bench", "1")
    arrived: dict[str, asyncio.Future] = {}

    awaited_version: list[int | None] = [None]

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(ls, params: types.PublishDiagnosticsParams):
        if params.uri == uri and None not in (params.version, awaited_version[0]) \
                and params.version < awaited_version[0]:
            return  # an older version's diagnostics (a server that says which version they are of)
        waiting = arrived.pop(params.uri, None) or (arrived.pop("another", None) if params.uri != uri else None)
        if waiting is not None:  # (the handler may run off the loop's thread)
            waiting.get_loop().call_soon_threadsafe(settle, waiting, len(params.diagnostics))

    def settle(waiting: asyncio.Future, count: int) -> None:
        if not waiting.done():
            waiting.set_result(count)

    def expect(target: str) -> asyncio.Future:
        arrived[target] = asyncio.get_running_loop().create_future()
        return arrived[target]

    await client.start_io(sys.executable, "-m", "memwarden", "server", cwd=str(root))
    await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities(),
                                                         root_uri=root.as_uri()))
    client.initialized(types.InitializedParams())

    started = time.perf_counter()
    waiting = expect(uri)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="markdown", version=1, text=text)))
    found = await waiting
    opened = time.perf_counter() - started

    version = 1

    async def type_a_line() -> tuple[float, int]:
        nonlocal text, version
        version += 1
        text += f"\nTyped line {version}: the deploy step does not support retries."
        awaited_version[0] = version
        waiting = expect(uri)
        started = time.perf_counter()
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
        count = await waiting
        return time.perf_counter() - started, count

    times = []
    for _ in range(changes):
        took, last = await type_a_line()
        times.append(took)

    note.write_text(text, encoding="utf-8")
    awaited_version[0] = None
    waiting = expect(uri)
    started = time.perf_counter()
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    await waiting
    saved_file = time.perf_counter() - started
    # The whole workspace follows (the server publishes for another file too); type on meanwhile.
    another = expect("another")
    during_save = []
    for _ in range(during):
        took, _count = await type_a_line()
        during_save.append(took)
    awaited_version[0] = None
    try:  # (with no finding in any other file nothing more is published: give up after a while)
        await asyncio.wait_for(another, 300)
        saved_workspace = time.perf_counter() - started
    except asyncio.TimeoutError:
        saved_workspace = None

    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    times.sort()
    return {
        "note": note.relative_to(root).as_posix(), "findings_on_open": found, "open": opened,
        "median": statistics.median(times), "p90": times[int(0.9 * (len(times) - 1))], "worst": times[-1],
        "findings_after_changes": last, "save_file": saved_file, "save_workspace": saved_workspace, "changes": len(times),
        "during_save": during_save,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("workspace", type=Path)
    parser.add_argument("--changes", type=int, default=30)
    parser.add_argument("--during", type=int, default=5, help="Changes typed while a save's workspace check runs.")
    parser.add_argument("--preview", action="store_true", help="Every rule, preview ones too (MEMWARDEN_PREVIEW=1).")
    args = parser.parse_args()
    if args.preview:
        os.environ["MEMWARDEN_PREVIEW"] = "1"  # the server inherits it
    result = asyncio.run(measure(args.workspace.resolve(), args.changes, args.during))
    print(f"note: {result['note']} ({result['findings_on_open']} findings on open)")
    print(f"open (every rule, workspace rules too): {result['open'] * 1000:.0f} ms")
    print(f"change -> diagnostics over {result['changes']} changes: median {result['median'] * 1000:.0f} ms, "
          f"p90 {result['p90'] * 1000:.0f} ms, worst {result['worst'] * 1000:.0f} ms (target < 100 ms); "
          f"{result['findings_after_changes']} findings after the last")
    whole = result["save_workspace"]
    print(f"save: the file {result['save_file'] * 1000:.0f} ms, the whole workspace "
          + (f"{whole:.1f} s" if whole is not None else "(no other file has findings: not seen)"))
    during = result["during_save"]
    if during:
        print(f"change -> diagnostics while the save's workspace check runs, {len(during)} changes: "
              + ", ".join(f"{took * 1000:.0f}" for took in during) + " ms")


if __name__ == "__main__":
    main()

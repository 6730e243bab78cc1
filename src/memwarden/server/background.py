"""The language server's slow checks (every rule on a file as it opens or is saved, a save's whole-workspace
check) in a process of their own, one at a time: a keystroke's check in the server never waits behind one,
nor shares the interpreter's lock with it, and the machine's other core runs it.

The process is started the way that is safe from a threaded server (spawn, not fork: a forked child can
inherit a lock another thread held and hang), once, and started again if it dies. A check asked for with
a `still_wanted` that has turned false by the time its turn comes is skipped: the text was typed over, or
a later save asked for the same workspace again.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool


class Background:
    def __init__(self) -> None:
        self._turns = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memwarden-background")
        self._process: ProcessPoolExecutor | None = None

    async def run(self, still_wanted, function, *args):
        """function(*args) in the checking process, in turn; None if still_wanted() is false when its turn comes.
        function must be importable by name (a module-level function) and its answer picklable."""
        def in_turn():
            if not still_wanted():
                return None
            try:
                return self._pool().submit(function, *args).result()
            except BrokenProcessPool:  # killed (out of memory?): a new process answers the next check
                self._process = None
                raise RuntimeError("the checking process stopped before it answered") from None

        return await asyncio.get_running_loop().run_in_executor(self._turns, in_turn)

    def _pool(self) -> ProcessPoolExecutor:
        if self._process is None:
            import multiprocessing

            self._process = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        return self._process

    def stop(self) -> None:
        """End the checking process now, a check under way too (an editor closing must not wait minutes)."""
        process, self._process = self._process, None
        if process is not None:
            for child in list(getattr(process, "_processes", {}).values()):
                child.kill()
            process.shutdown(wait=False, cancel_futures=True)
        self._turns.shutdown(wait=False, cancel_futures=True)

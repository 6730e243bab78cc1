"""Checking a big workspace's files in worker processes, in chunks of about equal bytes.

This module knows nothing of rules: the engine hands it a module-level worker
function (processes pickle functions by reference) and a spec the worker can
rebuild its workspace from.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

# Below this many files a process pool costs more than it saves.
PARALLEL_MIN_FILES = 300
MAX_JOBS = 8
CHUNKS_PER_JOB = 4  # more chunks than workers, so one slow chunk does not hold up the pool


def jobs_for(files: int, big_log: bool = False) -> int:
    """How many worker processes to check this many files with (``MEMWARDEN_JOBS`` overrides); a big log
    split in line ranges is worth them whatever the number of files."""
    configured = os.environ.get("MEMWARDEN_JOBS")
    if configured and configured.isdigit():
        return max(1, int(configured))
    if files < PARALLEL_MIN_FILES and not big_log:
        return 1
    return min(os.cpu_count() or 1, MAX_JOBS)


class no_progress:
    """The progress context when nobody watches: advancing it does nothing."""

    def __enter__(self):
        return lambda n: None

    def __exit__(self, *exc):
        return False


def unit_order(unit) -> tuple:
    """Units are files (a path) or parts of one (an object with ``relpath``, ``start`` and ``size``): by path, then start."""
    return (unit, 0) if isinstance(unit, str) else (unit.relpath, unit.start)


def _size(root: Path, unit) -> int:
    if not isinstance(unit, str):
        return unit.size
    try:
        return os.path.getsize(root / unit)
    except OSError:
        return 0


class given:
    """A progress context around an ``advance`` function someone else opened."""

    def __init__(self, advance):
        self.advance = advance

    def __enter__(self):
        return self.advance

    def __exit__(self, *exc):
        return False


def balanced_chunks(root: Path, units: list, count: int) -> list[list]:
    """Split units of work into chunks of about equal bytes, biggest first, so no worker idles at the end."""
    sizes = sorted(((_size(root, unit), unit) for unit in units), key=lambda item: (item[0], unit_order(item[1])), reverse=True)
    chunks: list[list] = [[] for _ in range(max(1, min(count, len(units))))]
    loads = [0] * len(chunks)
    for size, unit in sizes:
        smallest = loads.index(min(loads))
        chunks[smallest].append(unit)
        loads[smallest] += size + 1
    return [chunk for chunk in chunks if chunk]


def run_in_pool(worker: Callable, spec, root: Path, units: list, jobs: int, progress=None, meanwhile=None):
    """``worker(spec, chunk)`` on balanced chunks of units (files, or parts of one) in ``jobs`` processes; their
    results, concatenated. With ``meanwhile``: (those results, what ``meanwhile()`` returned, run in this process
    while the workers work)."""
    import concurrent.futures
    import multiprocessing

    chunks = balanced_chunks(root, units, jobs * CHUNKS_PER_JOB)
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    results: list = []
    with concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        with (progress(len(units)) if progress else no_progress()) as advance:
            futures = {pool.submit(worker, spec, chunk): len(chunk) for chunk in chunks}
            here = meanwhile() if meanwhile is not None else None
            for future in concurrent.futures.as_completed(futures):
                results.extend(future.result())
                advance(futures[future])
    return results if meanwhile is None else (results, here)

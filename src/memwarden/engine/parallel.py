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


def jobs_for(files: int) -> int:
    """How many worker processes to check this many files with (``MEMWARDEN_JOBS`` overrides)."""
    configured = os.environ.get("MEMWARDEN_JOBS")
    if configured and configured.isdigit():
        return max(1, int(configured))
    if files < PARALLEL_MIN_FILES:
        return 1
    return min(os.cpu_count() or 1, MAX_JOBS)


class no_progress:
    """The progress context when nobody watches: advancing it does nothing."""

    def __enter__(self):
        return lambda n: None

    def __exit__(self, *exc):
        return False


def balanced_chunks(root: Path, relpaths: list[str], count: int) -> list[list[str]]:
    """Split files into chunks of about equal bytes, biggest first, so no worker idles at the end."""
    sizes = []
    for relpath in relpaths:
        try:
            sizes.append((os.path.getsize(root / relpath), relpath))
        except OSError:
            sizes.append((0, relpath))
    chunks: list[list[str]] = [[] for _ in range(max(1, min(count, len(relpaths))))]
    loads = [0] * len(chunks)
    for size, relpath in sorted(sizes, reverse=True):
        smallest = loads.index(min(loads))
        chunks[smallest].append(relpath)
        loads[smallest] += size + 1
    return [chunk for chunk in chunks if chunk]


def run_in_pool(worker: Callable, spec, root: Path, relpaths: list[str], jobs: int, progress=None) -> list:
    """``worker(spec, chunk)`` on balanced chunks of relpaths in ``jobs`` processes; their results, concatenated."""
    import concurrent.futures
    import multiprocessing

    chunks = balanced_chunks(root, relpaths, jobs * CHUNKS_PER_JOB)
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    results: list = []
    with concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        with (progress(len(relpaths)) if progress else no_progress()) as advance:
            futures = {pool.submit(worker, spec, chunk): len(chunk) for chunk in chunks}
            for future in concurrent.futures.as_completed(futures):
                results.extend(future.result())
                advance(futures[future])
    return results

"""Worker processes for the corpus passes that split by gzip member (GloVe's counting).

Forked, not spawned: a Snakemake ``script:`` runs as ``__main__`` without a guard, and a
spawned worker would import it again and run the job inside itself. The workers call
only plain numba functions (no ``parallel=True`` region), so they need no threading layer
from the parent. Where fork is unavailable the pool has one process and runs in this one.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator
from contextlib import contextmanager


class _InProcess:
    """The part of ``multiprocessing.Pool`` used here, run in the calling process."""

    def __init__(self, initializer: Callable | None, initargs: tuple) -> None:
        if initializer is not None:
            initializer(*initargs)

    def imap_unordered(self, func, iterable):
        return map(func, iterable)


@contextmanager
def process_pool(
    processes: int, initializer: Callable | None = None, initargs: tuple = ()
) -> Iterator:
    """A pool of ``processes`` forked workers (in-process when 1 or without fork)."""
    if processes <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        yield _InProcess(initializer, initargs)
        return
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(processes, initializer, initargs, maxtasksperchild=1) as pool:
        yield pool

"""Thread control for the compiled kernels (the L-BFGS solver, GloVe) and for BLAS: a
job runs on the threads its rule asks for, and no result depends on how many."""

from __future__ import annotations

from contextlib import contextmanager

import numba


@contextmanager
def numba_threads(threads: int | None):
    """Run the compiled kernels on at most ``threads`` threads (None: leave the current
    setting), restoring the previous setting on exit."""
    previous = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))
    try:
        yield
    finally:
        numba.set_num_threads(previous)


@contextmanager
def limit_threads(threads: int):
    """Cap the threads of BLAS and of the compiled kernels at ``threads`` (a rule's
    ``threads:``), restoring the previous limits on exit."""
    from threadpoolctl import threadpool_limits

    with numba_threads(threads), threadpool_limits(int(threads)):
        yield

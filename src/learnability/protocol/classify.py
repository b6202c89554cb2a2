"""The linear classifier: L2-regularised logistic regression (the paper's sigmoid unit
trained with cross-entropy), intercept unpenalised, fitted to its optimum.

The objective is scikit-learn's ``LogisticRegression(penalty="l2", C=C)``:
``0.5 * ||w||^2 + C * sum_i log(1 + exp(-s_i (x_i . w + b)))`` with s_i = +-1.

Solvers:

- ``batched`` (default): L-BFGS to a gradient below ``tol`` (1e-6), which puts the
  coefficients within about 1e-6 (relative) of the exact optimum, for a whole batch of
  problems per call. It has three backends that run the same algorithm:

  - ``numba`` (the default on ``device: cpu``): compiled, one problem per thread at a time,
    each problem's rows kept in cache for its whole solve (:mod:`learnability.protocol.lbfgs`);
  - ``torch`` (any other ``device``, e.g. ``cuda``) and ``numpy``: the problems of a
    chunk stacked into tensors with one shared loop (:mod:`learnability.protocol.lbfgs_stacked`).

This module only dispatches: it picks the solver and the backend, centres the rows and
reports progress. The L-BFGS settings (tolerance, memory, the most steps) are
:mod:`learnability.protocol.lbfgs`'s.

- ``reference``: scikit-learn's Newton-Cholesky solver with a tight tolerance, one fit at
  a time, kept so that anyone can rerun the equivalence check.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import numba
import numpy as np

from learnability.progress import Progress
from learnability.protocol.lbfgs import MAX_STEPS, MEMORY, TOL, solve_rows, warn_unconverged
from learnability.protocol.lbfgs_stacked import (
    DEFAULT_CHUNK_BYTES,
    backend_ops,
    chunk_size,
    lbfgs_batched,
    resolve_backend,
)

log = logging.getLogger(__name__)

SOLVERS = ("batched", "reference")
# fits per compiled call: enough for every thread, few enough for a progress line
PROGRESS_BLOCK = 512
MIN_FITS_PER_THREAD = 64
PROGRESS_SECONDS = 10.0

# set by quiet_fits(): fit_many logs no progress of its own
_QUIET: ContextVar[bool] = ContextVar("quiet_fits", default=False)


@contextmanager
def quiet_fits() -> Iterator[None]:
    """Within it, :func:`fit_many` logs no progress of its own: an analysis that makes many
    short calls (score() over hundreds of lists, the entanglement over every pair of
    them) logs one progress for its whole work instead of a line per call (a 300-list
    dictionary once printed 94,503 of them)."""
    token = _QUIET.set(True)
    try:
        yield
    finally:
        _QUIET.reset(token)


@dataclass(frozen=True)
class Fit:
    """How every classifier of a run is fitted, in one place: the inverse L2 strength
    ``C``, the solver, its tolerance, the stacked backends' chunk size and the device.
    The protocol (:class:`learnability.protocol.evaluate.Protocol`), the codelength, the nulls, the
    sweeps and the API all fit through one, so a setting cannot differ between them."""

    C: float
    solver: str = "batched"
    tol: float = TOL
    chunk_bytes: int = DEFAULT_CHUNK_BYTES
    device: str = "cpu"

    def run(
        self,
        vectors: np.ndarray,
        train_idx: np.ndarray,
        train_y: np.ndarray,
        *,
        center: bool | np.ndarray = True,
    ) -> np.ndarray:
        """:func:`fit_many` with these settings."""
        return fit_many(
            vectors, train_idx, train_y, self.C, solver=self.solver, tol=self.tol,
            chunk_bytes=self.chunk_bytes, device=self.device, center=center,
        )  # fmt: skip


def fit_reference(x_train: np.ndarray, y_train: np.ndarray, C: float) -> np.ndarray:
    """One fit with scikit-learn's Newton-Cholesky to a tight tolerance: (w..., b)."""
    # imported here: scikit-learn takes about a second to import, and only this solver,
    # which no workflow job uses by default, needs it
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(C=C, solver="newton-cholesky", tol=1e-10, max_iter=500)
    model.fit(np.asarray(x_train, dtype=np.float64), y_train)
    return np.r_[model.coef_[0], model.intercept_[0]]


def fit_many(
    vectors: np.ndarray,
    train_idx: np.ndarray,
    train_y: np.ndarray,
    C: float,
    *,
    solver: str = "batched",
    tol: float = TOL,
    chunk_bytes: int = DEFAULT_CHUNK_BYTES,
    stats: dict | None = None,
    device: str = "cpu",
    backend: str | None = None,
    threads: int | None = None,
    center: bool | np.ndarray = True,
) -> np.ndarray:
    """Fit one classifier per row of ``train_idx`` (rows of ``vectors``) and return the
    stacked (w, b) as an (iterations, d + 1) array. ``stats``, if given, accumulates the
    number of fits and of L-BFGS iterations (for the benchmark's FLOP count). ``threads``
    caps the compiled backend's threads; no result depends on it.

    ``center`` solves each problem on rows centred at the mean of the training rows of
    the first few problems (:func:`centre_of`): with an unpenalised intercept that is the
    same model (w . (x - mu) + b' = w . x + b), and trained embeddings share a large
    common direction (word2vec's mean vector is most of each row's length) that slows
    L-BFGS: on the sample's word2vec it cut the iterations per fit by a third. An array
    is the centre itself: a job that fits its problems in batches passes the centre of
    its first batch, so that the batches give what one call would."""
    if solver not in SOLVERS:
        raise ValueError(f"unknown solver {solver!r}; use one of {SOLVERS}")
    n_fits, n = train_idx.shape
    d = vectors.shape[1]
    if solver == "reference":
        out = np.empty((n_fits, d + 1))
        for i in range(n_fits):
            out[i] = fit_reference(vectors[train_idx[i]], train_y[i], C)
        return out
    backend = resolve_backend(device, backend)
    if isinstance(center, np.ndarray):
        mu = np.asarray(center, dtype=np.float64)
    else:
        mu = centre_of(vectors, train_idx) if center else np.zeros(d)
    if backend == "numba":
        out = np.empty((n_fits, d + 1))
        quiet = _QUIET.get()
        progress = Progress("fits", n_fits, unit="fits", every=PROGRESS_SECONDS, logger=log)
        n_bad = 0
        # Blocks only so that the log can show progress: problems are independent, so the
        # results are those of one call.
        # enough problems per thread that a block's last ones leave few threads idle
        block = max(PROGRESS_BLOCK, MIN_FITS_PER_THREAD * (threads or numba.get_num_threads()))
        for start in range(0, n_fits, block):
            stop = min(start + block, n_fits)
            out[start:stop], iters, converged = solve_rows(
                vectors,
                train_idx[start:stop],
                train_y[start:stop],
                C,
                tol=tol,
                memory=MEMORY,
                max_steps=MAX_STEPS,
                threads=threads,
                mu=mu,
            )
            n_bad += int((~converged).sum())
            _count(stats, iters)
            if not quiet:
                progress.update(stop - start)
        if not quiet:
            progress.finish()
        warn_unconverged(n_bad, n_fits, tol)
        return out
    out = np.empty((n_fits, d + 1))
    ops = backend_ops(device, backend)
    step = chunk_size(n, d, chunk_bytes)
    for start in range(0, n_fits, step):
        idx = train_idx[start : start + step]
        X = np.empty((idx.shape[0], n, d + 1))
        X[:, :, :d] = vectors[idx]
        X[:, :, :d] -= mu
        X[:, :, d] = 1.0
        out[start : start + step], iters, _ = lbfgs_batched(
            X, train_y[start : start + step], C, tol=tol, ops=ops
        )
        _count(stats, iters)
    out[:, d] -= out[:, :d] @ mu
    return out


# problems whose training rows give the centre: enough rows that the common direction is
# removed, few enough that no job reads more than a few thousand rows for it
CENTRE_PROBLEMS = 16


def centre_of(vectors: np.ndarray, train_idx: np.ndarray) -> np.ndarray:
    """The mean of the distinct training rows of the first ``CENTRE_PROBLEMS`` problems
    (float64): a centre that depends only on the problems, not on threads or blocks."""
    rows = np.unique(train_idx[:CENTRE_PROBLEMS])
    return np.asarray(vectors[rows], dtype=np.float64).mean(axis=0)


def _count(stats: dict | None, iters: np.ndarray) -> None:
    if stats is not None:
        stats["fits"] = stats.get("fits", 0) + len(iters)
        stats["iterations"] = stats.get("iterations", 0) + int(iters.sum())


def fit_scores(
    x_train: np.ndarray, y_train: np.ndarray, x_test: np.ndarray, C: float
) -> np.ndarray:
    """Fit one problem (exactly) and return decision values (logits) for x_test."""
    x_train = np.asarray(x_train)
    idx = np.arange(len(x_train))[None]
    w = fit_many(x_train, idx, np.asarray(y_train, dtype=np.float64)[None], C)
    return np.asarray(x_test, dtype=np.float64) @ w[0, :-1] + w[0, -1]

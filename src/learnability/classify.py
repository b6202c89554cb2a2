"""The linear classifier: L2-regularised logistic regression (the paper's sigmoid unit
trained with cross-entropy), intercept unpenalised, fitted to its optimum.

The objective is scikit-learn's ``LogisticRegression(penalty="l2", C=C)``:
``0.5 * ||w||^2 + C * sum_i log(1 + exp(-s_i (x_i . w + b)))`` with s_i = +-1.

Two backends:

- ``batched`` (default): L-BFGS over a whole chunk of problems at once, in numpy. Each
  iteration is a handful of array operations on a (B, n, d+1) stack, so the Python cost is
  paid once per chunk rather than once per fit, and it iterates until the gradient's
  largest entry is below ``tol`` (1e-6), which puts the coefficients within about 1e-6
  (relative) of the exact optimum.
- ``reference``: scikit-learn's Newton-Cholesky solver with a tight tolerance, one fit at
  a time, kept so that anyone can rerun the equivalence check.
"""

from __future__ import annotations

import logging

import numpy as np
from sklearn.linear_model import LogisticRegression

log = logging.getLogger(__name__)

SOLVERS = ("batched", "reference")
DEFAULT_TOL = 1e-6
LBFGS_MEMORY = 10
MAX_ITER = 2000
# Chunks are kept near the size of a last-level cache: L-BFGS streams the design matrices
# twice per iteration, so a chunk that spills to DRAM is memory-bound.
DEFAULT_CHUNK_BYTES = 16 << 20


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * z))  # overflow-free


def _objective(
    X: np.ndarray, y: np.ndarray, W: np.ndarray, C: float, reg: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Objective and gradient of every problem of a stack: X (B, n, D), y (B, n), W (B, D)."""
    z = np.matmul(X, W[:, :, None])[:, :, 0]
    f = 0.5 * np.einsum("bd,bd->b", W * reg, W) + C * (np.logaddexp(0.0, z) - y * z).sum(1)
    r = C * (_sigmoid(z) - y)
    g = np.matmul(r[:, None, :], X)[:, 0, :] + W * reg
    return f, g


def lbfgs_batched(
    X: np.ndarray,
    y: np.ndarray,
    C: float,
    *,
    tol: float = DEFAULT_TOL,
    memory: int = LBFGS_MEMORY,
    max_iter: int = MAX_ITER,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Minimise the objective for a stack of problems at once.

    ``X`` is (B, n, D) with the intercept's column of ones last, ``y`` is (B, n) in {0, 1}.
    Returns (W (B, D), iterations (B,), converged (B,)). Problems leave the working set
    as they converge, so the slowest one does not make the others iterate.
    """
    B, _, D = X.shape
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    reg = np.ones(D)
    reg[-1] = 0.0  # the intercept is not penalised
    out = np.zeros((B, D))
    iters = np.zeros(B, dtype=np.int64)
    converged = np.zeros(B, dtype=bool)
    act = np.arange(B)
    W = np.zeros((B, D))
    f, g = _objective(X, y, W, C, reg)
    S = np.zeros((memory, B, D))
    Yh = np.zeros((memory, B, D))
    rho = np.zeros((memory, B))
    k = 0
    done = np.abs(g).max(1) < tol
    while True:
        if done.any():
            out[act[done]] = W[done]
            converged[act[done]] = True
            keep = ~done
            act, W, f, g, X, y = act[keep], W[keep], f[keep], g[keep], X[keep], y[keep]
            S, Yh, rho = S[:, keep], Yh[:, keep], rho[:, keep]
        if act.size == 0 or k >= max_iter:
            break
        # two-loop recursion: q = H_k g for every problem at once
        h = min(k, memory)
        q = g.copy()
        alpha = np.empty((h, act.size))
        for j in range(h):
            i = (k - 1 - j) % memory
            alpha[j] = rho[i] * np.einsum("bd,bd->b", S[i], q)
            q -= alpha[j][:, None] * Yh[i]
        if h:
            i = (k - 1) % memory
            yy = np.einsum("bd,bd->b", Yh[i], Yh[i])
            sy = np.einsum("bd,bd->b", S[i], Yh[i])
            q *= np.where(yy > 0, sy / np.where(yy > 0, yy, 1.0), 1.0)[:, None]
        else:
            q /= np.maximum(np.abs(g).max(1), 1.0)[:, None]
        for j in reversed(range(h)):
            i = (k - 1 - j) % memory
            beta = rho[i] * np.einsum("bd,bd->b", Yh[i], q)
            q += (alpha[j] - beta)[:, None] * S[i]
        p = -q
        gp = np.einsum("bd,bd->b", g, p)
        # Armijo backtracking, only for the problems whose full step fails
        t = np.ones(act.size)
        W_new = W + p
        f_new, g_new = _objective(X, y, W_new, C, reg)
        bad = ~(f_new <= f + 1e-4 * gp)
        for _ in range(40):
            if not bad.any():
                break
            idx = np.flatnonzero(bad)
            t[idx] *= 0.5
            W_new[idx] = W[idx] + t[idx, None] * p[idx]
            f_new[idx], g_new[idx] = _objective(X[idx], y[idx], W_new[idx], C, reg)
            bad[idx] = ~(f_new[idx] <= f[idx] + 1e-4 * t[idx] * gp[idx])
        stuck = bad  # no decrease found: the problem is at its numerical optimum
        s = W_new - W
        yv = g_new - g
        sy = np.einsum("bd,bd->b", s, yv)
        i = k % memory
        S[i], Yh[i] = s, yv
        rho[i] = np.where(sy > 1e-12, 1.0 / np.where(sy > 1e-12, sy, 1.0), 0.0)
        W, f, g = W_new, f_new, g_new
        k += 1
        iters[act] += 1
        done = (np.abs(g).max(1) < tol) | stuck
    out[act] = W
    if act.size:
        log.warning(
            "%d of %d fits did not converge in %d L-BFGS iterations (tol %g)",
            act.size,
            B,
            max_iter,
            tol,
        )
    return out, iters, converged


def fit_reference(x_train: np.ndarray, y_train: np.ndarray, C: float) -> np.ndarray:
    """One fit with scikit-learn's Newton-Cholesky to a tight tolerance: (w..., b)."""
    model = LogisticRegression(C=C, solver="newton-cholesky", tol=1e-10, max_iter=500)
    model.fit(np.asarray(x_train, dtype=np.float64), y_train)
    return np.r_[model.coef_[0], model.intercept_[0]]


def chunk_size(n: int, d: int, chunk_bytes: int = DEFAULT_CHUNK_BYTES) -> int:
    return max(1, chunk_bytes // (8 * n * (d + 1)))


def fit_many(
    vectors: np.ndarray,
    train_idx: np.ndarray,
    train_y: np.ndarray,
    C: float,
    *,
    solver: str = "batched",
    tol: float = DEFAULT_TOL,
    chunk_bytes: int = DEFAULT_CHUNK_BYTES,
    stats: dict | None = None,
) -> np.ndarray:
    """Fit one classifier per row of ``train_idx`` (rows of ``vectors``) and return the
    stacked (w, b) as an (iterations, d + 1) array. ``stats``, if given, accumulates the
    number of fits and of L-BFGS iterations (for the benchmark's FLOP count)."""
    if solver not in SOLVERS:
        raise ValueError(f"unknown solver {solver!r}; use one of {SOLVERS}")
    n_fits, n = train_idx.shape
    d = vectors.shape[1]
    out = np.empty((n_fits, d + 1))
    if solver == "reference":
        for i in range(n_fits):
            out[i] = fit_reference(vectors[train_idx[i]], train_y[i], C)
        return out
    step = chunk_size(n, d, chunk_bytes)
    for start in range(0, n_fits, step):
        idx = train_idx[start : start + step]
        X = np.empty((idx.shape[0], n, d + 1))
        X[:, :, :d] = vectors[idx]
        X[:, :, d] = 1.0
        out[start : start + step], iters, _ = lbfgs_batched(
            X, train_y[start : start + step], C, tol=tol
        )
        if stats is not None:
            stats["fits"] = stats.get("fits", 0) + len(iters)
            stats["iterations"] = stats.get("iterations", 0) + int(iters.sum())
    return out


def fit_scores(
    x_train: np.ndarray, y_train: np.ndarray, x_test: np.ndarray, C: float
) -> np.ndarray:
    """Fit one problem (exactly) and return decision values (logits) for x_test."""
    X = np.hstack([np.asarray(x_train, dtype=np.float64), np.ones((len(x_train), 1))])
    w, _, _ = lbfgs_batched(X[None], np.asarray(y_train, dtype=np.float64)[None], C)
    return np.asarray(x_test, dtype=np.float64) @ w[0, :-1] + w[0, -1]

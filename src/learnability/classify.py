"""The linear classifier: L2-regularised logistic regression (the paper's sigmoid unit
trained with cross-entropy), intercept unpenalised, fitted to its optimum.

The objective is scikit-learn's ``LogisticRegression(penalty="l2", C=C)``:
``0.5 * ||w||^2 + C * sum_i log(1 + exp(-s_i (x_i . w + b)))`` with s_i = +-1.

Solvers:

- ``batched`` (default): L-BFGS to a gradient below ``tol`` (1e-6), which puts the
  coefficients within about 1e-6 (relative) of the exact optimum, for a whole batch of
  problems per call. It has three backends that run the same algorithm:

  - ``numba`` (the default on ``device: cpu``): compiled, one problem per thread at a time,
    each problem's rows kept in cache for its whole solve (:mod:`learnability.lbfgs`);
  - ``torch`` (any other ``device``, e.g. ``cuda``): the problems of a chunk stacked into
    (B, n, d+1) tensors with one shared optimiser loop, the shape a GPU wants. torch is
    an optional extra, imported only here;
  - ``numpy``: the same stacked loop on numpy arrays, kept to test the torch path on a
    CPU and as an independent check of the compiled kernel.

- ``reference``: scikit-learn's Newton-Cholesky solver with a tight tolerance, one fit at
  a time, kept so that anyone can rerun the equivalence check.
"""

from __future__ import annotations

import logging
from contextlib import contextmanager

import numba
import numpy as np

from learnability.lbfgs import ARMIJO, F_SLACK
from learnability.logs import Progress

log = logging.getLogger(__name__)

SOLVERS = ("batched", "reference")
BACKENDS = ("numba", "numpy", "torch")
DEFAULT_TOL = 1e-6
LBFGS_MEMORY = 10
# fits per compiled call: enough for every thread, few enough for a progress line
PROGRESS_BLOCK = 512
MIN_FITS_PER_THREAD = 64
PROGRESS_SECONDS = 10.0
MAX_ITER = 2000
# The stacked backends work in chunks of this many bytes of design matrices. On a CPU a
# chunk near the size of the last-level cache keeps the numpy loop from going to DRAM
# twice per iteration; a GPU takes far larger ones.
DEFAULT_CHUNK_BYTES = 16 << 20


class _NumpyOps:
    """The array operations the solver needs, on numpy (float64, CPU)."""

    name = "numpy"

    def asarray(self, a):
        return np.asarray(a, dtype=np.float64)

    def zeros(self, *shape):
        return np.zeros(shape)

    def empty(self, *shape):
        return np.empty(shape)

    def ones(self, n):
        return np.ones(n)

    def arange(self, n):
        return np.arange(n)

    def nonzero(self, mask):
        return np.flatnonzero(mask)

    def clone(self, a):
        return a.copy()

    def rowdot(self, a, b):
        return np.einsum("bd,bd->b", a, b)

    def absmax(self, a):
        return np.abs(a).max(axis=1)

    def where(self, cond, a, b):
        return np.where(cond, a, b)

    def maximum(self, a, value: float):
        return np.maximum(a, value)

    def softplus(self, z):
        return np.logaddexp(0.0, z)

    def sigmoid(self, z):
        return 0.5 * (1.0 + np.tanh(0.5 * z))  # overflow-free

    def matvec(self, X, W):
        return np.matmul(X, W[:, :, None])[:, :, 0]

    def rmatvec(self, r, X):
        return np.matmul(r[:, None, :], X)[:, 0, :]

    def numpy(self, a) -> np.ndarray:
        return np.asarray(a)


class _TorchOps(_NumpyOps):
    """The same operations on torch tensors (float64) on ``device``: the optional GPU
    backend. torch is imported only here, so it stays an optional extra."""

    name = "torch"

    def __init__(self, device: str) -> None:
        try:
            import torch
        except ImportError as exc:
            raise RuntimeError(
                f"learnability.device: {device!r} needs PyTorch; install it "
                "(pip install torch) or use device: cpu"
            ) from exc
        if device.startswith("cuda") and not torch.cuda.is_available():
            raise RuntimeError(f"learnability.device: {device!r} but no CUDA GPU is visible")
        self.torch = torch
        self.device = torch.device(device)
        self.kw = {"dtype": torch.float64, "device": self.device}

    def asarray(self, a):
        return self.torch.as_tensor(np.asarray(a), **self.kw)

    def zeros(self, *shape):
        return self.torch.zeros(shape, **self.kw)

    def empty(self, *shape):
        return self.torch.empty(shape, **self.kw)

    def ones(self, n):
        return self.torch.ones(n, **self.kw)

    def arange(self, n):
        return self.torch.arange(n, device=self.device)

    def nonzero(self, mask):
        return self.torch.nonzero(mask).flatten()

    def clone(self, a):
        return a.clone()

    def rowdot(self, a, b):
        return (a * b).sum(dim=1)

    def absmax(self, a):
        return a.abs().amax(dim=1)

    def where(self, cond, a, b):
        t = self.torch
        return t.where(cond, t.as_tensor(a, **self.kw), t.as_tensor(b, **self.kw))

    def maximum(self, a, value: float):
        return self.torch.clamp(a, min=value)

    def softplus(self, z):
        return self.torch.nn.functional.softplus(z)

    def sigmoid(self, z):
        return self.torch.sigmoid(z)

    def matvec(self, X, W):
        return self.torch.matmul(X, W[:, :, None])[:, :, 0]

    def rmatvec(self, r, X):
        return self.torch.matmul(r[:, None, :], X)[:, 0, :]

    def numpy(self, a) -> np.ndarray:
        return a.detach().cpu().numpy()


@contextmanager
def limit_threads(threads: int):
    """Cap the threads of BLAS and of the compiled kernels at ``threads`` (a rule's
    ``threads:``), restoring the previous limits on exit."""
    from threadpoolctl import threadpool_limits

    from learnability.lbfgs import numba_threads

    with numba_threads(threads), threadpool_limits(int(threads)):
        yield


def resolve_backend(device: str = "cpu", backend: str | None = None) -> str:
    """The backend of ``solver: batched``: compiled numba on ``cpu``, torch elsewhere."""
    backend = backend or ("numba" if device == "cpu" else "torch")
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; use one of {BACKENDS}")
    if backend != "torch" and device != "cpu":
        raise ValueError(f"backend {backend!r} runs on the CPU only, not on {device!r}")
    return backend


def backend_ops(device: str = "cpu", backend: str | None = None) -> _NumpyOps:
    """Array operations for the stacked loop: numpy, or torch on ``device`` (``cpu``
    included, to test the torch path without a GPU)."""
    if backend == "numpy" or (backend is None and device == "cpu"):
        return _NumpyOps()
    return _TorchOps(device)


def _objective(ops, X, y, W, C: float, reg):
    """Objective and gradient of every problem of a stack: X (B, n, D), y (B, n), W (B, D)."""
    z = ops.matvec(X, W)
    f = 0.5 * ops.rowdot(W * reg, W) + C * (ops.softplus(z) - y * z).sum(1)
    r = C * (ops.sigmoid(z) - y)
    g = ops.rmatvec(r, X) + W * reg
    return f, g


def lbfgs_batched(
    X: np.ndarray,
    y: np.ndarray,
    C: float,
    *,
    tol: float = DEFAULT_TOL,
    memory: int = LBFGS_MEMORY,
    max_iter: int = MAX_ITER,
    ops: _NumpyOps | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Minimise the objective for a stack of problems at once.

    ``X`` is (B, n, D) with the intercept's column of ones last, ``y`` is (B, n) in {0, 1}.
    Returns numpy arrays (W (B, D), iterations (B,), converged (B,)). Problems leave the
    working set as they converge, so the slowest one does not make the others iterate.
    ``ops`` picks the array backend (numpy by default; torch for a GPU).
    """
    ops = ops or _NumpyOps()
    B, _, D = X.shape
    X = ops.asarray(X)
    y = ops.asarray(y)
    reg = ops.ones(D)
    reg[-1] = 0.0  # the intercept is not penalised
    out = ops.zeros(B, D)
    iters = np.zeros(B, dtype=np.int64)
    converged = np.zeros(B, dtype=bool)
    act = ops.arange(B)
    W = ops.zeros(B, D)
    f, g = _objective(ops, X, y, W, C, reg)
    S = ops.zeros(memory, B, D)
    Yh = ops.zeros(memory, B, D)
    rho = ops.zeros(memory, B)
    k = 0
    done = ops.absmax(g) < tol
    while True:
        if done.any():
            out[act[done]] = W[done]
            converged[ops.numpy(act[done])] = True
            keep = ~done
            act, W, f, g, X, y = act[keep], W[keep], f[keep], g[keep], X[keep], y[keep]
            S, Yh, rho = S[:, keep], Yh[:, keep], rho[:, keep]
        if act.shape[0] == 0 or k >= max_iter:
            break
        # two-loop recursion: q = H_k g for every problem at once
        h = min(k, memory)
        q = ops.clone(g)
        alpha = ops.empty(h, act.shape[0])
        for j in range(h):
            i = (k - 1 - j) % memory
            alpha[j] = rho[i] * ops.rowdot(S[i], q)
            q -= alpha[j][:, None] * Yh[i]
        if h:
            i = (k - 1) % memory
            yy = ops.rowdot(Yh[i], Yh[i])
            sy = ops.rowdot(S[i], Yh[i])
            q *= ops.where(yy > 0, sy / ops.where(yy > 0, yy, 1.0), 1.0)[:, None]
        else:
            q /= ops.maximum(ops.absmax(g), 1.0)[:, None]
        for j in reversed(range(h)):
            i = (k - 1 - j) % memory
            beta = rho[i] * ops.rowdot(Yh[i], q)
            q += (alpha[j] - beta)[:, None] * S[i]
        p = -q
        gp = ops.rowdot(g, p)
        # Armijo backtracking, only for the problems whose full step fails
        t = ops.ones(act.shape[0])
        W_new = W + p
        f_new, g_new = _objective(ops, X, y, W_new, C, reg)
        slack = F_SLACK * abs(f)
        bad = ~(f_new <= f + ARMIJO * gp + slack)
        for _ in range(40):
            if not bad.any():
                break
            idx = ops.nonzero(bad)
            t[idx] *= 0.5
            W_new[idx] = W[idx] + t[idx, None] * p[idx]
            f_new[idx], g_new[idx] = _objective(ops, X[idx], y[idx], W_new[idx], C, reg)
            bad[idx] = ~(f_new[idx] <= f[idx] + ARMIJO * t[idx] * gp[idx] + slack[idx])
        stuck = bad  # no decrease found: the problem is at its numerical optimum
        s = W_new - W
        yv = g_new - g
        sy = ops.rowdot(s, yv)
        i = k % memory
        S[i], Yh[i] = s, yv
        rho[i] = ops.where(sy > 1e-12, 1.0 / ops.where(sy > 1e-12, sy, 1.0), 0.0)
        W, f, g = W_new, f_new, g_new
        k += 1
        iters[ops.numpy(act)] += 1
        done = (ops.absmax(g) < tol) | stuck
    out[act] = W
    _warn_unconverged(act.shape[0], B, tol, max_iter)
    return ops.numpy(out), iters, converged


def fit_reference(x_train: np.ndarray, y_train: np.ndarray, C: float) -> np.ndarray:
    """One fit with scikit-learn's Newton-Cholesky to a tight tolerance: (w..., b)."""
    # imported here: scikit-learn takes about a second to import, and only this solver,
    # which no workflow job uses by default, needs it
    from sklearn.linear_model import LogisticRegression

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
        from learnability.lbfgs import solve_rows

        out = np.empty((n_fits, d + 1))
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
                memory=LBFGS_MEMORY,
                max_iter=MAX_ITER,
                threads=threads,
                mu=mu,
            )
            n_bad += int((~converged).sum())
            _count(stats, iters)
            progress.update(stop - start)
        progress.finish()
        _warn_unconverged(n_bad, n_fits, tol)
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


def _warn_unconverged(n_bad: int, n_fits: int, tol: float, max_iter: int = MAX_ITER) -> None:
    if n_bad:
        log.warning(
            "%d of %d fits did not converge in %d L-BFGS iterations (tol %g)",
            n_bad,
            n_fits,
            max_iter,
            tol,
        )


def fit_scores(
    x_train: np.ndarray, y_train: np.ndarray, x_test: np.ndarray, C: float
) -> np.ndarray:
    """Fit one problem (exactly) and return decision values (logits) for x_test."""
    x_train = np.asarray(x_train)
    idx = np.arange(len(x_train))[None]
    w = fit_many(x_train, idx, np.asarray(y_train, dtype=np.float64)[None], C)
    return np.asarray(x_test, dtype=np.float64) @ w[0, :-1] + w[0, -1]

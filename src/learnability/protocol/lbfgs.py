"""Compiled L-BFGS for many small L2-regularised logistic regressions on rows of one
embedding: the CPU engine behind ``solver: batched``.

Each problem is (rows of the embedding, labels), with n of a few hundred and d + 1 of a few
hundred. One problem's rows (n x d, about 0.5 MB in float32) stay in a core's L2 cache for
its whole solve, and one pass over them gives both the objective and the gradient; solving
the problems of a batch side by side in numpy instead streams every design matrix from
L3/DRAM twice per iteration, which made that path memory-bound (measured: about a third
of this kernel's speed per core, see benchmarks/engine.py).

The problems of a batch are distributed over threads (``numba.prange``), one problem per
thread at a time and each solved by the same sequence of floating-point operations, so
the result does not depend on the number of threads.

The algorithm is the one of :func:`learnability.protocol.lbfgs_stacked.lbfgs_batched`
(which runs it on stacked arrays for the torch/GPU backend): memory 10, the usual gamma
scaling, a first step scaled by the gradient's largest entry, Armijo backtracking from
the unit step, and stopping when the gradient's largest entry is below ``tol``. The rows
are read in the embedding's own dtype (float32 for our stored embeddings, so no float64
copy is made); all arithmetic is float64.
"""

from __future__ import annotations

import logging

import numpy as np
from numba import njit, prange

from learnability.thread_limits import numba_threads

log = logging.getLogger(__name__)

# Reassociation lets LLVM vectorise the dot products; it changes no result by more than
# float64 rounding, and the compiled order is fixed, so runs stay bit-identical.
_FAST = {"reassoc", "contract", "nsz", "arcp"}
ARMIJO = 1e-4
# Near the optimum a step changes the objective by less than its rounding noise (a sum of
# n terms, ~n * 1e-16 relative), and a strict Armijo test then rejects good steps on noise
# and backtracks to steps too small to make progress. Differences below this relative
# slack count as no increase; the stopping test is on the gradient, so this never stops a
# fit early.
F_SLACK = 1e-12
MAX_HALVINGS = 40
# every solver of `solver: batched` stops when the gradient's largest entry is below TOL,
# keeps MEMORY curvature pairs, and gives up after MAX_STEPS L-BFGS steps (a warning
# counts the fits that did)
TOL = 1e-6
MEMORY = 10
MAX_STEPS = 2000


@njit(fastmath=_FAST, inline="always", cache=True)
def _link(z: float, yi: float, C: float) -> tuple[float, float, float]:
    """For one example: (loss - log(1 + e), 1 + e, C * dloss/dz) with e = exp(-|z|), so
    loss = log(1 + exp(z)) - y z without overflow for any z. The log is left to the
    caller, which takes one log of a product of four (1 + e) in (1, 2] instead of four
    log1p calls: the transcendental calls were a fifth of the objective's time."""
    e = np.exp(-abs(z))
    sig = 1.0 / (1.0 + e) if z >= 0 else e / (1.0 + e)
    return max(z, 0.0) - yi * z, 1.0 + e, C * (sig - yi)


@njit(fastmath=_FAST, cache=True)
def objective(E, rows, y, C, w, g, mu):
    """0.5 ||w[:d]||^2 + C * sum log(1 + exp(-s ((x - mu) . w[:d] + w[d]))) and its
    gradient (written to ``g``), in one pass over the rows ``E[rows]``: the problem on
    rows centred at ``mu``, without a centred copy (x . w - mu . w). Rows are taken four
    at a time so that each load of w and of g serves four rows."""
    n = rows.shape[0]
    d = E.shape[1]
    g[:] = 0.0
    loss = 0.0
    b = w[d]
    for j in range(d):
        b -= mu[j] * w[j]
    n4 = n - n % 4
    for i in range(0, n4, 4):
        x0 = E[rows[i]]
        x1 = E[rows[i + 1]]
        x2 = E[rows[i + 2]]
        x3 = E[rows[i + 3]]
        z0 = 0.0
        z1 = 0.0
        z2 = 0.0
        z3 = 0.0
        for j in range(d):
            wj = w[j]
            z0 += x0[j] * wj
            z1 += x1[j] * wj
            z2 += x2[j] * wj
            z3 += x3[j] * wj
        l0, p0, r0 = _link(z0 + b, y[i], C)
        l1, p1, r1 = _link(z1 + b, y[i + 1], C)
        l2, p2, r2 = _link(z2 + b, y[i + 2], C)
        l3, p3, r3 = _link(z3 + b, y[i + 3], C)
        loss += (l0 + l1) + (l2 + l3) + np.log((p0 * p1) * (p2 * p3))
        for j in range(d):
            g[j] += r0 * x0[j] + r1 * x1[j] + r2 * x2[j] + r3 * x3[j]
        g[d] += (r0 + r1) + (r2 + r3)
    for i in range(n4, n):
        x = E[rows[i]]
        z = 0.0
        for j in range(d):
            z += x[j] * w[j]
        li, pi, ri = _link(z + b, y[i], C)
        loss += li + np.log(pi)
        for j in range(d):
            g[j] += ri * x[j]
        g[d] += ri
    reg = 0.0
    for j in range(d):
        reg += w[j] * w[j]
        # sum r (x - mu) = sum r x - mu sum r
        g[j] += w[j] - mu[j] * g[d]
    return 0.5 * reg + C * loss


@njit(fastmath=_FAST, cache=True)
def _dot(a, b):
    s = 0.0
    for j in range(a.shape[0]):
        s += a[j] * b[j]
    return s


@njit(fastmath=_FAST, cache=True)
def _axpy(a, x, y):
    """y += a * x, in place (no temporary array)."""
    for j in range(y.shape[0]):
        y[j] += a * x[j]


@njit(cache=True)
def _absmax(a):
    m = 0.0
    for j in range(a.shape[0]):
        m = max(m, abs(a[j]))
    return m


@njit(cache=True)
def _solve_one(E, rows, y, C, tol, memory, max_steps, w, mu):
    """Fit one problem into ``w`` (length d + 1, intercept last; of the rows centred at
    ``mu``); (iterations, converged)."""
    D = E.shape[1] + 1
    g = np.empty(D)
    g_new = np.empty(D)
    w_new = np.empty(D)
    q = np.empty(D)
    S = np.zeros((memory, D))
    Y = np.zeros((memory, D))
    rho = np.zeros(memory)
    alpha = np.zeros(memory)
    w[:] = 0.0
    f = objective(E, rows, y, C, w, g, mu)
    if _absmax(g) < tol:
        return 0, True
    k = 0
    while k < max_steps:
        # two-loop recursion: q = H_k g
        h = min(k, memory)
        q[:] = g
        for jj in range(h):
            i = (k - 1 - jj) % memory
            alpha[jj] = rho[i] * _dot(S[i], q)
            _axpy(-alpha[jj], Y[i], q)
        if h > 0:
            i = (k - 1) % memory
            yy = _dot(Y[i], Y[i])
            gamma = _dot(S[i], Y[i]) / yy if yy > 0 else 1.0
        else:
            gamma = 1.0 / max(_absmax(g), 1.0)
        for j in range(D):
            q[j] *= gamma
        for jj in range(h - 1, -1, -1):
            i = (k - 1 - jj) % memory
            beta = rho[i] * _dot(Y[i], q)
            _axpy(alpha[jj] - beta, S[i], q)
        gp = -_dot(g, q)
        # Armijo backtracking along p = -q from the unit step
        t = 1.0
        accepted = False
        for _ in range(MAX_HALVINGS + 1):
            for j in range(D):
                w_new[j] = w[j] - t * q[j]
            f_new = objective(E, rows, y, C, w_new, g_new, mu)
            if f_new <= f + ARMIJO * t * gp + F_SLACK * abs(f):
                accepted = True
                break
            t *= 0.5
        if not accepted:
            # no decrease along a descent direction: w is at its numerical optimum
            return k, True
        i = k % memory
        for j in range(D):
            S[i, j] = w_new[j] - w[j]
            Y[i, j] = g_new[j] - g[j]
        sy = _dot(S[i], Y[i])
        rho[i] = 1.0 / sy if sy > 1e-12 else 0.0
        w[:] = w_new
        g[:] = g_new
        f = f_new
        k += 1
        if _absmax(g) < tol:
            return k, True
    return k, False


@njit(parallel=True, cache=True)
def _solve_many(E, idx, y, C, tol, memory, max_steps, out, iters, converged, mu):
    d = E.shape[1]
    for b in prange(idx.shape[0]):
        it, ok = _solve_one(E, idx[b], y[b], C, tol, memory, max_steps, out[b], mu)
        iters[b] = it
        converged[b] = ok
        # back to the rows as they are: w . (x - mu) + b = w . x + (b - w . mu)
        for j in range(d):
            out[b, d] -= out[b, j] * mu[j]


def solve_rows(
    E: np.ndarray,
    idx: np.ndarray,
    y: np.ndarray,
    C: float,
    *,
    tol: float,
    memory: int,
    max_steps: int,
    threads: int | None = None,
    mu: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Fit one problem per row of ``idx`` (rows of ``E``, labels ``y`` in {0, 1}).

    Returns (W (B, d + 1), iterations (B,), converged (B,)). ``threads`` caps the threads
    used (default: numba's current setting); the results do not depend on it. ``mu``
    centres the rows while solving (the same model, as the intercept is not penalised;
    better conditioned when the rows share a large common direction); W is returned for
    the rows as they are.
    """
    E = _as_rows(E)
    mu = np.zeros(E.shape[1]) if mu is None else np.ascontiguousarray(mu, dtype=np.float64)
    idx = np.ascontiguousarray(idx, dtype=np.int64)
    y = np.ascontiguousarray(y, dtype=np.float64)
    B = idx.shape[0]
    out = np.empty((B, E.shape[1] + 1))
    iters = np.empty(B, dtype=np.int64)
    converged = np.empty(B, dtype=np.bool_)
    with numba_threads(threads):
        _solve_many(
            E, idx, y, float(C), float(tol), int(memory), int(max_steps), out, iters, converged, mu
        )
    return out, iters, converged


@njit(parallel=True, fastmath=_FAST, cache=True)
def _decision_values(E, idx, W, out):
    d = E.shape[1]
    for b in prange(idx.shape[0]):
        for i in range(idx.shape[1]):
            x = E[idx[b, i]]
            z = 0.0
            for j in range(d):
                z += x[j] * W[b, j]
            out[b, i] = z + W[b, d]


def decision_values(E: np.ndarray, idx: np.ndarray, W: np.ndarray) -> np.ndarray:
    """Logits of the rows ``E[idx[b]]`` under the fitted ``W[b]`` (intercept last), for
    every problem b at once: (B, n) float64, without a gathered copy of the rows."""
    E = _as_rows(E)
    idx = np.ascontiguousarray(idx, dtype=np.int64)
    out = np.empty(idx.shape)
    _decision_values(E, idx, np.ascontiguousarray(W, dtype=np.float64), out)
    return out


def _as_rows(E: np.ndarray) -> np.ndarray:
    E = np.asarray(E)  # a memmap becomes a plain view: no copy
    if E.dtype not in (np.float32, np.float64):
        E = E.astype(np.float64)
    E = E if E.flags.c_contiguous else np.ascontiguousarray(E)
    if E.flags.writeable:
        # the kernels only read E, and numba compiles a read-only array (a memory-mapped
        # store's) apart from a writable one: as a read-only view, one compilation per
        # dtype serves both (about 6 CPU s each on a fresh install)
        E = E.view()
        E.flags.writeable = False
    return E


def warn_unconverged(n_bad: int, n_fits: int, tol: float, max_steps: int = MAX_STEPS) -> None:
    if n_bad:
        log.warning(
            "%d of %d fits did not converge in %d L-BFGS steps (tol %g)",
            n_bad,
            n_fits,
            max_steps,
            tol,
        )

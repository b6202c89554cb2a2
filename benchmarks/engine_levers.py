"""What limits the engine at the benchmark's shape (n = 400, d = 300): the cost of one
objective evaluation against BLAS, and the L-BFGS settings that set how many there are.

Usage: python benchmarks/engine_levers.py [--smoke]

1. One objective evaluation (the loss and its gradient, two passes over the rows) of the
   compiled kernel, float64 arithmetic on float32 rows as the workflow runs it, against
   the baseline: OpenBLAS's ``X @ w`` and ``r @ X`` on the same rows already gathered
   into one contiguous array, one thread; and against a float32-arithmetic copy of the
   kernel (8 lanes instead of 4, gradient blocks flushed into float64), to measure what
   wider SIMD could give. Nanoseconds per row, n from 50 to 800.
2. L-BFGS memory (5-40) and gradient tolerance (1e-6, 1e-5): iterations per fit and
   seconds for 400 fits, on the planted concept of ``engine.py`` and on random lists.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from numba import njit
from threadpoolctl import threadpool_limits

sys.path.insert(0, str(Path(__file__).parent))
import engine  # noqa: E402
from toysize import add_smoke  # noqa: E402

from learnability.protocol.classify import centre_of  # noqa: E402
from learnability.protocol.evaluate import Protocol  # noqa: E402
from learnability.protocol.lbfgs import _FAST, _link, objective, solve_rows  # noqa: E402
from learnability.protocol.splits import draw_splits  # noqa: E402

FLUSH = 8  # quads of rows per float32 gradient block
SMOKE = False  # --smoke: toy sizes (engine.smoke) and few repetitions


@njit(fastmath=_FAST)
def objective32(E, rows, y, C, w, g, mu, w32, acc):
    """The kernel's objective with the products in float32 (n a multiple of 4)."""
    n, d = rows.shape[0], E.shape[1]
    g[:] = 0.0
    acc[:] = 0.0
    loss, gd, q = 0.0, 0.0, 0
    b = w[d]
    for j in range(d):
        b -= mu[j] * w[j]
        w32[j] = np.float32(w[j])
    for i in range(0, n, 4):
        x0, x1, x2, x3 = E[rows[i]], E[rows[i + 1]], E[rows[i + 2]], E[rows[i + 3]]
        z0 = z1 = z2 = z3 = np.float32(0.0)
        for j in range(d):
            wj = w32[j]
            z0 += np.float32(x0[j]) * wj
            z1 += np.float32(x1[j]) * wj
            z2 += np.float32(x2[j]) * wj
            z3 += np.float32(x3[j]) * wj
        l0, p0, r0 = _link(np.float64(z0) + b, y[i], C)
        l1, p1, r1 = _link(np.float64(z1) + b, y[i + 1], C)
        l2, p2, r2 = _link(np.float64(z2) + b, y[i + 2], C)
        l3, p3, r3 = _link(np.float64(z3) + b, y[i + 3], C)
        loss += (l0 + l1) + (l2 + l3) + np.log((p0 * p1) * (p2 * p3))
        f0, f1, f2, f3 = np.float32(r0), np.float32(r1), np.float32(r2), np.float32(r3)
        for j in range(d):
            acc[j] += f0 * x0[j] + f1 * x1[j] + f2 * x2[j] + f3 * x3[j]
        gd += (r0 + r1) + (r2 + r3)
        q += 1
        if q == FLUSH:
            for j in range(d):
                g[j] += np.float64(acc[j])
                acc[j] = 0.0
            q = 0
    reg = 0.0
    for j in range(d):
        g[j] += np.float64(acc[j])
        reg += w[j] * w[j]
        g[j] += w[j] - mu[j] * gd
    g[d] = gd
    return 0.5 * reg + C * loss


@njit
def _repeat64(E, rows, y, w, g, mu, times):
    s = 0.0
    for _ in range(times):
        s += objective(E, rows, y, 1.0, w, g, mu)
    return s


@njit
def _repeat32(E, rows, y, w, g, mu, w32, acc, times):
    s = 0.0
    for _ in range(times):
        s += objective32(E, rows, y, 1.0, w, g, mu, w32, acc)
    return s


def per_row(fn, n: int, times: int) -> float:
    fn(2)
    start = time.perf_counter()
    fn(times)
    return (time.perf_counter() - start) / times / n * 1e9


def evaluations(E: np.ndarray) -> None:
    rng = np.random.default_rng(0)
    d = E.shape[1]
    w = rng.standard_normal(d + 1) * 0.05
    g, mu = np.empty(d + 1), np.zeros(d)
    w32, acc = np.empty(d, np.float32), np.empty(d, np.float32)
    print("1. one objective evaluation, 1 thread, ns per row (d = 300, float32 rows)")
    head = ("n", "kernel", "float32 arith", "BLAS Xw + rX", "BLAS/kernel time")
    print("{:>5s} {:>8s} {:>14s} {:>13s} {:>17s}".format(*head))
    for n in (50, 100, 200, 400, 800):
        rows = rng.choice(E.shape[0], n, replace=False).astype(np.int64)
        y = (np.arange(n) < n // 2).astype(float)
        times = (4_000 if SMOKE else 400_000) // n
        t64 = per_row(lambda k, rows=rows, y=y: _repeat64(E, rows, y, w, g, mu, k), n, times)
        t32 = per_row(
            lambda k, rows=rows, y=y: _repeat32(E, rows, y, w, g, mu, w32, acc, k), n, times
        )
        X = np.ascontiguousarray(E[rows])
        w_ = w[:d].astype(np.float32)
        r = rng.standard_normal(n).astype(np.float32)

        def blas(k, X=X, r=r, w_=w_):
            for _ in range(k):
                X @ w_
                r @ X

        with threadpool_limits(1):
            tb = per_row(blas, n, times)
        print(f"{n:5d} {t64:8.1f} {t32:14.1f} {tb:13.1f} {tb / t64:16.2f}x")


def settings(E: np.ndarray, members: np.ndarray) -> None:
    fits = 40 if SMOKE else 400
    proto = Protocol(iterations=fits, C=1.0, seed=0)
    splits = draw_splits(E.shape[0], members, proto, list(range(fits)), None)
    planted = (np.stack([s[0] for s in splits]), np.stack([s[1] for s in splits]).astype(float))
    rng = np.random.default_rng(1)
    random = (
        np.stack([rng.choice(E.shape[0], 400, replace=False) for _ in range(fits)]),
        np.tile(np.r_[np.ones(200), np.zeros(200)], (fits, 1)),
    )
    print(f"\n2. L-BFGS settings, {fits} fits, 2 threads: iterations per fit, seconds")
    print(f"{'problems':>9s} {'memory':>6s} {'tol':>6s} {'iters':>6s} {'seconds':>8s}")
    for name, (idx, y) in (("planted", planted), ("random", random)):
        mu = centre_of(E, idx)
        solve_rows(E, idx[:4], y[:4], 1.0, tol=1e-6, memory=10, max_steps=2000, mu=mu)
        for memory in (5, 10, 20, 40):
            for tol in (1e-6, 1e-5):
                start = time.perf_counter()
                _, iters, ok = solve_rows(
                    E, idx, y, 1.0, tol=tol, memory=memory, max_steps=2000, threads=2, mu=mu
                )
                seconds = time.perf_counter() - start
                assert ok.all()
                print(f"{name:>9s} {memory:6d} {tol:6.0e} {iters.mean():6.1f} {seconds:8.3f}")


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_smoke(parser)
    if parser.parse_args().smoke:
        engine.smoke()
        global SMOKE
        SMOKE = True
    vectors, members = engine.embedding()
    E = vectors.astype(np.float32)
    evaluations(E)
    settings(E, members)


if __name__ == "__main__":
    main()

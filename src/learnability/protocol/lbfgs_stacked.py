"""The L-BFGS of ``solver: batched`` on stacked arrays: the problems of a chunk stacked
into (B, n, d + 1) arrays with one shared optimiser loop, the shape a GPU wants. It runs
on torch (``device: cuda``; torch is an optional extra, imported only here) or on numpy
(to test the torch path on a CPU, and as an independent check of the compiled kernel,
:mod:`learnability.protocol.lbfgs`, which runs the same algorithm one problem per thread)."""

from __future__ import annotations

import numpy as np

from learnability.protocol.lbfgs import ARMIJO, F_SLACK, MAX_STEPS, MEMORY, TOL, warn_unconverged

BACKENDS = ("numba", "numpy", "torch")
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
    tol: float = TOL,
    memory: int = MEMORY,
    max_steps: int = MAX_STEPS,
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
        if act.shape[0] == 0 or k >= max_steps:
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
    warn_unconverged(act.shape[0], B, tol, max_steps)
    return ops.numpy(out), iters, converged


def chunk_size(n: int, d: int, chunk_bytes: int = DEFAULT_CHUNK_BYTES) -> int:
    return max(1, chunk_bytes // (8 * n * (d + 1)))

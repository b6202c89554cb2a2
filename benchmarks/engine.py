"""The learnability engine against the loops a user would write, on the same splits.

Usage: python benchmarks/engine.py [--iterations 1000] [--null-lists 1000] [--smoke]

Builds a 50,000 x 300 Gaussian embedding with a planted 400-word concept (members shifted
by 2 standard deviations along one random direction), draws 1000 splits with the
project's own sampler, and times on those same splits:

  (a) the loop a user would write: LogisticRegression().fit and sklearn.metrics per
      iteration, default threads;
  (b) a tuned reference loop: one BLAS thread per fit, joblib over the cores, metrics
      in numpy;
  (c) the batched solver as the workflow runs it (compiled numba backend), with one thread
      per core; (c1) the same on one thread; (c32) the same on a float32 copy of the
      embedding, the dtype the workflow stores (arithmetic stays float64);
  (e) the same L-BFGS on stacked numpy arrays (the numpy backend), one process;
  (d) the same solver on PyTorch, on a CUDA GPU if there is one, else on the CPU, when
      torch is installed.

It prints wall times, the ratios (a)/(c) and (b)/(c), the largest |AUC difference| of each
against the converged reference (Newton-Cholesky, tol 1e-10) on the first 200 splits,
GFLOP/s of (c) against this machine's measured matmul GFLOP/s, the peak RSS of 1000
iterations of a 900-word list, and the time of one null distribution: 1000 random lists of
400 words x 10 splits each.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

import numpy as np
from joblib import Parallel, delayed
from sklearn import metrics as skm
from sklearn.linear_model import LogisticRegression
from threadpoolctl import threadpool_limits
from toysize import add_smoke

from learnability.protocol.classify import fit_many, fit_reference
from learnability.protocol.evaluate import Protocol, null_distribution
from learnability.protocol.metrics import binary_metrics
from learnability.protocol.splits import draw_splits, fit_splits
from learnability.thread_limits import limit_threads

V, D, SIZE, C = 50_000, 300, 400, 1.0
CORES = os.cpu_count() or 1
# the size of the peak-RSS child's list; --smoke shrinks everything
BIG = 900


def smoke() -> None:
    """Toy sizes for --smoke (also engine_levers.py's): seconds, not measurements."""
    global V, D, SIZE, BIG
    V, D, SIZE, BIG = 3000, 40, 40, 60


def embedding(seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    vectors = rng.standard_normal((V, D))
    direction = rng.standard_normal(D)
    vectors[:SIZE] += 2.0 * direction / np.linalg.norm(direction)
    return vectors, np.arange(SIZE)


def loop_a(vectors, splits):
    out = []
    for tr, ytr, te, yte in splits:
        model = LogisticRegression(C=C).fit(vectors[tr], ytr)
        pred = model.predict(vectors[te])
        scores = model.decision_function(vectors[te])
        tn, fp, fn, tp = skm.confusion_matrix(yte, pred).ravel()
        out.append(
            {
                "accuracy": skm.accuracy_score(yte, pred),
                "recall": skm.recall_score(yte, pred),
                "fpr": fp / (fp + tn),
                "precision": skm.precision_score(yte, pred),
                "auc": skm.roc_auc_score(yte, scores),
            }
        )
    return [o["auc"] for o in out]


def _b_chunk(vectors, chunk):
    with threadpool_limits(1):
        aucs = []
        for tr, ytr, te, yte in chunk:
            model = LogisticRegression(C=C).fit(vectors[tr], ytr)
            aucs.append(binary_metrics(yte, model.decision_function(vectors[te]))["auc"])
        return aucs


def _c_run(vectors, splits, threads=CORES, stats=None):
    """As the workflow runs it: fit every split, then all five metrics and the ROC curve
    of every test set (more than the loops (a) and (b) compute)."""
    with limit_threads(threads):
        if stats is not None:  # the FLOP count needs the iteration count: a separate fit
            idx = np.stack([s[0] for s in splits])
            y = np.stack([s[1] for s in splits]).astype(float)
            fit_many(vectors, idx, y, C, stats=stats)
            return None
        fits = fit_splits(vectors, splits, Protocol(iterations=len(splits), C=C, seed=0))
        # as the workflow runs it: all five metrics and the ROC curve
        fits.tpr()
        return list(fits.metrics()["auc"])


def _e_run(vectors, splits):
    """The same L-BFGS on stacked numpy arrays, one BLAS thread."""
    with threadpool_limits(1):
        idx = np.stack([s[0] for s in splits])
        y = np.stack([s[1] for s in splits]).astype(float)
        coef = fit_many(vectors, idx, y, C, backend="numpy")
        return [
            binary_metrics(s[3], vectors[s[2]] @ w[:-1] + w[-1])["auc"]
            for s, w in zip(splits, coef, strict=True)
        ]


def _torch_run(vectors, splits, device):
    idx = np.stack([s[0] for s in splits])
    y = np.stack([s[1] for s in splits]).astype(float)
    # a GPU holds far more than a CPU cache: one chunk of up to 4 GiB
    coef = fit_many(vectors, idx, y, C, device=device, backend="torch", chunk_bytes=4 << 30)
    return [
        binary_metrics(s[3], vectors[s[2]] @ w[:-1] + w[-1])["auc"]
        for s, w in zip(splits, coef, strict=True)
    ]


def parallel(fn, vectors, splits):
    parts = [splits[i::CORES] for i in range(CORES)]
    res = Parallel(n_jobs=CORES)(delayed(fn)(vectors, p) for p in parts)
    out = [None] * len(splits)
    for i, r in enumerate(res):
        out[i::CORES] = r
    return out


def timed(fn, *args):
    start = time.perf_counter()
    result = fn(*args)
    return time.perf_counter() - start, result


def matmul_gflops(threads: int) -> float:
    n = 2000 if BIG == 900 else 200
    a = np.random.default_rng(0).random((n, n))
    with threadpool_limits(threads):
        a @ a
        start = time.perf_counter()
        for _ in range(3):
            a @ a
        return 3 * 2 * n**3 / (time.perf_counter() - start) / 1e9


def rss_child() -> None:
    """Run in a subprocess: 1000 iterations of a BIG-word list, then exit."""
    if "--smoke" in sys.argv:
        smoke()
    rng = np.random.default_rng(3)
    vectors = rng.standard_normal((V, D)).astype(np.float32)
    proto = Protocol(iterations=1000 if BIG == 900 else 20, C=C, seed=0)
    from learnability.protocol.evaluate import evaluate_concept_full

    evaluate_concept_full(vectors, np.arange(BIG), proto, list_name="big", embedding="e")
    peak_kb = None
    try:
        with open("/proc/self/status") as fh:  # Linux: this process image's peak
            for line in fh:
                if line.startswith("VmHWM:"):
                    peak_kb = int(line.split()[1])
    except OSError:
        pass
    if peak_kb is None:
        import resource

        peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(peak_kb)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--rss-child":
        rss_child()
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--null-lists", type=int, default=1000)
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        smoke()
        args.iterations, args.null_lists = 20, 10
    vectors, members = embedding()
    proto = Protocol(iterations=args.iterations, C=C, seed=0)
    seeds = list(range(args.iterations))
    splits = draw_splits(V, members, proto, seeds, None)
    print(f"{args.iterations} splits of a planted {SIZE}-word concept in {V} x {D}; {CORES} cores")

    t_a, auc_a = timed(loop_a, vectors, splits)
    t_b, auc_b = timed(parallel, _b_chunk, vectors, splits)
    _c_run(vectors, splits[:4])  # load (or compile, on a first run) the kernel
    _c_run(vectors.astype(np.float32), splits[:4])
    t_c, auc_c = timed(_c_run, vectors, splits)
    t_c1, auc_c1 = timed(_c_run, vectors, splits, 1)
    stats: dict = {}
    t_fit1, _ = timed(_c_run, vectors, splits, 1, stats)
    v32 = vectors.astype(np.float32)
    t_c32, auc_c32 = timed(_c_run, v32, splits)
    t_e, auc_e = timed(_e_run, vectors, splits)

    n_ref = min(200, len(splits))
    with threadpool_limits(1):
        ref = []
        for tr, ytr, te, yte in splits[:n_ref]:
            w = fit_reference(vectors[tr], ytr, C)
            ref.append(binary_metrics(yte, vectors[te] @ w[:-1] + w[-1])["auc"])
        ref32 = []
        for tr, ytr, te, yte in splits[:n_ref]:
            w = fit_reference(v32[tr].astype(np.float64), ytr, C)
            ref32.append(binary_metrics(yte, v32[te].astype(np.float64) @ w[:-1] + w[-1])["auc"])
    ref, ref32 = np.array(ref), np.array(ref32)

    def dauc(a, reference=ref):
        return np.abs(np.asarray(a[:n_ref]) - reference).max()

    n = splits[0][0].size
    flops = stats["iterations"] * 4 * n * (D + 1)  # two matrix passes per iteration
    peak1, peak2 = matmul_gflops(1), matmul_gflops(CORES)
    print(f"{'':34s} {'seconds':>8s} {'max |dAUC| vs exact':>20s}")
    print(f"{'(a) sklearn loop, sklearn.metrics':34s} {t_a:8.2f} {dauc(auc_a):20.2e}")
    print(f"{'(b) tuned loop, joblib x' + str(CORES):34s} {t_b:8.2f} {dauc(auc_b):20.2e}")
    print(f"{'(c) batched, ' + str(CORES) + ' threads':34s} {t_c:8.2f} {dauc(auc_c):20.2e}")
    print(f"{'(c1) batched, 1 thread':34s} {t_c1:8.2f} {dauc(auc_c1):20.2e}")
    print(f"{'(c32) batched, float32 embedding':34s} {t_c32:8.2f} {dauc(auc_c32, ref32):20.2e}")
    print(f"{'(e) stacked numpy loop, 1 thread':34s} {t_e:8.2f} {dauc(auc_e):20.2e}")
    try:
        import torch

        device = "cuda" if torch.cuda.is_available() else "cpu"
        _torch_run(vectors, splits[:16], device)  # warm-up (CUDA context, kernels)
        t_d, auc_d = timed(_torch_run, vectors, splits, device)
        print(f"{'(d) batched, torch ' + device:34s} {t_d:8.2f} {dauc(auc_d):20.2e}")
    except ImportError:
        print("(d) torch backend: torch not installed")
    print(
        f"ratios: (a)/(c) {t_a / t_c:.1f}x  (b)/(c) {t_b / t_c:.2f}x  "
        f"(e)/(c1) {t_e / t_c1:.2f}x  (c)/(c32) {t_c / t_c32:.2f}x"
    )
    print(
        f"(c): {stats['iterations'] / stats['fits']:.1f} L-BFGS iterations per fit, "
        f"fits alone on 1 thread {t_fit1:.2f} s = {flops / t_fit1 / 1e9:.1f} GFLOP/s (lower "
        f"bound) against matmul {peak1:.1f} GFLOP/s on 1 core, {peak2:.1f} on {CORES}"
    )

    # The child reports its own peak (VmHWM): the parent's RUSAGE_CHILDREN would count
    # joblib workers, and a forked child's ru_maxrss includes the parent's pages held
    # before exec.
    child = [sys.executable, __file__, "--rss-child", *(["--smoke"] if args.smoke else [])]
    out = subprocess.run(child, check=True, capture_output=True, text=True).stdout
    peak_kb = int(out.split()[-1])
    iterations = 1000 if BIG == 900 else 20
    print(
        f"peak RSS, {iterations} iterations of a {BIG}-word list (float32 embedding "
        f"{V * D * 4 / 2**20:.0f} MiB): {peak_kb / 1024:.0f} MiB"
    )

    with limit_threads(CORES):
        start = time.perf_counter()
        null_distribution(
            vectors, size=SIZE, lists=args.null_lists, iterations=10, C=C, seed=0, embedding="bench"
        )
        t_null = time.perf_counter() - start
    print(
        f"null distribution, {args.null_lists} random lists of {SIZE} x 10 splits, "
        f"{CORES} threads: {t_null:.1f} s"
    )


if __name__ == "__main__":
    main()

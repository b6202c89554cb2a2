"""Nearest-neighbour search: 1000 queries over a 100,000 x 300 embedding.

Usage: python benchmarks/neighbours.py [--words 100000] [--queries 1000] [--k 15] [--smoke]

Times, on the same float32 vectors and queries:
  (naive) the loop a user would write: gensim ``KeyedVectors.most_similar(word, topn=k)``
          once per query (the baseline);
  (ours)  ``learnability.evaluations.neighbours.top_k``: blocks of queries scored against the whole
          vocabulary with one matrix product each, top-k by partial sort.
It prints both wall times, their ratio, and how many of the k neighbours agree (all,
barring float ties).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from gensim.models import KeyedVectors
from toysize import add_smoke

from learnability.evaluations.neighbours import top_k


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--k", type=int, default=15)
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.words, args.queries = 2000, 20
    rng = np.random.default_rng(0)
    vectors = rng.standard_normal((args.words, 300)).astype(np.float32)
    words = [f"w{i}" for i in range(args.words)]
    queries = rng.choice(args.words, args.queries, replace=False)
    kv = KeyedVectors(300)
    kv.add_vectors(words, vectors)
    kv.fill_norms()
    print(f"{args.queries} queries, top {args.k}, over {args.words} x 300 float32; "
          f"{os.cpu_count()} cores")  # fmt: skip

    start = time.perf_counter()
    naive = [[w for w, _ in kv.most_similar(words[q], topn=args.k)] for q in queries]
    t_naive = time.perf_counter() - start

    top_k(vectors, queries[:8], args.k)  # warm-up (BLAS threads)
    start = time.perf_counter()
    idx, _ = top_k(vectors, queries, args.k)
    t_ours = time.perf_counter() - start

    same = sum(len(set(n) & {words[j] for j in row}) for n, row in zip(naive, idx, strict=True))
    print(f"(naive) gensim most_similar loop: {t_naive:8.2f} s")
    print(f"(ours)  blocked top_k:            {t_ours:8.2f} s")
    print(f"ratio naive/ours: {t_naive / t_ours:.1f}x; neighbours in common: "
          f"{same}/{args.queries * args.k}")  # fmt: skip


if __name__ == "__main__":
    main()

"""The cost of the suggested additions at GloVe 6B's size: 400,000 words x 50 dimensions,
one list of 200 members, 200 splits.

Usage: python benchmarks/suggestions.py [--words 400000] [--dim 50] [--splits 200] [--smoke]
(at enwiki's size: --words 3000000 --dim 300 --splits 100)

Times, on the same Gaussian vectors with a planted list:
  (fits)  the protocol's own splits, fitted and scored (``evaluate_concept_full``): what
          the learnability job already pays (the baseline);
  (score) ``learnability.analyses.suggestions.suggestions``: the whole vocabulary
          scored with every split's classifier and each split's top words kept, no fit.
It prints both wall times, their ratio, the peak of the scores held at once, and the
scoring's seconds per vocabulary row and split (the suggestions' cost model).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from toysize import add_smoke

from learnability.analyses import suggestions as sug
from learnability.pipeline import resources as cost
from learnability.protocol.evaluate import Protocol, evaluate_concept_full


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=400_000)
    parser.add_argument("--dim", type=int, default=50)
    parser.add_argument("--splits", type=int, default=200)
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.words, args.splits = 5000, 10
    rng = np.random.default_rng(0)
    vectors = rng.standard_normal((args.words, args.dim), dtype=np.float32)
    members = np.sort(rng.choice(args.words, 200, replace=False))
    vectors[members, 0] += 2.0
    protocol = Protocol(iterations=args.splits, C=1.0, seed=0)
    # once untimed: the compiled solver's first call compiles it
    evaluate_concept_full(vectors, members, Protocol(iterations=2, C=1.0, seed=1),
                          list_name="warm", embedding="bench")  # fmt: skip
    start = time.perf_counter()
    result = evaluate_concept_full(vectors, members, protocol, list_name="planted",
                                   embedding="bench")  # fmt: skip
    fits = time.perf_counter() - start
    words = [f"w{i}" for i in range(args.words)]
    start = time.perf_counter()
    table = sug.suggestions(
        vectors, result.coef, members, top=50, words=words, counts=None,
        list_name="planted", embedding="bench", negatives="uniform",
    )  # fmt: skip
    score = time.perf_counter() - start
    rows = max(1, sug.BLOCK_BYTES // (4 * args.splits))
    print(f"{args.words:,} words x {args.dim}, {args.splits} splits, list of 200")
    print(f"(fits)  protocol, {args.splits} fits and tests: {fits:.2f} s")
    print(
        f"(score) suggestions over the vocabulary:    {score:.2f} s "
        f"({2 * args.words * args.dim * args.splits / 1e9:.1f} GFLOP, "
        f"{rows:,} rows x {args.splits} scores = {sug.BLOCK_BYTES >> 20} MB at a time)"
    )
    print(f"ratio score/fits: {score / fits:.2f}; top suggestion {table['word'].iloc[0]}")
    # the suggestions' cost model (learnability.pipeline.resources.ROW_SPLIT_SECONDS)
    print(
        f"seconds per vocabulary row and split: {score / (args.words * args.splits):.2e} "
        f"(the model: {cost.ROW_SPLIT_SECONDS:.1e})"
    )


if __name__ == "__main__":
    main()

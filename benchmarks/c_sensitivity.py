"""How much does the L2 penalty move learnability? Mean AUC per list at several C.

Usage: python benchmarks/c_sensitivity.py [--embedding results/shared/word2vec]
           [--lists resources/wordlists] [--iterations 50] [--C 0.01 0.1 1 10 1000] [--smoke]

The paper's classifier (its eq. 5) is plain cross-entropy. Here every training set has
n <= d + 1 examples (a 138-word list trains on 138 vectors of 300 dimensions), so the
classes are linearly separable and the unpenalised loss has no minimum: its infimum 0 is
approached as ||w|| grows without bound, and an unpenalised fit stops wherever its solver
does. The penalty 0.5 ||w||^2 (scikit-learn's objective with C) makes the optimum unique.
This script shows what C does: the same splits (seeds depend on the list only) fitted at
each C, mean AUC per list, the training sets' n against d, and the L-BFGS iterations per
fit. Run ``make run`` first: the default embedding is the sample's word2vec as the
workflow scores it.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd
from toysize import add_smoke, require_embedding

from learnability.concepts.lists import member_indices, resolve
from learnability.embeddings import load_embedding
from learnability.inputs import load_lists
from learnability.protocol.classify import fit_many
from learnability.protocol.evaluate import Protocol, evaluate_concept_full
from learnability.protocol.splits import concept_seeds, draw_splits
from learnability.reports.formats import to_markdown


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedding", type=Path, default=Path("results/shared/word2vec"))
    parser.add_argument("--lists", type=Path, default=Path("resources/wordlists"))
    parser.add_argument("--iterations", type=int, default=50)
    parser.add_argument("--C", type=float, nargs="+", default=[0.01, 0.1, 1.0, 10.0, 1000.0])
    parser.add_argument("--seed", type=int, default=2020)
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.iterations, args.C = 4, [1.0, 10.0]
    require_embedding(args.embedding)
    emb = load_embedding(args.embedding)
    vocab = pd.Series(emb.words)
    d = emb.vectors.shape[1]
    rows, iters = [], {}
    for name, entries in load_lists(args.lists).items():
        resolved = resolve(entries, emb.words, list_name=name, embedding="e", source="")
        idx = np.unique(member_indices(resolved, vocab))
        if idx.size < 4:
            continue
        rec = {"list": name, "in vocabulary": idx.size, "n train": 2 * (idx.size // 2)}
        for C in args.C:
            proto = Protocol(iterations=args.iterations, C=C, seed=args.seed)
            res = evaluate_concept_full(emb.vectors, idx, proto, list_name=name, embedding="e")
            rec[f"C={C:g}"] = res.iterations["auc"].mean()
            # the same splits once more, to count the solver's iterations
            seeds = concept_seeds(args.seed, name, args.iterations)
            splits = draw_splits(emb.vectors.shape[0], idx, proto, seeds, None)
            stats: dict = {}
            fit_many(
                emb.vectors,
                np.stack([s[0] for s in splits]),
                np.stack([s[1] for s in splits]).astype(float),
                C,
                stats=stats,
            )
            iters.setdefault(C, []).append(stats["iterations"] / stats["fits"])
        rows.append(rec)
    table = pd.DataFrame(rows)
    print(f"{args.embedding} ({emb.vectors.shape[0]} x {d}), {args.iterations} iterations")
    print(f"every training set has n <= d + 1 = {d + 1}: {bool((table['n train'] <= d + 1).all())}")
    print(to_markdown(table), end="")
    print(
        "L-BFGS iterations per fit: "
        + ", ".join(f"C={C:g}: {np.mean(v):.0f}" for C, v in iters.items())
    )


if __name__ == "__main__":
    start = time.perf_counter()
    main()
    print(f"{time.perf_counter() - start:.0f} s")

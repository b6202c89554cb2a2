"""Are the workflow's p-values uniform under the null, at the settings it ships with?

Usage: python benchmarks/calibration.py [--embedding results/embeddings/word2vec]
           [--configs config/config.yaml config/paper.yaml] [--lists 500] [--sizes ...]
           [--smoke]
       python benchmarks/calibration.py --expected-size [--null-dir results/null]
           [--nulls 600] [--smoke]

``--expected-size``: each method's expected size (its true type-I error, averaged over
null draws, with its Monte Carlo SE; each draw's tail by quadrature, not by sampling
lists) at 0.001, 0.01, 0.05 and 0.10, under a two-level model of
random lists' split AUCs (learnability.statistics.twolevel; no fits, seconds per row): for each
stress regime in ``twolevel.STRESS_REGIMES`` (skewed, heavy-tailed, heteroscedastic,
between/within from 0 to 4, R from 100 to 4000, K_N from 3 to 50) and for models fitted
to the null tables of each embedding under ``--null-dir`` (the workflow's own nulls:
``make run`` writes them), at config/config.yaml's K_L. Each row is marked against the
goal: within 10 % of the attainable level floor(alpha (R + 1)) / (R + 1) at 0.01-0.10,
25 % at 0.001, allowing 2 Monte Carlo SEs. ``--region-grid`` measures ``auto`` alone on a
grid of between/within 0.8-2 by skewness 0-1.2, the edges of the region where it
rescales, at K_L = 200 and 1000.

Without it, the fitted run below:

Truly null lists (random words; uniform non-members) are scored with each config's
``learnability.iterations`` splits and tested against nulls of ``random_lists.lists``
random lists of their size scored with ``random_lists.iterations`` splits, under every
``random_lists.method`` (learnability.statistics.calibration). Sizes run from 10 to 400 words, each
with its own null, so that no one null draw decides a share. Each embedding is scored as
given and as Gaussian vectors of the same shape (the chance baseline). For each method it
prints the share of p <= 0.01, 0.05, 0.10 with its Monte Carlo standard error and the band
the verdict allows (Bradley's 10 % of the level plus 4 standard errors:
learnability.statistics.calibration.calibration_summary), and the Kolmogorov-Smirnov p-value against
U(0, 1). Configs whose nulls have the same
settings (K_N, R, C; config.yaml and paper.yaml do) share one run: the lists are scored
with the largest K_L, and a smaller K_L's mean is that of the first K_L splits, the same
splits a run with that K_L would draw.

``matched`` is tested leave-one-out among the truly null lists of a size (they are random
lists scored with the lists' own number of splits): its p-values are ranks, uniform by
construction, so its row is a reference rather than a measurement.

Run ``make run`` first: the default embedding is the sample's trained word2vec.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np
import pandas as pd
import yaml
from toysize import add_smoke, require_embedding

from learnability.statistics.calibration import (
    BRADLEY,
    LEVELS,
    Z,
    calibration_summary,
    null_list_pvalues,
)
from learnability.thread_limits import limit_threads

SIZES = [10, 15, 22, 33, 50, 75, 110, 165, 250, 400]


def expected_size_tables(
    null_dir: Path, keys: list[str], nulls: int, smoke: bool, region_grid: bool = False
) -> None:
    from learnability.schemas import read_tables
    from learnability.statistics.pvalue_methods import PVALUE_METHODS
    from learnability.statistics.twolevel import (
        SIZE_LEVELS,
        STRESS_REGIMES,
        TwoLevel,
        W,
        expected_size,
        fit,
        sd_for_ratio,
        within_goal,
    )

    methods = PVALUE_METHODS

    cfg = yaml.safe_load(Path("config/config.yaml").read_text())
    k_l = int(cfg["learnability"]["iterations"])
    regimes = [(name, model, r, kn, kl) for name, model, r, kn, kl in STRESS_REGIMES]
    files = sorted(p for key in keys for p in null_dir.glob(f"*/uniform/{key}.parquet"))
    for path in files:
        null = read_tables([path], "null")
        model = fit(null)
        name = f"{path.parts[-3]} {path.stem} (fitted: {model.describe()})"
        regimes.append((name, model, len(null), int(null["iterations"].iloc[0]), k_l))
    if region_grid:
        # auto's edges: between / (within / K_N) x the true means' skewness, at config.yaml's
        # K_L and at paper.yaml's
        regimes = [
            (
                f"ratio {ratio:g}, skew {skew:g}",
                TwoLevel(sd_for_ratio(ratio), W, skew=skew),
                1000,
                10,
                kl,
            )  # fmt: skip
            for kl in (k_l, 1000)
            for ratio in (0.8, 0.9, 1.0, 1.2, 1.5, 2.0)
            for skew in (0.0, 0.2, 0.4, 0.6, 0.8, 1.0, 1.2)
        ]
        methods = ("auto",)
    if smoke:
        regimes, nulls = regimes[:2], 20
    print(f"expected size over {nulls} nulls per row; goal: 10 % of the attainable level at "
          "0.01-0.10, 25 % at 0.001 (+- 2 Monte Carlo SEs)")  # fmt: skip
    head = " | ".join(f"{a:g}" for a in SIZE_LEVELS)
    print(f"\n| regime | R | K_N | K_L | method | {head} | within goal | auto chose |")
    print("|---|---:|---:|---:|---|" + "---:|" * len(SIZE_LEVELS) + "---|---|")
    for i, (name, model, r, kn, kl) in enumerate(regimes):
        start = time.perf_counter()
        size = expected_size(model, lists=r, null_iterations=kn, list_iterations=kl,
                             methods=methods, nulls=nulls, seed=i)  # fmt: skip
        for _, row in size.iterrows():
            cells = " | ".join(
                f"{row[f'size_{a:g}']:.4f} ({row[f'rel_{a:g}']:+.0%})"
                if row[f"exact_{a:g}"] > 0 else "-"
                for a in SIZE_LEVELS
            )  # fmt: skip
            ok = "yes" if within_goal(row, z=2) else "no"
            chose = row["chosen"] if row["method"] == "auto" else ""
            print(f"| {name} | {r} | {kn} | {kl} | {row['method']} | {cells} | {ok} | {chose} |")
        print(f"<!-- {name}: {time.perf_counter() - start:.1f} s -->", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--expected-size",
        action="store_true",
        help="the exact expected size of every method, regime by regime",
    )
    parser.add_argument("--null-dir", type=Path, default=Path("results/null"))
    parser.add_argument(
        "--region-grid",
        action="store_true",
        help="with --expected-size: auto alone on a grid around its region's edges",
    )
    parser.add_argument("--null-keys", nargs="+", default=["size-11", "size-78", "size-400"],
                        help="which of each embedding's uniform nulls to fit")  # fmt: skip
    parser.add_argument("--nulls", type=int, default=600, help="null draws per row")  # fmt: skip
    parser.add_argument("--embedding", type=Path, default=Path("results/embeddings/word2vec"))
    parser.add_argument("--configs", nargs="+", default=["config/config.yaml", "config/paper.yaml"])
    parser.add_argument("--lists", type=int, default=500, help="truly null lists in all")
    parser.add_argument("--sizes", type=int, nargs="+", default=SIZES)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--nulls-per-size",
        type=int,
        default=1,
        help="independent null draws per size, the lists of a size split among them",
    )
    parser.add_argument("--out", type=Path, help="write every p-value here (.parquet)")
    parser.add_argument(
        "--no-gaussian",
        action="store_true",
        help="score only the given embedding, not also Gaussian vectors of its shape",
    )
    add_smoke(parser)
    args = parser.parse_args()
    if args.expected_size:
        expected_size_tables(args.null_dir, args.null_keys, args.nulls, args.smoke,
                             args.region_grid)  # fmt: skip
        return
    if args.smoke:
        args.lists, args.sizes = 20, [10, 20]
    require_embedding(args.embedding)
    vectors = np.load(args.embedding / "vectors.npy", mmap_mode="r")
    gauss = np.random.default_rng(args.seed).standard_normal(vectors.shape).astype(np.float32)
    per_size = -(-args.lists // len(args.sizes))
    cores = os.cpu_count() or 1
    pd.set_option("display.width", 160)
    frames = []
    # configs that share the nulls' settings (K_N, R, C) share one run: the lists are
    # scored once with the largest K_L, whose first splits are the smaller K_L's
    groups: dict[tuple[int, int, float], list[tuple[str, int]]] = {}
    for config in args.configs:
        cfg = yaml.safe_load(Path(config).read_text())
        kn = int(cfg["random_lists"]["iterations"])
        r = 50 if args.smoke else int(cfg["random_lists"]["lists"])
        C = float(cfg["learnability"]["C"])
        kl = int(cfg["learnability"]["iterations"])
        groups.setdefault((kn, r, C), []).append((config, min(kl, 40) if args.smoke else kl))
    pairs = [(str(args.embedding), vectors), ("gaussian", gauss)]
    for (kn, r, C), members in groups.items():
        for name, vec in pairs[:1] if args.no_gaussian else pairs:
            start = time.perf_counter()
            with limit_threads(cores):
                p = null_list_pvalues(
                    np.asarray(vec),
                    args.sizes,
                    lists_per_size=per_size,
                    list_iterations=[kl for _, kl in members],
                    null_iterations=kn,
                    null_lists=r,
                    C=C,
                    seed=args.seed,
                    nulls_per_size=args.nulls_per_size,
                )
            seconds = time.perf_counter() - start
            for config, kl in members:
                summary = calibration_summary(p[p["list_iterations"] == kl])
                n = int(summary["n_lists"].iloc[0])
                first = summary.iloc[0]  # the bands of the first method's standard errors
                bands = ", ".join(
                    f"{lv:g}: [{max(0.0, (1 - BRADLEY) * lv - Z * first[f'se_{lv:g}']):.3f}, "
                    f"{(1 + BRADLEY) * lv + Z * first[f'se_{lv:g}']:.3f}]"
                    for lv in LEVELS
                )
                print(
                    f"\n{config}: lists {kl} splits, nulls R = {r} x {kn} splits; {name} "
                    f"({vec.shape[0]} x {vec.shape[1]}); {n} null lists of sizes "
                    f"{args.sizes[0]}-{args.sizes[-1]}, {args.nulls_per_size} null draw(s) "
                    f"per size; {seconds:.0f} s on {cores} cores for "
                    f"{', '.join(c for c, _ in members)}"
                )
                print(f"the verdict's bands (Bradley's 10 % + 4 SE): {bands}")
                print(summary.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
                frames.append(p[p["list_iterations"] == kl].assign(config=config, embedding=name))
    if args.out:
        pd.concat(frames, ignore_index=True).to_parquet(args.out)


if __name__ == "__main__":
    main()

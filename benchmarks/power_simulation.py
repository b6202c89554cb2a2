"""Does the smallest detectable AUC detect 80 %, and do the bounds cover? An independent
simulation of both claims (docs/explanation/power.md), written from the claims, not the
code: concepts planted in clustered Gaussian vectors, lists drawn from each concept's
pool of words, scored by ``learnability.score`` as a user would (its null, its p-values
by ``auto`` and, forced, by ``rescaled_skew``; its ``auc_detectable``; its ``bounds``).

**Power.** For each size (11, 40, 100 words) and member weighting (``equal``: every
pool word carries the concept alike; ``unequal``: weights gamma(2, 0.5), CV 0.7), a
concept whose lists' mean AUC lies near the reported detectable AUC (the strengths
below, each method's own, interpolated from a run at seed 0) gives ``--draws`` lists.
Each list's statistic (what its p-value compares: the first 10 splits' mean under
``truncated``, its 200 splits' under ``rescaled_skew``) is shifted by the same amount,
the reported detectable AUC less the lists' mean AUC (a few thousandths), and the share
reaching p <= 0.05 against the random lists is the power there (target 0.80). Its SE:
binomial, plus the draws' mean AUC's error through the power curve's slope. Each list
reports its own detectable AUC (its own split noise enters the model's spread): the
concept's is their median (``detectable_range``: their range). Beside it: the same at
the detectable AUC at spread 1 (``power_1``, the model before the spread was modelled)
and at each of ``--member-spreads`` (``power_at_*``, the candidates the default
``power.MEMBER_SPREAD`` was chosen from), the AUC at which 80 % of these lists would be
detected, the lists' spread against the random lists' (SD ratio), and its parts written
out here from the claim: ``member_spread``, the SD ratio of the lists' true means (their
statistic's variance less their own split noise over the splits it averages) to the
random lists' (their means' variance less theirs), and ``split_var_ratio``, the lists'
split variance over the random lists'.

**Bounds** (``--bound-draws`` lists a size, ``--bound-sizes``): with the bounds
analysis' defaults (10 groups of 200 splits, 95 % one-sided), a weaker concept (power
about one half, so that many lists are not significant): the share of lists whose
``auc_high`` is at least the concept's mean AUC at that size (the draws' mean, whose own
error is a tenth of a list's SE), whose ``auc_low`` is at most it, and the first among
the lists with p > 0.05 only (the "evidence of absence" reading). Also the power at the
detectable AUC when each list's spread is estimated from its own jackknife
(``power.concept_spread``: the median over the lists), against the concept's measured
spread.

    .venv/bin/python benchmarks/power_simulation.py --jobs 2    # power and bounds
    .venv/bin/python benchmarks/power_simulation.py --bound-sizes --draws 400 --jobs 2 \
        --member-spreads 1.1 1.15 1.2 1.25 --seed S    # the docs' tables: 6 min a seed
    .venv/bin/python benchmarks/power_simulation.py --smoke      # seconds; figures mean nothing
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext

import numpy as np
import pandas as pd

import learnability
from learnability.statistics.power import concept_spread, detectable_auc
from learnability.statistics.significance import (
    comparison_null,
    empirical_pvalue,
)
from learnability.thread_limits import limit_threads

ALPHA, POWER, CONFIDENCE = 0.05, 0.8, 0.95
WORDS, DIM, POOL, CLUSTERS = 4000, 50, 400, 80
# the concept's strength a (members, size, method) for each seed's embedding: its lists'
# mean AUC near the detectable AUC that method reports (seeds 0 and 1 interpolated from a
# first run on each, when the model's spread was a constant 1.2; seeds 2 and 3, drawn
# after MEMBER_SPREAD was chosen, from a first run at seed 0's strengths, each moved by
# its shift over the AUC's slope in the strength measured at seed 0); the shift takes
# the rest, and is printed. rescaled_skew compares 200 splits' means, so it detects
# weaker concepts. Other seeds take seed 0's.
STRENGTH = {
    0: {("equal", 11, "auto"): 4.1, ("equal", 40, "auto"): 1.8, ("equal", 100, "auto"): 1.09,
        ("unequal", 11, "auto"): 5.1, ("unequal", 40, "auto"): 2.02,
        ("unequal", 100, "auto"): 1.16, ("equal", 11, "rescaled_skew"): 3.5,
        ("equal", 40, "rescaled_skew"): 1.48, ("equal", 100, "rescaled_skew"): 0.9,
        ("unequal", 11, "rescaled_skew"): 4.05, ("unequal", 40, "rescaled_skew"): 1.6,
        ("unequal", 100, "rescaled_skew"): 0.92},
    1: {("equal", 11, "auto"): 4.36, ("equal", 40, "auto"): 1.99, ("equal", 100, "auto"): 1.26,
        ("unequal", 11, "auto"): 5.73, ("unequal", 40, "auto"): 2.36,
        ("unequal", 100, "auto"): 1.45, ("equal", 11, "rescaled_skew"): 3.81,
        ("equal", 40, "rescaled_skew"): 1.66, ("equal", 100, "rescaled_skew"): 1.05,
        ("unequal", 11, "rescaled_skew"): 4.72, ("unequal", 40, "rescaled_skew"): 1.89,
        ("unequal", 100, "rescaled_skew"): 1.18},
    2: {("equal", 11, "auto"): 3.79, ("equal", 40, "auto"): 2.04, ("equal", 100, "auto"): 1.2,
        ("unequal", 11, "auto"): 4.71, ("unequal", 40, "auto"): 2.33,
        ("unequal", 100, "auto"): 1.29, ("equal", 11, "rescaled_skew"): 3.79,
        ("equal", 40, "rescaled_skew"): 1.7, ("equal", 100, "rescaled_skew"): 0.99,
        ("unequal", 11, "rescaled_skew"): 4.66, ("unequal", 40, "rescaled_skew"): 1.88,
        ("unequal", 100, "rescaled_skew"): 1.05},
    3: {("equal", 11, "auto"): 3.91, ("equal", 40, "auto"): 1.95, ("equal", 100, "auto"): 1.16,
        ("unequal", 11, "auto"): 4.9, ("unequal", 40, "auto"): 2.3,
        ("unequal", 100, "auto"): 1.35, ("equal", 11, "rescaled_skew"): 3.28,
        ("equal", 40, "rescaled_skew"): 1.62, ("equal", 100, "rescaled_skew"): 0.96,
        ("unequal", 11, "rescaled_skew"): 4.01, ("unequal", 40, "rescaled_skew"): 1.87,
        ("unequal", 100, "rescaled_skew"): 1.08},
}  # fmt: skip
# weaker, for the bounds: about half the lists significant
BOUND_STRENGTH = {11: 3.0, 40: 1.45, 100: 0.9}
OFF = dict(suggestions=0, check_folds=0, entanglement_iterations=0, codelength_orders=0,
           curve_subsamples=0)  # fmt: skip


def embedding(seed: int) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Clustered Gaussian vectors (random lists' true AUCs vary, as on trained
    embeddings) and a unit concept direction."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((CLUSTERS, DIM))
    x = 1.5 * centres[rng.integers(0, CLUSTERS, WORDS)] + rng.standard_normal((WORDS, DIM))
    u = rng.standard_normal(DIM)
    return x, u / np.linalg.norm(u), [f"w{i}" for i in range(WORDS)]


def planted(x: np.ndarray, u: np.ndarray, strength: float, members: str, seed: int):
    """The pool (rows 0..POOL-1) shifted along ``u``: alike, or gamma-weighted."""
    w = np.ones(POOL)
    if members == "unequal":
        w = np.random.default_rng(seed + 1000).gamma(2.0, 0.5, POOL)
    y = x.copy()
    y[:POOL] += (strength * w)[:, None] * u[None, :]
    return y


def draw_lists(words: list[str], size: int, draws: int, seed: int) -> dict[str, list[str]]:
    rng = np.random.default_rng(seed + 2000 + size)
    return {f"c{i}": [words[j] for j in rng.choice(POOL, size, replace=False)]
            for i in range(draws)}  # fmt: skip


def shifted_power(stat: np.ndarray, values: np.ndarray, at: float) -> float:
    """The share of lists whose statistics, shifted to mean ``at``, reach p <= ALPHA."""
    shifted = stat - stat.mean() + at
    return float(np.mean([empirical_pvalue(t, values)[1] <= ALPHA for t in shifted]))


def power_row(
    got, method: str, size: int, members: str, settings: dict, spreads: tuple = ()
) -> dict:
    """The power at the detectable AUC that ``score()`` reported for these lists (each
    list reports its own, by its own split noise: their median is the concept's)."""
    k_l = settings["iterations"]
    pv = got.pvalues
    used = str(pv["method"].iloc[0])
    values = comparison_null(got.null, used, k_l).values
    reported = float(pv["auc_detectable"].median())
    stat = pv["observed"].to_numpy(float)
    n = stat.size
    measured = shifted_power(stat, values, reported)
    slope = (shifted_power(stat, values, reported + 0.005)
             - shifted_power(stat, values, reported - 0.005)) / 0.01  # fmt: skip
    mean_se = pv["auc"].std(ddof=1) / np.sqrt(n)
    se = np.sqrt(measured * (1 - measured) / n + (slope * mean_se) ** 2)
    # the model's spread of 1, as the detectable AUC was reported before the spread
    at_one = detectable_auc(values, ALPHA, POWER)
    # the AUC 80 % of these lists reach: the critical value (the floor(alpha (R + 1))-th
    # largest random list's value) plus the lists' mean less their 20 % quantile
    crit = np.sort(values)[::-1][int(np.floor(ALPHA * (values.size + 1) + 1e-9)) - 1]
    auc80 = float(crit + stat.mean() - np.quantile(stat, 1 - POWER))
    spread = float(stat.std(ddof=1) / values.std(ddof=1))
    # the spread's two parts, written from the claim: the random lists' true means'
    # variance (their means' variance less their splits' noise) and each list's own
    # splits' variance over the splits its statistic averages; what is left of the lists'
    # variance is their true means', whose SD ratio to the random lists' is the member
    # spread the model takes as MEMBER_SPREAD
    k_null = int(got.null["iterations"].iloc[0])
    k_stat = k_null if used == "truncated" else k_l
    between = float(got.null["auc"].var(ddof=1) - got.null["auc_var"].mean() / k_null)
    split_var = got.iterations.groupby("list")["auc"].var().reindex(pv["list"]).to_numpy()
    member = float(np.sqrt(max(stat.var(ddof=1) - split_var.mean() / k_stat, 0.0) / between))
    split_ratio = float(split_var.mean() / got.null["auc_var"].mean())

    def at_member(rho: float) -> float:
        """The median over the lists of the detectable AUC at member spread ``rho``."""
        spreads = np.sqrt((rho**2 * between + split_var / k_stat) / values.var(ddof=1))
        return float(np.median([detectable_auc(values, ALPHA, POWER, s) for s in spreads]))

    # the power that the detectable AUC at each candidate member spread would have had
    candidates = {f"power_at_{s:g}": shifted_power(stat, values, at_member(s))
                  for s in spreads}  # fmt: skip
    return {
        "size": size, "members": members, "method": method, "used": used, "lists": n,
        "mean_auc": float(pv["auc"].mean()), "shift": reported - float(pv["auc"].mean()),
        "auc_detectable": reported,
        "detectable_range": float(pv["auc_detectable"].max() - pv["auc_detectable"].min()),
        "power": measured, "power_se": float(se),
        "auc_detectable_1": at_one, "power_1": shifted_power(stat, values, at_one),
        "auc_80": auc80, "spread": spread, "member_spread": member,
        "split_var_ratio": split_ratio, "model_spread": float(pv["power_spread"].median()),
        **candidates,
    }  # fmt: skip


def power_cell(cell: tuple) -> dict:
    """One power cell (size, members, method): its concept planted, its lists drawn and
    scored; with ``save``, each list's statistic and the random lists' values (NPZ)."""
    size, members, method, draws, seed, shared, settings, save, jobs, spreads = cell
    x, u, words = embedding(seed)
    # --shared-concept: every method on the auto cell's concept (the shift then takes
    # rescaled_skew's lists 0.03-0.06 down)
    strength = STRENGTH.get(seed, STRENGTH[0])[members, size, "auto" if shared else method]
    y = planted(x, u, strength, members, seed)
    lists = draw_lists(words, size, draws, seed)
    start = time.perf_counter()
    with limit_threads(1) if jobs > 1 else nullcontext():
        got = learnability.score((words, y), lists, **settings, **OFF, bound_groups=0,
                                 pvalue_method=method)  # fmt: skip
    row = power_row(got, method, size, members, settings, spreads)
    row["seconds"] = round(time.perf_counter() - start)
    if save:
        used = str(got.pvalues["method"].iloc[0])
        np.savez(f"{save}/power_{size}_{members}_{method}.npz",
                 stat=got.pvalues["observed"].to_numpy(float),
                 auc=got.pvalues["auc"].to_numpy(float),
                 values=comparison_null(got.null, used, settings["iterations"]).values)  # fmt: skip
    return row


def bound_rows(got, size: int, members: str, settings: dict) -> dict:
    k_l = settings["iterations"]
    b = got.bounds.set_index("list")
    pv = got.pvalues.set_index("list").loc[b.index]
    truth = float(b["auc"].mean())
    n = len(b)
    high, low = b["auc_high"].to_numpy(), b["auc_low"].to_numpy()
    quiet = (pv["p_value"] > ALPHA).to_numpy()
    # each list's spread from its own jackknife: between = se^2 - split noise, the splits'
    # variance from the list's split SE over its splits
    used = str(pv["method"].iloc[0])
    values = comparison_null(got.null, used, k_l).values
    k_stat = int(pv["null_iterations"].iloc[0]) if used == "truncated" else k_l
    between = np.maximum(b["auc_se"] ** 2 - b["auc_split_se"] ** 2, 0.0)
    split_var = b["auc_split_se"] ** 2 * b["iterations"]
    spreads = np.array(
        [concept_spread(values, v, s, k_stat) for v, s in zip(between, split_var, strict=True)]
    )
    stat = pv["observed"].to_numpy(float)
    sde = detectable_auc(values, ALPHA, POWER, float(np.median(spreads)))
    measured = shifted_power(stat, values, sde)

    def share(x: np.ndarray) -> tuple[float, float]:
        return float(x.mean()), float(np.sqrt(x.mean() * (1 - x.mean()) / max(x.size, 1)))

    (hi, hi_se), (lo, lo_se), (hq, hq_se) = (
        share(high >= truth),
        share(low <= truth),
        share(high[quiet] >= truth),
    )
    return {
        "size": size, "members": members, "lists": n, "mean_auc": truth,
        "significant": float(1 - quiet.mean()), "high_covers": hi, "high_se": hi_se,
        "low_covers": lo, "low_se": lo_se, "not_significant": int(quiet.sum()),
        "high_covers_if_not_significant": hq, "high_if_not_significant_se": hq_se,
        "se_over_sd": float(b["auc_se"].mean() / b["auc"].std(ddof=1)),
        "spread_jackknife_median": float(np.median(spreads)),
        "spread_measured": float(stat.std(ddof=1) / values.std(ddof=1)),
        "power_at_detectable_jackknife_spread": measured,
        "power_se": float(np.sqrt(measured * (1 - measured) / n)),
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--draws", type=int, default=200, help="lists a power cell")
    parser.add_argument("--sizes", type=int, nargs="*", default=[11, 40, 100])
    parser.add_argument("--bound-draws", type=int, default=150, help="lists a bounds cell")
    parser.add_argument("--bound-sizes", type=int, nargs="*", default=[11])
    parser.add_argument("--members", nargs="*", default=["equal", "unequal"])
    parser.add_argument("--methods", nargs="*", default=["auto", "rescaled_skew"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--shared-concept", action="store_true",
                        help="score every method on the auto cell's concept")  # fmt: skip
    parser.add_argument(
        "--save", default=None, help="a folder for each list's bounds (CSV) and statistics (NPZ)"
    )
    parser.add_argument("--jobs", type=int, default=1,
                        help="power cells scored at once, one thread each")  # fmt: skip
    parser.add_argument("--member-spreads", type=float, nargs="*", default=[],
                        help="candidate member spreads: the power at each's")  # fmt: skip
    parser.add_argument("--smoke", action="store_true", help="a toy size, seconds")
    args = parser.parse_args()
    settings = dict(iterations=200, null_lists=1000, null_iterations=10, seed=args.seed)
    if args.smoke:
        args.draws, args.bound_draws, args.sizes, args.bound_sizes = 6, 6, [11], [11]
        args.members = ["equal"]
        settings.update(iterations=20, null_lists=1000, null_iterations=10)
    x, u, words = embedding(args.seed)
    start = time.perf_counter()
    cells = [(size, members, method, args.draws, args.seed, args.shared_concept, settings,
              args.save, args.jobs, tuple(args.member_spreads))
             for size in args.sizes for members in args.members
             for method in args.methods]  # fmt: skip
    bounds = []
    with ProcessPoolExecutor(args.jobs) as pool:
        power = []
        for row in pool.map(power_cell, cells):
            power.append(row)
            print(pd.DataFrame([row]).round(4).to_string(index=False), flush=True)
    for size in args.bound_sizes:
        y = planted(x, u, BOUND_STRENGTH[size], "unequal", args.seed)
        lists = draw_lists(words, size, args.bound_draws, args.seed + 1)
        got = learnability.score((words, y), lists, **settings, **OFF,
                                 bound_iterations=settings["iterations"])  # fmt: skip
        bounds.append(bound_rows(got, size, "unequal", settings))
        if args.save:
            # each list's bounds beside its p-value, to try other constructions on
            pv = got.pvalues.set_index("list")[["p_value", "observed"]]
            got.bounds.join(pv, on="list").to_csv(f"{args.save}/bounds_{size}.csv", index=False)
        print(pd.DataFrame(bounds[-1:]).round(4).to_string(index=False), flush=True)
    print(f"\n{time.perf_counter() - start:.0f} s; seed {args.seed}\n")
    with pd.option_context("display.width", 200):
        print("power at the reported detectable AUC (target 0.80):")
        print(pd.DataFrame(power).round(3).to_markdown(index=False))
        if bounds:
            print("\nbounds (95 % one-sided each), unequal members:")
            print(pd.DataFrame(bounds).round(3).to_markdown(index=False))


if __name__ == "__main__":
    main()

"""A sweep's statistics: each point's mean AUC with bootstrap bands over the iterations,
the main effect of each parameter, the Wilcoxon tests between methods paired over
lists at each setting, and the seed sweep's comparison. The grid is planned in
:mod:`learnability.pipeline.sweeps`, the tables for people written by
:mod:`learnability.reports.sweep_tables`; what both share of a sweep's columns (the
swept parameters' prefix, a value as text) is here, below them."""

from __future__ import annotations

import numpy as np
import pandas as pd

from learnability.protocol.sampling import derive_seed
from learnability.schemas import VARIABLE
from learnability.statistics.adjust import adjust_pvalues
from learnability.statistics.comparison import compare_within

# the swept parameters' columns in the sweep tables: param_<key>, as the schemas declare
PARAM_PREFIX = VARIABLE["sweep_scores"]


def format_value(value) -> str:
    """A swept value as it appears in names and settings: 50, 0.25, 1, corpus, true."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def param_columns(df: pd.DataFrame) -> list[str]:
    return [c for c in df.columns if c.startswith(PARAM_PREFIX)]


def bootstrap_replicates(
    iterations: pd.DataFrame, resamples: int, seed: int
) -> dict[tuple[str, str], np.ndarray]:
    """(embedding, negatives) -> ``resamples`` bootstrap replicates of the point's mean AUC
    over lists: each list's iterations resampled on their own (the Monte Carlo error of
    each list's mean, as ``learnability.bootstrap`` measures it), then averaged over the
    lists."""
    out = {}
    for (embedding, scheme), g in iterations.groupby(["embedding", "negatives"], sort=False):
        per_list = []
        for name, rows in g.groupby("list", sort=True):
            auc = rows["auc"].to_numpy(dtype=float)
            rng = np.random.default_rng(derive_seed(seed, "sweep", embedding, name, scheme))
            per_list.append(auc[rng.integers(0, auc.size, size=(resamples, auc.size))].mean(axis=1))
        out[(embedding, scheme)] = np.mean(per_list, axis=0)
    return out


def _band(replicates: np.ndarray, level: float) -> tuple[float, float]:
    alpha = (1 - level) / 2
    low, high = np.quantile(replicates, [alpha, 1 - alpha])
    return float(low), float(high)


def sweep_points(
    scores: pd.DataFrame,
    iterations: pd.DataFrame,
    *,
    resamples: int,
    level: float,
    seed: int,
    replicates: dict | None = None,
) -> pd.DataFrame:
    """One row per (point, negatives): the mean AUC over the lists that have members
    enough, and its bootstrap band (schema ``sweep_points``). ``replicates``: those of
    :func:`bootstrap_replicates` with the same resamples and seed, if already drawn."""
    reps = replicates or bootstrap_replicates(iterations, resamples, seed)
    auc = scores[(scores["metric"] == "auc") & (scores["iterations"] > 0)]
    keys = ["sweep", "embedding", "method", "setting", "negatives", *param_columns(scores)]
    rows = []
    for key, g in auc.groupby(keys, sort=False, dropna=False):
        row = dict(zip(keys, key, strict=True))
        low, high = _band(reps[(row["embedding"], row["negatives"])], level)
        rows.append(
            {**row, "n_lists": len(g), "auc": g["mean"].mean(), "ci_low": low, "ci_high": high}
        )
    return pd.DataFrame(rows)


def sweep_effects(
    points: pd.DataFrame,
    iterations: pd.DataFrame,
    *,
    resamples: int,
    level: float,
    seed: int,
    replicates: dict | None = None,
) -> pd.DataFrame:
    """The main effect of each swept parameter per method (schema ``sweep_effects``): at
    each of its values, the mean AUC over the points with that value (so averaged over
    the other parameters' grid values) and its bootstrap band, from the same replicates
    as :func:`sweep_points`."""
    reps = replicates or bootstrap_replicates(iterations, resamples, seed)
    rows = []
    for column in param_columns(points):
        parameter = column[len(PARAM_PREFIX) :]
        for (method, scheme), g in points.groupby(["method", "negatives"], sort=False):
            for value, h in g.groupby(column, sort=True):
                rep = np.mean([reps[(e, scheme)] for e in h["embedding"]], axis=0)
                low, high = _band(rep, level)
                rows.append(
                    {"sweep": h["sweep"].iloc[0], "method": method, "negatives": scheme,
                     "parameter": parameter, "value": format_value(value),
                     "x": float(value) if _numeric(value) else np.nan,
                     "n_points": len(h), "n_lists": int(h["n_lists"].min()),
                     "auc": h["auc"].mean(), "ci_low": low, "ci_high": high}
                )  # fmt: skip
    return pd.DataFrame(rows)


def _numeric(value) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


def sweep_wilcoxon(
    scores: pd.DataFrame,
    methods: list[str],
    alternative: str,
    overlap: pd.DataFrame | None = None,
    units: list[str] | None = None,
) -> pd.DataFrame:
    """At each setting, the methods compared by the paired Wilcoxon test over lists, each
    pair once in the sweep's order (as ``compare.embeddings`` states a hypothesis):
    schema ``sweep_wilcoxon``. ``p_holm`` adjusts over the pairs at one setting (as the
    main comparison does), ``p_holm_sweep`` over every test of the sweep, scheme and
    units. ``overlap`` (schema ``overlap``, the lists on the sweep's vocabulary, which
    every method shares) counts nested pairs and adds the tests over disjoint ``units``
    (:func:`learnability.statistics.comparison.compare_embeddings`)."""
    if len(methods) < 2:
        return pd.DataFrame()
    auc = scores[(scores["metric"] == "auc") & (scores["iterations"] > 0)]
    out = compare_within(auc, "setting", "method", methods, alternative, overlap,
                         units or ("lists",))  # fmt: skip
    out.insert(0, "sweep", auc["sweep"].iloc[0])
    out["n_nested_pairs"] = out["n_nested_pairs"].fillna(0)
    out["p_holm_sweep"] = np.nan
    for _, idx in out.groupby(["negatives", "units"]).groups.items():
        out.loc[idx, "p_holm_sweep"] = adjust_pvalues(out.loc[idx, "p_value"].to_numpy(), "holm")
    return out


def seed_comparison(
    scores: pd.DataFrame,
    methods: list[str],
    alternative: str,
    overlap: pd.DataFrame | None = None,
    units: list[str] | None = None,
    alpha: float = 0.05,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Does a verdict between trainers survive a new training seed? (schemas
    ``sweep_seed_tests`` and ``sweep_seed_spread``).

    Tests: each pair of ``methods`` (the sweep's order) by the Wilcoxon test at every
    seed (``seed`` is the setting) and over each list's mean AUC across the seeds
    (``seed`` "mean"), under each of ``units``; ``every_seed`` says whether p < ``alpha``
    at every seed. Spread: per method, list and scheme, the SD of the list's mean AUC
    across seeds beside its split SD and the split-noise SE of its mean (split SD /
    sqrt(iterations), averaged over seeds): a seed SD far above the split SE means the
    training seed, not the splits, decides the list's AUC."""
    auc = scores[(scores["metric"] == "auc") & (scores["iterations"] > 0)]
    per_seed = sweep_wilcoxon(scores, methods, alternative, overlap, units)
    if per_seed.empty:
        return pd.DataFrame(), pd.DataFrame()
    per_seed = per_seed.rename(columns={"setting": "seed"}).drop(columns=["sweep", "p_holm_sweep"])
    # each list's mean AUC over the seeds, as one more "seed"
    mean = auc.groupby(["method", "list", "negatives"], sort=False)["mean"].mean().reset_index()
    over_mean = compare_within(mean.assign(seed="mean"), "seed", "method", methods,
                               alternative, overlap, units or ("lists",))  # fmt: skip
    tests = pd.concat([per_seed, over_mean], ignore_index=True)
    keys = ["negatives", "units", "embedding_a", "embedding_b"]
    seeds = tests[tests["seed"] != "mean"]
    every = (seeds.groupby(keys)["p_value"].max() < alpha).rename("every_seed").reset_index()
    tests = tests.merge(every, on=keys, how="left")
    first = ["seed", *keys]
    tests = tests[first + [c for c in tests.columns if c not in first]]
    g = auc.groupby(["negatives", "method", "list"], sort=False)
    spread = g.agg(
        seeds=("mean", "size"),
        auc=("mean", "mean"),
        seed_sd=("mean", lambda v: float(np.std(v, ddof=1)) if len(v) > 1 else np.nan),
        split_sd=("std", "mean"),
        iterations=("iterations", "mean"),
    ).reset_index()
    spread["split_se"] = spread["split_sd"] / np.sqrt(spread["iterations"])
    spread["seed_to_split"] = spread["seed_sd"] / spread["split_se"]
    return tests, spread.drop(columns="iterations")

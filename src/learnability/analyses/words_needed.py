"""How many words a list needs: the protocol's power against the number of members.

For each size m below the list's own (a grid shared by every list, so that one null a
size serves them all), ``subsamples`` random subsets of m members are scored with the
lists' own number of splits and tested as the lists are, against random lists of m
words (their p-values by the run's ``random_lists`` settings and method, at level
``power.alpha``). The share that reach it is the power at m, measured; beside it, the
smallest detectable AUC at m (:func:`learnability.statistics.power.detectable_auc`, at
the modelled spread of a concept's lists,
:func:`learnability.statistics.power.model_spread`, with the subsets' own split noise),
and the subsets' mean AUC. Where the measured power crosses ``power.power``
(:func:`words_for_power`) is how many words this concept needs in this embedding; where
the mean AUC stays below the detectable one, more words would not help much.

Random lists of each size are scored once a job (uniform words; under frequency-matched
non-members their non-members are matched to their own frequency profile), not a
frequency profile a subset: a subset's profile is its own, and a null each would cost
more than the curve.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from learnability import schemas
from learnability.analyses.base import Analysis, Lists, NullSpec, Report, Setting
from learnability.protocol.sampling import derive_seed

# the sizes tried, up to a list's own (exclusive): about 1.5x apart
GRID = (5, 8, 12, 20, 30, 50, 80, 120, 200, 300, 500, 800, 1200, 2000)


def sizes_for(size: int, sizes: tuple[int, ...], min_words: int) -> list[int]:
    """The subset sizes of a list of ``size`` members: ``sizes`` (or :data:`GRID`) from
    ``min_words`` up to, not including, its own size."""
    return [m for m in (sizes or GRID) if min_words <= m < size]


def null_values(vectors, m: int, protocol, spec: NullSpec, bins, embedding: str):
    """(method used, the values a mean over ``spec.list_iterations`` splits of an m-word
    list is compared with, the splits of the null, the random lists' (within, between)
    variances): the p-values' own comparison."""
    from learnability.protocol.evaluate import null_distribution
    from learnability.statistics.pvalue_methods import random_list_splits
    from learnability.statistics.significance import (
        comparison_null,
        null_variances,
        resolve_method,
    )

    k_null = random_list_splits(spec.method, spec.list_iterations, spec.iterations)
    null = null_distribution(
        vectors, key=f"size-{m}", lists=spec.lists, embedding=embedding, bins=bins,
        protocol=replace(protocol, iterations=k_null, seed=spec.seed),
    )  # fmt: skip
    used, _ = resolve_method(null, spec.method, spec.list_iterations)
    values = comparison_null(null, used, spec.list_iterations).values
    return used, values, k_null, null_variances(null, k_null)


def curve_rows(
    vectors: np.ndarray, members: np.ndarray, protocol, spec: NullSpec, *,
    subsamples: int, sizes: tuple[int, ...], alpha: float, power: float, list_name: str,
    embedding: str, bins: np.ndarray | None, nulls: dict,
) -> list[dict]:  # fmt: skip
    """One list's rows of the ``words_needed`` table; ``nulls`` caches each size's
    comparison across the lists of a job."""
    from learnability.protocol.splits import draw_splits, fit_splits
    from learnability.statistics.power import detectable_auc, model_spread
    from learnability.statistics.significance import empirical_pvalue

    members = np.unique(np.asarray(members, dtype=np.int64))
    k = spec.list_iterations
    runs = replace(protocol, iterations=k)
    rows = []
    for m in sizes_for(members.size, sizes, protocol.min_words):
        if m not in nulls:
            nulls[m] = null_values(vectors, m, protocol, spec, bins, embedding)
        used, values, k_null, (within, between) = nulls[m]
        splits = []
        for s in range(subsamples):
            seed = derive_seed(protocol.seed, "words-needed", list_name, m, s)
            subset = np.sort(np.random.default_rng(seed).choice(members, m, replace=False))
            seeds = [derive_seed(seed, "split", i) for i in range(k)]
            splits += draw_splits(vectors.shape[0], subset, runs, seeds, bins)
        aucs = fit_splits(vectors, splits, runs).metrics()["auc"].reshape(subsamples, k)
        stat = aucs[:, :k_null].mean(axis=1) if used == "truncated" else aucs.mean(axis=1)
        hit = np.array([empirical_pvalue(t, values)[1] <= alpha for t in stat])
        share = float(hit.mean())
        means = aucs.mean(axis=1)
        # the subsets' own split noise, as a list's is its own in the p-values' model (at
        # one split, the random lists' stands in, as it does for a list)
        split_var = float(aucs.var(axis=1, ddof=1).mean()) if k > 1 else within
        spread = model_spread(values, between, split_var, k_null if used == "truncated" else k)
        rows.append(
            {
                "list": list_name,
                "embedding": embedding,
                "negatives": protocol.negatives,
                "size": int(members.size),
                "words": m,
                "subsamples": subsamples,
                "iterations": k,
                "method": used,
                "auc_mean": float(means.mean()),
                "auc_sd": float(means.std(ddof=1)) if subsamples > 1 else 0.0,
                "power": share,
                "power_se": float(np.sqrt(share * (1 - share) / subsamples)),
                "power_alpha": alpha,
                "power_target": power,
                "power_spread": spread,
                "auc_detectable": detectable_auc(values, alpha, power, spread),
            }
        )
    return rows


def words_for_power(table: pd.DataFrame) -> pd.DataFrame:
    """Per (list, embedding, negatives): the fewest words at which the measured power
    reaches its target, interpolated linearly between the sizes tried (NaN where it
    does not below the list's own size), and the largest size tried."""
    out = []
    for (name, embedding, negatives), g in table.groupby(
        ["list", "embedding", "negatives"], sort=False
    ):
        g = g.sort_values("words")
        target = float(g["power_target"].iloc[0])
        words, power = g["words"].to_numpy(float), g["power"].to_numpy(float)
        needed = float("nan")
        reached = np.flatnonzero(power >= target)
        if reached.size:
            i = int(reached[0])
            if i == 0:
                needed = words[0]
            else:
                # linear between the last size below the target and the first at it
                frac = (target - power[i - 1]) / (power[i] - power[i - 1])
                needed = words[i - 1] + frac * (words[i] - words[i - 1])
        out.append({"list": name, "embedding": embedding, "negatives": negatives,
                    "size": int(g["size"].iloc[0]), "largest_tried": int(words[-1]),
                    "words_needed": needed})  # fmt: skip
    return pd.DataFrame(out)


def run(lists: Lists, settings: Mapping[str, Any]) -> pd.DataFrame:
    """The analysis: every list's power against its number of words (schema
    ``words_needed``)."""
    from learnability.protocol.classify import quiet_fits

    if lists.nulls is None:
        raise ValueError("words_needed needs the run's null settings (Lists.nulls)")
    nulls: dict = {}
    rows: list[dict] = []
    for name, members in lists.each("words needed"):
        with quiet_fits():
            rows += curve_rows(
                lists.vectors, members, lists.protocol, lists.nulls,
                subsamples=settings["curve_subsamples"], sizes=tuple(settings["curve_sizes"]),
                alpha=settings["alpha"], power=settings["power"], list_name=name,
                embedding=lists.embedding, bins=lists.bins,
                nulls=nulls,
            )  # fmt: skip

    return pd.DataFrame(rows) if rows else schemas.empty("words_needed")


def _describe(table: pd.DataFrame) -> str:
    if table.empty:
        return "no list larger than the smallest size tried"
    return "\n" + words_for_power(table).to_string(index=False)


ANALYSIS = Analysis(
    name="words_needed",
    summary="how many words each list needs: the protocol's power at subsets of its "
    "members against random lists of their size, and the smallest AUC detectable there",
    output="results/words_needed/{embedding}/{negatives}.parquet",
    table="words_needed",
    run=run,
    enabled=lambda s: s["curve_subsamples"] > 0,
    settings=(
        Setting(
            "curve_subsamples",
            "power.subsamples",
            "random subsets of each size (0: no words-needed curve)",
            "--words-needed",
        ),
        Setting(
            "curve_sizes",
            "power.sizes",
            "the subset sizes (empty: 5, 8, 12, 20, 30, 50, 80, ... below each list's)",
            "--words-sizes",
        ),
        Setting("alpha", "power.alpha", "the level a subset's p-value is tested at"),
        Setting("power", "power.power", "the power whose number of words is reported"),
    ),  # fmt: skip
    nulls=True,
    report=Report(
        category="Power",
        formats=("md", "csv"),
        plot="How many words each list needs: power against the number of its words",
    ),
    describe=_describe,
)

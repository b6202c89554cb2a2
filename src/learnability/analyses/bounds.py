"""Bounds on each list's AUC from resampling its members: how high (or low) the AUC of
lists of this size drawn from the concept could be, given this one.

A list's p-value says whether it stands out from random lists; when it does not, the
question is whether the concept is absent or the list too small to tell. The list's
mean AUC over its splits varies with which words the list holds, not only with the
splits, and the splits' spread (the bootstrap interval of the summary table) misses
that. Here the members are cut at random into ``groups`` groups (one member each for
a list with fewer members), the protocol is run once without each group
(``iterations`` splits, seeds keyed on the list and group), and the delete-a-group
jackknife of those runs' means, less their own split noise, is the variance of the
list's mean as a sample of the concept's words
(:func:`learnability.statistics.power.jackknife_bound`). ``auc`` is the mean over the
list's own first ``iterations`` splits (redrawn from the learnability job's seeds: its
mean, when the job has as many splits, as both have by default). The bounds are one-sided
at ``confidence`` each: "lists of this size from this concept score below auc_high"
is the evidence of absence a non-learnable list can give.

What they bound: the mean AUC over lists of this size drawn at random from a pool of
words that stand for the concept, the list taken for one such draw (not this list's own
AUC, nor all the concept's words', nor a longer list's). Measured on planted concepts
whose members carry them unequally (``benchmarks/power_simulation.py``,
docs/explanation/power.md has the table and its commands): at 11 words both bounds
cover at least nominally (upper 0.99, lower 0.97, each +- 0.02, 100 lists), and so
does ``auc_high`` among the lists that are not significant (0.98 +- 0.02); the
jackknife errs wide there (its SE 1.6 times the lists' SD).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from learnability.analyses.base import Analysis, Lists, Setting
from learnability.protocol.sampling import derive_seed
from learnability.statistics.power import jackknife_bound


def jackknife_groups(size: int, groups: int, min_words: int) -> int:
    """How many groups a list of ``size`` members is cut into: ``groups``, or more where a
    run without the largest group would keep fewer than ``min_words`` members (one member
    a group at most); 0 where even leaving out one member would (a list at min_words has
    no bounds)."""
    g = min(groups, size)
    while g < size and size - -(-size // g) < min_words:
        g += 1
    return g if size - -(-size // g) >= min_words and g >= 2 else 0


def group_runs(
    vectors: np.ndarray, members: np.ndarray, protocol, *, groups: int, iterations: int,
    list_name: str, bins: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """(each run's mean AUC, each run's split variance): the protocol once without each
    of :func:`jackknife_groups` random groups of ``members``; empty where there are none."""
    from learnability.protocol.splits import draw_splits, fit_splits

    members = np.unique(np.asarray(members, dtype=np.int64))
    g = jackknife_groups(members.size, groups, protocol.min_words)
    if g == 0:
        return np.empty(0), np.empty(0)
    rng = np.random.default_rng(derive_seed(protocol.seed, "bound", list_name))
    parts = np.array_split(rng.permutation(members), g)
    runs = replace(protocol, iterations=iterations)
    means, variances = np.empty(g), np.empty(g)
    for j, part in enumerate(parts):
        kept = np.setdiff1d(members, part, assume_unique=True)
        seeds = [derive_seed(protocol.seed, "bound", list_name, j, i) for i in range(iterations)]
        aucs = fit_splits(vectors, draw_splits(vectors.shape[0], kept, runs, seeds, bins),
                          runs).metrics()["auc"]  # fmt: skip
        means[j] = aucs.mean()
        variances[j] = aucs.var(ddof=1) if aucs.size > 1 else 0.0
    return means, variances


def bound_row(
    vectors: np.ndarray, members: np.ndarray, protocol, *, groups: int, iterations: int,
    confidence: float, list_name: str, embedding: str, bins: np.ndarray | None,
) -> dict:  # fmt: skip
    """One list's row of the ``bounds`` table."""
    from learnability.protocol.splits import concept_seeds, draw_splits, fit_splits

    members = np.unique(np.asarray(members, dtype=np.int64))
    # the list's own first ``iterations`` splits: the learnability job's, whose mean this
    # is when the job has as many (both default to 200)
    protocol = replace(protocol, iterations=iterations)
    seeds = concept_seeds(protocol.seed, list_name, iterations)
    full = fit_splits(vectors, draw_splits(vectors.shape[0], members, protocol, seeds, bins),
                      protocol).metrics()["auc"]  # fmt: skip
    means, variances = group_runs(
        vectors, members, protocol, groups=groups, iterations=iterations,
        list_name=list_name, bins=bins,
    )  # fmt: skip
    auc = float(full.mean())
    noise = float(full.var(ddof=1)) / full.size if full.size > 1 else 0.0
    se = low = high = float("nan")
    if means.size:
        se, low, high = jackknife_bound(
            auc, noise, means, float(variances.mean()), iterations, confidence
        )
    return {
        "list": list_name,
        "embedding": embedding,
        "negatives": protocol.negatives,
        "size": int(members.size),
        "iterations": int(full.size),
        "groups": int(means.size),
        "group_iterations": iterations,
        "auc": auc,
        "auc_se": se,
        "auc_split_se": float(np.sqrt(noise)),
        "confidence": confidence,
        "auc_low": low,
        "auc_high": high,
    }


def run(lists: Lists, settings: Mapping[str, Any]) -> pd.DataFrame:
    """The analysis: every list's bounds (schema ``bounds``)."""
    from learnability.protocol.classify import quiet_fits

    rows = []
    for name, members in lists.each("bounds"):
        with quiet_fits():
            rows.append(
                bound_row(
                    lists.vectors, members, lists.protocol, groups=settings["bound_groups"],
                    iterations=settings["bound_iterations"],
                    confidence=settings["bound_confidence"], list_name=name,
                    embedding=lists.embedding, bins=lists.bins,
                )
            )  # fmt: skip
    return pd.DataFrame(rows)


def _describe(table: pd.DataFrame) -> str:
    return "\n" + table[["list", "size", "auc", "auc_low", "auc_high"]].to_string(index=False)


ANALYSIS = Analysis(
    name="bounds",
    summary="each list's one-sided bounds on its AUC from a jackknife over its members "
    "(how high a non-learnable concept's AUC could be)",
    output="results/bounds/{embedding}/{negatives}.parquet",
    table="bounds",
    run=run,
    enabled=lambda s: s["bound_groups"] > 0,
    settings=(
        Setting(
            "bound_groups",
            "power.groups",
            "jackknife groups of members (0: no bounds)",
            "--bound-groups",
        ),  # fmt: skip
        Setting("bound_iterations", "power.iterations", "splits of each jackknife run"),
        Setting(
            "bound_confidence",
            "power.confidence",
            "one-sided confidence of each bound",
            "--bound-confidence",
        ),  # fmt: skip
    ),
    describe=_describe,
)

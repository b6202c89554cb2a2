"""Are the p-values uniform under the null? Truly null lists (random words) scored the way
real lists are, tested against random-list nulls the way the workflow tests real lists,
under every ``random_lists.method``. Used by ``benchmarks/calibration.py`` (at the ratios
of the shipped configs, on real embeddings) and by the test suite (the default config's
ratios on a small Gaussian embedding)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy.stats import kstest

from learnability.protocol.evaluate import Protocol, null_distribution, null_splits
from learnability.protocol.sampling import parse_key
from learnability.schemas import METRICS
from learnability.statistics.pvalue_methods import PVALUE_METHODS, RESCALING_METHODS
from learnability.statistics.significance import (
    comparison_null,
    empirical_pvalue,
    resolve_method,
)

LEVELS = (0.01, 0.05, 0.10)


def null_list_pvalues(
    vectors: np.ndarray,
    sizes: list[int] | None = None,
    *,
    keys: list[str] | None = None,
    bins: np.ndarray | None = None,
    negatives: str = "uniform",
    lists_per_size: int,
    list_iterations: int | Sequence[int],
    null_iterations: int,
    null_lists: int,
    C: float = 1.0,
    seed: int = 0,
    methods: tuple[str, ...] = PVALUE_METHODS,
    nulls_per_size: int = 1,
) -> pd.DataFrame:
    """One row per (truly null list, K_L, method): its p-value against a null of
    ``null_lists`` random lists of its size, each scored with ``null_iterations`` splits,
    the list itself with K_L splits (uniform non-members), for each K_L in
    ``list_iterations``. The lists are scored once, with the largest K_L: split i has the
    same seed in every run, so a K_L-split mean is the mean of the first K_L splits, and
    the nulls are shared. The rows say which K_L in ``list_iterations``.

    ``matched`` needs random lists scored with K_L splits: the other truly null lists of
    the same size are exactly that (exchangeable with the list), so each is tested
    against them, leave-one-out, with R = ``lists_per_size - 1``. ``truncated`` uses each
    list's first ``null_iterations`` splits.

    One null draw decides much of where its lists' p-values fall (its estimate of the
    between-list variance, its ECDF), so the lists of a size are split among
    ``nulls_per_size`` independent nulls: the shares then estimate calibration over null
    draws, as a user meets it, and not one draw's luck."""

    kls = sorted({list_iterations} if isinstance(list_iterations, int) else set(list_iterations))
    auc = list(METRICS).index("auc")
    keys = keys if keys is not None else [f"size-{size}" for size in sizes or []]
    n_bins = int(bins.max()) + 1 if bins is not None else 10
    rows = []
    for key in keys:
        size, name = int(parse_key(key)[1].sum()), "calibration"
        # the truly null lists and the nulls come from different seeds: different words
        lists_protocol = Protocol(
            iterations=max(kls), C=C, seed=seed + 1, negatives=negatives, n_bins=n_bins
        )
        splits = null_splits(
            vectors, key=key, lists=lists_per_size, protocol=lists_protocol, embedding=name,
            bins=bins,
        )[1][:, :, auc]  # fmt: skip
        observed = {kl: splits[:, :kl].mean(axis=1) for kl in kls}
        first = splits[:, :null_iterations].mean(axis=1)
        for draw in range(nulls_per_size):
            null = null_distribution(
                vectors,
                key=key,
                lists=null_lists,
                protocol=Protocol(
                    iterations=null_iterations,
                    C=C,
                    seed=seed + 2 + 1009 * draw,
                    negatives=negatives,
                    n_bins=n_bins,
                ),
                embedding=name,
                bins=bins,
            )
            raw = null["auc"].to_numpy()
            for kl in kls:
                # auto is the method it chooses for this null
                used = {m: resolve_method(null, m, kl).method for m in methods}
                mapped = {
                    m: comparison_null(null, used[m], kl).values
                    for m in methods
                    if used[m] in RESCALING_METHODS
                }
                for i in range(draw, lists_per_size, nulls_per_size):
                    x = observed[kl][i]
                    for method in methods:
                        if used[method] == "unmatched":
                            p = empirical_pvalue(x, raw)[1]
                        elif method in mapped:
                            p = empirical_pvalue(x, mapped[method])[1]
                        elif used[method] == "truncated":
                            p = empirical_pvalue(first[i], raw)[1]
                        else:
                            p = empirical_pvalue(x, np.delete(observed[kl], i))[1]
                        rows.append(
                            {"size": size, "list": i, "null": f"{key}/{draw}",
                             "list_iterations": kl, "method": method, "p_value": p}
                        )  # fmt: skip
    return pd.DataFrame(rows)


# The verdict: each level's type-I error rate within Bradley's (1978) stringent criterion,
# 10 % of the level, widened by Z Monte Carlo standard errors of the share. An exactly
# calibrated method fails it with a probability of about 2e-4 (4 SE on each of three
# levels), so a test that checks the verdict passes at any seed, while a method off by
# more than a tenth of the level fails once there are enough lists. The KS test of
# uniformity is reported, not judged: it also sees the middle of the distribution, where
# no decision is taken, and with 10^4 p-values it rejects approximations whose tails are
# right (rescaled_skew on skewed nulls: docs/explanation/statistics.md).
BRADLEY = 0.1
Z = 4.0


def calibration_summary(p: pd.DataFrame, levels: tuple[float, ...] = LEVELS) -> pd.DataFrame:
    """Per method: the share of p-values at or below each level and its Monte Carlo
    standard error, the Kolmogorov-Smirnov p-value against U(0, 1), and the verdict.

    The standard error is the binomial one of the share under the level, or, where ``p``
    has a ``null`` column (which null draw each list was tested against: the lists of
    one draw share its errors), the cluster-robust one over draws when that is larger.
    ``calibrated``: "True" when every share lies in [(1 - BRADLEY) level - Z se,
    (1 + BRADLEY) level + Z se]."""
    rows = []
    for method, g in p.groupby("method", sort=False):
        values = g["p_value"].to_numpy()
        n = values.size
        rec: dict = {"method": method, "n_lists": n}
        if "null" in g:
            rec["n_nulls"] = int(g["null"].nunique())
        ok = True
        for level in levels:
            hit = values <= level + 1e-12
            share = float(hit.mean())
            se = np.sqrt(level * (1 - level) / n)
            if "null" in g and g["null"].nunique() > 1:
                by = pd.Series(hit, index=g.index).groupby(g["null"].to_numpy())
                sizes, shares = by.size().to_numpy(), by.mean().to_numpy()
                # the ratio estimator's linearised variance over clusters
                k = sizes.size
                resid = sizes * (shares - share)
                se = max(se, float(np.sqrt(k / (k - 1) * np.sum(resid**2)) / n))
            rec[f"share_{level:g}"] = share
            rec[f"se_{level:g}"] = float(se)
            low, high = (1 - BRADLEY) * level - Z * se, (1 + BRADLEY) * level + Z * se
            ok &= low <= share <= high
        rec["ks_p"] = float(kstest(values, "uniform").pvalue)
        # matched is tested leave-one-out: its p-values are ranks, uniform by construction
        # (and no finer than 1 / lists per size), so there is nothing to judge
        rec["calibrated"] = "by construction" if method == "matched" else str(bool(ok))
        rows.append(rec)
    return pd.DataFrame(rows)

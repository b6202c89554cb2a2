"""Significance: empirical p-values against random-list nulls, the random(avg)/random(max)
rows of the paper's tables, and Wilcoxon signed-rank tests between embeddings."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
from scipy.stats import rankdata, wilcoxon

from learnability.schemas import METRICS

# For FPR lower is better: the paper's random(max) row reports the best random list per
# metric, which for FPR is the smallest value.
LOWER_IS_BETTER = frozenset({"fpr"})
EXACT_MAX_N = 50  # scipy's own threshold for the exact null distribution


def empirical_pvalue(observed: float, null_values: np.ndarray) -> tuple[int, float]:
    """(#{null >= observed}, (1 + that) / (1 + R)): the +1 keeps p > 0 and makes the test
    valid (Phipson & Smyth 2010)."""
    null_values = np.asarray(null_values, dtype=float)
    n_ge = int((null_values >= observed).sum())
    return n_ge, (1 + n_ge) / (1 + null_values.size)


def pvalues(summary: pd.DataFrame, null: pd.DataFrame, match_sizes: bool) -> pd.DataFrame:
    """One row per (list, embedding): observed mean AUC against the null of random lists of
    the same size (``match_sizes``) or of the closest fixed size otherwise."""
    auc = summary[summary["metric"] == "auc"]
    rows = []
    for rec in auc.itertuples(index=False):
        pool = null[null["embedding"] == rec.embedding]
        if pool.empty:
            raise ValueError(f"no null distribution for embedding {rec.embedding!r}")
        sizes = np.sort(pool["size"].unique())
        if match_sizes:
            if rec.size not in sizes:
                raise ValueError(
                    f"no size-matched null (size {rec.size}) for list {rec.list!r} on "
                    f"{rec.embedding!r}; null sizes present: {sizes.tolist()}"
                )
            null_size = int(rec.size)
        else:
            null_size = int(sizes[np.argmin(np.abs(sizes - rec.size))])
        values = pool.loc[pool["size"] == null_size, "auc"].to_numpy()
        n_ge, p = empirical_pvalue(rec.mean, values)
        rows.append(
            {
                "list": rec.list,
                "embedding": rec.embedding,
                "size": rec.size,
                "auc": rec.mean,
                "null_size": null_size,
                "null_lists": values.size,
                "null_auc_mean": values.mean(),
                "null_auc_min": values.min(),
                "null_auc_max": values.max(),
                "n_null_ge": n_ge,
                "p_value": p,
            }
        )
    return pd.DataFrame(rows)


def random_rows(null: pd.DataFrame, sizes: list[int]) -> pd.DataFrame:
    """The paper's random(avg) and random(max) rows for each embedding and fixed size."""
    rows = []
    for (embedding, size), g in null[null["size"].isin(sizes)].groupby(["embedding", "size"]):
        for metric in METRICS:
            best = g[metric].min() if metric in LOWER_IS_BETTER else g[metric].max()
            rows.append(
                {
                    "embedding": embedding,
                    "size": size,
                    "row": "random(avg)",
                    "metric": metric,
                    "value": g[metric].mean(),
                }
            )
            rows.append(
                {
                    "embedding": embedding,
                    "size": size,
                    "row": "random(max)",
                    "metric": metric,
                    "value": best,
                }
            )
    return pd.DataFrame(rows)


def wilcoxon_test(a: np.ndarray, b: np.ndarray, alternative: str = "greater") -> dict:
    """Wilcoxon signed-rank test of a - b (zero differences dropped, as in Wilcoxon 1945).

    The p-value is exact when there are at most 50 non-zero differences and no ties among
    their absolute values; otherwise it is the normal approximation with a tie correction,
    and ``method`` says so.
    """
    # Rounding away float noise: 0.970 - 0.947 and 0.975 - 0.952 are the same difference
    # and must tie, as they would by hand.
    d = np.round(np.asarray(a, dtype=float) - np.asarray(b, dtype=float), 12)
    d = d[d != 0]
    n = int(d.size)
    if n == 0:
        return {
            "n": 0,
            "statistic": np.nan,
            "w_minus": np.nan,
            "p_value": np.nan,
            "method": "undefined",
            "median_difference": 0.0,
        }
    ranks = rankdata(np.abs(d))
    w_plus = float(ranks[d > 0].sum())
    w_minus = float(ranks[d < 0].sum())
    ties = np.unique(np.abs(d)).size < n
    method = "exact" if n <= EXACT_MAX_N and not ties else "approximate"
    res = wilcoxon(
        d, alternative=alternative, method="exact" if method == "exact" else "asymptotic"
    )
    return {
        "n": n,
        "statistic": w_plus,
        "w_minus": w_minus,
        "p_value": float(res.pvalue),
        "method": method,
        "median_difference": float(np.median(d)),
    }


def compare_embeddings(
    summary: pd.DataFrame, embeddings: list[str], alternative: str = "greater"
) -> pd.DataFrame:
    """Wilcoxon test for each ordered pair (a, b) over per-list mean AUCs: does a beat b?"""
    auc = summary[summary["metric"] == "auc"].pivot(
        index="list", columns="embedding", values="mean"
    )
    rows = []
    for a, b in itertools.permutations(embeddings, 2):
        pair = auc[[a, b]].dropna()
        res = wilcoxon_test(pair[a].to_numpy(), pair[b].to_numpy(), alternative)
        rows.append(
            {
                "embedding_a": a,
                "embedding_b": b,
                "alternative": alternative,
                "n_lists": len(pair),
                **res,
            }
        )
    return pd.DataFrame(rows)

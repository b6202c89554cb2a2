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


def pvalues(
    summary: pd.DataFrame, null: pd.DataFrame, match_sizes: bool, adjust: str = "holm"
) -> pd.DataFrame:
    """One row per (list, embedding, negatives): the observed mean AUC against the null of
    random lists like it (``match_sizes``: the list's ``null_key``, i.e. its size, or its
    frequency profile under frequency-matched negatives) or else of the closest fixed size.

    ``p_adjusted`` corrects for testing many lists on one embedding (the family is the
    lists of one embedding and negatives scheme): ``holm`` (family-wise error), ``bh``
    (false discovery rate) or ``none``."""
    auc = summary[summary["metric"] == "auc"]
    rows = []
    for rec in auc.itertuples(index=False):
        pool = null[(null["embedding"] == rec.embedding) & (null["negatives"] == rec.negatives)]
        if pool.empty:
            raise ValueError(
                f"no null distribution for embedding {rec.embedding!r} with "
                f"{rec.negatives} negatives"
            )
        if match_sizes:
            key = rec.null_key
            if key not in set(pool["null_key"]):
                raise ValueError(
                    f"no matched null ({key}) for list {rec.list!r} on {rec.embedding!r} "
                    f"({rec.negatives}); null keys present: {sorted(set(pool['null_key']))}"
                )
        else:
            fixed = pool[pool["null_key"].str.startswith("size-")]
            sizes = np.sort(fixed["size"].unique())
            key = f"size-{int(sizes[np.argmin(np.abs(sizes - rec.size))])}"
        chosen = pool[pool["null_key"] == key]
        values = chosen["auc"].to_numpy()
        n_ge, p = empirical_pvalue(rec.mean, values)
        rows.append(
            {
                "list": rec.list,
                "embedding": rec.embedding,
                "negatives": rec.negatives,
                "size": rec.size,
                "auc": rec.mean,
                "null_key": key,
                "null_size": int(chosen["size"].iloc[0]),
                "null_lists": values.size,
                "null_auc_mean": values.mean(),
                "null_auc_min": values.min(),
                "null_auc_max": values.max(),
                "n_null_ge": n_ge,
                "p_value": p,
            }
        )
    out = pd.DataFrame(rows)
    out["p_adjusted"] = np.nan
    for _, idx in out.groupby(["embedding", "negatives"]).groups.items():
        out.loc[idx, "p_adjusted"] = adjust_pvalues(out.loc[idx, "p_value"].to_numpy(), adjust)
    out["adjustment"] = adjust
    return out


def random_rows(null: pd.DataFrame, sizes: list[int]) -> pd.DataFrame:
    """The paper's random(avg) and random(max) rows for each embedding and fixed size."""
    rows = []
    fixed = null[null["null_key"].isin([f"size-{n}" for n in sizes])]
    for (embedding, negatives, size), g in fixed.groupby(["embedding", "negatives", "size"]):
        for metric in METRICS:
            best = g[metric].min() if metric in LOWER_IS_BETTER else g[metric].max()
            rows.append(
                {
                    "embedding": embedding,
                    "negatives": negatives,
                    "size": size,
                    "row": "random(avg)",
                    "metric": metric,
                    "value": g[metric].mean(),
                }
            )
            rows.append(
                {
                    "embedding": embedding,
                    "negatives": negatives,
                    "size": size,
                    "row": "random(max)",
                    "metric": metric,
                    "value": best,
                }
            )
    return pd.DataFrame(rows)


def signed_rank_null(ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The exact null distribution of W+ given these ranks (midranks allowed).

    Under H0 each rank carries a + sign with probability 1/2, independently; the
    distribution is built by convolution over ranks doubled to integers, so ties are
    handled exactly (the test is then exact conditional on the tie pattern).
    Returns (support of W+, probabilities).
    """
    doubled = np.rint(2 * np.asarray(ranks, dtype=float)).astype(np.int64)
    counts = np.zeros(int(doubled.sum()) + 1)
    counts[0] = 1.0
    for r in doubled:
        # float64 counts are exact up to 2**53, far above 2**EXACT_MAX_N
        counts[r:] = counts[r:] + counts[: counts.size - r].copy()
    support = np.arange(counts.size) / 2.0
    return support, counts / counts.sum()


def _exact_pvalue(ranks: np.ndarray, w_plus: float, alternative: str) -> float:
    support, prob = signed_rank_null(ranks)
    eps = 1e-9  # W+ is a multiple of 1/2; compare with a margin, not float equality
    greater = float(prob[support >= w_plus - eps].sum())
    less = float(prob[support <= w_plus + eps].sum())
    if alternative == "greater":
        return greater
    if alternative == "less":
        return less
    return min(1.0, 2 * min(greater, less))


def wilcoxon_test(a: np.ndarray, b: np.ndarray, alternative: str = "greater") -> dict:
    """Wilcoxon signed-rank test of a - b (zero differences dropped, as in Wilcoxon 1945).

    ``method`` says how the p-value was obtained: ``exact`` (n <= 50, no ties),
    ``exact-conditional`` (n <= 50 with tied |differences|: exact given the tie pattern,
    by enumerating the sign-flip distribution) or ``approximate`` (n > 50: the normal
    approximation with tie correction). ``rank_biserial`` is the matched-pairs
    rank-biserial correlation (W+ - W-) / (W+ + W-), from -1 to 1.
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
            "rank_biserial": np.nan,
            "median_difference": 0.0,
        }
    ranks = rankdata(np.abs(d))
    w_plus = float(ranks[d > 0].sum())
    w_minus = float(ranks[d < 0].sum())
    ties = np.unique(np.abs(d)).size < n
    if n <= EXACT_MAX_N:
        method = "exact-conditional" if ties else "exact"
        p = _exact_pvalue(ranks, w_plus, alternative)
    else:
        method = "approximate"
        p = float(wilcoxon(d, alternative=alternative, method="asymptotic").pvalue)
    return {
        "n": n,
        "statistic": w_plus,
        "w_minus": w_minus,
        "p_value": p,
        "method": method,
        "rank_biserial": (w_plus - w_minus) / (w_plus + w_minus),
        "median_difference": float(np.median(d)),
    }


def adjust_pvalues(p: np.ndarray, method: str) -> np.ndarray:
    """Family-wise (``holm``) or false-discovery-rate (``bh``, Benjamini-Hochberg)
    adjusted p-values; ``none`` returns them unchanged. NaNs are left out of the family."""
    p = np.asarray(p, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    q = p[ok]
    m = q.size
    if m == 0 or method == "none":
        out[ok] = q
        return out
    order = np.argsort(q, kind="stable")
    ranked = q[order]
    if method == "holm":
        adj = np.maximum.accumulate((m - np.arange(m)) * ranked)
    elif method == "bh":
        adj = np.minimum.accumulate(m / np.arange(m, 0, -1) * ranked[::-1])[::-1]
    else:
        raise ValueError(f"unknown p-value adjustment {method!r}; use holm, bh or none")
    res = np.empty(m)
    res[order] = np.minimum(adj, 1.0)
    out[ok] = res
    return out


def compare_embeddings(
    summary: pd.DataFrame,
    embeddings: list[str],
    alternative: str = "greater",
    vocabulary: str = "shared",
) -> pd.DataFrame:
    """Wilcoxon test for each ordered pair (a, b) over per-list mean AUCs: does a beat b?
    One family per negatives scheme; Holm adjusts over the pairs of a family.
    ``vocabulary`` records what the AUCs were computed on: ``shared`` (every compared
    embedding on the same words and non-members), ``own`` (each on its own vocabulary,
    flagged as the weaker basis) or ``n/a`` (published numbers)."""
    frames = []
    for scheme in dict.fromkeys(summary["negatives"]):
        part = summary[summary["negatives"] == scheme]
        auc = part[part["metric"] == "auc"].pivot(index="list", columns="embedding", values="mean")
        missing = [e for e in embeddings if e not in auc.columns]
        if missing:
            raise ValueError(f"no AUCs for embeddings {missing}; present: {list(auc.columns)}")
        rows = []
        for a, b in itertools.permutations(embeddings, 2):
            pair = auc[[a, b]].dropna()
            res = wilcoxon_test(pair[a].to_numpy(), pair[b].to_numpy(), alternative)
            rows.append(
                {
                    "negatives": scheme,
                    "vocabulary": vocabulary,
                    "embedding_a": a,
                    "embedding_b": b,
                    "alternative": alternative,
                    "n_lists": len(pair),
                    **res,
                }
            )
        out = pd.DataFrame(rows)
        # Holm over every test of the family: all ordered pairs reported.
        out["p_holm"] = adjust_pvalues(out["p_value"].to_numpy(), "holm")
        frames.append(out)
    return pd.concat(frames, ignore_index=True)

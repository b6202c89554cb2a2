"""Rankings with resolution: each embedding's rank with a bootstrap interval, and which
adjacent ranks the paired test tells apart.

A leaderboard orders embeddings by a mean over lists; whether rank 2 is really above rank
3 depends on how much that mean moves with other lists (the lists are a sample of the
concepts one could ask about) and with other splits (each list's mean is over a finite
number of random splits). The bootstrap here resamples both, the way the data arose: the
lists with replacement, then within each drawn list its splits with replacement, the same
draws for every embedding (they are paired: same lists, and with a shared vocabulary the
same splits). Each resample ranks the embeddings; the percentile interval of an
embedding's ranks is its rank interval.

Adjacent embeddings (by their observed rank) are separated when the one-sided Wilcoxon
signed-rank test over per-list mean AUCs (:func:`learnability.statistics.comparison.
wilcoxon_test`, the comparison's own test) rejects "the upper one is not better" after
Holm's adjustment over the adjacent pairs.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from learnability.protocol.sampling import derive_seed
from learnability.statistics.adjust import adjust_pvalues
from learnability.statistics.comparison import wilcoxon_test


def split_array(
    iterations: pd.DataFrame, embeddings: Sequence[str], metric: str
) -> tuple[list[str], np.ndarray]:
    """The lists every embedding was scored on and a (embeddings, lists, splits) array of
    ``metric`` per split, each list's first ``splits`` splits (the fewest any embedding
    has on any list)."""
    table = iterations[iterations["embedding"].isin(embeddings)]
    per = table.groupby("list")["embedding"].nunique()
    lists = sorted(per.index[per == len(embeddings)])
    if not lists:
        raise ValueError(f"no list was scored on every one of {list(embeddings)}")
    table = table[table["list"].isin(lists)]
    # one sort and one scatter, not a sort per (embedding, list) group: the groupby
    # took nearly all of a ranking's time
    e = pd.Categorical(table["embedding"], categories=list(embeddings)).codes.astype(np.int64)
    li = pd.Categorical(table["list"], categories=lists).codes.astype(np.int64)
    order = np.lexsort((table["iteration"].to_numpy(), li, e))
    e, li, values = e[order], li[order], table[metric].to_numpy(dtype=float)[order]
    group = e * len(lists) + li
    counts = np.bincount(group, minlength=len(embeddings) * len(lists))
    splits = int(counts.min())
    position = np.arange(group.size) - np.concatenate([[0], np.cumsum(counts)[:-1]])[group]
    keep = position < splits
    out = np.empty((len(embeddings), len(lists), splits))
    out[e[keep], li[keep], position[keep]] = values[keep]
    return lists, out


def rank_embeddings(
    iterations: pd.DataFrame,
    embeddings: Sequence[str],
    *,
    metric: str = "auc",
    resamples: int = 1000,
    level: float = 0.95,
    seed: int = 0,
    adjust: str = "holm",
) -> pd.DataFrame:
    """One row per embedding, best first (schema ``ranking``): its mean ``metric`` over
    lists (of each list's mean over splits) with a bootstrap interval, its rank (1 =
    best) with a bootstrap interval over lists and splits, and the paired test against
    the next embedding down: the one-sided Wilcoxon p-value, its ``adjust``-ed value over
    the adjacent pairs, and whether it is below ``1 - level``."""
    negatives = iterations["negatives"].unique()
    if len(negatives) != 1:
        raise ValueError(f"rank one negatives scheme at a time, not {list(negatives)}")
    lists, values = split_array(iterations, embeddings, metric)
    n_emb, n_lists, n_splits = values.shape
    per_list = values.mean(axis=2)
    means = per_list.mean(axis=1)
    order = np.lexsort((np.arange(n_emb), -means))
    rank = np.empty(n_emb)
    rank[order] = np.arange(1, n_emb + 1)
    rng = np.random.default_rng(derive_seed(seed, "ranking", str(negatives[0]), metric))
    boot_means = np.empty((resamples, n_emb))
    for r in range(resamples):
        li = rng.integers(0, n_lists, size=n_lists)
        si = rng.integers(0, n_splits, size=(n_lists, n_splits))
        boot_means[r] = values[:, li[:, None], si].mean(axis=(1, 2))
    from scipy.stats import rankdata

    boot_ranks = rankdata(-boot_means, axis=1, method="average")
    alpha = (1 - level) / 2
    rank_lo, rank_hi = np.quantile(boot_ranks, [alpha, 1 - alpha], axis=0)
    mean_lo, mean_hi = np.quantile(boot_means, [alpha, 1 - alpha], axis=0)
    pairs = [wilcoxon_test(per_list[order[j]], per_list[order[j + 1]], "greater")
             for j in range(n_emb - 1)]  # fmt: skip
    p = np.array([t["p_value"] for t in pairs], dtype=float)
    p_adj = adjust_pvalues(p, adjust)
    rows = []
    for j, e in enumerate(order):
        below = j < n_emb - 1
        rows.append(
            {
                "negatives": str(negatives[0]),
                "embedding": embeddings[e],
                "metric": metric,
                "rank": int(rank[e]),
                "rank_low": float(rank_lo[e]),
                "rank_high": float(rank_hi[e]),
                "mean": float(means[e]),
                "ci_low": float(mean_lo[e]),
                "ci_high": float(mean_hi[e]),
                "n_lists": n_lists,
                "splits": n_splits,
                "resamples": resamples,
                "next_embedding": embeddings[order[j + 1]] if below else None,
                "p_value": float(p[j]) if below else np.nan,
                "p_adjusted": float(p_adj[j]) if below else np.nan,
                "adjust": adjust,
                "separated": bool(p_adj[j] < 1 - level) if below else False,
            }
        )
    return pd.DataFrame(rows)

"""What a list may be missing: the vocabulary words outside it that its own classifiers
score highest, and the held-out check that says whether such suggestions find real
members.

The suggestions cost no extra fit: the protocol's splits already fitted one classifier
each (:attr:`learnability.protocol.evaluate.ConceptResult.coef`), and scoring the whole
vocabulary with them is one matrix product per block of rows, ``V x d`` by ``d x
iterations``, with ``BLOCK_BYTES`` of scores in memory at a time: at GloVe 6B's 400,000
words, 50 dimensions and 200 splits, 8 GFLOP and 80 million scores
(``benchmarks/suggestions.py`` times it against the protocol's own fits).

The check (:func:`suggestion_check`) hides a random share of the members (each fold of a
partition in turn), runs the protocol on the rest, and counts how many hidden members
the suggestions rank in their top k. Its baseline is the recall that vocabulary words of
the hidden members' frequency would get from the same ranking: for each hidden member,
the share of the non-members in its frequency bin that the top k holds (an exact
expectation, no Monte Carlo). A classifier that only learned "frequent words" recalls
frequent random words as well as it recalls hidden members; one that learned the concept
recalls the members more.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from learnability.protocol.sampling import derive_seed

# scores of one block of vocabulary rows against every split's classifier, at most
BLOCK_BYTES = 64 << 20


def vocabulary_scores(
    vectors: np.ndarray, coef: np.ndarray, exclude: np.ndarray, top: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Score every vocabulary row with every split's classifier ``coef`` ((splits, d + 1),
    rows (w, b)): each row's mean decision value (logit) and mean probability over the
    splits, and the share of splits in which it is among the ``top`` highest-scoring rows
    outside ``exclude`` (a boolean mask, True for the list's members; ``top`` 0: no share,
    all NaN, for a caller that ranks by the means alone). Excluded rows get NaN.

    The scores are float32 (a ranking needs no more; the means accumulate in float64):
    at 400,000 words the float64 product and the sigmoid by tanh took most of the time.
    Each split's top rows of a block are found in the block alone (one partial sort, no
    copy) and merged with the best so far (``top`` rows)."""
    from scipy.special import expit

    n, d = vectors.shape
    splits = coef.shape[0]
    shares = top > 0
    top = max(1, min(top, n - int(np.count_nonzero(exclude))))
    w = np.ascontiguousarray(coef[:, :d].T, dtype=np.float32)
    b = np.asarray(coef[:, d], dtype=np.float32)
    mean_logit = np.empty(n)
    mean_prob = np.empty(n)
    best_val = np.full((0, splits), -np.inf, dtype=np.float32)
    best_idx = np.empty((0, splits), dtype=np.int64)
    rows = max(top, BLOCK_BYTES // (4 * max(1, splits)))
    for start in range(0, n, rows):
        stop = min(start + rows, n)
        z = np.asarray(vectors[start:stop], dtype=np.float32) @ w
        z += b
        mean_logit[start:stop] = z.mean(axis=1, dtype=np.float64)
        mean_prob[start:stop] = expit(z).mean(axis=1, dtype=np.float64)
        if not shares:
            continue
        z[exclude[start:stop]] = -np.inf
        k = min(top, stop - start)
        part = np.argpartition(z, z.shape[0] - k, axis=0)[-k:]
        val = np.concatenate([best_val, np.take_along_axis(z, part, axis=0)])
        idx = np.concatenate([best_idx, part + start])
        if val.shape[0] > top:
            keep = np.argpartition(val, val.shape[0] - top, axis=0)[-top:]
            val = np.take_along_axis(val, keep, axis=0)
            idx = np.take_along_axis(idx, keep, axis=0)
        best_val, best_idx = val, idx
    if shares:
        share = np.bincount(best_idx[np.isfinite(best_val)], minlength=n) / splits
    else:
        share = np.full(n, np.nan)
    for a in (mean_logit, mean_prob, share):
        a[exclude] = np.nan
    return mean_logit, mean_prob, share


def ranked_candidates(
    mean_prob: np.ndarray, mean_logit: np.ndarray, first: int | None = None
) -> np.ndarray:
    """Rows outside the list (finite scores), best first: by mean probability, then mean
    logit (which still orders words whose probability rounds to 1), then row index; the
    ``first`` of them only, if given (the same rows as the full order's first: every
    row whose probability reaches the first-th's is sorted, ties included)."""
    rows = np.flatnonzero(~np.isnan(mean_prob))
    if first is not None and first < rows.size:
        # a partial sort keeps the check's ranking O(V) on a large vocabulary
        prob = mean_prob[rows]
        cut = np.partition(prob, rows.size - first)[rows.size - first]
        rows = rows[prob >= cut]
    order = np.lexsort((rows, -mean_logit[rows], -mean_prob[rows]))
    return rows[order] if first is None else rows[order][:first]


def suggestions(
    vectors: np.ndarray,
    coef: np.ndarray,
    members: np.ndarray,
    *,
    top: int,
    words: Sequence[str],
    counts: np.ndarray | None,
    list_name: str,
    embedding: str,
    negatives: str,
) -> pd.DataFrame:
    """The ``top`` vocabulary words outside ``members`` that the list's classifiers score
    highest (schema ``suggestions``): their mean probability and logit over the splits,
    the share of splits in whose own top ``top`` they are, and their corpus count."""
    exclude = np.zeros(vectors.shape[0], dtype=bool)
    exclude[np.asarray(members, dtype=np.int64)] = True
    logit, prob, share = vocabulary_scores(vectors, coef, exclude, top)
    best = ranked_candidates(prob, logit)[:top]
    return pd.DataFrame(
        {
            "list": list_name,
            "embedding": embedding,
            "negatives": negatives,
            "rank": np.arange(1, best.size + 1, dtype=np.int64),
            "index": best.astype(np.int64),
            "word": [str(words[i]) for i in best],
            "count": (
                np.asarray(counts)[best] if counts is not None else np.zeros(best.size)
            ).astype(np.int64),
            "mean_probability": prob[best],
            "mean_logit": logit[best],
            "top_share": share[best],
            "splits": coef.shape[0],
        }
    )


def poisson_binomial_sf(hits: int, p: np.ndarray) -> float:
    """P(X >= hits) for X a sum of independent Bernoulli(p_i): the chance that words with
    the baseline's probabilities would be recalled at least as often (exact, O(n^2))."""
    pmf = np.ones(1)
    for q in np.asarray(p, dtype=float):
        pmf = np.concatenate([pmf * (1 - q), [0.0]]) + np.concatenate([[0.0], pmf * q])
    return float(min(1.0, pmf[hits:].sum()))


def fold_partition(members: np.ndarray, folds: int, seed: int, list_name: str) -> list:
    """The members in ``folds`` parts of a random permutation (sizes differing by at most
    one): the check hides each part in turn."""
    rng = np.random.default_rng(derive_seed(seed, "suggestion-check", list_name))
    return [np.sort(part) for part in np.array_split(rng.permutation(members), folds)]


def checkable(size: int, holdout: float, min_words: int) -> int:
    """How many members are left to fit when the largest fold is hidden; the check needs
    at least ``min_words``."""
    parts = max(2, round(1 / holdout))
    return size - -(-size // parts)


def unchecked(
    *,
    list_name: str,
    embedding: str,
    negatives: str,
    size: int,
    ks: Sequence[int],
    folds: int,
    iterations: int,
    min_words: int,
    holdout: float,
) -> pd.DataFrame:
    """The rows of a list too small to check (schema ``suggestion_check``): no recall,
    and why in ``baseline``, so that it is counted, not dropped."""
    left = checkable(size, holdout, min_words)
    why = f"not checked: {left} members left to fit, fewer than {min_words}"
    return pd.DataFrame(
        [{"list": list_name, "embedding": embedding, "negatives": negatives, "k": int(k),
          "size": int(size), "hidden": 0, "folds": folds, "iterations": iterations,
          "hits": 0, "recall": np.nan, "baseline_recall": np.nan, "baseline": why,
          "p_value": np.nan} for k in sorted(ks)]
    )  # fmt: skip


def suggestion_check(
    vectors: np.ndarray,
    members: np.ndarray,
    protocol,
    *,
    bins: np.ndarray | None,
    ks: Sequence[int],
    holdout: float,
    folds: int,
    list_name: str,
    embedding: str,
) -> pd.DataFrame:
    """Recall@k of hidden members among the suggestions, beside frequency-matched random
    words' (schema ``suggestion_check``): the members are split into ``round(1 /
    holdout)`` parts, the first ``folds`` of which are hidden in turn; for each, the
    protocol (``protocol.iterations`` splits, its seeds keyed on the fold) runs on the
    other members and the suggestions rank every word outside them. ``bins`` (frequency
    bins) match the baseline's words to each hidden member's frequency; without them the
    baseline is uniform over the vocabulary."""
    # deferred: the fitting modules import numba, which the suggestions job (it scores
    # with the learnability job's own fits) does not need
    from learnability.protocol.evaluate import check_size
    from learnability.protocol.splits import draw_splits, fit_splits

    members = np.unique(np.asarray(members, dtype=np.int64))
    n = vectors.shape[0]
    parts = max(2, round(1 / holdout))
    if not 1 <= folds <= parts:
        raise ValueError(f"folds must be 1 to {parts} (1 / holdout), not {folds}")
    in_list = np.zeros(n, dtype=bool)
    in_list[members] = True
    group = bins if bins is not None else np.zeros(n, dtype=np.int64)
    pool = np.bincount(group[~in_list], minlength=int(group.max()) + 1)
    ks = sorted(int(k) for k in ks)
    hits = np.zeros(len(ks), dtype=np.int64)
    expected: list[list[np.ndarray]] = [[] for _ in ks]
    hidden_total = 0
    for f, hidden in enumerate(fold_partition(members, parts, protocol.seed, list_name)[:folds]):
        kept = np.setdiff1d(members, hidden)
        check_size(kept.size, n, f"suggestion check of {list_name!r} on {embedding!r}")
        seeds = [
            derive_seed(protocol.seed, "suggestion-check", list_name, f, i)
            for i in range(protocol.iterations)
        ]
        coef = fit_splits(vectors, draw_splits(n, kept, protocol, seeds, bins), protocol).coef
        exclude = np.zeros(n, dtype=bool)
        exclude[kept] = True
        logit, prob, _ = vocabulary_scores(vectors, coef, exclude, 0)
        ranking = ranked_candidates(prob, logit, max(ks))
        hidden_mask = np.zeros(n, dtype=bool)
        hidden_mask[hidden] = True
        hidden_total += hidden.size
        for j, k in enumerate(ks):
            best = ranking[:k]
            hits[j] += int(hidden_mask[best].sum())
            # the top k's non-members per frequency bin, over each bin's non-members
            in_top = np.bincount(group[best[~in_list[best]]], minlength=pool.size)
            with np.errstate(invalid="ignore", divide="ignore"):
                chance = np.where(pool > 0, in_top / np.maximum(pool, 1), 0.0)
            expected[j].append(chance[group[hidden]])
    rows = []
    for j, k in enumerate(ks):
        p = np.concatenate(expected[j])
        rows.append(
            {
                "list": list_name,
                "embedding": embedding,
                "negatives": protocol.negatives,
                "k": k,
                "size": int(members.size),
                "hidden": hidden_total,
                "folds": folds,
                "iterations": protocol.iterations,
                "hits": int(hits[j]),
                "recall": hits[j] / hidden_total,
                "baseline_recall": float(p.sum() / hidden_total),
                "baseline": "frequency_matched" if bins is not None else "uniform",
                "p_value": poisson_binomial_sf(int(hits[j]), p),
            }
        )
    return pd.DataFrame(rows)

"""What a list may be missing: the vocabulary words outside it that its own classifiers
score highest.

The suggestions cost no extra fit: the protocol's splits already fitted one classifier
each (:attr:`learnability.protocol.evaluate.ConceptResult.coef`), and scoring the whole
vocabulary with them is one matrix product per block of rows, ``V x d`` by ``d x
iterations``, with ``BLOCK_BYTES`` of scores in memory at a time: at GloVe 6B's 400,000
words, 50 dimensions and 200 splits, 8 GFLOP and 80 million scores
(``benchmarks/suggestions.py`` times it against the protocol's own fits). Whether such
suggestions find real members is :mod:`learnability.analyses.suggestion_check`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from learnability.analyses.base import Analysis, Lists, Report, Setting

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


def run(lists: Lists, settings: Mapping[str, Any]) -> pd.DataFrame:
    """The analysis: every list's top suggestions (schema ``suggestions``)."""
    if lists.coefficients is None:
        raise ValueError("suggestions read the lists' split classifiers: none were given")
    return pd.concat(
        [
            suggestions(
                lists.vectors, lists.coefficients[name], members, top=settings["suggestions"],
                words=lists.words, counts=lists.counts, list_name=name,
                embedding=lists.embedding, negatives=lists.negatives,
            )
            for name, members in lists.each("suggestions")
        ],
        ignore_index=True,
    )  # fmt: skip


def _describe(table: pd.DataFrame) -> str:
    return "; ".join(
        f"{name}: {', '.join(g['word'].head(10))}" for name, g in table.groupby("list", sort=False)
    )


ANALYSIS = Analysis(
    name="suggestions",
    summary="the words outside each list that its own classifiers score highest",
    output="results/analyses/{embedding}/{negatives}/suggestions.parquet",
    table="suggestions",
    run=run,
    enabled=lambda s: s["suggestions"] > 0,
    settings=(
        Setting(
            "suggestions",
            "suggestions.top",
            "words outside each list that its classifiers score highest (0: none)",
            "--suggestions",
        ),  # fmt: skip
    ),
    fits=False,
    coefficients=True,
    report=Report(category="Suggestions"),
    describe=_describe,
)

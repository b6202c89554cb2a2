"""The learnability protocol: repeated half splits, one fit each, five metrics each.

Also the null distribution: random word lists of a given size scored the same way.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from learnability.classify import fit_scores
from learnability.errors import InputError
from learnability.metrics import binary_metrics
from learnability.sampling import derive_seed, half_split
from learnability.schemas import METRICS

# Each half must hold at least two members, or recall and AUC are degenerate.
MIN_WORDS = 4


def _run_iterations(
    vectors: np.ndarray, members: np.ndarray, iterations: int, C: float, seeds: list[int]
) -> list[dict]:
    mask = np.zeros(vectors.shape[0], dtype=bool)
    mask[members] = True
    rows = []
    for i, seed in zip(range(iterations), seeds, strict=True):
        rng = np.random.default_rng(seed)
        tr, ytr, te, yte = half_split(rng, members, mask)
        scores = fit_scores(vectors[tr], ytr, vectors[te], C)
        rows.append({"iteration": i, "seed": seed, **binary_metrics(yte, scores)})
    return rows


def check_size(n: int, vocab_size: int, what: str, min_words: int = MIN_WORDS) -> None:
    if n < min_words:
        raise InputError(
            f"{what}: only {n} words are in the embedding's vocabulary; at least {min_words} "
            "are needed so that both halves hold two members. Add words to the list, use a "
            "larger corpus, or lower learnability.min_words."
        )
    if 2 * n > vocab_size:
        raise InputError(
            f"{what}: {n} words but the vocabulary has only {vocab_size}; the list must be "
            "at most half the vocabulary so that as many non-members can be drawn"
        )


def evaluate_concept(
    vectors: np.ndarray,
    members: np.ndarray,
    *,
    iterations: int,
    C: float,
    seed: int,
    list_name: str,
    embedding: str,
    min_words: int = MIN_WORDS,
) -> pd.DataFrame:
    """One row per iteration (schema ``iterations``).

    Seeds depend on the list name and not on the embedding, so embeddings that share a
    vocabulary see identical splits and negatives: a paired design that keeps sampling
    noise out of the comparison between them.
    """
    members = np.unique(np.asarray(members, dtype=np.int64))
    check_size(members.size, vectors.shape[0], f"list {list_name!r} on {embedding!r}", min_words)
    seeds = [derive_seed(seed, "concept", list_name, i) for i in range(iterations)]
    df = pd.DataFrame(_run_iterations(vectors, members, iterations, C, seeds))
    df.insert(0, "size", members.size)
    df.insert(0, "embedding", embedding)
    df.insert(0, "list", list_name)
    return df


def bootstrap_ci(
    values: np.ndarray, resamples: int, level: float, seed: int
) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of ``values``.

    Over iterations this measures the Monte Carlo error of the mean (how much it would move
    with other random splits), not the uncertainty from which words the list holds.
    """
    values = np.asarray(values, dtype=float)
    if values.size < 2 or resamples == 0:
        return float("nan"), float("nan")
    rng = np.random.default_rng(seed)
    means = values[rng.integers(0, values.size, size=(resamples, values.size))].mean(axis=1)
    alpha = (1 - level) / 2
    low, high = np.quantile(means, [alpha, 1 - alpha])
    return float(low), float(high)


def summarize(
    iterations: pd.DataFrame, *, bootstrap: int = 1000, level: float = 0.95, seed: int = 0
) -> pd.DataFrame:
    """Mean, standard deviation (ddof=1) and bootstrap interval of the mean of each metric:
    schema ``summary``."""
    rows = []
    for (list_name, embedding, size), g in iterations.groupby(["list", "embedding", "size"]):
        for metric in METRICS:
            low, high = bootstrap_ci(
                g[metric].to_numpy(),
                bootstrap,
                level,
                derive_seed(seed, "bootstrap", list_name, metric),
            )
            rows.append(
                {
                    "list": list_name,
                    "embedding": embedding,
                    "size": size,
                    "iterations": len(g),
                    "metric": metric,
                    "mean": g[metric].mean(),
                    "std": g[metric].std(ddof=1) if len(g) > 1 else 0.0,
                    "ci_low": low,
                    "ci_high": high,
                }
            )
    return pd.DataFrame(rows)


def null_distribution(
    vectors: np.ndarray,
    *,
    size: int,
    lists: int,
    iterations: int,
    C: float,
    seed: int,
    embedding: str,
) -> pd.DataFrame:
    """Score ``lists`` random word lists of ``size`` words (schema ``null``): one row per
    random list holding the mean of each metric over its ``iterations`` splits."""
    check_size(size, vectors.shape[0], f"null lists of size {size} on {embedding!r}")
    rows = []
    for r in range(lists):
        list_seed = derive_seed(seed, "null", size, r)
        rng = np.random.default_rng(list_seed)
        members = np.sort(rng.choice(vectors.shape[0], size=size, replace=False))
        seeds = [derive_seed(list_seed, "null-split", i) for i in range(iterations)]
        it = pd.DataFrame(_run_iterations(vectors, members, iterations, C, seeds))
        rows.append(
            {
                "embedding": embedding,
                "size": size,
                "null_list": r,
                "seed": list_seed,
                "iterations": iterations,
                **it[list(METRICS)].mean().to_dict(),
            }
        )
    return pd.DataFrame(rows)

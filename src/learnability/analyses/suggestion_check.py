"""The suggestions' held-out check: does a list's ranking of the vocabulary find real
members?

It hides a random share of the members (each fold of a partition in turn), runs the
protocol on the rest, and counts how many hidden members the suggestions
(:mod:`learnability.analyses.suggestions`) rank in their top k. Its baseline is the
recall that vocabulary words of the hidden members' frequency would get from the same
ranking: for each hidden member, the share of the non-members in its frequency bin that
the top k holds (an exact expectation, no Monte Carlo). A classifier that only learned
"frequent words" recalls frequent random words as well as it recalls hidden members; one
that learned the concept recalls the members more.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from learnability.analyses.base import Analysis, Lists, Report, Setting
from learnability.analyses.suggestions import ranked_candidates, vocabulary_scores
from learnability.protocol.sampling import derive_seed
from learnability.protocol.sizes import check_size

log = logging.getLogger(__name__)


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
        what = f"suggestion check of {list_name!r} on {embedding!r}"
        check_size(kept.size, n, what, protocol.min_words)
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


def run(lists: Lists, settings: Mapping[str, Any]) -> pd.DataFrame:
    """The analysis: every list's recall@k rows (schema ``suggestion_check``); a list with
    too few members to hide a fold and still fit gets rows saying so."""
    s = settings
    protocol = replace(lists.protocol, iterations=s["check_iterations"])
    tables = []
    for name, members in lists.each("suggestion check"):
        common = dict(list_name=name, embedding=lists.embedding, folds=s["check_folds"],
                      holdout=s["check_holdout"])  # fmt: skip
        if checkable(members.size, s["check_holdout"], protocol.min_words) < protocol.min_words:
            log.warning("%s: suggestions not checked: too few members to hide a fold", name)
            tables.append(
                unchecked(
                    negatives=lists.negatives,
                    size=members.size,
                    ks=s["check_k"],
                    iterations=s["check_iterations"],
                    min_words=protocol.min_words,
                    **common,
                )  # fmt: skip
            )
            continue
        tables.append(
            suggestion_check(
                lists.vectors,
                members,
                protocol,
                bins=lists.baseline_bins,
                ks=s["check_k"],
                **common,
            )  # fmt: skip
        )
    return pd.concat(tables, ignore_index=True)


def _describe(table: pd.DataFrame) -> str:
    last = table.groupby("list", sort=False).tail(1)
    return "; ".join(
        f"{r.list}: recall@{r.k} {r.recall:.3f} (baseline {r.baseline_recall:.3f})"
        for r in last.itertuples()
    )


ANALYSIS = Analysis(
    name="suggestion_check",
    summary="the suggestions' held-out check: recall@k of hidden members beside random "
    "words of their frequency",
    output="results/analyses/{embedding}/{negatives}/suggestion_check.parquet",
    table="suggestion_check",
    run=run,
    # the held-out check ranks suggestions: without them it has nothing to check
    enabled=lambda s: s["check_folds"] > 0,
    settings=(
        Setting(
            "check_folds",
            "suggestions.check.folds",
            "folds of the members hidden in turn to check the suggestions (0: no check)",
            "--check-folds",
        ),  # fmt: skip
        Setting(
            "check_holdout", "suggestions.check.holdout", "share of the members hidden in one fold"
        ),  # fmt: skip
        Setting("check_iterations", "suggestions.check.iterations", "splits fitted per fold"),
        Setting(
            "check_k", "suggestions.check.k", "suggestions searched for the hidden members"
        ),  # fmt: skip
    ),
    baseline_bins=True,
    report=Report(category="Suggestions", formats=("md", "csv", "tex"), shown="csv"),  # fmt: skip
    describe=_describe,
)

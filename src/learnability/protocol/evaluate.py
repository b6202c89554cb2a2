"""The learnability protocol: repeated splits, one fit each, five metrics and a ROC curve
each; and the null distribution: random word lists scored the same way."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from learnability.protocol.classify import CENTRE_PROBLEMS, DEFAULT_CHUNK_BYTES, Fit, centre_of
from learnability.protocol.lbfgs import TOL
from learnability.protocol.metrics import ROC_GRID
from learnability.protocol.sampling import derive_seed, null_key, parse_key, sample_by_profile
from learnability.protocol.sizes import FEWEST_WORDS, MIN_WORDS, check_size, unscored_reason
from learnability.protocol.splits import (
    concept_seeds,
    draw_splits,
    fit_splits,
    frequency_pools,
)
from learnability.schemas import METRICS, empty


@dataclass(frozen=True)
class Protocol:
    """Everything that defines one run of the protocol besides the list and embedding."""

    iterations: int
    C: float
    seed: int
    negatives: str = "uniform"
    train_fraction: float = 0.5
    n_bins: int = 10
    solver: str = "batched"
    tol: float = TOL
    chunk_bytes: int = DEFAULT_CHUNK_BYTES
    device: str = "cpu"
    # the fewest of a list's words in the vocabulary for it to be scored
    # (learnability.min_words): both halves need two members
    min_words: int = MIN_WORDS

    @property
    def fit(self) -> Fit:
        """How its classifiers are fitted (the one home of the fit settings)."""
        return Fit(self.C, self.solver, self.tol, self.chunk_bytes, self.device)


@dataclass
class ConceptResult:
    iterations: pd.DataFrame  # schema "iterations"
    tpr: np.ndarray  # (iterations, len(ROC_GRID)): TPR at ROC_GRID per iteration
    members: pd.DataFrame | None = None  # schema "members" (evaluate_concept_full)
    # (iterations, d + 1): each split's fitted (w, b), in iteration order; what the
    # suggested additions score the vocabulary with (learnability.analyses.suggestions)
    coef: np.ndarray | None = None
    # why the list was not scored (:func:`unscored_reason`), None when it was: then the
    # tables have no rows and the arrays none (:func:`score_list`)
    unscored: str | None = None
    # the list's distinct words in the vocabulary
    size: int = 0


def member_table(
    words: np.ndarray,
    probs: np.ndarray,
    shares: np.ndarray,
    members: np.ndarray,
    vocabulary,
    *,
    list_name: str,
    embedding: str,
    negatives: str,
) -> pd.DataFrame:
    """One row per member (schema ``members``): how often it was held out, its mean
    held-out probability and mean share of test non-members outscored, and its rank in
    the list (1 = the member the embedding places most firmly with the rest). A member
    never held out has NaN scores and no rank."""
    pos = np.searchsorted(members, words)
    n = np.bincount(pos, minlength=members.size)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.bincount(pos, probs, minlength=members.size) / n
        a = np.bincount(pos, shares, minlength=members.size) / n
    df = pd.DataFrame(
        {
            "list": list_name,
            "embedding": embedding,
            "negatives": negatives,
            "index": members,
            "word": [str(vocabulary[i]) for i in members],
            "n_test": n.astype(np.int64),
            "mean_probability": p,
            "mean_share_outscored": a,
        }
    )
    # strongest first: by share outscored, then probability; ties in index order
    order = df.sort_values(
        ["mean_share_outscored", "mean_probability", "index"],
        ascending=[False, False, True],
        na_position="last",
        kind="stable",
    ).index
    rank = pd.Series(np.arange(1, len(df) + 1, dtype=np.int64), index=order)
    df["rank"] = rank.reindex(df.index).where(n > 0).astype("Int64")
    return df.sort_values("rank", na_position="last", kind="stable").reset_index(drop=True)


def _run_iterations(
    vectors: np.ndarray,
    members: np.ndarray,
    protocol: Protocol,
    seeds: list[int],
    bins: np.ndarray | None,
):
    splits = draw_splits(vectors.shape[0], members, protocol, seeds, bins)
    fits = fit_splits(vectors, splits, protocol)
    rows = [
        {"iteration": i, "seed": seed, **m}
        for i, (seed, m) in enumerate(zip(seeds, fits.rows(), strict=True))
    ]
    return rows, fits.tpr(), fits.member_scores(), fits.coef


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
    """The paper's protocol (uniform negatives, half splits): one row per iteration
    (schema ``iterations``). :func:`evaluate_concept_full` takes any :class:`Protocol`."""
    protocol = Protocol(iterations=iterations, C=C, seed=seed, min_words=min_words)
    return evaluate_concept_full(
        vectors, members, protocol, list_name=list_name, embedding=embedding
    ).iterations


def score_list(
    vectors: np.ndarray,
    members: np.ndarray,
    protocol: Protocol,
    *,
    bins: np.ndarray | None = None,
    list_name: str,
    embedding: str,
    vocabulary=None,
) -> ConceptResult:
    """One list scored, or the reason it cannot be: the one rule the workflow's jobs,
    :func:`learnability.api.score` and the sweeps follow for a list with fewer than
    ``protocol.min_words`` of its words in the vocabulary (or more than half of it). Such
    a list is not an error: its result has ``unscored`` set, its iterations table no rows
    and no ROC curve or coefficients, so that each caller keeps a row that says why (the
    coverage table's ``not_scored``, score()'s ``skipped``, a sweep's ``not_scored``)
    and scores the other lists. The others: :func:`evaluate_concept_full`."""
    members = np.unique(np.asarray(members, dtype=np.int64))
    reason = unscored_reason(members.size, vectors.shape[0], protocol.min_words)
    if reason is not None:
        nothing = np.empty((0, len(ROC_GRID)))
        return ConceptResult(empty("iterations"), nothing, unscored=reason, size=members.size)
    return evaluate_concept_full(
        vectors, members, protocol, bins=bins, list_name=list_name, embedding=embedding,
        vocabulary=vocabulary,
    )  # fmt: skip


def evaluate_concept_full(
    vectors: np.ndarray,
    members: np.ndarray,
    protocol: Protocol,
    *,
    bins: np.ndarray | None = None,
    list_name: str,
    embedding: str,
    vocabulary=None,
) -> ConceptResult:
    """Run the protocol on one list: per-iteration metrics, ROC curves, and the member
    diagnostics (:func:`member_table`; words from ``vocabulary``, else their indices).

    Seeds depend on the list name and not on the embedding or the negatives scheme, so
    embeddings that share a vocabulary see identical splits and negatives (a paired
    design), and both schemes split the members identically. A list too small (or too
    large) to score is an InputError here; :func:`score_list` makes it a result that
    says why.
    """
    members = np.unique(np.asarray(members, dtype=np.int64))
    what = f"list {list_name!r} on {embedding!r}"
    check_size(members.size, vectors.shape[0], what, protocol.min_words)
    seeds = concept_seeds(protocol.seed, list_name, protocol.iterations)
    rows, tpr, held_out, coef = _run_iterations(vectors, members, protocol, seeds, bins)
    labels = vocabulary if vocabulary is not None else np.arange(vectors.shape[0])
    per_member = member_table(
        *held_out,
        members,
        labels,
        list_name=list_name,
        embedding=embedding,
        negatives=protocol.negatives,
    )
    df = pd.DataFrame(rows)
    df.insert(0, "null_key", null_key(members, protocol.negatives, bins, protocol.n_bins))
    df.insert(0, "size", members.size)
    df.insert(0, "negatives", protocol.negatives)
    df.insert(0, "embedding", embedding)
    df.insert(0, "list", list_name)
    return ConceptResult(df, tpr, per_member, coef, size=members.size)


def mean_roc(result: ConceptResult) -> pd.DataFrame:
    """Mean and std of TPR over iterations at each FPR of the grid (schema ``roc``)."""
    first = result.iterations.iloc[0]
    return pd.DataFrame(
        {
            "list": first["list"],
            "embedding": first["embedding"],
            "negatives": first["negatives"],
            "iterations": result.tpr.shape[0],
            "fpr": ROC_GRID,
            "tpr_mean": result.tpr.mean(axis=0),
            "tpr_std": result.tpr.std(axis=0, ddof=1) if result.tpr.shape[0] > 1 else 0.0,
        }
    )


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
    keys = ["list", "embedding", "negatives", "size", "null_key"]
    for (list_name, embedding, negatives, size, key), g in iterations.groupby(keys):
        for metric in METRICS:
            low, high = bootstrap_ci(
                g[metric].to_numpy(),
                bootstrap,
                level,
                derive_seed(seed, "bootstrap", list_name, negatives, metric),
            )
            rows.append(
                {
                    "list": list_name,
                    "embedding": embedding,
                    "negatives": negatives,
                    "size": size,
                    "null_key": key,
                    "iterations": len(g),
                    "metric": metric,
                    "mean": g[metric].mean(),
                    "std": g[metric].std(ddof=1) if len(g) > 1 else 0.0,
                    "ci_low": low,
                    "ci_high": high,
                }
            )
    return pd.DataFrame(rows)


# a null job's splits in memory at once, at most: train and test indices and labels
# (8 + 8 + 8 + 1 bytes a word, and as much again stacked) and each fit's coefficients
NULL_BATCH_BYTES = 256 << 20
SPLIT_BYTES_PER_WORD = 50


def null_splits(
    vectors: np.ndarray,
    *,
    key: str,
    lists: int,
    protocol: Protocol,
    embedding: str,
    bins: np.ndarray | None = None,
) -> tuple[list[int], np.ndarray]:
    """The random lists of ``key`` scored split by split under ``protocol`` (its
    ``iterations`` splits per random list, its ``seed`` the nulls'): (each list's seed,
    the metrics of every split, shape (lists, iterations, len(METRICS))). Split i of a
    list has the same seed whatever ``iterations`` is, so a shorter run is a prefix of a
    longer one."""
    kind, spec = parse_key(key)
    n_words = int(spec.sum())
    check_size(n_words, vectors.shape[0], f"null lists {key} on {embedding!r}", FEWEST_WORDS)
    if (kind == "profile" or protocol.negatives == "frequency_matched") and bins is None:
        raise ValueError(f"null {key} with {protocol.negatives} negatives needs frequency bins")
    all_pools = (
        frequency_pools(bins, np.zeros(vectors.shape[0], bool), protocol.n_bins)
        if kind == "profile"
        else None
    )
    # the lists are drawn, fitted and scored a batch at a time, and only their metrics
    # kept: under random_lists.method matched a null holds lists x the lists' iterations
    # splits (10^6 at the paper's settings), about 20 GB of indices and coefficients at
    # once; every split is fitted on its own and the centre is the first batch's, so the
    # batches give the bytes of one batch
    per_split = SPLIT_BYTES_PER_WORD * n_words + 8 * (vectors.shape[1] + 1)
    batch = max(1, NULL_BATCH_BYTES // (per_split * protocol.iterations))
    batch = max(batch, -(-CENTRE_PROBLEMS // protocol.iterations))
    list_seeds, values, centre = [], [], None
    for first in range(0, lists, batch):
        splits = []
        for r in range(first, min(first + batch, lists)):
            # the seed key of uniform size-N lists is the size alone, as before profiles
            list_seed = derive_seed(
                protocol.seed, "null", int(spec[0]) if kind == "size" else key, r
            )
            rng = np.random.default_rng(list_seed)
            if kind == "size":
                members = np.sort(rng.choice(vectors.shape[0], size=n_words, replace=False))
            else:
                members = np.sort(np.concatenate(sample_by_profile(rng, all_pools, spec)))
            seeds = [derive_seed(list_seed, "null-split", i) for i in range(protocol.iterations)]
            list_seeds.append(list_seed)
            splits += draw_splits(vectors.shape[0], members, protocol, seeds, bins)
        if centre is None:
            centre = centre_of(vectors, np.stack([sp[0] for sp in splits[:CENTRE_PROBLEMS]]))
        metrics = fit_splits(vectors, splits, protocol, centre=centre).metrics()
        values.append(np.column_stack([metrics[m] for m in METRICS]))
        del splits
    return list_seeds, np.concatenate(values).reshape(lists, protocol.iterations, -1)


def null_distribution(
    vectors: np.ndarray,
    *,
    size: int | None = None,
    key: str | None = None,
    lists: int,
    embedding: str,
    protocol: Protocol | None = None,
    bins: np.ndarray | None = None,
    **fields,
) -> pd.DataFrame:
    """Score ``lists`` random word lists (schema ``null``): one row per random list holding
    the mean of each metric over its splits, and the variance and mean cubed deviation
    over them.

    ``key`` says which random lists: ``size-N`` (N words uniform over the vocabulary) or
    ``profile-a-b-...`` (as many words from each frequency bin as a real list has).
    ``protocol`` is the one a real list's job uses (:func:`null_splits`), with the
    random lists' own ``iterations`` and ``seed``; or give its fields as keywords
    (``iterations``, ``C``, ``seed``, optionally ``negatives``, ``n_bins``, ``solver``,
    ``chunk_bytes``, ``device``). Negatives follow ``protocol.negatives`` as for real
    lists.
    """
    key = key or f"size-{size}"
    protocol = protocol or Protocol(**fields)
    iterations, negatives = protocol.iterations, protocol.negatives
    list_seeds, values = null_splits(
        vectors, key=key, lists=lists, protocol=protocol, embedding=embedding, bins=bins
    )
    n_words = int(parse_key(key)[1].sum())
    means = values.mean(axis=1)
    # each random list's variance over its own splits: the within-list (Monte Carlo)
    # component that stats.calibrated_null needs to compare these means with a list's
    # mean over another number of splits
    with np.errstate(invalid="ignore", divide="ignore"):
        within = values.var(axis=1, ddof=1) if iterations > 1 else np.full_like(means, np.nan)
    # and its mean cubed deviation over them, from which stats.between_third_cumulant
    # gets the skewness of the random lists' true means (method rescaled_skew)
    third = ((values - means[:, None, :]) ** 3).mean(axis=1)
    rows = [
        {
            "embedding": embedding,
            "negatives": negatives,
            "null_key": key,
            "size": n_words,
            "null_list": r,
            "seed": list_seeds[r],
            "iterations": iterations,
            **dict(zip(METRICS, means[r], strict=True)),
            **{f"{m}_var": v for m, v in zip(METRICS, within[r], strict=True)},
            **{f"{m}_m3": v for m, v in zip(METRICS, third[r], strict=True)},
        }
        for r in range(lists)
    ]
    return pd.DataFrame(rows)


def learning_curve(
    vectors: np.ndarray,
    members: np.ndarray,
    protocol: Protocol,
    fractions: list[float],
    *,
    bins: np.ndarray | None = None,
    list_name: str,
    embedding: str,
) -> pd.DataFrame:
    """The protocol at several training fractions, all else fixed (schema
    ``learning_curve``). Iteration i uses the same permutation of the members at every
    fraction, so the training sets are nested."""

    rows = []
    for fraction in fractions:
        res = evaluate_concept_full(
            vectors,
            members,
            replace(protocol, train_fraction=fraction),
            bins=bins,
            list_name=list_name,
            embedding=embedding,
        ).iterations
        for metric in METRICS:
            rows.append(
                {
                    "list": list_name,
                    "embedding": embedding,
                    "negatives": protocol.negatives,
                    "train_fraction": fraction,
                    "iterations": len(res),
                    "metric": metric,
                    "mean": res[metric].mean(),
                    "std": res[metric].std(ddof=1) if len(res) > 1 else 0.0,
                }
            )
    return pd.DataFrame(rows)

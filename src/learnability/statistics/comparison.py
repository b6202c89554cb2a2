"""Comparisons between embeddings: the Wilcoxon signed-rank test over per-list mean AUCs
(exact, also under ties, up to 50 pairs), for each pre-specified pair, over the lists
and over units that nested lists cannot inflate (leaves, clusters), Holm-adjusted."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from learnability.defaults import OVERLAP_WARN
from learnability.statistics.adjust import adjust_pvalues

EXACT_MAX_N = 50  # scipy's own threshold for the exact null distribution


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
    ``exact-conditional`` (n <= 50 with tied absolute differences: exact given the tie pattern,
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
    # scipy where a test is computed, not at import: the jobs that import this module
    # for its constants and tables (plots, tables) do not pay for scipy.stats' start-up
    from scipy.stats import rankdata, wilcoxon

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


def comparison_pairs(embeddings: list[str]) -> list[tuple[str, str]]:
    """The pre-specified comparisons between ``embeddings``: each unordered pair once, as
    (earlier, later) in the order given (the order states the hypothesis)."""
    return list(itertools.combinations(embeddings, 2))


def pair_overlaps(overlap: pd.DataFrame | None, embeddings: list[str], lists) -> pd.Series:
    """The largest overlap (``overlap`` table) of each pair of ``lists`` in any of
    ``embeddings``, indexed by (list_a, list_b); empty without an overlap table."""
    if overlap is None or overlap.empty:
        return pd.Series(dtype=float)
    return _pairs_among(overlap, embeddings, lists).groupby(["list_a", "list_b"])["overlap"].max()


def _pairs_among(overlap: pd.DataFrame, embeddings: list[str], lists) -> pd.DataFrame:
    """The rows of the ``overlap`` table for pairs of ``lists`` in any of ``embeddings``."""
    lists = set(lists)
    return overlap[
        overlap["embedding"].isin(embeddings)
        & overlap["list_a"].isin(lists)
        & overlap["list_b"].isin(lists)
    ]


COMPARISON_UNITS = ("lists", "leaves", "clusters")


def nested_pairs(overlap: pd.DataFrame | None, embeddings: list[str], lists) -> list[tuple]:
    """(child, parent) for each pair of ``lists`` nested in any of ``embeddings`` (more
    than ``OVERLAP_WARN`` of the smaller list shared): the parent is the larger list (of
    equal ones, the later name)."""
    if overlap is None or overlap.empty:
        return []
    part = _pairs_among(overlap, embeddings, lists)
    part = part[part["overlap"] > OVERLAP_WARN]
    pairs = []
    for (a, b), g in part.groupby(["list_a", "list_b"], sort=True):
        row = g.loc[g["overlap"].idxmax()]
        child_first = row["n_a"] < row["n_b"] or (row["n_a"] == row["n_b"] and a < b)
        pairs.append((a, b) if child_first else (b, a))
    return pairs


def comparison_units(auc: pd.DataFrame, pairs: list[tuple], units: str) -> pd.DataFrame:
    """The units a comparison ranks (rows of ``auc``, a column per embedding):
    ``lists`` as they are; ``leaves``, the lists that contain no other (every parent of
    a nested pair dropped), which are disjoint; ``clusters``, the mean AUC of each group
    of lists joined by nesting, named by its lists joined with "+"."""
    if units == "lists" or not pairs:
        return auc
    if units == "leaves":
        parents = {parent for _, parent in pairs}
        return auc.loc[[name for name in auc.index if name not in parents]]
    if units != "clusters":
        raise ValueError(f"unknown comparison units {units!r}; use one of {COMPARISON_UNITS}")
    root = {name: name for name in auc.index}

    def find(x):
        while root[x] != x:
            root[x] = root[root[x]]
            x = root[x]
        return x

    for a, b in pairs:
        root[find(a)] = find(b)
    groups: dict[str, list[str]] = {}
    for name in auc.index:
        groups.setdefault(find(name), []).append(name)
    return pd.DataFrame(
        {"+".join(members): auc.loc[members].mean() for members in groups.values()}
    ).T.rename_axis(auc.index.name)


def per_method_overlap(overlap: pd.DataFrame | None, methods: list[str]) -> pd.DataFrame | None:
    """A list overlap computed once on a vocabulary that several compared embeddings
    share (a sweep's methods, a corpus comparison's corpora), as
    :func:`compare_embeddings` reads it: a copy per embedding."""
    if overlap is None or overlap.empty:
        return None
    return pd.concat([overlap.assign(embedding=m) for m in methods], ignore_index=True)


def compare_embeddings(
    summary: pd.DataFrame,
    embeddings: list[str],
    alternative: str = "greater",
    vocabulary: str = "shared",
    overlap: pd.DataFrame | None = None,
    units: tuple[str, ...] | list[str] = COMPARISON_UNITS,
) -> pd.DataFrame:
    """Wilcoxon test over per-list mean AUCs for each unordered pair of ``embeddings``,
    once, in the order given: (a, b) with a listed before b, H1 "a > b" for ``greater``,
    "a < b" for ``less``, and one two-sided test for ``two-sided``. The order is the
    pre-specified hypothesis (the paper's fastText > GloVe > word2vec is
    ``[fasttext, glove, word2vec]``); testing both directions of a pair would count it
    twice. One family per negatives scheme and units; Holm adjusts over its pairs.
    ``vocabulary`` records what the AUCs were computed on: ``shared`` (every compared
    embedding on the same words and non-members), ``own`` (each on its own vocabulary,
    flagged as the weaker basis) or ``n/a`` (published numbers).

    The signed-rank test takes its units as independent. With the lists' ``overlap``
    table, each row counts the tested lists' nested pairs (more than half of the smaller
    list shared), and where lists nest each pair is also tested over disjoint ``units``
    (:func:`comparison_units`: ``leaves``, ``clusters``), one row each (``units``)."""
    frames = []
    for scheme in dict.fromkeys(summary["negatives"]):
        part = summary[summary["negatives"] == scheme]
        auc = part[part["metric"] == "auc"].pivot(index="list", columns="embedding", values="mean")
        missing = [e for e in embeddings if e not in auc.columns]
        if missing:
            raise ValueError(f"no AUCs for embeddings {missing}; present: {list(auc.columns)}")
        rows = []
        for kind in ["lists", *[u for u in units if u != "lists"]]:
            for a, b in comparison_pairs(embeddings):
                pair = auc[[a, b]].dropna()
                nested = nested_pairs(overlap, [a, b], pair.index)
                if kind != "lists" and not nested:
                    continue
                tested = comparison_units(pair, nested, kind)
                res = wilcoxon_test(tested[a].to_numpy(), tested[b].to_numpy(), alternative)
                worst = pair_overlaps(overlap, [a, b], tested.index if kind == "lists" else [])
                rows.append(
                    {
                        "negatives": scheme,
                        "vocabulary": vocabulary,
                        "units": kind,
                        "embedding_a": a,
                        "embedding_b": b,
                        "alternative": alternative,
                        "n_lists": len(tested),
                        **res,
                        "n_nested_pairs": int((worst > OVERLAP_WARN).sum()),
                        "max_overlap": float(worst.max()) if len(worst) else np.nan,
                        "unit_lists": ", ".join(map(str, tested.index)),
                    }
                )
        out = pd.DataFrame(rows)
        # Holm over each family: the k (k - 1) / 2 pre-specified comparisons of one units
        out["p_holm"] = np.nan
        for _, idx in out.groupby("units", sort=False).groups.items():
            out.loc[idx, "p_holm"] = adjust_pvalues(out.loc[idx, "p_value"].to_numpy(), "holm")
        frames.append(out)
    return pd.concat(frames, ignore_index=True)


def compare_within(
    scores: pd.DataFrame,
    group: str,
    compared: str,
    names: list[str],
    alternative: str,
    overlap: pd.DataFrame | None = None,
    units: tuple[str, ...] | list[str] = ("lists",),
) -> pd.DataFrame:
    """:func:`compare_embeddings` of ``names`` (values of the column ``compared``: a
    sweep's methods, a corpus comparison's corpora) within each value of ``group`` (a
    sweep's setting, the embedding trained on each corpus), each pair once in the order
    given, over the lists' mean AUCs (``scores``: a row per list, negatives and value of
    the two columns, its AUC in ``mean``). ``overlap``: the lists' on the vocabulary
    every compared name shares. The ``wilcoxon`` columns, ``group`` first; Holm adjusts
    within each group."""
    frames = []
    shared = per_method_overlap(overlap, names)
    for key, part in scores.groupby(group, sort=False):
        summary = part[["list", compared, "negatives", "mean"]].rename(
            columns={compared: "embedding"}
        )
        out = compare_embeddings(summary.assign(metric="auc"), names, alternative, "shared",
                                 shared, units)  # fmt: skip
        out.insert(0, group, key)
        frames.append(out)
    return pd.concat(frames, ignore_index=True)

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy.stats import wilcoxon

from learnability.stats import (
    compare_embeddings,
    empirical_pvalue,
    pvalues,
    random_rows,
    wilcoxon_test,
)


def brute_force_wplus_pvalue(d):
    """Exact one-sided p-value by enumerating all 2^n sign flips (no ties)."""
    ranks = np.argsort(np.argsort(np.abs(d))) + 1
    w_obs = ranks[d > 0].sum()
    count = 0
    for signs in itertools.product([0, 1], repeat=len(d)):
        count += ranks[np.array(signs, bool)].sum() >= w_obs
    return w_obs, count / 2 ** len(d)


def test_wilcoxon_without_ties_matches_scipy_exact():
    a = np.array([0.91, 0.85, 0.77, 0.95, 0.66, 0.72, 0.88, 0.59])
    b = np.array([0.80, 0.86, 0.70, 0.82, 0.61, 0.75, 0.78, 0.50])
    res = wilcoxon_test(a, b, "greater")
    ref = wilcoxon(a, b, alternative="greater", method="exact")
    assert res["method"] == "exact"
    assert res["p_value"] == pytest.approx(ref.pvalue)
    assert res["statistic"] == pytest.approx(ref.statistic)
    assert res["statistic"] + res["w_minus"] == 8 * 9 / 2


def test_wilcoxon_on_the_papers_table6_fasttext_vs_glove():
    """AUCs copied to 3 decimals tie (0.970-0.947 == 0.975-0.952 = 0.023): the float
    noise must not break the tie, and the tie means the p-value is approximate."""
    fasttext = np.array([0.965, 0.973, 0.970, 0.974, 0.961, 0.958, 0.973, 0.970, 0.963, 0.975])
    glove = np.array([0.961, 0.965, 0.957, 0.960, 0.971, 0.960, 0.962, 0.947, 0.948, 0.952])
    res = wilcoxon_test(fasttext, glove, "greater")
    assert res["n"] == 10
    assert res["w_minus"] == 5  # the table's W- (the text says 3; see shared/paper/README)
    assert res["statistic"] == 50
    assert res["method"] == "approximate"
    d = np.round(fasttext - glove, 12)
    ref = wilcoxon(d, alternative="greater", method="asymptotic")
    assert res["p_value"] == pytest.approx(ref.pvalue)
    assert 0.005 < res["p_value"] < 0.02


def test_wilcoxon_exact_small_case_by_enumeration():
    d = np.array([0.5, -0.1, 0.3, 0.9, 0.2, -0.4, 0.7])
    res = wilcoxon_test(d, np.zeros_like(d), "greater")
    w, p = brute_force_wplus_pvalue(d)
    assert res["method"] == "exact"
    assert res["statistic"] == w == 5 + 3 + 7 + 2 + 6
    assert res["p_value"] == pytest.approx(p)
    assert res["w_minus"] == 1 + 4


def test_wilcoxon_ties_use_approximation_and_zeros_are_dropped():
    a = np.array([0.9, 0.8, 0.7, 0.6, 0.5])
    b = np.array([0.8, 0.7, 0.7, 0.5, 0.4])  # diffs 0.1 (x3 tied), 0, 0.1
    res = wilcoxon_test(a, b, "greater")
    assert res["n"] == 4
    assert res["method"] == "approximate"
    ref = wilcoxon(np.round(a - b, 12), alternative="greater", method="asymptotic")
    assert res["p_value"] == pytest.approx(ref.pvalue)


def test_empirical_pvalue_plus_one():
    null = np.array([0.4, 0.5, 0.6, 0.7])
    assert empirical_pvalue(0.65, null) == (1, 2 / 5)
    assert empirical_pvalue(0.99, null) == (0, 1 / 5)
    assert empirical_pvalue(0.6, null) == (2, 3 / 5)  # ties count against the list


def _summary(rows):
    return pd.DataFrame(
        [
            {
                "list": li,
                "embedding": e,
                "size": s,
                "iterations": 10,
                "metric": "auc",
                "mean": v,
                "std": 0.0,
            }
            for li, e, s, v in rows
        ]
    )


def test_pvalues_use_size_matched_null():
    summary = _summary([("a", "w", 10, 0.8), ("b", "w", 20, 0.55)])
    null = pd.DataFrame(
        {
            "embedding": "w",
            "size": [10] * 3 + [20] * 3,
            "null_list": [0, 1, 2] * 2,
            "seed": 0,
            "iterations": 5,
            "accuracy": 0.5,
            "recall": 0.5,
            "fpr": 0.5,
            "precision": 0.5,
            "auc": [0.5, 0.6, 0.9, 0.5, 0.52, 0.54],
        }
    )
    p = pvalues(summary, null, match_sizes=True).set_index("list")
    assert p.loc["a", "null_size"] == 10 and p.loc["a", "n_null_ge"] == 1
    assert p.loc["a", "p_value"] == pytest.approx(2 / 4)
    assert p.loc["b", "null_size"] == 20 and p.loc["b", "p_value"] == pytest.approx(1 / 4)
    assert p.loc["b", "null_auc_max"] == 0.54
    with pytest.raises(ValueError, match="no size-matched null"):
        pvalues(_summary([("c", "w", 15, 0.7)]), null, match_sizes=True)


def test_random_rows_best_is_min_for_fpr():
    null = pd.DataFrame(
        {
            "embedding": "w",
            "size": 400,
            "null_list": [0, 1],
            "seed": 0,
            "iterations": 5,
            "accuracy": [0.5, 0.6],
            "recall": [0.4, 0.7],
            "fpr": [0.3, 0.5],
            "precision": [0.5, 0.55],
            "auc": [0.52, 0.56],
        }
    )
    rr = random_rows(null, [400]).set_index(["row", "metric"])["value"]
    assert rr[("random(max)", "auc")] == 0.56
    assert rr[("random(max)", "fpr")] == 0.3
    assert rr[("random(avg)", "fpr")] == pytest.approx(0.4)


def test_compare_embeddings_ordered_pairs():
    summary = _summary(
        [(f"l{i}", "a", 10, 0.9 + i / 100) for i in range(6)]
        + [(f"l{i}", "b", 10, 0.8 + i / 90) for i in range(6)]
    )
    w = compare_embeddings(summary, ["a", "b"]).set_index(["embedding_a", "embedding_b"])
    assert w.loc[("a", "b"), "statistic"] == 21 and w.loc[("b", "a"), "statistic"] == 0
    assert w.loc[("a", "b"), "p_value"] == pytest.approx(1 / 64)

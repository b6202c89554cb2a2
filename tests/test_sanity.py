"""Sanity checks of the statistics that could fail if the protocol were wrong."""

import numpy as np
import pandas as pd
from scipy.stats import kstest, norm

from learnability.evaluate import evaluate_concept, null_distribution
from learnability.stats import empirical_pvalue


def test_null_pvalues_are_uniform_and_null_means_sit_at_chance():
    """Random lists tested against random lists of the same size: p-values ~ U(0, 1)."""
    rng = np.random.default_rng(0)
    vectors = rng.standard_normal((4000, 40))
    kw = dict(size=20, iterations=2, C=1.0, embedding="g")
    null = null_distribution(vectors, lists=99, seed=1, **kw)["auc"].to_numpy()
    observed = null_distribution(vectors, lists=200, seed=2, **kw)["auc"].to_numpy()
    p = np.array([empirical_pvalue(a, null)[1] for a in observed])
    assert kstest(p, "uniform").pvalue > 0.01
    # the mean over 200 random lists of their mean AUC is 0.5 +- 0.01
    assert abs(observed.mean() - 0.5) < 0.01
    # list means spread less for larger lists (about 0.2 / sqrt(n))
    big = null_distribution(vectors, lists=60, seed=3, **{**kw, "size": 100})["auc"]
    assert big.std() < 0.7 * pd.Series(observed).std()


def test_planted_gaussian_concept_approaches_the_bayes_auc_from_below():
    """Members ~ N(delta * u, I), non-members ~ N(0, I): the Bayes classifier's AUC is
    Phi(delta / sqrt(2)); a fitted linear classifier approaches it from below as the
    list grows."""
    rng = np.random.default_rng(1)
    d, delta = 30, 1.5
    vectors = rng.standard_normal((30000, d))
    u = np.zeros(d)
    u[0] = 1.0
    bayes = norm.cdf(delta / np.sqrt(2))
    aucs = []
    for n in (20, 80, 640):
        # average over several member draws: one list's AUC carries its own sampling luck
        per_list = []
        for k in range(4):
            members = rng.choice(30000, n, replace=False)
            v = vectors.copy()
            v[members] += delta * u
            its = evaluate_concept(
                v, members, iterations=20, C=1.0, seed=k, list_name=f"p{n}", embedding="g"
            )
            per_list.append(its["auc"].mean())
        aucs.append(np.mean(per_list))
    assert aucs[0] < aucs[1] < aucs[2] < bayes + 0.01
    assert aucs[2] > bayes - 0.03

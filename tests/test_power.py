"""What a list's test could have seen (learnability.statistics.power, the bounds
analysis), checked against hand cases, the empirical p-value it predicts, and planted
concepts of known strength in synthetic embeddings, at the workflow's own ratios: 1000
random lists of 10 splits against lists of 200 splits."""

from __future__ import annotations

import numpy as np
import pytest

from learnability.analyses.bounds import bound_row, jackknife_groups
from learnability.api import C
from learnability.protocol.evaluate import Protocol, null_distribution
from learnability.protocol.sampling import derive_seed
from learnability.protocol.splits import concept_seeds, draw_splits, fit_splits
from learnability.statistics.power import (
    critical_value,
    detectable_auc,
    jackknife_variance,
    power_at,
)
from learnability.statistics.significance import (
    comparison_null,
    empirical_pvalue,
    resolve_method,
)

ALPHA, POWER = 0.05, 0.8
# the workflow's defaults: random lists and their splits, a list's splits
R, K_N, K_L = 1000, 10, 200


def test_the_critical_value_is_where_the_empirical_p_value_reaches_alpha():
    rng = np.random.default_rng(0)
    values = rng.normal(0.5, 0.05, R)
    for alpha in (0.001, 0.01, 0.05, 0.2):
        crit = critical_value(values, alpha)
        # just above it p <= alpha, at it p > alpha (empirical_pvalue: the p-values' own)
        assert empirical_pvalue(crit + 1e-9, values)[1] <= alpha
        assert empirical_pvalue(crit, values)[1] > alpha
    # below the floor 1 / (R + 1) nothing is detectable
    assert critical_value(values, 0.5 / (R + 1)) == np.inf
    assert np.isnan(detectable_auc(values, 0.5 / (R + 1), POWER))


def test_the_smallest_detectable_auc_is_where_the_power_reaches_its_target():
    rng = np.random.default_rng(1)
    values = rng.normal(0.52, 0.04, R)
    sde = detectable_auc(values, ALPHA, POWER)
    assert power_at(values, ALPHA, sde + 1e-9)[0] >= POWER
    assert power_at(values, ALPHA, sde - 1e-9)[0] < POWER
    # a Gaussian null: about the mean plus (z_alpha + z_power) SDs
    from scipy.stats import norm

    expected = 0.52 + (norm.ppf(1 - ALPHA) + norm.ppf(POWER)) * 0.04
    assert sde == pytest.approx(expected, abs=0.006)
    # at the null's own mean the power is the level
    assert power_at(values, ALPHA, values.mean())[0] == pytest.approx(ALPHA, abs=0.002)


def test_the_jackknife_of_a_mean_is_its_variance_over_n():
    """Delete-one, without noise: the jackknife variance of a sample mean is exactly
    s^2 / n; with noise of known variance in each run, that noise is taken out."""
    x = np.random.default_rng(2).normal(size=23)
    leave_one = (x.sum() - x) / (x.size - 1)
    assert jackknife_variance(leave_one, 0.0, 1) == pytest.approx(x.var(ddof=1) / x.size)
    # and grouped: 5 groups of a mean of 25 values
    y = np.random.default_rng(3).normal(size=25)
    groups = np.array_split(np.arange(25), 5)
    means = np.array([np.delete(y, g).mean() for g in groups])
    # the delete-a-group jackknife of a mean: sum over groups of (mean of the others - mean)
    # scaled by (g - 1) / g, which is s_between^2 / g for these equal groups
    group_means = np.array([y[g].mean() for g in groups])
    assert jackknife_variance(means, 0.0, 1) == pytest.approx(group_means.var(ddof=1) / 5)
    assert jackknife_variance(means, 1e6, 1) == 0.0  # clamped, never negative


def test_a_list_at_min_words_has_no_bounds_and_larger_lists_keep_min_words():
    assert jackknife_groups(4, 10, 4) == 0
    assert jackknife_groups(5, 10, 4) == 5  # one member out at a time
    assert jackknife_groups(11, 10, 4) == 10
    assert jackknife_groups(8, 2, 4) == 2
    assert jackknife_groups(7, 2, 4) == 3  # 7 - 4 < 4: three groups of at most 3


# --- planted concepts ------------------------------------------------------------------


def _embedding(seed: int, words: int = 4000, dim: int = 50, pool: int = 400):
    """Clustered Gaussian vectors (so random lists' true AUCs vary, as on real vectors:
    between / (within / K_N) about 1), a concept direction, and a pool of ``pool`` concept
    words (rows 0..pool-1)."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((80, dim))
    x = 1.5 * centres[rng.integers(0, 80, words)] + rng.standard_normal((words, dim))
    u = rng.standard_normal(dim)
    return x, u / np.linalg.norm(u), pool


def _planted(x, u, pool, strength, weights=None):
    y = x.copy()
    w = np.ones(pool) if weights is None else weights
    y[:pool] += (strength * w)[:, None] * u[None, :]
    return y


def _draw_aucs(y, pool, size, draws, seed, tag):
    """(draws, K_L) split AUCs of ``draws`` lists of ``size`` words from the pool."""
    rng = np.random.default_rng(derive_seed(seed, "draws", tag))
    protocol = Protocol(iterations=K_L, C=C, seed=seed)
    splits = []
    for i in range(draws):
        members = np.sort(rng.choice(pool, size, replace=False))
        splits += draw_splits(y.shape[0], members, protocol,
                              concept_seeds(seed, f"{tag}-{i}", K_L), None)  # fmt: skip
    return fit_splits(y, splits, protocol).metrics()["auc"].reshape(draws, K_L)


# (size, strength): the concept's lists' mean AUC near the smallest detectable one and
# below it, at two sizes
POWER_CASES = ((11, 4.0), (11, 3.0), (30, 2.2), (30, 1.8))
DRAWS = 200


@pytest.mark.parametrize("seed", [0])  # seeds 0-19 checked (figures in the docstring)
def test_predicted_power_is_the_power_measured_on_planted_concepts(seed):
    """For a concept of known strength, lists of its words drawn 200 times and tested as
    the workflow tests them (their p-values against 1000 random lists of their size, by
    the method auto chooses): the share reaching p <= 0.05 is the power predicted from
    the concept's mean AUC and the random lists alone, within its Monte Carlo error
    (binomial, and the error of the mean AUC it is predicted at, times the power
    curve's slope there); where that mean is the smallest detectable AUC, 80 % of lists
    are detected. A null of half its spread (the mutation) predicts powers that miss."""
    x, u, pool = _embedding(seed)
    misses_halved = 0
    for size, strength in POWER_CASES:
        y = _planted(x, u, pool, strength)
        aucs = _draw_aucs(y, pool, size, DRAWS, seed, f"{size}-{strength}")
        null = null_distribution(y, size=size, lists=R, iterations=K_N, C=C,
                                 seed=seed + 7, embedding="planted")  # fmt: skip
        used, _ = resolve_method(null, "auto", K_L)
        values = comparison_null(null, used, K_L).values
        stat = aucs[:, :K_N].mean(axis=1) if used == "truncated" else aucs.mean(axis=1)
        measured = np.mean([empirical_pvalue(t, values)[1] <= ALPHA for t in stat])
        mean, mean_se = aucs.mean(), aucs.mean(axis=1).std(ddof=1) / np.sqrt(DRAWS)
        predicted = power_at(values, ALPHA, mean)[0]
        slope = (power_at(values, ALPHA, mean + 0.01)[0]
                 - power_at(values, ALPHA, mean - 0.01)[0]) / 0.02  # fmt: skip
        se = np.sqrt(predicted * (1 - predicted) / DRAWS + (slope * mean_se) ** 2)
        assert abs(measured - predicted) <= 3 * se + 0.01, (size, strength, measured, predicted)
        sde = detectable_auc(values, ALPHA, POWER)
        if abs(mean - sde) < 0.02:
            # the detectable AUC: 80 % detected, give or take the slope over the distance
            assert abs(measured - POWER) <= 3 * se + slope * abs(mean - sde) + 0.01
        centre = values.mean()
        halved = power_at(centre + 0.5 * (values - centre), ALPHA, mean)[0]
        misses_halved += abs(measured - halved) > 3 * se + 0.01
    assert misses_halved >= 2


# lists drawn for the bounds check: its coverage tolerance is 3 binomial SEs at this count
BOUND_DRAWS = 60


@pytest.mark.parametrize("seed", [0])  # seeds 0-19 checked (figures in the docstring)
def test_the_bounds_cover_a_planted_concepts_auc_at_their_nominal_rate(seed):
    """Lists of 11 words drawn from a concept whose members carry it unequally (weights
    gamma, CV 0.7), with the bounds analysis' defaults (10 groups of 200 splits): each
    list's one-sided 95 % bounds cover the concept's mean AUC at that size (estimated by
    the draws' mean) at least 95 % of the time, less Monte Carlo error, and their
    standard errors are not uselessly wide (0.8-1.8x the draws' own SD). With the
    splits' noise alone (the error the summary's bootstrap interval gives), far less:
    the members are what the bounds resample. Seeds 0-19 at 60 draws (the tolerance 0.95
    - 3 SE = 0.866): upper bound 0.92-1.00 covered, lower 0.92-1.00, SE / SD 1.06-1.56,
    the noise alone 0.53-0.70 (at 100 draws: 0.94-1.00, 0.94-0.99, 1.08-1.53,
    0.54-0.67)."""
    from learnability.defaults import default

    x, u, pool = _embedding(seed)
    weights = np.random.default_rng(seed).gamma(2.0, 0.5, pool)
    y = _planted(x, u, pool, 3.0, weights)
    protocol = Protocol(iterations=K_L, C=C, seed=seed)
    rng = np.random.default_rng(derive_seed(seed, "bound-draws"))
    rows = [
        bound_row(y, np.sort(rng.choice(pool, 11, replace=False)), protocol,
                  groups=default("power.groups"), iterations=default("power.iterations"),
                  confidence=0.95, list_name=f"d{i}", embedding="planted", bins=None,
                  min_words=4)
        for i in range(BOUND_DRAWS)
    ]  # fmt: skip
    auc = np.array([r["auc"] for r in rows])
    high = np.array([r["auc_high"] for r in rows])
    low = np.array([r["auc_low"] for r in rows])
    mean = auc.mean()
    se = np.sqrt(0.95 * 0.05 / BOUND_DRAWS)
    for covered in (np.mean(high >= mean), np.mean(low <= mean)):
        assert covered >= 0.95 - 3 * se, (np.mean(high >= mean), np.mean(low <= mean))
    # and not uselessly wide: the mean standard error near the draws' own spread (the
    # jackknife errs wide: 1.06-1.56x over seeds 0-19)
    ratio = np.mean([r["auc_se"] for r in rows]) / auc.std(ddof=1)
    assert 0.8 <= ratio <= 1.8, ratio
    # the splits' noise alone: the mean's standard error over its 200 splits
    noise_only = np.mean(auc + 1.645 * np.array([r["auc_split_se"] for r in rows]) >= mean)
    assert noise_only < 0.8, noise_only


# --- the words-needed curve -------------------------------------------------------------


def test_words_for_power_interpolates_where_the_power_crosses_its_target():
    import pandas as pd

    from learnability.analyses.words_needed import words_for_power

    rows = [("a", 5, 0.2), ("a", 8, 0.6), ("a", 12, 0.9), ("b", 5, 0.85), ("c", 5, 0.1),
            ("c", 8, 0.3)]  # fmt: skip
    table = pd.DataFrame(rows, columns=["list", "words", "power"]).assign(
        embedding="e", negatives="uniform", size=20, power_target=0.8
    )
    got = words_for_power(table).set_index("list")["words_needed"]
    assert got["a"] == pytest.approx(8 + (0.8 - 0.6) / (0.9 - 0.6) * 4)
    assert got["b"] == 5
    assert np.isnan(got["c"])  # never reached below its own size


def test_the_words_needed_curve_tests_subsets_as_the_lists_are_tested():
    """score() with the curve on a planted concept of 40 words: at each size, the share of
    subsets detected is the share the p-value function of the lists (pvalues(), from the
    subsets' summaries and the null of their size) gives, exactly; the power grows with
    the words, the smallest detectable AUC falls, and the concept needs more than 5 and
    at most 40 words."""
    import pandas as pd

    import learnability
    from learnability.analyses.words_needed import words_for_power
    from learnability.statistics.significance import pvalues

    x, u, pool = _embedding(3)
    y = _planted(x, u, pool, 2.5)
    words = [f"w{i}" for i in range(y.shape[0])]
    lists = {"concept": words[:40]}
    settings = dict(iterations=50, null_lists=200, null_iterations=10, seed=5,
                    suggestions=0, check_folds=0, entanglement_iterations=0,
                    codelength_orders=0, bound_groups=0, curve_subsamples=12,
                    curve_sizes=(5, 8, 12, 20))  # fmt: skip
    got = learnability.score((words, y), lists, **settings)
    curve = got.words_needed.sort_values("words")
    assert list(curve["words"]) == [5, 8, 12, 20]
    assert curve["power"].iloc[-1] > curve["power"].iloc[0]
    assert (np.diff(curve["auc_detectable"]) < 0).all()
    needed = words_for_power(curve)["words_needed"].iloc[0]
    assert 5 < needed <= 40 or np.isnan(needed)
    # the subsets of 8 words, redrawn from their seeds, tested by pvalues()
    from learnability.protocol.evaluate import Protocol, null_distribution
    from learnability.protocol.splits import draw_splits, fit_splits

    members = np.arange(40)
    protocol = Protocol(iterations=50, C=C, seed=5)
    rows, its = [], []
    for s in range(12):
        seed = derive_seed(5, "words-needed", "concept", 8, s)
        subset = np.sort(np.random.default_rng(seed).choice(members, 8, replace=False))
        splits = draw_splits(y.shape[0], subset, protocol,
                             [derive_seed(seed, "split", i) for i in range(50)], None)  # fmt: skip
        aucs = fit_splits(y, splits, protocol).metrics()["auc"]
        rows.append({"list": f"s{s}", "embedding": "e", "negatives": "uniform", "size": 8,
                     "null_key": "size-8", "iterations": 50, "metric": "auc",
                     "mean": aucs.mean()})  # fmt: skip
        its += [{"list": f"s{s}", "embedding": "e", "negatives": "uniform", "iteration": i,
                 "auc": a} for i, a in enumerate(aucs)]  # fmt: skip
    null = null_distribution(y, size=8, lists=200, iterations=10, C=C, seed=6, embedding="e")
    tests = pvalues(pd.DataFrame(rows), null, True, "none", "auto", pd.DataFrame(its))
    row = curve[curve["words"] == 8].iloc[0]
    assert row["power"] == pytest.approx((tests["p_value"] <= ALPHA).mean())
    assert row["auc_detectable"] == pytest.approx(tests["auc_detectable"].iloc[0])


def test_the_explorer_heading_says_what_the_lists_test_could_see():
    import pandas as pd

    from learnability.reports.explorer import verdict

    pv = pd.DataFrame({"list": ["anger", "tiny"], "embedding": "w2v", "p_value": [0.126, 0.5],
                       "p_floor": 1 / 1001, "auc_detectable": [0.655, np.nan],
                       "power": 0.8, "power_alpha": 0.05})  # fmt: skip
    bounds = pd.DataFrame({"list": ["anger", "tiny"], "embedding": "w2v",
                           "auc_low": [0.46, np.nan], "auc_high": [0.674, np.nan],
                           "confidence": 0.95})  # fmt: skip
    assert verdict(pv, bounds, "w2v", "anger") == (
        "; p 0.126; 80% power from AUC 0.655 (p <= 0.05); AUC 0.460-0.674 (95% bounds each)"
    )
    # a list too small for any: no bound, and nothing detectable at its size
    assert verdict(pv, bounds, "w2v", "tiny") == "; p 0.500; no AUC detectable at this size"
    assert verdict(None, None, "w2v", "anger") == ""

"""Sanity checks of the statistics that could fail if the protocol were wrong."""

from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import norm

from learnability.protocol.evaluate import evaluate_concept, null_distribution
from learnability.statistics.significance import empirical_pvalue

REPO = Path(__file__).resolve().parents[1]


def test_null_pvalues_are_uniform_and_null_means_sit_at_chance(seed):
    """Random lists tested against random lists of the same size, both with the same
    number of splits (so the comparison is exact): 10 nulls of 99 random lists, each
    judging 20 others. The shares of p <= 0.01, 0.05, 0.10 lie in calibration_summary's
    band (Bradley's 10 % plus 4 standard errors, over nulls); the mean AUC of the 200
    lists is 0.5 within 4 standard errors; larger lists' means spread less, as
    1 / sqrt(size), within the error of two standard deviations."""
    from learnability.statistics.calibration import calibration_summary

    rng = np.random.default_rng(seed)
    vectors = rng.standard_normal((4000, 40))
    kw = dict(size=20, iterations=2, C=1.0, embedding="g")
    rows, means = [], []
    for draw in range(10):
        null = null_distribution(vectors, lists=99, seed=2 * draw + 1, **kw)["auc"].to_numpy()
        observed = null_distribution(vectors, lists=20, seed=2 * draw + 2, **kw)["auc"]
        means += observed.tolist()
        rows += [{"method": "same splits", "null": draw, "p_value": empirical_pvalue(a, null)[1]}
                 for a in observed]  # fmt: skip
    summary = calibration_summary(pd.DataFrame(rows)).iloc[0]
    assert summary["calibrated"] == "True", summary
    means = np.array(means)
    assert abs(means.mean() - 0.5) < 4 * means.std(ddof=1) / np.sqrt(means.size)
    # 100-word lists against the 200 20-word ones: SD ratio sqrt(20 / 100) = 0.45
    big = null_distribution(vectors, lists=60, seed=99, **{**kw, "size": 100})["auc"].to_numpy()
    ratio = big.std(ddof=1) / means.std(ddof=1)
    rel_se = np.sqrt(1 / (2 * (big.size - 1)) + 1 / (2 * (means.size - 1)))
    assert abs(ratio / np.sqrt(20 / 100) - 1) < 4 * rel_se, ratio


def test_pvalues_are_calibrated_at_the_default_configs_ratios(seed):
    """Truly null lists (random words) scored with config/config.yaml's
    learnability.iterations splits (K_L = 200), tested against nulls of its
    random_lists.lists random lists (R = 1000) of random_lists.iterations splits
    (K_N = 10): under the default method every share of p <= 0.01, 0.05 and 0.10 lies in
    calibration_summary's band (Bradley's 10 % of the level plus 4 standard errors over
    the nulls: with 400 lists about +-0.02, 0.045 and 0.06, so this catches gross errors;
    tests/test_stats.py checks the method to a tenth of the level on simulated nulls).
    Comparing the lists' means with the random lists' means as they are (the method
    before rescaling: "unmatched") fails: its p-values crowd the middle, their variance
    (about 0.059) more than 3 standard errors below a uniform's 1/12. Gaussian
    vectors of 100 dimensions and lists of 10-40 words keep it to seconds; each size has
    two null draws of its own (benchmarks/calibration.py does the same at full size, on a
    trained embedding too, at the paper's ratio as well)."""
    import yaml

    from learnability.statistics.calibration import calibration_summary, null_list_pvalues
    from learnability.statistics.pvalue_methods import DEFAULT_PVALUE_METHOD

    cfg = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    kl, kn = cfg["learnability"]["iterations"], cfg["random_lists"]["iterations"]
    method = cfg["random_lists"].get("method", DEFAULT_PVALUE_METHOD)
    assert kl > kn and method == DEFAULT_PVALUE_METHOD == "auto"
    vectors = np.random.default_rng(seed).standard_normal((4000, 100))
    p = null_list_pvalues(
        vectors,
        [10, 14, 20, 28, 40],
        lists_per_size=80,
        nulls_per_size=2,
        list_iterations=kl,
        null_iterations=kn,
        null_lists=cfg["random_lists"]["lists"],
        methods=(method, "unmatched"),
        seed=seed,
    )
    summary = calibration_summary(p).set_index("method")
    assert summary.loc[method, "n_lists"] == 400 and summary.loc[method, "n_nulls"] == 10
    assert summary.loc[method, "calibrated"] == "True", summary
    # the variance of n uniform p-values has SE sqrt((1/80 - 1/144) / n)
    spread = p.groupby("method")["p_value"].var()
    se = np.sqrt((1 / 80 - 1 / 144) / 400)
    assert spread["unmatched"] < 1 / 12 - 3 * se, spread
    assert abs(spread[method] - 1 / 12) < 4 * se, spread


def test_pvalues_are_calibrated_with_frequency_matched_negatives(seed):
    """The frequency_matched scheme at the default config's ratios (K_L = 200, K_N = 10,
    R = 1000): truly null lists with a frequency profile (more frequent words than a
    uniform draw, as real lists have), non-members drawn bin by bin, tested against the
    null of that profile key. Zipf-like counts give the bins. Under the default method
    every share lies in calibration_summary's band (with 120 lists and 3 nulls, gross
    errors only) and the p-values' variance is a uniform's 1/12 within 4 standard
    errors."""
    import yaml

    from learnability.protocol.sampling import frequency_bins
    from learnability.statistics.calibration import calibration_summary, null_list_pvalues

    cfg = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    rng = np.random.default_rng(seed)
    vectors = rng.standard_normal((4000, 100))
    counts = np.floor(1e5 / np.arange(1, 4001) ** 1.1) + 5  # Zipf, min_count 5
    bins = frequency_bins(rng.permutation(counts), cfg["learnability"]["frequency_bins"])
    keys = ["profile-0-0-1-1-2-2-3-3-4-4"]  # 20 words, more of them frequent
    p = null_list_pvalues(
        vectors,
        keys=keys,
        bins=bins,
        negatives="frequency_matched",
        lists_per_size=120,
        nulls_per_size=3,
        list_iterations=cfg["learnability"]["iterations"],
        null_iterations=cfg["random_lists"]["iterations"],
        null_lists=cfg["random_lists"]["lists"],
        methods=("rescaled_skew",),
        seed=seed,
    )
    assert set(p["null"].str.split("/").str[0]) == set(keys)
    summary = calibration_summary(p).set_index("method").loc["rescaled_skew"]
    assert summary["n_lists"] == 120 and summary["n_nulls"] == 3
    assert summary["calibrated"] == "True", summary
    se = np.sqrt((1 / 80 - 1 / 144) / 120)
    assert abs(p["p_value"].var() - 1 / 12) < 4 * se


def test_planted_gaussian_concept_approaches_the_bayes_auc_from_below(seed):
    """Members ~ N(delta * u, I), non-members ~ N(0, I): the Bayes classifier's AUC is
    Phi(delta / sqrt(2)) = 0.856; a fitted linear classifier approaches it from below as
    the list grows. Averaged over many member draws (one list's AUC carries its own
    luck): about 0.70, 0.76 and 0.84 at 20, 80 and 640 words, each step 5 or more
    standard errors (over lists) apart, the last within 0.05 of the bound."""
    rng = np.random.default_rng(seed + 1)
    d, delta = 30, 1.5
    vectors = rng.standard_normal((30000, d))
    u = np.zeros(d)
    u[0] = 1.0
    bayes = norm.cdf(delta / np.sqrt(2))
    aucs, ses = [], []
    for n, lists in ((20, 64), (80, 16), (640, 4)):
        per_list = []
        for k in range(lists):
            members = rng.choice(30000, n, replace=False)
            v = vectors.copy()
            v[members] += delta * u
            its = evaluate_concept(
                v, members, iterations=20, C=1.0, seed=k, list_name=f"p{n}", embedding="g"
            )
            per_list.append(its["auc"].mean())
        aucs.append(np.mean(per_list))
        ses.append(np.std(per_list, ddof=1) / np.sqrt(lists))
    assert aucs[0] < aucs[1] < aucs[2], (aucs, ses)
    assert all(a < bayes + 4 * se for a, se in zip(aucs, ses, strict=True)), (aucs, ses)
    assert aucs[2] > bayes - 0.05

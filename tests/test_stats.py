import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import false_discovery_control, rankdata, wilcoxon

from learnability.statistics.adjust import adjust_pvalues
from learnability.statistics.calibration import calibration_summary
from learnability.statistics.comparison import compare_embeddings, wilcoxon_test
from learnability.statistics.significance import (
    between_third_cumulant,
    calibrated_null,
    empirical_pvalue,
    pvalues,
    random_rows,
    skew_matched_null,
    tail_pvalue,
)


def brute_force_pvalues(d):
    """W+ and its one-sided p-values by enumerating all 2^n sign flips over midranks."""
    ranks = rankdata(np.abs(d))
    w_obs = ranks[d > 0].sum()
    flips = np.array(list(itertools.product([0, 1], repeat=len(d))), bool)
    w_all = flips.astype(float) @ ranks
    return w_obs, np.mean(w_all >= w_obs - 1e-9), np.mean(w_all <= w_obs + 1e-9)


def test_wilcoxon_without_ties_matches_scipy_exact():
    a = np.array([0.91, 0.85, 0.77, 0.95, 0.66, 0.72, 0.88, 0.59])
    b = np.array([0.80, 0.86, 0.70, 0.82, 0.61, 0.75, 0.78, 0.50])
    for alternative in ("greater", "less", "two-sided"):
        res = wilcoxon_test(a, b, alternative)
        ref = wilcoxon(a, b, alternative=alternative, method="exact")
        assert res["method"] == "exact"
        assert res["p_value"] == pytest.approx(ref.pvalue)
    res = wilcoxon_test(a, b, "greater")
    assert res["statistic"] == pytest.approx(wilcoxon(a, b, alternative="greater").statistic)
    assert res["statistic"] + res["w_minus"] == 8 * 9 / 2


# Table 6 of Sutton & Cristianini (2020) as published, transcribed in the project's shared
# paper folder; tests/data/paper_table6.csv is the committed copy (tests/data/README.md)
PAPER_TABLE6 = Path(__file__).parent / "data" / "paper_table6.csv"
SHARED_TABLE6 = Path(__file__).resolve().parents[2] / "shared" / "paper" / "table6.csv"


def paper_table6() -> pd.DataFrame:
    """The published Table 6 (list, embedding, auc): the shared transcription where the
    checkout has it beside it, which the committed copy must then equal byte for byte."""
    if SHARED_TABLE6.exists():
        assert PAPER_TABLE6.read_bytes() == SHARED_TABLE6.read_bytes()
        return pd.read_csv(SHARED_TABLE6)
    return pd.read_csv(PAPER_TABLE6)


def test_wilcoxon_on_the_papers_table6_fasttext_vs_glove():
    """fastText > GloVe on the ten lists of Table 6 as published: W+ = 50, W- = 5 (the text
    says 3; see shared/paper/README) and p = 0.0088, which is 9/1024 exactly. AUCs printed
    to 3 decimals tie (0.970-0.947 == 0.975-0.952 = 0.023): float noise must not break the
    tie, and the p-value is exact given the ties, checked against a hand enumeration of
    all 2^10 sign flips."""
    by = paper_table6().pivot(index="list", columns="embedding", values="auc")
    fasttext, glove = by["fasttext"].to_numpy(), by["glove"].to_numpy()
    assert len(fasttext) == 10 and by.loc["social", "glove"] == 0.960
    res = wilcoxon_test(fasttext, glove, "greater")
    assert res["n"] == 10
    assert res["w_minus"] == 5
    assert res["statistic"] == 50
    assert res["method"] == "exact-conditional"
    assert res["p_value"] == pytest.approx(9 / 1024, abs=1e-15)
    assert round(res["p_value"], 4) == 0.0088  # as printed
    w, p_greater, p_less = brute_force_pvalues(np.round(fasttext - glove, 12))
    assert w == 50
    assert res["p_value"] == pytest.approx(p_greater, abs=1e-12)
    assert wilcoxon_test(fasttext, glove, "less")["p_value"] == pytest.approx(p_less)
    assert res["rank_biserial"] == pytest.approx((50 - 5) / 55)


@pytest.mark.parametrize("case", range(4))
def test_wilcoxon_exact_conditional_on_random_ties_and_zeros(case, seed):
    rng = np.random.default_rng([seed, case])
    d = rng.integers(-4, 6, size=11).astype(float)  # many ties and some zeros
    res = wilcoxon_test(d, np.zeros_like(d), "greater")
    nz = d[d != 0]
    w, p_greater, _ = brute_force_pvalues(nz)
    assert res["n"] == nz.size and res["statistic"] == w
    assert res["p_value"] == pytest.approx(p_greater, abs=1e-12)


def test_wilcoxon_exact_small_case_by_enumeration():
    d = np.array([0.5, -0.1, 0.3, 0.9, 0.2, -0.4, 0.7])
    res = wilcoxon_test(d, np.zeros_like(d), "greater")
    w, p, _ = brute_force_pvalues(d)
    assert res["method"] == "exact"
    assert res["statistic"] == w == 5 + 3 + 7 + 2 + 6
    assert res["p_value"] == pytest.approx(p)
    assert res["w_minus"] == 1 + 4


def test_wilcoxon_large_n_uses_tie_corrected_normal():
    rng = np.random.default_rng(5)
    a = np.round(rng.normal(0.8, 0.05, 80), 3)
    b = np.round(a - rng.normal(0.01, 0.02, 80), 3)
    res = wilcoxon_test(a, b, "greater")
    assert res["method"] == "approximate"
    ref = wilcoxon(np.round(a - b, 12), alternative="greater", method="asymptotic")
    assert res["p_value"] == pytest.approx(ref.pvalue)


def test_adjust_pvalues():
    p = np.array([0.01, 0.04, 0.03, 0.005, np.nan])
    # Holm by hand: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 -> 0.02, 0.03, 0.06,
    # 0.04, then the running maximum -> 0.02, 0.03, 0.06, 0.06
    holm = adjust_pvalues(p, "holm")
    np.testing.assert_allclose(holm[:4], [0.03, 0.06, 0.06, 0.02])
    assert np.isnan(holm[4])
    bh = adjust_pvalues(p, "bh")
    np.testing.assert_allclose(bh[:4], false_discovery_control(p[:4], method="bh"))
    np.testing.assert_array_equal(adjust_pvalues(p, "none")[:4], p[:4])
    with pytest.raises(ValueError, match="unknown"):
        adjust_pvalues(p, "bonf")


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
                "negatives": "uniform",
                "size": s,
                "null_key": f"size-{s}",
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
            "negatives": "uniform",
            "null_key": ["size-10"] * 3 + ["size-20"] * 3,
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
    # the random lists' 5 splits against the lists' 10, as they are: the key matching
    p = pvalues(summary, null, match_sizes=True, method="unmatched").set_index("list")
    assert p.loc["a", "null_size"] == 10 and p.loc["a", "n_null_ge"] == 1
    assert p.loc["a", "p_value"] == pytest.approx(2 / 4)
    assert p.loc["b", "null_size"] == 20 and p.loc["b", "p_value"] == pytest.approx(1 / 4)
    assert p.loc["b", "null_auc_max"] == 0.54
    # Holm across the two lists of embedding w: 0.25 * 2 = 0.5, max(0.5 * 1, 0.5) = 0.5
    assert p.loc["a", "p_adjusted"] == pytest.approx(0.5)
    assert p.loc["b", "p_adjusted"] == pytest.approx(0.5)
    assert (p["adjustment"] == "holm").all()
    bh = pvalues(summary, null, True, adjust="bh", method="unmatched").set_index("list")
    assert bh.loc["b", "p_adjusted"] == pytest.approx(0.5)
    with pytest.raises(ValueError, match="no matched null"):
        pvalues(_summary([("c", "w", 15, 0.7)]), null, match_sizes=True, method="unmatched")
    # without matching, the closest fixed size is used
    fixed = pvalues(_summary([("c", "w", 12, 0.7)]), null, False, method="unmatched")
    assert fixed["null_key"].tolist() == ["size-10"]


def test_random_rows_best_is_min_for_fpr():
    null = pd.DataFrame(
        {
            "embedding": "w",
            "negatives": "uniform",
            "null_key": "size-400",
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


def test_compare_embeddings_tests_each_pair_once_in_the_configured_direction():
    summary = _summary(
        [(f"l{i}", "a", 10, 0.9 + i / 100) for i in range(6)]
        + [(f"l{i}", "b", 10, 0.8 + i / 90) for i in range(6)]
    )
    w = compare_embeddings(summary, ["a", "b"]).set_index(["embedding_a", "embedding_b"])
    assert list(w.index) == [("a", "b")]  # not (b, a) as well: one test per pair
    assert w.loc[("a", "b"), "statistic"] == 21
    assert w.loc[("a", "b"), "p_value"] == pytest.approx(1 / 64)
    assert w.loc[("a", "b"), "rank_biserial"] == 1.0
    assert w.loc[("a", "b"), "p_holm"] == pytest.approx(1 / 64)  # a family of one
    # the order given is the hypothesis: b before a tests b > a
    rev = compare_embeddings(summary, ["b", "a"]).set_index(["embedding_a", "embedding_b"])
    assert list(rev.index) == [("b", "a")] and rev.iloc[0]["p_value"] == pytest.approx(1.0)
    two = compare_embeddings(summary, ["b", "a"], "two-sided").iloc[0]
    assert two["p_value"] == pytest.approx(2 / 64)


def test_the_papers_three_comparisons_give_its_p_values():
    """Table 6 as published (tests/data/paper_table6.csv): the three pre-specified tests
    fastText > GloVe > word2vec. The paper reports p = 0.0088 for fastText > GloVe, which is
    9/1024 exactly; the other two pairs differ in sign on no list: 1/1024."""
    table = paper_table6()
    summary = table.assign(
        negatives="n/a", size=0, null_key="", iterations=1000, metric="auc", mean=table["auc"]
    )
    w = compare_embeddings(summary, ["fasttext", "glove", "word2vec"], vocabulary="n/a")
    w = w.set_index(["embedding_a", "embedding_b"])
    assert list(w.index) == [("fasttext", "glove"), ("fasttext", "word2vec"), ("glove", "word2vec")]
    assert w.loc[("fasttext", "glove"), "p_value"] == pytest.approx(9 / 1024, abs=1e-15)
    assert round(w.loc[("fasttext", "glove"), "p_value"], 4) == 0.0088  # as printed
    assert w.loc[("fasttext", "word2vec"), "p_value"] == pytest.approx(1 / 1024, abs=1e-15)
    assert w.loc[("glove", "word2vec"), "p_value"] == pytest.approx(1 / 1024, abs=1e-15)
    # Holm over the paper's family of three: 3/1024, 3/1024 (2 x 1/1024, raised to the
    # running maximum), 9/1024
    assert w["p_holm"].tolist() == pytest.approx([9 / 1024, 3 / 1024, 3 / 1024])


def _components_null(rng, lists, k_null, sd_between, sd_within):
    mu = 0.5 + sd_between * rng.standard_normal(lists)
    splits = mu[:, None] + sd_within * rng.standard_normal((lists, k_null))
    return splits.mean(axis=1), splits.var(axis=1, ddof=1)


def test_calibrated_null_has_the_variance_of_list_iteration_means(seed):
    """Y_r = mu_r + mean of K_N splits: rescaled to K_L splits, the null's variance is
    between + within / K_L. Exactly, for the components the null estimates (computed
    here by their textbook formulas); and, within 4 standard errors of those estimates,
    for the generating values (between 0.02^2, within 0.1^2)."""
    rng = np.random.default_rng(seed)
    n, k_n, k_l = 20000, 10, 200
    means, within_var = _components_null(rng, n, k_n, 0.02, 0.1)
    values, scale, within, between = calibrated_null(means, within_var, k_n, k_l)
    hand_within = within_var.mean()
    hand_between = means.var(ddof=1) - hand_within / k_n
    assert within == pytest.approx(hand_within, rel=1e-12)
    assert between == pytest.approx(hand_between, rel=1e-9)
    assert values.var(ddof=1) == pytest.approx(hand_between + hand_within / k_l, rel=1e-9)
    assert scale == pytest.approx(
        np.sqrt((hand_between + hand_within / k_l) / means.var(ddof=1)), rel=1e-9
    )
    assert values.mean() == pytest.approx(means.mean())  # the centre is kept
    # the estimates against the truth: a mean of n variances with 9 degrees of freedom
    # (relative SE sqrt(2 / 9 / n)); a variance of n normal means (sqrt(2 / n) of it)
    assert abs(hand_within - 0.01) < 4 * 0.01 * np.sqrt(2 / (k_n - 1) / n)
    se_between = np.sqrt(2 / n) * means.var(ddof=1) + 4 * np.sqrt(2 / 9 / n) * 0.01 / k_n
    assert abs(hand_between - 0.02**2) < 4 * se_between
    # with as many splits on both sides nothing changes
    same, one, _, _ = calibrated_null(means, within_var, 10, 10)
    assert one == 1.0 and np.array_equal(same, means)
    with pytest.raises(ValueError, match="at least 2 splits"):
        calibrated_null(means, np.full_like(means, np.nan), 1, 200)


def _split_table(splits: np.ndarray) -> pd.DataFrame:
    """A null table (the columns comparison_null reads) from each random list's splits."""
    means = splits.mean(axis=1)
    return pd.DataFrame(
        {
            "null_key": "size-10",
            "iterations": splits.shape[1],
            "auc": means,
            "auc_var": splits.var(axis=1, ddof=1),
            "auc_m3": ((splits - means[:, None]) ** 3).mean(axis=1),
        }
    )


def _skewed_means(rng, n, sd, shape):
    """True mean AUCs with a right skew of 2 / sqrt(shape): a shifted, scaled gamma."""
    return 0.5 + sd * (rng.gamma(shape, size=n) - shape) / np.sqrt(shape)


def test_between_third_cumulant_is_the_mean_over_distinct_split_triples():
    """By hand: for each list, the average over its ordered triples of distinct splits of
    the product of their deviations from the null mean, then the mean over lists."""
    rng = np.random.default_rng(3)
    splits = rng.random((6, 5))
    t = _split_table(splits)
    m = splits.mean()
    per_list = [
        np.mean([np.prod(row[list(c)] - m) for c in itertools.permutations(range(5), 3)])
        for row in splits
    ]
    got, se = between_third_cumulant(t["auc"], t["auc_var"], t["auc_m3"], 5)
    assert got == pytest.approx(np.mean(per_list), rel=1e-12)
    assert se == pytest.approx(np.std(per_list, ddof=1) / np.sqrt(6), rel=1e-10)


def test_between_third_cumulant_ignores_the_noise_where_the_means_skewness_does_not(seed):
    """True means with third cumulant 2 sd^3 / sqrt(shape), split noise that is skewed and
    noisier for easier lists: the triple estimate recovers the true means' cumulant, and
    the third cumulant of the 10-split means (what scaling keeps) is far off."""
    rng = np.random.default_rng(seed + 4)
    sd, shape, lists = 0.02, 4.0, 40000
    mu = _skewed_means(rng, lists, sd, shape)
    noise_sd = 0.06 * (1 + 10 * (mu - 0.5))
    noise = rng.exponential(1.0, (lists, 10)) - 1.0  # skewness 2
    splits = mu[:, None] + noise_sd[:, None] * noise
    t = _split_table(splits)
    truth = 2 * sd**3 / np.sqrt(shape)
    got, se = between_third_cumulant(t["auc"], t["auc_var"], t["auc_m3"], 10)
    assert abs(got - truth) < 3 * se and se < 0.15 * truth
    naive = np.mean((t["auc"] - t["auc"].mean()) ** 3)
    assert naive > 1.5 * truth


def _skewness(x: np.ndarray) -> float:
    d = x - x.mean()
    return float(np.mean(d**3) / x.var(ddof=1) ** 1.5)


def test_skew_matched_null_has_the_target_moments_and_keeps_the_order(seed):
    """The map's targets computed here from the splits, independently of significance.py: the
    variance components by their textbook estimates, the true means' third cumulant by
    the power-sum identity for distinct ordered triples of split deviations
    (S1^3 - 3 S1 S2 + 2 S3 over k (k - 1) (k - 2)), the splits' own by scipy's unbiased
    skewness (bias-adjusted), the covariance term from numpy's. The null gets that
    variance exactly and that skewness where a monotone map reaches it, and both match
    the generating values within their sampling error."""
    from scipy.stats import skew

    rng = np.random.default_rng(seed)
    k, k_l, sd, shape = 10, 1000, 0.02, 4.0
    mu = _skewed_means(rng, 5000, sd, shape)
    splits = mu[:, None] + 0.063 * rng.standard_normal((5000, k))
    t = _split_table(splits)
    values, _, _, _, third, _ = skew_matched_null(t["auc"], t["auc_var"], t["auc_m3"], k, k_l)
    within = splits.var(axis=1, ddof=1).mean()
    means = splits.mean(axis=1)
    between = means.var(ddof=1) - within / k
    target_var = between + within / k_l
    assert values.mean() == pytest.approx(splits.mean())
    assert values.var(ddof=1) == pytest.approx(target_var, rel=1e-9)
    d = splits - splits.mean()
    s1, s2, s3 = d.sum(1), (d**2).sum(1), (d**3).sum(1)
    per_list = (s1**3 - 3 * s1 * s2 + 2 * s3) / (k * (k - 1) * (k - 2))
    # scipy's adjusted skewness G1 = k3 / k2^1.5, with k2 the unbiased variance
    k3_e = np.mean(skew(splits, axis=1, bias=False) * splits.var(axis=1, ddof=1) ** 1.5)
    # Cov(mu, w) / K_L: the covariance of the lists' means and split variances, less the
    # third cumulant over K_N that a sample mean and variance share
    cov_mu_w = np.cov(means, splits.var(axis=1, ddof=1))[0, 1] - k3_e / k
    assert third == pytest.approx(per_list.mean() + 3 * cov_mu_w / k_l + k3_e / k_l**2, rel=1e-9)
    # the generating values, within 4 standard errors of their estimates: between
    # sd^2 (the error of a variance from the means' fourth moment), third cumulant
    # 2 sd^3 / sqrt(shape) (the per-list triple averages' spread)
    m = means - means.mean()
    se_between = np.sqrt((np.mean(m**4) - means.var() ** 2) / means.size)
    assert abs(between - sd**2) < 4 * se_between
    se_k3 = per_list.std(ddof=1) / np.sqrt(per_list.size)
    assert abs(per_list.mean() - 2 * sd**3 / np.sqrt(shape)) < 4 * se_k3
    # the skewness: the target where a map whose slope stays >= SKEW_MIN_SLOPE reaches
    # it, else below it, and always most of the way up from the 10-split means' own
    # (which scaling would have kept)
    target = third / target_var**1.5
    reached, own = _skewness(values), _skewness(t["auc"].to_numpy())
    assert reached <= target + 1e-9
    assert reached - own > 0.5 * (target - own) > 0.1
    assert (np.argsort(values) == np.argsort(t["auc"].to_numpy())).all()
    # Gaussian true means: nothing to bend. The skewness given to the null is 0 within 4
    # of its standard errors, and within the null's central 98 % the map departs from the
    # scaling by at most what that skewness asks of a quadratic (about 0.74 |skewness| SD
    # at 2.33 SD from the centre)
    gsplits = 0.5 + 0.02 * rng.standard_normal((5000, 1)) + 0.063 * rng.standard_normal((5000, 10))
    g = _split_table(gsplits)
    bent, *_, flat = skew_matched_null(g["auc"], g["auc_var"], g["auc_m3"], 10, 1000)
    d = gsplits - gsplits.mean()
    s1, s2, s3 = d.sum(1), (d**2).sum(1), (d**3).sum(1)
    g_list = (s1**3 - 3 * s1 * s2 + 2 * s3) / (k * (k - 1) * (k - 2))
    se_flat = g_list.std(ddof=1) / np.sqrt(g_list.size) / bent.var(ddof=1) ** 1.5
    assert abs(flat) < 4 * se_flat
    scaled = calibrated_null(g["auc"], g["auc_var"], 10, 1000)[0]
    central = np.abs(scaled - np.median(scaled)) < 2.33 * scaled.std()
    assert np.abs(bent - scaled)[central].max() < (abs(flat) + 0.02) * scaled.std()
    same = skew_matched_null(g["auc"], g["auc_var"], g["auc_m3"], 10, 10)[0]
    assert np.array_equal(same, g["auc"].to_numpy())
    with pytest.raises(ValueError, match="at least 3 splits"):
        skew_matched_null(g["auc"], g["auc_var"], g["auc_m3"], 2, 1000)


def test_the_calibration_verdict_passes_exact_p_values_and_fails_a_liberal_method(seed):
    """calibration_summary's verdict on p-values whose distribution is known: uniform
    ranks (exact) pass; p-values 20 % too small at every level fail once the shares'
    errors are a fortieth of the level. The standard error over nulls is at least the
    binomial one, and grows when the lists of a null share its errors."""
    rng = np.random.default_rng(seed)
    n, nulls = 40_000, 400
    exact = (1 + rng.integers(0, 1000, n)) / 1001  # ranks among 1000 random lists
    liberal = np.minimum(1.0, 0.8 * rng.random(n))
    shared = np.repeat(rng.normal(0, 0.04, nulls), n // nulls)  # each null's own error
    clustered = np.clip(rng.random(n) + shared, 0, 1)
    frame = pd.DataFrame(
        {
            "method": np.repeat(["exact", "liberal", "clustered"], n),
            "null": np.tile(np.repeat(np.arange(nulls), n // nulls), 3),
            "p_value": np.concatenate([exact, liberal, clustered]),
        }
    )
    summary = calibration_summary(frame).set_index("method")
    assert summary.loc["exact", "calibrated"] == "True", summary
    assert summary.loc["liberal", "calibrated"] == "False", summary
    binomial = np.sqrt(0.05 * 0.95 / n)
    assert summary.loc["exact", "se_0.05"] == pytest.approx(binomial, rel=0.2)
    # a null shifted by d has share 0.05 - d: the nulls add 0.04^2 / 400 to the variance
    clustered = np.sqrt(binomial**2 + 0.04**2 / nulls)
    assert summary.loc["clustered", "se_0.05"] == pytest.approx(clustered, rel=0.15)


def test_pvalues_methods_record_what_they_compared(seed):
    rng = np.random.default_rng(seed + 1)
    means, within_var = _components_null(rng, 999, 10, 0.01, 0.1)
    null = pd.DataFrame(
        {
            "embedding": "w",
            "negatives": "uniform",
            "null_key": "size-10",
            "size": 10,
            "null_list": np.arange(999),
            "seed": 0,
            "iterations": 10,
            "auc": means,
            "auc_var": within_var,
        }
    )
    summary = _summary([("a", "w", 10, 0.56)]).assign(iterations=200)
    rows = {m: pvalues(summary, null, True, method=m).iloc[0] for m in ("rescaled", "unmatched")}
    r, u = rows["rescaled"], rows["unmatched"]
    assert (r["method"], r["list_iterations"], r["null_iterations"]) == ("rescaled", 200, 10)
    assert r["null_lists"] == 999 and r["null_scale"] < 0.5
    # 0.56 is 6 null SDs above 0.5 against the rescaled null (SD ~0.011), 1.7 against the
    # raw one (SD ~0.033): only the first is significant
    assert r["n_null_ge"] == 0 and r["p_value"] == pytest.approx(1 / 1000)
    assert r["p_floor"] == pytest.approx(1 / 1000)
    assert u["p_value"] > 0.02
    # at the floor an SE says little: the bound is Clopper-Pearson's for 0 of 999, about
    # 3 / R, and the bootstrap (the map refitted on resampled random lists) is at least that
    from scipy.stats import beta

    assert r["p_upper"] >= beta.ppf(0.95, 1, 999) == pytest.approx(1 - 0.05 ** (1 / 999))
    assert u["p_mc_se"] == pytest.approx(np.sqrt(u["p_value"] * (1 - u["p_value"]) / 999))
    assert u["p_upper"] == pytest.approx(beta.ppf(0.95, u["n_null_ge"] + 1, 999 - u["n_null_ge"]))
    assert u["method_requested"] == "unmatched" and u["method_reason"] == "configured"
    # 6 null SDs out: beyond where the tail estimate was measured within a factor of 3
    assert r["null_z"] > 4 and np.isnan(r["p_tail"])
    assert np.isnan(u["p_tail"])  # dozens of random lists reach it: no tail estimate
    with pytest.raises(ValueError, match="matched needs random lists scored with"):
        pvalues(summary, null, True, method="matched")
    its = pd.DataFrame(
        {"list": "a", "embedding": "w", "negatives": "uniform", "iteration": np.arange(200),
         "auc": np.r_[np.full(10, 0.9), np.full(190, 0.5)]}
    )  # fmt: skip
    t = pvalues(summary, null, True, method="truncated", iterations=its).iloc[0]
    assert t["observed"] == pytest.approx(0.9) and t["auc"] == 0.56


@pytest.mark.parametrize("family", ["gaussian", "gamma-skew-1", "gamma-skew-2", "lognormal-1"])
def test_tail_pvalue_is_given_only_where_it_is_within_a_factor_of_3(family, seed):
    """Nulls of 1000 draws with known tails. Where 5 of 1000 random lists reach the
    value, the estimate was given (at or above 3 / R) in 91-99 % of 200 nulls and then
    within a factor of 3 of the truth in all but one (docs/explanation/statistics.md); over 40 nulls
    at least 30 such are asserted (36-40 expected: 3.5 binomial SDs of margin). A
    hundredth of the floor (1e-5), where the Gaussian's estimate was 35-100 times the
    truth, no estimate is given: NaN in at least 38 of 40."""
    from scipy import stats as st

    dist = {
        "gaussian": st.norm(), "gamma-skew-1": st.gamma(4), "gamma-skew-2": st.gamma(1),
        "lognormal-1": st.lognorm(1.0),
    }[family]  # fmt: skip
    rng = np.random.default_rng([seed, 7])
    near, far = dist.isf(5e-3), dist.isf(1e-5)
    within, missing = 0, 0
    for _ in range(40):
        draws = dist.rvs(1000, random_state=rng)
        est = tail_pvalue(near, draws)
        within += bool(np.isfinite(est) and 1 / 3 < est / 5e-3 < 3)
        missing += bool(np.isnan(tail_pvalue(far, draws)))
    assert within >= 30 and missing >= 38, (within, missing)
    assert np.isnan(tail_pvalue(dist.mean(), draws))  # inside the bulk: nothing to estimate


@pytest.mark.parametrize(
    ("config", "lists"), [("config/paper.yaml", 10), ("config/config.yaml", 8)]
)
def test_holm_over_the_lists_can_reach_the_papers_alpha(config, lists):
    """With the shipped R, lists beyond every random list survive Holm at alpha = 0.01."""
    import yaml

    cfg = yaml.safe_load((Path(__file__).resolve().parents[1] / config).read_text())
    floor = empirical_pvalue(1.0, np.zeros(cfg["random_lists"]["lists"]))[1]
    assert adjust_pvalues(np.full(lists, floor), "holm").max() <= 0.01


def test_wilcoxon_rows_count_the_nested_pairs_of_the_lists_tested():
    summary = _summary(
        [(f"l{i}", "a", 10, 0.9 + i / 100) for i in range(6)]
        + [(f"l{i}", "b", 10, 0.8 + i / 90) for i in range(6)]
    )
    overlap = pd.DataFrame(
        {
            "embedding": ["a", "b", "a", "a"],
            "list_a": ["l0", "l0", "l1", "l2"],
            "list_b": ["l1", "l1", "l2", "zz"],  # zz is not tested
            "overlap": [0.4, 0.9, 0.6, 1.0],
        }
    )
    overlap["n_a"], overlap["n_b"] = 10, [20, 20, 30, 5]
    rows = compare_embeddings(summary, ["a", "b"], overlap=overlap).set_index("units")
    row = rows.loc["lists"]
    assert row["n_nested_pairs"] == 2 and row["max_overlap"] == 0.9
    # l0 in l1 (b's copy), l1 in l2 (a's): the leaves drop the parents l1 and l2, the
    # clusters join the three (their mean AUC a unit)
    assert rows.loc["leaves", "unit_lists"] == "l0, l3, l4, l5"
    assert rows.loc["clusters", "unit_lists"] == "l0+l1+l2, l3, l4, l5"
    assert rows.loc["leaves", "n_nested_pairs"] == 0 == rows.loc["clusters", "n_nested_pairs"]
    plain = compare_embeddings(summary, ["a", "b"])
    assert list(plain["units"]) == ["lists"] and plain.iloc[0]["n_nested_pairs"] == 0


def liwc_nesting(lists) -> pd.DataFrame:
    """An overlap table of LIWC's nesting among the paper's lists (each child wholly in its
    parent): affect holds posemo and negemo, negemo holds anger, bio holds health, social
    holds family; sizes are LIWC 2015's category sizes' order only (a parent larger)."""
    nest = {"posemo": "affect", "negemo": "affect", "anger": "negemo", "health": "bio",
            "family": "social"}  # fmt: skip
    ancestors = {c: [p] + ([nest[p]] if p in nest else []) for c, p in nest.items()}
    rows = [
        {"embedding": e, "list_a": min(c, p), "list_b": max(c, p), "overlap": 1.0,
         "n_a": 10 if min(c, p) == c else 100, "n_b": 10 if max(c, p) == c else 100}
        for c, ps in ancestors.items() for p in ps for e in ("fasttext", "glove")
    ]  # fmt: skip
    return pd.DataFrame(rows)


def test_the_papers_fasttext_over_glove_by_units():
    """The paper's Table 6, fastText > GloVe: p = 9/1024 (0.0088) over its 10 lists as if
    independent; over LIWC's leaves (posemo, anger, health, family, relative, work: the
    lists that contain no other) 3/64 = 0.047, and over the means of its 5 nesting
    clusters 3/32 = 0.094 (W- = 2 in both, by hand: the only units where GloVe is ahead
    is relative, rank 2, and the ranks 1 and 2 alone sum to at most 2)."""
    t6 = paper_table6()
    summary = t6.rename(columns={"auc": "mean"}).assign(negatives="uniform", metric="auc")
    nesting = liwc_nesting(t6["list"].unique())
    rows = compare_embeddings(
        summary, ["fasttext", "glove"], vocabulary="n/a", overlap=nesting
    ).set_index("units")
    assert rows.loc["lists", "p_value"] == pytest.approx(9 / 1024)
    assert rows.loc["lists", "n_nested_pairs"] == 6
    assert rows.loc["leaves", "unit_lists"] == "anger, family, health, posemo, relative, work"
    assert rows.loc["leaves", "p_value"] == pytest.approx(3 / 64)
    assert rows.loc["clusters", "n_lists"] == 5 and rows.loc["clusters", "w_minus"] == 2
    assert rows.loc["clusters", "p_value"] == pytest.approx(3 / 32)


def test_a_lists_truncated_statistic_does_not_depend_on_the_other_lists_in_the_table():
    """``method: truncated`` compares a list's mean AUC over its first k splits. The
    workflow computes it from the table of every embedding, score() from one
    embedding's: each list's value is its own splits' mean (numpy's, as the summary's
    means), bit for bit, whatever rows sit beside it. pandas' grouped mean differed from
    it in the last bit for 23 of make run's 64 lists at k = 10."""
    from learnability.statistics.significance import first_iterations_mean

    rng = np.random.default_rng(0)
    rows = [
        {"list": f"l{i}", "embedding": e, "negatives": "uniform", "iteration": t,
         "auc": rng.integers(1, 10**6) / 999_983}
        for i in range(12) for e in ("a", "b", "c") for t in range(10)
    ]  # fmt: skip
    table = pd.DataFrame(rows)
    for k in (3, 7, 10):
        together = first_iterations_mean(table, k)
        for (name, emb, neg), value in together.items():
            alone = table[(table["list"] == name) & (table["embedding"] == emb)]
            first = alone.loc[alone["iteration"] < k, "auc"].to_numpy()
            assert value == np.mean(first), (name, emb, k)
            assert first_iterations_mean(alone, k).loc[(name, emb, neg)] == value


def test_a_random_list_tied_with_the_observed_mean_counts_whatever_the_summation_order():
    """AUCs are ratios of counts, so a random list's mean over k splits can equal a
    list's exactly; summed in another order the two land an ulp apart. On make run's
    random baseline, `health` tied one random list and `anger` four, and which of the
    ties counted followed the order of a floating-point sum (a p-value of 0.341 became
    0.337). A tie counts as reaching the observed value, on either side of the ulp, and
    a value a real step away does not."""
    from learnability.statistics.significance import reaching

    rng = np.random.default_rng(0)
    aucs = rng.integers(0, 35, size=10) / 34  # one list's 10 split AUCs, 34 test pairs
    observed = float(np.mean(aucs))
    naive = 0.0
    for a in aucs:  # the same values summed one by one: the null's reduction order
        naive += a
    naive /= aucs.size
    below, above = np.nextafter(observed, -1.0), np.nextafter(observed, 2.0)
    for tied in (observed, below, above, naive):
        assert empirical_pvalue(observed, np.array([tied, 0.1, 0.2]))[0] == 1, tied
    # a real difference: the smallest step of a mean of 10 AUCs over 34 pairs
    step = 1 / (34 * 10)
    assert empirical_pvalue(observed, np.array([observed - step]))[0] == 0
    assert reaching(np.array([observed + step, observed - step]), observed).tolist() == [
        True,
        False,
    ]


def test_compare_within_tests_the_named_column_inside_each_group_by_hand():
    """Two groups of six lists: in ``g1`` method a beats b on every list by a different
    margin, so W+ is 21, the largest of the 2^6 equally likely sign patterns: one-sided
    p = 1/64; in ``g2`` b beats a everywhere: p = 1 for "a > b". Holm within a group of
    one pair leaves p. The sweep's and the corpus comparison's tests are this call."""
    import pandas as pd

    from learnability.statistics.comparison import compare_within

    rows = []
    for group, sign in (("g1", 1), ("g2", -1)):
        for i in range(6):
            row = {"setting": group, "list": f"l{i}", "negatives": "uniform"}
            rows.append({**row, "method": "a", "embedding": f"a_{group}",
                         "mean": 0.7 + sign * 0.01 * (i + 1)})  # fmt: skip
            rows.append({**row, "method": "b", "embedding": f"b_{group}", "mean": 0.7})
    out = compare_within(pd.DataFrame(rows), "setting", "method", ["a", "b"], "greater")
    assert list(out.columns[:2]) == ["setting", "negatives"]
    by = out.set_index("setting")
    assert by.loc["g1", "p_value"] == pytest.approx(1 / 64) and by.loc["g1", "statistic"] == 21
    assert by.loc["g2", "p_value"] == pytest.approx(1.0) and by.loc["g2", "statistic"] == 0
    assert (by["p_holm"] == by["p_value"]).all() and (by["n_lists"] == 6).all()
    assert (by["embedding_a"] == "a").all() and (by["embedding_b"] == "b").all()

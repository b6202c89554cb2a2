"""The expected size of the p-value methods under the two-level model
(learnability.statistics.twolevel): the measurement checked against independent references, then the
default's calibration checked the way it is used, at the workflow's own ratios."""

import numpy as np
import pytest

from learnability.statistics.twolevel import SIZE_LEVELS, TwoLevel, attainable, expected_size

W = 0.063  # one split's SD around its list's mean, as on the sample's word2vec


def _between(ratio: float, k_null: int = 10) -> float:
    """The SD of true means that makes between / (within / K_N) = ratio."""
    return float(np.sqrt(ratio * W**2 / k_null))


@pytest.mark.parametrize(
    "model",
    [
        TwoLevel(_between(1), W, skew=1.0),
        TwoLevel(_between(0.5), W, skew=2.0, hetero=0.5, split_skew=1.0),
        TwoLevel(_between(1), W, skew=3.0, shape="lognormal", minority=0.03),
        TwoLevel(0.0, W),
    ],
    ids=["gamma", "hetero-split-skew", "lognormal-minority", "between-0"],
)
def test_the_tail_quadrature_matches_split_means_drawn_split_by_split(model, seed):
    """TwoLevel.sf (closed form on one level, quadrature on the other) against the share
    of 200,000 lists' 10-split means drawn split by split (TwoLevel.splits), at the
    means' 0.5, 0.9, 0.99 and 0.999 quantiles: within 4 binomial SEs and 2 % of the
    share. And the exact draws of 200-split means (TwoLevel.list_means, a gamma sum for
    skewed split noise) against sf at K_L = 200 the same way."""
    rng = np.random.default_rng(seed)
    for k, draws in (
        (10, model.splits(rng, 200_000, 10).mean(axis=1)),
        (200, model.list_means(rng, 200_000, 200)),
    ):
        for q in (0.5, 0.9, 0.99, 0.999):
            c = np.quantile(draws, q)
            share = float((draws > c).mean())
            se = np.sqrt(share * (1 - share) / draws.size)
            assert abs(model.sf(c, k)[0] - share) < 4 * se + 0.02 * share, (k, q)
            assert model.sf_curve(k)(np.array([c]))[0] == pytest.approx(model.sf(c, k)[0], rel=0.01)


def _within(row, level: float, goal: float, z: float = 4.0) -> bool:
    exact = row[f"exact_{level:g}"]
    return abs(row[f"size_{level:g}"] - exact) <= goal * exact + z * row[f"se_{level:g}"]


def test_exact_methods_come_out_at_their_attainable_level(seed):
    """matched (random lists with K_L splits) and truncated (the list's first K_N splits)
    are exact by exchangeability: their expected size must be floor(alpha (R + 1)) /
    (R + 1) within 4 of its Monte Carlo SEs over 300 nulls, in a skewed, heteroscedastic
    regime. This checks the measurement itself: critical values, quadrature, averaging."""
    model = TwoLevel(_between(1), W, skew=2.0, hetero=0.5)
    size = expected_size(model, lists=1000, null_iterations=10, list_iterations=200,
                         methods=("matched", "truncated"), nulls=300, seed=seed)  # fmt: skip
    for _, row in size.iterrows():
        for level in SIZE_LEVELS:
            assert row[f"exact_{level:g}"] == attainable(level, 1000)
            assert _within(row, level, 0.0), (row["method"], level, row.to_dict())


def test_the_default_is_calibrated_where_rescaling_holds_and_where_it_fails(seed):
    """The workflow's own ratios (config/config.yaml: K_L = 200, K_N = 10, R = 1000), 300
    nulls each. Where the random lists' true means spread as much as the split noise of
    10 splits and are right-skewed (skewness 1, as on the sample's word2vec), both
    rescaled_skew and the default (auto, which takes rescaled_skew for about a third of
    such nulls and the exact truncated for the rest) are within the goal (10 % of the
    level at 0.01, 0.05, 0.10, 25 % at 0.001) plus 4 Monte Carlo SEs; scaling alone
    (rescaled) is not: its 0.01 size is 1.7x the level. Where rescaled_skew holds and
    auto uses it (between / (within / K_N) = 4, Gaussian true means), auto is within the
    goal too. Where the true means barely differ (between / (within / K_N) = 0.09),
    rescaled_skew's 0.01 size is 2-3x the level and fails by far, while auto, which
    chose the exact truncated for every such null, holds. The tolerances are the sizes'
    own Monte Carlo errors; 20 consecutive seeds pass (tests/seeds.py)."""
    from learnability.statistics.twolevel import SIZE_GOAL

    skewed = TwoLevel(_between(1), W, skew=1.0)
    size = expected_size(skewed, lists=1000, null_iterations=10, list_iterations=200,
                         methods=("auto", "rescaled_skew", "rescaled"), nulls=300,
                         seed=seed).set_index("method")  # fmt: skip
    for method in ("auto", "rescaled_skew"):
        for level in SIZE_LEVELS:
            assert _within(size.loc[method], level, SIZE_GOAL[level]), (method, level)
    assert not _within(size.loc["rescaled"], 0.01, SIZE_GOAL[0.01])
    spread = TwoLevel(_between(4), W)
    size = expected_size(spread, lists=1000, null_iterations=10, list_iterations=200,
                         methods=("auto",), nulls=300, seed=seed).set_index("method")  # fmt: skip
    assert size.loc["auto", "chosen"] == "rescaled_skew 100%"
    for level in SIZE_LEVELS:
        assert _within(size.loc["auto"], level, SIZE_GOAL[level]), level
    flat = TwoLevel(_between(0.09), W, skew=1.0)
    size = expected_size(flat, lists=1000, null_iterations=10, list_iterations=200,
                         methods=("auto", "rescaled_skew"), nulls=300,
                         seed=seed).set_index("method")  # fmt: skip
    assert size.loc["auto", "chosen"] == "truncated 100%"
    for level in SIZE_LEVELS:
        assert _within(size.loc["auto"], level, SIZE_GOAL[level]), level
    assert not _within(size.loc["rescaled_skew"], 0.01, SIZE_GOAL[0.01])
    assert not _within(size.loc["rescaled_skew"], 0.001, SIZE_GOAL[0.001])

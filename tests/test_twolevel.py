"""The expected size of the p-value methods under the two-level model
(learnability.statistics.twolevel): the measurement checked against independent references, then the
default's calibration checked the way it is used, at the workflow's own ratios."""

import numpy as np
import pytest

from learnability.statistics.twolevel import SIZE_LEVELS, TwoLevel, expected_size

W = 0.063  # one split's SD around its list's mean, as on the sample's word2vec


def _between(ratio: float, k_null: int = 10) -> float:
    """The SD of true means that makes between / (within / K_N) = ratio."""
    return float(np.sqrt(ratio * W**2 / k_null))


def _closed_form(model: TwoLevel, k: int) -> tuple[float, float, float]:
    """The mean, variance and third cumulant of a k-split mean under ``model``, from its
    definition: split = mean + b z' + w (1 + h z') e, z' = z + shift B (z standardised
    with skewness ``skew``, B ~ Bernoulli(minority)), e standardised with skewness
    ``split_skew``, all independent (the 0.1 floor on the split SD does not bind in the
    regimes below: z >= -2 / skew for a gamma). The third cumulant is for h = 0."""
    b, w, h, m, s = (
        model.between_sd,
        model.within_sd,
        model.hetero,
        model.minority,
        model.minority_shift,
    )
    ez, vz = s * m, 1 + s**2 * m * (1 - m)
    k3z = model.skew + s**3 * m * (1 - m) * (1 - 2 * m)
    mean = model.mean + b * ez
    var = b**2 * vz + w**2 * (1 + 2 * h * ez + h**2 * (vz + ez**2)) / k
    third = b**3 * k3z + w**3 * model.split_skew / k**2
    return mean, var, third


@pytest.mark.parametrize(
    "model",
    [
        TwoLevel(_between(1), W, skew=1.0, split_skew=1.0),
        TwoLevel(_between(0.5), W, skew=2.0, hetero=0.5),
        TwoLevel(_between(1), W, skew=3.0, shape="lognormal", minority=0.03),
        TwoLevel(0.0, W, split_skew=2.0),
    ],
    ids=["gamma-split-skew", "hetero", "lognormal-minority", "between-0"],
)
def test_the_samplers_have_the_models_moments(model, seed):
    """The draws the quadrature is checked against (TwoLevel.splits, split by split, and
    TwoLevel.list_means, the k-split mean drawn at once) have the mean, variance and
    third cumulant the model's definition gives, within 4 standard errors estimated from
    the draws themselves (the third cumulant where the split SD is constant)."""
    rng = np.random.default_rng(seed)
    k, n = 10, 200_000
    mean, var, third = _closed_form(model, k)
    for draws in (model.splits(rng, n, k).mean(axis=1), model.list_means(rng, n, k)):
        d = draws - draws.mean()
        assert abs(draws.mean() - mean) < 4 * draws.std() / np.sqrt(n)
        assert abs(np.mean(d**2) - var) < 4 * np.std(d**2) / np.sqrt(n)
        if model.hetero == 0:
            assert abs(np.mean(d**3) - third) < 4 * np.std(d**3) / np.sqrt(n)


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


def _attainable(level: float, lists: int) -> float:
    """An exact test's size with R random lists: floor(alpha (R + 1)) / (R + 1)."""
    return np.floor(round(level * (lists + 1), 9)) / (lists + 1)


def _sizes(model: TwoLevel, methods: tuple[str, ...], seed: int, nulls: int = 300) -> dict:
    """method -> (expected size, its Monte Carlo SE) per level, computed here from the
    true size given each of ``nulls`` null draws (R = 1000, K_N = 10, K_L = 200: the
    workflow's ratios); the table's own columns must agree."""
    raw: dict[str, np.ndarray] = {}
    table = expected_size(model, lists=1000, null_iterations=10, list_iterations=200,
                          methods=methods, nulls=nulls, seed=seed,
                          per_null=raw).set_index("method")  # fmt: skip
    out = {}
    for m in methods:
        assert raw[m].shape == (nulls, len(SIZE_LEVELS))
        size, se = raw[m].mean(axis=0), raw[m].std(axis=0, ddof=1) / np.sqrt(nulls)
        for j, level in enumerate(SIZE_LEVELS):
            assert table.loc[m, f"size_{level:g}"] == pytest.approx(size[j], rel=1e-12)
        out[m] = {level: (size[j], se[j]) for j, level in enumerate(SIZE_LEVELS)}
    out["chosen"] = table["chosen"].to_dict()
    return out


def _within(size_se: tuple[float, float], level: float, goal: float, z: float = 4.0) -> bool:
    size, se = size_se
    exact = _attainable(level, 1000)
    return abs(size - exact) <= goal * exact + z * se


def test_exact_methods_come_out_at_their_attainable_level(seed):
    """matched (random lists with K_L splits) and truncated (the list's first K_N splits)
    are exact by exchangeability: their expected size must be floor(alpha (R + 1)) /
    (R + 1) within 4 of its Monte Carlo SEs over 300 nulls, in a skewed, heteroscedastic
    regime. This checks the measurement itself: critical values, quadrature, averaging."""
    model = TwoLevel(_between(1), W, skew=2.0, hetero=0.5)
    sizes = _sizes(model, ("matched", "truncated"), seed)
    for method in ("matched", "truncated"):
        for level in SIZE_LEVELS:
            assert _within(sizes[method][level], level, 0.0), (method, level, sizes[method])


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
    own Monte Carlo errors, computed here from the per-null sizes; 20 consecutive seeds
    pass (tests/seeds.py)."""
    from learnability.statistics.twolevel import SIZE_GOAL

    skewed = _sizes(TwoLevel(_between(1), W, skew=1.0), ("auto", "rescaled_skew", "rescaled"),
                    seed)  # fmt: skip
    for method in ("auto", "rescaled_skew"):
        for level in SIZE_LEVELS:
            assert _within(skewed[method][level], level, SIZE_GOAL[level]), (method, level)
    assert not _within(skewed["rescaled"][0.01], 0.01, SIZE_GOAL[0.01])
    spread = _sizes(TwoLevel(_between(4), W), ("auto",), seed)
    assert spread["chosen"]["auto"] == "rescaled_skew 100%"
    for level in SIZE_LEVELS:
        assert _within(spread["auto"][level], level, SIZE_GOAL[level]), level
    flat = _sizes(TwoLevel(_between(0.09), W, skew=1.0), ("auto", "rescaled_skew"), seed)
    assert flat["chosen"]["auto"] == "truncated 100%"
    for level in SIZE_LEVELS:
        assert _within(flat["auto"][level], level, SIZE_GOAL[level]), level
    assert not _within(flat["rescaled_skew"][0.01], 0.01, SIZE_GOAL[0.01])
    assert not _within(flat["rescaled_skew"][0.001], 0.001, SIZE_GOAL[0.001])

"""Significance against random word lists: empirical p-values of each list's mean AUC
against its null (random lists of its size or frequency profile), the methods that
compare means over different numbers of splits, their Monte Carlo error and tail
estimate, and the random(avg)/random(max) rows of the paper's tables. The comparisons
between embeddings are in :mod:`learnability.statistics.comparison`."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy.optimize import brentq
from scipy.stats import beta, genpareto

from learnability.defaults import default
from learnability.protocol.sampling import derive_seed
from learnability.schemas import METRICS
from learnability.statistics.adjust import adjust_pvalues
from learnability.statistics.power import MEMBER_SPREAD, detectable_auc, model_spread
from learnability.statistics.pvalue_methods import (
    AUTO_MIN_ITERATIONS,
    AUTO_MIN_LISTS,
    DEFAULT_PVALUE_METHOD,
    PVALUE_METHODS,
    RESCALING_METHODS,
)

# For FPR lower is better: the paper's random(max) row reports the best random list per
# metric, which for FPR is the smallest value.
LOWER_IS_BETTER = frozenset({"fpr"})


# rescaled_skew keeps the quadratic map's slope at least this share of its central slope
# over the null's range: the map stays monotone, and a noisy skewness estimate can
# compress a tail at most this much (on the sample's word2vec it held 10 of the 80 nulls
# x ratios back from their target skewness; against a limit of 0.25 no share moved)
SKEW_MIN_SLOPE = 0.5
# the Monte Carlo error of a rescaled p-value: resamples of the random lists, the map
# refitted on each; and the confidence of the upper bound every p-value row carries
P_BOOTSTRAP = 100
P_UPPER_CONFIDENCE = 0.95
# (between / (within / K_N) at least, skewness from, to): where the random lists' true
# means spread at least twice the split noise of a K_N-split mean, rescaled_skew held
# for skewness up to 0.8; where they spread about as much as that noise (the trained
# embeddings of the sample), for skewness 0.4-1.0 (below, a noisy skewness estimate
# bends the far tail: 0.001 was 1.7x the level at skewness 0)
AUTO_REGION = ((2.0, -0.8, 0.8), (1.0, 0.4, 1.0))
# Knijnenburg et al. (2009): the generalised Pareto tail is fitted when fewer than this
# many random lists reach the observed value (the empirical p is good enough otherwise),
# to at most TAIL_EXCEEDANCES of the null's largest values.
TAIL_BELOW = 10
TAIL_EXCEEDANCES = 250
TAIL_MIN_LISTS = 100
# The estimate is given only down to this many random lists' worth (3 / R): below it, on
# nulls of 1000 draws from a Gaussian, gammas (skewness 1, 2) and lognormals, it was
# within a factor of 3 of the truth in at most 7 % of draws for the Gaussian (1e-3: a
# median of 4.4x; 1e-4: 14x), while at 3 / R it was in 84-100 % for all five
# (docs/explanation/statistics.md). Further out the table says "beyond the null" and gives null_z.
TAIL_VALID_LISTS = 3


# A random list's mean AUC can equal a list's exactly (AUCs are ratios of counts, and
# means over the same number of splits tie), but two floating-point sums of equal values
# in another order can land an ulp apart, which once decided whether such a tie counted.
# A null value within this relative distance of the observed one is a tie, and a tie
# counts as reaching it (the conservative convention).
TIE_RTOL = 1e-12


def reaching(values: np.ndarray, observed: float) -> np.ndarray:
    """Which of ``values`` reach ``observed`` (>=, ties within ``TIE_RTOL`` included):
    the one comparison of every count of random lists against a list's value."""
    return np.asarray(values, dtype=float) >= observed - TIE_RTOL * max(1.0, abs(observed))


def empirical_pvalue(observed: float, null_values: np.ndarray) -> tuple[int, float]:
    """(#{null >= observed}, (1 + that) / (1 + R)): the +1 keeps p > 0 and makes the test
    valid (Phipson & Smyth 2010). A tie counts (:func:`reaching`)."""
    null_values = np.asarray(null_values, dtype=float)
    n_ge = int(reaching(null_values, observed).sum())
    return n_ge, (1 + n_ge) / (1 + null_values.size)


def variance_components(
    means: np.ndarray, within_var: np.ndarray, null_iterations: int
) -> tuple[float, float]:
    """(within, between): the variance of one split's value around its list's own mean
    (pooled over the random lists' splits), and the variance of the lists' true means,
    from var(means) = between + within / K_N. ``between`` is clamped at 0: where it is
    small against within / K_N the estimate is mostly noise, and ``method: auto`` does
    not rescale such nulls (docs/explanation/statistics.md)."""
    means = np.asarray(means, dtype=float)
    within = float(np.nanmean(np.asarray(within_var, dtype=float)))
    total = float(np.var(means, ddof=1)) if means.size > 1 else 0.0
    return within, max(total - within / null_iterations, 0.0)


def null_variances(
    chosen: pd.DataFrame, null_iterations: int, metric: str = "auc"
) -> tuple[float, float]:
    """(within, between) of random lists' ``metric`` (:func:`variance_components`): a
    split's variance about its list's own mean, and the variance of the lists' true
    means; NaN both where their splits' variances are not known (one split a list, or a
    table without them)."""
    if f"{metric}_var" not in chosen:
        return float("nan"), float("nan")
    within_var = chosen[f"{metric}_var"].to_numpy(dtype=float)
    if not np.isfinite(within_var).any():
        return float("nan"), float("nan")
    return variance_components(chosen[metric].to_numpy(dtype=float), within_var,
                               null_iterations)  # fmt: skip


def calibrated_null(
    means: np.ndarray, within_var: np.ndarray, null_iterations: int, list_iterations: int
) -> tuple[np.ndarray, float, float, float]:
    """Random lists' K_N-split means made comparable with a K_L-split mean by scaling alone
    (``method: rescaled``): (values, scale, within, between).

    Each mean is Y_r = mu_r + e_r with Var(e_r) = within / K_N; a list's mean has within /
    K_L instead. Each deviation from the null's mean is multiplied by
    sqrt((between + within / K_L) / (between + within / K_N)), which gives the values the
    variance of K_L-split means. Assumption: the shape of the null is kept under that
    scaling, which holds exactly when mu and e are Gaussian. It does not when mu is
    skewed: scaling keeps the skewness of Y, but removing noise raises it (see
    :func:`skew_matched_null`). With K_L = K_N the values are returned unchanged."""
    means = np.asarray(means, dtype=float)
    if list_iterations == null_iterations:
        return means, 1.0, float("nan"), float("nan")
    _check_rescalable(null_iterations, within_var, "rescaled")
    within, between = variance_components(means, within_var, null_iterations)
    target = between + within / list_iterations
    current = between + within / null_iterations
    scale = float(np.sqrt(target / current)) if current > 0 else 1.0
    centre = means.mean()
    return centre + scale * (means - centre), scale, within, between


def _check_rescalable(null_iterations: int, within: np.ndarray, method: str) -> None:
    need = RESCALING_METHODS[method]
    if null_iterations < need or not np.isfinite(np.asarray(within, dtype=float)).any():
        raise ValueError(
            f"random_lists.method: {method} estimates the null's shape from each random "
            f"list's splits, so it needs random lists scored with at least {need} splits "
            f"(these have {null_iterations}); raise random_lists.iterations or use "
            "random_lists.method: matched"
        )


def between_third_cumulant(
    means: np.ndarray, within_var: np.ndarray, within_m3: np.ndarray, null_iterations: int
) -> tuple[float, float]:
    """(third cumulant of the random lists' true means mu_r, its standard error).

    For three distinct splits i, j, k of one list, E[(x_i - m)(x_j - m)(x_k - m)] =
    E[(mu - m)^3]: the splits are independent given the list, so the noise drops out,
    whatever its own shape and however its variance varies from list to list. Each list's
    average over its distinct triples comes from the power sums of its deviations from the
    null mean m, which its mean, variance (ddof 1) and mean cubed deviation over its splits
    (the null table's ``*_var`` and ``*_m3``) give exactly. The third cumulant of the
    means themselves would not do: it also holds the noise's, and a term from lists with
    higher means having noisier splits."""
    k = null_iterations
    means = np.asarray(means, dtype=float)
    d = means - means.mean()
    m2_sum = np.asarray(within_var, dtype=float) * (k - 1)
    m3_sum = np.asarray(within_m3, dtype=float) * k
    p1 = k * d
    p2 = m2_sum + k * d**2
    p3 = m3_sum + 3 * d * m2_sum + k * d**3
    # sum over ordered distinct triples of the product, by Newton's identities
    per_list = (p1**3 - 3 * p1 * p2 + 2 * p3) / (k * (k - 1) * (k - 2))
    se = float(per_list.std(ddof=1) / np.sqrt(per_list.size)) if per_list.size > 1 else np.inf
    return float(per_list.mean()), se


def target_moments(
    means: np.ndarray,
    within_var: np.ndarray,
    within_m3: np.ndarray,
    null_iterations: int,
    list_iterations: int,
) -> tuple[float, float, float, float]:
    """(within, between, variance, third cumulant) of K_L-split means of random lists,
    estimated from the null's K_N-split means and each list's split variance and mean
    cubed deviation (:func:`skew_matched_null` gives the null these two)."""
    means = np.asarray(means, dtype=float)
    k = null_iterations
    within, between = variance_components(means, within_var, k)
    target_var = between + within / list_iterations
    third = between_third_cumulant(means, within_var, within_m3, k)[0]
    split_third = float(np.nanmean(np.asarray(within_m3, dtype=float))) * k**2 / ((k - 1) * (k - 2))
    # a K_L-split mean mu + e has k3(mu) + 3 Cov(mu, w(mu)) / K_L + k3(e) / K_L^2: lists
    # with higher true means may have noisier splits. Cov(mean, split variance) over the
    # random lists is Cov(mu, w) + k3(e) / K_N (a sample mean and variance covary by the
    # third cumulant over n)
    v = np.asarray(within_var, dtype=float)
    cov_mu_w = float(np.cov(means, v)[0, 1]) - split_third / k if means.size > 2 else 0.0
    third += 3 * cov_mu_w / list_iterations + split_third / list_iterations**2
    return within, between, target_var, third


def skew_matched_null(
    means: np.ndarray,
    within_var: np.ndarray,
    within_m3: np.ndarray,
    null_iterations: int,
    list_iterations: int,
) -> tuple[np.ndarray, float, float, float, float, float]:
    """Random lists' K_N-split means made comparable with a K_L-split mean in variance and
    in third cumulant (``method: rescaled_skew``): (values, slope, within, between,
    between_third, skewness).

    Y_r = mu_r + e_r, and a K_L-split mean is mu + e' with less noise. Removing noise
    leaves the third cumulant of mu in place while the variance falls, so the skewness of
    K_L-split means is larger than that of the null's K_N-split ones; scaling alone
    (``rescaled``) keeps the null's smaller skewness, and a right-skewed mu (a few easy
    random lists, as trained embeddings have) then puts the null's median above the lists'.
    Here each deviation u_r = Y_r - mean is mapped to a * (u_r + t * (u_r^2 - mean u^2)),
    with (a, t) chosen so that the values have the variance between + within / K_L and
    the third cumulant k3(mu) + 3 Cov(mu, w) / K_L + k3(e) / K_L^2
    (:func:`between_third_cumulant`; k3(e) and Cov(mu, w), w a list's split variance,
    from the splits). t is kept where the map's slope stays at least ``SKEW_MIN_SLOPE`` of its
    central slope over the null's range, so that the map is monotone (ranks are kept) and
    a noisy estimate (few random lists, or true means that barely differ, as on Gaussian
    vectors, where the estimate is divided by a small variance) cannot fold or crush a
    tail. (Shrinking the estimate by its standard error instead made the 0.01 tail
    liberal on skewed nulls: docs/explanation/statistics.md.) With K_L = K_N the values are returned
    unchanged."""
    means = np.asarray(means, dtype=float)
    nan = float("nan")
    if list_iterations == null_iterations:
        return means, 1.0, nan, nan, nan, nan
    _check_rescalable(null_iterations, within_var, "rescaled_skew")
    within, between, target_var, third = target_moments(
        means, within_var, within_m3, null_iterations, list_iterations
    )
    centre = means.mean()
    u = means - centre
    if target_var <= 0 or not np.ptp(u) > 0:
        return means, 1.0, within, between, third, nan
    q = u**2 - np.mean(u**2)
    n = u.size
    var_u, cov_uq, var_q = (u @ u) / (n - 1), (u @ q) / (n - 1), (q @ q) / (n - 1)
    m = [np.mean(u**3), np.mean(u * u * q), np.mean(u * q * q), np.mean(q**3)]

    def skewness(t: np.ndarray) -> np.ndarray:
        third_t = m[0] + 3 * t * m[1] + 3 * t**2 * m[2] + t**3 * m[3]
        return third_t / (var_u + 2 * t * cov_uq + t**2 * var_q) ** 1.5

    target = third / target_var**1.5
    # slope a * (1 + 2 t u) >= SKEW_MIN_SLOPE * a over the null's range
    reach = (1.0 - SKEW_MIN_SLOPE) / 2
    grid = np.linspace(-reach / u.max(), reach / -u.min(), 401)
    gap = skewness(grid) - target
    centre_i = int(np.argmin(np.abs(grid)))
    crossings = np.flatnonzero(np.sign(gap[:-1]) != np.sign(gap[1:]))
    if crossings.size:
        j = int(crossings[np.argmin(np.abs(crossings - centre_i))])
        t = float(brentq(lambda x: float(skewness(np.array(x)) - target), grid[j], grid[j + 1]))
    else:  # out of reach: as close as a monotone map gets
        t = float(grid[np.argmin(np.abs(gap))])
    slope = float(np.sqrt(target_var / (var_u + 2 * t * cov_uq + t**2 * var_q)))
    values = centre + slope * (u + t * q)
    return values, slope, within, between, third, float(skewness(np.array(t)))


class Choice(NamedTuple):
    """What ``method: auto`` chose for one null, and why."""

    method: str
    reason: str


def choose_method(
    means: np.ndarray,
    within_var: np.ndarray,
    within_m3: np.ndarray,
    null_iterations: int,
    list_iterations: int,
) -> Choice:
    """``method: auto``, for one null: ``rescaled_skew`` where nulls like this one are
    inside the region where its expected size was measured within the goal
    (``twolevel.expected_size``; docs/explanation/statistics.md has the table), else ``truncated``,
    which is exact at every setting. The region, from the null's own estimates: at least
    ``AUTO_MIN_ITERATIONS`` splits and ``AUTO_MIN_LISTS`` random lists, and a between /
    within ratio and skewness of K_L-split means inside one of ``AUTO_REGION``. ``matched`` when
    the random lists already have the lists' number of splits (then exact as they are)."""
    k, r = null_iterations, np.asarray(means).size
    if k == list_iterations:
        return Choice("matched", f"the random lists have the lists' {k} splits")
    if k < AUTO_MIN_ITERATIONS or r < AUTO_MIN_LISTS:
        return Choice(
            "truncated",
            f"{r} random lists of {k} splits: rescaled_skew is measured within its goal from "
            f"{AUTO_MIN_LISTS} lists of {AUTO_MIN_ITERATIONS} splits",
        )
    if not np.isfinite(np.asarray(within_m3, dtype=float)).any():
        return Choice("truncated", "the null has no split moments (auc_m3)")
    within, between, target_var, third = target_moments(
        means, within_var, within_m3, k, list_iterations
    )
    ratio = between / (within / k) if within > 0 else 0.0
    skew = third / target_var**1.5 if target_var > 0 else float("nan")
    where = f"between/(within/K_N) {ratio:.2f}, skewness {skew:.2f}"
    for min_ratio, low, high in AUTO_REGION:
        if ratio >= min_ratio and low <= skew <= high:
            return Choice("rescaled_skew", f"{where}: inside the measured region")
    return Choice("truncated", f"{where}: outside the region where rescaled_skew was measured")


def tail_pvalue(observed: float, null_values: np.ndarray) -> float:
    """A generalised Pareto estimate of P(null >= observed) for a value in the null's far
    tail (Knijnenburg et al. 2009, "Fewer permutations, more accurate P-values"): the
    largest ``min(250, R // 4)`` null values, less a threshold halfway to the next one, are
    fitted by maximum likelihood, and p = (exceedances / R) * the fitted survival at the
    observed value. NaN where the empirical p-value needs no help (``TAIL_BELOW`` or more
    random lists reach the value) or the null has fewer than ``TAIL_MIN_LISTS`` lists.
    The shape is kept >= 0 (see below), so the estimate is conservative for light tails.
    NaN, too, below ``TAIL_VALID_LISTS / R``, where it was not measured within a factor
    of 3 of the truth. An estimate to read beside the empirical p-value, never in its
    place: it assumes that the tail continues the way its largest values go."""

    x = np.sort(np.asarray(null_values, dtype=float))[::-1]
    if x.size < TAIL_MIN_LISTS or int(reaching(x, observed).sum()) >= TAIL_BELOW:
        return float("nan")
    n_exc = min(TAIL_EXCEEDANCES, x.size // 4)
    threshold = 0.5 * (x[n_exc - 1] + x[n_exc])
    exceedances = x[:n_exc] - threshold
    if not (exceedances > 0).any():
        return float("nan")
    with np.errstate(all="ignore"):
        shape, _, scale = genpareto.fit(exceedances, floc=0.0)
        if not shape >= 0:
            # A negative shape bounds the tail, and a value past its end would get p = 0.
            # The mean AUC of a random list is bounded only at 1, far away, and its tail
            # is light (near-Gaussian, whose GPD shape tends to 0 from below): the
            # exponential tail (shape 0, fitted by its maximum likelihood, the mean
            # excess) is the lightest one we assume. It overstates a Gaussian tail far out,
            # so the estimate errs on the conservative side.
            shape, scale = 0.0, float(exceedances.mean())
        tail = float(genpareto.sf(observed - threshold, shape, loc=0.0, scale=scale))
    estimate = n_exc / x.size * tail
    # only where it was measured within a factor of 3 of the truth
    return estimate if estimate >= TAIL_VALID_LISTS / x.size else float("nan")


def compare_with_null(observed: float, null_values: np.ndarray, mc_se: float, upper: float) -> dict:
    """The empirical p-value of ``observed`` against ``null_values`` with what a reader
    needs to judge it: its Monte Carlo standard error and upper bound (from
    :func:`pvalue_error`), the floor 1 / (R + 1), the distance from the null mean in null
    standard deviations, and the generalised Pareto tail estimate (:func:`tail_pvalue`)."""
    values = np.asarray(null_values, dtype=float)
    n_ge, p = empirical_pvalue(observed, values)
    sd = float(values.std(ddof=1)) if values.size > 1 else float("nan")
    return {
        "null_auc_mean": float(values.mean()),
        "null_auc_sd": sd,
        "null_auc_min": float(values.min()),
        "null_auc_max": float(values.max()),
        "n_null_ge": n_ge,
        "p_value": p,
        "p_mc_se": mc_se,
        "p_upper": upper,
        "p_floor": 1.0 / (values.size + 1),
        "null_z": (observed - float(values.mean())) / sd if sd > 0 else float("nan"),
        "p_tail": tail_pvalue(observed, values),
    }


class ComparedNull(NamedTuple):
    """What a list's mean is compared with (:func:`comparison_null`)."""

    values: np.ndarray
    null_iterations: int
    scale: float  # rescaled: the factor; rescaled_skew: the quadratic map's slope a
    within: float
    between: float
    between_third: float  # rescaled_skew: the third cumulant the values were given
    skewness: float  # rescaled_skew: the skewness the values were given


def comparison_null(
    chosen: pd.DataFrame, method: str, list_iterations: int, metric: str = "auc"
) -> ComparedNull:
    """The values a list's K_L-split mean of ``metric`` is compared with, under ``method``,
    for the random lists ``chosen`` (one null key)."""
    if method not in PVALUE_METHODS:
        raise ValueError(f"unknown p-value method {method!r}; use one of {PVALUE_METHODS}")
    k_null = int(chosen["iterations"].iloc[0])
    means = chosen[metric].to_numpy(dtype=float)
    nan = float("nan")
    if method == "matched" and k_null != list_iterations:
        raise ValueError(
            f"random_lists.method: matched needs random lists scored with the lists' "
            f"{list_iterations} splits, but null {chosen['null_key'].iloc[0]} has {k_null}"
        )
    if method in RESCALING_METHODS:
        within_var = chosen[f"{metric}_var"].to_numpy(dtype=float)
    if method == "rescaled":
        values, scale, within, between = calibrated_null(means, within_var, k_null, list_iterations)
        return ComparedNull(values, k_null, scale, within, between, nan, nan)
    if method == "rescaled_skew":
        if f"{metric}_m3" not in chosen:
            raise ValueError(
                f"random_lists.method: rescaled_skew needs the null table's {metric}_m3 "
                "column (written since this method exists); rerun the null jobs"
            )
        values, slope, within, between, third, skew = skew_matched_null(
            means, within_var, chosen[f"{metric}_m3"].to_numpy(dtype=float), k_null,
            list_iterations,
        )  # fmt: skip
        return ComparedNull(values, k_null, slope, within, between, third, skew)
    return ComparedNull(means, k_null, 1.0, nan, nan, nan, nan)


def resolve_method(chosen: pd.DataFrame, method: str, list_iterations: int) -> Choice:
    """The method a null is compared by: ``auto`` chooses (:func:`choose_method`) from the
    null's own estimates, any other method is itself."""
    if method != "auto":
        return Choice(method, "configured")
    m3 = chosen["auc_m3"] if "auc_m3" in chosen else pd.Series(np.nan, index=chosen.index)
    return choose_method(
        chosen["auc"].to_numpy(dtype=float), chosen["auc_var"].to_numpy(dtype=float),
        m3.to_numpy(dtype=float), int(chosen["iterations"].iloc[0]), list_iterations,
    )  # fmt: skip


def pvalue_error(
    observed: float, chosen: pd.DataFrame, method: str, list_iterations: int,
    values: np.ndarray, confidence: float = P_UPPER_CONFIDENCE,
) -> tuple[float, float]:  # fmt: skip
    """(Monte Carlo SE, upper confidence bound) of an empirical p-value: of the tail
    probability that infinitely many random lists would give. For an exact comparison
    the count of random lists reaching the value is binomial: the SE is sqrt(p (1 - p) /
    R) and the bound Clopper-Pearson's (about 3 / R at the floor, where an SE says
    nothing). A rescaling method also estimates its map from the same random lists, so
    both come from ``P_BOOTSTRAP`` resamples of them, the map refitted each time (the
    bound is then the larger of the two)."""

    r = values.size
    n_ge = int(reaching(values, observed).sum())
    p = (1 + n_ge) / (1 + r)
    se = float(np.sqrt(p * (1 - p) / r))
    upper = float(beta.ppf(confidence, n_ge + 1, r - n_ge)) if n_ge < r else 1.0
    if method not in RESCALING_METHODS or int(chosen["iterations"].iloc[0]) == list_iterations:
        return se, upper
    rng = np.random.default_rng(derive_seed(0, "p-bootstrap", float(observed), r))
    boot = np.empty(P_BOOTSTRAP)
    for b in range(P_BOOTSTRAP):
        sample = chosen.iloc[rng.integers(0, r, r)]
        v = comparison_null(sample, method, list_iterations).values
        boot[b] = (1 + reaching(v, observed).sum()) / (1 + r)
    return float(boot.std(ddof=1)), max(upper, float(np.quantile(boot, confidence)))


def first_iterations_mean(iterations: pd.DataFrame, k: int, metric: str = "auc") -> pd.Series:
    """Each (list, embedding, negatives)'s mean of ``metric`` over its first ``k``
    iterations: the statistic of ``method: truncated``."""
    first = iterations[iterations["iteration"] < k]
    # each group's own mean, as summarize's: pandas' grouped mean sums with a
    # compensation whose last bit depends on the other groups in the frame, so a list's
    # statistic moved by an ulp with the embeddings beside it (the workflow's table of
    # every embedding against score()'s of one)
    return first.groupby(["list", "embedding", "negatives"])[metric].agg(lambda s: s.mean())


def pvalues(
    summary: pd.DataFrame,
    null: pd.DataFrame,
    match_sizes: bool,
    adjust: str = "holm",
    method: str = DEFAULT_PVALUE_METHOD,
    iterations: pd.DataFrame | None = None,
    alpha: float = default("power.alpha"),
    power: float = default("power.power"),
    member_spread: float = MEMBER_SPREAD,
) -> pd.DataFrame:
    """One row per (list, embedding, negatives): the observed mean AUC against the null of
    random lists like it (``match_sizes``: the list's ``null_key``, i.e. its size, or its
    frequency profile under frequency-matched negatives) or else of the closest fixed size,
    made comparable with the list's number of splits by ``method`` (``PVALUE_METHODS``;
    ``truncated`` needs the lists' ``iterations`` table).

    ``p_adjusted`` corrects for testing many lists on one embedding (the family is the
    lists of one embedding and negatives scheme): ``holm`` (family-wise error), ``bh``
    (false discovery rate) or ``none``.

    ``auc_detectable`` is the smallest mean AUC that lists of this size would reach p <=
    ``alpha`` at with probability ``power``, against these random lists
    (:func:`learnability.statistics.power.detectable_auc`), for lists whose statistic
    spreads ``power_spread`` times as much as the random lists' values: their true means
    ``member_spread`` times as much as the random lists' (the measured
    :data:`learnability.statistics.power.MEMBER_SPREAD`), their split noise the list's own
    over the statistic's splits (:func:`learnability.statistics.power.model_spread`)."""
    if method == "truncated" and iterations is None:
        raise ValueError("method: truncated needs the lists' per-iteration table")
    if method not in PVALUE_METHODS:
        raise ValueError(f"unknown p-value method {method!r}; use one of {PVALUE_METHODS}")
    auc = summary[summary["metric"] == "auc"]
    rows = []
    first: dict[int, pd.Series] = {}  # truncated: first-k means, once per k
    for rec in auc.itertuples(index=False):
        pool = null[(null["embedding"] == rec.embedding) & (null["negatives"] == rec.negatives)]
        if pool.empty:
            raise ValueError(
                f"no null distribution for embedding {rec.embedding!r} with "
                f"{rec.negatives} negatives"
            )
        if match_sizes:
            key = rec.null_key
            if key not in set(pool["null_key"]):
                raise ValueError(
                    f"no matched null ({key}) for list {rec.list!r} on {rec.embedding!r} "
                    f"({rec.negatives}); null keys present: {sorted(set(pool['null_key']))}"
                )
        else:
            fixed = pool[pool["null_key"].str.startswith("size-")]
            sizes = np.sort(fixed["size"].unique())
            key = f"size-{int(sizes[np.argmin(np.abs(sizes - rec.size))])}"
        chosen = pool[pool["null_key"] == key]
        used, reason = resolve_method(chosen, method, rec.iterations)
        if used == "truncated" and iterations is None:
            raise ValueError(f"method: {method} chose truncated ({reason}), which needs the "
                             "lists' per-iteration table")  # fmt: skip
        compared = comparison_null(chosen, used, rec.iterations)
        values, k_null = compared.values, compared.null_iterations
        observed = rec.mean
        if used == "truncated":
            if k_null not in first:
                first[k_null] = first_iterations_mean(iterations, k_null)
            observed = float(first[k_null].loc[(rec.list, rec.embedding, rec.negatives)])
        mc_se, upper = pvalue_error(observed, chosen, used, rec.iterations, values)
        within, between = null_variances(chosen, k_null)
        # a list of one split has no split variance of its own: the random lists' stands in
        split_var = float(rec.std) ** 2 if rec.iterations > 1 else within
        spread = model_spread(
            values, between, split_var, k_null if used == "truncated" else rec.iterations,
            member_spread,
        )  # fmt: skip
        rows.append(
            {
                "list": rec.list,
                "embedding": rec.embedding,
                "negatives": rec.negatives,
                "size": rec.size,
                "auc": rec.mean,
                "method": used,
                "method_requested": method,
                "method_reason": reason,
                "observed": observed,
                "list_iterations": rec.iterations,
                "null_key": key,
                "null_size": int(chosen["size"].iloc[0]),
                "null_lists": values.size,
                "null_iterations": k_null,
                "null_scale": compared.scale,
                "within_var": compared.within,
                "between_var": compared.between,
                "between_third": compared.between_third,
                "null_skewness": compared.skewness,
                **compare_with_null(observed, values, mc_se, upper),
                "power_alpha": alpha,
                "power": power,
                "power_spread": spread,
                "auc_detectable": detectable_auc(values, alpha, power, spread),
            }
        )
    out = pd.DataFrame(rows)
    out["p_adjusted"] = np.nan
    for _, idx in out.groupby(["embedding", "negatives"]).groups.items():
        out.loc[idx, "p_adjusted"] = adjust_pvalues(out.loc[idx, "p_value"].to_numpy(), adjust)
    out["adjustment"] = adjust
    return out


def random_rows(
    null: pd.DataFrame,
    sizes: list[int],
    method: str = "unmatched",
    list_iterations: int | None = None,
) -> pd.DataFrame:
    """The paper's random(avg) and random(max) rows for each embedding and fixed size.
    Under ``method: rescaled`` or ``rescaled_skew`` each metric's random lists are first
    made comparable with ``list_iterations``-split means (:func:`comparison_null`): the
    best of many noisy 10-split means is higher than the best of 1000-split means, and it
    is the latter that a list's row stands beside."""
    rows = []
    fixed = null[null["null_key"].isin([f"size-{n}" for n in sizes])]
    if method == "auto":
        # the rows describe the random lists; no test is taken on them, so the K_L-split
        # estimate stands where it can be made (rescaled_skew needs 3 splits a list)
        can = not fixed.empty and int(fixed["iterations"].min()) >= 3 and "auc_m3" in fixed
        method = "rescaled_skew" if can else "unmatched"
    for (embedding, negatives, size), g in fixed.groupby(["embedding", "negatives", "size"]):
        for metric in METRICS:
            values = g[metric].to_numpy(dtype=float)
            if method in RESCALING_METHODS and list_iterations is not None:
                values = comparison_null(g, method, list_iterations, metric).values
            best = values.min() if metric in LOWER_IS_BETTER else values.max()
            for row, value in (("random(avg)", values.mean()), ("random(max)", best)):
                rows.append(
                    {
                        "embedding": embedding,
                        "negatives": negatives,
                        "size": size,
                        "row": row,
                        "metric": metric,
                        "value": value,
                        "method": method,
                    }
                )
    return pd.DataFrame(rows)

"""The expected size of each p-value method under a two-level model of random lists'
split scores (no classifier fits, seconds per regime): given a null draw, the tail by
quadrature, not by sampling lists; averaged over null draws, with its Monte Carlo SE.

A random list's true mean AUC mu varies from list to list (the *between* distribution);
each of its splits scores mu plus split noise (the *within* distribution, whose spread
may depend on mu). A null draws R lists and scores each with K_N splits; a truly null
list is scored with K_L. For one null draw, a method's p-value rejects at level alpha
exactly when the list's statistic exceeds a critical value that the draw fixes (the
empirical p-value is a step function), so the method's true type-I error given the draw
is a tail probability of the list's statistic, computed here by quadrature rather than
by sampling lists. Averaged over many null draws it is the method's expected size, what
a user who draws one null and tests one list meets. ``benchmarks/calibration.py`` prints
it for every method and regime; ``tests/test_twolevel.py`` checks the exact methods come
out at their nominal level and the default within its goal."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
from scipy import special as sc
from scipy import stats as st
from scipy.optimize import brentq

from learnability.statistics.power import critical_value
from learnability.statistics.pvalue_methods import PVALUE_METHODS
from learnability.statistics.significance import (
    between_third_cumulant,
    calibrated_null,
    choose_method,
    skew_matched_null,
    variance_components,
)

# the levels at which a p-value's size is judged, and the goal for each: a true error
# within this share of the attainable level (floor(alpha (R + 1)) / (R + 1))
SIZE_LEVELS = (0.001, 0.01, 0.05, 0.10)
SIZE_GOAL = {0.001: 0.25, 0.01: 0.10, 0.05: 0.10, 0.10: 0.10}
# quadrature nodes: the smoother of the two distributions is integrated in closed form,
# the other at this many equal-probability nodes
NODES = 2000


def _lognormal_sigma(skew: float) -> float:
    """The log-SD of a lognormal with this skewness, (e^s2 + 2) sqrt(e^s2 - 1) = skew."""

    return float(brentq(lambda s: (np.exp(s * s) + 2) * np.sqrt(np.expm1(s * s)) - skew, 1e-6, 3))


@dataclass(frozen=True)
class TwoLevel:
    """Random lists' split scores: split = mu + sd(mu) * e.

    ``mu = mean + between_sd * z``, z standardised: Gaussian (``skew`` 0), a shifted gamma
    or a lognormal (``shape``) with skewness ``skew``; a share ``minority`` of lists has
    z raised by ``minority_shift`` (a few far easier random lists). ``sd(mu) =
    within_sd * max(0.1, 1 + hetero * z)``: the split noise grows with the list's mean
    when ``hetero`` > 0. ``e`` is standardised, Gaussian or a gamma with skewness
    ``split_skew``."""

    between_sd: float
    within_sd: float
    mean: float = 0.5
    skew: float = 0.0
    shape: str = "gamma"
    minority: float = 0.0
    minority_shift: float = 4.0
    hetero: float = 0.0
    split_skew: float = 0.0

    # the standardised true mean z
    def _z_dist(self):
        if self.skew == 0:
            return st.norm()
        if self.shape == "gamma":
            a = 4.0 / self.skew**2
            return st.gamma(a, loc=-np.sqrt(a), scale=1 / np.sqrt(a))
        if self.shape == "lognormal":
            s = _lognormal_sigma(self.skew)
            sd = np.sqrt(np.expm1(s * s) * np.exp(s * s))
            return st.lognorm(s, loc=-np.exp(s * s / 2) / sd, scale=1 / sd)
        raise ValueError(f"unknown shape {self.shape!r}; use gamma or lognormal")

    def _base_sf(self, t: np.ndarray) -> np.ndarray:
        # special functions directly: the frozen distributions' sf is 10x slower
        if self.skew == 0:
            return sc.ndtr(-t)
        if self.shape == "gamma":
            a = 4.0 / self.skew**2
            x = a + np.sqrt(a) * t
            return np.where(x > 0, sc.gammaincc(a, np.maximum(x, 0)), 1.0)
        d = self._z_dist()
        s, loc, scale = d.args[0], d.kwds["loc"], d.kwds["scale"]
        x = (t - loc) / scale
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(x > 0, sc.ndtr(-np.log(np.maximum(x, 1e-300)) / s), 1.0)

    def _z_sf(self, t: np.ndarray) -> np.ndarray:
        if not self.minority:
            return self._base_sf(t)
        shifted = self._base_sf(t - self.minority_shift)
        return (1 - self.minority) * self._base_sf(t) + self.minority * shifted

    def _z_nodes(self) -> tuple[np.ndarray, np.ndarray]:
        q = (np.arange(NODES) + 0.5) / NODES
        base = self._z_dist().ppf(q)
        if not self.minority:
            return base, np.full(NODES, 1.0 / NODES)
        z = np.r_[base, base + self.minority_shift]
        w = np.r_[
            np.full(NODES, (1 - self.minority) / NODES), np.full(NODES, self.minority / NODES)
        ]
        return z, w

    # the mean of k standardised split errors
    def _ebar_dist(self, k: int):
        if self.split_skew == 0:
            return st.norm(scale=1 / np.sqrt(k))
        a = 4.0 / self.split_skew**2
        # a sum of k gamma(a) errors is gamma(k a): the mean is exact, not a CLT
        return st.gamma(k * a, loc=-np.sqrt(a), scale=1 / (k * np.sqrt(a)))

    def split_sd(self, z: np.ndarray) -> np.ndarray:
        return self.within_sd * np.maximum(0.1, 1 + self.hetero * z)

    def sample_z(self, rng: np.random.Generator, n: int) -> np.ndarray:
        z = self._z_dist().rvs(size=n, random_state=rng)
        if self.minority:
            z = z + self.minority_shift * (rng.random(n) < self.minority)
        return z

    def splits(self, rng: np.random.Generator, lists: int, k: int) -> np.ndarray:
        """(lists, k) split scores of fresh random lists."""
        z = self.sample_z(rng, lists)
        if self.split_skew == 0:
            e = rng.standard_normal((lists, k))
        else:
            a = 4.0 / self.split_skew**2
            e = (rng.gamma(a, size=(lists, k)) - a) / np.sqrt(a)
        return self.mean + self.between_sd * z[:, None] + self.split_sd(z)[:, None] * e

    def list_means(self, rng: np.random.Generator, n: int, k: int) -> np.ndarray:
        """n fresh lists' k-split means, drawn exactly (no k splits each)."""
        z = self.sample_z(rng, n)
        e = self._ebar_dist(k).rvs(size=n, random_state=rng)
        return self.mean + self.between_sd * z + self.split_sd(z) * e

    def sf(self, c: np.ndarray, k: int) -> np.ndarray:
        """P(a fresh list's k-split mean > c), for each c, by quadrature."""
        c = np.atleast_1d(np.asarray(c, dtype=float))
        b, w, h = self.between_sd, self.within_sd, self.hetero
        ebar = self._ebar_dist(k)
        if b * 1.0 >= w * ebar.std() and h >= 0:
            # the true means spread more than the noise: nodes over the noise, the
            # true mean's survival in closed form (mu + w (1 + h z) e > c, solved for z;
            # the 0.1 floor on the split SD only matters far in the left tail)
            q = (np.arange(NODES) + 0.5) / NODES
            e = ebar.ppf(q)
            slope = b + w * h * e
            t = (c[:, None] - self.mean - w * e[None, :]) / slope[None, :]
            p = np.where(slope > 0, self._z_sf(t), 1 - self._z_sf(t))
            return p.mean(axis=1)
        # the noise spreads more: nodes over the true means, the noise's survival exact
        z, wt = self._z_nodes()
        t = (c[:, None] - self.mean - b * z[None, :]) / self.split_sd(z)[None, :]
        return ebar.sf(t) @ wt

    def sf_curve(self, k: int) -> Callable[[np.ndarray], np.ndarray]:
        """:meth:`sf` on a grid of 2001 points over the mean +- 14 SDs of a k-split mean,
        interpolated in log space (the grid is 0.014 SD apart: finer than a null of
        R = 10^4 lists is spaced in its tail)."""
        z, wt = self._z_nodes()
        sd = np.sqrt(
            self.between_sd**2 * float(wt @ z**2 - (wt @ z) ** 2)
            + float(wt @ self.split_sd(z) ** 2) / k
        )
        grid = self.mean + sd * np.linspace(-14, 14, 2001)
        log_sf = np.log(np.maximum(self.sf(grid, k), 1e-300))

        def curve(c: np.ndarray) -> np.ndarray:
            c = np.asarray(c, dtype=float)
            out = np.exp(np.interp(c, grid, log_sf))
            return np.where(c > grid[-1], 0.0, np.where(c < grid[0], 1.0, out))

        return curve

    def describe(self) -> str:
        ratio = self.between_sd**2 / (self.within_sd**2 / 10)
        parts = [f"between/(within/10) {ratio:.2g}"]
        if self.skew:
            parts.append(f"{self.shape} skew {self.skew:.2g}")
        if self.minority:
            parts.append(f"{self.minority:.0%} at +{self.minority_shift:g} SD")
        if self.hetero:
            parts.append(f"hetero {self.hetero:.2g}")
        if self.split_skew:
            parts.append(f"split skew {self.split_skew:.2g}")
        return ", ".join(parts)


def _null_stats(splits: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    means = splits.mean(axis=1)
    var = splits.var(axis=1, ddof=1)
    m3 = ((splits - means[:, None]) ** 3).mean(axis=1)
    return means, var, m3


def attainable(alpha: float, lists: int) -> float:
    """An exact test's size at alpha with R random lists: floor(alpha (R + 1)) / (R + 1)."""
    return np.floor(alpha * (lists + 1) + 1e-9) / (lists + 1)


# how each method turns one null draw into (the values compared, which statistic of the
# list they are compared with: its k-split mean for this k)
Mapper = Callable[[np.ndarray, int, int], tuple[np.ndarray, int, str]]


def _method_values(
    method: str, splits: np.ndarray, k_list: int, model: TwoLevel, rng: np.random.Generator
) -> tuple[np.ndarray, int, str]:
    k_null = splits.shape[1]
    means, var, m3 = _null_stats(splits)
    if method == "auto":
        method = choose_method(means, var, m3, k_null, k_list).method
    if method == "rescaled_skew":
        return skew_matched_null(means, var, m3, k_null, k_list)[0], k_list, method
    if method == "rescaled":
        return calibrated_null(means, var, k_null, k_list)[0], k_list, method
    if method == "unmatched":
        return means, k_list, method
    if method == "truncated":
        return means, k_null, method
    if method == "matched":
        return model.list_means(rng, splits.shape[0], k_list), k_list, method
    raise ValueError(f"unknown method {method!r}")


def expected_size(
    model: TwoLevel,
    *,
    lists: int,
    null_iterations: int,
    list_iterations: int,
    methods: Sequence[str] = PVALUE_METHODS,
    levels: Sequence[float] = SIZE_LEVELS,
    nulls: int = 600,
    seed: int = 0,
    per_null: dict[str, np.ndarray] | None = None,
) -> pd.DataFrame:
    """One row per method: its expected size at each level (``size_<level>``), the Monte
    Carlo SE of that over the ``nulls`` draws (``se_<level>``), the attainable level
    (``exact_<level>``), the relative error (size / exact - 1) and, for ``auto``, the
    share of draws that chose each method. ``per_null``, if given, receives each
    method's true size given each null draw, a (nulls, levels) array: what the row
    averages."""
    rng = np.random.default_rng(seed)
    levels = tuple(levels)
    sizes = {m: np.zeros((nulls, len(levels))) for m in methods}
    curves = {k: model.sf_curve(k) for k in {null_iterations, list_iterations}}
    chosen: dict[str, list[str]] = {m: [] for m in methods}
    for i in range(nulls):
        splits = model.splits(rng, lists, null_iterations)
        for m in methods:
            values, k, used = _method_values(m, splits, list_iterations, model, rng)
            crit = np.array([critical_value(values, a) for a in levels])
            finite = np.isfinite(crit)
            out = np.zeros(len(levels))
            out[finite] = curves[k](crit[finite])
            sizes[m][i] = out
            chosen[m].append(used)
    if per_null is not None:
        per_null.update(sizes)
    rows = []
    for m in methods:
        rec: dict = {"method": m}
        for j, a in enumerate(levels):
            s = sizes[m][:, j]
            exact = attainable(a, lists)
            rec[f"size_{a:g}"] = float(s.mean())
            rec[f"se_{a:g}"] = float(s.std(ddof=1) / np.sqrt(nulls))
            rec[f"exact_{a:g}"] = exact
            rec[f"rel_{a:g}"] = float(s.mean() / exact - 1) if exact > 0 else np.nan
        rec["chosen"] = ", ".join(
            f"{k} {v:.0%}" for k, v in pd.Series(chosen[m]).value_counts(normalize=True).items()
        )
        rows.append(rec)
    return pd.DataFrame(rows)


def within_goal(row: pd.Series, levels: Sequence[float] = SIZE_LEVELS, z: float = 0.0) -> bool:
    """Whether a method's expected sizes lie within SIZE_GOAL of the attainable level at
    every level (an attainable level of 0 has nothing to miss), allowing ``z`` Monte
    Carlo standard errors."""
    for a in levels:
        exact = row[f"exact_{a:g}"]
        if exact == 0:
            continue
        slack = SIZE_GOAL[a] * exact + z * row[f"se_{a:g}"]
        if abs(row[f"size_{a:g}"] - exact) > slack:
            return False
    return True


def fit(null: pd.DataFrame, metric: str = "auc") -> TwoLevel:
    """A two-level model with one null table's own moments: the mean, the between and
    within SDs (stats.variance_components), the true means' skewness (their third
    cumulant from distinct split triples, as a gamma; a lognormal beyond 2), the split
    noise's skewness and how its variance grows with the true mean."""

    k = int(null["iterations"].iloc[0])
    means = null[metric].to_numpy(dtype=float)
    var = null[f"{metric}_var"].to_numpy(dtype=float)
    m3 = null[f"{metric}_m3"].to_numpy(dtype=float)
    within, between = variance_components(means, var, k)
    b, w = float(np.sqrt(between)), float(np.sqrt(within))
    third = between_third_cumulant(means, var, m3, k)[0]
    skew = float(third / between**1.5) if between > 0 else 0.0
    split_third = float(np.mean(m3)) * k**2 / ((k - 1) * (k - 2))
    cov_mu_w = float(np.cov(means, var)[0, 1]) - split_third / k
    # w(z) = w^2 (1 + h z)^2: Cov(mu, w) is about 2 h w^2 b
    hetero = max(0.0, cov_mu_w / (2 * within * b)) if b > 0 else 0.0
    return TwoLevel(
        between_sd=b, within_sd=w, mean=float(means.mean()),
        skew=max(skew, 0.0) if b > 0 else 0.0,
        shape="gamma" if skew <= 2 else "lognormal", hetero=hetero,
        # the gamma noise model skews right only; a left skew (small on every null
        # seen: -0.13 at most) is taken as none
        split_skew=max(0.0, float(split_third / within**1.5)) if within > 0 else 0.0,
    )  # fmt: skip


W = 0.063  # one split's SD on the sample's word2vec (11-word lists)


def sd_for_ratio(ratio: float, k_null: int = 10) -> float:
    """The SD of true means that makes between / (within / K_N) = ratio at split SD W."""
    return float(np.sqrt(ratio * W**2 / k_null))


# (name, model, R, K_N, K_L): the settings the config accepts and the shapes a null may
# have, around the sample's word2vec (between / (within / K_N) about 1, skewness 1)
STRESS_REGIMES = [
    ("word2vec-like", TwoLevel(sd_for_ratio(1), W, skew=1.0), 1000, 10, 200),
    ("word2vec-like, K_L 1000", TwoLevel(sd_for_ratio(1), W, skew=1.0), 1000, 10, 1000),
    ("skew 2.8", TwoLevel(sd_for_ratio(1), W, skew=2.8), 1000, 10, 200),
    ("lognormal, skew 6", TwoLevel(sd_for_ratio(1), W, skew=6.0, shape="lognormal"), 1000, 10, 200),
    ("3 % of lists +4 SD", TwoLevel(sd_for_ratio(1), W, skew=1.0, minority=0.03), 1000, 10, 200),
    ("heteroscedastic (h 0.5)", TwoLevel(sd_for_ratio(1), W, skew=1.0, hetero=0.5), 1000, 10, 200),
    ("split noise skew 1", TwoLevel(sd_for_ratio(1), W, skew=1.0, split_skew=1.0), 1000, 10, 200),
    ("between/(within/K_N) 0", TwoLevel(0.0, W), 1000, 10, 200),
    ("between/(within/K_N) 0.02", TwoLevel(sd_for_ratio(0.02), W, skew=1.0), 1000, 10, 200),
    ("between/(within/K_N) 0.09", TwoLevel(sd_for_ratio(0.09), W, skew=1.0), 1000, 10, 200),
    ("between/(within/K_N) 0.3", TwoLevel(sd_for_ratio(0.3), W, skew=1.0), 1000, 10, 200),
    ("between/(within/K_N) 2", TwoLevel(sd_for_ratio(2), W, skew=1.0), 1000, 10, 200),
    ("between/(within/K_N) 4, Gaussian", TwoLevel(sd_for_ratio(4), W), 1000, 10, 200),
    ("R 100", TwoLevel(sd_for_ratio(1), W, skew=1.0), 100, 10, 200),
    ("R 4000", TwoLevel(sd_for_ratio(1), W, skew=1.0), 4000, 10, 200),
    ("K_N 3", TwoLevel(sd_for_ratio(1, 3), W, skew=1.0), 1000, 3, 200),
    ("K_N 3, R 100", TwoLevel(sd_for_ratio(1, 3), W, skew=1.0), 100, 3, 200),
    ("K_N 50", TwoLevel(sd_for_ratio(1, 50), W, skew=1.0), 1000, 50, 200),
]


def regime(model: TwoLevel, **changes) -> TwoLevel:
    return replace(model, **changes)

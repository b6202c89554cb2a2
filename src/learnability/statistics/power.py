"""What a list's test could have seen: its power against an AUC, the smallest AUC it
detects, and an upper bound on its AUC when it is not learnable.

A list's statistic is its mean AUC over its splits, compared with random lists' values
made comparable with it (:func:`learnability.statistics.significance.comparison_null`).
Its p-value is at most ``alpha`` exactly when the statistic exceeds a critical value
that the random lists fix (:func:`critical_value`). A list drawn from a concept whose
lists of this size score ``auc`` on average is modelled as the random lists shifted to
that mean: its statistic is ``auc + spread (V - mean(V))``, V one random list's value
(``spread`` 1 by default). Its power is then the share of random lists above
``mean(V) + (critical - auc) / spread``, and the
smallest detectable AUC the mean at which that share reaches ``power``
(:func:`detectable_auc`): about the null's mean plus (z_alpha + spread z_power) of its
SDs.

At ``spread`` 1 the model assumes that a concept's lists spread about their mean as
random lists of their size spread about theirs. They mostly spread more (an independent
simulation measured 0.93-1.39 times), and the detectable AUC at spread 1 was then mostly
optimistic (0.705-0.832 of lists detected, 46 of 48 cells below 0.80). A list's
statistic has two parts: its true mean, which depends on which members it holds, and its
splits' noise, whose variance the list's own splits measure. The simulation found the
extra spread in the first: a concept's lists' true means vary 0.94-1.46 times as much (an
SD ratio) as random lists' of their size, about alike under either p-value method, while
the split noise, the list's own, makes the whole spread smaller under ``truncated``,
whose statistic averages 10 splits, than under ``rescaled_skew``, whose averages the
list's 200. The reported detectable AUC (the p-values'
``auc_detectable``, the words-needed table's) therefore takes :func:`model_spread`: the
random lists' between-list variance times :data:`MEMBER_SPREAD` squared, plus the list's
own split noise over the statistic's splits, against the values it is compared with
(``benchmarks/power_simulation.py``, docs/explanation/power.md).
:func:`concept_spread` estimates one list's spread from its jackknife, but overstates
it. The bounds do not make the assumption: they resample the list's own members
(:func:`jackknife_bound`, computed by :mod:`learnability.analyses.bounds`).
"""

from __future__ import annotations

import numpy as np

# How much more a concept's lists' true mean AUCs vary with the members they hold than
# random lists' of their size (an SD ratio), at which the reported detectable AUC is
# computed (model_spread): chosen on two embeddings of benchmarks/power_simulation.py (11,
# 40 and 100 words, equal and unequal members, truncated and rescaled_skew), the candidate
# of 1.1-1.25 with the most of their 24 cells' power within 0.80 +- 0.04 (22); on two
# embeddings drawn afterwards, 23 of 24 (docs/explanation/power.md has the tables and
# the command).
MEMBER_SPREAD = 1.2


def critical_value(values: np.ndarray, alpha: float) -> float:
    """The value a list's statistic must exceed for its empirical p-value, (1 + #{null >=
    x}) / (1 + R), to be at most ``alpha``: the (floor(alpha (R + 1)))-th largest random
    list's value. +inf where no value can (``alpha`` below the floor 1 / (R + 1))."""
    values = np.asarray(values, dtype=float)
    allowed = int(np.floor(alpha * (values.size + 1) + 1e-9)) - 1
    if allowed < 0:
        return float("inf")
    return float(np.sort(values)[::-1][allowed])


def power_at(
    values: np.ndarray, alpha: float, auc: np.ndarray | float, spread: float = 1.0
) -> np.ndarray:
    """The power of a list's test at level ``alpha`` when its lists' mean AUC is ``auc``
    (each of an array): the share of random lists whose value, its deviation from their
    mean times ``spread`` and shifted to that mean, exceeds the critical value.
    ``spread`` is how much more a concept's lists' statistic spreads than a random
    list's (an SD ratio, :func:`concept_spread`); 1 is the model's assumption that they
    spread alike."""
    values = np.asarray(values, dtype=float)
    crit = critical_value(values, alpha)
    auc = np.atleast_1d(np.asarray(auc, dtype=float))
    if not np.isfinite(crit):
        return np.zeros(auc.shape)
    centre = values.mean()
    ordered = np.sort(values)
    # #{auc + spread (V - centre) > crit} = R - #{V <= centre + (crit - auc) / spread}
    above = values.size - np.searchsorted(ordered, centre + (crit - auc) / spread, side="right")
    return above / values.size


def detectable_auc(values: np.ndarray, alpha: float, power: float, spread: float = 1.0) -> float:
    """The smallest mean AUC that a list of this null's size is detected at with
    probability ``power`` at level ``alpha`` (:func:`power_at`, at the same ``spread``):
    the critical value plus ``spread`` times the null's mean less its (1 - power)
    quantile, i.e. the k-th largest random list's value, k = ceil(power R). NaN where no
    AUC up to 1 is (``alpha`` below the floor 1 / (R + 1), or the null too wide)."""
    values = np.asarray(values, dtype=float)
    crit = critical_value(values, alpha)
    if not np.isfinite(crit):
        return float("nan")
    k = int(np.ceil(power * values.size - 1e-9))
    kth = float(np.sort(values)[::-1][k - 1])
    out = crit + spread * (values.mean() - kth)
    return float(out) if out <= 1.0 else float("nan")


def concept_spread(values: np.ndarray, between: float, split_var: float, splits: int) -> float:
    """How much more the statistic of lists drawn from a concept spreads than the random
    lists' ``values``: sqrt((between + split_var / splits) / var(values)), an SD ratio for
    :func:`power_at` and :func:`detectable_auc`. ``between`` is the variance of the
    concept's lists' true mean AUCs at this size (a list's delete-a-group jackknife,
    :func:`jackknife_variance`, estimates it from the list alone), ``split_var`` their
    splits' variance and ``splits`` how many splits the statistic averages (the null's
    under ``truncated``, the list's under the rescaling methods). Lists drawn from a
    concept spread more than random lists of their size even when every member carries
    it equally (docs/explanation/power.md has the measurements)."""
    null_var = float(np.var(np.asarray(values, dtype=float), ddof=1))
    return float(np.sqrt((between + split_var / splits) / null_var))


def model_spread(
    values: np.ndarray, between: float, split_var: float, splits: int,
    member_spread: float = MEMBER_SPREAD,
) -> float:  # fmt: skip
    """The spread at which the reported detectable AUC is computed, for one list:
    :func:`concept_spread` with the concept's lists' true means varying ``member_spread``
    times as much (an SD ratio) as the random lists' (``between``, their between-list
    variance), and with the list's own ``split_var`` over the ``splits`` its statistic
    averages. ``member_spread`` itself where ``between`` is unknown (NaN: random lists
    scored with one split have no split variance to take out), as if the split noise
    were negligible."""
    if not np.isfinite(between):
        return float(member_spread)
    return concept_spread(values, member_spread**2 * between, split_var, splits)


def jackknife_variance(group_means: np.ndarray, split_var: float, splits: int) -> float:
    """The delete-a-group jackknife's variance of a list's mean AUC as a sample of its
    concept's words, from the mean AUC of each of ``g`` runs that each leave one group of
    members out: (g - 1) / g * sum (T_j - mean T)^2, less what the runs' own split noise
    adds to it, (g - 1)^2 / g * ``split_var`` / ``splits`` (each run's mean is over
    ``splits`` splits of variance ``split_var``); at least 0."""
    t = np.asarray(group_means, dtype=float)
    g = t.size
    spread = (g - 1) / g * float(((t - t.mean()) ** 2).sum())
    noise = (g - 1) ** 2 / g * split_var / splits
    return max(spread - noise, 0.0)


def jackknife_bound(
    auc: float, auc_noise: float, group_means: np.ndarray, split_var: float, splits: int,
    confidence: float,
) -> tuple[float, float, float]:  # fmt: skip
    """(standard error, lower, upper): one-sided bounds at ``confidence`` on the mean AUC
    that lists of this size drawn from the concept would score, from the list's own
    ``auc`` (whose split noise is ``auc_noise``, a variance) and its delete-a-group
    jackknife (:func:`jackknife_variance`); Student's t on g - 1 degrees of freedom."""
    # deferred: scipy.stats takes about 0.5 s to import, and the analyses' registry
    # brings this module into every Snakemake start (the Snakefile's parse, each cluster
    # job's) through the bounds analysis
    from scipy import stats as st

    g = np.asarray(group_means).size
    se = float(np.sqrt(jackknife_variance(group_means, split_var, splits) + auc_noise))
    t = float(st.t.ppf(confidence, g - 1))
    return se, auc - t * se, auc + t * se

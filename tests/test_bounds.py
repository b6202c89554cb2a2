"""The bounds (learnability.analyses.bounds): its row from runs whose AUCs are written
here, one-sided t bounds against scipy, its jackknife groups by the rule written out, and
its coverage of a planted concept's AUC (tests/planted.py's clustered embedding, which the
power tests share); the job the workflow runs against score() in tests/test_jobs.py."""

from __future__ import annotations

import numpy as np
import pytest
from planted import clustered_embedding, plant_along

from learnability.analyses.bounds import bound_row, jackknife_groups
from learnability.api import C
from learnability.protocol.evaluate import Protocol
from learnability.protocol.sampling import derive_seed


def test_a_lists_bounds_from_its_runs_by_hand(monkeypatch):
    """The bounds' wiring, with the fits replaced by AUCs written here: a list of 12
    members cut into 4 groups of 3 (each run leaves one group out, the groups a partition
    of the members), each run's mean and its splits' variance (ddof 1) over 5 splits,
    the list's own split noise var(ddof 1) / 5, and the bounds by the jackknife written
    out (docs/explanation/power.md) with scipy's t on 3 df; a list at min_words: no
    groups, no bounds (NaN), its AUC still reported; one split a run: no split
    variance (0, not NaN)."""
    from scipy.stats import t as student

    from learnability.protocol import splits as splitting

    full = np.array([0.70, 0.72, 0.68, 0.75, 0.66])
    runs = np.array([[0.58, 0.62, 0.60, 0.57, 0.63], [0.66, 0.64, 0.65, 0.69, 0.61],
                     [0.70, 0.74, 0.66, 0.71, 0.69], [0.75, 0.80, 0.71, 0.74, 0.75]])  # fmt: skip
    given = [full, *runs]
    kept: list[np.ndarray] = []
    real_draw = splitting.draw_splits

    def draw(n, members, protocol, seeds, bins):
        kept.append(np.asarray(members))
        return real_draw(n, members, protocol, seeds, bins)

    class Fitted:
        def __init__(self, auc):
            self.auc = auc

        def metrics(self):
            return {"auc": self.auc}

    monkeypatch.setattr(splitting, "draw_splits", draw)
    monkeypatch.setattr(splitting, "fit_splits", lambda v, s, p: Fitted(given[len(kept) - 1]))
    x = np.random.default_rng(0).standard_normal((200, 4))
    members = np.arange(20, 32)
    protocol = Protocol(iterations=5, C=C, seed=3, min_words=5)
    row = bound_row(x, members, protocol, groups=4, iterations=5, confidence=0.9,
                    list_name="l", embedding="e", bins=None)  # fmt: skip

    assert len(kept) == 5 and set(kept[0]) == set(members)
    out = [np.setdiff1d(members, k) for k in kept[1:]]
    assert [o.size for o in out] == [3, 3, 3, 3] and [k.size for k in kept[1:]] == [9] * 4
    assert set(np.concatenate(out)) == set(members)  # a partition: each member out once
    g, n = 4, 5
    m, v = runs.mean(axis=1), runs.var(axis=1, ddof=1)
    noise = full.var(ddof=1) / n
    jackknife = (g - 1) / g * ((m - m.mean()) ** 2).sum() - (g - 1) ** 2 / g * v.mean() / n
    assert jackknife > 0  # the case is not clamped
    se = np.sqrt(jackknife + noise)
    t = student.ppf(0.9, g - 1)
    assert row["groups"] == 4 and row["iterations"] == 5 and row["group_iterations"] == 5
    assert (row["list"], row["embedding"], row["negatives"]) == ("l", "e", "uniform")
    assert row["size"] == 12 and row["confidence"] == 0.9
    assert row["auc"] == pytest.approx(full.mean())
    assert row["auc_split_se"] == pytest.approx(np.sqrt(noise))
    assert row["auc_se"] == pytest.approx(se, rel=1e-9)
    assert row["auc_low"] == pytest.approx(full.mean() - t * se, rel=1e-9)
    assert row["auc_high"] == pytest.approx(full.mean() + t * se, rel=1e-9)

    # cut at random, by the list's name: another list of the same members is cut otherwise
    # (15,400 ways to cut 12 into 4 groups of 3: these two seeds are not one of the ties)
    kept.clear()
    bound_row(x, members, protocol, groups=4, iterations=5, confidence=0.9,
              list_name="m", embedding="e", bins=None)  # fmt: skip
    other = {frozenset(np.setdiff1d(members, k)) for k in kept[1:]}
    assert other != {frozenset(o) for o in out}

    kept.clear()
    given = [full]
    small = bound_row(x, members[:5], protocol, groups=4, iterations=5, confidence=0.9,
                      list_name="s", embedding="e", bins=None)  # fmt: skip
    assert len(kept) == 1 and small["groups"] == 0 and small["auc"] == pytest.approx(full.mean())
    assert np.isnan([small["auc_se"], small["auc_low"], small["auc_high"]]).all()

    kept.clear()
    given = [full[:1], *runs[:, :1]]
    one = bound_row(x, members, protocol, groups=4, iterations=1, confidence=0.9,
                    list_name="l", embedding="e", bins=None)  # fmt: skip
    # one split a run: no split variance to take out, no noise in the list's own mean
    assert one["auc_split_se"] == 0.0
    m1 = runs[:, 0]
    assert one["auc_se"] == pytest.approx(np.sqrt((g - 1) / g * ((m1 - m1.mean()) ** 2).sum()))

    kept.clear()
    given = [full[:2], *runs[:, :2]]
    two = bound_row(x, members, protocol, groups=4, iterations=2, confidence=0.9,
                    list_name="l", embedding="e", bins=None)  # fmt: skip
    # two splits a run: their variances (ddof 1) are taken out, as at five
    m2, v2 = runs[:, :2].mean(axis=1), runs[:, :2].var(axis=1, ddof=1)
    spread2 = (g - 1) / g * ((m2 - m2.mean()) ** 2).sum() - (g - 1) ** 2 / g * v2.mean() / 2
    noise2 = full[:2].var(ddof=1) / 2
    assert spread2 > 0 and two["auc_split_se"] == pytest.approx(np.sqrt(noise2))
    assert two["auc_se"] == pytest.approx(np.sqrt(spread2 + noise2), rel=1e-9)


# --- the words-needed curve -------------------------------------------------------------


# lists drawn for the bounds check: its coverage tolerance is 3 binomial SEs at this count
BOUND_DRAWS = 60
# a list's splits, the workflow's default
K_L = 200


def test_the_bounds_are_one_sided_t_bounds_on_the_jackknife_and_split_errors():
    """A hand case against scipy's t: delete-one means of 12 values (jackknife variance
    s^2 / 12) plus the list's split noise; one-sided at 95 %, t on 11 df (1.796), not the
    two-sided 2.201 nor the normal's 1.645."""
    from scipy.stats import t as student

    from learnability.statistics.power import jackknife_bound

    x = np.linspace(0.5, 0.72, 12)
    runs = (x.sum() - x) / 11
    se, low, high = jackknife_bound(0.61, 1e-4, runs, 0.0, 1, 0.95)
    want = np.sqrt(x.var(ddof=1) / 12 + 1e-4)
    assert se == pytest.approx(want)
    assert high == pytest.approx(0.61 + student.ppf(0.95, 11) * want)
    assert low == pytest.approx(0.61 - student.ppf(0.95, 11) * want)


def test_a_list_at_min_words_has_no_bounds_and_larger_lists_keep_min_words():
    assert jackknife_groups(4, 10, 4) == 0
    assert jackknife_groups(5, 10, 4) == 5  # one member out at a time
    assert jackknife_groups(11, 10, 4) == 10
    assert jackknife_groups(8, 2, 4) == 2
    assert jackknife_groups(7, 2, 4) == 3  # 7 - 4 < 4: three groups of at most 3
    # every small case against the rule written out: the fewest groups, from ``groups``
    # (at most one member each), whose largest group (ceil(size / g) members, counted
    # with integers) leaves min_words; none below two groups
    for size in range(1, 40):
        for groups in range(1, 12):
            for min_words in range(1, 25):
                want = 0
                for g in range(min(groups, size), size + 1):
                    largest = (size + g - 1) // g
                    if size - largest >= min_words:
                        want = g if g >= 2 else 0
                        break
                assert jackknife_groups(size, groups, min_words) == want, (size, groups, min_words)


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

    x, u, pool = clustered_embedding(seed)
    weights = np.random.default_rng(seed).gamma(2.0, 0.5, pool)
    y = plant_along(x, u, pool, 3.0, weights)
    protocol = Protocol(iterations=K_L, C=C, seed=seed)
    rng = np.random.default_rng(derive_seed(seed, "bound-draws"))
    rows = [
        bound_row(y, np.sort(rng.choice(pool, 11, replace=False)), protocol,
                  groups=default("power.groups"), iterations=default("power.iterations"),
                  confidence=0.95, list_name=f"d{i}", embedding="planted", bins=None)
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


def test_interchangeable_members_add_no_member_variance_to_the_bounds(seed):
    """A list whose 11 members are one vector repeated (at the centre of the cloud, so
    that its splits still vary) has no variance as a sample of its members: every run
    without a group sees the same list. The bounds' jackknife variance (auc_se^2 less
    the list's own split noise) is then the clamped remainder of the runs' split noise
    once its expectation, (g - 1)^2 / g x split_var / splits, is taken out: measured
    0.25 of that expectation, SD 0.12 between seeds 0-19 at 8 lists (a clamped,
    heavy-tailed share), so here 16 lists (SD about 0.085) and a limit of 0.6, 4 SDs
    above; without the subtraction the share is about 1 (SD about 0.12 at 16 lists).
    """
    rng = np.random.default_rng(derive_seed(seed, "twins"))
    iterations, groups, rows = 50, 10, []
    for i in range(16):
        x = rng.standard_normal((1000, 10))
        x[:11] = 0.0
        protocol = Protocol(iterations=iterations, C=C, seed=seed)
        rows.append(bound_row(x, np.arange(11), protocol, groups=groups,
                              iterations=iterations, confidence=0.95, list_name=f"twins{i}",
                              embedding="e", bins=None))  # fmt: skip
    jackknife = np.mean([r["auc_se"] ** 2 - r["auc_split_se"] ** 2 for r in rows])
    # the runs' split noise, from the list's own (same splits a run, same variance)
    expected_noise = (groups - 1) ** 2 / groups * np.mean([r["auc_split_se"] ** 2 for r in rows])
    assert jackknife < 0.6 * expected_noise, jackknife / expected_noise

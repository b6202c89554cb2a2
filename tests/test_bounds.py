"""The bounds (learnability.analyses.bounds) by hand: its row from runs whose AUCs are
written here, and its job's cost. Their coverage of a planted concept's AUC, measured, is
in tests/test_power.py (the bounds and the power share its planted embeddings); the job
the workflow runs against score() in tests/test_jobs.py."""

from __future__ import annotations

import numpy as np
import pytest

from learnability.analyses.bounds import bound_row
from learnability.api import C
from learnability.protocol.evaluate import Protocol


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
    protocol = Protocol(iterations=5, C=C, seed=3)
    row = bound_row(x, members, protocol, groups=4, iterations=5, confidence=0.9,
                    list_name="l", embedding="e", bins=None, min_words=5)  # fmt: skip

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
              list_name="m", embedding="e", bins=None, min_words=5)  # fmt: skip
    other = {frozenset(np.setdiff1d(members, k)) for k in kept[1:]}
    assert other != {frozenset(o) for o in out}

    kept.clear()
    given = [full]
    small = bound_row(x, members[:5], protocol, groups=4, iterations=5, confidence=0.9,
                      list_name="s", embedding="e", bins=None, min_words=5)  # fmt: skip
    assert len(kept) == 1 and small["groups"] == 0 and small["auc"] == pytest.approx(full.mean())
    assert np.isnan([small["auc_se"], small["auc_low"], small["auc_high"]]).all()

    kept.clear()
    given = [full[:1], *runs[:, :1]]
    one = bound_row(x, members, protocol, groups=4, iterations=1, confidence=0.9,
                    list_name="l", embedding="e", bins=None, min_words=5)  # fmt: skip
    # one split a run: no split variance to take out, no noise in the list's own mean
    assert one["auc_split_se"] == 0.0
    m1 = runs[:, 0]
    assert one["auc_se"] == pytest.approx(np.sqrt((g - 1) / g * ((m1 - m1.mean()) ** 2).sum()))

    kept.clear()
    given = [full[:2], *runs[:, :2]]
    two = bound_row(x, members, protocol, groups=4, iterations=2, confidence=0.9,
                    list_name="l", embedding="e", bins=None, min_words=5)  # fmt: skip
    # two splits a run: their variances (ddof 1) are taken out, as at five
    m2, v2 = runs[:, :2].mean(axis=1), runs[:, :2].var(axis=1, ddof=1)
    spread2 = (g - 1) / g * ((m2 - m2.mean()) ** 2).sum() - (g - 1) ** 2 / g * v2.mean() / 2
    noise2 = full[:2].var(ddof=1) / 2
    assert spread2 > 0 and two["auc_split_se"] == pytest.approx(np.sqrt(noise2))
    assert two["auc_se"] == pytest.approx(np.sqrt(spread2 + noise2), rel=1e-9)


# --- the words-needed curve -------------------------------------------------------------

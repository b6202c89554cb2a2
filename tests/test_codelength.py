"""The online codelength: each block's bits against scikit-learn's fitted probabilities,
a planted concept whose codelength falls as its separation grows, random lists that stay
near the uniform code, and frequency-matched partners from the member's own bin."""

import numpy as np
import pandas as pd
import pytest
from planted import planted_concept
from sklearn.linear_model import LogisticRegression

from learnability import schemas
from learnability.analyses.codelength import (
    block_ends,
    codelength_rows,
    draw_order,
    online_codelengths,
)
from learnability.protocol.evaluate import Protocol
from learnability.protocol.sampling import frequency_bins

PROTOCOL = Protocol(iterations=1, C=1.0, seed=3)
FRACTIONS = [0.1, 0.25, 0.5, 0.75]


def test_block_ends():
    assert block_ends(40, FRACTIONS).tolist() == [4, 10, 20, 30, 40]
    assert block_ends(5, FRACTIONS).tolist() == [1, 2, 4, 5]  # rounded, distinct, >= 1
    assert block_ends(2, [0.5]).tolist() == [1, 2]


def test_each_block_costs_minus_log2_of_sklearns_fitted_probabilities():
    rng = np.random.default_rng(0)
    vectors = rng.standard_normal((200, 6))
    pos = rng.choice(100, 9, replace=False)
    neg = rng.choice(np.arange(100, 200), 9, replace=False)
    fractions = [1 / 3, 2 / 3]
    bits, raw = online_codelengths(vectors, [(pos, neg)], fractions, PROTOCOL)
    want_raw = 2.0 * 3  # the first 3 pairs: 1 bit a label
    for k, nxt in ((3, 6), (6, 9)):
        x = np.vstack([vectors[pos[:k]], vectors[neg[:k]]])
        y = np.r_[np.ones(k), np.zeros(k)]
        model = LogisticRegression(C=1.0, tol=1e-10, max_iter=10_000).fit(x, y)
        p_pos = model.predict_proba(vectors[pos[k:nxt]])[:, 1]
        p_neg = model.predict_proba(vectors[neg[k:nxt]])[:, 0]
        block = -(np.log2(p_pos).sum() + np.log2(p_neg).sum())
        want_raw += block
    np.testing.assert_allclose(raw, [want_raw], rtol=1e-4)
    # one bit says which code follows, then the shorter of the online and uniform codes
    np.testing.assert_allclose(bits, [1 + min(want_raw, 18.0)], rtol=1e-4)


def _planted(delta: float, n_vocab=3000, d=50, size=40):
    """tests/planted.py's concept (the first 40 rows along a random direction) at
    separation ``delta``, in float32 as an embedding is kept."""
    concept = planted_concept(11, n=n_vocab, dim=d, size=size, shift=delta)
    return concept.vectors.astype(np.float32), concept.members


def _rows(vectors, members, **kw):
    kw = {"fractions": FRACTIONS, "orders": 20, "null_lists": 20, **kw}
    return codelength_rows(
        vectors, members, PROTOCOL, list_name="planted", embedding="gauss", **kw
    ).set_index("source")


def test_the_codelength_falls_as_a_planted_concepts_separation_grows():
    rows = [_rows(*_planted(delta)) for delta in (0.0, 1.0, 2.0, 4.0)]
    raw = [r.loc["list", "raw_bits_mean"] for r in rows]
    assert all(a > b for a, b in zip(raw, raw[1:], strict=False)), raw
    # the reported code: the uniform one (and its bit) until the online code beats it
    bits = [r.loc["list", "bits_mean"] for r in rows]
    assert bits[0] == bits[1] == 81 and bits[1] > bits[2] > bits[3], bits
    compression = [r.loc["list", "compression"] for r in rows]
    assert compression[-1] > 2.0 and compression[0] < 1.0
    # the null does not depend on the planted direction's strength beyond the list
    assert all(r.loc["null", "compression"] < 1.0 for r in rows)


def test_random_lists_stay_near_the_uniform_code():
    """Unrelated words on Gaussian vectors (the chance baseline): the codelength is the
    uniform code and the one bit that chooses it, while the raw online code of an
    overconfident classifier is longer (Gaussian vectors give it nothing to learn)."""
    vectors, members = _planted(0.0)
    r = _rows(vectors, members)
    uniform = r.loc["list", "uniform_bits"]
    for source in ("list", "null"):
        assert r.loc[source, "bits_mean"] == uniform + 1
        assert r.loc[source, "compression"] == pytest.approx(80 / 81)
        assert r.loc[source, "raw_compression"] < 0.9


def test_rows_follow_the_schema_and_are_deterministic():
    vectors, members = _planted(2.0)
    a = codelength_rows(
        vectors, members, PROTOCOL, fractions=FRACTIONS, orders=5, null_lists=7,
        list_name="x", embedding="e",
    )  # fmt: skip
    b = codelength_rows(
        vectors, members, PROTOCOL, fractions=FRACTIONS, orders=5, null_lists=7,
        list_name="x", embedding="other",
    )  # fmt: skip
    assert list(a.columns) == schemas.columns("codelength")
    assert a["source"].tolist() == ["list", "null"]
    assert a["lists"].tolist() == [1, 7] and a["orders"].tolist() == [5, 1]
    assert a.loc[0, "fractions"] == "0.1,0.25,0.5,0.75" and a.loc[0, "uniform_bits"] == 80
    cols = ["bits_mean", "bits_sd", "raw_bits_mean"]
    pd.testing.assert_frame_equal(a[cols], b[cols])  # seeds follow the list, not the embedding
    c = codelength_rows(
        vectors, members, PROTOCOL, fractions=FRACTIONS, orders=5, null_lists=7,
        list_name="y", embedding="e",
    )  # fmt: skip
    assert c.loc[0, "bits_mean"] != a.loc[0, "bits_mean"]


def test_frequency_matched_partners_come_from_the_members_bins():
    rng = np.random.default_rng(5)
    counts = rng.zipf(1.5, 2000).astype(float)
    bins = frequency_bins(counts, 5)
    members = rng.choice(2000, 60, replace=False)
    mask = np.zeros(2000, bool)
    mask[members] = True
    pools = [np.flatnonzero((bins == b) & ~mask) for b in range(5)]
    perm, partner = draw_order(np.random.default_rng(1), members, mask, bins, pools)
    assert sorted(perm) == sorted(members) and not mask[partner].any()
    assert (bins[perm] == bins[partner]).all() and len(set(partner)) == 60
    vectors = rng.standard_normal((2000, 8)).astype(np.float32)
    matched = Protocol(iterations=1, C=1.0, seed=3, negatives="frequency_matched", n_bins=5)
    rows = codelength_rows(
        vectors, members, matched, fractions=FRACTIONS, orders=3, null_lists=3,
        list_name="m", embedding="e", bins=bins,
    )  # fmt: skip
    assert (rows["negatives"] == "frequency_matched").all() and rows["size"].eq(60).all()
    with pytest.raises(ValueError, match="frequency bins"):
        codelength_rows(
            vectors, members, matched, fractions=FRACTIONS, orders=1, null_lists=0,
            list_name="m", embedding="e",
        )  # fmt: skip

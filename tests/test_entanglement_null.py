"""Entanglement against its own null (learnability.analyses.entanglement_null): the
overlap's p-value against the hypergeometric and an enumeration, the alignment against a
plain numpy computation, the p-values of lists random by construction at the level they
claim (deep in the tail, and family-wise after Holm), planted shared directions and
nested lists found, and the analysis' table carrying the adjusted verdict."""

from __future__ import annotations

import itertools
from pathlib import Path

import gensim
import numpy as np
import pytest
from scipy import stats

from learnability.analyses.entanglement import beyond_null, entanglement, summary_line
from learnability.analyses.entanglement_null import _overlap_p, pair_pvalues
from learnability.analyses.leace import Whitening
from learnability.protocol.evaluate import Protocol
from learnability.protocol.sampling import frequency_bins
from learnability.statistics.adjust import adjust_pvalues

LEE_VEC = Path(gensim.__file__).parent / "test" / "test_data" / "lee_fasttext.vec"


def embedding(seed: int, n: int = 3000, d: int = 20) -> tuple[np.ndarray, np.ndarray]:
    """Vectors shaped like a small trained embedding's: clusters, row norms spread by a
    log-normal factor, and a few rare words far out along two shared directions (the rows
    of large whitened norm that dominate a small list's raw mean); corpus counts with a
    Zipf-like tail, the far-out words among the rarest."""
    rng = np.random.default_rng(seed)
    centres = 1.5 * rng.standard_normal((30, d))
    x = centres[rng.integers(0, 30, n)] + rng.standard_normal((n, d))
    x *= rng.lognormal(0, 0.4, n)[:, None]
    far = rng.choice(n, n // 300, replace=False)
    e = rng.standard_normal((2, d))
    e /= np.linalg.norm(e, axis=1, keepdims=True)
    x[far] = 40 * e[rng.integers(0, 2, far.size)] * rng.lognormal(0, 0.3, far.size)[:, None]
    counts = np.floor(rng.pareto(1.0, n) * 5 + 5)
    counts[far] = 5
    return x, counts


def random_lists(rng: np.random.Generator, n: int, k: int, high: int = 200) -> dict:
    """``k`` lists of random words, sizes log-uniform from 5 to ``high``."""
    sizes = np.exp(rng.uniform(np.log(5), np.log(high), k)).astype(int)
    return {f"r{i}": rng.choice(n, s, replace=False) for i, s in enumerate(sizes)}


# --- the two tests, against independent computations ------------------------------------


def test_the_overlap_p_value_is_the_hypergeometric_tail_and_an_enumeration():
    """One bin: scipy's hypergeometric survival function. Two bins: every list of the
    profile enumerated (12 words, bins of 7 and 5, A with 3 and 2 of them), the share
    sharing at least s members with B."""
    for total, marked, draws, shared in [(8685, 200, 150, 3), (100, 10, 20, 1), (50, 45, 10, 9)]:
        got = _overlap_p(shared, np.array([draws]), np.array([marked]), np.array([total]))
        assert got == pytest.approx(stats.hypergeom(total, marked, draws).sf(shared - 1),
                                    rel=1e-9)  # fmt: skip
    bins = np.array([0] * 7 + [1] * 5)
    b = np.array([0, 1, 2, 7, 8])  # B: 3 words of bin 0, 2 of bin 1
    overlaps = [
        np.intersect1d(np.array(first + second), b).size
        for first in itertools.combinations(range(7), 3)
        for second in itertools.combinations(range(7, 12), 2)
    ]
    for shared in range(1, 6):
        want = np.mean(np.array(overlaps) >= shared)
        got = _overlap_p(shared, np.array([3, 2]), np.bincount(bins[b]), np.array([7, 5]))
        assert got == pytest.approx(want, abs=1e-12), shared


def _unit(x: np.ndarray) -> np.ndarray:
    """Whitened by numpy's covariance (eigh), each row scaled to unit length."""
    mean = x.mean(axis=0)
    values, vectors = np.linalg.eigh(np.cov(x.T, bias=True))
    z = (x - mean) @ (vectors / np.sqrt(values)) @ vectors.T
    return z / np.linalg.norm(z, axis=1, keepdims=True)


@pytest.mark.parametrize("scheme", ["uniform", "frequency_matched"])
def test_the_alignment_is_the_squared_cosine_in_the_null_s_own_coordinates(scheme, monkeypatch):
    """Against a plain numpy computation on the unit whitened rows: z the mean of A's
    members outside B less what a random list of their profile drawn outside B has, v B's
    mean less its profile's, C the profile's within-bin covariance; alignment (z.v)^2 /
    (z'C^-1 z v'Cv), p its Beta(1/2, (d-1)/2) tail, and Sidak with the overlap's. (The
    covariance of the members outside B always: not A's whole profile's where the two are
    close, as runs over many lists take it.)"""
    from learnability.analyses import entanglement_null

    monkeypatch.setattr(entanglement_null, "COVARIANCE_TV", 0.0)
    x, counts = embedding(5, n=1500, d=8)
    n = len(x)
    bins = frequency_bins(counts, 4) if scheme == "frequency_matched" else np.zeros(n, int)
    rng = np.random.default_rng(1)
    a = rng.choice(n, 30, replace=False)
    b = np.union1d(rng.choice(n, 40, replace=False), a[:4])  # 4 shared members
    lists = {"a": a, "b": b}
    got = pair_pvalues(x, lists, Whitening.of(x), None if scheme == "uniform" else bins)
    u = _unit(x)
    k = bins.max() + 1
    outside = np.setdiff1d(np.arange(n), b)
    own = np.setdiff1d(a, b)
    means = np.array([u[outside][bins[outside] == j].mean(0) for j in range(k)])
    all_means = np.array([u[bins == j].mean(0) for j in range(k)])
    cov = [np.cov(u[bins == j].T, bias=True) for j in range(k)]
    z = u[own].mean(0) - np.bincount(bins[own], minlength=k) @ means / own.size
    v = u[b].mean(0) - np.bincount(bins[b], minlength=k) @ all_means / b.size
    w = np.bincount(bins[own], minlength=k) / own.size
    c = sum(wj * cj for wj, cj in zip(w, cov, strict=True))
    want = (z @ v) ** 2 / ((z @ np.linalg.solve(c, z)) * (v @ c @ v))
    assert got.alignment[0, 1] == pytest.approx(want, rel=1e-6)
    p_dir = stats.beta(0.5, (x.shape[1] - 1) / 2).sf(want)
    assert got.p_direction[0, 1] == pytest.approx(p_dir, rel=1e-5)
    p_ov = got.p_overlap[0, 1]
    assert p_ov < 1  # the 4 shared members are tested
    assert got.p_value[0, 1] == pytest.approx(1 - (1 - min(p_ov, p_dir)) ** 2, rel=1e-9)
    assert np.isnan(got.p_value[0, 0]) and np.isnan(got.p_value[1, 1])


# --- calibration: lists random by construction ------------------------------------------


def _tail_check(p: np.ndarray, levels=(0.01, 1e-3, 1e-4)) -> None:
    """The share of p-values at each level is not above it beyond Monte Carlo error:
    count <= level x pairs + 4 SDs, each pair's mirror (B, A) counted as a second draw of
    the same alignment (so twice the binomial variance)."""
    for level in levels:
        expected = level * p.size
        count = int((p <= level).sum())
        assert count <= expected + 4 * np.sqrt(2 * expected) + 2, (level, count, expected)


@pytest.mark.parametrize("scheme", ["uniform", "frequency_matched"])
def test_random_lists_are_reported_at_the_nominal_level_after_adjustment(seed, scheme):
    """300 random lists of 5-120 words (89,700 ordered pairs, as in the issue's case) on
    a clustered (6,000 words),
    heavy-tailed embedding: the p-values are not too small at 0.01, 1e-3 and 1e-4 (within
    Monte Carlo error), and over 10 replicates of 60 lists the replicates in which Holm
    reports any pair at 0.05 number at most 3 (a binomial(10, 0.05) exceeds 3 with
    probability 0.001). The raw whitened mean (not unit rows) fails the first on the
    sample's GloVe (benchmarks/entanglement_null.py)."""
    x, counts = embedding(100 + seed, n=6000)
    bins = frequency_bins(counts, 10) if scheme == "frequency_matched" else None
    white = Whitening.of(x)
    rng = np.random.default_rng(seed)
    tests = pair_pvalues(x, random_lists(rng, len(x), 300, high=120), white, bins)
    p = tests.p_value[~np.eye(300, dtype=bool)]
    _tail_check(p)
    # not conservative to uselessness either: the direction's p-values (no Sidak factor)
    # are about uniform in the bulk
    d = tests.p_direction[np.isfinite(tests.p_direction)]
    assert 0.035 < (d <= 0.05).mean() < 0.065
    reported = 0
    for _ in range(10):
        small = pair_pvalues(x, random_lists(rng, len(x), 60), white, bins)
        q = adjust_pvalues(small.p_value[~np.eye(60, dtype=bool)], "holm")
        reported += bool((q <= 0.05).any())
    assert reported <= 3


def test_random_lists_on_real_vectors_are_not_reported():
    """gensim's Lee vectors (1,762 words, 10 dimensions, a real file): 100 random lists
    of 5 to 60 words, 9,900 pairs: the tail within Monte Carlo error, none after Holm or
    BH at 0.05 beyond what chance allows (at most 2 pairs: a pair and its mirror)."""
    from gensim.models import KeyedVectors

    x = KeyedVectors.load_word2vec_format(str(LEE_VEC)).vectors.astype(np.float64)
    rng = np.random.default_rng(0)
    tests = pair_pvalues(x, random_lists(rng, len(x), 100, high=60), Whitening.of(x))
    p = tests.p_value[~np.eye(100, dtype=bool)]
    _tail_check(p, levels=(0.05, 0.01, 1e-3))
    for method in ("holm", "bh"):
        assert (adjust_pvalues(p, method) <= 0.05).sum() <= 2


# --- power: planted shared directions and nested lists -----------------------------------


def test_planted_shared_directions_and_nested_lists_are_found(seed):
    """Among 10 lists on the heavy-tailed embedding (50 dimensions): a and b (30 words
    each, no shared member) shifted along one planted direction, c nested in d (12 of
    d's 40 words), the rest random. Erasing a takes b's AUC and the reverse; c and d
    share members. Holm over all 90 ordered pairs at 0.05 reports those four pairs
    (through the analysis' own table) and at most one more pair and its mirror among the
    random lists."""
    x, _ = embedding(200 + seed, n=3000, d=50)
    rng = np.random.default_rng(seed)
    n, d = x.shape
    pool = rng.permutation(n)
    direction = rng.standard_normal(d)
    direction /= np.linalg.norm(direction)
    a, b, dd = pool[:30], pool[30:60], pool[60:100]
    scale = x.std()
    x[a] += 1.5 * scale * direction
    x[b] += 1.5 * scale * direction
    lists = {"a": a, "b": b, "c": dd[:12], "d": dd}
    lists |= {f"r{i}": pool[100 + 30 * i : 130 + 30 * i] for i in range(6)}
    table = entanglement(x, lists, Protocol(iterations=4, C=1.0, seed=seed), embedding="e",
                         pairs="sharing", adjust="holm", alpha=0.05)  # fmt: skip
    found = {(r.list_a, r.list_b) for r in beyond_null(table).itertuples()}
    planted = {("a", "b"), ("b", "a"), ("c", "d"), ("d", "c")}
    assert planted <= found, table[table["list_a"].isin(["a", "b", "c", "d"])]
    assert len(found - planted) <= 2, found
    assert summary_line(table).startswith(f"{len(found)} of 90 ordered pairs tested")
    off = table[table["list_a"] != table["list_b"]]
    np.testing.assert_allclose(
        off["p_adjusted"].to_numpy(), adjust_pvalues(off["p_value"].to_numpy(), "holm")
    )
    assert not table.loc[table["list_a"] == table["list_b"], "entangled"].any()

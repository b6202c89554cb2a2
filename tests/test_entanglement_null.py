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
from threadpoolctl import threadpool_limits

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


def _unit(x: np.ndarray) -> tuple[np.ndarray, int]:
    """Whitened by numpy's covariance (eigh; eigenvalues below 1e-10 of the largest
    dropped, as a rank-deficient embedding needs), each row scaled to unit length; and
    the rank of the centred vectors by numpy's own SVD."""
    mean = x.mean(axis=0)
    values, vectors = np.linalg.eigh(np.cov(x.T, bias=True))
    keep = values > 1e-10 * values.max()
    z = (x - mean) @ (vectors[:, keep] / np.sqrt(values[keep])) @ vectors[:, keep].T
    return z / np.linalg.norm(z, axis=1, keepdims=True), np.linalg.matrix_rank(x - mean)


def _overlap_law(a: np.ndarray, b: np.ndarray, bins: np.ndarray) -> np.ndarray:
    """P(S >= s), s = 0, 1, ...: S the members a random list of A's profile shares with
    B, scipy's hypergeometric per bin convolved by numpy."""
    n = np.bincount(bins)
    pmf = np.ones(1)
    a_j, b_j = np.bincount(bins[a], minlength=n.size), np.bincount(bins[b], minlength=n.size)
    for j in range(n.size):
        law = stats.hypergeom(n[j], b_j[j], a_j[j])
        pmf = np.convolve(pmf, law.pmf(np.arange(min(a_j[j], b_j[j]) + 1)))
    return np.concatenate([[1.0], 1 - np.cumsum(pmf)[:-1]])


def _fpc(profile: np.ndarray, size: np.ndarray) -> np.ndarray:
    """Each bin's share of the covariance of a random list's mean, by the
    finite-population factor: profile_j (n_j - profile_j) / (n_j - 1), normalised."""
    w = profile * (size - profile) / (size - 1)
    return w / w.sum()


def reference(x: np.ndarray, lists: dict, bins: np.ndarray, tv: float | None = None) -> dict:
    """Every ordered pair's tests written from the module's claims in plain numpy/scipy:
    z the mean of A's members outside B less what a random list of their profile drawn
    outside B has; v B's unit mean less its profile's; the null covariance of z the bins'
    covariances weighted by A's members per bin times the finite-population factor
    (n_j - a_j) / (n_j - 1) (n_j the whole bin's rows: the module's choice, which keeps one
    factorisation per profile); along v, the variance of the rows outside B (where A's
    members come from); alignment (z.v)^2 / (z'C^+ z v'C_out v) with its Beta(1/2,
    (rank - 1)/2) tail; the overlap's tail; and the pair's p-value, the null probability
    that the smaller of the two is at most the observed one: 1 - (1 - F(t)) (1 - t), F(t)
    the largest overlap tail at most t. ``tv``: the covariance's and the spread's weights
    are A's whole profile's where they are within ``tv`` of its members outside B's in
    total variation (None: never)."""
    u, rank = _unit(x)
    n = len(x)
    k = bins.max() + 1
    size = np.bincount(bins, minlength=k)
    cov = [np.cov(u[bins == j].T, bias=True) for j in range(k)]
    means = np.array([u[bins == j].mean(0) for j in range(k)])
    names = list(lists)
    out = {key: np.full((len(names), len(names)), np.nan)
           for key in ("alignment", "p_overlap", "p_direction", "p_value")}  # fmt: skip
    for (i, a), (j, b) in itertools.permutations(enumerate(names), 2):
        ra, rb = lists[a], lists[b]
        tails = _overlap_law(ra, rb, bins)
        p_o = tails[np.intersect1d(ra, rb).size]
        own, outside = np.setdiff1d(ra, rb), np.setdiff1d(np.arange(n), rb)
        out["p_overlap"][i, j] = out["p_value"][i, j] = p_o
        if own.size < 2:
            continue
        prof = np.bincount(bins[own], minlength=k)
        out_means = np.array([u[outside][bins[outside] == c].mean(0) for c in range(k)])
        z = u[own].mean(0) - prof @ out_means / own.size
        v = u[rb].mean(0) - np.bincount(bins[rb], minlength=k) @ means / rb.size
        v /= np.linalg.norm(v)
        w = _fpc(prof, size)
        whole = _fpc(np.bincount(bins[ra], minlength=k), size)
        if tv is not None and np.abs(w - whole).sum() / 2 <= tv:
            w = whole
        c = sum(wc * cc for wc, cc in zip(w, cov, strict=True))
        vv = sum(w[c_] * (u[outside][bins[outside] == c_] @ v).var() for c_ in range(k))
        # a squared cosine, at most 1 (v's variance outside B can be below v'Cv by more
        # than z's share of it when A's members lie along v)
        zz = z @ np.linalg.pinv(c, rcond=1e-10, hermitian=True) @ z
        al = min((z @ v) ** 2 / (zz * vv), 1.0)
        p_d = stats.beta(0.5, (rank - 1) / 2).sf(al)
        t = min(p_o, p_d)
        f = tails[tails <= t].max(initial=0.0)
        out["alignment"][i, j], out["p_direction"][i, j] = al, p_d
        out["p_value"][i, j] = 1 - (1 - f) * (1 - t)
    return out


@pytest.mark.parametrize("scheme", ["uniform", "frequency_matched"])
@pytest.mark.parametrize("rank", ["full", "deficient"])
def test_every_pair_s_tests_are_those_written_from_the_claims(scheme, rank, monkeypatch):
    """Against :func:`reference` (plain numpy and scipy), on every ordered pair of five
    lists of a 1,500-word embedding: a and b share 4 members, c shares none with a or b
    and is shifted with a along one direction (its p_direction small, so its p-value is
    not Sidak's doubling), d is 3 of b's words (nested: the overlap alone), e shares none.
    Under ``deficient`` the 12 coordinates span 8 dimensions plus an offset, so a rank
    read from the wrong matrix (the coordinates, or the uncentred vectors) changes the
    Beta law. (The covariance of A's members outside B always: not A's whole profile's
    where the two are close, as runs over many lists take it.)"""
    from learnability.analyses import entanglement_null

    monkeypatch.setattr(entanglement_null, "COVARIANCE_TV", 0.0)
    x, counts = embedding(5, n=1500, d=8)
    rng = np.random.default_rng(1)
    n = len(x)
    bins = frequency_bins(counts, 4) if scheme == "frequency_matched" else np.zeros(n, int)
    pool = rng.permutation(n)
    a, c, e = pool[:30], pool[30:55], pool[55:75]
    b = np.union1d(pool[100:140], a[:4])  # 4 shared members
    x[np.concatenate([a, c])] += 0.5 * x.std(axis=0)
    if rank == "deficient":  # the shift first: inside the 8 dimensions spanned
        x = x @ rng.standard_normal((8, 12)) + 5.0
    lists = {"a": a, "b": b, "c": c, "d": b[:3], "e": e}
    got = pair_pvalues(x, lists, Whitening.of(x), None if scheme == "uniform" else bins)
    want = reference(x, lists, bins)
    for key in ("alignment", "p_direction", "p_overlap", "p_value"):
        np.testing.assert_allclose(getattr(got, key), want[key], rtol=1e-6, err_msg=key)
    p_ov, p_dir = got.p_overlap[0, 2], got.p_direction[0, 2]  # a, c: no shared member
    assert p_ov == 1 and p_dir < 0.01
    assert got.p_value[0, 2] < 1.5 * p_dir < 1 - (1 - p_dir) ** 2
    assert got.p_overlap[0, 1] < 1 and np.isnan(got.p_direction[3, 1])  # sharing; nested
    assert np.isnan(np.diag(got.p_value)).all()


def test_the_overlap_tails_are_the_hypergeometric_law():
    """The tails the combination reads, every B at once, against scipy's hypergeometric
    (one bin) and an enumeration of every list of a two-bin profile."""
    from scipy import special

    from learnability.analyses.entanglement_null import _attainable_below, _overlap_tails

    log_fact = special.gammaln(np.arange(9000) + 1.0)
    b_sizes = np.array([[0], [1], [30], [200], [150]])
    got = _overlap_tails(np.array([150]), b_sizes, np.array([8685]), log_fact, 12)
    for row, (marked,) in zip(got, b_sizes, strict=True):
        want = stats.hypergeom(8685, marked, 150).sf(np.arange(13) - 1)
        # log factorials near log(8685!) = 7e4 carry absolute errors of about 1e-11
        np.testing.assert_allclose(row, want, atol=3e-11, rtol=1e-9)
    b = np.array([0, 1, 2, 7, 8])
    overlaps = np.array([
        np.intersect1d(np.array(first + second), b).size
        for first in itertools.combinations(range(7), 3)
        for second in itertools.combinations(range(7, 12), 2)
    ])  # fmt: skip
    got = _overlap_tails(np.array([3, 2]), np.array([[3, 2]]), np.array([7, 5]), log_fact, 6)
    want = np.array([np.mean(overlaps >= s) for s in range(7)])
    np.testing.assert_allclose(got[0], want, atol=1e-12)
    # P(p_overlap <= t): the largest tail at most t, or t itself (a bound) where the
    # tails computed stop above it
    t = np.array([0.5, want[3], 1e-9])
    np.testing.assert_allclose(_attainable_below(np.repeat(got[:, :4], 3, axis=0), t),
                               [want[3], want[3], 1e-9], rtol=1e-12)  # fmt: skip


def test_the_pair_s_p_value_is_the_null_law_of_the_smaller_test(seed):
    """The combination, by simulation from its claim: under the null the overlap is
    hypergeometric (here two bins, A of 6 + 4 words, B of 25 + 15, in bins of 300 and 200
    rows: no member shared 43 % of the time) and the direction's p-value is uniform and
    independent of it; the pair's p-value must be the null distribution function of the
    smaller of the two at its observed value, so it must agree with the empirical one of
    100,000 draws everywhere. Tolerance: the Dvoretzky-Kiefer-Wolfowitz bound, 0.0064 at
    100,000 draws, exceeded with probability 1e-4 (Sidak's combination is off by 0.03 at
    t = 0.05). The share at p <= 0.05 is at most 0.05 and above Sidak's (0.035) beyond
    4 binomial SDs."""
    from scipy import special

    from learnability.analyses import entanglement_null as null

    rng = np.random.default_rng(seed)
    draws = 100_000
    size, a_counts, b_counts = np.array([300, 200]), np.array([6, 4]), np.array([25, 15])
    shared = stats.hypergeom(300, 25, 6).rvs(draws, random_state=rng) + stats.hypergeom(
        200, 15, 4).rvs(draws, random_state=rng)  # fmt: skip
    table = np.array([null._overlap_p(s, a_counts, b_counts, size) for s in range(11)])
    p_o, p_d = table[shared], rng.uniform(size=draws)
    log_fact = special.gammaln(np.arange(301) + 1.0)
    tails = null._overlap_tails(a_counts, b_counts[None], size, log_fact, 10)
    t = np.fmin(p_o, p_d)
    p = null._combine(p_o, p_d, null._attainable_below(np.repeat(tails, draws, axis=0), t))
    empirical = np.searchsorted(np.sort(t), t, side="right") / draws
    tolerance = np.sqrt(np.log(2 / 1e-4) / (2 * draws))
    assert np.abs(p - empirical).max() < tolerance
    # valid at 0.05, and far from Sidak's doubling (4 binomial SDs: the discreteness
    # of the overlap leaves the share a little below the level, 0.045 here)
    share, sidak = (p <= 0.05).mean(), (1 - (1 - t) ** 2 <= 0.05).mean()
    sd = np.sqrt(0.05 * 0.95 / draws)
    assert sidak + 4 * sd < share < 0.05 + 4 * sd, (share, sidak)


# --- calibration: lists random by construction ------------------------------------------


def _tail_check(p: np.ndarray, levels=(0.05, 0.01, 1e-3), exact=(0.05, 0.01)) -> None:
    """The share of p-values at each level is not above it beyond Monte Carlo error, and
    at the ``exact`` levels not below it either: within 4 SDs of level x pairs, each
    pair's mirror (B, A) counted as a second draw of about the same alignment (so twice
    the binomial variance). Deeper levels are too rare here for a bound tighter than 2x
    (1e-4: 9 pairs expected of 89,700, 4 SDs 17): benchmarks/entanglement_null_tail.py
    measures the tail to 1e-5."""
    for level in levels:
        expected = level * p.size
        sd = np.sqrt(2 * expected * (1 - level))
        count = int((p <= level).sum())
        assert count <= expected + 4 * sd, (level, count, expected)
        if level in exact:
            assert count >= expected - 4 * sd, (level, count, expected)


@pytest.mark.parametrize("scheme", ["uniform", "frequency_matched"])
def test_random_lists_are_reported_at_the_nominal_level_after_adjustment(seed, scheme):
    """200 random lists of 5-120 words (39,800 ordered pairs) on a clustered (6,000
    words), heavy-tailed embedding: the pair's p-values at 0.05 and 0.01 within Monte
    Carlo error of the level (neither Sidak's doubling, which put 3.4 % of pairs below
    0.05, nor too many), not above it at 1e-3; the direction's alone likewise; and over
    10 replicates of 60 lists the replicates in which Holm reports any pair at 0.05
    number at most 3 (a binomial(10, 0.05) exceeds 3 with probability 0.001). The raw
    whitened mean (not unit rows) fails the first on the sample's GloVe
    (benchmarks/entanglement_null.py)."""
    x, counts = embedding(100 + seed, n=6000)
    bins = frequency_bins(counts, 10) if scheme == "frequency_matched" else None
    white = Whitening.of(x)
    rng = np.random.default_rng(seed)
    with threadpool_limits(1):  # small factorisations: threads only contend
        tests = pair_pvalues(x, random_lists(rng, len(x), 200, high=120), white, bins)
        _tail_check(tests.p_value[~np.eye(200, dtype=bool)])
        _tail_check(tests.p_direction[np.isfinite(tests.p_direction)])
        reported = 0
        for _ in range(10):
            small = pair_pvalues(x, random_lists(rng, len(x), 60), white, bins)
            q = holm(small.p_value[~np.eye(60, dtype=bool)])
            reported += bool((q <= 0.05).any())
    assert reported <= 3


def test_random_lists_on_real_vectors_are_not_reported(seed):
    """gensim's Lee vectors (1,762 words, 10 dimensions, a real file): 100 random lists
    of 5 to 60 words, 9,900 pairs: the tail within Monte Carlo error, none after Holm or
    BH at 0.05 beyond what chance allows (at most 2 pairs: a pair and its mirror; the
    family-wise rate is 0.05 at most, so two separate reports in one draw are rarer than
    1 in 400)."""
    from gensim.models import KeyedVectors

    x = KeyedVectors.load_word2vec_format(str(LEE_VEC)).vectors.astype(np.float64)
    rng = np.random.default_rng(seed)
    tests = pair_pvalues(x, random_lists(rng, len(x), 100, high=60), Whitening.of(x))
    p = tests.p_value[~np.eye(100, dtype=bool)]
    _tail_check(p, levels=(0.05, 0.01, 1e-3))
    for method in ("holm", "bh"):
        assert (adjust_pvalues(p, method) <= 0.05).sum() <= 2


def holm(p: np.ndarray) -> np.ndarray:
    """Holm's step-down adjustment from its definition: the i-th smallest of m p-values
    times (m - i + 1), made non-decreasing in that order, at most 1."""
    order = np.argsort(p)
    stepped = np.minimum(np.maximum.accumulate(p[order] * (p.size - np.arange(p.size))), 1)
    out = np.empty_like(p)
    out[order] = stepped
    return out


def test_holm_is_the_hand_computed_step_down():
    """The reference the analysis' table is checked against, on a hand case: 0.01,
    0.04, 0.03, 0.005 -> 0.005 x 4 = 0.02, 0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1 ->
    0.06 (non-decreasing); and so the module's own adjustment."""
    p = np.array([0.01, 0.04, 0.03, 0.005])
    want = np.array([0.03, 0.06, 0.06, 0.02])
    np.testing.assert_allclose(holm(p), want)
    np.testing.assert_allclose(adjust_pvalues(p, "holm"), want)


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
    np.testing.assert_allclose(off["p_adjusted"].to_numpy(), holm(off["p_value"].to_numpy()),
                               rtol=1e-12)  # fmt: skip
    assert not table.loc[table["list_a"] == table["list_b"], "entangled"].any()


# --- boundaries and edges (make mutants' survivors) ---------------------------------------


def _tails_by_enumeration(sizes, a_counts, b_counts) -> np.ndarray:
    """P(S >= s), s = 0 ... sum(a_counts) + 1, by listing every list of ``a_counts`` words
    per bin of ``sizes`` rows and counting the members it shares with B, the first
    ``b_counts`` rows of each bin."""
    per_bin = [
        [sum(r < b for r in chosen) for chosen in itertools.combinations(range(size), a)]
        for size, a, b in zip(sizes, a_counts, b_counts, strict=True)
    ]
    shares = np.array([sum(p) for p in itertools.product(*per_bin)])
    return np.array([np.mean(shares >= s) for s in range(sum(a_counts) + 2)])


def test_lists_that_must_share_have_the_hypergeometric_law():
    """Where A takes more of a bin than B leaves out (it must share), exactly what B leaves
    out, all of a bin, and s = 0: the overlap's p-value (each s) and its tails (several B
    at once, past the support) against scipy's hypergeometric (one bin) and an
    enumeration of every list (two bins). A p-value is at most 1 also where the pmf's
    rounding sums to 1 + 2e-16 (5 rows, B 3 of them, A 4: at least 2 shared)."""
    from scipy import special

    from learnability.analyses.entanglement_null import _overlap_tails

    log_fact = special.gammaln(np.arange(100) + 1.0)
    cases = [(10, 7, 5), (50, 45, 10), (3, 3, 3), (10, 5, 5), (10, 5, 6), (5, 3, 4), (1, 1, 1)]
    for total, marked, draws in cases:
        law = stats.hypergeom(total, marked, draws)
        for shared in range(min(marked, draws) + 2):
            got = _overlap_p(shared, np.array([draws]), np.array([marked]), np.array([total]))
            assert 0.0 <= got <= 1.0, (total, marked, draws, shared, got)
            assert got == pytest.approx(law.sf(shared - 1), rel=1e-9, abs=1e-15), (
                total, marked, draws, shared)  # fmt: skip
        b_rows = np.arange(total + 1)[:, None]  # every B size at once
        got = _overlap_tails(np.array([draws]), b_rows, np.array([total]), log_fact, draws + 2)
        for row, (b,) in zip(got, b_rows, strict=True):
            want = stats.hypergeom(total, b, draws).sf(np.arange(draws + 3) - 1)
            np.testing.assert_allclose(row, want, rtol=1e-9, atol=1e-13, err_msg=str((total, b)))
    sizes, a_counts = (6, 5), (4, 3)
    b_rows = np.array([[6, 5], [3, 0], [2, 4], [5, 3], [0, 0], [1, 5], [6, 0]])
    got = _overlap_tails(np.array(a_counts), b_rows, np.array(sizes), log_fact, 8)
    for row, b in zip(got, b_rows, strict=True):
        want = _tails_by_enumeration(sizes, a_counts, b)
        np.testing.assert_allclose(row, want, atol=1e-12, err_msg=str(b))
        for shared in range(9):
            p = _overlap_p(shared, np.array(a_counts), b, np.array(sizes))
            assert p == pytest.approx(want[shared], abs=1e-12), (b, shared)


def test_the_bins_weights_are_the_finite_population_factors_by_hand():
    """profile_j (n_j - profile_j) / (n_j - 1), normalised: a bin of 2 rows drawn once
    weighs 1 x 1 / 1 = 1 against 2 x 8 / 9 = 16/9 for 2 of 10; a bin drawn whole weighs
    nothing; one row of 5 (1 x 4 / 4) with a bin drawn whole is all the weight; where
    no bin varies (each drawn whole or not at all), the profile's shares."""
    from learnability.analyses.entanglement_null import _fpc_weights

    cases = [
        ([1, 2], [2, 10], [9 / 25, 16 / 25]),
        ([3, 2], [3, 10], [0, 1]),
        ([1, 3], [5, 3], [1, 0]),
        ([3, 0], [3, 5], [1, 0]),
        ([1, 0], [1, 5], [1, 0]),
        ([2, 1], [2, 1], [2 / 3, 1 / 3]),
    ]
    for profile, n, want in cases:
        got = _fpc_weights(np.array(profile), np.array(n, dtype=float))
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15, err_msg=str(profile))


def test_p_overlap_at_or_below_t_is_zero_where_no_tail_is():
    """Where the overlap's p-value takes only the values 1 and 0.25 (at most one member can
    be shared: the tails 1, 0.25, 0, 0), P(p_overlap <= 0.1) is 0, so the pair's p-value is
    t itself (not Sidak's 1 - (1 - t)^2); at t = 0.3 it is 0.25, at t = 0.25 too."""
    from learnability.analyses.entanglement_null import _attainable_below, _combine

    tails = np.array([[1.0, 0.25, 0.0, 0.0]] * 3)
    t = np.array([0.1, 0.3, 0.25])
    below = _attainable_below(tails, t)
    np.testing.assert_array_equal(below, [0.0, 0.25, 0.25])
    p = _combine(np.ones(3), t, below)
    np.testing.assert_allclose(p, [0.1, 1 - 0.75 * 0.7, 1 - 0.75 * 0.75], rtol=1e-12)


def test_the_bins_moments_are_numpy_s_across_blocks():
    """65,836 rows (two blocks of the sums: 65,536 a block), three bins, the first two with
    rows in both blocks and the third a single row: the counts by hand, and each bin's
    unit whitened rows' mean and covariance against numpy's (eigh whitening, np.cov)."""
    from learnability.analyses.entanglement_null import bin_moments

    rng = np.random.default_rng(3)
    n, d = 65_536 + 300, 3
    x = rng.standard_normal((n, d)) @ rng.standard_normal((d, d)) + 2.0
    bins = np.where(np.arange(n) % 3 == 0, 0, 1)
    bins[65_600] = 2
    got = bin_moments(x, Whitening.of(x), bins)
    assert got.counts.tolist() == [21_946, 43_889, 1] and got.rank == d
    u, _ = _unit(x)
    for j in range(3):
        np.testing.assert_allclose(got.means[j], u[bins == j].mean(axis=0), atol=1e-9)
        want = np.cov(u[bins == j].T, bias=True).reshape(d, d)
        np.testing.assert_allclose(got.covariances[j], want, atol=1e-9)


def test_a_row_at_the_mean_stays_a_zero_row():
    """A row equal to the rows' mean (exactly: the rows are symmetric about 0) whitens to
    zero and stays zero, not NaN: its bin's mean is the other rows' sum over 3."""
    from learnability.analyses.entanglement_null import bin_moments, unit_rows

    x = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 2.0], [0.0, -2.0], [0.0, 0.0]])
    white = Whitening.of(x)
    u = unit_rows(x, np.arange(5), white)
    np.testing.assert_array_equal(u[4], [0.0, 0.0])
    np.testing.assert_allclose(u[:4], [[1, 0], [-1, 0], [0, 1], [0, -1]], atol=1e-12)
    moments = bin_moments(x, white, np.array([0, 0, 1, 1, 1]))
    np.testing.assert_allclose(moments.means, [[0, 0], [0, 0]], atol=1e-12)
    np.testing.assert_allclose(moments.covariances[1], [[0, 0], [0, 2 / 3]], atol=1e-12)


def test_the_direction_is_tested_from_two_members_outside_b():
    """Against :func:`reference` (uniform words): A with exactly 2 members outside B has a
    direction test (sharing 5 members, and sharing none), with 1 the overlap alone
    (p_value = p_overlap); a list sharing exactly one member; and an empty list (first),
    whose every pair has p-value 1 and no direction, the others' tests unchanged."""
    x, _ = embedding(5, n=1500, d=8)
    rng = np.random.default_rng(2)
    pool = rng.permutation(len(x))
    b = pool[:40]
    # "cancel": two rows about as far on either side of the centre, so that A's sum is
    # nearly the expected one: a small but positive length, still a direction
    x[pool[501]] = 2 * x.mean(axis=0) - x[pool[500]] + 1e-3 * x.std(axis=0)
    lists = {"b": b, "two": np.concatenate([b[:5], pool[100:102]]),
             "one": np.concatenate([b[:5], pool[102:103]]),
             "shares_one": np.concatenate([b[:1], pool[200:230]]), "c": pool[300:330],
             "pair": pool[400:402], "cancel": pool[500:502]}  # fmt: skip
    got = pair_pvalues(x, {"empty": np.array([], dtype=np.int64)} | lists, Whitening.of(x))
    want = reference(x, lists, np.zeros(len(x), dtype=np.int64))
    for key in ("alignment", "p_direction", "p_overlap", "p_value"):
        # (the reference's overlap tails are 1 - a cumulative sum: absolute errors 1e-16)
        np.testing.assert_allclose(getattr(got, key)[1:, 1:], want[key], rtol=1e-6, atol=1e-14,
                                   err_msg=key)  # fmt: skip
    p_dir = got.p_direction[1:, 1:]  # in the order of lists
    assert np.isfinite(p_dir[1, 0]) and np.isnan(p_dir[2, 0])
    assert got.p_value[3, 1] == got.p_overlap[3, 1] < 1
    assert np.isfinite(p_dir[3, 0]) and got.p_overlap[4, 1] < 1
    assert np.isfinite(p_dir[5, [0, 4]]).all() and (got.p_overlap[6, 1:6] == 1).all()
    assert np.isfinite(p_dir[6, [0, 4]]).all() and np.isfinite(got.alignment[7, 1:7]).all()
    assert (got.p_value[0, 1:] == 1).all() and (got.p_value[1:, 0] == 1).all()
    assert np.isnan(got.p_direction[0]).all() and np.isnan(got.p_direction[:, 0]).all()


def test_a_bin_with_one_row_outside_b():
    """Frequency-matched bins (443, 309, 375, 373 rows): B takes all but one row of the
    second bin and A that row, 10 words of the first bin and 3 of B's: every pair
    against :func:`reference` (the rows outside B in that bin: one, its mean that row)."""
    x, counts = embedding(5, n=1500, d=8)
    bins = frequency_bins(counts, 4)
    rng = np.random.default_rng(6)
    first, second = (rng.permutation(np.flatnonzero(bins == j)) for j in (0, 1))
    b = np.concatenate([second[1:], first[:20]])
    lists = {"a": np.concatenate([second[:1], first[20:30], b[:3]]), "b": b,
             "c": first[40:60]}  # fmt: skip
    got = pair_pvalues(x, lists, Whitening.of(x), bins)
    want = reference(x, lists, bins, tv=0.1)
    for key in ("alignment", "p_direction", "p_overlap", "p_value"):
        np.testing.assert_allclose(getattr(got, key), want[key], rtol=1e-6, atol=1e-14,
                                   err_msg=key)  # fmt: skip
    assert np.isfinite(got.alignment[0, 1])


def test_the_whole_profile_s_covariance_is_taken_within_0_1_in_total_variation():
    """Frequency-matched bins (443 and 309 rows first): A has 20 words of each; B6 shares
    6 of A's first-bin words, B7 7: the weights of A's members outside B are 0.085 and
    0.102 from A's whole profile's in total variation (by hand), one on each side of 0.1;
    every pair against :func:`reference` taking A's whole profile's weights within 0.1,
    and the two choices differ at both pairs (so either side taken wrongly fails)."""
    x, counts = embedding(5, n=1500, d=8)
    bins = frequency_bins(counts, 4)
    size = np.bincount(bins)
    rng = np.random.default_rng(4)
    first, second = (rng.permutation(np.flatnonzero(bins == j)) for j in (0, 1))
    a = np.concatenate([first[:20], second[:20]])
    rest = rng.permutation(np.setdiff1d(np.arange(len(x)), a))
    lists = {"a": a, "b6": np.concatenate([first[:6], rest[:30]]),
             "b7": np.concatenate([first[:7], rest[30:60]])}  # fmt: skip
    whole = _fpc(np.array([20, 20, 0, 0]), size)
    tvs = [np.abs(_fpc(np.array([20 - s, 20, 0, 0]), size) - whole).sum() / 2 for s in (6, 7)]
    assert 0.08 < tvs[0] < 0.1 < tvs[1] < 0.11, tvs
    got = pair_pvalues(x, lists, Whitening.of(x), bins)
    want = reference(x, lists, bins, tv=0.1)
    for key in ("alignment", "p_direction", "p_value"):
        np.testing.assert_allclose(getattr(got, key), want[key], rtol=1e-6, err_msg=key)
    own, taken = reference(x, lists, bins)["alignment"], reference(x, lists, bins, tv=1.0)
    for j in (1, 2):
        assert abs(own[0, j] / taken["alignment"][0, j] - 1) > 1e-3


def test_a_pair_at_exactly_0_1_in_total_variation_takes_the_whole_profile():
    """Two bins of 10 rows; A has 4 and 2 of them, B shares 2 of A's first: the weights are
    (4 x 6, 2 x 8) / 9 -> 0.6, 0.4 for A's whole profile and 0.5, 0.5 for its members
    outside B (by hand), 0.1 apart in total variation, exactly so in floating point too:
    at the boundary A's whole profile's covariance is taken (against :func:`reference`),
    and the other choice would give another alignment."""
    x = np.random.default_rng(4).standard_normal((20, 3))
    bins = np.repeat([0, 1], 10)
    lists = {"a": np.array([0, 1, 2, 3, 10, 11]), "b": np.array([2, 3, 4, 5, 6, 12, 13, 14])}
    whole, own = _fpc(np.array([4, 2]), np.array([10, 10])), _fpc(np.array([2, 2]), 10)
    np.testing.assert_allclose([whole, own], [[0.6, 0.4], [0.5, 0.5]], rtol=1e-15)
    assert np.abs(own - whole).sum() / 2 == 0.1
    got = pair_pvalues(x, lists, Whitening.of(x), bins)
    want = reference(x, lists, bins, tv=0.1)
    for key in ("alignment", "p_direction", "p_value"):
        np.testing.assert_allclose(getattr(got, key), want[key], rtol=1e-6, err_msg=key)
    other = reference(x, lists, bins)["alignment"][0, 1]
    assert abs(other / got.alignment[0, 1] - 1) > 1e-3


@pytest.mark.parametrize(("n", "exact"), [(277, True), (276, False)])
def test_the_overlap_s_tails_are_computed_to_depth_256(n, exact):
    """Two bins: A takes 266 of the first's n rows and 10 of the second's 100, B 266 of
    the first's: they must share 2 x 266 - n members. n = 277: at least 255, and the
    pair's p-value needs P(S >= 256) (scipy's hypergeometric), the deepest tail computed:
    1 - (1 - P(S >= 256)) (1 - t). n = 276: at least 256, it would need P(S >= 257), past
    the depth: the bound, Sidak's 1 - (1 - t)^2. (t is p_direction, between that tail and
    1 here: the overlap's p-value is 1.)"""
    x = np.random.default_rng(0).standard_normal((n + 100, 5))
    bins = np.repeat([0, 1], [n, 100])
    a, b = np.concatenate([np.arange(266), np.arange(n, n + 10)]), np.arange(n - 266, n)
    got = pair_pvalues(x, {"a": a, "b": b}, Whitening.of(x), bins)
    tail = stats.hypergeom(n, 266, 266).sf(2 * 266 - n)  # P(S >= the least + 1)
    t = got.p_direction[0, 1]
    assert got.p_overlap[0, 1] == 1 and tail <= t < 1, (tail, t)
    sidak, law = 1 - (1 - t) ** 2, 1 - (1 - tail) * (1 - t)
    assert got.p_value[0, 1] == pytest.approx(law if exact else sidak, rel=1e-9)
    assert abs(sidak - law) > 0.01


def test_lists_sharing_a_hundred_members_by_chance():
    """Six lists of 200 of 400 words (uniform): a pair shares about 100 members by chance
    (SD 5), so its overlap's tails are needed over 100 deep; every pair against
    :func:`reference`, and one pair's t (2e-4) is below P(S >= 111), so its F(t) is a
    tail more than 2 SDs above the mean (its p-value the null law, not Sidak's bound)."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal((400, 5))
    lists = {name: rng.choice(400, 200, replace=False) for name in "abcdef"}
    got = pair_pvalues(x, lists, Whitening.of(x))
    want = reference(x, lists, np.zeros(400, dtype=np.int64))
    for key in ("alignment", "p_direction", "p_overlap", "p_value"):
        np.testing.assert_allclose(getattr(got, key), want[key], rtol=1e-6, err_msg=key)
    t = np.fmin(got.p_overlap, got.p_direction)
    assert (got.p_direction < got.p_overlap)[t < stats.hypergeom(400, 200, 200).sf(110)].any()
    assert (got.p_value < 1 - (1 - t) ** 2 - 1e-3).any()


def test_a_one_row_bin_both_lists_hold_is_a_certain_shared_member():
    """240 frequency bins of one row each, held by both A and B, and a bin of 400 rows,
    20 of them A's and 20 others B's: S = 240 + a hypergeometric(400, 20, 20), its mean
    241 (each one-row bin contributes 1 x 1 / 1), so its tails are needed to 256 (the
    depth's cap); the pair's p-value at t = p_direction (0.55, between P(S >= 242) =
    0.26 and P(S >= 241) = 0.65) is the null law with F(t) = P(S >= 242), by scipy, not
    Sidak's bound."""
    rng = np.random.default_rng(8)
    x = rng.standard_normal((640, 5))
    bins = np.concatenate([np.arange(240), np.full(400, 240)])
    a, b = (np.concatenate([np.arange(240), start + np.arange(20)]) for start in (240, 260))
    got = pair_pvalues(x, {"a": a, "b": b}, Whitening.of(x), bins)
    tail = stats.hypergeom(400, 20, 20).sf([0, 1])  # P(S >= 241), P(S >= 242)
    t = got.p_direction[0, 1]
    assert got.p_overlap[0, 1] == pytest.approx(1, abs=1e-9) and tail[1] <= t < tail[0], t
    assert got.p_value[0, 1] == pytest.approx(1 - (1 - tail[1]) * (1 - t), rel=1e-9)
    assert got.p_value[0, 1] < 1 - (1 - t) ** 2 - 0.01


def test_the_ridge_is_far_below_the_spread_in_300_dimensions():
    """1,500 words in 300 dimensions (a frequency-matched profile of 4 bins): the
    alignments against :func:`reference` (numpy's pseudo-inverse, no ridge) to 1e-7, the
    ridge scaled to C's mean variance, not to the dimension (which moved them by 1e-5)."""
    x, counts = embedding(9, n=1500, d=300)
    bins = frequency_bins(counts, 4)
    pool = np.random.default_rng(0).permutation(len(x))
    lists = {"a": pool[:40], "b": np.concatenate([pool[:3], pool[40:100]]), "c": pool[100:130]}
    got = pair_pvalues(x, lists, Whitening.of(x), bins)
    want = reference(x, lists, bins, tv=0.1)
    np.testing.assert_allclose(got.alignment, want["alignment"], rtol=1e-7)


def test_an_alignment_is_at_most_1():
    """Two bins of 10 rows, A 4 + 2 of them, B sharing 2: the spread along B's direction of
    the few rows outside B is below z's share of it, so (z.v)^2 / (z'C^-1 z v'Cv) passes 1;
    the alignment is a squared cosine, 1 at most (its Beta tail 0), as the reference."""
    x = np.random.default_rng(0).standard_normal((20, 3))
    bins = np.repeat([0, 1], 10)
    lists = {"a": np.array([0, 1, 2, 3, 10, 11]), "b": np.array([2, 3, 4, 5, 6, 12, 13, 14])}
    got = pair_pvalues(x, lists, Whitening.of(x), bins)
    want = reference(x, lists, bins, tv=0.1)
    assert got.alignment[0, 1] == want["alignment"][0, 1] == 1.0
    assert got.p_direction[0, 1] == 0.0 and np.nanmax(got.alignment) <= 1.0


def test_the_results_are_frozen():
    """The tests of every pair and the bins' moments cannot be reassigned."""
    import dataclasses

    from learnability.analyses.entanglement_null import bin_moments

    x = np.random.default_rng(0).standard_normal((50, 3))
    white = Whitening.of(x)
    tests = pair_pvalues(x, {"a": np.arange(5), "b": np.arange(3, 9)}, white)
    with pytest.raises(dataclasses.FrozenInstanceError):
        tests.p_value = tests.p_overlap
    moments = bin_moments(x, white, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        moments.rank = 1

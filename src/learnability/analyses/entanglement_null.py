"""Entanglement against its own null: is erasing list A worse for list B than erasing a
random list of A's size (and, under frequency-matched non-members, A's frequency
profile)?

Erasing A (LEACE) removes one direction in whitened space, A's mean displacement u_A;
what it takes from B is what B's signal has along u_A. A random list's displacement is
the mean of m random whitened rows, about N(0, C / m) with C their covariance (the
identity for uniform words, whose whitened covariance is the identity by construction;
the profile's within-bin covariance for a frequency profile, whose mean is then
subtracted). So the statistic is the *alignment* of A's direction with B's, taken in the
coordinates where a random list's direction is uniform on the sphere:

    alignment = (z . v)^2 / ((z' C^-1 z) (v' C v))

with z A's displacement from what a random list of its profile is expected to have and
v B's whitened direction (its mean against the vocabulary's, or against its own profile's
expectation), C the bins' covariances weighted by the list's words per bin and each
bin's finite-population factor. For a uniform direction the squared cosine with a fixed
unit vector is Beta(1/2, (r - 1)/2), r the whitening's rank: a tail at every depth,
which an empirical null of a few hundred erasures could not give (Holm over 90,000 pairs
needs p < 6e-7). It is exact only where A's displacement is Gaussian; the mean of a few
unit rows is not, and on the sample's word2vec 5- to 20-word lists fall below 1e-4 about
1.4 times as often as the law says (benchmarks/entanglement_null_tail.py;
docs/explanation/analyses.md has the table). The squared cosine normalises itself:
rows with large whitened norms (rare words) dominate a small list's direction and its
length alike.

Shared members are the other way A can take B: a random list shares members with B by
chance (hypergeometric, per frequency bin under a profile), and a shared row of large
norm would put A's direction on B's. So the two are tested apart: ``p_overlap``, the
chance that a random list shares at least as many members with B, and ``p_direction``,
the alignment of A's members outside B with B's direction, against the rows outside B:
their means shift by B's removal, and their spread along B's direction is smaller (B's
own rows lie far along it), so v'Cv is taken over them. Under the null the two are
independent (the rest of a random list is a random list of the rows outside B), so the
pair's p-value is the null probability that the smaller of the two is at most its
observed value t, 1 - (1 - F(t)) (1 - t), F(t) the largest value at most t that the
overlap's p-value takes (see :func:`_combine`; Sidak's 1 - (1 - t)^2 would double the
direction's p-value of every pair that shares no member); or p_overlap alone where A has
fewer than :data:`MIN_OWN` members outside B (a list nested in B).

No fits: the statistic needs each list's whitened sum and, under a profile, each
frequency bin's whitened mean and covariance (one pass over the vocabulary), so every
ordered pair gets a p-value, whichever pairs have their share measured.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from scipy import linalg, sparse, special, stats

from learnability.analyses.leace import Whitening, blocks

# A's members outside B below which its direction is not tested (the overlap is)
MIN_OWN = 2
# the total variation between the frequency profile of A's members outside B and A's
# whole profile up to which the null's covariance is taken from A's whole profile
COVARIANCE_TV = 0.1
# the deepest overlap whose tail the combination computes: beyond it (lists expected to
# share hundreds of members) the pair's p-value takes the bound P(p_overlap <= t) <= t,
# Sidak's (valid, conservative), as the convolution's cost grows with its square
MAX_DEPTH = 256


@dataclass(frozen=True)
class BinMoments:
    """Per frequency bin (one bin for uniform words): its row count and its unit whitened
    rows' mean and covariance."""

    counts: np.ndarray
    means: np.ndarray
    covariances: np.ndarray
    rank: int


@dataclass(frozen=True)
class PairTests:
    """The tests of every ordered pair: arrays indexed [A, B] in the order of ``names``."""

    names: list[str]
    alignment: np.ndarray
    p_overlap: np.ndarray
    p_direction: np.ndarray
    p_value: np.ndarray


def whitening_rank(white: Whitening) -> int:
    """The rank of the whitened space: the trace of the projector Sigma^-1/2 Sigma^1/2."""
    return int(round(float(np.trace(white.inverse_root @ white.root))))


def unit_rows(x: np.ndarray, rows, white: Whitening) -> np.ndarray:
    """``x[rows]`` whitened and scaled to unit length (a zero row stays zero)."""
    z = (np.asarray(x[rows], dtype=np.float64) - white.mean) @ white.inverse_root
    norm = np.linalg.norm(z, axis=1, keepdims=True)
    return np.divide(z, norm, out=np.zeros_like(z), where=norm > 0)


def bin_moments(x: np.ndarray, white: Whitening, bins: np.ndarray | None) -> BinMoments:
    """The mean and covariance of the unit whitened rows of every frequency bin (one bin,
    the whole vocabulary, for uniform words), block by block (no whole-matrix copy)."""
    n, d = x.shape
    rank = whitening_rank(white)
    bins = np.zeros(n, dtype=np.int64) if bins is None else np.asarray(bins)
    counts = np.bincount(bins)
    k = counts.size
    sums, cross = np.zeros((k, d)), np.zeros((k, d, d))
    for rows in blocks(n):
        z = unit_rows(x, rows, white)
        b = bins[rows]
        for j in np.unique(b):
            zb = z[b == j]
            sums[j] += zb.sum(axis=0)
            cross[j] += zb.T @ zb
    safe = np.maximum(counts, 1)[:, None]
    means = sums / safe
    covariances = cross / safe[:, :, None] - means[:, :, None] * means[:, None, :]
    return BinMoments(counts, means, covariances, rank)


def _unit_sum(x: np.ndarray, rows: np.ndarray, white: Whitening) -> np.ndarray:
    """The sum of ``rows``' unit whitened vectors."""
    return unit_rows(x, np.sort(rows), white).sum(axis=0)


def _hypergeom_pmf(total: int, marked: int, draws: int, log_fact: np.ndarray) -> np.ndarray:
    """P(X = 0, 1, ..., min(marked, draws)) for X the marked rows among ``draws`` drawn
    without replacement from ``total``, from a table of log factorials (scipy's frozen
    distribution costs a millisecond a call, and 300 lists ask for 100,000)."""
    x = np.arange(0, min(marked, draws) + 1)
    rest = draws - x
    ok = rest <= total - marked
    x, rest = x[ok], rest[ok]
    log = (log_fact[marked] - log_fact[x] - log_fact[marked - x]
           + log_fact[total - marked] - log_fact[rest] - log_fact[total - marked - rest]
           - log_fact[total] + log_fact[draws] + log_fact[total - draws])  # fmt: skip
    pmf = np.zeros(min(marked, draws) + 1)
    pmf[ok] = np.exp(log)
    return pmf


def _overlap_p(
    shared: int,
    a_counts: np.ndarray,
    b_counts: np.ndarray,
    n: np.ndarray,
    log_fact: np.ndarray | None = None,
) -> float:
    """P(a random list with A's words per bin shares >= ``shared`` members with B):
    one hypergeometric per bin, convolved. ``log_fact``: log k! for k up to the largest
    bin, if already computed."""
    if shared == 0:
        return 1.0
    if log_fact is None:
        log_fact = special.gammaln(np.arange(int(n.max()) + 1) + 1.0)
    if shared == 1:  # 1 - P(none shared in any bin): no convolution
        n, k, draws = (np.asarray(v, dtype=np.int64) for v in (n, b_counts, a_counts))
        ok = draws <= n - k
        if not ok.all():
            return 1.0  # some bin must share: every random list shares a member
        log_none = (log_fact[n - k] - log_fact[n - k - draws]
                    - log_fact[n] + log_fact[n - draws]).sum()  # fmt: skip
        return float(-np.expm1(log_none))
    pmf = np.ones(1)
    for j in np.flatnonzero(b_counts):  # a bin without B's rows shares none
        pmf = np.convolve(
            pmf, _hypergeom_pmf(int(n[j]), int(b_counts[j]), int(a_counts[j]), log_fact)
        )
    return float(min(1.0, max(pmf[shared:].sum(), 0.0)))


def _fpc_weights(profile: np.ndarray, n: np.ndarray) -> np.ndarray:
    """The weights of the bins' covariances in the covariance of a random list's mean,
    for a list with ``profile`` words per bin drawn without replacement from bins of ``n``
    rows: ``profile_j (n_j - profile_j) / (n_j - 1)``, normalised (a bin drawn nearly whole
    varies less than its share of the list; with one bin it is a scale, which the
    alignment does not see); where no bin varies (each drawn whole or not at all), the
    profile's shares."""
    profile = np.asarray(profile, dtype=float)
    w = profile * np.clip(n - profile, 0.0, None) / np.maximum(n - 1.0, 1.0)
    total = w.sum()
    return w / total if total > 0 else profile / max(profile.sum(), 1.0)


def _overlap_tails(
    a_counts: np.ndarray, b_counts: np.ndarray, n: np.ndarray, log_fact: np.ndarray, depth: int
) -> np.ndarray:
    """P(S >= s) for s = 0 ... ``depth`` (columns), S the members a random list with
    ``a_counts`` words per bin shares with each B (rows of ``b_counts``): the per-bin
    hypergeometric pmfs up to ``depth``, convolved and truncated (exact for s <= depth).
    The tails are 1 - the cumulative pmf: their absolute error is rounding's (1.8e-15 on
    a 50-row bin against scipy's hypergeom; tests/test_entanglement_null.py holds 1e-13)."""
    b = np.asarray(b_counts, dtype=np.int64)[:, :, None]
    out = np.zeros((b.shape[0], depth + 1))
    out[:, 0] = 1.0
    x = np.arange(out.shape[1])[None, None, :]
    a = np.asarray(a_counts, dtype=np.int64)[None, :, None]
    total = np.asarray(n, dtype=np.int64)[None, :, None]
    ok = (x <= np.minimum(a, b)) & (a - x <= total - b)

    def lf(i):
        return log_fact[np.clip(i, 0, log_fact.size - 1)]

    log = (lf(b) - lf(x) - lf(b - x) + lf(total - b) - lf(a - x) - lf(total - b - a + x)
           - lf(total) + lf(a) + lf(total - a))  # fmt: skip
    pmf = np.exp(log, out=np.zeros_like(log), where=ok)
    for j in np.flatnonzero(a_counts):
        top = int(min(a_counts[j], np.asarray(b_counts)[:, j].max(), depth))
        conv = out * pmf[:, j, :1]
        for s in range(1, top + 1):
            conv[:, s:] += out[:, : depth + 1 - s] * pmf[:, j, s : s + 1]
        out = conv
    tails = np.ones_like(out)
    tails[:, 1:] = 1.0 - np.cumsum(out, axis=1)[:, :-1]
    return np.maximum(tails, 0.0)  # at most 1: the pmf is not negative


def _attainable_below(tails: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Per row, P(p_overlap <= t): the largest overlap tail at most ``t`` (an overlap
    p-value takes only the values of its tails, each with exactly that probability), or
    ``t`` itself, an upper bound, where every tail computed exceeds it (the depth ran out)."""
    attained = tails <= t[:, None]
    return np.where(attained.any(axis=1), np.where(attained, tails, 0.0).max(axis=1), t)


def _combine(p_overlap: np.ndarray, p_direction: np.ndarray, below: np.ndarray) -> np.ndarray:
    """The pair's p-value from its two independent tests: the null probability that the
    smaller of the two is at most the observed smaller t, 1 - (1 - P(p_overlap <= t))
    (1 - t), with ``below`` = P(p_overlap <= t). A uniform p_overlap gives Sidak's
    1 - (1 - t)^2; a pair that can share no member, or whose sharing is too likely to be
    significant at t, gets about t (Sidak would double it)."""
    t = np.fmin(p_overlap, p_direction)
    return -np.expm1(np.log1p(-np.minimum(below, t)) + np.log1p(-t))


class _Solver:
    """z' C^-1 z for C = sum_b w_b Cov_b (the weights of :func:`_fpc_weights`, summing to
    1), with the Cholesky factors of the last :data:`KEPT` weights kept (a cache of every
    pair's would hold two d x d matrices a pair)."""

    KEPT = 4

    def __init__(self, moments: BinMoments):
        self.m = moments
        self.kept: dict[bytes, tuple] = {}

    def form(self, weights: np.ndarray, z: np.ndarray) -> np.ndarray:
        """z' C^-1 z per row of z (2-D), C the weights' covariance."""
        key = weights.tobytes()  # one bin (uniform words): always the same C
        if key not in self.kept:
            c = np.tensordot(weights, self.m.covariances, axes=1)
            # a ridge far below the spread: whitened vectors lie in C's range, so it
            # changes nothing there and keeps a rank-deficient C factorisable
            ridge = 1e-10 * max(np.trace(c) / len(c), 1e-300)
            if len(self.kept) >= self.KEPT:
                self.kept.pop(next(iter(self.kept)))
            self.kept[key] = linalg.cho_factor(c + ridge * np.eye(len(c)))
        inv = linalg.cho_solve(self.kept[key], z.T).T
        return (z * inv).sum(axis=1)


def pair_pvalues(
    x: np.ndarray,
    members: Mapping[str, np.ndarray],
    white: Whitening,
    bins: np.ndarray | None = None,
) -> PairTests:
    """Every ordered pair (A, B): ``alignment``, ``p_overlap``, ``p_direction`` (NaN where
    A has fewer than :data:`MIN_OWN` members outside B) and ``p_value`` (see the module;
    NaN on the diagonal). ``members``: list name -> distinct row indices; ``bins``: each row's
    frequency bin under frequency-matched non-members (None: uniform words)."""
    n, d = x.shape
    moments = bin_moments(x, white, bins)
    row_bins = np.zeros(n, dtype=np.int64) if bins is None else np.asarray(bins)
    k = moments.counts.size
    names = list(members)
    rows = {name: np.unique(np.asarray(members[name], dtype=np.int64)) for name in names}
    counts = {name: np.bincount(row_bins[r], minlength=k) for name, r in rows.items()}
    # each list's unit rows (read once), summed per bin: the means of the rows outside
    # it, and over the bins its sum
    units, bin_sums = {}, {}
    for name, r in rows.items():
        units[name] = unit_rows(x, r, white)
        bin_sums[name] = np.zeros((k, d))
        np.add.at(bin_sums[name], row_bins[r], units[name])
    sums = {name: s.sum(axis=0) for name, s in bin_sums.items()}
    n_bins = moments.counts.astype(float)
    b_counts = np.array([counts[b] for b in names])
    # each bin's whitened mean over the rows outside B, for every B (lists x bins x d)
    left = np.maximum(n_bins[None, :] - b_counts, 1.0)
    outside = (n_bins[None, :, None] * moments.means[None] - np.array(
        [bin_sums[b] for b in names])) / left[:, :, None]  # fmt: skip
    # B's direction: its members' sum against what a random list of its profile has (its
    # length cancels: the alignment is a squared cosine, and the spread along it a square)
    directions = np.full((len(names), d), np.nan)
    # and each bin's variance along it over the rows outside B, where a random A's
    # members outside B come from: B's own rows lie far along B's direction, so without
    # them the spread there is smaller (by about r / n on the sample's word2vec, 3 %),
    # and the whole bin's variance made the test conservative (0.85 of its level at 1e-3)
    spread = np.zeros((len(names), k))
    for j, b in enumerate(names):
        v = sums[b] - counts[b] @ moments.means
        if not v.any():
            continue  # an empty B: no direction
        directions[j] = v
        squares = n_bins * (np.einsum("d,kde,e->k", v, moments.covariances, v)
                            + (moments.means @ v) ** 2)  # fmt: skip
        own = np.bincount(row_bins[rows[b]], weights=(units[b] @ v) ** 2, minlength=k)
        spread[j] = (squares - own) / left[j] - (outside[j] @ v) ** 2
    solver = _Solver(moments)
    usable = np.isfinite(directions).all(axis=1)

    def aligned(weights: np.ndarray, z: np.ndarray, v: np.ndarray, vv: np.ndarray):
        zz = solver.form(weights, z)
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.minimum((z * v).sum(axis=1) ** 2 / (zz * vv), 1.0)
        return np.where((zz > 0) & (vv > 0), out, np.nan)

    # shared members of every ordered pair at once (a sparse incidence product)
    incidence = sparse.csr_matrix(
        (np.ones(sum(r.size for r in rows.values())),
         np.concatenate([rows[name] for name in names]),
         np.cumsum([0] + [rows[name].size for name in names])),
        shape=(len(names), n),
    )  # fmt: skip
    shared_counts = (incidence @ incidence.T).toarray().astype(np.int64)
    alignment = np.full((len(names), len(names)), np.nan)
    log_fact = special.gammaln(np.arange(int(moments.counts.max()) + 1) + 1.0)
    p_overlap = np.ones_like(alignment)
    for i, a in enumerate(names):
        m_a = rows[a].size
        weights_a = _fpc_weights(counts[a], n_bins)
        # every B that shares no member with A at once; a pair that shares is done apart.
        # z: A's members' sum against what a random list of their profile has (its length
        # cancels, as v's does)
        apart = usable & (shared_counts[i] == 0)
        if m_a >= MIN_OWN:
            chance = np.einsum("j,bjd->bd", counts[a].astype(float), outside[apart])
            alignment[i, apart] = aligned(weights_a, sums[a] - chance,
                                          directions[apart], spread[apart] @ weights_a)  # fmt: skip
        for j in np.flatnonzero(shared_counts[i]):
            if j == i:
                continue
            b = names[j]
            shared = np.intersect1d(rows[a], rows[b])
            p_overlap[i, j] = _overlap_p(
                shared.size, counts[a], counts[b], moments.counts, log_fact
            )
            own = counts[a] - np.bincount(row_bins[shared], minlength=k)
            m = int(own.sum())
            if m >= MIN_OWN and usable[j]:
                z = sums[a] - _unit_sum(x, shared, white) - own @ outside[j]
                # C: the profile's of A's members outside B; where that profile is
                # within COVARIANCE_TV of A's whole one (a few shared members of many),
                # A's own, whose factor is at hand (a d x d factorisation per pair made
                # a frequency-matched run over 300 lists take minutes)
                weights = _fpc_weights(own, n_bins)
                if np.abs(weights - weights_a).sum() / 2 <= COVARIANCE_TV:
                    weights = weights_a
                alignment[i, j] = aligned(weights, z[None], directions[j][None],
                                          spread[j][None] @ weights)[0]  # fmt: skip
    np.fill_diagonal(alignment, np.nan)
    np.fill_diagonal(p_overlap, np.nan)
    p_direction = np.full_like(alignment, np.nan)
    ok = np.isfinite(alignment)
    p_direction[ok] = stats.beta(0.5, (moments.rank - 1) / 2).sf(alignment[ok])
    # the two tests combined by the null law of the smaller (see _combine), which needs
    # P(p_overlap <= t) at the pair's t: the overlap's tails, every B at once per A, deep
    # enough that they pass t unless the lists share far more than chance has them
    p_value = p_overlap.copy()
    for i, a in enumerate(names):
        cols = np.flatnonzero(ok[i])
        if not cols.size:
            continue
        expected = (counts[a] * b_counts[cols] / np.maximum(n_bins, 1.0)).sum(axis=1).max()
        depth = int(min(rows[a].size, b_counts[cols].sum(axis=1).max(), MAX_DEPTH,
                        expected + 10 * np.sqrt(expected) + 10))  # fmt: skip
        tails = _overlap_tails(counts[a], b_counts[cols], moments.counts, log_fact, depth)
        t = np.fmin(p_overlap[i, cols], p_direction[i, cols])
        # the observed overlap's own tail is attainable (computed apart, so kept exactly)
        below = np.maximum(_attainable_below(tails, t),
                           np.where(p_overlap[i, cols] <= t, p_overlap[i, cols], 0.0))  # fmt: skip
        p_value[i, cols] = _combine(p_overlap[i, cols], p_direction[i, cols], below)
    return PairTests(names, alignment, p_overlap, p_direction, p_value)

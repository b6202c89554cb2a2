"""The dictionary doctor (suggested additions and their held-out check), LEACE and
concept entanglement, and rankings with resolution: each against a brute-force or
hand-computed reference, or a planted concept whose answer is known."""

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binom, wilcoxon
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

from learnability.analyses import suggestion_check as check
from learnability.analyses import suggestions as sug
from learnability.analyses.entanglement import entanglement
from learnability.analyses.leace import Eraser, Whitening
from learnability.protocol.evaluate import Protocol, evaluate_concept_full
from learnability.protocol.sampling import frequency_bins
from learnability.statistics.ranking import rank_embeddings


def planted(seed, n=3000, d=20, size=60, shift=2.5, direction=0):
    """Gaussian vectors with ``size`` words shifted along one axis: a concept."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d))
    concept = np.sort(rng.choice(n, size, replace=False))
    x[concept, direction] += shift
    return x, concept, rng


# --- suggestions ------------------------------------------------------------------------


def test_vocabulary_scores_match_the_full_score_matrix_in_blocks(monkeypatch):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((500, 7)).astype(np.float32)
    coef = rng.standard_normal((9, 8))
    exclude = np.zeros(500, bool)
    exclude[rng.choice(500, 30, replace=False)] = True
    monkeypatch.setattr(sug, "BLOCK_BYTES", 4 * 9 * 37)  # 37 rows a block: 14 blocks
    logit, prob, share = sug.vocabulary_scores(x, coef, exclude, top=11)
    z = x.astype(np.float64) @ coef[:, :7].T + coef[:, 7]  # (words, splits), brute force
    # the scores are float32: within its rounding of values of a few units
    np.testing.assert_allclose(logit[~exclude], z[~exclude].mean(1), rtol=0, atol=1e-5)
    np.testing.assert_allclose(prob[~exclude], (1 / (1 + np.exp(-z[~exclude]))).mean(1),
                               rtol=0, atol=1e-6)  # fmt: skip
    # (the top 11 of each split: no two float64 scores there are within float32's rounding)
    top12 = -np.sort(-np.where(exclude[:, None], -np.inf, z), axis=0)[10:12]
    assert (top12[0] - top12[1]).min() > 1e-5
    counts = np.zeros(500)
    for j in range(9):
        candidates = np.flatnonzero(~exclude)
        counts[candidates[np.argsort(-z[candidates, j])[:11]]] += 1
    np.testing.assert_allclose(share[~exclude], counts[~exclude] / 9)
    assert np.isnan(share[exclude]).all() and np.isnan(prob[exclude]).all()
    # top 0: the same means, no shares (the check ranks by the means alone)
    logit0, prob0, share0 = sug.vocabulary_scores(x, coef, exclude, top=0)
    np.testing.assert_array_equal(logit0, logit)
    np.testing.assert_array_equal(prob0, prob)
    assert np.isnan(share0).all()


def test_the_first_k_candidates_are_the_full_rankings_first_k():
    """ranked_candidates(first=k), a partial sort, against the full order (probability,
    then logit, then row), with ties in probability at the k-th place."""
    rng = np.random.default_rng(4)
    prob = rng.choice([0.2, 0.5, 0.9, 1.0], 300)
    logit = rng.choice([1.0, 2.0, 3.0], 300)
    prob[rng.choice(300, 20, replace=False)] = np.nan  # the list's members
    rows = np.flatnonzero(~np.isnan(prob))
    full = sorted(rows, key=lambda r: (-prob[r], -logit[r], r))
    for k in (1, 7, 50, 77, 280, 400):
        assert sug.ranked_candidates(prob, logit, k).tolist() == full[:k], k
    assert sug.ranked_candidates(prob, logit).tolist() == full


def test_suggestions_find_the_planted_words_left_out_of_a_list(seed):
    x, concept, rng = planted(seed, shift=4.0)
    given = np.sort(rng.choice(concept, 40, replace=False))
    missing = np.setdiff1d(concept, given)
    result = evaluate_concept_full(
        x, given, Protocol(iterations=50, C=1.0, seed=seed), list_name="c", embedding="e"
    )
    words = [f"w{i}" for i in range(x.shape[0])]
    table = sug.suggestions(x, result.coef, given, top=20, words=words, counts=None,
                            list_name="c", embedding="e", negatives="uniform")  # fmt: skip
    assert table["rank"].tolist() == list(range(1, 21))
    assert not set(table["index"]) & set(given)
    assert table["mean_probability"].is_monotonic_decreasing
    found = np.isin(missing, table["index"]).mean()
    # 20 of the 2960 outside words are planted: a random top 20 finds 0.7 % of them (at
    # 20 seeds this finds 55-95 %)
    assert found >= 0.4, found


def test_poisson_binomial_tail_matches_scipy_and_enumeration():
    assert check.poisson_binomial_sf(3, np.full(12, 0.2)) == pytest.approx(binom.sf(2, 12, 0.2))
    p = np.array([0.1, 0.5, 0.7, 0.05, 0.3])
    for hits in range(7):
        brute = sum(
            np.prod([q if b else 1 - q for q, b in zip(p, bits, strict=True)])
            for bits in itertools.product([0, 1], repeat=5)
            if sum(bits) >= hits
        )
        assert check.poisson_binomial_sf(hits, p) == pytest.approx(brute, abs=1e-12)


def test_the_check_finds_hidden_members_of_a_planted_concept_above_its_baseline(seed):
    """The check's every number recomputed independently (conftest.sklearn_suggestion_check:
    scikit-learn fits of the check's splits, the ranking, hits, baseline and p-value
    counted by hand), and a planted concept's hidden members found far above it."""
    from conftest import sklearn_suggestion_check

    x, concept, _ = planted(seed, size=100)
    counts = np.arange(x.shape[0], 0, -1) + 10
    bins = frequency_bins(counts, 10)
    table = check.suggestion_check(
        x, concept, Protocol(iterations=20, C=1.0, seed=seed), bins=bins, ks=[10, 50],
        holdout=0.2, folds=5, list_name="c", embedding="e",
    )  # fmt: skip
    reference = sklearn_suggestion_check(
        x, concept, C=1.0, seed=seed, list_name="c", holdout=0.2, folds=5, iterations=20,
        ks=[10, 50], bins=bins,
    )  # fmt: skip
    for row in table.itertuples():
        hits, hidden, baseline, p_value = reference[row.k]
        # a near-tie at the k-th place may fall either way between two solvers: one hit
        assert abs(row.hits - hits) <= 1 and row.hidden == hidden == 100, (row, reference)
        assert row.baseline_recall == pytest.approx(baseline, abs=1 / 2900), (row, reference)
        assert row.recall == row.hits / row.hidden
    row = table.set_index("k").loc[50]
    # every member hidden once; the baseline is about 50 / 2900; the recall is many of
    # its own standard errors above it
    assert row["recall"] > row["baseline_recall"] + 4 * np.sqrt(row["baseline_recall"] / 100)
    assert row["p_value"] < 1e-6


def test_the_baseline_explains_a_list_that_is_only_frequent_words(seed):
    """A list of 200 frequent words (half of the top frequency bin) in an embedding whose
    only signal is frequency: the classifiers learn "frequent", the suggestions find
    hidden members, and frequent random words as often. Within the top bin a fold's
    hidden members and the bin's non-members are exchangeable, so given the T bin words
    in a fold's top k, its hits are hypergeometric (40 hidden of 240): the hits stay within
    5 of that law's SDs of its mean (at 200 seeds their z had SD 1.2, at most 3.7)."""
    rng = np.random.default_rng(seed)
    n, d = 4000, 10
    counts = np.sort(rng.integers(10, 100000, n))[::-1]
    bins = frequency_bins(counts, 10)
    x = rng.standard_normal((n, d))
    x[:, 0] += 3.0 * bins  # frequency is linearly decodable
    top_bin = np.flatnonzero(bins == bins.max())
    members = np.sort(rng.choice(top_bin, 200, replace=False))
    table = check.suggestion_check(
        x, members, Protocol(iterations=20, C=1.0, seed=seed), bins=bins, ks=[50],
        holdout=0.2, folds=5, list_name="frequent", embedding="e",
    )  # fmt: skip
    row = table.iloc[0]
    assert row["hidden"] == 200 and row["recall"] > 0.1  # some hidden members are found
    # each fold: 40 hidden, 200 non-members of the top bin; its baseline chance is the
    # share of those 200 in its top k, so the bin's words in the 5 top-k lists number
    # hits + 5 * 200 * baseline
    hidden, pool, folds = 40, top_bin.size - 200, 5
    drawn = row["hits"] + folds * pool * row["baseline_recall"]
    per_fold, total = drawn / folds, hidden + pool
    var = folds * per_fold * (hidden / total) * (pool / total) * (total - per_fold) / (total - 1)
    z = (row["hits"] - hidden / total * drawn) / np.sqrt(var)
    assert abs(z) < 5, (z, row.to_dict())


# --- LEACE ------------------------------------------------------------------------------


def test_leace_erasure_matches_a_case_computed_by_hand():
    """Sigma = [[2, 1], [1, 1]], Sigma_xz = (sqrt2 / 4, 0): the eraser is
    r(x) = x - e1 (Sigma^-1 e1) . (x - mu) / (Sigma^-1)_11 = (x2, x2) for mu = 0."""
    s = np.sqrt(2)
    x = np.array([[s, s], [-s, -s], [s, 0.0], [-s, 0.0]])
    z = np.array([0, 0, 1, 0])
    white = Whitening.of(x)
    np.testing.assert_allclose(white.root @ white.root, [[2, 1], [1, 1]], atol=1e-12)
    erased = Eraser.fit(x, z)(x)
    np.testing.assert_allclose(erased, [[s, s], [-s, -s], [0, 0], [0, 0]], atol=1e-12)


def test_leace_matches_its_closed_form_without_whitening():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((400, 6)) @ rng.standard_normal((6, 6))
    z = (x[:, 0] + rng.standard_normal(400) > 0).astype(float)
    mu = x.mean(0)
    sigma = np.cov(x.T, bias=True)
    sxz = (x - mu).T @ (z - z.mean()) / len(z)
    b = np.linalg.solve(sigma, sxz)
    expected = x - np.outer((x - mu) @ b, sxz) / (sxz @ b)
    np.testing.assert_allclose(Eraser.fit(x, z)(x), expected, atol=1e-9)


@pytest.mark.parametrize("block", [7, 64, 1 << 16])
def test_whitening_and_eraser_summed_block_by_block_are_numpys(monkeypatch, block):
    """The block sums (any block size, a memory-mapped float32 matrix) give numpy's
    mean and covariance, and the eraser from the members' rows alone is the one from
    the dense label, within float64 rounding."""
    from learnability.analyses import leace

    monkeypatch.setattr(leace, "BLOCK_ROWS", block)
    rng = np.random.default_rng(11)
    x = (rng.standard_normal((500, 6)) @ rng.standard_normal((6, 6)) + 40).astype(np.float32)
    white = Whitening.of(x)
    x64 = x.astype(np.float64)
    np.testing.assert_allclose(white.mean, x64.mean(0), rtol=1e-12)
    np.testing.assert_allclose(white.root @ white.root, np.cov(x64.T, bias=True), rtol=1e-9)
    members = rng.choice(500, 40, replace=False)
    z = np.isin(np.arange(500), members).astype(float)
    dense, sparse = Eraser.fit(x64, z), Eraser.of_members(x, members, white)
    np.testing.assert_allclose(sparse.b, dense.b, rtol=1e-8)
    np.testing.assert_allclose(sparse(x[:50]), dense(x64[:50]), atol=1e-9)
    np.testing.assert_allclose(sparse.coordinate(x), (x64 - x64.mean(0)) @ dense.b, atol=1e-9)


def test_entanglement_reads_a_memory_map_without_copying_the_matrix(tmp_path, monkeypatch):
    """On a memory-mapped float32 matrix the entanglement gives the table it gives on
    the same values in memory, and holds no whole-matrix copy: from 50,000 to 250,000
    words numpy's peak allocation (tracemalloc sees it) grows by under a tenth of the
    float64 matrices' difference (one coordinate per word is 1/40 of it). Before the
    block sums it held three copies (the matrix, its centred copy, each erased copy)."""
    import tracemalloc

    from learnability.analyses import leace

    monkeypatch.setattr(leace, "BLOCK_ROWS", 4096)
    d = 40
    protocol = Protocol(iterations=4, C=1.0, seed=1)
    peaks = {}
    for n in (50_000, 250_000):
        rng = np.random.default_rng(4)
        x = rng.standard_normal((n, d)).astype(np.float32)
        lists = {}
        for i in range(3):
            m = rng.choice(n, 40, replace=False)
            x[m, i] += 3.0
            lists[f"l{i}"] = m
        np.save(tmp_path / f"{n}.npy", x)
        mapped = np.load(tmp_path / f"{n}.npy", mmap_mode="r")
        tracemalloc.start()
        got = entanglement(mapped, lists, protocol, embedding="e", pairs="all")
        peaks[n] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        want = entanglement(x.astype(np.float64), lists, protocol, embedding="e", pairs="all")
        pd.testing.assert_frame_equal(got, want)
    assert peaks[250_000] - peaks[50_000] < 0.1 * 200_000 * d * 8, peaks


def test_after_erasure_logistic_regression_has_chance_auc_on_the_concept(seed):
    x, concept, _ = planted(seed, n=2000, d=10, size=200)
    z = np.isin(np.arange(len(x)), concept).astype(int)
    before = LogisticRegression(C=1e4, max_iter=2000).fit(x, z)
    assert roc_auc_score(z, before.decision_function(x)) > 0.9
    erased = Eraser.fit(x, z)(x)
    np.testing.assert_allclose(erased[z == 1].mean(0), erased[z == 0].mean(0), atol=1e-10)
    after = LogisticRegression(C=1e4, solver="newton-cholesky", tol=1e-12).fit(erased, z)
    # w = 0 is the optimum (equal class means zero the gradient there): what the solver
    # returns is zero to its tolerance, so every score is the intercept, AUC one half
    assert np.abs(after.coef_).max() < 1e-7 * np.abs(before.coef_).max()
    # and fitted on one half of the erased words, it scores the other half at chance:
    # within 4 standard errors of the AUC (Hanley & McNeil's, about 0.03 here)
    train = np.arange(len(x)) % 2 == 0
    half = LogisticRegression(C=1e4, max_iter=2000).fit(erased[train], z[train])
    auc = roc_auc_score(z[~train], half.decision_function(erased[~train]))
    n1, n0 = z[~train].sum(), (~train).sum() - z[~train].sum()
    se = np.sqrt((n0 + n1 + 1) / (12 * n0 * n1))
    assert abs(auc - 0.5) < 4 * se, (auc, se)


# --- entanglement -----------------------------------------------------------------------


def _pair(seed, shared: bool):
    rng = np.random.default_rng(seed)
    n, d = 2000, 20
    x = rng.standard_normal((n, d))
    a, b = np.split(rng.choice(n, 120, replace=False), 2)
    x[a, 0] += 3.0
    x[b, 0 if shared else 1] += 3.0
    return x, {"a": np.sort(a), "b": np.sort(b)}


def test_entanglement_is_high_for_a_shared_direction_and_near_zero_otherwise(seed):
    protocol = Protocol(iterations=20, C=1.0, seed=seed)
    shared = entanglement(*_pair(seed, True), protocol, embedding="e", pairs="all").set_index(
        ["list_a", "list_b"]
    )
    apart = entanglement(*_pair(seed, False), protocol, embedding="e", pairs="all").set_index(
        ["list_a", "list_b"]
    )
    assert shared.loc[("a", "b"), "auc_before"] > 0.9
    # one shared direction: erasing either removes most of the other (0.70-1.03 at 20
    # seeds; not all: the eraser is fitted to a's sample mean, and b's own noise remains)
    assert shared.loc[("a", "b"), "share"] > 0.5
    assert shared.loc[("b", "a"), "share"] > 0.5
    # orthogonal directions: erasing a leaves b's AUC (within 0.01 at 20 seeds; the
    # share's standard error is about 0.003)
    assert abs(apart.loc[("a", "b"), "share"]) < 0.05
    assert abs(apart.loc[("b", "a"), "share"]) < 0.05
    # erasing a list from itself removes all of its AUC above chance (within 4 standard
    # errors of the share; it may remove more: docs/explanation/diagnostics.md)
    for table in (shared, apart):
        own = table.loc[("a", "a")]
        assert own["share"] > 1 - 4 * own["share_se"], own


def test_the_link_is_welchs_t_of_b_outside_a_against_the_rows_in_neither(seed):
    """link_z against scipy's Welch test: B's members outside A against the rows in
    neither list, with the totals given or not."""
    from scipy import stats

    from learnability.analyses.entanglement import link_z

    rng = np.random.default_rng(seed)
    coordinate = rng.standard_normal(500)
    a, b = np.sort(rng.choice(500, 40, replace=False)), np.sort(rng.choice(500, 30, replace=False))
    coordinate[b] += 0.5
    own = np.setdiff1d(b, a)
    rest = np.setdiff1d(np.arange(500), np.union1d(a, b))
    want = stats.ttest_ind(coordinate[own], coordinate[rest], equal_var=False).statistic
    assert link_z(coordinate, a, b) == pytest.approx(want, rel=1e-9)
    totals = (coordinate.sum(), coordinate @ coordinate)
    assert link_z(coordinate, a, b, totals) == pytest.approx(want, rel=1e-9)
    # B inside A but for one member: nothing to compare, and the pair shares members
    assert np.isnan(link_z(coordinate, a, np.append(a[:5], rest[0])))


def test_related_pairs_are_the_ones_that_can_matter(seed):
    """``pairs="related"``: a pair along one shared direction (no shared member) is
    measured, linked far beyond min_z; an orthogonal pair is measured only if its link
    reaches min_z by chance, and where it is not, measuring it anyway finds nothing; a
    nested pair is measured for its shared members whatever its link. Every measured
    row is the one ``pairs="all"`` gives (the same splits), every other row has the
    before AUC and no share."""
    # the sample's entanglement.iterations (config/config.yaml)
    protocol = Protocol(iterations=20, C=1.0, seed=seed)
    key = ["list_a", "list_b"]
    shared = entanglement(*_pair(seed, True), protocol, embedding="e").set_index(key)
    # the link of one shared direction (18-29 at 20 seeds)
    assert shared["measured"].all() and (shared["link_z"].abs().dropna() > 10).all()
    x, lists = _pair(seed, False)
    lists["inner"] = lists["a"][:10]  # nested in a, on no direction of its own
    related = entanglement(x, lists, protocol, embedding="e").set_index(key)
    every = entanglement(x, lists, protocol, embedding="e", pairs="all").set_index(key)
    assert every["measured"].all()
    for pair in [("a", "inner"), ("inner", "a"), ("a", "a"), ("inner", "inner")]:
        assert related.loc[pair, "measured"], pair
    apart = [("a", "b"), ("b", "a")]
    # an orthogonal pair's link is a t of unrelated rows: |z| < 4 but with odds 6e-5
    assert (related.loc[apart, "link_z"].abs() < 4).all()
    assert (related.loc[apart, "measured"] == (related.loc[apart, "link_z"].abs() >= 2)).all()
    for pair in apart:
        # what the screen left out: erasing a leaves b (|share| within 0.05, as above)
        assert abs(every.loc[pair, "share"]) < 0.05
    measured = related[related["measured"]]
    pd.testing.assert_frame_equal(measured, every.loc[measured.index].assign(measured=True))
    skipped = related[~related["measured"]]
    assert skipped[["auc_after", "share", "share_se"]].isna().all().all()
    assert (skipped["auc_before"] == every.loc[skipped.index, "auc_before"]).all()
    # sharing: the diagonal and the nested pairs only, their rows as every pair's
    sharing = entanglement(x, lists, protocol, embedding="e", pairs="sharing").set_index(key)
    nested = {("a", "inner"), ("inner", "a")} | {(n, n) for n in lists}
    assert set(sharing.index[sharing["measured"]]) == nested
    pd.testing.assert_frame_equal(
        sharing.loc[sorted(nested)], every.loc[sorted(nested)].assign(measured=True)
    )
    with pytest.raises(ValueError, match="pairs 'some': one of related, sharing, all"):
        entanglement(x, lists, protocol, embedding="e", pairs="some")


def test_the_margin_test_is_students_one_sided_t_over_the_paired_splits(seed):
    """share > margin against scipy's one-sample t test (alternative greater) on the
    splits' shares themselves, and the lower bound against the test's own one-sided
    interval; a hand case; no share, no test."""
    from scipy import stats

    from learnability.analyses.entanglement import margin_test

    rng = np.random.default_rng(seed)
    for splits, margin in ((20, 0.1), (5, 0.3), (50, 0.0)):
        shares = rng.normal(0.2, 0.15, splits)
        se = shares.std(ddof=1) / np.sqrt(splits)
        got = margin_test(shares.mean(), se, splits, margin, 0.05)
        want = stats.ttest_1samp(shares, margin, alternative="greater")
        assert got["p_margin"] == pytest.approx(want.pvalue, rel=1e-9)
        low = want.confidence_interval(0.95).low
        assert got["share_low"] == pytest.approx(low, rel=1e-9)
    # by hand: t = (0.3 - 0.1) / 0.1 = 2 on 9 degrees of freedom, P(T >= 2) = 0.03828
    assert margin_test(0.3, 0.1, 10, 0.1, 0.05)["p_margin"] == pytest.approx(0.03828, abs=1e-5)
    assert np.isnan(margin_test(np.nan, 0.1, 10, 0.1, 0.05)["p_margin"])


def _reported(p_margin, beyond, overlap, adjust="holm"):
    from learnability.analyses.entanglement import relevant

    k = len(p_margin)
    table = pd.DataFrame({"list_a": [f"a{i}" for i in range(k)] + ["d"],
                          "list_b": [f"b{i}" for i in range(k)] + ["d"],
                          "p_margin": list(p_margin) + [0.0],
                          "beyond_null": list(beyond) + [False],
                          "overlap": list(overlap) + [False]})  # fmt: skip
    return relevant(table, adjust, 0.05)


def test_a_pair_is_entangled_where_both_tests_reject_after_adjustment():
    """Holm over every ordered pair A != B, by hand: p 0.01, 0.02, 0.04 give 0.03, 0.04,
    0.04 (all entangled); a pair with no share counts as a p of 1 in the family (fixed
    before any share is measured), so the same three among four give 0.04, 0.06, 0.08.
    A pair not beyond the null, or beyond it by overlap alone, is not entangled whatever
    its margin test; the diagonal never is."""
    t = _reported([0.01, 0.02, 0.04], [True] * 3, [False] * 3)
    np.testing.assert_allclose(t["p_margin_adjusted"][:3], [0.03, 0.04, 0.04])
    assert t["entangled"].tolist() == [True, True, True, False]
    t = _reported([0.01, 0.02, 0.04, np.nan], [True] * 4, [False] * 4)
    np.testing.assert_allclose(t["p_margin_adjusted"][:4], [0.04, 0.06, 0.08, 1.0])
    assert t["entangled"].tolist() == [True, False, False, False, False]
    t = _reported([0.001, 0.001, 0.001], [True, False, True], [False, False, True])
    assert t["entangled"].tolist() == [True, False, False, False]
    # BH by hand: 0.01, 0.02, 0.04 -> 0.03, 0.03, 0.04
    t = _reported([0.01, 0.02, 0.04], [True] * 3, [False] * 3, "bh")
    np.testing.assert_allclose(t["p_margin_adjusted"][:3], [0.03, 0.03, 0.04])


def test_a_planted_share_is_entangled_above_the_margin_and_merely_beyond_chance_below(seed):
    """One shared direction (share 0.7-1.0 at 20 seeds, its SE about 0.02): entangled at
    the default margin, and beyond the null but not entangled where the margin is
    above any share it can have (2); the counts say so."""
    from learnability.analyses.entanglement import counts, summary_line

    protocol = Protocol(iterations=20, C=1.0, seed=seed)
    x, lists = _pair(seed, True)
    low = entanglement(x, lists, protocol, embedding="e", pairs="all").set_index(
        ["list_a", "list_b"]
    )
    high = entanglement(x, lists, protocol, embedding="e", pairs="all", margin=2.0).set_index(
        ["list_a", "list_b"]
    )
    for pair in [("a", "b"), ("b", "a")]:
        assert low.loc[pair, "beyond_null"] and low.loc[pair, "entangled"], low.loc[pair]
        assert low.loc[pair, "share_low"] > low.loc[pair, "margin"] == 0.1
        assert high.loc[pair, "beyond_null"] and not high.loc[pair, "entangled"]
    c = counts(high.reset_index())
    assert (c.tested, c.beyond, c.entangled, c.chance, c.overlap) == (2, 2, 0, 2, 0)
    assert "0 entangled" in summary_line(high.reset_index())
    assert "2 more merely beyond chance" in summary_line(high.reset_index())


def test_nested_lists_on_random_vectors_are_overlap_not_entangled(seed):
    """The chance baseline: on Gaussian vectors, a list nested in another (and one with
    a single member outside it, too few to test its direction) is beyond the null by the
    members the two share, both ways, and reported as overlap, not entangled; nor is any
    other pair. With B planted along a direction, erasing the nested list takes most of
    B's AUC above chance (its lower bound is above the margin), and the pair is still
    overlap (the dictionary's nesting, not the embedding's entanglement); the other way,
    B's members outside the nested list do share its direction, and that is entangled."""
    from learnability.analyses.entanglement import counts

    rng = np.random.default_rng(seed)
    n, d = 3000, 20
    pool = rng.permutation(n)
    b = np.sort(pool[:60])
    lists = {"b": b, "nested": b[:30], "one_out": np.append(b[30:], pool[60]),
             "c": np.sort(pool[100:140]), "e": np.sort(pool[140:170])}  # fmt: skip
    protocol = Protocol(iterations=10, C=1.0, seed=seed)
    key = ["list_a", "list_b"]
    into, out_of = [("nested", "b"), ("one_out", "b")], [("b", "nested"), ("b", "one_out")]
    x = rng.standard_normal((n, d))
    table = entanglement(x, lists, protocol, embedding="e", pairs="all")
    t = table.set_index(key)
    pairs = into + out_of
    assert t.loc[pairs, "beyond_null"].all() and t.loc[pairs, "overlap"].all(), t.loc[pairs]
    assert not t["entangled"].any(), t[t["entangled"]]
    # nothing else is beyond the null (Holm over 20 pairs: each at 0.0025 at most)
    c = counts(table)
    assert (c.beyond, c.overlap, c.entangled, c.chance) == (4, 4, 0, 0), c
    x[b, 0] += 3.0
    t = entanglement(x, lists, protocol, embedding="e", pairs="all").set_index(key)
    assert t.loc[into, "overlap"].all() and not t.loc[into, "entangled"].any(), t.loc[into]
    assert (t.loc[into, "share_low"] > t.loc[into, "margin"]).all(), t.loc[into]
    assert t.loc[out_of, "entangled"].all() and not t.loc[out_of, "overlap"].any()


# --- rankings ---------------------------------------------------------------------------


def _iterations(means: dict[str, np.ndarray], splits: int, noise: float, seed: int):
    """An iterations table: per embedding and list, ``splits`` AUCs around its mean."""
    rng = np.random.default_rng(seed)
    frames = []
    for e, per_list in means.items():
        n = len(per_list)
        auc = np.repeat(per_list, splits) + noise * rng.standard_normal(n * splits)
        frames.append(pd.DataFrame({
            "list": np.repeat([f"l{i}" for i in range(n)], splits), "embedding": e,
            "negatives": "uniform", "iteration": np.tile(np.arange(splits), n), "auc": auc,
        }))  # fmt: skip
    return pd.concat(frames, ignore_index=True)


def test_ranking_separates_a_clear_gap_and_not_a_tie(seed):
    rng = np.random.default_rng(seed)
    base = 0.8 + 0.05 * rng.standard_normal(20)
    wobble = 0.002 * np.where(np.arange(20) % 2, 1, -1)  # median difference zero
    means = {"worse": base - wobble, "best": base + 0.05, "tied": base + wobble}
    table = rank_embeddings(_iterations(means, 30, 0.01, seed), list(means), seed=seed)
    assert table["embedding"].tolist()[0] == "best"
    best = table.iloc[0]
    assert (best["rank_low"], best["rank_high"]) == (1.0, 1.0)
    assert best["separated"]
    second = table.iloc[1]
    assert not second["separated"]
    assert second["rank_low"] == 2.0 and second["rank_high"] == 3.0
    # the adjacent pairs' p-values are scipy's exact Wilcoxon, Holm-adjusted over 2
    per_list = {e: np.asarray(v) for e, v in _per_list(table, means, seed).items()}
    pairs = zip(table["embedding"][:2], table["next_embedding"][:2], strict=True)
    p = [wilcoxon(per_list[a] - per_list[b], alternative="greater").pvalue for a, b in pairs]
    np.testing.assert_allclose(table["p_value"][:2], p, rtol=1e-9)
    lo, hi = sorted(p)
    holm = [min(1, 2 * lo), max(min(1, 2 * lo), hi)]
    np.testing.assert_allclose(sorted(table["p_adjusted"][:2]), holm, rtol=1e-9)


def _per_list(table, means, seed):
    # recomputed from the same frame the ranking read
    frame = _iterations(means, 30, 0.01, seed)
    return {e: g.groupby("list")["auc"].mean().to_numpy() for e, g in frame.groupby("embedding")}


@pytest.mark.parametrize("n_lists", [8, 22])  # the sample's lists, and GloVe 6B's
def test_ranking_separates_exchangeable_embeddings_at_most_at_its_level(seed, n_lists):
    """Three embeddings with the same true means: the share of datasets in which any
    adjacent pair is separated (the family-wise error Holm controls) is at most 0.05,
    within 3 binomial standard errors over 1500 datasets (0.067). Measured over 3000:
    0.030 at 8 lists, 0.035 at 22; without Holm's adjustment 0.073 and 0.091, which
    this test fails with probability 0.8 and 0.99."""
    rng = np.random.default_rng(seed)
    errors, datasets = 0, 1500
    for r in range(datasets):
        base = 0.8 + 0.05 * rng.standard_normal(n_lists)
        means = {e: base for e in ("a", "b", "c")}
        frame = _iterations(means, 10, 0.02, int(rng.integers(2**31)))
        table = rank_embeddings(frame, list(means), resamples=10, seed=r)
        errors += bool(table["separated"].any())
    assert errors / datasets <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / datasets), errors


def test_the_api_counts_a_list_too_small_to_check_instead_of_dropping_it(seed):
    """A 4-word list is scored (min_words 4) but cannot lose a fold and still be fitted:
    its check rows say why, with no recall; a 20-word list of the same planted concept
    is checked, and its hidden members are found."""
    import learnability

    x, concept, _ = planted(seed, n=400, d=8, size=24, shift=4.0)
    words = [f"w{i}" for i in range(len(x))]
    lists = {"small": [words[i] for i in concept[:4]], "big": [words[i] for i in concept[4:]]}
    result = learnability.score((words, x), lists, iterations=10, null_lists=20,
                                codelength_orders=0, check_iterations=5,
                                entanglement_iterations=5)  # fmt: skip
    check = result.suggestion_check.set_index(["list", "k"])
    assert check.loc[("small", 10), "baseline"].startswith("not checked: 3 members left")
    assert np.isnan(check.loc[("small", 10), "recall"]) and check.loc[("small", 10), "hidden"] == 0
    big = check.loc[("big", 10)]
    # 5 folds of 4 hidden, each among the 384 words outside the 16 kept: recall@10 of a
    # random ranking is about 10 / 384; these find 0.70-1.00 (p < 1e-19 at 20 seeds)
    assert big["hidden"] == 20 and big["recall"] >= 0.5 and big["p_value"] < 1e-6, big
    assert set(result.suggestions["list"]) == {"small", "big"}
    assert len(result.entanglement) == 4  # both ordered pairs and the diagonal


def test_the_entanglement_table_page_counts_what_it_lists(tmp_path):
    """The markdown page: per embedding, its line counts the entangled pairs, those
    beyond chance only and those by overlap as the table's statuses give them
    (tests/tangles.py), and its list of pairs holds that many of each, entangled first."""
    import tangles

    from learnability.reports.diagnostics_tables import write_entanglement

    md, csv = tmp_path / "e.md", tmp_path / "e.csv"
    write_entanglement(tangles.table(), tangles.LISTS, list(tangles.STATUS), str(md), str(csv),
                       "Entanglement")  # fmt: skip
    page = md.read_text()
    for emb in tangles.STATUS:
        c = tangles.count(emb)
        section = page.split(f"### {emb}\n", 1)[1].split("###", 1)[0]
        beyond = c["entangled"] + c["chance"] + c["overlap"]
        assert section.lstrip().startswith(
            f"{beyond} of {c['tested']} ordered pairs tested beyond erasing a random list"
        ), section[:200]
        assert (
            f": {c['entangled']} entangled (share above 0.1 with confidence, "
            f"holm-adjusted), {c['chance']} more merely beyond chance"
        ) in section
        assert f"{c['overlap']} by the members they share alone (overlap)" in section
        listed = section.split("All pairs' shares:")[0]
        rows = [r.split("|")[3].strip() for r in listed.splitlines()
                if r.startswith("|") and "---" not in r][1:]  # fmt: skip
        want = (["entangled"] * c["entangled"] + ["beyond chance only"] * c["chance"]
                + ["overlap"] * c["overlap"])  # fmt: skip
        assert rows == want, rows

"""Concept entanglement (analyses/entanglement.py): planted shared directions, Welch's and
Student's t against scipy, the adjustment, nested lists, and its table page."""

import numpy as np
import pandas as pd
import pytest

from learnability.analyses.entanglement import entanglement
from learnability.protocol.evaluate import Protocol


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
    # errors of the share; it may remove more: docs/explanation/analyses.md)
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


def test_the_entanglement_table_page_counts_what_it_lists(tmp_path):
    """The markdown page: per embedding, its line counts the entangled pairs, those
    beyond chance only and those by overlap as the table's statuses give them
    (tests/tangles.py), and its list of pairs holds that many of each, entangled first."""
    import tangles

    from learnability.reports.analysis_tables import write_entanglement

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

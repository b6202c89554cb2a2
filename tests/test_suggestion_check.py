"""The held-out check of the suggestions (analyses/suggestion_check.py): its tail against
scipy and enumeration, its every number recomputed by scikit-learn, its baseline, and a
list too small to check counted."""

import itertools

import numpy as np
import pytest
from planted import planted_concept
from scipy.stats import binom

from learnability.analyses import suggestion_check as check
from learnability.protocol.evaluate import Protocol
from learnability.protocol.sampling import frequency_bins


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
    from references import sklearn_suggestion_check

    p = planted_concept(seed, n=3000, dim=20, size=100, shift=2.5, axis=0, scattered=True)
    x, concept = p.vectors, p.members
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


def test_the_api_counts_a_list_too_small_to_check_instead_of_dropping_it(seed):
    """A 4-word list is scored (min_words 4) but cannot lose a fold and still be fitted:
    its check rows say why, with no recall; a 20-word list of the same planted concept
    is checked, and its hidden members are found."""
    import learnability

    p = planted_concept(seed, n=400, dim=8, size=24, shift=4.0, axis=0, scattered=True)
    x, concept = p.vectors, p.members
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


def test_a_fold_left_with_fewer_members_than_the_protocols_min_words_is_refused():
    """The members kept beside a hidden fold are fitted as a list is: at least the
    protocol's min_words of them (not the schema's default: a run that sets
    learnability.min_words to 8 does not fit 7)."""
    from learnability.errors import InputError

    p = planted_concept(0, n=400, dim=8, size=10, shift=2.0, axis=0)
    fit = dict(ks=[5], holdout=0.2, folds=1, list_name="c", embedding="e", bins=None)  # keeps 8
    table = check.suggestion_check(p.vectors, p.members, Protocol(iterations=2, C=1.0, seed=0,
                                   min_words=8), **fit)  # fmt: skip
    assert len(table) == 1
    with pytest.raises(InputError, match=r"^suggestion check of 'c' on 'e': only 8 words .*9"):
        check.suggestion_check(p.vectors, p.members, Protocol(iterations=2, C=1.0, seed=0,
                               min_words=9), **fit)  # fmt: skip

"""Suggested additions to a list (analyses/suggestions.py): the vocabulary's scores against
the full score matrix, the first k candidates against the full ranking, and a planted
concept's left-out words found."""

import numpy as np
from planted import planted_concept

from learnability.analyses import suggestions as sug
from learnability.protocol.evaluate import Protocol, evaluate_concept_full


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
    p = planted_concept(seed, n=3000, dim=20, size=60, shift=4.0, axis=0, scattered=True)
    x, concept, rng = p.vectors, p.members, p.rng
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

"""Independent references for the learnability engine: the same splits fitted and scored
by scikit-learn and scipy, not by the code under test."""

from __future__ import annotations

import numpy as np


def sklearn_aucs(
    vectors: np.ndarray, members: np.ndarray, seeds: list[int], C: float, fraction: float = 0.5
) -> np.ndarray:
    """The test AUC of each split, fitted and scored by scikit-learn: an independent
    reference for the learnability engine (our L-BFGS and metrics). The splits are the
    protocol's (learnability.protocol.sampling.split_concept from each recorded seed); the model
    is the protocol's logistic regression, fitted to a tight tolerance."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score

    from learnability.protocol.sampling import split_concept

    mask = np.zeros(vectors.shape[0], dtype=bool)
    mask[members] = True
    out = []
    for seed in seeds:
        tr, ytr, te, yte = split_concept(
            np.random.default_rng(seed), members, mask, train_fraction=fraction
        )
        x = np.asarray(vectors, dtype=np.float64)
        model = LogisticRegression(C=C, solver="lbfgs", tol=1e-12, max_iter=10_000)
        model.fit(x[tr], ytr)
        out.append(roc_auc_score(yte, model.decision_function(x[te])))
    return np.array(out)


def sklearn_suggestion_check(
    vectors: np.ndarray,
    members: np.ndarray,
    *,
    C: float,
    seed: int,
    list_name: str,
    holdout: float,
    folds: int,
    iterations: int,
    ks: list[int],
    bins: np.ndarray | None,
) -> dict[int, tuple[int, int, float, float]]:
    """The held-out check of the suggestions (uniform non-members in the splits),
    recomputed independently: each hidden fold's splits (the check's own seeds) fitted
    by scikit-learn, every word outside the kept members ranked by mean probability,
    then mean logit, then row; the hidden members in the top k counted, the baseline
    (each hidden member's frequency bin's share of non-members in the top k) counted by
    hand, and the p-value as the Poisson-binomial tail by convolution. Returns k ->
    (hits, hidden, baseline recall, p-value)."""
    from scipy.special import expit
    from sklearn.linear_model import LogisticRegression

    from learnability.analyses.suggestion_check import fold_partition
    from learnability.protocol.sampling import derive_seed, split_concept

    x = np.asarray(vectors, dtype=np.float64)
    n = x.shape[0]
    members = np.unique(members)
    group = bins if bins is not None else np.zeros(n, dtype=np.int64)
    in_list = np.isin(np.arange(n), members)
    pool = np.bincount(group[~in_list], minlength=group.max() + 1)
    hits = dict.fromkeys(ks, 0)
    chances: dict[int, list] = {k: [] for k in ks}
    parts = fold_partition(members, max(2, round(1 / holdout)), seed, list_name)
    for f, hidden in enumerate(parts[:folds]):
        kept = np.setdiff1d(members, hidden)
        mask = np.isin(np.arange(n), kept)
        logits = []
        for i in range(iterations):
            rng = np.random.default_rng(derive_seed(seed, "suggestion-check", list_name, f, i))
            train, labels, _, _ = split_concept(rng, kept, mask)
            model = LogisticRegression(C=C, tol=1e-12, max_iter=10_000)
            logits.append(model.fit(x[train], labels).decision_function(x))
        logit = np.array(logits)
        prob = expit(logit).mean(0)
        outside = np.flatnonzero(~mask)
        ranking = outside[np.lexsort((outside, -logit.mean(0)[outside], -prob[outside]))]
        for k in ks:
            best = ranking[:k]
            hits[k] += int(np.isin(best, hidden).sum())
            in_top = np.bincount(group[best[~in_list[best]]], minlength=pool.size)
            chances[k].append((in_top / np.maximum(pool, 1))[group[hidden]])
    out = {}
    for k in ks:
        p = np.concatenate(chances[k])
        pmf = np.ones(1)
        for q in p:
            pmf = np.convolve(pmf, [1 - q, q])
        out[k] = (hits[k], p.size, float(p.mean()), float(min(1.0, pmf[hits[k] :].sum())))
    return out


def assert_aucs_match_the_reference(ours, reference, n_pos: int, n_neg: int) -> None:
    """Each split's AUC equals scikit-learn's, but for a near-tie: a test member and a
    non-member whose scores differ by less than the solvers' tolerances may come out in
    either order, moving the AUC by 1 / (n_pos n_neg). At most two such pairs per split,
    and most splits exact."""
    ours, reference = np.asarray(ours), np.asarray(reference)
    pair = 1 / (n_pos * n_neg)
    np.testing.assert_allclose(ours, reference, rtol=0, atol=2 * pair + 1e-9)
    assert np.mean(np.abs(ours - reference) < 1e-9) >= 0.5, (ours, reference)

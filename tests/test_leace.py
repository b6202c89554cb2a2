"""LEACE erasure (analyses/leace.py): a case by hand, its closed form, the block sums against
numpy's, and chance AUC after erasing a planted concept."""

import numpy as np
import pytest
from planted import planted_concept
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

from learnability.analyses.leace import Eraser, Whitening


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


def test_after_erasure_logistic_regression_has_chance_auc_on_the_concept(seed):
    p = planted_concept(seed, n=2000, dim=10, size=200, shift=2.5, axis=0, scattered=True)
    x, concept = p.vectors, p.members
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

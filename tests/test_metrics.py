import numpy as np
import pytest
from sklearn.metrics import accuracy_score, precision_score, recall_score, roc_auc_score

from learnability.protocol.metrics import binary_metrics, roc_auc


@pytest.mark.parametrize("case", range(5))
def test_auc_matches_sklearn_with_ties(case, seed):
    rng = np.random.default_rng([seed, case])
    y = rng.random(101) < 0.4
    scores = np.round(rng.normal(size=101) + y, 1)  # rounding makes many ties
    assert roc_auc(y, scores) == pytest.approx(roc_auc_score(y, scores), abs=1e-12)


def test_auc_hand_case():
    # positives 0.8, 0.4; negatives 0.5, 0.4 -> pairs: (0.8>0.5)=1, (0.8>0.4)=1,
    # (0.4<0.5)=0, (0.4=0.4)=0.5 -> 2.5 / 4
    assert roc_auc(np.array([1, 1, 0, 0]), np.array([0.8, 0.4, 0.5, 0.4])) == 0.625


@pytest.mark.parametrize("case", range(5))
def test_threshold_metrics_match_sklearn(case, seed):
    rng = np.random.default_rng([seed, case])
    y = rng.random(80) < 0.5
    scores = rng.normal(size=80) + 0.8 * y
    m = binary_metrics(y, scores)
    pred = scores > 0
    assert m["accuracy"] == pytest.approx(accuracy_score(y, pred))
    assert m["recall"] == pytest.approx(recall_score(y, pred))
    assert m["precision"] == pytest.approx(precision_score(y, pred))
    assert m["fpr"] == pytest.approx(((pred) & ~y).sum() / (~y).sum())
    assert m["auc"] == pytest.approx(roc_auc_score(y, scores))


def test_precision_without_positive_predictions_is_zero_like_sklearn():
    y = np.array([1, 0, 1, 0], bool)
    scores = -np.ones(4)
    assert binary_metrics(y, scores)["precision"] == precision_score(y, scores > 0, zero_division=0)


@pytest.mark.parametrize("decimals", [None, 1, 0])
def test_batch_metrics_and_tpr_equal_the_per_row_functions(decimals):
    """The batched versions used by the workflow, row by row against the per-row functions
    (themselves checked against scikit-learn), with and without tied scores."""
    from learnability.protocol.metrics import batch_metrics, batch_tpr_at, tpr_at

    rng = np.random.default_rng(1)
    scores = rng.standard_normal((120, 40))
    if decimals is not None:
        scores = np.round(scores, decimals)
    y = np.zeros((120, 40), dtype=bool)
    y[:, :15] = True
    for row in y:
        rng.shuffle(row)
    batch = batch_metrics(y, scores)
    curves = batch_tpr_at(y, scores)
    for b in range(120):
        single = binary_metrics(y[b], scores[b])
        for name, value in single.items():
            assert batch[name][b] == pytest.approx(value, abs=1e-12), (name, b)
        assert batch["auc"][b] == pytest.approx(roc_auc_score(y[b], scores[b]), abs=1e-12)
        np.testing.assert_allclose(curves[b], tpr_at(y[b], scores[b]), rtol=0, atol=1e-12)


def test_average_ranks_equal_scipy_rankdata_with_ties():
    from scipy.stats import rankdata

    from learnability.protocol.metrics import average_ranks

    rng = np.random.default_rng(5)
    for decimals in (0, 1, 3):
        a = np.round(rng.standard_normal((50, 37)), decimals)
        np.testing.assert_array_equal(average_ranks(a), rankdata(a, axis=1))
        np.testing.assert_array_equal(average_ranks(a[0]), rankdata(a[0]))

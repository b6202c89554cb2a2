"""Binary classification metrics, vectorised (scikit-learn's per-call overhead dominates
a 1000-iteration loop, so these are computed in numpy and tested against sklearn)."""

from __future__ import annotations

import numpy as np


def average_ranks(scores: np.ndarray) -> np.ndarray:
    """Ranks 1..n along the last axis, ties sharing their average rank (scipy's
    ``rankdata(method="average")``, which costs most of a second to import in every job)."""
    scores = np.asarray(scores, dtype=np.float64)
    a = scores.reshape(-1, scores.shape[-1])
    n = a.shape[1]
    order = np.argsort(a, axis=1, kind="mergesort")
    s = np.take_along_axis(a, order, axis=1)
    pos = np.arange(n)
    first = np.ones(a.shape, dtype=bool)
    first[:, 1:] = s[:, 1:] != s[:, :-1]
    last = np.ones(a.shape, dtype=bool)
    last[:, :-1] = first[:, 1:]
    # the first and last sorted position of each position's tie group
    start = np.maximum.accumulate(np.where(first, pos, 0), axis=1)
    end = np.minimum.accumulate(np.where(last, pos, n)[:, ::-1], axis=1)[:, ::-1]
    ranks = np.empty(a.shape)
    np.put_along_axis(ranks, order, (start + end) / 2.0 + 1.0, axis=1)
    return ranks.reshape(scores.shape)


def roc_auc(y_true: np.ndarray, scores: np.ndarray) -> float:
    """Area under the ROC curve via the Mann-Whitney statistic; ties count one half."""
    y = np.asarray(y_true, dtype=bool)
    n_pos = int(y.sum())
    n_neg = y.size - n_pos
    if n_pos == 0 or n_neg == 0:
        raise ValueError("AUC needs at least one positive and one negative example")
    ranks = average_ranks(scores)  # a tie between classes counts 1/2
    return float((ranks[y].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def binary_metrics(y_true: np.ndarray, scores: np.ndarray, threshold: float = 0.0) -> dict:
    """Accuracy, recall (TPR), FPR, precision and AUC of ``scores > threshold``.

    ``scores`` are decision values (logits), so threshold 0 is probability 0.5.
    Precision with no positive prediction is 0, scikit-learn's ``zero_division`` default.
    """
    y = np.asarray(y_true, dtype=bool)
    pred = np.asarray(scores) > threshold
    tp = int((pred & y).sum())
    fp = int((pred & ~y).sum())
    n_pos = int(y.sum())
    n_neg = y.size - n_pos
    tn = n_neg - fp
    return {
        "accuracy": (tp + tn) / y.size,
        "recall": tp / n_pos,
        "fpr": fp / n_neg,
        "precision": tp / (tp + fp) if tp + fp else 0.0,
        "auc": roc_auc(y, scores),
    }


def batch_metrics(y_true: np.ndarray, scores: np.ndarray, threshold: float = 0.0) -> dict:
    """:func:`binary_metrics` of every row of (B, n) arrays at once: a dict of (B,) arrays.
    One call for the 1000 test sets of a list instead of 1000 calls."""
    y = np.asarray(y_true, dtype=bool)
    scores = np.asarray(scores)
    pred = scores > threshold
    tp = (pred & y).sum(axis=1)
    fp = (pred & ~y).sum(axis=1)
    n_pos = y.sum(axis=1)
    n_neg = y.shape[1] - n_pos
    if (n_pos == 0).any() or (n_neg == 0).any():
        raise ValueError("AUC needs at least one positive and one negative example per row")
    ranks = average_ranks(scores)  # as in roc_auc
    rank_sum = np.where(y, ranks, 0.0).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(tp + fp > 0, tp / np.maximum(tp + fp, 1), 0.0)
    return {
        "accuracy": (tp + (n_neg - fp)) / y.shape[1],
        "recall": tp / n_pos,
        "fpr": fp / n_neg,
        "precision": precision,
        "auc": (rank_sum - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg),
    }


# FPR grid of the mean ROC curve: 0, 0.01, ..., 1
ROC_GRID = np.linspace(0.0, 1.0, 101)


def roc_curve(y_true: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(fpr, tpr) at every distinct threshold, from (0, 0) to (1, 1)."""
    y = np.asarray(y_true, dtype=bool)
    order = np.argsort(-np.asarray(scores), kind="mergesort")
    s = np.asarray(scores)[order]
    yy = y[order]
    tps = np.cumsum(yy)
    fps = np.cumsum(~yy)
    last = np.r_[np.flatnonzero(np.diff(s)), yy.size - 1]  # last index of each threshold
    tpr = np.r_[0.0, tps[last] / tps[-1]]
    fpr = np.r_[0.0, fps[last] / fps[-1]]
    return fpr, tpr


def tpr_at(y_true: np.ndarray, scores: np.ndarray, grid: np.ndarray = ROC_GRID) -> np.ndarray:
    """TPR interpolated at fixed FPRs, so curves of many iterations can be averaged.

    The convention of scikit-learn's mean-ROC example: linear interpolation of the curve,
    with TPR 0 at FPR 0.
    """
    fpr, tpr = roc_curve(y_true, scores)
    out = np.interp(grid, fpr, tpr)
    out[grid == 0] = 0.0
    return out


def batch_tpr_at(y_true: np.ndarray, scores: np.ndarray, grid: np.ndarray = ROC_GRID) -> np.ndarray:
    """:func:`tpr_at` of every row of (B, n) arrays at once: (B, len(grid)).

    Each position of a row's descending order gets the (FPR, TPR) of the last position of
    its tie group, so the n + 1 points (origin first) are the ROC curve's points with
    repeats; repeats do not change a linear interpolation, so this equals np.interp over
    the distinct thresholds."""
    y = np.asarray(y_true, dtype=bool)
    scores = np.asarray(scores)
    B, n = y.shape
    order = np.argsort(-scores, axis=1, kind="mergesort")
    s = np.take_along_axis(scores, order, axis=1)
    yy = np.take_along_axis(y, order, axis=1)
    tps = np.cumsum(yy, axis=1)
    fps = np.cumsum(~yy, axis=1)
    last = np.ones((B, n), dtype=bool)
    last[:, :-1] = s[:, 1:] != s[:, :-1]
    # index of the end of each position's tie group: a reverse running minimum
    end = np.where(last, np.arange(n), n)
    end = np.minimum.accumulate(end[:, ::-1], axis=1)[:, ::-1]
    xp = np.zeros((B, n + 1))
    fp = np.zeros((B, n + 1))
    xp[:, 1:] = np.take_along_axis(fps, end, axis=1) / fps[:, -1:]
    fp[:, 1:] = np.take_along_axis(tps, end, axis=1) / tps[:, -1:]
    # np.interp's left anchor, the last point with xp <= x, is (number of such points) - 1;
    # count them per grid value from where each point falls in the (sorted) grid
    G = grid.size
    first = np.searchsorted(grid, xp, side="left")  # first grid value >= each point
    hits = np.bincount((np.arange(B)[:, None] * (G + 1) + first).ravel(), minlength=B * (G + 1))
    j = np.cumsum(hits.reshape(B, G + 1), axis=1)[:, :G] - 1
    j = np.clip(j, 0, n)
    jn = np.minimum(j + 1, n)
    x0 = np.take_along_axis(xp, j, axis=1)
    x1 = np.take_along_axis(xp, jn, axis=1)
    y0 = np.take_along_axis(fp, j, axis=1)
    y1 = np.take_along_axis(fp, jn, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        slope = np.where(x1 > x0, (y1 - y0) / (x1 - x0), 0.0)
    out = y0 + (grid[None, :] - x0) * slope
    out[:, grid == 0] = 0.0
    return out

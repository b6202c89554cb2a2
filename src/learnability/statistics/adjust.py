"""Multiple-testing adjustment, shared by the p-values against random lists (across a
run's lists) and the comparisons between embeddings (across pairs)."""

from __future__ import annotations

import numpy as np


def adjust_pvalues(p: np.ndarray, method: str) -> np.ndarray:
    """Family-wise (``holm``) or false-discovery-rate (``bh``, Benjamini-Hochberg)
    adjusted p-values; ``none`` returns them unchanged. NaNs are left out of the family."""
    p = np.asarray(p, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    q = p[ok]
    m = q.size
    if m == 0 or method == "none":
        out[ok] = q
        return out
    order = np.argsort(q, kind="stable")
    ranked = q[order]
    if method == "holm":
        adj = np.maximum.accumulate((m - np.arange(m)) * ranked)
    elif method == "bh":
        adj = np.minimum.accumulate(m / np.arange(m, 0, -1) * ranked[::-1])[::-1]
    else:
        raise ValueError(f"unknown p-value adjustment {method!r}; use holm, bh or none")
    res = np.empty(m)
    res[order] = np.minimum(adj, 1.0)
    out[ok] = res
    return out

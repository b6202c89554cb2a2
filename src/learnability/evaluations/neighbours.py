"""Cosine nearest neighbours over a whole vocabulary, by blocks of queries.

Every evaluation that ranks the vocabulary (multi-answer similarity, analogies, the
hierarchy, pseudo-disambiguation) goes through :func:`top_k` or :func:`cosine_scores`, so
they share one definition of similarity and one tie rule.

Similarities are float32 dot products of the stored (float32) vectors divided by their
norms, as gensim computes them, so that our rankings are gensim's up to BLAS rounding. A
block of queries is scored against the whole vocabulary with one matrix product (a GEMM
runs at the machine's matmul speed; one query at a time is a GEMV that reads the whole
matrix per query), and the block size bounds the memory of the (queries x vocabulary)
score matrix. A vocabulary too large for a useful block of queries (at 2.5 M words a
64 MB block held 6 queries, and each block read the whole 3 GB matrix) is scored in
tiles: a block of ``QUERY_TILE`` queries against a slice of the rows at a time, each
slice's top k merged into a running top k, so the matrix is read once per block.

Ties are broken by the lower vocabulary index (the more frequent word, in our stores),
so a ranking never depends on the order in which a sort happens to visit equal scores.
"""

from __future__ import annotations

import numpy as np

# Bytes of one (queries x vocabulary) float32 block of scores.
DEFAULT_BLOCK_BYTES = 64 << 20
# Queries per block below which top_k scores the vocabulary in slices instead
QUERY_TILE = 512


def norms(vectors: np.ndarray) -> np.ndarray:
    """Row norms in float32; a zero vector gets norm 1 so that its cosines are 0, not NaN
    (zero rows are refused at import, but a restricted or random store may hold one)."""
    n = np.sqrt(np.einsum("ij,ij->i", vectors, vectors, dtype=np.float64)).astype(np.float32)
    n[n == 0] = 1.0
    return n


def unit_rows(vectors: np.ndarray, row_norms: np.ndarray | None = None) -> np.ndarray:
    """The rows scaled to unit length, float32 (gensim's ``get_vector(norm=True)``)."""
    if row_norms is None:
        row_norms = norms(vectors)
    return (np.asarray(vectors, dtype=np.float32) / row_norms[:, None]).astype(np.float32)


def cosine_scores(
    vectors: np.ndarray, row_norms: np.ndarray, targets: np.ndarray, limit: int | None = None
) -> np.ndarray:
    """(len(targets), limit) cosines of each target against the first ``limit`` rows
    (all rows by default). Targets must be unit length; the division by the rows' norms
    follows the dot product, as in gensim's ``most_similar``."""
    limit = vectors.shape[0] if limit is None else min(limit, vectors.shape[0])
    rows = np.asarray(vectors[:limit], dtype=np.float32)
    scores = np.asarray(targets, dtype=np.float32) @ rows.T
    scores /= row_norms[:limit][None, :]
    return scores


def block_size(n_candidates: int, block_bytes: int = DEFAULT_BLOCK_BYTES) -> int:
    return max(1, block_bytes // (4 * max(1, n_candidates)))


def top_of_scores(scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Indices and values of the k largest entries of each row, best first, ties by the
    lower index. Entries set to -inf are never returned while k finite ones remain."""
    n = scores.shape[1]
    k = min(k, n)
    if k == 0:
        return np.empty((scores.shape[0], 0), np.int64), np.empty((scores.shape[0], 0))
    part = (
        np.argpartition(-scores, k - 1, axis=1)[:, :k]
        if k < n
        else np.tile(np.arange(n), (scores.shape[0], 1))
    )
    vals = np.take_along_axis(scores, part, axis=1)
    # argpartition picks an arbitrary member of a tie that straddles the k-th place:
    # widen to every entry equal to the k-th value, so the index tie rule can apply
    kth = vals.min(axis=1)
    need = (scores == kth[:, None]).sum(axis=1) > (vals == kth[:, None]).sum(axis=1)
    for r in np.flatnonzero(need):  # rare: exact float ties at the boundary
        above = np.flatnonzero(scores[r] > kth[r])
        at = np.flatnonzero(scores[r] == kth[r])[: k - above.size]
        part[r] = np.concatenate([above, at])
        vals[r] = scores[r, part[r]]
    order = np.lexsort((part, -vals), axis=1)
    idx = np.take_along_axis(part, order, axis=1)
    return idx.astype(np.int64), np.take_along_axis(vals, order, axis=1)


def top_k(
    vectors: np.ndarray,
    queries: np.ndarray,
    k: int,
    *,
    row_norms: np.ndarray | None = None,
    limit: int | None = None,
    exclude_self: bool = True,
    block_bytes: int = DEFAULT_BLOCK_BYTES,
) -> tuple[np.ndarray, np.ndarray]:
    """The k nearest rows (cosine) to each query row, among the first ``limit`` rows.

    Returns (indices (Q, k) int64, cosines (Q, k) float32), best first. With
    ``exclude_self`` a query is never its own neighbour.
    """
    queries = np.asarray(queries, dtype=np.int64)
    if row_norms is None:
        row_norms = norms(vectors)
    limit = vectors.shape[0] if limit is None else min(limit, vectors.shape[0])
    k = min(k, limit - (1 if exclude_self else 0))
    out_idx = np.empty((queries.size, max(k, 0)), np.int64)
    out_sim = np.empty((queries.size, max(k, 0)), np.float32)
    step = block_size(limit, block_bytes)
    # rows per slice: the whole vocabulary while a block holds QUERY_TILE queries
    width = limit
    if step < min(QUERY_TILE, queries.size):
        step = min(QUERY_TILE, queries.size)
        width = max(k + 1, block_bytes // (4 * step))
    for start in range(0, queries.size, step):
        q = queries[start : start + step]
        targets = np.asarray(vectors[q], dtype=np.float32) / row_norms[q][:, None]
        best_idx = best_sim = None
        for lo in range(0, limit, width):
            hi = min(lo + width, limit)
            scores = _slice_scores(vectors, row_norms, targets, lo, hi)
            if exclude_self:
                inside = (q >= lo) & (q < hi)
                scores[np.flatnonzero(inside), q[inside] - lo] = -np.inf
            idx, sim = top_of_scores(scores, k)
            idx += lo
            if best_idx is not None:  # merge: the top k of both, ties to the lower index
                idx = np.concatenate([best_idx, idx], axis=1)
                sim = np.concatenate([best_sim, sim], axis=1)
                order = np.lexsort((idx, -sim), axis=1)[:, :k]
                idx = np.take_along_axis(idx, order, axis=1)
                sim = np.take_along_axis(sim, order, axis=1)
            best_idx, best_sim = idx, sim
        out_idx[start : start + step], out_sim[start : start + step] = best_idx, best_sim
    return out_idx, out_sim


def _slice_scores(
    vectors: np.ndarray, row_norms: np.ndarray, targets: np.ndarray, lo: int, hi: int
) -> np.ndarray:
    """Cosines of unit ``targets`` against rows [lo, hi): :func:`cosine_scores` on a
    slice of the vocabulary."""
    rows = np.asarray(vectors[lo:hi], dtype=np.float32)
    scores = targets @ rows.T
    scores /= row_norms[lo:hi][None, :]
    return scores

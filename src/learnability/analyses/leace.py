"""LEACE, LEAst-squares Concept Erasure (Belrose et al. 2023, "LEACE: Perfect linear
concept erasure in closed form"), for one binary concept.

Given rows X and a label z, the eraser is r(x) = x - W+ P W (x - mu), with W = Sigma^-1/2
the whitening of X's covariance, W+ its pseudo-inverse and P the orthogonal projection
onto W Sigma_xz (Sigma_xz the cross-covariance of X and z). After it, the class means of
r(X) are equal, so no linear classifier fitted on (r(X), z) does better than a constant
(logistic regression's optimum is w = 0), and among all erasers that achieve that it
moves the rows least (in the whitened norm).

With one label the projection has rank one, so r(x) = x - a ((x - mu) . b) with a = W+
u / |u| and b = W u / |u|, u = W Sigma_xz: an eraser is two vectors and the mean, and
erasing a 400,000-word vocabulary is one matrix-vector product and a rank-one update.
The covariance's square roots are computed once per embedding (:class:`Whitening`) and
shared by every concept erased from it.

Nothing here copies the whole matrix: the mean and covariance are summed block by block
(float64 sums of float32 rows, memory-mapped or not), an eraser is fitted from its
members' rows and the mean, and it is applied to the rows it is given; the only
whole-vocabulary array is one coordinate per row (:meth:`Eraser.coordinate`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# eigenvalues below this share of the largest are treated as zero (the pseudo-inverse):
# a covariance of fewer rows than dimensions, or of vectors with a constant coordinate
RCOND = 1e-10
# rows per block of the sums over the vocabulary: 65,536 x 300 float64 is 150 MiB
BLOCK_ROWS = 1 << 16


def blocks(n: int, rows: int | None = None):
    """Slices of ``rows`` (default :data:`BLOCK_ROWS`) consecutive rows covering ``n``."""
    step = rows or BLOCK_ROWS
    for start in range(0, n, step):
        yield slice(start, min(n, start + step))


@dataclass(frozen=True)
class Whitening:
    """The mean of the erasure data and its covariance's square root and pseudo-inverse
    square root (Sigma^1/2 and Sigma^-1/2)."""

    mean: np.ndarray
    root: np.ndarray
    inverse_root: np.ndarray

    @classmethod
    def of(cls, x: np.ndarray) -> Whitening:
        """The whitening of rows ``x`` (any float array, memory-mapped included), summed
        block by block."""
        n, d = x.shape
        # sums about a shift (the first block's mean), not about 0: the covariance is a
        # difference of sums, and a shift near the mean keeps it from cancelling
        shift = np.asarray(x[: min(n, BLOCK_ROWS)], dtype=np.float64).mean(axis=0)
        total, cross = np.zeros(d), np.zeros((d, d))
        for rows in blocks(n):
            block = np.asarray(x[rows], dtype=np.float64) - shift
            total += block.sum(axis=0)
            cross += block.T @ block
        offset = total / n
        mean = shift + offset
        sigma = cross / n - np.outer(offset, offset)
        values, vectors = np.linalg.eigh(sigma)
        keep = values > RCOND * max(values.max(), 0.0)
        sq = np.where(keep, np.sqrt(np.clip(values, 0, None)), 0.0)
        inv = np.where(keep, 1.0 / np.where(keep, sq, 1.0), 0.0)
        return cls(mean, (vectors * sq) @ vectors.T, (vectors * inv) @ vectors.T)


@dataclass(frozen=True)
class Eraser:
    """r(x) = x - a ((x - mean) . b): the LEACE eraser of one binary concept."""

    mean: np.ndarray
    a: np.ndarray
    b: np.ndarray

    @classmethod
    def fit(cls, x: np.ndarray, z: np.ndarray, whitening: Whitening | None = None) -> Eraser:
        """The eraser of label ``z`` (0/1 per row) from rows ``x``; ``whitening``: x's,
        if already computed (it depends on x alone, not on the concept)."""
        z = np.asarray(z, dtype=np.float64)
        white = whitening or Whitening.of(x)
        # the centred label sums to zero, so x's mean drops out of the cross-covariance
        zc = z - z.mean()
        sigma_xz = sum(np.asarray(x[r], dtype=np.float64).T @ zc[r] for r in blocks(len(z)))
        return cls._of(white, sigma_xz / len(z))

    @classmethod
    def of_members(cls, x: np.ndarray, members: np.ndarray, whitening: Whitening) -> Eraser:
        """The eraser of membership of ``members`` (row indices, distinct), from their
        rows and the whitening's mean alone: with z the 0/1 label, X^T (z - mean z) is
        the members' sum less their count times the mean row."""
        rows = np.asarray(x[np.sort(members)], dtype=np.float64)
        sigma_xz = (rows.sum(axis=0) - len(rows) * whitening.mean) / x.shape[0]
        return cls._of(whitening, sigma_xz)

    @classmethod
    def _of(cls, white: Whitening, sigma_xz: np.ndarray) -> Eraser:
        u = white.inverse_root @ sigma_xz
        norm = np.linalg.norm(u)
        if norm == 0:  # z is constant, or uncorrelated with x: nothing to erase
            d = len(sigma_xz)
            return cls(white.mean, np.zeros(d), np.zeros(d))
        u /= norm
        return cls(white.mean, white.root @ u, white.inverse_root @ u)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """The rows ``x`` erased (a float64 copy of them: pass the rows needed, not the
        whole vocabulary)."""
        x = np.asarray(x, dtype=np.float64)
        return x - np.outer(x @ self.b - self.mean @ self.b, self.a)

    def coordinate(self, x: np.ndarray) -> np.ndarray:
        """Every row's coordinate along the erased direction, (x - mean) . b, block by
        block: what erasing moves each row by (times ``a``)."""
        offset = self.mean @ self.b
        out = np.empty(x.shape[0])
        for rows in blocks(x.shape[0]):
            out[rows] = np.asarray(x[rows], dtype=np.float64) @ self.b - offset
        return out

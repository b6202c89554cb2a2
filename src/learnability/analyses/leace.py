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
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# eigenvalues below this share of the largest are treated as zero (the pseudo-inverse):
# a covariance of fewer rows than dimensions, or of vectors with a constant coordinate
RCOND = 1e-10


@dataclass(frozen=True)
class Whitening:
    """The mean of the erasure data and its covariance's square root and pseudo-inverse
    square root (Sigma^1/2 and Sigma^-1/2)."""

    mean: np.ndarray
    root: np.ndarray
    inverse_root: np.ndarray

    @classmethod
    def of(cls, x: np.ndarray) -> Whitening:
        x = np.asarray(x, dtype=np.float64)
        mean = x.mean(axis=0)
        xc = x - mean
        sigma = xc.T @ xc / x.shape[0]
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
        x = np.asarray(x, dtype=np.float64)
        z = np.asarray(z, dtype=np.float64)
        white = whitening or Whitening.of(x)
        # the centred label sums to zero, so x's mean drops out of the cross-covariance
        sigma_xz = x.T @ (z - z.mean()) / x.shape[0]
        u = white.inverse_root @ sigma_xz
        norm = np.linalg.norm(u)
        if norm == 0:  # z is constant, or uncorrelated with x: nothing to erase
            d = x.shape[1]
            return cls(white.mean, np.zeros(d), np.zeros(d))
        u /= norm
        return cls(white.mean, white.root @ u, white.inverse_root @ u)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, dtype=np.float64)
        return x - np.outer(x @ self.b - self.mean @ self.b, self.a)

"""The one generator of a planted concept: Gaussian vectors with a set of rows shifted
along one direction, so that the concept's answer (learnable, by how much, which words)
is known before any code under test runs."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Planted:
    vectors: np.ndarray  # (n, dim) float64
    members: np.ndarray  # the concept's rows, sorted
    direction: np.ndarray  # the unit vector they were shifted along
    rng: np.random.Generator  # the generator after the draws, for a test's further draws

    @property
    def words(self) -> list[str]:
        """``w0``, ``w1``, ...: a word per row."""
        return [f"w{i}" for i in range(self.vectors.shape[0])]


def planted_concept(
    seed: int,
    *,
    n: int = 2000,
    dim: int = 50,
    size: int = 200,
    shift: float = 3.0,
    axis: int | None = None,
    scattered: bool = False,
) -> Planted:
    """``n`` standard Gaussian vectors of ``dim`` dimensions, ``size`` of them (the first
    rows, or rows drawn at random where ``scattered``) moved ``shift`` along a unit
    direction: the coordinate ``axis``, or a random direction where it is None. Drawn in
    that order (vectors, rows, direction) from ``np.random.default_rng(seed)``."""
    rng = np.random.default_rng(seed)
    vectors = rng.standard_normal((n, dim))
    if scattered:
        members = np.sort(rng.choice(n, size, replace=False))
    else:
        members = np.arange(size)
    if axis is None:
        direction = rng.standard_normal(dim)
        direction /= np.linalg.norm(direction)
    else:
        direction = np.zeros(dim)
        direction[axis] = 1.0
    vectors[members] += shift * direction
    return Planted(vectors, members, direction, rng)


def clustered_embedding(
    seed: int, words: int = 4000, dim: int = 50, pool: int = 400
) -> tuple[np.ndarray, np.ndarray, int]:
    """Clustered Gaussian vectors (80 centres, so random lists' true AUCs vary, as on real
    vectors: between / (within / 10 splits) about 1), a unit concept direction, and the
    size of the pool of concept words (rows 0..pool-1), not yet moved: see
    :func:`plant_along`. The power and bounds tests' embedding."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((80, dim))
    x = 1.5 * centres[rng.integers(0, 80, words)] + rng.standard_normal((words, dim))
    u = rng.standard_normal(dim)
    return x, u / np.linalg.norm(u), pool


def plant_along(
    x: np.ndarray, u: np.ndarray, pool: int, strength: float, weights: np.ndarray | None = None
) -> np.ndarray:
    """A copy of ``x`` with its first ``pool`` rows moved ``strength`` along ``u`` (each
    times its weight, where the members carry the concept unequally)."""
    y = x.copy()
    w = np.ones(pool) if weights is None else weights
    y[:pool] += (strength * w)[:, None] * u[None, :]
    return y

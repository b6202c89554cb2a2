"""Gaussian random embedding: the paper's Table 2 baseline, which must sit at chance."""

from __future__ import annotations

import numpy as np

from learnability.embeddings.store import Embedding


def random_embedding(reference: Embedding, dim: int, seed: int) -> Embedding:
    """N(0, 1) vectors over ``reference``'s vocabulary (words and corpus counts copied)."""
    rng = np.random.default_rng(seed)
    vectors = rng.standard_normal((len(reference), dim), dtype=np.float32)
    return Embedding(
        words=list(reference.words),
        vectors=vectors,
        counts=np.asarray(reference.counts).copy(),
        meta={"method": "random", "reference": reference.name, "seed": seed},
    )

"""Gaussian random embedding: the paper's Table 2 baseline, which must sit at chance."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

from learnability.embeddings.store import Embedding, save_vocabulary
from learnability.io import atomic_path, write_float32_npy_header

# rows drawn and written at a time by write_random_embedding: 64 MB of float32 at dim 300
BLOCK_BYTES = 64 * 2**20


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


def write_random_embedding(
    reference: str | os.PathLike[str],
    directory: str | os.PathLike[str],
    *,
    dim: int,
    seed: int,
    name: str,
    block_rows: int | None = None,
) -> int:
    """:func:`random_embedding` of the embedding stored in ``reference``, written to
    ``directory`` a block of rows at a time: the same bytes, without holding the V x dim
    matrix (3 GB at 2.5 M words and dim 300). numpy's Generator fills rows in order, so
    consecutive blocks continue one stream. Returns the number of words."""
    vocab = pd.read_parquet(
        Path(reference) / "vocab.parquet", columns=["embedding", "word", "count"]
    )
    n = len(vocab)
    rows = block_rows or max(1, BLOCK_BYTES // (4 * dim))
    rng = np.random.default_rng(seed)
    directory = Path(directory)
    with atomic_path(directory / "vectors.npy") as tmp, open(tmp, "wb") as fh:
        write_float32_npy_header(fh, (n, dim))
        for start in range(0, n, rows):
            fh.write(rng.standard_normal((min(rows, n - start), dim), dtype=np.float32).data)
    reference_name = str(vocab["embedding"].iloc[0]) if n else Path(reference).name
    save_vocabulary(
        directory,
        name=name,
        words=vocab["word"].astype(str).reset_index(drop=True),
        counts=vocab["count"].to_numpy(dtype=np.int64),
        dim=dim,
        meta={"method": "random", "reference": reference_name, "seed": seed},
    )
    return n

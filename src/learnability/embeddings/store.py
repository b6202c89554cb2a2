"""The on-disk embedding format shared by every trainer and importer.

A directory holding:

- ``vectors.npy``: float32 array, one row per word, in vocabulary order;
- ``vocab.parquet``: ``embedding, index, word, count`` (schema ``vocab``), where ``count``
  is the word's frequency in the training corpus (0 when unknown);
- ``meta.json``: method, hyperparameters, training time and throughput.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from learnability.errors import InputError
from learnability.io import atomic_path, stamp, write_json
from learnability.schemas import write_table


@dataclass
class Embedding:
    words: list[str]
    vectors: np.ndarray
    counts: np.ndarray
    name: str = ""
    meta: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.vectors.ndim != 2 or self.vectors.shape[0] != len(self.words):
            raise InputError(
                f"embedding {self.name!r}: {len(self.words)} words but vectors of shape "
                f"{self.vectors.shape}"
            )
        if len(self.counts) != len(self.words):
            raise InputError(f"embedding {self.name!r}: counts and words differ in length")
        self._index: dict[str, int] | None = None

    @property
    def index(self) -> dict[str, int]:
        if self._index is None:
            self._index = {w: i for i, w in enumerate(self.words)}
        return self._index

    @property
    def dim(self) -> int:
        return int(self.vectors.shape[1])

    def __len__(self) -> int:
        return len(self.words)


def save_embedding(emb: Embedding, directory: str | os.PathLike[str]) -> None:
    directory = Path(directory)
    with atomic_path(directory / "vectors.npy") as tmp:
        with open(tmp, "wb") as fh:
            np.save(fh, np.ascontiguousarray(emb.vectors, dtype=np.float32))
    save_vocabulary(
        directory, name=emb.name, words=emb.words, counts=emb.counts, dim=emb.dim, meta=emb.meta
    )


def save_vocabulary(
    directory: str | os.PathLike[str],
    *,
    name: str,
    words: list[str] | pd.Series,
    counts: np.ndarray,
    dim: int,
    meta: dict,
) -> None:
    """``vocab.parquet`` and ``meta.json`` of an embedding whose ``vectors.npy`` is written
    by its own writer (:func:`save_embedding`, or a blocked one)."""
    directory = Path(directory)
    vocab = pd.DataFrame(
        {
            "embedding": name,
            "index": np.arange(len(words), dtype=np.int64),
            "word": words,
            "count": np.asarray(counts, dtype=np.int64),
        }
    )
    write_table(vocab, directory / "vocab.parquet", "vocab")
    meta = {"embedding": name, "dim": dim, "words": len(words), **meta}
    write_json(stamp(meta), directory / "meta.json")


def load_embedding(directory: str | os.PathLike[str], *, mmap: bool = False) -> Embedding:
    """Load an embedding written by :func:`save_embedding`."""
    directory = Path(directory)
    vocab = pd.read_parquet(directory / "vocab.parquet")
    vectors = np.load(directory / "vectors.npy", mmap_mode="r" if mmap else None)
    meta_path = directory / "meta.json"
    meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
    name = str(vocab["embedding"].iloc[0]) if len(vocab) else directory.name
    return Embedding(
        words=vocab["word"].astype(str).tolist(),
        vectors=vectors,
        counts=vocab["count"].to_numpy(dtype=np.int64),
        name=name,
        meta=meta,
    )

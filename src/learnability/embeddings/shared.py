"""A fair basis for comparing embeddings: the vocabulary they all share.

A paired Wilcoxon test over lists compares embeddings on the same lists; if one
embedding knows words another does not, their lists differ in content and size, and
their non-members are drawn from different vocabularies. Restricted to the shared
vocabulary, every compared embedding sees the same members, and, since the vocabularies
are then identical in order and counts, the same splits and the same non-members.

The shared vocabulary keeps the first compared embedding's order and counts (the counts
drive frequency-matched negatives, which must also be identical across embeddings).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

from learnability.errors import InputError
from learnability.io import atomic_path, stamp, write_float32_npy_header, write_json
from learnability.schemas import write_table


def shared_vocabulary(vocabs: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The words every vocabulary holds, in the first one's order, with its counts
    (schema ``vocab``, embedding ``shared``)."""
    names = list(vocabs)
    first = vocabs[names[0]]
    keep = np.ones(len(first), dtype=bool)
    for name in names[1:]:
        keep &= first["word"].isin(set(vocabs[name]["word"])).to_numpy()
    if not keep.any():
        raise InputError(f"the compared embeddings {names} share no word; compare others")
    words = first.loc[keep, "word"].to_numpy()
    return pd.DataFrame(
        {
            "embedding": "shared",
            "index": np.arange(words.size, dtype=np.int64),
            "word": words,
            "count": first.loc[keep, "count"].to_numpy(dtype=np.int64),
        }
    )


def restrict_embedding(
    directory: str | os.PathLike[str],
    shared: pd.DataFrame,
    out: str | os.PathLike[str],
    *,
    name: str,
    block: int = 1 << 15,
) -> dict:
    """Write ``directory``'s vectors for the ``shared`` words only, in their order, into
    ``out`` (vectors.npy, vocab.parquet with the shared counts, meta.json). Rows are
    gathered block by block from the memory-mapped source, so memory stays bounded."""
    directory, out = Path(directory), Path(out)
    vocab = pd.read_parquet(directory / "vocab.parquet", columns=["word"])
    vectors = np.load(directory / "vectors.npy", mmap_mode="r")
    position = pd.Series(np.arange(len(vocab)), index=pd.Index(vocab["word"]))
    missing = ~shared["word"].isin(position.index)
    if missing.any():
        raise InputError(
            f"{directory}: the shared word {shared['word'][missing].iloc[0]!r} is not in "
            "this embedding; the shared vocabulary is out of date, rerun shared_vocabulary"
        )
    rows = position.loc[shared["word"]].to_numpy(dtype=np.int64)
    out.mkdir(parents=True, exist_ok=True)
    with atomic_path(out / "vectors.npy") as tmp, open(tmp, "wb") as fh:
        write_float32_npy_header(fh, (rows.size, vectors.shape[1]))
        for lo in range(0, rows.size, block):
            chunk = rows[lo : lo + block]
            # sorted reads of the memory map, then back into the shared order
            order = np.argsort(chunk)
            gathered = np.empty((chunk.size, vectors.shape[1]), dtype="<f4")
            gathered[order] = vectors[chunk[order]]
            fh.write(gathered.tobytes())
    write_table(shared.assign(embedding=name), out / "vocab.parquet", "vocab")
    meta = {
        "embedding": name,
        "restricted_to": "shared vocabulary",
        "words": int(rows.size),
        "words_own": len(vocab),
        "words_dropped": len(vocab) - int(rows.size),
        "dim": int(vectors.shape[1]),
    }
    write_json(stamp(meta), out / "meta.json")
    return meta

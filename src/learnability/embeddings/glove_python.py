"""GloVe with the ``glove`` module of ``bicleaner-ai-glove`` (method ``glove_python``).

Kept for users who want the design's package; ``glove`` (:mod:`.glove`) is the
reference algorithm. This one ties word and context vectors and counts each pair once.

The vocabulary honours ``min_count``. Co-occurrences are counted by
:mod:`learnability.corpus.cooccur` in glove-python's own convention (words below min_count keep
their place in the window, no self pairs, upper triangle, 1/distance weights), within a
memory budget, sharding to disk beyond it; glove-python's counter held every pair in
memory and summed in single precision. ``x_max``/``alpha`` shape the weighting function
f(x) = min(1, (x / x_max) ** alpha).
"""

from __future__ import annotations

import time

import numpy as np
import scipy.sparse as sp
from glove import Glove

from learnability.corpus.cooccur import count_cooccurrences
from learnability.corpus.lines import LineCorpus, count_vocabulary
from learnability.embeddings.store import Embedding


def train_glove_python(
    corpus: str,
    params: dict,
    threads: int,
    *,
    count_memory_mb: int = 1024,
    tmpdir: str | None = None,
) -> Embedding:
    start = time.perf_counter()
    words, counts = count_vocabulary(corpus, int(params["min_count"]))
    dictionary = {w: i for i, w in enumerate(words)}
    rows, cols, vals, info = count_cooccurrences(
        LineCorpus(corpus),
        dictionary,
        int(params["window"]),
        mode="glove_python",
        budget_bytes=int(count_memory_mb) << 20,
    )
    matrix = sp.coo_matrix((vals, (rows, cols)), shape=(len(words), len(words)))
    counted = time.perf_counter()
    model = Glove(
        no_components=int(params["dim"]),
        learning_rate=float(params["learning_rate"]),
        alpha=float(params["alpha"]),
        max_count=float(params["x_max"]),
        random_state=int(params["seed"]),
    )
    model.fit(matrix, epochs=int(params["epochs"]), no_threads=int(threads))
    elapsed = time.perf_counter() - start
    vectors = np.asarray(model.word_vectors, dtype=np.float32)
    if not np.isfinite(vectors).all():
        raise FloatingPointError(
            "GloVe diverged (non-finite vectors); lower training.glove.learning_rate"
        )
    meta = {
        "method": "glove_python",
        "seconds": round(elapsed, 3),
        "counting_seconds": round(counted - start, 3),
        "cooccurrence_entries": int(matrix.nnz),
        "cooccurrence_shards": info["shards"],
        "corpus_words": int(counts.sum()),
        "params": dict(params),
    }
    return Embedding(words=words, vectors=vectors, counts=counts, meta=meta)

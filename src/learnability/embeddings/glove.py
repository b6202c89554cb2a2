"""GloVe with the ``glove`` module of ``bicleaner-ai-glove`` (see README for why).

The vocabulary honours ``min_count`` (words below it are skipped when counting, keeping
window distances), co-occurrences use a symmetric window with 1/distance weighting, and
``x_max``/``alpha`` shape the weighting function f(x) = min(1, (x / x_max) ** alpha).
"""

from __future__ import annotations

import time
from collections import Counter

import numpy as np
from glove import Corpus, Glove

from learnability.corpus import LineCorpus, iter_lines
from learnability.embeddings.store import Embedding


def count_vocabulary(corpus: str, min_count: int) -> tuple[list[str], np.ndarray]:
    """Words with count >= min_count, most frequent first (ties alphabetical)."""
    counts: Counter[str] = Counter()
    for tokens in iter_lines(corpus):
        counts.update(tokens)
    kept = sorted((w for w, c in counts.items() if c >= min_count), key=lambda w: (-counts[w], w))
    return kept, np.array([counts[w] for w in kept], dtype=np.int64)


def train_glove(corpus: str, params: dict, threads: int) -> Embedding:
    start = time.perf_counter()
    words, counts = count_vocabulary(corpus, int(params["min_count"]))
    dictionary = {w: i for i, w in enumerate(words)}
    cooc = Corpus(dictionary=dictionary)
    cooc.fit(LineCorpus(corpus), window=int(params["window"]), ignore_missing=True)
    counted = time.perf_counter()
    model = Glove(
        no_components=int(params["dim"]),
        learning_rate=float(params["learning_rate"]),
        alpha=float(params["alpha"]),
        max_count=float(params["x_max"]),
        random_state=int(params["seed"]),
    )
    model.fit(cooc.matrix, epochs=int(params["epochs"]), no_threads=int(threads))
    elapsed = time.perf_counter() - start
    vectors = np.asarray(model.word_vectors, dtype=np.float32)
    if not np.isfinite(vectors).all():
        raise FloatingPointError(
            "GloVe diverged (non-finite vectors); lower training.glove.learning_rate"
        )
    meta = {
        "method": "glove",
        "seconds": round(elapsed, 3),
        "counting_seconds": round(counted - start, 3),
        "cooccurrence_entries": int(cooc.matrix.nnz),
        "corpus_words": int(counts.sum()),
        "params": dict(params),
    }
    return Embedding(words=words, vectors=vectors, counts=counts, meta=meta)

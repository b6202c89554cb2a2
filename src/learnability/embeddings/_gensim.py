"""What gensim's word2vec and fastText trainers share: corpus, vocabulary, export.

Both train in gensim's ``corpus_file`` mode: the workers read byte ranges of a plain
text file themselves, without Python's GIL, so training scales with the rule's threads
(the iterable mode stops scaling at a few threads): :func:`._plain.plain_corpus`. With
one thread, training is bit-reproducible.
"""

from __future__ import annotations

import logging
import time

import numpy as np
from gensim.models.callbacks import CallbackAny2Vec

from learnability.embeddings._plain import plain_corpus
from learnability.embeddings.store import Embedding
from learnability.progress import Progress

log = logging.getLogger(__name__)


def common_kwargs(params: dict, threads: int) -> dict:
    return {
        "vector_size": int(params["dim"]),
        "window": int(params["window"]),
        "min_count": int(params["min_count"]),
        "sg": 1,  # skip-gram, as in the paper
        "negative": int(params["negative"]),
        "sample": float(params["sample"]),
        "alpha": float(params["alpha"]),
        "min_alpha": float(params["min_alpha"]),
        "epochs": int(params["epochs"]),
        "seed": int(params["seed"]),
        "workers": int(threads),
    }


class _EpochProgress(CallbackAny2Vec):
    """Logs each finished epoch with the rate and the ETA of the rest (gensim's own log
    gives the share of the current epoch, not the time left)."""

    def __init__(self, epochs: int) -> None:
        self.progress = Progress("training", epochs, unit="epochs", every=0.0, logger=log)

    def on_epoch_end(self, model) -> None:
        self.progress.update(1)


def train_gensim(
    model_cls: type, corpus: str, kwargs: dict, tmpdir: str | None = None
) -> Embedding:
    start = time.perf_counter()
    with plain_corpus(corpus, tmpdir) as plain:
        model = model_cls(**kwargs)
        model.build_vocab(corpus_file=str(plain))
        model.train(
            corpus_file=str(plain),
            total_examples=model.corpus_count,
            total_words=model.corpus_total_words,
            epochs=model.epochs,
            callbacks=[_EpochProgress(model.epochs)],
        )
    elapsed = time.perf_counter() - start
    wv = model.wv
    words = list(wv.index_to_key)
    counts = np.array([wv.get_vecattr(w, "count") for w in words], dtype=np.int64)
    trained_words = int(model.corpus_total_words) * int(model.epochs)
    meta = {
        "seconds": round(elapsed, 3),
        "corpus_words": int(model.corpus_total_words),
        "words_per_second": round(trained_words / elapsed, 1) if elapsed else None,
        "gensim_kwargs": kwargs,
        "corpus_mode": "corpus_file",
    }
    # wv.vectors are the input (word) vectors: for fastText they already include the
    # n-gram contribution, i.e. what wv[word] returns for an in-vocabulary word.
    return Embedding(
        words=words, vectors=np.asarray(wv.vectors, dtype=np.float32), counts=counts, meta=meta
    )

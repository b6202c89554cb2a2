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
from learnability.embeddings.checkpoint import Checkpoints, corpus_identity
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


def epoch_rates(alpha: float, min_alpha: float, epoch: int, epochs: int) -> tuple[float, float]:
    """The learning rate at the start and the end of ``epoch`` (from 0) of ``epochs``:
    gensim's linear decay from ``alpha`` to ``min_alpha`` over the whole training."""
    step = (alpha - min_alpha) / epochs
    return alpha - step * epoch, alpha - step * (epoch + 1)


def train_gensim(
    model_cls: type, corpus: str, kwargs: dict, tmpdir: str | None = None
) -> Embedding:
    """Train ``model_cls`` (gensim's Word2Vec or FastText) with ``kwargs`` on ``corpus``,
    one epoch at a time, each at its share of the learning rate's decay. With a
    ``tmpdir``, the model is saved there after every epoch
    (:class:`~learnability.embeddings.checkpoint.Checkpoints`), and a rerun of the same
    training resumes from the last one."""
    start = time.perf_counter()
    epochs = int(kwargs["epochs"])
    # threads change the pace, not what is trained: a rerun with others resumes too
    key = {"kwargs": {k: v for k, v in kwargs.items() if k != "workers"},
           "corpus": corpus_identity(corpus)}  # fmt: skip
    checkpoints = Checkpoints(tmpdir, model_cls.__name__.lower(), key) if tmpdir else None
    resumed = checkpoints.last() if checkpoints else None
    with plain_corpus(corpus, tmpdir) as plain:
        if resumed is not None:
            done, path = resumed
            model = model_cls.load(str(path / "model"))
            model.workers = int(kwargs["workers"])
            log.info("resuming from the checkpoint after epoch %d of %d: %s", done, epochs, path)
        else:
            done = 0
            model = model_cls(**kwargs)
            model.build_vocab(corpus_file=str(plain))
        progress = _EpochProgress(epochs - done)
        for epoch in range(done, epochs):
            # set on the model, not passed: train() reads a rate of 0 as "not given"
            model.alpha, model.min_alpha = epoch_rates(
                float(kwargs["alpha"]), float(kwargs["min_alpha"]), epoch, epochs
            )
            model.train(
                corpus_file=str(plain),
                total_examples=model.corpus_count,
                total_words=model.corpus_total_words,
                epochs=1,
                callbacks=[progress],
            )
            if checkpoints is not None and epoch + 1 < epochs:
                checkpoints.save(epoch + 1, lambda folder: model.save(str(folder / "model")))
    elapsed = time.perf_counter() - start
    wv = model.wv
    words = list(wv.index_to_key)
    counts = np.array([wv.get_vecattr(w, "count") for w in words], dtype=np.int64)
    trained_words = int(model.corpus_total_words) * epochs
    meta = {
        "seconds": round(elapsed, 3),
        "corpus_words": int(model.corpus_total_words),
        "words_per_second": round(trained_words / elapsed, 1) if elapsed else None,
        "gensim_kwargs": kwargs,
        "corpus_mode": "corpus_file",
        # epochs a killed run had trained (0: trained from the start)
        "resumed_after_epochs": done if resumed is not None else 0,
    }
    vectors = np.asarray(wv.vectors, dtype=np.float32)
    if checkpoints is not None:
        checkpoints.clear()
    # wv.vectors are the input (word) vectors: for fastText they already include the
    # n-gram contribution, i.e. what wv[word] returns for an in-vocabulary word.
    return Embedding(words=words, vectors=vectors, counts=counts, meta=meta)

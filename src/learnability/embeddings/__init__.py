"""Embedding trainers and the one on-disk format they all write (see :mod:`.store`)."""

from learnability.embeddings.store import Embedding, load_embedding, save_embedding

METHODS = ("word2vec", "fasttext", "glove", "glove_python", "random")
TRAINED = METHODS[:4]

__all__ = ["METHODS", "Embedding", "load_embedding", "save_embedding", "train"]


def train(
    method: str,
    corpus: str,
    params: dict,
    threads: int,
    *,
    count_memory_mb: int = 1024,
    tmpdir: str | None = None,
) -> Embedding:
    """Dispatch to the trainer for ``method``; each returns an unnamed :class:`Embedding`.
    ``count_memory_mb`` bounds GloVe's co-occurrence counting (not a hyperparameter: the
    counts do not depend on it); ``tmpdir`` takes word2vec's and fastText's plain-text
    copy of the corpus and GloVe's count shards and buckets."""
    if method == "word2vec":
        from learnability.embeddings.word2vec import train_word2vec

        return train_word2vec(corpus, params, threads, tmpdir)
    if method == "fasttext":
        from learnability.embeddings.fasttext import train_fasttext

        return train_fasttext(corpus, params, threads, tmpdir)
    if method == "glove":
        from learnability.embeddings.glove import train_glove

        return train_glove(corpus, params, threads, count_memory_mb=count_memory_mb, tmpdir=tmpdir)
    if method == "glove_python":
        from learnability.embeddings.glove_python import train_glove_python

        return train_glove_python(corpus, params, threads, count_memory_mb=count_memory_mb)
    raise ValueError(f"unknown training method {method!r}; expected one of {TRAINED}")

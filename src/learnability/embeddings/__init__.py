"""Embedding trainers and the one on-disk format they all write (see :mod:`.store`).
Which methods exist, and what each reads and costs, is :mod:`.registry`."""

from learnability.embeddings.registry import METHODS as _REGISTRY
from learnability.embeddings.registry import TRAINED, method
from learnability.embeddings.store import Embedding, load_embedding, save_embedding

METHODS = tuple(_REGISTRY)

__all__ = ["METHODS", "TRAINED", "Embedding", "load_embedding", "save_embedding", "train"]


def train(
    method_name: str,
    corpus: str,
    params: dict,
    threads: int,
    *,
    count_memory_mb: int = 1024,
    tmpdir: str | None = None,
) -> Embedding:
    """Train ``method_name``'s embedding (an unnamed :class:`Embedding`) through its
    registry entry. ``count_memory_mb`` bounds GloVe's co-occurrence counting (not a
    hyperparameter: the counts do not depend on it); ``tmpdir`` takes the plain-text copy
    of the corpus (word2vec, both fastTexts) and GloVe's count shards and buckets."""
    entry = method(method_name)
    if entry.trainer is None:
        raise ValueError(f"{method_name!r} is not trained; trained methods: {', '.join(TRAINED)}")
    return entry.train_function()(
        corpus, params, threads, count_memory_mb=count_memory_mb, tmpdir=tmpdir
    )

"""Skip-gram word2vec with gensim."""

from __future__ import annotations

from gensim.models import Word2Vec

from learnability.embeddings._gensim import common_kwargs, train_gensim
from learnability.embeddings.store import Embedding


def train_word2vec(
    corpus: str,
    params: dict,
    threads: int,
    *,
    count_memory_mb: int = 1024,
    tmpdir: str | None = None,
) -> Embedding:
    emb = train_gensim(Word2Vec, corpus, common_kwargs(params, threads), tmpdir)
    emb.meta["method"] = "word2vec"
    return emb

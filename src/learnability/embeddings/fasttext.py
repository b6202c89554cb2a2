"""Skip-gram fastText with character n-grams, with gensim's FastText (see README for why)."""

from __future__ import annotations

from gensim.models import FastText

from learnability.embeddings._gensim import common_kwargs, train_gensim
from learnability.embeddings.store import Embedding


def train_fasttext(
    corpus: str,
    params: dict,
    threads: int,
    *,
    count_memory_mb: int = 1024,
    tmpdir: str | None = None,
) -> Embedding:
    kwargs = common_kwargs(params, threads)
    kwargs.update(
        min_n=int(params["minn"]),
        max_n=int(params["maxn"]),
        bucket=int(params["bucket"]),
    )
    emb = train_gensim(FastText, corpus, kwargs, tmpdir)
    emb.meta["method"] = "fasttext"
    return emb

"""Skip-gram fastText with Facebook's own implementation (the ``fasttext`` module; the
``fasttext_facebook`` extra installs the maintained fasttext-community wheel), from the
same ``training:`` keys as gensim's FastText (``method: fasttext``).

The keys map to fastText's arguments: dim, window -> ws, min_count -> minCount, epochs
-> epoch, negative -> neg, sample -> t, alpha -> lr, and fastText's minn, maxn and
bucket. ``min_alpha`` has no counterpart: fastText's rate decays linearly to 0. The
exported vectors are what ``get_word_vector`` returns for each vocabulary word (its own
vector averaged with its character n-grams', as gensim's FastText exports them), without
fastText's end-of-line token ``</s>``. With one thread, training is bit-reproducible.
"""

from __future__ import annotations

import time
from importlib.metadata import PackageNotFoundError, version

import numpy as np

from learnability.embeddings._plain import plain_corpus
from learnability.embeddings.store import Embedding

EOS = "</s>"


def train_fasttext_facebook(
    corpus: str,
    params: dict,
    threads: int,
    *,
    count_memory_mb: int = 1024,
    tmpdir: str | None = None,
) -> Embedding:
    import fasttext
    import fasttext.FastText as api

    kwargs = {
        "model": "skipgram",
        "dim": int(params["dim"]),
        "ws": int(params["window"]),
        "minCount": int(params["min_count"]),
        "epoch": int(params["epochs"]),
        "neg": int(params["negative"]),
        "t": float(params["sample"]),
        "lr": float(params["alpha"]),
        "minn": int(params["minn"]),
        "maxn": int(params["maxn"]),
        "bucket": int(params["bucket"]),
        "thread": int(threads),
        "verbose": 0,
    }
    seed = int(params["seed"])
    start = time.perf_counter()
    with plain_corpus(corpus, tmpdir) as plain:
        # train_unsupervised does not take fastText's `seed` argument, but fills every
        # argument it is not given from this module-level table, `seed` included: set it
        # there for the one call (test_embeddings checks that two seeds differ)
        defaults = api.unsupervised_default
        before = defaults.get("seed")
        defaults["seed"] = seed
        try:
            model = fasttext.train_unsupervised(str(plain), **kwargs)
        finally:
            defaults["seed"] = before
    elapsed = time.perf_counter() - start
    if model.f.getArgs().seed != seed:
        raise RuntimeError(f"this fasttext package ignored seed={seed}; see {__name__}")
    words, freqs = model.get_words(include_freq=True)
    keep = [i for i, w in enumerate(words) if w != EOS]
    words = [words[i] for i in keep]
    counts = np.asarray(freqs, dtype=np.int64)[keep]
    vectors = np.stack([model.get_word_vector(w) for w in words]).astype(np.float32)
    trained = int(counts.sum()) * kwargs["epoch"]
    meta = {
        "method": "fasttext_facebook",
        "seconds": round(elapsed, 3),
        "in_vocabulary_tokens": int(counts.sum()),
        "words_per_second": round(trained / elapsed, 1) if elapsed else None,
        "fasttext_kwargs": {**kwargs, "seed": seed},
        "fasttext_package": _package_version(),
    }
    return Embedding(words=words, vectors=vectors, counts=counts, meta=meta)


def _package_version() -> str:

    for dist in ("fasttext-community", "fasttext", "fasttext-wheel", "fasttext-numpy2"):
        try:
            return f"{dist} {version(dist)}"
        except PackageNotFoundError:
            continue
    return "unknown"

"""The embedding methods, one entry each: what a method reads from the config, which
function trains it, what it costs, and which optional package it needs. The trainer
dispatch (:func:`learnability.embeddings.train`), the config checks and the workflow's
resource estimates (``common.smk``) all read this table, so a new method is its trainer
module, its entry here, and its name in the config schema's ``method`` enum (a test
keeps the two equal).

Import-light on purpose: Snakemake reads it while it builds the DAG, and each trainer's
module (gensim, a compiled extension) is imported only when a job trains."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

SHARED_KEYS = ("dim", "min_count", "window", "seed")
GENSIM_KEYS = ("epochs", "negative", "sample", "alpha", "min_alpha")
RATE_TRANSFORMER = 2_000


@dataclass(frozen=True)
class Method:
    """One embedding method.

    ``trainer``: ``"module:function"``, called as ``function(corpus, params, threads, *,
    count_memory_mb, tmpdir)`` and returning an unnamed Embedding; None for the methods
    that are not trained (``random``, ``pretrained``). ``keys``: the ``training:`` keys
    it reads; ``nested``: (its block under ``training:``, the keys of that block it reads,
    None for all), so that a key it does not read never reruns it. ``rate``: tokens x
    epochs per second per thread at 100,000 words, falling as the vocabulary to the
    ``-rate_slope`` (benchmarks/measurements/rehearsal.csv); ``count_rate``: tokens per
    second per thread of a counting method's one pass; ``mem_per_mb``: MB of
    memory per MB of gzipped corpus, for a method without an analytic memory model
    (:func:`learnability.pipeline.resources.training_memory_mb`);
    ``counts_cooccurrence``: it also takes ``training.count_memory_mb``; ``plain_copy``:
    it trains from a plain-text copy of the corpus in its tmpdir. ``package``:
    (importable module, extra, what to install) when the trainer comes from an optional
    extra; ``python_below``: the first Python that package has no build for (its extra's
    requirement in pyproject.toml carries the same marker)."""

    name: str
    trainer: str | None = None
    keys: tuple[str, ...] = ()
    nested: tuple[str, tuple[str, ...] | None] | None = None
    rate: int = 0
    rate_slope: float = 0.0
    count_rate: int = 0
    mem_per_mb: int = 0
    counts_cooccurrence: bool = False
    plain_copy: bool = False
    package: tuple[str, str, str] | None = None
    python_below: tuple[int, int] | None = None

    def train_function(self) -> Callable:
        module, function = (self.trainer or "").split(":")
        return getattr(importlib.import_module(module), function)


_ENTRIES = (
    Method(
        "word2vec",
        "learnability.embeddings.word2vec:train_word2vec",
        SHARED_KEYS + GENSIM_KEYS,
        # 140k on the sample (8.7k words, in cache), 68k at 104k words and 18 M tokens
        # (benchmarks/scale.py, 2 threads): time grew as tokens^1.29 there, which
        # extrapolates to 35k at enwiki; 25k is 1.4x below that
        rate=25_000,
        mem_per_mb=2,
        plain_copy=True,
    ),
    Method(
        "fasttext",
        "learnability.embeddings.fasttext:train_fasttext",
        SHARED_KEYS + GENSIM_KEYS,
        nested=("fasttext", None),
        # 51k on the sample, 32k at 104k words; 23k: 1.3x the enwiki extrapolation
        # (benchmarks/scale.py, as word2vec's)
        rate=23_000,
        mem_per_mb=3,
        plain_copy=True,
    ),
    # Facebook's fastText (the `fasttext` module, from the fasttext-community wheel): the
    # same training: keys; min_alpha has no counterpart (its rate decays linearly to 0)
    Method(
        "fasttext_facebook",
        "learnability.embeddings.fasttext_facebook:train_fasttext_facebook",
        SHARED_KEYS + ("epochs", "negative", "sample", "alpha"),
        nested=("fasttext", None),
        rate=50_000,
        mem_per_mb=3,
        plain_copy=True,
        package=("fasttext", "fasttext_facebook", "fasttext-community"),
    ),
    # GloVe (ours): rate per iteration; 136k tokens/s per thread measured at 18 M tokens
    # (benchmarks/scale.py; counting, once, costs about one more iteration); 100k, and
    # 7 MB per MB of corpus, are 1.3x what its growth extrapolates to at enwiki.
    # Weights and AdaGrad sums, 32 x vocabulary x (dim + 1) bytes, about
    # 4 MB per MB at full scale (2.5 M words from ~6 GB), on top of the counting budget
    # and one 768 MB bucket of entries
    Method(
        "glove",
        "learnability.embeddings.glove:train_glove",
        SHARED_KEYS,
        nested=("glove", None),
        rate=100_000,
        mem_per_mb=7,
        counts_cooccurrence=True,
    ),
    # glove-python holds every co-occurrence entry in memory, and has no choice of output
    # vectors: `vectors` must not rerun it
    Method(
        "glove_python",
        "learnability.embeddings.glove_python:train_glove_python",
        SHARED_KEYS,
        nested=("glove", ("x_max", "alpha", "learning_rate", "epochs")),
        rate=120_000,
        mem_per_mb=10,
        counts_cooccurrence=True,
        package=("glove", "glove_python", "bicleaner-ai-glove"),
        # its wheels are for CPython 3.11 and 3.12, and its source does not build
        python_below=(3, 13),
    ),
    # a contextual model's static reduction (embeddings/transformer.py): ONNX through
    # onnxruntime, no PyTorch; the vocabulary from min_count, occurrences drawn by seed.
    # rate: corpus tokens per second per thread, measured with corpus pooling (N = 10)
    # on the sample (isolated pooling reads the corpus only to count it)
    Method(
        "transformer",
        "learnability.embeddings.transformer:train_transformer",
        ("min_count", "seed"),
        nested=("transformer", None),
        rate=RATE_TRANSFORMER,
        mem_per_mb=1,
        package=("onnxruntime", "transformer", "onnxruntime"),
    ),
    Method("random"),
    Method("pretrained"),
)
METHODS: dict[str, Method] = {m.name: m for m in _ENTRIES}
TRAINED = tuple(name for name, m in METHODS.items() if m.trainer)


def method(name: str) -> Method:
    """The entry of ``name``; a ValueError naming the known methods otherwise."""
    if name not in METHODS:
        raise ValueError(f"unknown embedding method {name!r}; known: {', '.join(METHODS)}")
    return METHODS[name]

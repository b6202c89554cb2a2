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

# the entries' cost constants: they size the training jobs (learnability.pipeline.resources)
# and change no vectors, so a refit of them reruns nothing (learnability.codedigest)
SIZING_FIELDS = ("rate", "rate_slope", "count_rate", "mem_per_mb")
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
        # wall tokens/s per thread (2 threads at 75 %): 252k, 166k and 147k at 71k, 111k
        # and 173k words (benchmarks/measurements/rehearsal.csv), 195k at 100k falling as
        # words^-0.6: 25k at enwiki's 3 M words, where the rows miss every cache
        rate=195_000,
        rate_slope=0.6,
        mem_per_mb=2,
        plain_copy=True,
    ),
    Method(
        "fasttext",
        "learnability.embeddings.fasttext:train_fasttext",
        SHARED_KEYS + GENSIM_KEYS,
        nested=("fasttext", None),
        # 107k, 89k and 90k at 71k, 111k and 173k words (rehearsal.csv, as word2vec's):
        # 97k at 100k words falling as words^-0.19, 51k at 3 M words
        rate=97_000,
        rate_slope=0.19,
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
    # GloVe (ours): rate per iteration, 392k, 424k and 372k tokens/s per thread at 71k,
    # 111k and 173k words (rehearsal.csv: its meta.json's training seconds, 2 threads at
    # 75 %), 400k at 100k words falling as words^-0.06 (its four V x 301 matrices are
    # out of cache at all three sizes already); counting, once, 1.2 M tokens/s per
    # process (by dump part, 2 processes). 7 MB per MB of corpus for the memory of a
    # method without an analytic model. Weights and AdaGrad sums, 32 x vocabulary x
    # (dim + 1) bytes, about 4 MB per MB at full scale (2.5 M words from ~6 GB), on top
    # of the counting budget and one 768 MB bucket of entries
    Method(
        "glove",
        "learnability.embeddings.glove:train_glove",
        SHARED_KEYS,
        nested=("glove", None),
        rate=400_000,
        rate_slope=0.06,
        count_rate=1_200_000,
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

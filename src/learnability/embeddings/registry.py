"""The embedding methods, one entry each: what a method reads from the config, which
function trains it, and which optional package it needs. The trainer dispatch
(:func:`learnability.embeddings.train`) and the config checks read this table, so a new
method is its trainer module, its entry here, its name in the config schema's ``method``
enum (a test keeps the two equal) and, where it is trained, its costs in the workflow's
resource models (:data:`learnability.pipeline.resources.TRAINER_COSTS`, by its name).

Import-light on purpose: Snakemake reads it while it builds the DAG, and each trainer's
module (gensim, a compiled extension) is imported only when a job trains."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from learnability.targets import load

SHARED_KEYS = ("dim", "min_count", "window", "seed")
GENSIM_KEYS = ("epochs", "negative", "sample", "alpha", "min_alpha")


@dataclass(frozen=True)
class Method:
    """One embedding method.

    ``trainer``: ``"module:function"``, called as ``function(corpus, params, threads, *,
    count_memory_mb, tmpdir)`` and returning an unnamed Embedding; None for the methods
    that are not trained (``random``, ``pretrained``). ``keys``: the ``training:`` keys
    it reads; ``nested``: (its block under ``training:``, the keys of that block it reads,
    None for all), so that a key it does not read never reruns it.
    ``counts_cooccurrence``: it also takes ``training.count_memory_mb``; ``plain_copy``:
    it trains from a plain-text copy of the corpus in its tmpdir; ``checkpoints``: given a
    tmpdir, it saves its state there after every epoch and resumes from it when rerun
    (:mod:`learnability.embeddings.checkpoint`), so the plan may cut it at a partition's
    time limit. ``package``:
    (importable module, extra, what to install) when the trainer comes from an optional
    extra; ``python_below``: the first Python that package has no build for (its extra's
    requirement in pyproject.toml carries the same marker)."""

    name: str
    trainer: str | None = None
    keys: tuple[str, ...] = ()
    nested: tuple[str, tuple[str, ...] | None] | None = None
    counts_cooccurrence: bool = False
    plain_copy: bool = False
    checkpoints: bool = False
    package: tuple[str, str, str] | None = None
    python_below: tuple[int, int] | None = None

    def train_function(self) -> Callable:
        return load(self.trainer or "")


_ENTRIES = (
    Method(
        "word2vec",
        "learnability.embeddings.word2vec:train_word2vec",
        SHARED_KEYS + GENSIM_KEYS,
        plain_copy=True,
        checkpoints=True,
    ),
    Method(
        "fasttext",
        "learnability.embeddings.fasttext:train_fasttext",
        SHARED_KEYS + GENSIM_KEYS,
        nested=("fasttext", None),
        plain_copy=True,
        checkpoints=True,
    ),
    # Facebook's fastText (the `fasttext` module, from the fasttext-community wheel): the
    # same training: keys; min_alpha has no counterpart (its rate decays linearly to 0)
    Method(
        "fasttext_facebook",
        "learnability.embeddings.fasttext_facebook:train_fasttext_facebook",
        SHARED_KEYS + ("epochs", "negative", "sample", "alpha"),
        nested=("fasttext", None),
        plain_copy=True,
        package=("fasttext", "fasttext_facebook", "fasttext-community"),
    ),
    # GloVe (ours)
    Method(
        "glove",
        "learnability.embeddings.glove:train_glove",
        SHARED_KEYS,
        nested=("glove", None),
        counts_cooccurrence=True,
        checkpoints=True,
    ),
    # glove-python holds every co-occurrence entry in memory, and has no choice of output
    # vectors: `vectors` must not rerun it
    Method(
        "glove_python",
        "learnability.embeddings.glove_python:train_glove_python",
        SHARED_KEYS,
        nested=("glove", ("x_max", "alpha", "learning_rate", "epochs")),
        counts_cooccurrence=True,
        package=("glove", "glove_python", "bicleaner-ai-glove"),
        # its wheels are for CPython 3.11 and 3.12, and its source does not build
        python_below=(3, 13),
    ),
    # a contextual model's static reduction (embeddings/transformer.py): ONNX through
    # onnxruntime, no PyTorch; the vocabulary from min_count, occurrences drawn by seed
    Method(
        "transformer",
        "learnability.embeddings.transformer:train_transformer",
        ("min_count", "seed"),
        nested=("transformer", None),
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

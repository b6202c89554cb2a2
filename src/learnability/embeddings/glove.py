"""GloVe as its authors' reference implementation (``glove.c``, Stanford NLP) trains it.

Pennington, Socher & Manning (2014) fit word vectors w_i and context vectors w̃_j, each
with its own bias, to the log co-occurrence counts by weighted least squares:

    J = sum over nonzero X_ij of  f(X_ij) (w_i . w̃_j + b_i + b̃_j - log X_ij)^2,
    f(x) = min(1, (x / x_max) ** alpha).

What this module shares with ``glove.c`` (the version with gradient clipping):

- counts: :mod:`learnability.corpus.cooccur` in the ``reference`` convention (rare words removed
  before windowing, both directions, 1/distance, no window across a newline), over the
  words with count >= min_count, most frequent first;
- initialisation: every weight and bias uniform in [-0.5, 0.5) / dim; AdaGrad's
  squared-gradient sums start at 1, so the first step size is the learning rate;
- one stochastic step per co-occurrence entry: each gradient component is clipped to
  [-100, 100], scaled by the learning rate ``eta`` and by 1/sqrt(its sum so far); a step
  whose total is not finite is skipped. The bias steps are fdiff / sqrt(sum), without
  ``eta``, as in ``glove.c``;
- the reported cost is the mean over entries of 0.5 f(X_ij) (error)^2, before each step;
- threads update shared parameters without locks (Hogwild), each on its own slice of the
  entries;
- the output is W + W̃ (``glove.c``'s default ``-model 2``); ``vectors: word`` gives W.

Where it differs, and why: the entries are reshuffled before every iteration (``glove.c``
shuffles once, before training), which is what stochastic gradient descent assumes.
Parameters are float64, as ``glove.c``'s ``real``.

Determinism: with one thread the vectors depend only on the corpus and ``seed``. With
several, threads race on shared rows (as in ``glove.c``), so the vectors differ from run
to run, as with any Hogwild SGD, while the cost per iteration stays within a fraction of
a percent (benchmarks/glove_vs_reference.py).

Memory: the parameters take 2 x 2 x V x (dim + 1) float64 (weights and AdaGrad sums, as
``glove.c``); the entries 16 bytes each (int32 row, int32 column, float64 count) plus an
8-byte shuffle index, in buckets of at most ``learnability.corpus.cooccur.BUCKET_ENTRIES``
(2^25) entries: with more than one bucket the entries wait on disk and one bucket at a
time is in memory (768 MiB at most). Counting stays within its own budget. At the end,
the AdaGrad sums are let go before the float32 vectors are made, a block of rows at a
time, so the end holds less than the training (no whole-matrix float64 temporary).

Checkpoints: given a ``tmpdir``, the counts are kept there once counted and the fit's
state after every iteration, and a rerun resumes from them
(:mod:`learnability.embeddings.checkpoint`).
"""

from __future__ import annotations

import json
import logging
import math
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit, prange

from learnability.corpus.cooccur import (
    Buckets,
    CooccurrenceCounter,
    count_members,
    encode_lines,
)
from learnability.corpus.lines import LineCorpus, count_vocabulary, gzip_members
from learnability.embeddings.checkpoint import Checkpoints, corpus_identity
from learnability.embeddings.store import Embedding
from learnability.progress import Progress
from learnability.thread_limits import numba_threads

log = logging.getLogger(__name__)

GRAD_CLIP = 100.0  # glove.c's grad_clip_value
VECTORS = ("sum", "word")

# Reassociation lets LLVM vectorise the dot product and the update loop. nnan/ninf are
# left out on purpose: the finiteness checks below must survive compilation.
_FAST = {"reassoc", "contract", "nsz", "arcp"}


@njit(parallel=True, fastmath=_FAST, cache=True)
def _train_entries(W, C, bw, bc, gW, gC, gbw, gbc, rows, cols, vals, order, x_max, alpha,
                   eta, n_chunks, costs, skipped):  # fmt: skip
    """One pass over ``order``'s entries, cut into ``n_chunks`` slices run side by side."""
    n = order.shape[0]
    d = W.shape[1]
    for t in prange(n_chunks):
        lo = n * t // n_chunks
        hi = n * (t + 1) // n_chunks
        u1 = np.empty(d, dtype=W.dtype)
        u2 = np.empty(d, dtype=W.dtype)
        cost = 0.0
        bad = 0
        for a in range(lo, hi):
            e = order[a]
            i = rows[e]
            j = cols[e]
            x = vals[e]
            wi = W[i]
            cj = C[j]
            diff = bw[i] + bc[j] - math.log(x)
            for b in range(d):
                diff += wi[b] * cj[b]
            fdiff = diff if x > x_max else (x / x_max) ** alpha * diff
            if not (np.isfinite(diff) and np.isfinite(fdiff)):
                bad += 1
                continue
            cost += 0.5 * fdiff * diff
            gwi = gW[i]
            gcj = gC[j]
            s1 = 0.0
            s2 = 0.0
            for b in range(d):
                t1 = min(max(fdiff * cj[b], -GRAD_CLIP), GRAD_CLIP) * eta
                t2 = min(max(fdiff * wi[b], -GRAD_CLIP), GRAD_CLIP) * eta
                u1[b] = t1 / math.sqrt(gwi[b])
                u2[b] = t2 / math.sqrt(gcj[b])
                s1 += u1[b]
                s2 += u2[b]
                gwi[b] += t1 * t1
                gcj[b] += t2 * t2
            if np.isfinite(s1) and np.isfinite(s2):
                for b in range(d):
                    wi[b] -= u1[b]
                    cj[b] -= u2[b]
            ub = fdiff / math.sqrt(gbw[i])
            uc = fdiff / math.sqrt(gbc[j])
            if np.isfinite(ub):
                bw[i] -= ub
            if np.isfinite(uc):
                bc[j] -= uc
            gbw[i] += fdiff * fdiff
            gbc[j] += fdiff * fdiff
        costs[t] += cost
        skipped[t] += bad


class GloveModel:
    """Parameters and AdaGrad state of one GloVe fit; :meth:`iteration` runs one pass."""

    def __init__(self, vocab_size: int, dim: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        shape = (vocab_size, dim)
        # glove.c: uniform in [-0.5, 0.5) / dim, biases included
        self.W = (rng.random(shape) - 0.5) / dim
        self.C = (rng.random(shape) - 0.5) / dim
        self.bw = (rng.random(vocab_size) - 0.5) / dim
        self.bc = (rng.random(vocab_size) - 0.5) / dim
        self.gW = np.ones(shape)
        self.gC = np.ones(shape)
        self.gbw = np.ones(vocab_size)
        self.gbc = np.ones(vocab_size)

    def train(
        self,
        rows: np.ndarray,
        cols: np.ndarray,
        vals: np.ndarray,
        order: np.ndarray,
        *,
        x_max: float,
        alpha: float,
        eta: float,
        threads: int,
    ) -> tuple[float, int]:
        """Step through the entries ``order`` picks; returns (sum of costs, entries skipped
        as non-finite)."""
        costs = np.zeros(max(1, threads))
        skipped = np.zeros(max(1, threads), dtype=np.int64)
        with numba_threads(threads):
            _train_entries(self.W, self.C, self.bw, self.bc, self.gW, self.gC, self.gbw,
                           self.gbc, rows, cols, vals, order, float(x_max), float(alpha),
                           float(eta), max(1, threads), costs, skipped)  # fmt: skip
        return float(costs.sum()), int(skipped.sum())

    ARRAYS = ("W", "C", "bw", "bc", "gW", "gC", "gbw", "gbc")

    def save(self, folder: Path) -> None:
        """Every parameter and AdaGrad sum, one ``.npy`` each."""
        for name in self.ARRAYS:
            np.save(folder / f"{name}.npy", getattr(self, name))

    @classmethod
    def load(cls, folder: Path) -> GloveModel:
        """A model as :meth:`save` wrote it."""
        model = cls.__new__(cls)
        for name in cls.ARRAYS:
            setattr(model, name, np.load(folder / f"{name}.npy"))
        return model

    def vectors(self, which: str = "sum") -> np.ndarray:
        if which == "sum":
            return self.W + self.C
        if which == "word":
            return self.W.copy()
        raise ValueError(f"glove vectors must be one of {VECTORS}, not {which!r}")

    def release_vectors(self, which: str = "sum", block_rows: int = 1 << 16) -> np.ndarray:
        """The vectors as float32, made ``block_rows`` rows at a time after the AdaGrad sums
        are let go: no whole-matrix float64 temporary at the end of training, whose peak
        stays the training's (the model is spent after). Equal to
        ``vectors(which).astype(np.float32)``."""
        if which not in VECTORS:
            raise ValueError(f"glove vectors must be one of {VECTORS}, not {which!r}")
        self.gW = self.gC = self.gbw = self.gbc = None  # type: ignore[assignment]
        out = np.empty(self.W.shape, dtype=np.float32)
        for start in range(0, out.shape[0], block_rows):
            rows = slice(start, start + block_rows)
            out[rows] = self.W[rows] + self.C[rows] if which == "sum" else self.W[rows]
        return out


@dataclass
class FitState:
    """Where a fit stands after some iterations: the model, the shuffles' generator and
    each iteration's cost, and the steps skipped so far; saved after each iteration
    (:mod:`learnability.embeddings.checkpoint`) and read again to resume."""

    model: GloveModel
    rng: np.random.Generator
    history: list[float]
    skipped: int

    def save(self, folder: Path) -> None:
        self.model.save(folder)
        state = {"rng": self.rng.bit_generator.state, "history": self.history,
                 "skipped": self.skipped}  # fmt: skip
        (folder / "fit.json").write_text(json.dumps(state), encoding="utf-8")

    @classmethod
    def load(cls, folder: Path) -> FitState:
        state = json.loads((folder / "fit.json").read_text(encoding="utf-8"))
        rng = np.random.Generator(np.random.PCG64())
        rng.bit_generator.state = state["rng"]
        return cls(GloveModel.load(folder), rng, state["history"], int(state["skipped"]))


def fit_glove(
    buckets,
    vocab_size: int,
    params: dict,
    threads: int,
    *,
    on_iteration=None,
    state: FitState | None = None,
    on_state=None,
) -> tuple[GloveModel, list[float], int]:
    """Fit GloVe to co-occurrence ``buckets`` (a :class:`~learnability.corpus.cooccur.Buckets`).

    Each iteration visits the buckets in a fresh random order and each bucket's entries in
    a fresh random permutation (one bucket: a full reshuffle). ``state``: a fit to go on
    with (:class:`FitState`, after ``len(state.history)`` iterations); ``on_state`` is
    given the state after every iteration but the last. Returns the model, the mean cost
    of each iteration, and how many steps were skipped as non-finite."""
    if state is None:
        seed = int(params["seed"])
        state = FitState(GloveModel(vocab_size, int(params["dim"]), seed),
                         np.random.default_rng([seed, 1]), [], 0)  # fmt: skip
    model, rng, history = state.model, state.rng, state.history
    total = buckets.entries
    epochs = int(params["epochs"])
    for it in range(len(history), epochs):
        start = time.perf_counter()
        cost = 0.0
        for b in rng.permutation(len(buckets)):
            rows, cols, vals = buckets.load(int(b))
            order = rng.permutation(rows.size)
            c, s = model.train(
                rows,
                cols,
                vals,
                order,
                x_max=float(params["x_max"]),
                alpha=float(params["alpha"]),
                eta=float(params["learning_rate"]),
                threads=threads,
            )
            cost += c
            state.skipped += s
        history.append(cost / max(1, total))
        if on_iteration is not None:
            on_iteration(it, history[-1], time.perf_counter() - start)
        if on_state is not None and it + 1 < epochs:
            on_state(state)
    return model, history, state.skipped


def count_for_glove(
    corpus: str,
    min_count: int,
    window: int,
    *,
    count_memory_mb: int = 1024,
    tmpdir: str | None = None,
    processes: int = 1,
):
    """(words, counts, buckets, info): the vocabulary and its reference-convention
    co-occurrence counts, bucketed for :func:`fit_glove`. With ``processes`` > 1 a corpus
    of several gzip members (one per dump part) is read by that many processes at once,
    sharing ``count_memory_mb``; the result is the same bytes."""
    started = time.perf_counter()
    members = gzip_members(corpus) if processes > 1 else []
    words, counts = count_vocabulary(corpus, min_count, processes, members=members)
    budget = int(count_memory_mb) << 20
    vocabulary_done = time.perf_counter()
    if len(members) > 1:
        counter = count_members(
            corpus, members, words, window, processes=processes, budget_bytes=budget,
            workdir=tmpdir,
        )  # fmt: skip
    else:
        index = {w: i for i, w in enumerate(words)}
        counter = CooccurrenceCounter(
            len(words), window, mode="reference", budget_bytes=budget, workdir=tmpdir
        )
        for ids, starts in encode_lines(LineCorpus(corpus), index):
            counter.add(ids, starts)
    pairs_done = time.perf_counter()
    shards = len(counter.shards)
    buckets = counter.finish_buckets()
    # the phases' seconds: the merge into buckets is one process whatever ``processes``
    info = {
        "shards": shards,
        "buckets": len(buckets),
        "entries": buckets.entries,
        "processes": max(1, min(processes, len(members))),
        "vocabulary_seconds": round(vocabulary_done - started, 3),
        "pairs_seconds": round(pairs_done - vocabulary_done, 3),
        "merge_seconds": round(time.perf_counter() - pairs_done, 3),
    }
    return words, counts, buckets, info


def _save_counts(folder: Path, words: list[str], counts: np.ndarray, buckets, info: dict) -> None:
    (folder / "words.txt").write_text("".join(w + "\n" for w in words), encoding="utf-8")
    np.save(folder / "counts.npy", counts)
    buckets.persist(folder)
    (folder / "info.json").write_text(json.dumps(info), encoding="utf-8")


def _load_counts(folder: Path):
    words = (folder / "words.txt").read_text(encoding="utf-8").split("\n")[:-1]
    buckets = Buckets.from_files(sorted(folder.glob("bucket-*.bin")))
    info = json.loads((folder / "info.json").read_text(encoding="utf-8"))
    return words, np.load(folder / "counts.npy"), buckets, info


def train_glove(
    corpus: str,
    params: dict,
    threads: int,
    *,
    count_memory_mb: int = 1024,
    tmpdir: str | None = None,
) -> Embedding:
    """GloVe on ``corpus``: the co-occurrences counted, then ``epochs`` iterations. With a
    ``tmpdir``, the counts and the state after every iteration are kept there
    (:class:`~learnability.embeddings.checkpoint.Checkpoints`), and a rerun of the same
    training resumes from them, counting nothing again."""
    start = time.perf_counter()
    # what the fit depends on (``vectors`` only picks what is written from it)
    key = {"params": {k: v for k, v in params.items() if k != "vectors"},
           "corpus": corpus_identity(corpus)}  # fmt: skip
    checkpoints = Checkpoints(tmpdir, "glove", key) if tmpdir else None
    counted_stage = checkpoints.stage("counts") if checkpoints else None
    if counted_stage is not None:
        words, counts, buckets, info = _load_counts(counted_stage)
        log.info("resuming with the counts kept in %s", counted_stage)
    else:
        words, counts, buckets, info = count_for_glove(
            corpus,
            int(params["min_count"]),
            int(params["window"]),
            count_memory_mb=count_memory_mb,
            tmpdir=tmpdir,
            processes=threads,
        )
        if checkpoints is not None:
            with buckets:
                stage = checkpoints.save_stage(
                    "counts", lambda folder: _save_counts(folder, words, counts, buckets, info)
                )
            words, counts, buckets, info = _load_counts(stage)
    counted = time.perf_counter()
    log.info(
        "%d words, %d co-occurrence entries (%d shards, %d buckets, %d processes) in %.1f s "
        "(vocabulary %.1f s, pairs %.1f s, merge %.1f s)",
        len(words), info["entries"], info["shards"], info["buckets"], info["processes"],
        counted - start, info["vocabulary_seconds"], info["pairs_seconds"],
        info["merge_seconds"],
    )  # fmt: skip

    resumed = checkpoints.last() if checkpoints else None
    state = FitState.load(resumed[1]) if resumed else None
    done = len(state.history) if state else 0
    if resumed:
        log.info("resuming from the checkpoint after iteration %d of %d: %s", done,
                 int(params["epochs"]), resumed[1])  # fmt: skip
    progress = Progress("training", int(params["epochs"]) - done, unit="iterations", every=0.0,
                        logger=log)  # fmt: skip

    def report(it: int, cost: float, seconds: float) -> None:
        rate = info["entries"] / max(seconds, 1e-9)
        log.info("iteration %d: cost %.5f, %.1f s, %.0f entries/s", it + 1, cost, seconds, rate)
        progress.update(1)

    def keep(state: FitState) -> None:
        checkpoints.save(len(state.history), state.save)

    with buckets:
        model, history, skipped = fit_glove(
            buckets, len(words), params, threads, on_iteration=report, state=state,
            on_state=keep if checkpoints is not None else None,
        )  # fmt: skip
    trained = time.perf_counter()
    vectors = model.release_vectors(params.get("vectors", "sum"))
    if not np.isfinite(vectors).all():
        raise FloatingPointError(
            "GloVe diverged (non-finite vectors); lower training.glove.learning_rate"
        )
    epochs = int(params["epochs"])
    meta = {
        "method": "glove",
        "seconds": round(trained - start, 3),
        "counting_seconds": round(counted - start, 3),
        "training_seconds": round(trained - counted, 3),
        "entries_per_second": round(
            info["entries"] * (epochs - done) / max(trained - counted, 1e-9)
        ),
        "cooccurrence_entries": info["entries"],
        "cooccurrence_shards": info["shards"],
        "cooccurrence_buckets": info["buckets"],
        "counting_processes": info["processes"],
        "cost_history": [round(c, 8) for c in history],
        "skipped_steps": skipped,
        "corpus_words": int(counts.sum()),
        "params": dict(params),
        # iterations a killed run had done (0: trained from the start)
        "resumed_after_iterations": done,
    }
    if checkpoints is not None:
        checkpoints.clear()
    return Embedding(words=words, vectors=vectors, counts=counts, meta=meta)

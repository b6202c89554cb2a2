"""The trainers' training rates measured at enwiki's vocabulary, not extrapolated to it:
word2vec and fastText (gensim, as the workflow trains them) at 100 k to 3 M words, each
timed over whole epochs of a stream drawn from the synthetic dump's token law, and the
cost model's rate and slope refitted from them with 95 % intervals.

Usage: python benchmarks/trainer_rates.py [--words 100000,300000,1000000,3000000]
       [--glove-words 100000,300000,1000000] [--methods word2vec,fasttext,glove]
       [--tokens 4000000] [--pairs 30000000] [--epochs 3] [--repeats 2] [--threads 2]
       [--csv FILE] [--smoke]

Why a law and not a corpus: a corpus in which 3 M words each reach min_count 5 has
billions of tokens; one in which each occurs 6 times (benchmarks/training_memory.py) is
all tail, the opposite of text, whose tokens are mostly a few hundred frequent words that
stay in the caches. So the vocabulary is given to gensim as counts
(``build_vocab_from_freq``): the words whose expected count reaches min_count 5 in the
corpus of the law (``learnability.corpus.synthdump``: the sample's frequent words at
their frequencies, then a Zipf-Mandelbrot tail fitted to 2.5 M types at enwiki's 2.6 B
tokens) that has the asked vocabulary (3 M words: 3.5 B tokens), with those counts. The
trained tokens are ``--tokens`` independent draws of the same law, ``LINE`` a line: at
each vocabulary, the share of tokens outside it is the one a corpus of that size has.
That fixes what a token costs: the downsampling of frequent words (``sample``), the
negative-sampling table, the rows touched and, for fastText, each word's n-grams (made-up
words grow from 3 to 9 letters with their rank, as real ones do). The stream is read
through gensim's ``corpus_file`` as the workflow's trainers read theirs
(learnability.embeddings._gensim), with its settings (config/paper.yaml: dim 300,
window 5, negative 5, sample 1e-3, fastText's 2 M buckets) and its one-epoch-at-a-time
loop. Independent draws have no bursts of repeated words, which prose has: if anything,
they miss the caches more than text does.

Each (method, words) runs ``--repeats`` times, each in a fresh process; a run's rate is
its epochs after the first (the first warms the caches and the page cache) in corpus
tokens per second per thread, the wall rate divided by
``max(1, THREAD_EFFICIENCY * threads)`` as the cost model multiplies it back. The fit is
ordinary least squares of log rate on log words over every run, with Student-t intervals
(scipy.stats.linregress's standard errors; GloVe's rate in co-occurrence entries, whose
3 M-word weights, 29 GB, do not fit a 24 GiB machine: ``--glove-words`` stops at 1 M).

The baseline, in the same run first: the workflow's own trainers
(``learnability.embeddings.train``, without checkpoints) on a gzipped corpus of the law at
``--baseline-words`` words, their later epochs timed from the progress lines they log,
beside the probes at that vocabulary: their ratio says whether the probe times what the
jobs run. It prints each run, the fit beside the model the workflow declares from
(learnability.pipeline.resources.TRAINER_COSTS), and the hours of one enwiki training by
each. ``--csv`` writes the runs (benchmarks/measurements/trainer-rates.csv);
``--from-csv`` prints the fit of a CSV again.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import optimize
from toysize import add_smoke

from learnability.corpus import synthdump
from learnability.corpus.synthdump import spell_many
from learnability.pipeline import resources as cost
from learnability.pipeline.planning import ENWIKI_WORDS, enwiki_job_sizes, paper_config

REPO = Path(__file__).resolve().parents[1]
MIN_COUNT = 5
LINE = 1000


# set by --smoke, read by the runs it starts: a toy model, dim 8 and 10,000 n-gram buckets
TOY = "TRAINER_RATES_TOY"


def settings(method: str) -> dict:
    """``method``'s training settings in config/paper.yaml (``TOY`` set: smaller)."""
    import os

    from learnability.pipeline.params import embedding_params

    params = embedding_params(paper_config(REPO), method)
    if os.environ.get(TOY):
        params.update(dim=8, bucket=10_000)
    return params


def law_tokens(words: float) -> float:
    """The corpus size at which the synthetic dump's law expects ``words`` types at
    min_count 5 (``synthdump.expected_vocabulary``; 2.5 M at 2.6 B tokens)."""
    return float(np.exp(optimize.brentq(
        lambda x: np.log(synthdump.expected_vocabulary(np.exp(x), MIN_COUNT) / words),
        np.log(1e4), np.log(1e12), xtol=1e-4,
    )))  # fmt: skip


# a folder the run's processes share, where each vocabulary of the law is kept once
# made (making one extracts the sample first: seconds a process)
CACHE = "TRAINER_RATES_CACHE"


def law_vocabulary(words: float) -> tuple[list[str], np.ndarray]:
    """The law's words whose expected count in a corpus of :func:`law_tokens` reaches
    min_count, with those counts: the sample's frequent words at their frequencies, then
    the tail's ranks (the sample's other words, then made-up ones) in the order
    ``synthdump.TokenStream`` draws them (kept in ``CACHE`` where it is set)."""
    import os

    kept = Path(os.environ[CACHE]) / f"law-{int(words)}.npz" if os.environ.get(CACHE) else None
    if kept is not None and kept.exists():
        with np.load(kept) as got:
            return got["words"].tolist(), got["counts"]
    vocab, counts = _law_vocabulary(words)
    if kept is not None:
        np.savez(kept, words=np.array(vocab), counts=counts)
    return vocab, counts


def _law_vocabulary(words: float) -> tuple[list[str], np.ndarray]:
    lex = synthdump.sample_lexicon()
    tokens = law_tokens(words)
    head = tokens * lex.head_share * np.diff(lex.head_cdf, prepend=0.0)

    # the tail's expected counts fall with the rank: find the last rank at min_count
    def tail_count(r: np.ndarray) -> np.ndarray:
        return (
            tokens
            * (1 - lex.head_share)
            * (
                synthdump._tail_tail(r, synthdump.TAIL_S, synthdump.TAIL_Q)
                - synthdump._tail_tail(r + 1, synthdump.TAIL_S, synthdump.TAIL_Q)
            )
        )

    last = int(optimize.brentq(lambda r: tail_count(np.array(r)) - MIN_COUNT, 0, 1e12))
    ranks = np.arange(last + 1)
    tail = tail_count(ranks)
    known = min(last + 1, len(lex.tail))
    vocab = list(lex.head) + list(lex.tail[:known]) + spell_many(ranks[known:] - len(lex.tail))
    counts = np.round(np.concatenate([head, tail])).astype(np.int64)
    keep = counts >= MIN_COUNT
    return [w for w, k in zip(vocab, keep, strict=True) if k], counts[keep]


def write_law(path: Path, tokens: float, seed: int) -> None:
    """``tokens`` independent draws of the law (``synthdump.TokenStream``), ``LINE`` a
    line: gzipped where ``path`` ends in .gz (a corpus, as the workflow's extraction
    writes one), plain text otherwise (the probes' stream, read as it is)."""
    import gzip

    draws = synthdump.TokenStream(np.random.default_rng(seed), synthdump.sample_lexicon())
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "wt", encoding="utf-8") as fh:
        for start in range(0, int(tokens), LINE):
            fh.write(" ".join(draws.take(min(LINE, int(tokens) - start))) + "\n")


def law_entries(words: int, pairs: int, seed: int = 0):
    """Co-occurrence entries of the law: ``pairs`` (word, context) draws, each word drawn
    from the vocabulary's counts, merged into distinct (row, col) entries whose value is
    how often each was drawn; returned as GloVe's trainer takes them (rows, cols, vals)."""
    _, counts = law_vocabulary(words)
    rng = np.random.default_rng(seed)
    cdf = np.cumsum(counts / counts.sum())
    n = counts.size
    keys = np.empty(0, dtype=np.int64)
    vals = np.empty(0, dtype=np.float64)
    for start in range(0, pairs, 10_000_000):  # in chunks: 10 M draws at a time
        m = min(10_000_000, pairs - start)
        i = np.minimum(np.searchsorted(cdf, rng.random(m)), n - 1).astype(np.int64)
        j = np.minimum(np.searchsorted(cdf, rng.random(m)), n - 1).astype(np.int64)
        got, times = np.unique(np.concatenate([keys, i * n + j]), return_inverse=True)
        vals = np.bincount(times, weights=np.concatenate([vals, np.ones(m)]))
        keys = got
    return (keys // n).astype(np.int32), (keys % n).astype(np.int32), vals


def glove_child(words: int, pairs: int, epochs: int, threads: int) -> None:
    """GloVe's own fit (learnability.embeddings.glove.GloveModel, as ``fit_glove`` runs
    it: one shuffled pass an iteration) over the law's entries at ``words`` words, each
    iteration timed; its rate is in entries, which do not grow as the corpus does."""
    from learnability.embeddings.glove import GloveModel

    params = settings("glove")
    t0 = time.perf_counter()
    rows, cols, vals = law_entries(words, pairs)
    words = len(law_vocabulary(words)[0])
    model = GloveModel(words, int(params["dim"]), int(params["seed"]))
    rng = np.random.default_rng(1)
    built = time.perf_counter() - t0
    seconds = []
    for _ in range(epochs):
        t0 = time.perf_counter()
        order = rng.permutation(rows.size)  # as fit_glove draws it, each iteration
        model.train(rows, cols, vals, order, x_max=float(params["x_max"]),
                    alpha=float(params["alpha"]), eta=float(params["learning_rate"]),
                    threads=threads)  # fmt: skip
        seconds.append(time.perf_counter() - t0)
    print(json.dumps({"method": "glove", "words": words, "built_s": built,
                      "epoch_s": seconds, "tokens": int(rows.size)}))  # fmt: skip


def workflow_child(method: str, corpus: Path, epochs: int, threads: int) -> None:
    """The baseline: the workflow's own trainer (``learnability.embeddings.train``) on a
    corpus file, its epochs timed between the progress
    lines it logs at each epoch's (iteration's) end."""
    import logging

    from learnability.embeddings import train

    ends: list[float] = []

    class Ends(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.getMessage().startswith("training: "):
                ends.append(record.created)

    logger = logging.getLogger("learnability.embeddings")
    logger.setLevel(logging.INFO)
    logger.addHandler(Ends())
    params = settings(method)
    params.pop("threads")
    params.pop("method")
    params["epochs"] = epochs
    # no checkpoints (tmpdir None): writing a state each epoch, 2.4 GB for fastText's
    # n-gram buckets alone, weighs on a small corpus' epochs as it does not on enwiki's
    start = time.time()
    emb = train(method, str(corpus), params, threads, count_memory_mb=1000, tmpdir=None)
    per_epoch = emb.meta.get("cooccurrence_entries") or emb.meta["corpus_words"]
    epochs_s = np.diff(ends).tolist()
    # before the first epoch's end, less an epoch: the vocabulary's pass, the plain copy
    # (GloVe: the counting)
    setup = ends[0] - start - float(np.mean(epochs_s))
    print(json.dumps({"method": method, "words": len(emb), "built_s": setup,
                      "epoch_s": [0.0, *epochs_s], "tokens": per_epoch}))  # fmt: skip


def child(method: str, words: int, stream: Path, tokens: int, epochs: int,
          threads: int) -> None:  # fmt: skip
    """One run: gensim's model with the workflow's settings, its vocabulary from the law,
    then ``epochs`` epochs of the stream, one at a time, each timed."""
    from gensim.models import FastText, Word2Vec

    from learnability.embeddings._gensim import common_kwargs, epoch_rates

    params = settings(method)
    kwargs = common_kwargs(params, threads)
    kwargs["epochs"] = epochs
    model_cls = Word2Vec
    if method == "fasttext":
        model_cls = FastText
        kwargs.update(min_n=int(params["minn"]), max_n=int(params["maxn"]),
                      bucket=int(params["bucket"]))  # fmt: skip
    vocab, counts = law_vocabulary(words)
    t0 = time.perf_counter()
    model = model_cls(**kwargs)
    model.build_vocab_from_freq(dict(zip(vocab, counts.tolist(), strict=True)))
    built = time.perf_counter() - t0
    seconds = []
    for epoch in range(epochs):
        model.alpha, model.min_alpha = epoch_rates(
            float(kwargs["alpha"]), float(kwargs["min_alpha"]), epoch, epochs
        )
        t0 = time.perf_counter()
        model.train(corpus_file=str(stream), total_examples=-(-tokens // LINE),
                    total_words=tokens, epochs=1)  # fmt: skip
        seconds.append(time.perf_counter() - t0)
    print(json.dumps({"method": method, "words": len(model.wv), "built_s": built,
                      "epoch_s": seconds, "tokens": tokens}))  # fmt: skip


def measure(method: str, words: int | str, repeat: int, stream: Path, args) -> dict:
    """One run of ``method`` at ``words`` words in a fresh process: its row (``words``
    "workflow": the workflow's trainer on the corpus ``stream``, the baseline)."""
    got = subprocess.run(
        [sys.executable, __file__, "--child", method, str(words), str(stream),
         "--tokens", str(args.tokens), "--pairs", str(args.pairs), "--epochs",
         str(args.epochs), "--threads", str(args.threads)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if got.returncode:
        raise SystemExit(f"{method} at {words} failed:\n{got.stderr[-3000:]}")
    run = json.loads(got.stdout.strip().splitlines()[-1])
    steady = float(np.mean(run["epoch_s"][1:] or run["epoch_s"]))
    unit = "entries" if method == "glove" else "tokens"
    row = {
        "method": method, "what": "workflow" if words == "workflow" else "probe",
        "words": run["words"], "repeat": repeat, "threads": args.threads,
        "unit": unit, "per_epoch": run["tokens"], "epochs": args.epochs,
        "first_epoch_s": round(run["epoch_s"][0], 2), "steady_epoch_s": round(steady, 2),
        "rate": round(per_thread(run["tokens"], steady, args.threads)),
        "build_s": round(run["built_s"], 1),
    }  # fmt: skip
    print(f"  {method:<9}{row['what']:<9}{row['words']:>10,} words  steady epoch "
          f"{steady:>7.1f} s  first {row['first_epoch_s']:>7.1f} s  {row['rate']:>9,} "
          f"{unit}/s a thread",
          flush=True)  # fmt: skip
    return row


def per_thread(tokens: float, seconds: float, threads: int) -> float:
    return tokens / seconds / max(1.0, cost.THREAD_EFFICIENCY * threads)


def hours(method: str, rate: float | None = None) -> float:
    """One enwiki training's hours as the cost model gives them for config/paper.yaml (its
    epochs and threads), at the model's rate or at ``rate`` (per thread, at any
    vocabulary; GloVe's in entries)."""
    sizes = enwiki_job_sizes("train_embedding", {"embedding": method}, paper_config(REPO), 8,
                             REPO)  # fmt: skip
    if rate is not None:
        sizes = {**sizes, "rate": rate, "rate_slope": 0.0}
    return cost.need("train_embedding", **sizes).runtime / 60


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", default="100000,300000,1000000,3000000")
    parser.add_argument("--methods", default="word2vec,fasttext,glove")
    parser.add_argument(
        "--glove-words",
        default="100000,300000,1000000",
        help="GloVe's (3 M words: 29 GB of float64 weights and AdaGrad sums)",
    )
    parser.add_argument("--tokens", type=int, default=4_000_000)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--pairs",
        type=int,
        default=30_000_000,
        help="GloVe: (word, context) draws merged into its entries",
    )
    parser.add_argument(
        "--baseline-words",
        type=int,
        default=50_000,
        help="the workflow's trainers on a corpus with this vocabulary (0: none)",
    )
    parser.add_argument("--csv", type=Path)
    parser.add_argument("--from-csv", type=Path, help="only summarise these rows")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    add_smoke(parser)
    args = parser.parse_args()
    if args.child:
        method, words, stream = args.child
        if words == "workflow":
            return workflow_child(method, Path(stream), args.epochs, args.threads)
        if method == "glove":
            return glove_child(int(words), args.pairs, args.epochs, args.threads)
        return child(method, int(words), Path(stream), args.tokens, args.epochs, args.threads)
    if args.from_csv:
        return summarise(pd.read_csv(args.from_csv), args)
    if args.smoke:
        # the baseline's probes at 3000 words and one size more: the fewest runs that fit
        args.words = args.glove_words = "9000"
        args.baseline_words = 3000
        args.tokens, args.pairs, args.epochs, args.repeats = 50_000, 100_000, 2, 1
        os.environ[TOY] = "1"
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        os.environ[CACHE] = tmp
        stream = Path(tmp) / "stream.txt"
        write_law(stream, args.tokens, seed=0)
        if args.baseline_words:
            # the baseline: the workflow's trainers on a corpus of the law with that
            # vocabulary, beside the probe at it, in this run
            corpus = Path(tmp) / "baseline" / "corpus.txt.gz"
            corpus.parent.mkdir()
            write_law(corpus, law_tokens(args.baseline_words), seed=1)
            for method in args.methods.split(","):
                for what in ("workflow", args.baseline_words):
                    rows.append(measure(method, what, 0, corpus if what == "workflow"
                                        else stream, args))  # fmt: skip
        for method in args.methods.split(","):
            sizes = args.glove_words if method == "glove" else args.words
            for words in map(int, sizes.split(",")):
                for repeat in range(args.repeats):
                    rows.append(measure(method, words, repeat, stream, args))
    if args.csv:
        with args.csv.open("w", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    summarise(pd.DataFrame(rows), args)


def summarise(frame: pd.DataFrame, args) -> None:
    """The fit per method (``learnability.pipeline.measured.rate_fit``, which ``make docs``
    tabulates from the CSV and the cost model takes), the baseline's ratio (the workflow's
    trainer over the probe at the same vocabulary, this run: a check that the probe
    times what the jobs run), and enwiki's hours by the fit beside the model's."""
    from learnability.pipeline.measured import rate_fit

    print(f"\n{'method':<9}{'rate@100k (95 %)':>26}{'slope (95 %)':>19}{'@3M':>9}"
          f"{'wf/probe':>9}{'enwiki h':>9}{'model h':>8}{'ratio':>7}")  # fmt: skip
    for method in args.methods.split(","):
        if frame[(frame["method"] == method) & (frame["what"] == "probe")]["words"].nunique() < 2:
            continue
        f = rate_fit(frame, method, ENWIKI_WORDS)
        h, model_h = hours(method, f.at), hours(method)
        print(
            f"{method:<9}{f.rate:>10,.0f} ({f.rate_ci[0]:>6,.0f}-{f.rate_ci[1]:>7,.0f})"
            f"{f.slope:>6.2f} ({f.slope_ci[0]:>5.2f}-{f.slope_ci[1]:>5.2f}){f.at:>9,.0f}"
            f"{f.baseline:>9.2f}{h:>9.1f}{model_h:>8.1f}{model_h / h:>7.2f}  {f.unit}/s a thread"
        )
    print(
        "wf/probe: the workflow's trainer over the probe at the baseline's vocabulary (the "
        "probe's smallest); ratio: the cost model's hours over the fit's at 3 M words"
    )


if __name__ == "__main__":
    main()

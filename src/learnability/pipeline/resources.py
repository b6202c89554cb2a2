"""The workflow's cost models: what each job needs (memory, runtime, output disk and
scratch) from its sizes (input MB, corpus tokens, vocabulary words, dimensions, threads,
lists, splits), and what its rule declares from that need.

Every rule of the workflow has an entry in :data:`MODELS` (a rule without one fails the
suite: tests/test_cluster_plan.py plans the paper's run at enwiki's sizes and checks every
job against these models). A model gives the *need*: the measurement it quotes, or what
an analytic count of the job's data structures gives, with no margin. :func:`declare`
turns a need into the rule's ``resources``: memory and disk ``MARGIN`` times the need,
runtime ``RUNTIME_MARGIN`` times (``RUNTIME_FLOOR`` minutes at least), and memory and
runtime growing by ``RETRY_GROWTH`` with
each attempt (a job killed for memory or time is retried with more). The rules
(workflow/rules/*.smk) only adapt a job's wildcards and inputs to the sizes.
Each constant names the measurement it comes from (``benchmarks/scale.py`` unless said
otherwise)."""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable
from dataclasses import dataclass

from learnability.errors import InputError

# memory and disk declared over the need; runtime more, since cluster cores vary more in
# speed than jobs in memory, and a limit set high costs only queue priority
MARGIN = 1.3
RUNTIME_MARGIN = 2.0
# each retry asks for half the first attempt's memory and runtime more
RETRY_GROWTH = 0.5
# no job asks for less time than this: a scheduler's granularity and a busy file system
# (the needs themselves are what the job does, so that their sum is the run's cost)
RUNTIME_FLOOR = 10
# a job's Python start and imports: a few seconds (benchmarks/job_startup.py); half the
# rehearsal's jobs ran in under 1.6 s and three quarters in under 2.6 s, start included
# (benchmarks/measurements/rehearsal.csv)
STARTUP_MINUTES = 0.1
# the vocabulary at which a trainer's ``rate`` is given (its registry entry)
RATE_WORDS = 100_000
# the share of each added thread a trainer's rate keeps (its rates are fitted with it)
THREAD_EFFICIENCY = 0.75

# a job's Python with numpy, pandas, pyarrow and scikit-learn imported: 150-200 MB of
# anonymous memory at start (benchmarks/evaluation_memory.py, benchmarks/job_startup.py),
# matplotlib and plotly included
BASE_MB = 500

# tokens per MB of the gzipped corpus, measured on the sample; each method's training
# rate and memory per MB are in its registry entry (learnability.embeddings.registry)
TOKENS_PER_GZ_MB = 400_000
# the plain-text copy that word2vec and fastText train from (``corpus_file``), per MB of
# gzip: about 4x (embeddings/_plain.py)
PLAIN_PER_GZ = 4.0

# bytes of GloVe's tmpdir per co-occurrence entry at its peak: 43.0, the most measured
# (38.3 and 43.0 at 46 M and 83 M entries in benchmarks/measurements/rehearsal.csv, with
# the shards deleted once merged; 49.1 at 42.5 M on the first rehearsal, when one
# process counted); co-occurrence entries per corpus token (window 5, min_count 5) fall
# as the corpus grows: 2.56 at 9.9 M tokens, 2.33 at 19.8 M and 2.09 at 39.6 M
# (rehearsal.csv; the real sample has 2.9 at 0.45 M); the power law of slope
# -0.12 kept here gives 1.3 at enwiki's 2.6 B tokens, above the measured slope's -0.15,
# inside the 1-3.5 B entries estimated for it
GLOVE_TMP_BYTES_PER_ENTRY = 43.0
ENTRIES_PER_TOKEN, ENTRIES_AT_TOKENS, ENTRIES_SLOPE = 2.36, 18e6, -0.12
# the same peak per corpus token: 89.1 and 89.9 bytes at 19.8 M and 39.6 M tokens, flat
# where the per-entry figure falls (rehearsal.csv; below 20 M tokens the counts stay
# mostly in memory, 54.7 at 9.9 M); the scratch is the larger of the two drivers (234 GB
# by tokens at enwiki, 146 GB by the entries model's 3.4 B)
GLOVE_TMP_BYTES_PER_TOKEN = 89.9
# a co-occurrence entry in GloVe's buckets (int32 row and column, float64 count), which
# stay in scratch through the training once counted (learnability.corpus.cooccur.ENTRY)
GLOVE_BUCKET_BYTES_PER_ENTRY = 16
# a training's checkpoint (learnability.embeddings.checkpoint), bytes a word and
# dimension (and an n-gram bucket's, fastText's): gensim's word2vec saves its input and
# output vectors (float32), fastText those and its vocabulary's vectors, GloVe its
# weights and AdaGrad sums of both sides with their biases (float64); about 100 bytes a
# word of vocabulary besides, and a few MB of the models' own. Two at once at most: a
# state is written beside the last before it replaces it
CHECKPOINT_BYTES_PER_WORD_DIM = {"word2vec": 8, "fasttext": 12, "glove": 32}
CHECKPOINT_BYTES_PER_WORD = 100
CHECKPOINT_BASE_MB = 5

# GloVe's vocabulary beside its parameters, bytes a word of the training's peak: 87
# measured alone and 106 in a CI worker after other tests (tracemalloc at 2,500 and
# 5,000 words: tests/test_resources.py), so 120
GLOVE_WORD_BYTES = 120
# Parquet bytes per vocabulary word: 13 (33 MB at 2.5 M words)
VOCAB_PARQUET_BYTES_PER_WORD = 13
# a vocabulary word held as a Python string in a list, with its count and index: about
# 100 bytes (the random baseline's 343 MB at 2.5 M words, less the block of rows)
WORD_BYTES = 100

# seconds per classifier fit of the batched solver on one thread (n <= 1800, d = 300):
# 3.3 ms measured for n = 400 (1000 fits in 3.3 s); a null job of 1000 lists x 10 splits
# took 68 s on 2 threads at 3 M words, 6.8 ms a fit with its reading
FIT_SECONDS = 0.007
# seconds per vocabulary row and split classifier to score the row with it (a float32
# product of 2 x 300 flops, its sigmoid and its share of the partial sort): 2.1e-8
# measured at 3 M words x 300 and 100 splits on one thread of an idle machine
# (benchmarks/suggestions.py --words 3000000 --dim 300 --splits 100: 6.4 s), 5.0e-8 with
# another job on the machine's other core; the declaration's 2x margin covers the latter
ROW_SPLIT_SECONDS = 2.1e-8
# MB/s at which a job reads a memory-mapped matrix from a cluster's shared file system
# (the cold pages of a 3.6 GB embedding): 100 assumed, a tenth of a local disk's
READ_MB_S = 100.0


@dataclass(frozen=True)
class Need:
    """What a job uses: peak memory (MB, page cache of the files it maps included),
    runtime (minutes), disk its outputs take (MB) and scratch in its tmpdir (MB)."""

    mem_mb: float
    runtime: float
    disk_mb: float = 0.0
    tmp_mb: float = 0.0


def declare(need: Need, attempt: int = 1) -> dict[str, int]:
    """A rule's ``resources`` for a job of ``need``, at its ``attempt`` (1 the first)."""
    grow = 1 + RETRY_GROWTH * (max(1, attempt) - 1)
    return dict(
        mem_mb=math.ceil(MARGIN * need.mem_mb * grow),
        runtime=math.ceil(max(RUNTIME_FLOOR, RUNTIME_MARGIN * need.runtime) * grow),
        disk_mb=math.ceil(MARGIN * (need.disk_mb + need.tmp_mb)),
        tmp_mb=math.ceil(MARGIN * need.tmp_mb),
    )


def scratch_request(tmp_mb: int, tmpdir_set: bool) -> str:
    """A SLURM job's request for its scratch: ``--tmp`` (the node's temporary disk) when
    the job's tmpdir is the node's own (``LEARNABILITY_TMPDIR`` unset); none when it is
    set, for that points at scratch elsewhere (shared, or a site's own), which SLURM
    does not reserve and the job checks when it starts (:func:`learnability.io.check_scratch`)."""
    return "" if tmpdir_set else f"--tmp={tmp_mb}M"


# --- the corpus ---------------------------------------------------------------------


def download_need(size_mb: float) -> Need:
    """A download at 1 MB/s (a slow mirror; Wikimedia's asks for 2 connections at most):
    the file on disk, a buffer in memory."""
    return Need(BASE_MB, STARTUP_MINUTES + size_mb / 60, disk_mb=size_mb)


def manifest_need() -> Need:
    return Need(BASE_MB, STARTUP_MINUTES, disk_mb=1)


# bytes an extraction job's count table (its Counter, then write_counts' sorted lists and
# frame) peaks at per byte of the Parquet table it writes: 37-38 measured by tracemalloc
# at 0.35-0.8 MB tables of the synthetic dump's words (tests/memory_probes.py's
# count_table; tests/test_resources.py prints the figure when it fails)
COUNT_TABLE_BYTES_PER_PARQUET_BYTE = 40


def extraction_need(part_mb: float) -> Need:
    """One page at a time plus the part's token counts: 270-320 MB measured for parts of
    9-37 MB of bz2 (rehearsal.csv), 329-360 MB for 16-64 MB on the first rehearsal's
    lighter dump; its count table grows with the part's vocabulary as
    :func:`part_counts_mb` says (``COUNT_TABLE_BYTES_PER_PARQUET_BYTE`` a byte of it: 432
    MB at enwiki's 593 MB parts) above 240 MB (the rest, fitted to rehearsal.csv's jobs);
    2 MB/s of bz2 measured per core (2.4 in rehearsal.csv). Its outputs: the part's text
    and counts, as large as its bz2 (0.9x measured on the synthetic dump, whose markup
    compresses better than enwiki's; about 0.5x at enwiki)."""
    counts = COUNT_TABLE_BYTES_PER_PARQUET_BYTE * part_counts_mb(part_mb)
    return Need(240 + counts, STARTUP_MINUTES + part_mb / 2 / 60, disk_mb=part_mb)


def join_need(tokens: float, text_mb: float) -> Need:
    """The parts' counts merged: 202/219/221 MB measured at 9.9/19.8/39.6 M tokens
    (rehearsal.csv), 208/270/307 MB at 18/36/72 M on the first rehearsal's dump; 1.5 MB
    per M tokens above 200 (4.1 GB at enwiki); 1-2 s there, 0.1 s per M tokens read and
    written. Its output: the corpus, the parts' text joined."""
    millions = tokens / 1e6
    return Need(200 + 1.5 * millions, STARTUP_MINUTES + 0.1 * millions / 60, disk_mb=text_mb)


def part_counts_mb(part_bz2_mb: float) -> float:
    """The MB of one dump part's count table (word, count), from the part's bz2 MB:
    1.20/1.71/2.48 MB at 9.3/18.5/36.9 MB of bz2 a part in the rehearsal's dumps
    (benchmarks/corpus_coverage.py), whose vocabulary grows like enwiki's: a power law of
    slope 0.53 (new words thin out as a part grows), 10.8 MB at enwiki's 593 MB parts."""
    return 2.48 * (part_bz2_mb / 36.9) ** 0.53


# bytes of the coverage job's memory per byte of its largest part's Parquet count table:
# the rehearsal's jobs grew 68 MB (203 to 271 MB) where the largest table grew 1.28 MB (53
# a byte: rehearsal.csv); tracemalloc counts 19-20 a byte of Python objects with two
# parts, for the table read last is held while the next one is read (the sample's table
# alone: 2.6 MB read as 31 MB); the rest is pyarrow's buffers and the allocator's
COVERAGE_BYTES_PER_PARQUET_BYTE = 55


def corpus_coverage_need(counts_mb: float, largest_mb: float) -> Need:
    """The lists against a corpus' counts before training
    (learnability.concepts.corpus_coverage): a part's count table at a time (two while
    the next is read), its words as Python strings, ``COVERAGE_BYTES_PER_PARQUET_BYTE``
    a byte of the largest table's Parquet file, and one pass over each table per wildcard
    prefix length, about 1 s per 10 MB of tables and length (a dictionary has about 15
    lengths)."""
    return Need(BASE_MB + COVERAGE_BYTES_PER_PARQUET_BYTE * largest_mb,
                STARTUP_MINUTES + 15 * counts_mb / 10 / 60, disk_mb=10)  # fmt: skip


# bytes sample_documents holds a document (its lengths, order, cumulative sums, kept
# tokens and their list): 36.0 measured by tracemalloc between 40,000 and 70,000
# documents (tests/memory_probes.py's draw_peak), the whole peak 36-45 a document from
# 20,000 up
DRAW_BYTES_PER_DOCUMENT = 40


def draw_need(tokens: float, lines: float, text_mb: float) -> Need:
    """A corpus drawn down to a budget (learnability.corpus.sample.sample_documents):
    ``DRAW_BYTES_PER_DOCUMENT`` for its lengths, order and kept tokens, bounded here by as
    many a line (460 MB at Wikipedia's 11.5 M paragraphs; a document holds a line or
    more) above a job's Python; two passes over the corpus and the half it writes:
    0.47 s at 3 M tokens, a peak of 154 MB (benchmarks/draw_corpus.py; 3x one plain
    pass), 0.3 s per M tokens kept here. Its output: at most the corpus."""
    millions = tokens / 1e6
    return Need(BASE_MB + DRAW_BYTES_PER_DOCUMENT * lines / 1e6,
                STARTUP_MINUTES + 0.3 * millions / 60,
                disk_mb=text_mb)  # fmt: skip


# --- embeddings ---------------------------------------------------------------------


def cooccurrence_entries(tokens: float) -> float:
    """GloVe's co-occurrence entries for a corpus of ``tokens`` (window 5, min_count 5)."""
    return tokens * min(3.0, ENTRIES_PER_TOKEN * (tokens / ENTRIES_AT_TOKENS) ** ENTRIES_SLOPE)


# the analytic training memories' constants, fitted to the rehearsal's peaks (word2vec
# 485/681/931 MB, fastText 2899/3180/3556, GloVe 2616/2459/4448 at 104k/163k/253k words,
# dim 300, 2 threads, count_memory_mb 1000): a trainer's Python and libraries, and
# GloVe's one bucket of co-occurrence entries in memory (768 MiB)
TRAINER_BASE_MB = 200
GLOVE_BUCKET_MB = 805
# GloVe's end of training holds less than its training: the AdaGrad sums let go, the
# float32 vectors made a block of rows at a time (embeddings/glove.py, release_vectors):
# 16 x (dim + 1) + 4 x dim bytes a word, against the training's 32 x (dim + 1): 11,186 MB
# measured at 1 M words x 300 where the model gives 10,757 (0.96;
# benchmarks/measurements/3m-words.csv). Before, the summed float64 matrix and its
# float32 copy put 12 bytes a word and dim on top of the parameters: 13,617 MB there
# a GloVe counting process's own Python (forked from the trainer): peak resident measured
# in a fresh Python that imports the trainer and counts a small member
# (tests/memory_probes.py's fresh_python_rss_mb): 248.6 MB on a warmed checkout, 332.6 MB
# in a fresh clone's first run (CI: its compiled caches still cold), which it must cover
GLOVE_COUNTING_PROCESS_MB = 350
# a trainer without an analytic model: above its corpus-driven memory, the largest
# training job the rehearsal measured (fastText's 3,186 MB at 173k words with 2 M n-gram
# buckets: rehearsal.csv), which every trainer's peak there stayed below
UNMODELLED_TRAINER_MB = 3200


@dataclass(frozen=True)
class TrainerCost:
    """A trained method's costs: ``rate``, tokens (``per_entry``: co-occurrence entries)
    x epochs per second per thread at :data:`RATE_WORDS` words, falling as the vocabulary
    to the ``-rate_slope`` (benchmarks/measurements/trainer-rates.csv); ``count_rate``,
    tokens per second per thread of a counting method's one pass (0: it counts nothing
    apart); ``mem_per_mb``, MB of memory per MB of gzipped corpus, for a method without
    an analytic memory model (:func:`training_memory_mb` gives None; 0 for the others,
    which do not read it). A method not measured at several vocabularies has no slope
    (0)."""

    rate: int
    mem_per_mb: int = 0
    rate_slope: float = 0.0
    count_rate: int = 0
    # the rate counts GloVe's co-occurrence entries, not corpus tokens: a pass visits each
    # entry once, and entries a token fall as the corpus grows (cooccurrence_entries)
    per_entry: bool = False

    def sizes(self) -> dict:
        """The constants as a training job's sizes carry them (:func:`training_need`)."""
        return dataclasses.asdict(self)


# each trained method's costs (learnability.embeddings.registry), by its name: a test
# keeps the names equal. word2vec's, fastText's and GloVe's rates and slopes are measured
# at enwiki's vocabulary (benchmarks/measurements/trainer-rates.csv, `.venv/bin/python
# benchmarks/trainer_rates.py`): the least-squares fit of log rate on log words of probes
# at 45 k to 2.7 M words (GloVe's to 0.9 M: its 3 M-word weights are 29 GB), with their
# 95 % intervals; tests/test_resources.py holds them to the CSV. The workflow's own
# trainers ran 1.39x (word2vec), 1.02x and 1.05x the probes at 50 k words in that run,
# and word2vec 0.87x in a rerun an hour later on the same corpus (1.02x on the probe's
# stream): within this machine's noise from run to run, so the probes are taken as they
# are. (They replace a fit to the rehearsal's three sizes, 71 k to 173 k words, carried
# 17-fold: word2vec's slope of 0.6 there gave 25 k tokens/s at 3 M words where the probe
# measures 85 k.)
TRAINER_COSTS: dict[str, TrainerCost] = {
    # tokens/s a thread: 131 k at 100 k words (95 %: 122-141 k), falling as words^-0.13
    # (0.09-0.16), 85 k at 3 M (78-93 k)
    "word2vec": TrainerCost(rate=131_000, rate_slope=0.13),
    # 71 k at 100 k words (60-83 k), words^-0.31 (0.23-0.40), 24 k at 3 M (20-30 k), where
    # its 2 M n-gram buckets and 3 M words' rows miss every cache
    "fasttext": TrainerCost(rate=70_900, rate_slope=0.31),
    "fasttext_facebook": TrainerCost(rate=50_000, mem_per_mb=3),
    # GloVe (ours): co-occurrence entries/s a thread in its iterations, 635 k at 100 k
    # words (606-665 k), words^-0.02 (-0.01-0.06), 589 k at 3 M (534-651 k): its four
    # V x 301 float64 matrices are out of cache at every size measured. Counting, once,
    # 1.2 M tokens/s per process (by dump part, 2 processes:
    # benchmarks/measurements/rehearsal.csv); its memory is training_memory_mb's
    "glove": TrainerCost(rate=635_000, rate_slope=0.02, count_rate=1_200_000, per_entry=True),
    "glove_python": TrainerCost(rate=120_000, mem_per_mb=10),
    # corpus tokens per second per thread, measured with corpus pooling (N = 10) on the
    # sample (isolated pooling reads the corpus only to count it)
    "transformer": TrainerCost(rate=2_000, mem_per_mb=1),
}


def trainer_cost(method: str) -> TrainerCost:
    """The costs of trained method ``method`` (KeyError: a trained method without a cost
    model, which tests/test_resources.py fails)."""
    return TRAINER_COSTS[method]


def training_memory_mb(
    method: str,
    words: float,
    dim: int,
    threads: int,
    counting_mb: float = 0,
    bucket: int = 0,
) -> float | None:
    """MB a trainer holds for a vocabulary of ``words`` at ``dim``, where its data
    structures are known; None for a method without an analytic model.

    - word2vec (gensim): the input and output vectors, float32 (8 x dim bytes a word),
      and about 500 bytes a word of vocabulary (its dict, counts, sampling table).
    - fastText (gensim): ``bucket`` n-gram vectors, and per word the input, output and
      final vectors and the vocabulary's vectors' gradients (16 x dim bytes).
    - GloVe (ours): training holds the weights and AdaGrad sums of both sides, float64
      (32 x (dim + 1) bytes a word), the vocabulary (``GLOVE_WORD_BYTES``) and one
      bucket of entries; its end holds less (the sums let go before the float32 vectors
      are made, a block of rows at a time); counting holds
      ``counting_mb`` shared by up to ``threads`` processes, each with the vocabulary's
      index (about 100 bytes a word) and its own Python; the larger of the two phases."""
    if method == "word2vec":
        return TRAINER_BASE_MB + words * (8 * dim + 500) / 1e6
    if method == "fasttext":
        return TRAINER_BASE_MB + (bucket * 4 * dim + words * 16 * dim) / 1e6
    if method == "glove":
        per_word = 32 * (dim + 1) + GLOVE_WORD_BYTES
        training = words * per_word / 1e6 + GLOVE_BUCKET_MB
        counting = counting_mb + threads * (GLOVE_COUNTING_PROCESS_MB + words * 100 / 1e6)
        return TRAINER_BASE_MB + max(training, counting)
    return None


def glove_counting_scratch_mb(tokens: float) -> float:
    """GloVe's co-occurrence shards at their peak, while it counts: by entries or by
    tokens, the larger (what the rehearsal measured: it kept no checkpoints)."""
    entries = cooccurrence_entries(tokens)
    return max(entries * GLOVE_TMP_BYTES_PER_ENTRY, tokens * GLOVE_TMP_BYTES_PER_TOKEN) / 1e6


def checkpoint_mb(method: str, words: float, dim: int, bucket: int = 0) -> float:
    """MB of scratch a training's checkpoints take at their peak (two states: the last
    and the one written beside it); 0 for a method that keeps none."""
    per_dim = CHECKPOINT_BYTES_PER_WORD_DIM.get(method)
    if per_dim is None:
        return 0.0
    dims = dim + 1 if method == "glove" else dim  # GloVe's biases
    state = words * (per_dim * dims + CHECKPOINT_BYTES_PER_WORD)
    if method == "fasttext":
        state += bucket * 4 * dim
    return 2 * (CHECKPOINT_BASE_MB + state / 1e6)


def vocabulary_at(tokens: float) -> float:
    """Words at min_count 5 of a corpus of ``tokens`` where its counts are not known (a
    dry run before the corpus exists): Heaps' law through the synthetic dump's 104,103
    words at 18 M tokens with its slope there (0.64), 2.5 M at enwiki's 2.6 B."""
    return 104_103 * (max(tokens, 1.0) / 18e6) ** 0.64


def training_need(
    corpus_mb: float,
    epochs: int,
    threads: int,
    rate: float,
    mem_per_mb: float,
    counting_mb: float = 0,
    counts_cooccurrence: bool = False,
    plain_copy: bool = False,
    method: str = "",
    words: float = 0,
    dim: int = 0,
    bucket: int = 0,
    rate_slope: float = 0.0,
    count_rate: float = 0.0,
    per_entry: bool = False,
) -> Need:
    """Tokens (``per_entry``: GloVe's co-occurrence entries) x epochs at the method's
    measured ``rate`` (a second on one thread at
    ``RATE_WORDS`` words, falling as the vocabulary's ``words`` to the ``-rate_slope``:
    a larger vocabulary's rows miss the caches more) with 75% thread scaling, and a
    counting method's one pass at ``count_rate`` tokens/s per thread. Its memory: the
    analytic model of the method at its vocabulary of ``words``
    (:func:`training_memory_mb`), or for a method without one, its memory per corpus MB
    above ``UNMODELLED_TRAINER_MB`` plus GloVe's ``counting_mb``. Its outputs: the vectors and their
    vocabulary (at most twice the corpus where their size is not known). Its scratch:
    GloVe's co-occurrence shards at their peak (by entries or by tokens, the larger), or
    its buckets and checkpoints through the training if more; or the plain-text copy
    that word2vec and fastText read, and their checkpoints (:func:`checkpoint_mb`)."""
    epoch, counting_seconds = _training_seconds(corpus_mb, threads, rate, words, rate_slope,
                                                count_rate, per_entry)  # fmt: skip
    seconds = epoch * epochs + counting_seconds
    tokens = corpus_mb * TOKENS_PER_GZ_MB
    tmp = 0.0
    checkpoints = checkpoint_mb(method, words, dim, bucket)
    if counts_cooccurrence:
        # training: the buckets kept and the checkpoints beside them
        training = cooccurrence_entries(tokens) * GLOVE_BUCKET_BYTES_PER_ENTRY / 1e6
        tmp = max(glove_counting_scratch_mb(tokens), training + checkpoints)
    elif plain_copy:
        tmp = PLAIN_PER_GZ * corpus_mb + checkpoints
    memory = training_memory_mb(method, words, dim, threads, counting_mb, bucket)
    if memory is None:
        memory = UNMODELLED_TRAINER_MB + counting_mb + corpus_mb * mem_per_mb
    # its outputs: the vectors and the vocabulary, where their size is known
    disk = vectors_mb(words, dim) + words * VOCAB_PARQUET_BYTES_PER_WORD / 1e6
    return Need(
        memory,
        STARTUP_MINUTES + seconds / 60,
        disk_mb=disk if words and dim else 2 * corpus_mb,
        tmp_mb=tmp,
    )


def _training_seconds(
    corpus_mb: float, threads: int, rate: float, words: float, rate_slope: float,
    count_rate: float, per_entry: bool = False,
) -> tuple[float, float]:  # fmt: skip
    """(one epoch's seconds, a counting method's one pass's seconds) of a training: an
    epoch visits the corpus' tokens, or (``per_entry``) its co-occurrence entries."""
    tokens = corpus_mb * TOKENS_PER_GZ_MB
    scaling = max(1.0, THREAD_EFFICIENCY * threads)
    if words and rate_slope:
        rate = rate * (words / RATE_WORDS) ** -rate_slope
    counting = tokens / (count_rate * scaling) if count_rate > 0 else 0.0
    visited = cooccurrence_entries(tokens) if per_entry else tokens
    return visited / (rate * scaling), counting


def piece_minutes(rule: str, **sizes) -> float | None:
    """The longest stretch of a job that a checkpoint cannot cut, in minutes: a trainer
    that checkpoints (:data:`CHECKPOINT_BYTES_PER_WORD_DIM`) resumes after each epoch
    and after its counting, so its start and the longer of the two; None for any other
    job, which must run whole."""
    if rule != "train_embedding" or sizes.get("method") not in CHECKPOINT_BYTES_PER_WORD_DIM:
        return None
    epoch, counting = _training_seconds(
        sizes["corpus_mb"], sizes["threads"], sizes["rate"], sizes.get("words", 0),
        sizes.get("rate_slope", 0.0), sizes.get("count_rate", 0.0),
        sizes.get("per_entry", False),
    )  # fmt: skip
    return STARTUP_MINUTES + max(epoch, counting) / 60


def _duration(minutes: float) -> str:
    return f"{minutes:.0f} min" if minutes < 60 else f"{minutes / 60:.1f} h"


def limited_runtime(
    job: str, need: Need, attempt: int, limit_minutes: float | None, limit_source: str = "",
    piece: float | None = None,
) -> int:  # fmt: skip
    """The runtime ``job`` declares (:func:`declare`) at ``attempt``, held to a partition's
    limit: where the declaration is longer, a job that resumes from checkpoints
    (``piece``: :func:`piece_minutes`) asks for the limit and goes on in the next attempt,
    and another asks for the limit if its need fits in it; a job whose need (or
    uncuttable piece) does not fit is refused in one line that names the job, its need
    and the limit."""
    declared = declare(need, attempt)["runtime"]
    if limit_minutes is None or declared <= limit_minutes:
        return declared
    longest = need.runtime if piece is None else piece
    if longest > limit_minutes:
        what = (f"needs {_duration(need.runtime)}" if piece is None else
                f"needs {_duration(need.runtime)} in all and {_duration(piece)} for its start "
                "and one epoch (or its counting) between checkpoints")  # fmt: skip
        raise InputError(
            f"{job} {what}, over the partition's limit of {_duration(limit_minutes)} "
            f"({limit_source}): it would wait in the queue for ever; submit to a partition "
            "with a longer limit (SBATCH_PARTITION), or give training more threads "
            "(training.threads and the profile's set-threads)"
        )
    return math.floor(limit_minutes)


def vectors_mb(words: float, dim: int) -> float:
    """MB of a float32 ``words`` x ``dim`` matrix."""
    return words * dim * 4 / 1e6


def random_need(words: float, dim: int) -> Need:
    """The reference's vocabulary and one 64 MB block of rows: 343 MB measured at 2.5 M
    words and 399 MB at 3 M, 171-206 MB at 71-173k words (rehearsal.csv): 200 MB and 70
    bytes a word; 28 s for 3.6 GB of vectors. Its outputs: the vectors and the
    vocabulary."""
    out = vectors_mb(words, dim) + words * VOCAB_PARQUET_BYTES_PER_WORD / 1e6
    return Need(200 + words * 70 / 1e6, STARTUP_MINUTES + out / 50 / 60, disk_mb=out)


def import_need(input_mb: float, loads_whole: bool) -> Need:
    """Text and word2vec-binary files stream into a memory map (2 GB with the vocabulary
    of 3 M words); a fastText .bin (``loads_whole``) is loaded whole, about 3x its size.
    Text at about 10 MB/s on one core (benchmarks/import_vectors.py), compressed input
    (bz2) expanding about 3x. Its output: at most the input's size again."""
    return Need(
        2000 + input_mb * (3 if loads_whole else 0),
        STARTUP_MINUTES + input_mb * 3 / 10 / 60,
        disk_mb=3 * input_mb,
    )


def vocabulary_need(words: float, vocabularies: int) -> Need:
    """The vocabularies' words in memory, each about ``WORD_BYTES``."""
    return Need(BASE_MB + 2 * vocabularies * words * WORD_BYTES / 1e6, 1,
                disk_mb=words * VOCAB_PARQUET_BYTES_PER_WORD / 1e6)  # fmt: skip


def restrict_need(words: float, dim: int) -> Need:
    """Rows copied block by block from the memory map: its pages, the vocabulary, and the
    restricted copy (vectors and vocabulary) on disk."""
    mb = vectors_mb(words, dim)
    return Need(BASE_MB + mb + words * WORD_BYTES / 1e6, STARTUP_MINUTES + 2 * mb / READ_MB_S / 60,
                disk_mb=mb + words * VOCAB_PARQUET_BYTES_PER_WORD / 1e6)  # fmt: skip


# --- jobs that read an embedding ----------------------------------------------------


def embedding_read_need(words: float, dim: int, work_mb: float = 0, minutes: float = 0) -> Need:
    """A job that reads an embedding through a memory map: the mapped pages (counted
    against a cluster job's memory once read), the vocabulary as Python strings, and
    ``work_mb`` of its own arrays; reading the pages cold, then ``minutes`` of work."""
    mb = vectors_mb(words, dim)
    return Need(
        BASE_MB + mb + words * WORD_BYTES / 1e6 + work_mb,
        STARTUP_MINUTES + mb / READ_MB_S / 60 + minutes,
        disk_mb=10,
    )


def fitting_need(words: float, dim: int, fits: float, threads: int) -> Need:
    """A job that fits classifiers on a memory-mapped embedding: 3.2 GB measured for a
    3 GB embedding of 2.5 M words; a null job holds at most evaluate.NULL_BATCH_BYTES
    (256 MB) of splits at a time, whatever its lists and splits (method: matched);
    ``fits`` classifier fits at ``FIT_SECONDS`` each, divided over ``threads``."""
    return embedding_read_need(words, dim, 256, fits * FIT_SECONDS / max(1, threads) / 60)


def analysis_need(words: float, dim: int, seconds: float, threads: int) -> Need:
    """An analysis job (learnability.analyses.registry): a fitting job's memory, and the
    ``seconds`` of one thread :func:`analysis_seconds` gives for the job's sizes."""
    return embedding_read_need(words, dim, 256, seconds / max(1, threads) / 60)


@dataclass(frozen=True)
class JobSize:
    """What an analysis job's cost grows with: its ``lists``, the embedding's ``words`` and
    ``dim``, and the learnability's ``iterations`` (splits per list)."""

    lists: int
    words: float
    dim: int
    iterations: int


# the share of the ordered pairs A != B each choice of entanglement.pairs measures: among
# Empath's 194 categories in GloVe 6B 50d, related 99.7 % and sharing 19.4 %
# (benchmarks/entanglement_pairs.py): real lists' members nearly always sit apart from
# the vocabulary along one another's directions, so only sharing cuts the square
ENTANGLEMENT_PAIR_SHARE = {"related": 1.0, "sharing": 0.2, "all": 1.0}
# the entanglement null's cost on one thread (benchmarks/entanglement_null.py's sizes,
# twice what was measured on the sample's word2vec, 8,685 x 300): its pass over the
# vocabulary (whiten, scale to unit length, per-bin cross products: 1.2e-10 s per word x
# dimension^2) and its tests per ordered pair (0.07-0.15 ms, frequency-matched the dearer)
ENTANGLEMENT_NULL_PASS_SECONDS = 2.5e-10
ENTANGLEMENT_NULL_PAIR_SECONDS = 3e-4


def _curve_sizes(largest: int, sizes: tuple[int, ...], smallest: int) -> list[int]:
    from learnability.analyses.words_needed import sizes_for

    return sizes_for(largest, sizes, smallest)


# each analysis' seconds on one thread for a job of ``size`` under its settings ``s``
# (learnability.analyses.registry), by its name; an analysis without an entry costs
# nothing beside reading the embedding (a test keeps every name here an analysis)
ANALYSIS_SECONDS: dict[str, Callable[[dict, JobSize], float]] = {
    "codelength": lambda s, size: (
        size.lists
        * (s["codelength_orders"] + s["codelength_null_lists"])
        * len(s["codelength_fractions"])
        * FIT_SECONDS
    ),
    # the list's own splits, and each group's run
    "bounds": lambda s, size: (
        size.lists * (1 + s["bound_groups"]) * s["bound_iterations"] * FIT_SECONDS
    ),
    # a job's list sizes are not among its sizes: every list is taken to try the grid up to
    # 500 words (11 sizes; a smaller list tries fewer), each size subsamples x the lists'
    # splits, and a null a size (1000 lists of 10 splits at the defaults)
    "words_needed": lambda s, size: (
        len(_curve_sizes(501, tuple(s["curve_sizes"]), 4))
        * (size.lists * s["curve_subsamples"] * size.iterations + 10_000)
        * FIT_SECONDS
    ),
    "suggestions": lambda s, size: size.lists * size.words * size.iterations * ROW_SPLIT_SECONDS,
    "suggestion_check": lambda s, size: (
        size.lists
        * s["check_folds"]
        * s["check_iterations"]
        * (FIT_SECONDS + size.words * ROW_SPLIT_SECONDS)
    ),
    # each list's splits before, and after each measured pair's erasure; the null's
    # pass over the vocabulary and its tests of every ordered pair
    "entanglement": lambda s, size: (
        size.lists
        * (2 + ENTANGLEMENT_PAIR_SHARE[s["entanglement_pairs"]] * (size.lists - 1))
        * s["entanglement_iterations"]
        * FIT_SECONDS
        + size.words * size.dim**2 * ENTANGLEMENT_NULL_PASS_SECONDS
        + size.lists**2 * ENTANGLEMENT_NULL_PAIR_SECONDS
    ),
}


def analysis_seconds(name: str, settings: dict, size: JobSize) -> float:
    """One thread's seconds for analysis ``name``'s job over ``size``: 0 for an analysis
    whose work is small beside reading the embedding (no entry)."""
    seconds = ANALYSIS_SECONDS.get(name)
    return 0.0 if seconds is None else float(seconds(settings, size))


# per kind: anonymous memory per vocabulary word (its words, their folded forms, the
# norms and the search's blocks) above BASE_MB, from its peak at 3 M x 300 on a memory
# map (benchmarks/evaluation_memory.py: 1865, 907, 725 and 1603 MB, and pseudo's 2157
# with its pairs), and minutes of work there on one thread (9, 209, 2 and 44 s measured
# on 2; pseudo: 26,063 neighbour searches of 45 ms each in the real corpus)
EVALUATION_BYTES_PER_WORD = {
    "multi_answer": 460,
    "analogy": 140,
    "word_pairs": 80,
    "hierarchy": 370,
    "pseudo": 90,
}
EVALUATION_MINUTES = {"multi_answer": 1, "analogy": 8, "word_pairs": 1, "hierarchy": 2}


def evaluation_need(kind: str, words: float, dim: int, max_tokens: float = 2e6) -> Need:
    """One evaluation job on a memory-mapped embedding: its pages, and its arrays per
    word. Pseudo-disambiguation also holds the pair tokens of the corpus' first
    ``max_tokens`` (with their folds and keys: 1.2 GB at 2 M tokens, fitted to 1539-1788
    MB measured at 104k-253k words and 5827 at 3 M)."""
    work = words * (EVALUATION_BYTES_PER_WORD[kind] - WORD_BYTES) / 1e6
    if kind == "pseudo":
        work += 1200 * max(1.0, max_tokens / 2e6)
        # reading the corpus's first tokens and drawing the pairs (about 1.5 minutes:
        # 110-144 s a job at 71k-173k words in rehearsal.csv), then the searches
        minutes = 1.5 + 26_063 * 0.045 / 60 * words / 3e6
    else:
        minutes = EVALUATION_MINUTES[kind]
    return embedding_read_need(words, dim, work, minutes)


def small_need() -> Need:
    """Tables, plots, tests and the report: small tables in, small files out."""
    return Need(BASE_MB + 500, 2, disk_mb=100)


def vocabulary_table_need(words: float, vocabularies: int = 1) -> Need:
    """A job that reads whole vocabularies (resolving a list, the coverage, the sweep's
    shared words): their words as Python strings; 12 s measured at 3 M words."""
    return Need(BASE_MB + 2 * vocabularies * words * WORD_BYTES / 1e6, 1, disk_mb=10)


# --- every rule ---------------------------------------------------------------------


def _rules() -> dict[str, Callable[..., Need]]:
    from learnability.analyses.registry import ANALYSES
    from learnability.evaluations.registry import KINDS

    small = (
        "all", "pvalues", "wilcoxon", "ranking", "coverage_table", "tables",
        "evaluations_summary", "plot_pseudo", "plot_roc", "plot_auc_distribution",
        "plot_null", "plot_heatmap", "sweep_summary", "plot_sweep", "corpus_comparison",
        "plot_corpora",
    )  # fmt: skip
    models: dict[str, Callable[..., Need]] = {name: small_need for name in small}
    models.update(
        dump_manifest=manifest_need,
        fetch_dump_part=download_need,
        fetch_dump=download_need,
        fetch_embedding=download_need,
        extract_part=extraction_need,
        join_corpus=join_need,
        corpus_coverage=corpus_coverage_need,
        corpus_prefix=join_need,
        draw_corpus=draw_need,
        train_embedding=training_need,
        random_embedding=random_need,
        import_embedding=import_need,
        shared_vocabulary=vocabulary_need,
        sweep_vocabulary=vocabulary_need,
        restrict_embedding=restrict_need,
        resolve_concept=vocabulary_table_need,
        sweep_concepts=vocabulary_table_need,
        coverage=vocabulary_table_need,
        learnability=fitting_need,
        learning_curve=fitting_need,
        null_distribution=fitting_need,
        sweep_scores=fitting_need,
        explorer=embedding_read_need,
    )
    for kind in KINDS:
        models[f"evaluate_{kind}"] = functools.partial(evaluation_need, kind)
    for analysis in ANALYSES.values():
        models[analysis.name] = analysis_need
        if analysis.report:
            models[f"{analysis.name}_table"] = small_need
    return models


MODELS: dict[str, Callable[..., Need]] = {}


def model(rule: str) -> Callable[..., Need]:
    """The model of ``rule``, its need from its sizes as keywords (KeyError names a rule
    that has none)."""
    if not MODELS:
        MODELS.update(_rules())
    if rule not in MODELS:
        raise KeyError(f"rule {rule!r} has no resource model in learnability.pipeline.resources")
    return MODELS[rule]


def need(rule: str, **sizes) -> Need:
    return model(rule)(**sizes)

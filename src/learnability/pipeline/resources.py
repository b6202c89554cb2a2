"""The workflow's cost models: each job's memory (MB), runtime (minutes) and disk (MB)
from its sizes (input MB, corpus tokens, vocabulary words, dimensions, threads). The
rules' ``resources:`` call these (workflow/rules/*.smk adapt a job's wildcards and input
to the sizes); the cluster dry run prints what they give. Each constant names the
measurement it comes from (``benchmarks/scale.py`` unless said otherwise)."""

from __future__ import annotations

# tokens per MB of the gzipped corpus, measured on the sample; each method's training
# rate and memory per MB are in its registry entry (learnability.embeddings.registry)
TOKENS_PER_GZ_MB = 400_000

# bytes of GloVe's tmpdir per co-occurrence entry at its peak: 49, the most measured
# (2085 MB for 42.5 M entries; 38 and 42 at 76 and 135 M entries, with the shards deleted
# once merged); co-occurrence entries per corpus token (window 5, min_count 5) fall as the
# corpus grows: 2.80 at 4.5 M tokens, 2.36 at 18 M, 2.13 at 36 M and 1.89 at 72 M on the
# synthetic dump (the real sample has 2.9 at 0.45 M); the power law of slope -0.12 kept
# here gives 1.3 at enwiki's 2.6 B tokens, above the measured slope's -0.16 (1.06),
# inside the 1-3.5 B entries estimated for it
GLOVE_TMP_BYTES_PER_ENTRY = 49
ENTRIES_PER_TOKEN, ENTRIES_AT_TOKENS, ENTRIES_SLOPE = 2.36, 18e6, -0.12

# Parquet bytes per vocabulary word: 13 (33 MB at 2.5 M words)
VOCAB_PARQUET_BYTES_PER_WORD = 13


def extraction_mem_mb(input_mb: float) -> int:
    """One page at a time plus the part's token counts (bounded by its vocabulary)."""
    return 1000 + int(input_mb * 2)


def extraction_runtime(input_mb: float) -> int:
    """Minutes: about 2 MB/s of bz2 input per core is measured (7 MB/s of XML, README);
    0.5 MB/s is assumed, with a 4x margin, for slower or shared cluster cores."""
    return 10 + int(input_mb / 0.5 / 60 * 4)


def training_runtime(corpus_mb: float, epochs: int, threads: int, rate: float) -> int:
    """Minutes: tokens x epochs at the method's measured ``rate`` (tokens/s on one
    thread), 3x margin, 75% thread scaling."""
    work = corpus_mb * TOKENS_PER_GZ_MB * epochs
    seconds = work / (rate * max(1.0, 0.75 * threads))
    return 10 + int(3 * seconds / 60)


def training_mem_mb(corpus_mb: float, mem_per_mb: float, counting_mb: float = 0) -> int:
    """The method's memory per corpus MB, plus GloVe's ``counting_mb`` (count_memory_mb,
    shared by its counting processes, each also holding the vocabulary's index: about
    100 bytes a word, 4 GB for 16 processes at 2.5 M words)."""
    return 4000 + int(counting_mb) + int(corpus_mb * mem_per_mb)


def cooccurrence_entries(tokens: float) -> float:
    """GloVe's co-occurrence entries for a corpus of ``tokens`` (window 5, min_count 5)."""
    return tokens * min(3.0, ENTRIES_PER_TOKEN * (tokens / ENTRIES_AT_TOKENS) ** ENTRIES_SLOPE)


def training_disk_mb(corpus_mb: float, counts_cooccurrence: bool) -> int:
    """MB: the job's output (Snakemake's default guess, twice the input) plus, for the
    methods that count co-occurrences, their tmpdir at its peak; a 1.3x margin. GloVe's
    tmpdir must be scratch that holds it (LEARNABILITY_TMPDIR on a cluster): about 250 GB
    at enwiki's 2.6 B tokens."""
    need = 2 * corpus_mb
    if counts_cooccurrence:
        entries = cooccurrence_entries(corpus_mb * TOKENS_PER_GZ_MB)
        # 1.4x: 1.3x over the top of the 1-3.5 B entries assumed for enwiki, which the
        # rehearsal's extrapolation takes (the model gives 3.4 B)
        return 1000 + int(1.4 * (need + entries * GLOVE_TMP_BYTES_PER_ENTRY / 1e6))
    return 1000 + int(1.3 * need)


def random_mem_mb(vocab_mb: float) -> int:
    """The reference's vocabulary as Python strings and one 64 MB block of rows: 343 MB
    measured at 2.5 M words (33 MB of Parquet); the growth measured at 42k-104k words
    extrapolates to 2.1 GB there, which this covers 1.4x."""
    return 1000 + int(60 * vocab_mb)


def random_disk_mb(words: float, dim: int, vocab_mb: float) -> int:
    """MB: the float32 words x dim vectors it writes (3 GB at 2.5 M words x 300, against
    Snakemake's default of twice its small input) and its vocabulary, 1.3x."""
    return 1000 + int(1.3 * (words * dim * 4 / 1e6 + 2 * vocab_mb))


def vocabulary_words(vocab_mb: float) -> float:
    """Words of a vocabulary file of ``vocab_mb`` (before it exists: a dry run)."""
    return vocab_mb * 1e6 / VOCAB_PARQUET_BYTES_PER_WORD


def fitting_mem_mb(input_mb: float) -> int:
    """The memory-mapped embedding's pages, plus the splits and per-thread work arrays:
    3.2 GB measured for a 3 GB embedding of 2.5 M words; a null job holds at most
    evaluate.NULL_BATCH_BYTES (256 MB) of splits at a time, whatever its lists and
    splits (method: matched), within the 1000 MB base."""
    return 1000 + int(1.3 * input_mb)


def pseudo_mem_mb(vectors_mb: float, max_tokens: float) -> int:
    """The pair tokens of the corpus' first ``max_tokens`` (about 10 a token, with their
    folds and keys) and the vectors' pages the neighbour search reads: 1.4 GB at 2 M
    tokens plus 1.4x the vectors, fitted to 1539-1788 MB measured at 104k-253k words
    (6.3 GB extrapolated at 3 M words), with a 1.3x margin."""
    pairs_mb = 1400 * max(1.0, max_tokens / 2e6)
    return int(1.3 * (pairs_mb + 1.4 * vectors_mb))


def pseudo_runtime(input_mb: float) -> int:
    """Minutes: 2.3-3.0 h extrapolated at 2.5-3 M words (a neighbour search per query
    over the vocabulary), covered 1.4x at enwiki's 6.5 GB corpus and 3 GB vectors."""
    return 60 + int(0.03 * input_mb)


def import_mem_mb(input_mb: float, loads_whole: bool) -> int:
    """Text and word2vec-binary files stream into a memory map; a fastText .bin
    (``loads_whole``) is loaded whole, about 3x its size."""
    return 2000 + int(input_mb * (3 if loads_whole else 0))


def import_runtime(input_mb: float) -> int:
    """Minutes: text imports at about 10 MB/s on one core (benchmarks/import_vectors.py),
    compressed input (bz2) expands about 3x, and a 3x margin: 0.015 min per input MB."""
    return 10 + int(input_mb * 0.015)

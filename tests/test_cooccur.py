"""Co-occurrence counts: a hand-worked corpus in both conventions, glove-python's own
counter, and sharding under a tiny budget, which must change nothing."""

import numpy as np
import pytest
from marks import needs_glove_python

from learnability.corpus.cooccur import count_cooccurrences, weight_scale

INDEX = {"a": 0, "b": 1, "c": 2}
LINES = [["a", "b", "c", "a"], ["b", "x", "a"], ["c", "c"]]


def dense(rows, cols, vals, n=3):
    m = np.zeros((n, n))
    m[rows, cols] = vals
    return m


def test_reference_convention_by_hand():
    """OOV words removed before windowing (line 2 becomes 'b a'), both directions, a word
    with itself counted (line 3), weight 1/distance, window 2."""
    rows, cols, vals, info = count_cooccurrences(LINES, INDEX, 2, mode="reference")
    expected = np.array(
        [
            [0.0, 1 + 0.5 + 1, 0.5 + 1],  # a-b: d1, d2 (b..a), d1 (line 2); a-c: d2, d1
            [2.5, 0.0, 1.0],  # b-c: d1
            [1.5, 1.0, 2.0],  # c-c at distance 1, both directions
        ]
    )
    np.testing.assert_array_equal(dense(rows, cols, vals), expected)
    assert info["entries"] == 7


def test_glove_python_convention_by_hand():
    """OOV keeps its place (line 2: b and a at distance 2), no self pairs, upper triangle."""
    rows, cols, vals, _ = count_cooccurrences(LINES, INDEX, 2, mode="glove_python")
    expected = np.array([[0.0, 1 + 0.5 + 0.5, 0.5 + 1], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]])
    np.testing.assert_array_equal(dense(rows, cols, vals), expected)


def _corpus(seed=0, n_lines=300):
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(400)]
    p = 1 / np.arange(1, 401)
    p /= p.sum()
    lines = [list(rng.choice(words, size=rng.integers(1, 60), p=p)) for _ in range(n_lines)]
    index = {w: i for i, w in enumerate(words[:250])}  # the rest is out of vocabulary
    return lines, index


@pytest.mark.parametrize("mode", ["reference", "glove_python"])
def test_a_tiny_budget_shards_and_changes_nothing(mode, tmp_path):
    lines, index = _corpus()
    whole = count_cooccurrences(lines, index, 5, mode=mode)
    tiny = count_cooccurrences(lines, index, 5, mode=mode, budget_bytes=20_000, workdir=tmp_path)
    assert whole[3]["shards"] == 0 and tiny[3]["shards"] >= 5
    for a, b in zip(whole[:3], tiny[:3], strict=True):
        assert np.array_equal(a, b)  # bit for bit: the weights are summed as integers
    assert list(tmp_path.iterdir()) == []  # shards are cleaned up


@needs_glove_python
def test_glove_python_mode_equals_glove_pythons_counter():
    from glove import Corpus

    lines, index = _corpus(seed=1)
    corpus = Corpus(dictionary=index)
    corpus.fit(lines, window=5, ignore_missing=True)
    ref = corpus.matrix.tocsr()
    rows, cols, vals, _ = count_cooccurrences(lines, index, 5, mode="glove_python")
    coo = ref.tocoo()  # tocsr() merged any duplicates of glove-python's
    assert vals.size == ref.nnz
    n = len(index)
    assert set((rows.astype(np.int64) * n + cols).tolist()) == set(
        (coo.row.astype(np.int64) * n + coo.col).tolist()
    )
    # glove-python sums in single precision (7.6e-7 relative here); ours are exact
    np.testing.assert_allclose(vals, np.asarray(ref[rows, cols]).ravel(), rtol=2e-6)


def test_weights_are_exact_multiples():
    assert weight_scale(5) == 60 and weight_scale(10) == 2520


def test_a_line_longer_than_the_budget_is_a_clear_error():
    with pytest.raises(MemoryError, match="raise it to at least"):
        count_cooccurrences([["a"] * 500], {"a": 0}, 5, budget_bytes=1000)


def test_entries_are_unique_even_when_sharded(tmp_path):
    """glove-python's counter emitted the same (row, col) several times with partial counts
    once its per-row maps were compacted; ours never does."""
    lines, index = _corpus(seed=2, n_lines=600)
    rows, cols, _, info = count_cooccurrences(
        lines, index, 5, mode="glove_python", budget_bytes=30_000, workdir=tmp_path
    )
    assert info["shards"] > 1
    keys = rows.astype(np.int64) * len(index) + cols
    assert np.unique(keys).size == keys.size
    assert (np.diff(keys) > 0).all()  # sorted by (row, col)


def test_radix_reduce_equals_a_sort_and_sum():
    """The compiled radix sort-and-sum against numpy's stable argsort and reduceat, on
    keys of every magnitude the counter can produce (up to V^2 for V = 2.5 M words)."""
    from learnability.corpus.cooccur import _reduce

    rng = np.random.default_rng(0)
    for n, high in [(1, 10), (7, 3), (5000, 60), (200_000, 8685**2), (50_000, 2_500_000**2)]:
        keys = rng.integers(0, high, n).astype(np.int64)
        vals = rng.integers(1, 61, n).astype(np.int64)
        order = np.argsort(keys, kind="stable")
        k, v = keys[order], vals[order]
        first = np.flatnonzero(np.r_[True, k[1:] != k[:-1]])
        got_k, got_v = _reduce(keys, vals)
        np.testing.assert_array_equal(got_k, k[first])
        np.testing.assert_array_equal(got_v, np.add.reduceat(v, first))
    empty = _reduce(np.empty(0, np.int64), np.empty(0, np.int64))
    assert empty[0].size == 0 and empty[1].size == 0


def _zipf_lines(seed: int, n_lines: int, V: int = 400) -> list[list[str]]:
    rng = np.random.default_rng(seed)
    p = 1 / np.arange(1, V + 1)
    words = np.array([f"w{i}" for i in range(V)])
    return [list(rng.choice(words, rng.integers(1, 60), p=p / p.sum())) for _ in range(n_lines)]


def _multi_member_corpus(path, members: list[list[list[str]]]) -> None:
    """A corpus as join_corpus writes one: each part's lines a gzip member of its own."""
    import gzip

    with open(path, "wb") as out:
        for lines in members:
            out.write(gzip.compress("".join(" ".join(t) + "\n" for t in lines).encode()))


def test_counting_by_member_in_processes_gives_the_same_bytes(monkeypatch, tmp_path):
    """GloVe's counting of a joined corpus (one gzip member per dump part) in 2 worker
    processes, each within half a tiny budget: the same vocabulary, counts and buckets,
    entry for entry, as one process reading the file; the members' lines are the file's."""
    from learnability.corpus import cooccur
    from learnability.corpus.lines import gzip_members, iter_lines, member_lines
    from learnability.embeddings.glove import count_for_glove

    parts = [_zipf_lines(seed, n) for seed, n in ((1, 300), (2, 1), (3, 500), (4, 120))]
    corpus = tmp_path / "text.txt.gz"
    _multi_member_corpus(corpus, parts)
    members = gzip_members(corpus)
    assert len(members) == 4 and members[0][0] == 0 and members[-1][1] == corpus.stat().st_size
    assert [list(member_lines(corpus, a, b)) for a, b in members] == parts
    assert list(iter_lines(corpus)) == [t for p in parts for t in p]

    monkeypatch.setattr(cooccur, "BUCKET_ENTRIES", 9_000)  # several buckets on disk
    runs = {}
    for processes in (1, 2):
        work = tmp_path / f"p{processes}"
        work.mkdir()
        words, counts, buckets, info = count_for_glove(
            str(corpus), 3, 5, count_memory_mb=1, tmpdir=str(work), processes=processes
        )
        assert info["processes"] == processes and info["shards"] >= 4
        with buckets:
            loaded = [[a.copy() for a in buckets.load(b)] for b in range(len(buckets))]
        runs[processes] = (words, counts, info["entries"], loaded)
        assert list(work.iterdir()) == []  # shards and buckets removed
    (w1, c1, e1, b1), (w2, c2, e2, b2) = runs[1], runs[2]
    assert w1 == w2 and e1 == e2 and len(b1) == len(b2) >= 3
    np.testing.assert_array_equal(c1, c2)
    for x, y in zip(b1, b2, strict=True):
        for p, q in zip(x, y, strict=True):
            np.testing.assert_array_equal(p, q)
    # and against the in-memory reference counter
    index = {w: i for i, w in enumerate(w1)}
    rows, cols, vals, _ = count_cooccurrences(iter_lines(corpus), index, 5)
    got = np.concatenate([np.stack([b[0], b[1]], 1) for b in b1])
    order = np.lexsort((got[:, 1], got[:, 0]))
    np.testing.assert_array_equal(got[order], np.stack([rows, cols], 1))
    np.testing.assert_array_equal(np.concatenate([b[2] for b in b1])[order], vals)


def test_counting_holds_its_arrays_within_the_budget(monkeypatch, tmp_path):
    """The arrays the counter allocates (pair buffer, sort scratch, merge ranges, bucket
    split), traced by tracemalloc, never exceed count_memory_mb's bytes: sorting in place
    and releasing the buffer before the merge (a copying sort held 1.5x)."""
    import tracemalloc

    from learnability.corpus import cooccur
    from learnability.corpus.cooccur import CooccurrenceCounter, encode_lines

    lines = _zipf_lines(5, 2500, V=3000)
    index = {f"w{i}": i for i in range(3000)}
    batches = list(encode_lines(lines, index, batch_tokens=2000))
    monkeypatch.setattr(cooccur, "BUCKET_ENTRIES", 20_000)
    budget = 1 << 21
    # numba compiles (or loads from its cache) the counting kernels on first call, and
    # that allocates megabytes of Python objects: done once before tracing, so that the
    # peak measures the counter's arrays whichever test ran first on this worker.
    warm = CooccurrenceCounter(len(index), 5, budget_bytes=budget, workdir=tmp_path)
    for ids, starts in batches[:3]:
        warm.add(ids, starts)
    with warm.finish_buckets() as buckets:
        [buckets.load(b) for b in range(len(buckets))]
    tracemalloc.start()
    try:
        counter = CooccurrenceCounter(len(index), 5, budget_bytes=budget, workdir=tmp_path)
        for ids, starts in batches:
            counter.add(ids, starts)
        with counter.finish_buckets() as buckets:
            _, peak = tracemalloc.get_traced_memory()
            entries, n_buckets = buckets.entries, len(buckets)
    finally:
        tracemalloc.stop()
    assert len(counter.shards) >= 4 and n_buckets >= 3  # every stage ran
    assert entries > 2 * budget // 32  # more entries than the buffer holds
    assert peak <= budget * 1.03, (peak, budget)


# enwiki's counting writes hundreds of shards (two files each) and the split hundreds of
# buckets; the usual limit is 1,024 open files a process, and some sites set 256
OPEN_FILES = 256
MERGE_IN_A_LOW_LIMIT = """
import resource, sys
from pathlib import Path
import numpy as np
resource.setrlimit(resource.RLIMIT_NOFILE, ({limit}, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
from learnability.corpus import cooccur
cooccur.BUCKET_ENTRIES = {bucket_entries}
counter = cooccur.CooccurrenceCounter({V}, 5, budget_bytes={budget}, workdir={work!r})
counter.adopt(sorted(p.with_name(p.name[: -len(".keys.npy")])
                     for p in Path({shards!r}).glob("*.keys.npy")))
with counter.finish_buckets() as buckets:
    loaded = [buckets.load(b) for b in range(len(buckets))]
    np.savez({out!r}, n_buckets=len(buckets), sizes=[r.size for r, _, _ in loaded],
             rows=np.concatenate([r for r, _, _ in loaded]),
             cols=np.concatenate([c for _, c, _ in loaded]),
             vals=np.concatenate([v for _, _, v in loaded]))
"""


def test_a_merge_of_1200_shards_into_300_buckets_runs_under_256_open_files(tmp_path):
    """1,200 shards (2,400 files), merged in several key ranges and split into over 300
    buckets, in a process allowed 256 open files: every count is the sum numpy makes
    here of every shard's pairs (np.unique), each once, each bucket in (row, col)
    order. A merge that maps every shard at once stops with 'Too many open files'."""
    import subprocess
    import sys

    from learnability.corpus.cooccur import weight_scale

    rng = np.random.default_rng(12)
    V, n_shards = 4000, 1200
    folder = tmp_path / "shards"
    folder.mkdir()
    all_keys, all_vals = [], []
    for s in range(n_shards):  # as a counter writes them: sorted unique keys, integer weights
        keys = np.unique(rng.integers(0, 300_000, size=60)) * 50 + rng.integers(0, 50)
        vals = rng.integers(1, 600, size=keys.size)
        np.save(folder / f"shard{s:05d}.keys.npy", keys.astype(np.int64))
        np.save(folder / f"shard{s:05d}.vals.npy", vals.astype(np.int64))
        all_keys.append(keys)
        all_vals.append(vals)
    keys, where = np.unique(np.concatenate(all_keys), return_inverse=True)
    sums = np.zeros(keys.size, dtype=np.int64)
    np.add.at(sums, where, np.concatenate(all_vals))
    budget = 1 << 18  # 8,192 pairs: key ranges of 2,048 entries, about 35 of them
    bucket_entries = keys.size // 310
    script = MERGE_IN_A_LOW_LIMIT.format(
        limit=OPEN_FILES, bucket_entries=bucket_entries, V=V, budget=budget,
        work=str(tmp_path), shards=str(folder), out=str(tmp_path / "out.npz"),
    )  # fmt: skip
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    got = np.load(tmp_path / "out.npz")
    assert got["n_buckets"] > OPEN_FILES and got["sizes"].sum() == keys.size, got["sizes"]
    order = np.lexsort((got["cols"], got["rows"]))
    assert np.array_equal(got["rows"][order], keys // V)
    assert np.array_equal(got["cols"][order], keys % V)
    assert np.array_equal(got["vals"][order], sums.astype(np.float64) / weight_scale(5))
    # within each bucket, (row, col) order
    pairs = got["rows"].astype(np.int64) * V + got["cols"]
    for bucket in np.split(pairs, np.cumsum(got["sizes"])[:-1]):
        assert np.all(np.diff(bucket) > 0)

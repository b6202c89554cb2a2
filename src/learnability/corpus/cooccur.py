"""Word co-occurrence counts within a memory budget, sharded to disk and merged.

Two counting conventions:

- ``reference`` (the GloVe authors' ``cooccur.c``): out-of-vocabulary words are removed
  before windowing; every pair within ``window`` words counts in both directions,
  (i, j) and (j, i), a word with itself included, with weight 1/distance.
- ``glove_python`` (the glove-python family): an out-of-vocabulary word keeps its place
  (distances are those of the full text), a word never pairs with itself, and each pair
  counts once, in the upper triangle (min id, max id).

A newline is a document boundary in both: no window crosses it.

Weights are summed exactly, as integers in units of 1/lcm(1..window), so the counts do
not depend on the order of summation: a sharded count equals an unsharded one bit for
bit, whatever the budget.

Memory: pairs are generated into a buffer of half of ``budget_bytes`` (16 bytes per
pair) and sorted in place with a scratch buffer of the other half. A full buffer is
sorted and reduced; when that leaves it more than half full it is written to disk as a
sorted shard. At the end the buffers are released and the shards are merged key range
by key range, each range a quarter of the budget, into one sorted (row, col, value)
list on disk: the arrays held never exceed ``budget_bytes``.

Parallel counting (:func:`count_members`): a corpus joined from a dump's parts is
a multi-member gzip file, one member per part, and no window crosses a line, so each
member is counted by its own process into shards of its own, with an equal share of the
budget, and the shards of all members are merged as one counter's. Integer weights make
the result the same bytes whatever the number of processes.
"""

from __future__ import annotations

import math
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from itertools import repeat
from pathlib import Path

import numpy as np
from numba import njit

from learnability.corpus.lines import member_lines
from learnability.corpus.parallel import process_pool

MODES = ("reference", "glove_python")
BYTES_PER_PAIR = 32  # key + value, and as much again for the sort
# One finished entry: 16 bytes, row and column next to their count, so that a step of
# GloVe reads one cache line per entry.
ENTRY = np.dtype([("row", "<i4"), ("col", "<i4"), ("val", "<f8")])
# Entries per bucket handed to GloVe (512 MiB of entries, plus a 256 MiB shuffle index).
BUCKET_ENTRIES = 1 << 25


def weight_scale(window: int) -> int:
    """lcm(1..window): 1/d is an integer number of these units for every distance d."""
    return math.lcm(*range(1, window + 1))


@njit(cache=True)
def _pairs(ids, starts, window, scale, upper, drop_oov, V, keys, vals):
    """Pairs of the lines ids[starts[k]:starts[k+1]] into keys/vals; returns how many."""
    n = 0
    buf = np.empty(ids.shape[0], dtype=np.int64)
    for k in range(starts.shape[0] - 1):
        s, e = starts[k], starts[k + 1]
        if drop_oov:
            m = 0
            for p in range(s, e):
                if ids[p] >= 0:
                    buf[m] = ids[p]
                    m += 1
            line = buf[:m]
        else:
            line = ids[s:e]
        L = line.shape[0]
        for i in range(L):
            wi = line[i]
            if wi < 0:
                continue
            stop = min(i + window + 1, L)
            for j in range(i + 1, stop):
                wj = line[j]
                if wj < 0:
                    continue
                w = scale // (j - i)
                if upper:
                    if wi == wj:
                        continue
                    a, b = (wi, wj) if wi < wj else (wj, wi)
                    keys[n] = a * V + b
                    vals[n] = w
                    n += 1
                else:
                    keys[n] = wi * V + wj
                    vals[n] = w
                    keys[n + 1] = wj * V + wi
                    vals[n + 1] = w
                    n += 2
    return n


@njit(cache=True)
def _radix_reduce(keys, vals, tmp_k, tmp_v):
    """Sort (keys, vals) by key with an LSD radix sort, 11 bits a pass and only as many
    passes as the largest key needs, then sum the values of equal keys in place; returns
    how many distinct keys. Keys are non-negative. An argsort of 4 M int64 keys took
    0.57-0.74 s here; this takes a fraction of that, and since the values are integers
    their sums do not depend on the order."""
    n = keys.shape[0]
    if n == 0:
        return 0
    top = 0
    for i in range(n):
        if keys[i] > top:
            top = keys[i]
    shift = 0
    src_k, src_v, dst_k, dst_v = keys, vals, tmp_k, tmp_v
    count = np.empty(2049, dtype=np.int64)
    while shift == 0 or (top >> shift) > 0:
        count[:] = 0
        for i in range(n):
            count[((src_k[i] >> shift) & 2047) + 1] += 1
        for b in range(2048):
            count[b + 1] += count[b]
        for i in range(n):
            b = (src_k[i] >> shift) & 2047
            j = count[b]
            dst_k[j] = src_k[i]
            dst_v[j] = src_v[i]
            count[b] = j + 1
        src_k, src_v, dst_k, dst_v = dst_k, dst_v, src_k, src_v
        shift += 11
    # src holds the sorted pairs; reduce them into keys/vals
    m = 0
    keys[0] = src_k[0]
    acc = src_v[0]
    for i in range(1, n):
        if src_k[i] == keys[m]:
            acc += src_v[i]
        else:
            vals[m] = acc
            m += 1
            keys[m] = src_k[i]
            acc = src_v[i]
    vals[m] = acc
    return m + 1


def _reduce(keys: np.ndarray, vals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sort by key and sum the values of equal keys (new arrays; the inputs are kept)."""
    k = np.array(keys, dtype=np.int64)
    v = np.array(vals, dtype=np.int64)
    m = _reduce_in_place(k, v, np.empty_like(k), np.empty_like(v))
    return k[:m].copy(), v[:m].copy()


def _reduce_in_place(
    keys: np.ndarray, vals: np.ndarray, tmp_k: np.ndarray, tmp_v: np.ndarray
) -> int:
    """:func:`_reduce` without copies: ``keys``/``vals`` (int64, contiguous) become their
    sorted, summed prefix; the scratch arrays are at least as long. Returns its length."""
    n = keys.size
    if n == 0:
        return 0
    return _radix_reduce(keys, vals, tmp_k[:n], tmp_v[:n])


class CooccurrenceCounter:
    """Accumulate pairs from encoded lines within ``budget_bytes``; :meth:`finish` merges.

    ``shard_dir``: write the shards there (named ``shard_prefix`` + a number) and leave
    them for another counter to :meth:`adopt`, instead of a temporary folder of its own."""

    def __init__(
        self,
        vocab_size: int,
        window: int,
        *,
        mode: str = "reference",
        budget_bytes: int = 1 << 30,
        workdir: str | os.PathLike[str] | None = None,
        shard_dir: str | os.PathLike[str] | None = None,
        shard_prefix: str = "shard",
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown co-occurrence mode {mode!r}; use one of {MODES}")
        if window < 1:
            raise ValueError("window must be at least 1")
        self.V, self.window, self.mode = int(vocab_size), int(window), mode
        self.scale = weight_scale(self.window)
        per_token = 2 * self.window
        self.capacity = max(4 * per_token, int(budget_bytes) // BYTES_PER_PAIR)
        # the pair buffer and the sort's scratch, allocated by the first add(): a counter
        # that only merges adopted shards never holds them
        self.keys = self.vals = self._tmp_k = self._tmp_v = None
        self.n = 0
        if shard_dir is None:
            self._tmp = tempfile.TemporaryDirectory(dir=workdir, prefix="cooccur-")
            self._dir = Path(self._tmp.name)
        else:
            self._tmp, self._dir = None, Path(shard_dir)
        self._prefix = shard_prefix
        self.shards: list[Path] = []
        self.pairs_generated = 0

    def _allocate(self) -> None:
        if self.keys is None:
            self.keys = np.empty(self.capacity, dtype=np.int64)
            self.vals = np.empty(self.capacity, dtype=np.int64)
            self._tmp_k = np.empty(self.capacity, dtype=np.int64)
            self._tmp_v = np.empty(self.capacity, dtype=np.int64)

    def _release(self) -> None:
        self.keys = self.vals = self._tmp_k = self._tmp_v = None

    def add(self, ids: np.ndarray, starts: np.ndarray) -> None:
        """Count the lines ``ids[starts[k]:starts[k+1]]`` (ids < 0: out of vocabulary)."""
        self._allocate()
        ids = np.ascontiguousarray(ids, dtype=np.int64)
        starts = np.ascontiguousarray(starts, dtype=np.int64)
        per_token = 2 * self.window
        k, n_lines = 0, starts.size - 1
        while k < n_lines:
            # the most lines from k whose worst-case pair count fits in the free buffer
            need = (starts[k + 1 :] - starts[k]) * per_token
            m = int(np.searchsorted(need, self.capacity - self.n, side="right"))
            if m == 0:
                if self.n == 0:
                    tokens = int(starts[k + 1] - starts[k])
                    raise MemoryError(
                        f"a line of {tokens} tokens needs more than the co-occurrence "
                        f"budget; raise it to at least {tokens * per_token * BYTES_PER_PAIR} "
                        "bytes"
                    )
                self._flush()
                if need[0] > self.capacity - self.n:
                    self._spill_buffer()
                continue
            sub = starts[k : k + m + 1]
            n = _pairs(
                ids[sub[0] : sub[-1]],
                sub - sub[0],
                self.window,
                self.scale,
                self.mode == "glove_python",
                self.mode == "reference",
                self.V,
                self.keys[self.n :],
                self.vals[self.n :],
            )
            self.n += n
            self.pairs_generated += n
            k += m

    def _reduce_buffer(self) -> int:
        """Sort and sum the buffer in place; its first ``self.n`` entries are the result."""
        if self.n:
            self.n = _reduce_in_place(
                self.keys[: self.n], self.vals[: self.n], self._tmp_k, self._tmp_v
            )
        return self.n

    def _spill(self, k: np.ndarray, v: np.ndarray) -> None:
        path = self._dir / f"{self._prefix}{len(self.shards):05d}"
        np.save(str(path) + ".keys.npy", k)
        np.save(str(path) + ".vals.npy", v)
        self.shards.append(path)

    def _spill_buffer(self) -> None:
        """The buffer, sorted and summed, as a shard on disk."""
        if self._reduce_buffer():
            self._spill(self.keys[: self.n], self.vals[: self.n])
        self.n = 0

    def _flush(self) -> None:
        """Sort and reduce the buffer; write it out as a shard if still over half full."""
        if self._reduce_buffer() > self.capacity // 2:
            self._spill_buffer()

    def detach(self) -> tuple[list[Path], int]:
        """Everything counted so far as shards in ``shard_dir``, for :meth:`adopt`; frees
        the buffers. Returns (shard paths, pairs generated)."""
        self._spill_buffer()
        self._release()
        return list(self.shards), self.pairs_generated

    def adopt(self, shards: list[Path], pairs_generated: int = 0) -> None:
        """Merge another counter's detached shards (same vocabulary, window and mode)
        with this one's at :meth:`finish`."""
        self.shards.extend(Path(p) for p in shards)
        self.pairs_generated += int(pairs_generated)

    def finish(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(rows int32, cols int32, values float64): every nonzero count, sorted by (row,
        col), values in units of words (1/distance summed)."""
        ranges = [self._decode(k, v) for k, v in self._ranges()]
        self._release()
        self._drop_shards()
        self._cleanup()
        if not ranges:
            return np.empty(0, np.int32), np.empty(0, np.int32), np.empty(0, np.float64)
        return tuple(np.concatenate(parts) for parts in zip(*ranges, strict=True))

    def _cleanup(self) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()

    def finish_buckets(self) -> Buckets:
        """The counts as :class:`Buckets`: entry (i, j) goes to bucket hash(i, j) mod K,
        with K = ceil(entries / BUCKET_ENTRIES), each bucket in (row, col) order. K and
        the buckets' contents depend only on the counts, never on the budget. One bucket
        stays in memory; several are written to disk, and memory holds one range of the
        merge at a time."""
        if self._tmp is None:
            raise ValueError("a counter with a shard_dir is detached, not finished")
        merged = self._dir / "merged.bin"
        held: list[np.ndarray] = []  # ranges kept in memory while they fit one bucket
        fh = None
        n = 0
        try:
            for k, v in self._ranges():
                records = np.empty(k.size, dtype=ENTRY)
                records["row"], records["col"], records["val"] = self._decode(k, v)
                n += k.size
                if fh is None and n <= BUCKET_ENTRIES:
                    held.append(records)
                    continue
                if fh is None:  # more than one bucket: the merge goes to disk
                    fh = open(merged, "wb")
                    for r in held:
                        r.tofile(fh)
                    held = []
                records.tofile(fh)
        finally:
            if fh is not None:
                fh.close()
        self._release()
        # merged: the shards' bytes are in merged.bin (or memory) now; at enwiki scale
        # they are tens of GB of tmpdir that would otherwise stay until training ends
        self._drop_shards()
        if fh is None:  # one bucket, never written to disk
            self._tmp.cleanup()
            records = np.concatenate(held) if held else np.empty(0, ENTRY)
            return Buckets([records], None)
        n_buckets = -(-n // BUCKET_ENTRIES)
        data = np.memmap(merged, dtype=ENTRY, mode="r")
        files = [self._dir / f"bucket{b:05d}.bin" for b in range(n_buckets)]
        for f in files:
            f.write_bytes(b"")
        # a quarter of the budget's pairs a step: the chunk's hash, order and per-bucket
        # copies take about 60 bytes an entry. Each bucket's file is opened to append
        # its part of a step and closed: one file open at a time, whatever the number of
        # buckets (hundreds at enwiki's size)
        step = max(1, self.capacity // 4)
        for lo in range(0, n, step):
            chunk = np.asarray(data[lo : lo + step])
            key = chunk["row"].astype(np.uint64) * np.uint64(self.V)
            key += chunk["col"].astype(np.uint64)
            which = _mix64(key) % np.uint64(n_buckets)
            order = np.argsort(which, kind="stable")
            bounds = np.searchsorted(which[order], np.arange(n_buckets + 1))
            for b in np.flatnonzero(np.diff(bounds)):
                with open(files[b], "ab") as fh:
                    chunk[order[bounds[b] : bounds[b + 1]]].tofile(fh)
        del data
        merged.unlink()
        return Buckets(files, self._tmp)

    def _drop_shards(self) -> None:
        """Delete the shard files (``self.shards`` keeps their names, for the record)."""
        for path in self.shards:
            for suffix in (".keys.npy", ".vals.npy"):
                Path(str(path) + suffix).unlink(missing_ok=True)

    def _decode(self, k: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, ...]:
        rows = (k // self.V).astype(np.int32)
        cols = (k % self.V).astype(np.int32)
        return rows, cols, v.astype(np.float64) / self.scale

    def _ranges(self) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """The reduced counts as sorted (keys, integer values), one key range at a time."""
        if not self.shards:
            if self._reduce_buffer():
                yield self.keys[: self.n], self.vals[: self.n]
            self.n = 0
            return
        self._spill_buffer()
        self._release()  # the merge allocates its own ranges
        yield from self._merge()

    def _merge(self) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Merge the sorted shards by key ranges of about a quarter of the budget's pairs
        each (16 bytes an entry gathered, 16 of sort scratch, and the caller's decoded
        copy: about 60 bytes an entry, under the budget's 32 a pair of capacity).

        A shard's file is open only while one range of it is read: the merge holds one
        file at a time, however many shards there are (enwiki's counting writes hundreds,
        two files each, against a usual limit of 1,024 open files a process)."""
        offsets = _shard_offsets(self.shards, max(1, self.capacity // 4))
        for r in range(offsets.shape[1] - 1):
            lengths = offsets[:, r + 1] - offsets[:, r]
            rk = np.empty(int(lengths.sum()), dtype=np.int64)
            rv = np.empty_like(rk)
            at = 0
            for path, start, n in zip(self.shards, offsets[:, r], lengths, strict=True):
                if n:
                    _read_npy(Path(str(path) + ".keys.npy"), int(start), rk[at : at + n])
                    _read_npy(Path(str(path) + ".vals.npy"), int(start), rv[at : at + n])
                    at += n
            m = _reduce_in_place(rk, rv, np.empty_like(rk), np.empty_like(rv))
            if m:
                yield rk[:m], rv[:m]


def _shard_offsets(shards: list[Path], per_range: int) -> np.ndarray:
    """Where each key range of the merge starts in each shard: (shards, ranges + 1)
    indices, ranges of about ``per_range`` entries in all, their boundaries quantiles of
    a sample of every shard's keys. Each shard's keys are mapped twice (for the sample,
    then for the offsets), one shard at a time."""

    def keys(path: Path) -> np.ndarray:
        return np.load(str(path) + ".keys.npy", mmap_mode="r")

    sizes, samples = [], []
    for path in shards:
        k = keys(path)
        sizes.append(k.size)
        samples.append(np.array(k[:: max(1, k.size // 1000)]))
        del k  # its map, and the file descriptor the map holds, closed
    n_ranges = max(1, -(-sum(sizes) // per_range))
    sample = np.concatenate(samples) if samples else np.empty(0, np.int64)
    bounds = np.unique(
        np.quantile(sample, np.linspace(0, 1, n_ranges + 1)[1:-1]).astype(np.int64)
    ) if sample.size else np.empty(0, np.int64)  # fmt: skip
    offsets = np.empty((len(shards), bounds.size + 2), dtype=np.int64)
    for i, path in enumerate(shards):
        k = keys(path)
        offsets[i, 0], offsets[i, -1] = 0, k.size
        offsets[i, 1:-1] = np.searchsorted(k, bounds, "left")
        del k
    return offsets


def _read_npy(path: Path, start: int, out: np.ndarray) -> None:
    """Fill ``out`` with the values of the 1-d .npy file ``path`` from index ``start``:
    read straight into it, the file open only for the read."""
    with open(path, "rb") as f:
        major, _ = np.lib.format.read_magic(f)
        header = (np.lib.format.read_array_header_1_0 if major == 1
                  else np.lib.format.read_array_header_2_0)  # fmt: skip
        _, _, dtype = header(f)
        if dtype != out.dtype:
            raise ValueError(f"{path}: {dtype} values, not {out.dtype}")
        f.seek(f.tell() + start * dtype.itemsize)
        got = f.readinto(memoryview(out).cast("B"))
    if got != out.nbytes:
        raise OSError(f"{path}: {got} bytes read of {out.nbytes}: the shard is cut short")


def _mix64(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: a fixed, well-mixed hash of 64-bit keys."""
    z = x.astype(np.uint64) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


class Buckets:
    """Co-occurrence entries split into buckets (see
    :meth:`CooccurrenceCounter.finish_buckets`); a context manager that removes the
    bucket files on exit."""

    def __init__(self, parts: list, tmp: tempfile.TemporaryDirectory | None) -> None:
        self._parts = parts
        self._tmp = tmp
        self.sizes = [
            p.size if isinstance(p, np.ndarray) else p.stat().st_size // ENTRY.itemsize
            for p in parts
        ]
        self.entries = int(sum(self.sizes))

    def __len__(self) -> int:
        return len(self._parts)

    def load(self, b: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Bucket ``b`` as (rows, cols, values) views of one record array."""
        part = self._parts[b]
        records = part if isinstance(part, np.ndarray) else np.fromfile(part, dtype=ENTRY)
        return records["row"], records["col"], records["val"]

    def persist(self, folder: str | os.PathLike[str]) -> list[Path]:
        """Every bucket as a file in ``folder`` (one on disk moved there, one in memory
        written), in order: what :meth:`from_files` reads again, after this object is
        closed or its process killed."""
        paths = []
        for b, part in enumerate(self._parts):
            path = Path(folder) / f"bucket-{b:05d}.bin"
            if isinstance(part, np.ndarray):
                part.tofile(path)
            else:
                shutil.move(part, path)
            paths.append(path)
        self._parts = list(paths)
        return paths

    @classmethod
    def from_files(cls, paths: list[Path]) -> Buckets:
        """Buckets written by :meth:`persist`; closing them leaves the files."""
        return cls(list(paths), None)

    def close(self) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> Buckets:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def encode_lines(
    lines: Iterable[list[str]], index: dict[str, int], batch_tokens: int = 1 << 20
) -> Iterable[tuple[np.ndarray, np.ndarray]]:
    """Batches of (ids, line starts) from token lists; unknown words become -1."""
    ids: list[int] = []
    starts = [0]
    get = index.get
    for tokens in lines:
        # map() calls dict.get from C: half the time of a generator expression
        ids.extend(map(get, tokens, repeat(-1)))
        starts.append(len(ids))
        if len(ids) >= batch_tokens:
            yield np.asarray(ids, dtype=np.int64), np.asarray(starts, dtype=np.int64)
            ids, starts = [], [0]
    if len(starts) > 1:
        yield np.asarray(ids, dtype=np.int64), np.asarray(starts, dtype=np.int64)


def count_cooccurrences(
    lines: Iterable[list[str]],
    index: dict[str, int],
    window: int,
    *,
    mode: str = "reference",
    budget_bytes: int = 1 << 30,
    workdir: str | os.PathLike[str] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict]:
    """Count the co-occurrences of ``lines`` (token lists); see the module docstring.
    Returns (rows, cols, values, info) with info on pairs and shards."""
    counter = CooccurrenceCounter(
        len(index), window, mode=mode, budget_bytes=budget_bytes, workdir=workdir
    )
    for ids, starts in encode_lines(lines, index):
        counter.add(ids, starts)
    shards = len(counter.shards)
    generated = counter.pairs_generated
    rows, cols, vals = counter.finish()
    info = {"pairs_generated": generated, "shards": shards, "entries": int(vals.size)}
    return rows, cols, vals, info


# a worker's settings, set once per forked process by _start_worker
_WORKER: dict = {}


def _start_worker(words: list[str], window: int, mode: str, budget: int, folder: str) -> None:
    _WORKER.update(
        index={w: i for i, w in enumerate(words)}, window=window, mode=mode,
        budget=budget, folder=folder,
    )  # fmt: skip


def _count_member(task: tuple[int, str, int, int]) -> tuple[list[Path], int]:

    number, corpus, start, end = task
    w = _WORKER
    counter = CooccurrenceCounter(
        len(w["index"]), w["window"], mode=w["mode"], budget_bytes=w["budget"],
        shard_dir=w["folder"], shard_prefix=f"member{number:05d}-",
    )  # fmt: skip
    for ids, starts in encode_lines(member_lines(corpus, start, end), w["index"]):
        counter.add(ids, starts)
    return counter.detach()


def count_members(
    corpus: str | os.PathLike[str],
    members: list[tuple[int, int]],
    words: list[str],
    window: int,
    *,
    processes: int,
    mode: str = "reference",
    budget_bytes: int = 1 << 30,
    workdir: str | os.PathLike[str] | None = None,
) -> CooccurrenceCounter:
    """Count the gzip members ``members`` of ``corpus`` (:func:`learnability.corpus.lines.
    gzip_members`) in ``processes`` worker processes, each within ``budget_bytes /
    processes``; returns a counter holding every member's shards, ready to
    :meth:`~CooccurrenceCounter.finish_buckets`. The counts are those of one counter
    reading the whole corpus, bit for bit."""

    counter = CooccurrenceCounter(
        len(words), window, mode=mode, budget_bytes=budget_bytes, workdir=workdir
    )
    processes = max(1, min(processes, len(members)))
    tasks = [(i, str(corpus), a, b) for i, (a, b) in enumerate(members)]
    settings = (words, window, mode, int(budget_bytes) // processes, str(counter._dir))
    with process_pool(processes, _start_worker, settings) as pool:
        for shards, generated in pool.imap_unordered(_count_member, tasks):
            counter.adopt(shards, generated)
    # shards in member order, whichever worker finished first: the merge reads them all,
    # and its ranges come from a sample of their keys, so keep that sample's order fixed
    counter.shards.sort()
    return counter

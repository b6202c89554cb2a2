"""The entanglement's memory at enwiki's size: 3,000,000 words x 300 dimensions, float32,
memory-mapped as the workflow's jobs read it.

Usage: python benchmarks/entanglement_memory.py [--words 3000000] [--dim 300]
       [--lists 10] [--size 100] [--iterations 4] [--dir DIR] [--smoke]

Writes Gaussian vectors with ``--lists`` planted lists to a .npy in ``--dir`` (default: a
temporary folder; 3.6 GB at the default size), then runs
``learnability.analyses.entanglement.entanglement`` on the memory map with every pair
measured. A thread samples the process's anonymous resident memory (``RssAnon``: what a
job's memory limit must hold beyond the page cache of the mapped file). It prints the
peak, the float64 matrix's size (the baseline: the code before the block sums held three
such copies at once, the matrix, its centred copy and one erased copy), their ratio, and
the wall time.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
from peak import Peak, rss_anon
from toysize import add_smoke

from learnability.analyses.entanglement import entanglement
from learnability.protocol.evaluate import Protocol


def write_vectors(path: Path, words: int, dim: int, lists: int, size: int) -> dict:
    """Gaussian float32 vectors written block by block (never whole in memory), each
    list's members shifted along its own axis; the lists' rows."""
    rng = np.random.default_rng(0)
    out = np.lib.format.open_memmap(path, mode="w+", dtype=np.float32, shape=(words, dim))
    step = 1 << 18
    for start in range(0, words, step):
        stop = min(words, start + step)
        out[start:stop] = rng.standard_normal((stop - start, dim), dtype=np.float32)
    members = {}
    for i in range(lists):
        rows = np.sort(rng.choice(words, size, replace=False))
        out[rows, i % dim] += 3.0
        members[f"list{i}"] = rows
    out.flush()
    del out
    return members


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=3_000_000)
    parser.add_argument("--dim", type=int, default=300)
    parser.add_argument("--lists", type=int, default=10)
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--iterations", type=int, default=4)
    parser.add_argument("--dir", type=Path, help="where to write the vectors (default: tmp)")
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.words, args.dim, args.lists, args.size, args.iterations = 20_000, 20, 3, 30, 2
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        path = Path(tmp) / "vectors.npy"
        t0 = time.perf_counter()
        members = write_vectors(path, args.words, args.dim, args.lists, args.size)
        print(f"wrote {args.words:,} x {args.dim} float32 in {time.perf_counter() - t0:.0f} s")
        vectors = np.load(path, mmap_mode="r")
        protocol = Protocol(iterations=args.iterations, C=1.0, seed=1)
        start = rss_anon()
        t0 = time.perf_counter()
        with Peak() as peak:
            table = entanglement(vectors, members, protocol, embedding="synthetic", pairs="all")
        wall = time.perf_counter() - t0
    matrix = args.words * args.dim * 8
    grew = peak.peak - start
    print(f"{len(table)} ordered pairs x {args.iterations} splits in {wall:.1f} s")
    print(f"peak RssAnon {peak.peak / 2**20:,.0f} MiB ({grew / 2**20:,.0f} MiB above the start)")
    print(f"float64 matrix {matrix / 2**20:,.0f} MiB (the code before held three)")
    print(f"ratio peak/matrix {peak.peak / matrix:.3f}")


if __name__ == "__main__":
    main()

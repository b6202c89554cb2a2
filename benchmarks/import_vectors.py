"""Importing a pretrained embedding: time and peak memory, against gensim's loader.

Usage: python benchmarks/import_vectors.py [--words 2000000] [--dim 300] [--text-words 200000]
           [--smoke]

Writes a synthetic word2vec binary file of --words x --dim (2 M x 300: 2.4 GB, the size
of the paper's largest vocabularies) and a word2vec text file of --text-words words, then
measures, each in a fresh process:

- our import (streamed into a memory-mapped vectors.npy): seconds and peak RSS;
- the baseline, gensim's ``KeyedVectors.load_word2vec_format`` on the same file (the
  loader a user would call), which holds the whole matrix in memory: seconds and peak
  RSS, and the ratios;
- loading the imported embedding memory-mapped and reading one list's rows: peak RSS.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from toysize import add_smoke

CHILD = """
import json, resource, sys, time
kind, path, out = sys.argv[1:4]
start = time.perf_counter()
if kind == "ours":
    from learnability.embeddings.pretrained import import_embedding
    import_embedding(path, out, name="bench")
elif kind == "gensim":
    from gensim.models import KeyedVectors
    KeyedVectors.load_word2vec_format(path, binary=path.endswith(".bin"))
else:
    import numpy as np
    from learnability.embeddings import load_embedding
    emb = load_embedding(out, mmap=True)
    rows = np.asarray(emb.vectors[np.arange(0, len(emb), max(1, len(emb) // 400))])
    assert np.isfinite(rows).all()
seconds = time.perf_counter() - start
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": seconds, "rss_mb": rss}))
"""


def measure(kind: str, path: Path, out: Path) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, kind, str(path), str(out)],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def write_binary(path: Path, n: int, dim: int) -> None:
    rng = np.random.default_rng(0)
    with open(path, "wb") as fh:
        fh.write(f"{n} {dim}\n".encode())
        for lo in range(0, n, 100_000):
            block = rng.standard_normal((min(100_000, n - lo), dim), dtype=np.float32)
            for k, row in enumerate(block):
                fh.write(f"w{lo + k} ".encode() + row.astype("<f4").tobytes() + b"\n")


def write_text(path: Path, n: int, dim: int) -> None:
    rng = np.random.default_rng(1)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(f"{n} {dim}\n")
        for lo in range(0, n, 10_000):
            block = rng.standard_normal((min(10_000, n - lo), dim))
            fh.writelines(
                f"w{lo + k} " + " ".join(f"{x:.5f}" for x in row) + "\n"
                for k, row in enumerate(block)
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=2_000_000)
    parser.add_argument("--dim", type=int, default=300)
    parser.add_argument("--text-words", type=int, default=200_000)
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.words, args.dim, args.text_words = 2000, 10, 1000
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for kind, n, writer, name in (
            ("binary", args.words, write_binary, "vectors.bin"),
            ("text", args.text_words, write_text, "vectors.txt"),
        ):
            path = tmp / name
            start = time.perf_counter()
            writer(path, n, args.dim)
            size = path.stat().st_size / 2**20
            print(f"\n{kind}: {n:,} x {args.dim}, {size:,.0f} MB "
                  f"(written in {time.perf_counter() - start:.0f} s)")  # fmt: skip
            out = tmp / f"out-{kind}"
            ours = measure("ours", path, out)
            base = measure("gensim", path, out)
            load = measure("load", path, out)
            print(f"  ours (import, streamed to disk)      {ours['seconds']:7.1f} s  "
                  f"peak RSS {ours['rss_mb']:7.0f} MB")  # fmt: skip
            print(f"  gensim load_word2vec_format (baseline) {base['seconds']:5.1f} s  "
                  f"peak RSS {base['rss_mb']:7.0f} MB")  # fmt: skip
            print(f"  ratio ours/baseline: time {ours['seconds'] / base['seconds']:.2f}, "
                  f"peak RSS {ours['rss_mb'] / base['rss_mb']:.2f}; the matrix is "
                  f"{n * args.dim * 4 / 2**20:,.0f} MB")  # fmt: skip
            print(f"  loading the import memory-mapped, reading 400 rows: peak RSS "
                  f"{load['rss_mb']:.0f} MB")  # fmt: skip
            (tmp / name).unlink()


if __name__ == "__main__":
    main()

"""Compile the package's numba kernels into their cache once, before the suite's
processes use them: each process that finds no cache compiles them itself, and at the
start of a run several do so at once (about 14 CPU seconds each for the solver alone).

    python tests/numba_warm.py

tests/conftest.py runs it from pytest-xdist's controller while the workers wait.
"""

from __future__ import annotations

import gzip
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


def main() -> None:
    from learnability.corpus.tokenize import token_lines
    from learnability.embeddings import train
    from learnability.protocol.evaluate import Protocol, evaluate_concept_full

    start = time.perf_counter()
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        # the solver, for the arrays it meets: float32 (a workflow embedding, memory-mapped
        # read-only, or one in memory: the solver views both read-only, one kernel) and
        # float64 (numba compiles each dtype)
        x = rng.standard_normal((300, 8)).astype(np.float32)
        np.save(Path(tmp) / "vectors.npy", x)
        for array in (np.load(Path(tmp) / "vectors.npy", mmap_mode="r"), x.astype(float)):
            evaluate_concept_full(array, np.arange(20), Protocol(iterations=2, C=1.0, seed=0),
                                  list_name="warm", embedding="warm")  # fmt: skip
        token_lines("Warm up the tokeniser, 2 lines.\nAnd 3 words.\n", 1000)
        # the co-occurrence counter and GloVe's trainer
        corpus = Path(tmp) / "text.txt.gz"
        words = [f"w{i}" for i in range(20)]
        with gzip.open(corpus, "wt") as fh:
            fh.writelines(" ".join(rng.choice(words, 10)) + "\n" for _ in range(50))
        params = dict(dim=4, window=2, min_count=1, seed=0, epochs=1, x_max=10, alpha=0.75,
                      learning_rate=0.05, vectors="sum", count_memory_mb=64)  # fmt: skip
        train("glove", str(corpus), params, threads=1)
    print(f"numba kernels compiled or loaded in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    sys.exit(main())

"""A corpus comparison's draw (learnability.corpus.sample.sample_documents) at 3 M tokens:
its time beside one plain pass over the same corpus (iter_lines, the read it makes twice),
measured in the same run, and its peak memory; the numbers the draw_corpus model quotes
(learnability.pipeline.resources.draw_need).

Usage: python benchmarks/draw_corpus.py [--tokens 3000000] [--line-tokens 260] [--smoke]

The corpus is synthetic (Zipf-distributed words, lines of about ``--line-tokens`` tokens,
Wikipedia's mean paragraph, each a document), written as the extraction writes a corpus;
the draw takes half of it, the comparison's default budget."""

from __future__ import annotations

import argparse
import gzip
import resource
import tempfile
import time
from pathlib import Path

import numpy as np
from toysize import add_smoke

from learnability.corpus.lines import iter_lines
from learnability.corpus.sample import sample_documents
from learnability.pipeline.resources import need


def write_corpus(path: Path, tokens: int, line_tokens: int, seed: int = 0) -> int:
    rng = np.random.default_rng(seed)
    words = np.array([f"w{i}" for i in range(50_000)])
    ranks = np.minimum(rng.zipf(1.1, size=tokens), len(words)) - 1
    lines = 0
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=3) as fh:
        for start in range(0, tokens, line_tokens):
            # each line a document of its own (DOCUMENT_END after it): the most
            # documents a corpus of these lines can hold, the draw's largest arrays
            fh.write(" ".join(words[ranks[start : start + line_tokens]]) + "\n\n")
            lines += 1
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=3_000_000)
    parser.add_argument("--line-tokens", type=int, default=260)
    add_smoke(parser)
    args = parser.parse_args()
    tokens = 30_000 if args.smoke else args.tokens
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "text.txt.gz"
        lines = write_corpus(corpus, tokens, args.line_tokens)
        start = time.perf_counter()
        read = sum(len(line) for line in iter_lines(corpus))
        one_pass = time.perf_counter() - start
        start = time.perf_counter()
        sample_documents(corpus, Path(tmp) / "draw.txt.gz", Path(tmp) / "draw.json", read // 2, 1)
        draw = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        mb = corpus.stat().st_size / 2**20
        model = need("draw_corpus", tokens=read, lines=lines, text_mb=mb)
        print(f"{read:,} tokens, {lines:,} lines, {mb:.1f} MB gzip")
        print(f"one pass (baseline) {one_pass:.2f} s; the draw {draw:.2f} s: "
              f"{draw / one_pass:.2f}x the baseline")  # fmt: skip
        print(f"process peak {peak:.0f} MB; the model: {model.mem_mb:.0f} MB, "
              f"{model.runtime * 60:.1f} s")  # fmt: skip


if __name__ == "__main__":
    main()

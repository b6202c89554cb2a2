"""A corpus drawn down to a token budget, for comparing corpora at equal size: a larger
corpus makes every concept more learnable whatever it holds, so two corpora are compared
on samples of the same number of tokens.

The unit drawn is the corpus' line (a paragraph of a dump; a document of your own text
when each is one line): the trainers' context windows never cross a line, so a sample of
lines trains as the text it came from would. Lines are drawn in a random order (by
``seed``) until the budget is met, the last one cut to meet it exactly, and written in
the corpus' own order."""

from __future__ import annotations

import gzip
import io
import os

import numpy as np

from learnability.corpus.lines import iter_lines
from learnability.errors import InputError
from learnability.io import atomic_path, write_json


def sample_lines(
    corpus: str | os.PathLike[str],
    out_text: str | os.PathLike[str],
    out_stats: str | os.PathLike[str],
    tokens: int,
    seed: int,
) -> dict[str, object]:
    """Write ``tokens`` tokens of ``corpus`` (a corpus the extraction wrote), drawn as
    random lines; return (and write) their counts. Two passes over the corpus; memory
    holds a line count a line (8 bytes: 600 MB for all of Wikipedia's paragraphs)."""
    lengths = np.fromiter((len(line) for line in iter_lines(corpus)), dtype=np.int64)
    total = int(lengths.sum())
    if not 0 < tokens <= total:
        raise InputError(
            f"{corpus}: {total:,} tokens, and a sample of {tokens:,} was asked; the sample "
            "can be at most the smallest corpus compared"
        )
    order = np.random.default_rng(seed).permutation(lengths.size)
    drawn = np.cumsum(lengths[order])
    last = int(np.searchsorted(drawn, tokens))  # the first draw that meets the budget
    keep = np.zeros(lengths.size, dtype=np.int64)  # the tokens kept of each line
    keep[order[: last + 1]] = lengths[order[: last + 1]]
    keep[order[last]] -= int(drawn[last]) - tokens
    with atomic_path(out_text) as tmp:
        with (
            open(tmp, "wb") as fh,
            gzip.GzipFile(filename="", fileobj=fh, mode="wb", mtime=0, compresslevel=3) as raw,
            io.TextIOWrapper(raw, encoding="utf-8", newline="\n") as out,
        ):
            for n, line in zip(keep, iter_lines(corpus), strict=True):
                if n:
                    out.write(" ".join(line[:n]) + "\n")
    stats = {"tokens": tokens, "lines": last + 1, "seed": seed,
             "corpus_tokens": total, "corpus_lines": int(lengths.size)}  # fmt: skip
    write_json(stats, out_stats)
    return stats


def draw_budget(corpus_tokens: list[int], tokens: int | None) -> int:
    """The tokens of every draw of a corpus comparison: ``tokens``, or half the smallest
    of the compared corpora (``corpus_tokens``), so that each corpus keeps room to be
    drawn again (learnability.statistics.corpora: a corpus drawn whole tells nothing of
    its own sampling variance)."""
    smallest = min(corpus_tokens)
    if tokens is None:
        return max(1, smallest // 2)
    if tokens > smallest:
        raise InputError(
            f"compare_corpora.tokens: {tokens:,} tokens a draw, but the smallest corpus "
            f"compared has {smallest:,}; give at most half of it (or null: half)"
        )
    return int(tokens)

"""A corpus drawn down to a token budget, for comparing corpora at equal size: a larger
corpus makes every concept more learnable whatever it holds, so two corpora are compared
on samples of the same number of tokens.

The unit drawn is the corpus' document (an article of a dump, a file, paragraph, line or
row of your own text, as ``corpus.source.document`` and the format make it; the extraction ends
each with an empty line): the comparison corrects for the spread between draws of other
documents (learnability.statistics.corpora), and that spread is the documents' whatever
their line layout. Lines of one document share its topic and words, so draws of lines
would vary far less than a second corpus of such documents does (a hard-wrapped text has
~8 tokens a line) and two halves of one corpus would be found different. Documents are
drawn whole in a random order (by ``seed``) until the budget is met, the last one cut to
meet it exactly, and written in the corpus' own order with their boundaries; the
trainers' windows cross neither a line nor a document's end."""

from __future__ import annotations

import gzip
import io
import os
from collections.abc import Iterator

import numpy as np

from learnability.corpus.lines import DOCUMENT_END, iter_documents
from learnability.errors import InputError
from learnability.io import atomic_path, write_json


def drawn_tokens(lengths: np.ndarray, tokens: int, seed: int) -> np.ndarray:
    """The tokens kept of each unit of ``lengths`` (tokens a unit) by a draw of
    ``tokens``: units in a random order (``seed``) until the budget is met, the last one
    cut to meet it exactly. 0 < tokens <= lengths.sum()."""
    order = np.random.default_rng(seed).permutation(lengths.size)
    drawn = np.cumsum(lengths[order])
    last = int(np.searchsorted(drawn, tokens))  # the first draw that meets the budget
    keep = np.zeros(lengths.size, dtype=np.int64)
    keep[order[: last + 1]] = lengths[order[: last + 1]]
    keep[order[last]] -= int(drawn[last]) - tokens
    return keep


def sample_documents(
    corpus: str | os.PathLike[str],
    out_text: str | os.PathLike[str],
    out_stats: str | os.PathLike[str],
    tokens: int,
    seed: int,
) -> dict[str, object]:
    """Write ``tokens`` tokens of ``corpus`` (a corpus the extraction wrote), drawn as
    random documents; return (and write) their counts: tokens, documents and lines
    drawn, of the corpus' own. Two passes over the corpus; memory holds a count a
    document (8 bytes) and one document."""
    lines = 0

    def document_tokens() -> Iterator[int]:
        nonlocal lines
        for document in iter_documents(corpus):
            lines += len(document)
            yield sum(map(len, document))

    sizes = np.fromiter(document_tokens(), dtype=np.int64)
    total = int(sizes.sum())
    if not 0 < tokens <= total:
        raise InputError(
            f"{corpus}: {total:,} tokens, and a sample of {tokens:,} was asked; the sample "
            "can be at most the smallest corpus compared"
        )
    keep = drawn_tokens(sizes, tokens, seed)
    drawn_lines = 0
    with atomic_path(out_text) as tmp:
        with (
            open(tmp, "wb") as fh,
            gzip.GzipFile(filename="", fileobj=fh, mode="wb", mtime=0, compresslevel=3) as raw,
            io.TextIOWrapper(raw, encoding="utf-8", newline="\n") as out,
        ):
            for n, document in zip(keep.tolist(), iter_documents(corpus), strict=True):
                if not n:
                    continue
                for line in document:
                    out.write(" ".join(line[:n]) + "\n")
                    drawn_lines += 1
                    n -= len(line)
                    if n <= 0:
                        break
                out.write(DOCUMENT_END)
    stats = {"tokens": tokens, "documents": int(np.count_nonzero(keep)), "lines": drawn_lines,
             "seed": seed, "corpus_tokens": total, "corpus_documents": int(sizes.size),
             "corpus_lines": lines}  # fmt: skip
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

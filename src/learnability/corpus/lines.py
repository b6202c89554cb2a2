"""Reading a corpus the extraction wrote (a gzip file of one paragraph a line, each
document's lines followed by an empty line, joined from its parts as gzip members): its
token lines, once or again for gensim, a member at a time, its documents, and its
vocabulary. Apart from the extraction, so that the trainers that read a
corpus (GloVe's counting, gensim's) do not depend on how one is made: an edit to a
corpus source's reader reruns the extraction, not the training code's digest."""

from __future__ import annotations

import gzip
import io
import os
import zlib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import numpy as np

from learnability.corpus.parallel import process_pool

# Written after each document's lines: an empty line. The comparison of corpora draws
# whole documents (corpus.sample), so the corpus must say where each ends; an empty line
# says it inside the one file every stage already reads: every token reader skips a line
# without tokens (here, the transformer's), so the sentences the trainers see are
# those of a corpus without it; a part's gzip member still ends at a document's end, so
# the join's byte concatenation keeps the boundaries; and a draw or a prefix writes them
# as it writes lines, with no second file (document offsets) to keep in step through
# joins, draws and prefixes. The trainers that read a plain file themselves get it with
# the empty lines taken out (embeddings._plain), since fastText reads every newline as
# an end-of-sentence token.
DOCUMENT_END = "\n"


def iter_lines(path: str | os.PathLike[str]) -> Iterator[list[str]]:
    """Yield the token lists of a corpus written by
    :func:`learnability.corpus.extract.extract_corpus`: its lines with tokens, so that
    the empty line ending each document (:func:`iter_documents`) is no sentence."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            tokens = line.split()
            if tokens:
                yield tokens


def iter_documents(path: str | os.PathLike[str]) -> Iterator[list[list[str]]]:
    """Yield each document of a corpus as its lines' token lists: the lines up to the
    empty line that ends it (:data:`DOCUMENT_END`). Lines
    after the last empty line (a corpus written without boundaries) are one document."""
    document: list[list[str]] = []
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            tokens = line.split()
            if tokens:
                document.append(tokens)
            elif document:
                yield document
                document = []
    if document:
        yield document


class LineCorpus:
    """A re-iterable corpus for gensim (each pass re-reads the gzip file)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    def __iter__(self) -> Iterator[list[str]]:
        return iter_lines(self.path)


def gzip_members(path: str | os.PathLike[str]) -> list[tuple[int, int]]:
    """(start, end) byte offsets of each member of a gzip file. A corpus joined from a
    dump's parts has one member per part (:func:`learnability.corpus.extract.join_corpus`
    concatenates them), and
    each member is a run of whole lines, so the members can be read apart. One pass of
    decompression finds them (zlib, a few seconds a GB): no index to keep in step."""

    members: list[tuple[int, int]] = []
    start = base = 0
    inflater = zlib.decompressobj(wbits=31)
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 22):
            data = chunk
            while data:
                inflater.decompress(data)
                if not inflater.eof:
                    base += len(data)
                    break
                rest = inflater.unused_data
                end = base + len(data) - len(rest)
                members.append((start, end))
                start = base = end
                data = rest
                inflater = zlib.decompressobj(wbits=31)
    size = os.path.getsize(path)
    if start < size:  # a member cut short: reading it raises gzip's own error
        members.append((start, size))
    return members


class _ByteRange(io.RawIOBase):
    """``length`` bytes of an open binary file from its current position."""

    def __init__(self, fh: IO[bytes], length: int) -> None:
        self._fh, self._left = fh, length

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = min(len(buffer), self._left)
        if n <= 0:
            return 0
        got = self._fh.readinto(memoryview(buffer)[:n])
        self._left -= got
        return got


def member_lines(path: str | os.PathLike[str], start: int, end: int) -> Iterator[list[str]]:
    """The token lists of the gzip members in bytes [start, end) of ``path`` (see
    :func:`gzip_members`); the whole file's lines are the members' lines in order."""
    with open(path, "rb") as raw:
        raw.seek(start)
        reader = io.BufferedReader(_ByteRange(raw, end - start), 1 << 20)
        with gzip.GzipFile(fileobj=reader) as gz:
            for line in io.TextIOWrapper(gz, encoding="utf-8"):
                tokens = line.split()
                if tokens:
                    yield tokens


def _member_counts(task: tuple[str, int, int]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for tokens in member_lines(*task):
        counts.update(tokens)
    return counts


def count_vocabulary(
    corpus: str,
    min_count: int,
    processes: int = 1,
    members: list[tuple[int, int]] | None = None,
) -> tuple[list[str], np.ndarray]:
    """Words with count >= min_count, most frequent first (ties alphabetical). With
    ``processes`` > 1 the gzip members (a joined corpus' parts; ``members`` if already
    found by :func:`gzip_members`) are counted in that many processes at once; the
    counts, and so the result, are the same."""
    counts: Counter[str] = Counter()
    if members is None:
        members = gzip_members(corpus) if processes > 1 else []
    if len(members) > 1:
        tasks = [(str(corpus), a, b) for a, b in members]
        with process_pool(min(processes, len(members))) as pool:
            for part in pool.imap_unordered(_member_counts, tasks):
                counts.update(part)
    else:
        for tokens in iter_lines(corpus):
            counts.update(tokens)
    kept = sorted((w for w, c in counts.items() if c >= min_count), key=lambda w: (-counts[w], w))
    return kept, np.array([counts[w] for w in kept], dtype=np.int64)

"""The corpus as a plain-text file, for trainers that read a file themselves (gensim's
``corpus_file`` mode, Facebook's fastText): the gzip corpus decompressed into a temporary
folder for the job (``tmpdir``: Snakemake's ``resources.tmpdir``; about 4x the gzip's
size), removed afterwards.

The empty line that ends each of the corpus' documents (corpus.lines.DOCUMENT_END) is
left out: fastText reads every newline as an end-of-sentence token, and gensim's
``corpus_file`` workers cut the file at byte offsets, so an empty line would change what
either trains on. The file is the corpus' lines alone, as the readers of the gzip file
(corpus.lines) see them."""

from __future__ import annotations

import gzip
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

BLOCK = 16 << 20


def copy_lines(src: IO[bytes], dst: IO[bytes]) -> None:
    """Copy ``src`` to ``dst`` without its empty lines, a block at a time: a run of
    newlines becomes one, and one at the start of the text (or of a block that follows
    a newline) is dropped. bytes.replace runs at memory speed, not a line at a time."""
    after_newline = True  # the start of the text: an empty line there is dropped too
    while block := src.read(BLOCK):
        while b"\n\n" in block:
            block = block.replace(b"\n\n", b"\n")
        if after_newline:
            block = block.lstrip(b"\n")
        if block:
            dst.write(block)
            after_newline = block.endswith(b"\n")


@contextmanager
def plain_corpus(corpus: str, tmpdir: str | None = None) -> Iterator[Path]:
    with tempfile.TemporaryDirectory(dir=tmpdir, prefix="corpus-") as tmp:
        plain = Path(tmp) / "corpus.txt"
        with gzip.open(corpus, "rb") as src, open(plain, "wb") as dst:
            copy_lines(src, dst)
        yield plain

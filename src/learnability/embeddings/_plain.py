"""The corpus as a plain-text file, for trainers that read a file themselves (gensim's
``corpus_file`` mode, Facebook's fastText): the gzip corpus decompressed into a temporary
folder for the job (``tmpdir``: Snakemake's ``resources.tmpdir``; about 4x the gzip's
size), removed afterwards."""

from __future__ import annotations

import gzip
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def plain_corpus(corpus: str, tmpdir: str | None = None) -> Iterator[Path]:
    with tempfile.TemporaryDirectory(dir=tmpdir, prefix="corpus-") as tmp:
        plain = Path(tmp) / "corpus.txt"
        with gzip.open(corpus, "rb") as src, open(plain, "wb") as dst:
            shutil.copyfileobj(src, dst, 16 << 20)
        yield plain

"""Plain text as a corpus source: a file, or a folder of files, each document a file or a
line (``dump.document``), UTF-8, compressed or not."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from learnability.corpus.documents import Document, SourceOptions, read_lines, read_text


def read_plaintext(
    path: Path, options: SourceOptions, progress_every: float | None = None
) -> Iterator[Document]:
    """The documents of one text file: the whole file, or each line."""
    if options.document == "file":
        yield Document(read_text(path), id=path.name)
        return
    for number, line in read_lines(path, options.byte_range):
        yield Document(line, id=f"{path.name}:{number}")

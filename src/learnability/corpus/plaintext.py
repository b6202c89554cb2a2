"""Plain text as a corpus source: a file, or a folder of files, each document a file, a
paragraph (lines between blank ones) or a line (``corpus.source.document``), UTF-8, compressed or
not. Inside a document a blank line separates paragraphs and a line end does not (the
extraction joins wrapped lines: :func:`learnability.corpus.documents.unwrap`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from learnability.corpus.documents import (
    Document,
    SourceOptions,
    read_lines,
    read_paragraphs,
    read_text,
)


def read_plaintext(
    path: Path, options: SourceOptions, progress_every: float | None = None
) -> Iterator[Document]:
    """The documents of one text file: the whole file, each paragraph (named by the line
    it starts on) or each line."""
    if options.document == "file":
        yield Document(read_text(path), id=path.name)
        return
    read = read_paragraphs if options.document == "paragraph" else read_lines
    for number, text in read(path, options.byte_range):
        yield Document(text, id=f"{path.name}:{number}")

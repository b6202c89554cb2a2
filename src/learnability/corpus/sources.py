"""The corpus sources: the kinds of text a corpus can be made from, in one registry. The
workflow's extraction, its fan-out into parts and the config's validation read it; a new
source is one module (a reader yielding :class:`~.documents.Document`) and one entry
here.

- ``mediawiki``: a MediaWiki XML export (Wikipedia in any language), its articles;
- ``text``: plain text, each document a file or a line;
- ``jsonl``, ``csv``, ``tsv``, ``parquet``: a table, each document a row's text column.

Each takes one file or a folder of them, compressed or not (gz, bz2, xz, zst)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from learnability.corpus import plaintext, tables
from learnability.corpus.documents import Document, SourceOptions, stem_suffix
from learnability.corpus.extract import read_mediawiki
from learnability.errors import InputError

# (path, options, progress_every): a file's documents; the dump's reader logs its
# progress every so many seconds, the others read too fast to need it
Reader = Callable[[Path, SourceOptions, float | None], Iterator[Document]]


@dataclass(frozen=True)
class Source:
    name: str
    # what a folder's files end in, under any compression ("" for none: plain text)
    suffixes: tuple[str, ...]
    read: Reader
    # the reasons the source itself skips a document, counted in stats.json even at 0
    skips: tuple[str, ...]
    summary: str


SOURCES: dict[str, Source] = {
    s.name: s
    for s in (
        Source("mediawiki", (".xml",), read_mediawiki, ("non_article_namespace", "redirect"),
               "a MediaWiki XML export (a Wikipedia dump, any language): its articles"),
        Source("text", (".txt", ".text", ".cor", ""), plaintext.read_plaintext, (),
               "plain UTF-8 text: each document a file or a line (dump.document)"),
        Source("jsonl", (".jsonl", ".ndjson", ".json"), tables.read_jsonl, (),
               "JSON Lines: each document an object's text field (dump.text_column)"),
        Source("csv", (".csv",), tables.read_csv, (),
               "CSV with a header: each document a row's text column"),
        Source("tsv", (".tsv", ".tab"), tables.read_tsv, (),
               "tab-separated with a header: each document a row's text column"),
        Source("parquet", (".parquet",), tables.read_parquet, (),
               "a Parquet table: each document a row's text column"),
    )
}  # fmt: skip

# a folder's files are extracted in parts of about this many bytes (on disk), each part
# one job, as a multi-part dump's files are: few jobs for many small files, and the
# cores kept busy for a few large ones
PART_BYTES = 256 << 20


def source_files(path: str | Path, source: str) -> list[Path]:
    """The files of a corpus: ``path`` itself, or a folder's files of that source (any
    depth, hidden ones left out) in name order. An InputError if there are none."""
    path = Path(path)
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise InputError(f"{path}: no such file or folder; check dump.source")
    suffixes = SOURCES[source].suffixes
    files = sorted(
        p for p in path.rglob("*")
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(path).parts)
        and stem_suffix(p) in suffixes
    )  # fmt: skip
    if not files:
        raise InputError(
            f"{path}: no {source} file in this folder (looked for "
            f"{', '.join(s or 'no suffix' for s in suffixes)}, compressed or not); "
            "check dump.source and dump.format"
        )
    return files


def plan_parts(files: list[Path], part_bytes: int = PART_BYTES) -> list[list[Path]]:
    """The files in consecutive parts of about ``part_bytes`` each (a file larger than
    that is a part of its own), in order: the corpus is the parts' texts joined."""
    parts: list[list[Path]] = []
    size = part_bytes
    for f in files:
        n = f.stat().st_size
        if size + n > part_bytes and (not parts or parts[-1]):
            parts.append([])
            size = 0
        parts[-1].append(f)
        size += n
    return parts

"""The corpus sources: the kinds of text a corpus can be made from, in one registry. The
workflow's extraction, its fan-out into parts and the config's validation read it; a new
source is one module (a reader yielding :class:`~.documents.Document`), its entry here
(naming the reader as ``"module:function"``, imported when a job reads: this table reads
without the readers, and an extraction job's code is its own reader's,
:mod:`learnability.targets`) and its name in the config schema's ``format`` enums.

- ``mediawiki``: a MediaWiki XML export (Wikipedia in any language), its articles;
- ``text``: plain text, each document a file, a paragraph or a line;
- ``jsonl``, ``csv``, ``tsv``, ``parquet``: a table, each document a row's text column.

Each takes one file or a folder of them, compressed or not (gz, bz2, xz, zst). A
document's text is wrapped (``Source.wrapped``) in all but a MediaWiki dump: a blank line
separates its paragraphs and its other line ends are joined."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from learnability.corpus.documents import Document, SourceOptions, compression_of, stem_suffix
from learnability.defaults import default
from learnability.errors import ConfigError, DownloadError, InputError
from learnability.targets import load

# (path, options, progress_every): a file's documents; the dump's reader logs its
# progress every so many seconds, the others read too fast to need it
Reader = Callable[[Path, SourceOptions, float | None], Iterator[Document]]


@dataclass(frozen=True)
class Source:
    name: str
    # what a folder's files end in, under any compression ("" for none: plain text)
    suffixes: tuple[str, ...]
    # "module:function", a Reader
    reader: str
    # the reasons the source itself skips a document, counted in stats.json even at 0
    skips: tuple[str, ...]
    # the corpus.source.* settings it reads (SourceOptions' fields): a change of another reruns
    # nothing of this source
    options: tuple[str, ...]
    summary: str
    # whether a document's lines are wrapped: its paragraphs separated by blank lines, a
    # line end inside one a space (documents.unwrap). Not a dump's: each line of an
    # article's stripped wikitext is a paragraph already
    wrapped: bool = True

    def read(
        self, path: Path, options: SourceOptions, progress_every: float | None = None
    ) -> Iterator[Document]:
        """The documents of one file, by this source's reader (imported on first use)."""
        read: Reader = load(self.reader)
        return read(path, options, progress_every)


_TABLE = ("text_column", "group_column", "group", "id_column")


SOURCES: dict[str, Source] = {
    s.name: s
    for s in (
        Source("mediawiki", (".xml",), "learnability.corpus.mediawiki:read_mediawiki",
               ("non_article_namespace", "redirect"), (),
               "a MediaWiki XML export (a Wikipedia dump, any language): its articles",
               wrapped=False),
        Source("text", (".txt", ".text", ".cor", ""),
               "learnability.corpus.plaintext:read_plaintext", (), ("document",),
               "plain UTF-8 text: each document a file, a paragraph or a line (source.document)"),
        Source("jsonl", (".jsonl", ".ndjson", ".json"), "learnability.corpus.tables:read_jsonl",
               (), _TABLE, "JSON Lines: each document an object's text field (source.text_column)"),
        Source("csv", (".csv",), "learnability.corpus.tables:read_csv", (), _TABLE,
               "CSV with a header: each document a row's text column"),
        Source("tsv", (".tsv", ".tab"), "learnability.corpus.tables:read_tsv", (), _TABLE,
               "tab-separated with a header: each document a row's text column"),
        Source("parquet", (".parquet",), "learnability.corpus.tables:read_parquet", (), _TABLE,
               "a Parquet table: each document a row's text column"),
    )
}  # fmt: skip

# a folder's files are extracted in parts of about source.part_mb (on disk), each part one
# job, as a multi-part dump's files are: few jobs for many small files, and the cores
# kept busy for a few large ones
MB = 1 << 20


def source_files(path: str | Path, source: str) -> list[Path]:
    """The files of a corpus: ``path`` itself, or a folder's files of that source (any
    depth, hidden ones left out) in name order. An InputError if there are none."""
    path = Path(path)
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise InputError(f"{path}: no such file or folder")
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
            "check the path and the format"
        )
    return files


def plan_parts(files: list[Path], part_bytes: int) -> list[list[Path]]:
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


# a piece of a part: a file, or the byte range [start, end) of one (None, None: whole)
Piece = tuple[str, "int | None", "int | None"]


def splittable(path: Path, source: str, document: str | None) -> bool:
    """Whether a file can be cut into parts: one document a line (JSON Lines, text by
    line) or a paragraph (text by paragraph), and not compressed (a compressed stream is
    read from its start), cut into byte ranges (a part reads the lines, or paragraphs,
    that start in its range); or a Parquet file, cut between its row groups. CSV is not:
    a quoted cell may hold a newline."""

    if source == "parquet":
        return True
    line_based = source == "jsonl" or (source == "text" and document in ("line", "paragraph"))
    return line_based and compression_of(path) is None


@functools.lru_cache(maxsize=256)
def _row_group_bytes(path: Path) -> tuple[int, ...]:
    """The compressed size of each row group of a Parquet file (its footer alone; read
    once a process: the plan and each part's resources ask for it)."""
    import pyarrow.parquet as pq

    meta = pq.ParquetFile(path).metadata
    groups = (meta.row_group(g) for g in range(meta.num_row_groups))
    return tuple(sum(rg.column(c).total_compressed_size for c in range(meta.num_columns))
                 for rg in groups)  # fmt: skip


def cuts(path: Path, part_bytes: int) -> list[tuple[int, int]]:
    """The ranges a splittable file is cut into, a part each: [start, end) byte ranges
    of about ``part_bytes`` (a line belongs to the range its first byte is in:
    :func:`learnability.corpus.documents.read_lines`), or for Parquet [first, end) row
    groups, consecutive groups of about ``part_bytes`` together (a group is never cut)."""
    if path.suffix.lower() != ".parquet":
        size = path.stat().st_size
        return [(a, min(a + part_bytes, size)) for a in range(0, size, part_bytes)]
    out: list[tuple[int, int]] = []
    start, held = 0, 0
    sizes = _row_group_bytes(path.resolve())
    for g, n in enumerate(sizes):
        if held and held + n > part_bytes:
            out.append((start, g))
            start, held = g, 0
        held += n
    out.append((start, len(sizes)))
    return out


def range_mb(path: str, start: int, end: int) -> float:
    """MB (10^6 bytes) on disk of a piece's range (bytes, or a Parquet file's row
    groups): what its extraction job reads."""
    if Path(path).suffix.lower() == ".parquet":
        return sum(_row_group_bytes(Path(path).resolve())[start:end]) / 1e6
    return (end - start) / 1e6


def plan_pieces(files: list[Path], part_bytes: int, can_split) -> list[list[Piece]]:
    """:func:`plan_parts`, with each file ``can_split`` accepts that is larger than
    ``part_bytes`` cut by :func:`cuts`, a part each."""
    parts: list[list[Piece]] = []
    small: list[Path] = []

    def flush() -> None:
        for part in plan_parts(small, part_bytes) if small else []:
            parts.append([(str(f.resolve()), None, None) for f in part])
        small.clear()

    for f in files:
        if f.stat().st_size > part_bytes and can_split(f):
            ranges = cuts(f, part_bytes)
            if len(ranges) > 1:
                flush()
                parts += [[(str(f.resolve()), a, b)] for a, b in ranges]
                continue
        small.append(f)
    flush()
    return parts


def piece_files(pieces: list[Piece]) -> list[str]:
    """The files a part reads, each once, in order."""
    return list(dict.fromkeys(path for path, _, _ in pieces))


def piece_ranges(pieces: list[Piece]) -> dict[str, list[int]]:
    """path -> [start, end] for each file of which a part reads a byte range."""
    return {path: [a, b] for path, a, b in pieces if a is not None}


def corpus_plan(source: dict, where: str = "corpus.source") -> dict[str, list[Piece]]:
    """The parts of a corpus of your own (a ``source`` block, ``corpus.source`` or a
    ``corpora:`` entry, with a ``format`` other than ``mediawiki``): ``part-0001`` on,
    each the pieces it reads (absolute paths, and byte ranges of a large line-based
    file), planned in parts of ``part_mb`` by :func:`plan_pieces`; {} for a MediaWiki
    dump, whose parts its download gives. Read in place: checksums are for downloads, and
    the workflow reruns the extraction of a part whose files change. A ConfigError names
    ``WHERE.path`` (``where``: the block's key) when it cannot be read, and a ``group``
    without its ``group_column``."""
    from learnability.corpus.download import resolve_package_path

    fmt = source.get("format", "mediawiki")
    part_mb = source.get("part_mb", default("corpus.source.part_mb"))
    if fmt == "mediawiki":
        return {}
    if source.get("group") is not None and source.get("group_column") is None:
        raise ConfigError(
            f"{where}.group: {source['group']!r} is a value of the group column; name that "
            f"column in {where}.group_column"
        )
    if source.get("base_url"):
        raise ConfigError(
            f"{where}.base_url: a multi-part download is for MediaWiki dumps; give the file "
            f"or folder of your corpus in {where}.path (and base_url: null)"
        )
    given = str(source.get("path") or "")
    if not given:
        # Path("") is the working directory: an empty path read every file below it
        raise ConfigError(
            f"{where}.path: not given; name the file or folder of your corpus ({fmt}) there"
        )
    if given.startswith("package://"):
        try:
            path = resolve_package_path(given)
        except DownloadError as exc:
            raise ConfigError(f"{where}.path: {exc}") from None
    elif given.startswith("file://"):
        path = Path(given.removeprefix("file://"))
    elif "://" in given:
        raise ConfigError(
            f"{where}.path: {given}: a corpus of your own ({fmt}) is read from a local file "
            "or folder, or package://; download it first and give its path"
        )
    else:
        path = Path(given)
    try:
        files = source_files(path, fmt)
    except InputError as exc:
        raise ConfigError(f"{where}.path: {exc}") from None
    document = source.get("document")
    pieces = plan_pieces(files, round(part_mb * MB),
                         lambda f: splittable(f, fmt, document))  # fmt: skip
    return {f"part-{k:04d}": part for k, part in enumerate(pieces, 1)}


def source_options(source: dict) -> dict[str, object]:
    """The settings of ``source`` that its format reads (the extraction's params: a change
    of one the format does not read reruns nothing)."""
    return {key: source.get(key) for key in SOURCES[source.get("format", "mediawiki")].options}


def min_document_tokens(config: dict, source: dict | None = None) -> int:
    """The fewest tokens a document keeps: a MediaWiki dump's articles
    ``corpus.min_article_tokens`` (stubs out), your own documents
    ``corpus.min_document_tokens``; ``source``: the corpus' source block (default
    ``corpus.source``)."""
    corpus = config["corpus"]
    if (source or corpus["source"]).get("format", "mediawiki") == "mediawiki":
        return int(corpus["min_article_tokens"])
    return int(corpus["min_document_tokens"])

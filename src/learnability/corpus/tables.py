"""Tables as a corpus source: JSON Lines, CSV, TSV and Parquet, one document a row, its
text in a named column (``corpus.source.text_column``) and optionally its group in another
(``corpus.source.group_column``: a party, a decade, for comparing the groups' corpora) and its id
in a third (``corpus.source.id_column``: what names a left-out document in stats.json). A missing
column, a malformed row or an undecodable byte is one InputError naming the file, the
line and the fix."""

from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path

from learnability.corpus.documents import (
    Document,
    SourceOptions,
    read_lines,
    require_file,
)
from learnability.errors import InputError


def _missing(path: Path, where: str, column: str, key: str, present: list[str]) -> InputError:
    return InputError(
        f"{path}{where}: no column {column!r}; set corpus.source.{key} to the column holding it "
        f"(this file has: {', '.join(map(str, present)) or 'none'})"
    )


def _columns(options: SourceOptions) -> list[tuple[str, str | None]]:
    """The columns a table is read for, by the setting that names each."""
    return [("text_column", options.text_column), ("group_column", options.group_column),
            ("id_column", options.id_column)]  # fmt: skip


def _document(path: Path, where: str, row: dict, options: SourceOptions) -> Document:
    text = row.get(options.text_column)
    if options.text_column not in row:
        raise _missing(path, where, options.text_column, "text_column", list(row))
    if text is not None and not isinstance(text, str):
        raise InputError(
            f"{path}{where}: column {options.text_column!r} holds {type(text).__name__} "
            f"{text!r:.40}, not text; name the text column in corpus.source.text_column"
        )
    group = None
    if options.group_column is not None:
        if options.group_column not in row:
            raise _missing(path, where, options.group_column, "group_column", list(row))
        group = None if row[options.group_column] is None else str(row[options.group_column])
    ident = None
    if options.id_column is not None:
        if options.id_column not in row:
            raise _missing(path, where, options.id_column, "id_column", list(row))
        ident = None if row[options.id_column] is None else str(row[options.id_column])
    return Document(text or "", group=group, id=ident if ident is not None else
                    f"{path.name}{where.replace(': row ', ':')}")  # fmt: skip


def read_jsonl(
    path: Path, options: SourceOptions, progress_every: float | None = None
) -> Iterator[Document]:
    """One JSON object a line; blank lines are allowed."""
    for number, line in read_lines(path, options.byte_range):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            # json's own position counts within this one line ("line 1 column 10 (char
            # 9)"): its column alone, beside the file's line
            what = exc.msg.removesuffix(" starting at")
            raise InputError(
                f"{path}:{number}: the JSON is cut or malformed ({what} at column "
                f"{exc.colno}); JSON Lines holds one whole object a line: mend or remove it"
            ) from None
        if not isinstance(row, dict):
            raise InputError(f"{path}:{number}: a JSON {type(row).__name__}, not an object")
        yield _document(path, f":{number}", row, options)


def _read_delimited(path: Path, options: SourceOptions, delimiter: str) -> Iterator[Document]:
    csv.field_size_limit(sys.maxsize)  # a document can be a whole book in one cell
    lines = (text + "\n" for _, text in read_lines(path))
    reader = csv.DictReader(_LineFeed(lines), delimiter=delimiter)
    try:
        header = reader.fieldnames or []
        for key, column in _columns(options):
            if column is not None and column not in header:
                raise _missing(path, ":1", column, key, header)
        for row in reader:
            if None in row:  # more cells than the header names
                raise InputError(
                    f"{path}:{reader.line_num}: more fields than the header's "
                    f"{len(header)}; quote cells that hold the delimiter"
                )
            yield _document(path, f":{reader.line_num}", row, options)
    except csv.Error as exc:
        raise InputError(f"{path}:{reader.line_num}: {exc}; check the quoting") from None


class _LineFeed(io.TextIOBase):
    """Decoded lines as the file object csv reads (it keeps quoted newlines together)."""

    def __init__(self, lines: Iterator[str]) -> None:
        self.lines = lines

    def __iter__(self) -> Iterator[str]:
        return self.lines

    def __next__(self) -> str:
        return next(self.lines)


def read_csv(
    path: Path, options: SourceOptions, progress_every: float | None = None
) -> Iterator[Document]:
    """Comma-separated, a header line naming the columns."""
    return _read_delimited(path, options, ",")


def read_tsv(
    path: Path, options: SourceOptions, progress_every: float | None = None
) -> Iterator[Document]:
    """Tab-separated, a header line naming the columns."""
    return _read_delimited(path, options, "\t")


def read_parquet(
    path: Path, options: SourceOptions, progress_every: float | None = None
) -> Iterator[Document]:
    """A Parquet table, read a row group at a time (``options.byte_range``: the row
    groups [first, end) of a part)."""
    import pyarrow.parquet as pq

    require_file(path)
    try:
        table = pq.ParquetFile(path)
    except Exception as exc:  # noqa: BLE001 - pyarrow's own errors, in one line
        raise InputError(f"{path}: not a readable Parquet file ({exc})") from None
    present = table.schema_arrow.names
    columns = [c for _, c in _columns(options) if c is not None]
    for key, column in _columns(options):
        if column is not None and column not in present:
            raise _missing(path, "", column, key, present)
    # a part of a large file: its row groups [first, end), rows numbered in the file
    first, end = options.byte_range or (0, table.metadata.num_row_groups)
    row = sum(table.metadata.row_group(g).num_rows for g in range(first))
    # closed when the reading ends, is abandoned or fails, not when it is collected
    with table:
        for batch in table.iter_batches(columns=columns, row_groups=range(first, end)):
            for values in batch.to_pylist():
                row += 1
                yield _document(path, f": row {row}", values, options)

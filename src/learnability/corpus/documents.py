"""What every corpus source yields, and how a source reads its files: the documents of a
corpus (:class:`Document`), the settings a source takes (:class:`SourceOptions`), and
the decompression and UTF-8 decoding every source shares, with errors that name the
file and the line."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from learnability.errors import InputError

# a source's files may be compressed: by the last suffix, read as one stream
COMPRESSIONS = (".gz", ".bz2", ".xz", ".zst")


@dataclass(frozen=True)
class Document:
    """One document of a corpus: its text as the source gives it (wikitext for a dump,
    plain text otherwise), the reason the source skips it (a dump's redirect), and its
    group (a table's group column: a party, a decade) if any."""

    text: str
    skip: str | None = None
    group: str | None = None
    # what names it to the user where it is left out: a table's id column, a text
    # document's file (or file:line)
    id: str | None = None


@dataclass(frozen=True)
class SourceOptions:
    """How a source reads its files (the config's ``dump`` block): a plain text's
    documents are its files or its lines; a table's text, id and group columns."""

    document: str = "file"
    text_column: str = "text"
    id_column: str | None = None
    group_column: str | None = None
    # a group's corpus: only the documents whose group column holds this
    group: str | None = None
    # a part of a file cut into parts: [start, end) the lines whose first byte lies in
    # it, or a Parquet file's row groups
    byte_range: tuple[int, int] | None = None


def compression_of(path: Path) -> str | None:
    return path.suffix if path.suffix in COMPRESSIONS else None


def stem_suffix(path: Path) -> str:
    """The suffix that says what a file holds, under its compression: ``.jsonl`` for
    ``speeches.jsonl.zst``."""
    name = path.name[: -len(path.suffix)] if compression_of(path) else path.name
    return Path(name).suffix.lower()


def open_binary(path: str | os.PathLike[str]) -> IO[bytes]:
    """The decompressed bytes of ``path`` (gz, bz2, xz, zst by suffix; else as is)."""
    path = Path(path)
    kind = compression_of(path)
    if kind == ".gz":
        return gzip.open(path, "rb")
    if kind == ".bz2":
        return bz2.open(path, "rb")
    if kind == ".xz":
        return lzma.open(path, "rb")
    if kind == ".zst":
        import zstandard

        # (its reader has no readline: buffered, it has)
        return io.BufferedReader(zstandard.open(path, "rb"))
    return open(path, "rb")


def _decode(data: bytes, path: Path, line: int | str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        # a whole file: its line; a line of a part: where it starts
        where = line if isinstance(line, str) else line + data[: exc.start].count(b"\n")
        raise InputError(
            f"{path}:{where}: byte {data[exc.start]:#04x} is not UTF-8; convert the file to "
            "UTF-8 (iconv -f <its encoding> -t UTF-8)"
        ) from None


def read_text(path: Path) -> str:
    """A whole file as UTF-8 text; an undecodable byte is an InputError naming its line."""
    with _reading(path) as fh:
        data = fh.read()
    return _decode(data, path, 1).removeprefix("\ufeff")


def read_lines(
    path: Path, byte_range: tuple[int, int] | None = None
) -> Iterator[tuple[int | str, str]]:
    """A file's lines as (line number, text without its end), decoded line by line in
    constant memory; an undecodable byte is an InputError naming its line.

    ``byte_range`` [start, end): only the lines whose first byte lies in it (a file cut
    into parts at any byte: each line is read by exactly one part), each named by where
    it starts (``byte 268435467``) instead of its number, which a part cannot know
    without reading every byte before it."""
    if byte_range is None:
        with _reading(path) as fh:
            for number, raw in enumerate(fh, 1):
                text = _decode(raw, path, number)
                text = text.removeprefix("\ufeff") if number == 1 else text
                yield number, text.rstrip("\r\n")
        return
    start, end = byte_range
    require_file(path)
    with open(path, "rb") as fh:
        position = start
        if start > 0:
            fh.seek(start - 1)
            if fh.read(1) != b"\n":  # inside a line: it belongs to the part before
                position += len(fh.readline())
        while position < end:
            raw = fh.readline()
            if not raw:
                break
            where = f"byte {position}"
            text = _decode(raw, path, where)
            yield where, (text.removeprefix("\ufeff") if position == 0 else text).rstrip("\r\n")
            position += len(raw)


def require_file(path: Path) -> None:
    if not path.is_file():
        raise InputError(f"{path}: no such file; check the corpus path (dump.source)")


class _reading:
    """``open_binary`` whose decompression errors are one InputError naming the file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __enter__(self) -> IO[bytes]:
        require_file(self.path)
        self.fh = _Checked(open_binary(self.path), self.path)
        return self.fh  # type: ignore[return-value]

    def __exit__(self, *exc: object) -> None:
        self.fh.raw.close()


class _Checked:
    """A decompressed stream whose reads turn a corrupt or truncated file's errors into
    one InputError."""

    def __init__(self, raw: IO[bytes], path: Path) -> None:
        self.raw, self.path = raw, path

    def _guard(self, read):  # noqa: ANN001, ANN202 - a bound read method
        try:
            return read()
        except InputError:
            raise
        except Exception as exc:
            # each library's own: OSError (gzip, bz2), EOFError (truncated), LZMAError,
            # zstandard's ZstdError
            known = (OSError, EOFError, ValueError, lzma.LZMAError)
            if not isinstance(exc, known) and type(exc).__name__ != "ZstdError":
                raise
            raise InputError(
                f"{self.path}: the file cannot be decompressed ({exc}); it is corrupt or "
                "truncated, or its suffix names the wrong compression"
            ) from None

    def read(self, size: int = -1) -> bytes:
        return self._guard(lambda: self.raw.read(size))

    def __iter__(self) -> Iterator[bytes]:
        while True:
            line = self._guard(self.raw.readline)
            if not line:
                return
            yield line

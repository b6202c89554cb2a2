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
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import zstandard

from learnability.errors import InputError

# a source's files may be compressed: by the last suffix, read as one stream
COMPRESSIONS = (".gz", ".bz2", ".xz", ".zst")


@dataclass(frozen=True)
class Document:
    """One document of a corpus: its text as the source gives it (wikitext for a dump,
    plain text otherwise), the reason the source skips it (a dump's redirect), and its
    group (a table's group column: a party, a decade) if any."""

    text: str
    # what names it to the user where it is left out: a table's id column, a text
    # document's file (or file:line), a wiki page's title
    id: str | None
    skip: str | None = None
    group: str | None = None


@dataclass(frozen=True)
class SourceOptions:
    """How a source reads its files (the config's ``dump`` block): a plain text's
    documents are its files, its paragraphs or its lines; a table's text, id and group columns."""

    document: str = "file"
    text_column: str = "text"
    id_column: str | None = None
    group_column: str | None = None
    # a group's corpus: only the documents whose group column holds this
    group: str | None = None
    # a part of a file cut into parts: [start, end) the lines (or paragraphs) whose first
    # byte lies in it, or a Parquet file's row groups
    byte_range: tuple[int, int] | None = None


# a run of lines holding only whitespace (a \r\n ending's \r included) between two
# lines: where one paragraph of wrapped text ends and the next begins
_PARAGRAPH_BREAK = re.compile(r"\n(?:[^\S\n]*\n)+")


def is_blank(line: str) -> bool:
    """Whether a line (without its end) separates paragraphs: whitespace alone, as
    :data:`_PARAGRAPH_BREAK` reads it (``str.strip`` and the regex's ``\\s`` are the same
    Unicode whitespace)."""
    return not line.strip()


def unwrap(text: str) -> str:
    """Wrapped text as one paragraph a line: a blank line (:func:`is_blank`) separates
    paragraphs, and the lines of a paragraph are joined by a space, since a line end in
    hard-wrapped text (a book, a manual, e-mail, OCR) is not a break in it: the trainers'
    windows then cross the wraps, as they would the spaces of the unwrapped text."""
    if "\n" not in text:  # a row of a table, most often: nothing to join
        return text
    return "\n".join(p.replace("\n", " ") for p in _PARAGRAPH_BREAK.split(text))


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
    for position, text in _lines_from(path, start):
        if position >= end:
            return
        yield f"byte {position}", text


def _lines_from(path: Path, start: int) -> Iterator[tuple[int, str]]:
    """The lines of an uncompressed file whose first byte is at ``start`` or after, each
    with that byte's position, to the end of the file."""
    require_file(path)
    with open(path, "rb") as fh:
        position = start
        if start > 0:
            fh.seek(start - 1)
            if fh.read(1) != b"\n":  # inside a line: it belongs to the part before
                position += len(fh.readline())
        while raw := fh.readline():
            text = _decode(raw, path, f"byte {position}")
            yield position, (text.removeprefix("\ufeff") if position == 0 else text).rstrip("\r\n")
            position += len(raw)


def read_paragraphs(
    path: Path, byte_range: tuple[int, int] | None = None
) -> Iterator[tuple[int | str, str]]:
    """A file's paragraphs, the runs of lines between blank ones (:func:`is_blank`), as
    (where its first line is, its lines joined by newlines).

    ``byte_range`` [start, end): the paragraphs whose first line starts in it, the last
    one read to its end past ``end`` (a file cut into parts at any byte: each paragraph
    is read by exactly one part, as each line is by :func:`read_lines`); named by the
    byte their first line starts at."""
    held: list[tuple[int | str, str]] = []  # the paragraph's lines, with where each is
    if byte_range is None:
        for number, line in read_lines(path):
            if not is_blank(line):
                held.append((number, line))
            elif held:
                yield _joined(held)
                held = []
        if held:
            yield _joined(held)
        return
    start, end = byte_range
    continuing = None  # whether the part's first line goes on a paragraph begun before it
    for position, line in _lines_from(path, start):
        if continuing is None:  # (at the file's start the look back finds no line: blank)
            continuing = not _blank_before(path, position)
        if is_blank(line):
            continuing = False
            if held:
                yield _joined(held)
                held = []
        elif not continuing:  # (a paragraph of the part before: it reads it to its end)
            if not held and position >= end:
                return
            held.append((f"byte {position}", line))
    if held:
        yield _joined(held)


def _joined(held: list[tuple[int | str, str]]) -> tuple[int | str, str]:
    """A paragraph: where its first line is, its lines joined by newlines."""
    return held[0][0], "\n".join(line for _, line in held)


# bytes that are whitespace to str.isspace; any other ASCII byte makes a line not blank
_ASCII_SPACE = b" \t\n\x0b\x0c\r\x1c\x1d\x1e\x1f"
_NOT_ASCII = bytes(range(128, 256))


def _blank_before(path: Path, position: int) -> bool:
    """Whether the line that ends at byte ``position`` - 1 (a newline) is blank: read
    backwards from there, a block at a time, until its start or an ASCII byte that is
    not whitespace (a non-ASCII byte may be a space, U+00A0: the line is then decoded)."""
    pieces: list[bytes] = []
    at, first_line = position - 1, True
    with open(path, "rb") as fh:
        while at > 0:
            step = min(1 << 16, at)
            fh.seek(at - step)
            block = fh.read(step)
            piece = block[block.rfind(b"\n") + 1 :]
            if piece.translate(None, _ASCII_SPACE + _NOT_ASCII):
                return False
            pieces.append(piece)
            at -= step
            if len(piece) < len(block):  # the newline before it: not the file's first line
                first_line = False
                break
    line = b"".join(reversed(pieces)).decode("utf-8", errors="replace")
    return is_blank(line.removeprefix("\ufeff") if first_line else line)


def require_file(path: Path) -> None:
    if not path.is_file():
        raise InputError(f"{path}: no such file; check the corpus path (corpus.source.path)")


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

"""File I/O in one place: atomic writes (a reader never sees half a file, a crash leaves no
partial output), the reading of users' text files with errors that name the file and
line, and the record of how a written file was made."""

from __future__ import annotations

import codecs
import contextlib
import json
import logging
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

import numpy as np

from learnability.errors import InputError

log = logging.getLogger(__name__)


def _umask() -> int:
    mask = os.umask(0o022)  # the only portable way to read it is to set it
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it onto ``path`` only on success."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        if tmp_path.is_file():
            # mkstemp creates 0600; the output gets the mode a plain open() would give it,
            # so that a group sharing a results directory on a cluster can read it
            os.chmod(tmp_path, 0o666 & ~_umask())
        os.replace(tmp_path, target)
    finally:
        if tmp_path.exists():
            tmp_path.unlink()


_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)  # fmt: skip
# The one encoding policy of every text input (word lists, dictionaries, test files,
# graphs): UTF-8; UTF-16 or UTF-32 with a byte-order mark (what editors write as
# "Unicode"); otherwise windows-1252, the "ANSI" of Windows editors and LIWC2007's own
# (a superset of Latin-1's printable characters), with a warning that names the file.
FALLBACK_ENCODING = "windows-1252"


def read_user_bytes(path: str | os.PathLike[str], what: str) -> bytes:
    """A user's text file (a word list, a test file, a graph), refused with its name and
    the fix when it cannot be read or holds a NUL byte (a binary file given by mistake).
    ``what`` names the expected content for the message."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read the {what} ({exc.strerror})") from exc
    if b"\x00" in raw and not any(raw.startswith(bom) for bom, _ in _BOMS):
        pairs = raw[: 2 * 4096]
        if pairs[1::2].count(0) > 0.4 * len(pairs[1::2]) or pairs[::2].count(0) > 0.4 * len(
            pairs[::2]
        ):
            raise InputError(
                f"{path}: looks like UTF-16 without a byte-order mark; save the {what} as UTF-8"
            )
        raise InputError(f"{path}: contains NUL bytes; this looks like a binary file, not a {what}")
    return raw


def decode_text(raw: bytes, path: str | os.PathLike[str]) -> tuple[str, str]:
    """(text, encoding) under the encoding policy above; a BOM is dropped."""
    for bom, encoding in _BOMS:
        if raw.startswith(bom):
            try:
                return raw.decode(encoding), encoding.removesuffix("-sig")
            except UnicodeDecodeError as exc:
                raise InputError(
                    f"{path}: starts with a {encoding} byte-order mark but does not decode "
                    f"as {encoding} (byte {exc.start}); save it as UTF-8"
                ) from None
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        text = raw.decode(FALLBACK_ENCODING)
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise InputError(
            f"{path}, line {line}: neither UTF-8 nor {FALLBACK_ENCODING}; save the file as UTF-8"
        ) from None
    line = 1
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
    log.warning(
        "%s: not UTF-8 (line %d); read as %s. Save it as UTF-8 if that is wrong",
        path,
        line,
        FALLBACK_ENCODING,
    )
    return text, FALLBACK_ENCODING


def read_text_lines(path: str | os.PathLike[str], what: str) -> list[str]:
    """The lines of a user's text file under the encoding policy (:func:`decode_text`)."""
    return decode_text(read_user_bytes(path, what), path)[0].splitlines()


# How a written file was made: the record every Parquet table (in its metadata, under the
# maker's key) and every meta.json (under "provenance") carries. Its maker lives above the
# science (learnability.provenance, which installs it when imported: the CLI, a workflow
# job's log and the records' own tests import it); the science's writers only ask here
# for the current record, so they never import the records. With no maker installed a
# file carries none.
_record_maker: tuple[str, Callable[[], dict[str, Any]]] | None = None


def install_record_maker(key: str, maker: Callable[[], dict[str, Any]]) -> None:
    """Make ``maker`` (no arguments: the current record) what every writer records, under
    ``key`` in a Parquet table's metadata."""
    global _record_maker
    _record_maker = (key, maker)


def current_record() -> dict[str, Any] | None:
    """The record of what is being written now, None where no maker is installed."""
    return None if _record_maker is None else _record_maker[1]()


def stamp(meta: dict[str, Any]) -> dict[str, Any]:
    """``meta`` (a ``meta.json``'s content) with the current record under ``provenance``."""
    record = current_record()
    return meta if record is None else {**meta, "provenance": record}


def parquet_metadata() -> dict[bytes, bytes]:
    """The current record as a Parquet table's metadata entry (none without a maker)."""
    if _record_maker is None:
        return {}
    key, maker = _record_maker
    return {key.encode(): json.dumps(maker(), sort_keys=True).encode()}


def write_json(obj: Any, path: str | os.PathLike[str]) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(json.dumps(obj, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def write_float32_npy_header(fh: IO[bytes], shape: tuple[int, int]) -> None:
    """The ``.npy`` header of a C-order float32 array of ``shape``, for writers that then
    stream its rows as raw bytes (memory stays bounded whatever the array's size)."""
    header = {"descr": "<f4", "fortran_order": False, "shape": tuple(shape)}
    np.lib.format.write_array_header_1_0(fh, header)


def npy_shape(path: str | os.PathLike[str]) -> tuple[int, ...]:
    """The shape in a ``.npy`` file's header, without reading its data (a job's resources
    from its input's size before the job runs)."""
    with open(path, "rb") as fh:
        version = np.lib.format.read_magic(fh)
        read = (
            np.lib.format.read_array_header_1_0
            if version == (1, 0)
            else np.lib.format.read_array_header_2_0
        )
        shape, _, _ = read(fh)
    return tuple(int(n) for n in shape)


def save_array(array: Any, path: str | os.PathLike[str]) -> None:
    """``np.save`` to ``path``, atomically (no partial file if the job dies)."""

    with atomic_path(path) as tmp, open(tmp, "wb") as fh:
        np.save(fh, np.asarray(array))


def check_scratch(tmpdir: str, tmp_mb: float, variable: str = "LEARNABILITY_TMPDIR") -> None:
    """Stop a job in one line, before it writes anything, where its tmpdir has less free
    space than the ``tmp_mb`` it declared."""
    free_mb = shutil.disk_usage(tmpdir).free / 1e6
    if free_mb < tmp_mb:
        raise InputError(
            f"{tmpdir}: {free_mb:,.0f} MB free, this job needs {tmp_mb:,.0f} MB of scratch; "
            f"set {variable} to a folder on a disk that holds it"
        )

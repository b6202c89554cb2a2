"""File I/O in one place: atomic writes (a reader never sees half a file, a crash leaves no
partial output) and the reading of users' text files with errors that name the file and
line."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import numpy as np
import pandas as pd

from learnability import schemas
from learnability.errors import InputError


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


def read_user_bytes(path: str | os.PathLike[str], what: str) -> bytes:
    """A user's text file (a word list, a test file, a graph), refused with its name and
    the fix when it cannot be read or holds a NUL byte (a binary file given by mistake).
    ``what`` names the expected content for the message."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read the {what} ({exc.strerror})") from exc
    if b"\x00" in raw:
        raise InputError(f"{path}: contains NUL bytes; this looks like a binary file, not a {what}")
    return raw


def read_text_lines(path: str | os.PathLike[str], what: str) -> list[str]:
    """The lines of a user's UTF-8 text file (a BOM is dropped); not UTF-8 is refused
    naming the file and the first bad line."""
    raw = read_user_bytes(path, what)
    try:
        return raw.decode("utf-8-sig").splitlines()
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise InputError(f"{path}, line {line}: not valid UTF-8; save the file as UTF-8") from exc


def write_json(obj: Any, path: str | os.PathLike[str]) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(json.dumps(obj, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def write_table(df: pd.DataFrame, path: str | os.PathLike[str], table: str) -> None:
    """Check ``df`` against the documented schema ``table`` and write it as Parquet, atomically."""
    df = schemas.conform(df, table)
    with atomic_path(path) as tmp:
        df.to_parquet(tmp, index=False)


def read_tables(paths: list[str] | list[Path], table: str) -> pd.DataFrame:
    """Read and concatenate Parquet files of one documented schema."""
    frames = [pd.read_parquet(p) for p in paths]
    if not frames:
        return schemas.empty(table)
    return schemas.conform(pd.concat(frames, ignore_index=True), table)


def write_float32_npy_header(fh: IO[bytes], shape: tuple[int, int]) -> None:
    """The ``.npy`` header of a C-order float32 array of ``shape``, for writers that then
    stream its rows as raw bytes (memory stays bounded whatever the array's size)."""
    header = {"descr": "<f4", "fortran_order": False, "shape": tuple(shape)}
    np.lib.format.write_array_header_1_0(fh, header)

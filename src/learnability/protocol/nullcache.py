"""Random-list nulls kept between calls and between processes.

A null (``null_distribution``: a thousand random lists of one size, scored by the
protocol) is most of what :func:`learnability.score` and ``learnability evaluate`` cost on
a large vocabulary, and it depends only on the vectors, the list's size (or frequency
profile) and the protocol's settings, not on the list. So a null is computed once and
kept: in memory for the session, and on disk for later calls and other processes (a
second ``learnability evaluate`` on the same vectors, a notebook restarted).

The disk copy lives in ``$LEARNABILITY_CACHE_DIR/nulls`` (default:
``$XDG_CACHE_HOME/learnability``, else ``~/.cache/learnability``; an empty
``LEARNABILITY_CACHE_DIR`` turns it off). A file's name is a digest of the null's
settings and of the package's own code, so a null made by other code (another version,
a local change) is never read back: it is recomputed. Files are written whole (a
temporary file, then a rename), so processes sharing the folder never read half a file;
one that cannot be read is recomputed with a warning. A null is about 100 kB; delete the
folder to reclaim the space.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import tempfile
from collections.abc import Callable, Hashable
from pathlib import Path

import pandas as pd

log = logging.getLogger(__name__)

CACHE_ENV = "LEARNABILITY_CACHE_DIR"
# nulls kept in memory across calls, oldest dropped first
MEMORY_SIZE = 256


def cache_dir() -> Path | None:
    """The folder of the disk cache, or None when ``LEARNABILITY_CACHE_DIR`` is set empty."""
    value = os.environ.get(CACHE_ENV)
    if value is not None:
        return Path(value).expanduser() if value.strip() else None
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "learnability"


@functools.cache
def code_digest() -> str:
    """A digest of every module of the installed package (its ``.py`` files' bytes): a
    cached null is read back only by the code that made it."""
    root = Path(__file__).resolve().parents[1]
    h = hashlib.blake2b(digest_size=16)
    for path in sorted(root.rglob("*.py")):
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()


class NullCache:
    """Nulls by their settings (a tuple of digests, keys and numbers), in memory and on
    disk. :meth:`get` returns the kept table or computes, keeps and returns it."""

    def __init__(self, memory_size: int = MEMORY_SIZE):
        self.memory: dict[Hashable, pd.DataFrame] = {}
        self.memory_size = memory_size

    def __len__(self) -> int:
        return len(self.memory)

    def path(self, settings: Hashable) -> Path | None:
        folder = cache_dir()
        if folder is None:
            return None
        name = hashlib.blake2b(repr((code_digest(), settings)).encode(), digest_size=16)
        return folder / "nulls" / f"{name.hexdigest()}.parquet"

    def get(self, settings: Hashable, compute: Callable[[], pd.DataFrame]) -> pd.DataFrame:
        if settings in self.memory:
            return self.memory[settings]
        path = self.path(settings)
        table = self._read(path) if path is not None and path.exists() else None
        if table is None:
            table = compute()
            if path is not None:
                self._write(table, path)
        self.memory[settings] = table
        while len(self.memory) > self.memory_size:
            self.memory.pop(next(iter(self.memory)))
        return table

    @staticmethod
    def _read(path: Path) -> pd.DataFrame | None:
        try:
            return pd.read_parquet(path)
        except Exception as exc:  # a truncated or foreign file: recompute, and say so
            log.warning("cached null %s could not be read (%s); computing it again", path, exc)
            return None

    @staticmethod
    def _write(table: pd.DataFrame, path: Path) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".parquet")
            os.close(fd)
            try:
                table.to_parquet(tmp, index=False)
                os.replace(tmp, path)
            finally:
                if os.path.exists(tmp):
                    os.unlink(tmp)
        except OSError as exc:  # a read-only or full disk costs the next call, not this one
            log.warning("could not keep the null in %s (%s)", path.parent, exc)

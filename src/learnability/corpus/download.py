"""Fetch a dump: HTTP(S) with resume and checksums, local files, or files inside a package.

Sources:

- ``http://...`` / ``https://...``: streamed to ``<dest>.part``; an interrupted download
  resumes with a ``Range`` request when the server supports it (206), and restarts
  cleanly when it does not (200).
- ``file:///abs/path`` or a plain path: copied.
- ``package://DIST/relative/path``: a data file shipped inside an installed Python
  package (the embedded default is gensim's Wikipedia sample).

The checksum (``sha256``, ``sha1`` or ``md5``) is verified before the file is renamed
into place, so ``dest`` either holds verified bytes or does not exist.
"""

from __future__ import annotations

import hashlib
import http.client
import importlib.util
import logging
import os
import shutil
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

from learnability.errors import DownloadError
from learnability.progress import Progress

HASHES = ("sha256", "sha1", "md5")
CHUNK = 1 << 20
PROGRESS_SECONDS = 10.0

log = logging.getLogger(__name__)


def resolve_package_path(source: str) -> Path:
    """``package://gensim/test/test_data/x.bz2`` -> the file inside the installed package."""
    rest = source.removeprefix("package://")
    package, _, rel = rest.partition("/")
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise DownloadError(
            f"{source}: Python package {package!r} is not installed; install it "
            "(it is a dependency in pyproject.toml) or point the config at another source"
        )
    for base in spec.submodule_search_locations:
        candidate = Path(base) / rel
        if candidate.is_file():
            return candidate
    raise DownloadError(f"{source}: no file {rel!r} inside the installed package {package!r}")


def file_digest(path: str | os.PathLike[str], algorithm: str) -> str:
    h = hashlib.new(algorithm)
    with open(path, "rb") as fh:
        while chunk := fh.read(CHUNK):
            h.update(chunk)
    return h.hexdigest()


def verify_checksum(path: Path, checksums: dict[str, str], source: str) -> None:
    for algorithm in HASHES:
        expected = checksums.get(algorithm)
        if not expected:
            continue
        actual = file_digest(path, algorithm)
        if actual.lower() != expected.lower():
            raise DownloadError(
                f"{source}: {algorithm} mismatch: expected {expected}, got {actual}. "
                "The file is corrupt or not the one the config pins; it was not kept. "
                "Check the URL and checksum in the config."
            )


def _http_fetch(
    url: str, part: Path, retries: int, timeout: float, backoff: float, progress_every: float
) -> None:
    last_error: Exception | None = None
    for attempt in range(retries + 1):
        have = part.stat().st_size if part.exists() else 0
        request = urllib.request.Request(url, headers={"User-Agent": "learnability/0.1"})
        if have:
            request.add_header("Range", f"bytes={have}-")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                # 206: the server resumes; 200: it ignored Range, so start from zero
                resumed = have and response.status == 206
                mode = "ab" if resumed else "wb"
                expected = response.headers.get("Content-Length")
                start = have if resumed else 0
                if have:
                    log.info(
                        "%s: %s at byte %d",
                        url,
                        "resuming" if resumed else "server ignored Range; restarting",
                        start,
                    )
                total = start + int(expected) if expected is not None else None
                progress = Progress(
                    url, total, unit="MB", scale=1e6, start=start, every=progress_every, logger=log
                )
                received = 0
                with open(part, mode) as out:
                    while chunk := response.read(CHUNK):
                        out.write(chunk)
                        received += len(chunk)
                        progress.update(len(chunk))
                progress.update(0, final=True)
            if expected is not None and received < int(expected):
                # A dropped connection can look like a clean EOF: keep what arrived and
                # resume from there.
                raise ConnectionError(f"connection closed after {received} of {expected} bytes")
            return
        except urllib.error.HTTPError as exc:
            if exc.code == 416 and have:
                return  # Range beyond the end: the part file is already complete
            if 400 <= exc.code < 500:
                raise DownloadError(
                    f"{url}: HTTP {exc.code} {exc.reason}. Check the URL in the config "
                    "(mirrors drop old dumps)."
                ) from exc
            last_error = exc
        except (urllib.error.URLError, http.client.HTTPException, OSError) as exc:
            last_error = exc
        if attempt < retries:
            delay = min(backoff * 2.0**attempt, 300.0)
            log.warning(
                "%s: attempt %d of %d failed (%s); retrying in %.1f s",
                url,
                attempt + 1,
                retries + 1,
                last_error,
                delay,
            )
            time.sleep(delay)
    raise DownloadError(
        f"{url}: download failed after {retries + 1} attempts ({last_error}). "
        "Rerun to resume where it stopped."
    )


def fetch(
    source: str,
    dest: str | os.PathLike[str],
    checksums: dict[str, str] | None = None,
    *,
    allow_unverified: bool = False,
    retries: int = 5,
    timeout: float = 60.0,
    backoff: float = 2.0,
    progress_every: float = PROGRESS_SECONDS,
    config_key: str = "corpus.source",
) -> Path:
    """Fetch ``source`` to ``dest``, verified against ``checksums``; return ``dest``.
    ``config_key`` names the config section the error messages point to.

    A missing checksum is an error unless ``allow_unverified`` is set explicitly: a dump
    that cannot be verified cannot be reproduced. HTTP transfers retry ``retries`` times
    with exponential backoff (``backoff`` s, doubling, at most 5 min), resuming each time,
    and log bytes, rate and ETA every ``progress_every`` seconds.
    """
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    checksums = {k: v for k, v in (checksums or {}).items() if v and k in HASHES}
    if not checksums and not allow_unverified:
        where = (
            "the dump's checksum file (e.g. enwiki-YYYYMMDD-sha1sums.txt)"
            if config_key == "corpus.source"
            else "the publisher's page, or from the log of a first run with "
            f"{config_key}.allow_unverified: true (it prints the file's sha256)"
        )
        raise DownloadError(
            f"{source}: no checksum given (sha256, sha1 or md5). Copy it from {where} "
            f"into {config_key}, or set {config_key}.allow_unverified: true to accept an "
            "unverified file."
        )
    part = dest.with_name(dest.name + ".part")
    scheme = urlparse(source).scheme
    if scheme in ("http", "https"):
        _http_fetch(source, part, retries, timeout, backoff, progress_every)
    else:
        if source.startswith("package://"):
            src = resolve_package_path(source)
        elif scheme == "file":
            src = Path(urlparse(source).path)
        else:
            src = Path(source)
        if not src.is_file():
            raise DownloadError(f"{source}: no such file; check {config_key}.path in the config")
        shutil.copyfile(src, part)
    try:
        verify_checksum(part, checksums, source)
    except DownloadError:
        part.unlink(missing_ok=True)
        raise
    os.replace(part, dest)
    return dest

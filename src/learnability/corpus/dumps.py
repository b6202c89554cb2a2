"""A multi-part dump's file list with the dump's own checksums: the manifest.

Wikimedia publishes, beside every dump, ``dumpstatus.json``::

    {"jobs": {JOB: {"status": "done", "files": {NAME: {"size", "url", "md5", "sha1"}}}}}

(jobs ``articlesdump`` for the numbered parts, ``articlesdumprecombine`` for one file,
and their ``multistream`` twins), and ``<wiki>-<date>-sha1sums.txt`` / ``md5sums.txt``
with one ``<hex>  <name>`` line per file. Either becomes a manifest: a TSV with one row
per part (name, size, sha1, md5, url) in page order, which the workflow reads to fan out
one download and one extraction job per part.

The status file is the root of trust: it is fetched without a checksum (it defines
them), so fetch it over HTTPS or from a copy you trust, or pin the dump: a manifest
committed beside the config (``corpus.source.pinned``) that the mirror's list must match,
name for name, and size, sha1 and md5 wherever the pin has them. A pin may list names
alone (the paper's dump ships so: its checksums need the mirror): the first manifest
built against it records the mirror's size, sha1 and md5 into it, as a lock file, and
every later one is held to them, so that a second download cannot differ silently. Every
part is then verified against the manifest before it becomes an output.
"""

from __future__ import annotations

import csv
import json
import logging
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import urljoin

from learnability.corpus.download import fetch
from learnability.errors import DownloadError, InputError
from learnability.io import atomic_path

# pages-articles3.xml-p88445p200507.bz2 -> part 3, first page 88445
PART_RE = re.compile(r"(\d+)\.xml-p(\d+)p(\d+)")
DEFAULT_JOB = "articlesdump"
# parts of the plain (not multistream) articles dump, for checksum lists
DEFAULT_PATTERN = r"-pages-articles\d+\.xml-p\d+p\d+\.bz2$"
COLUMNS = ("name", "size", "sha1", "md5", "url")
# what a pin holds the mirror to (the url is the mirror's own)
PINNED_FIELDS = ("size", "sha1", "md5")

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DumpFile:
    name: str
    url: str
    size: int | None = None
    sha1: str = ""
    md5: str = ""

    @property
    def checksums(self) -> dict[str, str]:
        return {k: v for k, v in (("sha1", self.sha1), ("md5", self.md5)) if v}


def page_order(name: str) -> tuple[int, int, str]:
    """Sort key that puts parts in page order: (part number, first page id, name)."""
    m = PART_RE.search(name)
    return (int(m.group(1)), int(m.group(2)), name) if m else (0, 0, name)


def parse_dumpstatus(
    text: str, job: str, base_url: str, source: str, pattern: str | None = None
) -> list[DumpFile]:
    """The files of ``job`` in a dumpstatus.json, in page order; those whose names match
    ``pattern`` when it is given (a multistream job lists its index files beside the
    parts)."""
    try:
        status = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{source}: not valid JSON ({exc}); is it a dumpstatus.json?") from exc
    jobs = status.get("jobs") if isinstance(status, dict) else None
    if not isinstance(jobs, dict):
        raise InputError(f"{source}: no 'jobs' object; is it a dumpstatus.json?")
    if job not in jobs:
        raise InputError(
            f"{source}: no job {job!r}; it has {', '.join(sorted(jobs))}. Set corpus.source.job."
        )
    entry = jobs[job]
    if entry.get("status") != "done":
        raise InputError(
            f"{source}: job {job!r} has status {entry.get('status')!r}, not 'done': the dump "
            "is incomplete. Pick a finished dump date."
        )
    files = []
    wanted = re.compile(pattern) if pattern else None
    for name, info in (entry.get("files") or {}).items():
        if wanted and not wanted.search(name):
            continue
        url = info.get("url") or name
        files.append(
            DumpFile(
                name=name,
                url=urljoin(base_url, url.rsplit("/", 1)[-1]) if base_url else url,
                size=int(info["size"]) if info.get("size") is not None else None,
                sha1=info.get("sha1", "") or "",
                md5=info.get("md5", "") or "",
            )
        )
    return sorted(files, key=lambda f: page_order(f.name))


def parse_checksum_list(text: str, base_url: str, source: str, pattern: str) -> list[DumpFile]:
    """``<hex>  <name>`` lines (sha1sum/md5sum output); the algorithm from the hex length."""
    wanted = re.compile(pattern)
    files = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 2 or not re.fullmatch(r"[0-9a-fA-F]{32}|[0-9a-fA-F]{40}", parts[0]):
            raise InputError(
                f"{source}, line {lineno}: expected '<sha1 or md5>  <file name>', got {line!r}"
            )
        digest, name = parts[0].lower(), parts[1].lstrip("*")
        if not wanted.search(name):
            continue
        kind = "sha1" if len(digest) == 40 else "md5"
        files.append(DumpFile(name=name, url=urljoin(base_url, name), **{kind: digest}))
    return sorted(files, key=lambda f: page_order(f.name))


def write_manifest(files: list[DumpFile], path: str | os.PathLike[str]) -> None:
    with atomic_path(path) as tmp, open(tmp, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, delimiter="\t", lineterminator="\n")
        writer.writerow(COLUMNS)
        for f in files:
            writer.writerow([f.name, "" if f.size is None else f.size, f.sha1, f.md5, f.url])


def read_manifest(path: str | os.PathLike[str]) -> list[DumpFile]:
    with open(path, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    missing = [c for c in ("name", "size", "sha1") if rows and c not in rows[0]]
    if not rows or missing:
        raise InputError(
            f"{path}: not a dump manifest (a TSV with the columns {', '.join(COLUMNS)}; "
            f"{'no rows' if not rows else 'no ' + ', '.join(missing)})"
        )
    rows = [{c: r.get(c) or "" for c in COLUMNS} for r in rows]
    return [
        DumpFile(
            name=r["name"],
            url=r["url"],
            size=int(r["size"]) if r["size"] else None,
            sha1=r["sha1"],
            md5=r["md5"],
        )
        for r in rows
    ]


def manifest_entry(path: str | os.PathLike[str], name: str) -> DumpFile:
    for f in read_manifest(path):
        if f.name == name:
            return f
    raise InputError(f"{path}: no part named {name!r}; delete the manifest to fetch it again")


def check_pinned(
    files: list[DumpFile], pinned: str | os.PathLike[str], source: str, allow_unpinned: bool
) -> list[DumpFile]:
    """The mirror's parts (``files``, from ``source``) against the ``pinned`` manifest: a
    pinned part the mirror lacks, or one whose size, sha1 or md5 differs from the pin's,
    is refused in one line; a part the pin does not list too, unless ``allow_unpinned``.
    Returns the pin with what it left blank filled from the mirror (the lock to write
    back); equal to the pin when it had every field."""
    pin_list = read_manifest(pinned)
    pins = {f.name: f for f in pin_list}
    served = {f.name: f for f in files}
    lacking = [name for name in pins if name not in served]
    if lacking:
        raise InputError(
            f"{source}: lists no {lacking[0]}, which {pinned} pins ({len(lacking)} of "
            f"{len(pins)} pinned parts missing): this mirror serves another or an incomplete "
            "dump; point corpus.source.base_url at a mirror of the pinned one"
        )
    for f in files:
        pin = pins.get(f.name)
        if pin is None:
            if allow_unpinned:
                continue
            raise InputError(
                f"{source}: {f.name} is not in {pinned}; set corpus.source.allow_unpinned: true to "
                "accept parts the pin does not list"
            )
        for field in PINNED_FIELDS:
            want, got = getattr(pin, field), getattr(f, field)
            if want not in (None, "") and got not in (None, "") and want != got:
                raise InputError(
                    f"{source}: {f.name} has {field} {got} where {pinned} pins {want}: this "
                    "mirror serves another dump; point corpus.source.base_url at a mirror of the "
                    "pinned one, or set corpus.source.pinned: null to trust this mirror's list"
                )
        if pin.sha1 and not f.sha1:
            raise InputError(
                f"{source}: no sha1 for {f.name}, which {pinned} pins: use a mirror that "
                "publishes sha1s (corpus.source.status: dumpstatus.json or the sha1sums file)"
            )
    return [
        replace(pin, **{k: getattr(served[pin.name], k) for k in PINNED_FIELDS
                        if getattr(pin, k) in (None, "")})
        for pin in pin_list
    ]  # fmt: skip


def build_manifest(
    status: str,
    base_url: str,
    dest: str | os.PathLike[str],
    *,
    job: str = DEFAULT_JOB,
    pattern: str = DEFAULT_PATTERN,
    allow_unverified: bool = False,
    pinned: str | os.PathLike[str] | None = None,
    allow_unpinned: bool = False,
) -> list[DumpFile]:
    """Fetch the status file (``status``: a URL, a path, or a name relative to
    ``base_url``), parse it, check it against the ``pinned`` manifest if any
    (:func:`check_pinned`) and write the manifest to ``dest``."""
    source = status if re.match(r"^[a-z]+://|^/", status) else urljoin(base_url, status)
    raw = Path(str(dest) + ".status")
    try:
        fetch(source, raw, allow_unverified=True)  # the status file defines the checksums
        text = raw.read_text(encoding="utf-8")
    finally:
        raw.unlink(missing_ok=True)
    if source.rstrip("/").endswith(".json"):
        files = parse_dumpstatus(text, job, base_url, source, pattern)
    else:
        files = parse_checksum_list(text, base_url, source, pattern)
    if not files:
        raise InputError(
            f"{source}: lists no file of the dump (job {job!r}, pattern {pattern!r}); set "
            "corpus.source.job and corpus.source.pattern to the dump's parts"
        )
    pins = read_manifest(pinned) if pinned else []
    locked = check_pinned(files, pinned, source, allow_unpinned) if pinned else []
    unverified = [f.name for f in files if not f.checksums]
    if unverified and not allow_unverified:
        raise DownloadError(
            f"{source}: no sha1 or md5 for {len(unverified)} file(s), e.g. {unverified[0]}. "
            "Use a mirror that publishes them, or set corpus.source.allow_unverified: true."
        )
    if locked != pins:
        # the first manifest against a pin of names: what the mirror serves is recorded,
        # so that the next download (another mirror, the manifest deleted) is held to it
        recorded = sum(a != b for a, b in zip(locked, pins, strict=True))
        write_manifest(locked, pinned)
        log.warning(
            "%s: recorded the size, sha1 and md5 of %d parts from %s; commit it, so that "
            "every later download is held to them", pinned, recorded, source,
        )  # fmt: skip
    write_manifest(files, dest)
    return files

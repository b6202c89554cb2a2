"""MediaWiki's XML export (a Wikipedia dump) as a corpus source: its pages streamed in
constant memory from plain, bz2 or gzip XML, and each article's prose as a document
(other namespaces and redirects skipped with their reason). One reader among the
others (:mod:`learnability.corpus.plaintext`, :mod:`learnability.corpus.tables`)."""

from __future__ import annotations

import bz2
import gzip
import logging
import os
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from learnability.corpus.documents import Document, SourceOptions
from learnability.corpus.wikitext import drop_prefixes, strip_wikitext
from learnability.errors import InputError
from learnability.progress import Progress

try:
    import indexed_bzip2
except ImportError:  # the standard library's bz2 reads the same bytes, slower
    indexed_bzip2 = None

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Page:
    title: str
    ns: int
    redirect: bool
    text: str


# The decompressed XML is parsed in pieces of this size. ElementTree's iterparse reads
# 16 KiB at a time, and alternating bz2's multi-megabyte working set with the text
# processing at that grain evicts it from the cache: bz2 ran at half its own speed.
READ_SIZE = 1 << 20


class _Dump:
    """A dump file's decompressed bytes, read in pieces, with the compressed position
    for progress. bz2 goes through indexed_bzip2 where it is installed (a dependency of
    the project; about 1.4x the speed of the standard library's bz2 on one thread, with
    the same bytes out), else through the standard library."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._raw: IO[bytes] | None = None
        self._indexed = None
        if path.suffix == ".bz2" and indexed_bzip2 is not None:
            self._indexed = indexed_bzip2.open(str(path), parallelization=1)
            self.stream: IO[bytes] = self._indexed
        else:
            self._raw = open(path, "rb")
            if path.suffix == ".bz2":
                self.stream = bz2.BZ2File(self._raw, "rb")
            elif path.suffix == ".gz":
                self.stream = gzip.GzipFile(fileobj=self._raw, mode="rb")
            else:
                self.stream = self._raw

    def read(self) -> bytes:
        try:
            return self.stream.read(READ_SIZE)
        # indexed_bzip2 raises RuntimeError for a truncated stream and ValueError for a
        # bad header or CRC; the standard library OSError or EOFError
        except (OSError, EOFError, RuntimeError, ValueError) as exc:
            raise InputError(
                f"{self.path}: the file cannot be decompressed ({exc}). It is corrupt or "
                "truncated: delete it and download it again."
            ) from exc

    def position(self) -> int:
        """Bytes of the file read so far."""
        if self._indexed is not None:
            return int(self._indexed.tell_compressed()) // 8  # it counts bits
        assert self._raw is not None
        return self._raw.tell()

    def close(self) -> None:
        self.stream.close()
        if self._raw is not None:
            self._raw.close()


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _page(elem: ET.Element) -> Page:
    title, ns, redirect, text = "", 0, False, ""
    for child in elem:
        name = _local(child.tag)
        if name == "title":
            title = child.text or ""
        elif name == "ns":
            ns = int(child.text or 0)
        elif name == "redirect":
            redirect = True
        elif name == "revision":
            for rev in child:
                if _local(rev.tag) == "text":
                    text = rev.text or ""
    return Page(title, ns, redirect, text)


def iter_pages(path: str | os.PathLike[str], progress_every: float | None = None) -> Iterator[Page]:
    """Stream the pages of a MediaWiki XML export (plain, .bz2 or .gz) in constant memory:
    one read of :data:`READ_SIZE` decompressed bytes and the pages it completes.
    With ``progress_every`` (seconds), log the share of the file read, rate and ETA."""
    path = Path(path)
    if not path.is_file():
        raise InputError(
            f"{path}: no such dump file. Check the path in the config (corpus.source.path), or "
            "let the workflow download it again."
        )
    if path.stat().st_size == 0:
        raise InputError(
            f"{path}: the dump is empty (0 bytes): its download failed or was cut short; "
            "delete it and download it again"
        )
    progress = None
    if progress_every is not None:
        size = path.stat().st_size
        progress = Progress(f"{path.name} read", size, unit="MB", scale=1e6,
                            every=progress_every, logger=log)  # fmt: skip
    dump = _Dump(path)
    try:
        parser = ET.XMLPullParser(events=("start", "end"))
        root = None
        while True:
            chunk = dump.read()
            if chunk:
                parser.feed(chunk)
            else:
                parser.close()
            for event, elem in parser.read_events():
                if root is None:
                    root = elem
                elif event == "end" and _local(elem.tag) == "page":
                    yield _page(elem)
                    # Free parsed pages: the root would otherwise keep the whole dump.
                    root.clear()
            if progress is not None:
                progress.update(dump.position() - progress.done)
            if not chunk:
                break
        if progress is not None:
            progress.finish()
    except ET.ParseError as exc:
        raise InputError(
            f"{path}: the XML is malformed or truncated ({exc}). Download the dump again "
            "(a partial download leaves truncated XML) or check that it is a MediaWiki export."
        ) from exc
    finally:
        dump.close()


def read_namespaces(path: str | os.PathLike[str]) -> dict[int, str]:
    """The namespaces a dump's ``<siteinfo>`` declares (number -> local name; "" for the
    articles' own), read from the head of the file; {} for an export without one."""
    path = Path(path)
    dump = _Dump(path)
    namespaces: dict[int, str] = {}
    try:
        parser = ET.XMLPullParser(events=("start", "end"))
        while chunk := dump.read():
            parser.feed(chunk)
            for event, elem in parser.read_events():
                name = _local(elem.tag)
                if event == "end" and name == "namespace":
                    namespaces[int(elem.get("key", 0))] = elem.text or ""
                elif (event, name) in (("end", "siteinfo"), ("start", "page")):
                    return namespaces
    except ET.ParseError as exc:
        raise InputError(
            f"{path}: the XML is malformed or truncated ({exc}). Download the dump again "
            "or check that it is a MediaWiki export."
        ) from exc
    finally:
        dump.close()
    return namespaces


def is_redirect(page: Page) -> bool:
    # Some exports omit <redirect/>; the wikitext itself still starts with #REDIRECT.
    return page.redirect or page.text.lstrip()[:9].upper() == "#REDIRECT"


def read_mediawiki(
    path: Path, options: SourceOptions, progress_every: float | None = None
) -> Iterator[Document]:
    """A MediaWiki export's pages as documents: an article's prose (its markup stripped,
    file and category links by the wiki's own namespace names), other namespaces' pages
    and redirects skipped with their reason; each named by its title."""
    drop = drop_prefixes(read_namespaces(path))
    for page in iter_pages(path, progress_every):
        if page.ns != 0:
            yield Document("", skip="non_article_namespace", id=page.title)
        elif is_redirect(page):
            yield Document("", skip="redirect", id=page.title)
        else:
            yield Document(strip_wikitext(page.text, drop), id=page.title)

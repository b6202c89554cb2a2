"""MediaWiki dumps the tests write: a page, a one-file dump, and a dump in numbered
parts with its status and checksums (what Wikimedia publishes), all of random words."""

from __future__ import annotations

import bz2
import hashlib
import json
from pathlib import Path

XML_HEAD = """<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10">
  <siteinfo><sitename>Test</sitename></siteinfo>
"""


def page(title: str, text: str, ns: int = 0, redirect: str | None = None) -> str:
    from xml.sax.saxutils import escape

    red = f'<redirect title="{escape(redirect)}" />' if redirect else ""
    return (
        f"  <page><title>{escape(title)}</title><ns>{ns}</ns><id>1</id>{red}"
        f'<revision><id>2</id><text xml:space="preserve">{escape(text)}</text>'
        "</revision></page>\n"
    )


def write_dump(path: Path, pages: list[str]) -> Path:
    xml = XML_HEAD + "".join(pages) + "</mediawiki>\n"
    path.write_bytes(bz2.compress(xml.encode("utf-8")))
    return path


WORDS = [f"w{i}" for i in range(300)]


def synthetic_pages(n: int, seed: int = 0) -> list[str]:
    """Articles of random words, with a redirect, a talk page and a stub mixed in."""
    import random

    rng = random.Random(seed)
    pages = []
    for i in range(n):
        if i % 17 == 5:
            pages.append(page(f"R{i}", f"#REDIRECT [[A{i - 1}]]", redirect=f"A{i - 1}"))
        elif i % 23 == 7:
            pages.append(page(f"Talk:A{i}", "talk " * 80, ns=1))
        elif i % 29 == 3:
            pages.append(page(f"S{i}", "too short"))
        else:
            paragraphs = [" ".join(rng.choices(WORDS[: 50 + i % 250], k=120)) for _ in range(3)]
            pages.append(page(f"A{i}", "\n\n".join(paragraphs)))
    return pages


def multipart_dump(directory: Path, parts: int = 3, pages_per_part: int = 40) -> dict:
    """A dump in ``parts`` numbered part files plus the same pages as one file, with a
    dumpstatus.json and a sha1sums.txt. Returns {path in the server: bytes}."""
    pages = synthetic_pages(parts * pages_per_part)
    files: dict[str, bytes] = {}
    status_files = {}
    sha1_lines = []
    for k in range(parts):
        lo, hi = k * pages_per_part + 1, (k + 1) * pages_per_part
        name = f"testwiki-20990101-pages-articles{k + 1}.xml-p{lo}p{hi}.bz2"
        chunk = pages[k * pages_per_part : (k + 1) * pages_per_part]
        data = bz2.compress((XML_HEAD + "".join(chunk) + "</mediawiki>\n").encode())
        files[f"/dump/{name}"] = data
        sha1 = hashlib.sha1(data).hexdigest()
        status_files[name] = {
            "size": len(data),
            "url": f"/testwiki/20990101/{name}",
            "md5": hashlib.md5(data).hexdigest(),
            "sha1": sha1,
        }
        sha1_lines.append(f"{sha1}  {name}")
    whole = bz2.compress((XML_HEAD + "".join(pages) + "</mediawiki>\n").encode())
    whole_name = "testwiki-20990101-pages-articles.xml.bz2"
    files[f"/dump/{whole_name}"] = whole
    sha1_lines.append(f"{hashlib.sha1(whole).hexdigest()}  {whole_name}")
    # reversed: the manifest must restore page order itself
    status = {
        "jobs": {
            "articlesdump": {"status": "done", "files": dict(reversed(status_files.items()))},
            "articlesdumprecombine": {"status": "done", "files": {}},
        },
        "version": "0.8",
    }
    files["/dump/dumpstatus.json"] = json.dumps(status).encode()
    files["/dump/testwiki-20990101-sha1sums.txt"] = ("\n".join(sha1_lines) + "\n").encode()
    for path, data in files.items():
        (directory / path.rsplit("/", 1)[-1]).write_bytes(data)
    return files

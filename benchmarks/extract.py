"""Extraction throughput: our extractor against gensim's WikiCorpus and the bz2 floor.

Usage: python benchmarks/extract.py [--repeat 8]

Inputs: gensim's Wikipedia sample (the embedded default) and a larger synthetic dump
built by repeating the sample's pages ``--repeat`` times, written as one file and as one
part per core (the workflow extracts each part of a dump in its own job). It prints MB/s
of uncompressed XML for:

  - ours: learnability.corpus.extract_corpus, one process per part, all cores;
  - gensim: WikiCorpus(processes=cores).get_texts(), the baseline;
  - the floor: bz2 decompression alone of the same file, one core;
  - wikiextractor (``python -m wikiextractor.WikiExtractor --processes cores``) when it
    is installed (``pip install wikiextractor``; not a dependency of the project);

with the ratios ours/gensim, ours/wikiextractor and ours/floor, and the tokens each
produced (wikiextractor writes text, not tokens).
"""

from __future__ import annotations

import argparse
import bz2
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

# This file shares no name with the package, but keep the import path clean anyway.
sys.path[:] = [
    p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))
]

from learnability.corpus import extract_corpus  # noqa: E402
from learnability.download import resolve_package_path  # noqa: E402

SAMPLE = (
    "package://gensim/test/test_data/"
    "enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2"
)
CORES = os.cpu_count() or 1


def split_pages(xml: str) -> tuple[str, list[str], str]:
    start = xml.index("<page>")
    end = xml.rindex("</page>") + len("</page>")
    pages = re.findall(r"<page>.*?</page>", xml[start:end], flags=re.S)
    return xml[:start], pages, xml[end:]


def write_parts(head: str, pages: list[str], tail: str, n: int, directory: Path) -> list[Path]:
    paths = []
    size = -(-len(pages) // n)
    for k in range(n):
        path = directory / f"part{k + 1}.xml.bz2"
        chunk = pages[k * size : (k + 1) * size]
        path.write_bytes(bz2.compress((head + "\n".join(chunk) + tail).encode(), 9))
        paths.append(path)
    return paths


def ours(path: Path) -> int:
    out = Path(tempfile.mkdtemp())
    return int(extract_corpus([path], out / "t.gz", out / "s.json")["tokens"])


def gensim_tokens(path: Path, processes: int) -> int:
    from gensim.corpora.wikicorpus import WikiCorpus

    corpus = WikiCorpus(str(path), dictionary={}, processes=processes)
    return sum(len(t) for t in corpus.get_texts())


def wikiextractor_seconds(path: Path, processes: int) -> float | None:
    if importlib.util.find_spec("wikiextractor") is None:
        return None
    out = Path(tempfile.mkdtemp())
    t0 = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "wikiextractor.WikiExtractor", str(path), "--processes",
         str(processes), "-o", str(out), "-q"],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return time.perf_counter() - t0


def measure(label: str, whole: Path, parts: list[Path], xml_mb: float) -> None:
    t0 = time.perf_counter()
    bz2.decompress(whole.read_bytes())
    floor = xml_mb / (time.perf_counter() - t0)

    t0 = time.perf_counter()
    with ProcessPoolExecutor(len(parts)) as pool:
        tokens_ours = sum(pool.map(ours, parts))
    rate_ours = xml_mb / (time.perf_counter() - t0)

    t0 = time.perf_counter()
    tokens_gensim = gensim_tokens(whole, CORES)
    rate_gensim = xml_mb / (time.perf_counter() - t0)

    print(f"{label}: {xml_mb:.1f} MB of XML, {CORES} cores")
    print(
        f"  ours ({len(parts)} parts, {len(parts)} processes): {rate_ours:6.2f} MB/s, "
        f"{tokens_ours:,} tokens"
    )
    print(
        f"  gensim WikiCorpus ({CORES} processes):   {rate_gensim:6.2f} MB/s, "
        f"{tokens_gensim:,} tokens"
    )
    wx = wikiextractor_seconds(whole, CORES)
    if wx is not None:
        print(f"  wikiextractor ({CORES} processes):     {xml_mb / wx:6.2f} MB/s")
        print(f"  ratio ours/wikiextractor {rate_ours / (xml_mb / wx):.2f}x")
    else:
        print("  wikiextractor: not installed (pip install wikiextractor to time it)")
    print(f"  bz2 decompression alone (1 core): {floor:6.2f} MB/s")
    print(
        f"  ratios: ours/gensim {rate_ours / rate_gensim:.2f}x, ours/floor {rate_ours / floor:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=8)
    args = parser.parse_args()
    sample = resolve_package_path(SAMPLE)
    xml = bz2.decompress(sample.read_bytes()).decode("utf-8")
    head, pages, tail = split_pages(xml)
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        for label, rep in (("gensim sample", 1), (f"sample x {args.repeat}", args.repeat)):
            sub = d / str(rep)
            sub.mkdir()
            all_pages = pages * rep
            whole = write_parts(head, all_pages, tail, 1, sub)[0]
            whole = whole.rename(sub / "whole.xml.bz2")
            parts_dir = sub / "parts"
            parts_dir.mkdir()
            parts = write_parts(head, all_pages, tail, CORES, parts_dir)
            xml_mb = len(bz2.decompress(whole.read_bytes())) / 1e6
            measure(label, whole, parts, xml_mb)


if __name__ == "__main__":
    main()

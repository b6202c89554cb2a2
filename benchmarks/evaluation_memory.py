"""Every evaluation kind's memory at enwiki's size: 3,000,000 words x 300 dimensions,
float32, memory-mapped as the workflow's job reads it (``workflow/scripts/evaluate.py``).

Usage: python benchmarks/evaluation_memory.py [--words 3000000] [--dim 300]
       [--kinds analogy,...] [--dir DIR] [--smoke]

Writes a synthetic embedding folder in ``--dir`` (default: a temporary folder; 3.6 GB at
the default size): Gaussian vectors, a vocabulary that holds every word of the default
config's evaluation files first (so each kind has its real workload) and filler words
after them, and a corpus of 2.5 M tokens for pseudo-disambiguation (drawn from 2,000
words: its memory follows the tokens it reads, its time the query words). Each kind then
runs in a fresh process, through the kind's own ``job`` with the default config's
settings, while a thread samples its anonymous resident memory (``RssAnon``: what a job's
memory limit must hold beyond the page cache of the mapped file). It prints each kind's
peak, its maximum resident set (page cache included), its model and the memory the
workflow declares for it (``learnability.pipeline.resources``: ``evaluation_need`` and
``declare``), and the ratio of the peak to the vectors' size (the baseline: the jobs
loaded the whole matrix before).
"""

from __future__ import annotations

import argparse
import gzip
import json
import logging
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import yaml
from peak import Peak, rss_anon
from toysize import add_smoke

from learnability.corpus.download import resolve_package_path
from learnability.defaults import default
from learnability.embeddings.store import load_embedding, save_vocabulary
from learnability.evaluations.registry import KINDS
from learnability.pipeline import resources as cost

REPO = Path(__file__).resolve().parents[1]
CORPUS_TOKENS, CORPUS_WORDS = 2_500_000, 2_000


def evaluation_config() -> dict:
    """The default config's ``evaluations`` block (the files each kind reads)."""
    return yaml.safe_load((REPO / "config/config.yaml").read_text())["evaluations"]


def kind_files(kind: str, block: dict, short: Path | None = None) -> list[Path]:
    """The files a kind reads; under ``short``, their first lines (made by the parent in
    --smoke, so that its every path runs in seconds)."""
    paths = [
        resolve_package_path(f) if f.startswith("package://") else REPO / f
        for f in block[kind].get("files", [])
    ]
    return [short / p.name for p in paths] if short else paths


def shorten(block: dict, folder: Path, lines: int) -> None:
    """The first ``lines`` lines of every kind's files, in ``folder``."""
    folder.mkdir()
    for kind in KINDS:
        for path in kind_files(kind, block):
            head = path.read_text(encoding="utf-8", errors="replace").splitlines()[:lines]
            (folder / path.name).write_text("\n".join(head) + "\n", encoding="utf-8")


def dataset_words(block: dict) -> list[str]:
    """Every lowercased token of the kinds' files, in first-seen order."""
    seen: dict[str, None] = {}
    for kind in KINDS:
        for path in kind_files(kind, block):
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                if line.startswith(("#", ":")):
                    continue
                for token in line.replace("/", " ").replace("\t", " ").split():
                    seen.setdefault(token.lower(), None)
    return list(seen)


def write_embedding(folder: Path, words: int, dim: int, block: dict, tokens: int) -> None:
    folder.mkdir(parents=True)
    rng = np.random.default_rng(0)
    vocab = dataset_words(block)
    vocab += [f"w{i:07d}" for i in range(max(0, words - len(vocab)))]
    vocab = vocab[:words]
    out = np.lib.format.open_memmap(
        folder / "vectors.npy", mode="w+", dtype=np.float32, shape=(words, dim)
    )
    step = 1 << 18
    for start in range(0, words, step):
        stop = min(words, start + step)
        out[start:stop] = rng.standard_normal((stop - start, dim), dtype=np.float32)
    out.flush()
    del out
    counts = np.arange(words, 0, -1, dtype=np.int64) + 4
    save_vocabulary(folder, name="synthetic", words=vocab, counts=counts, dim=dim, meta={})
    # Zipf-like draws from the first words, 1000 tokens a line
    p = 1.0 / np.arange(1, CORPUS_WORDS + 1)
    tokens = rng.choice(min(CORPUS_WORDS, words), tokens, p=p / p.sum())
    with gzip.open(folder / "text.txt.gz", "wt", encoding="utf-8") as fh:
        for start in range(0, tokens.size, 1000):
            fh.write(" ".join(vocab[t] for t in tokens[start : start + 1000]) + "\n")


def child(kind: str, folder: Path, short: bool) -> None:
    """One kind's job as the workflow's script runs it; prints its figures as JSON."""
    block = evaluation_config()
    spec = KINDS[kind]
    start = rss_anon()
    t0 = time.perf_counter()
    with Peak() as peak:
        emb = load_embedding(folder, mmap=True)
        if spec.needs_corpus:
            files = [(str(folder / "text.txt.gz"), "synthetic")]
        else:
            short_dir = folder / "short" if short else None
            files = [(str(p), p.name) for p in kind_files(kind, block, short_dir)]
        settings = {k: v for k, v in block[kind].items() if k not in ("files", "enabled")}
        if spec.uses_case:
            settings["case"] = default("matching.case")
        spec.load().job(emb, files, settings, embedding="synthetic", log=logging.getLogger())
    wall = time.perf_counter() - t0
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps(dict(kind=kind, start=start, peak=peak.peak, maxrss=maxrss, wall=wall)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=3_000_000)
    parser.add_argument("--dim", type=int, default=300)
    parser.add_argument("--kinds", default=",".join(KINDS), help="comma-separated")
    parser.add_argument("--dir", type=Path, help="where to write the embedding (default: tmp)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--short", action="store_true", help=argparse.SUPPRESS)
    add_smoke(parser)
    args = parser.parse_args()
    if args.child:
        return child(args.child, args.dir, args.short)
    if args.smoke:
        args.words, args.dim = 40_000, 10
    tokens = 50_000 if args.smoke else CORPUS_TOKENS
    block = evaluation_config()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        folder = Path(tmp) / "synthetic"
        t0 = time.perf_counter()
        write_embedding(folder, args.words, args.dim, block, tokens)
        if args.smoke:
            shorten(block, folder / "short", 300)
        print(f"wrote {args.words:,} x {args.dim} float32 in {time.perf_counter() - t0:.0f} s")
        vectors_mb = (folder / "vectors.npy").stat().st_size / 1e6
        rows = []
        for kind in args.kinds.split(","):
            got = subprocess.run(
                [sys.executable, __file__, "--child", kind, "--dir", str(folder),
                 *(["--short"] if args.smoke else [])],
                capture_output=True, text=True, check=False,
            )  # fmt: skip
            if got.returncode:
                raise SystemExit(f"{kind} failed:\n{got.stderr[-3000:]}")
            rows.append(json.loads(got.stdout.strip().splitlines()[-1]))
    print(f"vectors {vectors_mb:,.0f} MB; MB below are 10^6 bytes")
    print(f"{'kind':<14}{'peak anon':>10}{'max RSS':>10}{'model':>8}{'declared':>10}"
          f"{'wall s':>8}{'peak/vectors':>14}")  # fmt: skip
    for r in rows:
        need = cost.evaluation_need(r["kind"], args.words, args.dim)
        declared = cost.declare(need)["mem_mb"]
        print(
            f"{r['kind']:<14}{r['peak'] / 1e6:>10,.0f}{r['maxrss'] / 1e6:>10,.0f}"
            f"{need.mem_mb:>8,.0f}{declared:>10,}{r['wall']:>8.0f}"
            f"{r['peak'] / 1e6 / vectors_mb:>14.3f}"
        )
    print("ratio peak/vectors: the largest kind's",
          f"{max(r['peak'] for r in rows) / 1e6 / vectors_mb:.3f}")  # fmt: skip


if __name__ == "__main__":
    main()

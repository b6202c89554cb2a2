"""What jobs really hold, measured on their own code paths (tests/test_resources.py checks
the cost models' memory terms against these): tracemalloc's peak while a job's function
runs (Python objects and numpy arrays; numpy reports its buffers to it), and the peak
resident memory of a fresh Python process. Each probe runs at the sizes a test gives, so
that a test takes a term from the difference between two sizes (what the job's other
memory leaves alone)."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import tracemalloc
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np


def traced_peak(work: Callable[[], object]) -> tuple[object, int]:
    """(``work()``'s result, the bytes its allocations peaked at above where they began),
    by tracemalloc."""
    tracemalloc.start()
    try:
        begin, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        result = work()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak - begin


def fresh_python_rss_mb(code: str) -> float:
    """The peak resident MB of a fresh Python (this virtualenv's) that runs ``code``: its
    ``VmHWM`` (/proc/self/status, kB), read when ``code`` is done. (Its ``ru_maxrss``
    would not do: Linux carries the parent's resident size at the fork over the exec, so
    a probe from a large pytest process would read the parent's size.)"""
    script = (f"{code}\nimport re\nprint(re.search(r'VmHWM:\\s*(\\d+)', "
              "open('/proc/self/status').read()).group(1))")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True)  # fmt: skip
    return int(out.stdout.split()[-1]) * 1024 / 1e6


def synthetic_lines(tokens: int, seed: int, per_line: int = 90) -> list[str]:
    """Lines of ``tokens`` words as the synthetic dump draws its tail (the made-up words of
    learnability.corpus.synthdump's Zipf-Mandelbrot ranks, half the tokens one frequent
    word in place of the sample's head, which adds no vocabulary): ``per_line`` a line."""
    from learnability.corpus.synthdump import Lexicon, TokenStream

    lexicon = Lexicon(head=np.array(["the"], dtype=object), head_cdf=np.array([1.0]),
                      head_share=0.5, tail=np.array([], dtype=object))  # fmt: skip
    words = TokenStream(np.random.default_rng(seed), lexicon).take(tokens)
    return [" ".join(words[i : i + per_line]) for i in range(0, tokens, per_line)]


def count_table(lines: list[str], path: Path, traced: bool = True) -> int:
    """The bytes an extraction job's count table peaks at: its Counter filled as
    learnability.corpus.extract.extract_corpus fills it (each line's split), then written
    by its write_counts to ``path`` (Parquet: word, count); 0 when not ``traced``."""
    from learnability.corpus.extract import write_counts

    def work() -> None:
        counts: Counter[str] = Counter()
        for line in lines:
            counts.update(line.split())
        write_counts(counts, path)

    if not traced:
        work()
        return 0
    return traced_peak(work)[1]


def coverage_peak(counts: list[Path]) -> int:
    """The bytes the corpus_coverage job's candidate search
    (learnability.concepts.corpus_coverage.corpus_candidates) peaks at over the count
    tables ``counts``, with config/paper.yaml's lists and min_count."""
    import yaml

    from learnability.concepts.corpus_coverage import corpus_candidates
    from learnability.concepts.lists import load_entries
    from learnability.pipeline.config import list_registry

    repo = Path(__file__).resolve().parents[1]
    paper = yaml.safe_load((repo / "config" / "paper.yaml").read_text())
    config = {"wordlists": {**paper["wordlists"], "dictionaries": []}}
    config["wordlists"]["dir"] = str(repo / paper["wordlists"]["dir"])
    lists = {n: load_entries(s["path"], s.get("category"), s.get("format", "auto"))
             for n, s in list_registry(config).items()}  # fmt: skip
    min_count = int(paper["training"]["min_count"])
    return traced_peak(lambda: corpus_candidates(counts, lists, min_count))[1]


def draw_peak(folder: Path, documents: int, seed: int) -> int:
    """The bytes learnability.corpus.sample.sample_documents peaks at drawing half of a
    corpus of ``documents`` one-line documents of 3 to 12 tokens (written to ``folder``
    as the extraction writes a corpus: gzip, each document ended by an empty line)."""
    from learnability.corpus.lines import DOCUMENT_END
    from learnability.corpus.sample import sample_documents

    rng = np.random.default_rng(seed)
    lengths = rng.integers(3, 13, documents)
    corpus = folder / f"corpus-{documents}.txt.gz"
    with gzip.open(corpus, "wt", encoding="utf-8") as out:
        for n in lengths.tolist():
            out.write(" ".join(["w"] * n) + "\n" + DOCUMENT_END)
    half = int(lengths.sum()) // 2

    def work() -> dict:
        return sample_documents(corpus, folder / "drawn.txt.gz", folder / "drawn.json",
                                half, seed)  # fmt: skip

    stats, peak = traced_peak(work)
    assert json.loads((folder / "drawn.json").read_text())["corpus_documents"] == documents
    assert stats["corpus_lines"] == documents
    return peak


def evaluation_peak(
    kind: str, folder: Path, words: int, dim: int, lines: int = 300, **overrides
) -> int:
    """The bytes one evaluation job of ``kind`` peaks at, as workflow/scripts/evaluate.py
    runs it: the embedding's vocabulary read (its matrix memory-mapped: page cache, not
    traced) and the kind's ``job`` with the default config's settings, on the first
    ``lines`` lines of each of its files (pseudo: a corpus of 20,000 tokens of the first
    2,000 words). The embedding (written to ``folder``): Gaussian float32 vectors of
    ``words`` words, the files' own words first and filler words after them."""
    import logging

    import yaml

    from learnability.corpus.download import resolve_package_path
    from learnability.defaults import default
    from learnability.embeddings.store import load_embedding, save_vocabulary
    from learnability.evaluations.registry import KINDS

    repo = Path(__file__).resolve().parents[1]
    block = yaml.safe_load((repo / "config" / "config.yaml").read_text())["evaluations"]
    spec = KINDS[kind]
    files = []
    vocab: dict[str, None] = {}
    for name in block[kind].get("files", []):
        path = resolve_package_path(name) if name.startswith("package://") else repo / name
        head = path.read_text(encoding="utf-8", errors="replace").splitlines()[:lines]
        short = folder / path.name
        short.write_text("\n".join(head) + "\n", encoding="utf-8")
        files.append((str(short), path.name))
        for line in head:
            if not line.startswith(("#", ":")):
                for token in line.replace("/", " ").replace("\t", " ").split():
                    vocab.setdefault(token.lower(), None)
    names = list(vocab)[:words]
    names += [f"w{i:07d}" for i in range(words - len(names))]
    emb_dir = folder / f"emb-{words}"
    emb_dir.mkdir()
    rng = np.random.default_rng(0)
    np.save(emb_dir / "vectors.npy", rng.standard_normal((words, dim), dtype=np.float32))
    counts = np.arange(words, 0, -1, dtype=np.int64) + 4
    save_vocabulary(emb_dir, name="synthetic", words=names, counts=counts, dim=dim, meta={})
    if spec.needs_corpus:
        tokens = rng.integers(0, min(2_000, words), 20_000)
        with gzip.open(emb_dir / "text.txt.gz", "wt", encoding="utf-8") as out:
            for start in range(0, tokens.size, 1000):
                out.write(" ".join(names[t] for t in tokens[start : start + 1000]) + "\n")
        files = [(str(emb_dir / "text.txt.gz"), "synthetic")]
    settings = {k: v for k, v in block[kind].items() if k not in ("files", "enabled")}
    settings.update(overrides)
    if spec.uses_case:
        settings["case"] = default("matching.case")
    job = spec.load().job

    def work() -> None:
        emb = load_embedding(emb_dir, mmap=True)
        job(emb, files, settings, embedding="synthetic", log=logging.getLogger(__name__))

    return traced_peak(work)[1]


def glove_peak(folder: Path, words: int, dim: int) -> tuple[int, int]:
    """The bytes our GloVe (learnability.embeddings.glove.train_glove, one thread, one
    iteration) peaks at on a corpus of ``words`` distinct words, each 8 times (lines of
    40 tokens): its vocabulary, counts, parameters and end of training (the vectors
    summed and made float32), with a counting budget of 1 MB; and its co-occurrence
    entries (its meta.json's)."""
    from learnability.embeddings.glove import train_glove

    corpus = folder / f"glove-{words}.txt.gz"
    order = np.random.default_rng(words).permutation(np.repeat(np.arange(words), 8))
    with gzip.open(corpus, "wt", encoding="utf-8") as out:
        for start in range(0, order.size, 40):
            out.write(" ".join(f"w{i}" for i in order[start : start + 40]) + "\n\n")
    params = {"dim": dim, "min_count": 5, "window": 5, "epochs": 1, "seed": 1, "x_max": 100,
              "alpha": 0.75, "learning_rate": 0.05, "vectors": "sum"}  # fmt: skip

    def work():
        return train_glove(str(corpus), params, 1, count_memory_mb=1, tmpdir=str(folder))

    emb, peak = traced_peak(work)
    assert len(emb.words) == words
    return peak, int(emb.meta["cooccurrence_entries"])

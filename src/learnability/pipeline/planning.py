"""English Wikipedia's sizes as the paper's run meets them, and a results folder that has
them: every file the run makes before its heavy jobs, at enwiki's size as a hole (no
disk) or, for the vocabularies a plan must read, real. A dry run on that folder shows
what every job declares at full scale (tests/test_cluster_plan.py,
``benchmarks/scale.py``)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pandas as pd

# 27 parts, 16 GB of bz2 (estimated: ../reference/full-scale.md), 6.5 GB of gzipped
# corpus (2.6 B tokens at resources.TOKENS_PER_GZ_MB), 3 M words at min_count 5
ENWIKI = {
    "tokens": 2.6e9,
    "vocabulary": (2.5e6, 3.0e6),
    "entries": (1.0e9, 3.5e9),
    # one extraction job's part: enwiki's 27
    "part_tokens": 2.6e9 / 27,
}
ENWIKI_PARTS, ENWIKI_BZ2, ENWIKI_GZ = 27, 16e9, 6.5e9
ENWIKI_WORDS, ENWIKI_DIM = 3_000_000, 300
DUMP = "enwiki-20190701"
EMBEDDINGS = ("word2vec", "fasttext", "glove", "random")


def sparse(path: Path, size: int, header: bytes = b"") -> None:
    """A file of ``size`` bytes that takes no disk (a hole after ``header``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(header)
        fh.truncate(size)


def fake_enwiki(
    folder: Path,
    vocabulary: int,
    lists_dir: Path,
    dim: int = ENWIKI_DIM,
) -> list[str]:
    """A results folder as the paper's run leaves it before fitting: every part, the
    corpus, the embeddings, the shared space and the resolved lists of ``lists_dir``'s
    ``*.txt``, with enwiki's file sizes (as holes) and real vocabularies of
    ``vocabulary`` words. Returns the lists."""
    from learnability.concepts.lists import load_entries, resolve
    from learnability.concepts.matching import Matcher
    from learnability.corpus.dumps import DumpFile, write_manifest
    from learnability.corpus.synthdump import spell
    from learnability.io import write_float32_npy_header
    from learnability.schemas import write_table

    files = [
        DumpFile(name=f"{DUMP}-pages-articles{k}.xml-p{k}p{k}.bz2", url=f"http://127.0.0.1:9/{k}",
                 size=int(ENWIKI_BZ2 / ENWIKI_PARTS), sha1="0" * 40)
        for k in range(1, ENWIKI_PARTS + 1)
    ]  # fmt: skip
    write_manifest(files, folder / f"resources/dumps/{DUMP}/manifest.tsv")
    corpus = folder / f"results/corpus/{DUMP}"
    stats = {"tokens": int(ENWIKI["tokens"]), "parts": ENWIKI_PARTS}
    for f in files:
        sparse(folder / f"resources/dumps/{DUMP}/parts/{f.name}", f.size)
        sparse(corpus / f"parts/{f.name}.txt.gz", int(ENWIKI_GZ / ENWIKI_PARTS))
        sparse(corpus / f"parts/{f.name}.counts.parquet", 50_000_000)
        (corpus / f"parts/{f.name}.stats.json").write_text(json.dumps(stats))
    sparse(corpus / "text.txt.gz", int(ENWIKI_GZ))
    (corpus / "stats.json").write_text(json.dumps(stats))
    lists = sorted(p.stem for p in lists_dir.glob("*.txt"))
    entries = {n: load_entries(str(lists_dir / f"{n}.txt"), None, "auto") for n in lists}
    # the lists' plain words first (so that they resolve), then made-up words
    known = sorted({e.text for es in entries.values() for e in es if e.text.isalpha()})
    words = known + [spell(i) for i in range(vocabulary - len(known))]
    counts = np.arange(vocabulary, 0, -1, dtype=np.int64) + 4
    buf = io.BytesIO()
    write_float32_npy_header(buf, (vocabulary, dim))
    header = buf.getvalue()
    vocab = pd.DataFrame({"embedding": "", "index": np.arange(vocabulary), "word": words,
                          "count": counts})  # fmt: skip
    for root in ("results/embeddings", "results/shared"):
        for name in EMBEDDINGS:
            d = folder / root / name
            sparse(d / "vectors.npy", len(header) + 4 * vocabulary * dim, header)
            write_table(vocab.assign(embedding=name), d / "vocab.parquet", "vocab")
            (d / "meta.json").write_text(json.dumps({"embedding": name, "words": vocabulary}))
    write_table(
        vocab.assign(embedding="shared"), folder / "results/shared/vocabulary.parquet", "vocab"
    )
    matcher = Matcher(words, "auto", counts)
    for name in lists:
        resolved = resolve(entries[name], words, list_name=name, embedding="", source=name,
                           counts=counts, matcher=matcher)  # fmt: skip
        for emb in EMBEDDINGS:
            write_table(resolved.assign(embedding=emb),
                        folder / f"results/concepts/{emb}/{name}.parquet",
                        "concept_words")  # fmt: skip
    return lists

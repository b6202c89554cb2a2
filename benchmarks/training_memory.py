"""The trainers' memory at enwiki's vocabulary: word2vec and fastText on 3,000,000 words
(GloVe on fewer: its 3 M-word weights alone are 29 GB), one epoch, against the analytic
models the workflow declares from (``learnability.pipeline.resources.training_memory_mb``).

Usage: python benchmarks/training_memory.py [--words 3000000] [--glove-words 1000000]
       [--methods word2vec,fasttext,glove] [--threads 2] [--dir DIR] [--smoke]

Writes a corpus in ``--dir`` (default: a temporary folder) in which each of ``--words``
made-up words occurs 6 times (so that min_count 5 keeps them all), shuffled, then trains
each method in a fresh process through ``learnability.embeddings.train`` with
config/paper.yaml's settings (dim 300, fastText's 2 M buckets) and one epoch, GloVe's
counting budget at the rehearsal's 1000 MB, while a thread samples the resident memory
of the process and its children (GloVe counts in worker processes). It prints each
method's peak beside its model, and their ratio; the baseline is the corpus-MB rule the
models replaced (4 GB plus the method's MB per corpus MB), blind to the vocabulary.
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import psutil
from peak import Peak
from toysize import add_smoke

from learnability.corpus.synthdump import spell_many
from learnability.embeddings import registry, train
from learnability.pipeline import resources as cost
from learnability.pipeline.params import embedding_params
from learnability.pipeline.planning import paper_config

REPO = Path(__file__).resolve().parents[1]
# the rule the analytic models replaced: 4000 MB and these MB per MB of gzipped corpus
# (the embedding registry's mem_per_mb then), the "old rule" column
OLD_MB_PER_CORPUS_MB = {"word2vec": 2, "fasttext": 3, "glove": 7}
OCCURRENCES = 6


def write_corpus(path: Path, words: int, seed: int = 0) -> int:
    """Each word ``OCCURRENCES`` times, shuffled, 1000 tokens a line; returns tokens."""
    rng = np.random.default_rng(seed)
    vocab = spell_many(np.arange(words))
    tokens = rng.permutation(np.repeat(np.arange(words, dtype=np.int32), OCCURRENCES))
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=1) as fh:
        for start in range(0, tokens.size, 1000):
            fh.write(" ".join(vocab[t] for t in tokens[start : start + 1000]) + "\n")
    return int(tokens.size)


def tree_rss() -> int:
    """The resident memory of this process and its children (GloVe counts in workers)."""
    total = 0
    for p in [psutil.Process(), *psutil.Process().children(recursive=True)]:
        try:
            total += p.memory_info().rss
        except psutil.Error:
            pass
    return total


def child(method: str, corpus: Path, threads: int, tmp: Path) -> None:
    cfg = paper_config(REPO)
    params = embedding_params(cfg, method)
    params.pop("threads")
    params.pop("method")
    params["epochs"] = 1
    # the rehearsal's counting budget: so small a corpus never fills paper.yaml's 16 GB,
    # which the model (a planning bound) counts in full
    count_mb = 1000
    t0 = time.perf_counter()
    with Peak(every=0.05, sample=tree_rss) as peak:
        emb = train(method, str(corpus), params, threads, count_memory_mb=count_mb,
                    tmpdir=str(tmp))  # fmt: skip
    print(json.dumps(dict(method=method, words=len(emb), dim=emb.dim, peak=peak.peak,
                          seconds=time.perf_counter() - t0, count_mb=count_mb,
                          bucket=params.get("bucket", 0))))  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=3_000_000)
    parser.add_argument("--glove-words", type=int, default=1_000_000)
    parser.add_argument("--methods", default="word2vec,fasttext,glove")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--dir", type=Path, help="where to write the corpora (default: tmp)")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    add_smoke(parser)
    args = parser.parse_args()
    if args.child:
        return child(args.child[0], Path(args.child[1]), args.threads, args.dir)
    if args.smoke:
        args.words, args.glove_words = 3_000, 2_000
    rows = []
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        corpora: dict[int, Path] = {}
        for method in args.methods.split(","):
            words = args.glove_words if method == "glove" else args.words
            if words not in corpora:
                corpora[words] = Path(tmp) / f"corpus-{words}.txt.gz"
                t0 = time.perf_counter()
                tokens = write_corpus(corpora[words], words)
                print(f"corpus of {words:,} words, {tokens:,} tokens in "
                      f"{time.perf_counter() - t0:.0f} s", flush=True)  # fmt: skip
            got = subprocess.run(
                [sys.executable, __file__, "--child", method, str(corpora[words]),
                 "--threads", str(args.threads), "--dir", tmp],
                capture_output=True, text=True, check=False,
            )  # fmt: skip
            if got.returncode:
                raise SystemExit(f"{method} failed:\n{got.stderr[-3000:]}")
            rows.append(json.loads(got.stdout.strip().splitlines()[-1]))
            print(f"  {method}: {rows[-1]['seconds']:.0f} s", flush=True)
    print(f"{'method':<10}{'words':>11}{'peak MB':>9}{'model':>8}{'ratio':>7}{'old rule':>10}")
    for r in rows:
        model = cost.training_memory_mb(r["method"], r["words"], r["dim"], args.threads,
                                        r["count_mb"], r["bucket"])  # fmt: skip
        entry = registry.method(r["method"])
        corpus_mb = r["words"] * OCCURRENCES / cost.TOKENS_PER_GZ_MB
        counting = r["count_mb"] if entry.counts_cooccurrence else 0
        old = 4000 + corpus_mb * OLD_MB_PER_CORPUS_MB[r["method"]] + counting
        print(f"{r['method']:<10}{r['words']:>11,}{r['peak'] / 1e6:>9,.0f}{model:>8,.0f}"
              f"{model / (r['peak'] / 1e6):>7.2f}{old:>10,.0f}")  # fmt: skip
    print("ratio model/peak: within 0.7-1.3 is what tests/test_resources.py asks of a model")


if __name__ == "__main__":
    main()

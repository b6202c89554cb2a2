"""Trainer throughput on the embedded Wikipedia sample, against gensim's word2vec.

Usage: python benchmarks/trainers.py [--threads N] [--epochs E] [--dim D]

Extracts the gensim sample into a temporary directory, then trains each trainer the
workflow offers with the default hyperparameters and prints wall time, words/s (corpus
words x epochs / seconds) and the ratio to the named baseline, gensim word2vec, measured
in the same run. The `fasttext` package (Facebook's, compiled at install time) is timed
too when it is installed (`pip install fasttext`), since the README compares against it.
"""

from __future__ import annotations

import argparse
import gzip
import shutil
import tempfile
import time
from pathlib import Path

import yaml

from learnability.corpus import extract_corpus
from learnability.download import resolve_package_path
from learnability.embeddings import train
from learnability.workflow_config import embedding_params

REPO = Path(__file__).resolve().parents[1]


def time_fasttext_package(corpus: Path, params: dict, threads: int) -> float | None:
    try:
        import fasttext
    except ImportError:
        return None
    plain = corpus.with_suffix("")
    with gzip.open(corpus, "rb") as src, open(plain, "wb") as dst:
        shutil.copyfileobj(src, dst)
    start = time.perf_counter()
    fasttext.train_unsupervised(
        str(plain),
        model="skipgram",
        dim=params["dim"],
        ws=params["window"],
        minCount=params["min_count"],
        epoch=params["epochs"],
        neg=params["negative"],
        t=params["sample"],
        lr=params["alpha"],
        minn=params["minn"],
        maxn=params["maxn"],
        bucket=params["bucket"],
        thread=threads,
        verbose=0,
    )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=None)
    parser.add_argument("--dim", type=int, default=None)
    args = parser.parse_args()
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    for key in ("epochs", "dim"):
        if getattr(args, key):
            config["training"][key] = getattr(args, key)
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "text.txt.gz"
        stats = extract_corpus(
            [resolve_package_path(config["dump"]["source"])], corpus, Path(tmp) / "stats.json"
        )
        print(f"corpus: {stats['tokens']:,} tokens, {args.threads} threads")
        results: dict[str, float] = {}
        for name in ("word2vec", "fasttext", "glove"):
            params = embedding_params(config, name)
            method = params.pop("method")
            params.pop("threads")
            start = time.perf_counter()
            train(method, str(corpus), params, args.threads)
            results[f"gensim {name}" if name != "glove" else "glove (bicleaner-ai-glove)"] = (
                time.perf_counter() - start
            )
        ft = time_fasttext_package(corpus, embedding_params(config, "fasttext"), args.threads)
        if ft is not None:
            results["fasttext package"] = ft
        base = results["gensim word2vec"]
        words = stats["tokens"] * config["training"]["epochs"]
        print(f"{'trainer':28s} {'seconds':>8s} {'words/s':>10s} {'vs gensim word2vec':>20s}")
        for name, seconds in results.items():
            rate = f"{words / seconds:10,.0f}" if "glove" not in name else f"{'n/a':>10s}"
            print(f"{name:28s} {seconds:8.1f} {rate} {seconds / base:19.2f}x")
        if ft is None:
            print("(fasttext package not installed: pip install fasttext to time it too)")


if __name__ == "__main__":
    main()

"""Trainer throughput on the embedded Wikipedia sample, against gensim's word2vec.

Usage: python benchmarks/trainers.py [--threads N] [--epochs E] [--dim D] [--smoke]

Extracts the gensim sample into a temporary directory, then trains every method of the
registry (learnability.embeddings.registry) with the default hyperparameters and prints
wall time, words/s (corpus words x epochs / seconds) and the ratio to the named baseline,
gensim word2vec, measured in the same run. Methods whose optional extra is not installed
(fasttext_facebook, glove_python) are named and skipped.
"""

from __future__ import annotations

import argparse
import importlib.util
import tempfile
import time
from pathlib import Path

import yaml
from toysize import add_smoke

from learnability.corpus.download import resolve_package_path
from learnability.corpus.extract import extract_corpus
from learnability.embeddings import registry, train
from learnability.pipeline.params import embedding_params

REPO = Path(__file__).resolve().parents[1]
IMPLEMENTATION = {
    "word2vec": "gensim",
    "fasttext": "gensim",
    "fasttext_facebook": "Facebook's fastText",
    "glove": "ours",
    "glove_python": "bicleaner-ai-glove",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=None)
    parser.add_argument("--dim", type=int, default=None)
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.epochs, args.dim = 1, 8
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    for key in ("epochs", "dim"):
        if getattr(args, key):
            config["training"][key] = getattr(args, key)
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "text.txt.gz"
        stats = extract_corpus(
            [resolve_package_path(config["corpus"]["source"]["path"])],
            corpus,
            Path(tmp) / "stats.json",
        )
        if args.smoke:  # the first 10 % of the tokens
            from learnability.corpus.extract import corpus_prefix

            short = Path(tmp) / "short.txt.gz"
            stats = corpus_prefix(corpus, short, Path(tmp) / "short.json", 0.1)
            corpus = short
        print(f"corpus: {stats['tokens']:,} tokens, {args.threads} threads")
        results: dict[str, float] = {}
        missing = []
        for name in registry.TRAINED:
            entry = registry.METHODS[name]
            if entry.package and importlib.util.find_spec(entry.package[0]) is None:
                missing.append(f"{name} (pip install -e '.[{entry.package[1]}]')")
                continue
            config["embeddings"][name] = {"method": name}
            params = embedding_params(config, name)
            params.pop("method")
            params.pop("threads")
            start = time.perf_counter()
            train(name, str(corpus), params, args.threads)
            results[f"{name} ({IMPLEMENTATION[name]})"] = time.perf_counter() - start
        base = results["word2vec (gensim)"]
        words = stats["tokens"] * config["training"]["epochs"]
        print(f"{'trainer':40s} {'seconds':>8s} {'words/s':>10s} {'vs gensim word2vec':>20s}")
        for name, seconds in results.items():
            # GloVe's epochs are passes over the co-occurrence matrix, not the corpus
            rate = f"{words / seconds:10,.0f}" if "glove" not in name else f"{'n/a':>10s}"
            print(f"{name:40s} {seconds:8.1f} {rate} {seconds / base:19.2f}x")
        for name in missing:
            print(f"not timed, its extra is not installed: {name}")


if __name__ == "__main__":
    main()

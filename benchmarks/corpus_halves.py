"""The corpus comparison's level on real text: two random halves of one corpus are the
same kind of text, so its per-list tests should find them different in at most 5 % of
lists at the 5 % level. Each replicate splits the sample's corpus (the Wikipedia
fragment `make run` extracts) into two halves of its lines at random, draws each half
five times at half its size (compare_corpora's defaults), trains word2vec on every draw
with the draw's seed, scores the shipped lists on the words all ten draws know, and tests
each list's difference as the workflow does (learnability.statistics.corpora). The
baseline, from the same replicates: the test on the draws' variance alone, without the
bound for each corpus' own sampling.

Usage: python benchmarks/corpus_halves.py [--replicates 20] [--iterations 100] [--smoke]

The tests of one replicate share its halves, so the standard errors printed (binomial
over every test) are somewhat too small.

Prints the share of tests below 0.05 for the workflow's test and for the baseline, each
with its binomial standard error, and their ratio. It reads
results/corpus/enwiki-sample/text.txt.gz (`make run`'s; else it extracts it); about 12 s a replicate
on 2 cores at the defaults (dim 100 to keep it short; the comparison's statistics do not
depend on the dimension)."""

from __future__ import annotations

import argparse
import gzip
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
from toysize import add_smoke

from learnability.concepts.lists import member_indices, resolve
from learnability.concepts.matching import Matcher
from learnability.corpus.lines import iter_lines
from learnability.corpus.sample import draw_budget, sample_documents
from learnability.embeddings.word2vec import train_word2vec
from learnability.inputs import as_lists
from learnability.protocol.evaluate import Protocol, evaluate_concept_full
from learnability.statistics.corpora import list_differences

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "results" / "corpus" / "enwiki-sample" / "text.txt.gz"
PARAMS = dict(dim=100, window=5, min_count=5, negative=5, sample=1e-3, alpha=0.025,
              min_alpha=1e-4, epochs=5)  # fmt: skip
DRAWS = 5
LEVEL = 0.05


def sample_corpus() -> Path:
    """The sample's corpus as `make run` extracts it, or extracted here (a few seconds)."""
    if CORPUS.exists():
        return CORPUS
    from learnability.corpus.download import resolve_package_path
    from learnability.corpus.extract import SAMPLE_DUMP, extract_corpus

    dump = resolve_package_path(SAMPLE_DUMP)
    out = Path(tempfile.mkdtemp()) / "text.txt.gz"
    extract_corpus([dump], out, out.with_name("stats.json"))
    return out


def write_lines(lines: list[list[str]], path: Path) -> None:
    """Each line a document of its own (an empty line after it): the halves and the
    draws are of the sample's paragraphs, as they were measured."""
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=1) as fh:
        fh.writelines(" ".join(line) + "\n\n" for line in lines)


def replicate(lines, rep: int, tmp: Path, entries: dict, iterations: int) -> pd.DataFrame:
    """One replicate's scores: (corpus, seed, list, mean AUC)."""
    order = np.random.default_rng(10_000 + rep).permutation(len(lines))
    halves = {"a": order[: len(order) // 2], "b": order[len(order) // 2 :]}
    sizes = {}
    for name, rows in halves.items():
        write_lines([lines[i] for i in sorted(rows)], tmp / f"{name}.txt.gz")
        sizes[name] = sum(len(lines[i]) for i in rows)
    tokens = draw_budget(list(sizes.values()), None)
    embeddings = {}
    for name in halves:
        for seed in range(1, DRAWS + 1):
            draw = tmp / f"{name}-{seed}.txt.gz"
            sample_documents(tmp / f"{name}.txt.gz", draw, tmp / "stats.json", tokens,
                         seed + 100 * rep)  # fmt: skip
            embeddings[name, seed] = train_word2vec(str(draw), {**PARAMS, "seed": seed}, 1)
    shared = set.intersection(*(set(e.words) for e in embeddings.values()))
    first = next(iter(embeddings.values()))
    words = [w for w in first.words if w in shared]
    counts = np.asarray([first.counts[first.index[w]] for w in words])
    vocab = pd.Index(words)
    matcher = Matcher(words, "auto", counts)
    members = {}
    for name, es in entries.items():
        resolved = resolve(es, words, list_name=name, embedding="", source=name,
                           counts=counts, matcher=matcher)  # fmt: skip
        idx = member_indices(resolved, vocab)
        if len(idx) >= 4:
            members[name] = idx
    protocol = Protocol(iterations=iterations, C=1.0, seed=2020)
    rows = []
    for (name, seed), emb in embeddings.items():
        vectors = np.ascontiguousarray(emb.vectors[[emb.index[w] for w in words]])
        for list_name, idx in members.items():
            result = evaluate_concept_full(vectors, idx, protocol, list_name=list_name,
                                           embedding=f"{name}-{seed}")  # fmt: skip
            rows.append({"negatives": "uniform", "embedding": "word2vec", "corpus": name,
                         "seed": seed, "list": list_name,
                         "mean": float(result.iterations["auc"].mean())})  # fmt: skip
    scores = pd.DataFrame(rows)
    draws = pd.DataFrame({"corpus": list(halves), "seed": 0, "tokens": tokens,
                          "corpus_tokens": [sizes[n] for n in halves]})  # fmt: skip
    bound = list_differences(scores, draws, ["a", "b"], "two-sided")
    alone = list_differences(scores, draws.assign(corpus_tokens=1e15), ["a", "b"], "two-sided")
    return pd.DataFrame({"replicate": rep, "list": bound["list"], "p": bound["p_value"],
                         "p_alone": alone["p_value"]})  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicates", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=100)
    add_smoke(parser)
    args = parser.parse_args()
    lines = list(iter_lines(sample_corpus()))
    reps, iterations = (1, 10) if args.smoke else (args.replicates, args.iterations)
    if args.smoke:
        lines = lines[: len(lines) // 4]
    entries = as_lists(REPO / "resources" / "wordlists")
    start = time.perf_counter()
    frames = []
    with tempfile.TemporaryDirectory() as tmp:
        for rep in range(reps):
            frames.append(replicate(lines, rep, Path(tmp), entries, iterations))
            print(f"replicate {rep + 1}/{reps}: {len(frames[-1])} lists, "
                  f"{time.perf_counter() - start:.0f} s", flush=True)  # fmt: skip
    out = pd.concat(frames, ignore_index=True)
    n = len(out)
    for label, column in (("the workflow's test (with the bound)", "p"),
                          ("baseline: the draws' variance alone", "p_alone")):  # fmt: skip
        rate = float((out[column] < LEVEL).mean())
        se = float(np.sqrt(max(rate * (1 - rate), 1e-12) / n))
        print(f"{label}: {rate:.3f} of {n} tests below {LEVEL} (SE {se:.3f})")
    bound, alone = ((out[c] < LEVEL).mean() for c in ("p", "p_alone"))
    print(f"ratio baseline/test: {alone / bound:.2f}" if bound else "ratio: no rejection")


if __name__ == "__main__":
    main()

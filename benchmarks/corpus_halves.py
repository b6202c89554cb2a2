"""The corpus comparison's level on real text: two random halves of one corpus are the
same kind of text, so its per-list tests should find them different in at most 5 % of
lists at the 5 % level.

Wikipedia (the default): each replicate splits the sample's corpus (the Wikipedia
fragment `make run` extracts) into two halves of its lines at random, draws each half
five times at half its size (compare_corpora's defaults), trains word2vec on every draw
with the draw's seed, scores the shipped lists on the words all ten draws know, and tests
each list's difference as the workflow does (learnability.statistics.corpora). The
baseline, from the same replicates: the test on the draws' variance alone, without the
bound for each corpus' own sampling.

--wrapped: the same on real hard-wrapped text that ships with every Python, its
language reference (pydoc_data.topics: 79 topics, 64,025 tokens in 8,253 lines with
tokens, wrapped at ~70 columns on Python 3.11.7; the text, the lists below and so the
figures follow the running Python), never written to the repository. Its documents are
its paragraphs, as `corpus.source.document: paragraph` makes them (2,607, ~3 wrapped lines each),
not its 79 topics (26 to 8,917 tokens, the five largest holding 28,000 of the 64,000): a
half's draw then holds hundreds of documents, as the bound's model of a draw (a sample of
many documents) has it, not a few dozen topics dominated by whichever large ones it
takes; and paragraphs are the shortest documents such text has above its lines, so the
gap between drawing lines and drawing documents is at its smallest here (topics or files
as documents would be expected to widen it). Each halving splits the paragraphs into two
random halves; each half is drawn five times at half its size (a) as the workflow draws
(whole paragraphs, wrapped lines joined: corpus.sample.sample_documents on the
extraction's corpus) and (b) as the code did before documents were drawn (the baseline:
the text as wrapped, each physical line a corpus line, lines drawn at random:
sample_lines_baseline below), with (c) the control between them: whole paragraphs of the
text as wrapped (sample_documents; each physical line still a sentence), which tells the
unit drawn from the training layout. word2vec (dim 50, 5 epochs, min_count 2 since a
draw has ~16,000 tokens, 1 thread) is trained on every draw, and lists are scored and
tested as above, each arm on the words its own ten draws know. The lists are those with
at least learnability.min_words words there: of the shipped ones few (this is not their
kind of text; it prints in how many halvings each was scored), and five of six taken from
the running Python itself, which the text covers: its keywords, built-in functions,
built-in types, built-in exceptions, built-in warnings (too few) and the special (dunder)
methods of the built-in types, each word in the earliest of them only. It also trains on
the whole text five times (seeds 1-5) as wrapped lines and as joined paragraphs and
prints each list's AUC for both layouts.

Usage: python benchmarks/corpus_halves.py [--replicates 20] [--iterations 100] [--smoke]
       python benchmarks/corpus_halves.py --wrapped [--replicates 150] [--smoke]

The tests of one replicate share its halves, so the standard errors printed for the
Wikipedia mode (binomial over every test) are somewhat too small; --wrapped prints the
standard error over halvings (each halving's tests a cluster) and the binomial one of the
share of halvings with a list past Holm.

Prints the share of tests below 0.05 for the workflow's test and for the baseline, each
with its standard error, and their ratio. Wikipedia reads
results/corpus/enwiki-sample/text.txt.gz (`make run`'s; else it extracts it); about 12 s a replicate
on 2 cores at the defaults (dim 100 to keep it short; the comparison's statistics do not
depend on the dimension). --wrapped: 1,116 s of CPU (one thread; 23 minutes on a shared
2-core machine) at the defaults, 150 halvings, about 7 s a halving; its measured figures
are quoted in docs/how-to/own-corpus.md."""

from __future__ import annotations

import argparse
import gzip
import io
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
from toysize import add_smoke

from learnability.concepts.lists import member_indices, resolve
from learnability.concepts.matching import Matcher
from learnability.corpus.lines import DOCUMENT_END, iter_documents, iter_lines
from learnability.corpus.sample import draw_budget, sample_documents
from learnability.embeddings.word2vec import train_word2vec
from learnability.inputs import as_lists
from learnability.io import atomic_path, write_json
from learnability.protocol.evaluate import Protocol, evaluate_concept_full
from learnability.protocol.sizes import MIN_WORDS
from learnability.statistics.corpora import list_differences

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "results" / "corpus" / "enwiki-sample" / "text.txt.gz"
PARAMS = dict(dim=100, window=5, min_count=5, negative=5, sample=1e-3, alpha=0.025,
              min_alpha=1e-4, epochs=5)  # fmt: skip
# --wrapped: a draw of the language reference has ~16,000 tokens (config/corpora.yaml's
# draws of 30,000 take min_count 2 for the same reason: more of the lists in every draw)
WRAPPED_PARAMS = {**PARAMS, "dim": 50, "min_count": 2}
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


def scored(embeddings: dict, entries: dict, iterations: int) -> pd.DataFrame:
    """Every list with at least learnability.min_words of its words known to all the
    draws, scored on those words in each draw: (corpus, seed, list, mean AUC)."""
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
        if len(idx) >= MIN_WORDS:
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
    return pd.DataFrame(rows, columns=["negatives", "embedding", "corpus", "seed", "list", "mean"])


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
    scores = scored(embeddings, entries, iterations)
    draws = pd.DataFrame({"corpus": list(halves), "seed": 0, "tokens": tokens,
                          "corpus_tokens": [sizes[n] for n in halves]})  # fmt: skip
    bound = list_differences(scores, draws, ["a", "b"], "two-sided")
    alone = list_differences(scores, draws.assign(corpus_tokens=1e15), ["a", "b"], "two-sided")
    return pd.DataFrame({"replicate": rep, "list": bound["list"], "p": bound["p_value"],
                         "p_alone": alone["p_value"]})  # fmt: skip


def wikipedia(args: argparse.Namespace) -> None:
    lines = list(iter_lines(sample_corpus()))
    reps, iterations = (1, 10) if args.smoke else (args.replicates or 20, args.iterations)
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


# --wrapped: Python's language reference, hard-wrapped as it ships


def python_lists() -> dict[str, list[str]]:
    """Word lists the language reference covers, from the running Python itself (no
    choice of words here): each word a token of the one rule, in the first list only."""
    import builtins
    import keyword
    import types

    from learnability.corpus.tokenize import tokenize

    named = vars(builtins)
    classes = {n: v for n, v in named.items() if isinstance(v, type) and not n.startswith("_")}
    raised = {n for n, v in classes.items() if issubclass(v, BaseException)}
    dunders = {n for v in classes.values() for n in dir(v) if n[:2] == n[-2:] == "__"}
    lists = {
        "keywords": keyword.kwlist,
        "builtin_functions": [n for n, v in named.items()
                              if isinstance(v, types.BuiltinFunctionType) and n[0] != "_"],
        "builtin_types": [n for n in classes if n not in raised],
        "exceptions": [n for n in raised if not n.endswith("Warning")],
        "warnings": [n for n in raised if n.endswith("Warning")],
        "special_methods": sorted(dunders),
    }  # fmt: skip
    seen: set[str] = set()
    out = {}
    for name, words in lists.items():
        tokens = [t for w in words for t in tokenize(w)]
        out[name] = sorted(set(tokens) - seen)
        seen |= set(tokens)
    return out


def reference_paragraphs(tmp: Path) -> tuple[list[list[list[str]]], dict]:
    """Python's language reference (pydoc_data.topics), one file a topic as it ships,
    extracted as the workflow extracts a folder of text with `corpus.source.document: paragraph`
    (wrapped lines joined): its paragraphs, each as the tokens of its wrapped physical
    lines (what a corpus line was before wraps were joined), checked against the
    extraction's documents token for token; and the extraction's stats."""
    from pydoc_data.topics import topics

    from learnability.corpus.documents import SourceOptions, is_blank
    from learnability.corpus.extract import extract_corpus
    from learnability.corpus.tokenize import tokenize

    folder = tmp / "topics"
    folder.mkdir()
    files, wrapped = [], []
    for name, text in sorted(topics.items()):
        files.append(folder / f"{name}.txt")
        files[-1].write_text(text, encoding="utf-8")
        held: list[list[str]] = []
        for line in [*text.split("\n"), ""]:  # (a blank at the end closes the last)
            if not is_blank(line):
                held.append(tokenize(line))
            elif any(held):
                wrapped.append([t for t in held if t])
                held = []
            else:
                held = []
    stats = extract_corpus(files, tmp / "joined.txt.gz", tmp / "joined.json", min_article_tokens=1,
                           source="text", options=SourceOptions(document="paragraph"))  # fmt: skip
    joined = [sum(doc, []) for doc in iter_documents(tmp / "joined.txt.gz")]
    if joined != [sum(doc, []) for doc in wrapped]:
        raise SystemExit("the wrapped lines' tokens are not the extraction's paragraphs")
    return wrapped, stats


def write_documents(documents: list[list[list[str]]], path: Path, wrap: bool) -> None:
    """A corpus as the extraction writes one: each document's lines (its wrapped lines
    if ``wrap``, else one line of them joined), then the empty line that ends it."""
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=1) as fh:
        for doc in documents:
            fh.writelines(" ".join(line) + "\n" for line in (doc if wrap else [sum(doc, [])]))
            fh.write(DOCUMENT_END)


def sample_lines_baseline(
    corpus: str | os.PathLike[str],
    out_text: str | os.PathLike[str],
    out_stats: str | os.PathLike[str],
    tokens: int,
    seed: int,
) -> dict[str, object]:
    """THE BASELINE, not the workflow: the draw as it was before documents were drawn
    (corpus.sample.sample_lines before commit 0441584, kept as it was): ``tokens`` tokens
    of ``corpus`` as random lines, in a random order (``seed``) until the budget is met,
    the last one cut to meet it exactly, written in the corpus' order without document
    boundaries. On hard-wrapped text a line is a wrapped physical line."""
    lengths = np.fromiter((len(line) for line in iter_lines(corpus)), dtype=np.int64)
    total = int(lengths.sum())
    order = np.random.default_rng(seed).permutation(lengths.size)
    drawn = np.cumsum(lengths[order])
    last = int(np.searchsorted(drawn, tokens))  # the first draw that meets the budget
    keep = np.zeros(lengths.size, dtype=np.int64)  # the tokens kept of each line
    keep[order[: last + 1]] = lengths[order[: last + 1]]
    keep[order[last]] -= int(drawn[last]) - tokens
    with atomic_path(out_text) as tmp:
        with (
            open(tmp, "wb") as fh,
            gzip.GzipFile(filename="", fileobj=fh, mode="wb", mtime=0, compresslevel=3) as raw,
            io.TextIOWrapper(raw, encoding="utf-8", newline="\n") as out,
        ):
            for n, line in zip(keep, iter_lines(corpus), strict=True):
                if n:
                    out.write(" ".join(line[:n]) + "\n")
    stats = {"tokens": tokens, "lines": last + 1, "seed": seed,
             "corpus_tokens": total, "corpus_lines": int(lengths.size)}  # fmt: skip
    write_json(stats, out_stats)
    return stats


# each arm: (the half's corpus wrapped as shipped or not, the draw)
ARMS = {
    "documents": (False, sample_documents),  # the workflow: paragraphs, wraps joined
    "lines": (True, sample_lines_baseline),  # the baseline: wrapped lines, drawn as lines
    "documents, wrapped": (True, sample_documents),  # the control: paragraphs, as wrapped
}
ARM_LABELS = {
    "documents": "(a) the workflow: whole paragraphs, wrapped lines joined",
    "lines": "(b) baseline, the old draw: wrapped physical lines",
    "documents, wrapped": "(c) control: whole paragraphs of the text as wrapped",
}


def halving(documents, rep: int, tmp: Path, entries: dict, iterations: int) -> pd.DataFrame:
    """One halving of the paragraphs, tested in each arm: (halving, arm, list, p, Holm)."""
    order = np.random.default_rng(20_000 + rep).permutation(len(documents))
    halves = {"a": np.sort(order[: len(order) // 2]), "b": np.sort(order[len(order) // 2 :])}
    sizes = {n: sum(len(t) for i in rows for t in documents[i]) for n, rows in halves.items()}
    tokens = draw_budget(list(sizes.values()), None)
    draws = pd.DataFrame({"corpus": list(halves), "seed": 0, "tokens": tokens,
                          "corpus_tokens": [sizes[n] for n in halves]})  # fmt: skip
    frames = []
    for arm, (wrap, draw_with) in ARMS.items():
        embeddings = {}
        for name, rows in halves.items():
            half = tmp / f"{name}.txt.gz"
            write_documents([documents[i] for i in rows], half, wrap)
            for seed in range(1, DRAWS + 1):
                draw = tmp / f"{name}-{seed}.txt.gz"
                draw_with(half, draw, tmp / "stats.json", tokens, seed + 100 * rep)
                params = {**WRAPPED_PARAMS, "seed": seed}
                embeddings[name, seed] = train_word2vec(str(draw), params, 1)
        scores = scored(embeddings, entries, iterations)
        if scores.empty:
            continue
        tested = list_differences(scores, draws, ["a", "b"], "two-sided")
        frames.append(pd.DataFrame({"halving": rep, "arm": arm, "list": tested["list"],
                                    "p": tested["p_value"], "holm": tested["p_holm"]}))  # fmt: skip
    return pd.concat(frames, ignore_index=True)


def layouts(documents, tmp: Path, entries: dict, iterations: int, seeds: int) -> pd.DataFrame:
    """The whole text trained on as wrapped (each physical line a sentence) and as
    joined paragraphs, ``seeds`` seeds each: every list's mean AUC over the seeds and
    their SD, on the words both know (the same: the two hold the same tokens)."""
    embeddings = {}
    for layout, wrap in (("wrapped", True), ("joined", False)):
        path = tmp / f"whole-{layout}.txt.gz"
        write_documents(documents, path, wrap)
        for seed in range(1, seeds + 1):
            params = {**WRAPPED_PARAMS, "seed": seed}
            embeddings[layout, seed] = train_word2vec(str(path), params, 1)
    scores = scored(embeddings, entries, iterations)
    return scores.groupby(["list", "corpus"])["mean"].agg(["mean", "std"]).unstack("corpus")


def share(out: pd.DataFrame) -> tuple[float, float, int, float, float, int]:
    """The share of tests below LEVEL with its standard error over halvings (each
    halving's tests a cluster: the ratio estimator's), the tests; the share of halvings
    with a list past Holm with its binomial standard error, the halvings."""
    per = out.groupby("halving").agg(r=("p", lambda p: int((p < LEVEL).sum())), n=("p", "size"))
    holm = out.groupby("halving")["holm"].min() < LEVEL
    h, n = len(per), int(per["n"].sum())
    rate = per["r"].sum() / n
    se = float(np.sqrt(((per["r"] - rate * per["n"]) ** 2).sum() * h / max(h - 1, 1)) / n)
    q = float(holm.mean())
    return float(rate), se, n, q, float(np.sqrt(max(q * (1 - q), 1e-12) / h)), h


def wrapped(args: argparse.Namespace) -> None:
    reps, iterations = (1, 10) if args.smoke else (args.replicates or 150, args.iterations)
    seeds = 1 if args.smoke else DRAWS
    lists = {**as_lists(REPO / "resources" / "wordlists"), **as_lists(python_lists())}
    start, cpu = time.perf_counter(), time.process_time()
    frames = []
    with tempfile.TemporaryDirectory() as tmp:
        documents, stats = reference_paragraphs(Path(tmp))
        print(f"Python {sys.version.split()[0]}'s language reference: {len(documents):,} "
              f"paragraphs, {sum(map(len, documents)):,} wrapped lines, {stats['tokens']:,} "
              "tokens", flush=True)  # fmt: skip
        table = layouts(documents, Path(tmp), lists, iterations, seeds)
        for rep in range(reps):
            frames.append(halving(documents, rep, Path(tmp), lists, iterations))
            print(f"halving {rep + 1}/{reps}: {time.perf_counter() - start:.0f} s", flush=True)
    out = pd.concat(frames, ignore_index=True)
    print(f"\nword2vec's AUC on the whole text, mean (SD) over seeds 1-{seeds}:")
    print("| list | wrapped lines | joined paragraphs |\n|---|---|---|")
    for name, row in table.iterrows():
        print(f"| {name} | {row['mean', 'wrapped']:.3f} ({row['std', 'wrapped']:.3f}) | "
              f"{row['mean', 'joined']:.3f} ({row['std', 'joined']:.3f}) |")  # fmt: skip
    gap = table["mean", "joined"] - table["mean", "wrapped"]
    print(f"joined - wrapped: {gap.mean():+.3f} on average over {len(gap)} lists "
          f"({gap.min():+.3f} to {gap.max():+.3f})\n")  # fmt: skip
    rates = {}
    for arm, label in ARM_LABELS.items():
        part = out[out["arm"] == arm]
        if part.empty:
            continue
        rate, se, n, q, qse, h = share(part)
        rates[arm] = rate
        counts = part.groupby("list")["halving"].nunique()
        print(f"{label}: {rate:.3f} of {n} tests below {LEVEL} (SE {se:.3f} over halvings); "
              f"{round(q * h)} of {h} halvings with a list past Holm ({q:.3f}, SE {qse:.3f}); "
              "lists: " + ", ".join(f"{k} ({v})" for k, v in counts.items()))  # fmt: skip
    a, b = rates.get("documents", 0.0), rates.get("lines", 0.0)
    print(f"ratio lines/documents (share below {LEVEL}): {b / a:.2f}" if a
          else "ratio lines/documents: no rejection with documents")  # fmt: skip
    print(f"{time.process_time() - cpu:.0f} s CPU, {time.perf_counter() - start:.0f} s wall")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wrapped", action="store_true",
                        help="halves of Python's hard-wrapped language reference, drawn by "
                        "documents and (the baseline) by wrapped lines")  # fmt: skip
    parser.add_argument("--replicates", type=int, default=None,
                        help="halvings (default 20; 150 with --wrapped)")  # fmt: skip
    parser.add_argument("--iterations", type=int, default=100)
    add_smoke(parser)
    args = parser.parse_args()
    (wrapped if args.wrapped else wikipedia)(args)


if __name__ == "__main__":
    main()

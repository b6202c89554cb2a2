"""Our GloVe against the GloVe authors' reference figures, and against glove-python.

Usage: python benchmarks/glove_vs_reference.py [--threads 2] [--corpus PATH] [--no-baseline]
           [--smoke]

The corpus is the gensim Wikipedia sample as gensim's WikiCorpus tokenises it (507
lines, 452,944 tokens), rebuilt from gensim's package data unless --corpus names a copy
(e.g. ../shared/reference/sample-corpus.txt.gz). With min_count 5, window 5, 300
dimensions, x_max 100, alpha 0.75, eta 0.05 and 15 iterations on 2 threads, the reference
implementation (glove.c) read 1,453,098 entries, printed the costs in REFERENCE_COST and
trained at about 267k entries/s. This prints our three figures beside those.

The reference's figures were measured elsewhere, not in this run. The baseline measured
in this run is glove-python (bicleaner-ai-glove, method glove_python) fitting its own
counts of the same corpus with the same settings: entries/s and the ratio to ours. It is
the optional glove_python extra (pip install -e '.[glove_python]'); without it, give
--no-baseline.
"""

from __future__ import annotations

import argparse
import importlib.util
import resource
import tempfile
import time
from pathlib import Path

import numpy as np
from toysize import add_smoke

from learnability.corpus.download import resolve_package_path
from learnability.corpus.extract import SAMPLE_DUMP as SAMPLE
from learnability.corpus.extract import write_wikicorpus_text
from learnability.embeddings.glove import count_for_glove, fit_glove

REFERENCE_ENTRIES = 1_453_098
REFERENCE_COST = [0.01801, 0.01550, 0.01362, 0.01193, 0.01117, 0.01066, 0.01030, 0.01000,
                  0.00979, 0.00960, 0.00939, 0.00920, 0.00899, 0.00878, 0.00859]  # fmt: skip
REFERENCE_RATE = 267_000  # entries/s, 2 threads, 81.7 s for 15 iterations
PARAMS = dict(dim=300, seed=1, x_max=100.0, alpha=0.75, learning_rate=0.05, epochs=15)


def time_glove_python(corpus: str, threads: int) -> tuple[int, float]:
    """(entries, seconds of fitting) for glove-python on its own counts of ``corpus``."""
    import scipy.sparse as sp
    from glove import Glove

    from learnability.corpus.cooccur import count_cooccurrences
    from learnability.corpus.lines import LineCorpus, count_vocabulary

    words, _ = count_vocabulary(corpus, 5)
    index = {w: i for i, w in enumerate(words)}
    rows, cols, vals, _ = count_cooccurrences(LineCorpus(corpus), index, 5, mode="glove_python")
    matrix = sp.coo_matrix((vals, (rows, cols)), shape=(len(words), len(words)))
    model = Glove(no_components=PARAMS["dim"], learning_rate=0.05, alpha=0.75, max_count=100.0,
                  random_state=1)  # fmt: skip
    start = time.perf_counter()
    model.fit(matrix, epochs=PARAMS["epochs"], no_threads=threads)
    return int(matrix.nnz), time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--corpus", help="a WikiCorpus-tokenised corpus (default: rebuild)")
    parser.add_argument("--no-baseline", action="store_true", help="skip glove-python")
    add_smoke(parser)
    args = parser.parse_args()
    if not args.no_baseline and importlib.util.find_spec("glove") is None:
        raise SystemExit(
            "glove_vs_reference.py: its baseline, glove-python, is the optional glove_python "
            "extra: pip install -e '.[glove_python]', or run with --no-baseline"
        )
    if args.smoke:  # two iterations of 20 dimensions
        PARAMS.update(dim=20, epochs=2)
    with tempfile.TemporaryDirectory() as tmp:
        corpus = args.corpus
        if corpus is None:
            corpus = str(Path(tmp) / "wikicorpus.txt.gz")
            shape = write_wikicorpus_text(resolve_package_path(SAMPLE), corpus)
            print(f"corpus: {shape['lines']} lines, {shape['tokens']:,} tokens (rebuilt)")
        start = time.perf_counter()
        words, _, buckets, info = count_for_glove(corpus, 5, 5, tmpdir=tmp)
        counting = time.perf_counter() - start
        print(f"vocabulary: {len(words):,} words; counting took {counting:.1f} s")
        print(f"\n{'':24}{'ours':>12}{'reference':>12}")
        print(f"{'entries':24}{info['entries']:>12,}{REFERENCE_ENTRIES:>12,}")
        # compile the kernel outside the timed run (numba caches it after the first run)
        warm = dict(PARAMS, dim=4, epochs=1)
        with buckets:
            fit_glove(buckets, len(words), warm, args.threads)
            start = time.perf_counter()
            _, history, skipped = fit_glove(buckets, len(words), PARAMS, args.threads)
            seconds = time.perf_counter() - start
        baseline = None if args.no_baseline else time_glove_python(corpus, args.threads)
    for it, (ours, ref) in enumerate(zip(history, REFERENCE_COST, strict=not args.smoke), 1):
        print(f"{'cost, iteration ' + str(it):24}{ours:>12.5f}{ref:>12.5f}")
    rate = info["entries"] * PARAMS["epochs"] / seconds
    print(f"{'entries/s':24}{rate:>12,.0f}{REFERENCE_RATE:>12,}")
    off = history[-1] / REFERENCE_COST[-1] - 1
    print(
        f"\nfinal cost {off:+.2%} from the reference's; {rate / REFERENCE_RATE:.2f}x its "
        f"throughput; {seconds:.1f} s for {PARAMS['epochs']} iterations on {args.threads} "
        f"threads; {skipped} steps skipped as non-finite; peak RSS "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB"
    )
    if baseline is not None:
        entries, gp_seconds = baseline
        gp_rate = entries * PARAMS["epochs"] / gp_seconds
        print(
            f"baseline glove-python (same run, its {entries:,} upper-triangle entries): "
            f"{gp_seconds:.1f} s, {gp_rate:,.0f} entries/s; ours/baseline "
            f"{rate / gp_rate:.2f}x entries/s (glove-python steps through half as many)"
        )
    assert np.isfinite(history).all()


if __name__ == "__main__":
    main()

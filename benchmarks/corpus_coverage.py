"""The lists' coverage in a corpus before training (rule corpus_coverage), measured on
the rehearsal's synthetic dumps: the rows of rule corpus_coverage in
benchmarks/measurements/rehearsal.csv, which tests/test_resources.py checks the rule's
model against (the rehearsal, benchmarks/scale.py, predates the rule).

    .venv/bin/python benchmarks/corpus_coverage.py                 # prints the rows
    .venv/bin/python benchmarks/corpus_coverage.py --write         # and replaces them
    .venv/bin/python benchmarks/corpus_coverage.py --sizes 16      # a quick look
    .venv/bin/python benchmarks/corpus_coverage.py --smoke         # every path, seconds

Each size: the dump scale.py rehearses (`learnability synthetic-dump`, its parts and seed,
cached in --work), each part extracted to its count table as the workflow's extract_part
does (config/paper.yaml's corpus settings), then the rule's own script run on them in a
fresh Python (config/paper.yaml's lists and min_count) under GNU time: wall, CPU and
peak resident memory, its outputs' size, and what its model declares at those sizes.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from toysize import add_smoke  # noqa: E402

from learnability.pipeline import resources as cost  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "benchmarks" / "out" / "scale"
REHEARSAL = REPO / "benchmarks" / "measurements" / "rehearsal.csv"
PARTS = 4  # scale.py's default

# the rule's work, as workflow/scripts/corpus_coverage.py does it
JOB = """
import json, sys
from learnability.concepts.corpus_coverage import corpus_coverage
from learnability.concepts.lists import load_entries
from learnability.schemas import write_table
args = json.loads(sys.argv[1])
lists = {n: load_entries(s["path"], s.get("category"), s.get("format", "auto"))
         for n, s in args["lists"].items()}
table = corpus_coverage(args["counts"], lists, {n: s["path"] for n, s in args["lists"].items()},
                        corpus="synthwiki", min_count=args["min_count"], min_words=4, case="auto")
write_table(table, args["out"], "coverage")
"""


def paper_lists() -> tuple[dict, int]:
    from learnability.pipeline.config import list_registry

    paper = yaml.safe_load((REPO / "config" / "paper.yaml").read_text())
    config = {"wordlists": {**paper["wordlists"], "dictionaries": []}}
    config["wordlists"]["dir"] = str(REPO / paper["wordlists"]["dir"])
    return list_registry(config), int(paper["training"]["min_count"])


def part_counts(size_mb: float, work: Path) -> list[Path]:
    """The dump's parts' count tables, extracted once and cached."""
    from learnability.corpus.extract import extract_corpus

    dump_dir = work / "dumps" / f"synthwiki-{size_mb:g}mb"
    if not (dump_dir / "synthetic.json").exists():
        subprocess.run([sys.executable, "-m", "learnability.cli", "synthetic-dump",
                        str(dump_dir), "--xml-mb", str(size_mb), "--parts", str(PARTS),
                        "--seed", "0", "--processes", "1"], check=True)  # fmt: skip
    counts = []
    for part in sorted(dump_dir.glob("*.bz2")):
        out = work / "coverage-counts" / f"{size_mb:g}mb" / f"{part.name}.counts.parquet"
        if not out.exists():
            out.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryDirectory() as tmp:
                extract_corpus(
                    [part],
                    Path(tmp) / "text.txt.gz",
                    Path(tmp) / "stats.json",
                    out_counts=out,
                    min_article_tokens=50,
                    max_line_tokens=1000,
                )
        counts.append(out)
    return counts


def measure(size_mb: float, work: Path) -> dict:
    counts = part_counts(size_mb, work)
    lists, min_count = paper_lists()
    with tempfile.TemporaryDirectory() as tmp:
        out, timing = Path(tmp) / "coverage.parquet", Path(tmp) / "time.txt"
        args = {"counts": [str(c) for c in counts], "lists": lists, "min_count": min_count,
                "out": str(out)}  # fmt: skip
        started = time.perf_counter()
        subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", "-o", str(timing),
                        sys.executable, "-c", JOB, json.dumps(args)], check=True)  # fmt: skip
        wall = time.perf_counter() - started
        _, user, system, peak_kb = timing.read_text().split()[-4:]
        disk_mb = out.stat().st_size / 1e6
    sizes = {"counts_mb": sum(c.stat().st_size for c in counts) / 1e6,
             "largest_mb": max(c.stat().st_size for c in counts) / 1e6}  # fmt: skip
    declared = cost.declare(cost.need("corpus_coverage", **sizes))
    return {
        "xml_mb": size_mb, "rule": "corpus_coverage", "job": f"corpus=synthwiki-{size_mb:g}mb",
        "threads": 1, "wall_s": round(wall, 2), "cpu_s": round(float(user) + float(system), 2),
        "rss_mb": round(int(peak_kb) / 1024, 1), "disk_mb": round(disk_mb, 2), "tmp_mb": 0.0,
        "declared_mem_mb": declared["mem_mb"], "declared_runtime": declared["runtime"],
        "declared_disk_mb": declared["disk_mb"], "sizes": json.dumps(sizes), "detail": "{}",
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[256, 512, 1024])
    parser.add_argument("--work", type=Path, default=OUT)
    parser.add_argument("--write", action="store_true", help=f"replace the rows in {REHEARSAL}")
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:  # a 2 MB dump in a folder of its own, the rehearsal left as it is
        args.sizes, args.write = [2], False
        args.work = Path(tempfile.mkdtemp(prefix="corpus-coverage-smoke-"))
    rehearsal = pd.read_csv(REHEARSAL)
    rows = []
    for size in args.sizes:
        row = measure(size, args.work)
        # the corpus' tokens and shared words as the rehearsal measured them at this size
        same = rehearsal[rehearsal["xml_mb"] == size]
        row["tokens"] = int(same["tokens"].iloc[0]) if len(same) else None
        row["words"] = int(same["words"].iloc[0]) if len(same) else None
        rows.append(row)
        print(json.dumps(row), flush=True)
    measured = pd.DataFrame(rows)[rehearsal.columns]
    declared_ok = (measured["rss_mb"] <= measured["declared_mem_mb"]) & (
        measured["wall_s"] / 60 <= measured["declared_runtime"]
    )
    print(
        f"within the declaration: {int(declared_ok.sum())} of {len(measured)}; peak "
        f"memory / declared: {(measured['rss_mb'] / measured['declared_mem_mb']).max():.2f}"
    )
    if args.write:
        kept = rehearsal[rehearsal["rule"] != "corpus_coverage"]
        pd.concat([kept, measured], ignore_index=True).to_csv(REHEARSAL, index=False)
        print(f"wrote {REHEARSAL}")


if __name__ == "__main__":
    main()

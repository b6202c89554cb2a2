"""A measured rehearsal of the full-scale run: the real workflow on synthetic Wikipedia
dumps of doubling size, each stage's time, memory and disk, their growth, and the
extrapolation to English Wikipedia beside what the rules declare.

    .venv/bin/python benchmarks/scale.py            # 256, 512 and 1024 MB of XML
    .venv/bin/python benchmarks/scale.py --quick    # the smallest size only

Each size: `learnability synthetic-dump` writes the parts (cached between runs), a
127.0.0.1 server serves them as a dump mirror, and Snakemake runs config/paper.yaml's
workflow on them (download, manifest, extraction, join, word2vec, fastText and GloVe,
the Gaussian baseline, the shared vocabulary, concepts, learnability and nulls with
both negatives schemes, evaluations, statistics, tables), with fewer epochs, splits and
random lists (printed): the cost of one epoch, split or list is what grows with the
corpus, and the extrapolation scales it back to the paper's counts. Per stage: wall and
CPU seconds and peak RSS from Snakemake's benchmark files, output bytes, and the peak
bytes under the jobs' tmpdir (GloVe's shards). Growth is a log-log least-squares slope
against tokens (or vocabulary, or co-occurrence entries), extrapolated to 2.6 B tokens,
2.5-3 M words and 1-3.5 B entries.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from toysize import add_smoke  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "benchmarks" / "out" / "scale"
ENWIKI = {"tokens": 2.6e9, "vocabulary": (2.5e6, 3.0e6), "entries": (1.0e9, 3.5e9)}
# what the rehearsal cuts, and the paper's counts it is scaled back to
PAPER = {"epochs": 5, "glove_epochs": 15, "iterations": 1000, "null_lists": 1000}
REHEARSAL = {"epochs": 1, "glove_epochs": 1, "iterations": 100, "null_lists": 20}
# what each stage's cost grows with
DRIVER = {
    "fetch_dump_part": "tokens",
    "extract_part": "tokens",
    "join_corpus": "tokens",
    "train_embedding/word2vec": "tokens",
    "train_embedding/fasttext": "tokens",
    "train_embedding/glove": "tokens",
    "random_embedding": "vocabulary",
    "shared_vocabulary": "vocabulary",
    "restrict_embedding": "vocabulary",
    "resolve_concept": "vocabulary",
    "learnability": "vocabulary",
    "null_distribution": "vocabulary",
    "codelength": "vocabulary",
    "evaluations": "vocabulary",
    "evaluations/pseudo": "vocabulary",
}
# the paper's count over the rehearsal's, per stage: what scales a measurement back
SCALE_BACK = {
    "train_embedding/word2vec": PAPER["epochs"] / REHEARSAL["epochs"],
    "train_embedding/fasttext": PAPER["epochs"] / REHEARSAL["epochs"],
    "train_embedding/glove": PAPER["glove_epochs"] / REHEARSAL["glove_epochs"],
    "learnability": PAPER["iterations"] / REHEARSAL["iterations"],
    "null_distribution": PAPER["null_lists"] / REHEARSAL["null_lists"],
}


def overlay(base_url: str, dump: str, cores: int, smoke: bool) -> dict:
    """config/paper.yaml's changes for a rehearsal on this machine."""
    cfg = {
        "dump": {"name": dump, "base_url": base_url, "status": "dumpstatus.json"},
        "training": {
            "epochs": REHEARSAL["epochs"],
            "threads": cores,
            # small enough that the largest size shards its counts to disk, as enwiki will
            "count_memory_mb": 1000,
            "glove": {"epochs": REHEARSAL["glove_epochs"]},
        },
        "learnability": {"iterations": REHEARSAL["iterations"], "threads": cores},
        "random_lists": {"lists": REHEARSAL["null_lists"]},
    }
    if smoke:
        cfg["training"].update(dim=20, min_count=2)
        cfg["embeddings"] = {
            "word2vec": {"method": "word2vec"},
            "random": {"method": "random", "reference": "word2vec", "seed": 7},
        }
        cfg["compare"] = {"embeddings": ["word2vec", "random"]}
        cfg["learnability"].update(iterations=10, bootstrap=20)
        cfg["random_lists"].update(lists=4, sizes=[20], match_sizes=False)
        cfg["codelength"] = {"enabled": False}
        cfg["evaluations"] = {"pseudo": {"enabled": False}}
        cfg["report"] = {"table_size": 20}
    return cfg


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(folder: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = functools.partial(_Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def tree_bytes(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            try:
                total += os.lstat(os.path.join(root, f)).st_size
            except FileNotFoundError:
                pass  # a shard deleted while we walked
    return total


class PeakWatcher(threading.Thread):
    """Polls the bytes under a folder twice a second; keeps the peak."""

    def __init__(self, folder: Path):
        super().__init__(daemon=True)
        self.folder, self.peak, self._done = folder, 0, threading.Event()

    def run(self) -> None:
        while not self._done.wait(0.5):
            self.peak = max(self.peak, tree_bytes(self.folder))

    def stop(self) -> int:
        self._done.set()
        self.join()
        return self.peak


def stage_of(bench: Path, root: Path) -> str:
    """benchmarks/out/train_embedding/glove.tsv -> train_embedding/glove; other rules by
    rule name (their wildcards summed over)."""
    parts = bench.relative_to(root).with_suffix("").parts
    if parts[0] == "train_embedding":
        return f"train_embedding/{parts[1]}"
    if parts[0] == "evaluations":
        return "evaluations/pseudo" if parts[-1] == "pseudo" else "evaluations"
    return parts[0]


# where each stage writes (relative to the run's folder), for its output bytes
OUTPUTS = {
    "fetch_dump_part": "resources/dumps",
    "extract_part": "results/corpus/{dump}/parts",
    "join_corpus": "results/corpus/{dump}/text.txt.gz",
    "train_embedding/word2vec": "results/embeddings/word2vec",
    "train_embedding/fasttext": "results/embeddings/fasttext",
    "train_embedding/glove": "results/embeddings/glove",
    "random_embedding": "results/embeddings/random",
    "restrict_embedding": "results/shared",
    "learnability": "results/learnability",
    "null_distribution": "results/null",
}


def measure(run: Path, dump: str) -> pd.DataFrame:
    root = run / "benchmarks" / "out"
    rows = []
    for bench in sorted(root.rglob("*.tsv")):
        t = pd.read_csv(bench, sep="\t")
        rows.append(
            {
                "stage": stage_of(bench, root),
                "wall_s": float(t["s"].iloc[0]),
                "cpu_s": float(t["cpu_time"].iloc[0]),
                "rss_mb": float(t["max_rss"].iloc[0]),
            }
        )
    jobs = pd.DataFrame(rows)
    out = jobs.groupby("stage").agg(
        jobs=("wall_s", "size"), wall_s=("wall_s", "sum"), cpu_s=("cpu_s", "sum"),
        rss_mb=("rss_mb", "max"),
    )  # fmt: skip
    out["output_mb"] = [
        tree_bytes(run / OUTPUTS[s].format(dump=dump)) / 1e6 if s in OUTPUTS else np.nan
        for s in out.index
    ]
    return out.reset_index()


def sizes_of(run: Path, dump: str, synthetic: dict) -> dict:
    stats = json.loads((run / f"results/corpus/{dump}/stats.json").read_text())
    sizes = {
        "xml_mb": synthetic["xml_bytes"] / 1e6,
        "bz2_mb": synthetic["bz2_bytes"] / 1e6,
        "tokens": stats["tokens"],
        "types_5": stats["types_with_count_at_least"]["5"],
    }
    for name in ("word2vec", "fasttext", "glove"):
        meta_path = run / f"results/embeddings/{name}/meta.json"
        if meta_path.exists():
            meta = json.loads(meta_path.read_text())
            sizes["vocabulary"] = meta["words"]
            if "cooccurrence_entries" in meta:
                sizes["entries"] = meta["cooccurrence_entries"]
    return sizes


def rehearse(size_mb: float, args, work: Path) -> dict:
    dump = f"synthwiki-{size_mb:g}mb"
    dump_dir = work / "dumps" / dump
    summary_path = dump_dir / "synthetic.json"
    if not summary_path.exists():
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "learnability.cli", "synthetic-dump", str(dump_dir),
             "--xml-mb", str(size_mb), "--parts", str(args.parts), "--seed", "0",
             "--processes", str(args.cores)],
            check=True,
        )  # fmt: skip
        print(f"  generated in {time.perf_counter() - started:.0f} s", flush=True)
    synthetic = json.loads(summary_path.read_text())
    run = work / f"run-{size_mb:g}mb"
    if run.exists():
        shutil.rmtree(run)
    (run / "tmp").mkdir(parents=True)
    server, url = serve(dump_dir)
    try:
        (run / "scale.yaml").write_text(
            yaml.safe_dump(overlay(url, dump, args.cores, args.smoke), sort_keys=False)
        )
        env = dict(os.environ, TMPDIR=str(run / "tmp"), PYTHONHASHSEED="0")
        watcher = PeakWatcher(run / "tmp")
        watcher.start()
        started = time.perf_counter()
        result = subprocess.run(
            [sys.executable, "-m", "snakemake", "--cores", str(args.cores),
             "--snakefile", str(REPO / "workflow" / "Snakefile"), "--directory", str(run),
             "--configfile", str(REPO / "config" / "paper.yaml"), str(run / "scale.yaml")],
            env=env, capture_output=True, text=True,
        )  # fmt: skip
        wall = time.perf_counter() - started
        tmp_peak = watcher.stop()
    finally:
        server.shutdown()
    (run / "snakemake.log").write_text(result.stderr)
    if result.returncode != 0:
        raise SystemExit(
            f"the workflow failed at {size_mb:g} MB: see {run / 'snakemake.log'}\n"
            + result.stderr[-3000:]
        )
    stages = measure(run, dump)
    sizes = sizes_of(run, dump, synthetic)
    print(
        f"  {sizes['tokens']:,} tokens, {sizes.get('vocabulary', 0):,} words, "
        f"{sizes.get('entries', 0):,} GloVe entries; workflow {wall:.0f} s, "
        f"tmpdir peak {tmp_peak / 1e6:.0f} MB",
        flush=True,
    )
    return {"size_mb": size_mb, "sizes": sizes, "wall_s": wall, "tmp_peak_mb": tmp_peak / 1e6,
            "stages": stages.to_dict("records")}  # fmt: skip


def slope(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Least-squares log-log fit: y = exp(a) x^b; returns (b, a)."""
    keep = (x > 0) & (y > 0)
    if keep.sum() < 2:
        return float("nan"), float("nan")
    b, a = np.polyfit(np.log(x[keep]), np.log(y[keep]), 1)
    return float(b), float(a)


def extrapolate(results: list[dict]) -> pd.DataFrame:
    """Per stage and metric: the slope against its driver, and the value at enwiki."""
    frames = []
    for r in results:
        df = pd.DataFrame(r["stages"])
        df["tokens"] = r["sizes"]["tokens"]
        df["vocabulary"] = r["sizes"].get("vocabulary", np.nan)
        df["entries"] = r["sizes"].get("entries", np.nan)
        frames.append(df)
    table = pd.concat(frames)
    rows = []
    for stage, g in table.groupby("stage"):
        driver = DRIVER.get(stage, "tokens")
        x = g[driver].to_numpy(dtype=float)
        targets = ENWIKI[driver] if isinstance(ENWIKI[driver], tuple) else (ENWIKI[driver],)
        row = {"stage": stage, "driver": driver}
        for metric in ("wall_s", "cpu_s", "rss_mb", "output_mb"):
            y = g[metric].to_numpy(dtype=float)
            b, a = slope(x, y)
            row[f"{metric}_slope"] = b
            factor = SCALE_BACK.get(stage, 1.0) if metric in ("wall_s", "cpu_s") else 1.0
            row[f"{metric}_enwiki"] = max(np.exp(a) * t**b for t in targets) * factor
        rows.append(row)
    return pd.DataFrame(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[256, 512, 1024],
                        help="MB of XML per rehearsal (256 512 1024)")  # fmt: skip
    parser.add_argument("--quick", action="store_true", help="the smallest size only")
    parser.add_argument("--parts", type=int, default=4, help="dump parts (4)")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--work", type=Path, default=OUT, help=f"working folder ({OUT})")
    add_smoke(parser)
    args = parser.parse_args()
    sizes = sorted(args.sizes)
    if args.smoke:
        sizes, args.parts = [1.0, 2.0], 2
    elif args.quick:
        sizes = sizes[:1]
    args.work.mkdir(parents=True, exist_ok=True)
    print(f"rehearsal: {REHEARSAL} (the paper: {PAPER}); {args.cores} cores", flush=True)
    results = []
    for size in sizes:
        print(f"{size:g} MB of XML:", flush=True)
        results.append(rehearse(size, args, args.work))
    (args.work / "measurements.json").write_text(json.dumps(results, indent=1) + "\n")
    report(results, args.work)
    return 0


def report(results: list[dict], work: Path) -> None:
    lines = ["| stage | " + " | ".join(f"{r['size_mb']:g} MB" for r in results) + " |"]
    lines.append("|---|" + "---:|" * len(results))
    for key in ("tokens", "vocabulary", "entries"):
        lines.append(
            f"| {key} | " + " | ".join(f"{r['sizes'].get(key, 0):,}" for r in results) + " |"
        )
    stages = sorted({s["stage"] for r in results for s in r["stages"]})
    by = [{s["stage"]: s for s in r["stages"]} for r in results]
    for stage in stages:
        cells = []
        for b in by:
            s = b.get(stage)
            cells.append(f"{s['wall_s']:.0f} s, {s['rss_mb']:.0f} MB" if s else "")
        lines.append(f"| {stage} | " + " | ".join(cells) + " |")
    table = "\n".join(lines)
    print("\nwall seconds (summed over a stage's jobs) and peak RSS per stage\n" + table)
    if len(results) > 1:
        ex = extrapolate(results)
        ex.to_csv(work / "extrapolation.csv", index=False)
        print("\nlog-log slopes and enwiki extrapolations (time scaled to the paper's counts)")
        print("| stage | driver | time slope | enwiki CPU h | memory slope | enwiki GB |")
        print("|---|---|---:|---:|---:|---:|")
        for _, r in ex.iterrows():
            print(
                f"| {r['stage']} | {r['driver']} | {r['cpu_s_slope']:.2f} | "
                f"{r['cpu_s_enwiki'] / 3600:.1f} | {r['rss_mb_slope']:.2f} | "
                f"{r['rss_mb_enwiki'] / 1000:.1f} |"
            )
    (work / "table.md").write_text(table + "\n")


if __name__ == "__main__":
    raise SystemExit(main())

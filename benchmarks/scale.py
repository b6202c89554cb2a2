"""A measured rehearsal of the full-scale run: the real workflow on synthetic Wikipedia
dumps of doubling size, each stage's time, memory and disk, their growth, and the
extrapolation to English Wikipedia beside what the rules declare.

    .venv/bin/python benchmarks/scale.py            # 256, 512 and 1024 MB of XML, probes
    .venv/bin/python benchmarks/scale.py --quick    # one 64 MB rehearsal, no probes
    .venv/bin/python benchmarks/scale.py --sizes 64 128 256

A size measured before in --work is read back (--rerun measures it again).

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
import base64
import functools
import http.server
import importlib.util
import json
import os
import re
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

from learnability.corpus.dumps import DEFAULT_PATTERN  # noqa: E402
from learnability.pipeline import resources as cost  # noqa: E402
from learnability.pipeline.planning import enwiki_counts, enwiki_files, fake_enwiki  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "benchmarks" / "out" / "scale"
# enwiki's figures, and its 57 files (config/paper.yaml's pin) with their bz2 bytes
ENWIKI = enwiki_counts(REPO)
ENWIKI_FILES = enwiki_files(REPO)
# the largest file's share of the dump: a per-file job's declaration is its
LARGEST_FILE_SHARE = max(ENWIKI_FILES.values()) / sum(ENWIKI_FILES.values())
QUICK_MB = 64.0
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
# what each stage's memory grows with, where not what its time grows with: a trainer
# holds vocabulary x dim matrices (and fastText its fixed hash buckets), whatever the
# corpus's length
MEMORY_DRIVER = {
    "extract_part": "part_tokens",
    "train_embedding/word2vec": "vocabulary",
    "train_embedding/fasttext": "vocabulary",
    "train_embedding/glove": "vocabulary",
}
# the driver of a stage's output bytes where it is not the time's: vectors grow with the
# vocabulary, not the corpus
OUTPUT_DRIVER = {
    "train_embedding/word2vec": "vocabulary",
    "train_embedding/fasttext": "vocabulary",
    "train_embedding/glove": "vocabulary",
    "restrict_embedding": "vocabulary",
}
# stages whose jobs are one per dump file: their summed time and output, scaled to
# enwiki's, times the largest file's share, compare with that job's declaration
PER_PART = ("fetch_dump_part", "extract_part")
# the paper's count over the rehearsal's, per stage: what scales a measurement back
SCALE_BACK = {
    "train_embedding/word2vec": PAPER["epochs"] / REHEARSAL["epochs"],
    "train_embedding/fasttext": PAPER["epochs"] / REHEARSAL["epochs"],
    "train_embedding/glove": PAPER["glove_epochs"] / REHEARSAL["glove_epochs"],
    "learnability": PAPER["iterations"] / REHEARSAL["iterations"],
    "null_distribution": PAPER["null_lists"] / REHEARSAL["null_lists"],
}


def overlay(base_url: str, dump: str, cores: int, quick: bool = False) -> dict:
    """config/paper.yaml's changes for a rehearsal on this machine; ``quick`` also leaves
    out what costs minutes whatever the size (the pseudo evaluation's neighbour searches,
    the codelength jobs, frequency-matched negatives' second set of fits)."""
    cfg = {
        "corpus": {
            "name": dump,
            # the synthetic dump's own: its numbered parts (articlesdump), no pin; a second
            # --configfile's corpus.source is merged into paper.yaml's, key by key
            "source": {
                "format": "mediawiki",
                "base_url": base_url,
                "status": "dumpstatus.json",
                "job": "articlesdump",
                "pattern": DEFAULT_PATTERN,
                "pinned": None,
            },
        },
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
    if quick:
        cfg["learnability"]["negatives"] = ["uniform"]
        cfg["codelength"] = {"enabled": False}
        cfg["evaluations"] = {"pseudo": {"enabled": False}}
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
        try:
            return path.stat().st_size
        except FileNotFoundError:
            return 0  # deleted since
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            try:
                total += os.lstat(os.path.join(root, f)).st_size
            except FileNotFoundError:
                pass  # a shard deleted while we walked
    return total


class PeakWatcher(threading.Thread):
    """Polls the bytes under a folder twice a second; keeps the peak, and each top-level
    entry's peak with when it was first and last seen (a job's own scratch folder:
    GloVe's ``cooccur-*``, the trainers' plain copies ``corpus-*``), for the jobs' scratch
    one by one."""

    def __init__(self, folder: Path):
        super().__init__(daemon=True)
        self.folder, self.peak, self._done = folder, 0, threading.Event()
        self.entries: dict[str, dict] = {}

    def run(self) -> None:
        while not self._done.wait(0.5):
            now, total = time.time(), 0
            for entry in list(self.folder.iterdir()):
                size = tree_bytes(entry)
                total += size
                seen = self.entries.setdefault(entry.name, {"first": now, "peak_bytes": 0})
                seen["last"] = now
                seen["peak_bytes"] = max(seen["peak_bytes"], size)
            self.peak = max(self.peak, total)

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
    "extract_part": "results/corpus/{corpus}/parts",
    "join_corpus": "results/corpus/{corpus}/text.txt.gz",
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
        tree_bytes(run / OUTPUTS[s].format(corpus=dump)) / 1e6 if s in OUTPUTS else np.nan
        for s in out.index
    ]
    return out.reset_index()


def started_ended(run: Path, output: str) -> tuple[float, float]:
    """When the job that made ``output`` started and ended (Snakemake's metadata)."""
    name = base64.urlsafe_b64encode(output.encode()).decode()
    record = json.loads((run / ".snakemake" / "metadata" / name).read_text())
    return record["starttime"], record["endtime"]


# the tmpdir entries each kind of training makes (the only jobs with scratch): GloVe's
# co-occurrence shards (corpus/cooccur.py), the plain-text copy (embeddings/_plain.py)
SCRATCH_PREFIX = {True: "cooccur-", False: "corpus-"}


def job_scratch(run: Path, job, peaks: dict, config: dict) -> float:
    """MB of a training job's peak scratch: the largest tmpdir entry of its kind first
    seen while it ran (other jobs, running beside it, have none)."""
    from learnability.embeddings import registry

    if job.rule != "train_embedding":
        return 0.0
    method = registry.method(config["embeddings"][job.wildcards["embedding"]]["method"])
    prefix = SCRATCH_PREFIX[method.counts_cooccurrence]
    start, end = started_ended(run, job.output[0])
    seen = [e["peak_bytes"] for name, e in peaks.items()
            if name.startswith(prefix) and start - 1 <= e["first"] <= end + 1]  # fmt: skip
    return max(seen, default=0) / 1e6


# what a training job's meta.json says of its phases, kept with its row
DETAIL = ("words", "cooccurrence_entries", "counting_seconds", "counting_processes",
          "training_seconds")  # fmt: skip


def training_detail(run: Path, job) -> dict:
    """A training job's vocabulary, GloVe's entries and its phases' seconds (meta.json)."""
    if job.rule != "train_embedding":
        return {}
    meta = json.loads(
        (run / f"results/embeddings/{job.wildcards['embedding']}/meta.json").read_text()
    )
    return {k: meta[k] for k in DETAIL if k in meta}


def job_table(run: Path, dump: str, size_mb: float, sizes: dict) -> pd.DataFrame:
    """One row per job of the rehearsal at ``run``: what it measured (wall and CPU seconds
    and peak RSS from its benchmark file, its outputs' bytes, its scratch's peak), what
    the cluster profile declares for it (a forced dry run on the finished folder), and
    the sizes its model takes (planning.job_sizes, stated from the run's files)."""
    from learnability.io import npy_shape
    from learnability.pipeline import planning

    configs = [REPO / "config" / "paper.yaml", run / "scale.yaml"]
    config = planning.paper_config(REPO, run / "scale.yaml")
    parts = pd.read_csv(run / f"resources/dumps/{dump}/manifest.tsv", sep="\t")
    words = {
        d.name: npy_shape(d / "vectors.npy")[0]
        for d in (run / "results/embeddings").iterdir()
        if (d / "vectors.npy").exists()
    }
    words["shared"], dim = npy_shape(next((run / "results/shared").glob("*/vectors.npy")))
    scale = planning.Scale(
        parts_mb=dict(zip(parts["name"], parts["size"] / 1e6, strict=True)),
        corpus_mb=(run / f"results/corpus/{dump}/text.txt.gz").stat().st_size / 1e6,
        words=words,
        dim=dim,
    )
    lists = len(list((run / "results/concepts/word2vec").glob("*.parquet")))
    peaks = json.loads((run / "tmp_peaks.json").read_text())
    rows = []
    # the checkpoints' jobs apart: forced with the rest, the jobs behind them would wait
    checkpoints = [
        j
        for j in planning.planned_jobs(
            planning.dry_run(REPO, run, configs, sorted(planning.CHECKPOINTS))
        )
        if j.rule in planning.CHECKPOINTS
    ]
    for job in planning.plan(REPO, run, configs) + checkpoints:
        bench = run / job.benchmark if job.benchmark else None
        if bench is None or not bench.exists():
            continue
        t = pd.read_csv(bench, sep="\t")
        declared = job.resources
        sizes_ = planning.job_sizes(job.rule, job.wildcards, config, lists, scale)
        rows.append({
            "xml_mb": size_mb, "tokens": sizes["tokens"], "words": words["shared"],
            "rule": job.rule,
            "job": ",".join(f"{k}={v}" for k, v in sorted(job.wildcards.items())),
            "threads": sizes_.get("threads", 1),
            "wall_s": round(float(t["s"].iloc[0]), 2),
            "cpu_s": round(float(t["cpu_time"].iloc[0]), 2),
            "rss_mb": round(float(t["max_rss"].iloc[0]), 1),
            "disk_mb": round(sum(tree_bytes(run / o) for o in job.output) / 1e6, 2),
            "tmp_mb": round(job_scratch(run, job, peaks, config), 1),
            "declared_mem_mb": int(declared["mem_mb"]),
            "declared_runtime": int(declared["runtime"]),
            "declared_disk_mb": int(declared["disk_mb"]),
            "sizes": json.dumps(sizes_, sort_keys=True),
            "detail": json.dumps(training_detail(run, job), sort_keys=True),
        })  # fmt: skip
    return pd.DataFrame(rows)


def sizes_of(run: Path, dump: str, synthetic: dict) -> dict:
    stats = json.loads((run / f"results/corpus/{dump}/stats.json").read_text())
    sizes = {
        "xml_mb": synthetic["xml_bytes"] / 1e6,
        "bz2_mb": synthetic["bz2_bytes"] / 1e6,
        "tokens": stats["tokens"],
        "types_5": stats["types_with_count_at_least"]["5"],
        "parts": synthetic["parts"],
    }
    for name in ("word2vec", "fasttext", "glove"):
        meta_path = run / f"results/embeddings/{name}/meta.json"
        if meta_path.exists():
            meta = json.loads(meta_path.read_text())
            sizes["vocabulary"] = meta["words"]
            if "cooccurrence_entries" in meta:
                sizes["entries"] = meta["cooccurrence_entries"]
                # counting runs once, iterations 15 times in the paper: timed apart
                # as one process would take: a run that counted by part in several
                # (meta's counting_processes) is scaled back by the measured speed-up
                processes = meta.get("counting_processes", 1)
                sizes["glove_counting_s"] = meta["counting_seconds"] / counting_share(processes)
                sizes["glove_iteration_s"] = meta["training_seconds"] / meta["params"]["epochs"]
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
    # a quick rehearsal runs fewer stages: never read back as a full one
    run = work / f"run-{size_mb:g}mb{'-quick' if args.quick else ''}"
    done = run / "measurement.json"
    if done.exists() and not args.rerun:
        print(f"  measured before: {done} (--rerun to measure again)", flush=True)
        measurement = json.loads(done.read_text())
        if not (run / "jobs.csv").exists() and not (args.smoke or args.quick):
            jobs_of(run, dump, measurement)
        return measurement
    if run.exists():
        shutil.rmtree(run)
    (run / "tmp").mkdir(parents=True)
    server, url = serve(dump_dir)
    try:
        (run / "scale.yaml").write_text(
            yaml.safe_dump(overlay(url, dump, args.cores, args.quick), sort_keys=False)
        )
        env = dict(os.environ, TMPDIR=str(run / "tmp"), PYTHONHASHSEED="0")
        watcher = PeakWatcher(run / "tmp")
        watcher.start()
        started = time.perf_counter()
        result = subprocess.run(
            [sys.executable, "-m", "snakemake",
             # --smoke: the corpus stages only (download, manifest, extraction, join)
             *([f"results/corpus/{dump}/stats.json"] if args.smoke else []),
             "--cores", str(args.cores),
             "--snakefile", str(REPO / "workflow" / "Snakefile"), "--directory", str(run),
             "--configfile", str(REPO / "config" / "paper.yaml"), str(run / "scale.yaml")],
            env=env, capture_output=True, text=True,
        )  # fmt: skip
        wall = time.perf_counter() - started
        tmp_peak = watcher.stop()
        (run / "tmp_peaks.json").write_text(json.dumps(watcher.entries, indent=1) + "\n")
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
    measurement = {"size_mb": size_mb, "sizes": sizes, "wall_s": wall,
                   "tmp_peak_mb": tmp_peak / 1e6, "stages": stages.to_dict("records")}  # fmt: skip
    done.write_text(json.dumps(measurement, indent=1) + "\n")
    if not (args.smoke or args.quick):
        jobs_of(run, dump, measurement)
    return measurement


def jobs_of(run: Path, dump: str, measurement: dict) -> None:
    """The run's job table (run/jobs.csv), where the cluster profile can be planned."""
    if importlib.util.find_spec("snakemake_executor_plugin_slurm") is None:
        print("  jobs: skipped, the declarations need the slurm extra", flush=True)
        return
    table = job_table(run, dump, measurement["size_mb"], measurement["sizes"])
    table.to_csv(run / "jobs.csv", index=False)
    print(f"  {len(table)} jobs measured: {run / 'jobs.csv'}", flush=True)


def slope(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Least-squares log-log fit: y = exp(a) x^b; returns (b, a)."""
    keep = (x > 0) & (y > 0)
    if keep.sum() < 2:
        return float("nan"), float("nan")
    b, a = np.polyfit(np.log(x[keep]), np.log(y[keep]), 1)
    return float(b), float(a)


def project(x: np.ndarray, y: np.ndarray, targets: tuple[float, ...]) -> float:
    """The larger of two fits at the largest target: the log-log power law, and a line
    (a fixed cost plus one proportional to the driver, as fastText's 2 M hash buckets
    plus its words, which a power law fitted where the fixed part dominates would bend
    below)."""
    keep = np.isfinite(x) & np.isfinite(y) & (x > 0) & (y > 0)
    if keep.sum() < 2:
        return float("nan")
    x, y = x[keep], y[keep]
    b, a = slope(x, y)
    m, c = np.polyfit(x, y, 1)
    return float(max(max(np.exp(a) * t**b, c + m * t) for t in targets))


def enwiki(driver: str) -> tuple[float, ...]:
    """The enwiki value(s) of a driver: a range's ends, or the one value."""
    value = ENWIKI[driver]
    return value if isinstance(value, tuple) else (value,)


def extrapolate(results: list[dict]) -> pd.DataFrame:
    """Per stage and metric: the slope against its driver, and the value at enwiki."""
    frames = []
    for r in results:
        df = pd.DataFrame(r["stages"])
        df["tokens"] = r["sizes"]["tokens"]
        df["vocabulary"] = r["sizes"].get("vocabulary", np.nan)
        df["entries"] = r["sizes"].get("entries", np.nan)
        df["part_tokens"] = r["sizes"]["tokens"] / r["sizes"].get("parts", 4)
        frames.append(df)
    table = pd.concat(frames)
    rows = []
    for stage, g in table.groupby("stage"):
        driver = DRIVER.get(stage, "tokens")
        row = {"stage": stage, "driver": driver}
        for metric in ("wall_s", "cpu_s", "rss_mb", "output_mb"):
            by = {"rss_mb": MEMORY_DRIVER, "output_mb": OUTPUT_DRIVER}.get(metric, {}).get(
                stage, driver
            )
            x, y = g[by].to_numpy(dtype=float), g[metric].to_numpy(dtype=float)
            targets = enwiki(by)
            row[f"{metric}_slope"] = slope(x, y)[0]
            factor = SCALE_BACK.get(stage, 1.0) if metric in ("wall_s", "cpu_s") else 1.0
            row[f"{metric}_enwiki"] = project(x, y, targets) * factor
        rows.append(row)
    # GloVe's two phases, from its meta: counting (once) grows with the tokens, an
    # iteration with the co-occurrence entries
    for key, driver, factor in (
        ("glove_counting_s", "tokens", 1.0),
        ("glove_iteration_s", "entries", PAPER["glove_epochs"]),
    ):
        points = [(r["sizes"].get(driver), r["sizes"].get(key)) for r in results]
        x, y = (np.array(v, dtype=float) for v in zip(*points, strict=True))
        targets = enwiki(driver)
        rows.append({"stage": f"glove: {key[6:-2]}", "driver": driver,
                     "wall_s_slope": slope(x, y)[0],
                     "wall_s_enwiki": project(x, y, targets) * factor})  # fmt: skip
    # GloVe's tmpdir (the rehearsal's peak, all GloVe's): bytes per co-occurrence entry,
    # the largest measured, times enwiki's entries (a power law fitted from a size whose
    # counts never spilled to disk would explode)
    # (none in a --smoke run, which stops at the corpus)
    per_entry = max((r["tmp_peak_mb"] / r["sizes"]["entries"] for r in results
                     if r["sizes"].get("entries")), default=np.nan)  # fmt: skip
    rows.append({"stage": "glove: tmpdir", "driver": "entries",
                 "output_mb_enwiki": per_entry * max(enwiki("entries"))})  # fmt: skip
    table = pd.DataFrame(rows)
    # a job's disk: its output, and GloVe's its tmpdir too; per part for per-part stages
    table["disk_mb_enwiki"] = table["output_mb_enwiki"]
    tmp = table["stage"] == "glove: tmpdir"
    glove_row = table["stage"] == "train_embedding/glove"
    if tmp.any() and glove_row.any():
        table.loc[glove_row, "disk_mb_enwiki"] += float(table.loc[tmp, "output_mb_enwiki"].iloc[0])
    part = table["stage"].isin(PER_PART)
    table.loc[part, "disk_mb_enwiki"] *= LARGEST_FILE_SHARE
    # GloVe's whole time scaled by 15 would count its counting 15 times: its CPU seconds
    # are the counting's (one process) plus the 15 iterations' on the 2 measured threads
    phases = table.set_index("stage")["wall_s_enwiki"]
    glove = table["stage"] == "train_embedding/glove"
    if glove.any() and {"glove: counting", "glove: iteration"} <= set(phases.index):
        table.loc[glove, "cpu_s_enwiki"] = (
            phases["glove: counting"] + 2 * phases["glove: iteration"]
        )
    return table


# the rules whose declarations the probe reads; the per-part and per-corpus ones keyed by
# rule alone (every part of the fake dump has the same size)
RESOURCE_RULES = (
    "extract_part",
    "join_corpus",
    "train_embedding",
    "random_embedding",
    "evaluate_pseudo",
)
ONE_KEY = ("extract_part", "join_corpus")


def probe_dry_runs(work: Path, vocabulary: int) -> dict:
    """`snakemake -n` on a fake enwiki results folder: the head node's time to build the
    DAG (every list's null key looked up in 2.5 M-word vocabularies), and the resources
    the README's cluster command gives the heavy jobs at enwiki's file sizes."""
    folder = work / "enwiki-probe"
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    started = time.perf_counter()
    fake_enwiki(folder, vocabulary, REPO / "resources" / "wordlists", REPO)
    seconds = time.perf_counter() - started
    print(f"  fake enwiki folder ({vocabulary:,} words) in {seconds:.0f} s")
    (folder / "probe.yaml").write_text(yaml.safe_dump({"training": {"threads": 16}}))
    base = [sys.executable, "-m", "snakemake", "-n", "--snakefile",
            str(REPO / "workflow" / "Snakefile"), "--directory", str(folder),
            "--configfile", str(REPO / "config" / "paper.yaml"),
            str(folder / "probe.yaml")]  # fmt: skip
    env = dict(os.environ, SBATCH_PARTITION="probe", PYTHONHASHSEED="0")
    started = time.perf_counter()
    plain = subprocess.run(base, env=env, capture_output=True, text=True)
    dag_s = time.perf_counter() - started
    if plain.returncode != 0:
        raise SystemExit(f"the dry run failed:\n{plain.stderr[-3000:]}")
    print(f"  snakemake -n on it: {dag_s:.1f} s (goal: under 60)")
    declared: dict = {}
    if importlib.util.find_spec("snakemake_executor_plugin_slurm") is None:
        # make run's environment: the cluster profile needs the slurm extra
        print("  declared resources: skipped, the cluster profile needs the slurm extra "
              "(pip install -e '.[slurm]')")  # fmt: skip
        return {"dag_seconds": dag_s, "declared": declared}
    profile = ["--profile", str(REPO / "profiles" / "slurm")]
    forced = subprocess.run([*base, *profile, "--forcerun", "extract_part", "join_corpus"],
                            env=env, capture_output=True, text=True)  # fmt: skip
    if forced.returncode != 0:
        raise SystemExit(f"the forced dry run failed:\n{forced.stderr[-3000:]}")
    log = forced.stdout + forced.stderr
    job = re.compile(r"^(?:local)?rule (\w+):\n((?:\s+.*\n)*?)\s+resources: (.*)$", re.M)
    for m in job.finditer(log):
        rule, body, res = m.group(1), m.group(2), m.group(3)
        if rule not in RESOURCE_RULES:
            continue
        wc = re.search(r"wildcards: (.*)", body)
        key = rule + (f"/{wc.group(1).split('=')[-1]}" if wc and rule not in ONE_KEY else "")
        wanted = ("mem_mb", "runtime", "disk_mb", "tmp_mb", "tmpdir")
        declared[key] = {k: v for k, v in re.findall(r"(\w+)=([^,]+)", res) if k in wanted}
    return {"dag_seconds": dag_s, "declared": declared}


def probe_jobs(work: Path, cores: int, lists: int = 100) -> dict:
    """Real jobs on the fake enwiki folder's full vocabulary (probe_dry_runs made it):
    the Gaussian baseline over it (real vectors, written in blocks), then one list's
    learnability job and one null job on those vectors, at the paper's splits and with
    ``lists`` random lists (time scaled back to the paper's 1000). Their benchmark files
    are the figures."""
    folder = work / "enwiki-probe"
    (folder / "jobs.yaml").write_text(
        yaml.safe_dump({"learnability": {"threads": cores}, "random_lists": {"lists": lists}})
    )
    targets = [
        "results/embeddings/random/vectors.npy",
        "results/concepts/random/affect.parquet",
        "results/learnability/random/affect/uniform/summary.parquet",
        "results/null/random/uniform/size-400.parquet",
    ]
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "snakemake", "--cores", str(cores), "--snakefile",
         str(REPO / "workflow" / "Snakefile"), "--directory", str(folder),
         "--configfile", str(REPO / "config" / "paper.yaml"), str(folder / "jobs.yaml"),
         "--forcerun", "random_embedding", "resolve_concept", "--allowed-rules",
         "random_embedding", "resolve_concept", "learnability", "null_distribution", "--",
         *targets],
        env=dict(os.environ, PYTHONHASHSEED="0"), capture_output=True, text=True,
    )  # fmt: skip
    if result.returncode != 0:
        raise SystemExit(f"the probe jobs failed:\n{result.stderr[-3000:]}")
    out = {}
    for rule, bench, factor in (
        ("random_embedding", "random_embedding/random.tsv", 1.0),
        ("resolve_concept", "resolve_concept/random/affect.tsv", 1.0),
        ("learnability", "learnability/random/affect/uniform.tsv", 1.0),
        ("null_distribution", "null_distribution/random/uniform/size-400.tsv",
         PAPER["null_lists"] / lists),
    ):  # fmt: skip
        t = pd.read_csv(folder / "benchmarks/out" / bench, sep="\t")
        out[rule] = {"wall_s": float(t["s"].iloc[0]) * factor,
                     "cpu_s": float(t["cpu_time"].iloc[0]) * factor,
                     "rss_mb": float(t["max_rss"].iloc[0])}  # fmt: skip
        print(f"  {rule} at full vocabulary: {out[rule]['wall_s']:.0f} s, "
              f"{out[rule]['rss_mb']:.0f} MB")  # fmt: skip
    print(f"  probe jobs in {time.perf_counter() - started:.0f} s")
    out["neighbours"] = probe_neighbours(folder / "results/embeddings/random/vectors.npy")
    return out


NEIGHBOUR_QUERIES, NEIGHBOURS = 1024, 100


def probe_neighbours(vectors_path: Path) -> dict:
    """The evaluations' neighbour search (top_k, as evaluate_pseudo calls it: k = 100) for
    NEIGHBOUR_QUERIES queries over the probe's full-vocabulary Gaussian vectors: seconds
    a query, which times the pseudo evaluation's queries (its triples, bounded by
    max_tokens, so about the rehearsal's whatever the corpus) give its search at enwiki."""
    from learnability.evaluations.neighbours import norms, top_k

    vectors = np.load(vectors_path, mmap_mode="r")
    started = time.perf_counter()
    row_norms = norms(vectors)
    queries = np.random.default_rng(0).choice(vectors.shape[0], NEIGHBOUR_QUERIES, replace=False)
    top_k(vectors, queries, NEIGHBOURS, row_norms=row_norms)
    wall = time.perf_counter() - started
    per_query = wall / NEIGHBOUR_QUERIES
    print(f"  neighbour search at full vocabulary: {per_query * 1000:.1f} ms a query "
          f"({NEIGHBOUR_QUERIES} queries, k {NEIGHBOURS}, norms included)")  # fmt: skip
    return {"wall_s": wall, "per_query_s": per_query, "queries": NEIGHBOUR_QUERIES}


def fit_training(jobs: pd.DataFrame) -> pd.DataFrame:
    """The trainers' rates fitted to the rehearsal's training jobs (one epoch, their
    threads at 75 %, the start-up taken off): tokens per second per thread at
    ``RATE_WORDS`` words and the log-log slope of its fall with the vocabulary; GloVe's
    counting pass apart (its meta.json's training seconds are the iteration), as
    ``learnability.embeddings.registry`` takes them."""
    rows = []
    train = jobs[jobs["rule"] == "train_embedding"]
    for method, group in train.groupby(train["job"].str.removeprefix("embedding=")):
        detail = [json.loads(d) for d in group["detail"]]
        words = np.array([d["words"] for d in detail], dtype=float)
        scaling = np.maximum(1.0, cost.THREAD_EFFICIENCY * group["threads"].to_numpy())
        work = group["wall_s"].to_numpy() - 60 * cost.STARTUP_MINUTES
        counting = np.zeros(len(group))
        if "counting_seconds" in detail[0]:
            iteration = np.array([d["training_seconds"] for d in detail])
            counting = work - iteration
            work = iteration
        per_thread = group["tokens"].to_numpy() / (work * scaling)
        b, a = slope(words, per_thread)
        row = {
            "method": method,
            "rate": float(np.exp(a) * cost.RATE_WORDS**b),
            "rate_slope": float(-b),
        }
        if counting.any():
            row["count_rate"] = float(np.median(group["tokens"].to_numpy() / (counting * scaling)))
        rows.append(row)
    return pd.DataFrame(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[256, 512, 1024],
                        help="MB of XML per rehearsal (256 512 1024)")  # fmt: skip
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"one {QUICK_MB:g} MB rehearsal of fewer stages, no probes",
    )
    parser.add_argument("--rerun", action="store_true",
                        help="measure again a size measured before in --work")  # fmt: skip
    parser.add_argument("--parts", type=int, default=4, help="dump parts (4)")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--work", type=Path, default=OUT, help=f"working folder ({OUT})")
    parser.add_argument("--vocabulary", type=int, default=2_500_000,
                        help="words of the full-vocabulary probes (2500000)")  # fmt: skip
    parser.add_argument("--no-probes", action="store_true", help="skip the probes")
    parser.add_argument("--jobs-csv", type=Path, default=None,
                        help="write every job's row here (the committed one: "
                        "benchmarks/measurements/rehearsal.csv)")  # fmt: skip
    add_smoke(parser)
    args = parser.parse_args()
    sizes = sorted(args.sizes)
    if args.smoke:
        sizes, args.parts = [1.0, 2.0], 2
    elif args.quick:
        sizes = [QUICK_MB]
    args.work.mkdir(parents=True, exist_ok=True)
    print(f"rehearsal: {REHEARSAL} (the paper: {PAPER}); {args.cores} cores", flush=True)
    results = []
    for size in sizes:
        print(f"{size:g} MB of XML:", flush=True)
        results.append(rehearse(size, args, args.work))
    probes = None
    if not (args.no_probes or args.quick):
        vocabulary = 20_000 if args.smoke else args.vocabulary
        print(f"probes at {vocabulary:,} words:", flush=True)
        probes = probe_dry_runs(args.work, vocabulary)
        # --smoke: 10 random lists (the suite checks that the probe runs, not its time)
        probes["jobs"] = probe_jobs(args.work, args.cores, 10 if args.smoke else 100)
    (args.work / "measurements.json").write_text(
        json.dumps({"sizes": results, "probes": probes}, indent=1) + "\n"
    )
    tables = [args.work / f"run-{r['size_mb']:g}mb" / "jobs.csv" for r in results]
    if args.jobs_csv and all(t.exists() for t in tables):
        jobs = pd.concat(map(pd.read_csv, tables))
        jobs.to_csv(args.jobs_csv, index=False)
        print(f"every job at every size: {args.jobs_csv}", flush=True)
        print("the trainers' rates fitted to them (learnability.embeddings.registry):")
        print(fit_training(jobs).to_string(index=False), flush=True)
    report(results, args.work, probes)
    return 0


# the declared job (probe_dry_runs) that each measured stage is compared with
DECLARED_AS = {
    "extract_part": "extract_part",
    "join_corpus": "join_corpus",
    "train_embedding/word2vec": "train_embedding/word2vec",
    "train_embedding/fasttext": "train_embedding/fasttext",
    "train_embedding/glove": "train_embedding/glove",
    "random_embedding": "random_embedding/random",
    "evaluations/pseudo": "evaluate_pseudo/glove",
}
# the thread scaling assumed from the 2 measured threads to a job's CPUs (its threads):
# the training model's (learnability.pipeline.resources)
THREAD_EFFICIENCY = cost.THREAD_EFFICIENCY


# GloVe's counting by dump part: the share of one process's time that its worker
# processes do not divide (the merge into buckets, most of the vocabulary pass's merging
# of the parts' counts), by phase: 0.26 from benchmarks/glove_counting.py on 2 cores
# (128 MB of XML in 4 parts: 18.4 s in one process, 9.8 s in two, 1.87x; the merge
# 1.9 s and 2.8 of the vocabulary pass's 4.0 s do not divide); Amdahl's law with it
COUNTING_SERIAL_SHARE = 0.26


def counting_share(processes: int) -> float:
    """The share of one process's counting time that counting in ``processes`` takes."""
    return COUNTING_SERIAL_SHARE + (1 - COUNTING_SERIAL_SHARE) / max(1, processes)


def need_minutes(row: pd.Series, cpus: int, table: pd.DataFrame) -> float:
    """A stage's enwiki wall minutes on ``cpus`` cores, from its scaled CPU seconds
    (GloVe's counting is by dump part, at most one process a part)."""
    if row["stage"] == "train_embedding/glove":
        phases = table.set_index("stage")["wall_s_enwiki"]
        iterations = 2 * phases["glove: iteration"] / max(1.0, THREAD_EFFICIENCY * cpus)
        counting = phases["glove: counting"] * counting_share(min(cpus, len(ENWIKI_FILES)))
        return (counting + iterations) / 60
    share = LARGEST_FILE_SHARE if row["stage"] in PER_PART else 1
    return row["cpu_s_enwiki"] * share / max(1.0, THREAD_EFFICIENCY * cpus) / 60


def pseudo_queries(work: Path, results: list[dict]) -> int:
    """The triples evaluate_pseudo asked in the largest full rehearsal (from its log)."""
    for r in sorted(results, key=lambda r: -r["size_mb"]):
        log = work / f"run-{r['size_mb']:g}mb/logs/evaluations/word2vec/pseudo.log"
        m = re.search(r"'triples': (\d+)", log.read_text()) if log.exists() else None
        if m:
            return int(m.group(1))
    return 0


def report(results: list[dict], work: Path, probes: dict | None = None) -> None:
    lines = ["| stage | " + " | ".join(f"{r['size_mb']:g} MB" for r in results) + " |"]
    lines.append("|---|" + "---:|" * len(results))
    for key in ("tokens", "vocabulary", "entries"):
        lines.append(
            f"| {key} | " + " | ".join(f"{r['sizes'].get(key, 0):,}" for r in results) + " |"
        )
    lines.append(
        "| workflow, tmpdir peak | "
        + " | ".join(f"{r['wall_s']:.0f} s, {r['tmp_peak_mb']:.0f} MB" for r in results)
        + " |"
    )
    stages = sorted({s["stage"] for r in results for s in r["stages"]})
    by = [{s["stage"]: s for s in r["stages"]} for r in results]
    for stage in stages:
        cells = []
        for b in by:
            s = b.get(stage)
            cells.append(f"{s['wall_s']:.0f} s, {s['rss_mb']:.0f} MB" if s else "")
        lines.append(f"| {stage} | " + " | ".join(cells) + " |")
    out = ["wall seconds (summed over a stage's jobs) and peak RSS per stage", "", *lines]
    if len(results) > 1:
        ex = extrapolate(results)
        ex.to_csv(work / "extrapolation.csv", index=False)
        declared = (probes or {}).get("declared", {})
        out += [
            "",
            "log-log slopes, and enwiki (2.6 B tokens, 2.5-3 M words) extrapolated: the "
            "larger of the power law and a line, time scaled to the paper's epochs, "
            "splits and lists; beside it what the cluster profile declares (probes)",
            "",
            "| stage | driver | time slope | memory slope | enwiki CPU h | enwiki GB "
            "| declared GB | enwiki h at declared cores | declared h | enwiki disk GB "
            "| declared disk GB |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for _, r in ex.iterrows():
            d = declared.get(DECLARED_AS.get(r["stage"], ""), {})
            # the plugin gives a job its threads: training's from the profile's set-threads
            cpus = 16 if r["stage"].startswith("train_embedding") else 1
            cells = [
                r["stage"], r["driver"], f"{r['wall_s_slope']:.2f}",
                f"{r.get('rss_mb_slope', np.nan):.2f}",
                f"{r.get('cpu_s_enwiki', np.nan) / 3600:.1f}",
                f"{r.get('rss_mb_enwiki', np.nan) / 1000:.1f}",
                f"{int(d['mem_mb']) / 1000:.1f}" if d else "",
                f"{need_minutes(r, cpus, ex) / 60:.1f}" if d else "",
                f"{int(d['runtime']) / 60:.1f}" if d else "",
                f"{r.get('disk_mb_enwiki', np.nan) / 1000:.1f}",
                f"{int(d['disk_mb']) / 1000:.1f}" if d and "disk_mb" in d else "",
            ]  # fmt: skip
            out.append("| " + " | ".join(cells) + " |")
    if probes:
        out += ["", f"`snakemake -n` on the enwiki-sized folder: {probes['dag_seconds']:.1f} s"]
        for rule, p in probes.get("jobs", {}).items():
            if rule == "neighbours":
                triples = pseudo_queries(work, results)
                line = (f"- the neighbour search at the full vocabulary (top 100): "
                        f"{p['per_query_s'] * 1000:.1f} ms a query")  # fmt: skip
                if triples:
                    line += (f"; evaluate_pseudo's {triples:,} queries (the largest "
                             f"rehearsal's): {p['per_query_s'] * triples / 60:.0f} min "
                             "an embedding on one core")  # fmt: skip
                out.append(line)
                continue
            out.append(
                f"- {rule} at the full vocabulary: {p['wall_s']:.0f} s, {p['rss_mb']:.0f} MB"
            )
    text = "\n".join(out) + "\n"
    print("\n" + text)
    (work / "report.md").write_text(text)
    figure(results, work)


# the stages drawn: those that grow (the rest are seconds whatever the size)
DRAWN = (
    "extract_part",
    "join_corpus",
    "train_embedding/word2vec",
    "train_embedding/fasttext",
    "train_embedding/glove",
    "evaluations/pseudo",
    "learnability",
    "null_distribution",
)


def figure(results: list[dict], work: Path) -> None:
    """Wall seconds and peak RSS of each growing stage against corpus tokens, log-log
    (scale.png, .svg, .pdf in the work folder)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tokens = [r["sizes"]["tokens"] for r in results]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), constrained_layout=True)
    for stage in DRAWN:
        rows = [{s["stage"]: s for s in r["stages"]}.get(stage) for r in results]
        if any(row is None for row in rows):
            continue
        for ax, metric in zip(axes, ("wall_s", "rss_mb"), strict=True):
            ax.plot(tokens, [row[metric] for row in rows], marker="o", label=stage)
    for ax, label in zip(axes, ("wall seconds (2 cores)", "peak RSS (MB)"), strict=True):
        ax.set(xscale="log", yscale="log", xlabel="corpus tokens", ylabel=label)
        ax.grid(True, which="both", alpha=0.3)
    axes[1].legend(fontsize=7, loc="best")
    fig.suptitle("benchmarks/scale.py: each stage against the synthetic corpus's size")
    for ext in ("png", "svg", "pdf"):
        fig.savefig(work / f"scale.{ext}", dpi=150)
    plt.close(fig)


if __name__ == "__main__":
    raise SystemExit(main())

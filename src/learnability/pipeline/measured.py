"""The rehearsal's measurements beside the cost models and the declarations: one row per
job of ``benchmarks/scale.py``'s runs (benchmarks/measurements/rehearsal.csv) with what it
measured, the sizes its model takes and what the cluster profile declared; the model's
need recomputed here from those sizes at the current code, so a changed model shows in
the table (``make docs`` writes it into docs/how-to/cluster.md) and in the suite's check
(tests/test_resources.py)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from learnability.pipeline import resources as cost

TABLE_BEGIN = "<!-- BEGIN rehearsal table -->"
TABLE_END = "<!-- END rehearsal table -->"
# where the page and the committed measurements live, from the repository's root
PAGE = "docs/how-to/cluster.md"
MEASUREMENTS = "benchmarks/measurements/rehearsal.csv"


def current(rule: str, sizes: dict) -> dict:
    """A job's sizes with its trainer's constants as the registry gives them now (the
    rest are the job's own: tokens, words, threads)."""
    if rule == "train_embedding":
        sizes = {**sizes, **cost.trainer_cost(sizes["method"]).sizes()}
    return sizes


def load(path: str | Path) -> pd.DataFrame:
    """The measurements with each job's need (``need_mem_mb``, ``need_runtime`` in
    minutes, ``need_disk_mb``, ``need_tmp_mb``) from its rule's model at its sizes."""
    frame = pd.read_csv(path)
    needs = [
        cost.need(r, **current(r, json.loads(s)))
        for r, s in zip(frame["rule"], frame["sizes"], strict=True)
    ]
    frame["need_mem_mb"] = [n.mem_mb for n in needs]
    frame["need_runtime"] = [n.runtime for n in needs]
    frame["need_disk_mb"] = [n.disk_mb for n in needs]
    frame["need_tmp_mb"] = [n.tmp_mb for n in needs]
    # what the rules declare for that need now (the CSV's declared_* are what the dry
    # run declared when the rehearsal ran)
    declared = [cost.declare(n) for n in needs]
    for key in ("mem_mb", "runtime", "disk_mb"):
        frame[f"now_{key}"] = [d[key] for d in declared]
    return frame


def by_rule(frame: pd.DataFrame) -> pd.DataFrame:
    """Per rule at the largest rehearsal: its jobs, and the largest of each figure among
    them (measured, model, declared): peak memory, wall minutes, outputs' disk and
    scratch."""
    largest = frame[frame["xml_mb"] == frame["xml_mb"].max()]
    return (
        largest.assign(wall_min=largest["wall_s"] / 60)
        .groupby("rule")
        .agg(
            jobs=("rule", "size"),
            rss_mb=("rss_mb", "max"),
            need_mem_mb=("need_mem_mb", "max"),
            declared_mem_mb=("now_mem_mb", "max"),
            wall_min=("wall_min", "max"),
            need_runtime=("need_runtime", "max"),
            declared_runtime=("now_runtime", "max"),
            disk_mb=("disk_mb", "max"),
            tmp_mb=("tmp_mb", "max"),
            need_disk_mb=("need_disk_mb", "max"),
            need_tmp_mb=("need_tmp_mb", "max"),
            declared_disk_mb=("now_disk_mb", "max"),
        )
        .reset_index()
    )


def _mb(x: float) -> str:
    return f"{x / 1000:.2f} GB" if x >= 1000 else f"{x:.0f} MB"


def _min(x: float) -> str:
    return f"{x:.1f}" if x < 10 else f"{x:.0f}"


def markdown(frame: pd.DataFrame) -> str:
    """The table of model, measured and declared for every rule, at the largest size."""
    size = frame["xml_mb"].max()
    top = frame[frame["xml_mb"] == size].iloc[0]
    lines = [
        f"Every job of the rehearsal at {size:g} MB of XML ({top['tokens'] / 1e6:.1f} M "
        f"tokens, {top['words']:,} shared words), the largest of each rule's jobs: "
        "measured (peak RSS, wall minutes on 2 cores, outputs and scratch), the model's "
        "need at the job's sizes, and what its rule declares for that need.",
        "",
        "| rule | jobs | memory: measured / model / declared | minutes: measured / model / "
        "declared | disk: measured / model / declared |",
        "|---|---:|---|---|---|",
    ]
    for _, r in by_rule(frame).iterrows():
        disk = r["disk_mb"] + r["tmp_mb"]
        need_disk = r["need_disk_mb"] + r["need_tmp_mb"]
        lines.append(
            f"| `{r['rule']}` | {r['jobs']} "
            f"| {_mb(r['rss_mb'])} / {_mb(r['need_mem_mb'])} / {_mb(r['declared_mem_mb'])} "
            f"| {_min(r['wall_min'])} / {_min(r['need_runtime'])} / {r['declared_runtime']} "
            f"| {_mb(disk)} / {_mb(need_disk)} / {_mb(r['declared_disk_mb'])} |"
        )
    return "\n".join(lines)


def _between(page: str, first: str, last: str, text: str) -> str:
    head, begin, rest = page.partition(first)
    _, end, tail = rest.partition(last)
    if not (begin and end):
        raise ValueError(f"{PAGE}: the markers {first} and {last} are missing")
    return f"{head}{first}\n{text}\n{last}{tail}"


def with_table(page: str, frame: pd.DataFrame) -> str:
    """``page`` with the table between its markers replaced by the current one."""
    return _between(page, TABLE_BEGIN, TABLE_END, markdown(frame))


# the rehearsal at enwiki's counts (benchmarks/counts.py): a row a stage
COUNTS_BEGIN = "<!-- BEGIN counts table -->"
COUNTS_END = "<!-- END counts table -->"
COUNTS = "benchmarks/measurements/counts.csv"


def counts_markdown(frame: pd.DataFrame) -> str:
    """The counts rehearsal's stages: what each counted, its wall time, the largest
    process and the most files one held open, against the limit it ran under."""
    lines = [
        "| stage | counted | wall | largest process | most open files (of the limit) |",
        "|---|---|---:|---:|---:|",
    ]
    for _, r in frame.iterrows():
        share = r["max_open_files"] / r["nofile"]
        lines.append(
            f"| {r['stage']} | {r['count']:,} {r['counted']} | {r['wall_s']:.0f} s "
            f"| {_mb(r['peak_rss_mb'])} | {r['max_open_files']} of {r['nofile']} ({share:.0%}) |"
        )
    return "\n".join(lines)


def with_counts_table(page: str, frame: pd.DataFrame) -> str:
    """``page`` with the counts table between its markers replaced by ``frame``'s."""
    return _between(page, COUNTS_BEGIN, COUNTS_END, counts_markdown(frame))


# the trainers' rates at enwiki's vocabulary (benchmarks/trainer_rates.py): a row a run,
# probes at 100 k to 3 M words and the workflow's own trainer at the baseline's
RATES = "benchmarks/measurements/trainer-rates.csv"
TRAINERS_BEGIN = "<!-- BEGIN trainers table -->"
TRAINERS_END = "<!-- END trainers table -->"
TRAINERS = ("word2vec", "fasttext", "glove")


@dataclass(frozen=True)
class RateFit:
    """A trainer's probes fitted as ``log rate = log rate_100k - slope * log(words /
    RATE_WORDS)`` by least squares, each estimate with its 95 % Student-t interval."""

    rate: float  # at cost.RATE_WORDS words, per thread
    rate_ci: tuple[float, float]
    slope: float
    slope_ci: tuple[float, float]
    at: float  # at ``words`` words (the mean rate the fit predicts there)
    at_ci: tuple[float, float]
    words: float
    baseline: float  # the workflow's trainer over the probe at the baseline's vocabulary
    unit: str  # "tokens", or GloVe's "entries"
    runs: int


def rate_fit(frame: pd.DataFrame, method: str, words: float) -> RateFit:
    """``method``'s fit from ``frame`` (trainer-rates.csv's rows), its rate predicted at
    ``words``, and the baseline's ratio: the workflow trainer's rate over the mean of the
    probes at the smallest vocabulary, which is the baseline's (the same run)."""
    from scipy import stats

    rows = frame[(frame["method"] == method) & (frame["what"] == "probe")]
    x = np.log(rows["words"].to_numpy(dtype=float) / cost.RATE_WORDS)
    y = np.log(rows["rate"].to_numpy(dtype=float))
    t = float(stats.t.ppf(0.975, len(rows) - 2))
    at100 = stats.linregress(x, y)
    # centred on the asked vocabulary, the intercept is the prediction there, and its
    # standard error the prediction's
    x0 = float(np.log(words / cost.RATE_WORDS))
    there = stats.linregress(x - x0, y)
    base = frame[(frame["method"] == method) & (frame["what"] == "workflow")]
    ratio = 1.0
    if len(base):
        small = rows[rows["words"] == rows["words"].min()]
        ratio = float(base["rate"].iloc[0] / small["rate"].mean())

    def interval(centre: float, se: float) -> tuple[float, float]:
        return float(np.exp(centre - t * se)), float(np.exp(centre + t * se))

    return RateFit(
        rate=float(np.exp(at100.intercept)),
        rate_ci=interval(at100.intercept, at100.intercept_stderr),
        slope=float(-at100.slope),
        slope_ci=(float(-at100.slope - t * at100.stderr), float(-at100.slope + t * at100.stderr)),
        at=float(np.exp(there.intercept)),
        at_ci=interval(there.intercept, there.intercept_stderr),
        words=words,
        baseline=ratio,
        unit=str(rows["unit"].iloc[0]),
        runs=len(rows),
    )


def _hours(minutes: float) -> str:
    return f"{minutes / 60:.1f} h"


def trainers_markdown(frame: pd.DataFrame, repo: Path) -> str:
    """The trainers at enwiki: each fit with its intervals, carried to the workflow's
    trainer by the baseline, beside what the model needs and the rule declares for the
    paper's training (config/paper.yaml's epochs and threads)."""
    from learnability.pipeline.planning import (
        ENWIKI_WORDS,
        enwiki_job_sizes,
        paper_config,
    )

    config = paper_config(repo)
    lines = [
        "| trainer | probes | rate at 100 k words (95 %) | slope (95 %) | at 3 M words (95 %) "
        "| workflow / probe | model at 3 M | need | declared | memory need / declared "
        "| scratch need / declared |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for method in TRAINERS:
        fit = rate_fit(frame, method, ENWIKI_WORDS)
        trainer = cost.trainer_cost(method)
        model_at = trainer.rate * (ENWIKI_WORDS / cost.RATE_WORDS) ** -trainer.rate_slope
        need = cost.need(
            "train_embedding",
            **enwiki_job_sizes("train_embedding", {"embedding": method}, config, 8, repo),
        )
        declared = cost.declare(need)
        unit = "entries" if fit.unit == "entries" else "tokens"
        lines.append(
            f"| {method} | {fit.runs} | {fit.rate:,.0f} ({fit.rate_ci[0]:,.0f}-"
            f"{fit.rate_ci[1]:,.0f}) {unit}/s | {fit.slope:.2f} ({fit.slope_ci[0]:.2f}-"
            f"{fit.slope_ci[1]:.2f}) | {fit.at:,.0f} ({fit.at_ci[0]:,.0f}-{fit.at_ci[1]:,.0f}) "
            f"| {fit.baseline:.2f} | {model_at:,.0f} | {_hours(need.runtime)} "
            f"| {_hours(declared['runtime'])} | {_mb(need.mem_mb)} / {_mb(declared['mem_mb'])} "
            f"| {_mb(need.tmp_mb)} / {_mb(declared['tmp_mb'])} |"
        )
    return "\n".join(lines)


def with_trainers_table(page: str, frame: pd.DataFrame, repo: Path) -> str:
    """``page`` with the trainers' table between its markers replaced by ``frame``'s."""
    return _between(page, TRAINERS_BEGIN, TRAINERS_END, trainers_markdown(frame, repo))

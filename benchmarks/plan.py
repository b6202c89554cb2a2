"""The paper's run planned at enwiki's size with many lists: how many jobs each rule
plans, what each declares, and the CPU hours its model gives, for config/paper.yaml with
``--lists`` made-up lists in place of the shipped eight.

Usage: python benchmarks/plan.py [--lists 200] [--words 3000000] [--smoke]

Writes a results folder with enwiki's file sizes as holes and real 3 M-word vocabularies
(learnability.pipeline.planning.fake_enwiki; the lists' sizes log-uniform between 20 and
500 words, as LIWC's categories are), plans the run with the cluster profile's forced
dry runs (learnability.pipeline.planning.plan), and prints per rule: its jobs (local ones
run on the submitting node), the largest memory and runtime any of them declares, the
CPU hours SLURM books for them (declared runtime times threads) and what their models
need (learnability.pipeline.planning.enwiki_job_sizes: each job's sizes at enwiki's).
The baseline is the same plan with the shipped eight lists, run beside it: the ratio
says how the run grows with its lists.
"""

from __future__ import annotations

import argparse
import tempfile
from collections import defaultdict
from pathlib import Path

import numpy as np
import yaml
from toysize import add_smoke

from learnability.analyses.registry import ANALYSES
from learnability.corpus.synthdump import spell
from learnability.pipeline import resources as cost
from learnability.pipeline.planning import (
    ENWIKI_WORDS,
    Job,
    enwiki_job_sizes,
    fake_enwiki,
    local_rules,
    paper_config,
    plan,
)

REPO = Path(__file__).resolve().parents[1]
PAPER = REPO / "config" / "paper.yaml"


def write_lists(folder: Path, lists: int, seed: int = 0) -> Path:
    """``lists`` word lists of made-up words (outside the filler's range, so each is in
    the vocabulary once), sizes log-uniform in 20-500."""
    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True)
    word = 10_000_000
    for k in range(lists):
        size = int(np.exp(rng.uniform(np.log(20), np.log(500))))
        words = [spell(word + i) for i in range(size)]
        word += size
        (folder / f"list{k:03d}.txt").write_text("\n".join(words) + "\n")
    return folder


def threads_of(rule: str, config: dict) -> int:
    if rule == "train_embedding":
        return int(config["training"]["threads"])
    fitting = {"learnability", "learning_curve", "null_distribution", "sweep_scores"}
    if rule in fitting or (rule in ANALYSES and ANALYSES[rule].fits):
        return int(config["learnability"]["threads"])
    return 1


def summarise(jobs: list[Job], config: dict, lists: int) -> dict[str, dict]:
    rows: dict[str, dict] = defaultdict(
        lambda: dict(jobs=0, local=0, mem=0, runtime=0, booked_h=0.0, cpu_h=0.0)
    )
    local = local_rules(REPO)
    for job in jobs:
        r = rows[job.rule]
        r["jobs"] += 1
        r["local"] += job.rule in local
        mem, runtime = job.resources.get("mem_mb", ""), job.resources.get("runtime", "")
        if mem.isdigit():
            r["mem"] = max(r["mem"], int(mem))
        if runtime.isdigit():
            r["runtime"] = max(r["runtime"], int(runtime))
            threads = threads_of(job.rule, config)
            r["booked_h"] += int(runtime) / 60 * threads
        need = cost.need(job.rule, **enwiki_job_sizes(job.rule, job.wildcards, config, lists, REPO))
        r["cpu_h"] += need.runtime / 60 * threads_of(job.rule, config)
    return dict(rows)


def one_plan(work: Path, words: int, lists: int | None) -> dict[str, dict]:
    folder = work / f"enwiki-{lists or 'shipped'}"
    folder.mkdir()
    configs = [PAPER]
    if lists:
        lists_dir = write_lists(work / f"lists-{lists}", lists)
        (folder / "plan.yaml").write_text(
            yaml.safe_dump({"wordlists": {"dir": str(lists_dir), "dictionaries": []}})
        )
        configs.append(folder / "plan.yaml")
    else:
        lists_dir = REPO / "resources" / "wordlists"
    names = fake_enwiki(folder, words, lists_dir, REPO)
    config = paper_config(REPO, *configs[1:])
    return summarise(plan(REPO, folder, configs), config, len(names))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lists", type=int, default=200)
    parser.add_argument("--words", type=int, default=ENWIKI_WORDS)
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.lists, args.words = 12, 20_000
    with tempfile.TemporaryDirectory() as tmp:
        many = one_plan(Path(tmp), args.words, args.lists)
        shipped = one_plan(Path(tmp), args.words, None)
    print(f"config/paper.yaml with {args.lists} lists at {args.words:,} words x 300 "
          "(enwiki's file sizes)")  # fmt: skip
    print(f"{'rule':<24}{'jobs':>6}{'local':>6}{'max GB':>8}{'max h':>7}{'booked':>8}"
          f"{'need':>8}  (CPU h)")  # fmt: skip
    for rule, r in sorted(many.items(), key=lambda kv: -kv[1]["cpu_h"]):
        print(f"{rule:<24}{r['jobs']:>6}{r['local']:>6}{r['mem'] / 1000:>8.1f}"
              f"{r['runtime'] / 60:>7.1f}{r['booked_h']:>8.1f}{r['cpu_h']:>8.1f}")  # fmt: skip
    keys = ("jobs", "local", "booked_h", "cpu_h")
    total = {k: sum(r[k] for r in many.values()) for k in keys}
    base = {k: sum(r[k] for r in shipped.values()) for k in keys}
    print(f"{'total':<24}{total['jobs']:>6}{total['local']:>6}{'':>15}"
          f"{total['booked_h']:>8.1f}{total['cpu_h']:>8.1f}")  # fmt: skip
    print(f"the shipped 8 lists: {base['jobs']} jobs ({base['local']} local), "
          f"{base['booked_h']:.1f} CPU h booked, {base['cpu_h']:.1f} needed")  # fmt: skip
    print(f"ratio {args.lists} lists / 8: {total['jobs'] / base['jobs']:.1f}x the jobs, "
          f"{total['cpu_h'] / base['cpu_h']:.1f}x the CPU hours")  # fmt: skip


if __name__ == "__main__":
    main()

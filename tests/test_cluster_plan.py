"""The paper's run planned at enwiki's sizes: the documented cluster command, forced and
dry, on a results folder with English Wikipedia's file sizes (as holes) and 3 M-word
vocabularies (learnability.pipeline.planning). Every job it plans must have a resource
model, and declare memory, runtime and disk at least 1.3x what its model needs at the
sizes this test states for it (not the sizes the rules read: a rule that reads the wrong
file, or a declaration written by hand in a rule or the profile, fails here), and leave
its CPUs to its threads.

The plan is two dry runs (learnability.pipeline.planning.plan): the checkpoints (the
dump's manifest, each list resolved) must be done for the jobs behind them to be
planned."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pytest
import yaml
from conftest import REPO

from learnability.analyses.base import JobSize
from learnability.analyses.registry import ANALYSES
from learnability.embeddings import registry
from learnability.pipeline import resources as cost
from learnability.pipeline.planning import (
    CHECKPOINTS,
    ENWIKI_BZ2,
    ENWIKI_DIM,
    ENWIKI_GZ,
    ENWIKI_PARTS,
    ENWIKI_WORDS,
    UPSTREAM,
    dry_run,
    fake_enwiki,
    plan,
    planned_jobs,
    workflow_rules,
)

pytestmark = pytest.mark.timeout(600)

# what every declaration must cover of its model's need (the margin, written here
# and not read from the models, so that lowering theirs fails this test)
REQUIRED = 1.3

PAPER_YAML = REPO / "config" / "paper.yaml"
PAPER = yaml.safe_load(PAPER_YAML.read_text())
DEFAULTS = yaml.safe_load((REPO / "config" / "config.yaml").read_text())


def paper(*keys):
    """A key of config/paper.yaml, or of config/config.yaml that it is merged into."""
    for cfg in (PAPER, DEFAULTS):
        node = cfg
        try:
            for k in keys:
                node = node[k]
            return node
        except KeyError:
            continue
    raise KeyError(keys)


def enwiki_sizes(rule: str, wildcards: dict[str, str], lists: int) -> dict:
    """The sizes of one job of the paper's run at enwiki's size, as this test states them."""
    shape = dict(words=ENWIKI_WORDS, dim=ENWIKI_DIM)
    part_mb = ENWIKI_BZ2 / ENWIKI_PARTS / 1e6
    threads = paper("learnability", "threads")
    if rule in ("fetch_dump_part",):
        return dict(size_mb=part_mb)
    if rule == "extract_part":
        return dict(part_mb=part_mb)
    if rule == "join_corpus":
        return dict(tokens=ENWIKI_GZ / 1e6 * cost.TOKENS_PER_GZ_MB, text_mb=ENWIKI_GZ / 1e6)
    if rule == "train_embedding":
        method = registry.method(paper("embeddings", wildcards["embedding"], "method"))
        epochs = paper("training", "epochs")
        if method.name == "glove":
            epochs = paper("training", "glove", "epochs")
        return dict(
            corpus_mb=ENWIKI_GZ / 1e6, epochs=epochs, threads=16, rate=method.rate,
            mem_per_mb=method.mem_per_mb,
            counting_mb=paper("training", "count_memory_mb") if method.counts_cooccurrence else 0,
            counts_cooccurrence=method.counts_cooccurrence, plain_copy=method.plain_copy,
        )  # fmt: skip
    if rule in ("random_embedding", "restrict_embedding", "explorer"):
        return shape
    if rule in ("shared_vocabulary", "coverage"):
        return dict(words=ENWIKI_WORDS, vocabularies=len(paper("compare", "embeddings")))
    if rule == "resolve_concept":
        return dict(words=ENWIKI_WORDS)
    if rule.startswith("evaluate_"):
        kind = rule.removeprefix("evaluate_")
        return dict(**shape, max_tokens=paper("evaluations", kind).get("max_tokens", 0))
    fits = {
        "learnability": paper("learnability", "iterations"),
        "null_distribution": paper("random_lists", "lists") * paper("random_lists", "iterations"),
    }
    if rule in fits:
        return dict(**shape, fits=fits[rule], threads=threads)
    if rule in ANALYSES:
        analysis = ANALYSES[rule]
        settings = analysis.from_config(merged())
        size = JobSize(lists, ENWIKI_WORDS, ENWIKI_DIM, paper("learnability", "iterations"))
        return dict(**shape, seconds=analysis.seconds(settings, size),
                    threads=threads if analysis.fits else 1)  # fmt: skip
    return {}


def merged() -> dict:
    """config.yaml with paper.yaml merged in, and the schema's defaults."""
    from learnability.defaults import SCHEMA
    from learnability.pipeline.config import fill_defaults

    def merge(a, b):
        out = dict(a)
        for k, v in b.items():
            out[k] = merge(a[k], v) if isinstance(v, dict) and isinstance(a.get(k), dict) else v
        return out

    cfg = merge(DEFAULTS, PAPER)
    return fill_defaults(cfg, yaml.safe_load(Path(SCHEMA).read_text()))


def violations(planned, lists: int) -> list[str]:
    """Every job whose declaration is below 1.3x its model's need at enwiki's sizes, or
    that has no model, or that sets its CPUs apart from its threads."""
    bad = []
    for rule, wildcards, res in planned:
        try:
            need = cost.need(rule, **enwiki_sizes(rule, wildcards, lists))
        except KeyError:
            bad.append(f"{rule}: no resource model")
            continue
        for key, want in (("mem_mb", need.mem_mb), ("runtime", need.runtime),
                          ("disk_mb", need.disk_mb + need.tmp_mb)):  # fmt: skip
            got = res.get(key, "")
            if not got.isdigit() or int(got) < math.floor(REQUIRED * want):
                bad.append(f"{rule} {wildcards}: {key}={got or 'none'} < 1.3 x {want:,.0f}")
        # the test's environment leaves LEARNABILITY_TMPDIR unset: the node's own disk
        if need.tmp_mb and f"--tmp={res.get('tmp_mb')}M" != res.get("slurm_extra"):
            bad.append(f"{rule} {wildcards}: scratch not requested ({res.get('slurm_extra')})")
        if need.tmp_mb and int(res.get("tmp_mb", 0)) < math.floor(REQUIRED * need.tmp_mb):
            bad.append(f"{rule} {wildcards}: tmp_mb={res.get('tmp_mb')} < 1.3 x {need.tmp_mb}")
        if "cpus_per_task" in res:
            bad.append(f"{rule} {wildcards}: cpus_per_task set apart from its threads")
    return bad


@pytest.fixture(scope="module")
def enwiki(tmp_path_factory):
    if importlib.util.find_spec("snakemake_executor_plugin_slurm") is None:
        pytest.skip("pip install snakemake-executor-plugin-slurm (it is in the dev extra)")
    folder = tmp_path_factory.mktemp("enwiki")
    lists = fake_enwiki(folder, ENWIKI_WORDS, REPO / "resources" / "wordlists")
    return folder, len(lists)


def test_every_job_of_the_paper_run_declares_what_its_model_needs_at_enwiki_size(enwiki):
    folder, lists = enwiki
    planned = plan(REPO, folder, [PAPER_YAML])
    rules = {job.rule for job in planned}
    assert {"train_embedding", "extract_part", "null_distribution", "learnability",
            "entanglement", "suggestions", "evaluate_pseudo", "explorer"} <= rules  # fmt: skip
    assert len([j for j in planned if j.rule == "extract_part"]) == ENWIKI_PARTS
    assert violations(planned, lists) == []
    # GloVe's scratch, about 230 GB, is requested from SLURM
    training = {j.wildcards["embedding"]: j.resources for j in planned
                if j.rule == "train_embedding"}  # fmt: skip
    assert int(training["glove"]["tmp_mb"]) > 150_000, training["glove"]


def test_a_lowered_declaration_fails_the_check(enwiki):
    folder, lists = enwiki
    behind = sorted(workflow_rules(REPO, folder, [PAPER_YAML]) - CHECKPOINTS - UPSTREAM - {"all"})
    log = dry_run(REPO, folder, [PAPER_YAML], behind, "--set-resources",
                  "null_distribution:mem_mb=2000")  # fmt: skip
    bad = violations([j for j in planned_jobs(log) if j.rule not in UPSTREAM], lists)
    assert bad and all(b.startswith("null_distribution ") and "mem_mb=2000" in b for b in bad), bad


def test_memory_and_runtime_grow_with_each_attempt():
    need = cost.Need(mem_mb=1000, runtime=60, disk_mb=10, tmp_mb=5)
    first, second, third = (cost.declare(need, attempt) for attempt in (1, 2, 3))
    assert first["mem_mb"] == math.ceil(1000 * cost.MARGIN)
    assert first["mem_mb"] < second["mem_mb"] < third["mem_mb"]
    assert first["runtime"] < second["runtime"] < third["runtime"]
    assert first["disk_mb"] == second["disk_mb"]  # disk does not run out by retrying

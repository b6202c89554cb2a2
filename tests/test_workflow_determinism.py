"""The same numbers whatever happens to a run: another core count and job order, and
SIGKILL in the middle of training and of the learnability stage. On copies of the
session's smoke run (wfutil.smoke_run), which test_workflow.py reads; this module is
scheduled last, so that the run is built by then."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest
import userenv
from wfutil import FIXTURE_LISTS, SCHEDULER, own_copy, ran, run

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def test_statistics_are_identical_on_one_core_in_another_job_order(workflow_dir, tmp_path):
    """Given the embeddings, the numbers are the same whatever the cores and the order the
    jobs ran in (the fixture ran on 2 cores): one trained embedding's learnability,
    codelength, null, analyses and evaluation tables are recomputed on one core, then
    the p-values, Wilcoxon tests, ranking and evaluation summaries (seeded bootstraps)
    over all four embeddings, and every file equals the first run's."""
    wd = own_copy(workflow_dir, tmp_path)
    parts = [f"{stage}/word2vec" for stage in ("learnability", "codelength", "null", "analyses")]
    parts += ["stats", "evaluations"]
    saved = tmp_path / "first"
    for part in parts:
        shutil.copytree(wd / "results" / part, saved / part)
        shutil.rmtree(wd / "results" / part)
    # the other embeddings' evaluation tables stay: only their summaries are recomputed
    for e in ("fasttext", "glove", "random"):
        shutil.copytree(saved / "evaluations" / e, wd / "results" / "evaluations" / e)
    files = [
        rel for rel in sorted(p.relative_to(saved) for p in saved.rglob("*.parquet"))
        if not (rel.parts[0] == "evaluations" and rel.parts[1] in ("fasttext", "glove", "random"))
    ]  # fmt: skip
    assert len(files) > 25
    assert {"evaluations/word2vec/pseudo.parquet", "evaluations/tests.parquet",
            "stats/wilcoxon.parquet", "stats/ranking.parquet",
            "analyses/word2vec/uniform/suggestions.parquet",
            "analyses/word2vec/uniform/suggestion_check.parquet",
            "analyses/word2vec/frequency_matched/entanglement.parquet"} <= {
        str(f) for f in files}  # fmt: skip
    # the compared files are the targets: the figures and tables after them are not what
    # is compared (and re-rendering them on one core doubled this test's time)
    result = run(wd, "--cores", "1", *[f"results/{rel}" for rel in files])
    assert result.returncode == 0, result.stderr[-3000:]
    assert "train_embedding" not in ran(result.stderr) and "learnability" in ran(result.stderr)
    for rel in files:
        a, b = pd.read_parquet(saved / rel), pd.read_parquet(wd / "results" / rel)
        pd.testing.assert_frame_equal(a, b, check_exact=True, obj=str(rel))


def _run_until(wd: Path, ready, unfinished, *args: str, timeout: float = 600) -> None:
    """Start the workflow, wait until ``ready()`` holds, freeze Snakemake and every job it
    started (SIGSTOP to the process group), check that ``unfinished()`` still holds (the
    kill lands where it is meant to, with no race), then SIGKILL them all, as a crash or
    a killed cluster job would."""
    import signal
    import time

    env = dict(userenv.env_vars(userenv.user_env()), PYTHONHASHSEED="0")
    proc = subprocess.Popen(
        [userenv.python(), "-m", "snakemake", "--cores", "2", "--rerun-incomplete",
         "--scheduler", SCHEDULER, *args],
        cwd=wd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + timeout
    try:
        while not ready():
            assert proc.poll() is None, "the workflow ended before the kill point"
            assert time.monotonic() < deadline, "the kill point never came"
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGSTOP)
        assert unfinished(), "the kill point had passed when the workflow was frozen"
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    # a killed Snakemake leaves its lock behind: the documented first step of a rerun
    unlock = run(wd, "--unlock")
    assert unlock.returncode == 0, unlock.stderr[-2000:]


def test_killed_runs_rerun_to_the_same_tables(workflow_dir, tmp_path):
    """SIGKILL while GloVe fits, then in the middle of the learnability stage: each rerun
    with --rerun-incomplete goes on, and the final tables equal those of the
    uninterrupted run."""
    wd = own_copy(workflow_dir, tmp_path)
    tables = wd / "results" / "tables"
    # the stage the kills hit and what it ends in: the per-list tables (the tables rule's
    # 11 files per scheme), the runs' targets. The analyses, evaluations and figures
    # downstream of GloVe are not, and no kill reaches them
    schemes = ("uniform", "frequency_matched")
    targets = [f"results/tables/{scheme}/table6.csv" for scheme in schemes]
    names = [
        f"{t}.{ext}" for t in ("table6", "learnability", "wilcoxon") for ext in ("csv", "md", "tex")
    ]
    names += ["members.csv", "members.md"]
    outputs = [Path(scheme) / name for scheme in schemes for name in names]
    before = {rel: (tables / rel).read_bytes() for rel in outputs}
    # Retrain GloVe (forced: Snakemake does not rebuild a missing intermediate whose
    # consumers are complete). Its shared-vocabulary copy goes too, so the null keys are
    # read again only after the vocabulary is rebuilt (an input function once crashed on
    # the missing file).
    shutil.rmtree(wd / "results" / "shared" / "glove")
    shutil.rmtree(tables)
    glove_log = wd / "logs" / "train_embedding" / "glove.log"
    glove_log.unlink()
    vectors = wd / "results" / "embeddings" / "glove" / "vectors.npy"
    # killed once the co-occurrences are counted and the fit has begun, before the
    # vectors are written: seconds, however fast the machine
    _run_until(
        wd,
        lambda: glove_log.exists() and "co-occurrence entries" in glove_log.read_text(),
        lambda: not vectors.exists() and "wrote vectors" not in glove_log.read_text(),
        *targets,
        "--forcerun",
        "results/embeddings/glove/vectors.npy",
    )
    assert not vectors.exists()
    # then killed once a learnability job of the new GloVe has started (the first run's
    # logs are removed, or they would stand for it). GloVe's learnability jobs are
    # forced (those of the other embeddings are not touched): their outputs are complete,
    # and GloVe's new vectors are bit for bit the old ones, so Snakemake would make the
    # tables from them and never reach the kill point
    learn = wd / "logs" / "learnability" / "glove"
    shutil.rmtree(learn)
    glove_jobs = [
        f"results/learnability/glove/{li}/{scheme}/summary.parquet"
        for li in FIXTURE_LISTS
        for scheme in ("uniform", "frequency_matched")
    ]
    _run_until(
        wd,
        lambda: learn.exists() and any(learn.rglob("*.log")),
        lambda: not any((wd / target).exists() for target in targets),
        *targets,
        "--forcerun",
        *glove_jobs,
    )
    assert vectors.exists()  # the second run finished GloVe's training
    result = run(wd, "--rerun-incomplete", *targets)
    assert result.returncode == 0, result.stderr[-3000:]
    # it goes on from there: the learnability stage and the tables, no training again
    assert {"learnability", "tables"} <= ran(result.stderr)
    assert "train_embedding" not in ran(result.stderr)
    assert len(before) == 22
    for rel, content in before.items():
        assert (tables / rel).read_bytes() == content, rel


@pytest.mark.parametrize(
    "target",
    [
        "results/stats/pvalues.parquet",
        "results/plots/frequency_matched/auc_distribution.png",
        "results/plots/frequency_matched/null_word2vec.png",
    ],
)
def test_a_vocabulary_a_killed_run_left_missing_is_rebuilt_before_the_null_keys(
    workflow_dir, tmp_path, target
):
    """A run killed while an embedding's shared vocabulary was rewritten leaves its folder
    missing, and nothing downstream asks for it again. Each job that reads the null keys
    (the p-values and the two figures of null distributions) takes that vocabulary as an
    input, so the rerun rebuilds it and resolves the concepts against it before the keys
    are read; once, the job got the concept checkpoint's placeholder as its nulls and
    stopped with 'FileNotFoundError: r'. Each target is made alone: with two, either's
    input would rebuild the vocabulary for both."""
    wd = own_copy(workflow_dir, tmp_path)
    out = wd / target
    before = pd.read_parquet(out) if out.suffix == ".parquet" else None
    shutil.rmtree(wd / "results" / "shared" / "word2vec")
    for path in out.parent.glob(f"{out.stem}.*"):
        path.unlink()
    result = run(wd, "--rerun-incomplete", target)
    assert result.returncode == 0, result.stderr[-3000:]
    assert {"restrict_embedding", "resolve_concept"} <= ran(result.stderr)
    assert (wd / "results" / "shared" / "word2vec" / "vocab.parquet").exists()
    if before is not None:
        # the same keys, the same nulls: the p-values of the uninterrupted run
        pd.testing.assert_frame_equal(before, pd.read_parquet(out), check_exact=True)
    else:
        assert out.stat().st_size > 0 and out.with_suffix(".pdf").exists()

"""The run's scratch budget (learnability.pipeline.scratch): LEARNABILITY_SCRATCH_MB read,
a job held within it or refused, and profiles/default turning it into Snakemake's global
resource ``tmp_mb``, so that spilling jobs whose scratch together exceeds it never run at
once (tests/test_cluster_plan.py checks the paper's trainings declare it and are held
to it at enwiki's size)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from learnability.errors import InputError
from learnability.pipeline.scratch import VARIABLE, budgeted_scratch, scratch_budget

REPO = Path(__file__).resolve().parents[1]


def test_the_budget_is_a_whole_number_of_mb_or_none():
    assert scratch_budget({}) is None
    assert scratch_budget({VARIABLE: ""}) is None
    assert scratch_budget({VARIABLE: " 400000 "}) == 400_000
    for bad in ("400G", "0", "-5", "1.5", "lots"):
        with pytest.raises(InputError) as err:
            scratch_budget({VARIABLE: bad})
        assert str(err.value) == (
            f"{VARIABLE}: {bad!r} is not a positive whole number of MB (the scratch the run "
            "may fill at once, e.g. 400000 for a node's 400 GB TmpDisk)"
        )


def test_a_job_declares_within_the_budget_or_is_refused_in_one_line():
    # no budget, or a declaration within it: the declaration
    assert budgeted_scratch("job", 100, 130, None) == 130
    assert budgeted_scratch("job", 100, 130, 130) == 130
    assert budgeted_scratch("job", 100, 130, 1000) == 130
    # the need fits, its margin does not: the whole budget (the job runs alone)
    assert budgeted_scratch("job", 100, 130, 100) == 100
    assert budgeted_scratch("job", 100, 130, 129) == 129
    # the need alone is over: refused, naming the job, its need and the budget
    with pytest.raises(InputError) as err:
        budgeted_scratch("train_embedding (embedding=glove)", 234_010.4, 304_214, 200_000)
    assert str(err.value) == (
        "train_embedding (embedding=glove) needs 234,010 MB of scratch, over "
        "LEARNABILITY_SCRATCH_MB's 200,000 MB (the scratch the run may fill at once): it "
        "could never start; raise LEARNABILITY_SCRATCH_MB to what one node's TmpDisk (or "
        "the shared scratch) holds, or point LEARNABILITY_TMPDIR at a disk that holds it"
    )


# two jobs that each declare 60 MB of scratch and record when they ran
TOY = """
rule all:
    input: "a.txt", "b.txt"

rule spill:
    output: "{x}.txt"
    resources: tmp_mb=60
    run:
        import time
        start = time.time()
        time.sleep(1.5)
        open(output[0], "w").write(f"{start} {time.time()}")
"""


def toy_run(tmp_path: Path, env: dict[str, str]) -> tuple[subprocess.CompletedProcess, list]:
    """The toy run with the repository's profiles/default (which Snakemake reads from
    the working directory), on 2 cores; the jobs' (start, end) times."""
    wd = tmp_path / "toy"
    shutil.rmtree(wd, ignore_errors=True)
    (wd / "profiles").mkdir(parents=True)
    shutil.copytree(REPO / "profiles" / "default", wd / "profiles" / "default")
    (wd / "Snakefile").write_text(TOY)
    clean = {k: v for k, v in __import__("os").environ.items() if k != VARIABLE}
    got = subprocess.run([sys.executable, "-m", "snakemake", "--cores", "2"], cwd=wd,
                         env={**clean, **env}, capture_output=True, text=True,
                         timeout=300)  # fmt: skip
    times = []
    if got.returncode == 0:
        times = [tuple(map(float, (wd / f"{x}.txt").read_text().split())) for x in "ab"]
    return got, times


def overlap(times: list) -> bool:
    (a0, a1), (b0, b1) = times
    return a0 < b1 and b0 < a1


def test_the_profile_runs_spilling_jobs_within_the_budget(tmp_path):
    """LEARNABILITY_SCRATCH_MB=100: the two 60 MB jobs run one after the other; 120:
    together (the cores allow both: the budget, not the cores, kept them apart); a value
    that is not a number of MB stops the run in one line naming the variable."""
    got, times = toy_run(tmp_path, {VARIABLE: "100"})
    assert got.returncode == 0, got.stderr[-3000:]
    assert not overlap(times), times
    got, times = toy_run(tmp_path, {VARIABLE: "120"})
    assert got.returncode == 0, got.stderr[-3000:]
    assert overlap(times), times
    got, _ = toy_run(tmp_path, {VARIABLE: "5G"})
    assert got.returncode != 0
    assert (
        "Resource 'tmp_mb' was given value 'LEARNABILITY_SCRATCH_MB=5G', which is not an integer"
    ) in got.stderr, got.stderr[-3000:]
    assert "Traceback" not in got.stderr

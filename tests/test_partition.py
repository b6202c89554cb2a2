"""A partition's time limit, and every job's runtime held to it while the run is planned
(learnability.pipeline.partition, resources.limited_runtime): a training that resumes
from checkpoints asks for the limit and goes on in its next attempt, a job that fits
only without its margin asks for the limit, and a job that cannot fit is refused in one
line naming it, its need and the limit. The plan of the paper's run at enwiki's size
under a limit is in tests/test_cluster_plan.py, sinfo's on a real partition in
tests/test_slurm.py."""

from __future__ import annotations

import os
import stat

import pytest

from learnability.errors import InputError
from learnability.pipeline import partition
from learnability.pipeline import resources as cost
from learnability.pipeline.partition import Limit, parse_slurm_time, time_limit


@pytest.mark.parametrize(("text", "minutes"), [
    ("90", 90), ("45:30", 45.5), ("12:00:00", 720), ("1:02:30", 62.5), ("1-00:00:00", 1440),
    ("2-12", 3600), ("1-02:03", 1563), ("0-00:10:30", 10.5), ("infinite", None),
    ("UNLIMITED", None), ("none", None), ("", None),
])  # fmt: skip
def test_slurm_time_limits_in_minutes(text, minutes):
    assert parse_slurm_time(text) == minutes


def test_a_time_limit_of_another_shape_is_refused_in_one_line():
    with pytest.raises(InputError, match=r"LEARNABILITY_TIME_LIMIT: '1 day' is not a SLURM"):
        parse_slurm_time("1 day")
    with pytest.raises(InputError) as err:
        time_limit({"LEARNABILITY_TIME_LIMIT": "12h"})
    assert "\n" not in str(err.value)


def test_the_limit_comes_from_the_variable_else_from_sinfo_for_the_partition(tmp_path, monkeypatch):
    """A fake ``sinfo`` on the PATH answers the exact query for partition ``short`` (the
    time limit alone, no header), says no for any other with an error on its output and
    a failing status, and answers ``odd`` with what is no time; each call is recorded.
    The variable wins over it, and with neither no sinfo is asked."""
    sinfo = tmp_path / "sinfo"
    calls = tmp_path / "calls"
    sinfo.write_text(
        "#!/bin/sh\n"
        f'echo "$*" >> {calls}\n'
        '[ "$*" = "-h -p short -o %l" ] && echo 2:00:00 && exit 0\n'
        '[ "$*" = "-h -p odd -o %l" ] && echo soon && exit 0\n'
        'echo "sinfo: error: invalid partition specified"; exit 1\n'
    )
    sinfo.chmod(sinfo.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    partition._sinfo_limit.cache_clear()
    assert time_limit({"SBATCH_PARTITION": "short"}) == Limit(120, "sinfo, partition short")
    assert time_limit({"SBATCH_PARTITION": "long"}) is None  # sinfo does not answer
    with pytest.raises(InputError, match=r"^sinfo -p odd: 'soon' is not a SLURM time limit"):
        time_limit({"SBATCH_PARTITION": "odd"})
    asked = calls.read_text()
    assert time_limit({}) is None and calls.read_text() == asked  # no partition, no sinfo
    both = {"SBATCH_PARTITION": "short", "LEARNABILITY_TIME_LIMIT": "1-00:00:00"}
    assert time_limit(both) == Limit(1440, "LEARNABILITY_TIME_LIMIT")
    assert time_limit({"SBATCH_PARTITION": "short", "LEARNABILITY_TIME_LIMIT": "none"}) is None
    partition._sinfo_limit.cache_clear()


def test_a_job_over_the_limit_is_cut_to_it_split_by_checkpoints_or_refused():
    need = cost.Need(mem_mb=100, runtime=300, disk_mb=1)  # 5 h; declared 10 h
    assert cost.declare(need)["runtime"] == 600
    # no limit, or one the declaration fits: the declaration, growing with the attempt
    assert cost.limited_runtime("j", need, 1, None) == 600
    assert cost.limited_runtime("j", need, 2, 1440) == 900
    # the need fits, its margin does not: the limit
    assert cost.limited_runtime("j", need, 1, 400.5) == 400
    # the need does not fit and nothing cuts it: refused, naming the job, need and limit
    with pytest.raises(InputError) as err:
        cost.limited_runtime("suggestions (embedding=glove)", need, 1, 240, "sinfo, partition p")
    assert str(err.value).startswith(
        "suggestions (embedding=glove) needs 5.0 h, over the partition's limit of 4.0 h "
        "(sinfo, partition p)"
    )
    assert "\n" not in str(err.value)
    # under an hour, in minutes
    with pytest.raises(InputError, match=r"^j needs 50 min, over the partition's limit of 30 min "):
        cost.limited_runtime("j", cost.Need(mem_mb=1, runtime=50, disk_mb=1), 1, 30)
    # a training cut by checkpoints into pieces of 1.5 h: the limit, attempt after attempt
    assert cost.limited_runtime("t", need, 1, 240, piece=90) == 240
    assert cost.limited_runtime("t", need, 3, 240, piece=90) == 240
    # a piece longer than the limit: refused
    with pytest.raises(InputError, match=r"t needs 5.0 h in all and 4.5 h for its start and one"):
        cost.limited_runtime("t", need, 1, 240, piece=270)


def test_a_training_piece_is_its_start_and_its_longest_epoch_or_counting():
    """word2vec at 400k tokens/s on one thread, 1 GB of gzip (4e8 tokens): 1000 s an
    epoch; GloVe's counting at 200k tokens/s (2000 s) is longer than its epoch; a method
    without checkpoints, and any other rule, runs whole."""
    sizes = dict(corpus_mb=1000, threads=1, rate=400_000, epochs=5)
    start = cost.STARTUP_MINUTES
    assert cost.piece_minutes("train_embedding", method="word2vec", **sizes) == pytest.approx(
        start + 1000 / 60
    )
    glove = dict(sizes, method="glove", count_rate=200_000)
    assert cost.piece_minutes("train_embedding", **glove) == pytest.approx(start + 2000 / 60)
    assert cost.piece_minutes("train_embedding", method="transformer", **sizes) is None
    assert cost.piece_minutes("learnability", method="word2vec", **sizes) is None


def test_a_bad_limit_stops_the_plan_in_one_line(tmp_path):
    import subprocess
    import sys

    from paths import REPO

    env = dict(os.environ, LEARNABILITY_TIME_LIMIT="12h")
    got = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", "--snakefile", str(REPO / "workflow/Snakefile"),
         "--directory", str(tmp_path)],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    out = got.stdout + got.stderr
    line = ("Error in the plan: LEARNABILITY_TIME_LIMIT: '12h' is not a SLURM time limit "
            "(minutes, HH:MM:SS or D-HH:MM:SS, or none)")  # fmt: skip
    assert got.returncode == 1 and out.count(line) == 1 and "Traceback" not in out, out[-2000:]

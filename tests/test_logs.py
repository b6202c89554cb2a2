"""Logs people can follow: each job's log says what it read, with which parameters, and
what it wrote; long steps report counts, rates and ETA."""

import logging
import sys
from types import SimpleNamespace

import pytest
from snakemake.iocontainers import Namedlist

from learnability.logs import MAX_LISTED, as_written, logged
from learnability.progress import Progress


def job(tmp_path, n_inputs=2):
    """A script's ``snakemake`` object, its inputs named as Snakemake names them: a named
    list of files is a slice of the flat list."""
    inputs = Namedlist([*(f"in{k}.parquet" for k in range(n_inputs)), "p.parquet"])
    inputs._set_name("summaries", 0, n_inputs)
    inputs._set_name("pvalues", n_inputs)
    return SimpleNamespace(
        rule="tables",
        wildcards=Namedlist(fromdict={"negatives": "uniform"}),
        input=inputs,
        output=Namedlist(
            fromdict={"csv": str(tmp_path / "out.csv"), "md": str(tmp_path / "never.md")}
        ),
        params=Namedlist(fromdict={"lists": ["a", "b"], "table_size": 400}),
        threads=1,
        log=Namedlist([str(tmp_path / "logs" / "job.log")]),
    )


def test_a_job_log_names_its_inputs_params_and_outputs(tmp_path):
    smk = job(tmp_path)
    with logged(smk) as log:
        log.info("working")
        (tmp_path / "out.csv").write_text("x" * 2048)
    text = (tmp_path / "logs" / "job.log").read_text()
    lines = [ln.split(": ", 1)[1] for ln in text.splitlines()]
    assert lines[:7] == [
        "rule tables",
        "wildcards: negatives=uniform",
        "input summaries: in0.parquet",
        "input summaries: in1.parquet",
        "input pvalues: p.parquet",
        "param lists: ['a', 'b']",
        "param table_size: 400",
    ]
    assert lines[8] == "working"
    assert f"wrote csv: {tmp_path / 'out.csv'} (2.0 KiB)" in lines
    # an output the job did not write is called out, not passed over
    assert f"MISSING md: {tmp_path / 'never.md'}" in lines


def test_many_inputs_are_counted_not_listed(tmp_path):
    smk = job(tmp_path, n_inputs=MAX_LISTED + 5)
    with logged(smk):
        pass
    text = (tmp_path / "logs" / "job.log").read_text()
    assert f"input summaries: {MAX_LISTED + 5} files (in0.parquet, in1.parquet, in2" in text
    assert "in7.parquet" not in text


def test_a_failing_job_logs_the_error_and_no_outputs(tmp_path):
    smk = job(tmp_path)
    with pytest.raises(ValueError), logged(smk):
        raise ValueError("list x.txt, line 3: empty word; delete the line")
    text = (tmp_path / "logs" / "job.log").read_text()
    assert "ERROR" in text and "x.txt, line 3" in text and "wrote" not in text


def test_bad_input_in_a_job_is_its_one_line_with_the_path_as_written(tmp_path):
    """A LearnabilityError inside a job script: the script's whole stderr is the
    message, once, with the path relative to the working folder (the config made it
    absolute), no traceback, and the job's status is 1; the log holds it once too."""
    import subprocess

    script = tmp_path / "job.py"
    script.write_text(
        "from pathlib import Path\n"
        "from learnability.errors import InputError\n"
        "from learnability.logs import logged\n"
        "with logged('logs/job.log'):\n"
        "    raise InputError(f'{Path.cwd() / \"data/corpus.csv\"}:41: byte 0xe9 is not UTF-8')\n"
    )
    run = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                         text=True, timeout=60)  # fmt: skip
    assert run.returncode == 1 and run.stdout == ""
    said = "data/corpus.csv:41: byte 0xe9 is not UTF-8"
    assert [line.split(": ", 1)[1] for line in run.stderr.splitlines()] == [said]
    log = (tmp_path / "logs" / "job.log").read_text().splitlines()
    assert [line.split(": ", 1)[1] for line in log] == [said]
    # any other error keeps its traceback
    script.write_text("from learnability.logs import logged\n"
                      "with logged(None):\n    raise ValueError('a bug')\n")  # fmt: skip
    run = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                         text=True, timeout=60)  # fmt: skip
    assert run.returncode == 1 and "Traceback" in run.stderr
    assert run.stderr.endswith("ValueError: a bug\n")


def test_a_path_under_the_working_folder_is_shown_relative_to_it(tmp_path):
    assert as_written(f"{tmp_path}/data/x.csv:3: bad; not {tmp_path}x/y", tmp_path) == (
        f"data/x.csv:3: bad; not {tmp_path}x/y"
    )
    assert as_written("/data/x.csv:3: bad", "/") == "/data/x.csv:3: bad"


def test_progress_reports_counts_rate_and_eta(caplog):
    logger = logging.getLogger("learnability.test")
    with caplog.at_level("INFO", logger="learnability.test"):
        p = Progress("fits", 1000, unit="splits", every=0.0, logger=logger)
        p.update(250)
        p.finish()
        Progress("read", None, unit="MB", scale=1e6, every=0.0, logger=logger).update(3e6)
    first, last, open_ended = caplog.messages
    assert first.startswith("fits: 250 of 1,000 splits (25%), ") and " splits/s, ETA " in first
    assert "(25%)" in last
    assert open_ended.startswith("read: 3.0 MB, ") and "ETA" not in open_ended


def test_every_workflow_script_logs_through_its_job():
    from paths import REPO

    scripts = sorted((REPO / "workflow" / "scripts").glob("*.py"))
    assert len(scripts) > 10
    for script in scripts:
        assert "with logged(snakemake)" in script.read_text(), (
            f"{script.name}: use logged(snakemake)"
        )

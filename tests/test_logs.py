"""Logs people can follow: each job's log says what it read, with which parameters, and
what it wrote; long steps report counts, rates and ETA."""

import logging
from types import SimpleNamespace

import pytest
from snakemake.iocontainers import Namedlist

from learnability.logs import MAX_LISTED, Progress, logged


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
    from conftest import REPO

    scripts = sorted((REPO / "workflow" / "scripts").glob("*.py"))
    assert len(scripts) > 10
    for script in scripts:
        assert "with logged(snakemake)" in script.read_text(), (
            f"{script.name}: use logged(snakemake)"
        )

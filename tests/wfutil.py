"""Running the real workflow from the tests: Snakemake in a subprocess, in the
environment `make run` gives users (tests/userenv.py) or the one an optional extra gives,
and reading what it did."""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from pathlib import Path

import userenv
import yaml
from paths import REPO


def rule_names() -> set[str]:
    """Every rule and checkpoint the workflow defines (its .smk files, read as text)."""
    from learnability.analyses.registry import ANALYSES
    from learnability.evaluations.registry import KINDS

    files = [REPO / "workflow" / "Snakefile", *(REPO / "workflow" / "rules").glob("*.smk")]
    text = "\n".join(f.read_text() for f in files)
    names = set(re.findall(r"^\s*(?:rule|checkpoint) (\w+)", text, re.M))
    # the evaluation rules are generated, one per registered kind (evaluations.smk)
    assert 'f"evaluate_{kind}"' in text
    names |= {f"evaluate_{kind}" for kind in KINDS}
    # so are the analyses' and their reports' (analyses.smk), one per registered analysis
    assert "analysis.name" in text and 'f"{analysis.name}_table"' in text
    names |= set(ANALYSES) | {f"{name}_table" for name, a in ANALYSES.items() if a.report}
    return names


# What a rerun must not touch when the corpus is reused. Checked against the rules that
# exist, so that a renamed rule cannot turn "not scheduled" into a check that always holds.
CORPUS_JOBS = {"fetch_dump", "extract_part", "join_corpus"}


def tiny_config(workdir: Path) -> dict:
    """The smoke-test config, .test/config/config.yaml (the sample with tiny settings), with
    the shipped multi-answer test and hierarchy graph read from the repository."""
    cfg = yaml.safe_load((REPO / ".test" / "config" / "config.yaml").read_text())
    evaluations = cfg["evaluations"]
    for kind in ("multi_answer", "hierarchy"):
        evaluations[kind]["files"] = [str(REPO / f) for f in evaluations[kind]["files"]]
    return cfg


def without_analyses(cfg: dict) -> dict:
    """``cfg`` with no analysis (suggestions, their check, entanglement, the bounds, the
    words-needed curve) and no explorer: for the workflow tests about something else (the
    smoke run runs them all), whose every extra job costs CI seconds."""
    cfg["suggestions"] = {"top": 0, "check": {"folds": 0}}
    cfg["entanglement"] = {"iterations": 0}
    cfg["power"] = {**cfg.get("power", {}), "groups": 0, "subsamples": 0}
    cfg["codelength"] = {**cfg.get("codelength", {}), "enabled": False}
    cfg["explorer"] = {"enabled": False}
    return cfg


# The scheduler users' runs take from profiles/default (Snakemake reads it from the
# directory it runs in; the tests' copies of the workflow have no profiles folder)
SCHEDULER = yaml.safe_load((REPO / "profiles" / "default" / "config.yaml").read_text())["scheduler"]


def run(workdir: Path, *args: str, extras: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    """Snakemake on 2 cores in ``workdir``, in the user environment of ``extras``, with
    the users' profile's scheduler."""
    env = dict(userenv.env_vars(userenv.user_env(extras)), PYTHONHASHSEED="0")
    snakemake = [userenv.python(extras), "-m", "snakemake", "--scheduler", SCHEDULER]
    return subprocess.run(
        [*snakemake, "--cores", "2", *args],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


def scheduled(dry_run_output: str, added: frozenset[str] = frozenset()) -> dict[str, int]:
    """Rule -> job count from the 'Job stats' table of a dry run (of the workflow's rules,
    and those of ``added``: a test's own analysis)."""
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
    assert set(counts) <= rule_names() | added, counts
    return counts


def ran(output: str) -> set[str]:
    """The rules of the jobs a (real or dry) run started, from its log."""
    return set(re.findall(r"^(?:local)?(?:rule|checkpoint) (\w+):", output, re.M))


# The smoke run that most workflow tests share: the smoke config on one shipped list and
# the dictionary's category, both negatives schemes, no learning curve (the multi-part
# test runs that rule): 181 jobs. Built once per session: under pytest-xdist the
# controller starts it at full priority as soon as a worker has collected a test that
# reads it (conftest.py; the workers run at lower priority, so the build gets the
# cores); without xdist, by the first test that asks. The others wait on its lock. A
# failed build leaves a marker, and every test that reads the run fails at once with its
# error instead of building it again.
FIXTURE_LISTS = ["family", "mini_kin", "mini_royal"]


def _children_cpu() -> float:
    import resource

    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _smoke_files(root: Path) -> tuple[Path, Path, Path, Path]:
    """The run's folder, and its done, failed and lock files."""
    return tuple(root / name for name in ("smoke-run", "smoke-run.done", "smoke-run.failed",
                                          "smoke-run.lock"))  # fmt: skip


def _build_smoke_run(root: Path) -> None:
    """Build the run (the caller holds the lock): writes the done marker and the build's
    times, or the failed marker with the end of Snakemake's output."""
    import shutil

    wd, done, failed, _ = _smoke_files(root)
    if wd.exists():  # an interrupted build of an earlier attempt
        shutil.rmtree(wd)
    wd.mkdir()
    shutil.copytree(REPO / "workflow", wd / "workflow")
    (wd / "config").mkdir()
    cfg = tiny_config(wd)
    cfg["learnability"]["learning_curve"] = []
    (wd / "config" / "config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    (wd / "lists").mkdir()
    shutil.copy(REPO / ".test" / "lists" / "family.txt", wd / "lists")  # a link's file
    shutil.copy(REPO / ".test" / "mini.dic", wd)
    start, cpu = time.time(), _children_cpu()
    try:
        result = run(wd)
    except Exception as exc:  # a timeout, or no environment: the same for every reader
        failed.write_text(f"{type(exc).__name__}: {exc}")
        return
    if result.returncode != 0:
        failed.write_text(f"snakemake exited {result.returncode}:\n{result.stderr[-5000:]}")
        return
    steps = re.findall(r"(\d+) of \d+ steps \(100%\) done", result.stderr)
    times = {"worker": os.environ.get("PYTEST_XDIST_WORKER", "controller"), "start": start,
             "end": time.time(), "jobs": int(steps[-1]) if steps else None,
             "cpu": _children_cpu() - cpu}  # fmt: skip
    (root / "smoke-run.times.json").write_text(json.dumps(times))
    done.touch()


def smoke_run() -> Path:
    """The shared smoke run's folder: waits for the build under way, or builds it; fails
    at once, with the build's error, if the build failed."""
    import fcntl

    import pytest

    root = userenv.ROOT
    wd, done, failed, lock_path = _smoke_files(root)
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists() and not failed.exists():
            _build_smoke_run(root)
    if failed.exists():
        pytest.fail(f"the shared smoke run failed to build (once for every test that reads "
                    f"it):\n{failed.read_text()}", pytrace=False)  # fmt: skip
    return wd


class BackgroundSmokeBuild:
    """The smoke run built in a thread of the calling process (pytest-xdist's controller,
    which runs no tests and is not reniced). ``start`` takes the lock before it returns,
    so no test can begin building it too."""

    def __init__(self, root: Path):
        import threading

        self.root = root
        self.lock = None
        self.thread = threading.Thread(target=self._build, name="smoke-run", daemon=True)

    def start(self) -> None:
        import fcntl

        _, done, failed, lock_path = _smoke_files(self.root)
        self.lock = open(lock_path, "w")  # noqa: SIM115 (closed by the thread)
        fcntl.flock(self.lock, fcntl.LOCK_EX)
        if done.exists() or failed.exists():
            self.lock.close()
            return
        self.thread.start()

    def finished(self) -> bool:
        return not self.thread.is_alive()

    def _build(self) -> None:
        try:
            _build_smoke_run(self.root)
        finally:
            self.lock.close()  # releases the lock: the waiting tests go on


def own_copy(workflow_dir: Path, tmp_path: Path) -> Path:
    """A copy of the smoke run's folder, outputs, logs and Snakemake's records with their
    times, for a test that changes it or runs Snakemake in it (even a dry run writes
    records): the shared run stays as it was, whatever the order the tests run in."""
    import shutil

    copy = tmp_path / "wf"
    shutil.copytree(workflow_dir, copy, symlinks=True)
    return copy

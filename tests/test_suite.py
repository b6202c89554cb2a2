"""The suite's own machinery: the timeline every run prints, the smoke run's failure
marker, and how CI's workers get the tests (tests/scheduling.py)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
import userenv
import wfutil
from paths import REPO
from scheduling import SMOKE_MODULES, heavy_rank, reads_the_smoke_run, unit_of


def test_a_failed_smoke_build_fails_its_readers_at_once_without_building_again(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(userenv, "ROOT", tmp_path)
    (tmp_path / "smoke-run.failed").write_text("snakemake exited 1:\nMissingInputException")
    with pytest.raises(pytest.fail.Exception, match="(?s)failed to build.*MissingInputException"):
        wfutil.smoke_run()
    assert not (tmp_path / "smoke-run").exists()  # not built again


def test_the_run_prints_its_timeline_with_every_worker_and_the_cpu_each_test_took():
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/test_metrics.py", "-n", "2", "-q",
         "-p", "no:cacheprovider"],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:]
    section = done.stdout.split("timeline:", 1)[1]
    tests = int(re.match(r" (\d+) tests", section).group(1))
    assert tests == int(re.search(r"(\d+) passed", done.stdout).group(1))
    assert re.search(r"^all workers: \d+ CPU s, at least \d+ s on two cores$", section, re.M)
    # the whole machine's busy time, which also counts what no worker waited for
    machine = re.search(
        r"^the machine: (\d+) CPU s busy in all, at least (\d+) s on two cores \(the "
        r"workers' (\d+), the smoke build's (\d+), and (\d+) outside the tests'",
        section,
        re.M,
    )
    assert machine, section[-2000:]
    busy, bound, workers, smoke, rest = map(int, machine.groups())
    assert abs(bound - busy / 2) <= 1 and smoke == 0  # no test here reads the smoke run
    # the workers' tests ran on this machine: at most its busy time (rounding aside)
    assert workers <= busy + 1
    for worker in ("gw0", "gw1"):
        assert re.search(rf"^{worker}: busy \d+ s, \d+ CPU s, last test ends", section, re.M)


def test_the_machines_busy_time_is_what_psutil_reads():
    """timeline.machine_busy against an independent reader of /proc/stat (psutil): the
    busy seconds of every core, idle and I/O wait left out; read around it, psutil's
    bracket it."""
    psutil = pytest.importorskip("psutil")
    from timeline import machine_busy

    def busy() -> float:
        t = psutil.cpu_times()
        return t.user + t.nice + t.system + t.irq + t.softirq + t.steal

    before = busy()
    ours = machine_busy()
    after = busy()
    assert before - 0.02 <= ours <= after + 0.02


def test_the_smoke_runs_readers_are_known_and_come_after_the_longest_tests():
    """Every test that reads the smoke run is in SMOKE_MODULES (collection refuses one
    that is not), and the order puts the slowest first (HEAVY), so that none starts last."""
    ids = [
        "tests/test_slurm.py::test_the_slurm_profile_runs_the_workflow_with_the_local_results",
        "tests/test_workflow_determinism.py::test_killed_runs_rerun_to_the_same_tables",
        "tests/test_metrics.py::test_auc_matches_sklearn_with_ties[0]",
    ]
    assert [reads_the_smoke_run(i) for i in ids] == [False, True, False]
    assert heavy_rank(ids[0]) < heavy_rank(ids[1]) < heavy_rank(ids[2])
    for module in SMOKE_MODULES:
        assert (REPO / "tests" / module).is_file(), module


def shares_a_wider_fixture(item: pytest.Item) -> bool:
    """Whether one of the test's fixtures is module-, class- or package-scoped."""
    defs = item._fixtureinfo.name2fixturedefs.values()
    return any(d[-1].scope in ("module", "class", "package") for d in defs if d)


SHARED = """
import json, os

def pytest_collection_finish(session):
    from test_suite import shares_a_wider_fixture

    found = {item.nodeid: shares_a_wider_fixture(item) for item in session.items}
    with open(os.environ["SHARED_OUT"], "w") as fh:
        json.dump(found, fh)
"""


def test_the_units_of_work_keep_together_exactly_the_tests_that_share_a_module_fixture(
    tmp_path, request
):
    """The scheduler reads from the source which tests share a module-scoped fixture
    (the controller collects nothing); here, against what pytest's collection of the
    whole suite finds: a test shares its module's unit exactly when one of its fixtures
    is module-, class- or package-scoped. In a whole run that collection is this
    process's own (each pytest-xdist worker collects every test); run alone, this test
    collects the suite in a pytest of its own."""
    import json

    items = request.session.items
    if len({item.path for item in items}) == len(list((REPO / "tests").glob("test_*.py"))):
        found = {item.nodeid: shares_a_wider_fixture(item) for item in items}
    else:
        (tmp_path / "shared_fixtures.py").write_text(SHARED)
        out = tmp_path / "shared.json"
        env = dict(os.environ, PYTHONPATH=str(tmp_path), SHARED_OUT=str(out))
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "tests", "--collect-only", "-q", "-o", "addopts=",
             "-p", "no:cacheprovider", "-p", "shared_fixtures"],
            cwd=REPO, env=env, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        found = json.loads(out.read_text())
    assert len(found) > 500 and sum(found.values()) > 10
    for nodeid, shared in found.items():
        assert (unit_of(nodeid) != nodeid) == shared, nodeid


PINNED = """
import pytest

@pytest.mark.parametrize("seed", [0])
def test_pinned(seed):
    pass

@pytest.mark.parametrize("seed", [3], indirect=True)
def test_indirect(seed):
    pass

class TestOwn:
    @pytest.fixture
    def seed(self):
        return 0

    def test_in_a_class(self, seed):
        pass

def test_honest(seed):
    assert seed == 7

def test_without_a_seed():
    pass
"""

REDEFINED = """
import pytest

@pytest.fixture
def seed():
    return 0

def test_redefined(seed):
    pass
"""


def test_a_test_that_overrides_the_seed_fixture_fails(tmp_path):
    """tests/seeds.py varies every statistical test only if each takes conftest's `seed`:
    one that pins it (parametrize, directly or indirectly) or sees another fixture of
    that name (its module's, its class's) fails at its setup, naming why; the others
    run at the --seed given."""
    (tmp_path / "test_pinned.py").write_text(PINNED)
    (tmp_path / "test_redefined.py").write_text(REDEFINED)
    # (its own basetemp: the session's numbered folders are left alone)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", str(tmp_path), "-p", "conftest", "-o", "addopts=",
         "-q", "-rA", "-p", "no:cacheprovider", "-p", "no:randomly", "--seed", "7",
         "--rootdir", str(tmp_path), "--basetemp", str(tmp_path / "base"),
         "-W", "ignore::pytest.PytestUnknownMarkWarning"],
        cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO / "tests")},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    outcome = dict(
        (test.rsplit("::", 1)[-1], status)
        for status, test in re.findall(r"^(PASSED|FAILED|ERROR) (\S+)", done.stdout, re.M)
    )
    assert outcome == {
        "test_pinned[0]": "ERROR", "test_indirect[3]": "ERROR", "test_in_a_class": "ERROR",
        "test_redefined": "ERROR", "test_honest": "PASSED", "test_without_a_seed": "PASSED",
    }, done.stdout[-3000:]  # fmt: skip
    assert "test_pinned[0] parametrizes `seed`" in done.stdout
    assert "sees another fixture named `seed`" in done.stdout


def test_the_tests_share_their_helpers_through_modules_not_conftest():
    """conftest.py holds pytest's hooks and fixtures only; what the test files share (the
    references, the planted concepts, the dumps, the local server) is in modules of their
    own that they import by name."""
    import ast

    importers = [
        f.name
        for f in sorted((REPO / "tests").rglob("*.py"))
        if re.search(r"^\s*(from conftest import|import conftest\b)", f.read_text(), re.M)
    ]
    assert importers == []
    tree = ast.parse((REPO / "tests/conftest.py").read_text())
    helpers = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            helpers.append(node.name)
        elif isinstance(node, ast.FunctionDef):
            decorators = {ast.unparse(d).split("(")[0] for d in node.decorator_list}
            hook = node.name.startswith("pytest_")
            if not (hook or "pytest.fixture" in decorators or node.name.startswith("_")):
                helpers.append(node.name)
    assert helpers == [], f"move these to a module of tests/: {helpers}"


def test_each_analysis_has_a_test_file_of_its_own_that_imports_it():
    from learnability.analyses.registry import ANALYSES

    for name, analysis in ANALYSES.items():
        path = REPO / "tests" / f"test_{name}.py"
        assert path.exists(), f"tests/test_{name}.py: the {name} analysis' tests"
        module = analysis.run.__module__
        text = path.read_text()
        assert module in text or f"from learnability.analyses import {name}" in text, path

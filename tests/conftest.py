from __future__ import annotations

import os
from pathlib import Path

import pytest
import scheduling
import timeline
import userenv
from local_server import serving
from paths import REPO
from planted import planted_concept


def pytest_addoption(parser):
    parser.addoption(
        "--seed",
        type=int,
        default=0,
        help="shift the random draws of every statistical test (those that take the `seed` "
        "fixture): tests/seeds.py runs them at 20 consecutive seeds",
    )


@pytest.fixture
def seed(request) -> int:
    """The seed offset of a statistical test (``--seed``, 0 in CI). A test that takes it
    draws its data from it, and its tolerance must hold at any value: tests/seeds.py
    checks 20 consecutive ones."""
    return request.config.getoption("--seed")


# How CI's two cores are shared among the workers: tests/scheduling.py


def pytest_configure(config):
    global CONFIG
    CONFIG = config
    timeline.register(config)
    # every workflow job the suite runs (each process Snakemake runs a rule's script in)
    # fails if it uses a config default its rule does not pass (learnability.defaults)
    os.environ["LEARNABILITY_STRICT_DEFAULTS"] = "1"
    if hasattr(config, "workerinput"):  # an xdist worker (not a pytest it runs)
        os.nice(scheduling.WORKER_NICE)


def _seed_override(item) -> str | None:
    """How ``item`` replaces the ``seed`` fixture above (None where it takes it, or
    takes no seed): a test that parametrizes ``seed`` (``parametrize("seed", [0])``,
    directly or indirectly), or that sees another fixture of that name (one defined in
    its module, class or a nearer conftest), runs at that seed whatever ``--seed`` says,
    so tests/seeds.py would rerun one seed twenty times and call it twenty."""
    if "seed" not in item.fixturenames:
        return None
    callspec = getattr(item, "callspec", None)
    if callspec is not None and "seed" in callspec.params:
        return "parametrizes `seed`"
    defs = item._fixtureinfo.name2fixturedefs.get("seed", ())
    func = defs[-1].func if defs else None
    code = getattr(func, "__code__", None)
    if code is None or code.co_filename != __file__ or code.co_name != "seed":
        where = getattr(code, "co_filename", "?")
        return f"sees another fixture named `seed` (defined in {where})"
    return None


SEED_OVERRIDE = pytest.StashKey[str]()


def pytest_runtest_setup(item):
    reason = item.stash.get(SEED_OVERRIDE, None)
    if reason is not None:
        pytest.fail(
            f"{item.nodeid} {reason}: a statistical test takes tests/conftest.py's `seed` "
            "fixture, draws its data from it and passes at any --seed (tests/seeds.py "
            "checks 20); remove the override",
            pytrace=False,
        )


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "seed" in item.fixturenames:
            item.add_marker(pytest.mark.statistical)
            reason = _seed_override(item)
            if reason is not None:  # the test fails at its setup (pytest_runtest_setup)
                item.stash[SEED_OVERRIDE] = reason
        if "workflow_dir" in item.fixturenames and item.path.name not in scheduling.SMOKE_MODULES:
            raise pytest.UsageError(
                f"{item.nodeid} reads the smoke run: add its module to scheduling.SMOKE_MODULES"
            )
    # stable: within a rank, the collection order
    items.sort(key=lambda item: scheduling.heavy_rank(item.nodeid))


CONFIG = None
SMOKE_BUILD = None  # the controller's wfutil.BackgroundSmokeBuild, once started


NUMBA_WARM = None  # the controller's thread compiling the numba kernels, once started


def _warm_numba(lock) -> None:
    import subprocess
    import sys

    try:
        subprocess.run([sys.executable, str(REPO / "tests" / "numba_warm.py")],
                       capture_output=True, timeout=600)  # fmt: skip
    finally:
        lock.close()  # the workers go on (a failed warm-up only costs them the compiling)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids):
    """In the controller, once a worker has collected: compile the numba kernels once
    (tests/numba_warm.py; the workers wait for it, _numba_warm), and start building the
    smoke run if a collected test reads it."""
    global SMOKE_BUILD, NUMBA_WARM
    import fcntl
    import threading

    userenv.ROOT = CONFIG._tmp_path_factory.getbasetemp()  # the workers' parent
    if NUMBA_WARM is None:
        lock = open(userenv.ROOT / "numba-warm.lock", "w")  # noqa: SIM115 (the thread's)
        fcntl.flock(lock, fcntl.LOCK_EX)
        NUMBA_WARM = threading.Thread(target=_warm_numba, args=(lock,), daemon=True)
        NUMBA_WARM.start()
    if SMOKE_BUILD is None and any(scheduling.reads_the_smoke_run(i) for i in ids):
        from wfutil import BackgroundSmokeBuild

        SMOKE_BUILD = BackgroundSmokeBuild(userenv.ROOT)
        SMOKE_BUILD.start()


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadscope":
        return None
    return scheduling.make_scheduler(
        config, log, lambda: SMOKE_BUILD is None or SMOKE_BUILD.finished()
    )


@pytest.fixture(scope="session")
def workflow_dir(_user_env_root) -> Path:
    """The session's smoke run (wfutil.smoke_run, built by whichever worker asks first):
    read it, or copy it (wfutil.own_copy) to change it."""
    from wfutil import smoke_run

    return smoke_run()


@pytest.fixture(scope="session", autouse=True)
def _user_env_root(tmp_path_factory):
    """Where the user environments (tests/userenv.py) and the null cache are: one folder
    for all the xdist workers of this session."""
    base = tmp_path_factory.getbasetemp()
    worker = hasattr(CONFIG, "workerinput")  # an xdist worker, not a pytest it runs
    userenv.ROOT = base.parent if worker else base
    # the nulls that score() and `learnability evaluate` keep on disk: one folder for the
    # session (the doc examples share their random lists' nulls), none in the home folder
    os.environ["LEARNABILITY_CACHE_DIR"] = str(userenv.ROOT / "learnability-cache")
    # under xdist, wait for the controller's numba warm-up: every process that found no
    # compiled kernels would compile them itself, several at once
    import fcntl

    with open(userenv.ROOT / "numba-warm.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_SH)


@pytest.fixture
def planted(seed):
    """A 2000 x 50 Gaussian embedding with a 200-word concept shifted along one direction
    (tests/planted.py): (vectors, member rows)."""
    concept = planted_concept(seed)
    return concept.vectors, concept.members


@pytest.fixture
def server():
    """tests/local_server.py's server for the test: its base URL."""
    with serving() as url:
        yield url

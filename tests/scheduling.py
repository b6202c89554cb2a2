"""How the suite shares CI's two cores among its pytest-xdist workers (tests/conftest.py
holds the hooks that use this; docs/contributing/tests.md says it for contributors).

The shared smoke run (wfutil.smoke_run) is the longest chain: 181 jobs, then the
tests that read it. So the controller builds it at full priority from the start, while
the workers run at the lowest priority (WORKER_NICE) and get the cores the build leaves.
The scheduler hands a worker no test that reads the run until the run is built (such a
test would only wait), then hands those first. Each test is its own unit of work, but
for tests that share a module-scoped fixture, which go to one worker together (the
fixture is built once). Within that, the order is HEAVY's, then the collection's: the
longest tests start first, so that none of them starts last.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable
from pathlib import Path

TESTS = Path(__file__).resolve().parent

SMOKE_MODULES = ("test_workflow.py", "test_workflow_variants.py", "test_workflow_determinism.py")
WORKER_NICE = 19
# the longest tests (the timeline at the end of each run measures them), in the order
# they should start; a prefix of a node id after "tests/"
HEAVY = (
    "test_slurm.py::test_the_slurm_profile_runs",  # mostly waits on the scheduler
    "test_workflow_determinism.py::test_killed_runs",
    "test_workflow_determinism.py::test_statistics_are_identical",
    "test_workflow_variants.py::test_a_sweep",
    "test_workflow.py::test_rerun_semantics",
    "test_workflow_variants.py::test_a_contextual",
    "test_workflow.py::test_make_report",
    *SMOKE_MODULES,  # the others that read the run
    "test_site.py::test_every_example_on_a_page_runs_and_prints_what_the_page_shows[docs/"
    "getting-started/tutorial.md]",
    "test_site.py::test_every_example_on_a_page_runs_and_prints_what_the_page_shows[README.md]",
    "test_workflow_runs.py::test_multipart_dump",
    "test_workflow_runs.py::test_your_own_corpus",
    "test_workflow_runs.py::test_two_groups_of_one_table",
    "test_workflow_runs.py::test_module_with_a_prefix",
    "test_workflow_runs.py::test_pretrained_embeddings",
    "test_workflow_runs.py::test_paper_config",
    "test_benchmarks.py",
    "test_glove.py::test_reference_figures",
    "test_sanity.py",
    "test_plots.py",
)


def heavy_rank(nodeid: str) -> int:
    rel = nodeid.split("tests/", 1)[-1]
    return next((i for i, p in enumerate(HEAVY) if rel.startswith(p)), len(HEAVY))


def module_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0].rsplit("/", 1)[-1]


def reads_the_smoke_run(nodeid: str) -> bool:
    return module_of(nodeid) in SMOKE_MODULES


def _fixture_scope(node: ast.FunctionDef) -> str | None:
    """The scope of a function decorated as a pytest fixture ("function" by default)."""
    for deco in node.decorator_list:
        call = deco if isinstance(deco, ast.Call) else None
        target = call.func if call else deco
        if ast.unparse(target) in ("pytest.fixture", "fixture"):
            for kw in call.keywords if call else ():
                if kw.arg == "scope" and isinstance(kw.value, ast.Constant):
                    return str(kw.value.value)
            return "function"
    return None


@functools.cache
def sharing_tests(module: str) -> frozenset[str]:
    """The test functions of ``module`` (a file in tests/) that use, directly or through
    the module's other fixtures, a fixture the module defines with a scope wider than a
    function: they must run in one worker, or the fixture is built in each. Read from the
    source: pytest-xdist's controller collects nothing (tests/test_suite.py holds this
    equal to what collection finds)."""
    tree = ast.parse((TESTS / module).read_text(encoding="utf-8"))
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    params = {f.name: {a.arg for a in f.args.args} for f in functions}
    shared = {f.name for f in functions if _fixture_scope(f) not in (None, "function")}
    fixtures = {f.name for f in functions if _fixture_scope(f)}
    grew = True
    while grew:  # a fixture of the module that uses a shared one shares it
        more = {f for f in fixtures if params[f] & shared} - shared
        shared |= more
        grew = bool(more)
    return frozenset(
        f.name for f in functions if f.name.startswith("test_") and params[f.name] & shared
    )


def unit_of(nodeid: str) -> str:
    """The unit of work a test belongs to: its module for a test that shares a module
    fixture, else the test itself."""
    module = module_of(nodeid)
    name = nodeid.split("::")[-1].split("[", 1)[0]
    if (TESTS / module).is_file() and name in sharing_tests(module):
        return nodeid.split("::", 1)[0]
    return nodeid


def make_scheduler(config, log, smoke_run_built: Callable[[], bool]):
    """pytest-xdist's load-scope scheduler, with units from :func:`unit_of` and a test
    that reads the smoke run handed out only once ``smoke_run_built()`` (unless nothing
    else is left: a worker then waits on the build)."""
    from xdist.scheduler import LoadScopeScheduling

    class Scheduler(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return unit_of(nodeid)

        def _assign_work_unit(self, node) -> None:
            if not smoke_run_built():
                ready = next((s for s in self.workqueue if not reads_the_smoke_run(s)), None)
                if ready is not None:
                    self.workqueue.move_to_end(ready, last=False)
            super()._assign_work_unit(node)

    return Scheduler(config, log)

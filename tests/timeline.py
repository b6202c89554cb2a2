"""The suite's timeline, printed at the end of every run: each test's worker, start and end
(seconds from the session's start), the shared smoke run's build, and each worker's busy
time, so that where CI's minutes go is read off its output, not guessed.

A pytest plugin (conftest.py registers it). Under pytest-xdist the controller receives
every test's reports, each carrying its phases' wall-clock start and stop and the worker
that ran it; without xdist the one process does. The smoke build's times come from the
file wfutil.smoke_run writes beside the run.
"""

from __future__ import annotations

import json
import os
import resource
import time
from pathlib import Path

import pytest

# tests shorter than this are summed per worker, not listed one by one
LIST_FROM_S = 5.0


def _cpu() -> float:
    """CPU seconds of this process and of its children that have ended (a test's
    subprocesses: Snakemake and its jobs, the CLI, a browser)."""
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


class CpuClock:
    """In every process that runs tests: the CPU seconds each test took (set-up, call
    and teardown, its subprocesses included), put in its teardown report's
    ``user_properties``, which travel to the controller."""

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        item.stash[CPU_START] = _cpu()

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call) -> None:
        if call.when == "teardown" and CPU_START in item.stash:
            item.user_properties.append(("cpu", _cpu() - item.stash[CPU_START]))


CPU_START = pytest.StashKey[float]()


def machine_busy() -> float | None:
    """CPU seconds every process of the machine has used since boot (``/proc/stat``'s
    busy jiffies, all cores): the difference over the session counts what no test's
    process waited for, the smoke build in the controller and the SLURM cluster's
    daemons and jobs, beside the workers. None where there is no /proc/stat."""
    try:
        with open("/proc/stat") as fh:
            fields = fh.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    # user, nice, system, idle, iowait, irq, softirq, steal (guest is inside user)
    busy = [int(x) for x in fields[1:9]]
    del busy[3:5]  # idle and iowait: no CPU was used
    return sum(busy) / os.sysconf("SC_CLK_TCK")


class Timeline:
    def __init__(self, config: pytest.Config):
        self.config = config
        self.start = time.time()
        self.busy_start = machine_busy()
        self.tests: dict[str, dict] = {}

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        node = getattr(report, "node", None)
        worker = getattr(getattr(node, "gateway", None), "id", None) or os.environ.get(
            "PYTEST_XDIST_WORKER", "main"
        )
        row = self.tests.setdefault(
            report.nodeid, {"worker": worker, "start": report.start, "stop": report.stop}
        )
        row["start"] = min(row["start"], report.start)
        row["stop"] = max(row["stop"], report.stop)
        cpu = dict(report.user_properties).get("cpu")
        if cpu is not None:
            row["cpu"] = cpu
        if report.failed:
            row["failed"] = True

    def smoke_build(self) -> dict | None:
        base = self.config._tmp_path_factory.getbasetemp()  # the workers' folders' parent
        path = Path(base) / "smoke-run.times.json"
        return json.loads(path.read_text()) if path.exists() else None

    def pytest_terminal_summary(self, terminalreporter) -> None:
        """The timeline: wall-clock times from the session's first start, and each test's
        CPU seconds (its own and its subprocesses'): on CI's two cores, the suite cannot
        end before half the CPU total, nor before its longest chain of waits."""
        if not self.tests:
            return
        write = terminalreporter.write_line
        t0 = min(self.start, *(r["start"] for r in self.tests.values()))
        rows = sorted(self.tests.items(), key=lambda kv: kv[1]["start"])
        end = max(r["stop"] for r in self.tests.values()) - t0
        terminalreporter.section(f"timeline: {len(rows)} tests, {end:.0f} s from the first start")
        smoke = self.smoke_build()
        if smoke:
            write(
                f"smoke run built by {smoke['worker']}: {smoke['start'] - t0:7.1f} -> "
                f"{smoke['end'] - t0:7.1f} s ({smoke['end'] - smoke['start']:.0f} s, "
                f"{smoke['jobs']} jobs, {smoke.get('cpu', float('nan')):.0f} CPU s)"
            )
        busy: dict[str, float] = {}
        short: dict[str, list[float]] = {}
        cpu: dict[str, float] = {}
        head = f"{'worker':6} {'start':>7} {'end':>7} {'secs':>6} {'cpu':>6}"
        write(f"{head}  test (those of {LIST_FROM_S:.0f} s or more)")
        for nodeid, r in rows:
            secs = r["stop"] - r["start"]
            busy[r["worker"]] = busy.get(r["worker"], 0.0) + secs
            cpu[r["worker"]] = cpu.get(r["worker"], 0.0) + r.get("cpu", 0.0)
            if secs < LIST_FROM_S:
                short.setdefault(r["worker"], []).append(secs)
                continue
            mark = "  FAILED" if r.get("failed") else ""
            write(
                f"{r['worker']:6} {r['start'] - t0:7.1f} {r['stop'] - t0:7.1f} {secs:6.1f} "
                f"{r.get('cpu', float('nan')):6.1f}  "
                f"{nodeid}{mark}"
            )
        total = sum(cpu.values())
        write(f"all workers: {total:.0f} CPU s, at least {total / 2:.0f} s on two cores")
        busy_end = machine_busy()
        if self.busy_start is not None and busy_end is not None:
            machine = busy_end - self.busy_start
            built = smoke.get("cpu", 0.0) if smoke else 0.0
            write(
                f"the machine: {machine:.0f} CPU s busy in all, at least {machine / 2:.0f} s "
                f"on two cores (the workers' {total:.0f}, the smoke build's {built:.0f}, "
                f"and {max(machine - total - built, 0.0):.0f} outside the tests' processes: the "
                "SLURM cluster's jobs and daemons, the controller, anything else running)"
            )
        for worker in sorted(busy):
            last = max(r["stop"] for r in self.tests.values() if r["worker"] == worker) - t0
            few = short.get(worker, [])
            write(
                f"{worker}: busy {busy[worker]:.0f} s, {cpu[worker]:.0f} CPU s, last test ends at "
                f"{last:.0f} s; "
                f"{len(few)} shorter tests, {sum(few):.0f} s"
            )


def register(config: pytest.Config) -> None:
    config.pluginmanager.register(CpuClock(), "learnability-cpu-clock")
    if hasattr(config, "workerinput"):
        return  # the controller prints it, from the reports every worker sends
    config.pluginmanager.register(Timeline(config), "learnability-timeline")

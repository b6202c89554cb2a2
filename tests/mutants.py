"""Mutation testing of the package's newest modules (`make mutants`; not part of CI).

    .venv/bin/python tests/mutants.py run                      # every configured module
    .venv/bin/python tests/mutants.py run statistics/power.py --max-minutes 60
    .venv/bin/python tests/mutants.py list corpus/sources.py   # the mutants, not run
    .venv/bin/python tests/mutants.py recheck corpus/sources.py  # its survivors, again
    .venv/bin/python tests/mutants.py recheck --record corpus/sources.py  # ... kept
    .venv/bin/python tests/mutants.py report                   # report + docs' score table

Each mutant is one small change to one module (mutmut 2.5.1's operators, used as a
library): it is written into a private copy of the repository (`.mutants/work/N`, never
the working tree, where others run tests), and the test files that cover the module
(`tests/mutation/config.toml`) are run against the copy. A failing run kills the mutant;
a passing one lets it survive; one past its time limit is a timeout. Results are kept per
module in `.mutants/results/`, keyed on the content of the module, its test files, the
tests' conftest.py and shared test modules (`SHARED`) and this tool's options: a rerun
tests only the mutants of modules whose key changed, and resumes an interrupted run
where it stopped. A survivor is killed by a test, or listed in
`tests/mutation/equivalent.toml` with the reason it cannot be.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import datetime
import difflib
import fcntl
import hashlib
import io
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tarfile
import threading
import time
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = Path("src/learnability")
CONFIG = REPO / "tests/mutation/config.toml"
EQUIVALENTS = REPO / "tests/mutation/equivalent.toml"
REPORT = REPO / "tests/mutation/report.md"
DOC = REPO / "docs/contributing/tests.md"
WORK = REPO / ".mutants"
BEGIN, END = "<!-- mutants: begin -->", "<!-- mutants: end -->"
# fast and deterministic: stop at the first failure, no test reordering, no cache that
# a run could read from another, one process (the project's addopts ask for 4 workers)
PYTEST_OPTIONS = ("-x", "-q", "-p", "no:randomly", "-p", "no:cacheprovider", "-n", "0",
                  "-o", "addopts=")  # fmt: skip
# a results file of another layout, or made with other options, is not reused
SCHEMA = 1
# what a mutant's run can end as; an equivalent is a survivor listed as such
STATUSES = ("killed", "survived", "timeout")


@dataclasses.dataclass(frozen=True)
class Mutant:
    """One mutation of one module: the lines it changes (``before``, as they are in the
    module, and ``after``), the first one's number, and the whole mutated source."""

    module: str
    line: int
    before: str
    after: str
    source: str = dataclasses.field(repr=False, compare=False)

    @property
    def diff(self) -> str:
        return "\n".join([f"- {x}" for x in self.before.split("\n")]
                         + [f"+ {x}" for x in self.after.split("\n")])  # fmt: skip


def _mutate_all(module: str, source: str) -> list[str]:
    """Each of mutmut's mutants of ``source``, as the whole mutated source."""
    import mutmut

    ids = mutmut.list_mutations(mutmut.Context(source=source, filename=module))
    out = []
    for mutation_id in ids:
        context = mutmut.Context(source=source, mutation_id=mutation_id, filename=module)
        mutated, count = mutmut.mutate(context)
        if count != 1 or mutated == source:  # mutmut's own consistency: one real change
            raise RuntimeError(f"{module}: mutant {mutation_id} changes nothing")
        out.append(mutated)
    return out


def _top_level_spans(source: str) -> list[tuple[int, int]]:
    """The 0-based line ranges of ``source``'s top-level statements, decorators included."""
    import ast

    spans = []
    for node in ast.parse(source).body:
        first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
        spans.append((first - 1, node.end_lineno))
    return spans


def _without_annotations(source: str) -> str | None:
    """``source``'s syntax tree with its variables' annotations blanked (mutmut mutates
    no argument's or return's); None where it does not parse."""
    import ast

    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign):
            node.annotation = ast.Constant(None)
    return ast.dump(tree)


def annotations_only(source: str, mutated: str) -> bool:
    """Whether ``mutated`` differs from ``source`` in annotations alone, in a module whose
    annotations are never evaluated (``from __future__ import annotations``: they stay
    strings, which no code of the package reads as types): no test can tell such a
    mutant from the module, so it is not run (mutmut 3 does not make them)."""
    future = "from __future__ import annotations" in source.splitlines()
    return future and _without_annotations(source) == _without_annotations(mutated) is not None


def mutants_of(module: str, source: str) -> tuple[list[Mutant], list[tuple[int, int]]]:
    """Every mutant mutmut makes of ``source``, in the module's order, each with the
    lines it changes (found by diffing, so that a mutant is named by its text and not by
    a line number that any edit above it shifts); and the 1-based line ranges left
    unmutated. mutmut's parser (parso 0.8) does not know every syntax of Python 3.11
    (parenthesised context managers): where the module does not parse, each top-level
    statement is mutated on its own, and those that do not parse either are left out.
    Mutants of annotations alone are left out where they are never evaluated
    (:func:`annotations_only`)."""
    import parso

    lines = source.splitlines()
    skipped: list[tuple[int, int]] = []
    try:
        sources = _mutate_all(module, source)
    except parso.ParserSyntaxError:
        sources = []
        for start, end in _top_level_spans(source):
            try:
                chunks = _mutate_all(module, "\n".join(lines[start:end]) + "\n")
            except parso.ParserSyntaxError:
                skipped.append((start + 1, end))
                continue
            sources += ["\n".join(lines[:start] + c.splitlines() + lines[end:]) + "\n"
                        for c in chunks]  # fmt: skip
    out = []
    for mutated in sources:
        if annotations_only(source, mutated):
            continue
        new = mutated.splitlines()
        blocks = [b for b in difflib.SequenceMatcher(None, lines, new, autojunk=False)
                  .get_opcodes() if b[0] != "equal"]  # fmt: skip
        first, last = blocks[0], blocks[-1]
        out.append(Mutant(module, first[1] + 1, "\n".join(lines[first[1] : last[2]]),
                          "\n".join(new[first[3] : last[4]]), mutated))  # fmt: skip
    return out, skipped


def mutant_ids(mutants: list[Mutant]) -> list[str]:
    """A stable id per mutant: its module, the lines before and after and, where the same
    change occurs on several identical lines, which occurrence (in the module's order)."""
    seen: dict[tuple[str, str], int] = {}
    ids = []
    for m in mutants:
        change = (_norm(m.before), _norm(m.after))  # as the equivalents file names it
        n = seen[change] = seen.get(change, -1) + 1
        text = f"{m.module}\0{change[0]}\0{change[1]}\0{n}"
        ids.append(hashlib.sha256(text.encode()).hexdigest()[:12])
    return ids


def cache_key(module_source: str, tests: dict[str, str], conftest: str, options: dict) -> str:
    """What a module's results depend on: its source, the content of each test file that
    covers it (by name), the tests' shared modules (`shared_source`) and the run's
    options. Other modules the tests import are not in it (any edit anywhere would rerun
    everything): `--force` reruns a module whose dependencies changed."""
    digest = hashlib.sha256()
    header = json.dumps({"schema": SCHEMA, "pytest": PYTEST_OPTIONS, **options}, sort_keys=True)
    parts = [header, module_source, conftest,
             *(f"{name}\0{tests[name]}" for name in sorted(tests))]  # fmt: skip
    for part in parts:
        digest.update(hashlib.sha256(part.encode()).digest())
    return digest.hexdigest()


def load_config(path: Path = CONFIG) -> dict:
    with path.open("rb") as f:
        config = tomllib.load(f)
    for module, entry in config["modules"].items():
        if not entry.get("tests"):
            raise SystemExit(f"{path}: {module} names no test files")
    return config


def load_equivalents(path: Path = EQUIVALENTS) -> list[dict]:
    if not path.exists():
        return []
    with path.open("rb") as f:
        entries = tomllib.load(f).get("equivalent", [])
    for e in entries:
        missing = {"module", "before", "after", "reason"} - set(e)
        if missing or not e["reason"].strip():
            raise SystemExit(f"{path}: an entry lacks {sorted(missing) or ['a reason']}: {e}")
    return entries


def _norm(text: str) -> str:
    return "\n".join(line.strip() for line in text.strip().split("\n"))


def classify(module: str, results: dict[str, dict], equivalents: list[dict]) -> tuple[dict, list]:
    """The report's view of one module's results: each mutant's status, a survivor
    listed in ``equivalents`` (same module, same lines before and after, whitespace at
    the lines' ends ignored) counted as equivalent with its reason; and the entries of
    ``equivalents`` for this module that match no mutant (stale: the code changed)."""
    listed = {(_norm(e["before"]), _norm(e["after"])): e for e in equivalents
              if e["module"] == module}  # fmt: skip
    used = set()
    out = {}
    for mid, r in results.items():
        key = (_norm(r["before"]), _norm(r["after"]))
        status = r["status"]
        if key in listed:
            used.add(key)
            if status == "survived":
                out[mid] = {**r, "status": "equivalent", "reason": listed[key]["reason"]}
                continue
        out[mid] = r
    stale = [e for k, e in listed.items() if k not in used]
    return out, stale


def counts(results: dict[str, dict]) -> dict[str, int]:
    """Mutants per status, their total, and the score: the share of mutants not listed
    as equivalent that the tests detect (killed, or past the time limit, which CI's
    per-test timeout would fail too)."""
    c = {s: 0 for s in ("killed", "survived", "equivalent", "timeout")}
    for r in results.values():
        c[r["status"]] += 1
    c["total"] = sum(c.values())
    return c


def score(c: dict[str, int]) -> float | None:
    scored = c["total"] - c["equivalent"]
    return (c["killed"] + c["timeout"]) / scored if scored else None


# -- which tests cover which lines ---------------------------------------------------
# Loaded into the baseline's pytest (`-p mutants_tracer`, a copy of this file): with
# MUTANTS_TRACE naming the module's file, it records which lines of that file each test
# executes (lines run at import, before any test, under ""), and writes them as JSON to
# MUTANTS_TRACE_OUT. A mutant then runs first against the tests that execute its lines.


class _LineTracer:
    def __init__(self, target: str, out: str):
        self.target, self.out = target, out
        self.current = ""
        self.lines: dict[str, set[int]] = {}

    def _local(self, frame, event, arg):
        if event == "line":
            self.lines.setdefault(self.current, set()).add(frame.f_lineno)
        return self._local

    def _global(self, frame, event, arg):
        if frame.f_code.co_filename != self.target:
            return None  # no line events for other files: the tests run near full speed
        self.lines.setdefault(self.current, set()).add(frame.f_lineno)
        return self._local

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_protocol(self, item, nextitem):
        self.current = item.nodeid
        self.lines.setdefault(item.nodeid, set())

    def start(self) -> None:
        sys.settrace(self._global)
        threading.settrace(self._global)

    def write(self) -> None:
        sys.settrace(None)
        Path(self.out).write_text(json.dumps({k: sorted(v) for k, v in self.lines.items()}))


def pytest_configure(config) -> None:
    target = os.environ.get("MUTANTS_TRACE")
    if target:
        tracer = _LineTracer(os.path.realpath(target), os.environ["MUTANTS_TRACE_OUT"])
        config.pluginmanager.register(tracer, "mutants-tracer")
        tracer.start()


def pytest_unconfigure(config) -> None:
    tracer = config.pluginmanager.get_plugin("mutants-tracer")
    if tracer is not None:
        tracer.write()


def tests_for(lines: range, coverage: dict[str, list[int]]) -> list[str] | None:
    """The tests (node ids, in the order they ran) that execute any of ``lines``, or None
    (run them all) where a line runs at import, or no test was seen to execute it (it
    may run in a subprocess, which is not traced)."""
    wanted = set(lines)
    if wanted & set(coverage.get("", ())):
        return None
    chosen = [t for t, seen in coverage.items() if t and wanted & set(seen)]
    return chosen or None


# -- running --------------------------------------------------------------------------


def copy_repo(dest: Path, tree: bool) -> str:
    """The tracked files of HEAD (or, with ``tree``, of the working tree as they are now)
    in ``dest``, replaced whole; returns the commit (with "+tree" when from the tree)."""
    commit = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=REPO,
                            capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    if tree:
        names = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True,
                               check=True).stdout.decode().split("\0")  # fmt: skip
        for name in filter(None, names):
            src = REPO / name
            if src.is_file():
                (dest / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dest / name)
        return commit + "+tree"
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=REPO, capture_output=True,
                             check=True).stdout  # fmt: skip
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(dest, filter="data")
    return commit


def _env(copy: Path) -> dict[str, str]:
    # the copy's package first on the path, before the editable install's: the tests
    # import the mutated module (the canary checks it); no bytecode written, so that a
    # mutant never runs another mutant's cached code
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(copy / "src"), env.get("PYTHONPATH")]))
    return env


def run_tests(copy: Path, tests: list[str], timeout: float, trace: str | None = None
              ) -> tuple[str, float, str]:  # fmt: skip
    """Run ``tests`` in ``copy``: killed (pytest failed), survived (passed) or timeout,
    with the seconds taken and the output's tail; with ``trace`` (a module's path in the
    copy), the lines each test runs go to .mutants/coverage.json."""
    start = time.perf_counter()
    env, plugin = _env(copy), []
    if trace:
        env.update(MUTANTS_TRACE=trace, MUTANTS_TRACE_OUT=str(WORK / "coverage.json"))
        # this file as the plugin, from a folder of its own (the copy may be HEAD's,
        # without it; the working tree's tests/ on the path would shadow the copy's)
        (WORK / "plugin").mkdir(parents=True, exist_ok=True)
        shutil.copy(__file__, WORK / "plugin/mutants_tracer.py")
        env["PYTHONPATH"] += os.pathsep + str(WORK / "plugin")
        plugin = ["-p", "mutants_tracer"]
    command = [sys.executable, "-m", "pytest", *PYTEST_OPTIONS, *plugin, *tests]
    proc = subprocess.Popen(command, cwd=copy, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)  # fmt: skip
    try:
        out, _ = proc.communicate(timeout=timeout)
        status = "survived" if proc.returncode == 0 else "killed"
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the whole group: pytest and what it started
        out, _ = proc.communicate()
        status = "timeout"
    return status, time.perf_counter() - start, (out or "")[-2000:]


def write_source(path: Path, source: str, stamp: int) -> None:
    # a distinct modification time per mutant: caches keyed on a source's time and size
    # (bytecode, numba's) never serve one mutant's code to another of the same size
    path.write_text(source)
    os.utime(path, (stamp, stamp))


class Results:
    """One module's results file, written after each mutant so that a run can stop at
    any point and resume."""

    def __init__(self, module: str):
        self.path = WORK / "results" / (module.replace("/", "__") + ".json")
        self.data = json.loads(self.path.read_text()) if self.path.exists() else {}
        self.lock = threading.Lock()

    def reset(self, key: str, **info) -> None:
        self.data = {"key": key, **info, "results": {}}
        self.save()

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.data, indent=1, sort_keys=True))
        tmp.replace(self.path)


# The test modules every test file may use (its fixtures; the shared references, planted
# concepts, dumps and server): in every module's key, as conftest.py is
SHARED = ("dumps.py", "local_server.py", "marks.py", "paths.py", "planted.py", "references.py")


def shared_source(root: Path) -> str:
    """conftest.py's text, then each shared test module's (named) that ``root`` has."""
    text = (root / "tests/conftest.py").read_text()
    for name in SHARED:
        if (root / "tests" / name).exists():
            text += f"\0{name}\0" + (root / "tests" / name).read_text()
    return text


def module_key(root: Path, module: str, tests: list[str], options: dict) -> str:
    # a test may be named by its node id (a file's one test that covers the module):
    # its whole file is in the key
    return cache_key((root / PACKAGE / module).read_text(),
                     {t: (root / t.split("::")[0]).read_text() for t in tests},
                     shared_source(root), options)  # fmt: skip


def run_module(module: str, entry: dict, copies: list[Path], commit: str, args) -> None:
    tests = entry["tests"]
    options = {"timeout": args.timeout, "factor": args.factor}
    key = module_key(copies[0], module, tests, options)
    results = Results(module)
    if args.force or results.data.get("key") != key:
        results.reset(key, commit=commit, tests=tests, options=options)
    done = results.data["results"]
    source = (copies[0] / PACKAGE / module).read_text()
    mutants, skipped = mutants_of(module, source)
    ids = mutant_ids(mutants)
    results.data.update(unparsed=skipped, mutants=len(mutants))
    for gone in set(done) - set(ids):  # results of mutants this version no longer makes
        del done[gone]
    todo = [(i, m) for i, m in zip(ids, mutants, strict=True) if i not in done]
    print(f"{module}: {len(mutants)} mutants, {len(todo)} to run ({commit})", flush=True)
    if not todo:
        results.data["finished"] = True
        results.save()
        return
    if "baseline_s" not in results.data:
        path = copies[0] / PACKAGE / module
        status, seconds, out = run_tests(copies[0], tests, args.timeout * 10, str(path))
        if status != "survived":
            print(f"{module}: its tests fail unmutated; skipped\n{out}", flush=True)
            return
        results.data["coverage"] = json.loads((WORK / "coverage.json").read_text())
        # the canary: the module raising on import must fail its tests, or they do not
        # import the copy's module (or do not cover it)
        write_source(path, "raise RuntimeError('mutants: canary')\n" + source, 1)
        canary, _, out = run_tests(copies[0], tests, args.timeout * 10)
        write_source(path, source, int(time.time()))
        if canary != "killed":
            raise SystemExit(f"{module}: the canary was not killed ({canary}): do its tests "
                             f"import the copy's module?\n{out}")  # fmt: skip
        results.data.update(baseline_s=round(seconds, 2), commit=commit)
        results.save()
    limit = max(args.timeout, args.factor * results.data["baseline_s"])
    coverage = results.data["coverage"]
    deadline = args.deadline
    free: queue.Queue[Path] = queue.Queue()
    for c in copies:
        free.put(c)

    def one(n: int, mid: str, m: Mutant) -> None:
        if deadline and time.time() > deadline:
            return
        copy = free.get()
        path = copy / PACKAGE / module
        try:
            write_source(path, m.source, 2 + n)
            # first the tests that run the mutated lines; a survivor there is run against
            # every test file too (a line may run in a test's subprocess, or a fixture
            # another test set up), so that the result is the whole files' result
            chosen = tests_for(range(m.line, m.line + m.before.count("\n") + 1), coverage)
            status, seconds, out = run_tests(copy, chosen or tests, limit)
            if chosen and status == "survived":
                status, more, out = run_tests(copy, tests, limit)
                seconds += more
        finally:
            write_source(path, source, int(time.time()))
            free.put(copy)
        with results.lock:
            done[mid] = {"status": status, "line": m.line, "before": m.before,
                         "after": m.after, "seconds": round(seconds, 2)}  # fmt: skip
            results.save()
            print(f"  {len(done)}/{len(mutants)} line {m.line}: {status} ({seconds:.1f} s)",
                  flush=True)  # fmt: skip

    with concurrent.futures.ThreadPoolExecutor(len(copies)) as pool:
        for f in [pool.submit(one, n, i, m) for n, (i, m) in enumerate(todo)]:
            f.result()
    results.data["mutants"] = len(mutants)
    results.data["finished"] = len(done) == len(mutants)
    results.save()


def cmd_run(args) -> int:
    config = load_config()
    modules = args.modules or list(config["modules"])
    unknown = set(modules) - set(config["modules"])
    if unknown:
        raise SystemExit(f"not in {CONFIG.relative_to(REPO)}: {sorted(unknown)}")
    args.deadline = time.time() + 60 * args.max_minutes if args.max_minutes else None
    # one run at a time: two would write their mutants into the same copies
    WORK.mkdir(exist_ok=True)
    lock = (WORK / "lock").open("w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise SystemExit(f"another `mutants.py run` holds {WORK / 'lock'}") from None
    copies = [WORK / "work" / str(n) for n in range(args.jobs)]
    commit = ""
    for c in copies:
        commit = copy_repo(c, args.tree)
    for module in modules:
        if args.deadline and time.time() > args.deadline:
            print("time is up: rerun to go on where this stopped")
            break
        run_module(module, config["modules"][module], copies, commit, args)
    return 0


def cmd_recheck(args) -> int:
    """The survivors a module's last run recorded, each run again against the tests of
    HEAD (or of the working tree): which a new test kills, which survive, which the code
    no longer makes. Without ``--record`` it writes no result (a quick check while
    killing survivors); with it, see `record_recheck`."""
    config = load_config()
    equivalents = load_equivalents()
    WORK.mkdir(exist_ok=True)
    lock = (WORK / "recheck.lock").open("w")  # its own copy: it may run beside `run`
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise SystemExit(f"another `mutants.py recheck` holds {WORK / 'recheck.lock'}") from None
    if args.record and args.tree:
        raise SystemExit("--record takes HEAD's tests only: commit them, then recheck")
    copy = WORK / "work" / "recheck"
    commit = copy_repo(copy, args.tree)
    for module in args.modules or list(config["modules"]):
        results = Results(module)
        data = results.data
        recorded, _ = classify(module, data.get("results", {}), equivalents)
        alive = {mid for mid, r in recorded.items() if r["status"] == "survived"}
        source = (copy / PACKAGE / module).read_text()
        mutants, _ = mutants_of(module, source)
        tests = config["modules"][module]["tests"]
        if args.record:
            # refused before any mutant runs: a result recorded is a claim about the run
            problem = recheck_refusal(data, source, _source_at(data.get("commit", ""), module),
                                      collected(copy, tests))  # fmt: skip
            if problem:
                raise SystemExit(f"{module}: not recorded: {problem}")
        outcomes = {}
        for n, (mid, m) in enumerate(zip(mutant_ids(mutants), mutants, strict=True)):
            if mid not in alive:
                continue
            path = copy / PACKAGE / module
            write_source(path, m.source, 2 + n)
            try:
                # the whole list in its order (the quick tests first): the tests that ran
                # the line in the run let the mutant live then and are in these files
                status, seconds, _ = run_tests(copy, tests, args.timeout)
            finally:
                write_source(path, source, int(time.time()))
            outcomes[mid] = (status, seconds)
            print(f"{module}:{m.line} {mid} {status} ({seconds:.1f} s)\n{m.diff}", flush=True)
        print(f"{module}: {len(alive)} survivors recorded, {len(outcomes)} rerun at {commit}, "
              f"{len(alive) - len(outcomes)} no longer made", flush=True)  # fmt: skip
        if args.record:
            key = module_key(copy, module, tests, data.get("options", {}))
            results.data = record_recheck(data, outcomes, key, commit)
            results.save()
    return 0


def _source_at(commit: str, module: str) -> str | None:
    """The module's source at ``commit`` (a run's, "+tree" stripped), or None."""
    proc = subprocess.run(["git", "show", f"{commit.removesuffix('+tree')}:{PACKAGE / module}"],
                          cwd=REPO, capture_output=True, text=True)  # fmt: skip
    return proc.stdout if proc.returncode == 0 and commit else None


def collected(copy: Path, tests: list[str]) -> set[str]:
    """The node ids pytest collects from ``tests`` in ``copy``."""
    options = [o for o in PYTEST_OPTIONS if o != "-x"]  # one -q: -qq prints counts alone
    proc = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", *options,
                           *tests], cwd=copy, env=_env(copy),
                          capture_output=True, text=True)  # fmt: skip
    return {line.strip() for line in proc.stdout.splitlines() if "::" in line}


def recheck_refusal(data: dict, source: str, run_source: str | None,
                    tests_now: set[str]) -> str | None:  # fmt: skip
    """Why a recheck may not be recorded into a run's results, or None. Recording keeps
    the run's kills and replaces its survivors' outcomes by the recheck's, which holds
    only where the mutants are the run's (the module unchanged since the run), every
    mutant was run, and every test the run ran is still there (tests were added or
    strengthened, not removed). A test whose body was weakened is not detected: `run
    --force` is the full confirmation."""
    if not data.get("results"):
        return "no run recorded: `run` it first"
    if not data.get("finished"):
        return "its run is unfinished: `run` it to the end first"
    if run_source is None:
        return f"the run's commit {data.get('commit')!r} is not in this repository"
    if source != run_source:
        return f"the module changed since the run at {data['commit']}: `run` it again"
    gone = sorted(t for t in data.get("coverage", {}) if t and t not in tests_now)
    if gone:
        return (f"{len(gone)} test(s) the run ran are gone or renamed ({gone[0]}, ...): "
                "`run` it again")  # fmt: skip
    return None


def record_recheck(data: dict, outcomes: dict[str, tuple[str, float]], key: str,
                   commit: str) -> dict:  # fmt: skip
    """The run's results with each rechecked survivor's new outcome (tagged with the
    recheck's commit) and the key of the tests it was rechecked against: a later `run`
    finds nothing to do, and the report says which survivors were rechecked where."""
    results = {}
    for mid, r in data["results"].items():
        if mid in outcomes:
            status, seconds = outcomes[mid]
            r = {**r, "status": status, "seconds": round(seconds, 2), "rechecked": commit}
        results[mid] = r
    out = {**data, "results": results, "key": key}
    # no survivor to rerun (all killed or equivalent): the run's results stand as they are
    return {**out, "rechecked": commit} if outcomes else out


def cmd_list(args) -> int:
    for module in args.modules or list(load_config()["modules"]):
        source = (REPO / PACKAGE / module).read_text()
        mutants, skipped = mutants_of(module, source)
        for start, end in skipped:
            print(f"{module}:{start}-{end} not mutated (mutmut's parser cannot read it)")
        for mid, m in zip(mutant_ids(mutants), mutants, strict=True):
            print(f"{module}:{m.line} {mid}\n{m.diff}")
    return 0


# -- the report -----------------------------------------------------------------------

HEADER = "| module | killed | survived | equivalent | timeout | total | score | run against |"


def table_row(module: str, c: dict[str, int] | None, commit: str) -> str:
    if c is None:
        return f"| `{module}` | | | | | | not run | |"
    s = score(c)
    shown = "–" if s is None else f"{100 * s:.1f} %"
    return (f"| `{module}` | {c['killed']} | {c['survived']} | {c['equivalent']} | "
            f"{c['timeout']} | {c['total']} | {shown} | {commit} |")  # fmt: skip


def parse_table(text: str) -> dict[str, dict]:
    """The score table between the markers of ``text``, read back: per module its
    counts and score (None where not run)."""
    body = text.split(BEGIN, 1)[1].split(END, 1)[0]
    rows = {}
    for line in body.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("| `"):
            continue
        module = cells[0].strip("`")
        if cells[6] == "not run":
            rows[module] = None
            continue
        c = dict(zip(("killed", "survived", "equivalent", "timeout", "total"),
                     map(int, cells[1:6]), strict=True))  # fmt: skip
        c["score"] = None if cells[6] == "–" else float(cells[6].rstrip(" %")) / 100
        c["run"] = cells[7]
        rows[module] = c
    return rows


def build_report(config: dict, equivalents: list[dict]) -> tuple[str, str]:
    """The report (Markdown) and the score table for the docs, from the results kept
    in .mutants/results and the equivalents file."""
    rows, sections = [], []
    for module, entry in config["modules"].items():
        data = Results(module).data
        if not data.get("results"):
            rows.append(table_row(module, None, ""))
            continue
        results, stale = classify(module, data["results"], equivalents)
        c = counts(results)
        current = module_key(REPO, module, entry["tests"], data.get("options", {}))
        state, notes = [], [data.get("commit", "")]
        if not data.get("finished"):
            run = len(data["results"])
            state.append(f"**Unfinished**: {run} of {data.get('mutants', '?')} mutants run.")
            notes.append(f"{run} of {data.get('mutants', '?')} run")
        if data.get("rechecked"):
            n = sum(r.get("rechecked") == data["rechecked"] for r in data["results"].values())
            survivors = "survivor" if n == 1 else "survivors"
            state.append(f"Its {n} {survivors} rechecked at {data['rechecked']} "
                         "(`recheck --record`); the rest are the run's.")  # fmt: skip
            notes.append(f"{n} {survivors} rechecked at {data['rechecked']}")
        if data.get("key") != current:
            state.append("**Out of date**: the module, its tests, conftest.py or a shared "
                         "test module changed since.")  # fmt: skip
            notes.append("out of date")
        rows.append(table_row(module, c, "; ".join(notes)))
        state += [f"Lines {a}-{b} not mutated: mutmut's parser (parso) cannot read them."
                  for a, b in data.get("unparsed", [])]  # fmt: skip
        lines = [f"## `{module}`", "",
                 f"Run against commit {data.get('commit')} with "
                 f"{', '.join(f'`{t}`' for t in data.get('tests', entry['tests']))}; "
                 f"the unmutated tests took {data.get('baseline_s', '?')} s.", ""]  # fmt: skip
        lines += [x for s in state for x in (s, "")]
        for status, title in (("survived", "Survivors"), ("timeout", "Timeouts"),
                              ("equivalent", "Equivalent")):  # fmt: skip
            chosen = sorted((r for r in results.values() if r["status"] == status),
                            key=lambda r: r["line"])  # fmt: skip
            if not chosen:
                continue
            lines += [f"### {title} ({len(chosen)})", ""]
            for r in chosen:
                m = Mutant(module, r["line"], r["before"], r["after"], "")
                lines += [f"Line {r['line']}" + (f": {r['reason']}" if "reason" in r else ""),
                          "", "```diff", m.diff, "```", ""]  # fmt: skip
        if stale:
            lines += [f"### Stale equivalents ({len(stale)})", "",
                      "Listed in `tests/mutation/equivalent.toml`, but no mutant of the module "
                      "makes this change any more:", ""]  # fmt: skip
            for e in stale:
                lines += ["```diff", Mutant(module, 0, e["before"], e["after"], "").diff, "```", ""]
        sections.append("\n".join(lines))
    table = "\n".join([HEADER, "|---|---:|---:|---:|---:|---:|---:|---|", *rows])
    report = "\n\n".join([
        "# Mutation testing: the report",
        "Written by `.venv/bin/python tests/mutants.py report` (the last step of `make "
        "mutants`) from the results kept in `.mutants/results`; how it works and what the "
        "columns mean: `docs/contributing/tests.md`, section *Mutation testing*. A survivor "
        "is a change to the module that its tests pass: kill it with a test that checks the "
        "claim against an independent reference, or list it in "
        "`tests/mutation/equivalent.toml` with the reason no test can.",
        table, *sections])  # fmt: skip
    return report.rstrip() + "\n", table


def replace_table(text: str, table: str) -> str:
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{DOC}: no {BEGIN} ... {END} markers")
    head, rest = text.split(BEGIN, 1)
    return f"{head}{BEGIN}\n{table}\n{END}{rest.split(END, 1)[1]}"


def cmd_report(args) -> int:
    report, table = build_report(load_config(), load_equivalents())
    REPORT.write_text(report)
    DOC.write_text(replace_table(DOC.read_text(), table))
    print(table)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run the mutants not yet run (all configured modules)")
    run.add_argument("modules", nargs="*", help="paths under src/learnability")
    run.add_argument("--jobs", type=int, default=1, help="mutants run at once")
    run.add_argument("--tree", action="store_true",
                     help="test the working tree's files (default: HEAD's)")  # fmt: skip
    run.add_argument("--force", action="store_true", help="rerun what is cached")
    run.add_argument("--timeout", type=float, default=60,
                     help="seconds a mutant may take at least (else 3x the baseline)")  # fmt: skip
    run.add_argument("--factor", type=float, default=3, help=argparse.SUPPRESS)
    run.add_argument("--max-minutes", type=float, default=None,
                     help="start no mutant after this long; rerun to go on")  # fmt: skip
    re_ = sub.add_parser("recheck", help="rerun the recorded survivors")
    re_.add_argument("modules", nargs="*")
    re_.add_argument("--tree", action="store_true", help="the working tree's tests")
    re_.add_argument("--record", action="store_true",
                     help="record the outcomes into the run's results")  # fmt: skip
    re_.add_argument("--timeout", type=float, default=300, help="seconds a mutant may take")
    lst = sub.add_parser("list", help="print the mutants of modules, without running them")
    lst.add_argument("modules", nargs="*")
    sub.add_parser("report", help=f"write {REPORT.relative_to(REPO)} and the docs' table")
    args = parser.parse_args()
    started = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(f"mutants {args.command}, {started}", flush=True)
    commands = {"run": cmd_run, "recheck": cmd_recheck, "list": cmd_list, "report": cmd_report}
    return commands[args.command](args)


if __name__ == "__main__":
    sys.exit(main())

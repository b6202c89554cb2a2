"""The code digest each rule carries (learnability.codedigest): what it follows, what it
ignores, and its closures checked against Python's own import system."""

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
from paths import REPO

from learnability import codedigest

SCRIPTS = sorted((REPO / "workflow" / "scripts").glob("*.py"))

FUNCTION = '''"""A module."""

import numpy as np


def f(x):
    """Twice x."""
    # double it
    return 2 * x
'''


def test_comments_docstrings_and_layout_do_not_change_the_digest_and_code_does():
    base = codedigest.scan(FUNCTION, "m").digest
    reworded = FUNCTION.replace('"""Twice x."""', '"""Two times x,\n    for any x."""')
    commented = FUNCTION.replace("# double it", "# double it (see the paper)\n    # again")
    relaid = FUNCTION.replace("return 2 * x", "return (2 *\n            x)")
    no_docs = FUNCTION.replace('"""A module."""\n', "").replace('    """Twice x."""\n', "")
    for same in (reworded, commented, relaid, no_docs):
        assert codedigest.scan(same, "m").digest == base
    edits = (("2 * x", "3 * x"), ("def f(x)", "def f(x, y=0)"),
             ('"""Twice x."""', '"""Twice x."""\n    x = abs(x)'))  # fmt: skip
    for old, new in edits:
        changed = FUNCTION.replace(old, new)
        assert codedigest.scan(changed, "m").digest != base
    assert codedigest.scan(FUNCTION, "m").libraries == {"numpy"}


def test_imports_are_followed_through_functions_registries_and_prefixes_not_lazy_names():
    source = """
import os
import importlib
from learnability.statistics import significance
from . import sibling


def later():
    from learnability.protocol.splits import draw_splits
    return importlib.import_module(f"learnability.analyses.{name}")


KIND = "learnability.evaluations.analogy"
TRAINER = "learnability.embeddings.word2vec:train_word2vec"
NOT_A_MODULE = "learnability.no_such_thing"


def __getattr__(name):
    from learnability import api
    return api
"""
    m = codedigest.scan(source, "learnability.corpus.here")
    assert m.imports == {"learnability.statistics", "learnability.statistics.significance",
                         "learnability.corpus", "learnability.protocol.splits",
                         "learnability.evaluations.analogy"}  # fmt: skip
    # a "module:function" is a dispatch target: the job that dispatches adds its own
    assert m.prefixes == {"learnability.analyses"} and m.libraries == set()
    code = codedigest.code_of_source(source, "script.py")
    assert "learnability.analyses.entanglement" in code.modules  # every module of the prefix
    assert "learnability.api" not in code.modules  # PEP 562's lazy name is not followed
    assert {"learnability", "learnability.protocol"} <= set(code.modules)  # packages above


def test_the_sizing_and_recording_modules_are_not_followed():
    """A refit resource model reruns nothing: the modules that size jobs are left out of
    every closure, which is sound only while no job runs them itself; nor does a change
    in how outputs are recorded, unless a script writes the records as its content."""
    for script in SCRIPTS:
        roots = codedigest.code_of(script).roots
        assert not codedigest.SIZING & set(roots), script.name
        assert not codedigest.SIZING & set(codedigest.code_of(script).modules), script.name
    # an analysis' cost lives with the resource models, not in its module
    code = codedigest.code_of_modules([_analysis_module("suggestions")])
    assert "learnability.analyses.suggestions" in code.modules
    assert not codedigest.SIZING & set(code.modules)
    # the record every job's log opens is not followed from there: the tables job writes
    # the report's provenance paragraph (its content); the p-values job only records
    # (named here, not read from RECORDING: a name dropped from it must show)
    records = {"learnability.provenance", "learnability.codedigest"}
    recording = {s.stem for s in SCRIPTS if records & set(codedigest.code_of(s).modules)}
    assert recording == {"write_tables"}


def _analysis_module(name: str) -> str:
    """The module the analyses' registry names for analysis ``name``."""
    from learnability.analyses.registry import target

    return target(name).split(":")[0]


def test_the_closures_are_narrow_where_the_workflow_needs_them_to_be():
    """Training runs no statistics, a learnability fit no statistics and no trainer, the
    p-values no fitting code; an analysis job no other analysis' code, and each analysis
    only the statistics it tests with (not the comparisons between embeddings); the
    analyses' report code is outside the analyses."""
    code = {s.stem: set(codedigest.code_of(s).modules) for s in SCRIPTS}
    stats = {m for m in code["pvalues"] if m.startswith("learnability.statistics.")}
    assert "learnability.statistics.significance" in stats
    for script in ("train_embedding", "learnability", "null_distribution",
                   "extract_corpus", "join_corpus"):  # fmt: skip
        assert not {m for m in code[script] if m.startswith("learnability.statistics.")}, script
    # an analysis job runs one analysis (the registry names each as a dispatch target,
    # and its rule's analysis_code param is that analysis' code): the script's own
    # closure holds none of them, and each analysis reaches only the statistics it tests
    # with
    from learnability.analyses.registry import ANALYSES

    assert {m for m in code["analysis"] if m.startswith("learnability.analyses.")} == {
        "learnability.analyses.base", "learnability.analyses.registry"
    }  # fmt: skip
    assert not {m for m in code["analysis"] if m.startswith("learnability.statistics.")}
    tests = {name: {m.rsplit(".", 1)[1]
                    for m in codedigest.code_of_modules([_analysis_module(name)]).modules
                    if m.startswith("learnability.statistics.")}
             for name in ANALYSES}  # fmt: skip
    assert tests == {"codelength": set(), "bounds": {"power"}, "suggestions": set(),
                     "words_needed": {"significance", "pvalue_methods", "power", "adjust"},
                     "suggestion_check": set(), "entanglement": {"adjust"}}  # fmt: skip
    # so with the corpus' readers (the extraction's reader_code param) and the
    # evaluations (evaluation_code): each job's closure holds none of its family's members
    assert not {m for m in code["extract_corpus"]
                if m.split(".")[-1] in ("mediawiki", "plaintext", "tables")}  # fmt: skip
    evaluations = {m for m in code["evaluate"] if m.startswith("learnability.evaluations.")}
    assert evaluations == {"learnability.evaluations.registry"}
    # the report jobs read every analysis' writer: they do not dispatch
    assert "learnability.analyses.entanglement" in code["analysis_report"]
    assert not {m for m in code["learnability"] if m.startswith("learnability.embeddings.")}
    assert "learnability.protocol.evaluate" not in code["pvalues"]
    assert "learnability.protocol.evaluate" in code["learnability"]
    assert "learnability.reports.plots" not in code["analysis"]
    # a trainer is a dispatch target: the training rule's trainer param covers its code,
    # one method's each
    trainers = {m for m in code["train_embedding"] if m.startswith("learnability.embeddings.")}
    assert not {"learnability.embeddings.word2vec", "learnability.embeddings.glove"} & trainers
    from learnability.embeddings.registry import method

    word2vec = codedigest.code_of_modules([method("word2vec").trainer.split(":")[0]])
    assert "learnability.embeddings.word2vec" in word2vec.modules
    assert (
        "learnability.embeddings.glove" not in word2vec.modules and "gensim" in word2vec.libraries
    )
    # GloVe reads an extracted corpus (corpus.lines), not how one is made: an edit to a
    # corpus source's reader or the wikitext stripper does not retrain it, nor does a
    # gensim upgrade under provenance.libraries: rerun
    glove = codedigest.code_of_modules([method("glove").trainer.split(":")[0]])
    assert "learnability.corpus.lines" in glove.modules
    extraction = {"extract", "sources", "tables", "plaintext", "documents", "wikitext", "mediawiki"}
    assert not {f"learnability.corpus.{m}" for m in extraction} & set(glove.modules)
    assert "gensim" not in glove.libraries


# One interpreter loads the third-party libraries the scripts use (which load nothing of
# the package), then forks a child per script that runs the script's import statements and
# reports the package's modules it then holds: a fresh interpreter each cost 35 starts of
# those libraries, about 20 CPU s of CI's
FORKED_IMPORTS = """
import json, os, sys
import matplotlib.pyplot, numba, numpy, pandas, pyarrow.parquet, scipy.stats, snakemake
assert not [m for m in sys.modules if m.split(".")[0] == "learnability"]
found = {}
for name, program in json.loads(sys.stdin.read()).items():
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child never returns to the loop: it exits here, whatever happens
        try:
            os.close(read)
            exec(compile(program, name, "exec"), {"__name__": "__main__"})
            loaded = [m for m in sys.modules if m.split(".")[0] == "learnability"]
            os.write(write, json.dumps(loaded).encode())
        except BaseException as exc:
            print(f"{name}: {type(exc).__name__}: {exc}", file=sys.stderr)
            os._exit(1)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as fh:
        out = fh.read()
    _, status = os.waitpid(pid, 0)
    if status != 0:
        raise SystemExit(f"{name}: its imports failed (status {status})")
    found[name] = json.loads(out)
print(json.dumps(found))
"""


def _imported_at_runtime(scripts: list[Path]) -> dict[Path, set[str]]:
    """The package modules Python loads when each script's import statements run."""
    programs = {}
    for script in scripts:
        tree = ast.parse(script.read_text())
        body = [ast.unparse(n) for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
        programs[script.name] = "\n".join(body)
    out = subprocess.run([sys.executable, "-c", FORKED_IMPORTS], input=json.dumps(programs),
                         capture_output=True, text=True, check=True, cwd=REPO,
                         timeout=300).stdout  # fmt: skip
    found = json.loads(out)
    return {script: set(found[script.name]) for script in scripts}


def test_every_module_python_loads_for_a_script_is_in_its_closure():
    """An independent reference: Python's import system. Whatever the scripts' imports
    load (registries importing their entries by name included) is in the closure, so no
    module a job runs at import can change without rerunning it; but the defaults' table,
    whose values reach a job as params (the next test)."""
    loaded = _imported_at_runtime(SCRIPTS)
    assert len(loaded) == len(SCRIPTS) > 30
    for script, modules in loaded.items():
        closure = set(codedigest.code_of(script).modules)
        assert modules, script.name
        skipped = codedigest.UNFOLLOWED | codedigest.RECORDING
        missing = {m for m in modules - closure if m not in skipped}
        assert not missing, (script.name, missing)


def test_an_analysis_job_loads_its_own_analysis_alone():
    """The analysis script's closure holds no analysis (the registry names them as
    dispatch targets): sound only while a job loads no other analysis' module. After the
    script's imports, asking the registry for one analysis loads what that analysis' own
    closure holds and nothing of another (Python's import system again, one analysis
    after another in one process)."""
    from learnability.analyses.registry import ANALYSES

    names = list(ANALYSES)
    script = REPO / "workflow" / "scripts" / "analysis.py"
    tree = ast.parse(script.read_text())
    imports = [ast.unparse(n) for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    program = "\n".join([*imports, "import json, sys", "def loaded():",
                         "    return sorted(m for m in sys.modules if 'learnability' in m)",
                         "steps = [loaded()]", f"for name in {names!r}:",
                         "    ANALYSES[name]", "    steps.append(loaded())",
                         "print(json.dumps(steps))"])  # fmt: skip
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                         check=True, cwd=REPO, timeout=300).stdout  # fmt: skip
    steps = [set(s) for s in json.loads(out)]
    own = set(codedigest.code_of(script).modules) | codedigest.UNFOLLOWED | codedigest.RECORDING
    assert steps[0] <= own
    for name, before, after in zip(names, steps[:-1], steps[1:], strict=True):
        target = set(codedigest.code_of_modules([_analysis_module(name)]).modules)
        assert _analysis_module(name) in after - before, name
        assert after - before <= target | codedigest.UNFOLLOWED, (name, after - before - target)


def test_the_defaults_table_is_in_no_closure_and_its_values_reach_the_jobs_as_params():
    """A default reaches a job as a param (Snakemake's validation writes every default
    into the config the rules read), so the defaults' table is in no job's closure: a new
    key or a changed default changes no script's digest, though nearly every script's
    code imports learnability.defaults, whose table it is. (That no job uses a default
    its rule does not pass is what the suite's workflow runs check, under
    LEARNABILITY_STRICT_DEFAULTS: tests/test_config.py.)"""
    reaching = 0
    for script in SCRIPTS:
        code = codedigest.code_of(script)
        assert codedigest.SCHEMA_DEFAULTS not in code.modules, script.name
        reaching += "learnability.defaults" in code.modules
    assert reaching > len(SCRIPTS) / 2
    # the scanner itself does follow the import (the table is left out by name)
    assert codedigest.SCHEMA_DEFAULTS in codedigest.module("learnability.defaults").imports


def test_a_missing_module_is_named(tmp_path):
    with pytest.raises(ModuleNotFoundError) as err:
        codedigest.module("learnability.nothing")
    assert str(err.value) == f"learnability.nothing: no such module in {codedigest.ROOT}"


def _package_modules() -> list[str]:
    return codedigest._package_modules(codedigest.PACKAGE)


def test_cost_constants_change_no_digest_and_only_the_sizing_modules_read_them():
    """A refit trainer rate or analysis cost reruns no job: every cost lives in the sizing
    modules, which no job's closure holds, and no module that runs in a job reads one."""
    import dataclasses

    from learnability.analyses.base import Analysis
    from learnability.embeddings.registry import Method
    from learnability.pipeline.resources import TrainerCost

    for script in SCRIPTS:
        assert not set(codedigest.code_of(script).modules) & codedigest.SIZING, script.name
    # the registries that jobs import hold no cost a refit would change
    fields = {f.name for f in dataclasses.fields(TrainerCost)} | {"seconds"}
    assert fields == {"rate", "rate_slope", "count_rate", "mem_per_mb", "per_entry", "seconds"}
    for entry in (Method, Analysis):
        assert not {f.name for f in dataclasses.fields(entry)} & fields, entry
    for name in _package_modules():
        if name in codedigest.SIZING:
            continue
        tree = ast.parse(codedigest.module_path(name).read_text())
        read = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)} & fields
        assert not read, (name, read)
    for script in SCRIPTS:
        tree = ast.parse(script.read_text())
        assert not {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)} & fields


def test_scans_read_back_from_the_cache_equal_fresh_ones_and_a_bad_cache_is_ignored(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    name = "learnability.statistics.significance"
    path = codedigest.module_path(name)
    fresh = codedigest.scan(path.read_text(), name, str(path))
    codedigest._module.cache_clear()
    assert codedigest.module(name) == fresh  # computed, then written
    written = list((tmp_path / "cache" / "learnability" / "codedigest").glob("*.json"))
    assert len(written) == 1
    codedigest._module.cache_clear()
    assert codedigest.module(name) == fresh  # read back
    # read back indeed, not scanned again: an entry doctored on disk is what comes back,
    # and it holds every field of the scan under its own name
    entry = json.loads(written[0].read_text())
    fields = ("imports", "prefixes", "libraries")
    assert entry == {"digest": fresh.digest, **{k: sorted(getattr(fresh, k)) for k in fields}}
    written[0].write_text(json.dumps({**entry, "digest": "doctored"}))
    codedigest._module.cache_clear()
    assert codedigest.module(name).digest == "doctored"
    assert not list(written[0].parent.glob("*.tmp"))  # the atomic write left nothing
    written[0].write_text("{not json")
    codedigest._module.cache_clear()
    assert codedigest.module(name) == fresh  # a broken entry is scanned again
    # a cache that cannot be written (its folder is a file, which stops root too)
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "a-file"))
    codedigest._module.cache_clear()
    try:
        assert codedigest.module(name) == fresh
    finally:
        codedigest._module.cache_clear()


def test_an_edited_source_is_scanned_again_though_its_path_size_and_mtime_are_the_old_ones(
    tmp_path, monkeypatch
):
    # the disk cache is keyed by content: a source edited to the same length with its
    # mtime set back (an editor or a copy that keeps times, a checkout within the clock's
    # tick) must not read back the old scan in a new process (cache_clear below)
    import os

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    source = tmp_path / "edited.py"
    name = "learnability.statistics.edited"
    real = codedigest.module_path
    monkeypatch.setattr(codedigest, "module_path", lambda n: source if n == name else real(n))
    old = "import numpy\n\n\ndef f(x):\n    return x + 1\n"
    new = "import scipy\n\n\ndef f(x):\n    return x - 1\n"
    assert len(old) == len(new)
    source.write_text(old)
    stamp = source.stat().st_mtime_ns
    codedigest._module.cache_clear()
    try:
        first = codedigest.module(name)
        assert first.libraries == {"numpy"}
        assert len(list((tmp_path / "cache").rglob("*.json"))) == 1  # written
        source.write_text(new)
        os.utime(source, ns=(stamp, stamp))
        assert source.stat().st_size == len(old) and source.stat().st_mtime_ns == stamp
        codedigest._module.cache_clear()
        second = codedigest.module(name)
    finally:
        codedigest._module.cache_clear()
    assert second.libraries == {"scipy"} and second.digest != first.digest
    # and the new scan is what a fresh one gives, the old one still cached beside it
    assert second == codedigest.scan(new, name, str(source))
    assert len(list((tmp_path / "cache").rglob("*.json"))) == 2


@pytest.mark.parametrize("is_package", [False, True])
def test_relative_imports_resolve_as_pythons_import_system_resolves_them(is_package):
    # importlib's own resolution is the reference: from a package's __init__ (its name is
    # the package) and from a module in it (its package is its name's parent), one and
    # two dots, with and without a module after them
    from importlib.util import resolve_name

    name = "learnability.analyses.registry" if not is_package else "learnability.analyses"
    package = name if is_package else name.rpartition(".")[0]
    cases = {".": "bounds", "..": "statistics", "..statistics": "power",
             "..corpus.sources": "SourceKind", ".bounds": "bounds_of"}  # fmt: skip
    for dots, alias in cases.items():
        found = codedigest.scan(f"from {dots} import {alias}\n", name, is_package=is_package)
        base = resolve_name(dots, package)
        expected = {base} | ({f"{base}.{alias}"} if codedigest.module_path(f"{base}.{alias}")
                             else set())  # fmt: skip
        assert found.imports == expected, (dots, alias, found.imports)


def test_the_pipeline_modules_that_read_the_cost_models_are_the_sizing_modules():
    # from the import graph, not from SIZING itself: a module of the pipeline that imports
    # the resource models sizes jobs (the models themselves included), and is not followed
    sizing = {"learnability.pipeline.resources"}
    for name in _package_modules():
        if name.startswith("learnability.pipeline."):
            if "learnability.pipeline.resources" in codedigest.module(name).imports:
                sizing.add(name)
    assert sizing == set(codedigest.SIZING)
    # and a scan is immutable: the cache hands the same object to every caller
    import dataclasses

    with pytest.raises(dataclasses.FrozenInstanceError):
        codedigest.module("learnability.pipeline.resources").imports = frozenset()


def test_the_prefixes_that_name_a_package():
    # hand cases: a prefix is an f-string's literal head that starts inside the package
    # and ends at a dot
    source = """
A = "learnability.min_words"
B = "corpora"
C = "Hello, world"
D = "a" * 3
E = "x." + "y"
F = "%s" % "z.z"
G = "{}".format("learnability.C")
LONG = "%s"
H = f"learnability.analyses.{A}"
I = f"learnability.corpus{A}"
J = f"other.{A}"
K = f"{A}.learnability."
L = "learnability.embeddings.word2vec:train_word2vec"
"""
    m = codedigest.scan(source, "script.py")
    assert m.prefixes == {"learnability.analyses"}
    assert "learnability.embeddings.word2vec" not in m.imports


def test_a_packages_modules_are_what_pkgutil_finds_and_a_name_has_its_parents():
    # pkgutil's walk of the installed package is the reference (a package named by its
    # own name, not NAME.__init__); a module or nothing has none
    import pkgutil

    import learnability

    for package in ("learnability", "learnability.corpus", "learnability.analyses"):
        mod = __import__(package, fromlist=["__path__"])
        walked = {m.name for m in pkgutil.walk_packages(mod.__path__, f"{package}.")}
        assert set(codedigest._package_modules(package)) == walked | {package}, package
    assert learnability.__name__ == "learnability"
    assert codedigest._package_modules("learnability.codedigest") == []
    assert codedigest._package_modules("learnability.nothing") == []
    assert codedigest._parents("a.b.c.d") == ["a", "a.b", "a.b.c"]
    assert codedigest._parents("a") == []


def test_a_closure_skips_the_sizing_roots_and_follows_a_modules_prefix_imports():
    import pkgutil

    import learnability.analyses

    assert codedigest.closure(["learnability.pipeline.resources"]) == []
    assert codedigest.closure(["learnability.nothing"]) == []
    # the analyses' registry names its members as dispatch targets ("module:ANALYSIS"):
    # none is in its closure; a module that imports that package by a prefix (an
    # f-string module name) has every one of them
    analyses = {m.name for m in pkgutil.walk_packages(learnability.analyses.__path__,
                                                      "learnability.analyses.")}  # fmt: skip
    registry = set(codedigest.closure(["learnability.analyses.registry"]))
    assert registry & analyses == {"learnability.analyses.base", "learnability.analyses.registry"}
    source = 'import importlib\nimportlib.import_module(f"learnability.analyses.{name}")\n'
    assert analyses <= set(codedigest.code_of_source(source, "prefix.py").modules)


def test_a_package_module_that_imports_by_a_prefix_brings_that_packages_modules(monkeypatch):
    # inside the closure (not only in a script's own imports): a package module whose
    # f-string import names the pipeline brings every pipeline module but the sizing ones
    import pkgutil

    import learnability.pipeline

    real = codedigest.module
    toy = codedigest.Module("0" * 64, frozenset(), frozenset({"learnability.pipeline"}),
                            frozenset())  # fmt: skip
    monkeypatch.setattr(codedigest, "module",
                        lambda n: toy if n == "learnability.errors" else real(n))  # fmt: skip
    pipeline = {m.name for m in pkgutil.walk_packages(learnability.pipeline.__path__,
                                                      "learnability.pipeline.")}  # fmt: skip
    assert {"learnability.pipeline.resources", "learnability.pipeline.config"} <= pipeline
    closure = set(codedigest.closure(["learnability.errors"]))
    sizing = {"learnability.pipeline.resources", "learnability.pipeline.planning",
              "learnability.pipeline.measured"}  # fmt: skip
    assert pipeline - sizing <= closure and not sizing & closure


def test_a_scripts_libraries_are_its_own_and_its_closures():
    code = codedigest.code_of_source(
        "import yaml\nfrom learnability.statistics import power\n", "script.py"
    )
    want = {"yaml"} | set(codedigest.module("learnability.statistics.power").libraries)
    for name in code.modules:
        want |= codedigest.module(name).libraries
    assert {"yaml", "numpy", "scipy"} <= set(code.libraries) == want
    with pytest.raises(Exception, match="frozen|assign"):
        code.digest = ""


def test_a_digest_is_sha256_over_names_and_module_digests(monkeypatch):
    # the format is part of every finished run (its outputs carry it): a change reruns
    # every job of every user's run, so it is pinned here by its definition: the first 16
    # hex of sha256 over "name NUL digest LF" in name order
    import hashlib

    names = ["learnability.protocol.evaluate", "learnability.errors"]
    h = hashlib.sha256()
    for name in sorted(names):
        h.update(f"{name}\0{codedigest.module(name).digest}\n".encode())
    assert codedigest.digest_of(names) == h.hexdigest()[:16]
    # a module's code is in it
    base = codedigest.digest_of(names)
    real = codedigest.module

    def edited(name):
        m = real(name)
        if name == "learnability.errors":
            import dataclasses

            return dataclasses.replace(m, digest="0" * 64)
        return m

    monkeypatch.setattr(codedigest, "module", edited)
    assert codedigest.digest_of(names) != base


def test_a_packages_relative_import_resolves_inside_the_package(tmp_path, monkeypatch):
    # by the import system's rule (importlib.util.resolve_name): in a package's
    # __init__.py, `from .x import y` names the package's own x; in a plain module of the
    # same package, its sibling: a toy package __init__ read through the scanner's cache
    import importlib.util

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    init = tmp_path / "statistics/__init__.py"
    init.parent.mkdir()
    init.write_text("from .significance import empirical_pvalues\n")
    real = codedigest.module_path
    name = "learnability.statistics"
    monkeypatch.setattr(codedigest, "module_path", lambda n: init if n == name else real(n))
    want = importlib.util.resolve_name(".significance", name)  # the package itself
    assert want == "learnability.statistics.significance"
    codedigest._module.cache_clear()
    try:
        assert want in codedigest.module(name).imports
    finally:
        codedigest._module.cache_clear()


def test_the_cache_folder_follows_xdg_with_home_as_the_fallback(tmp_path, monkeypatch):
    # the XDG base directory spec: $XDG_CACHE_HOME, or $HOME/.cache where it is unset or
    # empty
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert codedigest.cache_dir("k") == tmp_path / "xdg/learnability/k"
    for unset in (lambda: monkeypatch.delenv("XDG_CACHE_HOME"),
                  lambda: monkeypatch.setenv("XDG_CACHE_HOME", "")):  # fmt: skip
        unset()
        assert codedigest.cache_dir("k") == tmp_path / "home/.cache/learnability/k"


def test_no_module_is_named_as_a_config_key():
    """The scan takes a string naming a package module for a registry's reference to it
    (and follows it), so a module named as a config key under ``learnability:`` (a
    ``learnability/threads.py`` beside the key ``learnability.threads``) would join
    every closure that reads that key's default."""
    from learnability.schema_defaults import DEFAULTS

    assert not set(_package_modules()) & set(DEFAULTS)

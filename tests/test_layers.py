"""The package's layers: the science never imports the workflow, the reports, the records or
the entry points. Two witnesses: import-linter's contract (pyproject.toml, also run by
`make lint`), and the import graph read here from the sources with `ast`, so that a
contract written too loosely is not the only check."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

from deferred import import_targets
from paths import REPO

PACKAGE = REPO / "src" / "learnability"
SCIENCE = ("corpus", "concepts", "embeddings", "protocol", "statistics", "analyses", "evaluations")
ABOVE = ("pipeline", "reports", "provenance", "codedigest", "logs", "inputs", "cli", "api")


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(source: str, name: str, is_package: bool) -> set[str]:
    """Every module ``source`` imports, at module level or inside a function, absolute
    (a relative import resolved against ``name``), without what it imports names;
    ``from learnability import provenance`` imports the module provenance."""
    return {
        target
        for node in ast.walk(ast.parse(source))
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for target in import_targets(node, name, is_package)
    }


def upward_arrows(root: Path) -> list[str]:
    """``importer -> imported`` for each import from a science subpackage of the package
    at ``root`` into a layer above the science."""
    top = root.name
    arrows = []
    for path in sorted(root.rglob("*.py")):
        name = _module_name(path, root)
        parts = name.split(".")
        if len(parts) < 2 or parts[1] not in SCIENCE:
            continue
        for target in imported(path.read_text(encoding="utf-8"), name, path.stem == "__init__"):
            bits = target.split(".")
            if bits[0] == top and len(bits) > 1 and bits[1] in ABOVE:
                arrows.append(f"{name} -> {target}")
    return sorted(set(arrows))


def test_no_science_subpackage_imports_a_layer_above_it():
    assert upward_arrows(PACKAGE) == []


def test_the_graph_reader_sees_each_way_of_importing_upward(tmp_path):
    """Planted: a tree whose science imports upward at module level, inside a function,
    by `from learnability import X`, and relatively; and imports that are not upward."""
    root = tmp_path / "learnability"
    files = {
        "statistics/__init__.py": "",
        "statistics/a.py": "from learnability.pipeline import resources\n",
        "statistics/b.py": "def f():\n    from learnability import provenance\n",
        "analyses/__init__.py": "",
        "analyses/c.py": "from ..reports import formats\nfrom .d import x\n",
        "analyses/d.py": "import learnability.cli\nimport numpy\nx = 1\n",
        "pipeline/__init__.py": "",
        "pipeline/e.py": "from learnability.statistics import a\n",
        "corpus/__init__.py": "",
        "corpus/f.py": "from learnability.io import atomic_path\nfrom learnability import errors\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    assert upward_arrows(root) == [
        "learnability.analyses.c -> learnability.reports",
        "learnability.analyses.c -> learnability.reports.formats",
        "learnability.analyses.d -> learnability.cli",
        "learnability.statistics.a -> learnability.pipeline",
        "learnability.statistics.a -> learnability.pipeline.resources",
        "learnability.statistics.b -> learnability.provenance",
    ]


def _lint_imports(src: Path) -> subprocess.CompletedProcess:
    """import-linter's contracts (pyproject.toml) over the package under ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    command = [str(Path(sys.executable).parent / "lint-imports"), "--no-cache",
               "--config", str(REPO / "pyproject.toml")]  # fmt: skip
    return subprocess.run(command, cwd=src, env=env, capture_output=True, text=True)


def test_the_import_contract_holds_and_fails_on_an_added_upward_import(tmp_path):
    """The contract passes on the package, and fails when statistics imports pipeline
    (in a copy, first on the path: the installed package is the checkout's)."""
    kept = _lint_imports(REPO / "src")
    assert kept.returncode == 0, kept.stdout + kept.stderr
    assert "0 broken" in kept.stdout
    copy = tmp_path / "src" / "learnability"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    power = copy / "statistics" / "power.py"
    power.write_text(power.read_text() + "\n\ndef _cost():\n"
                     "    from learnability.pipeline import resources\n\n"
                     "    return resources.FIT_SECONDS\n")  # fmt: skip
    broken = _lint_imports(tmp_path / "src")
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert "learnability.statistics.power -> learnability.pipeline.resources" in broken.stdout
    assert upward_arrows(copy) == [
        "learnability.statistics.power -> learnability.pipeline",
        "learnability.statistics.power -> learnability.pipeline.resources",
    ]


def test_every_module_of_the_package_is_in_a_layer():
    """A module or subpackage left out of the layers would be checked by nothing."""
    import tomllib

    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"]
    (contract,) = config["contracts"]
    named = {name.strip() for layer in contract["layers"] for name in layer.split("|")}
    tops = {f"learnability.{p.stem}" for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    tops |= {f"learnability.{p.parent.name}" for p in PACKAGE.glob("*/__init__.py")}
    assert named == tops


def test_no_function_imports_what_its_module_already_loads():
    """An import inside a function defers its module's loading; where the module's own
    module-level imports load it anyway, it defers nothing (tests/deferred.py)."""
    from deferred import deferring_nothing

    assert deferring_nothing(PACKAGE) == []


def test_the_deferral_reader_follows_the_module_level_imports_at_any_depth(tmp_path):
    """A planted package: ``a`` imports ``b`` at module level, ``b`` imports ``c``; an
    import of ``c`` inside a function of ``a`` (absolute, from its package, relative)
    defers nothing; ``d``, which nothing loads, and ``e``, imported only under
    TYPE_CHECKING, are deferred."""
    from deferred import deferring_nothing

    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "b.py").write_text("import pkg.c\n")
    for name in ("c", "d", "e"):
        (pkg / f"{name}.py").write_text("X = 1\n")
    (pkg / "a.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "from pkg import b\n"
        "if TYPE_CHECKING:\n    import pkg.e\n"
        "def one():\n    import pkg.c\n"
        "def two():\n    from pkg import c\n"
        "def three():\n    from . import c\n"
        "def four():\n    if True:\n        from .c import X\n"
        "def five():\n    import pkg.d\n"
        "def six():\n    from pkg.e import X\n"
        "def seven():\n    import json\n"
    )
    assert deferring_nothing(pkg) == [
        "pkg.a:10  from . import c", "pkg.a:13  from .c import X", "pkg.a:6  import pkg.c",
        "pkg.a:8  from pkg import c",
    ]  # fmt: skip

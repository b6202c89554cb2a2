"""The package's rooms, read from its source: every module has one import path, and no
module reaches into another stage's private names (a private name may change with no
notice to the modules outside its own folder; what they share is public)."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "src" / "learnability"


def _room(module: str) -> str:
    """``learnability.protocol.splits`` -> ``protocol``; a top-level module is its own."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _modules() -> list[tuple[str, Path]]:
    """(dotted name, path) of every package module, and of the workflow's scripts and the
    benchmarks (rooms of their own: everything they import from the package is another
    room's)."""
    found = [
        (".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts), p)
        for p in sorted(PACKAGE.rglob("*.py"))
    ]
    for folder in ("workflow/scripts", "benchmarks"):
        found += [(f"{folder}/{p.name}", p) for p in sorted((REPO / folder).glob("*.py"))]
    return found


def cross_room_private_imports(module: str, source: str) -> list[str]:
    """``module``'s imports of a private module or name of another room of the package."""
    own = _room(module) if module.startswith("learnability.") else None
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            targets = [(node.module, a.name) for a in node.names]
        elif isinstance(node, ast.Import):
            targets = [(a.name, "") for a in node.names]
        else:
            continue
        for target, name in targets:
            if not target.startswith("learnability.") or _room(target) == own:
                continue
            parts = target.split(".")[1:] + ([name] if name else [])
            if any(_private(p) for p in parts):
                found.append(f"{module}:{node.lineno}: {target} {name}".rstrip())
    return found


# Benchmarks that time a solver's internals against each other: what they import is the
# lever under test, not a surface another module builds on
INTERNALS_BENCHMARKS = {"benchmarks/engine_levers.py"}


def test_no_module_imports_another_rooms_private_names():
    found = [
        hit
        for module, path in _modules()
        if module not in INTERNALS_BENCHMARKS
        for hit in cross_room_private_imports(module, path.read_text(encoding="utf-8"))
    ]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    "source, found",
    [
        ("from learnability.protocol.evaluate import _draw_splits", 1),
        ("import learnability.corpus._token_kernel", 1),
        ("from learnability.protocol._x import y", 1),
        ("from learnability.protocol.splits import draw_splits, fit_splits", 0),
        ("from learnability.diagnostics.leace import _private_here", 0),
        ("from numpy import _private", 0),
    ],
)
def test_the_import_reader_sees_what_it_is_meant_to(source, found):
    # read as if by learnability.diagnostics.entanglement: its own room's names are its own
    assert len(cross_room_private_imports("learnability.diagnostics.entanglement", source)) == found


def test_every_module_has_one_import_path():
    """The modules once kept their flat paths as aliases (``learnability.stats`` for the
    module now split into ``statistics.significance`` and ``statistics.comparison``):
    readers, IDEs and type checkers could not follow them. Each module is now found at
    its folder's path only."""
    import learnability
    import learnability.corpus

    assert importlib.util.find_spec("learnability.statistics.significance") is not None
    for former in ("stats", "evaluate", "tables", "matching", "jobs"):
        assert importlib.util.find_spec(f"learnability.{former}") is None, former
    assert not hasattr(learnability, "MOVED")
    with pytest.raises(AttributeError):
        learnability.corpus.iter_pages  # noqa: B018 (what the former module held: now extract's only)

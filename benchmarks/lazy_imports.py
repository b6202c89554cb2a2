"""What each import inside a function of the package defers: the milliseconds its first
call pays that importing its module did not.

Usage: python benchmarks/lazy_imports.py [--rounds 3] [--smoke]

An import inside a function keeps its module's import light (a workflow job's start,
`learnability --help`, `import learnability`) at the price of a hidden dependency. For
each one (read from the sources with ``ast``), a fresh interpreter imports the enclosing
module, then times the import statement itself, best of ``--rounds``; the baseline, in
the same interpreter, is the enclosing module's own import. It prints each deferred
import's milliseconds and its ratio to the module's import, sorted by cost, and how many
defer less than 1 ms: those save nothing worth a hidden dependency (the suite refuses the
ones that defer nothing at all: tests/test_layers.py).
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
from pathlib import Path

from toysize import add_smoke

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "src" / "learnability"

PROBE = """
import importlib, json, sys, time
t = time.perf_counter()
importlib.import_module({module!r})
module_ms = (time.perf_counter() - t) * 1e3
t = time.perf_counter()
exec({statement!r}, {{"__name__": {module!r}, "__package__": {package!r}}})
print(json.dumps([module_ms, (time.perf_counter() - t) * 1e3]))
"""


def deferred_imports(root: Path) -> list[tuple[str, str, str, str]]:
    """(module, its package, function, statement) of every import inside a function."""
    rows = []
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        module = ".".join(parts[:-1] if is_package else parts)
        package = module if is_package else module.rpartition(".")[0]
        for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(fn):
                    if isinstance(node, (ast.Import, ast.ImportFrom)):
                        rows.append((module, package, fn.name, ast.unparse(node)))
    return rows


def measure(module: str, package: str, statement: str, rounds: int) -> tuple[float, float]:
    """Best of ``rounds`` fresh interpreters: (the module's import, the statement's) ms;
    NaN where the statement cannot run here (an optional extra not installed)."""
    best = (float("nan"), float("nan"))
    for _ in range(rounds):
        done = subprocess.run(
            [sys.executable, "-c", PROBE.format(module=module, package=package,
                                                statement=statement)],
            capture_output=True, text=True, cwd=REPO,
        )  # fmt: skip
        if done.returncode != 0:
            return best
        got = tuple(json.loads(done.stdout.strip().splitlines()[-1]))
        best = got if not best[1] <= got[1] else best
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    add_smoke(parser)
    args = parser.parse_args()
    rows = deferred_imports(PACKAGE)
    if args.smoke:
        rows, args.rounds = rows[:3], 1
    print(f"{len(rows)} imports inside functions; best of {args.rounds} fresh interpreters\n")
    measured = []
    for module, package, function, statement in rows:
        module_ms, deferred_ms = measure(module, package, statement, args.rounds)
        measured.append((deferred_ms, module_ms, f"{module}.{function}", statement))
    measured.sort(key=lambda r: -r[0] if r[0] == r[0] else 0.0)
    print(f"{'deferred ms':>11} {'module ms':>9} {'ratio':>6}  where: statement")
    for deferred_ms, module_ms, where, statement in measured:
        ratio = deferred_ms / module_ms if module_ms else float("nan")
        print(f"{deferred_ms:11.1f} {module_ms:9.1f} {ratio:6.2f}  {where}: {statement}")
    timed = [r for r in measured if r[0] == r[0]]
    small = sum(r[0] < 1.0 for r in timed)
    print(f"\nratio deferred/module above: {len(timed)} timed ({len(rows) - len(timed)} need "
          f"an extra not installed); {small} defer less than 1 ms, "
          f"{sum(r[0] >= 10.0 for r in timed)} 10 ms or more")  # fmt: skip


if __name__ == "__main__":
    main()

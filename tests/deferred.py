"""The package's imports made inside functions, read from the sources: which of them defer
nothing, because the module's own imports at module level already load what they import.

An import inside a function exists to keep a module's import light (a workflow job's start,
`learnability --help`): its module loads when the function first runs. Where the module's
module-level imports already load that module (at any depth, through the package's own
imports), the deferral saves nothing and only hides a dependency: it belongs at the top.
What the others defer is measured by benchmarks/lazy_imports.py."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_targets(node: ast.Import | ast.ImportFrom, name: str, is_package: bool) -> list[str]:
    """The modules an import statement loads, absolute; for ``from X import y``, X and,
    where y is a module, X.y (the caller keeps the names that are modules)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        base = name.split(".") if is_package else name.split(".")[:-1]
        base = base[: len(base) - node.level + 1]
        module = ".".join(base + ([node.module] if node.module else []))
    else:
        module = node.module or ""
    return [module, *(f"{module}.{alias.name}" for alias in node.names)]


def _with_parents(module: str) -> list[str]:
    """Importing a.b.c runs a, a.b and a.b.c."""
    bits = module.split(".")
    return [".".join(bits[: k + 1]) for k in range(len(bits))]


def _module_level(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """The imports that run when the module is imported: its top-level statements and
    those inside module-level ``if``/``try`` blocks, not under ``if TYPE_CHECKING``."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(body: list[ast.stmt]) -> None:
        for stmt in body:
            if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                found.append(stmt)
            elif isinstance(stmt, ast.If):
                if "TYPE_CHECKING" not in ast.unparse(stmt.test):
                    visit(stmt.body)
                visit(stmt.orelse)
            elif isinstance(stmt, ast.Try):
                for block in (stmt.body, stmt.orelse, stmt.finalbody):
                    visit(block)
                for handler in stmt.handlers:
                    visit(handler.body)

    visit(tree.body)
    return found


@dataclass(frozen=True)
class Deferred:
    module: str  # where the import is
    function: str
    line: int
    statement: str
    targets: tuple[str, ...]  # the package's modules it loads


def deferred_imports(root: Path) -> tuple[list[Deferred], dict[str, set[str]]]:
    """Every import inside a function of the package at ``root`` (its package modules),
    and each module's closure: the package's modules its module-level imports load."""
    top = root.name
    sources = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    trees = {name: ast.parse(p.read_text(encoding="utf-8")) for name, p in sources.items()}

    def package_targets(node, name: str) -> list[str]:
        is_package = sources[name].stem == "__init__"
        out = []
        for target in import_targets(node, name, is_package):
            if target.split(".")[0] == top and target in sources:
                out += [t for t in _with_parents(target) if t in sources]
        return out

    direct = {
        name: {t for node in _module_level(tree) for t in package_targets(node, name)}
        for name, tree in trees.items()
    }
    closure: dict[str, set[str]] = {}
    for name in trees:
        seen, todo = set(), [*direct[name], *_with_parents(name)[:-1]]
        while todo:
            m = todo.pop()
            if m not in seen:
                seen.add(m)
                todo += direct.get(m, ())
        closure[name] = seen - {name}
    deferred = []
    for name, tree in trees.items():
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    deferred.append(Deferred(name, fn.name, node.lineno, ast.unparse(node),
                                             tuple(package_targets(node, name))))  # fmt: skip
    return deferred, closure


def deferring_nothing(root: Path) -> list[str]:
    """The imports inside functions whose package modules the enclosing module already
    loads at module level: ``module:line  statement``."""
    deferred, closure = deferred_imports(root)
    return sorted(
        f"{d.module}:{d.line}  {d.statement}"
        for d in deferred
        if d.targets and all(t in closure[d.module] or t == d.module for t in d.targets)
    )

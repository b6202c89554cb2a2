"""What code a workflow job runs, as a digest that changes when that code's behaviour can.

Snakemake reruns a job when its rule's script changes, not when the package modules the
script imports do (snakemake/snakemake#1694), and nearly all of this workflow's logic is
in the package. So each rule carries a ``code`` param (workflow/Snakefile) made here:

- the **closure** of a script: the package modules it imports, followed through the
  package's own imports (at any depth, those inside functions included, since they run
  when the function is called), the packages above each (their ``__init__`` runs first),
  and the modules a registry names in a string (``"learnability.evaluations.analogy"``)
  or imports by a prefix (``import_module(f"learnability.analyses.{name}")`` takes every
  module of that package). A function a registry names with its module
  (``"learnability.embeddings.word2vec:train_word2vec"``, a trainer) is a **dispatch
  target**: one job runs one of them, so it is not in the closure, and the rule that
  dispatches adds the digest of its own job's target (the training rule's ``trainer``
  param, :func:`learnability.pipeline.rerun.target_params`; the analysis rules'
  ``analysis_code``; the extraction's ``reader_code``): every registry names its members
  so (:mod:`learnability.targets`). A package's module-level
  ``__getattr__`` (PEP 562: a name imported on first use) is not followed: it runs only
  when that name is asked for;
- each module's **normalised source**: its syntax tree without docstrings, positions or
  comments, so that a comment, a docstring or a reformatting changes nothing (the jobs'
  costs, such as a trainer's measured rate, live in the sizing modules, :data:`SIZING`,
  which no closure holds);
- the **digest** of the closure: the names and normalised sources of its modules. The
  config schema's defaults (``learnability.schema_defaults``, one table of every key's
  default) are in no closure: a job gets every setting it uses as a param of its rule,
  from the config that Snakemake's validation fills with the defaults, so a changed
  default reruns the jobs whose params it changes, and a new key nothing. The suite
  holds every job to that (:data:`learnability.defaults.STRICT`).

Third-party imports are not followed; they are the job's **libraries**, whose versions
:mod:`learnability.provenance` records. The standard library is neither.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import os
import re
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "learnability"
# where the package's sources are: the checkout's src/learnability in an editable install
ROOT = Path(__file__).resolve().parent
# The modules that size jobs (resource models, the cluster plan, the rehearsal's rows):
# they decide where a job runs and with what, never what it writes, so a refit model
# reruns nothing. Not followed; no workflow script imports them (tests/test_codedigest.py)
SIZING = frozenset(f"{PACKAGE}.pipeline.{name}" for name in ("resources", "planning", "measured"))
# The modules that record how an output was made (learnability.provenance) and compute
# these digests: every job's log opens its record (JOB_LOG imports them), which adds
# metadata, never data, so they are not followed from there; they are where a job makes
# them its content (the report's provenance paragraph, learnability.reports.records)
RECORDING = frozenset(f"{PACKAGE}.{name}" for name in ("provenance", "codedigest"))
JOB_LOG = f"{PACKAGE}.logs"
# a registry's reference to a module (a "module:function" is a dispatch target, not
# followed: see the module doc)
_MODULE_STRING = re.compile(rf"^{PACKAGE}(?:\.\w+)+$")
# the one table of the config schema's defaults: no job reads it, its values reach the
# jobs as params (see the module doc), so it is not followed
SCHEMA_DEFAULTS = f"{PACKAGE}.schema_defaults"
UNFOLLOWED = SIZING | {SCHEMA_DEFAULTS}


@dataclass(frozen=True)
class Module:
    """A module's digest and what it imports: package modules (``imports``), every module
    of a package imported by a prefix (``prefixes``) and third-party top-level names."""

    digest: str
    imports: frozenset[str]
    prefixes: frozenset[str]
    libraries: frozenset[str]


def module_path(name: str) -> Path | None:
    """The source file of package module ``name``; None if there is none."""
    parts = name.split(".")
    if parts[0] != PACKAGE:
        return None
    base = ROOT.joinpath(*parts[1:])
    for path in (base / "__init__.py", base.with_suffix(".py")):
        if path.is_file():
            return path
    return None


def _resolve(node: ast.ImportFrom, name: str, is_package: bool) -> str:
    """The absolute module of a (possibly relative) ``from ... import``."""
    if not node.level:
        return node.module or ""
    base = name.split(".") if is_package else name.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _strip_docstrings(tree: ast.AST) -> None:
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                if isinstance(body[0].value.value, str):
                    node.body = body[1:] or [ast.Pass()]


def _lazy_getattr(tree: ast.Module) -> set[ast.AST]:
    """The nodes inside a module-level ``__getattr__`` (not followed: see the module doc)."""
    inside: set[ast.AST] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
            inside.update(ast.walk(node))
    return inside


def _stdlib(top: str) -> bool:
    return top in sys.stdlib_module_names or top == "__future__"


def scan(source: str, name: str, path: str = "<source>", is_package: bool = False) -> Module:
    """The digest and imports of one module's ``source`` (``name``: its dotted name, for
    relative imports; a script outside the package passes its file name)."""
    tree = ast.parse(source, filename=path)
    lazy = _lazy_getattr(tree)
    imports: set[str] = set()
    prefixes: set[str] = set()
    libraries: set[str] = set()

    def imported(module: str) -> None:
        top = module.split(".")[0]
        if top == PACKAGE:
            imports.add(module)
        elif top and not _stdlib(top):
            libraries.add(top)

    for node in ast.walk(tree):
        if node in lazy:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                imported(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(node, name, is_package)
            imported(base)
            if base.split(".")[0] == PACKAGE:
                for alias in node.names:
                    if module_path(f"{base}.{alias.name}") is not None:
                        imports.add(f"{base}.{alias.name}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if _MODULE_STRING.match(node.value) and module_path(node.value) is not None:
                imports.add(node.value)
        elif isinstance(node, ast.JoinedStr) and node.values:
            head = node.values[0]
            if isinstance(head, ast.Constant):  # an f-string's literal parts are str
                prefix = head.value
                if prefix.startswith(f"{PACKAGE}.") and prefix.endswith("."):
                    prefixes.add(prefix.rstrip("."))
    _strip_docstrings(tree)
    dump = ast.dump(tree, annotate_fields=False, include_attributes=False)
    return Module(
        digest=hashlib.sha256(dump.encode()).hexdigest(),
        imports=frozenset(imports),
        prefixes=frozenset(prefixes),
        libraries=frozenset(libraries),
    )


@functools.cache
def _module(name: str, mtime_ns: int) -> Module:
    path = module_path(name)
    assert path is not None
    source = path.read_text(encoding="utf-8")
    is_package = path.name == "__init__.py"
    # every job digests its code when it writes (learnability.provenance): parsing its
    # thirty-odd modules cost 0.3 s a job, reading their scans from the cache 10 ms
    key = hashlib.sha256(
        "\0".join((_scanner(), _layout(), name, str(is_package), source)).encode()
    ).hexdigest()
    cached = _cache_read(key)
    if cached is not None:
        return cached
    found = scan(source, name, str(path), is_package)
    _cache_write(key, found)
    return found


# Scans are cached by content: the module's source, its name, the package's list of
# modules (an import's target existing or not) and this scanner's own source. A cache
# that cannot be read or written is not used.
def cache_dir(kind: str) -> Path:
    """The user's cache folder for ``kind`` (``$XDG_CACHE_HOME/learnability/KIND``)."""

    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / PACKAGE / kind


@functools.cache
def _scanner() -> str:
    return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()


@functools.cache
def _layout() -> str:
    return hashlib.sha256("\n".join(_package_modules(PACKAGE)).encode()).hexdigest()


def _cache_read(key: str) -> Module | None:

    try:
        data = json.loads((cache_dir("codedigest") / f"{key}.json").read_text(encoding="utf-8"))
        return Module(data["digest"], *(frozenset(data[k]) for k in _SETS))
    except (OSError, ValueError, KeyError, TypeError):
        return None


_SETS = ("imports", "prefixes", "libraries")


def _cache_write(key: str, found: Module) -> None:
    data = {"digest": found.digest, **{k: sorted(getattr(found, k)) for k in _SETS}}
    cache_write(cache_dir("codedigest") / f"{key}.json", data)


def cache_write(path: Path, data: object) -> None:
    """``data`` as JSON at ``path``, atomically (a concurrent reader sees all or none);
    nothing if the cache cannot be written."""

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh)
        os.replace(tmp, path)
    except OSError:
        return


def module(name: str) -> Module:
    """The scanned package module ``name`` (cached while its file is unchanged)."""
    path = module_path(name)
    if path is None:
        raise ModuleNotFoundError(f"{name}: no such module in {ROOT}")
    return _module(name, path.stat().st_mtime_ns)


def _package_modules(package: str) -> list[str]:
    path = module_path(package)
    if path is None or path.name != "__init__.py":
        return []
    names = []
    for file in sorted(path.parent.rglob("*.py")):
        rel = file.relative_to(ROOT).with_suffix("")
        parts = [PACKAGE, *rel.parts]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names.append(".".join(parts))
    return names


def _parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def closure(roots: Iterable[str]) -> list[str]:
    """Every package module that importing ``roots`` can run, sorted."""
    seen: set[str] = set()
    todo = [r for r in roots if r not in UNFOLLOWED and module_path(r) is not None]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        m = module(name)
        skipped = UNFOLLOWED | RECORDING if name == JOB_LOG else UNFOLLOWED
        todo.extend(_parents(name))
        todo.extend(n for n in m.imports if n not in skipped and module_path(n) is not None)
        for prefix in m.prefixes:
            todo.extend(n for n in _package_modules(prefix) if n not in skipped)
    return sorted(seen)


def digest_of(modules: Iterable[str]) -> str:
    """One digest of the named modules' normalised sources (and of their names)."""
    h = hashlib.sha256()
    for name in sorted(modules):
        h.update(f"{name}\0{module(name).digest}\n".encode())
    return h.hexdigest()[:16]


@dataclass(frozen=True)
class Code:
    """What a script runs of the package: its direct package imports (``roots``), their
    closure (``modules``), that closure's ``digest`` and the third-party ``libraries``
    the script and the closure import."""

    roots: tuple[str, ...]
    modules: tuple[str, ...]
    digest: str
    libraries: tuple[str, ...]


def code_of_source(source: str, path: str) -> Code:
    """The package code a script (or any module outside the package) runs."""
    top = scan(source, Path(path).stem, path)
    roots = set(top.imports)
    for prefix in top.prefixes:
        roots.update(_package_modules(prefix))
    modules = closure(roots)
    libraries = set(top.libraries)
    for name in modules:
        libraries |= module(name).libraries
    return Code(tuple(sorted(roots)), tuple(modules), digest_of(modules),
                tuple(sorted(libraries)))  # fmt: skip


def code_of(script: str | Path) -> Code:
    """:func:`code_of_source` of a script file."""
    path = Path(script)
    return _code_of_file(str(path.resolve()), path.stat().st_mtime_ns)


@functools.cache
def _code_of_file(path: str, mtime_ns: int) -> Code:
    return code_of_source(Path(path).read_text(encoding="utf-8"), path)


def code_of_modules(roots: Iterable[str]) -> Code:
    """The code that importing package modules ``roots`` runs (the CLI's and the API's
    outputs: the modules of the command that wrote them; a job's: its script's and the
    registry member it loaded)."""
    roots = tuple(sorted(set(roots)))
    modules = closure(roots)
    libraries = sorted({lib for name in modules for lib in module(name).libraries})
    return Code(roots, tuple(modules), digest_of(modules), tuple(libraries))

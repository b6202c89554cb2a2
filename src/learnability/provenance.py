"""How each output was made: the record every Parquet table (in its metadata) and every
``meta.json`` (under ``provenance``) carries. The params that rerun a job when its code or
libraries change are :mod:`learnability.pipeline.rerun`'s; a record described for people,
and compared with what the current code and environment would do, is
:mod:`learnability.reports.records`'.

A record holds the package's version (and the checkout's commit, where there is one), the
job's rule and wildcards, the digest of the package code it ran and the modules that
digest covers (:mod:`learnability.codedigest`), a digest of its params, a digest of each
input (a workflow output's own record id, so a 3 GB vectors file is not read again; a
user's file's content), the versions of the third-party libraries that code imports, and
Python's. ``id`` is the digest of all of it: two files with the same id were made by the
same code from the same inputs with the same settings.

Inside a workflow job, :func:`learnability.logs.logged` opens the job's context; the
writers (:func:`learnability.schemas.write_table`, :func:`learnability.io.stamp`) add the
record, which they ask :mod:`learnability.io` for: importing this module installs
:func:`current` there. Outside a job (the CLI, the library), the record names the command
and the package code it imports.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.metadata
import json
import logging
import os
import platform
import subprocess
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from learnability import __version__, codedigest, io

KEY = "learnability.provenance"  # the Parquet metadata key and the meta.json key's prefix
FORMAT = 1
# reading a file this size or larger for its digest is logged (about 1 s a GB)
_LARGE = 1 << 30


@functools.lru_cache(maxsize=1)
def _distributions() -> dict[str, list[str]]:
    """Import name -> distributions. Reading every installed distribution's file list
    takes 0.3 s, a cost each job would pay, so the mapping is kept in the user's cache
    for as long as no folder of installed packages changes (an install changes it)."""

    # the folders installs write to (not the script's own, which Snakemake writes to for
    # every job)
    installed = [p for p in sys.path if Path(p).name in ("site-packages", "dist-packages")]
    state = [(p, os.stat(p).st_mtime_ns) for p in installed if os.path.isdir(p)]
    key = hashlib.sha256(json.dumps([sys.prefix, state]).encode()).hexdigest()
    path = codedigest.cache_dir("distributions") / f"{key}.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pass
    found = importlib.metadata.packages_distributions()
    codedigest.cache_write(path, found)
    return found


def _own_distribution(name: str) -> importlib.metadata.Distribution | None:
    """The distribution named as import ``name`` is (numpy, gensim), if its top-level
    names say it provides ``name``."""
    try:
        dist = importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        return None
    top = dist.read_text("top_level.txt")
    return dist if top is None or name in top.split() else None


def library_versions(libraries: Iterable[str]) -> dict[str, str]:
    """The installed version of each top-level import name's distribution (``sklearn``:
    scikit-learn's); a name no distribution provides is left out."""
    found: dict[str, str] = {}
    for name in sorted(set(libraries)):
        own = _own_distribution(name)
        if own is not None:
            found[own.metadata["Name"]] = own.version
            continue
        for dist in _distributions().get(name, []):
            try:
                found[dist] = importlib.metadata.version(dist)
            except importlib.metadata.PackageNotFoundError:
                continue
    return found


def versions_digest(versions: Mapping[str, str]) -> str:
    return hashlib.sha256(json.dumps(dict(versions), sort_keys=True).encode()).hexdigest()[:16]


@functools.lru_cache(maxsize=1)
def package() -> dict[str, Any]:
    """The package's version (setuptools-scm's, from the commit it was installed at) and,
    when its source is a git checkout (an editable install), the commit it runs now and
    whether the checkout's package code has uncommitted changes."""

    found: dict[str, Any] = {"name": "learnability", "version": __version__}
    src = codedigest.ROOT
    try:
        head = subprocess.run(["git", "-C", str(src), "rev-parse", "HEAD"], capture_output=True,
                              text=True, timeout=10, check=True).stdout.strip()  # fmt: skip
        status = subprocess.run(["git", "-C", str(src), "status", "--porcelain", "--", "."],
                                capture_output=True, text=True, timeout=10,
                                check=True).stdout  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return found
    found["commit"] = head
    found["modified"] = bool(status.strip())
    return found


def params_digest(params: Any) -> str:
    """A digest of a job's params (Snakemake's ``Namedlist``, a mapping or a list)."""
    items = dict(params.items()) if hasattr(params, "items") else {"": list(params)}
    text = json.dumps(items, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 22):
            h.update(chunk)
    return "sha256:" + h.hexdigest()[:16]


def input_digest(path: str | os.PathLike[str]) -> str:
    """What identifies an input: the record id of a workflow output (a Parquet table, a
    ``meta.json``, or a file beside a ``meta.json`` that has one, such as an embedding's
    vectors), else its content's digest (a folder: its files')."""
    path = Path(path)
    own = read(path, quiet=True)
    if own is not None:
        return own["id"]
    meta = path.parent / "meta.json"
    if path.name != "meta.json" and path.suffix != ".parquet" and meta.is_file():
        beside = read(meta, quiet=True)
        if beside is not None:
            return f"{beside['id']}/{path.name}"
    if path.is_dir():
        h = hashlib.sha256()
        for f in sorted(p for p in path.rglob("*") if p.is_file()):
            h.update(f"{f.relative_to(path)}\0{input_digest(f)}\n".encode())
        return "dir:" + h.hexdigest()[:16]
    if not path.exists():
        return "missing"
    if path.stat().st_size >= _LARGE:
        logging.getLogger(__name__).info("reading %s for its digest", path)
    return _file_digest(path)


def _record_id(record: Mapping[str, Any]) -> str:
    body = {k: v for k, v in record.items() if k != "id"}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:16]


class _Context:
    """The open job's (or command's) record, built on first use and kept for its writes."""

    def __init__(self) -> None:
        self.job: Any = None
        self.command: tuple[str, Any, tuple[str, ...]] | None = None
        self.inputs: tuple[str, ...] = ()
        self._record: dict[str, Any] | None = None

    def record(self) -> dict[str, Any]:
        if self._record is None:
            self._record = _job_record(self.job) if self.job is not None else _other_record(
                self.command, self.inputs)  # fmt: skip
        return self._record


_CONTEXT = _Context()


@contextlib.contextmanager
def job(smk: Any) -> Iterator[None]:
    """Make a job (a script's ``snakemake`` object) the writer of what is written inside
    the block; then the writer it replaced again (a script run in-process, as the tests
    run them, leaves the process as it found it)."""
    global _CONTEXT
    before = _CONTEXT
    _CONTEXT = _Context()
    _CONTEXT.job = smk
    try:
        yield
    finally:
        _CONTEXT = before


@contextlib.contextmanager
def command(
    name: str, args: Any, modules: Iterable[str], inputs: Iterable[str | os.PathLike[str]] = ()
) -> Iterator[None]:
    """Make a CLI command (its name, arguments, package modules and the files it reads)
    the writer of what is written inside the block; then the writer it replaced again."""
    global _CONTEXT
    before = _CONTEXT
    _CONTEXT = _Context()
    _CONTEXT.command = (name, args, tuple(modules))
    _CONTEXT.inputs = tuple(str(Path(f).resolve()) for f in inputs)
    try:
        yield
    finally:
        _CONTEXT = before


def _flat(files: Any) -> list[str]:
    out: list[str] = []
    for f in files:
        if isinstance(f, str | os.PathLike):
            out.append(str(f))
        else:
            out.extend(_flat(f))
    return out


def _script_code(job: Any) -> codedigest.Code:
    """The code the running job ran: the closure of its script's imports (the script
    Snakemake ran is ``__main__``, its copy with a preamble that imports nothing of the
    package) and of the package modules loaded by now, such as the trainer a training
    job dispatched to, or the one analysis an analysis job ran (the registry imports
    the member a job asks for alone)."""

    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    script = codedigest.code_of(path) if path and Path(path).is_file() else None
    roots = set(script.roots) if script else set()
    skipped = codedigest.SIZING | codedigest.RECORDING
    loaded = {name for name in list(sys.modules)
              if name.split(".")[0] == codedigest.PACKAGE and name not in skipped
              and codedigest.module_path(name) is not None}  # fmt: skip
    return codedigest.code_of_modules(roots | loaded)


def _code_record(code: codedigest.Code) -> dict[str, Any]:
    """A record's ``code``: the digest, the roots it is recomputed from, how many
    modules."""
    return {"digest": code.digest, "roots": list(code.roots), "modules": len(code.modules)}


def _job_record(job: Any) -> dict[str, Any]:
    code = _script_code(job)
    params = job.params
    record = {
        "format": FORMAT,
        "package": package(),
        "rule": str(job.rule),
        "wildcards": {k: str(v) for k, v in job.wildcards.items()},
        "code": _code_record(code),
        "params": params_digest({k: v for k, v in params.items() if k != "code"}),
        "inputs": {f: input_digest(f) for f in sorted(set(_flat(job.input)))},
        "outputs": sorted(set(_flat(job.output))),
        "libraries": library_versions(code.libraries),
        "python": platform.python_version(),
    }
    record["lineage"] = lineage(record, [f for f in record["inputs"]])
    record["id"] = _record_id(record)
    return record


def _environment(record: Mapping[str, Any]) -> dict[str, Any]:
    pkg = record.get("package", {})
    return {"learnability": pkg.get("version"), "commit": pkg.get("commit"),
            "python": record.get("python"), "libraries": record.get("libraries", {})}  # fmt: skip


def lineage(record: Mapping[str, Any], inputs: Iterable[str]) -> dict[str, Any]:
    """The environments (package version and commit, Python, library versions) that made
    this job's inputs, their inputs and so on, and this job's own: each once, with the
    rules that ran under it. One entry means the whole chain ran under one environment."""
    found: dict[str, Any] = {}
    for f in inputs:
        merge_environments(found, (read_lineage_record(str(f)) or {}).get("lineage", {}).values())
    own = {**_environment(record), "rules": [record.get("rule") or record.get("command")
                                             or "library"]}  # fmt: skip
    merge_environments(found, [own])
    return found


def merge_environments(into: dict[str, Any], environments: Iterable[Mapping[str, Any]]) -> None:
    """Add ``environments`` to ``into``, keyed by their content (never by a stored key)."""
    for env in environments:
        bare = {k: v for k, v in env.items() if k != "rules"}
        key = versions_digest({"env": json.dumps(bare, sort_keys=True)})
        entry = into.setdefault(key, {**bare, "rules": []})
        entry["rules"] = sorted(set(entry["rules"]) | set(env.get("rules", [])))


def read_lineage_record(path: str) -> dict[str, Any] | None:
    p = Path(path)
    if p.suffix not in (".parquet", ".json") and (p.parent / "meta.json").is_file():
        p = p.parent / "meta.json"
    return read(p, quiet=True) if p.is_file() else None


def _other_record(
    command: tuple[str, Any, tuple[str, ...]] | None, inputs: tuple[str, ...] = ()
) -> dict[str, Any]:
    """A command's or the library's record; a command's inputs by absolute path."""
    name, args, modules = command or ("library", {}, ("learnability.schemas",))
    code = codedigest.code_of_modules(modules)
    record = {
        "format": FORMAT,
        "package": package(),
        "command": name,
        "code": _code_record(code),
        "params": params_digest(args if isinstance(args, Mapping) else vars(args)),
        "inputs": {f: input_digest(f) for f in sorted(inputs)},
        "libraries": library_versions(code.libraries),
        "python": platform.python_version(),
    }
    record["lineage"] = lineage(record, [])
    record["id"] = _record_id(record)
    return record


def current() -> dict[str, Any]:
    """The record of what is being written now (the open job, command, or the library)."""
    return _CONTEXT.record()


# every writer (learnability.io's stamp and parquet_metadata) records what current() gives
io.install_record_maker(KEY, current)


def read(path: str | os.PathLike[str], quiet: bool = False) -> dict[str, Any] | None:
    """The record in a Parquet file's metadata or a JSON file's ``provenance``; None if it
    has none (``quiet``: also if it cannot be read as either)."""
    path = Path(path)
    try:
        if path.suffix == ".parquet":
            import pyarrow.parquet as pq

            meta = pq.read_schema(path).metadata or {}
            raw = meta.get(KEY.encode())
            return json.loads(raw) if raw else None
        if path.suffix == ".json":
            found = json.loads(path.read_text(encoding="utf-8"))
            return found.get("provenance") if isinstance(found, dict) else None
    except Exception:
        if quiet:
            return None
        raise
    return None


def import_names(distributions: Iterable[str]) -> set[str]:
    wanted = set(distributions)
    return {name for name, dists in _distributions().items() if wanted & set(dists)}

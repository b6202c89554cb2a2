"""How each output was made: the record every Parquet table (in its metadata) and every
``meta.json`` (under ``provenance``) carries, and the comparison of a record with what the
current code and environment would do.

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
import os
import platform
import subprocess
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from learnability import codedigest, io

KEY = io.RECORD_KEY  # the Parquet metadata key and the meta.json key's prefix
FORMAT = 1
# reading a file this size or larger for its digest is logged (about 1 s a GB)
_LARGE = 1 << 30


@functools.lru_cache(maxsize=1)
def _distributions() -> dict[str, list[str]]:
    """Import name -> distributions. Reading every installed distribution's file list
    takes 0.3 s, a cost each job would pay, so the mapping is kept in the user's cache
    for as long as no folder of installed packages changes (an install changes it)."""
    import sys

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
    from learnability import __version__

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


def rule_params(script: Any, scripts: Path, libraries: str) -> dict[str, str]:
    """The params the workflow adds to a rule that runs ``script`` (its ``script:``, as
    Snakemake holds it; None for a rule without one) from the folder ``scripts``: the
    ``code`` digest of the package code it runs and, with ``libraries`` ``"rerun"``
    (``provenance.libraries``), a digest of the versions of the libraries that code
    imports. Empty for a script that is not this workflow's (as a module of another)."""
    if not script:
        return {}
    path = scripts / Path(str(script)).name
    if not path.is_file():
        return {}
    code = codedigest.code_of(path)
    found = {"code": code.digest}
    if libraries == "rerun":
        found["libraries"] = versions_digest(library_versions(code.libraries))
    return found


def target_params(target: str | None, libraries: str) -> str:
    """The param of a job that dispatches to ``target`` (a registry's ``"module:function"``,
    the training rule's trainer): the digest of the target's code and, with ``libraries``
    ``"rerun"``, of the versions of the libraries it imports (gensim for word2vec)."""
    if not target:
        return ""
    code = codedigest.code_of_modules([target.split(":")[0]])
    if libraries == "rerun":
        return f"{code.digest}/{versions_digest(library_versions(code.libraries))}"
    return code.digest


def environment_digest(scripts: Path) -> str:
    """A digest of the versions of every library the scripts in ``scripts`` import, and
    Python's: a param of the job that writes the report's provenance paragraph, so that
    it is rewritten whenever the environment changes."""
    libraries: set[str] = set()
    for script in sorted(scripts.glob("*.py")):
        libraries |= set(codedigest.code_of(script).libraries)
    versions = library_versions(libraries)
    return versions_digest({**versions, "python": platform.python_version()})


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
        import logging

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
    job dispatched to, or the one analysis an analysis job ran (its script dispatches
    over their package, whose registry imported that one alone)."""
    import sys

    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    script = codedigest.code_of(path) if path and Path(path).is_file() else None
    roots = set(script.roots) if script else set()
    skipped = codedigest.SIZING | codedigest.RECORDING
    loaded = {name for name in list(sys.modules)
              if name.split(".")[0] == codedigest.PACKAGE and name not in skipped
              and codedigest.module_path(name) is not None}  # fmt: skip
    return codedigest.code_of_modules(roots | loaded, script.dispatched if script else ())


def _code_record(code: codedigest.Code) -> dict[str, Any]:
    """A record's ``code``: the digest, the roots it is recomputed from and the packages
    whose prefix imports it leaves out (only where a script dispatched over one)."""
    found = {"digest": code.digest, "roots": list(code.roots), "modules": len(code.modules)}
    if code.dispatched:
        found["dispatched"] = list(code.dispatched)
    return found


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
        _merge(found, (_read_cached(str(f)) or {}).get("lineage", {}).values())
    own = {**_environment(record), "rules": [record.get("rule") or record.get("command")
                                             or "library"]}  # fmt: skip
    _merge(found, [own])
    return found


def _merge(into: dict[str, Any], environments: Iterable[Mapping[str, Any]]) -> None:
    """Add ``environments`` to ``into``, keyed by their content (never by a stored key)."""
    for env in environments:
        bare = {k: v for k, v in env.items() if k != "rules"}
        key = versions_digest({"env": json.dumps(bare, sort_keys=True)})
        entry = into.setdefault(key, {**bare, "rules": []})
        entry["rules"] = sorted(set(entry["rules"]) | set(env.get("rules", [])))


def _read_cached(path: str) -> dict[str, Any] | None:
    p = Path(path)
    if p.suffix not in (".parquet", ".json") and (p.parent / "meta.json").is_file():
        p = p.parent / "meta.json"
    return read(p, quiet=True) if p.is_file() else None


def mixed(record: Mapping[str, Any]) -> list[str]:
    """One line per environment of ``record``'s lineage whose library or Python versions
    are not the current ones, naming what differs and the rules that ran under it. (The
    package's own changes are the code digests' business: they rerun what they touch.)"""
    lines = []
    for env in record.get("lineage", {}).values():
        libs = env.get("libraries", {})
        current = library_versions(_import_names(libs))
        diff = [f"{d} {v} (now {current.get(d, 'not installed')})"
                for d, v in libs.items() if current.get(d) != v]  # fmt: skip
        if env.get("python") not in (None, platform.python_version()):
            diff.append(f"Python {env['python']} (now {platform.python_version()})")
        if diff:
            lines.append(f"{', '.join(diff)}: {', '.join(env.get('rules', []))}")
    return lines


def report_rst(paths: Iterable[str]) -> str:
    """The report's provenance paragraph (reStructuredText) for the results ``paths``
    lead to: the versions they were made with, and every environment of their lineage
    that differs from the current one, with its rules."""
    envs: dict[str, Any] = {}
    for p in paths:
        _merge(envs, (_read_cached(str(p)) or {}).get("lineage", {}).values())
    pkg = package()
    made = f"learnability {pkg.get('version')}"
    if pkg.get("commit"):
        made += f" (git checkout {pkg['commit'][:12]}{', modified' if pkg.get('modified') else ''})"
    libs = sorted({(d, v) for env in envs.values() for d, v in env.get("libraries", {}).items()})
    current = library_versions(_import_names(d for d, _ in libs))
    text = [".. rubric:: Provenance\n",
            f"This report was made with {made}, Python {platform.python_version()}, "
            + ", ".join(f"{d} {v}" for d, v in sorted(current.items())) + "."]  # fmt: skip
    different = mixed({"lineage": envs})
    if different:
        text += ["", f"**Mixed versions**: {len(different)} environment(s) of this run's "
                 "results differ from the current one (``learnability provenance FILE`` "
                 "says which files; ``provenance.libraries: rerun`` reruns them):", ""]  # fmt: skip
        text += [f"- {line}" for line in different]
    else:
        text += ["", "Every result this report shows was made under these library versions."]
    versions = sorted({str(env.get("learnability")) for env in envs.values()})
    if len(versions) > 1:
        text += ["", "Its results were made by learnability " + ", ".join(versions) + " "
                 "(each job reruns when the package code it runs changes)."]  # fmt: skip
    return "\n".join(text) + "\n"


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
io.install_record_maker(current)


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


def compare(record: Mapping[str, Any], workdir: Path | None = None) -> dict[str, Any]:
    """What differs between ``record`` and what the current code and environment would
    use: the code digest of its modules now, each library's version now, each input's
    digest now (relative to ``workdir``, the run's folder; skipped if None)."""
    roots = record.get("code", {}).get("roots", [])
    missing = [r for r in roots if codedigest.module_path(r) is None]
    dispatched = record.get("code", {}).get("dispatched", [])
    code_now = codedigest.code_of_modules([r for r in roots if r not in missing], dispatched)
    libraries_now = library_versions(_import_names(record.get("libraries", {})))
    libraries = {
        dist: (was, libraries_now.get(dist))
        for dist, was in record.get("libraries", {}).items()
        if libraries_now.get(dist) != was
    }
    inputs = {}
    if workdir is not None:
        for f, was in record.get("inputs", {}).items():
            now = input_digest(workdir / f)
            if now != was:
                inputs[f] = (was, now)
    code_changed = bool(missing) or (
        record.get("code", {}).get("digest") not in (code_now.digest, None)
    )
    return {
        "code": (record.get("code", {}).get("digest"), code_now.digest) if code_changed else None,
        "libraries": libraries,
        "inputs": inputs,
        "python": (record.get("python"), platform.python_version())
        if record.get("python") != platform.python_version()
        else None,
    }


def _import_names(distributions: Iterable[str]) -> set[str]:
    wanted = set(distributions)
    return {name for name, dists in _distributions().items() if wanted & set(dists)}


def differs(diff: Mapping[str, Any]) -> bool:
    return any(bool(v) for v in diff.values())


def workdir_of(path: Path, record: Mapping[str, Any]) -> Path | None:
    """The run's folder: where ``path`` sits as one of the job's recorded outputs."""
    path = path.resolve()
    for out in record.get("outputs", []):
        parts = Path(out).parts
        if tuple(path.parts[-len(parts) :]) == parts:
            return Path(*path.parts[: -len(parts)]) if len(path.parts) > len(parts) else Path("/")
    return None


SHOWN_INPUTS = 10  # a table can read hundreds of files; the rest are counted, --all lists them


def describe(path: str | os.PathLike[str], all_inputs: bool = False) -> tuple[str, bool]:
    """``learnability provenance``'s text for ``path`` and whether the current code and
    environment differ from those that made it; an InputError if it has no record. The
    inputs are listed up to SHOWN_INPUTS unless ``all_inputs``; changed ones always are."""
    from learnability.errors import InputError

    path = Path(path)
    if not path.is_file():
        raise InputError(f"{path}: no such file; give a Parquet table or a meta.json of a run")
    try:
        record = read(path)
    except Exception as exc:  # noqa: BLE001 - a file that is neither, in one line
        raise InputError(f"{path}: not a readable Parquet or JSON file ({exc})") from None
    if record is None:
        raise InputError(
            f"{path}: holds no provenance record (written by another tool, or before "
            "learnability recorded one); rerun the job that makes it"
        )
    workdir = workdir_of(path, record)
    if workdir is None and record.get("command"):
        workdir = Path("/")  # a command's inputs are absolute paths
    diff = compare(record, workdir)
    pkg = record.get("package", {})
    commit = pkg.get("commit")
    made = f"learnability {pkg.get('version')}"
    if commit:
        made += f" (git checkout {commit[:12]}{', modified' if pkg.get('modified') else ''})"
    now = package()
    code = record.get("code", {})
    inputs = list(record.get("inputs", {}).items())
    shown = inputs if all_inputs else inputs[:SHOWN_INPUTS]
    lines = [
        f"{path}",
        f"  made by     {record.get('rule') and 'rule ' + record['rule'] or record.get('command')}"
        + (f" {_wildcards(record)}" if record.get("wildcards") else ""),
        f"  package     {made}",
        f"  code        {code.get('digest')} ({code.get('modules')} modules)",
        *([f"    from {', '.join(code.get('roots', [])) or '-'}"] * all_inputs),
        f"  params      {record.get('params')}",
        f"  record id   {record.get('id')}",
        f"  python      {record.get('python')}",
        "  libraries   " + ", ".join(f"{d} {v}" for d, v in record.get("libraries", {}).items()),
        f"  inputs      {len(inputs)}",
        *(f"    {f}  {d}" for f, d in shown),
        *([f"    ... {len(inputs) - len(shown)} more (--all lists them)"] * (inputs != shown)),
        "",
        f"Now: learnability {now.get('version')}"
        + (
            f" (git checkout {now['commit'][:12]}{', modified' if now.get('modified') else ''})"
            if now.get("commit")
            else ""
        ),
    ]
    if diff["code"]:
        lines.append(f"  code        {diff['code'][0]} -> {diff['code'][1]}: the package code "
                     "this job runs has changed")  # fmt: skip
    for dist, (was, new) in diff["libraries"].items():
        lines.append(f"  library     {dist} {was} -> {new or 'not installed'}")
    if diff["python"]:
        lines.append(f"  python      {diff['python'][0]} -> {diff['python'][1]}")
    for f, (was, new) in diff["inputs"].items():
        lines.append(f"  input       {f}: {was} -> {new}")
    if workdir is None and record.get("inputs"):
        lines.append("  inputs      not compared: the file is not where its run wrote it")
    different = differs(diff)
    lines.append(
        "would differ: the current code or environment is not the one that made this file"
        if different
        else "would make the same file: the same code, libraries and inputs"
    )
    return "\n".join(lines), different


def _wildcards(record: Mapping[str, Any]) -> str:
    return "(" + ", ".join(f"{k}={v}" for k, v in record["wildcards"].items()) + ")"

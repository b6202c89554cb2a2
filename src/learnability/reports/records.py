"""Records described for people: ``learnability provenance FILE`` (what made a file, and
whether the current code and environment would make the same one) and the HTML report's
provenance paragraph. The records themselves are :mod:`learnability.provenance`'s."""

from __future__ import annotations

import os
import platform
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from learnability import codedigest
from learnability.errors import InputError
from learnability.provenance import (
    import_names,
    input_digest,
    library_versions,
    merge_environments,
    package,
    read,
    read_lineage_record,
)


def mixed(record: Mapping[str, Any]) -> list[str]:
    """One line per environment of ``record``'s lineage whose library or Python versions
    are not the current ones, naming what differs and the rules that ran under it. (The
    package's own changes are the code digests' business: they rerun what they touch.)"""
    lines = []
    for env in record.get("lineage", {}).values():
        libs = env.get("libraries", {})
        current = library_versions(import_names(libs))
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
        merge_environments(envs, (read_lineage_record(str(p)) or {}).get("lineage", {}).values())
    pkg = package()
    made = f"learnability {pkg.get('version')}"
    if pkg.get("commit"):
        made += f" (git checkout {pkg['commit'][:12]}{', modified' if pkg.get('modified') else ''})"
    libs = sorted({(d, v) for env in envs.values() for d, v in env.get("libraries", {}).items()})
    current = library_versions(import_names(d for d, _ in libs))
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


def compare(record: Mapping[str, Any], workdir: Path | None = None) -> dict[str, Any]:
    """What differs between ``record`` and what the current code and environment would
    use: the code digest of its modules now, each library's version now, each input's
    digest now (relative to ``workdir``, the run's folder; skipped if None)."""
    roots = record.get("code", {}).get("roots", [])
    missing = [r for r in roots if codedigest.module_path(r) is None]
    # (an older record may also name "dispatched" packages: their prefix imports are
    # gone with the registries' import strings, so its roots are recomputed as they are)
    code_now = codedigest.code_of_modules([r for r in roots if r not in missing])
    libraries_now = library_versions(import_names(record.get("libraries", {})))
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

"""The params that rerun a workflow job when what it runs changes: the digest of the
package code a rule's script runs (and, with ``provenance.libraries: rerun``, of the
versions of the libraries that code imports), of a dispatched target's code (a trainer,
an analysis), and of the environment the report's provenance paragraph describes.
Snakemake reads these while it builds the DAG (workflow/Snakefile, rules/helpers)."""

from __future__ import annotations

import platform
from pathlib import Path
from typing import Any

from learnability import codedigest
from learnability.provenance import (
    library_versions,
    versions_digest,
)
from learnability.targets import module_of


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
    code = codedigest.code_of_modules([module_of(target)])
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

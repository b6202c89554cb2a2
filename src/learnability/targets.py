"""A registry entry's code, named by an import string and imported when it is used.

Every family of the package is one table of entries in its registry (corpus sources in
:mod:`learnability.corpus.sources`, embedding methods in
:mod:`learnability.embeddings.registry`, evaluations in
:mod:`learnability.evaluations.registry`, analyses in
:mod:`learnability.analyses.registry`), and an entry names the code it runs as
``"module:attribute"``. So a registry reads without importing its members (Snakemake reads
them all while it builds the DAG; a trainer's module imports gensim), and a workflow job
that runs one member follows that member's code alone (:mod:`learnability.codedigest`
takes a ``"module:attribute"`` string as a dispatch target: the rule adds its digest,
:func:`learnability.pipeline.rerun.target_params`)."""

from __future__ import annotations

import importlib
from typing import Any


def module_of(target: str) -> str:
    """The module a ``"module:attribute"`` string names (what a rule digests)."""
    return target.partition(":")[0]


def load(target: str) -> Any:
    """The attribute ``target`` (``"package.module:attribute"``) names, its module imported
    on first use; a ValueError for a string that is not of that form."""
    module, _, attribute = target.partition(":")
    if not (module and attribute):
        raise ValueError(f"{target!r}: a registry names its code as 'module:attribute'")
    return getattr(importlib.import_module(module), attribute)

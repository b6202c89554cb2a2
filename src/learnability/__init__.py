"""learnability: how well do word embeddings capture human-defined concepts?

Implements the method of Sutton & Cristianini (2020), "On the Learnability of
Concepts", as a library that the Snakemake workflow calls. The package never
imports Snakemake: each module can be used and tested on its own.

The front door for notebooks is :func:`score` (``from learnability import score``): word
lists on one embedding (a gensim ``KeyedVectors``, a mapping of word to vector, or a
file), scored with the workflow's own code, returned as tidy DataFrames.
"""

import importlib
from importlib import metadata as _metadata

try:  # setuptools-scm's, from the commit it was installed at (pyproject.toml)
    __version__ = _metadata.version("learnability")
except _metadata.PackageNotFoundError:  # the sources on a path, never installed
    __version__ = "0+unknown"

# the front door's names and the module each lives in
_API = {"Scores": "api", "score": "api", "as_embedding": "inputs", "as_lists": "inputs"}


def __getattr__(name: str):
    # imported on first use: `import learnability` stays light for the workflow's jobs,
    # which import only the modules they need
    if name in _API:
        return getattr(importlib.import_module(f"learnability.{_API[name]}"), name)
    raise AttributeError(f"module 'learnability' has no attribute {name!r}")

"""learnability: how well do word embeddings capture human-defined concepts?

Implements the method of Sutton & Cristianini (2020), "On the Learnability of
Concepts", as a library that the Snakemake workflow calls. The package never
imports Snakemake: each module can be used and tested on its own.

The front door for notebooks is :func:`score` (``from learnability import score``): word
lists on one embedding (a gensim ``KeyedVectors``, a mapping of word to vector, or a
file), scored with the workflow's own code, returned as tidy DataFrames.
"""

import importlib.abc
import importlib.util
import sys

__version__ = "0.1.0"

# The modules by stage (corpus/, concepts/, protocol/, statistics/, reports/, workflow/,
# beside embeddings/ and evaluations/). Their former flat import paths still work: the
# same module object, not a copy.
MOVED = {
    "download": "corpus.download", "dumps": "corpus.dumps", "wikitext": "corpus.wikitext",
    "tokenize": "corpus.tokenize", "_token_kernel": "corpus._token_kernel",
    "cooccur": "corpus.cooccur", "parallel": "corpus.parallel",
    "synthdump": "corpus.synthdump", "matching": "concepts.matching",
    "empath": "concepts.empath", "wordnet": "concepts.wordnet",
    "evaluate": "protocol.evaluate", "sampling": "protocol.sampling",
    "metrics": "protocol.metrics", "codelength": "protocol.codelength",
    "classify": "protocol.classify", "lbfgs": "protocol.lbfgs",
    "lbfgs_stacked": "protocol.lbfgs_stacked", "threads": "protocol.threads",
    "stats": "statistics.stats", "twolevel": "statistics.twolevel",
    "calibration": "statistics.calibration", "tables": "reports.tables",
    "plots": "reports.plots", "config_docs": "reports.config_docs",
    "workflow_config": "workflow.config", "jobs": "workflow.jobs",
    "sweeps": "workflow.sweeps",
}  # fmt: skip


class _Moved(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """``import learnability.stats`` gives ``learnability.statistics.stats``."""

    def find_spec(self, fullname, path=None, target=None):
        head, _, name = fullname.partition(".")
        if head != __name__ or name not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        module = importlib.import_module(f"{__name__}.{MOVED[spec.name.partition('.')[2]]}")
        spec.loader_state = module.__spec__  # the import system gives it the alias's spec
        return module

    def exec_module(self, module):
        # the real module ran when it was imported: give it back its own spec
        module.__spec__ = module.__spec__.loader_state


def former_module(package: str, main: str):
    """A package's ``__getattr__`` that gives the names of the module it replaced (now
    its submodule ``main``), imported on first use: ``learnability.corpus.X`` and
    ``learnability.concepts.X`` keep working."""

    def __getattr__(name: str):
        module = importlib.import_module(f"{package}.{main}")
        try:
            return getattr(module, name)
        except AttributeError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None

    return __getattr__


if not any(isinstance(f, _Moved) for f in sys.meta_path):
    sys.meta_path.append(_Moved())

_API = ("Scores", "as_embedding", "as_lists", "score")


def __getattr__(name: str):
    # imported on first use: `import learnability` stays light for the workflow's jobs,
    # which import only the modules they need
    if name in _API:
        from learnability import api

        return getattr(api, name)
    raise AttributeError(f"module 'learnability' has no attribute {name!r}")

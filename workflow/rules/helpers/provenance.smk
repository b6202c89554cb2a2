# Code-aware reruns (docs/how-to/code-changes.md). Snakemake reruns a job when its rule's
# script changes, not when the package modules that script imports do; so every rule
# with a script gets, as params, the digest of the package code the script runs
# (learnability.codedigest: its imports followed through the package, comments and
# docstrings ignored) and, with provenance.libraries: rerun, a digest of the versions of
# the libraries that code imports. Digests only: no path in a param, no module as an
# input (a touch would rerun). Included last, when every rule is defined.
from learnability.codedigest import code_of
from learnability.provenance import library_versions, versions_digest

_RERUN_ON_LIBRARIES = config["provenance"]["libraries"] == "rerun"


def _script_of(rule):
    """The workflow script a rule runs (None: a rule without one, or another workflow's
    rule when this one is used as a module)."""
    if not rule.script:
        return None
    path = ROOT / "workflow" / "scripts" / Path(str(rule.script)).name
    return path if path.is_file() else None


for _rule in workflow.rules:
    _script = _script_of(_rule)
    if _script is None:
        continue
    _code = code_of(_script)
    _extra = {"code": _code.digest}
    if _RERUN_ON_LIBRARIES:
        _extra["libraries"] = versions_digest(library_versions(_code.libraries))
    _rule.set_params(**_extra)

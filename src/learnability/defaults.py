"""One source for the defaults that the workflow, the ``learnability`` command and the
Python API share: the config schema (``config.schema.yaml``, shipped inside the package
and linked from ``workflow/schemas/``, where Snakemake validates against it).

:func:`default` reads a key's ``default:`` there, through the generated
:mod:`learnability.schema_defaults` (``make docs`` writes it; a test keeps it equal to
the schema), so that no process parses the YAML to learn a default.

The pretrained-embedding options are the one exception: Snakemake's validation writes
every ``default:`` into every object it validates, so a default on a pretrained-only key
would land in each trained embedding's spec too (and trip the check that refuses
pretrained keys there). Their defaults are :data:`PRETRAINED` below, which the schema's
descriptions quote (a test keeps them equal)."""

from __future__ import annotations

import copy
import functools
import os
import sys
from pathlib import Path
from typing import Any

from learnability.schema_defaults import DEFAULTS

SCHEMA = Path(__file__).with_name("config.schema.yaml")

# two lists sharing more than this share of the smaller one's in-vocabulary members are
# nested: the coverage tables flag them, and the comparisons test them as one unit
OVERLAP_WARN = 0.5

# the options of a pretrained embedding (``embeddings.NAME`` with ``method: pretrained``)
# that have a default; ``words``, ``words_column``, ``member`` and ``max_vocab`` have
# none (absent: not used)
PRETRAINED: dict[str, Any] = {
    "format": "auto",
    "exclude_prefixes": (),
    "frequency_ordered": True,
    "subword_oov": False,
    "allow_pickle": False,
    "unicode_errors": "strict",
}


@functools.cache
def schema() -> dict:
    """The config schema as a dict (read once): for the generated pages and the tests;
    the defaults are read from :mod:`learnability.schema_defaults`, so that importing
    the package reads no YAML."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load(SCHEMA.read_text(encoding="utf-8"), Loader=loader)


def schema_defaults(tree: dict) -> dict[str, Any]:
    """Every ``default:`` of a config schema by dotted key, in the schema's order; a key
    whose type is shared (``$ref`` to ``$defs``) keeps its own default."""
    found: dict[str, Any] = {}

    def walk(node: dict, path: str) -> None:
        while "$ref" in node:
            ref = tree["$defs"][node["$ref"].rsplit("/", 1)[-1]]
            node = {**ref, **{k: v for k, v in node.items() if k != "$ref"}}
        if path and "default" in node:
            found[path] = node["default"]
        for name, child in node.get("properties", {}).items():
            walk(child, f"{path}.{name}" if path else name)

    walk(tree, "")
    return found


def default(key: str) -> Any:
    """The schema's ``default:`` of a dotted config key, e.g. ``"learnability.C"`` (a
    copy: a caller may change it); a KeyError when the key has none. In a workflow job
    under :data:`STRICT`, an :class:`Unpassed` in its place."""

    if key not in DEFAULTS:
        raise KeyError(f"config key {key} has no default in {SCHEMA.name}")
    if _strict_job():
        return Unpassed(key)
    return copy.deepcopy(DEFAULTS[key])


# A workflow job reads every setting it uses from its rule's params, which Snakemake's
# validation fills with the schema's defaults, so that a changed default reruns the jobs
# it reaches as a changed param: the jobs' code digests (learnability.codedigest) do not
# hold the defaults' table. The suite proves that no job falls back on a default its rule
# does not pass: its workflow runs set STRICT, under which default() in a job's process
# hands back an Unpassed, which raises on any use. (A job's process is the one Snakemake
# runs a rule's script in: the script copied under .snakemake/scripts/.)
STRICT = "LEARNABILITY_STRICT_DEFAULTS"


def _strict_job() -> bool:
    if os.environ.get(STRICT) != "1" or not sys.argv or not sys.argv[0]:
        return False
    return Path(sys.argv[0]).parent.parts[-2:] == (".snakemake", "scripts")


class DefaultNotPassed(RuntimeError):
    """A workflow job used a schema default that its rule does not pass as a param."""


def _unpassed(self: Unpassed, *args: object, **kwargs: object) -> Any:
    key = object.__getattribute__(self, "_key")
    raise DefaultNotPassed(
        f"{key}: this workflow job used the config schema's default, which its rule does "
        f"not pass; add the config's {key} to the rule's params and give it to the code "
        "that reads it (a job's code digest holds no default, so a changed default "
        "reruns only the jobs it reaches as a param)"
    )


class Unpassed:
    """The value :func:`default` gives in a workflow job under :data:`STRICT`: any use of
    it (a comparison, arithmetic, text, truth, iteration, an attribute, pickling) raises
    :class:`DefaultNotPassed` naming the key. Only ``is`` and ``type()`` see it quietly."""

    __slots__ = ("_key",)

    def __init__(self, key: str) -> None:
        object.__setattr__(self, "_key", key)


for _name in (
    "__eq__ __ne__ __lt__ __le__ __gt__ __ge__ __hash__ __bool__ __int__ __float__ "
    "__index__ __complex__ __round__ __trunc__ __floor__ __ceil__ __str__ __repr__ "
    "__format__ __bytes__ __add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ __truediv__ "
    "__rtruediv__ __floordiv__ __rfloordiv__ __mod__ __rmod__ __divmod__ __rdivmod__ "
    "__pow__ __rpow__ __matmul__ __rmatmul__ __and__ __rand__ __or__ __ror__ __xor__ "
    "__rxor__ __lshift__ __rlshift__ __rshift__ __rrshift__ __neg__ __pos__ __abs__ "
    "__invert__ __len__ __iter__ __contains__ __getitem__ __setitem__ __call__ "
    "__getattr__ __setattr__ __array__ __fspath__ __reduce__ __reduce_ex__ __copy__ "
    "__deepcopy__"
).split():
    setattr(Unpassed, _name, _unpassed)

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
    copy: a caller may change it); a KeyError when the key has none."""

    if key not in DEFAULTS:
        raise KeyError(f"config key {key} has no default in {SCHEMA.name}")
    return copy.deepcopy(DEFAULTS[key])

"""The hyperparameters each embedding's job reads, and only those (:func:`embedding_params`):
they go into its rule's ``params``, so changing one reruns exactly the embeddings it
affects. Shared by the config checks (:mod:`.config`), the sweeps' grid
(:mod:`.sweeps`) and ``common.smk``."""

from __future__ import annotations

from learnability.defaults import PRETRAINED
from learnability.embeddings import registry
from learnability.errors import ConfigError


def _merged_training(config: dict, spec: dict) -> dict:
    block = {k: (dict(v) if isinstance(v, dict) else v) for k, v in config["training"].items()}
    for key, value in (spec.get("params") or {}).items():
        if isinstance(value, dict):
            block.setdefault(key, {}).update(value)
        else:
            block[key] = value
    return block


def embedding_params(config: dict, name: str, spec: dict | None = None) -> dict:
    """The hyperparameters that ``name``'s trainer reads, and only those: they go into the
    rule's ``params``, so changing one reruns exactly the embeddings it affects. ``spec``:
    the embedding's spec when it is not under ``embeddings`` (a sweep point)."""
    spec = config["embeddings"][name] if spec is None else spec
    method = spec["method"]
    if method == "pretrained":
        given = {k: spec.get(k, default) for k, default in PRETRAINED.items()}
        return {
            "method": "pretrained",
            "format": given["format"],
            "member": spec.get("member"),
            "max_vocab": spec.get("max_vocab"),
            "exclude_prefixes": list(given["exclude_prefixes"]),
            "frequency_ordered": given["frequency_ordered"],
            "subword_oov": given["subword_oov"],
            "allow_pickle": given["allow_pickle"],
            "unicode_errors": given["unicode_errors"],
            "words_column": spec.get("words_column"),
            "threads": 1,
        }
    block = _merged_training(config, spec)
    if method == "random":
        return {
            "method": "random",
            "dim": block["dim"],
            "seed": spec.get("seed", 0),
            "reference": spec["reference"],
            "threads": 1,
        }
    entry = registry.method(method)
    missing = [k for k in entry.keys if k not in block]
    if entry.nested and entry.nested[0] not in block:
        missing.append(entry.nested[0])
    if missing:
        raise ConfigError(
            f"embeddings.{name}: method {method} reads training.{', training.'.join(missing)}, "
            "which the config does not set; copy them from config/config.yaml's training block"
        )
    params = {"method": method, **{k: block[k] for k in entry.keys}}
    if entry.nested:
        nested, keys = entry.nested
        params.update({k: v for k, v in block[nested].items() if keys is None or k in keys})
    params["threads"] = block["threads"]
    return params

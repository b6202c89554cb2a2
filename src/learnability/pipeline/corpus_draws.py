"""The corpus comparison's embeddings (config ``compare_corpora``): one per embedding,
corpus and seed, trained on a draw of that corpus (``results/corpus/NAME/draws/seed-S``:
``compare_corpora.tokens`` of its documents, drawn with seed S, by
:func:`learnability.corpus.sample.sample_documents`) with training seed S.

They are the points of a sweep named :data:`CORPORA_SWEEP` (its own vocabulary, lists
and scoring jobs, as any sweep's); the comparison itself is
:mod:`learnability.statistics.corpora`. A larger corpus makes every concept more
learnable whatever it holds, so the corpora are compared at one size; and a corpus is one
sample of the kind of text it stands for, so each is drawn several times at part of its
size, which lets the tests see how much a draw of other documents would move a list."""

from __future__ import annotations

import copy

import pandas as pd

from learnability.embeddings import registry
from learnability.errors import ConfigError
from learnability.pipeline.sweeps import Point, validate_training
from learnability.statistics.sweeps import PARAM_PREFIX, format_value

CORPORA_SWEEP = "corpora"
# the swept values of a draw's point, and the columns its scores carry (param_corpus, ...)
CORPUS_KEY, SEED_KEY = "corpus", "seed"


def corpus_blocks(config: dict) -> dict[str, dict]:
    """Every corpus a run can extract, by name: its source block (``corpus.source``, and
    each ``corpora:`` entry)."""
    name = config["corpus"]["name"]
    blocks = {name: config["corpus"]["source"]}
    for other, block in (config.get("corpora") or {}).items():
        if other == name:
            raise ConfigError(
                f"corpora.{other}: {other!r} is corpus.name; give this corpus another"
            )
        blocks[other] = block
    return blocks


def compared_embeddings(config: dict) -> list[str]:
    """The embeddings trained on each draw: ``compare_corpora.embeddings``, else the
    trained ones of ``compare.embeddings``."""
    given = list(config.get("compare_corpora", {}).get("embeddings") or [])
    embeddings = config["embeddings"]
    if not given:
        given = [e for e in config["compare"]["embeddings"] if _trained(embeddings, e)]
    for name in given:
        if name not in embeddings:
            raise ConfigError(
                f"compare_corpora.embeddings: {name!r} is not defined under embeddings "
                f"(defined: {sorted(embeddings)})"
            )
        if not _trained(embeddings, name):
            raise ConfigError(
                f"compare_corpora.embeddings: {name!r} is {embeddings[name]['method']}, not "
                "trained here; corpora are compared by training on each"
            )
    if not given:
        raise ConfigError(
            "compare_corpora.embeddings: name the trained embeddings (word2vec, glove, "
            "fasttext...) whose settings are trained on each corpus"
        )
    return given


def _trained(embeddings: dict, name: str) -> bool:
    return name in embeddings and registry.method(embeddings[name]["method"]).trainer is not None


def compared_corpora(config: dict) -> list[str]:
    """``compare_corpora.corpora``, checked: two or more, each ``corpus.name`` or a name
    under ``corpora:``; [] when there is no comparison."""
    names = list(config.get("compare_corpora", {}).get("corpora") or [])
    if not names:
        return []
    known = corpus_blocks(config)
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ConfigError(
            f"compare_corpora.corpora: {', '.join(map(repr, unknown))} is neither "
            f"corpus.name nor a corpus under corpora: (known: {', '.join(known)})"
        )
    if len(names) < 2:
        raise ConfigError(
            "compare_corpora.corpora: name two or more corpora (corpus.name, corpora: names)"
        )
    return names


def draw_folder(corpus: str, seed: int) -> str:
    """The folder of a corpus' draw (its text.txt.gz and stats.json)."""
    return f"results/corpus/{corpus}/draws/seed-{seed}"


def draw_points(config: dict, training_schema: dict | None = None) -> list[Point]:
    """The comparison's points, per embedding, corpus and seed, in that order: named
    ``word2vec_corpus~news_seed~1``, each its own source (a draw trains nothing else),
    trained with the embedding's settings, ``compare_corpora.params`` over them, and the
    seed. ``training_schema``: the config schema, to check each point's training block."""
    corpora = compared_corpora(config)
    if not corpora:
        return []
    if CORPORA_SWEEP in (config.get("sweeps") or {}):
        raise ConfigError(
            f"sweeps.{CORPORA_SWEEP}: the name is the corpus comparison's; rename the sweep"
        )
    seeds = list(config["compare_corpora"]["seeds"])
    points = []
    for base in compared_embeddings(config):
        spec0 = config["embeddings"][base]
        for corpus in corpora:
            for seed in seeds:
                params = copy.deepcopy(spec0.get("params") or {})
                for key, value in (config["compare_corpora"].get("params") or {}).items():
                    if isinstance(value, dict):
                        params.setdefault(key, {}).update(value)
                    else:
                        params[key] = value
                params[SEED_KEY] = seed
                values = {CORPUS_KEY: corpus, SEED_KEY: seed}
                name = f"{base}_corpus~{corpus}_seed~{format_value(seed)}"
                if name in config["embeddings"]:
                    raise ConfigError(f"embeddings.{name}: the name is a corpus draw's; rename it")
                spec = {"method": spec0["method"], "params": params,
                        "draw": {"corpus": corpus, "seed": seed}}  # fmt: skip
                if training_schema is not None:
                    validate_training(config, params, training_schema,
                                      f"compare_corpora ({name})")  # fmt: skip
                points.append(Point(name, CORPORA_SWEEP, base, values, spec, name))
    return points


def draw_scores(scores: pd.DataFrame) -> pd.DataFrame:
    """The draws' AUCs from their points' scores (schema ``sweep_scores``, the sweep
    :data:`CORPORA_SWEEP`): one row per draw, list and
    scheme with the embedding trained on each draw, its corpus and seed: what
    :func:`learnability.statistics.corpora.compare_corpora` compares."""
    auc = scores[(scores["metric"] == "auc") & (scores["iterations"] > 0)]
    return pd.DataFrame({
        "negatives": auc["negatives"], "embedding": auc["method"],
        "corpus": auc[PARAM_PREFIX + CORPUS_KEY].astype(str),
        "seed": auc[PARAM_PREFIX + SEED_KEY].astype(int), "list": auc["list"],
        "mean": auc["mean"],
    }).reset_index(drop=True)  # fmt: skip

"""Hyperparameter and corpus-size sweeps: a grid of trainer settings per method, each
point an embedding named by its parameters, trained once and scored on the sweep's
shared vocabulary.

``sweeps:`` in the config (docs: config/README.md) declares, per sweep, the embeddings
to vary (``embeddings``), a grid over training keys (``grid``) and/or the share of the
corpus' tokens to train on (``corpus_fraction``). :func:`expand_sweeps` turns that into
:class:`Point` s at config-load time; the workflow trains each point with the ordinary
``train_embedding`` rule (a point whose training equals another embedding's reuses its
files), and scores all lists of a point in one job
(:func:`learnability.pipeline.sweep_scoring.score_point`). No null distributions are
drawn for sweep points: a sweep compares settings, paired over lists, and shows how the
mean AUC moves with each parameter (:mod:`learnability.statistics.sweeps`).
"""

from __future__ import annotations

import copy
import itertools
import json
import re
from dataclasses import dataclass, field

from learnability.embeddings import registry
from learnability.errors import LearnabilityError
from learnability.pipeline.params import embedding_params
from learnability.statistics.sweeps import PARAM_PREFIX, format_value

CORPUS_AXIS = "corpus_fraction"
NAME_KEYS = {CORPUS_AXIS: "corpus"}  # word2vec_corpus~0.25
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.~-]*$")
SWEEP_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")


class SweepError(LearnabilityError):
    pass


@dataclass(frozen=True)
class Point:
    """One grid point of one sweep: ``method`` is the embedding it varies (its config
    name, the legend of the figures), ``values`` the swept settings (grid order, the
    corpus fraction last), ``spec`` its embedding spec (``method``, ``params``, and
    ``corpus_fraction`` below 1), ``source`` the embedding whose trained files it uses
    (itself, or an earlier one trained identically)."""

    name: str
    sweep: str
    method: str
    values: dict = field(hash=False)
    spec: dict = field(hash=False)
    source: str = ""

    @property
    def setting(self) -> str:
        """The swept values as text (``dim=50, window=2``): the same for every method at
        this point, so the Wilcoxon tests pair the methods on it."""
        return ", ".join(f"{k}={format_value(v)}" for k, v in self.values.items())

    @property
    def corpus_fraction(self) -> float:
        return float(self.values.get(CORPUS_AXIS, 1.0))

    def param_columns(self) -> dict:
        return {f"{PARAM_PREFIX}{k}": v for k, v in self.values.items()}


def _placement(config: dict, method: str, key: str, where: str) -> tuple[str, ...]:
    """Where ``method``'s trainer reads the swept ``key``: a ``training:`` key it reads,
    else a key of its own block (``fasttext.minn`` or just ``minn``)."""
    entry = registry.method(method)
    block, _, sub = key.rpartition(".")
    nested_keys: tuple[str, ...] = ()
    if entry.nested:
        name, keys = entry.nested
        known = (config["training"].get(name) or {}).keys() if keys is None else keys
        nested_keys = tuple(known)
        if block == name and sub in nested_keys:
            return (name, sub)
    if not block:
        if key in entry.keys:
            return (key,)
        if key in nested_keys:
            return (entry.nested[0], key)
    reads = [*entry.keys, *(f"{entry.nested[0]}.{k}" for k in nested_keys)]
    raise SweepError(
        f"{where}: method {method} does not read {key!r}, so sweeping it would train the "
        f"same embedding again; it reads: {', '.join(reads)}"
    )


def _check_values(values, where: str) -> list:
    if not isinstance(values, list) or not values:
        raise SweepError(f"{where}: give a non-empty list of values")
    shown = [json.dumps(v, sort_keys=True) for v in values]
    dupes = sorted({s for s in shown if shown.count(s) > 1})
    if dupes:
        raise SweepError(f"{where}: {', '.join(dupes)} is given twice; list each value once")
    return values


def training_key(params: dict, corpus_fraction: float) -> str:
    """What makes two embeddings the same training: the trainer's params (threads left
    out: they do not change the vectors of a one-thread run, and a point trains with the
    training block's threads) and the corpus share."""
    kept = {k: v for k, v in params.items() if k != "threads"}
    return json.dumps([kept, float(corpus_fraction)], sort_keys=True, default=str)


def expand_sweeps(config: dict, training_schema: dict | None = None) -> dict[str, list[Point]]:
    """The points of every sweep in ``config["sweeps"]``, in grid order per method, the
    methods in the sweep's order. Errors name the sweep key and the fix: an unknown or
    untrained embedding, a key its method does not read, a corpus fraction outside
    (0, 1], a point whose training block the schema rejects (``training_schema``: the
    config schema's ``training`` node, with its ``$defs``), a name taken by an embedding.
    Points that train exactly as an earlier embedding (a user's, or another point) get
    it as their ``source``, so that training is not repeated."""
    embeddings = config["embeddings"]
    owners: dict[str, str] = {}
    for name, spec in embeddings.items():
        if registry.method(spec["method"]).trainer:
            owners.setdefault(training_key(embedding_params(config, name), 1.0), name)
    out: dict[str, list[Point]] = {}
    seen: dict[str, Point] = {}
    for sweep, body in (config.get("sweeps") or {}).items():
        where = f"sweeps.{sweep}"
        if not SWEEP_NAME.match(str(sweep)):
            raise SweepError(f"{where}: a sweep name is a folder name; use letters, digits, _ or -")
        bases = body.get("embeddings") or []
        if not bases:
            raise SweepError(f"{where}.embeddings: name the embeddings to vary")
        grid = dict(body.get("grid") or {})
        axes = [(k, _check_values(v, f"{where}.grid.{k}")) for k, v in grid.items()]
        fractions = body.get(CORPUS_AXIS)
        if fractions is not None:
            _check_values(fractions, f"{where}.{CORPUS_AXIS}")
            bad = [f for f in fractions if not isinstance(f, (int, float)) or not 0 < f <= 1]
            if bad:
                raise SweepError(
                    f"{where}.{CORPUS_AXIS}: {bad} is not a share of the corpus; give values "
                    "in (0, 1], e.g. [0.1, 0.25, 0.5, 1.0]"
                )
            axes.append((CORPUS_AXIS, [float(f) for f in fractions]))
        if not axes:
            raise SweepError(f"{where}: give a grid (training keys) or a {CORPUS_AXIS} list")
        points = []
        for base in bases:
            if base not in embeddings:
                raise SweepError(
                    f"{where}.embeddings: {base!r} is not defined under embeddings "
                    f"(defined: {sorted(embeddings)})"
                )
            method = embeddings[base]["method"]
            if not registry.method(method).trainer:
                raise SweepError(
                    f"{where}.embeddings: {base!r} is {method}, not trained here; a sweep "
                    "varies how an embedding is trained"
                )
            places = {
                k: _placement(config, method, k, f"{where}.grid.{k}")
                for k, _ in axes
                if k != CORPUS_AXIS
            }
            for combo in itertools.product(*(values for _, values in axes)):
                values = dict(zip((k for k, _ in axes), combo, strict=True))
                params = copy.deepcopy(embeddings[base].get("params") or {})
                for key, value in values.items():
                    if key == CORPUS_AXIS:
                        continue
                    place = places[key]
                    target = params.setdefault(place[0], {}) if len(place) == 2 else params
                    target[place[-1]] = value
                spec = {"method": method, "params": params}
                if values.get(CORPUS_AXIS, 1.0) < 1.0:
                    spec[CORPUS_AXIS] = values[CORPUS_AXIS]
                name = base + "".join(
                    f"_{NAME_KEYS.get(k, k)}~{format_value(v)}" for k, v in values.items()
                )
                if not NAME.match(name) or len(name) > 200:
                    raise SweepError(
                        f"{where}: the point name {name!r} is not a folder name; use plain "
                        "numbers or words as values"
                    )
                if name in embeddings:
                    raise SweepError(
                        f"{where}: the point {name!r} is also an embedding's name; rename it"
                    )
                if training_schema is not None:
                    validate_training(config, params, training_schema, f"{where} ({name})")
                hp = embedding_params(config, name, spec)
                key = training_key(hp, values.get(CORPUS_AXIS, 1.0))
                source = owners.setdefault(key, name)
                point = Point(name, sweep, base, values, spec, source)
                if name in seen and seen[name].spec != spec:
                    raise SweepError(
                        f"{where}: point {name!r} means two trainings; rename a sweep key"
                    )
                seen[name] = point
                points.append(point)
        out[sweep] = points
    return out


def validate_training(config: dict, params: dict, schema: dict, where: str) -> None:
    import jsonschema

    block = copy.deepcopy(config["training"])
    for key, value in params.items():
        if isinstance(value, dict):
            block.setdefault(key, {}).update(value)
        else:
            block[key] = value
    node = {**schema["properties"]["training"], "$defs": schema.get("$defs", {})}
    try:
        jsonschema.validate(block, node)
    except jsonschema.ValidationError as exc:
        path = ".".join(["training", *map(str, exc.absolute_path)])
        raise SweepError(f"{where}: {path}: {exc.message}") from None


def trained_points(sweeps: dict[str, list[Point]]) -> dict[str, Point]:
    """The points that train themselves (their own ``source``), by name."""
    return {p.name: p for points in sweeps.values() for p in points if p.source == p.name}


def vocabulary_sources(points: list[Point]) -> list[str]:
    """The embeddings whose vocabularies make a sweep's shared vocabulary: one per
    (method, min_count, corpus share), the largest share first, so that its order and
    counts come from the most text. Settings that leave the vocabulary alone (dim,
    window, epochs...) add none, so adding such a grid point rescores nothing else."""

    def group(p: Point) -> tuple:
        params = p.spec.get("params", {})
        # each draw of a corpus comparison (spec "draw") is a corpus of its own
        draw = json.dumps(p.spec.get("draw"), sort_keys=True)
        return (p.method, json.dumps(params.get("min_count")), p.corpus_fraction, draw)

    firsts: dict[tuple, Point] = {}
    for p in points:
        # an already-trained embedding first: the default's (dim 300, window 5) makes the
        # sweep's vocabulary, word order included, that of the default's comparison
        known = firsts.get(group(p))
        if known is None or (known.source == known.name and p.source != p.name):
            firsts[group(p)] = p
    order = sorted(firsts.values(), key=lambda p: -p.corpus_fraction)  # stable: methods keep order
    return list(dict.fromkeys(p.source for p in order))


def prefix_percent(fraction: float) -> str:
    """The folder of a corpus prefix: ``prefix-25`` for the first 25 % of the tokens."""
    return f"prefix-{format_value(round(fraction * 100, 6))}"


SEED_KEY = "seed"


def is_seed_sweep(body: dict) -> bool:
    """A sweep that varies the training seed alone (config/seeds.yaml): its methods are
    compared seed by seed, over the mean of the seeds, and by how much a list's AUC moves
    from seed to seed (:func:`seed_comparison`)."""
    return set(body.get("grid") or {}) == {SEED_KEY} and body.get(CORPUS_AXIS) is None

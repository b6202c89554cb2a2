"""Hyperparameter and corpus-size sweeps: a grid of trainer settings per method, each
point an embedding named by its parameters, trained once and scored on the sweep's
shared vocabulary.

``sweeps:`` in the config (docs: config/README.md) declares, per sweep, the embeddings
to vary (``embeddings``), a grid over training keys (``grid``) and/or the share of the
corpus' tokens to train on (``corpus_fraction``). :func:`expand_sweeps` turns that into
:class:`Point` s at config-load time; the workflow trains each point with the ordinary
``train_embedding`` rule (a point whose training equals another embedding's reuses its
files), and scores all lists of a point in one job (:func:`score_point`). No null
distributions are drawn for sweep points: a sweep compares settings, paired over lists
(:func:`sweep_wilcoxon`), and shows how the mean AUC moves with each parameter
(:func:`sweep_effects`, with bootstrap bands over the iterations).
"""

from __future__ import annotations

import copy
import itertools
import json
import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from learnability.errors import InputError, LearnabilityError

CORPUS_AXIS = "corpus_fraction"
NAME_KEYS = {CORPUS_AXIS: "corpus"}  # word2vec_corpus~0.25
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.~-]*$")
SWEEP_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
# the swept parameters' columns in the sweep tables: param_<key> (schemas.VARIABLE)
PARAM_PREFIX = "param_"


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


def format_value(value) -> str:
    """A swept value as it appears in names and settings: 50, 0.25, 1, corpus, true."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _placement(config: dict, method: str, key: str, where: str) -> tuple[str, ...]:
    """Where ``method``'s trainer reads the swept ``key``: a ``training:`` key it reads,
    else a key of its own block (``fasttext.minn`` or just ``minn``)."""
    from learnability.embeddings import registry

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
    from learnability.embeddings import registry
    from learnability.pipeline.config import embedding_params

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
                    _validate_training(config, params, training_schema, f"{where} ({name})")
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


def _validate_training(config: dict, params: dict, schema: dict, where: str) -> None:
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
        return (p.method, json.dumps(params.get("min_count")), p.corpus_fraction)

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


# --- scoring -----------------------------------------------------------------------------


def restricted_vectors(
    vectors_path: str, vocab_path: str, words: pd.Series, point: str
) -> np.ndarray:
    """The trained vectors of the sweep vocabulary's words, in its order (in memory: a
    sweep's vocabularies are those of one corpus). A word the point does not know is an
    error: points that share a vocabulary group must share their vocabularies."""
    vocab = pd.read_parquet(vocab_path, columns=["word"])["word"]
    position = pd.Series(np.arange(len(vocab)), index=pd.Index(vocab))
    missing = ~words.isin(position.index)
    if missing.any():
        raise InputError(
            f"{vocab_path}: sweep point {point} lacks {int(missing.sum())} of the sweep's "
            f"words (e.g. {words[missing].iloc[0]!r}); its vocabulary differs from the "
            "sweep's, so rerun the sweep's vocabulary rule (delete results/sweeps/)"
        )
    vectors = np.load(vectors_path, mmap_mode="r")
    rows = position.loc[words].to_numpy(dtype=np.int64)
    return np.ascontiguousarray(vectors[rows], dtype=np.float32)


def score_point(
    vectors: np.ndarray,
    words: pd.Series,
    concepts: pd.DataFrame,
    protocols: dict,
    *,
    point: Point,
    lists: list[str],
    bins: np.ndarray | None,
    min_words: int,
    bootstrap: int,
    level: float,
    seed: int,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every list of one point, under each negatives scheme (``protocols``: scheme ->
    Protocol): the ``sweep_scores`` rows (a ``summary`` per list, with the point's
    columns) and its ``sweep_iterations`` (the AUC of each split). Splits are seeded by
    the list, so all points of a sweep see the same splits and non-members. A list with
    fewer than ``min_words`` members in the sweep vocabulary is kept as a row with 0
    iterations and no means, not dropped."""
    from learnability.concepts.lists import member_indices
    from learnability.protocol.evaluate import evaluate_concept_full, summarize
    from learnability.protocol.metrics import METRICS

    summaries, iterations = [], []
    for scheme, protocol in protocols.items():
        for name in lists:
            members = member_indices(concepts[concepts["list"] == name], words)
            if np.unique(members).size < max(min_words, 2):
                summaries.append(
                    pd.DataFrame(
                        {"list": name, "negatives": scheme, "size": np.unique(members).size,
                         "iterations": 0, "metric": list(METRICS), "mean": np.nan,
                         "std": np.nan, "ci_low": np.nan, "ci_high": np.nan}
                    )
                )  # fmt: skip
                continue
            result = evaluate_concept_full(
                vectors, members, protocol, bins=bins, list_name=name,
                embedding=point.name, min_words=min_words,
            )  # fmt: skip
            it = result.iterations
            iterations.append(it[["list", "negatives", "iteration", "auc"]])
            summaries.append(summarize(it, bootstrap=bootstrap, level=level, seed=seed))
    summary = pd.concat(summaries, ignore_index=True).drop(
        columns=["embedding", "null_key"], errors="ignore"
    )
    ident = {"sweep": point.sweep, "embedding": point.name, "method": point.method,
             "setting": point.setting}  # fmt: skip
    summary = summary.assign(**ident, **point.param_columns())
    its = (
        pd.concat(iterations, ignore_index=True)
        if iterations
        else pd.DataFrame(columns=["list", "negatives", "iteration", "auc"])
    )
    its = its.assign(sweep=point.sweep, embedding=point.name)
    return summary, its


# --- the sweep's summaries -----------------------------------------------------------------


def param_columns(df: pd.DataFrame) -> list[str]:
    return [c for c in df.columns if c.startswith(PARAM_PREFIX)]


def bootstrap_replicates(
    iterations: pd.DataFrame, resamples: int, seed: int
) -> dict[tuple[str, str], np.ndarray]:
    """(embedding, negatives) -> ``resamples`` bootstrap replicates of the point's mean AUC
    over lists: each list's iterations resampled on their own (the Monte Carlo error of
    each list's mean, as ``learnability.bootstrap`` measures it), then averaged over the
    lists."""
    from learnability.protocol.sampling import derive_seed

    out = {}
    for (embedding, scheme), g in iterations.groupby(["embedding", "negatives"], sort=False):
        per_list = []
        for name, rows in g.groupby("list", sort=True):
            auc = rows["auc"].to_numpy(dtype=float)
            rng = np.random.default_rng(derive_seed(seed, "sweep", embedding, name, scheme))
            per_list.append(auc[rng.integers(0, auc.size, size=(resamples, auc.size))].mean(axis=1))
        out[(embedding, scheme)] = np.mean(per_list, axis=0)
    return out


def _band(replicates: np.ndarray, level: float) -> tuple[float, float]:
    alpha = (1 - level) / 2
    low, high = np.quantile(replicates, [alpha, 1 - alpha])
    return float(low), float(high)


def sweep_points(
    scores: pd.DataFrame,
    iterations: pd.DataFrame,
    *,
    resamples: int,
    level: float,
    seed: int,
    replicates: dict | None = None,
) -> pd.DataFrame:
    """One row per (point, negatives): the mean AUC over the lists that have members
    enough, and its bootstrap band (schema ``sweep_points``). ``replicates``: those of
    :func:`bootstrap_replicates` with the same resamples and seed, if already drawn."""
    reps = replicates or bootstrap_replicates(iterations, resamples, seed)
    auc = scores[(scores["metric"] == "auc") & (scores["iterations"] > 0)]
    keys = ["sweep", "embedding", "method", "setting", "negatives", *param_columns(scores)]
    rows = []
    for key, g in auc.groupby(keys, sort=False, dropna=False):
        row = dict(zip(keys, key, strict=True))
        low, high = _band(reps[(row["embedding"], row["negatives"])], level)
        rows.append(
            {**row, "n_lists": len(g), "auc": g["mean"].mean(), "ci_low": low, "ci_high": high}
        )
    return pd.DataFrame(rows)


def sweep_effects(
    points: pd.DataFrame,
    iterations: pd.DataFrame,
    *,
    resamples: int,
    level: float,
    seed: int,
    replicates: dict | None = None,
) -> pd.DataFrame:
    """The main effect of each swept parameter per method (schema ``sweep_effects``): at
    each of its values, the mean AUC over the points with that value (so averaged over
    the other parameters' grid values) and its bootstrap band, from the same replicates
    as :func:`sweep_points`."""
    reps = replicates or bootstrap_replicates(iterations, resamples, seed)
    rows = []
    for column in param_columns(points):
        parameter = column[len(PARAM_PREFIX) :]
        for (method, scheme), g in points.groupby(["method", "negatives"], sort=False):
            for value, h in g.groupby(column, sort=True):
                rep = np.mean([reps[(e, scheme)] for e in h["embedding"]], axis=0)
                low, high = _band(rep, level)
                rows.append(
                    {"sweep": h["sweep"].iloc[0], "method": method, "negatives": scheme,
                     "parameter": parameter, "value": format_value(value),
                     "x": float(value) if _numeric(value) else np.nan,
                     "n_points": len(h), "n_lists": int(h["n_lists"].min()),
                     "auc": h["auc"].mean(), "ci_low": low, "ci_high": high}
                )  # fmt: skip
    return pd.DataFrame(rows)


def _numeric(value) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


def per_method_overlap(overlap: pd.DataFrame | None, methods: list[str]) -> pd.DataFrame | None:
    """The sweep's list overlap (one vocabulary, which every method shares) as the
    comparison reads it: a copy per method."""
    if overlap is None or overlap.empty:
        return None
    return pd.concat([overlap.assign(embedding=m) for m in methods], ignore_index=True)


def sweep_wilcoxon(
    scores: pd.DataFrame,
    methods: list[str],
    alternative: str,
    overlap: pd.DataFrame | None = None,
    units: list[str] | None = None,
) -> pd.DataFrame:
    """At each setting, the methods compared by the paired Wilcoxon test over lists, each
    pair once in the sweep's order (as ``compare.embeddings`` states a hypothesis):
    schema ``sweep_wilcoxon``. ``p_holm`` adjusts over the pairs at one setting (as the
    main comparison does), ``p_holm_sweep`` over every test of the sweep, scheme and
    units. ``overlap`` (schema ``overlap``, the lists on the sweep's vocabulary, which
    every method shares) counts nested pairs and adds the tests over disjoint ``units``
    (:func:`learnability.statistics.comparison.compare_embeddings`)."""
    from learnability.statistics.adjust import adjust_pvalues
    from learnability.statistics.comparison import compare_embeddings

    if len(methods) < 2:
        return pd.DataFrame()
    auc = scores[(scores["metric"] == "auc") & (scores["iterations"] > 0)]
    frames = []
    for setting, g in auc.groupby("setting", sort=False):
        summary = g.assign(embedding=g["method"])[
            ["list", "embedding", "negatives", "metric", "mean"]
        ]
        ov = per_method_overlap(overlap, methods)
        out = compare_embeddings(summary, methods, alternative, "shared", ov,
                                 units or ["lists"])  # fmt: skip
        out.insert(0, "setting", setting)
        out.insert(0, "sweep", g["sweep"].iloc[0])
        frames.append(out)
    out = pd.concat(frames, ignore_index=True)
    out["n_nested_pairs"] = out["n_nested_pairs"].fillna(0)
    out["p_holm_sweep"] = np.nan
    for _, idx in out.groupby(["negatives", "units"]).groups.items():
        out.loc[idx, "p_holm_sweep"] = adjust_pvalues(out.loc[idx, "p_value"].to_numpy(), "holm")
    return out


def points_table(points: pd.DataFrame, negatives: str) -> pd.DataFrame:
    """For people: one row per setting, a column per method: mean AUC [band]."""
    part = points[points["negatives"] == negatives]
    cells = part.assign(
        cell=[
            f"{a:.3f} [{lo:.3f}, {hi:.3f}]"
            for a, lo, hi in zip(part["auc"], part["ci_low"], part["ci_high"], strict=True)
        ]
    )
    table = cells.pivot(index="setting", columns="method", values="cell")
    table = table.reindex(
        index=list(dict.fromkeys(part["setting"])), columns=list(dict.fromkeys(part["method"]))
    )
    return table.reset_index()


SEED_KEY = "seed"


def is_seed_sweep(body: dict) -> bool:
    """A sweep that varies the training seed alone (config/seeds.yaml): its methods are
    compared seed by seed, over the mean of the seeds, and by how much a list's AUC moves
    from seed to seed (:func:`seed_comparison`)."""
    return set(body.get("grid") or {}) == {SEED_KEY} and body.get(CORPUS_AXIS) is None


def seed_comparison(
    scores: pd.DataFrame,
    methods: list[str],
    alternative: str,
    overlap: pd.DataFrame | None = None,
    units: list[str] | None = None,
    alpha: float = 0.05,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Does a verdict between trainers survive a new training seed? (schemas
    ``sweep_seed_tests`` and ``sweep_seed_spread``).

    Tests: each pair of ``methods`` (the sweep's order) by the Wilcoxon test at every
    seed (``seed`` is the setting) and over each list's mean AUC across the seeds
    (``seed`` "mean"), under each of ``units``; ``every_seed`` says whether p < ``alpha``
    at every seed. Spread: per method, list and scheme, the SD of the list's mean AUC
    across seeds beside its split SD and the split-noise SE of its mean (split SD /
    sqrt(iterations), averaged over seeds): a seed SD far above the split SE means the
    training seed, not the splits, decides the list's AUC."""
    from learnability.statistics.comparison import compare_embeddings

    auc = scores[(scores["metric"] == "auc") & (scores["iterations"] > 0)]
    per_seed = sweep_wilcoxon(scores, methods, alternative, overlap, units)
    if per_seed.empty:
        return pd.DataFrame(), pd.DataFrame()
    per_seed = per_seed.rename(columns={"setting": "seed"}).drop(columns=["sweep", "p_holm_sweep"])
    mean = (
        auc.groupby(["method", "list", "negatives"], sort=False)["mean"].mean().reset_index()
        .rename(columns={"method": "embedding"}).assign(metric="auc")
    )  # fmt: skip
    ov = per_method_overlap(overlap, methods)
    over_mean = compare_embeddings(mean, methods, alternative, "shared", ov, units or ["lists"])
    tests = pd.concat([per_seed, over_mean.assign(seed="mean")], ignore_index=True)
    keys = ["negatives", "units", "embedding_a", "embedding_b"]
    seeds = tests[tests["seed"] != "mean"]
    every = (seeds.groupby(keys)["p_value"].max() < alpha).rename("every_seed").reset_index()
    tests = tests.merge(every, on=keys, how="left")
    first = ["seed", *keys]
    tests = tests[first + [c for c in tests.columns if c not in first]]
    g = auc.groupby(["negatives", "method", "list"], sort=False)
    spread = g.agg(
        seeds=("mean", "size"),
        auc=("mean", "mean"),
        seed_sd=("mean", lambda v: float(np.std(v, ddof=1)) if len(v) > 1 else np.nan),
        split_sd=("std", "mean"),
        iterations=("iterations", "mean"),
    ).reset_index()
    spread["split_se"] = spread["split_sd"] / np.sqrt(spread["iterations"])
    spread["seed_to_split"] = spread["seed_sd"] / spread["split_se"]
    return tests, spread.drop(columns="iterations")

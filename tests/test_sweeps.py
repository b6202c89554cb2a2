"""Sweeps (learnability.pipeline.sweeps): the grid's expansion into embeddings, the corpus prefix,
a point's scores against the learnability job's own functions, the bootstrap bands, the
Wilcoxon tests against scipy, and the figure."""

from __future__ import annotations

import copy
import gzip
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from paths import REPO
from scipy import stats as scipy_stats

from learnability import schemas
from learnability.corpus.extract import corpus_prefix
from learnability.corpus.lines import iter_lines
from learnability.pipeline.config import fill_defaults, load_schema
from learnability.pipeline.params import embedding_params
from learnability.pipeline.sweep_scoring import score_point
from learnability.pipeline.sweeps import (
    Point,
    SweepError,
    expand_sweeps,
    trained_points,
    vocabulary_sources,
)
from learnability.protocol.evaluate import Protocol, evaluate_concept_full, summarize
from learnability.statistics.sweeps import sweep_effects, sweep_points, sweep_wilcoxon

SCHEMA = load_schema(REPO / "workflow" / "schemas" / "config.schema.yaml")


def config_with(sweeps: dict) -> dict:
    cfg = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    cfg["sweeps"] = copy.deepcopy(sweeps)
    return fill_defaults(cfg, SCHEMA)


def test_the_grid_expands_into_named_points_and_reuses_identical_trainings():
    cfg = config_with(
        {
            "dw": {
                "embeddings": ["fasttext", "word2vec"],
                "grid": {"dim": [50, 300], "window": [2, 5]},
            },
            "size": {"embeddings": ["glove"], "corpus_fraction": [0.25, 1.0]},
        }
    )
    sweeps = expand_sweeps(cfg, SCHEMA)
    names = [p.name for p in sweeps["dw"]]
    assert names == [
        "fasttext_dim~50_window~2", "fasttext_dim~50_window~5", "fasttext_dim~300_window~2",
        "fasttext_dim~300_window~5", "word2vec_dim~50_window~2", "word2vec_dim~50_window~5",
        "word2vec_dim~300_window~2", "word2vec_dim~300_window~5",
    ]  # fmt: skip
    point = sweeps["dw"][0]
    assert point.setting == "dim=50, window=2" and point.method == "fasttext"
    hp = embedding_params(cfg, point.name, point.spec)
    assert (hp["dim"], hp["window"], hp["epochs"]) == (50, 2, 5)  # the rest: training:
    # the default's own settings (dim 300, window 5, whole corpus) are the default's
    # embedding: not trained again
    by_name = {p.name: p for points in sweeps.values() for p in points}
    assert by_name["fasttext_dim~300_window~5"].source == "fasttext"
    assert by_name["glove_corpus~1"].source == "glove"
    assert by_name["glove_corpus~0.25"].spec["corpus_fraction"] == 0.25
    assert set(trained_points(sweeps)) == {n for n, p in by_name.items() if p.source == n}
    assert len(trained_points(sweeps)) == 6 + 1


def test_a_method_block_key_is_swept_in_that_block():
    cfg = config_with(
        {"ft": {"embeddings": ["fasttext"], "grid": {"minn": [2, 3]}},
         "gl": {"embeddings": ["glove"], "grid": {"epochs": [5], "glove.x_max": [10]}},
         "w2v": {"embeddings": ["word2vec"], "grid": {"epochs": [2]}}}
    )  # fmt: skip
    sweeps = expand_sweeps(cfg, SCHEMA)
    ft = embedding_params(cfg, sweeps["ft"][0].name, sweeps["ft"][0].spec)
    assert ft["minn"] == 2 and ft["maxn"] == 6
    gl = sweeps["gl"][0]
    assert gl.spec["params"] == {"glove": {"epochs": 5, "x_max": 10}}  # GloVe reads glove.epochs
    assert embedding_params(cfg, gl.name, gl.spec)["epochs"] == 5
    assert sweeps["w2v"][0].spec["params"] == {"epochs": 2}


def test_a_contextual_models_layer_is_a_grid_key_and_its_points_share_a_vocabulary():
    cfg = config_with({"layers": {"embeddings": ["minilm"], "grid": {"layer": [0, 3, "last"]}}})
    cfg["embeddings"]["minilm"] = {
        "method": "transformer",
        "params": {"transformer": {"pooling": "corpus"}},
    }
    points = expand_sweeps(cfg, SCHEMA)["layers"]
    assert [p.name for p in points] == ["minilm_layer~0", "minilm_layer~3", "minilm_layer~last"]
    hp = [embedding_params(cfg, p.name, p.spec) for p in points]
    assert [h["layer"] for h in hp] == [0, 3, "last"] and {h["pooling"] for h in hp} == {"corpus"}
    assert points[-1].source == "minilm"  # layer: last is the configured embedding
    assert vocabulary_sources(points) == ["minilm"]


@pytest.mark.parametrize(
    ("sweep", "message"),
    [
        (
            {"embeddings": ["word2vec"], "grid": {"x_max": [10]}},
            "method word2vec does not read 'x_max'",
        ),
        ({"embeddings": ["random"], "grid": {"dim": [10]}}, "'random' is random, not trained here"),
        ({"embeddings": ["elmo"], "grid": {"dim": [10]}}, "'elmo' is not defined under embeddings"),
        ({"embeddings": ["word2vec"], "corpus_fraction": [0.5, 0]}, r"\[0\] is not a share"),
        ({"embeddings": ["word2vec"], "grid": {"dim": [50, 50]}}, "50 is given twice"),
        ({"embeddings": ["word2vec"]}, "give a grid"),
        (
            {"embeddings": ["word2vec"], "grid": {"dim": [0]}},
            r"sweeps.s \(word2vec_dim~0\): training.dim",
        ),
    ],
)
def test_a_bad_sweep_is_one_line_naming_its_key(sweep, message):
    with pytest.raises(SweepError, match=message) as err:
        expand_sweeps(config_with({"s": sweep}), SCHEMA)
    assert "\n" not in str(err.value) and str(err.value).startswith("sweeps.s")


def test_the_vocabulary_comes_from_one_point_per_vocabulary_group():
    """dim and window leave the vocabulary alone: a grid over them adds no vocabulary, and
    the default's embeddings make it (their order: the default comparison's); min_count
    and the corpus share each add a group, the largest share first."""
    cfg = config_with(
        {
            "dw": {
                "embeddings": ["fasttext", "glove"],
                "grid": {"dim": [50, 300], "window": [2, 5]},
            },
            "mc": {
                "embeddings": ["word2vec"],
                "grid": {"min_count": [5, 10]},
                "corpus_fraction": [0.5, 1],
            },
        }
    )
    sweeps = expand_sweeps(cfg, SCHEMA)
    assert vocabulary_sources(sweeps["dw"]) == ["fasttext", "glove"]
    assert vocabulary_sources(sweeps["mc"]) == [
        "word2vec", "word2vec_min_count~10_corpus~1",
        "word2vec_min_count~5_corpus~0.5", "word2vec_min_count~10_corpus~0.5",
    ]  # fmt: skip


def test_trainers_vocabularies_do_not_depend_on_dim_or_window(tmp_path):
    """What vocabulary_sources relies on, checked on real text (gensim's Lee corpus): the
    three trainers keep the same words at every dim and window."""
    import gensim

    from learnability.embeddings import train

    src = Path(gensim.__file__).parent / "test" / "test_data" / "lee_background.cor"
    corpus = tmp_path / "lee.txt.gz"
    with gzip.open(corpus, "wt") as fh:
        for line in src.read_text(encoding="utf-8").splitlines():
            fh.write(" ".join(line.lower().split()) + "\n")
    base = yaml.safe_load((REPO / "config" / "config.yaml").read_text())["training"]
    seen = {}
    for method in ("word2vec", "fasttext", "glove"):
        for dim, window in ((8, 2), (16, 5)):
            params = {**base, **base["fasttext"], **base["glove"], "dim": dim, "window": window,
                      "epochs": 1, "bucket": 2000}  # fmt: skip
            emb = train(method, str(corpus), params, 1)
            seen.setdefault(method, set(emb.words))
            assert set(emb.words) == seen[method], (method, dim, window)
    assert seen["word2vec"] == seen["fasttext"] == seen["glove"] and len(seen["word2vec"]) > 1000


def test_a_corpus_prefix_holds_exactly_the_first_share_of_the_tokens(tmp_path):
    corpus = tmp_path / "text.txt.gz"
    lines = [" ".join(f"t{i}_{j}" for j in range(n)) for i, n in enumerate([5, 7, 3, 9, 6])]
    with gzip.open(corpus, "wt") as fh:
        fh.write("\n".join(lines) + "\n")
    tokens = [t for line in lines for t in line.split()]  # 30
    stats = corpus_prefix(corpus, tmp_path / "p.txt.gz", tmp_path / "p.json", 0.5)
    kept = [t for line in iter_lines(tmp_path / "p.txt.gz") for t in line]
    assert kept == tokens[:15] and stats["tokens"] == 15 and stats["corpus_tokens"] == 30
    assert stats["lines"] == 3  # 5 + 7, then 3 of the third line's 3
    corpus_prefix(corpus, tmp_path / "q.txt.gz", tmp_path / "q.json", 0.4)
    assert [t for line in iter_lines(tmp_path / "q.txt.gz") for t in line] == tokens[:12]
    corpus_prefix(corpus, tmp_path / "all.txt.gz", tmp_path / "all.json", 1.0)
    assert [t for line in iter_lines(tmp_path / "all.txt.gz") for t in line] == tokens


def _point(name: str, method: str, **values) -> Point:
    return Point(name, "s", method, values, {"method": method, "params": {}}, name)


def test_a_points_scores_are_the_learnability_jobs_own(planted):
    """score_point runs the same protocol as the per-list learnability job: its summary is
    evaluate_concept_full + summarize, number for number; a list below min_words is a row
    with no iterations, not dropped."""
    vectors, members = planted
    words = pd.Series([f"w{i}" for i in range(len(vectors))])
    concepts = pd.DataFrame({"list": ["planted"] * 200 + ["tiny"] * 2,
                             "word": [*words[members], "w500", "w501"]})  # fmt: skip
    concepts = concepts.assign(
        status="in_vocab", entry=concepts["word"], embedding="s", match="exact", variants="",
        count=1, kind="word", source="x",
    )  # fmt: skip
    protocols = {"uniform": Protocol(iterations=6, C=1.0, seed=3, negatives="uniform")}
    point = _point("e_dim~50", "e", dim=50)
    summary, iterations = score_point(
        vectors.astype(np.float32), words, concepts, protocols, point=point,
        lists=["planted", "tiny"], bins=None, bootstrap=200, level=0.95, seed=3,
    )  # fmt: skip
    direct = summarize(
        evaluate_concept_full(vectors.astype(np.float32), members, protocols["uniform"],
                              list_name="planted", embedding="e_dim~50").iterations,
        bootstrap=200, level=0.95, seed=3,
    )  # fmt: skip
    got = summary[summary["list"] == "planted"].reset_index(drop=True)
    np.testing.assert_array_equal(got["mean"], direct["mean"])
    np.testing.assert_array_equal(got["ci_low"], direct["ci_low"])
    assert got.loc[got["metric"] == "auc", "mean"].item() > 0.9
    # ... and an independent reference: scikit-learn's fits and AUCs on the protocol's
    # splits (each from the seed the protocol derives for the list and the iteration)
    from references import assert_aucs_match_the_reference, sklearn_aucs

    from learnability.protocol.sampling import derive_seed

    seeds = [derive_seed(3, "concept", "planted", i) for i in range(6)]
    reference = sklearn_aucs(vectors.astype(np.float32), members, seeds, C=1.0)
    planted_its = iterations[iterations["list"] == "planted"].sort_values("iteration")
    assert_aucs_match_the_reference(planted_its["auc"], reference, 100, 100)
    tiny = summary[summary["list"] == "tiny"]
    assert (
        (tiny["iterations"] == 0).all() and tiny["mean"].isna().all() and (tiny["size"] == 2).all()
    )
    # the rule score() and the workflow's jobs follow, word for word: a row that says why
    assert set(tiny["not_scored"]) == {
        "only 2 words in the embedding's vocabulary; at least 4 are needed so that both "
        "halves hold two members"
    }
    assert (summary.loc[summary["list"] == "planted", "not_scored"] == "").all()
    assert (summary["param_dim"] == 50).all() and (summary["setting"] == "dim=50").all()
    assert len(iterations) == 6
    out = schemas.conform(summary, "sweep_scores")
    assert list(out.columns) == [*schemas.columns("sweep_scores"), "param_dim"]


def _iterations(aucs: dict[tuple[str, str], np.ndarray]) -> pd.DataFrame:
    return pd.concat(
        [pd.DataFrame({"sweep": "s", "embedding": e, "list": lst, "negatives": "uniform",
                       "iteration": np.arange(a.size), "auc": a})
         for (e, lst), a in aucs.items()],
        ignore_index=True,
    )  # fmt: skip


def _scores(iterations: pd.DataFrame, points: dict[str, Point]) -> pd.DataFrame:
    rows = []
    for (e, lst), g in iterations.groupby(["embedding", "list"]):
        p = points[e]
        rows.append({"sweep": "s", "embedding": e, "method": p.method, "setting": p.setting,
                     "list": lst, "negatives": "uniform", "size": 10, "iterations": len(g),
                     "metric": "auc", "mean": g["auc"].mean(), "std": 0.0, "ci_low": 0.0,
                     "ci_high": 0.0, **p.param_columns()})  # fmt: skip
    return pd.DataFrame(rows)


def test_the_bands_are_a_bootstrap_of_the_mean_over_lists_and_points(seed):
    """A hand-checked case: the point's AUC is the mean of its lists' means, the main
    effect the mean of its points'; with iid AUCs of sd 0.05 over 400 iterations and 2
    lists, the 95 % band's width is near 2 x 1.96 x 0.05 / sqrt(400 x 2); constant AUCs
    give a band of width 0."""
    rng = np.random.default_rng(seed + 0)
    pts = {"a_dim~1": _point("a_dim~1", "a", dim=1), "a_dim~2": _point("a_dim~2", "a", dim=2),
           "c_dim~1": _point("c_dim~1", "c", dim=1)}  # fmt: skip
    aucs = {("a_dim~1", "x"): 0.6 + 0.05 * rng.standard_normal(400),
            ("a_dim~1", "y"): 0.8 + 0.05 * rng.standard_normal(400),
            ("a_dim~2", "x"): np.full(400, 0.7), ("a_dim~2", "y"): np.full(400, 0.9),
            ("c_dim~1", "x"): np.full(400, 0.5), ("c_dim~1", "y"): np.full(400, 0.5)}  # fmt: skip
    its = _iterations(aucs)
    scores = _scores(its, pts)
    points = sweep_points(scores, its, resamples=2000, level=0.95, seed=1).set_index("embedding")
    expected = (aucs[("a_dim~1", "x")].mean() + aucs[("a_dim~1", "y")].mean()) / 2
    assert points.loc["a_dim~1", "auc"] == pytest.approx(expected, abs=1e-12)
    width = points.loc["a_dim~1", "ci_high"] - points.loc["a_dim~1", "ci_low"]
    assert width == pytest.approx(2 * 1.96 * 0.05 / np.sqrt(800), rel=0.15)
    assert points.loc["a_dim~2", "ci_low"] == points.loc["a_dim~2", "ci_high"] == pytest.approx(0.8)
    effects = sweep_effects(points.reset_index(), its, resamples=2000, level=0.95, seed=1)
    a = effects[effects["method"] == "a"].set_index("value")
    assert list(a.index) == ["1", "2"] and list(a["x"]) == [1.0, 2.0]
    assert a.loc["2", "auc"] == pytest.approx(0.8) and a.loc["1", "auc"] == pytest.approx(expected)
    assert effects[effects["method"] == "c"]["auc"].item() == pytest.approx(0.5)


def test_the_wilcoxon_tests_pair_the_methods_at_each_setting_as_scipy_does():
    rng = np.random.default_rng(4)
    pts = {f"{m}_dim~{d}": _point(f"{m}_dim~{d}", m, dim=d) for m in ("a", "b") for d in (1, 2)}
    lists = [f"l{i}" for i in range(9)]
    aucs = {}
    for d in (1, 2):
        base = rng.uniform(0.6, 0.9, len(lists))
        for m, shift in (("a", 0.02 * d), ("b", 0.0)):
            for lst, v in zip(lists, base + shift + rng.normal(0, 0.01, len(lists)), strict=True):
                aucs[(f"{m}_dim~{d}", lst)] = np.array([v, v])
    scores = _scores(_iterations(aucs), pts)
    out = sweep_wilcoxon(scores, ["a", "b"], "greater")
    assert list(out["setting"]) == ["dim=1", "dim=2"]
    for d, row in zip((1, 2), out.itertuples(), strict=True):
        a = [aucs[(f"a_dim~{d}", lst)][0] for lst in lists]
        b = [aucs[(f"b_dim~{d}", lst)][0] for lst in lists]
        ref = scipy_stats.wilcoxon(a, b, alternative="greater")
        assert row.p_value == pytest.approx(ref.pvalue, rel=1e-9)
        assert row.statistic == pytest.approx(ref.statistic)
    p = out["p_value"].to_numpy()
    holm = np.minimum(1, np.maximum.accumulate(np.sort(p) * np.array([2, 1])))
    np.testing.assert_allclose(np.sort(out["p_holm_sweep"].to_numpy()), holm)
    schemas.conform(out, "sweep_wilcoxon")


def test_the_sweep_figure_has_a_panel_per_parameter_and_scheme(tmp_path):
    from learnability.reports.plots import save, sweep_figure

    rows = []
    for scheme in ("uniform", "frequency_matched"):
        for method in ("fasttext", "word2vec"):
            for parameter, values in (("dim", [50, 100, 300]), ("pooling", ["corpus", "isolated"])):
                for v in values:
                    x = float(v) if not isinstance(v, str) else np.nan
                    rows.append({"sweep": "s", "method": method, "negatives": scheme,
                                 "parameter": parameter, "value": str(v), "x": x,
                                 "n_points": 1, "n_lists": 8, "auc": 0.7, "ci_low": 0.68,
                                 "ci_high": 0.72})  # fmt: skip
    fig = sweep_figure(pd.DataFrame(rows), "t")
    axes = [ax for ax in fig.axes if ax.get_visible()]
    assert len(axes) == 4
    assert [t.get_text() for t in axes[1].get_xticklabels()] == ["corpus", "isolated"]
    assert len(axes[0].lines) == 3  # two methods and the chance line
    save(fig, tmp_path / "s.png", tmp_path / "s.svg", tmp_path / "s.pdf")
    assert all((tmp_path / f"s.{e}").stat().st_size > 1000 for e in ("png", "svg", "pdf"))


def test_the_variable_columns_are_only_the_swept_parameters():
    df = pd.DataFrame({c: pd.Series(dtype=t) for c, t in schemas.TABLES["sweep_points"].items()})
    df["param_dim"] = pd.Series(dtype="int64")
    assert list(schemas.conform(df, "sweep_points").columns)[-1] == "param_dim"
    df["dim"] = 1
    with pytest.raises(ValueError, match=r"unexpected columns \['dim'\]"):
        schemas.conform(df, "sweep_points")


def test_the_seed_comparison_tests_each_seed_and_their_mean_and_measures_the_spread():
    """A sweep over training.seed: 2 methods x 3 seeds x 6 lists, hand-made AUCs in which
    A beats B at seeds 1 and 3 on every list but loses on two lists at seed 2, on one by
    so much that its mean over the seeds does too. Each seed's
    test and the test over the seeds' mean AUCs are scipy's exact Wilcoxon on the same
    numbers; every_seed is False (seed 2's p is above 0.05); the spread is numpy's SD across
    seeds beside std / sqrt(iterations)."""
    from learnability.pipeline.sweeps import is_seed_sweep
    from learnability.statistics.sweeps import seed_comparison

    rng = np.random.default_rng(0)
    lists = [f"l{i}" for i in range(6)]
    base = np.linspace(0.6, 0.8, 6)
    rows = []
    auc = {}
    for seed in (1, 2, 3):
        gap = np.full(6, 0.03) if seed != 2 else np.array([0.03, 0.02, 0.01, 0.04, -0.01, -0.10])
        for method, shift in (("a", gap), ("b", 0.0)):
            values = base + shift + rng.normal(0, 0.002, 6)
            auc[(method, seed)] = values
            for name, v in zip(lists, values, strict=True):
                rows.append({"sweep": "s", "embedding": f"{method}_seed~{seed}", "method": method,
                             "setting": f"seed={seed}", "list": name, "negatives": "uniform",
                             "size": 10, "iterations": 200, "metric": "auc", "mean": v,
                             "std": 0.05, "ci_low": v - 0.01, "ci_high": v + 0.01})  # fmt: skip
    scores = pd.DataFrame(rows)
    tests, spread = seed_comparison(scores, ["a", "b"], "greater")
    by = tests.set_index("seed")
    for seed in (1, 2, 3):
        ref = scipy_stats.wilcoxon(auc[("a", seed)], auc[("b", seed)], alternative="greater")
        assert by.loc[f"seed={seed}", "p_value"] == pytest.approx(ref.pvalue)
    mean_a = np.mean([auc[("a", s)] for s in (1, 2, 3)], axis=0)
    mean_b = np.mean([auc[("b", s)] for s in (1, 2, 3)], axis=0)
    ref = scipy_stats.wilcoxon(mean_a, mean_b, alternative="greater")
    # l5's mean gap is negative (seed 2's -0.10 outweighs the others' +0.03): a test over
    # another summary of the seeds (the best seed, the last) has another p
    assert (mean_a - mean_b)[5] < 0 < (mean_a - mean_b)[:5].min()
    assert by.loc["mean", "p_value"] == pytest.approx(ref.pvalue)
    assert by.loc["mean", "statistic"] == pytest.approx(ref.statistic)
    assert by.loc["seed=1", "p_value"] < 0.05 and by.loc["seed=2", "p_value"] > 0.05
    assert not tests["every_seed"].any()
    row = spread.set_index(["method", "list"]).loc[("a", "l4")]
    values = [auc[("a", s)][4] for s in (1, 2, 3)]
    assert row["seed_sd"] == pytest.approx(np.std(values, ddof=1))
    assert row["split_se"] == pytest.approx(0.05 / np.sqrt(200))
    assert row["seed_to_split"] == pytest.approx(row["seed_sd"] / row["split_se"])
    assert schemas.conform(tests, "sweep_seed_tests").shape[0] == 4
    assert is_seed_sweep({"grid": {"seed": [1, 2]}}) and not is_seed_sweep({"grid": {"dim": [5]}})

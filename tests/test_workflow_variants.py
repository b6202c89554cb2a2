"""Embeddings and sweeps added to the smoke run (wfutil.smoke_run, the conftest fixture
workflow_dir) by a --configfile, each in a copy of it, in the environment its extra gives
users: the run's corpus is reused and only the new points are trained and scored. A
module of its own so that another xdist worker runs it beside test_workflow.py's."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest
import yaml
from paths import REPO
from wfutil import CORPUS_JOBS, own_copy, ran, run, scheduled

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def test_facebook_fasttext_trains_on_the_sample_through_its_registry_entry(workflow_dir, tmp_path):
    """method: fasttext_facebook, added to the smoke config by a --configfile, in the
    environment its extra gives: the workflow trains it on the sample's corpus (the
    fixture's, not rebuilt) with the same training: keys as gensim's FastText, whose
    vocabulary and counts it reproduces."""
    wd = own_copy(workflow_dir, tmp_path)
    extra = wd / "fasttext_facebook.yaml"
    extra.write_text(yaml.safe_dump({"embeddings": {"ff": {"method": "fasttext_facebook"}}}))
    target = "results/embeddings/ff/vectors.npy"
    # the target first: --configfile takes every argument after it as a config file
    result = run(wd, target, "--configfile", str(extra), extras=("fasttext_facebook",))
    assert result.returncode == 0, result.stderr[-3000:]
    assert ran(result.stderr) == {"train_embedding"}  # the corpus was reused
    from learnability.embeddings import load_embedding

    ff = load_embedding(wd / "results" / "embeddings" / "ff")
    gensim = load_embedding(wd / "results" / "embeddings" / "fasttext")
    assert ff.meta["method"] == "fasttext_facebook" and ff.vectors.shape[1] == 16
    assert dict(zip(ff.words, ff.counts.tolist(), strict=True)) == dict(
        zip(gensim.words, gensim.counts.tolist(), strict=True)
    )
    assert ff.meta["fasttext_kwargs"]["bucket"] == 20000 and ff.meta["fasttext_kwargs"]["seed"] == 1


MONTHS = ["january", "february", "march", "april", "june", "july", "august", "september",
          "october", "november", "december"]  # fmt: skip


def test_a_contextual_models_static_vectors_run_through_the_workflow(workflow_dir, tmp_path):
    """method: transformer on a slice of the sample (the 900-odd words with 60+ tokens,
    each encoded alone, layer 4; corpus pooling is tested on the real model in
    test_transformer.py), in the environment the transformer extra gives: the real
    MiniLM model, trained by the workflow from the fixture's corpus, then scored for a
    list like any embedding. The month names (each 60+ times in the sample) are a
    category the model knows: held-out months outrank nearly every other word."""
    wd = own_copy(workflow_dir, tmp_path)
    (wd / "lists" / "months.txt").write_text("\n".join(MONTHS) + "\n")
    extra = wd / "transformer.yaml"
    block = yaml.safe_load((REPO / "config" / "config.yaml").read_text())["training"]
    params = {"min_count": 60, "transformer": {"pooling": "isolated", "layer": 4}}
    extra.write_text(
        yaml.safe_dump(
            {
                "training": {"transformer": block["transformer"]},
                "embeddings": {"minilm": {"method": "transformer", "params": params}},
            }
        )
    )
    target = "results/learnability/minilm/months/uniform/summary.parquet"
    result = run(wd, target, "--configfile", str(extra), extras=("transformer",))
    assert result.returncode == 0, result.stderr[-3000:]
    assert not CORPUS_JOBS & ran(result.stderr) and "train_embedding" in ran(result.stderr)
    from learnability.embeddings import load_embedding

    emb = load_embedding(wd / "results" / "embeddings" / "minilm")
    meta = json.loads((wd / "results/embeddings/minilm/meta.json").read_text())
    assert 500 < len(emb) < 1500 and emb.vectors.shape[1] == 384 and min(emb.counts) >= 60
    assert (meta["layer"], meta["n_layers"], meta["pooling"]) == (4, 6, "isolated")
    assert len(meta["model_sha256"]) == 64 and meta["tokens_encoded"] > 2 * len(emb)
    concept = pd.read_parquet(wd / "results/concepts/minilm/months.parquet")
    assert (concept["status"] == "in_vocab").sum() == len(MONTHS)
    summary = pd.read_parquet(wd / target).set_index("metric")
    assert summary.loc["auc", "mean"] > 0.9, summary


def test_a_sweep_trains_each_point_once_and_scores_it_as_the_learnability_jobs(
    workflow_dir, tmp_path
):
    """sweeps: a dim x corpus-share grid for word2vec, and a sweep whose only
    points are the fixture's own embeddings. The latter trains nothing, and its scores
    are the per-list learnability jobs' numbers exactly (same vocabulary, same splits),
    which scikit-learn's fits on those splits reproduce; a new grid value trains and
    scores only its points."""
    workflow_dir = own_copy(workflow_dir, tmp_path)
    sweep = workflow_dir / "sweep.yaml"
    grid = {
        "embeddings": ["word2vec"],
        "grid": {"dim": [8, 16]},
        "corpus_fraction": [0.5, 1.0],
    }
    same = {"embeddings": ["fasttext", "glove", "word2vec"], "grid": {"dim": [16]}}
    sweep.write_text(yaml.safe_dump({"sweeps": {"grid": grid, "same": same}}))
    targets = [f"results/{kind}/sweeps/{s}.{ext}" for s in ("grid", "same")
               for kind, ext in (("tables", "md"), ("plots", "png"))]  # fmt: skip
    result = run(workflow_dir, *targets, "--configfile", str(sweep))
    assert result.returncode == 0, result.stderr[-3000:]
    out = result.stdout + result.stderr
    jobs = scheduled(out)
    # 4 grid points, 1 of them the fixture's word2vec; the other sweep's 3 points are
    # all the fixture's: 3 trainings
    trained = re.findall(r"rule train_embedding:.*?wildcards: embedding=(\S+)", out, re.S)
    assert sorted(trained) == sorted(
        f"word2vec_dim~{d}_corpus~{f}" for d, f in (("8", "0.5"), ("8", "1"), ("16", "0.5"))
    ), trained
    assert jobs["sweep_scores"] == 7 and jobs["corpus_prefix"] == 1, jobs
    assert not CORPUS_JOBS & set(jobs), jobs

    results = workflow_dir / "results"
    same_scores = pd.read_parquet(results / "sweeps/same/learnability.parquet")
    for row in same_scores[same_scores["metric"] == "auc"].itertuples():
        method = row.method
        own = pd.read_parquet(
            results / f"learnability/{method}/{row.list}/{row.negatives}/summary.parquet"
        )
        assert own.loc[own["metric"] == "auc", "mean"].item() == row.mean, row
    # ... and those splits fitted by scikit-learn give the same AUCs (word2vec, family)
    import numpy as np
    from references import assert_aucs_match_the_reference, sklearn_aucs

    vocab = pd.read_parquet(results / "sweeps/same/vocabulary.parquet")["word"].tolist()
    emb = pd.read_parquet(results / "embeddings/word2vec/vocab.parquet")["word"].tolist()
    position = {w: i for i, w in enumerate(emb)}
    vectors = np.load(results / "embeddings/word2vec/vectors.npy")[[position[w] for w in vocab]]
    concept = pd.read_parquet(results / "sweeps/same/concepts.parquet").query("list == 'family'")
    index = {w: i for i, w in enumerate(vocab)}
    words = concept.loc[concept["status"].isin(["in_vocab", "expanded"]), "word"]
    members = np.unique([index[w] for w in words])
    seeds = pd.read_parquet(results / "learnability/word2vec/family/uniform/iterations.parquet")
    (path,) = (results / "sweeps/same/points").glob("word2vec*.iterations.parquet")
    points = pd.read_parquet(path)
    got = points.query("list == 'family' and negatives == 'uniform'").sort_values("iteration")
    reference = sklearn_aucs(vectors, members, seeds["seed"].tolist(), C=1.0)
    half = len(members) // 2
    assert_aucs_match_the_reference(got["auc"], reference, len(members) - half, len(members) - half)
    scores = pd.read_parquet(results / "sweeps/grid/learnability.parquet")
    assert list(scores.columns[-2:]) == ["param_dim", "param_corpus_fraction"]
    assert set(scores["embedding"]) == {
        f"word2vec_dim~{d}_corpus~{f}" for d in (8, 16) for f in ("0.5", "1")
    }
    prefix = json.loads((results / "corpus/enwiki-sample/prefix-50/stats.json").read_text())
    assert prefix["tokens"] == round(prefix["corpus_tokens"] / 2)
    effects = pd.read_parquet(results / "sweeps/grid/effects.parquet")
    assert set(effects["parameter"]) == {"dim", "corpus_fraction"}
    assert ((effects["ci_low"] <= effects["auc"]) & (effects["auc"] <= effects["ci_high"])).all()
    tests = pd.read_parquet(results / "sweeps/same/wilcoxon.parquet")
    # 3 pairs of methods, 2 schemes, over the lists; and, since the test's family and
    # mini_kin lists nest on the sweep's vocabulary, over leaves and clusters too
    lists = tests[tests["units"] == "lists"]
    assert len(lists) == 3 * 2 and (lists["n_nested_pairs"] > 0).all()
    assert tests["units"].value_counts().to_dict() == {"lists": 6, "leaves": 6, "clusters": 6}

    grid["grid"]["dim"] = [8, 12, 16]
    sweep.write_text(yaml.safe_dump({"sweeps": {"grid": grid, "same": same}}))
    dry = run(workflow_dir, "-n", *targets, "--configfile", str(sweep))
    assert dry.returncode == 0, dry.stderr[-3000:]
    assert scheduled(dry.stdout) == {
        "train_embedding": 2, "sweep_scores": 2, "sweep_summary": 1, "plot_sweep": 1
    }  # fmt: skip

    bad = {"embeddings": ["word2vec"], "grid": {"x_max": [10]}}
    sweep.write_text(yaml.safe_dump({"sweeps": {"bad": bad}}))
    dry = run(workflow_dir, "-n", "--configfile", str(sweep))
    assert dry.returncode == 1 and "Traceback" not in dry.stderr
    assert "Error in the config: sweeps.bad.grid.x_max: method word2vec does not read" in dry.stderr

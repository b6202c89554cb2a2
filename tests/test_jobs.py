"""The workflow's analysis jobs (learnability.pipeline.jobs) against score(): the job that
workflow/scripts/analysis.py runs reads the files the workflow writes and the params its
rule gives (workflow/rules/helpers/analyses.smk), and must hand an analysis what score()
hands it, so that the workflow and the library report the same numbers."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from planted import planted_concept

from learnability.schema_defaults import DEFAULTS


def _files(tmp_path, words: list[str], vectors: np.ndarray, lists: dict[str, list[str]]):
    """The job's input files as the workflow writes them: the vectors, the vocabulary
    (word, count) and each list's resolution table (in-vocabulary entries)."""
    np.save(tmp_path / "vectors.npy", vectors)
    counts = np.arange(len(words), 0, -1)
    pd.DataFrame({"word": words, "count": counts}).to_parquet(tmp_path / "vocab.parquet")
    concepts = []
    for name, members in lists.items():
        path = tmp_path / f"{name}.parquet"
        pd.DataFrame({"list": name, "word": members, "status": "in_vocab"}).to_parquet(path)
        concepts.append(str(path))
    return SimpleNamespace(vectors=str(tmp_path / "vectors.npy"),
                           vocab=str(tmp_path / "vocab.parquet"), concepts=concepts)  # fmt: skip


def _params(lists: dict, seed: int, **more) -> SimpleNamespace:
    """An analysis rule's params as workflow/rules/helpers/analyses.smk gives them (the
    protocol's at the schema's defaults; ``more``: the run's null settings)."""
    return SimpleNamespace(
        lists=list(lists), min_words=DEFAULTS["learnability.min_words"],
        C=DEFAULTS["learnability.C"], seed=seed, n_bins=None,
        solver=DEFAULTS["learnability.solver"], chunk_mb=DEFAULTS["learnability.chunk_mb"],
        device=DEFAULTS["learnability.device"], **more,
    )  # fmt: skip


def _config() -> dict:
    """The shipped config with the schema's defaults filled in, as the workflow reads it."""
    import yaml
    from paths import REPO

    from learnability.pipeline.config import fill_defaults, load_schema

    shipped = yaml.safe_load((REPO / "config" / "config.yaml").read_text(encoding="utf-8"))
    return fill_defaults(shipped, load_schema())


def _planted(seed: int, n: int = 600, dim: int = 12):
    """Words, Gaussian vectors with a concept along the first axis (rows 0-19), and two
    lists: the concept and 20 plain words."""
    concept = planted_concept(seed, n=n, dim=dim, size=20, shift=1.5, axis=0)
    words = concept.words
    return words, concept.vectors, {"planted": words[:20], "plain": words[300:320]}


def test_the_words_needed_job_scores_the_curve_as_score_does(tmp_path, seed):
    """The words-needed job, built as the workflow builds it (the run's null settings in
    its params), gives score()'s table row for row on a planted concept; where
    ``power.subsamples`` is 0 the workflow runs no such job and score() gives an empty
    table (the setting's documented "0: no words-needed curve")."""
    import learnability
    from learnability.analyses.registry import ANALYSES
    from learnability.pipeline.jobs import lists_job

    words, vectors, lists = _planted(seed)
    settings = {"curve_subsamples": 3, "curve_sizes": (5, 8), "alpha": 0.05, "power": 0.8}
    common = dict(iterations=6, null_lists=19, null_iterations=4, seed=seed,
                  null_seed=seed + 7, pvalue_method="matched")  # fmt: skip
    want = learnability.score((words, vectors), lists, suggestions=0, check_folds=0,
                              entanglement_iterations=0, codelength_orders=0,
                              bound_groups=0, **settings, **common).words_needed  # fmt: skip
    assert len(want) == 2 * 2  # two lists, two sizes: the comparison is not vacuous

    analysis = ANALYSES["words_needed"]
    params = _params(lists, seed, null_lists=19, null_iterations=4, null_seed=seed + 7,
                     pvalue_method="matched", list_iterations=6)  # fmt: skip
    job = lists_job(analysis, _files(tmp_path, words, vectors, lists), params,
                    SimpleNamespace(embedding="embedding", negatives="uniform"))  # fmt: skip
    got = analysis.run(job, settings)
    pd.testing.assert_frame_equal(got.reset_index(drop=True), want.reset_index(drop=True),
                                  check_dtype=False)  # fmt: skip

    config = _config()
    config["power"]["subsamples"] = 0
    assert not analysis.on_in(config)
    config["power"]["subsamples"] = 1
    assert analysis.on_in(config)
    off = learnability.score((words, vectors), lists, suggestions=0, check_folds=0,
                             entanglement_iterations=0, codelength_orders=0, bound_groups=0,
                             **{**settings, "curve_subsamples": 0}, **common)  # fmt: skip
    assert off.words_needed.empty


def test_the_bounds_job_gives_score_s_bounds(tmp_path, seed, caplog):
    """The bounds job, built as the workflow builds it, gives score()'s bounds row for row;
    ``power.groups`` 0 runs no such job and gives score() no bounds (its documented "0:
    no bounds"); the summary printed for people names each list's size, AUC and bounds."""
    import learnability
    from learnability.analyses.registry import ANALYSES
    from learnability.pipeline.jobs import lists_job

    words, vectors, lists = _planted(seed)
    settings = {"bound_groups": 4, "bound_iterations": 6, "bound_confidence": 0.9}
    common = dict(iterations=6, null_lists=19, null_iterations=4, seed=seed,
                  suggestions=0, check_folds=0, entanglement_iterations=0,
                  codelength_orders=0, curve_subsamples=0)  # fmt: skip
    with caplog.at_level(logging.INFO):
        want = learnability.score((words, vectors), lists, **settings, **common).bounds
    # one progress line names the step
    assert [r.getMessage().split(":")[0] for r in caplog.records].count("bounds") == 1
    assert len(want) == 2 and want["auc_se"].notna().all()
    # each setting reaches its rows (20 members: 4 groups of 5 leave 15 >= min_words)
    assert (want["groups"] == 4).all() and (want["group_iterations"] == 6).all()
    assert (want["confidence"] == 0.9).all() and (want["iterations"] == 6).all()

    analysis = ANALYSES["bounds"]
    job = lists_job(analysis, _files(tmp_path, words, vectors, lists), _params(lists, seed),
                    SimpleNamespace(embedding="embedding", negatives="uniform"))  # fmt: skip
    got = analysis.run(job, settings)
    pd.testing.assert_frame_equal(got.reset_index(drop=True), want.reset_index(drop=True),
                                  check_dtype=False)  # fmt: skip
    lines = analysis.describe(got).split("\n")
    assert lines[0] == "" and lines[1].split() == ["list", "size", "auc", "auc_low", "auc_high"]
    assert [line.split()[0] for line in lines[2:]] == list(want["list"])

    config = _config()
    config["power"]["groups"] = 0
    assert not analysis.on_in(config)
    config["power"]["groups"] = 1
    assert analysis.on_in(config)
    off = learnability.score((words, vectors), lists, **{**settings, "bound_groups": 0},
                             **common)  # fmt: skip
    assert off.bounds.empty


@pytest.mark.parametrize("key", ["C", "solver", "chunk_mb", "device"])
def test_the_defaults_the_job_test_reads_exist(key):
    # a renamed schema key would make the test above read nothing
    assert f"learnability.{key}" in DEFAULTS


def test_a_jobs_protocol_takes_min_words_from_its_rules_params():
    """The rules that score a list give min_words (learnability, learning_curve, the
    analyses, sweep_scores); the null lists' jobs do not, and keep the default."""
    from learnability.pipeline.jobs import job_protocol

    params = _params({"a": []}, 1, iterations=7)
    params.n_bins = 5
    assert job_protocol(params, "uniform").min_words == DEFAULTS["learnability.min_words"]
    params.min_words = 9
    protocol = job_protocol(params, "frequency_matched")
    assert (protocol.min_words, protocol.n_bins, protocol.iterations) == (9, 5, 7)
    del params.min_words
    assert job_protocol(params, "uniform").min_words == 4

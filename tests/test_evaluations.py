"""The evaluations side by side: paired tests against scipy and hand cases, the comparison
table against the scores it comes from, LaTeX column groups."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from learnability import evaluations as ev
from learnability.evaluations.registry import score_row
from learnability.reports.formats import to_latex
from learnability.reports.tables import write_evaluation_tables


def multi(emb: str, correct: list[bool]) -> pd.DataFrame:
    n = len(correct)
    return pd.DataFrame(
        {
            "embedding": emb,
            "dataset": "d",
            "section": "s",
            "line": np.arange(n),
            "status": "ok",
            "correct": correct,
        }
    )


def test_bootstrap_test_finds_a_real_difference_and_not_a_null_one(seed):
    rng = np.random.default_rng(seed + 0)
    a = rng.random(300) < 0.7
    b = rng.random(300) < 0.4
    table = pd.concat([multi("a", a), multi("b", b), multi("c", a)])
    out = ev.compare_evaluations({"multi_answer": table}, ["a", "b", "c"], n_boot=2000, seed=1)
    row = out[(out["embedding_a"] == "a") & (out["embedding_b"] == "b")].iloc[0]
    assert row["value_a"] == pytest.approx(a.mean()) and row["value_b"] == pytest.approx(b.mean())
    assert row["difference"] == pytest.approx(a.mean() - b.mean())
    assert row["ci_low"] < row["difference"] < row["ci_high"] and row["ci_low"] > 0
    assert row["p_value"] < 0.001 and row["n_items"] == 300
    same = out[(out["embedding_a"] == "a") & (out["embedding_b"] == "c")].iloc[0]
    assert same["p_value"] == 1.0  # every resampled difference is exactly 0
    # each pair once, in the order given: the hypothesis b > a needs b listed first
    assert len(out) == 3 and not ((out["embedding_a"] == "b") & (out["embedding_b"] == "a")).any()
    flipped = ev.compare_evaluations({"multi_answer": table}, ["b", "a"], n_boot=2000, seed=1)
    assert flipped.iloc[0]["p_value"] > 0.99
    # Holm over the 3 pairs of the one measure
    assert (out["p_holm"] >= out["p_value"]).all()


def test_only_items_both_answered_are_paired():
    a, b = multi("a", [True, True, False, True]), multi("b", [False, True, True, True])
    b.loc[0, "status"] = "query_oov"
    out = ev.compare_evaluations({"multi_answer": pd.concat([a, b])}, ["a", "b"], n_boot=200)
    assert out["n_items"].tolist() == [3]
    assert out.iloc[0]["value_a"] == pytest.approx(2 / 3)


def test_spearman_of_resamples_matches_scipy():
    rng = np.random.default_rng(2)
    pairs = rng.standard_normal((5, 40, 2))
    pairs[:, :, 1] += pairs[:, :, 0]
    pairs[0, :10, 0] = 1.0  # ties
    ours = ev.summary._spearman_rows(pairs)
    for r in range(5):
        assert ours[r] == pytest.approx(sps.spearmanr(pairs[r, :, 0], pairs[r, :, 1]).statistic)


def test_word_pairs_bootstrap_values_are_the_spearman_of_each_embedding():
    rng = np.random.default_rng(3)
    gold = rng.random(50)
    frames = []
    for emb, noise in (("a", 0.1), ("b", 1.0)):
        frames.append(
            pd.DataFrame(
                {
                    "embedding": emb,
                    "dataset": "simlex",
                    "line": np.arange(50),
                    "status": "ok",
                    "gold": gold,
                    "cosine": gold + noise * rng.standard_normal(50),
                }
            )
        )
    out = ev.compare_evaluations({"word_pairs": pd.concat(frames)}, ["a", "b"], n_boot=500)
    row = out.iloc[0]
    assert row["value_a"] == pytest.approx(sps.spearmanr(gold, frames[0]["cosine"]).statistic)
    assert row["p_value"] < 0.01


def test_wilcoxon_for_parents_matches_scipy():
    rng = np.random.default_rng(4)
    ap_a, ap_b = rng.random(30), rng.random(30) * 0.8
    frames = [
        pd.DataFrame({"embedding": e, "dataset": "g", "parent": [f"p{i}" for i in range(30)],
                      "average_precision": v})
        for e, v in (("a", ap_a), ("b", ap_b))
    ]  # fmt: skip
    out = ev.compare_evaluations({"hierarchy_parents": pd.concat(frames)}, ["a", "b"])
    expected = sps.wilcoxon(ap_a, ap_b, alternative="greater").pvalue
    assert out.iloc[0]["p_value"] == pytest.approx(expected)
    assert out.iloc[0]["method"] == "wilcoxon"


def test_rank_correlations_match_scipy_and_need_three_embeddings():
    wide = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0], "y": [1.0, 3.0, 2.0, 4.0]}, index=list("abcd"))
    out = ev.rank_correlations(wide)
    assert out.iloc[0]["spearman"] == pytest.approx(sps.spearmanr(wide.x, wide.y).statistic)
    assert out.iloc[0]["kendall"] == pytest.approx(sps.kendalltau(wide.x, wide.y).statistic)
    assert ev.rank_correlations(wide.iloc[:2]).empty


def scores_and_summary():
    rows = []
    for emb, acc, err in (("w2v", 0.6, 0.2), ("glove", 0.5, 0.3)):
        rows.append(score_row(emb, "multi_answer", "mine", "total", "accuracy", acc, 50, 5))
        rows.append(score_row(emb, "pseudo", "wiki", "cosine", "error_rate", err, 100, 0))
        for k, e in ((1, 0.45), (10, err - 0.05), (100, err)):
            rows.append(score_row(emb, "pseudo", "wiki", f"knn-{k}", "error_rate", e, 100, 0))
    scores = pd.DataFrame(rows)
    summary = pd.DataFrame(
        {
            "list": ["l1", "l2"] * 2,
            "embedding": ["w2v", "w2v", "glove", "glove"],
            "negatives": "uniform",
            "metric": "auc",
            "mean": [0.8, 0.6, 0.7, 0.5],
        }
    )
    return scores, summary


def test_comparison_table_comes_from_the_scores(tmp_path):
    scores, summary = scores_and_summary()
    table = ev.comparison_table(scores, summary).set_index("embedding")
    assert table.loc["w2v", "learnability: mean AUC (uniform)"] == pytest.approx(0.7)
    assert table.loc["glove", "multi_answer: mine accuracy"] == 0.5
    assert table.loc["w2v", "pseudo: wiki error (best k)"] == pytest.approx(0.15)
    assert table.loc["w2v", "pseudo: wiki best k"] == 10
    wide = pd.concat([ev.learnability_columns(summary), ev.headline(scores)], axis=1)
    assert wide.loc["w2v", "pseudo: wiki (accuracy)"] == pytest.approx(0.8)  # 1 - error
    out = SimpleNamespace(**{k: tmp_path / f"{k}.txt" for k in (
        "evaluations_md", "evaluations_csv", "evaluations_tex", "evaluation_tests_md",
        "evaluation_tests_csv", "rank_correlation_md", "rank_correlation_csv",
        "multi_answer_md", "analogy_md")})  # fmt: skip
    tests = ev.compare_evaluations({}, ["w2v", "glove"])
    from learnability.reports.evaluation_reports import REPORTS

    # every kind the registry says has a report has one, and no other
    assert set(REPORTS) == {n for n, k in ev.KINDS.items() if k.report}
    reports = {n: REPORTS[n]({}) for n in REPORTS}
    write_evaluation_tables(table.reset_index(), tests, ev.rank_correlations(wide), out, reports)
    tex = out.evaluations_tex.read_text()
    assert r"\multicolumn{1}{c}{learnability}" in tex and r"\cmidrule(lr){2-2}" in tex
    assert "0.700" in out.evaluations_md.read_text()
    assert "No multi-answer test" in out.multi_answer_md.read_text()
    assert "No analogy test" in out.analogy_md.read_text()


def test_analogy_report_per_section():
    from learnability.reports.evaluation_reports import analogy_report

    rows = []
    for emb, add in (("a", [True, False, True, False]), ("b", [False, False, True, True])):
        for i, (section, ok) in enumerate(
            zip(["s1", "s1", "s2", "s2"], ["ok", "ok", "ok", "oov"], strict=True)
        ):
            rows.append({"embedding": emb, "dataset": "qw", "section": section, "line": i,
                         "status": ok, "correct_add": add[i] and ok == "ok",
                         "correct_mul": False})  # fmt: skip
    text = analogy_report({"analogy": pd.DataFrame(rows)})
    # s1: 2 asked, a 1/2, b 0/2; s2: 1 of 2 asked, a 1/1, b 1/1; total 3 asked
    assert "| s1 | 2 | 2 | 0.500 | 0.000 | 0.000 | 0.000 |" in text
    assert "| s2 | 2 | 1 | 1.000 | 0.000 | 1.000 | 0.000 |" in text
    assert "| total | 4 | 3 | 0.667 | 0.000 | 0.333 | 0.000 |" in text


def test_multi_answer_report_lists_every_failed_query():
    from learnability.reports.evaluation_reports import multi_answer_report

    per = pd.concat([multi("a", [True, False, False]), multi("b", [True, True, False])])
    per = per.reset_index(drop=True)
    per["dataset"] = "mine"
    per["query"] = ["q0", "q1", "q2"] * 2
    per["answers"] = "x/y"
    per["neighbours"] = "n1 n2 n3 n4 n5 n6 n7"
    per.loc[2, "status"] = "query_oov"  # a's q2: not asked, not a failure
    text = multi_answer_report({"multi_answer": per})
    assert "failed queries (2)" in text  # a's q1, b's q2
    assert "| a | s | q1 | x/y | n1 n2 n3 n4 n5 |" in text
    assert "| b | s | q2 | x/y | n1 n2 n3 n4 n5 |" in text
    assert "queries not asked (1)" in text and "query_oov" in text
    assert "| s | 0.500 | 0.667 |" in text  # a: 1 of 2 asked; b: 2 of 3


def test_latex_column_groups():
    df = pd.DataFrame({"embedding": ["a"], "g1: x": [1.0], "g1: y": [2.0], "g2: z": [3.0]})
    tex = to_latex(df, group_sep=": ").splitlines()
    assert tex[2] == r" & \multicolumn{2}{c}{g1} & \multicolumn{1}{c}{g2} \\"
    assert tex[3] == r"\cmidrule(lr){2-3} \cmidrule(lr){4-4}"
    assert tex[4] == r"embedding & x & y & z \\"

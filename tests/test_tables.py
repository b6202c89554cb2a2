"""Tables for people, from the documented Parquet tables."""

import numpy as np
import pandas as pd
import pytest

from learnability import schemas
from learnability.reports.formats import (
    ceil_significant,
    format_pvalue,
    latex_escape,
    to_latex,
    to_markdown,
)
from learnability.reports.tables import (
    best_marks,
    member_extremes,
    table6,
    wilcoxon_table,
    write_all,
)


def test_member_extremes_by_hand():
    rows = []
    for rank, (word, share) in enumerate(
        [("mother", 0.97), ("father", 0.95), ("aunt", 0.90), ("kin", 0.60), ("xyz", 0.31)], 1
    ):
        rows.append(("family", "w2v", "uniform", rank, word, 10, 0.5, share, rank))
    rows.append(("family", "w2v", "uniform", 99, "never", 0, float("nan"), float("nan"), None))
    df = schemas.conform(pd.DataFrame(rows, columns=schemas.columns("members")), "members")
    table = member_extremes(df, k=2)
    assert table.to_dict("records") == [
        {
            "list": "family",
            "embedding": "w2v",
            "members": 5,  # the member never held out has no rank and is left out
            "strongest": "mother (0.97), father (0.95)",
            "weakest": "xyz (0.31), kin (0.60)",
        }
    ]
    assert "| family | w2v | 5 | mother (0.97), father (0.95) |" in to_markdown(table)


def _summary_and_random():
    aucs = {  # list -> embedding -> mean AUC
        "family": {"w2v": 0.90, "glove_x": 0.80},
        "work": {"w2v": 0.70, "glove_x": 0.85},
        "anger": {"w2v": 0.6004, "glove_x": 0.6001},  # a tie once rounded to 3 decimals
    }
    rows = []
    for name, by in aucs.items():
        for emb, auc in by.items():
            for m in ("accuracy", "recall", "fpr", "precision", "auc"):
                value = auc if m == "auc" else 0.5
                rows.append((name, emb, "uniform", 10, "size-10", 100, m, value, 0.1, 0.0, 1.0))
    summary = schemas.conform(pd.DataFrame(rows, columns=schemas.columns("summary")), "summary")
    rr = []
    for emb in ("w2v", "glove_x"):
        for row, v in (("random(max)", 0.55), ("random(avg)", 0.50)):
            for m in ("accuracy", "recall", "fpr", "precision", "auc"):
                rr.append((emb, "uniform", 400, row, m, v, "unmatched"))
    random_rows = schemas.conform(pd.DataFrame(rr, columns=schemas.columns("random_rows")),
                                  "random_rows")  # fmt: skip
    return aucs, summary, random_rows


def test_table6_summary_rows_are_the_columns_statistics():
    aucs, summary, random_rows = _summary_and_random()
    lists, embs = ["family", "work", "anger"], ["w2v", "glove_x"]
    t6 = table6(summary, random_rows, embs, lists, 400).set_index("list")
    for emb in embs:
        column = [aucs[name][emb] for name in lists]
        assert t6.loc["Mean", emb] == pytest.approx(np.mean(column), abs=1e-15)
        assert t6.loc["Median", emb] == pytest.approx(np.median(column), abs=1e-15)
        assert t6.loc["random(max)", emb] == 0.55 and t6.loc["random(avg)", emb] == 0.50
        for name in lists:
            assert t6.loc[name, emb] == aucs[name][emb]


def test_table6_marks_the_best_embedding_in_bold_and_the_best_list_in_italics():
    _, summary, random_rows = _summary_and_random()
    embs = ["w2v", "glove_x"]
    t6 = table6(summary, random_rows, embs, ["family", "work", "anger"], 400)
    bold, italic = best_marks(t6, embs)
    md = to_markdown(t6, bold=bold, italic=italic)
    assert "| family | ***0.900*** | 0.800 |" in md  # best of its row and of its column
    assert "| work | 0.700 | ***0.850*** |" in md
    assert "| anger | **0.600** | **0.600** |" in md  # tied once printed: both bold
    # summary rows never compete, even where they hold a column's largest number
    assert "| Mean |" in md and "*" not in md.split("| Mean |")[1].split("\n")[0]
    tex = to_latex(t6, bold=bold, italic=italic)
    assert r"family & \textbf{\textit{0.900}} & 0.800 \\" in tex
    assert r"list & w2v & glove\_x \\" in tex  # underscores escaped


def test_latex_is_a_booktabs_tabular_with_a_rule_before_the_summary_rows():
    _, summary, random_rows = _summary_and_random()
    t6 = table6(summary, random_rows, ["w2v", "glove_x"], ["family", "work", "anger"], 400)
    lines = to_latex(t6).splitlines()
    assert lines[0] == r"\begin{tabular}{lrr}" and lines[1] == r"\toprule"
    assert lines[-2:] == [r"\bottomrule", r"\end{tabular}"]
    body = lines[4:-2]
    assert body.index(r"\midrule") == 3  # after the three lists, before Mean
    rows = [ln for ln in body if ln != r"\midrule"]
    assert len(rows) == 3 + 4 and all(ln.count("&") == 2 and ln.endswith(r"\\") for ln in rows)
    assert latex_escape(r"50% & #1_a {x} ~ ^ \ ") == (
        r"50\% \& \#1\_a \{x\} \textasciitilde{} \textasciicircum{} \textbackslash{} "
    )


def test_wilcoxon_table_for_people_keeps_every_number():
    rows = [("uniform", "shared", "lists", "a", "b", "greater", 10, 9, 40.0, 5.0, 0.02,
             "exact", 0.78, 0.05, 0.04, 1, 0.6, "l1, l2")]  # fmt: skip
    w = schemas.conform(pd.DataFrame(rows, columns=schemas.columns("wilcoxon")), "wilcoxon")
    t = wilcoxon_table(w)
    assert t.iloc[0].to_dict() == {
        "units": "lists", "A": "a", "B": "b", "lists": 10, "n": 9, "W": 40.0, "p": 0.02,
        "r (rank-biserial)": 0.78, "median A-B": 0.05, "p (Holm)": 0.04, "method": "exact",
        "nested list pairs": 1,
    }  # fmt: skip


def pvalue_rows(pairs, p, adjusted, lists, p_tail=float("nan")) -> pd.DataFrame:
    """Rows of the pvalues schema for (list, embedding) pairs, one p-value for all."""
    rows = [
        {"list": name, "embedding": emb, "negatives": "uniform", "size": 10, "auc": 0.7,
         "method": "rescaled", "method_requested": "rescaled", "method_reason": "configured",
         "observed": 0.7, "list_iterations": 100, "null_key": "size-10",
         "null_size": 10, "null_lists": lists, "null_iterations": 10, "null_scale": 0.5,
         "within_var": 0.01, "between_var": 0.001, "between_third": float("nan"),
         "null_skewness": float("nan"), "null_auc_mean": 0.5,
         "null_auc_sd": 0.05, "null_auc_min": 0.4, "null_auc_max": 0.6,
         "n_null_ge": round(p * (lists + 1)) - 1, "p_value": p, "p_mc_se": 0.01, "p_upper": p,
         "p_floor": 1 / (lists + 1), "null_z": 4.0, "p_tail": p_tail, "power_alpha": 0.05,
         "power": 0.8, "power_spread": 1.2, "auc_detectable": 0.62, "p_adjusted": adjusted,
         "adjustment": "holm"}
        for name, emb in pairs
    ]  # fmt: skip
    return schemas.conform(pd.DataFrame(rows), "pvalues")


def test_write_all_writes_every_format(tmp_path):
    _, summary, random_rows = _summary_and_random()
    pvalues = pvalue_rows(
        [(name, emb) for name in ("family", "work", "anger") for emb in ("w2v", "glove_x")],
        p=0.01,
        adjusted=0.03,
        lists=99,
    )
    wilcoxon = schemas.empty("wilcoxon")
    names = ["table6", "learnability", "wilcoxon"]
    out = {
        f"{n}_{ext}": str(tmp_path / f"{n}.{ext}") for n in names for ext in ("md", "csv", "tex")
    }
    write_all(summary=summary, random_rows=random_rows, pvalues=pvalues, wilcoxon=wilcoxon,
              embeddings=["w2v", "glove_x"], lists=["family", "work", "anger"], size=400,
              negatives="uniform", out=out)  # fmt: skip
    for path in out.values():
        assert (tmp_path / path).stat().st_size > 0, path
    csv = pd.read_csv(out["table6_csv"]).set_index("list")
    assert csv.loc["anger", "w2v"] == 0.6004  # CSV keeps full precision, no markup
    learn = pd.read_csv(out["learnability_csv"])
    assert set(learn["p (holm)"].dropna()) == {0.03} and set(learn["p"].dropna()) == {0.01}
    assert open(out["learnability_tex"]).read().count(r"\begin{tabular}") == 2


def test_pvalues_at_their_floor_print_as_a_bound(tmp_path):
    """No random list reached the list: "< 1/(R+1)" rounded up ("< 0.001" for R = 1000,
    "< 0.005" for R = 200), the adjusted p from it as "<= ...", the tail estimate beside;
    the CSV keeps the numbers."""
    assert format_pvalue(1 / 1001, 1 / 1001) == "< 0.001"
    assert format_pvalue(1 / 201, 1 / 201) == "< 0.005"
    assert format_pvalue(8 / 1001, from_floor=True) == "<= 0.008"
    assert format_pvalue(0.0123, 1 / 1001) == "0.012"
    assert ceil_significant(0.0049751) == 0.005 and ceil_significant(0.00999) == 0.01
    _, summary, random_rows = _summary_and_random()
    pairs = [(name, emb) for name in ("family", "work", "anger") for emb in ("w2v", "glove_x")]
    pvalues = pvalue_rows(pairs, p=1 / 1001, adjusted=3 / 1001, lists=1000, p_tail=2.5e-6)
    names = ["table6", "learnability", "wilcoxon"]
    out = {f"{n}_{e}": str(tmp_path / f"{n}.{e}") for n in names for e in ("md", "csv", "tex")}
    write_all(
        summary=summary,
        random_rows=random_rows,
        pvalues=pvalues,
        wilcoxon=schemas.empty("wilcoxon"),
        embeddings=["w2v", "glove_x"],
        lists=["family", "work", "anger"],
        size=400,
        negatives="uniform",
        out=out,
    )
    md = (tmp_path / "learnability.md").read_text()
    assert "| family | 10 |" in md and "| < 0.001 | <= 0.003 | 2.5e-06 | 4.000 |" in md
    assert r"\textless{} 0.001" in (tmp_path / "learnability.tex").read_text()
    learn = pd.read_csv(out["learnability_csv"])
    assert set(learn["p"].dropna()) == {1 / 1001}


def test_a_list_an_embedding_cannot_score_is_a_row_that_says_why(tmp_path):
    """anger has 3 words in glove_x's space (coverage's not_scored), so no numbers there:
    its row keeps its size and is marked, the reason is under that embedding's table and
    in the CSV's column, table6 names it under the table; on w2v it is an ordinary row."""
    _, summary, random_rows = _summary_and_random()
    summary = summary[~((summary["list"] == "anger") & (summary["embedding"] == "glove_x"))]
    pairs = [(n, e) for n in ("family", "work", "anger") for e in ("w2v", "glove_x")]
    pvalues = pvalue_rows([pair for pair in pairs if pair != ("anger", "glove_x")],
                          p=0.01, adjusted=0.03, lists=99)  # fmt: skip
    reason = "only 3 words in the embedding's vocabulary; at least 4 are needed"
    rows = [{**dict.fromkeys(schemas.columns("coverage"), 0), "list": n, "embedding": e,
             "vocabulary": "own", "n_in_vocab": 3 if n == "anger" else 20,
             "not_scored": reason if (n, e) == ("anger", "glove_x") else ""}
            for n, e in pairs]  # fmt: skip
    coverage = pd.DataFrame(rows)
    names = ["table6", "learnability", "wilcoxon"]
    out = {f"{n}_{e}": str(tmp_path / f"{n}.{e}") for n in names for e in ("md", "csv", "tex")}
    write_all(summary=summary, random_rows=random_rows, pvalues=pvalues,
              wilcoxon=schemas.empty("wilcoxon"), embeddings=["w2v", "glove_x"],
              lists=["family", "work", "anger"], size=400, negatives="uniform", out=out,
              coverage=coverage)  # fmt: skip
    md = open(out["learnability_md"]).read()
    w2v, glove = md.split("## glove_x")
    assert "(not scored)" not in w2v and "Not scored" not in w2v
    assert glove.count("| anger (not scored) | 3 |") == 1
    assert f"Not scored (see results/tables/coverage.md):\n\n- anger: {reason}\n" in glove
    learn = pd.read_csv(out["learnability_csv"]).set_index(["embedding", "list"])
    assert learn.loc[("glove_x", "anger"), "not scored"] == reason
    assert learn.loc[("glove_x", "anger"), "Size"] == 3
    assert np.isnan(learn.loc[("glove_x", "anger"), "AUC"])
    assert learn.loc[("w2v", "anger"), "AUC"] == pytest.approx(0.6004)
    t6 = open(out["table6_md"]).read()
    assert (
        "Not scored, too few of their words in the vocabulary (learnability.min_words): "
        "anger (3 words in the vocabulary) on glove_x." in t6
    )
    # every list scored: no note at all
    write_all(summary=summary, random_rows=random_rows, pvalues=pvalues,
              wilcoxon=schemas.empty("wilcoxon"), embeddings=["w2v"],
              lists=["family", "work", "anger"], size=400, negatives="uniform", out=out,
              coverage=coverage)  # fmt: skip
    assert "ot scored" not in open(out["learnability_md"]).read() + open(out["table6_md"]).read()

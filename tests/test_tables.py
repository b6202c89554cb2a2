"""Tables for people, from the documented Parquet tables."""

import numpy as np
import pandas as pd
import pytest

from learnability import schemas
from learnability.tables import (
    best_marks,
    latex_escape,
    member_extremes,
    table6,
    to_latex,
    to_markdown,
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
                rr.append((emb, "uniform", 400, row, m, v))
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
    rows = [("uniform", "shared", "a", "b", "greater", 10, 9, 40.0, 5.0, 0.02, "exact",
             0.78, 0.05, 0.04)]  # fmt: skip
    w = schemas.conform(pd.DataFrame(rows, columns=schemas.columns("wilcoxon")), "wilcoxon")
    t = wilcoxon_table(w)
    assert t.iloc[0].to_dict() == {
        "A": "a", "B": "b", "lists": 10, "n": 9, "W": 40.0, "p": 0.02,
        "r (rank-biserial)": 0.78, "median A-B": 0.05, "p (Holm)": 0.04, "method": "exact",
    }  # fmt: skip


def test_write_all_writes_every_format(tmp_path):
    _, summary, random_rows = _summary_and_random()
    pv = []
    for name in ("family", "work", "anger"):
        for emb in ("w2v", "glove_x"):
            pv.append((name, emb, "uniform", 10, 0.7, "size-10", 10, 99, 0.5, 0.4, 0.6, 0,
                       0.01, 0.03, "holm"))  # fmt: skip
    pvalues = schemas.conform(pd.DataFrame(pv, columns=schemas.columns("pvalues")), "pvalues")
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

import pandas as pd
import pytest

from learnability import schemas
from learnability.cli import main
from learnability.stats import wilcoxon_test

# The paper's Table 6 (Sutton & Cristianini 2020), fastText and GloVe columns.
LISTS = [
    "posemo",
    "negemo",
    "anger",
    "bio",
    "relative",
    "affect",
    "social",
    "work",
    "family",
    "health",
]
FASTTEXT = [0.965, 0.973, 0.970, 0.974, 0.961, 0.958, 0.973, 0.970, 0.963, 0.975]
GLOVE = [0.961, 0.965, 0.957, 0.960, 0.971, 0.960, 0.962, 0.947, 0.948, 0.952]


def test_compare_published_aucs(tmp_path, capsys):
    rows = [(li, "fasttext", a) for li, a in zip(LISTS, FASTTEXT, strict=True)]
    rows += [(li, "glove", a) for li, a in zip(LISTS, GLOVE, strict=True)]
    csv = tmp_path / "table6.csv"
    pd.DataFrame(rows, columns=["list", "embedding", "auc"]).to_csv(csv, index=False)
    out = tmp_path / "w.parquet"
    assert main(["compare", "--aucs", str(csv), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "| fasttext | glove |" in printed
    table = pd.read_parquet(out)
    assert list(table.columns) == schemas.columns("wilcoxon")
    row = table.set_index(["embedding_a", "embedding_b"]).loc[("fasttext", "glove")]
    expected = wilcoxon_test(pd.Series(FASTTEXT).to_numpy(), pd.Series(GLOVE).to_numpy())
    assert row["statistic"] == 50 and row["w_minus"] == 5
    assert row["p_value"] == pytest.approx(expected["p_value"])
    assert row["method"] == "exact-conditional"


@pytest.mark.parametrize(
    "content,match",
    [
        ("list,model,auc\na,b,0.5\n", "missing columns \\['embedding'\\]"),
        ("list,embedding,auc\na,x,0.5\nb,x,high\n", "line 3: auc 'high' is not a number"),
        ("list,embedding,auc\na,x,0.5\na,x,0.6\n", "list 'a' appears twice"),
    ],
)
def test_compare_bad_input(tmp_path, capsys, content, match):
    csv = tmp_path / "bad.csv"
    csv.write_text(content)
    assert main(["compare", "--aucs", str(csv)]) == 2
    err = capsys.readouterr().err
    assert "bad.csv" in err
    import re

    assert re.search(match, err)

"""Tables for people, from the documented Parquet tables."""

import pandas as pd

from learnability import schemas
from learnability.tables import member_extremes, to_markdown


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

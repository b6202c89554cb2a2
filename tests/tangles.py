"""A synthetic entanglement table (schema ``entanglement``) whose pairs are reported as
known, per embedding: what the pages that count them (the tables, the heatmap, the
explorer) must agree with. The counts are read from the columns here, not from
learnability.analyses.entanglement's helpers."""

import itertools

import numpy as np
import pandas as pd

from learnability import schemas

LISTS = ["affect", "anger", "negemo", "posemo"]
# per embedding, each ordered pair A != B's status (in itertools.permutations order):
# e entangled, c beyond chance only, o overlap, "-" not beyond the null
STATUS = {"word2vec": "eeecccc-oo--", "glove": "ecco-oo-----"}


def table() -> pd.DataFrame:
    rows = []
    for emb, statuses in STATUS.items():
        pairs = iter(statuses)
        for a, b in itertools.product(LISTS, LISTS):
            s = "-" if a == b else next(pairs)
            rows.append({
                "embedding": emb, "negatives": "uniform", "list_a": a, "list_b": b,
                "n_a": 30, "n_b": 30, "n_shared": 10 if s == "o" else 0, "link_z": 3.0,
                "measured": True, "iterations": 20, "auc_before": 0.8, "auc_after": 0.7,
                "share": 1.2 if a == b else {"e": 0.45, "c": 0.05, "o": 0.3}.get(s, 0.01),
                "share_se": 0.02, "share_low": 0.0, "p_margin": 0.5, "alignment": 0.1,
                "p_overlap": 1.0, "p_direction": 0.5,
                "p_value": np.nan if a == b else 0.001 if s != "-" else 0.5,
                "p_adjusted": np.nan if a == b else 0.01 if s != "-" else 1.0,
                "adjust": "holm", "alpha": 0.05, "margin": 0.1,
                "beyond_null": s in "eco", "overlap": s == "o",
                "p_margin_adjusted": np.nan if a == b else 0.001 if s == "e" else 1.0,
                "entangled": s == "e",
            })  # fmt: skip
    return schemas.conform(pd.DataFrame(rows), "entanglement")


def count(emb: str) -> dict[str, int]:
    """(tested, entangled, beyond chance only, overlap) of one embedding, by their
    statuses: what each page must say."""
    s = STATUS[emb]
    return {"tested": len(s), "entangled": s.count("e"), "chance": s.count("c"),
            "overlap": s.count("o")}  # fmt: skip

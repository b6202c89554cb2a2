"""Tables for people (Markdown and CSV) in the paper's layouts. Knows nothing about how
any number was computed: it only reshapes the tidy Parquet outputs."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

from learnability.io import atomic_path
from learnability.schemas import METRICS

HEADERS = {
    "accuracy": "Accuracy",
    "recall": "Recall",
    "fpr": "FPR",
    "precision": "Prec",
    "auc": "AUC",
}


def table6(
    summary: pd.DataFrame,
    random_rows: pd.DataFrame,
    embeddings: list[str],
    lists: list[str],
    size: int,
) -> pd.DataFrame:
    """Lists x embeddings of mean AUC, then Mean, Median, random(max), random(avg) rows."""
    auc = summary[summary["metric"] == "auc"].pivot(
        index="list", columns="embedding", values="mean"
    )
    auc = auc.reindex(index=lists, columns=embeddings)
    body = auc.copy()
    body.loc["Mean"] = auc.mean(axis=0)
    body.loc["Median"] = auc.median(axis=0)
    rr = random_rows[(random_rows["metric"] == "auc") & (random_rows["size"] == size)]
    for row in ("random(max)", "random(avg)"):
        vals = rr[rr["row"] == row].set_index("embedding")["value"]
        body.loc[row] = vals.reindex(embeddings)
    body.index.name = "list"
    return body.reset_index()


def embedding_table(
    summary: pd.DataFrame,
    random_rows: pd.DataFrame,
    pvalues: pd.DataFrame,
    embedding: str,
    lists: list[str],
    size: int,
) -> pd.DataFrame:
    """The paper's Tables 2-5 for one embedding: every metric per list, the random rows,
    and the empirical p-value of each list's AUC."""
    s = summary[summary["embedding"] == embedding]
    wide = s.pivot(index="list", columns="metric", values="mean").reindex(lists)
    sizes = s.drop_duplicates("list").set_index("list")["size"].reindex(lists)
    pv = pvalues[pvalues["embedding"] == embedding].set_index("list").reindex(lists)
    out = pd.DataFrame({"list": lists, "Size": sizes.to_numpy()})
    for m in METRICS:
        out[HEADERS[m]] = wide[m].to_numpy()
    out["p"] = pv["p_value"].to_numpy()
    adjustment = pv["adjustment"].dropna()
    label = f"p ({adjustment.iloc[0]})" if len(adjustment) else "p (adjusted)"
    out[label] = pv["p_adjusted"].to_numpy()
    rr = random_rows[(random_rows["embedding"] == embedding) & (random_rows["size"] == size)]
    for row in ("random(max)", "random(avg)"):
        vals = rr[rr["row"] == row].set_index("metric")["value"]
        rec = {"list": row, "Size": size}
        rec.update({HEADERS[m]: vals.get(m, np.nan) for m in METRICS})
        out = pd.concat([out, pd.DataFrame([rec])], ignore_index=True)
    return out


def to_markdown(df: pd.DataFrame, digits: int = 3) -> str:
    """A GitHub-flavoured Markdown table; floats rounded to ``digits`` as in the paper."""

    def fmt(v: object) -> str:
        if isinstance(v, float | np.floating):
            if np.isnan(v):
                return ""
            if v != 0 and abs(v) < 10**-digits:
                return f"{v:.1e}"
            return f"{v:.{digits}f}"
        if isinstance(v, int | np.integer):
            return str(int(v))
        return "" if v is None or v is pd.NA else str(v)

    header = "| " + " | ".join(map(str, df.columns)) + " |"
    numeric = [pd.api.types.is_numeric_dtype(df[c]) for c in df.columns]
    align = "|" + "|".join("---:" if n else "---" for n in numeric) + "|"
    body = ["| " + " | ".join(fmt(v) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join([header, align, *body]) + "\n"


def write_table_files(
    df: pd.DataFrame,
    md_path: str | os.PathLike[str],
    csv_path: str | os.PathLike[str] | None = None,
    title: str = "",
) -> None:
    md = (f"## {title}\n\n" if title else "") + to_markdown(df)
    with atomic_path(md_path) as tmp:
        Path(tmp).write_text(md, encoding="utf-8")
    if csv_path is not None:
        with atomic_path(csv_path) as tmp:
            df.to_csv(tmp, index=False)


def member_extremes(members: pd.DataFrame, k: int = 5) -> pd.DataFrame:
    """Per (list, embedding): the ``k`` strongest and ``k`` weakest members with their mean
    share of test non-members outscored (from ``members`` tables). The weakest are the
    entries a lexicon builder should look at first."""
    rows = []
    ranked = members.dropna(subset=["rank"]).sort_values(["list", "embedding", "rank"])
    for (list_name, embedding), g in ranked.groupby(["list", "embedding"], sort=True):

        def show(part: pd.DataFrame) -> str:
            return ", ".join(
                f"{w} ({v:.2f})"
                for w, v in zip(part["word"], part["mean_share_outscored"], strict=True)
            )

        rows.append(
            {
                "list": list_name,
                "embedding": embedding,
                "members": len(g),
                "strongest": show(g.head(k)),
                "weakest": show(g.tail(k).iloc[::-1]),
            }
        )
    return pd.DataFrame(rows, columns=["list", "embedding", "members", "strongest", "weakest"])


def write_all(
    *,
    summary: pd.DataFrame,
    random_rows: pd.DataFrame,
    pvalues: pd.DataFrame,
    wilcoxon: pd.DataFrame,
    embeddings: list[str],
    lists: list[str],
    size: int,
    negatives: str,
    out: dict[str, str],
    members: pd.DataFrame | None = None,
) -> None:
    """Write the tables of one negatives scheme (keys of ``out``: ``table6_md``, ...)."""

    def scheme(df: pd.DataFrame) -> pd.DataFrame:
        return df[df["negatives"] == negatives]

    summary, random_rows = scheme(summary), scheme(random_rows)
    pvalues, wilcoxon = scheme(pvalues), scheme(wilcoxon)
    note = f" ({negatives} non-members)"
    t6 = table6(summary, random_rows, embeddings, lists, size)
    write_table_files(
        t6,
        out["table6_md"],
        out["table6_csv"],
        title="Mean AUC per list and embedding (layout of the paper's Table 6)" + note,
    )
    parts = [embedding_table(summary, random_rows, pvalues, e, lists, size) for e in embeddings]
    md = "".join(
        f"## {e}{note}\n\n{to_markdown(t)}\n" for e, t in zip(embeddings, parts, strict=True)
    )
    with atomic_path(out["learnability_md"]) as tmp:
        Path(tmp).write_text(md, encoding="utf-8")
    long = pd.concat([t.assign(embedding=e) for e, t in zip(embeddings, parts, strict=True)])
    with atomic_path(out["learnability_csv"]) as tmp:
        long.to_csv(tmp, index=False)
    write_table_files(
        wilcoxon.drop(columns="negatives"),
        out["wilcoxon_md"],
        out["wilcoxon_csv"],
        title="Wilcoxon signed-rank tests on per-list mean AUC" + note,
    )
    if members is not None:
        write_table_files(
            member_extremes(scheme(members)),
            out["members_md"],
            out["members_csv"],
            title="Strongest and weakest members: mean share of held-out non-members "
            "each outscores" + note,
        )

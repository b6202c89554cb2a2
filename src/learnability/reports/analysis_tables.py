"""Tables for people from the analyses' Parquet outputs: the suggested additions, their
held-out check beside its baseline, the entanglement matrix, and the ranking with
resolution (Markdown, CSV and LaTeX, as the other tables)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from learnability.io import atomic_path
from learnability.reports.formats import (
    format_pvalue,
    format_value,
    to_markdown,
    write_table_files,
    write_text,
)

SUGGESTIONS_SHOWN = 10


def suggestions_markdown(
    table: pd.DataFrame, lists: Sequence[str], shown: int = SUGGESTIONS_SHOWN
) -> str:
    """Each list's first ``shown`` suggestions per embedding, with their mean probability."""
    lines = []
    for name in lists:
        part = table[table["list"] == name]
        if part.empty:
            continue
        lines += [f"### {name}", "", "| embedding | suggested additions (mean probability) |",
                  "|---|---|"]  # fmt: skip
        for emb, g in part.groupby("embedding", sort=False):
            g = g.sort_values("rank").head(shown)
            words = ", ".join(f"{w} ({p:.2f})" for w, p in zip(g["word"], g["mean_probability"],
                                                               strict=True))  # fmt: skip
            lines.append(f"| {emb} | {words} |")
        lines.append("")
    return "\n".join(lines)


def check_table(check: pd.DataFrame, lists: Sequence[str]) -> pd.DataFrame:
    """One row per (list, embedding): recall@k beside its frequency-matched baseline for
    every k, and the p-value at the largest k."""
    ks = sorted(check["k"].unique())
    rows = []
    order = {name: i for i, name in enumerate(lists)}
    for (name, emb), g in check.groupby(["list", "embedding"], sort=False):
        g = g.set_index("k")
        row = {"list": name, "embedding": emb, "size": int(g["size"].iloc[0]),
               "hidden": int(g["hidden"].iloc[0])}  # fmt: skip
        for k in ks:
            row[f"recall@{k}"] = g.loc[k, "recall"]
            row[f"baseline@{k}"] = g.loc[k, "baseline_recall"]
        row[f"p (k={ks[-1]})"] = format_pvalue(g.loc[ks[-1], "p_value"])
        rows.append(row)
    df = pd.DataFrame(rows)
    if df.empty:
        return df
    df["_order"] = df["list"].map(order)
    return df.sort_values(["_order", "embedding"], kind="stable").drop(columns="_order")


NOT_MEASURED = "·"
# a cell's mark: entangled (beyond the null, share above the margin with confidence),
# beyond the null by the shared members alone, beyond the null only
MARKS = {"entangled": "*", "overlap": "o", "chance": "+"}


def reported_as(row) -> str:
    """What a pair beyond the null is reported as: ``entangled``, ``overlap`` or
    ``chance`` (beyond chance only); "" for the others and the diagonal."""
    if row.list_a == row.list_b or not row.beyond_null:
        return ""
    return "entangled" if row.entangled else "overlap" if row.overlap else "chance"


def entanglement_matrix(table: pd.DataFrame, embedding: str, lists: Sequence[str]) -> pd.DataFrame:
    """Rows: the erased list A; columns: the rescored list B; cells: B's share to two
    decimals, marked (:data:`MARKS`) where the pair is beyond its null after adjustment:
    * entangled, + beyond chance only, o by overlap alone; blank where B is not above
    chance, ``NOT_MEASURED`` for a pair not measured."""
    part = table[table["embedding"] == embedding]
    present = [name for name in lists if name in set(part["list_a"])]

    def cell(row) -> str:
        mark = MARKS.get(reported_as(row), "")
        return (format_value(row.share, 2) if row.measured else NOT_MEASURED) + mark

    m = (
        part.assign(cell=[cell(r) for r in part.itertuples()])
        .pivot(index="list_a", columns="list_b", values="cell")
        .reindex(index=present, columns=present)
    )
    m.index.name = None
    return m.rename_axis(columns=None).reset_index(names="erased \\ rescored")


def ranking_table(ranking: pd.DataFrame) -> pd.DataFrame:
    """The compact ranking: per scheme, rank, rank interval, mean with its interval, and
    the test against the next embedding down."""
    rows = []
    for r in ranking.sort_values(["negatives", "rank"], kind="stable").itertuples():
        below = r.next_embedding is not None and not pd.isna(r.next_embedding)
        rows.append(
            {
                "negatives": r.negatives,
                "rank": int(r.rank),
                "embedding": r.embedding,
                "rank interval": f"[{r.rank_low:g}, {r.rank_high:g}]",
                f"mean {r.metric}": r.mean,
                "interval": f"[{format_value(r.ci_low)}, {format_value(r.ci_high)}]",
                "vs next (Holm p)": (
                    f"{'>' if r.separated else '~'} {r.next_embedding} "
                    f"({format_pvalue(r.p_adjusted)})"
                )
                if below
                else "",  # fmt: skip
            }
        )
    return pd.DataFrame(rows)


RANKING_NOTE = """
Rank interval: the percentile bootstrap interval of the rank over resampled lists and,
within each, resampled splits. "> next": the one-sided Wilcoxon signed-rank test over
per-list means separates it from the embedding ranked below, after Holm over the
adjacent pairs; "~ next": it does not.
"""

CHECK_NOTE = """
Each list's members are split into folds; each fold is hidden in turn, the protocol runs
on the rest, and recall@k is the share of hidden members among the top k suggestions.
baseline@k: the recall random vocabulary words of the hidden members' frequency would get
from the same suggestions. p: the chance of that many hits or more at the baseline's
rates (exact Poisson-binomial).
"""


def write_check(check: pd.DataFrame, lists: Sequence[str], md: str, csv: str, tex: str,
                title: str) -> None:  # fmt: skip
    table = check_table(check, lists)
    write_table_files(table, md, None, title, tex, footer=CHECK_NOTE)
    with atomic_path(csv) as tmp:
        check.to_csv(tmp, index=False)


def write_entanglement(table: pd.DataFrame, lists: Sequence[str], embeddings: Sequence[str],
                       md: str, csv: str, title: str) -> None:  # fmt: skip
    from learnability.analyses.entanglement import beyond_null, summary_line

    parts = [f"## {title}", ""]
    for emb in embeddings:
        if emb not in set(table["embedding"]):
            continue
        part = table[table["embedding"] == emb]
        m = entanglement_matrix(table, emb, lists)
        parts += [f"### {emb}", "", summary_line(part) + ":", ""]
        found = beyond_null(part)
        if len(found):
            # the entangled first, then the merely beyond chance, then the overlap
            what = pd.Series([reported_as(r) for r in found.itertuples()], index=found.index)
            rank = what.map({"entangled": 0, "chance": 1, "overlap": 2})
            found = found.assign(reported=what.replace({"chance": "beyond chance only"}))
            found = found.loc[rank.sort_values(kind="stable").index]
            shown = found[["list_a", "list_b", "reported", "n_shared", "share", "share_low",
                           "alignment", "p_adjusted", "p_margin_adjusted"]].rename(columns={
                "list_a": "erased (A)", "list_b": "rescored (B)", "n_shared": "shared",
                "share_low": "share (lower bound)", "p_adjusted": "p vs null (adjusted)",
                "p_margin_adjusted": "p share > margin (adjusted)"})  # fmt: skip
            parts += [to_markdown(shown, digits=3), ""]
        else:
            parts += ["none.", ""]
        parts += ["All pairs' shares:", "", to_markdown(m, digits=2)]
    parts.append("Cell: the share of the column list's AUC above 0.5 that erasing the row "
                 "list (LEACE) removes; 1 = all of it, 0 = none; blank: the column list is "
                 f"not above chance; {NOT_MEASURED}: not measured (no shared member, and the "
                 "column list's members are not apart along the row list's erased "
                 "direction: entanglement.min_z; entanglement.pairs: all measures every "
                 "pair); *: entangled, +: beyond the null only, o: beyond the null by the "
                 "members the two share alone (overlap). A pair is beyond the null where "
                 "erasing the "
                 "row list takes more of the column list than erasing a random list of its "
                 "size (and frequency profile, under frequency-matched non-members) would, "
                 "after adjustment over all ordered pairs (entanglement.adjust, "
                 "entanglement.alpha): by its members' alignment with the column list's "
                 "direction, or by the members the two share. It is entangled where it is "
                 "beyond the null, not by overlap alone (its members outside the column "
                 "list are aligned with it beyond the null), and its share is above "
                 "entanglement.margin with confidence: the one-sided t test over the paired "
                 "splits, adjusted as the null's p-values are; share (lower bound): the "
                 "share's one-sided lower confidence bound at 1 - alpha, unadjusted. "
                 "Overlap is the dictionary's doing, not the embedding's: nested lists pass "
                 "the null so on random vectors. alignment: the squared "
                 "cosine in the coordinates where a random list's direction is uniform "
                 "(a random list's is about 1/dimensions).\n")  # fmt: skip
    write_text("\n".join(parts), md)
    with atomic_path(csv) as tmp:
        table.to_csv(tmp, index=False)


def write_ranking(ranking: pd.DataFrame, md: str, csv: str, tex: str, title: str) -> None:
    write_table_files(ranking_table(ranking), md, csv, title, tex, footer=RANKING_NOTE)


def words_needed_markdown(table: pd.DataFrame, lists: Sequence[str]) -> str:
    """The words-needed curve for people: per list and embedding, the words at which
    the measured power reaches its target, then the power (and beneath it the smallest
    detectable AUC, and the subsets' mean AUC) at each size tried."""
    from learnability.analyses.words_needed import words_for_power

    needed = words_for_power(table).set_index(["list", "embedding"])
    target = float(table["power_target"].iloc[0])
    alpha = float(table["power_alpha"].iloc[0])
    rows = []
    for name in lists:
        for (li, embedding), g in table[table["list"] == name].groupby(
            ["list", "embedding"], sort=False
        ):
            g = g.sort_values("words")
            n = needed.loc[(li, embedding), "words_needed"]
            cells = {
                "list": li, "embedding": embedding, "size": int(g["size"].iloc[0]),
                f"words for {target:.0%} power": f"{n:.0f}" if np.isfinite(n)
                else f"> {int(g['words'].max())}",
            }  # fmt: skip
            for r in g.itertuples():
                # none detectable: fewer random lists than 1 / alpha
                sde = f"{r.auc_detectable:.2f}" if np.isfinite(r.auc_detectable) else "none"
                cells[f"{r.words}"] = f"{r.power:.2f} ({r.auc_mean:.2f} / {sde})"
            rows.append(cells)
    body = to_markdown(pd.DataFrame(rows).fillna("")) if rows else "(no list to subsample)\n"
    return (
        body + f"\nCell (a number of words): the share of random subsets of that many members "
        f"reaching p <= {alpha:g} against random lists of their size (power), then the "
        "subsets' mean AUC and the smallest AUC detectable there with "
        f"{target:.0%} power.\n"
    )

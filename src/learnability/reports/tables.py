"""Tables for people (Markdown, CSV and LaTeX booktabs) in the paper's layouts. Knows
nothing about how any number was computed: it only reshapes the tidy Parquet outputs.

CSV files hold the numbers at full precision and nothing else; Markdown and LaTeX round
to three decimals as the paper prints them, and Table 6 marks, as the paper does, the
best embedding of each list in bold and the best list of each embedding in italics."""

from __future__ import annotations

import numpy as np
import pandas as pd

from learnability.defaults import OVERLAP_WARN
from learnability.io import atomic_path
from learnability.protocol.sizes import words
from learnability.reports.formats import (
    RANDOM_ROWS,
    SUMMARY_ROWS,
    format_pvalue,
    format_value,
    to_latex,
    to_markdown,
    write_table_files,
    write_text,
)
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
    for_people: bool = False,
    codelength: pd.DataFrame | None = None,
    bounds: pd.DataFrame | None = None,
    unscored: dict[str, tuple[int, str]] | None = None,
) -> pd.DataFrame:
    """The paper's Tables 2-5 for one embedding: every metric per list, the random rows,
    the empirical p-value of each list's AUC (raw and adjusted), the generalised Pareto
    tail estimate where the empirical p is at or near its floor, and the distance from the
    null mean in null standard deviations. With ``codelength`` (schema ``codelength``),
    also each list's compression by the online code and its null's (random lists of its
    size). Each list's smallest detectable AUC (at the p-values' ``power_alpha`` with
    their ``power``) and, with ``bounds`` (schema ``bounds``), its one-sided bounds on the
    AUC from resampling its members: what a list that is not learnable could still hold.
    ``for_people`` prints p-values as text: one at its floor as "< 1/(R+1)" (see
    :func:`format_pvalue`), and the bounds as one range. ``unscored``: list -> (its words
    in the space, why it is not scored) for the lists the embedding cannot score: their
    size is given, their metrics are empty, and ``for_people`` marks their name, else a
    ``not scored`` column gives the reason."""
    unscored = unscored or {}
    s = summary[summary["embedding"] == embedding]
    wide = s.pivot(index="list", columns="metric", values="mean").reindex(lists)
    sizes = s.drop_duplicates("list").set_index("list")["size"].reindex(lists)
    sizes = sizes.fillna(pd.Series({name: n for name, (n, _) in unscored.items()}, dtype=float))
    pv = pvalues[pvalues["embedding"] == embedding].set_index("list").reindex(lists)
    names = [f"{name} (not scored)" if for_people and name in unscored else name
             for name in lists]  # fmt: skip
    out = pd.DataFrame({"list": names, "Size": sizes.astype("Int64").to_numpy()})
    for m in METRICS:
        out[HEADERS[m]] = wide[m].to_numpy()
    adjustment = pv["adjustment"].dropna()
    label = f"p ({adjustment.iloc[0]})" if len(adjustment) else "p (adjusted)"
    raw, adj, floor = (pv[c].to_numpy(dtype=float) for c in ("p_value", "p_adjusted", "p_floor"))
    if for_people:
        at_floor = raw <= floor * (1 + 1e-9)
        out["p"] = [format_pvalue(p, f) for p, f in zip(raw, floor, strict=True)]
        out[label] = [format_pvalue(p, from_floor=a) for p, a in zip(adj, at_floor, strict=True)]
        # beyond every random list and beyond where the tail estimate holds: say so, and
        # the z column gives the distance
        beyond = pv["n_null_ge"].to_numpy(dtype=float) == 0
        out["p tail (GPD)"] = [
            f"{t:.1e}" if np.isfinite(t) else ("beyond the null" if b else "")
            for t, b in zip(pv["p_tail"].to_numpy(dtype=float), beyond, strict=True)
        ]
    else:
        out["p"], out[label], out["p tail (GPD)"] = raw, adj, pv["p_tail"].to_numpy()
    out["z (null SD)"] = pv["null_z"].to_numpy(dtype=float)
    out[detectable_header(pv)] = pv["auc_detectable"].to_numpy(dtype=float)
    if bounds is not None:
        b = bounds[bounds["embedding"] == embedding].set_index("list").reindex(lists)
        low, high = b["auc_low"].to_numpy(dtype=float), b["auc_high"].to_numpy(dtype=float)
        level = next(iter(b["confidence"].dropna()), float("nan"))
        if for_people:
            out[f"AUC bounds ({level:.0%} each)"] = [
                f"{lo:.3f}-{hi:.3f}" if np.isfinite(hi) else ""
                for lo, hi in zip(low, high, strict=True)
            ]
        else:
            out["AUC low"], out["AUC high"] = low, high
    if codelength is not None:
        cl = codelength[codelength["embedding"] == embedding]
        for source, header in (("list", "compression"), ("null", "null compression")):
            part = cl[cl["source"] == source].set_index("list")["compression"]
            out[header] = part.reindex(lists).to_numpy(dtype=float)
    if not for_people:
        out["not scored"] = [unscored[name][1] if name in unscored else "" for name in lists]
    rr = random_rows[(random_rows["embedding"] == embedding) & (random_rows["size"] == size)]
    for row in ("random(max)", "random(avg)"):
        vals = rr[rr["row"] == row].set_index("metric")["value"]
        rec = {"list": row, "Size": size}
        rec.update({HEADERS[m]: vals.get(m, np.nan) for m in METRICS})
        out = pd.concat([out, pd.DataFrame([rec])], ignore_index=True)
    return out


def unscored_by_embedding(coverage: pd.DataFrame | None) -> dict[str, dict[str, tuple[int, str]]]:
    """embedding -> list -> (its words in the space it is scored in, why it is not
    scored), from the coverage table's ``not_scored`` (schema ``coverage``)."""
    if coverage is None:
        return {}
    rows = coverage[coverage["not_scored"].fillna("") != ""]
    out: dict[str, dict[str, tuple[int, str]]] = {}
    for rec in rows.itertuples():
        out.setdefault(rec.embedding, {})[rec.list] = (int(rec.n_in_vocab), rec.not_scored)
    return out


def unscored_footer(
    unscored: dict[str, dict[str, tuple[int, str]]], embeddings: list[str], reasons: bool = False
) -> str:
    """The lines under a table that name the lists it has no numbers for, and on which
    embeddings (with ``reasons``, each list's reason): empty where every list is scored."""
    on: dict[str, list[str]] = {}
    for e in embeddings:
        for name in unscored.get(e, {}):
            on.setdefault(name, []).append(e)
    if not on:
        return ""
    if reasons:
        lines = [f"- {name}: {unscored[es[0]][name][1]}" for name, es in on.items()]
        return "Not scored (see results/tables/coverage.md):\n\n" + "\n".join(lines) + "\n\n"
    where = "; ".join(
        f"{name} ({words(unscored[es[0]][name][0])} in the vocabulary) on {', '.join(es)}"
        for name, es in on.items()
    )
    return (
        f"Not scored, too few of their words in the vocabulary (learnability.min_words): "
        f"{where}. See results/tables/coverage.md.\n"
    )


def detectable_header(pv: pd.DataFrame) -> str:
    """The smallest detectable AUC's column header, with the level and power it is at."""
    alpha = next(iter(pv["power_alpha"].dropna()), float("nan"))
    power = next(iter(pv["power"].dropna()), float("nan"))
    return f"detectable AUC (p <= {alpha:g}, power {power:.0%})"


def best_marks(t6: pd.DataFrame, embeddings: list[str], digits: int = 3):
    """(bold, italic) boolean frames over ``t6``'s cells: bold for the best embedding of
    each list (row), italics for the best list of each embedding (column), as in the
    paper's Table 6. Only list rows compete (not Mean, Median or the random rows); the
    comparison is on the printed, rounded values, so a printed tie marks every tied cell."""
    bold = pd.DataFrame(False, index=t6.index, columns=t6.columns)
    italic = bold.copy()
    rows = ~t6["list"].isin(SUMMARY_ROWS)
    shown = t6.loc[rows, embeddings].astype(float).round(digits)
    if shown.empty:
        return bold, italic
    bold.loc[rows, embeddings] = shown.eq(shown.max(axis=1), axis=0).to_numpy()
    italic.loc[rows, embeddings] = shown.eq(shown.max(axis=0), axis=1).to_numpy()
    return bold, italic


def wilcoxon_table(wilcoxon: pd.DataFrame) -> pd.DataFrame:
    """The pairwise tests for people: one row per pair of compared embeddings, tested once
    in the configured direction (A before B in ``compare.embeddings``), with W (the sum of
    positive ranks of A - B), n (non-zero differences), p, the matched-pairs rank-biserial
    effect size, the Holm-adjusted p, how p was computed, and how many pairs of the tested
    lists are nested (share more than half of the smaller list)."""
    return pd.DataFrame(
        {
            "units": wilcoxon["units"].to_numpy(),
            "A": wilcoxon["embedding_a"].to_numpy(),
            "B": wilcoxon["embedding_b"].to_numpy(),
            "lists": wilcoxon["n_lists"].to_numpy(),
            "n": wilcoxon["n"].to_numpy(),
            "W": wilcoxon["statistic"].to_numpy(),
            "p": wilcoxon["p_value"].to_numpy(),
            "r (rank-biserial)": wilcoxon["rank_biserial"].to_numpy(),
            "median A-B": wilcoxon["median_difference"].to_numpy(),
            "p (Holm)": wilcoxon["p_holm"].to_numpy(),
            "method": wilcoxon["method"].to_numpy(),
            "nested list pairs": wilcoxon["n_nested_pairs"].to_numpy(),
        }
    )


def overlap_report(overlap: pd.DataFrame, min_share: float = 0.1) -> str:
    """Markdown: the pairs of lists that share at least ``min_share`` of the smaller
    list's in-vocabulary members, largest first, per vocabulary they were resolved on
    (pairs are the same for every embedding of the shared vocabulary, so each is shown
    once), nested pairs (over half) marked."""

    lines = [
        "## Overlap between lists",
        "",
        "Shared in-vocabulary members as a share of the smaller list's. Lists that share "
        f"more than {OVERLAP_WARN:.0%} (nested: **yes**) are not independent units of the "
        "Wilcoxon tests (README, Statistics). Every pair is in `overlap.csv`.",
        "",
    ]
    if overlap.empty:
        return "\n".join([*lines, "No two lists.", ""])
    worst = overlap.groupby(["vocabulary", "list_a", "list_b"], as_index=False).agg(
        embeddings=("embedding", lambda e: ", ".join(sorted(set(e)))),
        n_a=("n_a", "max"),
        n_b=("n_b", "max"),
        n_shared=("n_shared", "max"),
        overlap=("overlap", "max"),
    )
    shown = worst[worst["overlap"] >= min_share].sort_values(
        ["overlap", "list_a", "list_b"], ascending=[False, True, True], kind="stable"
    )
    rest = int(((worst["overlap"] > 0) & (worst["overlap"] < min_share)).sum())
    if shown.empty:
        lines.append(f"No pair shares {min_share:.0%} or more.")
    else:
        table = shown.assign(nested=np.where(shown["overlap"] > OVERLAP_WARN, "**yes**", ""))
        lines.append(to_markdown(table.reset_index(drop=True)).rstrip("\n"))
    if rest:
        lines.append("")
        lines.append(f"{rest} more pairs share less than {min_share:.0%}.")
    return "\n".join(lines) + "\n"


def write_evaluation_tables(
    table: pd.DataFrame,
    tests: pd.DataFrame,
    correlation: pd.DataFrame,
    out,
    reports: dict[str, str],
) -> None:
    """The evaluations beside learnability (``out``: the rule's outputs): the comparison
    table in Markdown, CSV and LaTeX with one column group per evaluation, the paired
    tests and the rank correlations in Markdown and CSV, and each kind's own report
    (``reports``: kind -> Markdown, from its module's ``report``) as ``{kind}_md``."""
    title = "Embeddings on every evaluation (higher is better, except Mean Rank and error)"
    write_table_files(table, out.evaluations_md, out.evaluations_csv, title)
    tex = f"% {title}\n" + to_latex(table, group_sep=": ")
    write_text(tex, out.evaluations_tex)
    shown = tests[
        ["evaluation", "dataset", "section", "metric", "embedding_a", "embedding_b",
         "n_items", "value_a", "value_b", "difference", "ci_low", "ci_high", "p_value",
         "p_holm", "method"]
    ]  # fmt: skip
    write_table_files(
        shown, out.evaluation_tests_md, out.evaluation_tests_csv, "Paired tests (a better than b?)"
    )
    write_table_files(
        correlation,
        out.rank_correlation_md,
        out.rank_correlation_csv,
        "Rank correlation across the compared embeddings between measures",
    )
    for name, text in reports.items():
        write_text(text, getattr(out, f"{name}_md"))


def _list_table(rows: list[list[str]], widths: str = "auto") -> str:
    """A reStructuredText ``list-table`` (first row the header)."""
    lines = [".. list-table::", "   :header-rows: 1", f"   :widths: {widths}", ""]
    for row in rows:
        lines += [f"   * - {row[0] or '..'}"] + [f"     - {c or '..'}" for c in row[1:]]
    return "\n".join(lines) + "\n"


def headline_rst(
    t6: pd.DataFrame,
    pvalues: pd.DataFrame,
    wilcoxon: pd.DataFrame,
    embeddings: list[str],
    lists: list[str],
    negatives: str,
) -> str:
    """The report's opening (reStructuredText, included by ``workflow/report/
    workflow.rst``): each list's mean AUC per embedding with its adjusted p-value against
    random lists of its size, and the Wilcoxon comparisons, by units."""
    adjustment = next(iter(pvalues["adjustment"].dropna()), "adjusted")
    pv = pvalues.set_index(["list", "embedding"])
    rows = [["list", *embeddings]]
    for _, row in t6.iterrows():
        cells = [str(row["list"])]
        for e in embeddings:
            text = format_value(row[e])
            if row["list"] in lists and (row["list"], e) in pv.index:
                r = pv.loc[(row["list"], e)]
                at_floor = float(r["p_value"]) <= float(r["p_floor"]) * (1 + 1e-9)
                text += f" ({format_pvalue(float(r['p_adjusted']), from_floor=at_floor)})"
            cells.append(text)
        rows.append(cells)
    parts = [
        f".. rubric:: Mean AUC per list and embedding ({negatives} non-members); in "
        f"brackets, the p-value against random lists of the list's size ({adjustment} "
        "across the lists)\n",
        _list_table(rows),
    ]
    if len(wilcoxon):
        tests = [["units", "A > B", "lists", "W", "p", "p (Holm)"]]
        for r in wilcoxon.itertuples():
            tests.append(
                [str(r.units), f"{r.embedding_a} > {r.embedding_b}", str(r.n_lists),
                 format_value(r.statistic), format_value(r.p_value), format_value(r.p_holm)]
            )  # fmt: skip
        parts += [
            ".. rubric:: Wilcoxon signed-rank tests over the per-list mean AUCs (Holm over "
            "the pairs, within each units)\n",
            _list_table(tests),
        ]
    return "\n".join(parts)


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
    codelength: pd.DataFrame | None = None,
    bounds: pd.DataFrame | None = None,
    headline_footer: str | None = None,
    coverage: pd.DataFrame | None = None,
) -> None:
    """Write the tables of one negatives scheme (keys of ``out``: ``table6_md``, ...);
    with ``codelength``, the learnability tables show each list's compression;
    ``headline_footer`` (reStructuredText) ends the report's headline."""

    def scheme(df: pd.DataFrame) -> pd.DataFrame:
        return df[df["negatives"] == negatives]

    summary, random_rows = scheme(summary), scheme(random_rows)
    pvalues, wilcoxon = scheme(pvalues), scheme(wilcoxon)
    codelength = None if codelength is None else scheme(codelength)
    bounds = None if bounds is None else scheme(bounds)
    note = f" ({negatives} non-members)"
    unscored = unscored_by_embedding(coverage)
    t6 = table6(summary, random_rows, embeddings, lists, size)
    bold, italic = best_marks(t6, embeddings)
    write_table_files(
        t6,
        out["table6_md"],
        out["table6_csv"],
        title="Mean AUC per list and embedding (layout of the paper's Table 6; bold: best "
        "embedding for the list, italics: best list for the embedding)" + note,
        tex_path=out.get("table6_tex"),
        bold=bold,
        italic=italic,
        footer=unscored_footer(unscored, embeddings),
    )
    parts = [
        embedding_table(
            summary,
            random_rows,
            pvalues,
            e,
            lists,
            size,
            for_people=True,
            codelength=codelength,
            bounds=bounds,
            unscored=unscored.get(e),
        )  # fmt: skip
        for e in embeddings
    ]
    numbers = [
        embedding_table(
            summary,
            random_rows,
            pvalues,
            e,
            lists,
            size,
            codelength=codelength,
            bounds=bounds,
            unscored=unscored.get(e),
        )  # fmt: skip
        for e in embeddings
    ]
    write_text(
        "".join(
            f"## {e}{note}\n\n{to_markdown(t)}\n{unscored_footer(unscored, [e], reasons=True)}"
            for e, t in zip(embeddings, parts, strict=True)
        ),
        out["learnability_md"],
    )
    if "learnability_tex" in out:
        write_text(
            "".join(
                f"% {e}{note}\n{to_latex(t, rule_before=RANDOM_ROWS)}\n"
                for e, t in zip(embeddings, parts, strict=True)
            ),
            out["learnability_tex"],
        )
    long = pd.concat([t.assign(embedding=e) for e, t in zip(embeddings, numbers, strict=True)])
    with atomic_path(out["learnability_csv"]) as tmp:
        long.to_csv(tmp, index=False)
    vocab = ", ".join(sorted(set(wilcoxon["vocabulary"].dropna())))
    alternative = set(wilcoxon["alternative"].dropna())
    h1 = {"greater": "one-sided, H1: A > B", "less": "one-sided, H1: A < B"}.get(
        next(iter(alternative), ""), "two-sided"
    )
    nested = wilcoxon[wilcoxon["n_nested_pairs"] > 0]
    warning = (
        f"**Warning**: {int(nested['n_nested_pairs'].max())} pairs of the tested lists "
        "share more than half of the smaller list (largest overlap "
        f"{float(nested['max_overlap'].max()):.0%}; `results/tables/coverage.md`). The test "
        "counts each list as an independent unit, which nested lists are not: their "
        "differences tend to agree in sign, so p is smaller than the evidence supports. "
        "The rows over `leaves` (the lists that contain no other) and `clusters` (the mean "
        "of each group of nested lists) test disjoint units.\n"
        if len(nested)
        else ""
    )
    write_table_files(
        wilcoxon_table(wilcoxon),
        out["wilcoxon_md"],
        title=f"Wilcoxon signed-rank tests on per-list mean AUC ({h1}; each pair once, "
        f"Holm over the pairs; {vocab or 'own'} vocabulary)" + note,
        tex_path=out.get("wilcoxon_tex"),
        footer=warning,
    )
    with atomic_path(out["wilcoxon_csv"]) as tmp:
        wilcoxon.drop(columns="negatives").to_csv(tmp, index=False)
    if "headline" in out:
        headline = headline_rst(t6, pvalues, wilcoxon, embeddings, lists, negatives)
        write_text(headline + ("\n" + headline_footer if headline_footer else ""), out["headline"])
    if members is not None:
        write_table_files(
            member_extremes(scheme(members)),
            out["members_md"],
            out["members_csv"],
            title="Strongest and weakest members: mean share of held-out non-members "
            "each outscores" + note,
        )

"""A sweep's tables for people (learnability.statistics.sweeps computes them): the
points with their mean AUCs and bands, the Wilcoxon tests per setting, and the verdicts
and spread across seeds of a seed sweep."""

from __future__ import annotations

import pandas as pd

from learnability.io import atomic_path
from learnability.reports.formats import to_latex, to_markdown, write_text
from learnability.reports.tables import wilcoxon_table


def sweep_wilcoxon_table(wilcoxon: pd.DataFrame) -> pd.DataFrame:
    """A sweep's tests for people: :func:`wilcoxon_table` per setting, with the Holm
    adjustment over every test of the sweep beside the one over the setting's pairs."""
    if wilcoxon.empty:
        return pd.DataFrame()
    table = wilcoxon_table(wilcoxon).drop(columns=["nested list pairs"])
    table.insert(0, "non-members", wilcoxon["negatives"].to_numpy())
    table.insert(0, "setting", wilcoxon["setting"].to_numpy())
    table["p (Holm, sweep)"] = wilcoxon["p_holm_sweep"].to_numpy()
    return table


def seed_verdicts(tests: pd.DataFrame) -> pd.DataFrame:
    """One row per (scheme, units, pair): p at each seed, over the seeds' mean AUCs, and
    whether p < 0.05 at every seed."""
    wide = tests.pivot_table(
        index=["negatives", "units", "embedding_a", "embedding_b"], columns="seed",
        values="p_value", sort=False,
    )  # fmt: skip
    seeds = [c for c in wide.columns if c != "mean"]
    wide = wide[[*seeds, "mean"]].rename(columns=lambda c: f"p ({c})")
    every = tests.groupby(["negatives", "units", "embedding_a", "embedding_b"], sort=False)
    wide["p < 0.05 at every seed"] = every["every_seed"].first()
    return wide.reset_index().rename(
        columns={"negatives": "non-members", "embedding_a": "A", "embedding_b": "B"}
    )


def seed_spread_table(spread: pd.DataFrame) -> pd.DataFrame:
    return spread.rename(
        columns={"negatives": "non-members", "auc": "mean AUC", "seed_sd": "SD across seeds",
                 "split_sd": "split SD", "split_se": "split SE of the mean",
                 "seed_to_split": "seed SD / split SE"}
    )  # fmt: skip


def write_sweep_tables(
    points: pd.DataFrame,
    wilcoxon: pd.DataFrame,
    *,
    sweep: str,
    corpus: str,
    level: float,
    out: dict[str, str],
    seed_tests: pd.DataFrame | None = None,
    seed_spread: pd.DataFrame | None = None,
) -> None:
    """``results/tables/sweeps/{sweep}.md`` (per scheme: the mean AUC of each setting and
    method with its bootstrap band, then the tests; for a sweep over the training seed,
    the verdicts seed by seed and the lists' seed SDs), and the CSV/LaTeX beside it."""
    parts = [f"# Sweep {sweep} (corpus {corpus})", ""]
    for scheme in dict.fromkeys(points["negatives"]):
        n_lists = int(points.loc[points["negatives"] == scheme, "n_lists"].max())
        parts += [
            f"## Mean ROC AUC over {n_lists} lists, {scheme} non-members "
            f"[{level:.0%} bootstrap band over iterations]",
            "",
            to_markdown(points_table(points, scheme)),
        ]
    tests = sweep_wilcoxon_table(wilcoxon)
    if not tests.empty:
        parts += [
            "## Wilcoxon signed-rank tests over lists at each setting",
            "",
            "Each pair once, in the sweep's order of embeddings (A before B). p (Holm) "
            "adjusts over the pairs at one setting, p (Holm, sweep) over every test of the "
            "sweep and scheme.",
            "",
            to_markdown(tests),
        ]
    if seed_tests is not None and len(seed_tests):
        parts += ["## Does the verdict survive a new training seed?", "", to_markdown(
            seed_verdicts(seed_tests)), "", "Each list's mean AUC: its SD across seeds "
            "beside the split noise of its mean (split SD / sqrt(iterations))", "",
            to_markdown(seed_spread_table(seed_spread))]  # fmt: skip
    write_text("\n".join(parts), out["md"])
    with atomic_path(out["points_csv"]) as tmp:
        points.to_csv(tmp, index=False)
    with atomic_path(out["wilcoxon_csv"]) as tmp:
        tests.to_csv(tmp, index=False)
    write_text(
        to_latex(tests) if not tests.empty else "% no tests: one method\n", out["wilcoxon_tex"]
    )


def points_table(points: pd.DataFrame, negatives: str) -> pd.DataFrame:
    """For people: one row per setting, a column per method: mean AUC [band]."""
    part = points[points["negatives"] == negatives]
    cells = part.assign(
        cell=[
            f"{a:.3f} [{lo:.3f}, {hi:.3f}]"
            for a, lo, hi in zip(part["auc"], part["ci_low"], part["ci_high"], strict=True)
        ]
    )
    table = cells.pivot(index="setting", columns="method", values="cell")
    table = table.reindex(
        index=list(dict.fromkeys(part["setting"])), columns=list(dict.fromkeys(part["method"]))
    )
    return table.reset_index()

"""How much of list B is list A: A erased by LEACE, B rescored with its own splits, for
every ordered pair (:mod:`learnability.diagnostics.entanglement`). Its cost grows with
the square of the list count."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pandas as pd

from learnability.analyses.registry import Analysis, Lists, Report, Setting


def entanglement(lists: Lists, settings: Mapping[str, Any]) -> pd.DataFrame:
    """Every ordered pair's entanglement (schema ``entanglement``)."""
    from learnability.diagnostics.entanglement import entanglement as entangle

    protocol = replace(lists.protocol, iterations=settings["entanglement_iterations"])
    return entangle(lists.vectors, lists.members, protocol, bins=lists.bins,
                    embedding=lists.embedding)  # fmt: skip


def write_report(table: pd.DataFrame, lists: Sequence[str], embeddings: Sequence[str],
                 out: Any, title: str) -> None:  # fmt: skip
    from learnability.reports import plots
    from learnability.reports.diagnostics_tables import write_entanglement

    heading = "Entanglement: the share of B's AUC above chance that erasing A removes"
    write_entanglement(table, lists, embeddings, out.md, out.csv, heading)
    plots.save(plots.entanglement_figure(table, lists, embeddings, title), out.png, out.svg,
               out.pdf)  # fmt: skip


def _describe(table: pd.DataFrame) -> str:
    off = table[table["list_a"] != table["list_b"]].nlargest(5, "share")
    return "\n" + off[["list_a", "list_b", "auc_before", "auc_after", "share"]].to_string()


ANALYSIS = Analysis(
    name="entanglement",
    summary="how much of each list B is each list A: the share of B's AUC above chance "
    "that erasing A (LEACE) removes",
    output="results/diagnostics/{embedding}/{negatives}/entanglement.parquet",
    table="entanglement",
    run=entanglement,
    enabled=lambda s: s["entanglement_iterations"] > 0,
    settings=(
        Setting(
            "entanglement_iterations",
            "entanglement.iterations",
            "splits per pair of lists for their entanglement (LEACE) (0: none)",
            "--entanglement-iterations",
        ),  # fmt: skip
    ),
    scope="pairs",
    report=Report(
        write=write_report,
        category="Entanglement",
        formats=("md", "csv"),
        plot="Entanglement: erasing list A (LEACE), list B's AUC above chance lost",
    ),
    describe=_describe,
)

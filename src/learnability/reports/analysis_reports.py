"""The report writers of the analyses (:mod:`learnability.analyses.registry`), by
analysis name: ``write(table, lists, embeddings, out, title)`` writes the tables and the
figure its :class:`~learnability.analyses.base.Report` names. They live here, not beside
each analysis, so that the analysis jobs do not run (nor rerun for) the report code."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from learnability.io import atomic_path
from learnability.reports.analysis_tables import (
    suggestions_markdown,
    words_needed_markdown,
    write_check,
)
from learnability.reports.analysis_tables import write_entanglement as write_tables
from learnability.reports.formats import write_text


def write_suggestions(table: pd.DataFrame, lists: Sequence[str], embeddings: Sequence[str],
                      out: Any, title: str) -> None:  # fmt: skip

    write_text(f"## Suggested additions\n\n{suggestions_markdown(table, lists)}", out.md)


def write_suggestion_check(table: pd.DataFrame, lists: Sequence[str],
                           embeddings: Sequence[str], out: Any, title: str) -> None:  # fmt: skip

    write_check(table, lists, out.md, out.csv, out.tex, "Suggested additions: held-out recall@k")


def write_entanglement(table: pd.DataFrame, lists: Sequence[str], embeddings: Sequence[str],
                       out: Any, title: str) -> None:  # fmt: skip
    from learnability.reports import plots

    heading = "Entanglement: the share of B's AUC above chance that erasing A removes"
    write_tables(table, lists, embeddings, out.md, out.csv, heading)
    plots.save(plots.entanglement_figure(table, lists, embeddings, title), out.png, out.svg,
               out.pdf)  # fmt: skip


def write_words_needed(table: pd.DataFrame, lists: Sequence[str], embeddings: Sequence[str],
                       out: Any, title: str) -> None:  # fmt: skip
    from learnability.reports import plots

    write_text(f"## How many words each list needs\n\n{words_needed_markdown(table, lists)}",
               out.md)  # fmt: skip
    with atomic_path(out.csv) as tmp:
        table.to_csv(tmp, index=False)
    plots.save(plots.words_needed_figure(table, lists, title), out.png, out.svg, out.pdf)


WRITERS: dict[str, Callable[..., None]] = {
    "suggestions": write_suggestions,
    "suggestion_check": write_suggestion_check,
    "entanglement": write_entanglement,
    "words_needed": write_words_needed,
}

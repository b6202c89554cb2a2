"""What each list may be missing: the vocabulary words outside it that its own split
classifiers (the learnability jobs') score highest
(:mod:`learnability.diagnostics.suggestions`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from learnability.analyses.registry import Analysis, Lists, Report, Setting


def suggestions(lists: Lists, settings: Mapping[str, Any]) -> pd.DataFrame:
    """Every list's top suggestions (schema ``suggestions``)."""
    from learnability.diagnostics.suggestions import suggestions as suggest

    if lists.coefficients is None:
        raise ValueError("suggestions read the lists' split classifiers: none were given")
    return pd.concat(
        [
            suggest(
                lists.vectors, lists.coefficients[name], members, top=settings["suggestions"],
                words=lists.words, counts=lists.counts, list_name=name,
                embedding=lists.embedding, negatives=lists.negatives,
            )
            for name, members in lists.each("suggestions")
        ],
        ignore_index=True,
    )  # fmt: skip


def write_report(table: pd.DataFrame, lists: Sequence[str], embeddings: Sequence[str],
                 out: Any, title: str) -> None:  # fmt: skip
    from learnability.reports.diagnostics_tables import suggestions_markdown
    from learnability.reports.formats import write_text

    write_text(f"## Suggested additions\n\n{suggestions_markdown(table, lists)}", out.md)


def _describe(table: pd.DataFrame) -> str:
    return "; ".join(
        f"{name}: {', '.join(g['word'].head(10))}" for name, g in table.groupby("list", sort=False)
    )


ANALYSIS = Analysis(
    name="suggestions",
    summary="the words outside each list that its own classifiers score highest",
    output="results/diagnostics/{embedding}/{negatives}/suggestions.parquet",
    table="suggestions",
    run=suggestions,
    enabled=lambda s: s["suggestions"] > 0,
    settings=(
        Setting(
            "suggestions",
            "suggestions.top",
            "words outside each list that its classifiers score highest (0: none)",
            "--suggestions",
        ),  # fmt: skip
    ),
    fits=False,
    coefficients=True,
    report=Report(write=write_report, category="Suggestions"),
    describe=_describe,
)

"""The suggestions' held-out check: each fold of a list's members is hidden in turn, the
protocol runs on the rest, and the recall@k of the hidden members is set beside random
words' of their frequency (:func:`learnability.diagnostics.suggestions.suggestion_check`)."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pandas as pd

from learnability.analyses.registry import Analysis, Lists, Report, Setting

log = logging.getLogger(__name__)


def suggestion_check(lists: Lists, settings: Mapping[str, Any]) -> pd.DataFrame:
    """Every list's recall@k rows (schema ``suggestion_check``); a list with too few
    members to hide a fold and still fit gets rows saying so."""
    from learnability.diagnostics.suggestions import checkable, unchecked
    from learnability.diagnostics.suggestions import suggestion_check as check

    s = settings
    protocol = replace(lists.protocol, iterations=s["check_iterations"])
    tables = []
    for name, members in lists.each("suggestion check"):
        common = dict(list_name=name, embedding=lists.embedding, folds=s["check_folds"],
                      holdout=s["check_holdout"])  # fmt: skip
        if checkable(members.size, s["check_holdout"], lists.min_words) < lists.min_words:
            log.warning("%s: suggestions not checked: too few members to hide a fold", name)
            tables.append(
                unchecked(
                    negatives=lists.negatives,
                    size=members.size,
                    ks=s["check_k"],
                    iterations=s["check_iterations"],
                    min_words=lists.min_words,
                    **common,
                )  # fmt: skip
            )
            continue
        tables.append(
            check(
                lists.vectors,
                members,
                protocol,
                bins=lists.baseline_bins,
                ks=s["check_k"],
                **common,
            )  # fmt: skip
        )
    return pd.concat(tables, ignore_index=True)


def write_report(table: pd.DataFrame, lists: Sequence[str], embeddings: Sequence[str],
                 out: Any, title: str) -> None:  # fmt: skip
    from learnability.reports.diagnostics_tables import write_check

    write_check(table, lists, out.md, out.csv, out.tex, "Suggested additions: held-out recall@k")


def _describe(table: pd.DataFrame) -> str:
    last = table.groupby("list", sort=False).tail(1)
    return "; ".join(
        f"{r.list}: recall@{r.k} {r.recall:.3f} (baseline {r.baseline_recall:.3f})"
        for r in last.itertuples()
    )


ANALYSIS = Analysis(
    name="suggestion_check",
    summary="the suggestions' held-out check: recall@k of hidden members beside random "
    "words of their frequency",
    output="results/diagnostics/{embedding}/{negatives}/suggestion_check.parquet",
    table="suggestion_check",
    run=suggestion_check,
    # the held-out check ranks suggestions: without them it has nothing to check
    enabled=lambda s: s["check_folds"] > 0,
    settings=(
        Setting(
            "check_folds",
            "suggestions.check.folds",
            "folds of the members hidden in turn to check the suggestions (0: no check)",
            "--check-folds",
        ),  # fmt: skip
        Setting(
            "check_holdout", "suggestions.check.holdout", "share of the members hidden in one fold"
        ),  # fmt: skip
        Setting("check_iterations", "suggestions.check.iterations", "splits fitted per fold"),
        Setting(
            "check_k", "suggestions.check.k", "suggestions searched for the hidden members"
        ),  # fmt: skip
    ),
    baseline_bins=True,
    report=Report(
        write=write_report, category="Suggestions", formats=("md", "csv", "tex"), shown="csv"
    ),  # fmt: skip
    describe=_describe,
)

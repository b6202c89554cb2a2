"""The intrinsic evaluations beside learnability (docs/explanation/evaluations.md), one module per
kind (multi-answer similarity, analogies, word pairs, hierarchy, pseudo-disambiguation,
and the nearest-neighbour search they share), the registry of kinds
(:mod:`.registry`), and the summary across them (:mod:`.summary`: one long ``scores``
table, paired tests between embeddings, rank correlations, the comparison table).

``from learnability import evaluations as ev`` gives the summary's functions; the kinds
are ``learnability.evaluations.<module>``. Importing this package does not import the
kinds' modules, nor the summary until it is used."""

import importlib

from learnability.evaluations.registry import KINDS, SCORE_COLUMNS

_SUMMARY = (
    "HEADLINE", "TEST_COLUMNS", "compare_evaluations", "comparison_table", "headline",
    "learnability_columns", "rank_correlations", "scores", "summary",
)  # fmt: skip
__all__ = ["KINDS", "SCORE_COLUMNS", *_SUMMARY]


def __getattr__(name: str):
    # the summary (pandas, scipy) loads on first use: Snakemake reads the registry while
    # it builds the DAG, through this package
    if name in _SUMMARY:
        summary = importlib.import_module(f"{__name__}.summary")
        return summary if name == "summary" else getattr(summary, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

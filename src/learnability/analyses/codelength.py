"""How fast each list is learned: its online codelength in bits beside random lists' of
its size (:mod:`learnability.protocol.codelength`); the codelength columns of the
learnability tables come from this table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pandas as pd

from learnability.analyses.registry import Analysis, Lists, Setting


def codelength(lists: Lists, settings: Mapping[str, Any]) -> pd.DataFrame:
    """Every list's codelength rows (schema ``codelength``)."""
    # deferred, as in every analysis module: the fitting code imports numba, which the
    # workflow's head process (it reads the registry to make the rules) does not need
    from learnability.protocol.codelength import codelength_rows

    # one random order per fit: the protocol's iterations are not used
    protocol = replace(lists.protocol, iterations=1)
    return pd.concat(
        [
            codelength_rows(
                lists.vectors, members, protocol, fractions=list(settings["codelength_fractions"]),
                orders=settings["codelength_orders"],
                null_lists=settings["codelength_null_lists"], list_name=name,
                embedding=lists.embedding, bins=lists.bins, min_words=lists.min_words,
            )
            for name, members in lists.each("codelength")
        ],
        ignore_index=True,
    )  # fmt: skip


def _describe(table: pd.DataFrame) -> str:
    return "\n" + table[["list", "source", "bits_mean", "compression"]].to_string(index=False)


ANALYSIS = Analysis(
    name="codelength",
    summary="each list's online codelength (bits) and its compression, beside random "
    "lists of its size",
    output="results/codelength/{embedding}/{negatives}.parquet",
    table="codelength",
    run=codelength,
    enabled=lambda s: s["codelength_orders"] > 0,
    switch="codelength.enabled",
    settings=(
        Setting("codelength_orders", "codelength.orders", "random orders averaged (0: none)"),
        Setting(
            "codelength_null_lists",
            "codelength.null_lists",
            "random lists of each list's size, one order each",
        ),  # fmt: skip
        Setting(
            "codelength_fractions",
            "codelength.fractions",
            "block ends as fractions of the member / non-member pairs",
        ),  # fmt: skip
    ),
    describe=_describe,
)

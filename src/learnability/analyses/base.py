"""What an analysis is: its settings, its report, its entry in the registry
(:mod:`learnability.analyses.registry`) and the :class:`Lists` it reads.

Kept apart from the registry so that each analysis module can import these while the
registry imports every analysis module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from learnability.defaults import default
from learnability.progress import Progress


@dataclass(frozen=True)
class Setting:
    """One setting of an analysis: ``key`` is score()'s keyword and the key of the
    settings mapping its function reads, ``config`` the dotted workflow config key whose
    schema default is its default, ``flag`` the ``learnability evaluate`` option (None:
    not on the command line), ``choices`` its values where the schema gives an enum (a
    test keeps the two equal)."""

    key: str
    config: str
    help: str
    flag: str | None = None
    choices: tuple[str, ...] | None = None

    @property
    def default(self) -> Any:
        value = default(self.config)
        return tuple(value) if isinstance(value, list) else value


@dataclass(frozen=True)
class Report:
    """An analysis' report job: its tables in ``formats`` under
    results/tables/NEGATIVES/NAME, the ``shown`` one in the HTML report with the caption
    workflow/report/NAME.rst, a figure (PNG, SVG, PDF) under results/plots when ``plot``
    is a title. Its writer, ``write(table, lists, embeddings, out, title)``, is the
    analysis' entry in :data:`learnability.reports.analysis_reports.WRITERS`: presentation
    lives apart from the computation, so that a change to a table's layout or a figure
    reruns the report job and not the analysis (:mod:`learnability.codedigest`)."""

    category: str
    formats: tuple[str, ...] = ("md",)
    shown: str | None = None
    plot: str | None = None


@dataclass(frozen=True)
class Analysis:
    """One analysis over the lists of one embedding and negatives scheme.

    ``run(lists, settings)`` returns its table (schema ``table``); ``enabled(settings)``
    says whether a run has it; ``switch`` is a boolean config key that must also be true
    in the workflow. ``scope`` is how its cost grows: ``lists`` (linearly in the lists)
    or ``pairs`` (every ordered pair: the square). ``fits``: it fits classifiers (the
    job gets the fitting threads, memory and protocol params); ``coefficients``: it reads
    the learnability jobs' split classifiers; ``baseline_bins``: it draws a baseline
    matched to frequency whatever the scheme. What its job costs is the workflow's
    (:func:`learnability.pipeline.resources.analysis_seconds`, by its name)."""

    name: str
    summary: str
    output: str
    table: str
    run: Callable[[Lists, Mapping[str, Any]], pd.DataFrame]
    enabled: Callable[[Mapping[str, Any]], bool]
    settings: tuple[Setting, ...] = ()
    scope: str = "lists"
    switch: str | None = None
    fits: bool = True
    coefficients: bool = False
    nulls: bool = False
    baseline_bins: bool = False
    report: Report | None = None
    describe: Callable[[pd.DataFrame], str] = field(default=lambda table: f"{len(table)} rows")

    def defaults(self) -> dict[str, Any]:
        return {s.key: s.default for s in self.settings}

    def from_config(self, config: Mapping[str, Any]) -> dict[str, Any]:
        """Its settings from a validated workflow config (defaults filled in)."""
        out = {}
        for s in self.settings:
            node: Any = config
            for part in s.config.split("."):
                node = node[part]
            out[s.key] = node
        return out

    def on_in(self, config: Mapping[str, Any]) -> bool:
        """Whether a workflow config runs it."""
        switch = True
        if self.switch is not None:
            node: Any = config
            for part in self.switch.split("."):
                node = node[part]
            switch = bool(node)
        return switch and self.enabled(self.from_config(config))


@dataclass(frozen=True)
class NullSpec:
    """How the run scores its random lists and compares a list with them: ``lists``
    random lists of ``iterations`` splits each, drawn from ``seed``, compared with a
    list's mean over ``list_iterations`` splits by ``method``
    (:func:`learnability.statistics.significance.comparison_null`); an analysis that
    tests lists of other sizes (:mod:`learnability.analyses.words_needed`) tests them
    so."""

    lists: int
    iterations: int
    seed: int
    method: str
    list_iterations: int


@dataclass(frozen=True)
class Lists:
    """What every analysis reads: one embedding's vectors, each scored list's member rows
    (name -> rows, in list order), the protocol of its learnability jobs (its
    ``min_words`` too; None for an analysis that fits nothing), the frequency
    bins of its negatives scheme (None: uniform) and, where asked for, those of a
    frequency-matched baseline, the lists' split classifiers and the run's null
    settings."""

    vectors: np.ndarray
    members: Mapping[str, np.ndarray]
    protocol: Any
    embedding: str
    negatives: str
    words: Sequence[str]
    counts: np.ndarray | None
    bins: np.ndarray | None = None
    baseline_bins: np.ndarray | None = None
    coefficients: Mapping[str, np.ndarray] | None = None
    nulls: NullSpec | None = None

    def each(self, what: str) -> Iterator[tuple[str, np.ndarray]]:
        """Every list's (name, members), with one progress line for ``what`` (rate, ETA)."""
        progress = Progress(what, len(self.members), unit="lists", every=10.0)
        for name, rows in self.members.items():
            yield name, rows
            progress.update(1)
        progress.finish()

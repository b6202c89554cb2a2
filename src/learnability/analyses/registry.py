"""The registry of analyses over a set of lists on one embedding.

Each analysis is one module of this package holding a pure function of a :class:`Lists`
(the embedding's vectors, every scored list's member rows, the protocol, the frequency
bins) and its settings, and an :class:`Analysis` entry naming its config keys, output
table (a schema in :mod:`learnability.schemas`), output path, resource shape and report.
From :data:`ANALYSES`:

- the workflow makes one rule per analysis (``workflow/rules/analyses.smk``), all running
  ``workflow/scripts/analysis.py``, and one report rule per analysis with a report;
- :func:`learnability.score` runs every enabled analysis on the lists it scored, in
  registry order, with the same function and the same :class:`Lists`;
- ``learnability evaluate`` gets a flag per setting that has one;
- ``docs/reference/analyses.md`` lists them (``make docs``).

A new analysis is its module (with ``ANALYSIS``), its line in :data:`MODULES` and its
table's schema block; a config block in ``config.schema.yaml`` if it has settings.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from learnability.defaults import default
from learnability.logs import Progress

# the modules holding one ANALYSIS each, in the order score() runs them
MODULES = ("codelength", "suggestions", "suggestion_check", "entanglement")
SCOPES = ("lists", "pairs")


@dataclass(frozen=True)
class Setting:
    """One setting of an analysis: ``key`` is score()'s keyword and the key of the
    settings mapping its function reads, ``config`` the dotted workflow config key whose
    schema default is its default, ``flag`` the ``learnability evaluate`` option (None:
    not on the command line)."""

    key: str
    config: str
    help: str
    flag: str | None = None

    @property
    def default(self) -> Any:
        value = default(self.config)
        return tuple(value) if isinstance(value, list) else value


@dataclass(frozen=True)
class Report:
    """An analysis' report job: its tables in ``formats`` under
    results/tables/NEGATIVES/NAME, the ``shown`` one in the HTML report with the caption
    workflow/report/NAME.rst, a figure (PNG, SVG, PDF) under results/plots when ``plot``
    is a title; ``write(table, lists, embeddings, out, title)`` writes them."""

    write: Callable[..., None]
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
    matched to frequency whatever the scheme."""

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
class Lists:
    """What every analysis reads: one embedding's vectors, each scored list's member rows
    (name -> rows, in list order), the protocol of its learnability jobs, the frequency
    bins of its negatives scheme (None: uniform) and, where asked for, those of a
    frequency-matched baseline and the lists' split classifiers."""

    vectors: np.ndarray
    members: Mapping[str, np.ndarray]
    protocol: Any
    embedding: str
    negatives: str
    words: Sequence[str]
    counts: np.ndarray | None
    min_words: int
    bins: np.ndarray | None = None
    baseline_bins: np.ndarray | None = None
    coefficients: Mapping[str, np.ndarray] | None = None

    def each(self, what: str) -> Iterator[tuple[str, np.ndarray]]:
        """Every list's (name, members), with one progress line for ``what`` (rate, ETA)."""
        progress = Progress(what, len(self.members), unit="lists", every=10.0)
        for name, rows in self.members.items():
            yield name, rows
            progress.update(1)
        progress.finish()


def _load() -> dict[str, Analysis]:
    found = {}
    for module in MODULES:
        analysis = importlib.import_module(f"learnability.analyses.{module}").ANALYSIS
        if analysis.scope not in SCOPES:
            raise ValueError(f"analysis {analysis.name}: scope {analysis.scope!r}")
        found[analysis.name] = analysis
    return found


ANALYSES: dict[str, Analysis] = _load()


def settings_keys() -> dict[str, Setting]:
    """Every analysis setting by its key (score()'s keywords)."""
    return {s.key: s for a in ANALYSES.values() for s in a.settings}


def settings_doc(indent: int = 4) -> str:
    """The analyses' settings as text (score()'s docstring): key, default, config key and
    what it does, analysis by analysis."""
    pad = " " * indent
    lines = []
    for a in ANALYSES.values():
        lines.append(f"{pad}{a.name}: {a.summary}")
        for s in a.settings:
            lines.append(f"{pad}    {s.key}={s.default!r} ({s.config}): {s.help}")
    return "\n".join(lines)


def analysis_settings(given: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Each analysis' settings: its defaults overridden by ``given`` (score()'s keywords);
    a KeyError naming the unknown key and the known ones."""
    known = settings_keys()
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise KeyError(
            f"unknown setting {unknown[0]!r}; the analyses' settings are {', '.join(known)}"
        )
    return {
        name: {**a.defaults(), **{k: v for k, v in given.items() if k in a.defaults()}}
        for name, a in ANALYSES.items()
    }

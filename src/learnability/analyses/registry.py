"""The registry of analyses over a set of lists on one embedding.

Each analysis is one module of this package holding a pure function of a
:class:`~learnability.analyses.base.Lists` (the embedding's vectors, every scored list's
member rows, the protocol, the frequency bins) and its settings, and an
:class:`~learnability.analyses.base.Analysis` entry naming its config keys, output table
(a schema in :mod:`learnability.schemas`), output path, resource shape and report.
From :data:`ANALYSES`:

- the workflow makes one rule per analysis (``workflow/rules/analyses.smk``), all running
  ``workflow/scripts/analysis.py``, and one report rule per analysis with a report;
- :func:`learnability.score` runs every enabled analysis on the lists it scored, in
  registry order, with the same function and the same lists;
- ``learnability evaluate`` gets a flag per setting that has one;
- ``docs/reference/analyses.md`` lists them (``make docs``).

A new analysis is its module (with ``ANALYSIS``), its line in :data:`ENTRIES` and its
table's schema block; a config block in ``config.schema.yaml`` if it has settings; with a
report, its writer in :data:`learnability.reports.analysis_reports.WRITERS`.

The table has the shape of every family's (:mod:`learnability.targets`): one line per
member naming its code as ``"module:attribute"``, imported when it is asked for. An
analysis' entry (its settings' config keys, its output, its ``enabled``) is held beside
its function, so that a job's code (its rule's ``analysis_code``) is its own analysis'
alone, its settings' keys included.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from learnability.analyses.base import Analysis, Setting
from learnability.targets import load, module_of

# each analysis' entry, in the order score() runs them; an analysis is named after its
# module
ENTRIES = (
    "learnability.analyses.codelength:ANALYSIS",
    "learnability.analyses.bounds:ANALYSIS",
    "learnability.analyses.words_needed:ANALYSIS",
    "learnability.analyses.suggestions:ANALYSIS",
    "learnability.analyses.suggestion_check:ANALYSIS",
    "learnability.analyses.entanglement:ANALYSIS",
)
SCOPES = ("lists", "pairs")


def _name(target: str) -> str:
    return module_of(target).rsplit(".", 1)[1]


def target(name: str) -> str:
    """The entry of analysis ``name`` as a ``"module:attribute"`` string (a workflow job's
    dispatch target: its rule's ``analysis_code``)."""
    for entry in ENTRIES:
        if _name(entry) == name:
            return entry
    raise KeyError(name)


def _load(name: str) -> Analysis:
    analysis = load(target(name))
    if analysis.name != name:
        raise ValueError(f"{target(name)} holds analysis {analysis.name!r}")
    if analysis.scope not in SCOPES:
        raise ValueError(f"analysis {analysis.name}: scope {analysis.scope!r}")
    return analysis


class Registry(Mapping[str, Analysis]):
    """Name -> analysis, in :data:`ENTRIES` order. An analysis' module is imported when
    its entry is first asked for: a workflow job runs one analysis and imports that one
    alone, so that an edit to another reruns nothing of it. Iterating imports them all,
    as score() and the workflow's rules do."""

    def __init__(self, entries: tuple[str, ...]):
        self._names = tuple(_name(e) for e in entries)
        self._entries: dict[str, Analysis] = {}

    def __getitem__(self, name: str) -> Analysis:
        if name not in self._names:
            raise KeyError(name)
        if name not in self._entries:
            self._entries[name] = _load(name)
        return self._entries[name]

    def __contains__(self, name: object) -> bool:
        return name in self._names

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __repr__(self) -> str:
        return f"Registry({', '.join(self._names)})"


ANALYSES: Mapping[str, Analysis] = Registry(ENTRIES)


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

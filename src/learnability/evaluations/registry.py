"""The intrinsic evaluations, one entry each: the per-embedding tables its job writes
and their columns, the module that holds its scorer, its paired tests between
embeddings, its headline number and its columns in the comparison table.
``common.smk`` (the summary's inputs), the config checks, ``docs/reference/outputs.md``
(generated from here and :mod:`learnability.schemas`, where the tables' columns are, by
``make docs``), the summary job and the tables read this table, and the workflow's rules
and their one script (``workflow/scripts/evaluate.py``) are generated from it: a new evaluation is
its module (with ``job`` and ``scores``), its entry here and its config schema block.

Import-light: Snakemake reads it while it builds the DAG."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

from learnability.schemas import (
    ANALOGY,
    HIERARCHY_EDGES,
    HIERARCHY_PARENTS,
    MULTI_ANSWER,
    PSEUDO,
    WORD_PAIRS,
    Table,
)
from learnability.targets import module_of

# the long `scores` table: one row per (embedding, evaluation, dataset, section, metric)
SCORE_COLUMNS = [
    "embedding", "evaluation", "dataset", "section", "metric", "value", "n_items", "n_oov",
]  # fmt: skip


def score_row(embedding, evaluation, dataset, section, metric, value, n_items, n_oov) -> dict:
    values = (embedding, evaluation, dataset, section, metric, float(value), int(n_items))
    return dict(zip(SCORE_COLUMNS, (*values, int(n_oov)), strict=True))


def warn_skipped(log, dataset: str, skipped: int, why: str = "") -> None:
    """A job's one line for the malformed lines a reader skipped (counted, never silent)."""
    if skipped:
        log.warning("%s: %d malformed lines skipped%s", dataset, skipped, why)


@dataclass(frozen=True)
class PairedTest:
    """One paired comparison of two embeddings on the items both answered: ``table``'s
    rows keyed by ``keys``, the item's value in ``value`` (one column; two for
    ``spearman``: gold, cosine), and the test: ``mean`` and ``spearman`` by paired
    bootstrap, ``wilcoxon`` by the signed-rank test, ``wilcoxon-by-section`` once per
    section."""

    metric: str
    table: str
    keys: tuple[str, ...]
    value: tuple[str, ...]
    test: str


@dataclass(frozen=True)
class Kind:
    """One evaluation. ``tables``: the tables its job writes, by name (each also a
    schema of :mod:`learnability.schemas`). ``target``'s module has ``job(embedding, files,
    settings, *, embedding, log) -> {table: DataFrame}`` (the workflow's job: ``files``
    are (path, dataset) pairs, the corpus for a kind that ``needs_corpus``; ``settings``
    its config block without ``files`` and ``enabled``, with ``case`` where it
    ``uses_case``), ``scores(tables) -> list[dict]`` (rows of ``SCORE_COLUMNS`` from the
    kind's tables), and, where the flags say so, ``paired_items(table)`` (the table its
    tests read) and ``extra_columns(scores)`` (comparison-table columns beyond
    ``columns``). ``headline``: (section, metric, sign), the one number per dataset that
    orders embeddings (sign -1: lower is better).
    ``columns``: (section, metric, label) picked into the comparison table. ``files``:
    it reads the evaluation files of ``evaluations.<name>.files`` and runs when there are
    some; otherwise it runs when ``evaluations.<name>.enabled``. ``needs_corpus``: it
    reads the corpus, so it runs only when one is built (an embedding is trained).
    ``report``: it has a Markdown report, ``results/tables/{name}.md``, captioned by
    ``workflow/report/{name}.rst``
    (:data:`learnability.reports.evaluation_reports.REPORTS`)."""

    name: str
    tables: dict[str, Table]
    # "module:job": the module that holds its functions, named by its job (a dispatch
    # target, learnability.targets: the rules add its code's digest, each evaluation's
    # jobs the code of their own)
    target: str
    tests: tuple[PairedTest, ...]
    headline: tuple[str, str, int]
    columns: tuple[tuple[str, str, str], ...]
    files: bool = True
    needs_corpus: bool = False
    paired_items: bool = False
    extra_columns: bool = False
    report: bool = False
    uses_case: bool = True

    def load(self) -> ModuleType:
        """Its module (``job``, ``scores`` and the hooks), imported on first use."""
        return importlib.import_module(module_of(self.target))


_QUESTION = ("section", "line")  # a query or question: its file's section and line
_ENTRIES = (
    Kind(
        "multi_answer",
        {"multi_answer": MULTI_ANSWER},
        "learnability.evaluations.multianswer:job",
        (PairedTest("accuracy", "multi_answer", _QUESTION, ("correct",), "mean"),),
        ("total", "accuracy", 1),
        (("total", "accuracy", "accuracy"), ("total", "oov_rate", "OOV rate")),
        report=True,
    ),
    Kind(
        "analogy",
        {"analogy": ANALOGY},
        "learnability.evaluations.analogy:job",
        (
            PairedTest("accuracy_3cosadd", "analogy", _QUESTION, ("correct_add",), "mean"),
            PairedTest("accuracy_3cosmul", "analogy", _QUESTION, ("correct_mul",), "mean"),
        ),
        ("total", "accuracy_3cosadd", 1),
        (("total", "accuracy_3cosadd", "3CosAdd"), ("total", "accuracy_3cosmul", "3CosMul")),
        report=True,
    ),
    Kind(
        "word_pairs",
        {"word_pairs": WORD_PAIRS},
        "learnability.evaluations.word_pairs:job",
        (PairedTest("spearman", "word_pairs", ("line",), ("gold", "cosine"), "spearman"),),
        ("total", "spearman", 1),
        (("total", "spearman", "Spearman"),),
    ),
    Kind(
        "hierarchy",
        {"hierarchy_edges": HIERARCHY_EDGES, "hierarchy_parents": HIERARCHY_PARENTS},
        "learnability.evaluations.hierarchy:job",
        (PairedTest("map", "hierarchy_parents", ("parent",), ("average_precision",), "wilcoxon"),),
        ("total", "map", 1),
        (("total", "mean_rank", "Mean Rank"), ("total", "map", "mAP")),
    ),
    Kind(
        "pseudo",
        {"pseudo": PSEUDO},
        "learnability.evaluations.pseudo:job",
        (PairedTest("accuracy", "pseudo", ("section", "fold"), ("accuracy",),
                    "wilcoxon-by-section"),),
        ("cosine", "error_rate", -1),
        (("cosine", "error_rate", "error (cosine)"),
         ("unigram", "error_rate", "error (unigram baseline)")),
        files=False,
        needs_corpus=True,
        paired_items=True,
        extra_columns=True,
        uses_case=False,
    ),
)  # fmt: skip
KINDS: dict[str, Kind] = {k.name: k for k in _ENTRIES}
FILE_KINDS = tuple(name for name, k in KINDS.items() if k.files)

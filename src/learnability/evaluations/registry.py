"""The intrinsic evaluations, one entry each: the per-embedding tables its job writes
and their columns, the module that holds its scorer, its paired tests between
embeddings, its headline number and its columns in the comparison table.
``common.smk`` (the summary's inputs), the config checks, :mod:`learnability.schemas`
(the tables' columns), ``docs/reference/outputs.md`` (generated from here by ``make docs``), the
summary job and the tables read this table, and the workflow's rules and their one
script (``workflow/scripts/evaluate.py``) are generated from it: a new evaluation is
its module (with ``job`` and ``scores``), its entry here and its config schema block.

Import-light: Snakemake reads it while it builds the DAG."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

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
class Table:
    """A per-embedding Parquet table of a kind, written to
    ``results/evaluations/{embedding}/{name}.parquet``: one row per ``row``, its columns
    as (name, pandas dtype, meaning)."""

    row: str
    columns: tuple[tuple[str, str, str], ...]


def table(row: str, spec: str) -> Table:
    """A :class:`Table` from one line per column, ``name  dtype  meaning``; an indented
    line goes on with the meaning above it."""
    columns: list[list[str]] = []
    for line in spec.strip("\n").splitlines():
        if line[:1].isspace():
            columns[-1][2] += " " + line.strip()
        else:
            columns.append(line.split(None, 2))
    return Table(row, tuple((name, dtype, meaning) for name, dtype, meaning in columns))


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
    schema of :mod:`learnability.schemas`). ``module`` has ``job(embedding, files,
    settings, *, embedding, log) -> {table: DataFrame}`` (the workflow's job: ``files``
    are (path, dataset) pairs, the corpus for a kind that ``needs_corpus``; ``settings``
    its config block without ``files`` and ``enabled``, with ``case`` where it
    ``uses_case``), ``scores(tables) -> list[dict]`` (rows of ``SCORE_COLUMNS`` from the
    kind's tables), and, where the flags say so, ``report(tables) -> str`` (its Markdown
    report, ``results/tables/{name}.md``, captioned by ``workflow/report/{name}.rst``),
    ``paired_items(table)`` (the table its tests read) and ``extra_columns(scores)``
    (comparison-table columns beyond ``columns``). ``headline``: (section, metric,
    sign), the one number per dataset that orders embeddings (sign -1: lower is better).
    ``columns``: (section, metric, label) picked into the comparison table. ``files``:
    it reads the evaluation files of ``evaluations.<name>.files`` and runs when there are
    some; otherwise it runs when ``evaluations.<name>.enabled``. ``needs_corpus``: it
    reads the corpus, so it runs only when one is built (an embedding is trained)."""

    name: str
    tables: dict[str, Table]
    module: str
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
        return importlib.import_module(self.module)


MULTI_ANSWER = table(
    "query of a multi-answer test file",
    """
embedding           string  embedding
dataset             string  test file (its name without extension)
section             string  `: section` header (lines before any header: the file's name)
line                int64   line of the query in the file
query               string  query word, normalised as the corpus (NFKC, lowercase)
answers             string  acceptable answers, normalised, `/`-separated, duplicates removed
n_answers           int64   acceptable answers
n_answers_in_vocab  int64   answers in the vocabulary (the query itself never counts)
status              string  `ok` (asked), `query_oov` (query unknown) or `answers_oov` (no answer
                            known)
correct             bool    an answer is among the query's k nearest neighbours (cosine, query
                            excluded)
rank                Int64   1-based rank of the best answer among the neighbours; null when none
neighbours          string  the k nearest neighbours, nearest first, space-separated
k                   int64   neighbours searched (`evaluations.multi_answer.k`)
""",
)
ANALOGY = table(
    "analogy question",
    """
embedding      string  embedding
dataset        string  question file
section        string  `: section` of the file
line           int64   line of the question
a              string  a in a : b :: c : d (normalised)
b              string  b
c              string  c
expected       string  d
status         string  `ok`, or `oov` when a word is outside the `restrict_vocab` most frequent
                       (not asked)
predicted_add  string  3CosAdd's answer (a, b and c excluded)
correct_add    bool    predicted_add is d
predicted_mul  string  3CosMul's answer
correct_mul    bool    predicted_mul is d
""",
)
WORD_PAIRS = table(
    "word pair of a similarity dataset",
    """
embedding  string  embedding
dataset    string  pair file
line       int64   line of the pair
a          string  first word (normalised)
b          string  second word
gold       float64 human score
status     string  `ok`, or `oov` when a word is outside the `restrict_vocab` most frequent
cosine     float64 cosine of the two words; null when oov
""",
)
HIERARCHY_EDGES = table(
    "parent -> child edge of a graph",
    """
embedding            string  embedding
dataset              string  graph file
parent               string  parent node (normalised)
child                string  child node
line                 int64   line of the edge
status               string  `ok`, or `oov` when a node is not in the vocabulary (not scored)
distance             float64 cosine distance parent-child
rank                 float64 1 + non-children of the parent strictly closer + half those at the
                             same distance
parent_norm_smaller  bool    the parent's vector norm is smaller than the child's
""",
)
HIERARCHY_PARENTS = table(
    "parent scored (with a child in the vocabulary)",
    """
embedding          string  embedding
dataset            string  graph file
parent             string  parent node
n_children         int64   its children in the vocabulary
n_candidates       int64   graph nodes in the vocabulary other than the parent
average_precision  float64 AP of its children in the ranking of all candidates by distance
""",
)
PSEUDO = table(
    "(fold, method, k)",
    """
embedding    string  embedding
dataset      string  corpus the pairs come from
fold         int64   held-out fold
n_oov        int64   triples of the fold with a word the embedding lacks (not asked)
n_no_c2      int64   held-out pairs dropped because no frequent context was unseen with the word
method       string  `cosine` (cos(w, c)), `knn` (nearest-neighbour averaging of training P(c
                     given w')) or `unigram` (the context's training frequency: the baseline
                     without similarity, the same for every embedding)
k            int64   neighbours averaged (0 for cosine)
n_test       int64   T: test triples asked
n_incorrect  int64   the fake context scored higher
n_ties       int64   equal scores
error_rate   float64 (incorrect + ties / 2) / T
""",
)

_PACKAGE = "learnability.evaluations"
_QUESTION = ("section", "line")  # a query or question: its file's section and line
_ENTRIES = (
    Kind(
        "multi_answer",
        {"multi_answer": MULTI_ANSWER},
        f"{_PACKAGE}.multianswer",
        (PairedTest("accuracy", "multi_answer", _QUESTION, ("correct",), "mean"),),
        ("total", "accuracy", 1),
        (("total", "accuracy", "accuracy"), ("total", "oov_rate", "OOV rate")),
        report=True,
    ),
    Kind(
        "analogy",
        {"analogy": ANALOGY},
        f"{_PACKAGE}.analogy",
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
        f"{_PACKAGE}.word_pairs",
        (PairedTest("spearman", "word_pairs", ("line",), ("gold", "cosine"), "spearman"),),
        ("total", "spearman", 1),
        (("total", "spearman", "Spearman"),),
    ),
    Kind(
        "hierarchy",
        {"hierarchy_edges": HIERARCHY_EDGES, "hierarchy_parents": HIERARCHY_PARENTS},
        f"{_PACKAGE}.hierarchy",
        (PairedTest("map", "hierarchy_parents", ("parent",), ("average_precision",), "wilcoxon"),),
        ("total", "map", 1),
        (("total", "mean_rank", "Mean Rank"), ("total", "map", "mAP")),
    ),
    Kind(
        "pseudo",
        {"pseudo": PSEUDO},
        f"{_PACKAGE}.pseudo",
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

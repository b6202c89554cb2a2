"""The one place where every Parquet output's columns are defined.

``docs/reference/outputs.md`` documents the same tables for people and a test checks the two agree
(the evaluation kinds' tables, :data:`EVALUATION_TABLES`, carry their columns' meanings,
and ``make docs`` writes them into the page);
every writer goes through :func:`conform`, so an output cannot drift from its schema.
All tables are tidy: each row carries the ``list`` and/or ``embedding`` it belongs to,
so files written by many jobs concatenate with one ``pd.concat``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pyarrow as pa

from learnability.io import atomic_path, parquet_metadata

# the protocol's five metrics, in the paper's order (every table's and schema's)
METRICS: tuple[str, ...] = ("accuracy", "recall", "fpr", "precision", "auc")


@dataclass(frozen=True)
class Table:
    """An intrinsic evaluation's per-embedding Parquet table, written to
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
# by name; each evaluation kind (learnability.evaluations.registry) names those it writes
EVALUATION_TABLES: dict[str, Table] = {
    "multi_answer": MULTI_ANSWER,
    "analogy": ANALOGY,
    "word_pairs": WORD_PAIRS,
    "hierarchy_edges": HIERARCHY_EDGES,
    "hierarchy_parents": HIERARCHY_PARENTS,
    "pseudo": PSEUDO,
}

# a metric's summary over iterations: each list's (summary) and each sweep point's
_SUMMARY_STATS: dict[str, str] = {
    "iterations": "int64",
    "metric": "string",
    "mean": "float64",
    "std": "float64",
    "ci_low": "float64",
    "ci_high": "float64",
}

# the Wilcoxon tests' columns: the main comparison's and each sweep setting's
_WILCOXON: dict[str, str] = {
    "negatives": "string",
    "vocabulary": "string",
    "units": "string",
    "embedding_a": "string",
    "embedding_b": "string",
    "alternative": "string",
    "n_lists": "int64",
    "n": "int64",
    "statistic": "float64",
    "w_minus": "float64",
    "p_value": "float64",
    "method": "string",
    "rank_biserial": "float64",
    "median_difference": "float64",
    "p_holm": "float64",
    "n_nested_pairs": "int64",
    "max_overlap": "float64",
    "unit_lists": "string",
}

# table -> ordered {column: pandas dtype}
TABLES: dict[str, dict[str, str]] = {
    "token_counts": {
        "word": "string",
        "count": "int64",
    },
    "vocab": {
        "embedding": "string",
        "index": "int64",
        "word": "string",
        "count": "int64",
    },
    "concept_words": {
        "list": "string",
        "embedding": "string",
        "source": "string",
        "position": "int64",
        "line": "int64",
        "entry": "string",
        "kind": "string",
        "word": "string",
        "status": "string",
        "match": "string",
        "variants": "string",
        "conditional": "bool",
        "case": "string",
    },
    "coverage": {
        "list": "string",
        "embedding": "string",
        "vocabulary": "string",
        "source": "string",
        "n_entries": "int64",
        "n_plain": "int64",
        "n_wildcards": "int64",
        "n_wildcard_words": "int64",
        "n_wildcards_unmatched": "int64",
        "max_wildcard_share": "float64",
        "n_wildcards_flagged": "int64",
        "n_phrases": "int64",
        "n_duplicates": "int64",
        "n_conditional": "int64",
        "case": "string",
        "n_matched_lower": "int64",
        "n_matched_variant": "int64",
        "n_case_collisions": "int64",
        "n_oov": "int64",
        "n_in_vocab": "int64",
        "oov_rate": "float64",
        "not_scored": "string",
    },
    "overlap": {
        "embedding": "string",
        "vocabulary": "string",
        "list_a": "string",
        "list_b": "string",
        "n_a": "int64",
        "n_b": "int64",
        "n_shared": "int64",
        "overlap": "float64",
        "nested": "bool",
    },
    "iterations": {
        "list": "string",
        "embedding": "string",
        "negatives": "string",
        "size": "int64",
        "null_key": "string",
        "iteration": "int64",
        "seed": "int64",
        **{m: "float64" for m in METRICS},
    },
    "summary": {
        "list": "string",
        "embedding": "string",
        "negatives": "string",
        "size": "int64",
        "null_key": "string",
        **_SUMMARY_STATS,
    },
    "roc": {
        "list": "string",
        "embedding": "string",
        "negatives": "string",
        "iterations": "int64",
        "fpr": "float64",
        "tpr_mean": "float64",
        "tpr_std": "float64",
    },
    "learning_curve": {
        "list": "string",
        "embedding": "string",
        "negatives": "string",
        "train_fraction": "float64",
        "iterations": "int64",
        "metric": "string",
        "mean": "float64",
        "std": "float64",
    },
    "codelength": {
        "list": "string",
        "embedding": "string",
        "negatives": "string",
        "size": "int64",
        "source": "string",
        "lists": "int64",
        "orders": "int64",
        "fractions": "string",
        "uniform_bits": "float64",
        "bits_mean": "float64",
        "bits_sd": "float64",
        "compression": "float64",
        "raw_bits_mean": "float64",
        "raw_compression": "float64",
    },
    "null": {
        "embedding": "string",
        "negatives": "string",
        "null_key": "string",
        "size": "int64",
        "null_list": "int64",
        "seed": "int64",
        "iterations": "int64",
        **{m: "float64" for m in METRICS},
        **{f"{m}_var": "float64" for m in METRICS},
        **{f"{m}_m3": "float64" for m in METRICS},
    },
    "pvalues": {
        "list": "string",
        "embedding": "string",
        "negatives": "string",
        "size": "int64",
        "auc": "float64",
        "method": "string",
        "method_requested": "string",
        "method_reason": "string",
        "observed": "float64",
        "list_iterations": "int64",
        "null_key": "string",
        "null_size": "int64",
        "null_lists": "int64",
        "null_iterations": "int64",
        "null_scale": "float64",
        "within_var": "float64",
        "between_var": "float64",
        "between_third": "float64",
        "null_skewness": "float64",
        "null_auc_mean": "float64",
        "null_auc_sd": "float64",
        "null_auc_min": "float64",
        "null_auc_max": "float64",
        "n_null_ge": "int64",
        "p_value": "float64",
        "p_mc_se": "float64",
        "p_upper": "float64",
        "p_floor": "float64",
        "null_z": "float64",
        "p_tail": "float64",
        "power_alpha": "float64",
        "power": "float64",
        "power_spread": "float64",
        "auc_detectable": "float64",
        "p_adjusted": "float64",
        "adjustment": "string",
    },
    "bounds": {
        "list": "string",
        "embedding": "string",
        "negatives": "string",
        "size": "int64",
        "iterations": "int64",
        "groups": "int64",
        "group_iterations": "int64",
        "auc": "float64",
        "auc_se": "float64",
        "auc_split_se": "float64",
        "confidence": "float64",
        "auc_low": "float64",
        "auc_high": "float64",
    },
    "words_needed": {
        "list": "string",
        "embedding": "string",
        "negatives": "string",
        "size": "int64",
        "words": "int64",
        "subsamples": "int64",
        "iterations": "int64",
        "method": "string",
        "auc_mean": "float64",
        "auc_sd": "float64",
        "power": "float64",
        "power_se": "float64",
        "power_alpha": "float64",
        "power_target": "float64",
        "power_spread": "float64",
        "auc_detectable": "float64",
    },
    "members": {
        "list": "string",
        "embedding": "string",
        "negatives": "string",
        "index": "int64",
        "word": "string",
        "n_test": "int64",
        "mean_probability": "float64",
        "mean_share_outscored": "float64",
        "rank": "Int64",
    },
    "suggestions": {
        "list": "string",
        "embedding": "string",
        "negatives": "string",
        "rank": "int64",
        "index": "int64",
        "word": "string",
        "count": "int64",
        "mean_probability": "float64",
        "mean_logit": "float64",
        "top_share": "float64",
        "splits": "int64",
    },
    "suggestion_check": {
        "list": "string",
        "embedding": "string",
        "negatives": "string",
        "k": "int64",
        "size": "int64",
        "hidden": "int64",
        "folds": "int64",
        "iterations": "int64",
        "hits": "int64",
        "recall": "float64",
        "baseline_recall": "float64",
        "baseline": "string",
        "p_value": "float64",
    },
    "entanglement": {
        "embedding": "string",
        "negatives": "string",
        "list_a": "string",
        "list_b": "string",
        "n_a": "int64",
        "n_b": "int64",
        "n_shared": "int64",
        "link_z": "float64",
        "measured": "bool",
        "iterations": "int64",
        "auc_before": "float64",
        "auc_after": "float64",
        "share": "float64",
        "share_se": "float64",
        "share_low": "float64",
        "p_margin": "float64",
        "alignment": "float64",
        "p_overlap": "float64",
        "p_direction": "float64",
        "p_value": "float64",
        "p_adjusted": "float64",
        "adjust": "string",
        "alpha": "float64",
        "margin": "float64",
        "beyond_null": "bool",
        "overlap": "bool",
        "p_margin_adjusted": "float64",
        "entangled": "bool",
    },
    "ranking": {
        "negatives": "string",
        "embedding": "string",
        "metric": "string",
        "rank": "int64",
        "rank_low": "float64",
        "rank_high": "float64",
        "mean": "float64",
        "ci_low": "float64",
        "ci_high": "float64",
        "n_lists": "int64",
        "splits": "int64",
        "resamples": "int64",
        "next_embedding": "string",
        "p_value": "float64",
        "p_adjusted": "float64",
        "adjust": "string",
        "separated": "bool",
    },
    "random_rows": {
        "embedding": "string",
        "negatives": "string",
        "size": "int64",
        "row": "string",
        "metric": "string",
        "value": "float64",
        "method": "string",
    },
    "wilcoxon": _WILCOXON,
    # the intrinsic evaluations' per-embedding tables
    **{
        name: {column: dtype for column, dtype, _ in table.columns}
        for name, table in EVALUATION_TABLES.items()
    },
    # sweeps (learnability.pipeline.sweeps): each row also carries one param_<key> column per
    # swept parameter (VARIABLE below), after these
    "sweep_scores": {
        "sweep": "string",
        "embedding": "string",
        "method": "string",
        "setting": "string",
        "list": "string",
        "negatives": "string",
        "size": "int64",
        # why the point could not score the list ("" where it did): its rows have no means
        "not_scored": "string",
        **_SUMMARY_STATS,
    },
    "sweep_seed_tests": {
        "seed": "string",
        **_WILCOXON,
        "every_seed": "bool",
    },
    "sweep_seed_spread": {
        "negatives": "string",
        "method": "string",
        "list": "string",
        "seeds": "int64",
        "auc": "float64",
        "seed_sd": "float64",
        "split_sd": "float64",
        "split_se": "float64",
        "seed_to_split": "float64",
    },
    "sweep_iterations": {
        "sweep": "string",
        "embedding": "string",
        "list": "string",
        "negatives": "string",
        "iteration": "int64",
        "auc": "float64",
    },
    "sweep_points": {
        "sweep": "string",
        "embedding": "string",
        "method": "string",
        "setting": "string",
        "negatives": "string",
        "n_lists": "int64",
        "auc": "float64",
        "ci_low": "float64",
        "ci_high": "float64",
    },
    "sweep_effects": {
        "sweep": "string",
        "method": "string",
        "negatives": "string",
        "parameter": "string",
        "value": "string",
        "x": "float64",
        "n_points": "int64",
        "n_lists": "int64",
        "auc": "float64",
        "ci_low": "float64",
        "ci_high": "float64",
    },
    # at each setting of a sweep, the main comparison's columns
    # the corpus comparison (learnability.statistics.corpora): each list's difference
    # between two corpora over their draws, and the Wilcoxon over lists per embedding
    "corpus_differences": {
        "negatives": "string",
        "embedding": "string",
        "corpus_a": "string",
        "corpus_b": "string",
        "list": "string",
        **{
            f"{c}_{side}": t
            for side in ("a", "b")
            for c, t in (
                ("auc", "float64"),
                ("draw_sd", "float64"),
                ("draws", "int64"),
                ("fraction", "float64"),
            )
        },
        "difference": "float64",
        "se": "float64",
        "t": "float64",
        "df": "float64",
        "alternative": "string",
        "p_value": "float64",
        "p_holm": "float64",
    },  # fmt: skip
    "corpus_wilcoxon": {
        "embedding": "string",
        **{
            {"embedding_a": "corpus_a", "embedding_b": "corpus_b"}.get(c, c): t
            for c, t in _WILCOXON.items()
        },
    },  # fmt: skip
    "sweep_wilcoxon": {
        "sweep": "string",
        "setting": "string",
        **_WILCOXON,
        "p_holm_sweep": "float64",
    },
    "scores": {
        "embedding": "string",
        "evaluation": "string",
        "dataset": "string",
        "section": "string",
        "metric": "string",
        "value": "float64",
        "n_items": "int64",
        "n_oov": "int64",
    },
    "evaluation_tests": {
        "evaluation": "string",
        "dataset": "string",
        "section": "string",
        "metric": "string",
        "embedding_a": "string",
        "embedding_b": "string",
        "alternative": "string",
        "n_items": "int64",
        "value_a": "float64",
        "value_b": "float64",
        "ci_low": "float64",
        "ci_high": "float64",
        "p_value": "float64",
        "method": "string",
        "difference": "float64",
        "p_holm": "float64",
    },
    "rank_correlation": {
        "evaluation_a": "string",
        "evaluation_b": "string",
        "n_embeddings": "int64",
        "spearman": "float64",
        "kendall": "float64",
    },
}


# tables that also hold columns named by the run: table -> their prefix (the sweeps'
# swept parameters, whose names and types come from the config)
VARIABLE: dict[str, str] = {"sweep_scores": "param_", "sweep_points": "param_"}


def columns(table: str) -> list[str]:
    return list(TABLES[table])


def empty(table: str) -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(dtype=t) for c, t in TABLES[table].items()})


def conform(df: pd.DataFrame, table: str) -> pd.DataFrame:
    """Return ``df`` with exactly the columns of ``table``, in order and with their dtypes.

    Raises ``ValueError`` naming missing or unexpected columns: a writer that drifts from
    the documented schema fails loudly instead of producing a file nobody can read.
    """
    spec = TABLES[table]
    prefix = VARIABLE.get(table)
    variable = [c for c in df.columns if prefix and str(c).startswith(prefix)]
    missing = [c for c in spec if c not in df.columns]
    extra = [c for c in df.columns if c not in spec and c not in variable]
    if missing or extra:
        raise ValueError(
            f"table {table!r}: missing columns {missing}, unexpected columns {extra}; "
            "update learnability/schemas.py and docs/reference/outputs.md together"
        )
    out = df[[*spec, *variable]].astype(spec).reset_index(drop=True)
    for c in variable:  # a parameter of mixed values (layer: [4, last]) is text
        if out[c].dtype == object:
            out[c] = out[c].map(lambda v: None if v is None else str(v)).astype("string")
    return out


def write_table(df: pd.DataFrame, path: str | os.PathLike[str], table: str) -> None:
    """Check ``df`` against the documented schema ``table`` and write it as Parquet,
    atomically, with the writer's provenance record in its metadata."""
    write_parquet(conform(df, table), path)


def write_parquet(df: pd.DataFrame, path: str | os.PathLike[str]) -> None:
    """``df`` as Parquet (what ``df.to_parquet(path, index=False)`` writes), atomically,
    with the current record of how it was made in its metadata
    (:func:`learnability.io.parquet_metadata`)."""
    import pyarrow.parquet as pq

    arrow = pa.Table.from_pandas(df, preserve_index=False)
    arrow = arrow.replace_schema_metadata({**(arrow.schema.metadata or {}), **parquet_metadata()})
    with atomic_path(path) as tmp:
        pq.write_table(arrow, tmp)


def read_tables(paths: list[str] | list[Path], table: str) -> pd.DataFrame:
    """Read and concatenate Parquet files of one documented schema."""
    frames = [pd.read_parquet(p) for p in paths]
    if not frames:
        return empty(table)
    return conform(pd.concat(frames, ignore_index=True), table)

"""A sweep point's job: its vectors restricted to the sweep's shared vocabulary, and every
list scored on them with the protocol (:func:`score_point`); the grid is planned in
:mod:`learnability.pipeline.sweeps`."""

from __future__ import annotations

import numpy as np
import pandas as pd

from learnability.concepts.lists import member_indices
from learnability.errors import InputError
from learnability.pipeline.sweeps import Point
from learnability.protocol.evaluate import score_list, summarize
from learnability.schemas import METRICS


def restricted_vectors(
    vectors_path: str, vocab_path: str, words: pd.Series, point: str
) -> np.ndarray:
    """The trained vectors of the sweep vocabulary's words, in its order (in memory: a
    sweep's vocabularies are those of one corpus). A word the point does not know is an
    error: points that share a vocabulary group must share their vocabularies."""
    vocab = pd.read_parquet(vocab_path, columns=["word"])["word"]
    position = pd.Series(np.arange(len(vocab)), index=pd.Index(vocab))
    missing = ~words.isin(position.index)
    if missing.any():
        raise InputError(
            f"{vocab_path}: sweep point {point} lacks {int(missing.sum())} of the sweep's "
            f"words (e.g. {words[missing].iloc[0]!r}); its vocabulary differs from the "
            "sweep's, so rerun the sweep's vocabulary rule (delete results/sweeps/)"
        )
    vectors = np.load(vectors_path, mmap_mode="r")
    rows = position.loc[words].to_numpy(dtype=np.int64)
    return np.ascontiguousarray(vectors[rows], dtype=np.float32)


def score_point(
    vectors: np.ndarray,
    words: pd.Series,
    concepts: pd.DataFrame,
    protocols: dict,
    *,
    point: Point,
    lists: list[str],
    bins: np.ndarray | None,
    bootstrap: int,
    level: float,
    seed: int,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every list of one point, under each negatives scheme (``protocols``: scheme ->
    Protocol): the ``sweep_scores`` rows (a ``summary`` per list, with the point's
    columns) and its ``sweep_iterations`` (the AUC of each split). Splits are seeded by
    the list, so all points of a sweep see the same splits and non-members. A list the
    point cannot score (:func:`~learnability.protocol.evaluate.score_list`: fewer than
    the protocol's ``min_words`` members in the sweep vocabulary) is kept as rows with 0
    iterations, no means and ``not_scored`` saying why, not dropped."""

    summaries, iterations = [], []
    for scheme, protocol in protocols.items():
        for name in lists:
            members = member_indices(concepts[concepts["list"] == name], words)
            result = score_list(vectors, members, protocol, bins=bins, list_name=name,
                                embedding=point.name)  # fmt: skip
            if result.unscored is not None:  # a row that says why, not a stop
                summaries.append(
                    pd.DataFrame(
                        {"list": name, "negatives": scheme, "size": result.size,
                         "not_scored": result.unscored, "iterations": 0,
                         "metric": list(METRICS), "mean": np.nan, "std": np.nan,
                         "ci_low": np.nan, "ci_high": np.nan}
                    )
                )  # fmt: skip
                continue
            it = result.iterations
            iterations.append(it[["list", "negatives", "iteration", "auc"]])
            scored = summarize(it, bootstrap=bootstrap, level=level, seed=seed)
            summaries.append(scored.assign(not_scored=""))
    summary = pd.concat(summaries, ignore_index=True).drop(
        columns=["embedding", "null_key"], errors="ignore"
    )
    ident = {"sweep": point.sweep, "embedding": point.name, "method": point.method,
             "setting": point.setting}  # fmt: skip
    summary = summary.assign(**ident, **point.param_columns())
    its = (
        pd.concat(iterations, ignore_index=True)
        if iterations
        else pd.DataFrame(columns=["list", "negatives", "iteration", "auc"])
    )
    its = its.assign(sweep=point.sweep, embedding=point.name)
    return summary, its

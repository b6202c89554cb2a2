"""Hierarchy reconstruction (Nickel & Kiela 2017): how well an embedding's
distances recover a graph of parent -> child edges.

For each parent u, every other node of the graph (that the embedding knows) is a
candidate, ranked by its distance from u (cosine distance for Euclidean embeddings):

- **rank** of a true child v: 1 + the number of non-children of u strictly closer to u
  than v (Nickel & Kiela's filtered rank: the other children are not counted against v).
  A distance equal to v's counts half, so that ties are neither rewarded nor punished.
  **Mean Rank** is the mean over all (u, v) edges; 1 is perfect.
- **average precision** of u: over the ranking of all candidates by distance, labels 1
  for u's children; AP = sum_j (R_j - R_{j-1}) P_j over the distance thresholds, the
  definition of sklearn's ``average_precision_score``. **mAP** is the mean over parents.
- **norm order**: the share of edges whose parent has a smaller norm than its child.
  A hyperbolic embedding places general concepts near the origin, so there it is
  meaningful; for Euclidean embeddings it is reported and not interpreted.

Nodes outside the embedding's vocabulary are dropped from the graph and counted; a
parent left with no child in the vocabulary is not scored.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

from learnability.concepts.matching import DEFAULT_CASE, Matcher
from learnability.corpus.tokenize import normalize
from learnability.errors import InputError
from learnability.evaluations.neighbours import norms
from learnability.evaluations.registry import score_row
from learnability.io import read_text_lines


def read_edges(path: str | os.PathLike[str]) -> pd.DataFrame:
    """``parent<TAB>child`` lines (``#`` comments, blank lines skipped), normalised like
    the corpus; duplicate edges and self-loops are refused with their line."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"{path}: no such graph file; fix the path in the config")
    rows = []
    seen: dict[tuple[str, str], int] = {}
    for number, raw in enumerate(
        read_text_lines(path, "graph file (parent<TAB>child lines, UTF-8)"), start=1
    ):
        if not raw.strip() or raw.startswith("#"):
            continue
        fields = raw.split("\t")
        if len(fields) != 2 or not all(f.strip() for f in fields):
            raise InputError(
                f"{path}, line {number}: expected 'parent<TAB>child', got {raw!r}; write "
                "one edge per line, the two nodes separated by a tab"
            )
        parent, child = (normalize(f.strip()) for f in fields)
        if parent == child:
            raise InputError(f"{path}, line {number}: {parent!r} is its own child; remove it")
        if (parent, child) in seen:
            raise InputError(
                f"{path}, line {number}: duplicate edge {parent} -> {child} (first on line "
                f"{seen[parent, child]}); remove one"
            )
        seen[parent, child] = number
        rows.append({"parent": parent, "child": child, "line": number})
    if not rows:
        raise InputError(f"{path}: no edges; expected 'parent<TAB>child' lines")
    return pd.DataFrame(rows)


def average_precision(labels: np.ndarray, scores: np.ndarray) -> float:
    """AP over every threshold of ``scores`` (higher = more likely a child); tied scores
    form one threshold, as in sklearn's ``average_precision_score``."""
    order = np.argsort(-scores, kind="stable")
    s, y = scores[order], labels[order]
    last = np.r_[np.flatnonzero(np.diff(s) != 0), s.size - 1]  # end of each tie group
    tp = np.cumsum(y)[last]
    precision = tp / (last + 1)
    recall = tp / y.sum()
    return float(np.sum(np.diff(np.r_[0.0, recall]) * precision))


def evaluate_hierarchy(
    vectors: np.ndarray,
    words: list[str],
    edges: pd.DataFrame,
    *,
    dataset: str = "",
    embedding: str = "",
    case: str = DEFAULT_CASE,
) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """Returns (per-edge ranks, OOV edges last with ``status = oov``; per-parent AP;
    counts). Every node of the graph that the embedding knows is a candidate for every
    parent. Nodes (read lower-cased) are found under the ``case`` policy
    (:mod:`learnability.concepts.matching`): on a cased vocabulary ``auto`` finds "paris" as
    "Paris" when only that form is there."""
    matcher = Matcher(words, case)
    nodes = pd.unique(pd.concat([edges["parent"], edges["child"]]))
    index = {n: r for n in nodes if (r := matcher.index(n)) >= 0}
    known = np.array([n for n in nodes if n in index], dtype=object)
    kept = edges[edges["parent"].isin(list(index)) & edges["child"].isin(list(index))]
    counts = {
        "n_nodes": len(nodes),
        "n_nodes_oov": len(nodes) - len(known),
        "n_edges": len(edges),
        "n_edges_used": len(kept),
    }
    pos = {w: i for i, w in enumerate(known)}
    X = np.asarray(vectors[[index[w] for w in known]], dtype=np.float64)
    n = norms(X).astype(np.float64)
    U = X / n[:, None]
    edge_rows, parent_rows = [], []
    for parent, group in kept.groupby("parent", sort=False):
        u = pos[parent]
        dist = 1.0 - U @ U[u]
        candidate = np.ones(len(known), bool)
        candidate[u] = False
        child = np.zeros(len(known), bool)
        child[[pos[c] for c in group["child"]]] = True
        neg = np.sort(dist[candidate & ~child])
        for c, line in zip(group["child"], group["line"], strict=True):
            d = dist[pos[c]]
            closer = np.searchsorted(neg, d, side="left")
            ties = np.searchsorted(neg, d, side="right") - closer
            edge_rows.append(
                {
                    "parent": parent,
                    "child": c,
                    "line": int(line),
                    "distance": float(d),
                    "rank": 1.0 + closer + 0.5 * ties,
                    "parent_norm_smaller": bool(n[u] < n[pos[c]]),
                    "status": "ok",
                }
            )
        parent_rows.append(
            {
                "parent": parent,
                "n_children": int(child.sum()),
                "n_candidates": int(candidate.sum()),
                "average_precision": average_precision(child[candidate], -dist[candidate]),
            }
        )
    # edges with a node outside the vocabulary are listed, not scored
    for r in edges[~edges.index.isin(kept.index)].itertuples():
        edge_rows.append(
            {
                "parent": r.parent,
                "child": r.child,
                "line": int(r.line),
                "distance": np.nan,
                "rank": np.nan,
                "parent_norm_smaller": False,
                "status": "oov",
            }
        )
    per_edge = pd.DataFrame(
        edge_rows,
        columns=["parent", "child", "line", "status", "distance", "rank", "parent_norm_smaller"],
    )
    per_edge["status"] = per_edge["status"].fillna("ok")
    per_parent = pd.DataFrame(
        parent_rows, columns=["parent", "n_children", "n_candidates", "average_precision"]
    )
    for df in (per_edge, per_parent):
        df.insert(0, "dataset", dataset)
        df.insert(0, "embedding", embedding)
    return per_edge, per_parent, counts


def summarise_hierarchy(per_edge: pd.DataFrame, per_parent: pd.DataFrame) -> dict:
    per_edge = per_edge[per_edge["status"] == "ok"]
    return {
        "mean_rank": float(per_edge["rank"].mean()) if len(per_edge) else np.nan,
        "map": float(per_parent["average_precision"].mean()) if len(per_parent) else np.nan,
        "norm_order": float(per_edge["parent_norm_smaller"].mean()) if len(per_edge) else np.nan,
        "n_parents": len(per_parent),
    }


def scores(tables: dict) -> list[dict]:
    """Rows of the ``scores`` table (:mod:`.registry`): mean rank, mAP and the share of
    edges whose child has the smaller norm."""

    edges, parents = tables["hierarchy_edges"], tables["hierarchy_parents"]
    out = []
    for (emb, ds), e in edges.groupby(["embedding", "dataset"], sort=False):
        p = parents[(parents["embedding"] == emb) & (parents["dataset"] == ds)]
        s = summarise_hierarchy(e, p)
        n_ok = int((e["status"] == "ok").sum())
        n_oov = len(e) - n_ok
        out.append(
            score_row(emb, "hierarchy", ds, "total", "mean_rank", s["mean_rank"], n_ok, n_oov)
        )
        out.append(score_row(emb, "hierarchy", ds, "total", "map", s["map"], len(p), n_oov))
        out.append(
            score_row(emb, "hierarchy", ds, "total", "norm_order", s["norm_order"], n_ok, n_oov)
        )
    return out  # fmt: skip


def job(emb, files, settings: dict, *, embedding: str, log) -> dict[str, pd.DataFrame]:
    """The workflow's job (``workflow/scripts/evaluate.py``): every (path, dataset) of
    ``files`` on one embedding, ``settings``: ``case``."""
    edges, parents = [], []
    for path, name in files:
        per_edge, per_parent, counts = evaluate_hierarchy(
            emb.vectors, emb.words, read_edges(path), dataset=name, embedding=embedding,
            case=settings["case"],
        )  # fmt: skip
        log.info("%s: %s %s", name, counts, summarise_hierarchy(per_edge, per_parent))
        edges.append(per_edge)
        parents.append(per_parent)
    return {
        "hierarchy_edges": pd.concat(edges, ignore_index=True),
        "hierarchy_parents": pd.concat(parents, ignore_index=True),
    }

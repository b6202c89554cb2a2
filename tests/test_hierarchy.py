"""Hierarchy reconstruction on a hand-computed graph, and AP against scikit-learn."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import average_precision_score

from learnability.errors import InputError
from learnability.evaluations.hierarchy import (
    average_precision,
    evaluate_hierarchy,
    read_edges,
    summarise_hierarchy,
)


def at(degrees: float, norm: float = 1.0) -> list[float]:
    return [norm * np.cos(np.radians(degrees)), norm * np.sin(np.radians(degrees))]


def test_hand_computed_graph(tmp_path):
    # Angles (degrees): animal 0, dog 10, vehicle 80, cat 85, car 90, truck 100.
    # animal: dog 10 (child), vehicle 80, cat 85 (child), car 90, truck 100
    #   ranks: dog 1, cat 2 (vehicle is closer);  AP = (1/1 + 2/3) / 2 = 5/6
    # vehicle: cat 5, car 10 (child), truck 20 (child), dog 70, animal 80
    #   ranks: car 2, truck 2 (cat closer to both);  AP = (1/2 + 2/3) / 2 = 7/12
    # Mean Rank = (1 + 2 + 2 + 2) / 4 = 7/4;  mAP = (5/6 + 7/12) / 2 = 17/24
    # Norms: parents 1; dog 0.5, the other children 2 -> parent smaller in 3 of 4 edges.
    words = ["animal", "dog", "vehicle", "cat", "car", "truck"]
    X = np.array([at(0), at(10, 0.5), at(80), at(85, 2), at(90, 2), at(100, 2)], dtype=np.float32)
    graph = tmp_path / "g.tsv"
    graph.write_text(
        "# parent\tchild\nAnimal\tdog\nanimal\tcat\nvehicle\tcar\nvehicle\ttruck\nanimal\tunicorn\n"
    )
    edges = read_edges(graph)
    per_edge, per_parent, counts = evaluate_hierarchy(X, words, edges, embedding="e")
    assert counts == {"n_nodes": 7, "n_nodes_oov": 1, "n_edges": 5, "n_edges_used": 4}
    ok = per_edge[per_edge["status"] == "ok"]
    assert ok.set_index("child")["rank"].to_dict() == {
        "dog": 1.0,
        "cat": 2.0,
        "car": 2.0,
        "truck": 2.0,
    }
    assert per_edge[per_edge["status"] == "oov"]["child"].tolist() == ["unicorn"]
    ap = per_parent.set_index("parent")["average_precision"]
    assert ap["animal"] == pytest.approx(5 / 6) and ap["vehicle"] == pytest.approx(7 / 12)
    s = summarise_hierarchy(per_edge, per_parent)
    assert s["mean_rank"] == pytest.approx(7 / 4)
    assert s["map"] == pytest.approx(17 / 24)
    assert s["norm_order"] == pytest.approx(3 / 4)
    assert (per_parent["n_candidates"] == 5).all()


def test_ties_count_half():
    # b and c at the same angle from a: c (a non-child) ties with b (a child)
    X = np.array([at(0), at(30), at(-30), at(90)], dtype=np.float64)
    import pandas as pd

    edges = pd.DataFrame({"parent": ["a"], "child": ["b"], "line": [1]})
    per_edge, _, _ = evaluate_hierarchy(X, ["a", "b", "c", "d"], edges)
    # the graph's nodes are a and b only: c and d are not candidates
    assert per_edge["rank"].tolist() == [1.0]
    edges = pd.DataFrame({"parent": ["a", "d"], "child": ["b", "c"], "line": [1, 2]})
    per_edge, _, _ = evaluate_hierarchy(X, ["a", "b", "c", "d"], edges)
    assert per_edge.set_index("child").loc["b", "rank"] == 1.5


def test_average_precision_matches_sklearn():
    rng = np.random.default_rng(0)
    for _ in range(50):
        labels = rng.random(40) < 0.2
        labels[0] = True
        scores = np.round(rng.standard_normal(40), 1)  # with ties
        assert average_precision(labels, scores) == pytest.approx(
            average_precision_score(labels, scores)
        )


@pytest.mark.parametrize(
    "text, message",
    [
        ("a\tb\tc\n", "line 1"),
        ("a\tb\nA\tb\n", "duplicate edge"),
        ("a\ta\n", "its own child"),
        ("# only a comment\n", "no edges"),
    ],
)
def test_graph_errors(tmp_path, text, message):
    path = tmp_path / "g.tsv"
    path.write_text(text)
    with pytest.raises(InputError, match=message) as err:
        read_edges(path)
    assert str(path) in str(err.value)

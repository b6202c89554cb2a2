"""Nearest neighbours, multi-answer similarity, analogies and word pairs: against brute
force, hand-computed cases, and gensim's own evaluations on the same vectors."""

from __future__ import annotations

import numpy as np
import pytest
from gensim.models import KeyedVectors
from gensim.test.utils import datapath

from learnability.corpus.tokenize import normalize
from learnability.errors import InputError
from learnability.evaluations.analogy import (
    evaluate_analogies,
    read_analogies,
    summarise_analogies,
)
from learnability.evaluations.multianswer import (
    evaluate_multi_answer,
    read_multi_answer,
    summarise_multi_answer,
)
from learnability.evaluations.neighbours import top_k
from learnability.evaluations.word_pairs import evaluate_word_pairs, read_word_pairs, spearman


def brute_top_k(X, q, k):
    U = X / np.linalg.norm(X, axis=1, keepdims=True)
    s = U[q] @ U.T
    s[np.arange(len(q)), q] = -np.inf
    return np.argsort(-s, axis=1, kind="stable")[:, :k]


def test_top_k_matches_brute_force_whatever_the_block():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((3000, 20)).astype(np.float32)
    q = rng.choice(3000, 200, replace=False)
    expected = brute_top_k(X.astype(np.float64), q, 10)
    for block_bytes in (4 * 3000 * 7, 64 << 20):  # 7 queries a block, and all at once
        idx, sims = top_k(X, q, 10, block_bytes=block_bytes)
        assert (idx == expected).all()
        assert (np.diff(sims, axis=1) <= 0).all()
        assert not (idx == q[:, None]).any()  # the query is never its own neighbour


def test_top_k_ties_go_to_the_lower_index():
    X = np.array([[1, 0], [0, 1], [0, 2], [0, 3], [1, 1]], dtype=np.float32)
    idx, sims = top_k(X, np.array([0, 1]), 3)
    # rows 1, 2 and 3 point the same way: cosine 0 to row 0, 1 to each other
    assert idx[0].tolist() == [4, 1, 2]
    assert idx[1].tolist() == [2, 3, 4]
    assert sims[1, :2].tolist() == [1.0, 1.0]


def test_top_k_in_slices_of_the_vocabulary_keeps_the_tie_rule_and_skips_the_query():
    """A block too small for QUERY_TILE queries scores the vocabulary in slices of k + 1
    rows here: ties straddling slices still go to the lower index, and a query is never
    its own neighbour when it sits in a later slice."""
    X = np.zeros((40, 2), dtype=np.float32)
    X[:, 0] = 1.0
    X[::3, 1] = 1.0  # rows 0, 3, 6, ...: at 45 degrees, the others at 0
    queries = np.array([0, 15, 1, 38])
    idx, sims = top_k(X, queries, 5, block_bytes=4 * 40)  # one query's scores a block
    assert idx[0].tolist() == [3, 6, 9, 12, 15]
    assert idx[1].tolist() == [0, 3, 6, 9, 12]
    assert idx[2].tolist() == [2, 4, 5, 7, 8]
    assert idx[3].tolist() == [1, 2, 4, 5, 7]
    np.testing.assert_allclose(sims[:2], 1.0, rtol=1e-6)


def test_top_k_limit_restricts_candidates():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((500, 8)).astype(np.float32)
    idx, _ = top_k(X, np.arange(50), 5, limit=100)
    assert idx.max() < 100
    assert (idx == brute_top_k(X[:100].astype(np.float64), np.arange(50), 5)).all()


@pytest.fixture
def compass(tmp_path):
    """Words on the unit circle at known angles (degrees), so neighbours are by hand."""
    angles = {"north": 90, "nne": 80, "ne": 50, "east": 0, "south": 270, "sse": 285, "w": 180}
    words = list(angles)
    X = np.array([[np.cos(np.radians(a)), np.sin(np.radians(a))] for a in angles.values()])
    test = tmp_path / "compass.txt"
    test.write_text(
        "# comment\n"
        ": near\n"
        "NORTH\tnne/ne\n"  # nearest of north: nne (10), ne (40): correct at rank 1
        "East\tw\n"  # east's 2 nearest: ne (50), sse (75): w (180) is not among them
        "south\tsse\n"
        ": far\n"
        "north\tsouth/zzz\n"  # south is 180 away: wrong
        "unknownword\tnorth\n"  # query OOV
        "ne\tqqq/north\n"  # nne is 30 away, north 40, east 50: rank 2
        "w\tnope1/nope2\n",  # answers OOV
        encoding="utf-8",
    )
    return X.astype(np.float32), words, test


def test_multi_answer_by_hand(compass):
    X, words, test = compass
    queries = read_multi_answer(test)
    per = evaluate_multi_answer(X, words, queries, k=2, dataset="compass", embedding="e")
    assert per["query"].tolist()[:2] == ["north", "east"]  # lowercased, not uppercased
    assert per["correct"].tolist() == [True, False, True, False, False, True, False]
    assert per["status"].tolist() == ["ok"] * 4 + ["query_oov", "ok", "answers_oov"]
    assert per["rank"].fillna(0).tolist() == [1, 0, 1, 0, 0, 2, 0]
    assert per.loc[1, "neighbours"] == "ne sse"
    s = summarise_multi_answer(per).set_index("section")
    assert s.loc["near", "accuracy"] == pytest.approx(2 / 3)
    assert s.loc["far", ["n_queries", "n_asked", "n_correct"]].tolist() == [4, 2, 1]
    assert s.loc["far", "accuracy"] == 0.5
    assert s.loc["total", "accuracy"] == pytest.approx(3 / 5)
    assert s.loc["total", "accuracy_all"] == pytest.approx(3 / 7)
    assert s.loc["total", "oov_rate"] == pytest.approx(2 / 7)
    assert s.loc["total", ["n_query_oov", "n_answers_oov"]].tolist() == [1, 1]


def test_multi_answer_k_counts(compass):
    X, words, test = compass
    per = evaluate_multi_answer(X, words, read_multi_answer(test), k=1)
    # north is ne's second neighbour: found with k = 2, missed with k = 1
    assert per["correct"].tolist() == [True, False, True, False, False, False, False]
    assert (per["k"] == 1).all()


@pytest.mark.parametrize(
    "text, message",
    [
        (": s\nonlyoneword\n", "line 2"),
        (": s\na\tb\tc\n", "line 2"),
        (":\na\tb\n", "line 1"),
        ("", "no queries"),
    ],
)
def test_multi_answer_errors_name_the_line(tmp_path, text, message):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(InputError, match=message) as err:
        read_multi_answer(path)
    assert str(path) in str(err.value)


def test_a_bats_folder_reads_one_section_per_file(tmp_path, compass):
    X, words, _ = compass
    bats = tmp_path / "BATS_3.0"
    bats.mkdir()
    (bats / "E01 north.txt").write_text("north\tnne/ne\n")
    (bats / "E02 east.txt").write_text("east\tw\nsouth\tsse\n")
    (bats / "notes.md").write_text("not a test file\n")
    queries = read_multi_answer(bats)
    assert [(q.section, q.line, q.query) for q in queries] == [
        ("E01 north", 1, "north"),
        ("E02 east", 1, "east"),
        ("E02 east", 2, "south"),
    ]
    per = evaluate_multi_answer(X, words, queries, k=2)
    assert per["correct"].tolist() == [True, False, True]
    from learnability.pipeline.config import evaluation_file_name

    assert evaluation_file_name(str(bats)) == "BATS_3.0"
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(InputError, match="a folder without .txt test files"):
        read_multi_answer(empty)


def test_shipped_multi_answer_file_reads():
    from paths import REPO

    queries = read_multi_answer(REPO / "resources" / "similarity" / "multi-answer.txt")
    assert len({q.section for q in queries}) >= 5
    assert all(q.answers for q in queries)


@pytest.fixture(scope="module")
def benchmark_vectors():
    """A Gaussian embedding over every word of gensim's analogy and SimLex files, with
    2% of the analogy pairs planted on their section's offset (so that some questions
    are right) and 5% of the words dropped (so that some are not asked)."""
    questions, _ = read_analogies(datapath("questions-words.txt"))
    pairs, _ = read_word_pairs(datapath("simlex999.txt"))
    vocab = sorted(
        {normalize(w) for q in questions for w in q.words}
        | {normalize(p.a) for p in pairs}
        | {normalize(p.b) for p in pairs}
    )
    rng = np.random.default_rng(0)
    vec = {w: rng.standard_normal(50) for w in vocab}
    offsets: dict[str, np.ndarray] = {}
    for q in questions:
        offset = offsets.setdefault(q.section, rng.standard_normal(50))
        a, b = normalize(q.words[0]), normalize(q.words[1])
        if rng.random() < 0.02:
            vec[b] = vec[a] + offset + 0.5 * rng.standard_normal(50)
    keep = rng.random(len(vocab)) > 0.05
    words = [w for w, k in zip(vocab, keep, strict=True) if k]
    X = np.stack([vec[w] for w in words]).astype(np.float32)
    kv = KeyedVectors(50)
    kv.add_vectors(words, X)
    return X, words, kv, questions, pairs


def test_analogies_match_gensim_exactly(benchmark_vectors):
    X, words, kv, questions, _ = benchmark_vectors
    per = evaluate_analogies(X, words, questions)
    ours = summarise_analogies(per)
    ours = ours[ours["method"] == "3CosAdd"].set_index("section")
    _, sections = kv.evaluate_word_analogies(datapath("questions-words.txt"))
    for sec in sections:
        key = "total" if sec["section"] == "Total accuracy" else sec["section"]
        correct, incorrect = len(sec["correct"]), len(sec["incorrect"])
        assert ours.loc[key, "n_correct"] == correct, key
        assert ours.loc[key, "n_asked"] == correct + incorrect, key
    assert ours.loc["total", "n_correct"] > 100  # the planted offsets are found
    assert ours.loc["total", "n_asked"] < len(questions)  # dropped words are not asked


def test_analogies_restrict_vocab_as_gensim(benchmark_vectors):
    X, words, kv, questions, _ = benchmark_vectors
    per = evaluate_analogies(X, words, questions, restrict_vocab=1500)
    total = summarise_analogies(per).set_index(["section", "method"]).loc[("total", "3CosAdd")]
    score, sections = kv.evaluate_word_analogies(
        datapath("questions-words.txt"), restrict_vocab=1500
    )
    assert total["n_correct"] == len(sections[-1]["correct"])
    assert total["n_asked"] == len(sections[-1]["correct"]) + len(sections[-1]["incorrect"])


# gensim's most_similar_cosmul calls its own deprecated init_sims
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_cosmul_matches_gensim_most_similar_cosmul(benchmark_vectors):
    X, words, kv, questions, _ = benchmark_vectors
    per = evaluate_analogies(X, words, questions[:3000], eps=1e-6)
    asked = per[per["status"] == "ok"].iloc[::7]
    assert len(asked) > 200
    for r in asked.itertuples():
        best = kv.most_similar_cosmul(positive=[r.b, r.c], negative=[r.a], topn=1)[0][0]
        assert best == r.predicted_mul, r


def test_word_pairs_match_gensim(benchmark_vectors):
    X, words, kv, _, pairs = benchmark_vectors
    for name in ("simlex999.txt", "wordsim353.tsv"):
        pairs, skipped = read_word_pairs(datapath(name))
        ours = spearman(evaluate_word_pairs(X, words, pairs))
        _, rho, oov_ratio = kv.evaluate_word_pairs(datapath(name))
        assert ours["spearman"] == pytest.approx(rho.statistic, abs=1e-6)
        assert ours["n_oov"] / ours["n_pairs"] * 100 == pytest.approx(oov_ratio)
        assert ours["n_used"] + ours["n_oov"] == ours["n_pairs"]


def test_analogy_by_hand():
    # On the unit circle: b + c - a = (0.4, 1.4) points at 74 degrees, queen at 73.7.
    # 3CosAdd: queen. 3CosMul (shifted cosines): queen 0.9 * 0.968 / (0.64 + eps) = 1.36,
    # apple 0.2 * 0.1 / 0.5 = 0.04. A word opposite to a would win 3CosMul (its
    # denominator tends to eps), which is why apple is not put there.
    words = ["man", "woman", "king", "queen", "apple"]
    X = np.array([[1, 0], [0.8, 0.6], [0.6, 0.8], [0.28, 0.96], [0, -1]], dtype=np.float32)
    from learnability.evaluations.analogy import Question

    per = evaluate_analogies(X, words, [Question("s", 1, ("Man", "Woman", "King", "Queen"))])
    assert per.loc[0, "predicted_add"] == "queen" and per.loc[0, "correct_add"]
    assert per.loc[0, "predicted_mul"] == "queen" and per.loc[0, "correct_mul"]


def test_word_pair_spearman_by_hand():
    from learnability.evaluations.word_pairs import Pair

    # cosines: (a, b) = 1, (a, c) = 0, (a, d) = -1; gold 9, 5, 1 -> rho = 1.
    # Swapping two gold scores gives d^2 = 1 + 1: rho = 1 - 6 * 2 / (3 * 8) = 0.5.
    words = ["a", "b", "c", "d"]
    X = np.array([[1, 0], [2, 0], [0, 3], [-1, 0]], dtype=np.float32)
    pairs = [Pair(1, "A", "b", 9.0), Pair(2, "a", "c", 5.0), Pair(3, "a", "d", 1.0)]
    per = evaluate_word_pairs(X, words, pairs + [Pair(4, "a", "zebra", 7.0)])
    assert per["cosine"].tolist()[:3] == pytest.approx([1.0, 0.0, -1.0])
    assert per["status"].tolist() == ["ok", "ok", "ok", "oov"]
    assert spearman(per) == {"n_pairs": 4, "n_used": 3, "n_oov": 1, "spearman": 1.0}
    swapped = [Pair(1, "a", "b", 5.0), Pair(2, "a", "c", 9.0), Pair(3, "a", "d", 1.0)]
    assert spearman(evaluate_word_pairs(X, words, swapped))["spearman"] == pytest.approx(0.5)


@pytest.mark.parametrize(
    "data, message",
    [
        (b"\x00\x01binary", "binary file"),
        (b": s\nq\tcaf\x81\n", "line 2: neither UTF-8 nor windows-1252"),
        ("q\tcafé\n".encode("utf-16-le"), "UTF-16 without a byte-order mark"),
    ],
)
def test_test_files_refuse_binary_and_non_utf8(tmp_path, data, message):
    """Test files follow the one encoding policy of text inputs (learnability.io): what
    neither UTF-8, UTF-16/32 with a BOM nor windows-1252 decodes is refused by line."""
    from learnability.evaluations.hierarchy import read_edges

    path = tmp_path / "t.txt"
    path.write_bytes(data)
    for reader in (read_multi_answer, read_analogies, read_word_pairs, read_edges):
        with pytest.raises(InputError, match=message) as err:
            reader(path)
        assert str(path) in str(err.value)

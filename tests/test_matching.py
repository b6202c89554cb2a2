"""The case policy in every evaluation: on a cased vocabulary the evaluations' words find
their vocabulary words by the same rule as the concept lists (learnability.concepts.matching)."""

import numpy as np
import pandas as pd
import pytest

from learnability.concepts.matching import Matcher
from learnability.evaluations.analogy import Question, evaluate_analogies
from learnability.evaluations.hierarchy import evaluate_hierarchy
from learnability.evaluations.multianswer import Query, evaluate_multi_answer
from learnability.evaluations.word_pairs import Pair, evaluate_word_pairs

# "Paris" only capitalised, "France" both ways (the capitalised one more frequent, listed
# first), "berlin" only lower-case
WORDS = ["France", "Paris", "france", "berlin", "Germany", "city", "capital", "Rome", "Italy"]


@pytest.fixture(scope="module")
def vectors():
    rng = np.random.default_rng(0)
    v = rng.normal(size=(len(WORDS), 8)).astype(np.float32)
    v[1] = v[0] + 0.05 * rng.normal(size=8)  # Paris beside France
    return v


def test_multi_answer_finds_words_under_the_policy(vectors):
    queries = [Query("s", 1, "Paris", ("France", "france")), Query("s", 2, "paris", ("FRANCE",))]
    auto = evaluate_multi_answer(vectors, WORDS, queries, k=2)
    assert auto["status"].tolist() == ["ok", "ok"]  # "paris" found as its variant "Paris"
    assert bool(auto["correct"].iloc[0])  # France is Paris's nearest neighbour
    assert auto["n_answers_in_vocab"].tolist() == [2, 1]  # France and france; FRANCE -> France
    lower = evaluate_multi_answer(vectors, WORDS, queries, k=2, case="lower")
    assert lower["status"].tolist() == ["query_oov", "query_oov"]


def test_analogies_and_pairs_find_capitalised_words(vectors):
    q = [Question("capital-common-countries", 1, ("Paris", "France", "Rome", "Italy"))]
    assert evaluate_analogies(vectors, WORDS, q)["status"].iloc[0] != "oov"
    assert evaluate_analogies(vectors, WORDS, q, case="lower")["status"].iloc[0] == "oov"
    pairs = [Pair(1, "paris", "rome", 5.0), Pair(2, "city", "capital", 6.0)]
    got = evaluate_word_pairs(vectors, WORDS, pairs)
    assert got["status"].tolist() == ["ok", "ok"]
    assert evaluate_word_pairs(vectors, WORDS, pairs, case="exact")["status"].iloc[0] == "oov"


def test_hierarchy_nodes_find_their_case_variants(vectors):
    edges = pd.DataFrame({"parent": ["city", "city"], "child": ["paris", "rome"], "line": [1, 2]})
    _, _, counts = evaluate_hierarchy(vectors, WORDS, edges)
    assert counts["n_nodes_oov"] == 0 and counts["n_edges_used"] == 2
    _, _, counts = evaluate_hierarchy(vectors, WORDS, edges, case="lower")
    assert counts["n_nodes_oov"] == 2


def test_matcher_rejects_an_unknown_policy():
    with pytest.raises(ValueError, match="case policy"):
        Matcher(WORDS, "upper")


def test_evaluation_tables_keep_their_documented_columns(vectors):
    from learnability import schemas

    queries = [Query("s", 1, "Paris", ("France",))]
    per = evaluate_multi_answer(vectors, WORDS, queries, k=2, dataset="d", embedding="e")
    schemas.conform(per, "multi_answer")  # raises on a missing or extra column


def test_a_repeated_word_is_its_first_row_and_vocabulary_words_are_folded_as_written():
    """By hand: a word twice in a vocabulary is found at its first row; a vocabulary
    word outside ASCII folds as the tokeniser writes it (NFKC, one apostrophe), so a
    list's "IT'S" finds "it’s"; a word holding a line break does not shift the others."""
    m = Matcher(["a", "b", "a"], "auto")
    assert m.find("a") == (0, "exact") and m.variants("A") == ["a", "a"]
    m = Matcher(["Ünïcode", "it\u2019s", "ﬁne"], "auto")
    assert m.find("ünïcode") == (0, "variant")
    assert m.find("IT'S") == (1, "variant") and m.find("fine") == (2, "variant")
    m = Matcher(["A\nB", "C"], "auto")
    assert m.find("c") == (1, "variant") and m.find("a\nb") == (0, "variant")

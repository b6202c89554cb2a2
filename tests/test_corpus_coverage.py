"""The lists' coverage in a corpus before training (learnability.concepts.corpus_coverage),
against the coverage of the vocabulary the trainers would build: every word of the
corpus counted whole (a Counter over every part, not the restricted sums under test),
kept at min_count, and resolved by the same resolve() the embeddings' coverage uses."""

from __future__ import annotations

from collections import Counter

import pandas as pd
import pytest

from learnability import schemas
from learnability.concepts.corpus_coverage import corpus_candidates, corpus_coverage
from learnability.concepts.lists import Entry, coverage, resolve
from learnability.corpus.extract import write_counts

PARTS = [
    # part 1: "anger" below min_count here, at it with part 2; "angry" only here
    "anger anger rage rage rage angry angry angry fury hateful hateful hateful the the the",
    # part 2: the wildcard's words split over both parts; "furious" 2 + 1
    "anger furious furious hater hater hater the the rage hatred hatred hatred irate",
    "furious irate irate ire ire tiresome tiresome tiresome",
]
LISTS = {
    "anger": ["anger", "Rage", "fury", "furious", "hat*", "irate", "ire", "well-known"],
    "tiny": ["angry", "irate", "nothing", "fur*"],
    "none": ["zzz", "qqq*"],
    "one": ["anger", "zzz"],
}


def _parts(tmp_path) -> list:
    paths = []
    for k, text in enumerate(PARTS):
        path = tmp_path / f"part-{k}.counts.parquet"
        write_counts(Counter(text.split()), path)
        paths.append(path)
    return paths


def _entries() -> dict[str, list[Entry]]:
    return {name: [Entry(t, i + 1) for i, t in enumerate(ws)] for name, ws in LISTS.items()}


def _reference(min_count: int) -> pd.DataFrame:
    """Coverage against the whole corpus' vocabulary at min_count, counted afresh."""
    total = Counter(" ".join(PARTS).split())
    vocab = sorted((w for w, c in total.items() if c >= min_count), key=lambda w: (-total[w], w))
    return pd.concat(
        [coverage(resolve(entries, vocab, list_name=name, embedding="mine", source=name),
                  "corpus")
         for name, entries in _entries().items()],
        ignore_index=True,
    )  # fmt: skip


@pytest.mark.parametrize("min_count", [1, 3, 4])
def test_coverage_before_training_is_that_of_the_vocabulary_the_trainers_keep(tmp_path, min_count):
    table = corpus_coverage(
        _parts(tmp_path), _entries(), {name: name for name in LISTS},
        corpus="mine", min_count=min_count, min_words=4, case="auto",
    )  # fmt: skip
    assert list(schemas.conform(table, "coverage").columns) == schemas.columns("coverage")
    reference = _reference(min_count).drop(columns="not_scored")
    pd.testing.assert_frame_equal(table.drop(columns="not_scored"), reference)
    # a list is marked at min_words, and only below it
    n = table.set_index("list")["n_in_vocab"]
    marked = table.set_index("list")["not_scored"] != ""
    assert marked.to_dict() == (n < 4).to_dict()


def test_a_word_summed_over_parts_and_a_wildcard_over_parts_count_at_min_count(tmp_path):
    """The hand case: at min_count 3 "anger" (2 + 1) and "furious" (2 + 1) are kept though
    no part alone has them 3 times, "hat*" finds hateful, hater and hatred (3 each, two
    of them in one part only), "fury" (once) and "ire" (twice) are out; "tiny" keeps
    angry, irate and furious (by fur*): 3 words, one short of 4, and its row says so."""
    table = corpus_coverage(
        _parts(tmp_path), _entries(), {name: name for name in LISTS},
        corpus="mine", min_count=3, min_words=4, case="auto",
    ).set_index("list")  # fmt: skip
    assert table.loc["anger", "n_in_vocab"] == 7  # anger rage furious 3x hat* irate
    assert table.loc["anger", "n_wildcard_words"] == 3 and table.loc["anger", "n_phrases"] == 1
    assert table.loc["anger", "not_scored"] == ""
    assert table.loc["tiny", "n_in_vocab"] == 3
    assert table.loc["tiny", "not_scored"] == (
        "only 3 of its words are in the corpus 3 or more times (training.min_count); at "
        "least 4 are needed"
    )
    assert table.loc["none", "n_in_vocab"] == 0 and table.loc["none", "not_scored"] != ""
    assert table.loc["one", "not_scored"].startswith("only 1 of its words is in the corpus")


def test_the_candidates_are_the_kept_words_most_frequent_first(tmp_path):
    """What the lists' entries can match, as the trainers would order their vocabulary:
    most frequent first, ties alphabetical; nothing from no parts."""
    words, counts = corpus_candidates(_parts(tmp_path), _entries(), 3)
    total = Counter(" ".join(PARTS).split())
    entries = [e.lower() for es in LISTS.values() for e in es]
    prefixes = [e[:-1] for e in entries if e.endswith("*")]
    can = {w for w in total if w in entries or any(w.startswith(p) for p in prefixes)}
    expected = sorted((w for w in can if total[w] >= 3), key=lambda w: (-total[w], w))
    assert words == expected and counts.tolist() == [total[w] for w in expected]
    words, counts = corpus_candidates([], _entries(), 3)
    assert words == [] and counts.shape == (0,)

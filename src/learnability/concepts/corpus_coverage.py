"""How each list meets a corpus before anything is trained on it.

The trainers keep the words a corpus holds at least ``training.min_count`` times, so the
corpus' own counts (the extraction's count table of each part) already say which of a
list's entries the embeddings will know, and so which lists can be scored: a user whose
text does not cover a list learns it minutes after the extraction, not after training.

Only the words an entry could match are summed over the parts (the entries' own words
and the words that start with a wildcard's prefix), so memory holds one part's count
table and those words, whatever the corpus' size. The resolution is the one the
workflow makes against each embedding's vocabulary (:func:`~.lists.resolve`, on the
words the trainers keep), so the counts here are what the coverage table will say,
unless an embedding overrides ``min_count`` or its trainer drops words for another
reason."""

from __future__ import annotations

import os
from collections.abc import Mapping

import numpy as np
import pandas as pd

from learnability.concepts.lists import Entry, coverage, resolve
from learnability.concepts.matching import Matcher
from learnability.corpus.tokenize import normal_form
from learnability.schemas import read_tables

# the coverage table's vocabulary column for these rows: the corpus' own counts
CORPUS_VOCABULARY = "corpus"


def entry_keys(lists: Mapping[str, list[Entry]]) -> tuple[set[str], dict[int, set[str]]]:
    """What the entries of ``lists`` can match in a corpus (whose tokens are lower
    case): their words, lowered, and their wildcards' prefixes by length."""
    words: set[str] = set()
    prefixes: dict[int, set[str]] = {}
    for entries in lists.values():
        for entry in entries:
            text = normal_form(entry.text.strip()).lower()
            if text.endswith("*"):
                prefix = text.rstrip("*")
                prefixes.setdefault(len(prefix), set()).add(prefix)
            else:
                words.add(text)
    return words, prefixes


def corpus_candidates(
    counts: list[str | os.PathLike[str]],
    lists: Mapping[str, list[Entry]],
    min_count: int,
) -> tuple[list[str], np.ndarray]:
    """The corpus words that an entry of ``lists`` could match and that the trainers
    keep (summed count over the parts' ``token_counts`` tables >= ``min_count``), most
    frequent first, ties alphabetical, with their counts."""
    words, prefixes = entry_keys(lists)
    pieces = []
    for path in counts:
        table = read_tables([path], "token_counts")
        vocab = table["word"].astype(object)
        keep = np.array(vocab.isin(list(words)), dtype=bool)
        for length, group in prefixes.items():
            keep |= vocab.str[:length].isin(list(group)).to_numpy()
        pieces.append(table[keep])
    if not pieces:
        return [], np.empty(0, np.int64)
    found = pd.concat(pieces, ignore_index=True).groupby("word", sort=False)["count"].sum()
    found = found[found >= min_count].reset_index()
    found = found.sort_values(["count", "word"], ascending=[False, True], kind="stable")
    return found["word"].tolist(), found["count"].to_numpy(np.int64)


def corpus_coverage(
    counts: list[str | os.PathLike[str]],
    lists: Mapping[str, list[Entry]],
    sources: Mapping[str, str],
    *,
    corpus: str,
    min_count: int,
    min_words: int,
    case: str,
) -> pd.DataFrame:
    """One coverage row (schema ``coverage``) per list against ``corpus``' words the
    trainers keep, in ``lists``' order: ``vocabulary`` is ``corpus``, the ``embedding``
    column names the corpus, and ``not_scored`` says why a list with fewer than
    ``min_words`` of its words there will not be scored ("" for the others)."""
    words, word_counts = corpus_candidates(counts, lists, min_count)
    matcher = Matcher(words, case, word_counts)
    rows = []
    for name, entries in lists.items():
        resolved = resolve(entries, words, list_name=name, embedding=corpus,
                           source=sources[name], matcher=matcher)  # fmt: skip
        row = coverage(resolved, CORPUS_VOCABULARY)
        n = int(row["n_in_vocab"].iloc[0])
        row["not_scored"] = (
            f"only {n} of its words {'is' if n == 1 else 'are'} in the corpus {min_count} "
            f"or more times (training.min_count); at least {min_words} are needed"
            if n < min_words
            else ""
        )
        rows.append(row)
    return pd.concat(rows, ignore_index=True)

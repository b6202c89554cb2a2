"""The shared vocabulary: a fair, paired basis for comparing embeddings."""

import numpy as np
import pandas as pd
import pytest

from learnability.embeddings import Embedding, load_embedding, save_embedding
from learnability.embeddings.shared import restrict_embedding, shared_vocabulary
from learnability.errors import InputError
from learnability.protocol.evaluate import Protocol, evaluate_concept_full


def vocab(words, counts):
    return pd.DataFrame({"word": words, "count": counts})


def test_shared_vocabulary_keeps_the_first_order_and_counts():
    a = vocab(["the", "cat", "sat", "mat"], [10, 5, 3, 1])
    b = vocab(["mat", "the", "dog", "cat"], [7, 9, 8, 2])
    shared = shared_vocabulary({"a": a, "b": b})
    assert shared["word"].tolist() == ["the", "cat", "mat"]
    assert shared["count"].tolist() == [10, 5, 1]
    assert shared["index"].tolist() == [0, 1, 2]
    with pytest.raises(InputError, match="share no word"):
        shared_vocabulary({"a": a, "c": vocab(["x"], [1])})


def test_restricted_embeddings_see_identical_splits(tmp_path):
    """Two embeddings with different vocabularies (orders and extra words): restricted to
    the shared words, a list's splits and non-members are word for word the same, and
    each embedding's vectors are its own rows for those words."""
    rng = np.random.default_rng(0)
    words_a = [f"w{i}" for i in range(300)]
    words_b = [f"w{i}" for i in range(299, 19, -1)] + [f"x{i}" for i in range(50)]
    for name, words in (("a", words_a), ("b", words_b)):
        emb = Embedding(
            words=words,
            vectors=rng.normal(size=(len(words), 6)).astype(np.float32),
            counts=np.arange(len(words), 0, -1),
            name=name,
        )
        save_embedding(emb, tmp_path / name)
    vocabs = {n: pd.read_parquet(tmp_path / n / "vocab.parquet") for n in ("a", "b")}
    shared = shared_vocabulary(vocabs)
    assert len(shared) == 280 and shared["word"].iloc[0] == "w20"
    for n in ("a", "b"):
        meta = restrict_embedding(tmp_path / n, shared, tmp_path / f"{n}-shared", name=n, block=7)
        own = load_embedding(tmp_path / n)
        cut = load_embedding(tmp_path / f"{n}-shared")
        assert cut.words == shared["word"].tolist() and meta["words_dropped"] == len(own) - 280
        rows = [own.index[w] for w in cut.words]
        np.testing.assert_array_equal(cut.vectors, own.vectors[rows])
    members = np.arange(0, 40)
    chosen = {}
    for n in ("a", "b"):
        cut = load_embedding(tmp_path / f"{n}-shared")
        res = evaluate_concept_full(
            cut.vectors,
            members,
            Protocol(iterations=5, C=1.0, seed=1),
            list_name="l",
            embedding=n,
            vocabulary=pd.Series(cut.words),
        )
        chosen[n] = res.members.sort_values("index")[["word", "n_test"]].to_numpy().tolist()
    assert chosen["a"] == chosen["b"]  # the same members held out the same number of times

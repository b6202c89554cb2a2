"""The batched solver against the converged reference, on the same splits."""

import gzip

import numpy as np
import pytest
from planted import planted_concept
from scipy.optimize import minimize

from learnability.protocol.classify import fit_many
from learnability.protocol.evaluate import Protocol, evaluate_concept_full
from learnability.protocol.lbfgs_stacked import lbfgs_batched


def _objective(theta, x, y, C):
    w, b = theta[:-1], theta[-1]
    z = x @ w + b
    return 0.5 * w @ w + C * np.sum(np.logaddexp(0, z) - y * z)


def test_lbfgs_reaches_the_optimum_of_the_objective():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(3, 80, 6))
    y = (x[:, :, 0] + rng.normal(size=(3, 80)) > 0).astype(float)
    X = np.concatenate([x, np.ones((3, 80, 1))], axis=2)
    W, iters, converged = lbfgs_batched(X, y, C=0.5, tol=1e-9)
    assert converged.all() and (iters > 0).all()
    # the compiled kernel on the same problems, as rows of one matrix
    from learnability.protocol.lbfgs import solve_rows

    Wk, iters_k, converged_k = solve_rows(
        x.reshape(-1, 6), np.arange(240).reshape(3, 80), y, 0.5, tol=1e-9, memory=10, max_steps=500
    )
    assert converged_k.all()
    for b in range(3):
        ref = minimize(
            _objective, np.zeros(7), args=(x[b], y[b], 0.5), method="BFGS", options={"gtol": 1e-11}
        ).x
        np.testing.assert_allclose(W[b], ref, rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(Wk[b], ref, rtol=1e-6, atol=1e-7)


def _compare(vectors, members, C=1.0, iterations=12):
    results = {}
    for solver in ("batched", "reference"):
        proto = Protocol(iterations=iterations, C=C, seed=5, solver=solver)
        results[solver] = evaluate_concept_full(
            vectors, members, proto, list_name="c", embedding="e"
        ).iterations
    a, b = results["batched"], results["reference"]
    assert (a["seed"] == b["seed"]).all()
    np.testing.assert_allclose(a["auc"], b["auc"], rtol=0, atol=1e-6)
    np.testing.assert_allclose(a["accuracy"], b["accuracy"], rtol=0, atol=1e-12)
    return a


def _coefficients(vectors, members, solver, iterations=6, backend=None):
    from learnability.protocol.splits import draw_splits

    proto = Protocol(iterations=iterations, C=1.0, seed=5)
    splits = draw_splits(
        vectors.shape[0], np.asarray(members), proto, list(range(iterations)), None
    )
    idx = np.stack([s[0] for s in splits])
    y = np.stack([s[1] for s in splits]).astype(float)
    return fit_many(vectors, idx, y, 1.0, solver=solver, backend=backend)


def test_batched_equals_reference_on_a_planted_400_word_concept():
    vectors = planted_concept(1, n=6000, dim=300, size=400, shift=3.0).vectors
    its = _compare(vectors, np.arange(400), iterations=8)
    assert its["auc"].mean() > 0.8
    a = _coefficients(vectors, np.arange(400), "batched")
    b = _coefficients(vectors, np.arange(400), "reference")
    rel = np.abs(a - b).max(axis=1) / np.abs(b).max(axis=1)
    assert rel.max() < 1e-4


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """A small word2vec embedding trained here, with a concept of co-occurring words."""
    from learnability.embeddings import train

    rng = np.random.default_rng(2)
    topic = [f"t{i}" for i in range(60)]
    other = [f"o{i}" for i in range(600)]
    lines = []
    for _ in range(3000):
        pool = topic if rng.random() < 0.3 else other
        lines.append(" ".join(rng.choice(pool, size=10)))
    path = tmp_path_factory.mktemp("emb") / "c.txt.gz"
    with gzip.open(path, "wt") as fh:
        fh.write("\n".join(lines) + "\n")
    params = dict(
        dim=40,
        window=3,
        min_count=2,
        negative=5,
        sample=0.0,
        alpha=0.025,
        min_alpha=0.0001,
        epochs=3,
        seed=1,
    )
    emb = train("word2vec", str(path), params, threads=1)
    members = np.array([emb.index[w] for w in topic])
    return emb.vectors, members


def test_batched_equals_reference_on_a_trained_embedding(trained):
    vectors, members = trained
    its = _compare(vectors, members, iterations=10)
    assert its["auc"].mean() > 0.9
    a = _coefficients(vectors, members, "batched")
    b = _coefficients(vectors, members, "reference")
    rel = np.abs(a - b).max(axis=1) / np.abs(b).max(axis=1)
    assert rel.max() < 1e-4


def _problems(vectors, members, iterations=7):
    from learnability.protocol.splits import draw_splits

    proto = Protocol(iterations=iterations, C=1.0, seed=1)
    splits = draw_splits(
        vectors.shape[0], np.asarray(members), proto, list(range(iterations)), None
    )
    return np.stack([s[0] for s in splits]), np.stack([s[1] for s in splits]).astype(float)


def test_compiled_kernel_and_stacked_numpy_loop_agree_whatever_the_chunks(trained):
    """The numba kernel (one problem per thread) and the stacked numpy loop run the same
    L-BFGS; chunking the stacked loop down to one problem changes nothing."""
    vectors, members = trained
    idx, y = _problems(vectors, members)
    compiled = fit_many(vectors, idx, y, 1.0)
    one = fit_many(vectors, idx, y, 1.0, backend="numpy", chunk_bytes=1)
    big = fit_many(vectors, idx, y, 1.0, backend="numpy")
    np.testing.assert_allclose(one, big, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(compiled, big, rtol=1e-5, atol=1e-7)


def test_results_do_not_depend_on_the_number_of_threads(trained):
    from learnability.protocol.lbfgs import solve_rows

    vectors, members = trained
    idx, y = _problems(vectors, members, iterations=9)
    kw = dict(tol=1e-6, memory=10, max_steps=2000)
    w1, it1, _ = solve_rows(vectors, idx, y, 1.0, threads=1, **kw)
    w2, it2, _ = solve_rows(vectors, idx, y, 1.0, threads=2, **kw)
    assert np.array_equal(w1, w2) and np.array_equal(it1, it2)  # bit for bit


def test_progress_blocks_change_no_bit_and_the_log_counts_the_fits(trained, monkeypatch, caplog):
    import learnability.protocol.classify as classify

    vectors, members = trained
    idx, y = _problems(vectors, members, iterations=9)
    whole = fit_many(vectors, idx, y, 1.0)
    monkeypatch.setattr(classify, "PROGRESS_BLOCK", 2)
    monkeypatch.setattr(classify, "MIN_FITS_PER_THREAD", 1)
    monkeypatch.setattr(classify, "PROGRESS_SECONDS", 0.0)
    with caplog.at_level("INFO", logger="learnability.protocol.classify"):
        # only this call's records: where an earlier test in the worker set the level to
        # INFO, the first fit's own "9 of 9" was captured too
        caplog.clear()
        blocks = fit_many(vectors, idx, y, 1.0, threads=2)
    assert np.array_equal(whole, blocks)
    counts = [m.split(" fits (")[0] for m in caplog.messages if m.startswith("fits: ")]
    assert counts[0] == "fits: 2 of 9" and counts[-1] == "fits: 9 of 9"


def test_float32_rows_are_read_without_losing_precision(trained):
    """A float32 embedding (the stored dtype) is read as is, with float64 arithmetic: the
    same optimum as its float64 copy, far inside the float64 tolerance."""
    vectors, members = trained
    v32 = np.asarray(vectors, dtype=np.float32)
    idx, y = _problems(vectors, members)
    a = fit_many(v32, idx, y, 1.0)
    b = fit_many(v32.astype(np.float64), idx, y, 1.0)
    np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-11)


def test_an_embedding_in_memory_and_a_memory_mapped_one_share_one_compiled_kernel(tmp_path):
    """numba compiles a read-only array apart from a writable one: the solver and the
    decision values view their rows read-only, so a float32 embedding in memory and a
    memory-mapped store (the workflow's) run one compiled kernel, to the same bits, and
    the caller's array is left writable."""
    from learnability.protocol import lbfgs

    rng = np.random.default_rng(6)
    E = rng.normal(size=(60, 4)).astype(np.float32)
    np.save(tmp_path / "e.npy", E)
    mapped = np.load(tmp_path / "e.npy", mmap_mode="r")
    idx = np.stack([rng.choice(60, size=20, replace=False) for _ in range(3)])
    y = np.tile(np.r_[np.ones(10), np.zeros(10)], (3, 1))
    fits = [lbfgs.solve_rows(a, idx, y, 1.0, tol=1e-8, memory=5, max_steps=200)[0]
            for a in (E, mapped)]  # fmt: skip
    np.testing.assert_array_equal(fits[0], fits[1])
    np.testing.assert_array_equal(
        lbfgs.decision_values(E, idx, fits[0]), lbfgs.decision_values(mapped, idx, fits[0])
    )
    for kernel in (lbfgs._solve_many, lbfgs._decision_values):
        assert kernel.signatures, kernel
        assert not [sig for sig in kernel.signatures if sig[0].mutable], kernel.signatures
    assert E.flags.writeable


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_kernel_objective_and_gradient_match_numpy(dtype):
    """One fused pass gives the objective and gradient of the numpy formula, also for
    logits far beyond exp's range (no overflow) and a row count not divisible by 4."""
    from learnability.protocol.lbfgs import objective

    rng = np.random.default_rng(3)
    E = rng.normal(size=(50, 7)).astype(dtype)
    rows = rng.choice(50, size=23, replace=False)
    y = (rng.random(23) < 0.5).astype(float)
    for scale in (0.1, 1.0, 400.0):
        w = rng.normal(size=8) * scale
        g = np.empty(8)
        mu = rng.normal(size=7) * (scale > 1)  # centred rows too
        f = objective(E, rows, y, 0.7, w, g, mu)
        x = E[rows].astype(np.float64) - mu
        z = x @ w[:-1] + w[-1]
        expected_f = 0.5 * w[:-1] @ w[:-1] + 0.7 * np.sum(np.logaddexp(0, z) - y * z)
        r = 0.7 * (0.5 * (1 + np.tanh(0.5 * z)) - y)
        expected_g = np.r_[x.T @ r + w[:-1], r.sum()]
        assert np.isfinite(f)
        assert f == pytest.approx(expected_f, rel=1e-13)
        np.testing.assert_allclose(g, expected_g, rtol=1e-12, atol=1e-12 * np.abs(expected_g).max())


def test_decision_values_match_numpy():
    from learnability.protocol.lbfgs import decision_values

    rng = np.random.default_rng(4)
    E = rng.normal(size=(40, 5)).astype(np.float32)
    idx = rng.integers(0, 40, size=(3, 11))
    W = rng.normal(size=(3, 6))
    expected = np.einsum("bnd,bd->bn", E[idx].astype(np.float64), W[:, :-1]) + W[:, -1:]
    np.testing.assert_allclose(decision_values(E, idx, W), expected, rtol=1e-12, atol=1e-12)


def test_unknown_backend_or_cpu_backend_on_a_gpu():
    args = (np.zeros((10, 2)), np.zeros((1, 4), int), np.zeros((1, 4)), 1.0)
    with pytest.raises(ValueError, match="unknown backend"):
        fit_many(*args, backend="fortran")
    with pytest.raises(ValueError, match="CPU only"):
        fit_many(*args, backend="numba", device="cuda")


def test_unknown_solver():
    with pytest.raises(ValueError, match="unknown solver"):
        fit_many(np.zeros((10, 2)), np.zeros((1, 4), int), np.zeros((1, 4)), 1.0, solver="magic")


def test_torch_backend_runs_the_same_algorithm(trained):
    """The optional GPU backend, run on the CPU with torch: same optimum as numpy.
    Skipped where torch is not installed (it is an optional extra)."""
    pytest.importorskip("torch")
    from learnability.protocol.lbfgs_stacked import backend_ops

    rng = np.random.default_rng(7)
    X = np.concatenate([rng.normal(size=(4, 120, 20)), np.ones((4, 120, 1))], axis=2)
    y = (X[:, :, 0] + rng.normal(size=(4, 120)) > 0).astype(float)
    w_np, it_np, ok_np = lbfgs_batched(X, y, 1.0)
    w_t, it_t, ok_t = lbfgs_batched(X, y, 1.0, ops=backend_ops("cpu", "torch"))
    assert ok_np.all() and ok_t.all()
    np.testing.assert_allclose(w_t, w_np, rtol=1e-6, atol=1e-8)
    vectors, members = trained
    a = _coefficients(vectors, members, "batched")
    b = _coefficients(vectors, members, "batched", backend="torch")
    np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-7)


def test_cuda_without_torch_or_gpu_is_a_clear_error(monkeypatch):
    import builtins

    from learnability.protocol.lbfgs_stacked import backend_ops

    real_import = builtins.__import__

    def no_torch(name, *args, **kwargs):
        if name == "torch":
            raise ImportError("no torch")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_torch)
    with pytest.raises(RuntimeError, match="needs PyTorch"):
        backend_ops("cuda")


def test_null_distribution_honours_solver_options(trained):
    from learnability.protocol.evaluate import null_distribution

    vectors, _ = trained
    kw = dict(size=20, lists=3, iterations=2, C=1.0, seed=1, embedding="e")
    a = null_distribution(vectors, **kw)
    c = null_distribution(vectors, solver="reference", **kw)
    assert len(a) == 3  # one row per random list (means over its splits)
    np.testing.assert_allclose(a["auc"], c["auc"], atol=1e-6)


def test_centring_fits_the_same_model_in_fewer_iterations(seed):
    """Rows sharing a large common direction (as word2vec's do): solving on centred rows
    gives the same coefficients and intercept for the rows as they are (the intercept is
    not penalised), in fewer L-BFGS iterations."""
    rng = np.random.default_rng(seed + 8)
    vectors = rng.normal(size=(3000, 30)) * 0.3 + 2.0 * rng.normal(size=30) / np.sqrt(30)
    vectors[:60, 0] += 0.6
    members, others = np.arange(60), np.arange(60, 3000)
    idx = np.stack(
        [
            np.r_[rng.choice(members, 30, replace=False), rng.choice(others, 30, replace=False)]
            for _ in range(40)
        ]
    )
    y = np.r_[np.ones(30), np.zeros(30)][None].repeat(40, axis=0)
    fits = {}
    for center in (False, True):
        stats: dict = {}
        fits[center] = (fit_many(vectors, idx, y, 1.0, stats=stats, center=center), stats)
    ref = np.array([_exact(vectors[i], yy, 1.0) for i, yy in zip(idx[:5], y[:5], strict=True)])
    for center in (False, True):
        np.testing.assert_allclose(fits[center][0][:5], ref, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(fits[True][0], fits[False][0], rtol=1e-4, atol=1e-5)
    assert fits[True][1]["iterations"] < 0.8 * fits[False][1]["iterations"]
    # the stacked numpy loop centres the same way
    stacked = fit_many(vectors, idx[:5], y[:5], 1.0, backend="numpy")
    np.testing.assert_allclose(stacked, ref, rtol=1e-4, atol=1e-5)


def _exact(x, y, C):
    from sklearn.linear_model import LogisticRegression

    m = LogisticRegression(C=C, solver="newton-cholesky", tol=1e-12, max_iter=500).fit(x, y)
    return np.r_[m.coef_[0], m.intercept_[0]]
